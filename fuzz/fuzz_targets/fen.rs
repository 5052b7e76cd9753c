//! FEN / X-FEN / Shredder-FEN parser. Any position that parses must round-trip through both FEN
//! notations and every position codec, and the bitboard and 0x88 generators must agree on it.
//! The checks live in `fuzz/invariants.rs`, shared with `tests/it/fuzz_seeds.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| invariants::fen(data));
