//! `shannon perft-check`: agreement with our own engine and with Stockfish, the faults it must
//! find, an engine without `go perft`, and the depth limit.

use super::{run, scratch, stockfish, stockfish_config, FAULTY};
use std::path::Path;

/// The tricky suite (18 positions, Chess960 among them).
const TRICKY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/tricky.perft");

#[test]
fn perft_check_agrees_with_our_own_engine_on_the_0x88_generator() {
    let dir = scratch("self-check");
    let config = dir.join("engines.toml");
    std::fs::write(&config, "[[engine]]\nname = \"mailbox\"\ncommand = \"self\"\noptions = { \"Move Generator\" = \"0x88\" }\n").unwrap();
    let suite = TRICKY;
    let (ok, out, err) = run(
        &[
            "perft-check",
            "--config",
            config.to_str().unwrap(),
            "--engine",
            "mailbox",
            "--epd",
            suite,
            "--depth",
            "2",
        ],
        &dir,
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("agreed on 18 of 18"), "{out}");
}

#[test]
fn perft_check_finds_missing_underpromotions_and_en_passant() {
    let dir = scratch("planted");
    let config = dir.join("engines.toml");
    std::fs::write(
        &config,
        format!("[[engine]]\nname = \"no-under\"\ncommand = \"{FAULTY}\"\nargs = [\"--fault\", \"omit-underpromotions\"]\n[[engine]]\nname = \"no-ep\"\ncommand = \"{FAULTY}\"\nargs = [\"--fault\", \"omit-en-passant\"]\n"),
    )
    .unwrap();
    // The promotion is two plies down: the check must walk to the position where it happens.
    let fen = "4k3/8/8/8/8/8/p7/4K3 w - - 0 1";
    let (ok, out, _) = run(
        &[
            "perft-check",
            "--config",
            config.to_str().unwrap(),
            "--engine",
            "no-under",
            "--fen",
            fen,
            "--depth",
            "3",
        ],
        &dir,
    );
    assert!(!ok, "{out}");
    assert!(out.contains("the engine lacks: a2a1b a2a1n a2a1r"), "{out}");
    assert!(out.contains("fen:  4k3/8/8/8/8/8/p7/"), "{out}");
    assert!(
        out.contains("path: e1"),
        "the path starts with a white king move: {out}"
    );

    let fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1";
    let (ok, out, _) = run(
        &[
            "perft-check",
            "--config",
            config.to_str().unwrap(),
            "--engine",
            "no-ep",
            "--fen",
            fen,
            "--depth",
            "2",
        ],
        &dir,
    );
    assert!(!ok, "{out}");
    assert!(out.contains("path: e2e4"), "{out}");
    assert!(
        out.contains("fen:  4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"),
        "{out}"
    );
    assert!(out.contains("the engine lacks: d4e3"), "{out}");
}

#[test]
fn perft_check_agrees_with_stockfish_including_chess960() {
    let Some(stockfish) = stockfish() else { return };
    let dir = scratch("stockfish-perft");
    let config = stockfish_config(&dir, &stockfish);
    // 20 positions: 12 from the standard suites, 8 Chess960 middlegames.
    let mut suite = String::new();
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/");
    for (file, count) in [
        ("standard.epd", 6),
        ("special_cases.epd", 6),
        ("chess960.perft", 0),
    ] {
        if count > 0 {
            let text = std::fs::read_to_string(format!("{data}{file}")).unwrap();
            for line in text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .step_by(5)
                .take(count)
            {
                let fen = line.split(';').next().unwrap().trim();
                suite.push_str(&format!("{fen} ;D1 0\n"));
            }
        }
    }
    let epd = dir.join("positions.epd");
    std::fs::write(&epd, suite).unwrap();
    let (ok, out, err) = run(
        &[
            "perft-check",
            "--config",
            config.to_str().unwrap(),
            "--engine",
            "stockfish",
            "--epd",
            epd.to_str().unwrap(),
            "--depth",
            "3",
        ],
        &dir,
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("agreed on 12 of 12"), "{out}");
    let chess960 = dir.join("chess960.epd");
    let text = std::fs::read_to_string(format!("{data}chess960.perft")).unwrap();
    let fens: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("epd "))
        .step_by(120)
        .take(8)
        .collect();
    std::fs::write(
        &chess960,
        fens.iter()
            .map(|f| format!("{f} ;D1 0\n"))
            .collect::<String>(),
    )
    .unwrap();
    let (ok, out, err) = run(
        &[
            "perft-check",
            "--config",
            config.to_str().unwrap(),
            "--engine",
            "stockfish",
            "--epd",
            chess960.to_str().unwrap(),
            "--depth",
            "3",
        ],
        &dir,
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("agreed on 8 of 8"), "{out}");
}

/// `perft-check` of the faulty engine with `fault`, to depth 3, in `positions` (`--epd FILE` or
/// `--fen FEN`): (exit status 0, stdout, stderr, how long it took).
fn perft_check_of(
    fault: &str,
    dir: &Path,
    positions: [&str; 2],
) -> (bool, String, String, std::time::Duration) {
    let config = dir.join(format!("{fault}.toml"));
    std::fs::write(
        &config,
        format!("[[engine]]\nname = \"{fault}\"\ncommand = \"{FAULTY}\"\nargs = [\"--fault\", \"{fault}\"]\n"),
    )
    .unwrap();
    let started = std::time::Instant::now();
    // A 30 s timeout keeps a regression from hanging the suite for the default 600 s; the
    // answer must come long before it.
    let (ok, out, err) = run(
        &[
            "perft-check",
            "--config",
            config.to_str().unwrap(),
            "--engine",
            fault,
            positions[0],
            positions[1],
            "--depth",
            "3",
            "--timeout",
            "30",
        ],
        dir,
    );
    (ok, out, err, started.elapsed())
}

/// Issue 9: an engine without `go perft` (it searches instead, or says nothing) made
/// perft-check wait out its whole timeout.
#[test]
fn perft_check_reports_an_engine_without_go_perft_at_once() {
    let dir = scratch("no-perft");
    let suite = ["--epd", TRICKY];
    for (fault, why) in [
        (
            "no-perft",
            "it answered 'go perft 1' with a search: 'bestmove",
        ),
        (
            "silent-perft",
            "no 'Nodes searched' line within 2000 ms of 'go perft 1'",
        ),
    ] {
        let (ok, out, err, took) = perft_check_of(fault, &dir, suite);
        assert!(!ok, "{out}{err}");
        assert!(
            out.contains(&format!(
                "engine '{fault}': this engine does not support go perft ({why}"
            )),
            "{out}{err}"
        );
        assert_eq!(
            out.matches("ERROR").count(),
            1,
            "reported once, not per position: {out}"
        );
        assert!(out.contains("agreed on 0 of 18 positions"), "{out}");
        assert!(took.as_secs() < 10, "{fault}: took {took:?}");
    }
    // The probe does not get in the way of an engine that has perft.
    let (ok, out, err, _) = perft_check_of("none", &dir, suite);
    assert!(ok, "{out}{err}");
    assert!(out.contains("agreed on 18 of 18"), "{out}");
}

/// Issue 9, item 5 (found while fixing it): `perft-check --depth` had no limit, and our own count
/// would recurse until the stack overflowed.
#[test]
fn perft_check_depth_has_the_perft_limit() {
    let dir = scratch("perft-check-depth");
    let (ok, out, err) = run(
        &["perft-check", "--engine", "shannon-a", "--depth", "20000"],
        &dir,
    );
    assert!(!ok, "{out}");
    assert!(err.contains("20000") && err.contains("1..=64"), "{err}");
    assert!(!err.contains("overflow"), "{err}");
}

/// Issue 20: a walk that ended on a node where the engine agrees said `same moves, the
/// engine's total is wrong` (it was not); a wrong total whose moves are right is said as such.
#[test]
fn perft_check_says_what_is_wrong_when_no_move_is() {
    let dir = scratch("perft-check-sums");
    let check = |fault: &str| {
        let (ok, out, err, _) =
            perft_check_of(fault, &dir, ["--fen", "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"]);
        assert!(!ok, "{out}{err}");
        out
    };
    let out = check("wrong-perft-total");
    assert!(out.contains("path: (the position itself)"), "{out}");
    assert!(
        out.contains("its `Nodes searched` total 249 is not their sum 248 (ours: 248)"),
        "{out}"
    );
    // The engine drops d4e3 below e2e4 (it loses the en passant square making e2e4), but finds
    // it given the position after e2e4: the walk ends there, and says so.
    let out = check("perft-loses-en-passant-square");
    assert!(out.contains("path: e2e4"), "{out}");
    assert!(
        out.contains("depth 2: engine 38 nodes, shannon 38"),
        "{out}"
    );
    assert!(
        out.contains("given this position the engine counts 38, as we do, but in the position before it counted 35 for e2e4"),
        "{out}"
    );
    assert!(!out.contains("the engine's total is wrong"), "{out}");
}
