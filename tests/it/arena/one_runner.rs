//! One runner per state file (issue 20): two `shannon match --resume S` at once both played and
//! appended, interleaving the text of their games in the PGN. The second runner is now refused at
//! once, a killed runner's lock never blocks a resume, and the PGN ends with every game once.

use super::{read_pgn, scratch, tag};
use crate::common::MatchLine;
use std::collections::BTreeSet;
use std::process::Stdio;
use std::time::{Duration, Instant};

#[cfg(unix)]
#[test]
fn a_second_runner_on_a_state_file_is_refused_and_a_killed_runners_lock_does_not_block() {
    let dir = scratch("one-runner");
    std::fs::write(
        dir.join("engines.toml"),
        "[[engine]]\nname = \"a\"\ncommand = \"self\"\n\n[[engine]]\nname = \"b\"\ncommand = \
         \"self\"\n",
    )
    .unwrap();
    let games = 200;
    let start = MatchLine::new()
        .engines("a,b")
        .games(games)
        .tc("nodes=1")
        .concurrency(1)
        .seed(20)
        .pgn("r.pgn")
        .arg("--state", "r.state")
        .quiet();
    let resume = MatchLine::new().arg("--resume", "r.state").quiet();
    let lock = dir.join("r.state.lock");
    let mut first = start
        .command()
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let waited = Instant::now();
    while !lock.exists() {
        assert!(first.try_wait().unwrap().is_none(), "the first run ended");
        assert!(waited.elapsed() < Duration::from_secs(60), "no lock file");
        std::thread::sleep(Duration::from_millis(10));
    }
    // Wait for a few games, so that a second runner would have something to interleave with.
    while std::fs::metadata(dir.join("r.pgn")).map_or(0, |m| m.len()) < 2000 {
        assert!(first.try_wait().unwrap().is_none(), "the first run ended");
        std::thread::sleep(Duration::from_millis(10));
    }
    for (what, line) in [("a resume", &resume), ("a new run", &start)] {
        let before = std::fs::metadata(dir.join("r.pgn")).unwrap().len();
        let started = Instant::now();
        let out = line.output_in(&dir);
        let stderr = String::from_utf8_lossy(&out.stderr);
        println!(
            "{what} refused in {:.2?}: {}",
            started.elapsed(),
            stderr.trim()
        );
        assert_eq!(
            out.status.code(),
            Some(2),
            "{what} was not refused: {stderr}"
        );
        assert!(
            stderr.contains("r.state is in use by another run")
                && stderr.contains(&format!("pid {}", first.id())),
            "{what}: {stderr}"
        );
        assert!(
            std::fs::metadata(dir.join("r.pgn")).unwrap().len() >= before,
            "{what} cut the PGN"
        );
    }
    assert!(first.try_wait().unwrap().is_none(), "the first run ended");
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(
        lock.exists(),
        "SIGKILL leaves the lock file (without a lock)"
    );

    let out = resume.output_in(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Resuming"), "{stdout}");
    assert!(!lock.exists(), "the lock file is removed at the end");
    let played = read_pgn(&dir.join("r.pgn"));
    assert_eq!(played.len(), games, "every game once");
    let rounds: BTreeSet<&str> = played.iter().map(|g| tag(g, "Round")).collect();
    assert_eq!(rounds.len(), games, "duplicate Round numbers");
}
