//! Compact encodings of chess data: whole games (start position + moves) in [`game`], the
//! multi-game file format `shannon pack` writes in [`container`], and the bit-level plumbing they
//! share ([`bits`], [`arith`]).
//!
//! Position codecs (one position, no history) are a separate family and do not live here.

pub mod arith;
pub mod bits;
pub mod container;
pub mod game;

pub use game::{GameCodec, GameCodecError};
