//! Shannon's experiment at scale: populations of uniformly random games, played to their end under
//! a chosen set of rules, counted by how and when they ended.
//!
//! - `rules`: the rule sets (`claims`, `automatic`, and the switches to build others).
//! - `play`: one random game, fast.
//! - `tally`: integer counts by length and ending, which add exactly.
//! - `spec`: what an experiment is (seed, count, start, rules, shard);
//! - `run`: an experiment played on threads, with checkpoints;
//!   `checkpoint`: the saved progress, checked before a run continues from it.
//! - `exact_share`: the share file of a split exact run (`crate::perft::exact`), written by
//!   each share and read back by the merge.
//! - `report`: the figures people read (shares with Wilson intervals, length statistics) and
//!   the JSON that machines read and `shannon merge` adds up.

mod checkpoint;
mod exact_share;
mod play;
mod report;
mod rules;
mod run;
mod spec;
mod tally;

pub use crate::jobs::shard::Shard;
pub use checkpoint::{Checkpoint, CheckpointError, Inconsistency, CHECKPOINT_FORMAT};
pub use exact_share::{
    read_shares, ComputedShare, ShareEnds, ShareError, ShareFile, SharePosition, SHARE_FORMAT,
    SHARE_VERSION, SHARE_VERSIONS_READ,
};
pub use play::{GameSummary, Player};
pub use report::{EndingShare, Report, Timing};
pub use rules::{Insufficient, MoveRule, Repetition, RuleSet, Switch};
pub use run::{run, ExperimentError, RunOptions, RunResult};
pub use spec::{describe, Experiment, Start, BLOCK};
pub use tally::{Category, LengthRow, LengthStats, Tally, CATEGORIES, PERCENTILES};
