//! A game of a match: the game itself (a [`GameRecord`]), who played it, and what ended it when
//! the rules did not (a time forfeit, a crash, the ply limit, an interruption).

use super::adjudication::MoveInfo;
use crate::game::{Ending, Finish, GameRecord, Outcome};
use crate::Color;
use std::fmt;

/// What ended a game of a match when the rules of chess did not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The optional ply limit adjudicated a draw.
    PlyLimit,
    /// The engines' scores adjudicated the game (the rule, in words).
    Adjudication(String),
    /// `side` overran its clock.
    TimeForfeit(Color),
    /// `side` sent a move that is not legal (the text it sent).
    IllegalMove(Color, String),
    /// `side`'s process ended during the game.
    Crash(Color),
    /// `side` stopped answering (no `bestmove` or `readyok` in time, no clock to lose on).
    Hang(Color),
    /// `side` could not be started or never completed the `uci` / `isready` handshake.
    StartFailure(Color, String),
    /// The match was interrupted (Ctrl-C, SIGTERM) before the game ended.
    Interrupted,
}

impl Termination {
    /// The standard PGN `Termination` tag value.
    pub fn pgn_tag(&self) -> &'static str {
        match self {
            Termination::PlyLimit | Termination::Adjudication(_) => "adjudication",
            Termination::TimeForfeit(_) => "time forfeit",
            Termination::IllegalMove(..) => "rules infraction",
            Termination::Crash(_) | Termination::Hang(_) | Termination::StartFailure(..) => {
                "abandoned"
            }
            Termination::Interrupted => "unterminated",
        }
    }

    /// A short name for the per-termination counts of the result table.
    pub fn category(&self) -> String {
        match self {
            Termination::PlyLimit => "ply limit".into(),
            Termination::Adjudication(_) => "adjudication".into(),
            Termination::TimeForfeit(_) => "time forfeit".into(),
            Termination::IllegalMove(..) => "illegal move".into(),
            Termination::Crash(_) => "crash".into(),
            Termination::Hang(_) => "hang".into(),
            Termination::StartFailure(..) => "start failure".into(),
            Termination::Interrupted => "interrupted".into(),
        }
    }

    /// True when an engine failed (the game was lost for a reason other than chess).
    pub fn is_failure(&self) -> bool {
        !matches!(
            self,
            Termination::PlyLimit | Termination::Adjudication(_) | Termination::Interrupted
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::PlyLimit => f.write_str("draw adjudicated at the ply limit"),
            Termination::Adjudication(rule) => write!(f, "adjudicated: {rule}"),
            Termination::TimeForfeit(side) => write!(f, "{side} lost on time"),
            Termination::IllegalMove(side, text) => {
                write!(f, "{side} played an illegal move: '{text}'")
            }
            Termination::Crash(side) => write!(f, "{side}'s engine exited during the game"),
            Termination::Hang(side) => write!(f, "{side}'s engine stopped answering"),
            Termination::StartFailure(side, why) => {
                write!(f, "{side}'s engine failed to start: {why}")
            }
            Termination::Interrupted => {
                f.write_str("unfinished: the match was interrupted during this game")
            }
        }
    }
}

/// A game of the match: finished, or cut short by an interruption.
#[derive(Debug, Clone)]
pub struct MatchGame {
    /// 1-based game number in the match.
    pub round: u32,
    /// White's engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// The game: start, moves (opening moves included), outcome, and the rule that ended it.
    pub record: GameRecord,
    /// What ended it when the rules did not (`None`: `record.finish` says which rule did).
    pub termination: Option<Termination>,
    /// What the engine said about each move the engines played (none for opening moves).
    pub infos: Vec<(usize, MoveInfo)>,
}

impl MatchGame {
    /// The standard PGN `Termination` tag value.
    pub fn pgn_termination(&self) -> &'static str {
        self.termination
            .as_ref()
            .map_or("normal", Termination::pgn_tag)
    }

    /// A short name for the per-termination counts of the result table.
    pub fn category(&self) -> String {
        match (&self.termination, self.record.finish) {
            (Some(termination), _) => termination.category(),
            (None, Some(Finish::Rule(Ending::Checkmate { .. }))) => "checkmate".into(),
            (None, Some(finish)) => finish.to_string(),
            (None, None) => "unknown".into(),
        }
    }

    /// True when an engine failed (the game was lost for a reason other than chess).
    pub fn is_failure(&self) -> bool {
        self.termination
            .as_ref()
            .is_some_and(Termination::is_failure)
    }

    /// True when the game has a result (it was not cut short by an interruption).
    pub fn is_finished(&self) -> bool {
        self.record.outcome != Outcome::Unfinished
    }

    /// How the game ended, in words: the rule (`checkmate, white wins`, `draw by threefold
    /// repetition`) or the termination.
    pub fn describe(&self) -> String {
        match (&self.termination, self.record.finish) {
            (Some(termination), _) => termination.to_string(),
            (None, Some(Finish::Rule(ending))) => ending.to_string(),
            (None, Some(Finish::Claim(claim))) => format!("draw by {claim}"),
            (None, None) => "unknown".into(),
        }
    }
}
