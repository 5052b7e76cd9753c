//! Compact encodings of chess data: [`position`] codecs turn one complete position into a short
//! string of bits and back.
//!
//! Every decoder validates what it reads (through FEN parsing) and rejects malformed input with
//! an error; none of them trusts its input.

pub mod position;
