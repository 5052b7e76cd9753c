//! Compact encodings of chess data: [`position`] codecs turn one complete position into a short
//! string of bits and back; [`game`] codecs do the same for a whole game (start position and
//! moves), and [`container`] is the multi-game file `shannon pack` writes. [`bits`] is the bit
//! writer and reader of every codec; [`arith`] is the arithmetic coder of the `arith` game codec.
//!
//! Every decoder validates what it reads (positions through [`crate::Position::from_setup`]) and
//! rejects malformed input with an error; none of them trusts its input.

pub mod arith;
pub mod bits;
pub mod container;
pub mod game;
pub mod position;
