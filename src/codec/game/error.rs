//! What can go wrong encoding or decoding a game.

use crate::FenError;
use std::fmt;

/// Why a game cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEncodeError {
    /// A move is not legal where it is played.
    IllegalMove {
        /// The ply of the move, from 1.
        ply: usize,
    },
    /// The start position's FEN is longer than the 255 bytes the layout allows.
    FenTooLong(usize),
    /// More moves than the layout's move count allows.
    TooManyMoves(usize),
}

impl fmt::Display for GameEncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameEncodeError::IllegalMove { ply } => write!(f, "ply {ply}: the move is not legal"),
            GameEncodeError::FenTooLong(len) => {
                write!(f, "the start FEN is {len} bytes long; at most 255 fit")
            }
            GameEncodeError::TooManyMoves(count) => {
                write!(f, "{count} moves are more than a game encoding holds")
            }
        }
    }
}

impl std::error::Error for GameEncodeError {}

/// Why some bytes are not a valid game encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameCodecError {
    /// The input ends before the game does.
    Truncated,
    /// Bits are left over after the last move beyond the zero padding of the last byte.
    TrailingBits,
    /// A Chess960 start position number is not below 960.
    BadChess960Number(u32),
    /// The start FEN's length is zero.
    EmptyFen,
    /// The start FEN is not UTF-8 text.
    FenNotText,
    /// The start FEN is malformed or an impossible position.
    BadFen(FenError),
    /// The start position is valid but not in the form the encoder writes (a FEN not in
    /// Shredder-FEN form, or a start that has a shorter form); every game has one encoding.
    NonCanonicalStart(String),
    /// The move count's code is wider than 15 bits (more than 32,766 plies).
    MoveCountTooLarge,
    /// The game has ended (no legal moves) but more moves follow.
    NoLegalMoves {
        /// The ply of the missing move, from 1.
        ply: usize,
    },
    /// A move index is not below the number of legal moves.
    IndexOutOfRange {
        /// The ply, from 1.
        ply: usize,
        /// The index read.
        index: u64,
        /// The number of legal moves.
        legal: usize,
    },
    /// A from/to pair names no legal move.
    NoSuchMove {
        /// The ply, from 1.
        ply: usize,
        /// The from and to squares as read (0-63 each).
        squares: (u8, u8),
    },
    /// The arithmetic-coded bits are not what the encoder writes for the game they decode to.
    NotCanonical,
}

impl fmt::Display for GameCodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameCodecError::Truncated => f.write_str("the input ends before the game does"),
            GameCodecError::TrailingBits => {
                f.write_str("bits left over after the last move (beyond the byte padding)")
            }
            GameCodecError::BadChess960Number(n) => {
                write!(f, "Chess960 start position {n} is not in 0-959")
            }
            GameCodecError::EmptyFen => f.write_str("the start FEN is empty"),
            GameCodecError::FenNotText => f.write_str("the start FEN is not UTF-8 text"),
            GameCodecError::BadFen(e) => write!(f, "bad start position: {e}"),
            GameCodecError::NonCanonicalStart(fen) => {
                write!(
                    f,
                    "start position '{fen}' is not written in its canonical form"
                )
            }
            GameCodecError::MoveCountTooLarge => f.write_str("the move count is too large"),
            GameCodecError::NoLegalMoves { ply } => {
                write!(
                    f,
                    "ply {ply}: the game is over (no legal moves) but moves follow"
                )
            }
            GameCodecError::IndexOutOfRange { ply, index, legal } => write!(
                f,
                "ply {ply}: move index {index} is out of range ({legal} legal moves)"
            ),
            GameCodecError::NoSuchMove { ply, squares } => write!(
                f,
                "ply {ply}: no legal move from square {} to square {}",
                squares.0, squares.1
            ),
            GameCodecError::NotCanonical => {
                f.write_str("the arithmetic-coded bits are not the encoder's output")
            }
        }
    }
}

impl std::error::Error for GameCodecError {}

impl From<crate::codec::bits::EndOfInput> for GameCodecError {
    fn from(_: crate::codec::bits::EndOfInput) -> GameCodecError {
        GameCodecError::Truncated
    }
}
