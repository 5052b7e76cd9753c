//! Every position and game decoder on arbitrary input: no panic, and whatever decodes must encode
//! back to the same code (each code names one position or game, and no code names a wrong one).
//! The checks live in `fuzz/invariants.rs`, shared with `tests/it/fuzz_seeds.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| invariants::decoders(data));
