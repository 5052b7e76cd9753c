//! A knockout that did not end (killed, or stopped with Ctrl-C) is continued by running its
//! command line again, and ends as the uninterrupted knockout does: the games cutechess-cli 1.5.1
//! played (`tests/data/peers/knockout/`), each once, with its lines and its bracket. The state
//! keeps each knockout game's result (format 7), from which the re-run replays the bracket and
//! plays first the games that were running. A state of format 6 kept no results: its unfinished
//! knockout is refused by name, and so are results that are not of the knockout's games.

use super::knockout_peers::{
    cases, compare, ending, games_with_rounds, knockout_folder, recorded, words,
};
use super::old_states::copy_states_of;
use super::reruns::{killed_after, started_until};
use crate::common::run;
use std::path::Path;
use std::process::Command;

/// The `eight-repeat` case (74 games, 8 players) at `concurrency` games at once, into `ko.pgn`:
/// `shannon match` and its arguments.
fn eight(concurrency: u32) -> Vec<String> {
    let (_, line) = cases()
        .into_iter()
        .find(|(name, _)| *name == "eight-repeat")
        .unwrap();
    let line = line.replace("-concurrency 1", &format!("-concurrency {concurrency}"));
    let mut args = vec!["match".to_string()];
    args.extend(words(&line, "ko.pgn"));
    args
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// The bracket cutechess-cli prints at the end (without the outcomes, which a re-run, having
/// played only some of the games, does not print).
fn bracket(out: &str) -> String {
    ending(out)
        .lines()
        .take_while(|line| !line.is_empty() && *line != "Finished match")
        .collect::<Vec<_>>()
        .join("\n")
}

/// The games in `dir`'s `ko.pgn` are the recorded `eight-repeat` games, each once (in order when
/// played one at a time), and `out`, the last run's output, says what cutechess-cli said of the
/// games it played and prints its bracket.
fn as_recorded(dir: &Path, out: &str, in_order: bool, what: &str) {
    let mut ours = games_with_rounds(&dir.join("ko.pgn"));
    let mut theirs = games_with_rounds(&recorded("eight-repeat", "pgn"));
    if !in_order {
        ours.sort();
        theirs.sort();
    }
    compare(&ours, &theirs, what);
    let recorded_out = std::fs::read_to_string(recorded("eight-repeat", "txt")).unwrap();
    let finished: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .collect();
    assert!(!finished.is_empty(), "{what}: no game played\n{out}");
    for line in &finished {
        assert!(
            recorded_out.lines().any(|l| l == *line),
            "{what}: not a line cutechess-cli printed: {line}"
        );
    }
    if in_order {
        // The games it played, in cutechess-cli's order, up to the last.
        let theirs: Vec<&str> = recorded_out
            .lines()
            .filter(|l| l.starts_with("Finished game"))
            .collect();
        assert_eq!(finished, theirs[theirs.len() - finished.len()..], "{what}");
    }
    assert_eq!(bracket(out), bracket(&recorded_out), "{what}: the bracket");
    assert!(!bracket(out).is_empty());
}

/// Killed (SIGKILL) after a few games, then the same command line again: it continues the
/// knockout and ends with cutechess-cli's games. With three games at once it is killed twice
/// (the second time while continuing), so games were running at each kill.
#[test]
fn a_killed_knockout_run_again_ends_as_cutechess_cli_played_it() {
    for (concurrency, kills) in [(1, &[12_000u64][..]), (3, &[12_000, 60_000][..])] {
        let dir = knockout_folder(&format!("knockout-killed-{concurrency}"));
        let args = eight(concurrency);
        for &bytes in kills {
            killed_after(&strs(&args), dir.path(), "ko.pgn", bytes);
        }
        let state = std::fs::read_to_string(dir.join("ko.pgn.state.json")).unwrap();
        assert!(state.contains("\"knockout_results\""), "{state}");
        assert!(!state.contains("\"knockout_over\""), "over already");
        let (ok, out, err) = run(&strs(&args), dir.path());
        assert!(ok, "{out}\n{err}");
        assert!(
            err.contains("holds an unfinished run of this command line"),
            "{err}"
        );
        let what = format!("killed at -concurrency {concurrency}");
        as_recorded(dir.path(), &out, concurrency == 1, &what);
        let state = std::fs::read_to_string(dir.join("ko.pgn.state.json")).unwrap();
        assert!(state.contains("\"knockout_over\":true"), "{state}");
    }
}

/// Ctrl-C (SIGINT) ends the run with the running game written as `*`; the command line again
/// cuts that game off, plays it and the rest.
#[test]
fn an_interrupted_knockout_run_again_ends_as_cutechess_cli_played_it() {
    let dir = knockout_folder("knockout-interrupted");
    let args = eight(2);
    let mut child = started_until(&strs(&args), dir.path(), "ko.pgn", 12_000);
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait().unwrap();
    let (ok, out, err) = run(&strs(&args), dir.path());
    assert!(ok, "{out}\n{err}");
    as_recorded(dir.path(), &out, false, "interrupted");
}

/// A finished knockout whose state says it did not end (a kill after its last game): the
/// command line again plays nothing and prints the bracket; results of games the knockout does
/// not play are refused, naming the game, and nothing is written.
#[test]
fn a_knockouts_saved_results_are_replayed_or_refused() {
    let dir = knockout_folder("knockout-replayed");
    let (_, line) = cases().into_iter().find(|(n, _)| *n == "three").unwrap();
    let mut args = vec!["match".to_string()];
    args.extend(words(&line, "ko.pgn"));
    let (ok, out, err) = run(&strs(&args), dir.path());
    assert!(ok, "{out}\n{err}");
    let state_path = dir.join("ko.pgn.state.json");
    let finished = std::fs::read_to_string(&state_path).unwrap();
    let unended = finished
        .replace("\"knockout_over\":true,", "")
        .replace("\"ended\":true", "\"ended\":false");
    assert_ne!(unended, finished);
    std::fs::write(&state_path, &unended).unwrap();
    let pgn = std::fs::read(dir.join("ko.pgn")).unwrap();
    let (ok, again, err) = run(&strs(&args), dir.path());
    assert!(ok, "{again}\n{err}");
    assert!(!again.contains("Started game"), "{again}");
    let theirs = std::fs::read_to_string(recorded("three", "txt")).unwrap();
    assert_eq!(bracket(&again), bracket(&theirs));
    assert_eq!(std::fs::read(dir.join("ko.pgn")).unwrap(), pgn);

    // `--resume` of the finished knockout, as this build writes it and as format 6 did (no
    // results kept): nothing is played, nothing written (format 6's used to play the whole
    // knockout again, unwritten, into its tables).
    let finished: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state_path).unwrap()).unwrap();
    let mut format_6 = finished.clone();
    format_6["format"] = "shannon match state 6".into();
    format_6.as_object_mut().unwrap().remove("knockout_results");
    for state in [&finished, &format_6] {
        std::fs::write(&state_path, state.to_string()).unwrap();
        let resume = ["match", "--resume", "ko.pgn.state.json"];
        let (ok, out, err) = run(&resume, dir.path());
        assert!(ok, "{out}\n{err}");
        let n = games_with_rounds(&recorded("three", "pgn")).len();
        let said = format!("{n} of {n} games done: the match is finished");
        assert!(out.contains(&said), "{out}");
        assert!(out.contains(&format!("\n{n} games, ")), "{out}");
        assert_eq!(std::fs::read(dir.join("ko.pgn")).unwrap(), pgn);
    }

    let mut state: serde_json::Value = serde_json::from_str(&unended).unwrap();
    state["knockout_results"]["99"] = "draw".into();
    std::fs::write(&state_path, state.to_string()).unwrap();
    let (ok, out, err) = run(&strs(&args), dir.path());
    assert!(!ok, "{out}");
    assert!(
        err.contains("ko.pgn.state.json") && err.contains("game 99"),
        "{err}"
    );
    assert_eq!(std::fs::read(dir.join("ko.pgn")).unwrap(), pgn);
}

/// A knockout killed under format 6 (`tests/data/state-v6/knockout`), which kept no results:
/// its command line again, and `--resume`, are refused, saying why and what to do, and its
/// files are left as they are.
#[test]
fn a_format_6_unfinished_knockout_is_refused_by_name() {
    let dir = knockout_folder("knockout-format-6");
    copy_states_of(6, "knockout", dir.path());
    let pgn = std::fs::read(dir.join("ko.pgn")).unwrap();
    let state = std::fs::read(dir.join("ko.pgn.state.json")).unwrap();
    let resume = ["match", "--resume", "ko.pgn.state.json"].map(String::from);
    for args in [eight(1), resume.to_vec()] {
        let (ok, out, err) = run(&strs(&args), dir.path());
        assert!(!ok, "{out}");
        for said in ["ko.pgn.state.json", "state format 6", "move the state file"] {
            assert!(err.contains(said), "{said:?} not in {err}");
        }
        assert_eq!(std::fs::read(dir.join("ko.pgn")).unwrap(), pgn);
        assert_eq!(std::fs::read(dir.join("ko.pgn.state.json")).unwrap(), state);
    }
}
