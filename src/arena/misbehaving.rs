//! What a run does with an engine that failed where the tools do otherwise than Shannon's own
//! form (cutechess-cli 1.5.1 and fastchess 1.8.2-alpha, recorded in `tests/data/peers/faults/`):
//!
//! - an engine whose clock ran out without an answer: cutechess-cli tells a UCI engine `stop`
//!   and waits its idle timeout (15 s) for the `bestmove` (`ChessEngine::onTimeout`,
//!   `onIdleTimeout`); fastchess sends `isready` and waits its ping time (60 s unless
//!   `-ping-ms` says otherwise: `Match::validConnection`). An engine that answers has lost on
//!   time and plays the next game; one that does not has stalled (the game is lost so, and the
//!   engine stopped). Shannon's own form calls it a loss on time at once and stops the engine;
//! - an engine that answered an illegal move plays on in the next game in both tools (its
//!   process still answers); Shannon's own form starts it afresh;
//! - a loss on time is a draw in cutechess-cli's form when the winner has nothing but its king
//!   (`ChessPlayer::forfeit`, `WesternBoard::winPossible`: `Draw by timeout`); fastchess and
//!   Shannon's own form score it a loss. (cutechess-cli's other forfeits, an illegal move, a
//!   crash or a stall against a bare king, are drawn too; Shannon still scores them lost.)

use super::dialect::Dialect;
use super::match_game::{Forensics, Termination, TimeLossCause};
use super::not_ready::keep_log;
use super::runner::MatchPlan;
use crate::client::{EngineError, EngineProcess, Protocol};
use crate::game::Outcome;
use crate::{Color, Position};
use std::time::Duration;

/// cutechess-cli's idle timeout (`ChessEngine::defaultIdleTimeout`).
const CUTECHESS_IDLE: Duration = Duration::from_secs(15);

/// fastchess's default ping time (`TournamentConfig::ping_time`).
const FASTCHESS_PING: Duration = Duration::from_secs(60);

impl MatchPlan {
    /// The clock of the engine in `slot` (playing `side`) ran out without an answer: how the
    /// game ends (lost on time for `cause`, or by a stall), the engine kept for the next game or
    /// stopped (its log then the game's forensics), as the run's form does it.
    pub(super) fn after_clock_ran_out(
        &self,
        engines: &mut [Option<EngineProcess>],
        slot: usize,
        side: Color,
        forensics: &mut Option<Forensics>,
        cause: TimeLossCause,
    ) -> (Outcome, Termination) {
        let Some(engine) = engines[slot].as_mut() else {
            return (Outcome::Win(!side), Termination::TimeForfeit(side, cause));
        };
        let answer = match (self.dialect, self.engines[slot].protocol) {
            (Some(Dialect::Cutechess), Protocol::Uci) => {
                engine.send("stop");
                engine
                    .wait_for("bestmove", CUTECHESS_IDLE, |line| {
                        line.split_whitespace().next() == Some("bestmove")
                    })
                    .map(drop)
            }
            (Some(Dialect::Fastchess), _) => engine.ready(self.ping.unwrap_or(FASTCHESS_PING)),
            _ => {
                keep_log(engines, slot, side, forensics);
                return (Outcome::Win(!side), Termination::TimeForfeit(side, cause));
            }
        };
        let termination = match answer {
            Ok(()) => {
                *forensics = Some(log_of(engine, side));
                return (Outcome::Win(!side), Termination::TimeForfeit(side, cause));
            }
            Err(_) if self.interrupted() => {
                engines[slot] = None;
                return (Outcome::Unfinished, Termination::Interrupted);
            }
            Err(EngineError::Timeout { .. }) => Termination::Hang(side),
            Err(EngineError::Exited { .. }) if self.dialect == Some(Dialect::Fastchess) => {
                Termination::Crash(side)
            }
            Err(_) => Termination::TimeForfeit(side, cause),
        };
        keep_log(engines, slot, side, forensics);
        (Outcome::Win(!side), termination)
    }

    /// The outcome of a game an engine forfeited (`outcome`, for `termination`) in
    /// `position`: a loss on time against a bare king is a draw in cutechess-cli's form.
    pub(super) fn forfeit_outcome(
        &self,
        position: &Position,
        outcome: Outcome,
        termination: &Termination,
    ) -> Outcome {
        match (self.dialect, outcome, termination) {
            (Some(Dialect::Cutechess), Outcome::Win(winner), Termination::TimeForfeit(..))
                if position.color_bb(winner).count() == 1 =>
            {
                Outcome::Draw
            }
            _ => outcome,
        }
    }

    /// The engine in `slot` (playing `side`) answered an illegal move: its log kept as the
    /// game's forensics, and its process kept for the next game in a tool's form, stopped in
    /// Shannon's own.
    pub(super) fn after_illegal_move(
        &self,
        engines: &mut [Option<EngineProcess>],
        slot: usize,
        side: Color,
        forensics: &mut Option<Forensics>,
    ) {
        match (self.dialect, engines[slot].as_ref()) {
            (Some(_), Some(engine)) => *forensics = Some(log_of(engine, side)),
            _ => keep_log(engines, slot, side, forensics),
        }
    }
}

/// The log of an engine that plays on, as a game's forensics.
fn log_of(engine: &EngineProcess, side: Color) -> Forensics {
    Forensics {
        side,
        log: engine.log(),
        file: None,
        unwritten: None,
    }
}
