//! A run interrupted by Ctrl-C (SIGINT), side by side with the real tools
//! (`tests/data/peers/interrupt/`, made by its `record.sh`): `shannon-faulty-engine` thinks
//! until `stop` from its 150th `go` (in game 2) and no clock runs, so the run waits there until
//! it is interrupted. cutechess-cli ends the running game with `*`, prints it as finished
//! (`Finished game 2 (good vs bad): * {No result}` and its `Score of` line), the results, `"No
//! result"` among both players' outcomes, and exits with status 0; fastchess prints nothing of
//! the game nor a last results block, writes no `*` game to its PGN, says how to resume, and
//! exits with 1. `shannon match` given each recorded command line does as each tool did.

use super::faults_peers::faults_folder;
use super::odds::odds_games;
use crate::common::{data_path, SHANNON};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The tools, as the recorded files name them.
const TOOLS: [&str; 2] = ["cutechess-cli-1.5.1", "fastchess-1.8.2-alpha"];

/// The command line of `tool`'s form (`record.sh`), its PGN written to `pgn`.
fn interrupt_words(tool: &str, pgn: &str) -> Vec<String> {
    let cutechess = tool.starts_with("cutechess");
    let mut words: Vec<String> = ["-engine", "cmd=./faulty", "name=bad"]
        .map(String::from)
        .into();
    let fault = ["--fault", "think-until-stop", "--after", "150"];
    match cutechess {
        true => words.extend(fault.map(|arg| format!("arg={arg}"))),
        false => words.push(format!("args={}", fault.join(" "))),
    }
    let common = "-engine cmd=./shannon name=good option.Seed=11 -each proto=uci tc=inf \
                  nodes=1000 -openings file=openings.epd format=epd order=sequential -games 2 \
                  -rounds 3 -repeat -concurrency 1";
    words.extend(common.split_whitespace().map(String::from));
    words.push("-pgnout".into());
    words.push(match cutechess {
        true => pgn.to_string(),
        false => format!("file={pgn}"),
    });
    words
}

/// A recorded file of `tests/data/peers/interrupt/`.
fn recorded(name: &str) -> PathBuf {
    data_path(&format!("peers/interrupt/{name}"))
}

/// Run `command` in `dir`, interrupt it (SIGINT) a second after it printed that game 2 started,
/// and return what it printed on stdout and its exit status.
fn interrupted(mut command: Command, dir: &Path) -> (String, i32) {
    let mut child = command
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("it runs");
    let mut printed = String::new();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    for line in lines.by_ref() {
        let line = line.unwrap();
        printed.push_str(&line);
        printed.push('\n');
        if line.starts_with("Started game 2 ") {
            break;
        }
    }
    std::thread::sleep(Duration::from_secs(1));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    for line in lines {
        printed.push_str(&line.unwrap());
        printed.push('\n');
    }
    let status = child.wait().unwrap();
    (printed, status.code().unwrap_or(-1))
}

/// The printed lines compared: fastchess's `Total Time` (the run's duration) left out, and the
/// program its resume line names (fastchess's `argv[0]`) read as one.
fn printed(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|line| !line.starts_with("Total Time: "))
        .map(|line| match line.split_once(", run: ") {
            Some((said, command)) => match command.split_once(" -config ") {
                Some((_, config)) => format!("{said}, run: PROGRAM -config {config}"),
                None => line.to_string(),
            },
            None => line.to_string(),
        })
        .collect()
}

/// What `tool` recorded: its printed lines, exit status, and games (a `*` one included).
fn as_recorded(tool: &str, dir: &Path, out: &str, status: i32, pgn: &str, what: &str) {
    let theirs = std::fs::read_to_string(recorded(&format!("{tool}.txt"))).unwrap();
    assert_eq!(printed(out), printed(&theirs), "{what}: the printed lines");
    let code = std::fs::read_to_string(recorded(&format!("{tool}.status"))).unwrap();
    assert_eq!(status.to_string(), code.trim(), "{what}: the exit status");
    assert_eq!(
        odds_games(&dir.join(pgn)),
        odds_games(&recorded(&format!("{tool}.pgn"))),
        "{what}: the games"
    );
}

/// Interrupt `program` (with `first` before the line) on `tool`'s command line in `dir`, and
/// compare with what `tool` recorded.
fn check(tool: &str, program: &Path, first: &[&str], dir: &Path, what: &str) {
    let pgn = format!("{tool}.pgn");
    let mut command = Command::new(program);
    command.args(first).args(interrupt_words(tool, &pgn));
    let (out, status) = interrupted(command, dir);
    as_recorded(tool, dir, &out, status, &pgn, what);
}

#[test]
fn an_interrupted_run_ends_as_each_tool_ends_it() {
    let dir = faults_folder("interrupt-peers");
    for tool in TOOLS {
        let what = format!("{tool}'s form");
        check(tool, Path::new(SHANNON), &["match"], dir.path(), &what);
    }
}

/// The real tools interrupt as recorded (each skipped, with the reason printed, when it is
/// missing; `SHANNON_REQUIRE_TOOLS=1` makes that a failure).
#[test]
fn the_recorded_interrupts_are_what_the_tools_do() {
    let dir = faults_folder("interrupt-peers-tools");
    let tools = [
        (TOOLS[0], super::peer_tools::cutechess_cli()),
        (TOOLS[1], super::peer_tools::fastchess()),
    ];
    for (tool, path) in tools {
        let Some(path) = path else { continue };
        check(tool, &path, &[], dir.path(), &path.display().to_string());
    }
}
