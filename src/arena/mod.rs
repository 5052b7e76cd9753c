//! The arena: other engines as child processes, driven over UCI, with our rules as the arbiter.
//!
//! - [`config`]: the `engines.toml` file.
//! - [`client`]: one engine process (reader and writer threads, timeouts).
//! - [`time_control`], [`openings`], [`match_game`]: what a match is made of; [`polyglot`]:
//!   Polyglot `.bin` opening books, one source of openings; [`adjudication`]: ending games early
//!   from the engines' scores.
//! - [`runner`]: the match itself; [`stats`]: Elo, LOS, game-pair counts and SPRT.
//! - [`perft_check`]: an engine's `go perft` against ours, down to the first disagreement.
//! - [`tournament`]: a match from settings to report (PGN, tally, SPRT stop, table).
//!
//! Nothing here knows how moves are generated; it uses the rules core's public API.

pub mod adjudication;
pub mod client;
pub mod config;
mod error;
pub mod match_game;
pub mod openings;
pub mod perft_check;
pub mod polyglot;
mod polyglot_random;
pub mod runner;
pub mod stats;
pub mod time_control;
pub mod tournament;

pub use error::ArenaError;
