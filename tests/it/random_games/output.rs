//! The outputs (table, SVG, Slurm script) and the refusals `--help` promises.

use super::*;

#[test]
fn plot_writes_an_svg() {
    let dir = scratch("plot");
    let plot = dir.join("lengths.svg");
    shannon_ok(&[
        "random-games",
        "--games",
        "2000",
        "--seed",
        "1",
        "--quiet",
        "--plot",
        text(&plot),
    ]);
    let svg = std::fs::read_to_string(&plot).expect("the plot is written");
    assert!(svg.contains("<svg"), "{}", &svg[..svg.len().min(300)]);
}

#[test]
fn print_sbatch_prints_a_job_array_and_runs_nothing() {
    let out = shannon_ok(&[
        "random-games",
        "--print-sbatch",
        "--shards",
        "4",
        "--seed",
        "1",
        "--games",
        "1000",
    ]);
    assert!(out.starts_with("#!/bin/bash\n"), "{out}");
    assert!(out.contains("#SBATCH --array=0-3\n"), "{out}");
    assert!(
        out.contains("shannon random-games --games 1000 --seed 1 --rules claims --shards 4"),
        "{out}"
    );
    assert!(out.contains("shannon merge shard-*.json"), "{out}");
    assert!(
        !out.contains("random games, seed"),
        "it ran the games:\n{out}"
    );
}

#[test]
fn game_counts_accept_exponents() {
    let dir = scratch("exponent");
    let json = dir.join("r.json");
    shannon_ok(&[
        "random-games",
        "--games",
        "1e4",
        "--seed",
        "2",
        "--quiet",
        "--json",
        text(&json),
    ]);
    let report = read_json(&json);
    assert_eq!(report["games"], 10_000);
    assert_eq!(report["experiment"]["games"], 10_000);
    let stderr = shannon_refused(&["random-games", "--games", "1.5e0", "--seed", "2"]);
    assert!(stderr.contains("whole number"), "{stderr}");
}

#[test]
fn sharding_without_a_seed_is_refused() {
    for line in [
        &["random-games", "--games", "100", "--shard", "0/2"][..],
        &["random-games", "--print-sbatch", "--shards", "4"][..],
    ] {
        let stderr = shannon_refused(line);
        assert!(stderr.contains("--seed"), "{stderr}");
    }
}

#[test]
fn merge_refuses_missing_duplicated_or_foreign_shards() {
    let dir = scratch("merge");
    let shard = |seed: u64, index: u64| {
        let path = dir.join(format!("seed{seed}-shard{index}.json"));
        shannon_ok(&[
            "random-games",
            "--games",
            "3000",
            "--seed",
            &seed.to_string(),
            "--shard",
            &format!("{index}/3"),
            "--quiet",
            "--json",
            text(&path),
        ]);
        path
    };
    let (s0, s1, s2) = (shard(7, 0), shard(7, 1), shard(7, 2));
    let foreign = shard(8, 1);
    let out = dir.join("merged.json");
    let refused = |files: &[&PathBuf], expected: &str| {
        let mut line = vec!["merge"];
        line.extend(files.iter().map(|p| text(p)));
        line.extend(["--json", text(&out)]);
        let stderr = shannon_refused(&line);
        assert!(stderr.contains(expected), "expected '{expected}': {stderr}");
        assert!(!out.exists(), "a refused merge wrote its report");
        println!("{}", stderr.trim());
    };
    refused(&[&s0, &s2], "missing shard(s) 1 of 3");
    refused(&[&s0, &s1, &s1, &s2], "shard 1/3 appears twice");
    refused(&[&s0, &foreign, &s2], "different experiments");
    // A report whose shard index is not below its count (edited by hand) is refused, not a crash.
    let edited = dir.join("edited.json");
    let mut report = read_json(&s1);
    report["experiment"]["shard"]["index"] = 5.into();
    std::fs::write(&edited, report.to_string()).unwrap();
    refused(&[&s0, &edited, &s2], "shard 5/3 among shards of 3");
    // All three, once each, merge.
    shannon_ok(&[
        "merge",
        text(&s0),
        text(&s1),
        text(&s2),
        "--json",
        text(&out),
    ]);
    assert_eq!(read_json(&out)["games"], 3000);
}

#[test]
fn the_table_has_wilson_intervals_and_a_command_that_reproduces_it() {
    let dir = scratch("table");
    let first = dir.join("first.json");
    let out = shannon_ok(&[
        "random-games",
        "--games",
        "3000",
        "--seed",
        "4",
        "--chess960",
        "518",
        "--max-plies",
        "500",
        "--quiet",
        "--json",
        text(&first),
    ]);
    println!("{out}");
    assert!(out.starts_with("3000 random games, seed 4\n"), "{out}");
    assert!(out.contains("95% interval (Wilson)"), "{out}");
    // Every ending's row carries its interval: "... 12.3456%   11.1111% - 13.5555%".
    let row = out
        .lines()
        .find(|l| l.starts_with("stalemate"))
        .expect("a stalemate row");
    let (share, interval) = row.split_once("%   ").expect("share, then interval");
    let share: f64 = share.split_whitespace().last().unwrap().parse().unwrap();
    let (low, high) = interval.trim_end_matches('%').split_once("% - ").unwrap();
    let (low, high): (f64, f64) = (low.parse().unwrap(), high.parse().unwrap());
    assert!(low < share && share < high, "{row}");
    let reproduce = out
        .lines()
        .find_map(|l| l.strip_prefix("reproduce: shannon "))
        .expect("a reproduce line");
    assert_eq!(
        reproduce,
        "random-games --games 3000 --seed 4 --chess960 518 --rules claims --max-plies 500"
    );
    // Running it plays the same games.
    let again = dir.join("again.json");
    let mut line: Vec<&str> = reproduce.split_whitespace().collect();
    line.extend(["--quiet", "--json", text(&again)]);
    shannon_ok(&line);
    assert_eq!(result_of(&first), result_of(&again));
}
