//! Issue 30, item 2: run B started with `--pgn z.pgn --state other.json` while run A wrote
//! z.pgn emptied it under A, and both wrote into it (games lost, mixed and mangled). Every file a
//! run writes is now locked for the run: a second run pointing any of its files (PGN, EPD,
//! state, JSON, HTML report; the forensics folder goes with its PGN) at one a running run
//! writes is refused at once, naming the file and the holder, before it writes anything.

use super::reruns::started_until;
use super::{read_pgn, scratch, tag};
use crate::common::MatchLine;
use std::collections::BTreeSet;
use std::process::Command;

#[cfg(unix)]
#[test]
fn a_second_run_on_any_file_of_a_running_run_is_refused_before_it_writes() {
    let dir = scratch("two-runs");
    let a = MatchLine::new()
        .games(400)
        .tc("nodes=1")
        .seed(12)
        .concurrency(1)
        .pgn("z.pgn")
        .arg("--epd", "z.epd")
        .arg("--json", "z.json")
        .arg("--report", "z.html")
        .quiet();
    let mut first = started_until(&a.strs(), &dir, "z.pgn", 5_000);
    let holder = format!("(pid {} on host ", first.id());
    let b = |more: &[&str]| MatchLine::new().games(2).tc("nodes=1").quiet().then(more);
    let cases: [(&[&str], &str); 7] = [
        // The run B.
        (&["--pgn", "z.pgn", "--state", "other.json"], "z.pgn"),
        (&["--pgn", "b.pgn", "--epd", "z.pgn"], "z.pgn"),
        (&["--pgn", "b.pgn", "--epd", "z.epd"], "z.epd"),
        (
            &["--pgn", "b.pgn", "--state", "z.pgn.state.json"],
            "z.pgn.state.json",
        ),
        (&["--pgn", "b.pgn", "--json", "z.pgn"], "z.pgn"),
        (&["--pgn", "z.json"], "z.json"),
        (&["--pgn", "b.pgn", "--report", "z.html"], "z.html"),
    ];
    for (more, named) in cases {
        let before = std::fs::metadata(dir.join("z.pgn")).unwrap().len();
        let (ok, out, err) = b(more).run_in(&dir);
        assert!(!ok, "{more:?} was not refused: {out}{err}");
        assert!(
            err.contains(&format!("{named} is in use by another run {holder}")),
            "{more:?}: {err}"
        );
        assert!(
            std::fs::metadata(dir.join("z.pgn")).unwrap().len() >= before,
            "{more:?} cut the PGN"
        );
    }
    for never in [
        "other.json",
        "b.pgn",
        "b.pgn.state.json",
        "z.json.state.json",
    ] {
        assert!(!dir.join(never).exists(), "a refused run wrote {never}");
    }
    assert!(first.try_wait().unwrap().is_none(), "the first run ended");
    // A ends cleanly on SIGTERM; its resume then plays the rest: every game once.
    Command::new("kill")
        .args(["-TERM", &first.id().to_string()])
        .status()
        .unwrap();
    first.wait().unwrap();
    let (ok, out, err) = MatchLine::new()
        .arg("--resume", "z.pgn.state.json")
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let games = read_pgn(&dir.join("z.pgn"));
    assert_eq!(games.len(), 400);
    let rounds: BTreeSet<&str> = games.iter().map(|g| tag(g, "Round")).collect();
    assert_eq!(rounds.len(), 400, "a game twice");
    let epd = std::fs::read_to_string(dir.join("z.epd")).unwrap();
    assert_eq!(epd.lines().count(), 400);
}

#[test]
fn one_run_naming_a_file_twice_is_refused() {
    let dir = scratch("one-file-twice");
    for (flag, also) in [
        ("--epd", "x.pgn"),
        ("--json", "x.pgn"),
        ("--state", "x.pgn"),
    ] {
        let (ok, out, err) = MatchLine::new()
            .games(2)
            .tc("nodes=1")
            .pgn("x.pgn")
            .arg(flag, also)
            .run_in(&dir);
        assert!(!ok, "{flag}: {out}{err}");
        assert!(
            err.contains("x.pgn is named for two of this run's files"),
            "{flag}: {err}"
        );
        assert!(!dir.join("x.pgn").exists(), "{flag}: written");
    }
}
