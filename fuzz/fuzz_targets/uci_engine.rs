//! The whole UCI state machine fed arbitrary lines. Afterwards `isready` must get `readyok` and
//! the game the engine holds (its `d` FEN) must be a legal position. Lines that would make a run
//! slow or touch the file system (`go perft`, `Debug Log File`) and `quit` are left out.
//! The checks live in `fuzz/invariants.rs`, shared with `tests/it/fuzz_seeds.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| invariants::uci_engine(data));
