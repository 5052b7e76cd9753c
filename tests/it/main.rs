//! The integration tests, one binary with one module per subject (`cargo test --profile
//! test-release` builds and links it once instead of once per file).
//!
//! Tests run in parallel threads of this one process: a test that writes files takes a scratch
//! folder of its own (named after the test and the process), and none changes the environment,
//! the current directory or signal handling of the process.

mod common;

mod arena;
mod arguments;
mod audit;
mod audit_xboard;
mod chess960;
mod cli_pack;
mod cli_perft;
mod closed_output;
mod docs;
mod draw_claims_python;
mod exact;
mod fastchess_e2e;
mod fen;
mod fuzz_seeds;
mod game_codecs;
mod generate;
mod generators_agree;
mod help_examples;
mod hygiene;
mod layers;
mod move_models;
mod notation;
mod outputs;
mod perft_suites;
mod position_formats;
mod random_games;
mod slurm;
mod tablebase;
mod uci;
mod uci_python;
mod xboard_engine;
mod xboard_gui;
