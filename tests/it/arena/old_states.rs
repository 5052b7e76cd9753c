//! State files written before the state format named its contents by stable names (format 1, in
//! `tests/data/state-v1`), and before it said where a run's games start (format 2, in
//! `tests/data/state-v2`): a resume still plays the rest of the schedule to the uninterrupted
//! result, and a merge of its shards still prints and writes what it did then. A state of format
//! 5 (`tests/data/state-v5`, before caps beside a clock) resumes under the limits it saved.

use super::resume::tables;
use super::{read_pgn, run, scratch, tag};
use crate::common::data_path;
use crate::common::MatchLine;
use std::collections::BTreeSet;
use std::path::Path;

/// Copy `tests/data/state-v1/<name>` into `dir`, pointing each state's `directory` (where its
/// run worked, whose relative paths it holds) at the copy.
fn copy_states(name: &str, dir: &Path) {
    copy_states_of(1, name, dir);
}

/// Copy `tests/data/state-v<format>/<name>` into `dir`, as [`copy_states`].
pub(super) fn copy_states_of(format: u32, name: &str, dir: &Path) {
    let from = data_path(&format!("state-v{format}")).join(name);
    for entry in std::fs::read_dir(&from).unwrap().flatten() {
        let path = entry.path();
        let target = dir.join(entry.file_name());
        if path.to_string_lossy().ends_with(".state.json") {
            let mut state: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert_eq!(state["format"], format!("shannon match state {format}"));
            state["directory"] = dir.to_str().unwrap().into();
            std::fs::write(&target, state.to_string()).unwrap();
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn a_format_1_state_resumes_to_the_uninterrupted_result() {
    let dir = scratch("old-state-resume");
    copy_states("unfinished", &dir);
    let (ok, resumed, err) = MatchLine::new()
        .arg("--resume", "games.pgn.state.json")
        .quiet()
        .run_in(&dir);
    assert!(ok, "{resumed}{err}");
    assert!(resumed.contains("Resuming"), "{resumed}");
    let games = read_pgn(&dir.join("games.pgn"));
    assert_eq!(games.len(), 120, "every scheduled game, finished, once");
    let rounds: BTreeSet<&str> = games.iter().map(|g| tag(g, "Round")).collect();
    assert_eq!(rounds.len(), 120);
    assert!(games.iter().all(|g| tag(g, "Result") != "*"));
    let epd = std::fs::read_to_string(dir.join("games.epd")).unwrap();
    assert_eq!(epd.lines().count(), 120);

    assert_eq!(tables(&resumed), tables(&uninterrupted_tournament()));
}

/// The tournament both old states are of (`--concurrency 1`: the games do not depend on it),
/// played without a stop: its output.
fn uninterrupted_tournament() -> String {
    let fresh = scratch("old-state-fresh");
    std::fs::copy(
        data_path("state-v1/unfinished/engines.toml"),
        fresh.join("engines.toml"),
    )
    .unwrap();
    let (ok, uninterrupted, err) = MatchLine::new()
        .engines("a,b,c")
        .rounds(10)
        .games(4)
        .seed(1950)
        .tc("nodes=1")
        .arg("--max-plies", "80")
        .openings("chess960")
        .pgn("games.pgn")
        .concurrency(1)
        .quiet()
        .run_in(&fresh);
    assert!(ok, "{uninterrupted}{err}");
    uninterrupted
}

/// Format 2 did not record the games an interrupt ended: the `*` games after the finished ones
/// are still the run's own, cut and played again, not taken for another program's text.
#[test]
fn a_format_2_state_resumes_to_the_uninterrupted_result() {
    let dir = scratch("v2-state-resume");
    copy_states_of(2, "unfinished", &dir);
    let before = read_pgn(&dir.join("games.pgn"));
    assert_eq!(before.iter().filter(|g| tag(g, "Result") == "*").count(), 2);
    let (ok, resumed, err) = MatchLine::new()
        .arg("--resume", "games.pgn.state.json")
        .quiet()
        .run_in(&dir);
    assert!(ok, "{resumed}{err}");
    assert!(resumed.contains("Resuming"), "{resumed}");
    assert!(resumed.contains("63 of 120 games done"), "{resumed}");
    assert!(
        !err.contains("moved"),
        "the run's own games set aside: {err}"
    );
    let games = read_pgn(&dir.join("games.pgn"));
    assert_eq!(games.len(), 120, "every scheduled game, finished, once");
    let rounds: BTreeSet<&str> = games.iter().map(|g| tag(g, "Round")).collect();
    assert_eq!(rounds.len(), 120);
    assert!(games.iter().all(|g| tag(g, "Result") != "*"));
    let epd = std::fs::read_to_string(dir.join("games.epd")).unwrap();
    assert_eq!(epd.lines().count(), 120);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("appended"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let state = std::fs::read_to_string(dir.join("games.pgn.state.json")).unwrap();
    assert!(
        state.contains(&format!("\"{}\"", shannon::arena::STATE_FORMAT)),
        "written back in this build's format"
    );
    assert_eq!(tables(&resumed), tables(&uninterrupted_tournament()));
}

#[test]
fn format_1_shards_merge_as_they_did() {
    let dir = scratch("old-state-merge");
    copy_states("shards", &dir);
    let (ok, out, err) = run(
        &[
            "merge",
            "games.shard-0-of-2.pgn.state.json",
            "games.shard-1-of-2.pgn.state.json",
            "--pgn",
            "merged.pgn",
        ],
        &dir,
    );
    assert!(ok, "{out}{err}");
    let then = std::fs::read_to_string(dir.join("merged-by-v1.txt")).unwrap();
    assert_eq!(out, then);
    assert_eq!(
        std::fs::read_to_string(dir.join("merged.pgn")).unwrap(),
        std::fs::read_to_string(dir.join("merged-by-v1.pgn")).unwrap()
    );
}

/// Format 5 had no caps beside a clock: its time controls read as they were (the match's
/// `10+0.1`, b's `nodes=5`), the rest of the run plays under them, and the state is written back
/// in this build's format with the same notation.
#[test]
fn a_format_5_state_resumes_under_its_limits() {
    let dir = scratch("v5-state-resume");
    copy_states_of(5, "odds", &dir);
    let (ok, resumed, err) = run(
        &["match", "--resume", "games.pgn.state.json", "--quiet"],
        &dir,
    );
    assert!(ok, "{resumed}{err}");
    assert!(resumed.contains("111 of 400 games done"), "{resumed}");
    let games = read_pgn(&dir.join("games.pgn"));
    assert_eq!(games.len(), 400, "every scheduled game, finished, once");
    for game in &games {
        for side in ["White", "Black"] {
            let tc = tag(game, &format!("{side}TimeControl"));
            match tag(game, side) {
                "a" => assert_eq!(tc, "10+0.1"),
                _ => assert_eq!(tc, "-"),
            }
        }
    }
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("games.pgn.state.json")).unwrap())
            .unwrap();
    assert_eq!(state["format"], shannon::arena::STATE_FORMAT);
    assert_eq!(state["settings"]["time_control"], "10+0.1");
    assert_eq!(
        state["settings"]["engine_limits"]["b"]["time_control"],
        "nodes=5"
    );
}
