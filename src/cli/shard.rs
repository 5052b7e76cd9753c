//! Which shard a sharded command plays: `--shard I/N`, else a cluster scheduler's array task
//! (Slurm's SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT, from SLURM_ARRAY_TASK_MIN) or a
//! Kubernetes Indexed Job's JOB_COMPLETION_INDEX of `--shards N`. Shared by `shannon
//! random-games` and `shannon match`.

use super::prelude::CliError;
use shannon::jobs::shard::Shard;

/// The shard from the flags, else from the environment `env` reads. `count_alone` allows
/// `--shards N` without an index (a command that only prints a job script).
pub fn resolve_shard(
    flag: Option<Shard>,
    shards: Option<u64>,
    count_alone: bool,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Shard, CliError> {
    if let Some(shard) = flag {
        return Ok(shard);
    }
    let number = |name: &str| -> Result<Option<u64>, CliError> {
        env(name)
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| CliError::new(format!("{name}={v} is not a number")))
            })
            .transpose()
    };
    let shard = |index: u64, count: Option<u64>, what: &str| -> Result<Shard, CliError> {
        let count = count.ok_or_else(|| {
            CliError::new(format!(
                "{what} is set, but not the number of shards: give --shards N"
            ))
        })?;
        format!("{index}/{count}").parse().map_err(CliError::new)
    };
    if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
        let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let count = shards.or(number("SLURM_ARRAY_TASK_COUNT")?);
        return shard(id.saturating_sub(min), count, "SLURM_ARRAY_TASK_ID");
    }
    if let Some(index) = number("JOB_COMPLETION_INDEX")? {
        return shard(index, shards, "JOB_COMPLETION_INDEX");
    }
    match shards {
        Some(_) if !count_alone => Err(CliError::new(
            "--shards N needs a shard index: --shard I/N, or a Slurm array task or Indexed Job",
        )),
        _ => Ok(Shard::WHOLE),
    }
}
