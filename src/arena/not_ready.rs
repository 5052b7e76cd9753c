//! What ends a game before its first move or with an engine gone: an engine that could not be
//! made ready for a game ([`NotReady`]: a failure to start, or a crash or a stall between games)
//! and the log a failing engine leaves ([`keep_log`]).

use super::match_game::{Forensics, Termination};
use super::stop::StartFailure;
use crate::client::{EngineError, EngineLog, EngineProcess};
use crate::Color;

/// Stop the engine in `slot` and keep its log as the game's forensics (it lost for `side`).
pub(super) fn keep_log(
    engines: &mut [Option<EngineProcess>],
    slot: usize,
    side: Color,
    forensics: &mut Option<Forensics>,
) {
    if let Some(engine) = engines[slot].take() {
        *forensics = Some(Forensics {
            side,
            log: engine.into_log(),
            file: None,
            unwritten: None,
        });
    }
}

/// Why an engine could not begin a game: the error, whether its process was started for this
/// game (or had played before in this worker), and its log when it had a process.
pub(super) struct NotReady {
    pub(super) error: EngineError,
    pub(super) fresh: bool,
    pub(super) log: Option<EngineLog>,
}

impl NotReady {
    /// The failure of `engine`, stopped for its log (unless the match was interrupted: then
    /// nobody failed, and the engine is only stopped).
    pub(super) fn of(error: EngineError, fresh: bool, engine: EngineProcess) -> NotReady {
        let log = match error {
            EngineError::Interrupted { .. } => None,
            _ => Some(engine.into_log()),
        };
        NotReady { error, fresh, log }
    }

    /// What ended the game for `side`: a process started for it that did not complete its
    /// handshake failed to start; one that had played before and then exited or stopped
    /// answering at `ucinewgame` and `isready` crashed or hung.
    pub(super) fn termination(&self, side: Color) -> Termination {
        match self.error {
            EngineError::Exited { .. } if !self.fresh => Termination::Crash(side),
            EngineError::Timeout { .. } if !self.fresh => Termination::Hang(side),
            _ => Termination::StartFailure(side, self.error.to_string()),
        }
    }

    /// How it failed to start, when it did (a process started for this game that did not
    /// complete its handshake).
    pub(super) fn start_failure(&self) -> Option<StartFailure> {
        let error = self.error.to_string();
        Some(match &self.error {
            EngineError::Spawn(..) => StartFailure::Spawn { error },
            _ if !self.fresh => return None,
            EngineError::Interrupted { .. } => return None,
            EngineError::Exited { waiting_for } | EngineError::Timeout { waiting_for, .. }
                if waiting_for == "uciok" =>
            {
                let exited = matches!(self.error, EngineError::Exited { .. });
                StartFailure::NoUciok { exited, error }
            }
            _ => StartFailure::NotReady { error },
        })
    }

    /// The forensics of the forfeit: the engine's log, or, when no process could be started,
    /// why.
    pub(super) fn forensics(self, side: Color) -> Forensics {
        let log = self.log.unwrap_or_else(|| EngineLog {
            lines: Vec::new(),
            exit: Some(format!("never started ({})", self.error)),
        });
        Forensics {
            side,
            log,
            file: None,
            unwritten: None,
        }
    }
}
