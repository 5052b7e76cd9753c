//! A real single-node Slurm cluster (Debian `slurm-wlm`, with munge): munged, slurmctld and
//! slurmd start in a scratch folder of their own, and three sharded runs go through it as job
//! arrays, each merged (`shannon merge`, `shannon exact --merge`) and compared with the same run
//! in one process:
//!
//! - [`random_games`]: the script `shannon random-games --print-sbatch` prints, 4 tasks; the
//!   merged report equals the single run's in every field but `timing`;
//! - [`match_shards`]: a round-robin `shannon match` of 3 tasks that take their shard from the
//!   Slurm array variables alone; the merged result table and PGN equal the single run's;
//! - [`exact_shares`]: `shannon exact --plies 6 --split 2` as 4 tasks that take their share from
//!   the array variable; `--merge` of the shares gives the single run's JSON bit for bit.
//!
//! One test runs all three in one cluster: two clusters in one process would race for their ports,
//! and a second start and stop would add its own wait for the node for nothing. The whole test
//! takes about a minute, nearly all of it `sbatch --wait` polling the controller at growing
//! intervals (the node is idle in a fraction of a second, the random-games tasks end in about
//! 10 s, the match tasks in about 1 s and the exact tasks in under half a second, yet the three
//! jobs take about 42 s, 10 s and 10 s; 65 s in all when run alone).
//!
//! The daemons are stopped, and waited for, whatever happens (a guard stops them on a failed
//! assertion too); the test then checks that no process of its cluster is left.
//! Skipped, with the reason printed, when Slurm or munge is missing or the tests do not run as
//! root (the daemons run as root, munged as the `munge` user); failing instead when
//! `SHANNON_REQUIRE_PEERS=1` (CI installs `slurm-wlm` and sets it).

mod cluster;
mod exact_shares;
mod match_shards;
mod random_games;

use crate::common::{peer_missing, peers_required, Scratch};
use cluster::{missing, processes_of, start_cluster};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A fresh folder for one check inside the cluster's folder (so that the cluster's process
/// check, which looks for processes working under it, covers the check's job tasks too, and
/// dropping the cluster removes it).
fn check_dir(cluster_dir: &Path, name: &str) -> PathBuf {
    let dir = cluster_dir.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn slurm_job_arrays_of_shards_merge_into_the_unsharded_results() {
    if let Some(reason) = missing() {
        return peer_missing(&reason, peers_required());
    }
    let started = Instant::now();
    // The cluster's folder: the cluster removes it when it stops (checked below).
    let scratch = Scratch::new("slurm");
    let dir = scratch.to_path_buf();
    // Dropped at the end, or while unwinding from a failed assertion: stops the daemons.
    let cluster = start_cluster(&dir);

    let checked = Instant::now();
    random_games::check(&cluster, &check_dir(&dir, "random-games"));
    println!("slurm: random-games check {:.1?}", checked.elapsed());
    let checked = Instant::now();
    match_shards::check(&cluster, &check_dir(&dir, "match"));
    println!("slurm: match shards check {:.1?}", checked.elapsed());
    let checked = Instant::now();
    exact_shares::check(&cluster, &check_dir(&dir, "exact"));
    println!("slurm: exact shares check {:.1?}", checked.elapsed());

    drop(cluster);
    let left = processes_of(&dir);
    assert!(left.is_empty(), "still running after the stop: {left:?}");
    assert!(!dir.exists(), "{} was not removed", dir.display());
    println!("slurm: whole test {:.1?}", started.elapsed());
}
