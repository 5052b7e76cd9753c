//! Checkpoints: a run killed with SIGKILL resumes to the same result; a checkpoint of another
//! experiment is refused.

use super::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// When a run of the checkpointed experiment is killed.
#[cfg(unix)]
#[derive(Debug, Clone, Copy)]
enum Kill {
    /// This many seconds after it starts.
    After(f64),
    /// This many seconds after it first saves its checkpoint.
    AfterSave(f64),
}

/// Spawn `args` and SIGKILL it when `kill` says, unless it ends first: its output when it ended by
/// itself, `None` when it was killed.
#[cfg(unix)]
fn run_or_kill(args: &[&str], kill: Option<Kill>, checkpoint: &Path) -> Option<Output> {
    use std::os::unix::process::ExitStatusExt;
    let before = std::fs::read(checkpoint).ok();
    let mut child = command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("shannon starts");
    let started = Instant::now();
    let mut saved_at = None;
    loop {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        let now = started.elapsed().as_secs_f64();
        if saved_at.is_none() && std::fs::read(checkpoint).ok() != before {
            saved_at = Some(now);
        }
        let due = match kill {
            Some(Kill::After(delay)) => now >= delay,
            Some(Kill::AfterSave(delay)) => saved_at.is_some_and(|at| now >= at + delay),
            None => false,
        };
        if due {
            // `Child::kill` is SIGKILL on Unix: no handler runs, nothing is saved on the way out.
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            if out.status.signal() != Some(9) {
                // It ended by itself just before the signal.
                return Some(out);
            }
            match saved_at {
                Some(at) => println!("killed at {now:.2} s, after a save at {at:.2} s"),
                None => println!("killed at {now:.2} s, before any save"),
            }
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[cfg(unix)]
#[test]
fn a_run_killed_with_sigkill_resumes_from_its_checkpoint_to_the_same_result() {
    let dir = scratch("kill");
    let (a, b, checkpoint) = (dir.join("a.json"), dir.join("b.json"), dir.join("c"));
    let experiment = [
        "random-games",
        "--games",
        "200000",
        "--seed",
        "5",
        "--threads",
        "2",
        "--quiet",
    ];
    let started = Instant::now();
    shannon_ok(&[&experiment[..], &["--json", text(&a)]].concat());
    println!("uninterrupted: {:.2} s", started.elapsed().as_secs_f64());
    // A save every half second, so that the run (about 1.5-3 s on two threads) saves several
    // times however fast the machine plays.
    let resumable = [
        &experiment[..],
        &[
            "--checkpoint",
            text(&checkpoint),
            "--checkpoint-every",
            "0.5",
            "--json",
            text(&b),
        ],
    ]
    .concat();
    // Twice early (before the first save, half a second in), once just after a save, once more
    // early in the resumed run, then let it finish. The moments are drawn from a seeded
    // generator, so a failure replays.
    let mut rng = SmallRng::seed_from_u64(2024);
    let kills = [
        Kill::After(rng.random_range(0.05..0.45)),
        Kill::After(rng.random_range(0.05..0.45)),
        Kill::AfterSave(rng.random_range(0.0..0.1)),
        Kill::After(rng.random_range(0.05..0.3)),
    ];
    println!("kills: {kills:.2?}");
    let mut killed = 0;
    let mut saved_before_kill = false;
    let mut done = 0;
    let finished = loop {
        let kill = kills.get(killed).copied();
        if let Some(out) = run_or_kill(&resumable, kill, &checkpoint) {
            break out;
        }
        killed += 1;
        assert!(!b.exists(), "a killed run wrote its report");
        if checkpoint.exists() {
            // A kill leaves a whole checkpoint (saves are atomic), of part of the games (none
            // yet, on a loaded machine, when the first blocks had not ended at the first save).
            done = read_json(&checkpoint)["done"].as_u64().unwrap();
            assert!(done < 200_000, "checkpoint done: {done}");
            println!("checkpoint after kill {killed}: {done} games done");
        }
        if let Some(Kill::AfterSave(_)) = kill {
            assert!(
                checkpoint.exists(),
                "no checkpoint after a kill after a save"
            );
            saved_before_kill = true;
        }
    };
    let stdout = String::from_utf8_lossy(&finished.stdout);
    assert!(
        finished.status.success(),
        "{}\n{stdout}\n{}",
        finished.status,
        String::from_utf8_lossy(&finished.stderr)
    );
    assert!(
        killed >= 3 && saved_before_kill,
        "the run ended after {killed} kills, before a kill after a save: is it too short?"
    );
    if done > 0 {
        let resumed = format!("resumed after {done} games from the checkpoint");
        assert!(stdout.contains(&resumed), "expected '{resumed}':\n{stdout}");
    }
    println!("after {killed} kills: {}", stdout.lines().next().unwrap());
    assert_eq!(
        result_of(&a),
        result_of(&b),
        "killed and resumed vs uninterrupted"
    );
}

#[test]
fn a_checkpoint_of_another_experiment_is_refused_and_left_alone() {
    let dir = scratch("other-checkpoint");
    let checkpoint = dir.join("c");
    let run = |seed: &str, json: &Path| {
        vec![
            "random-games".to_string(),
            "--games".into(),
            "3000".into(),
            "--seed".into(),
            seed.into(),
            "--quiet".into(),
            "--checkpoint".into(),
            text(&checkpoint).into(),
            "--json".into(),
            text(json).into(),
        ]
    };
    let first: Vec<String> = run("5", &dir.join("five.json"));
    shannon_ok(&first.iter().map(String::as_str).collect::<Vec<_>>());
    let saved = std::fs::read(&checkpoint).expect("a finished run leaves its checkpoint");
    let other_json = dir.join("six.json");
    let other = run("6", &other_json);
    let stderr = shannon_refused(&other.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        stderr.contains("holds another experiment") && stderr.contains("seed 5"),
        "{stderr}"
    );
    println!("refused: {}", stderr.trim());
    assert_eq!(
        std::fs::read(&checkpoint).unwrap(),
        saved,
        "the checkpoint changed"
    );
    assert!(!other_json.exists());
    // The same experiment resumes from it (all done) to the same report.
    let again = shannon_ok(&first.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(again.contains("resumed after 3000 games"), "{again}");
}
