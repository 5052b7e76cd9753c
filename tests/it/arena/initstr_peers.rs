//! cutechess-cli's engine key `initstr=TEXT` (Cute Chess's `initStrings`), side by side with
//! cutechess-cli 1.5.1 (`tests/data/peers/initstr/`, made by its `record.sh`): the text's lines
//! (`\n`, typed as a backslash and an n, breaks them) are written to the engine before its
//! handshake, so with `-debug all` each engine is sent the same lines up to `uci` as the tool
//! sent, and the games are the same.

use super::faults_peers::faults_folder;
use super::read_pgn;
use crate::common::{data_path, run};
use std::path::Path;

const LINE: &str = "-engine cmd=./shannon name=a option.Seed=1 initstr=debug\\x20off\\nisready \
                    -engine cmd=./shannon name=b option.Seed=2 -each proto=uci tc=inf nodes=1000 \
                    -games 2 -maxmoves 5 -debug all";

/// The words of the recorded command line (its one word with a space put back), the PGN to
/// `pgn`.
fn words(pgn: &str) -> Vec<String> {
    let mut words: Vec<String> = LINE
        .split_whitespace()
        .map(|w| w.replace("\\x20", " "))
        .collect();
    words.extend(["-pgnout".to_string(), pgn.to_string()]);
    words
}

/// The lines sent to engine `name` up to and including its first `uci`, as `-debug` prints them
/// (`12 >a(0): uci`), without the time.
fn sent_before_handshake(printed: &str, name: &str) -> Vec<String> {
    let marker = format!(" >{name}(");
    let mut lines = Vec::new();
    for line in printed.lines() {
        let Some((_, rest)) = line.split_once(&marker) else {
            continue;
        };
        let Some((_, sent)) = rest.split_once("): ") else {
            continue;
        };
        lines.push(sent.to_string());
        if sent == "uci" {
            break;
        }
    }
    lines
}

#[test]
fn init_lines_are_sent_before_the_handshake_as_cutechess_cli_sends_them() {
    let dir = faults_folder("initstr-peers");
    let mut args = vec!["match".to_string()];
    args.extend(words("ours.pgn"));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, out, err) = run(&args, dir.path());
    assert!(ok, "{out}\n{err}");
    let recorded = data_path("peers/initstr/cutechess-cli-1.5.1.txt");
    let theirs = std::fs::read_to_string(recorded).unwrap();
    assert_eq!(
        sent_before_handshake(&theirs, "a"),
        ["debug off", "isready", "uci"]
    );
    for name in ["a", "b"] {
        assert_eq!(
            sent_before_handshake(&out, name),
            sent_before_handshake(&theirs, name),
            "engine {name}"
        );
    }
    assert_eq!(
        games(&dir.join("ours.pgn")),
        games(&data_path("peers/initstr/cutechess-cli-1.5.1.pgn"))
    );
}

/// Each game's players, result and moves.
fn games(pgn: &Path) -> Vec<String> {
    read_pgn(pgn)
        .iter()
        .map(|game| {
            let tag = |name| game.tag(name).unwrap_or_default().to_string();
            let moves: Vec<String> = game.record.moves.iter().map(|m| format!("{m:?}")).collect();
            format!(
                "{} {} {} {}",
                tag("White"),
                tag("Black"),
                tag("Result"),
                moves.join(" ")
            )
        })
        .collect()
}
