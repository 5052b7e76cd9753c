//! The vocabulary every layer speaks: squares, files and ranks, colours, pieces, bitboards,
//! 16-bit moves, castling rights (by rook file), and the SplitMix64 stream the layers above seed
//! from. Nothing here knows a position.

mod bitboard;
mod castling;
mod chess_move;
mod color;
mod piece;
pub mod splitmix;
mod square;

pub use bitboard::Bitboard;
pub use castling::{CastlingMode, CastlingRights, CastlingSide};
pub use chess_move::{Move, MoveKind};
pub use color::Color;
pub use piece::{Piece, PieceKind};
pub use square::{File, ParseSquareError, Rank, Square};
