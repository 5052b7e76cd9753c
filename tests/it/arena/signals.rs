//! SIGTERM during a match: the runner prints its summary and leaves no engine process behind.

use super::{read_pgn, scratch, tag, FAULTY};
use crate::common::MatchLine;
use crate::common::{peer_missing, peers_required};
use std::path::Path;
use std::process::Command;

/// The processes whose parent is `pid`, with their command lines.
fn children_of(pid: u32) -> Vec<(u32, String)> {
    let mut children = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: comm may hold spaces, so split after the last ')'.
        let after = &stat[stat.rfind(')').unwrap() + 1..];
        let parent: u32 = after.split_whitespace().nth(1).unwrap().parse().unwrap();
        if parent == pid {
            children.push((child, command_line(child).unwrap_or_default()));
        }
    }
    children
}

fn command_line(pid: u32) -> Option<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    Some(String::from_utf8_lossy(&raw).replace('\0', " "))
}

/// Issue 9: SIGTERM (or Ctrl-C) killed the runner with no summary and left an engine that had
/// stopped reading running as an orphan.
#[test]
fn sigterm_ends_the_match_with_a_summary_and_no_engine_left() {
    if !Path::new("/proc/self/stat").exists() {
        peer_missing("no /proc to find the engine processes", peers_required());
        return;
    }
    let dir = scratch("sigterm");
    let config = dir.join("engines.toml");
    std::fs::write(
        &config,
        format!("[[engine]]\nname = \"good\"\ncommand = \"self\"\n\n[[engine]]\nname = \"deaf\"\ncommand = \"{FAULTY}\"\nargs = [\"--fault\", \"stop-reading\", \"--after\", \"1\"]\n"),
    )
    .unwrap();
    let pgn = dir.join("games.pgn");
    // Every game waits a second for the engine that stopped reading, then it loses on time.
    let mut shannon = MatchLine::new()
        .config(&config)
        .games(40)
        .concurrency(2)
        .tc("1+0")
        .pgn(&pgn)
        .quiet()
        .seed(4)
        .command()
        .current_dir(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = shannon.id();
    let started = std::time::Instant::now();
    let engines = loop {
        assert!(
            started.elapsed().as_secs() < 60,
            "no finished game and running engines within a minute"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
        let finished = std::fs::read_to_string(&pgn)
            .map(|t| t.matches("[Event ").count())
            .unwrap_or(0);
        let children = children_of(pid);
        if finished >= 1 && children.iter().any(|(_, cmd)| cmd.contains("stop-reading")) {
            break children;
        }
    };
    let status = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let signalled = std::time::Instant::now();
    let status = loop {
        if let Some(status) = shannon.try_wait().unwrap() {
            break status;
        }
        if signalled.elapsed().as_secs() > 20 {
            let _ = shannon.kill();
            panic!("the match did not end within 20 s of SIGTERM");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let took = signalled.elapsed();
    let output = shannon.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    // Any engine still running is a failure; end it so a failing run leaves nothing behind.
    let survivors: Vec<_> = engines
        .iter()
        .filter(|(engine, cmd)| command_line(*engine).is_some_and(|now| now == *cmd))
        .cloned()
        .collect();
    for (engine, _) in &survivors {
        let _ = Command::new("kill")
            .args(["-KILL", &engine.to_string()])
            .status();
    }
    assert!(
        survivors.is_empty(),
        "engines left running: {survivors:?}\n{out}{err}"
    );
    assert_eq!(status.code(), Some(1), "{out}{err}");
    assert!(took.as_secs() < 5, "took {took:?} to stop");
    assert!(err.contains("interrupted"), "{err}");
    assert!(out.contains("Interrupted after"), "{out}");
    let games = read_pgn(&pgn);
    let finished: Vec<_> = games
        .iter()
        .filter(|g| g.record.outcome.is_finished())
        .collect();
    let unfinished: Vec<_> = games
        .iter()
        .filter(|g| !g.record.outcome.is_finished())
        .collect();
    assert!(!finished.is_empty());
    assert!(
        !unfinished.is_empty(),
        "the running games end unfinished: {out}"
    );
    for game in &finished {
        assert_eq!(tag(game, "Termination"), "time forfeit");
    }
    for game in &unfinished {
        assert_eq!(tag(game, "Termination"), "unterminated");
    }
    assert!(
        out.contains(&format!(
            "Interrupted after {} finished games; {} running games",
            finished.len(),
            unfinished.len()
        )),
        "{out}"
    );
    let summary = out
        .lines()
        .find(|l| l.ends_with("lost by engine failure"))
        .unwrap_or_else(|| panic!("no table: {out}"));
    assert!(
        summary.starts_with(&format!("{} games, ", finished.len())),
        "the table covers the finished games: {out}"
    );
    assert!(
        games.len() < 40,
        "no game is scheduled after the signal: {out}"
    );
}
