//! Issue 30, item 1: a re-run of the same command line emptied the PGN and replaced the state
//! of the first run, with nothing on stderr. Now the `--long` form refuses to start over files
//! that hold a run (naming them, what they hold and the ways on: `--resume` when the state is an
//! unfinished run of the same settings, other files, `--overwrite`), README's first command
//! takes a free name when the default one is taken, a resume of a finished match touches
//! nothing, and text another program appended behind the state's back is moved aside, not cut.

use super::{read_pgn, scratch, tag, SHANNON};
use crate::common::run;
use crate::common::MatchLine;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `shannon match` of two Shannons at one node a move, `games` games, into `pgn`.
fn quick(games: u32, pgn: &str) -> Vec<String> {
    MatchLine::new()
        .games(games)
        .tc("nodes=1")
        .seed(30)
        .concurrency(2)
        .pgn(pgn)
        .quiet()
        .words()
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// Start `shannon args` in `dir`, wait until `file` holds `bytes`, and return the running child.
pub(super) fn started_until(args: &[&str], dir: &Path, file: &str, bytes: u64) -> Child {
    let mut child = Command::new(SHANNON)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let waited = Instant::now();
    while std::fs::metadata(dir.join(file)).map_or(0, |m| m.len()) < bytes {
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "{file} stays short"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

/// Start `shannon args` in `dir` and kill it with SIGKILL once `file` holds `bytes`.
pub(super) fn killed_after(args: &[&str], dir: &Path, file: &str, bytes: u64) {
    let mut child = started_until(args, dir, file, bytes);
    child.kill().unwrap();
    child.wait().unwrap();
}

/// The file's bytes (empty when it does not exist).
fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_default()
}

#[test]
fn a_rerun_over_a_finished_run_is_refused_and_loses_nothing() {
    let dir = scratch("rerun-finished");
    let args = quick(4, "y.pgn");
    let (ok, out, err) = run(&strs(&args), &dir);
    assert!(ok, "{out}{err}");
    let (pgn, state) = (
        bytes(&dir.join("y.pgn")),
        bytes(&dir.join("y.pgn.state.json")),
    );
    let (ok, out, err) = run(&strs(&args), &dir);
    assert!(!ok && out.is_empty(), "{out}{err}");
    for said in [
        "nothing was written",
        "y.pgn holds 4 games",
        "y.pgn.state.json holds the state of a finished run (4 of 4 games done)",
        "choose other files (--pgn, --state, --epd), or add --overwrite",
    ] {
        assert!(err.contains(said), "{said:?} not in: {err}");
    }
    assert!(
        !err.contains("--resume"),
        "a finished run is not resumed: {err}"
    );
    assert_eq!(bytes(&dir.join("y.pgn")), pgn, "the PGN was changed");
    assert_eq!(bytes(&dir.join("y.pgn.state.json")), state);

    // --overwrite replaces them, and says so.
    let mut overwrite = args.clone();
    overwrite.push("--overwrite".into());
    let (ok, out, err) = run(&strs(&overwrite), &dir);
    assert!(ok, "{out}{err}");
    assert!(
        err.contains("y.pgn held 4 games before this run: replaced, as --overwrite asks"),
        "{err}"
    );
    assert_eq!(read_pgn(&dir.join("y.pgn")).len(), 4);
}

/// The case: a long match killed, then the same command line again. It is refused, the
/// message says that --resume continues the run, and the resume ends with every game once.
#[test]
fn a_rerun_over_a_killed_run_says_resume_continues_it() {
    let dir = scratch("rerun-killed");
    let args = quick(300, "y.pgn");
    killed_after(&strs(&args), &dir, "y.pgn", 20_000);
    let pgn = bytes(&dir.join("y.pgn"));
    let held = read_pgn(&dir.join("y.pgn")).len();
    // The same command line, and the same without its seed (a drawn seed is no other run).
    let mut unseeded = args.clone();
    let at = unseeded.iter().position(|a| a == "--seed").unwrap();
    unseeded.drain(at..at + 2);
    for args in [&args, &unseeded] {
        let (ok, out, err) = run(&strs(args), &dir);
        assert!(!ok && out.is_empty(), "{out}{err}");
        assert!(err.contains(&format!("y.pgn holds {held} games")), "{err}");
        assert!(
            err.contains("y.pgn.state.json holds the state of an unfinished run of these settings"),
            "{err}"
        );
        assert!(
            err.contains("to continue that run: shannon match --resume y.pgn.state.json"),
            "{err}"
        );
        assert_eq!(bytes(&dir.join("y.pgn")), pgn, "the PGN was changed");
    }
    // Other settings: refused too, without --resume.
    let (ok, _, err) = run(&strs(&quick(20, "y.pgn")), &dir);
    assert!(
        !ok && err.contains("an unfinished run of other settings"),
        "{err}"
    );
    assert!(!err.contains("--resume"), "{err}");

    let (ok, out, err) = MatchLine::new()
        .arg("--resume", "y.pgn.state.json")
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let games = read_pgn(&dir.join("y.pgn"));
    assert_eq!(games.len(), 300);
    let rounds: BTreeSet<&str> = games.iter().map(|g| tag(g, "Round")).collect();
    assert_eq!(rounds.len(), 300, "a game twice");
}

/// README's first command, run twice by a newcomer: the second run writes match-2.pgn and says
/// so; the first run's games stay.
#[test]
fn readmes_first_command_run_twice_keeps_the_first_runs_games() {
    let dir = scratch("readme-twice");
    let first = MatchLine::new().games(20);
    let (ok, out, err) = first.run_in(&dir);
    assert!(ok, "{out}{err}");
    let pgn = bytes(&dir.join("match.pgn"));
    assert_eq!(read_pgn(&dir.join("match.pgn")).len(), 20);
    let (ok, out, err) = first.run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(
        err.contains(
            "shannon: note: the default PGN is taken (match.pgn holds 20 games; \
             match.pgn.state.json holds the state of a finished run (20 of 20 games done)): \
             this run writes its games to match-2.pgn"
        ),
        "{err}"
    );
    assert!(out.contains("PGN: match-2.pgn"), "{out}");
    assert_eq!(
        bytes(&dir.join("match.pgn")),
        pgn,
        "the first run's PGN changed"
    );
    assert_eq!(read_pgn(&dir.join("match-2.pgn")).len(), 20);
    assert!(dir.join("match-2.pgn.state.json").exists());
}

/// A re-run of a finished match with --resume says it is finished, plays nothing and leaves its
/// files as they are, even with games another program appended after its own.
#[test]
fn a_resume_of_a_finished_match_plays_nothing_and_touches_nothing() {
    let dir = scratch("resume-finished");
    let (ok, out, err) = run(&strs(&quick(6, "y.pgn")), &dir);
    assert!(ok, "{out}{err}");
    let (ok, out, err) = run(&strs(&quick(2, "other.pgn")), &dir);
    assert!(ok, "{out}{err}");
    let mut pgn = bytes(&dir.join("y.pgn"));
    pgn.extend(bytes(&dir.join("other.pgn")));
    std::fs::write(dir.join("y.pgn"), &pgn).unwrap();
    let (ok, out, err) = MatchLine::new()
        .arg("--resume", "y.pgn.state.json")
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("6 of 6 games done: the match is finished, nothing to play"),
        "{out}"
    );
    assert!(out.contains("6 games, "), "{out}");
    assert_eq!(bytes(&dir.join("y.pgn")), pgn, "the PGN was changed");
    assert!(!dir.join("y.appended-1.pgn").exists());
}

/// Games another program appended to the PGN of an unfinished run, behind its state's back: the
/// resume moves them, whole, to y.appended-1.pgn (and says so) before it cuts the file back to
/// its own games, so neither's games are lost.
#[test]
fn games_appended_behind_the_states_back_are_moved_aside_not_lost() {
    let dir = scratch("appended-behind");
    let args = quick(200, "y.pgn");
    killed_after(&strs(&args), &dir, "y.pgn", 20_000);
    let (ok, out, err) = run(&strs(&quick(4, "other.pgn")), &dir);
    assert!(ok, "{out}{err}");
    let other = bytes(&dir.join("other.pgn"));
    let mut pgn = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("y.pgn"))
        .unwrap();
    std::io::Write::write_all(&mut pgn, &other).unwrap();
    drop(pgn);
    let (ok, out, err) = MatchLine::new()
        .arg("--resume", "y.pgn.state.json")
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(
        err.contains(
            "y.pgn held text after the games its state records that this run did not write"
        ),
        "{err}"
    );
    assert!(err.contains("moved, whole, to y.appended-1.pgn ("), "{err}");
    // Whole: the other program's games, after the half-written game of ours a kill may leave
    // there (the resume writes that game again in y.pgn).
    assert!(bytes(&dir.join("y.appended-1.pgn")).ends_with(&other));
    let games = read_pgn(&dir.join("y.pgn"));
    assert_eq!(games.len(), 200);
    let rounds: BTreeSet<&str> = games.iter().map(|g| tag(g, "Round")).collect();
    assert_eq!(rounds.len(), 200, "a game twice");
}
