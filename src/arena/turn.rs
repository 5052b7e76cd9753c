//! One turn of an engine in a game, as the runner plays it: the engine asked for its move (or
//! told `ponderhit` when it pondered on the move just played), its clock charged, its move
//! checked ([`MatchPlan::engine_move`]); and pondering as cutechess-cli drives it
//! ([`MatchPlan::start_pondering`], [`MatchPlan::stop_pondering`]).
//!
//! Pondering, for an engine configured to ponder (cutechess-cli's engine key `ponder`) that
//! declares the UCI option `Ponder`: it is sent `setoption name Ponder value true` before each
//! game (in cutechess-cli's form an engine without the key is sent `false`, as the tool does); after its `bestmove M ponder R`, once its opponent is asked to move (not for a book
//! move, nor when the game ended or `R` would end it), it is sent `position` with `M R`,
//! `isready` and, after `readyok`, `go ponder` with the clocks as they stand. If the opponent
//! plays `R`, it is sent `ponderhit` and its answer is its move, timed from `ponderhit`; else
//! `stop`, its answer dropped, then the turn's `position` and `go` as usual, the wait for the
//! dropped answer charged to its clock. At the game's end a pondering engine is sent `stop`.

use super::match_game::{Forensics, Termination, TimeLossCause};
use super::not_ready::keep_log;
use super::runner::{EngineMove, Limits, MatchPlan};
use crate::client::{Answer, Claim, Clock, EngineError, EngineProcess, TimeControl, Turn};
use crate::game::{Game, Outcome};
use crate::notation::uci::parse_move;
use crate::{CastlingMode, Color, Move};
use std::time::{Duration, Instant};

impl MatchPlan {
    /// Ask the engine in `slot` (the side to move) for its move, charge its clock and check the
    /// move: the move with what the engine said, or the game's end when it overran, crashed, hung
    /// or answered an illegal move (its process is dropped then, and its last words kept as the
    /// game's forensics; a time forfeit's cause is told from the move's timing).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn engine_move(
        &self,
        game: &Game,
        engines: &mut [Option<EngineProcess>],
        slot: usize,
        clocks: &mut [Clock; 2],
        opponent: TimeControl,
        mode: CastlingMode,
        last_read: Option<Instant>,
        forensics: &mut Option<Forensics>,
    ) -> Result<EngineMove, (Outcome, Termination)> {
        let side = game.position().side_to_move();
        let engine = engines[slot].as_mut().expect("prepared before the game");
        if let Err(lost) = self.ping(engine, side) {
            keep_log(engines, slot, side, forensics);
            return Err(lost);
        }
        let engine = engines[slot].as_mut().expect("answered the ping");
        let Limits {
            time_control,
            time_margin,
        } = self.limits[slot];
        let left = time_control.time_left(&clocks[side.index()]);
        let deadline = time_control.deadline(&clocks[side.index()], time_margin, self.hang_timeout);
        let turn = Turn {
            game,
            mode,
            own: time_control,
            opponent,
            clocks: *clocks,
            order: self.go_order,
        };
        // An engine pondering on the move just played is told `ponderhit`; on another, `stop`
        // (the wait for its answer is charged to its clock, as cutechess-cli charges it).
        let mut stopping = Duration::ZERO;
        let answer = match engine.pondering() {
            Some(reply) if game.moves().last() == Some(&reply) => engine.ponderhit(deadline),
            _ => match engine.stop_pondering(deadline) {
                Ok(waited) => {
                    stopping = waited;
                    engine.think(&turn, deadline.saturating_sub(waited))
                }
                Err(error) => Err(error),
            },
        };
        let mut info = engine.last_go().read_as(self.adjudication.bound_scores);
        info.time += stopping;
        info.timing.before_go = last_read
            .zip(info.timing.go_written)
            .map(|(read, written)| written.saturating_duration_since(read));
        let keep = |engines: &mut [Option<EngineProcess>], forensics: &mut Option<Forensics>| {
            keep_log(engines, slot, side, forensics)
        };
        let (text, (draw_claim, reply)) = match answer {
            Ok(Answer::Claim(claim)) => {
                // Judged as cutechess-cli judges it: never in the claimer's favour.
                let termination = match claim {
                    Claim::Resign(_) => Termination::Resignation(side),
                    Claim::False(line) => {
                        *forensics = Some(Forensics {
                            side,
                            log: engine.log(),
                            file: None,
                            unwritten: None,
                        });
                        Termination::FalseClaim(side, line)
                    }
                };
                return Err((Outcome::Win(!side), termination));
            }
            Ok(Answer::Move {
                text,
                draw_claim,
                ponder,
            }) => {
                // fastchess's `-ping-ms`: is the engine still there after its search?
                if let Err(lost) = self.ping(engine, side) {
                    keep(engines, forensics);
                    return Err(lost);
                }
                // The reply it expects is kept only when it may ponder (cutechess-cli reads
                // `ponder` only from an engine that declares the option).
                let ponders = self.engines[slot].ponder && engine.has_option("Ponder");
                (text, (draw_claim, ponder.filter(|_| ponders)))
            }
            Err(error) => {
                if self.interrupted() {
                    // Whatever happened after the interrupt is not the engine's fault.
                    engines[slot] = None;
                    return Err((Outcome::Unfinished, Termination::Interrupted));
                }
                let termination = match error {
                    EngineError::Timeout { .. } if time_control.has_clock() => {
                        let cause = TimeLossCause::of(&info, left, time_margin);
                        return Err(self.after_clock_ran_out(engines, slot, side, forensics, cause));
                    }
                    EngineError::Exited { .. } | EngineError::Spawn(..) => Termination::Crash(side),
                    EngineError::Timeout { .. } | EngineError::Unsupported(_) => {
                        Termination::Hang(side)
                    }
                    EngineError::Interrupted { .. } => Termination::Interrupted,
                };
                keep(engines, forensics);
                return Err((Outcome::Win(!side), termination));
            }
        };
        if !time_control.charge(&mut clocks[side.index()], info.time, time_margin) {
            // The engine answered, late: it plays on in the next game; its log is taken as is.
            let cause = TimeLossCause::of(&info, left, time_margin);
            *forensics = Some(Forensics {
                side,
                log: engine.log(),
                file: None,
                unwritten: None,
            });
            return Err((Outcome::Win(!side), Termination::TimeForfeit(side, cause)));
        }
        match parse_move(game.position(), &text) {
            Ok(mv) => {
                // A reply that is no legal move after it is not pondered on (cutechess-cli
                // warns and ponders on nothing).
                let reply = reply.and_then(|reply| {
                    let mut after = game.clone();
                    after.play(mv);
                    parse_move(after.position(), &reply).ok()
                });
                Ok(EngineMove {
                    mv,
                    info,
                    draw_claim,
                    reply,
                })
            }
            Err(_) => {
                self.after_illegal_move(engines, slot, side, forensics);
                Err((Outcome::Win(!side), Termination::IllegalMove(side, text)))
            }
        }
    }

    /// With `ping` set, `isready` and `readyok` within it (fastchess's `-ping-ms`): no answer in
    /// time is a stall, the process gone a crash; the game is lost for `side`.
    pub(super) fn ping(
        &self,
        engine: &mut EngineProcess,
        side: Color,
    ) -> Result<(), (Outcome, Termination)> {
        let Some(timeout) = self.ping else {
            return Ok(());
        };
        match engine.ready(timeout) {
            Ok(()) => Ok(()),
            Err(_) if self.interrupted() => Err((Outcome::Unfinished, Termination::Interrupted)),
            Err(EngineError::Timeout { .. }) => Err((Outcome::Win(!side), Termination::Hang(side))),
            Err(EngineError::Interrupted { .. }) => {
                Err((Outcome::Unfinished, Termination::Interrupted))
            }
            Err(_) => Err((Outcome::Win(!side), Termination::Crash(side))),
        }
    }

    /// Start the engine in `slot` pondering on `reply`, the move it expects after the last
    /// one (see the module's doc): nothing when it has none or `reply` would end the game; the
    /// game lost for `side` (the engine's colour) when it crashed or did not answer `isready`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn start_pondering(
        &self,
        game: &Game,
        engines: &mut [Option<EngineProcess>],
        slot: usize,
        reply: Option<Move>,
        clocks: &[Clock; 2],
        opponent: TimeControl,
        mode: CastlingMode,
        forensics: &mut Option<Forensics>,
    ) -> Result<(), (Outcome, Termination)> {
        let Some(reply) = reply else {
            return Ok(());
        };
        let mut after = game.clone();
        after.play(reply);
        if after
            .status_with(after.legal_moves().len())
            .finish_claiming()
            .is_some()
        {
            return Ok(());
        }
        let side = after.position().side_to_move();
        let Some(engine) = engines[slot].as_mut() else {
            return Ok(());
        };
        let turn = Turn {
            game: &after,
            mode,
            own: self.limits[slot].time_control,
            opponent,
            clocks: *clocks,
            order: self.go_order,
        };
        let timeout = Duration::from_millis(self.engines[slot].init_timeout_ms);
        match engine.ponder(&turn, timeout) {
            Ok(()) => Ok(()),
            Err(error) => {
                keep_log(engines, slot, side, forensics);
                Err(match error {
                    EngineError::Interrupted { .. } => {
                        (Outcome::Unfinished, Termination::Interrupted)
                    }
                    EngineError::Timeout { .. } => (Outcome::Win(!side), Termination::Hang(side)),
                    _ => (Outcome::Win(!side), Termination::Crash(side)),
                })
            }
        }
    }

    /// The game is over: each engine still pondering is sent `stop` and its answer read; one
    /// that does not answer within `timeout` is dropped (started anew for its next game).
    pub(super) fn stop_pondering(engines: &mut [Option<EngineProcess>], timeout: Duration) {
        for slot in engines.iter_mut() {
            let stopped = slot
                .as_mut()
                .is_none_or(|engine| engine.stop_pondering(timeout).is_ok());
            if !stopped {
                *slot = None;
            }
        }
    }
}
