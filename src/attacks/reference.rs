//! The slow, obviously correct attack generator: walk each ray square by square until the board's
//! edge or the first occupied square. The tests check the fast tables against it.
//!
//! Its code is `build/attack_reference.rs`, which `build.rs` also compiles to generate the tables:
//! that file imports nothing; this module is an ordinary one of the crate (an import added here
//! cannot break `build.rs`).

#[path = "../../build/attack_reference.rs"]
mod walker;

pub use walker::*;
