//! The real cutechess-cli and fastchess, against what `tests/data/peers/` recorded of them.
//!
//! Neither tool is in Debian or any package registry and CI has no other network, so the tests
//! that compare Shannon with them (`bound_scores.rs`, `engines_json.rs`, docs/compat.md's option table in
//! `src/cli/compat/option_table.rs`) compare with files recorded once from the real tools. The
//! tests here make those files again with the real tools and check they equal the recorded ones:
//! the recorded files are what the tools print and write today.
//!
//! The tools are found on `PATH` (`cutechess-cli`, `fastchess`) or named by
//! `SHANNON_CUTECHESS_CLI` and `SHANNON_FASTCHESS`. A missing tool is skipped with a printed
//! reason, and fails the test under `SHANNON_REQUIRE_TOOLS=1` (not `SHANNON_REQUIRE_PEERS`, which
//! CI sets and CI cannot have the tools). The Stockfish games need the Stockfish they were
//! recorded with (named in tests/data/peers/README.md): another version is skipped with a
//! printed reason, and fails under `SHANNON_REQUIRE_PEERS=1` with word to record them again.

use super::bound_scores::{bound_score_words, bound_scores_folder, games_of, RECORDED};
use super::caps_peers::{
    caps_words, go_lines, masked, recorded as caps_recorded, CASES as CAPS_CASES,
};
use super::engines_json::{listing, LISTINGS};
use super::faults_peers::{
    fault_games, fault_words, faults_folder, printed as fault_printed, recorded as faults_recorded,
    CASES as FAULT_CASES, TOOLS as FAULT_TOOLS,
};
use super::odds::{odds_folder, odds_games, odds_words, recorded as odds_recorded, CASES, TOOLS};
use super::ponder_peers::{ponder_words, recorded as ponder_recorded, CASES as PONDER_CASES};
use super::sprt_peers::{
    finished_games, games, recorded, runs, sprt_folder, sprt_lines, Players, Run, Tool,
};
use super::tablebase_peers::{
    outcome as tablebase_outcome, recorded as tablebase_recorded, tablebase_folder,
    RUNS as TABLEBASE_RUNS,
};
use super::{scratch, stockfish};
use crate::common::{data_path, peer_missing, peers_required};
use std::path::{Path, PathBuf};

/// Whether the real tools must be found (`SHANNON_REQUIRE_TOOLS=1`).
fn tools_required() -> bool {
    std::env::var("SHANNON_REQUIRE_TOOLS").as_deref() == Ok("1")
}

/// A match tool built from source: `$<var>`, or `name` on PATH. Missing: a printed reason, or a
/// failure under `SHANNON_REQUIRE_TOOLS=1`.
fn real_tool(var: &str, name: &str) -> Option<PathBuf> {
    let found = std::env::var_os(var).map(PathBuf::from).or_else(|| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|path| path.is_file())
        })
    });
    if found.is_none() {
        let reason = format!("{name} is not on PATH (or named by ${var})");
        if tools_required() {
            panic!("SHANNON_REQUIRE_TOOLS=1 but {reason}");
        }
        println!("skipped: {reason}");
    }
    found
}

pub(super) fn cutechess_cli() -> Option<PathBuf> {
    real_tool("SHANNON_CUTECHESS_CLI", "cutechess-cli")
}

pub(super) fn fastchess() -> Option<PathBuf> {
    real_tool("SHANNON_FASTCHESS", "fastchess")
}

/// The Stockfish version the games in tests/data/peers/ were recorded with: the README's line
/// ``- Stockfish version: `Stockfish 15.1` ``.
fn recorded_stockfish_version() -> String {
    let readme = std::fs::read_to_string(data_path("peers/README.md")).unwrap();
    readme
        .lines()
        .find_map(|line| line.split_once("Stockfish version: `"))
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(version, _)| version.to_string())
        .expect("tests/data/peers/README.md names the Stockfish version")
}

/// The version Stockfish names in the first line it prints on startup (`Stockfish 15.1 by the
/// Stockfish developers (see AUTHORS file)`: `Stockfish 15.1`).
fn stockfish_version(stockfish: &Path) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(stockfish)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("stockfish starts");
    child.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or_default();
    first.split(" by ").next().unwrap_or_default().to_string()
}

/// Stockfish from Debian when it is the version the games in tests/data/peers/ were recorded
/// with. Missing or another version: a printed reason, or a failure under
/// `SHANNON_REQUIRE_PEERS=1`.
pub(super) fn stockfish_as_recorded() -> Option<PathBuf> {
    let stockfish = stockfish()?;
    let (recorded, here) = (recorded_stockfish_version(), stockfish_version(&stockfish));
    if here != recorded {
        peer_missing(
            &format!(
                "{} is {here:?}, but the games in tests/data/peers/ were recorded with \
                 {recorded:?}: record them again with this Stockfish (tests/data/peers/README.md, \
                 \"Recording them again\")",
                stockfish.display()
            ),
            peers_required(),
        );
        return None;
    }
    Some(stockfish)
}

/// Each tool plays the recorded command line with Stockfish again: the same games as recorded.
#[test]
fn the_recorded_stockfish_games_are_what_the_real_tools_play() {
    let tools = [
        (cutechess_cli(), "cutechess.pgn", RECORDED[0]),
        (fastchess(), "file=fastchess.pgn", RECORDED[1]),
    ];
    if tools.iter().all(|(tool, _, _)| tool.is_none()) {
        return;
    }
    let Some(stockfish) = stockfish_as_recorded() else {
        return;
    };
    let dir = bound_scores_folder("peer-tools-stockfish");
    std::thread::scope(|s| {
        for (tool, pgnout, _) in &tools {
            let Some(tool) = tool else { continue };
            let (dir, stockfish) = (&dir, &stockfish);
            s.spawn(move || {
                let out = std::process::Command::new(tool)
                    .args(bound_score_words(stockfish, pgnout))
                    .current_dir(dir.path())
                    .output()
                    .expect("the tool runs");
                assert!(
                    out.status.success(),
                    "{}: {}",
                    tool.display(),
                    String::from_utf8_lossy(&out.stderr)
                );
            });
        }
    });
    for (tool, pgnout, recorded) in tools {
        let Some(tool) = tool else { continue };
        let made = dir.join(pgnout.trim_start_matches("file="));
        assert_eq!(
            games_of(&made),
            games_of(&data_path(recorded)),
            "{} played other games than tests/data/{recorded}",
            tool.display()
        );
    }
}

/// cutechess-cli lists the recorded engines.json files as recorded.
#[test]
fn the_recorded_engines_listings_are_what_cutechess_cli_prints() {
    let Some(cutechess) = cutechess_cli() else {
        return;
    };
    let root = scratch("peer-tools-engines");
    for case in LISTINGS {
        let (theirs, recorded) = listing(root.path(), case, |work, home| {
            let out = std::process::Command::new(&cutechess)
                .arg("-engines")
                .current_dir(work)
                .env("HOME", home)
                .env_remove("XDG_CONFIG_HOME")
                .output()
                .expect("cutechess-cli runs");
            assert!(out.status.success(), "{out:?}");
            String::from_utf8_lossy(&out.stdout).into_owned()
        });
        assert_eq!(theirs, recorded, "{}", case.0);
    }
}

/// The option lists in `tests/data/peers/` (which docs/compat.md's option table must cover) are what
/// the tools' `-help` says today: made again from the real tools by the command each list
/// gives, they are equal.
#[test]
fn the_vendored_option_lists_match_the_tools_help() {
    let lists = [
        ("cutechess-cli-1.5.1-options.txt", cutechess_cli()),
        ("fastchess-1.8.2-alpha-options.txt", fastchess()),
    ];
    for (file, tool) in lists {
        let Some(tool) = tool else { continue };
        let vendored = std::fs::read_to_string(data_path(&format!("peers/{file}"))).unwrap();
        // The second line is the command that made the list, the tool's name first.
        let command = vendored.lines().nth(1).unwrap().trim_start_matches("# ");
        let (_, rest) = command.split_once(' ').unwrap();
        let script = format!("\"$TOOL\" {rest}");
        let out = std::process::Command::new("sh")
            .args(["-c", &script])
            .env("TOOL", &tool)
            .output()
            .expect("sh runs");
        let made = String::from_utf8_lossy(&out.stdout).into_owned();
        let listed: Vec<&str> = vendored.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(made.lines().collect::<Vec<_>>(), listed, "{file}: {script}");
    }
}

/// Each tool plays the recorded SPRT runs again (`sprt_peers.rs`): every game of each players'
/// recorded PGN, and each run's games (the first of those, as many as recorded) and SPRT lines
/// as recorded. With `SHANNON_PEERS_OUT=DIR` what the tools made is also written to DIR, named
/// as the recorded files, before it is compared (to record them anew:
/// tests/data/peers/README.md).
#[test]
fn the_recorded_sprt_runs_are_what_the_real_tools_print() {
    let (cute, fast) = (cutechess_cli(), fastchess());
    if cute.is_none() && fast.is_none() {
        return;
    }
    let stockfish = stockfish_as_recorded();
    let out = std::env::var_os("SHANNON_PEERS_OUT").map(PathBuf::from);
    let dir = sprt_folder("peer-tools-sprt");
    let binary = |tool: Tool| match tool {
        Tool::Cutechess => cute.clone(),
        Tool::Fastchess(_) => fast.clone(),
    };
    // The tool's standard output, its PGN written as `pgn` (None: the tool or Stockfish is
    // missing).
    let play = |run: &Run, pgn: &str, sprt: bool| -> Option<String> {
        let tool = binary(run.tool)?;
        if run.players != Players::Random && stockfish.is_none() {
            return None;
        }
        let stockfish = stockfish.clone().unwrap_or_default();
        let _ = std::fs::remove_file(dir.join(pgn));
        let output = std::process::Command::new(&tool)
            .args(run.words(&stockfish, pgn, sprt))
            .current_dir(dir.path())
            .output()
            .expect("the tool runs");
        assert!(output.status.success(), "{}: {output:?}", tool.display());
        Some(String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let mut every_game = Vec::new();
    for players in Players::ALL {
        for tool in [Tool::Cutechess, Tool::Fastchess(None)] {
            let name = tool.pgn_name(players);
            if play(&Run::every_game(players, tool), &name, false).is_some() {
                if let Some(out) = &out {
                    std::fs::copy(dir.join(&name), out.join(&name)).unwrap();
                }
                every_game.push(name);
            }
        }
    }
    let mut sprt_runs = Vec::new();
    for run in runs() {
        let name = run.output_name();
        let pgn = format!("{name}.pgn");
        if let Some(stdout) = play(&run, &pgn, true) {
            if let Some(out) = &out {
                std::fs::write(out.join(&name), &stdout).unwrap();
            }
            sprt_runs.push((run, stdout, games(&dir.join(&pgn))));
        }
    }
    for name in every_game {
        assert_eq!(
            games(&dir.join(&name)),
            games(&recorded(&name)),
            "{name}: other games than recorded"
        );
    }
    for (run, stdout, played) in sprt_runs {
        let name = run.output_name();
        let theirs = std::fs::read_to_string(recorded(&name)).unwrap();
        assert_eq!(sprt_lines(&stdout), sprt_lines(&theirs), "{name}");
        assert_eq!(finished_games(&stdout), finished_games(&theirs), "{name}");
        assert_eq!(played.len(), finished_games(&stdout), "{name}");
        let every = games(&recorded(&run.tool.pgn_name(run.players)));
        assert_eq!(played, every[..played.len()], "{name}: other games");
    }
}

#[test]
fn the_recorded_odds_games_are_what_the_real_tools_play() {
    let (cute, fast) = (cutechess_cli(), fastchess());
    let dir = odds_folder("peer-tools-odds");
    for (case, _) in CASES {
        for (tool, binary) in TOOLS.into_iter().zip([&cute, &fast]) {
            let Some(binary) = binary else {
                continue;
            };
            let pgn = format!("{case}.{tool}.pgn");
            let output = std::process::Command::new(binary)
                .args(odds_words(case, tool, &pgn))
                .current_dir(dir.path())
                .output()
                .expect("the tool runs");
            assert!(output.status.success(), "{}: {output:?}", binary.display());
            assert_eq!(
                odds_games(&dir.join(&pgn)),
                odds_games(&odds_recorded(&pgn)),
                "{pgn}: other games than recorded"
            );
        }
    }
}

/// Each tool plays the recorded caps beside a clock again (`caps_peers.rs`): the same games, and
/// the same `go` lines but for the clocks' times.
#[test]
fn the_recorded_caps_games_are_what_the_real_tools_play() {
    let (cute, fast) = (cutechess_cli(), fastchess());
    if cute.is_none() && fast.is_none() {
        return;
    }
    let Some(stockfish) = stockfish_as_recorded() else {
        return;
    };
    let dir = sprt_folder("peer-tools-caps");
    for (case, _) in CAPS_CASES {
        for (tool, binary) in TOOLS.into_iter().zip([&cute, &fast]) {
            let Some(binary) = binary else {
                continue;
            };
            let output = std::process::Command::new(binary)
                .args(caps_words(case, tool, &stockfish))
                .current_dir(dir.path())
                .output()
                .expect("the tool runs");
            assert!(output.status.success(), "{}: {output:?}", binary.display());
            let pgn = format!("{case}.{tool}.pgn");
            assert_eq!(
                odds_games(&dir.join(&pgn)),
                odds_games(&caps_recorded(&pgn)),
                "{pgn}: other games than recorded"
            );
            let shown = match tool.starts_with("fastchess") {
                true => std::fs::read_to_string(dir.join(format!("{case}.{tool}.log"))).unwrap(),
                false => String::from_utf8_lossy(&output.stdout).into_owned(),
            };
            let theirs =
                std::fs::read_to_string(caps_recorded(&format!("{case}.{tool}.go.txt"))).unwrap();
            let theirs: Vec<String> = theirs.lines().map(String::from).collect();
            assert_eq!(
                masked(&go_lines(&shown)),
                masked(&theirs),
                "{case} {tool}: other go lines than recorded"
            );
        }
    }
}

/// Each tool plays the recorded tablebase runs again (`tablebase_peers.rs`): the same games,
/// terminations and `Finished game` lines as recorded. With `SHANNON_PEERS_OUT=DIR` what the
/// tools made is also written to DIR, named as the recorded files.
#[test]
fn the_recorded_tablebase_runs_are_what_the_real_tools_play() {
    let (cute, fast) = (cutechess_cli(), fastchess());
    if cute.is_none() && fast.is_none() {
        return;
    }
    let Some(dir) = tablebase_folder("peer-tools-tablebase") else {
        return;
    };
    let out = std::env::var_os("SHANNON_PEERS_OUT").map(PathBuf::from);
    for run in &TABLEBASE_RUNS {
        let tool = match run.cutechess {
            true => cute.as_ref(),
            false => fast.as_ref(),
        };
        let Some(tool) = tool else { continue };
        let pgn = format!("{}.pgn", run.name);
        let output = std::process::Command::new(tool)
            .args(run.words(&pgn))
            .current_dir(dir.path())
            .output()
            .expect("the tool runs");
        assert!(output.status.success(), "{}: {output:?}", tool.display());
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        if let Some(out) = &out {
            std::fs::copy(dir.join(&pgn), out.join(&pgn)).unwrap();
            std::fs::write(out.join(format!("{}.txt", run.name)), &stdout).unwrap();
        }
        let theirs =
            std::fs::read_to_string(tablebase_recorded(&format!("{}.txt", run.name))).unwrap();
        assert_eq!(
            tablebase_outcome(&dir.join(&pgn), &stdout),
            tablebase_outcome(&tablebase_recorded(&pgn), &theirs),
            "{}: other games than recorded",
            run.name
        );
    }
}

/// Each tool plays the recorded faulty-engine runs again (`faults_peers.rs`): the same games,
/// `Termination` tags and printed lines as recorded.
#[test]
fn the_recorded_faulty_engine_runs_are_what_the_real_tools_play() {
    let binaries = [cutechess_cli(), fastchess()];
    if binaries.iter().all(Option::is_none) {
        return;
    }
    let dir = faults_folder("peer-tools-faults");
    for (case, ..) in FAULT_CASES {
        for (tool, binary) in FAULT_TOOLS.into_iter().zip(&binaries) {
            let Some(binary) = binary else { continue };
            let pgn = format!("{case}.{tool}.pgn");
            let output = std::process::Command::new(binary)
                .args(fault_words(case, tool, &pgn))
                .current_dir(dir.path())
                .output()
                .expect("the tool runs");
            assert!(output.status.success(), "{}: {output:?}", binary.display());
            assert_eq!(
                fault_games(&dir.join(&pgn)),
                fault_games(&faults_recorded(&pgn)),
                "{pgn}: other games than recorded"
            );
            let theirs =
                std::fs::read_to_string(faults_recorded(&format!("{case}.{tool}.txt"))).unwrap();
            assert_eq!(
                fault_printed(&String::from_utf8_lossy(&output.stdout)),
                fault_printed(&theirs),
                "{case} {tool}: other lines than recorded"
            );
        }
    }
}

/// cutechess-cli plays the recorded pondering cases again (`ponder_peers.rs`): the same games.
/// (Its `go ponder` lines depend on timing, see `ponder_peers.rs`, so they are not compared
/// here.)
#[test]
fn the_recorded_ponder_games_are_what_cutechess_cli_plays() {
    let Some(cute) = cutechess_cli() else {
        return;
    };
    let Some(stockfish) = stockfish_as_recorded() else {
        return;
    };
    let dir = sprt_folder("peer-tools-ponder");
    for (case, _) in PONDER_CASES {
        let output = std::process::Command::new(&cute)
            .args(ponder_words(case, &stockfish))
            .current_dir(dir.path())
            .output()
            .expect("the tool runs");
        assert!(output.status.success(), "{}: {output:?}", cute.display());
        let pgn = format!("{case}.cutechess-cli-1.5.1.pgn");
        assert_eq!(
            odds_games(&dir.join(&pgn)),
            odds_games(&ponder_recorded(&pgn)),
            "{pgn}: other games than recorded"
        );
    }
}
