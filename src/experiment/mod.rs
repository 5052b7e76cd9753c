//! Shannon's experiment at scale: populations of uniformly random games, played to their end under
//! a chosen set of rules, counted by how and when they ended.
//!
//! - [`rules`]: the rule sets (`claims`, `automatic`, and the switches to build others).
//! - [`play`]: one random game, fast.
//! - [`tally`]: integer counts by length and ending, which add exactly.
//! - [`spec`]: what an experiment is (seed, count, start, rules, shard);
//! - [`run`]: an experiment played on threads, with checkpoints;
//!   [`checkpoint`]: the saved progress, checked before a run continues from it.
//! - [`report`]: the figures people read (shares with Wilson intervals, length statistics) and
//!   the JSON that machines read and `shannon merge` adds up.

pub mod checkpoint;
pub mod play;
pub mod report;
pub mod rules;
pub mod run;
pub mod spec;
pub mod tally;

pub use play::{GameSummary, Player};
pub use report::Report;
pub use rules::{Insufficient, MoveRule, Repetition, RuleSet};
pub use run::{run, Experiment, ExperimentError, RunOptions, RunResult, Shard, Start};
pub use tally::{Category, Tally};
