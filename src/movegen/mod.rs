//! Legal move generation, twice: [`bitboard`] is the fast generator the engine plays and counts
//! with; [`mailbox`] is Shannon-style piece routines on the 0x88 board, kept simple so it can serve
//! as the reference the fast one is checked against.

pub mod bitboard;
pub mod mailbox;

use crate::{Move, Position};
use std::fmt;
use std::str::FromStr;

/// The most legal moves any position has is 218; this leaves room.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::default(); MAX_MOVES],
            len: 0,
        }
    }

    /// Append a move.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no moves.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Remove every move.
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Which move generator to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Generator {
    /// The fast legal generator on bitboards (the default).
    #[default]
    Bitboard,
    /// The 0x88 mailbox reference: pseudo-legal piece routines plus a king-safety test.
    Mailbox0x88,
}

impl Generator {
    /// Both generators, the default first.
    pub const ALL: [Generator; 2] = [Generator::Bitboard, Generator::Mailbox0x88];

    /// What the generator is, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Generator::Bitboard => "The fast legal generator on bitboards",
            Generator::Mailbox0x88 => "The 0x88 mailbox reference generator",
        }
    }

    /// The legal moves of `pos`.
    pub fn legal_moves(self, pos: &Position, list: &mut MoveList) {
        match self {
            Generator::Bitboard => bitboard::legal_moves(pos, list),
            Generator::Mailbox0x88 => mailbox::legal_moves(pos, list),
        }
    }

    /// The number of legal moves of `pos`, without listing them where the generator can.
    pub fn count_legal(self, pos: &Position) -> u64 {
        match self {
            Generator::Bitboard => bitboard::count_legal(pos),
            Generator::Mailbox0x88 => {
                let mut list = MoveList::new();
                mailbox::legal_moves(pos, &mut list);
                list.len() as u64
            }
        }
    }

    /// The generator's name as the command line and UCI option spell it.
    pub fn name(self) -> &'static str {
        match self {
            Generator::Bitboard => "bitboard",
            Generator::Mailbox0x88 => "0x88",
        }
    }
}

/// Text that names no generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseGeneratorError(pub String);

impl fmt::Display for ParseGeneratorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a move generator; use 'bitboard' or '0x88'",
            self.0
        )
    }
}

impl std::error::Error for ParseGeneratorError {}

impl FromStr for Generator {
    type Err = ParseGeneratorError;
    fn from_str(s: &str) -> Result<Generator, ParseGeneratorError> {
        match s.to_ascii_lowercase().as_str() {
            "bitboard" | "bitboards" => Ok(Generator::Bitboard),
            "0x88" | "mailbox" => Ok(Generator::Mailbox0x88),
            _ => Err(ParseGeneratorError(s.to_string())),
        }
    }
}

impl Position {
    /// The legal moves, from the bitboard generator.
    ///
    /// ```
    /// use shannon::Position;
    ///
    /// let start = Position::startpos();
    /// assert_eq!(start.legal_moves().len(), 20);
    /// // Fool's mate: White is checkmated and has no legal move.
    /// let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    /// let mated = Position::from_fen(mate).unwrap();
    /// assert!(mated.in_check() && mated.legal_moves().is_empty());
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        bitboard::legal_moves(self, &mut list);
        list
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_legal_moves(&self) -> u64 {
        bitboard::count_legal(self)
    }
}
