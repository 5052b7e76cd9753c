//! engines.toml loading on arbitrary text: a configuration or an error, never a panic.
//! The checks live in `fuzz/invariants.rs`, shared with `tests/it/fuzz_seeds.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| invariants::engines_toml(data));
