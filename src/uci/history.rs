//! The game the engine holds: the start position and every move the GUI sent, kept between
//! `position` commands so that a command which only adds moves costs only those moves.
//!
//! A GUI resends the whole game before every `go`. When the new command has the same start
//! position and its move text begins with the text of the moves already held, only the new moves
//! are checked and played; otherwise the game is rebuilt from the start. Either way every move is
//! checked before anything changes, so a bad command leaves the held game exactly as it was.
//!
//! The held game also carries a hash of its start position and of its moves (extended move by
//! move), which is what makes a seeded random choice a pure function of the game.

use super::command::{PositionCommand, StartSpec};
use super::random::StableHasher;
use crate::game::Game;
use crate::notation::uci::{format_move, parse_move, UciMoveError};
use crate::types::splitmix::mix;
use crate::{CastlingMode, FenError, FenWarning, Move, Position};
use std::fmt;

/// How a `position` command changed the held game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Update {
    /// The game was built anew from its start position.
    Rebuilt {
        /// Moves played.
        moves: usize,
    },
    /// The held game was extended.
    Extended {
        /// Moves added.
        added: usize,
    },
}

/// Why a `position` command was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionCommandError {
    /// The FEN is malformed or describes an impossible position.
    Fen(FenError),
    /// A move is malformed or illegal where it is played.
    Move {
        /// Its number in the command's move list, from 1.
        number: usize,
        /// The move text.
        text: String,
        /// The FEN of the position it was tried in.
        fen: String,
        /// What is wrong.
        error: UciMoveError,
    },
    /// The null move `0000`, which a real game cannot contain; Shannon refuses it rather than
    /// hold a game that no GUI can be replaying.
    NullMove {
        /// Its number in the command's move list, from 1.
        number: usize,
        /// The FEN of the position it was sent in.
        fen: String,
    },
}

impl fmt::Display for PositionCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionCommandError::Fen(e) => write!(f, "bad FEN: {e}"),
            PositionCommandError::NullMove { number, fen } => write!(
                f,
                "move {number} '0000' is a null move (a pass), which Shannon does not accept, in {fen}"
            ),
            PositionCommandError::Move {
                number,
                text,
                fen,
                error,
            } => match error {
                UciMoveError::Illegal { .. } => {
                    write!(f, "move {number} '{text}' is not legal in {fen}")
                }
                UciMoveError::Syntax { reason, .. } => {
                    write!(
                        f,
                        "move {number} '{text}' is not a move ({reason}) in {fen}"
                    )
                }
            },
        }
    }
}

impl std::error::Error for PositionCommandError {}

/// The held game with what is needed to extend it and to seed moves from it.
#[derive(Debug, Clone)]
pub struct History {
    game: Game,
    /// The move text of the command that built the game, trimmed.
    moves_text: String,
    start_hash: u64,
    moves_hash: u64,
}

impl Default for History {
    fn default() -> History {
        History::new(Position::startpos())
    }
}

impl History {
    /// A game from `start` with no moves.
    pub fn new(start: Position) -> History {
        let mut hasher = StableHasher::default();
        hasher.write(start.shredder_fen().as_bytes());
        History {
            game: Game::new(start),
            moves_text: String::new(),
            start_hash: hasher.finish(),
            moves_hash: 0,
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// A hash of the start position and every move, the same for the same game however it was
    /// sent (either castling notation, extended or rebuilt).
    pub fn game_hash(&self) -> u64 {
        mix(self.start_hash ^ mix(self.moves_hash))
    }

    /// Carry out a `position` command; on error the held game is untouched. `mode` says how
    /// positions are written in error messages. The FEN is read leniently: castling rights that
    /// the placement cannot have are dropped, and the warnings say which.
    pub fn apply(
        &mut self,
        command: &PositionCommand,
        mode: CastlingMode,
    ) -> Result<(Update, Vec<FenWarning>), PositionCommandError> {
        let (start, warnings) = match &command.start {
            StartSpec::StartPos => (Position::startpos(), Vec::new()),
            StartSpec::Fen(fen) => {
                Position::from_fen_lenient(fen).map_err(PositionCommandError::Fen)?
            }
        };
        self.apply_from(start, command, mode)
            .map(|update| (update, warnings))
    }

    fn apply_from(
        &mut self,
        start: Position,
        command: &PositionCommand,
        mode: CastlingMode,
    ) -> Result<Update, PositionCommandError> {
        if start == *self.game.start() {
            if let Some(new_text) = extension(&self.moves_text, &command.moves) {
                let first = self.game.moves().len() + 1;
                let moves = check_moves(self.game.position(), new_text, first, mode)?;
                for &mv in &moves {
                    self.play(mv);
                }
                self.moves_text.clear();
                self.moves_text.push_str(&command.moves);
                return Ok(Update::Extended { added: moves.len() });
            }
        }
        let moves = check_moves(&start, &command.moves, 1, mode)?;
        *self = History::new(start);
        for &mv in &moves {
            self.play(mv);
        }
        self.moves_text.push_str(&command.moves);
        Ok(Update::Rebuilt { moves: moves.len() })
    }

    fn play(&mut self, mv: Move) {
        self.game.play(mv);
        self.moves_hash = mix(self.moves_hash ^ u64::from(mv.to_bits()));
    }

    /// Play `mv`, legal in the current position, as a move sent or chosen one at a time (the
    /// xboard protocol's way). The move text is kept in UCI form, so that a later `position`
    /// command extends or rebuilds the game exactly as it would otherwise.
    pub fn push(&mut self, mv: Move) {
        if !self.moves_text.is_empty() {
            self.moves_text.push(' ');
        }
        self.moves_text
            .push_str(&format_move(mv, CastlingMode::Standard));
        self.play(mv);
    }

    /// Take back the last `plies` moves (xboard's `undo` and `remove`); false, changing nothing,
    /// when fewer were played.
    pub fn take_back(&mut self, plies: usize) -> bool {
        let played = self.game.moves().len();
        if plies > played {
            return false;
        }
        let start = self.game.start().clone();
        let moves = self.game.moves()[..played - plies].to_vec();
        *self = History::new(start);
        for mv in moves {
            self.push(mv);
        }
        true
    }
}

/// The part of `new` after `held` when `new` is `held` followed by more whole moves.
fn extension<'a>(held: &str, new: &'a str) -> Option<&'a str> {
    let rest = new.strip_prefix(held)?;
    let at_boundary = held.is_empty() || rest.is_empty() || rest.starts_with(char::is_whitespace);
    at_boundary.then_some(rest)
}

/// Every move of `text` parsed and played on a copy of `pos`, or the first that fails.
fn check_moves(
    pos: &Position,
    text: &str,
    first_number: usize,
    mode: CastlingMode,
) -> Result<Vec<Move>, PositionCommandError> {
    let mut scratch = pos.clone();
    let mut moves = Vec::new();
    for (i, word) in text.split_ascii_whitespace().enumerate() {
        if word == "0000" {
            return Err(PositionCommandError::NullMove {
                number: first_number + i,
                fen: scratch.fen_for(mode),
            });
        }
        match parse_move(&scratch, word) {
            Ok(mv) => {
                let _ = scratch.make(mv);
                moves.push(mv);
            }
            Err(error) => {
                return Err(PositionCommandError::Move {
                    number: first_number + i,
                    text: super::command::shorten(word),
                    fen: scratch.fen_for(mode),
                    error,
                })
            }
        }
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(moves: &str) -> PositionCommand {
        PositionCommand {
            start: StartSpec::StartPos,
            moves: moves.to_string(),
        }
    }

    #[test]
    fn extends_rebuilds_and_refuses() {
        let mut h = History::default();
        let x = CastlingMode::Standard;
        let update = |h: &mut History, moves: &str| h.apply(&command(moves), x).map(|(u, _)| u);
        assert_eq!(update(&mut h, "e2e4"), Ok(Update::Extended { added: 1 }));
        assert_eq!(
            update(&mut h, "e2e4 e7e5"),
            Ok(Update::Extended { added: 1 })
        );
        assert_eq!(
            update(&mut h, "e2e4 e7e5"),
            Ok(Update::Extended { added: 0 })
        );
        assert_eq!(update(&mut h, "d2d4"), Ok(Update::Rebuilt { moves: 1 }));
        let before = h.game().clone();
        let err = h.apply(&command("d2d4 d7d5 e1g1"), x).unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 3 'e1g1' is not legal in rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2"
        );
        assert_eq!(*h.game(), before);
    }

    #[test]
    fn same_game_same_hash_however_sent() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let sent = |moves: &str| PositionCommand {
            start: StartSpec::Fen(fen.to_string()),
            moves: moves.to_string(),
        };
        let mut a = History::default();
        a.apply(&sent("e1g1"), CastlingMode::Standard).unwrap();
        a.apply(&sent("e1g1 e8c8"), CastlingMode::Standard).unwrap();
        let mut b = History::default();
        b.apply(&sent("e1h1 e8a8"), CastlingMode::Standard).unwrap();
        assert_eq!(a.game_hash(), b.game_hash());
        assert_ne!(a.game_hash(), History::default().game_hash());
    }

    #[test]
    fn null_move_is_named_and_refused() {
        let mut h = History::default();
        let err = h
            .apply(&command("e2e4 0000"), CastlingMode::Standard)
            .unwrap_err();
        assert!(matches!(
            err,
            PositionCommandError::NullMove { number: 2, .. }
        ));
        assert!(err.to_string().contains("null move"), "{err}");
        assert!(h.game().moves().is_empty());
    }

    #[test]
    fn impossible_castling_rights_are_dropped_with_a_warning() {
        let mut h = History::default();
        let sent = PositionCommand {
            start: StartSpec::Fen("4k3/8/8/8/8/8/8/4K2R b KQ - 0 1".to_string()),
            moves: String::new(),
        };
        let (_, warnings) = h.apply(&sent, CastlingMode::Standard).unwrap();
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0]
            .to_string()
            .starts_with("castling right 'Q' dropped"));
        assert_eq!(h.game().position().fen(), "4k3/8/8/8/8/8/8/4K2R b K - 0 1");
    }

    #[test]
    fn prefix_must_end_at_a_move_boundary() {
        assert_eq!(extension("e2e4", "e2e4 e7e5"), Some(" e7e5"));
        assert_eq!(extension("", "e2e4"), Some("e2e4"));
        assert_eq!(extension("e7e8", "e7e8q"), None);
    }
}
