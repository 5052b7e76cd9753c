//! `shannon random-games` and `shannon merge` as a user runs them: the result does not depend on
//! threads, shards or a `kill -9` in the middle; the mix of endings and the mean game length agree
//! with random games played by python-chess (a chi-square test of homogeneity and a z-test); and
//! the outputs (table, JSON, SVG, Slurm script) and refusals are what `--help` promises.
//!
//! The python-chess comparison is skipped, with the reason printed, when python-chess is not
//! installed; failing instead when the environment sets `SHANNON_REQUIRE_PEERS=1`.

mod checkpoint;
mod determinism;
mod one_runner;
mod output;
mod python;

use crate::common::Scratch;
use crate::common::{shannon_command as command, shannon_ok, shannon_refused};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A scratch directory for one test (removed when it ends, kept when it fails).
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("random-games-{name}"))
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A report without its `timing` (the machine's, not the experiment's).
fn result_of(path: &Path) -> Value {
    let mut report = read_json(path);
    assert!(
        report.as_object_mut().unwrap().remove("timing").is_some(),
        "{} has no timing",
        path.display()
    );
    report
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The count of the ending `key` in a report.
fn ending_count(report: &Value, key: &str) -> u64 {
    report["endings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["key"] == key)
        .unwrap_or_else(|| panic!("no ending {key}"))["count"]
        .as_u64()
        .unwrap()
}

/// Run the experiment `args` on 1 thread, on 2, and as 3 shards merged; the three reports must be
/// equal but for timing (the merged one's command too). Returns the report.
fn same_whatever_the_split(dir: &Path, name: &str, args: &[&str]) -> Value {
    let json = |file: &str| dir.join(format!("{name}-{file}.json"));
    let run = |extra: &[&str], file: &str| {
        let out = json(file);
        let mut line = args.to_vec();
        line.extend_from_slice(extra);
        line.extend_from_slice(&["--quiet", "--json", text(&out)]);
        shannon_ok(&line);
        result_of(&out)
    };
    let one = run(&["--threads", "1"], "threads-1");
    let two = run(&["--threads", "2"], "threads-2");
    let shards: Vec<Value> = (0..3)
        .map(|i| {
            run(
                &["--threads", "1", "--shard", &format!("{i}/3")],
                &format!("shard-{i}"),
            )
        })
        .collect();
    // Each shard played its own third.
    let games = one["games"].as_u64().unwrap();
    let shard_games: Vec<u64> = shards
        .iter()
        .map(|s| s["games"].as_u64().unwrap())
        .collect();
    assert_eq!(
        shard_games.iter().sum::<u64>(),
        games,
        "{name}: {shard_games:?}"
    );
    assert_ne!(shards[0]["histogram"], shards[1]["histogram"], "{name}");
    // Merged in another order than played.
    let merged = json("merged");
    shannon_ok(&[
        "merge",
        text(&json("shard-2")),
        text(&json("shard-0")),
        text(&json("shard-1")),
        "--json",
        text(&merged),
    ]);
    let merged = result_of(&merged);
    assert_eq!(one, two, "{name}: 1 thread vs 2 threads");
    assert_eq!(one, merged, "{name}: 1 thread vs 3 shards merged");
    assert_eq!(one["command"], merged["command"], "{name}");
    let endings: u64 = one["endings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["count"].as_u64().unwrap())
        .sum();
    assert_eq!(endings, games, "{name}: every game ends once");
    println!("{name}: {games} games, {}", one["command"]);
    one
}
