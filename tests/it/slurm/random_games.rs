//! `shannon random-games` on the cluster: the batch script that `--print-sbatch` prints runs as a
//! job array of 4 tasks, and `shannon merge` of the 4 shard reports must equal the report of the
//! same experiment played in one process, in every field but `timing`.

use super::cluster::{Cluster, SHANNON};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A report without its `timing`, the only part that differs between runs.
fn report_without_timing(path: &Path) -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let Value::Object(mut fields) = serde_json::from_str(&text).expect("a report is JSON") else {
        panic!("{} is not a JSON object", path.display());
    };
    assert!(
        fields.remove("timing").is_some(),
        "{} has no timing",
        path.display()
    );
    fields
}

/// Run the printed script as a job array in `dir` (a folder of this check's own inside the
/// cluster's), merge the shards and compare with the single run.
pub(super) fn check(cluster: &Cluster, dir: &Path) {
    // The script as printed, calling this build of shannon instead of the one on PATH.
    let printed = Command::new(SHANNON)
        .args(["random-games", "--print-sbatch", "--shards", "4"])
        .args(["--seed", "1950", "--games", "4000"])
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .expect("shannon runs");
    assert!(printed.status.success(), "{printed:?}");
    let script = String::from_utf8(printed.stdout).unwrap();
    assert!(script.contains("#SBATCH --array=0-3\n"), "{script}");
    let script = script.replace("shannon random-games", &format!("'{SHANNON}' random-games"));
    let script_path = dir.join("random-games.sbatch");
    std::fs::write(&script_path, &script).unwrap();
    cluster.sbatch(&script_path, dir, "the random-games job array");

    let mut shards: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("shard-") && name.ends_with(".json")
        })
        .collect();
    shards.sort();
    assert_eq!(shards.len(), 4, "{shards:?}\n{}", cluster.logs());

    let merged = dir.join("merged.json");
    let merge = Command::new(SHANNON)
        .arg("merge")
        .args(&shards)
        .arg("--json")
        .arg(&merged)
        .output()
        .expect("shannon merge runs");
    assert!(merge.status.success(), "{merge:?}");
    let single = dir.join("single.json");
    let run = Command::new(SHANNON)
        .args([
            "random-games",
            "--games",
            "4000",
            "--seed",
            "1950",
            "--quiet",
        ])
        .arg("--json")
        .arg(&single)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .expect("shannon random-games runs");
    assert!(run.status.success(), "{run:?}");

    let merged = report_without_timing(&merged);
    let single = report_without_timing(&single);
    let mut keys: Vec<&String> = merged.keys().chain(single.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        assert_eq!(
            merged.get(key),
            single.get(key),
            "field {key}: the merged shards differ from the single run"
        );
    }
    assert_eq!(single["games"], 4000);
}
