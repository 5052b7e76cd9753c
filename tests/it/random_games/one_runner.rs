//! A checkpoint belongs to one run at a time, and only a checkpoint whose counts add up is
//! resumed; output paths are checked before any game is played (issues 20 and 26).

use super::*;
use std::time::{Duration, Instant};

/// Wait until `path` exists (or panic after a while).
fn wait_for_file(path: &Path, child: &mut std::process::Child) {
    let started = Instant::now();
    while !path.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "the first run ended ({status}) before {} appeared",
                path.display()
            );
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{} did not appear",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Two runs on one checkpoint would both play and save; the second is refused at once, naming
/// the first's pid; once the first is killed with SIGKILL (leaving its lock file), a rerun takes
/// the checkpoint over and resumes.
#[cfg(unix)]
#[test]
fn a_second_run_on_a_checkpoint_is_refused_and_a_killed_runs_lock_does_not_block() {
    let dir = scratch("one-runner");
    let checkpoint = dir.join("ck");
    let lock = dir.join("ck.lock");
    let args = [
        "random-games",
        "--games",
        "1e9",
        "--seed",
        "9",
        "--threads",
        "1",
        "--quiet",
        "--checkpoint",
        text(&checkpoint),
    ];
    let mut first = command(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_file(&lock, &mut first);
    let started = Instant::now();
    let refused = shannon_refused(&args);
    println!("refused in {:.2?}: {}", started.elapsed(), refused.trim());
    assert!(
        refused.contains("ck is in use by another run")
            && refused.contains(&format!("pid {}", first.id())),
        "{refused}"
    );
    assert!(first.try_wait().unwrap().is_none(), "the first run stopped");

    first.kill().unwrap();
    first.wait().unwrap();
    assert!(
        lock.exists(),
        "a killed run leaves its lock file (but no lock)"
    );
    // The rerun takes over and plays on; it is stopped with SIGTERM and says how to resume.
    let mut rerun = command(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        rerun.try_wait().unwrap().is_none(),
        "the rerun was refused: {:?}",
        rerun.wait_with_output().unwrap()
    );
    let signalled = Command::new("kill")
        .args(["-TERM", &rerun.id().to_string()])
        .status()
        .unwrap();
    assert!(signalled.success());
    let out = rerun.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("interrupted after"), "{stdout}");
    assert!(!lock.exists(), "a run that ends removes its lock file");
}

/// A checkpoint whose `done` was changed was resumed as if it were right (issue 26: 2,048 games
/// silently missing, or `done` far beyond the games); now it is refused by name and left alone.
#[test]
fn a_checkpoint_whose_counts_do_not_add_up_is_refused() {
    let dir = scratch("inconsistent-checkpoint");
    let checkpoint = dir.join("ck");
    // A finished run of 3 blocks' worth of games leaves a checkpoint with every game done.
    let done = [
        "random-games",
        "--games",
        "6144",
        "--seed",
        "9",
        "--quiet",
        "--checkpoint",
        text(&checkpoint),
    ];
    shannon_ok(&done);
    let good = read_json(&checkpoint);
    assert_eq!(good["done"], 6144);
    let edit = |change: &dyn Fn(&mut Value)| {
        let mut saved = good.clone();
        change(&mut saved);
        std::fs::write(&checkpoint, saved.to_string()).unwrap();
        let stderr = shannon_refused(&done);
        assert_eq!(
            read_json(&checkpoint),
            saved,
            "the refused checkpoint changed"
        );
        stderr
    };
    let minus_one = edit(&|c| c["done"] = Value::from(6143));
    assert!(
        minus_one.contains("is damaged or was edited") && minus_one.contains("'done' is 6143"),
        "{minus_one}"
    );
    let beyond = edit(&|c| c["done"] = Value::from(999_999));
    assert!(
        beyond.contains("'done' is 999999, but the shard has only 6144 games"),
        "{beyond}"
    );
    let tally = edit(&|c| c["done"] = Value::from(4096));
    assert!(
        tally.contains("its tally counts 6144 games, but 'done' is 4096"),
        "{tally}"
    );
    let format = edit(&|c| c["format"] = Value::from("shannon random-games checkpoint 9"));
    assert!(
        format.contains("format 'shannon random-games checkpoint 9'"),
        "{format}"
    );
    // A checkpoint of an earlier build (no format field) is still read.
    let mut earlier = good.clone();
    earlier.as_object_mut().unwrap().remove("format");
    std::fs::write(&checkpoint, earlier.to_string()).unwrap();
    let resumed = shannon_ok(&done);
    assert!(resumed.contains("resumed after 6144 games"), "{resumed}");
}

/// `--json` and `--plot` were written only after every game was played: a wrong path lost the
/// whole run. Now they are checked first, and nothing is played.
#[test]
fn unwritable_outputs_are_refused_before_any_game() {
    let dir = scratch("outputs-first");
    for (flag, file) in [("--json", "x.json"), ("--plot", "x.svg")] {
        let missing = dir.join("no-such-folder").join(file);
        let started = Instant::now();
        let stderr = shannon_refused(&[
            "random-games",
            "--games",
            "1e9",
            "--seed",
            "1",
            "--quiet",
            flag,
            text(&missing),
        ]);
        assert!(
            stderr.contains("cannot write the") && stderr.contains(text(&missing)),
            "{flag}: {stderr}"
        );
        // A billion games take hours: being refused at all shows none was played.
        println!("{flag} refused in {:.2?}", started.elapsed());
    }
}
