//! Shannon: a chess rules core good enough to be a reference, and a UCI engine on top of it that
//! plays a uniformly random legal move, as in Claude Shannon's 1950 experiment.
//!
//! The folders are the layers, each using only those above it: `types` (the vocabulary:
//! [`Square`], [`Bitboard`], [`Move`], ...), [`attacks`], `position` ([`Position`] with FEN,
//! Zobrist keys, Chess960 start positions), [`movegen`] (the fast bitboard generator and the 0x88
//! reference), [`game`] (a game and the rules that end it), then [`perft`], [`notation`] (UCI move
//! text, SAN, PGN, classic board formats), [`codec`] (compact positions and games) and
//! [`tablebase`] (Syzygy WDL tables, probed exactly): the rules
//! core, which `cargo build --no-default-features` builds alone, with no file format or protocol
//! crate. On top, behind features: the UCI engine (`uci`, feature `engine`) and the programs on the
//! rules (feature `tools`): `jobs` (files written whole, output locks, shares of a job array),
//! `stats`, `client` (other engines), `arena` (matches and tournaments), `audit`, `experiment`
//! (random games at scale). The command line is the binary's (`src/cli/`, feature `cli`).

#![deny(missing_docs)]

// The rules core: no file format or protocol crate below this line's modules.
mod types;

pub mod attacks;
mod position;

pub mod movegen;

pub mod game;

pub mod codec;
pub mod notation;
pub mod perft;
pub mod tablebase;

// The UCI engine.
#[cfg(feature = "engine")]
pub mod uci;

// The programs on the rules: statistics, saved files, other engines, matches, audits, studies.
#[cfg(feature = "tools")]
pub mod jobs;
#[cfg(feature = "tools")]
pub mod stats;

#[cfg(feature = "tools")]
pub mod client;

#[cfg(feature = "tools")]
pub mod arena;
#[cfg(feature = "tools")]
pub mod audit;
#[cfg(feature = "tools")]
pub mod experiment;

pub use position::{chess960, epd};
pub use position::{
    CastlingProblem, CastlingRook, EnPassantProblem, FenError, FenWarning, Position, PositionError,
    Setup, Undo,
};
pub use types::{
    Bitboard, CastlingMode, CastlingRights, CastlingSide, Color, File, Move, MoveKind,
    ParseSquareError, Piece, PieceKind, Rank, Square,
};

/// The FEN of the standard starting position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
