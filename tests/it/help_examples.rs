//! Every example that a subcommand's `--help` prints runs as written (issue 26: the examples of
//! `perft-check` and `audit` named `stockfish`, which was not in the engines file, and failed).
//!
//! The examples run with `sh` in a scratch folder that holds what they read (`tests/data`,
//! shards to merge, `syzygy`: the Syzygy tables of `$SHANNON_SYZYGY`), with the `shannon` under
//! test first on PATH. One that names Stockfish is skipped, with the reason printed, when
//! Stockfish is not installed; one that reads `--tb syzygy`, when the tables are not there.

use crate::common::{
    data_path, peer_missing, peers_required, shell, stockfish_installed, syzygy_folder, Scratch,
    SHANNON,
};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

fn help(args: &[&str]) -> String {
    let out = Command::new(SHANNON)
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "shannon {args:?} --help");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommand names a `--help` lists under `Commands:`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(String::from)
        .collect()
}

/// The example command lines of one `--help`: what follows `Example:` or `Examples:` when it
/// starts with `shannon`, split at `; `.
fn examples(help: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in help.lines() {
        for marker in ["Examples: ", "Example: "] {
            if let Some(at) = line.find(marker) {
                let text = &line[at + marker.len()..];
                if text.starts_with("shannon ") {
                    found.extend(text.split("; ").map(|c| c.trim().to_string()));
                }
                break;
            }
        }
    }
    found
}

/// Every example of every subcommand (and of `bench`'s), in `--help`'s order.
fn all_examples() -> Vec<(String, String)> {
    let mut all = Vec::new();
    for name in subcommands(&help(&[])) {
        let text = help(&[&name]);
        let nested = subcommands(&text);
        if nested.is_empty() {
            all.extend(examples(&text).into_iter().map(|e| (name.clone(), e)));
        }
        for inner in nested {
            let text = help(&[&name, &inner]);
            let label = format!("{name} {inner}");
            all.extend(examples(&text).into_iter().map(|e| (label.clone(), e)));
        }
    }
    all
}

/// What the examples read: the test data and shards to merge (the `merge` example's, as a job
/// array writes them). The packing examples read the repository's files.
fn prepare(dir: &Path) {
    let bin = dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(SHANNON, bin.join("shannon")).unwrap();
    std::os::unix::fs::symlink(data_path("").parent().unwrap(), dir.join("tests")).unwrap();
    if let Ok(tables) = syzygy_folder() {
        std::os::unix::fs::symlink(tables, dir.join("syzygy")).unwrap();
    }
    let run = |script: &str| {
        let out = shell(dir, script).output().unwrap();
        assert!(
            out.status.success(),
            "{script}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    for i in 0..2 {
        run(&format!(
            "shannon random-games --games 200 --seed 1 --shard {i}/2 --quiet --json shard-{i}.json"
        ));
        run(&format!(
            "shannon match --games 4 --tc nodes=1 --seed 1 --shard {i}/2 --quiet --pgn games.pgn"
        ));
    }
}

#[cfg(unix)]
#[test]
fn every_example_of_every_help_runs() {
    let all = all_examples();
    let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
    for expected in [
        "perft",
        "perft-check",
        "audit",
        "pack",
        "merge",
        "bench uci",
    ] {
        assert!(
            names.contains(&expected),
            "no example of {expected}: {names:?}"
        );
    }
    let dir = Scratch::new("help-examples");
    prepare(&dir);
    let mut failures = Vec::new();
    for (name, example) in &all {
        if example.contains("stockfish") && !stockfish_installed() {
            peer_missing(
                &format!("stockfish is not installed: `{example}` not run"),
                peers_required(),
            );
            continue;
        }
        if example.contains("--tb syzygy") {
            if let Err(why) = syzygy_folder() {
                peer_missing(&format!("{why}: `{example}` not run"), peers_required());
                continue;
            }
        }
        let started = Instant::now();
        let out = shell(&dir, example).output().unwrap();
        println!(
            "{name}: `{example}`: {} in {:.1?}",
            out.status,
            started.elapsed()
        );
        // An audit that ran but found an engine's deviations exits with 1, as its help says.
        let ran = out.status.success() || (name == "audit" && out.status.code() == Some(1));
        if !ran {
            failures.push(format!(
                "{name}: `{example}` exited with {}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
