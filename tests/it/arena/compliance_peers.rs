//! fastchess's `--compliance ENGINE [ARGS]`, side by side with fastchess 1.8.2-alpha
//! (`tests/data/peers/compliance/`, made by its `record.sh`): Shannon's engine, Stockfish and
//! `shannon-faulty-engine` well behaved pass its 40 steps; the faulty engine that exits at its
//! first `go` fails step 11 (`Read bestmove`), the one that never answers `uci` step 1. `shannon
//! match --compliance` prints the same bytes on stdout and stderr (the colours and carriage
//! returns included) and exits with the same status.

use super::faults_peers::faults_folder;
use crate::common::{data_path, SHANNON};
use std::path::Path;
use std::process::{Command, Output};

/// The recorded cases: name and the engine's words after `--compliance`.
const CASES: [(&str, &[&str]); 5] = [
    ("shannon", &["./shannon"]),
    ("stockfish", &["/usr/games/stockfish"]),
    ("none", &["./faulty", "--fault none"]),
    ("crash", &["./faulty", "--fault crash --after 1"]),
    ("no-uciok", &["./faulty", "--fault no-uciok"]),
];

/// A recorded file of `tests/data/peers/compliance/`.
fn recorded(name: &str) -> Vec<u8> {
    std::fs::read(data_path(&format!("peers/compliance/{name}"))).unwrap()
}

/// The case can be played here (Stockfish as recorded, for the case that has it).
fn playable(name: &str) -> bool {
    name != "stockfish" || super::peer_tools::stockfish_as_recorded().is_some()
}

/// `output` is what fastchess printed and returned in case `name`.
fn as_recorded(name: &str, output: &Output, what: &str) {
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    assert_eq!(
        text(&output.stdout),
        text(&recorded(&format!("{name}.txt"))),
        "{what}: stdout"
    );
    assert_eq!(
        text(&output.stderr),
        text(&recorded(&format!("{name}.err"))),
        "{what}: stderr"
    );
    let status = text(&recorded(&format!("{name}.status")));
    assert_eq!(
        output.status.code().map(|c| c.to_string()),
        Some(status.trim().to_string()),
        "{what}: the exit status"
    );
}

fn check(program: &Path, first: &[&str], dir: &Path, what: &str) {
    for (name, words) in CASES {
        if !playable(name) {
            continue;
        }
        let output = Command::new(program)
            .args(first)
            .arg("--compliance")
            .args(words)
            .current_dir(dir)
            .output()
            .expect("it runs");
        as_recorded(name, &output, &format!("{name}, {what}"));
    }
}

#[test]
fn shannon_checks_compliance_as_fastchess_does() {
    let dir = faults_folder("compliance");
    check(Path::new(SHANNON), &["match"], dir.path(), "shannon match");
    // fastchess reads it only first, alone with its engine.
    let (ok, _, err) = crate::common::run(&["match", "--compliance"], dir.path());
    assert!(!ok && err.contains("--compliance"), "{err}");
    let words = [
        "match",
        "-engine",
        "cmd=./shannon",
        "--compliance",
        "./shannon",
    ];
    let (ok, _, err) = crate::common::run(&words, dir.path());
    assert!(!ok && err.contains("it comes first"), "{err}");
}

/// fastchess checks as recorded (skipped, with the reason printed, when it is missing;
/// `SHANNON_REQUIRE_TOOLS=1` makes that a failure).
#[test]
fn the_recorded_checks_are_what_fastchess_does() {
    let Some(fastchess) = super::peer_tools::fastchess() else {
        return;
    };
    let dir = faults_folder("compliance-fastchess");
    check(
        &fastchess,
        &[],
        dir.path(),
        &fastchess.display().to_string(),
    );
}
