//! The arena: other engines as child processes, driven over UCI, with our rules as the arbiter.
//!
//! - [`time_control`], [`openings`], [`match_game`]: what a match is made of (Polyglot books,
//!   one source of openings, are [`crate::notation::polyglot`]); [`adjudication`]: ending games
//!   early from the engines' scores.
//! - [`runner`]: the match itself (its statistics are [`crate::stats`]).
//! - [`perft_check`]: an engine's `go perft` against ours, down to the first disagreement;
//!   [`audit`]: every protocol check and the perft suites against one engine.
//! - [`schedule`]: who plays whom (round robin, gauntlet), colours and openings, shards;
//!   [`standings`]: the results so far; [`state`]: the saved state that `--resume` continues;
//!   [`game_output`], [`tables`]: a game's PGN and EPD text, the result tables; [`merge`]: the
//!   states of a sharded run's shards added up.
//! - [`tournament`]: a match or tournament from settings to report (PGN, state, SPRT stop,
//!   tables).
//!
//! Nothing here knows how moves are generated; it uses the rules core's public API.

pub mod adjudication;
pub mod audit;
mod error;
pub mod game_output;
pub mod match_game;
pub mod merge;
pub mod openings;
pub mod perft_check;
mod request;
pub mod runner;
pub mod schedule;
pub mod standings;
pub mod state;
pub mod tables;
pub mod time_control;
pub mod tournament;

pub use error::ArenaError;
