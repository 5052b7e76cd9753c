//! `shannon match` sharded by Slurm: a round-robin tournament of three engines runs as a job array
//! of 3 tasks whose command line has no `--shard` (each task takes its shard from
//! `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT`, the feature under test), and `shannon merge`
//! of the tasks' state files must give the result table and the games of the same tournament
//! played in one process. Also, without Slurm: an SPRT is refused on shards, whether the shard
//! comes from `--shard` or from the Slurm variables.

use super::cluster::{Cluster, SHANNON};
use crate::common::MatchLine;
use crate::common::Scratch;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Three engines, all this build of shannon (`self`: the executable running the match).
const ENGINES: &str = r#"[[engine]]
name = "a"
command = "self"

[[engine]]
name = "b"
command = "self"

[[engine]]
name = "c"
command = "self"
"#;

/// The variables a task takes its shard from; left out of the unsharded runs, in case the tests
/// themselves run in a Slurm array task or a Kubernetes Indexed Job.
const SHARD_VARIABLES: [&str; 4] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "JOB_COMPLETION_INDEX",
];

/// 3 encounters x 4 rounds x 2 games: 24 games, 12 game pairs, 4 pairs per shard.
const GAMES: usize = 24;
const SHARDS: usize = 3;

/// Write the engines file into `dir`; its path.
fn write_engines(dir: &Path) -> PathBuf {
    let config = dir.join("engines.toml");
    std::fs::write(&config, ENGINES).unwrap();
    config
}

/// The tournament's command line (after the program), writing its games to `pgn`. The same for
/// the tasks and the single run: only the shard differs, and it comes from the environment.
fn match_args(config: &Path, pgn: &Path) -> Vec<String> {
    MatchLine::new()
        .config(config)
        .engines("a,b,c")
        .arg("--tournament", "round-robin")
        .rounds(4)
        .games(2)
        .tc("nodes=1")
        .seed(7)
        .quiet()
        .pgn(pgn)
        .words()
}

/// shannon with the shard variables removed.
fn unsharded() -> Command {
    let mut command = Command::new(SHANNON);
    for name in SHARD_VARIABLES {
        command.env_remove(name);
    }
    command
}

fn text(out: &Output) -> String {
    format!(
        "{}\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The result table of a match's output: from the `Rank` line up to, not including, the line
/// that ends `lost by engine failure` (which, like the heading above the table, carries the
/// timing or says how the result was made, and so differs between a merge and a run).
fn result_table(stdout: &str) -> Vec<&str> {
    let lines: Vec<&str> = stdout.lines().collect();
    let start = lines.iter().position(|l| l.starts_with("Rank"));
    let end = lines
        .iter()
        .position(|l| l.trim_end().ends_with("lost by engine failure"));
    match (start, end) {
        (Some(start), Some(end)) if start < end => lines[start..end].to_vec(),
        _ => panic!("no result table (Rank ... lost by engine failure) in:\n{stdout}"),
    }
}

/// The games of a PGN file by their `Round` tag (each game's number in the schedule): every tag
/// but `Date` (a run may cross midnight) and the moves without their comments (which hold the
/// time each move took), whitespace collapsed. Panics on a round seen twice.
fn games_by_round(path: &Path) -> BTreeMap<usize, String> {
    let pgn = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut games = BTreeMap::new();
    for game in pgn.split("[Event ").skip(1) {
        let round: usize = game
            .split("[Round \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a game without a numeric Round in {}", path.display()));
        let mut kept = String::new();
        let mut in_comment = false;
        for line in game.lines().filter(|l| !l.starts_with("[Date ")) {
            for c in line.chars() {
                match c {
                    '{' => in_comment = true,
                    '}' => in_comment = false,
                    _ if !in_comment => kept.push(c),
                    _ => {}
                }
            }
            kept.push(' ');
        }
        let kept = kept.split_whitespace().collect::<Vec<_>>().join(" ");
        let again = games.insert(round, kept);
        assert!(again.is_none(), "Round {round} twice in {}", path.display());
    }
    games
}

/// Run the tournament as a job array in `dir` (a folder of this check's own inside the
/// cluster's), merge the shards' states and compare with the single run.
pub(super) fn check(cluster: &Cluster, dir: &Path) {
    let config = write_engines(dir);
    let quoted: Vec<String> = match_args(&config, &dir.join("games.pgn"))
        .iter()
        .map(|arg| format!("'{arg}'"))
        .collect();
    let script = format!(
        "#!/bin/sh
#SBATCH --job-name=match-shards
#SBATCH --array=0-{last}
#SBATCH --cpus-per-task=1
#SBATCH --output={out}/match-%A_%a.out
# No --shard: each task plays shard SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT.
'{SHANNON}' {args}
",
        last = SHARDS - 1,
        out = dir.display(),
        args = quoted.join(" "),
    );
    let script_path = dir.join("match.sbatch");
    std::fs::write(&script_path, script).unwrap();
    cluster.sbatch(&script_path, dir, "the match job array");

    let mut states = Vec::new();
    for shard in 0..SHARDS {
        let pgn = dir.join(format!("games.shard-{shard}-of-{SHARDS}.pgn"));
        let state = dir.join(format!("games.shard-{shard}-of-{SHARDS}.pgn.state.json"));
        for file in [&pgn, &state] {
            assert!(
                file.is_file(),
                "task {shard} wrote no {}\n{}",
                file.display(),
                cluster.logs()
            );
        }
        assert_eq!(
            games_by_round(&pgn).len(),
            GAMES / SHARDS,
            "games of shard {shard}"
        );
        states.push(state);
    }

    let merged_pgn = dir.join("merged.pgn");
    let merge = Command::new(SHANNON)
        .arg("merge")
        .args(&states)
        .arg("--pgn")
        .arg(&merged_pgn)
        .output()
        .expect("shannon merge runs");
    assert!(merge.status.success(), "shannon merge: {}", text(&merge));
    let single_pgn = dir.join("single.pgn");
    let single = unsharded()
        .args(match_args(&config, &single_pgn))
        .current_dir(dir)
        .output()
        .expect("shannon match runs");
    assert!(single.status.success(), "shannon match: {}", text(&single));

    let merged_out = String::from_utf8_lossy(&merge.stdout);
    let single_out = String::from_utf8_lossy(&single.stdout);
    assert_eq!(
        result_table(&merged_out),
        result_table(&single_out),
        "the merged shards' table differs from the single run's\nmerge:\n{merged_out}\nsingle:\n{single_out}"
    );

    let merged = std::fs::read_to_string(&merged_pgn).unwrap();
    assert_eq!(merged.matches("[Event ").count(), GAMES, "{merged}");
    let merged = games_by_round(&merged_pgn);
    assert!(
        merged.keys().copied().eq(1..=GAMES),
        "the merged rounds are not 1..={GAMES}, each once: {:?}",
        merged.keys().collect::<Vec<_>>()
    );
    let single = games_by_round(&single_pgn);
    for (round, game) in &merged {
        assert_eq!(
            Some(game),
            single.get(round),
            "game {round} of the merged shards differs from the single run's"
        );
    }
}

/// An SPRT stops at the first game that decides it, which shards playing apart cannot see: it is
/// refused with `--shard`, and with a shard from the Slurm variables alike, before any game.
#[test]
fn match_refuses_an_sprt_on_shards() {
    let dir = Scratch::new("slurm-sprt");
    let config = write_engines(&dir);
    // Few, fast games, so that a run that is wrongly not refused still ends soon.
    let sprt = |shard: &[&str], variables: &[(&str, &str)]| -> Output {
        let line = MatchLine::new()
            .config(&config)
            .sprt("0,10,0.05,0.05")
            .engines("a,b")
            .games(2)
            .tc("nodes=1")
            .quiet()
            .pgn(dir.join("sprt.pgn"))
            .then(shard);
        unsharded()
            .args(line.strs())
            .envs(variables.iter().copied())
            .current_dir(&dir)
            .output()
            .expect("shannon match runs")
    };
    let by_flag = sprt(&["--shard", "0/2"], &[]);
    let by_slurm = sprt(
        &[],
        &[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
        ],
    );
    for (how, out) in [("--shard 0/2", by_flag), ("a Slurm array task", by_slurm)] {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && stderr.contains("shards"),
            "--sprt with {how}: {}",
            text(&out)
        );
    }
    let written: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p != &config)
        .collect();
    assert!(written.is_empty(), "a refused match wrote {written:?}");
}
