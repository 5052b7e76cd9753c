//! Matches against misbehaving engines (illegal moves, crashes, hangs, kills, floods), broken
//! configurations, a PGN path that cannot be written or a full disk, and the command line of
//! the faulty engine itself.

use super::{read_pgn, scratch, tag, FAULTY};
use crate::common::MatchLine;
use std::path::{Path, PathBuf};
use std::process::Command;

/// An engines file of `good` (Shannon) and `bad` (the faulty engine with `fault`).
pub(super) fn faulty_config(dir: &Path, fault: &str) -> PathBuf {
    let config = dir.join("engines.toml");
    std::fs::write(
        &config,
        format!(
            "[[engine]]\nname = \"good\"\ncommand = \"self\"\n\n[[engine]]\nname = \"bad\"\ncommand = \"{FAULTY}\"\nargs = [\"--fault\", \"{fault}\"]\ninit_timeout_ms = 1000\n\n[match]\nhang_timeout_ms = 1500\n"
        ),
    )
    .unwrap();
    config
}

/// Play 4 games against a faulty engine; every game must be lost by it with `termination`.
fn faulty_match(fault: &str, tc: &str, termination: &str, category: &str) {
    let dir = scratch(fault);
    let config = faulty_config(&dir, fault);
    let pgn = dir.join("games.pgn");
    let started = std::time::Instant::now();
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .games(4)
        .concurrency(2)
        .tc(tc)
        .pgn(&pgn)
        .quiet()
        .seed(9)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(started.elapsed().as_secs() < 60, "the match must not hang");
    assert!(out.contains(&format!("4  {category}")), "{out}");
    assert!(
        out.contains("good vs bad") && out.contains("     4      4      0      0"),
        "good wins all four: {out}"
    );
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 4);
    for game in games {
        assert_eq!(tag(&game, "Termination"), termination);
        let bad_is_white = tag(&game, "White") == "bad";
        assert_eq!(
            game.record.outcome.pgn(),
            if bad_is_white { "0-1" } else { "1-0" }
        );
    }
}

#[test]
fn an_illegal_move_loses() {
    faulty_match(
        "illegal-move",
        "nodes=1",
        "rules infraction",
        "illegal move",
    );
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    faulty_match("crash", "nodes=1", "abandoned", "crash");
}

#[test]
fn a_hang_loses_on_time_with_a_clock() {
    faulty_match("hang", "1+0", "time forfeit", "time forfeit");
}

#[test]
fn a_sigkill_mid_game_loses_and_the_engine_is_restarted() {
    faulty_match("sigkill", "nodes=1", "abandoned", "crash");
}

#[test]
fn an_engine_that_stops_reading_loses_without_stalling_the_runner() {
    faulty_match("stop-reading", "1+0", "time forfeit", "time forfeit");
}

#[test]
fn an_engine_flooding_garbage_is_a_hang_not_a_crash_of_the_runner() {
    faulty_match("flood", "nodes=1", "abandoned", "hang");
}

#[test]
fn an_unwritable_pgn_path_is_refused_before_any_game() {
    let dir = scratch("unwritable");
    let (ok, out, err) = MatchLine::new()
        .games(2)
        .pgn("/nonexistent-dir/games.pgn")
        .quiet()
        .run_in(&dir);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("cannot write the PGN file /nonexistent-dir/games.pgn"),
        "{err}"
    );
}

#[test]
fn a_full_disk_is_reported_and_the_match_completes() {
    if !Path::new("/dev/full").exists() {
        println!("skipped: no /dev/full on this system");
        return;
    }
    let dir = scratch("full");
    let (ok, out, err) = MatchLine::new()
        .games(4)
        .pgn("/dev/full")
        .arg("--state", dir.join("state.json").to_str().unwrap())
        .quiet()
        .seed(2)
        .run_in(&dir);
    assert!(!ok, "a lost PGN is a failure: {out}{err}");
    assert!(out.contains("4 games,"), "the match still completes: {out}");
    assert!(out.contains("PGN: writing /dev/full failed"), "{out}");
}

#[test]
fn broken_configs_are_reported_with_line_and_column() {
    let dir = scratch("broken");
    let config = dir.join("engines.toml");
    std::fs::write(&config, "[[engine]]\nname = \"x\"\ncommand = [1]\n").unwrap();
    let (ok, _, err) = MatchLine::new().config(&config).run_in(&dir);
    assert!(!ok);
    assert!(err.contains("line 3") && err.contains("column"), "{err}");
    std::fs::write(&config, "[[engine]]\nname = \"a\"\ncommand = \"no-such-engine-here\"\n[[engine]]\nname = \"b\"\ncommand = \"self\"\n").unwrap();
    let (ok, _, err) = MatchLine::new().config(&config).run_in(&dir);
    assert!(!ok);
    assert!(
        err.contains("engine 'a'") && err.contains("no-such-engine-here"),
        "{err}"
    );
    let (ok, _, err) = MatchLine::new().engines("a,zzz").run_in(&dir);
    assert!(
        !ok && err.contains("no engine named 'zzz'") && err.contains("it has: a, b"),
        "{err}"
    );
}

/// Issue 9: the faulty engine's --help failed and no error listed the fault kinds; a bad
/// --after was silently 3.
#[test]
fn the_faulty_engine_lists_its_faults_and_refuses_bad_arguments() {
    let help = Command::new(FAULTY).arg("--help").output().unwrap();
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    for kind in [
        "illegal-move",
        "crash",
        "sigkill",
        "hang",
        "stop-reading",
        "flood",
        "no-uciok",
        "omit-underpromotions",
        "omit-en-passant",
        "no-perft",
        "silent-perft",
        "no-bestmove-after-stop",
        "no-readyok-while-searching",
        "chess960-king-to-square",
        "bad-options",
        "slow-uciok",
        "omit-castling",
    ] {
        assert!(text.contains(kind), "--help lacks {kind}: {text}");
    }
    let nope = Command::new(FAULTY)
        .args(["--fault", "nope"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&nope.stderr);
    assert_eq!(nope.status.code(), Some(2));
    assert!(
        err.contains("illegal-move") && err.contains("stop-reading"),
        "{err}"
    );
    let bad_after = Command::new(FAULTY)
        .args(["--fault", "crash", "--after", "x"])
        .output()
        .unwrap();
    assert_eq!(bad_after.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad_after.stderr).contains("--after"),
        "{}",
        String::from_utf8_lossy(&bad_after.stderr)
    );
}
