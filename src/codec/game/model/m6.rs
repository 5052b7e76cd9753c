//! Move model 6: a network of 15 hidden units over a fixed number of rows per piece and per move, read from tables made once per position, with the defences counted without the mover, the sole defenders and the exchange of captures, fitted on games 1-2500 of tests/data/pgn/lichess_2013-01_5000.pgn.
//!
//! Written by `shannon codec-fit --model m6`; never edited by hand (a new fit is a new model version).

/// The network ([`super::net::file`]): 192418 bytes, rows of 16 lanes.
pub(super) static NET: &[u8] = include_bytes!("m6.bin");

/// The opening book: m2's, which the same fitting games give byte for byte.
pub(super) static BOOK: &[u8] = include_bytes!("m2_book.bin");
