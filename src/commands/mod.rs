//! The work behind each command-line subcommand, writing its report to a given output so that
//! `main.rs` stays a thin dispatcher and tests can capture what a user would see.

pub mod arena;
pub mod bench;
pub mod bench_uci;
pub mod boards;
pub mod chess960;
pub mod codec;
pub mod codec_report;
pub mod pack;
pub mod perft;

/// Nodes (or anything) per second, guarding against a zero duration.
pub(crate) fn per_second(count: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        count as f64 / seconds
    } else {
        0.0
    }
}
