//! Why a match, a resume or a merge cannot start or go on: one enum, each variant carrying what
//! went wrong, typed. The messages name settings, not the command line's flags; the command line
//! says which flag sets them.

use super::files::{Holding, Occupant, OutputFile};
use super::knockout::KnockoutError;
use super::openings::OpeningsError;
use super::tablebase::TablebaseSettingError;
use crate::client::ConfigError;
use crate::jobs::run_lock::RunLockError;
use crate::notation::polyglot::BookError;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// A choice that no schedule can play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingError {
    /// An engine named twice.
    EngineTwice(String),
    /// No games per encounter.
    NoGames,
    /// No rounds or no games.
    NoRoundsOrGames,
    /// More games than one schedule numbers.
    TooManyGames(u64),
    /// An SPRT of a tournament (it tests one engine against another).
    SprtNeedsTwoEngines,
    /// An SPRT on shards (it is sequential).
    SprtOnShards,
    /// An SPRT of a knockout.
    KnockoutSprt,
    /// A knockout on shards.
    KnockoutOnShards,
    /// A knockout that cannot be (too few engines, no games).
    Knockout(KnockoutError),
    /// Single games (each from its own opening) asked of a tournament of this many engines.
    SingleGamesTournament(usize),
    /// Limits given to an engine the match does not play.
    LimitsOfAnotherEngine {
        /// The name given.
        name: String,
        /// The match's engines.
        engines: Vec<String>,
    },
    /// Games carried from another program's run ([`super::Carried`]) that this schedule cannot
    /// continue from, and why.
    Carried(String),
    /// A value of the engines file's `[match]` table that cannot be read.
    Defaults {
        /// The key.
        key: &'static str,
        /// Why.
        why: String,
    },
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::EngineTwice(name) => write!(
                f,
                "the engines name {name} twice: a tournament's engines are distinct (add a second \
                 [[engine]] table with another name to play an engine against itself)"
            ),
            SettingError::NoGames => f.write_str("the number of games must be at least 1"),
            SettingError::LimitsOfAnotherEngine { name, engines } => write!(
                f,
                "limits are given to {name}, which this match does not play (its engines: {})",
                engines.join(", ")
            ),
            SettingError::NoRoundsOrGames => {
                f.write_str("the numbers of rounds and games must be at least 1")
            }
            SettingError::TooManyGames(total) => write!(
                f,
                "{total} games: too many for one schedule (at most {})",
                u32::MAX - 1
            ),
            SettingError::SprtNeedsTwoEngines => f.write_str(
                "an SPRT tests one engine against another: it needs exactly two engines",
            ),
            SettingError::KnockoutSprt => f.write_str(
                "a knockout cannot stop at an SPRT's decision (the test weighs one engine \
                 against another, and a knockout's encounters end by its own rule)",
            ),
            SettingError::KnockoutOnShards => f.write_str(
                "a knockout cannot be split into shards: its later games depend on the results \
                 of the earlier ones, so no shard knows its games before the others have played \
                 theirs; play it in one run (with -concurrency N)",
            ),
            SettingError::Knockout(e) => write!(f, "{e}"),
            SettingError::SprtOnShards => f.write_str(
                "an SPRT cannot run on shards: the test is sequential (it stops at the first game \
                 that decides it), and shards play in parallel without seeing each other's \
                 results. Run an SPRT in one process, or shard a fixed number of games",
            ),
            SettingError::SingleGamesTournament(engines) => write!(
                f,
                "single games (each from its own opening) are played in a match of two engines; \
                 a tournament's encounters ({engines} engines here) play their games in pairs"
            ),
            SettingError::Defaults { key, why } => write!(f, "[match] {key}: {why}"),
            SettingError::Carried(why) => write!(f, "the games played before: {why}"),
        }
    }
}

impl std::error::Error for SettingError {}

/// Why a match or a merge cannot start or go on.
#[derive(Debug)]
pub enum ArenaError {
    /// The engines file is unusable.
    Config(ConfigError),
    /// A choice that cannot be played.
    Setting(SettingError),
    /// The openings cannot be loaded.
    Openings(OpeningsError),
    /// The tables of tablebase adjudication cannot be used.
    Tablebase(TablebaseSettingError),
    /// An engine's own book cannot be used.
    Book {
        /// The engine.
        engine: String,
        /// Its book.
        path: PathBuf,
        /// Why.
        error: BookError,
    },
    /// A file the match writes cannot be written.
    Output {
        /// Which.
        file: OutputFile,
        /// Where.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// Telling the observer of a run failed.
    Observer(io::Error),
    /// A state file cannot be read, written or used.
    State(PathBuf, StateError),
    /// Another runner holds one of the run's files.
    Locked(RunLockError),
    /// Files the run would write already hold games, positions or a run's state (each with
    /// what it holds: [`Occupant`]).
    Occupied(Vec<Occupant>),
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Config(e) => write!(f, "{e}"),
            ArenaError::Setting(e) => write!(f, "{e}"),
            ArenaError::Openings(e) => write!(f, "{e}"),
            ArenaError::Tablebase(e) => write!(f, "{e}"),
            ArenaError::Book {
                engine,
                path,
                error,
            } => write!(f, "engine {engine}: book {}: {error}", path.display()),
            ArenaError::Output { file, path, error } => {
                let what = match file {
                    OutputFile::Pgn => "the PGN file",
                    OutputFile::Epd => "the EPD file",
                };
                write!(f, "cannot write {what} {}: {error}", path.display())
            }
            ArenaError::Observer(e) => write!(f, "cannot write the report: {e}"),
            ArenaError::State(path, why) => write!(f, "state file {}: {why}", path.display()),
            ArenaError::Locked(e) => write!(f, "{e}"),
            ArenaError::Occupied(files) => {
                f.write_str("this run's files already hold what it would replace:")?;
                for file in files {
                    write!(f, "\n  {file}")?;
                }
                if let Some(state) = continues(files) {
                    write!(f, "\nresuming {} continues that run", state.display())?;
                }
                f.write_str("\nwrite to other files, or replace them (overwrite) to start anew")
            }
        }
    }
}

/// The state file among `files` that holds an unfinished run of the same settings: resuming it
/// continues the run a new run would start again.
pub fn continues(files: &[Occupant]) -> Option<&std::path::Path> {
    files.iter().find_map(|file| match &file.holds {
        Holding::Run(run) if run.same_settings && !run.finished => Some(file.path.as_path()),
        _ => None,
    })
}

impl std::error::Error for ArenaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ArenaError::Config(e) => Some(e),
            ArenaError::Setting(e) => Some(e),
            ArenaError::Openings(e) => Some(e),
            ArenaError::Tablebase(e) => Some(e),
            ArenaError::Book { error, .. } => Some(error),
            ArenaError::Output { error, .. } | ArenaError::Observer(error) => Some(error),
            ArenaError::State(_, e) => Some(e),
            ArenaError::Locked(e) => Some(e),
            ArenaError::Occupied(_) => None,
        }
    }
}

impl From<ConfigError> for ArenaError {
    fn from(e: ConfigError) -> Self {
        ArenaError::Config(e)
    }
}

impl From<SettingError> for ArenaError {
    fn from(e: SettingError) -> Self {
        ArenaError::Setting(e)
    }
}

impl From<OpeningsError> for ArenaError {
    fn from(e: OpeningsError) -> Self {
        ArenaError::Openings(e)
    }
}

impl From<RunLockError> for ArenaError {
    fn from(e: RunLockError) -> Self {
        ArenaError::Locked(e)
    }
}

/// Why a state file cannot be read, written or used.
#[derive(Debug)]
pub enum StateError {
    /// It cannot be read.
    Read(io::Error),
    /// It is not a state file.
    NotAState(serde_json::Error),
    /// A state of a format this build does not read.
    Format {
        /// Its format.
        found: String,
        /// The format this build writes.
        reads: &'static str,
    },
    /// A state of format 1 whose settings cannot be read (the setting and why).
    Format1(String),
    /// It cannot be written.
    Write(io::Error),
    /// The first run's directory cannot be entered.
    Directory(PathBuf, io::Error),
    /// Its results do not fit the schedule its settings make.
    DoesNotFit,
    /// Of a knockout that did not end, written before states kept each knockout game's result
    /// (format 6 and older): its later games depend on results it does not keep, so it is not
    /// continued.
    KnockoutUnfinished,
    /// Of a knockout whose saved results do not replay (they are of another knockout).
    KnockoutReplay(KnockoutError),
    /// An output file it records cannot be reopened or cut back.
    Reopen(PathBuf, io::Error),
    /// An output file is shorter than the games the state says it holds.
    Shorter {
        /// The file.
        path: PathBuf,
        /// Its length.
        length: u64,
        /// What the state says its finished games take.
        committed: u64,
    },
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Read(e) | StateError::Write(e) => write!(f, "{e}"),
            StateError::NotAState(e) => write!(f, "not a match state file: {e}"),
            StateError::Format { found, reads } => {
                write!(f, "format '{found}', this shannon reads '{reads}'")
            }
            StateError::Format1(why) => write!(f, "a state of format 1 whose {why}"),
            StateError::Directory(dir, e) => write!(
                f,
                "cannot change to the first run's directory {}: {e}",
                dir.display()
            ),
            StateError::DoesNotFit => {
                f.write_str("its results do not fit the schedule it asks for")
            }
            StateError::KnockoutUnfinished => f.write_str(
                "it holds a knockout that did not end, saved by an older shannon (state format \
                 6 or older) that did not keep each game's result, and the knockout's later \
                 games depend on them, so it cannot be continued; move the state file and the \
                 PGN away (or delete them) to play the knockout again from its start",
            ),
            StateError::KnockoutReplay(e) => write!(f, "its knockout cannot be continued: {e}"),
            StateError::Reopen(path, e) => write!(f, "cannot reopen {}: {e}", path.display()),
            StateError::Shorter {
                path,
                length,
                committed,
            } => write!(
                f,
                "{} holds {length} bytes, but the state says its finished games take {committed}: \
                 was it changed or replaced?",
                path.display()
            ),
        }
    }
}

impl std::error::Error for StateError {}

/// A write that failed: the match goes on without writing.
#[derive(Debug)]
pub enum RecordError {
    /// The state could not be saved.
    State(PathBuf, StateError),
    /// A game file could not be written.
    File {
        /// Which.
        file: OutputFile,
        /// Where.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::State(path, error) => {
                write!(f, "State: state file {}: {error}", path.display())
            }
            RecordError::File { file, path, error } => {
                write!(f, "{file}: writing {} failed ({error})", path.display())
            }
        }
    }
}

impl std::error::Error for RecordError {}
