//! A run's saved progress: the experiment, how many of its shard's games are done (a prefix, in
//! whole blocks), and their tally. A checkpoint is checked before a run continues from it: it
//! must hold the same experiment, and its counts must fit each other and the experiment, so a
//! damaged or edited file is refused by name instead of silently losing or inventing games.

use super::spec::{describe, Experiment, BLOCK};
use super::tally::{LengthRow, Tally};
use crate::jobs::run_lock::RunLockError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The `format` of every checkpoint this build writes.
pub const CHECKPOINT_FORMAT: &str = "shannon random-games checkpoint 1";

/// Saved progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// [`CHECKPOINT_FORMAT`]; absent in the checkpoints of earlier builds, which had the same
    /// layout and are read as this version.
    #[serde(default = "unversioned")]
    pub format: String,
    /// What is being played.
    pub experiment: Experiment,
    /// Shard-local games `0..done` are in `lengths`.
    pub done: u64,
    /// Seconds spent so far (over all the runs that made this checkpoint).
    pub seconds: f64,
    /// Their tally.
    pub lengths: Vec<LengthRow>,
}

fn unversioned() -> String {
    CHECKPOINT_FORMAT.to_string()
}

/// What in a checkpoint does not add up.
#[derive(Debug, Clone, PartialEq)]
pub enum Inconsistency {
    /// More games done than the shard has.
    DoneBeyondGames {
        /// Games done, as saved.
        done: u64,
        /// Games in the shard.
        games: u64,
    },
    /// Games are saved in whole blocks of [`BLOCK`] (or all of them): `done` is neither.
    DoneNotWholeBlocks {
        /// Games done, as saved.
        done: u64,
        /// Games in the shard.
        games: u64,
    },
    /// The tally counts a different number of games than `done`.
    TallyIsNotDone {
        /// Games in the tally.
        tallied: u64,
        /// Games done, as saved.
        done: u64,
    },
    /// The seconds spent are negative or not a number.
    BadSeconds(f64),
}

impl fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Inconsistency::DoneBeyondGames { done, games } => {
                write!(f, "'done' is {done}, but the shard has only {games} games")
            }
            Inconsistency::DoneNotWholeBlocks { done, games } => write!(
                f,
                "'done' is {done}, but games are saved in whole blocks of {BLOCK} (or all {games})"
            ),
            Inconsistency::TallyIsNotDone { tallied, done } => {
                write!(f, "its tally counts {tallied} games, but 'done' is {done}")
            }
            Inconsistency::BadSeconds(seconds) => {
                write!(f, "'seconds' is {seconds}, not a duration")
            }
        }
    }
}

/// Why a checkpoint cannot be read, written or used.
#[derive(Debug)]
pub enum CheckpointError {
    /// The file cannot be read.
    Read(PathBuf, io::Error),
    /// The file is not a checkpoint.
    NotACheckpoint(PathBuf, serde_json::Error),
    /// A checkpoint of a format this build does not read.
    Format(PathBuf, String),
    /// It holds another experiment.
    OtherExperiment(PathBuf, Box<Experiment>),
    /// Its counts do not add up.
    Inconsistent(PathBuf, Inconsistency),
    /// It cannot be written.
    Write(PathBuf, io::Error),
    /// Another run is using it.
    Locked(RunLockError),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            CheckpointError::NotACheckpoint(path, e) => {
                write!(f, "{} is not a checkpoint: {e}", path.display())
            }
            CheckpointError::Format(path, format) => write!(
                f,
                "{} has format '{format}'; this shannon reads '{CHECKPOINT_FORMAT}'",
                path.display()
            ),
            CheckpointError::OtherExperiment(path, saved) => write!(
                f,
                "{} holds another experiment ({}); remove it or run that one",
                path.display(),
                describe(saved)
            ),
            CheckpointError::Inconsistent(path, why) => write!(
                f,
                "{} is damaged or was edited: {why}; remove it to start again",
                path.display()
            ),
            CheckpointError::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
            CheckpointError::Locked(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CheckpointError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CheckpointError::Read(_, e) | CheckpointError::Write(_, e) => Some(e),
            CheckpointError::NotACheckpoint(_, e) => Some(e),
            CheckpointError::Locked(e) => Some(e),
            _ => None,
        }
    }
}

impl Checkpoint {
    /// The progress of `experiment`: `done` games, their `tally`, `seconds` spent.
    pub fn new(experiment: &Experiment, done: u64, seconds: f64, tally: &Tally) -> Checkpoint {
        Checkpoint {
            format: CHECKPOINT_FORMAT.to_string(),
            experiment: experiment.clone(),
            done,
            seconds,
            lengths: tally.rows(),
        }
    }

    /// Read a checkpoint file; `Ok(None)` when it does not exist.
    pub fn load(path: &Path) -> Result<Option<Checkpoint>, CheckpointError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(CheckpointError::Read(path.to_path_buf(), e)),
        };
        let checkpoint: Checkpoint = serde_json::from_str(&text)
            .map_err(|e| CheckpointError::NotACheckpoint(path.to_path_buf(), e))?;
        if checkpoint.format != CHECKPOINT_FORMAT {
            return Err(CheckpointError::Format(
                path.to_path_buf(),
                checkpoint.format,
            ));
        }
        Ok(Some(checkpoint))
    }

    /// Read the checkpoint of `experiment` at `path`, checked; `Ok(None)` when there is none.
    pub fn load_for(
        path: &Path,
        experiment: &Experiment,
    ) -> Result<Option<Checkpoint>, CheckpointError> {
        let Some(saved) = Checkpoint::load(path)? else {
            return Ok(None);
        };
        if saved.experiment != *experiment {
            return Err(CheckpointError::OtherExperiment(
                path.to_path_buf(),
                Box::new(saved.experiment),
            ));
        }
        saved
            .check()
            .map_err(|why| CheckpointError::Inconsistent(path.to_path_buf(), why))?;
        Ok(Some(saved))
    }

    /// Check that the counts fit each other and the experiment.
    pub fn check(&self) -> Result<(), Inconsistency> {
        let games = self.experiment.shard_games();
        let done = self.done;
        if done > games {
            return Err(Inconsistency::DoneBeyondGames { done, games });
        }
        if !done.is_multiple_of(BLOCK) && done != games {
            return Err(Inconsistency::DoneNotWholeBlocks { done, games });
        }
        let tallied = self
            .lengths
            .iter()
            .map(|LengthRow(_, counts)| counts.iter().fold(0u64, |a, &n| a.saturating_add(n)))
            .fold(0u64, u64::saturating_add);
        if tallied != done {
            return Err(Inconsistency::TallyIsNotDone { tallied, done });
        }
        if !(self.seconds.is_finite() && self.seconds >= 0.0) {
            return Err(Inconsistency::BadSeconds(self.seconds));
        }
        Ok(())
    }

    /// Write it atomically ([`crate::jobs::atomic_file`]): a kill at any moment leaves either the old
    /// checkpoint or the new one.
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let text = serde_json::to_string(self).expect("a checkpoint serialises");
        crate::jobs::atomic_file::write_atomically(path, text.as_bytes())
            .map_err(|e| CheckpointError::Write(path.to_path_buf(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{RuleSet, Shard, Start};

    fn experiment(games: u64) -> Experiment {
        Experiment {
            seed: 9,
            games,
            start: Start::Standard,
            rules: RuleSet::CLAIMS,
            shard: Shard::WHOLE,
        }
    }

    fn tally_of(games: u64) -> Tally {
        let mut counts = [0; crate::experiment::tally::CATEGORIES];
        counts[0] = games;
        Tally::from_rows(&[LengthRow(40, counts)])
    }

    #[test]
    fn counts_that_do_not_add_up_are_named() {
        let e = experiment(100_000);
        let good = Checkpoint::new(&e, 2 * BLOCK, 1.5, &tally_of(2 * BLOCK));
        assert_eq!(good.check(), Ok(()));
        let all = Checkpoint::new(&e, 100_000, 1.5, &tally_of(100_000));
        assert_eq!(all.check(), Ok(()));

        let mut plus_one = good.clone();
        plus_one.done += 1;
        assert!(matches!(
            plus_one.check(),
            Err(Inconsistency::DoneNotWholeBlocks { .. })
        ));
        let mut beyond = good.clone();
        beyond.done = 999_999;
        assert_eq!(
            beyond.check(),
            Err(Inconsistency::DoneBeyondGames {
                done: 999_999,
                games: 100_000
            })
        );
        let mut short_tally = good.clone();
        short_tally.done = 3 * BLOCK;
        assert_eq!(
            short_tally.check(),
            Err(Inconsistency::TallyIsNotDone {
                tallied: 2 * BLOCK,
                done: 3 * BLOCK
            })
        );
        let mut seconds = good;
        seconds.seconds = -1.0;
        assert!(matches!(seconds.check(), Err(Inconsistency::BadSeconds(_))));
    }
}
