//! The one error of the arena's commands: why a match or a check cannot start or go on.

use crate::client::ConfigError;
use crate::run_lock::RunLockError;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why a match or a check cannot start.
#[derive(Debug)]
pub enum ArenaError {
    /// engines.toml is unusable.
    Config(ConfigError),
    /// A bad value on the command line or in the `[match]` table.
    Setting(String),
    /// The openings cannot be loaded.
    Openings(String),
    /// The PGN file cannot be written.
    Pgn(String, io::Error),
    /// The report cannot be written.
    Output(io::Error),
    /// A state file (`--state`, `--resume`, `shannon merge`) cannot be read, written or used.
    State(PathBuf, String),
    /// Another runner holds the state file.
    Locked(RunLockError),
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Config(e) => write!(f, "{e}"),
            ArenaError::Setting(e) => write!(f, "{e}"),
            ArenaError::Openings(e) => write!(f, "{e}"),
            ArenaError::Pgn(path, e) => write!(f, "cannot write the PGN file {path}: {e}"),
            ArenaError::Output(e) => write!(f, "cannot write the report: {e}"),
            ArenaError::State(path, why) => write!(f, "state file {}: {why}", path.display()),
            ArenaError::Locked(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ArenaError {}

impl From<ConfigError> for ArenaError {
    fn from(e: ConfigError) -> Self {
        ArenaError::Config(e)
    }
}

impl From<RunLockError> for ArenaError {
    fn from(e: RunLockError) -> Self {
        ArenaError::Locked(e)
    }
}

impl From<io::Error> for ArenaError {
    fn from(e: io::Error) -> Self {
        ArenaError::Output(e)
    }
}
