//! A game of a match: the game itself (a [`GameRecord`]), who played it, and what ended it when
//! the rules did not (a time forfeit, a crash, the ply limit, an interruption).

use super::adjudication::MoveInfo;
use crate::game::{DrawClaim, Ending, Finish, GameRecord, Outcome};
use crate::Color;
use serde::{Deserialize, Serialize};
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

    /// What the result table counts it as.
    pub fn category(&self) -> EndCategory {
        match self {
            Termination::PlyLimit => EndCategory::PlyLimit,
            Termination::Adjudication(_) => EndCategory::Adjudication,
            Termination::TimeForfeit(_) => EndCategory::TimeForfeit,
            Termination::IllegalMove(..) => EndCategory::IllegalMove,
            Termination::Crash(_) => EndCategory::Crash,
            Termination::Hang(_) => EndCategory::Hang,
            Termination::StartFailure(..) => EndCategory::StartFailure,
            Termination::Interrupted => EndCategory::Interrupted,
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

/// How games ended, as the result table counts them: the rule of chess (a mate whoever gave
/// it) or what else ended the game. Saved by its stable name (`fifty-move-rule`), shown by its
/// words (`50-move rule`), which may change without splitting the counts of saved states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndCategory {
    /// Checkmate, either side.
    Checkmate,
    /// Stalemate.
    Stalemate,
    /// Fivefold repetition.
    FivefoldRepetition,
    /// The 75-move rule.
    SeventyFiveMoveRule,
    /// Insufficient material.
    InsufficientMaterial,
    /// Threefold repetition, claimed.
    ThreefoldRepetition,
    /// The 50-move rule, claimed.
    FiftyMoveRule,
    /// The ply limit.
    PlyLimit,
    /// Adjudicated from the engines' scores.
    Adjudication,
    /// Lost on time.
    TimeForfeit,
    /// An illegal move.
    IllegalMove,
    /// An engine exited.
    Crash,
    /// An engine stopped answering.
    Hang,
    /// An engine did not start.
    StartFailure,
    /// The match was interrupted.
    Interrupted,
    /// No rule and no termination recorded.
    Unknown,
}

impl EndCategory {
    /// Every category.
    pub const ALL: [EndCategory; 16] = [
        EndCategory::Checkmate,
        EndCategory::Stalemate,
        EndCategory::FivefoldRepetition,
        EndCategory::SeventyFiveMoveRule,
        EndCategory::InsufficientMaterial,
        EndCategory::ThreefoldRepetition,
        EndCategory::FiftyMoveRule,
        EndCategory::PlyLimit,
        EndCategory::Adjudication,
        EndCategory::TimeForfeit,
        EndCategory::IllegalMove,
        EndCategory::Crash,
        EndCategory::Hang,
        EndCategory::StartFailure,
        EndCategory::Interrupted,
        EndCategory::Unknown,
    ];

    /// The category of a game the rules ended.
    pub fn of(finish: Finish) -> EndCategory {
        match finish {
            Finish::Rule(Ending::Checkmate { .. }) => EndCategory::Checkmate,
            Finish::Rule(Ending::Stalemate) => EndCategory::Stalemate,
            Finish::Rule(Ending::FivefoldRepetition) => EndCategory::FivefoldRepetition,
            Finish::Rule(Ending::SeventyFiveMoveRule) => EndCategory::SeventyFiveMoveRule,
            Finish::Rule(Ending::InsufficientMaterial) => EndCategory::InsufficientMaterial,
            Finish::Claim(DrawClaim::ThreefoldRepetition) => EndCategory::ThreefoldRepetition,
            Finish::Claim(DrawClaim::FiftyMoveRule) => EndCategory::FiftyMoveRule,
        }
    }

    /// The words the result table shows.
    pub fn words(self) -> &'static str {
        match self {
            EndCategory::Checkmate => "checkmate",
            EndCategory::Stalemate => "stalemate",
            EndCategory::FivefoldRepetition => "fivefold repetition",
            EndCategory::SeventyFiveMoveRule => "75-move rule",
            EndCategory::InsufficientMaterial => "insufficient material",
            EndCategory::ThreefoldRepetition => "threefold repetition",
            EndCategory::FiftyMoveRule => "50-move rule",
            EndCategory::PlyLimit => "ply limit",
            EndCategory::Adjudication => "adjudication",
            EndCategory::TimeForfeit => "time forfeit",
            EndCategory::IllegalMove => "illegal move",
            EndCategory::Crash => "crash",
            EndCategory::Hang => "hang",
            EndCategory::StartFailure => "start failure",
            EndCategory::Interrupted => "interrupted",
            EndCategory::Unknown => "unknown",
        }
    }

    /// The category whose words state files of format 1 used as its key (they were the words
    /// shown then, which [`EndCategory::words`] still gives).
    pub fn from_format_1(key: &str) -> Option<EndCategory> {
        EndCategory::ALL.into_iter().find(|c| c.words() == key)
    }
}

impl fmt::Display for EndCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// A game of the match: finished, or cut short by an interruption.
#[derive(Debug, Clone)]
pub struct MatchGame {
    /// Its number in the schedule, from 1 (the PGN's `Round` tag, as cutechess-cli writes it).
    pub number: u32,
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

    /// What the result table counts it as.
    pub fn category(&self) -> EndCategory {
        match (&self.termination, self.record.finish) {
            (Some(termination), _) => termination.category(),
            (None, Some(finish)) => EndCategory::of(finish),
            (None, None) => EndCategory::Unknown,
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
