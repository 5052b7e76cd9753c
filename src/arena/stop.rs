//! Why a run stops before its schedule ends (an interrupt aside), and the flag its workers raise
//! to stop it.
//!
//! Two failures stop a run. An engine that cannot start (its program does not run, or it never
//! completes its handshake) stops it in every form, as fastchess stops with `Fatal; ... engine
//! startup failure`: nothing it would play could count, and forfeiting game after game would
//! only report a result that is not one. The game it could not begin is left unplayed (a re-run
//! plays it). And without `-recover`, an engine that crashes or stalls during a game stops it
//! after that game, as cutechess-cli and fastchess do; the game counts.

use serde::Serialize;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// How an engine failed to start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum StartFailure {
    /// Its program could not be run.
    Spawn {
        /// Why, in words.
        error: String,
    },
    /// It did not answer `uci` with `uciok`.
    NoUciok {
        /// True when its process ended; false when the time ran out.
        exited: bool,
        /// What the runner saw, in words.
        error: String,
    },
    /// It answered `uciok` but did not get ready (`readyok` after its options, or after
    /// `ucinewgame`).
    NotReady {
        /// What the runner saw, in words.
        error: String,
    },
}

impl StartFailure {
    /// What the runner saw, in words.
    pub fn error(&self) -> &str {
        match self {
            StartFailure::Spawn { error }
            | StartFailure::NoUciok { error, .. }
            | StartFailure::NotReady { error } => error,
        }
    }
}

/// Why a run stopped before the end of its schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "why", rename_all = "kebab-case")]
pub enum RunStop {
    /// An engine could not start for game `game`, which was not played.
    StartFailure {
        /// The game (its number in the schedule, from 1).
        game: u32,
        /// The engine.
        engine: String,
        /// Its command, as configured.
        command: String,
        /// How it failed.
        failure: StartFailure,
        /// Its forensics file (`<pgn>.forensics/<game>.txt`), once written.
        forensics: Option<PathBuf>,
    },
    /// An engine crashed or stalled in game `game` (which counts) and the run does not
    /// recover from that (no `-recover`).
    NoRecover {
        /// The game (its number in the schedule, from 1).
        game: u32,
        /// The engine.
        engine: String,
        /// True when it stalled (stopped answering); false when its process ended.
        stalled: bool,
    },
}

impl RunStop {
    /// The game it stopped at.
    pub fn game(&self) -> u32 {
        match self {
            RunStop::StartFailure { game, .. } | RunStop::NoRecover { game, .. } => *game,
        }
    }
}

impl fmt::Display for RunStop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunStop::StartFailure {
                game,
                engine,
                command,
                failure,
                forensics,
            } => {
                write!(
                    f,
                    "stopped at game {game}: engine {engine} ({command}) could not start: {}",
                    failure.error()
                )?;
                if let Some(file) = forensics {
                    write!(f, "; forensics in {}", file.display())?;
                }
                Ok(())
            }
            RunStop::NoRecover {
                game,
                engine,
                stalled,
            } => write!(
                f,
                "stopped after game {game}: engine {engine} {} and the match does not recover \
                 (-recover restarts it and plays on)",
                match stalled {
                    true => "stalled",
                    false => "disconnected",
                }
            ),
        }
    }
}

/// The run's own stop, raised by the worker that meets the failure: no new game starts, the
/// running ones end unfinished, and the first cause is kept for the report.
#[derive(Debug, Default)]
pub(crate) struct Halt {
    raised: AtomicBool,
    cause: Mutex<Option<RunStop>>,
}

impl Halt {
    /// Stop the run for `cause` (the first cause stays).
    pub(crate) fn raise(&self, cause: RunStop) {
        let mut kept = self.cause.lock().unwrap_or_else(|e| e.into_inner());
        kept.get_or_insert(cause);
        self.raised.store(true, Ordering::Relaxed);
    }

    /// True once the run is stopped.
    pub(crate) fn is_raised(&self) -> bool {
        self.raised.load(Ordering::Relaxed)
    }

    /// Why it stopped, when it did.
    pub(crate) fn cause(&self) -> Option<RunStop> {
        self.cause.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_cause_stays() {
        let halt = Halt::default();
        assert!(!halt.is_raised() && halt.cause().is_none());
        let first = RunStop::NoRecover {
            game: 3,
            engine: "a".into(),
            stalled: false,
        };
        halt.raise(first.clone());
        halt.raise(RunStop::NoRecover {
            game: 4,
            engine: "b".into(),
            stalled: true,
        });
        assert!(halt.is_raised());
        assert_eq!(halt.cause(), Some(first));
        assert_eq!(halt.cause().unwrap().game(), 3);
    }

    #[test]
    fn a_stop_says_which_engine_and_why() {
        let stop = RunStop::StartFailure {
            game: 1,
            engine: "dev".into(),
            command: "./dev".into(),
            failure: StartFailure::NoUciok {
                exited: true,
                error: "the engine exited while the runner waited for uciok".into(),
            },
            forensics: Some(PathBuf::from("g.pgn.forensics/1.txt")),
        };
        assert_eq!(
            stop.to_string(),
            "stopped at game 1: engine dev (./dev) could not start: the engine exited while the \
             runner waited for uciok; forensics in g.pgn.forensics/1.txt"
        );
    }
}
