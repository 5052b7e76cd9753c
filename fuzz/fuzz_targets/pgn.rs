//! The PGN reader on arbitrary text. Every game it accepts replays legally (the reader checks each
//! move) and survives a write + read round trip with the same start, moves and result.
//! The checks live in `fuzz/invariants.rs`, shared with `tests/it/fuzz_seeds.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| invariants::pgn(data));
