//! Shannon: a chess rules core good enough to be a reference, and a UCI engine on top of it that
//! plays a uniformly random legal move, as in Claude Shannon's 1950 experiment.
//!
//! The layers, each using only those above it: vocabulary types ([`Square`], [`Bitboard`],
//! [`Move`], ...), [`attacks`], [`Position`] with FEN, [`movegen`] (the fast bitboard generator and
//! the 0x88 reference), [`uci_move`] text, [`perft`], SAN, PGN and the
//! classic board formats in [`notation`], compact position codes in [`codec`].

#![deny(missing_docs)]

pub mod arena;
pub mod attacks;
mod bitboard;
pub mod castling;
pub mod chess960;
mod chess_move;
pub mod codec;
mod color;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod perft_suite;
mod piece;
mod position;
mod splitmix;
pub mod square;
pub mod uci;
pub mod uci_move;
mod zobrist;

pub use bitboard::Bitboard;
pub use castling::{CastlingRights, CastlingSide};
pub use chess_move::{Move, MoveKind};
pub use color::Color;
pub use piece::{Piece, PieceKind};
pub use position::{FenCastling, FenError, FenWarning, Position, Undo};
pub use square::{File, Rank, Square};

/// The FEN of the standard starting position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
