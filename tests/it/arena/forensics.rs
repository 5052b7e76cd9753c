//! Every forfeit explained (issue 22): a loss on time names whose fault it was (the engine by
//! its own `info time`, or the runner's delay), and a crash, an illegal move, a stall or a loss
//! on time leaves the engine's last words in `<pgn>.forensics/<game>.txt`, named in the PGN's
//! last comment, the text summary and the JSON report.

use super::{scratch, FAULTY};
use crate::common::MatchLine;
use serde_json::Value;
use std::path::Path;

/// An engines file with `good` (shannon) and `bad` (the faulty engine with `fault`), `bad`'s
/// stderr appended to `bad.err`.
fn config(dir: &Path, fault: &str) -> String {
    engines_file(dir, &format!("--fault {fault}"), "bad.err")
}

/// An engines file with `good` (shannon) and `bad` (the faulty engine with the words of `args`),
/// `bad`'s stderr appended to `stderr`.
fn engines_file(dir: &Path, args: &str, stderr: &str) -> String {
    let config = dir.join("engines.toml");
    let args: Vec<String> = args
        .split_whitespace()
        .map(|a| format!("\"{a}\""))
        .collect();
    std::fs::write(
        &config,
        format!(
            "[[engine]]\nname = \"good\"\ncommand = \"self\"\n\n[[engine]]\nname = \"bad\"\n\
             command = \"{FAULTY}\"\nargs = [{}]\ninit_timeout_ms = 1000\n\
             stderr = \"{stderr}\"\n\n[match]\nhang_timeout_ms = 1500\n",
            args.join(", ")
        ),
    )
    .unwrap();
    config.to_str().unwrap().to_string()
}

/// What a two-game match left: its console output, its PGN with lines joined (comments wrap),
/// its JSON report, and the forensics files of games 1 and 2.
struct Forfeited {
    out: String,
    pgn: String,
    json: Value,
    files: [String; 2],
}

fn play(dir: &Path, fault: &str, tc: &str, runner_delay_ms: Option<u64>) -> Forfeited {
    play_with(dir, config(dir, fault), tc, runner_delay_ms)
}

/// [`play`] with the engines file `config`.
fn play_with(dir: &Path, config: String, tc: &str, runner_delay_ms: Option<u64>) -> Forfeited {
    let mut command = MatchLine::new()
        .config(&config)
        .games(2)
        .concurrency(1)
        .tc(tc)
        .pgn("games.pgn")
        .arg("--json", "games.json")
        .quiet()
        .seed(9)
        .command();
    command.current_dir(dir);
    if let Some(ms) = runner_delay_ms {
        command.env("SHANNON_TEST_RUNNER_DELAY_MS", ms.to_string());
    }
    let output = command.output().expect("shannon runs");
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{out}{err}");
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}\n{out}"))
    };
    let pgn = read("games.pgn").replace('\n', " ");
    let json = serde_json::from_str(&read("games.json")).unwrap();
    let files = [
        read("games.pgn.forensics/1.txt"),
        read("games.pgn.forensics/2.txt"),
    ];
    Forfeited {
        out,
        pgn,
        json,
        files,
    }
}

impl Forfeited {
    /// Both games were lost by `bad` as `why` says; the PGN's last comment, the console's list
    /// and the JSON name the cause and the forensics file; the JSON's forfeits are returned.
    fn both_lost(&self, category: &str, why: &str) -> Vec<Value> {
        for game in [1, 2] {
            let file = format!("games.pgn.forensics/{game}.txt");
            assert!(
                self.pgn.contains(&format!("; forensics in {file}}}")),
                "game {game}: {}",
                self.pgn
            );
            assert!(
                self.out.contains(&format!("  game {game}  bad: ")),
                "{}",
                self.out
            );
            assert!(
                self.out.contains(&format!("; forensics in {file}\n")),
                "{}",
                self.out
            );
        }
        assert_eq!(self.pgn.matches(why).count(), 2, "{why}: {}", self.pgn);
        let forfeits = self.json["standings"]["forfeits"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(forfeits.len(), 2, "{forfeits:?}");
        for (forfeit, game) in forfeits.iter().zip([1, 2]) {
            assert_eq!(forfeit["game"], game);
            assert_eq!(forfeit["engine"], "bad");
            assert_eq!(forfeit["category"], category);
            assert!(forfeit["why"].as_str().unwrap().contains(why), "{forfeit}");
            let file = format!("games.pgn.forensics/{game}.txt");
            assert_eq!(forfeit["forensics"], file.as_str());
        }
        for file in &self.files {
            assert!(file.contains("Engine: bad ("), "{file}");
            assert!(file.contains(why), "{file}");
        }
        forfeits
    }
}

#[test]
fn an_engine_overrunning_its_clock_by_its_own_account_is_blamed() {
    let dir = scratch("forensics-overrun");
    let played = play(&dir, "overrun", "1+0", None);
    let forfeits = played.both_lost(
        "time-forfeit",
        "lost on time: engine overran (its own info time ",
    );
    assert!(played.pgn.contains(" ms of 9"), "{}", played.pgn);
    assert!(
        played.out.contains("time losses: 2, engine 2, harness 0\n"),
        "{}",
        played.out
    );
    assert_eq!(played.json["standings"]["time_losses"]["engine"], 2);
    for forfeit in forfeits {
        let cause = &forfeit["time_loss"];
        assert_eq!(cause["cause"], "engine", "{forfeit}");
        assert!(cause["info_time_ms"].as_u64().unwrap() > cause["left_ms"].as_u64().unwrap());
        assert!(cause["left_ms"].as_u64().unwrap() <= 1000);
    }
    for file in &played.files {
        assert!(file.contains("< info depth 1 time "), "{file}");
        assert!(file.contains("> go wtime "), "{file}");
        assert!(
            file.contains("Process: running until the runner stopped it"),
            "{file}"
        );
    }
}

/// The harness made late honestly: the test-only SHANNON_TEST_RUNNER_DELAY_MS makes the runner
/// wait 300 ms after reading each `bestmove` before handling it, so an engine that answers at
/// once at `movetime=100` (100 ms, 100 ms margin) loses on time by the runner's fault.
#[test]
fn an_engine_the_harness_made_late_is_not_blamed() {
    let dir = scratch("forensics-harness");
    let played = play(&dir, "none", "movetime=100", Some(300));
    assert!(
        played.out.contains("time losses: 2, engine 0, harness 2\n"),
        "{}",
        played.out
    );
    assert_eq!(played.json["standings"]["time_losses"]["harness"], 2);
    // White loses each game at its first move: good in game 1, bad in game 2.
    let forfeits = played.json["standings"]["forfeits"].as_array().unwrap();
    assert_eq!(forfeits.len(), 2);
    for (forfeit, engine) in forfeits.iter().zip(["good", "bad"]) {
        assert_eq!(forfeit["engine"], engine);
        assert_eq!(forfeit["category"], "time-forfeit");
        assert_eq!(forfeit["time_loss"]["cause"], "harness", "{forfeit}");
        assert!(forfeit["time_loss"]["late_by_ms"].as_u64().unwrap() >= 300);
    }
    assert_eq!(
        played
            .pgn
            .matches("white lost on time: harness late by ")
            .count(),
        2,
        "{}",
        played.pgn
    );
    assert!(played
        .pgn
        .contains(" ms (runner delay); forensics in games.pgn.forensics/1.txt}"));
    for file in &played.files {
        assert!(file.contains("> go movetime 100"), "{file}");
        assert!(file.contains("< bestmove "), "{file}");
    }
}

#[test]
fn a_crash_keeps_what_the_engine_wrote_on_stderr() {
    let dir = scratch("forensics-crash");
    let played = play(&dir, "stderr-crash", "nodes=1", None);
    played.both_lost("crash", "'s engine exited during the game");
    assert!(!played.out.contains("time losses"), "{}", played.out);
    for file in &played.files {
        assert!(file.contains("! faulty: about to fail\n"), "{file}");
        assert!(
            file.contains("! faulty: simulated crash at go 3\n"),
            "{file}"
        );
        assert!(file.contains("Process: exit status 3"), "{file}");
        assert!(file.contains("> go nodes 1"), "{file}");
    }
    // stderr=FILE: all of it appended, the two games' lines.
    let stderr = std::fs::read_to_string(dir.join("bad.err")).unwrap();
    assert_eq!(
        stderr.matches("faulty: simulated crash at go 3\n").count(),
        2,
        "{stderr}"
    );
}

#[test]
fn an_illegal_move_keeps_the_move_in_the_log() {
    let dir = scratch("forensics-illegal");
    let played = play(&dir, "illegal-move", "nodes=1", None);
    let forfeits = played.both_lost("illegal-move", " played an illegal move: '");
    for (file, forfeit) in played.files.iter().zip(&forfeits) {
        let why = forfeit["why"].as_str().unwrap();
        let text = why.split('\'').nth(1).unwrap();
        assert!(file.contains(&format!("< bestmove {text}\n")), "{file}");
    }
}

#[test]
fn a_stall_keeps_the_unanswered_go() {
    let dir = scratch("forensics-stall");
    let played = play(&dir, "hang", "nodes=1", None);
    played.both_lost("hang", "'s engine stopped answering");
    for file in &played.files {
        let last_sent = file
            .lines()
            .filter(|l| l.contains(" > "))
            .nth_back(1)
            .unwrap();
        assert!(last_sent.ends_with("> go nodes 1"), "{file}");
        assert!(
            file.contains("Process: running until the runner stopped it"),
            "{file}"
        );
    }
}

#[test]
fn a_match_without_forfeits_writes_no_forensics() {
    let dir = scratch("forensics-none");
    let config = config(&dir, "none");
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .games(2)
        .tc("nodes=1")
        .pgn("games.pgn")
        .arg("--json", "games.json")
        .quiet()
        .seed(9)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(
        !out.contains("Forfeits") && !out.contains("time losses"),
        "{out}"
    );
    assert!(!dir.join("games.pgn.forensics").exists());
    let json = std::fs::read_to_string(dir.join("games.json")).unwrap();
    assert!(
        !json.contains("forfeits") && !json.contains("time_losses"),
        "{json}"
    );
}

/// Issue 30: an engine that exits at `ucinewgame` after playing a game was reported as "failed
/// to start" with no forensics file: its exit status and last lines were lost. It crashed
/// between games; the forfeit keeps what it wrote and was sent, and how it ended.
#[test]
fn an_engine_dying_at_ucinewgame_between_games_leaves_its_forensics() {
    let dir = scratch("forensics-newgame");
    let config = engines_file(&dir, "--fault exit-on-newgame --after 2", "bad.err");
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .games(4)
        .concurrency(1)
        .tc("nodes=1")
        .pgn("games.pgn")
        .arg("--json", "games.json")
        .quiet()
        .seed(9)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    // Each engine process plays one game; at its second `ucinewgame` it dies: games 2 and 4
    // are forfeited, and it is started again for games 3.
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("games.json")).unwrap()).unwrap();
    let forfeits = json["standings"]["forfeits"].as_array().unwrap();
    let games: Vec<u64> = forfeits
        .iter()
        .map(|f| f["game"].as_u64().unwrap())
        .collect();
    assert_eq!(games, [2, 4], "{out}");
    let pgn = std::fs::read_to_string(dir.join("games.pgn"))
        .unwrap()
        .replace('\n', " ");
    for forfeit in forfeits {
        let game = forfeit["game"].as_u64().unwrap();
        let file = format!("games.pgn.forensics/{game}.txt");
        assert_eq!(forfeit["engine"], "bad");
        assert_eq!(forfeit["category"], "crash", "{forfeit}");
        assert_eq!(forfeit["forensics"], file.as_str());
        assert!(pgn.contains(&format!("; forensics in {file}}}")), "{pgn}");
        assert!(out.contains(&format!("; forensics in {file}\n")), "{out}");
        let text = std::fs::read_to_string(dir.join(&file)).unwrap();
        assert!(text.contains("'s engine exited"), "{text}");
        assert!(text.contains("Process: exit status 5\n"), "{text}");
        assert!(
            text.contains("! faulty: exiting at ucinewgame 2\n"),
            "{text}"
        );
        // What it was sent last before it died (the runner's `quit` aside): the new game and
        // the question.
        let sent: Vec<&str> = text
            .lines()
            .filter(|l| l.contains(" > ") && !l.ends_with("> quit"))
            .collect();
        let last: Vec<&str> = sent.iter().rev().take(2).rev().copied().collect();
        assert!(
            last.len() == 2 && last[0].ends_with("> ucinewgame") && last[1].ends_with("> isready"),
            "{text}"
        );
        // It played a game before: its moves are in its log.
        assert!(text.contains("< bestmove "), "{text}");
    }
}

/// Issue 30, with issue 31's stop: an engine that never sends `uciok`, one that exits during
/// its start-up, and one whose process cannot be started at all stop the run at the game they
/// could not begin (exit status 1), which is left unplayed (no game in the PGN, none counted),
/// and leave its forensics file, with how the process ended (or why it never ran) and its last
/// lines, named in the console's and the JSON's reason for the stop.
#[test]
fn an_engine_failing_to_start_stops_the_run_and_leaves_its_forensics() {
    let dir = scratch("forensics-start");
    let file = stopped_at_start(&dir, config(&dir, "no-uciok"), "no uciok within 1000 ms");
    assert!(file.contains(" > uci\n"), "{file}");
    assert!(
        file.contains("Process: running until the runner stopped it"),
        "{file}"
    );
    // Exits at its first `ucinewgame`, so during its start: the exit status and its stderr.
    let dir = scratch("forensics-start-exit");
    let config = engines_file(&dir, "--fault exit-on-newgame --after 1", "bad.err");
    let file = stopped_at_start(
        &dir,
        config,
        "the engine exited while the runner waited for readyok",
    );
    assert!(file.contains("Process: exit status 5\n"), "{file}");
    assert!(
        file.contains("! faulty: exiting at ucinewgame 1\n"),
        "{file}"
    );
    assert!(
        file.contains(" < uciok\n") && file.contains(" > ucinewgame\n"),
        "{file}"
    );
    // Its process cannot be started (its stderr file cannot be opened): the file says why.
    let dir = scratch("forensics-start-spawn");
    let config = engines_file(&dir, "--fault none", "no/such/folder/bad.err");
    let file = stopped_at_start(&dir, config, "cannot start '");
    assert!(
        file.contains("Process: never started (cannot start '")
            && file.contains("cannot open its stderr file no/such/folder/bad.err"),
        "{file}"
    );
    assert!(file.ends_with("(none)\n"), "{file}");
}

/// Play two games where `bad` (Black in game 1) cannot start for `why`: the run stops at game
/// 1, unplayed; the text of its forensics file.
fn stopped_at_start(dir: &Path, config: String, why: &str) -> String {
    let mut command = MatchLine::new()
        .config(&config)
        .games(2)
        .concurrency(1)
        .tc("nodes=1")
        .pgn("games.pgn")
        .arg("--json", "games.json")
        .quiet()
        .seed(9)
        .command();
    let output = command.current_dir(dir).output().expect("shannon runs");
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{out}{err}");
    let file = "games.pgn.forensics/1.txt";
    assert!(
        out.contains(&format!(
            "The match stopped at game 1: engine bad ({FAULTY}) could not start: {why}"
        )) && out.contains(&format!("; forensics in {file}\n")),
        "{out}"
    );
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap_or_default();
    assert!(!pgn.contains("[Event"), "the game is not played: {pgn}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("games.json")).unwrap()).unwrap();
    let stopped = &json["stopped"];
    assert_eq!(stopped["why"], "start-failure", "{json}");
    assert_eq!(stopped["game"], 1);
    assert_eq!(stopped["engine"], "bad");
    assert_eq!(stopped["forensics"], file);
    let forfeits = json["standings"]["forfeits"].as_array().map_or(0, Vec::len);
    assert_eq!(forfeits, 0, "no game is forfeited: {json}");
    assert!(!dir.join("games.pgn.forensics/2.txt").exists());
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    assert!(text.contains("Engine: bad ("), "{text}");
    assert!(text.contains(why), "{text}");
    text
}
