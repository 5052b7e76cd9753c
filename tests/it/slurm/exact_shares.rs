//! `shannon exact` split into shares by Slurm: a job array of 4 tasks, each computing its share
//! of the distinct positions two plies down from `SLURM_ARRAY_TASK_ID` (the command line says
//! only `--shards 4`), as the docs' example writes it; the shares merged with `--merge` must
//! give, bit for bit, the JSON of the same computation in one process (counts, every guaranteed
//! digit of every probability, the error bounds).

use super::cluster::{Cluster, SHANNON};
use std::path::{Path, PathBuf};
use std::process::Command;

const SHARES: usize = 4;
const PLIES: &str = "6";
const SPLIT: &str = "2";

/// `shannon exact --json` with `args`, outside any array task; its parsed output.
fn exact_json(args: &[&str]) -> serde_json::Value {
    let run = Command::new(SHANNON)
        .args(["exact", "--json", "--fraction-plies", "0", "--hash", "16"])
        .args(args)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("SLURM_ARRAY_TASK_COUNT")
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .expect("shannon exact runs");
    assert!(run.status.success(), "{run:?}");
    serde_json::from_slice(&run.stdout).expect("exact --json is JSON")
}

/// Run the shares as a job array in `dir` (a folder of this check's own inside the cluster's),
/// merge them and compare with the single run.
pub(super) fn check(cluster: &Cluster, dir: &Path) {
    let script = format!(
        "#!/bin/sh
#SBATCH --job-name=exact-shares
#SBATCH --array=0-{last}
#SBATCH --cpus-per-task=1
#SBATCH --output={out}/exact-%A_%a.out
'{SHANNON}' exact --plies {PLIES} --split {SPLIT} --shards {SHARES} --threads 1 --hash 16 \\
    --out share-$SLURM_ARRAY_TASK_ID.json
",
        last = SHARES - 1,
        out = dir.display(),
    );
    let script_path = dir.join("exact.sbatch");
    std::fs::write(&script_path, script).unwrap();
    cluster.sbatch(&script_path, dir, "the exact job array");

    let shares: Vec<PathBuf> = (0..SHARES)
        .map(|i| dir.join(format!("share-{i}.json")))
        .collect();
    for share in &shares {
        assert!(
            share.is_file(),
            "no {}\n{}",
            share.display(),
            cluster.logs()
        );
    }
    let mut merge = vec!["--plies", PLIES, "--split", SPLIT, "--merge"];
    let names: Vec<String> = shares.iter().map(|p| p.display().to_string()).collect();
    merge.extend(names.iter().map(String::as_str));
    let merged = exact_json(&merge);
    let single = exact_json(&["--plies", PLIES]);
    assert_eq!(
        merged, single,
        "the merged shares differ from the single run"
    );
    // A079485 at ply 6, carried through the shares.
    assert_eq!(single[5]["mates"], 10828);
}
