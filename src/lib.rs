//! Shannon: a chess rules core good enough to be a reference, and a UCI engine on top of it that
//! plays a uniformly random legal move, as in Claude Shannon's 1950 experiment.
//!
//! The folders are the layers, each using only those above it: [`types`] (the vocabulary:
//! [`Square`], [`Bitboard`], [`Move`], ...), [`attacks`], [`position`] ([`Position`] with FEN,
//! Zobrist keys, Chess960 start positions), [`movegen`] (the fast bitboard generator and the 0x88
//! reference), [`game`] (a game and the rules that end it), then [`perft`], [`notation`] (UCI move
//! text, SAN, PGN, classic board formats) and [`codec`] (compact positions and games), and on top
//! the programs: [`uci`] (the engine) and [`arena`] (matches against other engines). The command
//! line is the binary's (`src/cli/`).

#![deny(missing_docs)]

pub mod types;

pub mod atomic_file;
pub mod run_lock;
pub mod shard;

pub mod attacks;
pub mod position;

pub mod movegen;

pub mod game;

pub mod codec;
pub mod experiment;
pub mod notation;
pub mod perft;

pub mod arena;
pub mod audit;
pub mod client;
pub mod stats;
pub mod uci;

pub use position::chess960;
pub use position::{CastlingRook, FenError, FenWarning, Position, PositionError, Setup, Undo};
pub use types::{castling, square};
pub use types::{
    Bitboard, CastlingMode, CastlingRights, CastlingSide, Color, File, Move, MoveKind, Piece,
    PieceKind, Rank, Square,
};

/// The FEN of the standard starting position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
