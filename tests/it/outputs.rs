//! One rule for every subcommand that writes files (issue 45, item 5: `random-games` wrote over
//! its `--json` and `--plot` silently, while `match` refused to write over its games): an output
//! file that exists is refused before any work, naming it and `--overwrite`, and is left as it
//! was; `--overwrite` replaces it.

use crate::common::{data_path, Scratch, SHANNON};
use std::process::Command;

/// Each subcommand with the output option under test (FILE: the file it writes).
fn runs() -> Vec<(&'static str, Vec<String>)> {
    let data = |relative: &str| data_path(relative).display().to_string();
    let words = |text: &str| text.split_whitespace().map(str::to_string).collect();
    vec![
        (
            "random-games --json",
            words("random-games --games 200 --seed 1 --json FILE"),
        ),
        (
            "random-games --plot",
            words("random-games --games 200 --seed 1 --plot FILE"),
        ),
        ("merge --json", words("merge a.json b.json --json FILE")),
        ("exact --plot", words("exact --plies 2 --plot FILE")),
        (
            "exact --out",
            words("exact --plies 3 --split 1 --shard 0/2 --out FILE"),
        ),
        (
            "match --json",
            words("match --games 2 --tc nodes=1 --pgn - --json FILE"),
        ),
        (
            "match --report",
            words("match --games 2 --tc nodes=1 --pgn - --report FILE"),
        ),
        (
            "audit --json",
            vec![
                "audit".into(),
                "--engine".into(),
                SHANNON.into(),
                "--quick".into(),
                "--perft-seconds".into(),
                "1".into(),
                "--json".into(),
                "FILE".into(),
            ],
        ),
        (
            "codec-fit --write",
            vec![
                "codec-fit".into(),
                data("pgn/lichess_2013-01_5000.pgn"),
                "--fit-games".into(),
                "20".into(),
                "--final-only".into(),
                "--iterations".into(),
                "1".into(),
                "--write".into(),
                "FILE".into(),
            ],
        ),
    ]
}

fn shannon_in(dir: &std::path::Path, args: &[String]) -> std::process::Output {
    Command::new(SHANNON)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn an_output_file_that_exists_is_refused_and_overwrite_replaces_it() {
    let dir = Scratch::new("outputs-one-rule");
    for (shard, json) in [("0/2", "a.json"), ("1/2", "b.json")] {
        let args: Vec<String> = ["random-games", "--games", "200", "--seed", "3"]
            .iter()
            .map(|w| w.to_string())
            .chain(["--shard".into(), shard.into(), "--json".into(), json.into()])
            .collect();
        assert!(shannon_in(&dir, &args).status.success());
    }
    let mut failures = Vec::new();
    for (name, args) in runs() {
        // codec-fit writes into a folder: its first file is the one that exists.
        let (target, existing) = if name.starts_with("codec-fit") {
            let folder = dir.join("models");
            std::fs::create_dir_all(&folder).unwrap();
            (folder.display().to_string(), folder.join("m1.rs"))
        } else {
            let file = dir.join(name.replace(' ', "").replace("--", "-"));
            (file.display().to_string(), file)
        };
        std::fs::write(&existing, "an earlier run's file\n").unwrap();
        let args: Vec<String> = args
            .iter()
            .map(|a| {
                if a == "FILE" {
                    target.clone()
                } else {
                    a.clone()
                }
            })
            .collect();
        let refused = shannon_in(&dir, &args);
        let err = String::from_utf8_lossy(&refused.stderr);
        let kept = std::fs::read_to_string(&existing).unwrap();
        if refused.status.code() != Some(2)
            || !err.contains(&format!("{} exists", existing.display()))
            || !err.contains("--overwrite")
            || kept != "an earlier run's file\n"
        {
            failures.push(format!(
                "{name}: not refused ({:?}): {err}; the file holds {kept:?}",
                refused.status
            ));
            continue;
        }
        let mut replace = args.clone();
        replace.push("--overwrite".into());
        let replaced = shannon_in(&dir, &replace);
        let now = std::fs::read_to_string(&existing).unwrap_or_default();
        let ok = replaced.status.code() == Some(0)
            || (name.starts_with("audit") && replaced.status.code() == Some(1));
        if !ok || now == "an earlier run's file\n" {
            failures.push(format!(
                "{name} --overwrite: {:?}, the file not replaced: {}",
                replaced.status,
                String::from_utf8_lossy(&replaced.stderr)
            ));
        }
        println!("{name}: refused, then replaced with --overwrite");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Issue 45, item 6: codec-fit checked its folder only after minutes of fitting, without naming
/// it, and on a file too small to hold games after the fitting ones measured "0 moves".
#[test]
fn codec_fit_checks_its_folder_first_and_refuses_a_file_with_nothing_to_measure() {
    let dir = Scratch::new("codec-fit-checks");
    let corpus = data_path("pgn/lichess_2013-01_5000.pgn")
        .display()
        .to_string();
    let missing = dir.join("no-such-folder").display().to_string();
    let args: Vec<String> = ["codec-fit", &corpus, "--write", &missing]
        .iter()
        .map(|w| w.to_string())
        .collect();
    let started = std::time::Instant::now();
    let out = shannon_in(&dir, &args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("--write {missing}: no such folder")),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "it fitted first");
    println!("refused in {:?}", started.elapsed());
    // 30 games, all for fitting by default: nothing is left to measure.
    let text = std::fs::read_to_string(&corpus).unwrap();
    let games: Vec<&str> = text.split("\n\n[Event").take(30).collect();
    let small = dir.join("thirty.pgn");
    std::fs::write(&small, games.join("\n\n[Event") + "\n").unwrap();
    let args = vec!["codec-fit".to_string(), small.display().to_string()];
    let out = shannon_in(&dir, &args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("has 30 readable games: fitting on the first 2500 leaves none to measure on"),
        "{err}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("0 moves"));
}
