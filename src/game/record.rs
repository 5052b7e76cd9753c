//! The one record of a game that every layer above the rules shares: PGN adds its tags around
//! it, the arena adds players and how a match game was terminated, the codecs pack it, the
//! playout benchmark and the UCI engine build it.

use super::{Finish, Game, Outcome, Status};
use crate::{CastlingMode, Move, Position};

/// A game: where it started, how castling is written, the moves, who won and how it ended.
///
/// ```
/// use shannon::game::{GameRecord, Outcome};
/// use shannon::notation::uci::parse_move;
/// use shannon::{CastlingMode, Position};
///
/// // Fool's mate.
/// let mut pos = Position::startpos();
/// let mut moves = Vec::new();
/// for text in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     let mv = parse_move(&pos, text).unwrap();
///     pos = pos.play(mv);
///     moves.push(mv);
/// }
/// let record = GameRecord::by_the_rules(Position::startpos(), CastlingMode::Standard, moves);
/// assert_eq!(record.outcome.to_string(), "0-1");
/// assert_eq!(record.finish.unwrap().to_string(), "checkmate, black wins");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The position before the first move.
    pub start: Position,
    /// How castling moves and FENs of this game are written (a Chess960 game says so).
    pub castling: CastlingMode,
    /// The moves, each legal in the position it is played from.
    pub moves: Vec<Move>,
    /// Who won (`Unfinished` while unknown).
    pub outcome: Outcome,
    /// The rule or claim that ended the game, when the rules ended it.
    pub finish: Option<Finish>,
}

impl GameRecord {
    /// A game with no moves yet, unfinished.
    pub fn new(start: Position, castling: CastlingMode) -> GameRecord {
        GameRecord {
            start,
            castling,
            moves: Vec::new(),
            outcome: Outcome::Unfinished,
            finish: None,
        }
    }

    /// `moves` from `start` (each must be legal), finished as the rules finish it: if the last
    /// position is over by a rule, or a draw can be claimed there (taken, as match runners do),
    /// that is the finish and its outcome; otherwise the game is unfinished.
    pub fn by_the_rules(start: Position, castling: CastlingMode, moves: Vec<Move>) -> GameRecord {
        let finish = Game::replay(&start, &moves).status().finish_claiming();
        GameRecord {
            start,
            castling,
            moves,
            outcome: finish.map_or(Outcome::Unfinished, Finish::outcome),
            finish,
        }
    }

    /// The record of `game` with the result a reader or a runner found: `finish` is worked
    /// out from the rules as [`GameRecord::finish_for`] says.
    pub fn with_outcome(
        start: Position,
        castling: CastlingMode,
        moves: Vec<Move>,
        outcome: Outcome,
    ) -> GameRecord {
        let finish = GameRecord::finish_for(&Game::replay(&start, &moves), outcome);
        GameRecord {
            start,
            castling,
            moves,
            outcome,
            finish,
        }
    }

    /// The rule behind `outcome` at the end of `game`: a rule that has ended it (whatever the
    /// outcome says, the rules decide), or a claimable draw when the outcome is a draw.
    pub fn finish_for(game: &Game, outcome: Outcome) -> Option<Finish> {
        match game.status() {
            Status::Claimable(_) if outcome != Outcome::Draw => None,
            status => status.finish_claiming(),
        }
    }

    /// The game replayed: every position and key, ready for the rules' questions.
    pub fn game(&self) -> Game {
        Game::replay(&self.start, &self.moves)
    }

    /// The position after the last move.
    pub fn end_position(&self) -> Position {
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            let _ = pos.make(mv);
        }
        pos
    }
}
