//! What a finished game of a match was: its moves, its result, and the rule or failure that
//! ended it.

use crate::game::{DrawClaim, Ending};
use crate::{Color, Move, Position};
use std::fmt;

/// The result of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
    /// Not finished: the match was interrupted during the game (PGN `*`). Not a result: the
    /// table leaves such games out.
    Unfinished,
}

impl GameResult {
    /// The PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// A win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Why a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Termination {
    /// A rule of chess ended it.
    Rule(Ending),
    /// A draw that could be claimed (the runner claims at once).
    Claim(DrawClaim),
    /// The optional ply limit adjudicated a draw.
    PlyLimit,
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
            Termination::Rule(_) | Termination::Claim(_) => "normal",
            Termination::PlyLimit => "adjudication",
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
            Termination::Rule(Ending::Checkmate { .. }) => "checkmate".into(),
            Termination::Rule(ending) => ending.to_string(),
            Termination::Claim(claim) => claim.to_string(),
            Termination::PlyLimit => "ply limit".into(),
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
            Termination::Rule(_)
                | Termination::Claim(_)
                | Termination::PlyLimit
                | Termination::Interrupted
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rule(ending) => write!(f, "{ending}"),
            Termination::Claim(claim) => write!(f, "draw by {claim}"),
            Termination::PlyLimit => f.write_str("draw adjudicated at the ply limit"),
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
pub struct GameRecord {
    /// 1-based game number in the match.
    pub round: u32,
    /// White's engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// The position the game started from.
    pub start: Position,
    /// True for a Chess960 game.
    pub chess960: bool,
    /// The moves played, opening moves included.
    pub moves: Vec<Move>,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
}
