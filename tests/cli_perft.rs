//! The `perft`, `perft-suite` and `bench` subcommands, run as a user runs them.

use std::process::Command;

fn shannon(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_shannon"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn divide_prints_stockfish_lines_then_the_total_and_the_speed() {
    let (ok, out, _) = shannon(&["perft", "3", "--divide"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20 + 3, "{out}");
    assert!(lines.contains(&"e2e4: 600"), "{out}");
    assert!(lines.contains(&"g1f3: 440"), "{out}");
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 8902");
    assert!(
        lines[22].starts_with("Time: ") && lines[22].ends_with("nodes/s"),
        "{}",
        lines[22]
    );
}

#[test]
fn castling_notation_follows_the_chess960_flag() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let (_, standard, _) = shannon(&["perft", "1", "--divide", "--fen", fen]);
    assert!(
        standard.contains("e1g1: 1") && standard.contains("e1c1: 1"),
        "{standard}"
    );
    let (_, chess960, _) = shannon(&["perft", "1", "--divide", "--fen", fen, "--chess960"]);
    assert!(
        chess960.contains("e1h1: 1") && chess960.contains("e1a1: 1"),
        "{chess960}"
    );
}

#[test]
fn generators_threads_and_hash_agree() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for extra in [
        &["--generator", "0x88"][..],
        &["--threads", "2"][..],
        &["--threads", "2", "--hash", "16"][..],
        &["--hash", "1"][..],
    ] {
        let mut args = vec!["perft", "3", "--fen", kiwipete];
        args.extend_from_slice(extra);
        let (ok, out, _) = shannon(&args);
        assert!(
            ok && out.contains("Nodes searched: 97862\n"),
            "{extra:?}: {out}"
        );
    }
}

#[test]
fn a_bad_fen_is_a_clear_error() {
    let (ok, out, err) = shannon(&["perft", "1", "--fen", "4k3/8/8/8/8/8/8/4K3 w X - 0 1"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(err.contains("castling field 'X'"), "{err}");
}

#[test]
fn perft_suite_passes_and_fails_with_the_details() {
    let dir = std::env::temp_dir().join(format!("shannon-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.epd");
    std::fs::write(
        &good,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n",
    )
    .unwrap();
    let (ok, out, _) = shannon(&["perft-suite", good.to_str().unwrap()]);
    assert!(ok, "{out}");
    assert!(out.contains("passed 1 of 1"), "{out}");

    let bad = dir.join("bad.epd");
    std::fs::write(
        &bad,
        "4k3/8/8/8/8/8/8/4K3 w - - ;D1 5 ;D2 25\n4k3/8/8/8/8/8/8/4K3 w - - ;D1 6\n",
    )
    .unwrap();
    let (ok, out, _) = shannon(&["perft-suite", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        out.contains("FAIL")
            && out.contains("4k3/8/8/8/8/8/8/4K3 w - -: depth 1: expected 6, counted 5"),
        "{out}"
    );
    assert!(out.contains("passed 1 of 2"), "{out}");

    let (ok, _, err) = shannon(&["perft-suite", dir.join("missing.epd").to_str().unwrap()]);
    assert!(!ok && err.contains("cannot read"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn perft_suite_respects_its_limits_and_reads_perft_blocks() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/tricky.perft");
    let (ok, out, _) = shannon(&[
        "perft-suite",
        suite,
        "--max-depth",
        "2",
        "--generator",
        "0x88",
    ]);
    assert!(ok, "{out}");
    assert!(out.contains("passed 18 of 18"), "{out}");
    assert!(out.contains("chess960"), "{out}");
}

#[test]
fn bench_playout_reports_its_figures() {
    let (ok, out, _) = shannon(&["bench", "playout", "--games", "20", "--seed", "3"]);
    assert!(ok);
    assert!(out.contains("20 games"), "{out}");
    assert!(out.contains("M plies/s"), "{out}");
}

#[test]
fn impossible_castling_rights_and_hash_sizes_are_warnings_not_failures() {
    // Issue 9, items 2 and 4: `--fen` drops a right the placement cannot have (as the UCI engine
    // does), and a `--hash` no machine has is cut down instead of aborting the process.
    let fen = "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1";
    let (ok, out, err) = shannon(&["perft", "2", "--fen", fen, "--hash", "100000000"]);
    assert!(ok, "{err}");
    assert!(out.contains("Nodes searched: 66"), "{out}");
    assert!(
        err.contains("warning: --fen: castling right 'Q' dropped"),
        "{err}"
    );
    assert!(
        err.contains("warning: --hash: a 100000000 MiB hash table cannot be had"),
        "{err}"
    );
}
