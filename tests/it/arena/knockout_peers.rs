//! cutechess-cli's `-tournament knockout`, side by side with the real cutechess-cli 1.5.1: each
//! case's command line, played by the tool (recorded in `tests/data/peers/knockout/`, made by its
//! `record.sh`) and by `shannon match`, gives the same games in the same order (the same players
//! with the same colours, from the same opening, with the same moves, result and `Round` tag,
//! the knockout's round) and prints the same lines, byte for byte: every `Started game N of M`
//! and `Finished game`, the bracket at the end (who went through, with the points of each
//! encounter) and the outcomes.
//!
//! The players are seeded Shannon engines (`option.Seed=`), so both runners play the same games
//! when they pair the same engines with the same colours from the same opening; the last case
//! has Stockfish at a fixed number of nodes (skipped unless it is the Stockfish recorded with).
//! The draw of the unseeded players is cutechess's Mersenne generator from `-srand`. `-concurrency
//! 2` plays the same games (cutechess-cli's would depend on timing, so it was recorded with 1).

use super::sprt_peers::{games, Game};
use super::{read_pgn, scratch, tag, SHANNON};
use crate::common::{data_path, run};
use std::path::Path;

const PLAYERS: [(&str, u32); 8] = [
    ("alpha", 11),
    ("beta", 22),
    ("gamma", 33),
    ("delta", 44),
    ("eps", 55),
    ("zeta", 66),
    ("eta", 77),
    ("theta", 88),
];

const EACH: &str = "-each proto=uci tc=inf nodes=1000 -concurrency 1";

const BOOK: &str = "-openings file=openings.epd format=epd order=sequential";

const STOCKFISH: &str = "-engine cmd=/usr/games/stockfish name=sf option.Threads=1 option.Hash=16";

/// The first `n` players.
fn first(n: usize) -> String {
    PLAYERS[..n]
        .iter()
        .map(|(name, seed)| format!("-engine cmd=./shannon name={name} option.Seed={seed}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The cases of `tests/data/peers/knockout/record.sh`: name, command line (without `-pgnout`).
pub(super) fn cases() -> Vec<(&'static str, String)> {
    let ko = "-tournament knockout";
    vec![
        (
            "two",
            format!("{} {EACH} {BOOK} {ko} -games 1 -srand 1", first(2)),
        ),
        (
            "three",
            format!("{} {EACH} {BOOK} {ko} -games 1 -srand 5", first(3)),
        ),
        (
            "four-seeds",
            format!(
                "{} {EACH} {BOOK} {ko} -games 2 -repeat -seeds 2 -srand 3",
                first(4)
            ),
        ),
        (
            "five",
            format!("{} {EACH} {BOOK} {ko} -games 2 -srand 7", first(5)),
        ),
        (
            "six-reverse",
            format!(
                "{} {EACH} {BOOK} {ko} -games 3 -reverse -srand 11",
                first(6)
            ),
        ),
        (
            "eight-repeat",
            format!("{} {EACH} {BOOK} {ko} -games 2 -repeat -srand 13", first(8)),
        ),
        (
            "four-noswap",
            format!(
                "{} {EACH} {BOOK} {ko} -games 3 -repeat 3 -noswap -srand 17",
                first(4)
            ),
        ),
        (
            "stockfish",
            format!(
                "{} {STOCKFISH} {EACH} {BOOK} {ko} -games 2 -srand 19",
                first(3)
            ),
        ),
    ]
}

pub(super) fn words(line: &str, pgn: &str) -> Vec<String> {
    format!("{line} -pgnout {pgn} min")
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// The recorded PGN and stdout of a case.
pub(super) fn recorded(name: &str, extension: &str) -> std::path::PathBuf {
    data_path(&format!(
        "peers/knockout/{name}.cutechess-cli-1.5.1.{extension}"
    ))
}

/// A scratch folder with the openings and `./shannon`.
pub(super) fn knockout_folder(name: &str) -> crate::common::Scratch {
    let dir = scratch(name);
    std::fs::copy(
        data_path("peers/knockout/openings.epd"),
        dir.join("openings.epd"),
    )
    .unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(SHANNON, dir.join("shannon")).unwrap();
    dir
}

/// Each game as the layout tests compare it, with its `Round` tag.
pub(super) fn games_with_rounds(pgn: &Path) -> Vec<(Game, String)> {
    let rounds = read_pgn(pgn)
        .iter()
        .map(|game| tag(game, "Round").to_string())
        .collect::<Vec<_>>();
    games(pgn).into_iter().zip(rounds).collect()
}

pub(super) fn compare(ours: &[(Game, String)], theirs: &[(Game, String)], what: &str) {
    assert_eq!(ours.len(), theirs.len(), "{what}: the number of games");
    for (i, (ours, theirs)) in ours.iter().zip(theirs).enumerate() {
        assert_eq!(ours, theirs, "{what}: game {}", i + 1);
    }
}

/// Whether the case can be played here (Stockfish as recorded, for the case that has it).
fn playable(name: &str) -> bool {
    name != "stockfish" || super::peer_tools::stockfish_as_recorded().is_some()
}

/// The bracket and the outcomes: what cutechess-cli prints after the last `Finished game`.
pub(super) fn ending(out: &str) -> String {
    let lines: Vec<&str> = out.lines().collect();
    let last = lines
        .iter()
        .rposition(|line| line.starts_with("Finished game") || line.starts_with("Score of"))
        .map_or(0, |i| i + 1);
    lines[last..].join("\n")
}

/// Shannon on case `name`'s command line `line` in `dir`: the PGN it wrote, and what it printed.
fn play_case(name: &str, line: &str, dir: &Path) -> (String, String) {
    let pgn = format!("{name}.pgn");
    let mut args = vec!["match".to_string()];
    args.extend(words(line, &pgn));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, out, err) = run(&args, dir);
    assert!(ok, "{name}: {out}\n{err}");
    (pgn, out)
}

/// `shannon match` plays every case as cutechess-cli did, and prints what it printed.
#[test]
fn shannon_plays_each_knockout_as_cutechess_cli_did() {
    let dir = knockout_folder("knockout-peers");
    for (name, line) in cases() {
        if !playable(name) {
            continue;
        }
        let (pgn, out) = play_case(name, &line, dir.path());
        compare(
            &games_with_rounds(&dir.join(&pgn)),
            &games_with_rounds(&recorded(name, "pgn")),
            name,
        );
        let theirs = std::fs::read_to_string(recorded(name, "txt")).unwrap();
        assert_eq!(out, theirs, "{name}: what is printed");
    }
}

/// Two games at once play the same games, and the same bracket, as one at a time.
#[test]
fn a_knockout_does_not_depend_on_concurrency() {
    let dir = knockout_folder("knockout-concurrency");
    for name in ["five", "six-reverse"] {
        let (_, line) = cases().into_iter().find(|(n, _)| *n == name).unwrap();
        let line = line.replace("-concurrency 1", "-concurrency 3");
        let (pgn, out) = play_case(name, &line, dir.path());
        let mut ours = games_with_rounds(&dir.join(&pgn));
        let mut theirs = games_with_rounds(&recorded(name, "pgn"));
        // Games end in any order at once: the same set of games.
        ours.sort();
        theirs.sort();
        compare(&ours, &theirs, &format!("{name} with -concurrency 3"));
        let recorded_out = std::fs::read_to_string(recorded(name, "txt")).unwrap();
        assert_eq!(ending(&out), ending(&recorded_out), "{name}: the bracket");
    }
}

/// A knockout's command lines Shannon cannot play as the tool does are refused, each with its
/// reason (a knockout's re-runs: `knockout_resume.rs`).
#[test]
fn knockouts_that_cannot_be_played_are_refused() {
    let dir = knockout_folder("knockout-refused");
    let refused = |line: String, says: &str| {
        let mut args = vec!["match".to_string()];
        args.extend(line.split_whitespace().map(String::from));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, out, err) = run(&args, dir.path());
        assert!(!ok, "{line}: played\n{out}");
        assert!(err.contains(says), "{line}: {err}");
    };
    let ko = "-tournament knockout";
    refused(format!("{} {EACH} {ko}", first(1)), "engine");
    refused(format!("{} {EACH} {ko} -games 0", first(3)), "-games");
    refused(
        format!("{} {EACH} {ko} -rounds 2", first(3)),
        "round multipliers",
    );
    refused(
        format!("{} {EACH} {ko} -dialect fastchess", first(3)),
        "Unsupported tournament format",
    );
    refused(
        format!("{} {EACH} {ko} -pgnout file=x.pgn", first(3)),
        "-tournament knockout",
    );
}

/// The real cutechess-cli plays every case again as recorded (skipped, with the reason printed,
/// when it is missing; `SHANNON_REQUIRE_TOOLS=1` makes that a failure).
#[test]
fn the_recorded_knockouts_are_what_cutechess_cli_plays() {
    let Some(tool) = super::peer_tools::cutechess_cli() else {
        return;
    };
    let dir = knockout_folder("knockout-peers-tool");
    for (name, line) in cases() {
        if !playable(name) {
            continue;
        }
        let pgn = format!("{name}.pgn");
        let out = std::process::Command::new(&tool)
            .args(words(&line, &pgn))
            .current_dir(dir.path())
            .output()
            .expect("the tool runs");
        assert!(out.status.success(), "{}", tool.display());
        compare(
            &games_with_rounds(&dir.join(&pgn)),
            &games_with_rounds(&recorded(name, "pgn")),
            &format!("{name} played by {}", tool.display()),
        );
        let theirs = std::fs::read_to_string(recorded(name, "txt")).unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), theirs, "{name}");
    }
}
