//! Games an engine loses by misbehaving, side by side with the real tools
//! (`tests/data/peers/faults/`, made by its `record.sh`): `shannon-faulty-engine` (the first
//! legal move every time, and a fault at its third `go`) against a seeded Shannon engine, at
//! `tc=1+0.1`. An illegal move (`illegal move` in both tools' PGN), a crash (`abandoned`, with
//! `-recover`) and an engine that stops answering (`-recover`: cutechess-cli tells it `stop`
//! when its clock runs out and, without an answer in 15 s, `stalled connection`; fastchess
//! finds it still answers `isready`, so `time forfeit`). `shannon match` given each recorded
//! command line in each tool's form plays the same games, writes the same `Termination` tags
//! and prints the same lines, but for what a line below says it leaves out.

use super::odds::odds_games;
use super::{read_pgn, scratch};
use crate::common::{data_path, Scratch, FAULTY, SHANNON};
use std::path::{Path, PathBuf};

/// The recorded cases: name, the fault, and whether the run plays on after a failure.
pub(super) const CASES: [(&str, &str, bool); 3] = [
    ("illegal", "illegal-move", false),
    ("crash", "crash", true),
    ("hang", "hang", true),
];

/// The tools, as the recorded files name them.
pub(super) const TOOLS: [&str; 2] = ["cutechess-cli-1.5.1", "fastchess-1.8.2-alpha"];

/// The command line of `case` in `tool`'s form (`record.sh`), its PGN written to `pgn`.
pub(super) fn fault_words(case: &str, tool: &str, pgn: &str) -> Vec<String> {
    let (_, fault, recover) = CASES.iter().find(|(name, ..)| *name == case).unwrap();
    let mut words: Vec<String> = ["-engine", "cmd=./faulty", "name=bad"]
        .map(String::from)
        .into();
    let cutechess = tool.starts_with("cutechess");
    match cutechess {
        true => words.extend(["--fault", fault, "--after", "3"].map(|arg| format!("arg={arg}"))),
        false => words.push(format!("args=--fault {fault} --after 3")),
    }
    let common = "-engine cmd=./shannon name=good option.Seed=11 -each proto=uci tc=1+0.1 \
                  -openings file=openings.epd format=epd order=sequential -games 2 -rounds 1 \
                  -repeat -concurrency 1";
    words.extend(common.split_whitespace().map(String::from));
    if *recover {
        words.push("-recover".into());
    }
    words.push("-pgnout".into());
    words.push(match cutechess {
        true => pgn.to_string(),
        false => format!("file={pgn}"),
    });
    words
}

/// A recorded file of `tests/data/peers/faults/`.
pub(super) fn recorded(name: &str) -> PathBuf {
    data_path(&format!("peers/faults/{name}"))
}

/// A folder to run in: `openings.epd`, `./shannon` and `./faulty`.
pub(super) fn faults_folder(name: &str) -> Scratch {
    let dir = scratch(name);
    std::fs::copy(
        data_path("peers/sprt/openings.epd"),
        dir.join("openings.epd"),
    )
    .unwrap();
    std::os::unix::fs::symlink(SHANNON, dir.join("shannon")).unwrap();
    std::os::unix::fs::symlink(FAULTY, dir.join("faulty")).unwrap();
    dir
}

/// Each game (opening, moves, result, time-control tags) with its `Termination` tag.
pub(super) fn fault_games(pgn: &Path) -> Vec<(String, Option<String>)> {
    let terminations = read_pgn(pgn)
        .iter()
        .map(|game| game.tag("Termination").map(String::from))
        .collect::<Vec<_>>();
    odds_games(pgn)
        .into_iter()
        .zip(terminations)
        .map(|(game, termination)| (format!("{game:?}"), termination))
        .collect()
}

/// The printed lines compared, leaving out: fastchess's `Total Time` (the run's duration);
/// cutechess-cli's `Terminating process of engine bad(N)`, its log line when it ends an engine
/// (N counts its engine processes; Shannon prints none); fastchess's ` (Nms overrun)` after a
/// loss on time (timing: Shannon's report does not carry it); and what fastchess's `Results
/// of` line shows after its time controls (after a crash it shows the restarted engine's `Hash`
/// as `NULL - 16MB`, Shannon `16MB`); and fastchess's `Warning; Engine bad is not responsive`,
/// which it prints before a game after a crash or not, by timing (its own runs differ).
pub(super) fn printed(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|line| {
            let not_responsive =
                line.starts_with("Warning; Engine ") && line.ends_with(" is not responsive");
            let left_out = ["Total Time: ", "Terminating process of engine "];
            !not_responsive && !left_out.iter().any(|start| line.starts_with(start))
        })
        .map(|line| {
            if let Some(rest) = line.strip_prefix("Results of ") {
                let cut = rest.find(", ").map_or(rest, |i| &rest[..i]);
                return format!("Results of {cut}");
            }
            match line.rfind(" (") {
                Some(i) if line.ends_with("ms overrun)}") => format!("{}}}", &line[..i]),
                _ => line.to_string(),
            }
        })
        .collect()
}

#[test]
fn an_engine_that_misbehaves_loses_as_each_tool_says() {
    let dir = faults_folder("faults-peers");
    for (case, ..) in CASES {
        for tool in TOOLS {
            let pgn = format!("{case}.{tool}.pgn");
            let out = std::process::Command::new(SHANNON)
                .arg("match")
                .args(fault_words(case, tool, &pgn))
                .current_dir(dir.path())
                .output()
                .expect("shannon runs");
            assert!(out.status.success(), "{case} {tool}: {out:?}");
            let ours = fault_games(&dir.join(&pgn));
            assert_eq!(ours.len(), 2, "{case} {tool}");
            assert_eq!(
                ours,
                fault_games(&recorded(&pgn)),
                "{case} in {tool}'s form"
            );
            let theirs = std::fs::read_to_string(recorded(&format!("{case}.{tool}.txt"))).unwrap();
            assert_eq!(
                printed(&String::from_utf8_lossy(&out.stdout)),
                printed(&theirs),
                "{case} in {tool}'s form: the printed lines"
            );
        }
    }
}
