//! fastchess's `-config file=config.json` (continuing the run its config.json saved) side by side
//! with the real fastchess 1.8.2-alpha: its runs, recorded in `tests/data/peers/config/` by its
//! `record.sh` (a finished run of 3 rounds continued to 5; a run interrupted by SIGINT after 9
//! games, continued), played again by `shannon match` in fastchess's form. Shannon writes the
//! config.json fastchess writes, byte for byte (the first run's, and the one at the end), and
//! continues fastchess's file where fastchess does: the same games (players, colours, opening,
//! moves, result), the same lines (`Started game N of M`, `Finished game`, the results block
//! counting the games before the resume).
//!
//! The players are the seeded Shannon engines of `layout_peers.rs` (random movers whose every
//! move is a function of the seed and the game).

use super::layout_peers::compare;
use super::sprt_peers::games;
use super::{scratch, SHANNON};
use crate::common::{data_path, run, Scratch};
use std::path::{Path, PathBuf};

/// The line of `record.sh`, without `-rounds` and `-pgnout`.
const LINE: &str = "-engine cmd=./shannon name=alpha option.Seed=11 \
                    -engine cmd=./shannon name=beta option.Seed=22 \
                    -each proto=uci tc=inf nodes=1000 -concurrency 1 \
                    -openings file=openings.epd format=epd order=sequential \
                    -games 2 -repeat -srand 5";

fn recorded(name: &str) -> PathBuf {
    data_path(&format!("peers/config/{name}"))
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A scratch folder with the openings and `./shannon`.
fn folder(name: &str) -> Scratch {
    let dir = scratch(name);
    std::fs::copy(recorded("openings.epd"), dir.join("openings.epd")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(SHANNON, dir.join("shannon")).unwrap();
    dir
}

/// `shannon match WORDS` in `dir`: its standard output (it must succeed).
fn play(dir: &Path, words: &str) -> String {
    let mut args = vec!["match"];
    args.extend(words.split_whitespace());
    let (ok, out, err) = run(&args, dir);
    assert!(ok, "shannon {}:\n{out}\n{err}", args.join(" "));
    out
}

/// `shannon match WORDS` in `dir`, which must fail: its standard error.
fn refused(dir: &Path, words: &str) -> String {
    let mut args = vec!["match"];
    args.extend(words.split_whitespace());
    let (ok, out, err) = run(&args, dir);
    assert!(!ok, "shannon {} succeeded:\n{out}", args.join(" "));
    err
}

/// The lines of a run's output that do not depend on the machine or on what the engine says of
/// itself: all but the run's time, and `Results of` up to its engines' labels (fastchess shows
/// the Threads and Hash the engine reports, Shannon those the command line sets).
fn lines(out: &str) -> Vec<String> {
    out.lines()
        .filter(|line| !line.starts_with("Total Time:"))
        .map(|line| match line.strip_prefix("Results of ") {
            Some(rest) => format!("Results of {}", rest.split(" (").next().unwrap_or(rest)),
            None => line.to_string(),
        })
        .collect()
}

/// A resumed run's printed lines, games and final config.json against those recorded for `case`.
fn assert_resumed_as_recorded(dir: &Path, out: &str, case: &str, label: &str) {
    assert_eq!(
        lines(out),
        lines(&text(&recorded(&format!("{case}.resumed.txt")))),
        "{label}"
    );
    compare(
        &games(&dir.join(format!("{case}.pgn"))),
        &games(&recorded(&format!("{case}.pgn"))),
        label,
    );
    same_file(
        &dir.join("config.json"),
        &recorded(&format!("{case}.final.json")),
    );
}

fn same_file(ours: &Path, theirs: &Path) {
    assert_eq!(
        text(ours),
        text(theirs),
        "{} is not {}",
        ours.display(),
        theirs.display()
    );
}

/// A finished run continued to more rounds (`-config file=config.json -rounds 5`): Shannon
/// saves the config.json fastchess saved, and continues it as fastchess did.
#[test]
fn a_finished_run_goes_on_to_more_rounds_as_in_fastchess() {
    let dir = folder("config-more-rounds");
    play(
        dir.path(),
        &format!("{LINE} -rounds 3 -pgnout file=more-rounds.pgn min=true"),
    );
    same_file(
        &dir.join("config.json"),
        &recorded("more-rounds.first.json"),
    );
    let out = play(dir.path(), "-config file=config.json -rounds 5");
    assert_resumed_as_recorded(dir.path(), &out, "more-rounds", "more-rounds");
    // Nothing left: fastchess says only that it loaded the file and finished.
    let out = play(dir.path(), "-config file=config.json");
    assert_eq!(
        lines(&out),
        ["Loading config file: config.json", "Finished match", ""]
    );
}

/// fastchess's own config.json of an interrupted run (9 games in its PGN, the 8 of complete
/// pairs in its results): Shannon continues it as fastchess did, from game 9.
#[test]
fn an_interrupted_fastchess_run_goes_on_as_in_fastchess() {
    let dir = folder("config-interrupted");
    std::fs::copy(recorded("interrupted.first.json"), dir.join("config.json")).unwrap();
    std::fs::copy(
        recorded("interrupted.first.pgn"),
        dir.join("interrupted.pgn"),
    )
    .unwrap();
    let out = play(dir.path(), "-config file=config.json");
    assert_resumed_as_recorded(dir.path(), &out, "interrupted", "interrupted");
}

/// The real fastchess continues a run Shannon started (skipped when fastchess is missing).
#[test]
fn fastchess_goes_on_with_a_run_shannon_started() {
    let Some(fastchess) = super::peer_tools::fastchess() else {
        return;
    };
    let dir = folder("config-fastchess-goes-on");
    play(
        dir.path(),
        &format!("{LINE} -rounds 3 -pgnout file=more-rounds.pgn min=true"),
    );
    let out = std::process::Command::new(fastchess)
        .args(["-config", "file=config.json", "-rounds", "5"])
        .current_dir(dir.path())
        .output()
        .expect("fastchess runs");
    assert!(out.status.success());
    let out = String::from_utf8_lossy(&out.stdout);
    assert_resumed_as_recorded(
        dir.path(),
        &out,
        "more-rounds",
        "more-rounds by fastchess after Shannon",
    );
}

/// A damaged or foreign config.json is refused with the file and the field named, before any
/// game; so is a `-config` key fastchess does not have.
#[test]
fn a_damaged_config_json_is_refused_by_file_and_field() {
    let dir = folder("config-damaged");
    let good = text(&recorded("more-rounds.first.json"));
    let cases = [
        (
            good[..good.len() / 2].to_string(),
            "not fastchess's config.json",
        ),
        (
            good.replace("\"rounds\": 3,", ""),
            "field rounds is missing",
        ),
        (
            good.replace("\"time\": 0,", "\"time\": \"0\","),
            "field engines[0].limit.tc.time is not an integer",
        ),
        (
            good.replace("\"alpha vs beta\"", "\"alpha-beta\""),
            "stats.\"alpha-beta\" is not keyed",
        ),
        ("[1, 2]".to_string(), "is not an object"),
    ];
    for (damaged, says) in cases {
        std::fs::write(dir.join("config.json"), damaged).unwrap();
        let err = refused(dir.path(), "-config file=config.json");
        assert!(
            err.contains("config.json") && err.contains(says),
            "{says}: {err}"
        );
    }
    let err = refused(dir.path(), "-config file=missing.json");
    assert!(err.contains("missing.json: cannot be read"), "{err}");
    std::fs::write(dir.join("config.json"), &good).unwrap();
    let err = refused(dir.path(), "-config file=config.json frobnicate=1");
    assert!(err.contains("-config frobnicate=1"), "{err}");
    let err = refused(dir.path(), "-config file=config.json discard=false");
    assert!(err.contains("-config discard=false"), "{err}");
    assert!(!dir.join("more-rounds.pgn").exists(), "no game was played");
}

/// Results that end in half a pair (fastchess without the pentanomial counts every game):
/// fastchess would play that pair's first game again with the colours the other way round;
/// Shannon refuses, saying why, before any game.
#[test]
fn results_ending_in_half_a_pair_are_refused() {
    let dir = folder("config-half-pair");
    let config = text(&recorded("more-rounds.first.json"))
        .replace("\"report_penta\": true", "\"report_penta\": false")
        .replace("\"draws\": 4", "\"draws\": 3");
    std::fs::write(dir.join("config.json"), config).unwrap();
    let err = refused(dir.path(), "-config file=config.json");
    assert!(err.contains("half played"), "{err}");
}

/// A new run whose folder holds another run's config.json keeps that file under a free name
/// (fastchess overwrites it), and `-config discard=true` and `stats=false` start over.
#[test]
fn another_runs_config_json_is_kept_and_discard_starts_over() {
    let dir = folder("config-kept");
    std::fs::copy(recorded("more-rounds.final.json"), dir.join("config.json")).unwrap();
    let (ok, _, err) = run(
        &[
            "match",
            "-engine",
            "cmd=./shannon",
            "name=alpha",
            "option.Seed=11",
            "-engine",
            "cmd=./shannon",
            "name=beta",
            "option.Seed=22",
            "-each",
            "tc=inf",
            "nodes=1000",
            "-rounds",
            "1",
            "-pgnout",
            "file=other.pgn",
        ],
        dir.path(),
    );
    assert!(ok, "{err}");
    assert!(err.contains("kept as config-1.json"), "{err}");
    same_file(
        &dir.join("config-1.json"),
        &recorded("more-rounds.final.json"),
    );
    let ours = text(&dir.join("config.json"));
    assert!(ours.contains("\"file\": \"other.pgn\""), "{ours}");
    // stats=false: the loaded run from its first game (a PGN of its own, so nothing clashes).
    std::fs::copy(recorded("more-rounds.first.json"), dir.join("first.json")).unwrap();
    let out = play(
        dir.path(),
        "-config file=first.json stats=false -pgnout file=again.pgn min=true",
    );
    assert!(out.contains("Started game 1 of 6"), "{out}");
    compare(
        &games(&dir.join("again.pgn")),
        &games(&recorded("more-rounds.pgn"))[..6],
        "stats=false",
    );
}

/// Shannon's own state beside the PGN and the config.json of one run: the state wins when it
/// holds more games (a note says so), and a config.json holding more than the state (another
/// program went on with the run) is refused, naming the state. The run is stopped after its
/// second game by an engine that crashes (no `-recover`), so its state is unfinished.
#[test]
fn the_state_beside_the_pgn_and_config_json_agree_or_the_state_wins() {
    let dir = folder("config-and-state");
    #[cfg(unix)]
    std::os::unix::fs::symlink(crate::common::FAULTY, dir.join("faulty")).unwrap();
    let mut args = vec![
        "match",
        "-engine",
        "cmd=./shannon",
        "name=alpha",
        "option.Seed=11",
        "-engine",
        "cmd=./faulty",
        "name=beta",
        "args=--fault=crash --after=40",
    ];
    args.extend(
        "-each tc=inf nodes=1000 -rounds 10 -srand 3 -pgnout file=a.pgn min=true".split(' '),
    );
    let (ok, out, _) = run(&args, dir.path());
    assert!(!ok && out.contains("stopping tournament"), "{out}");
    let saved = text(&dir.join("config.json"));
    assert!(saved.contains("\"wins\": 2,"), "{saved}");
    // Two games more than the state: refused, the state named.
    std::fs::write(
        dir.join("config.json"),
        saved
            .replace("\"draws\": 0,", "\"draws\": 2,")
            .replace("\"penta_DD\": 0", "\"penta_DD\": 1"),
    )
    .unwrap();
    let games_before = text(&dir.join("a.pgn")).matches("[Event ").count();
    let err = refused(dir.path(), "-config file=config.json");
    assert!(
        err.contains("4 games played, but a.pgn.state.json") && err.contains("holds 2"),
        "{err}"
    );
    assert_eq!(
        text(&dir.join("a.pgn")).matches("[Event ").count(),
        games_before
    );
    // One game fewer than the state: the state goes on, with a note.
    std::fs::write(
        dir.join("config.json"),
        saved
            .replace("\"wins\": 2,", "\"wins\": 1,")
            .replace("\"penta_WW\": 1", "\"penta_WW\": 0"),
    )
    .unwrap();
    let (_, _, err) = run(&["match", "-config", "file=config.json"], dir.path());
    assert!(
        err.contains(
            "the -config file holds 1 finished games of this run and a.pgn.state.json holds 2"
        ),
        "{err}"
    );
}
