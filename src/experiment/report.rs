//! The result of an experiment, for people (a table) and for machines (JSON). A report holds the
//! experiment and its tally; every other figure is computed from them, so reports of shards add
//! up to exactly the report of the whole run.

use super::run::{describe, Experiment, Shard};
use super::tally::{Category, LengthRow, LengthStats, Tally};
use crate::stats::wilson_interval;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::{self, Write};

/// One ending's share of the games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EndingShare {
    /// Machine name (`mate-white`, `fifty-move`, ...).
    pub key: String,
    /// Name for people.
    pub name: String,
    /// Games that ended so.
    pub count: u64,
    /// count / games.
    pub share: f64,
    /// The Wilson 95% interval of the share.
    pub ci95: (f64, f64),
}

/// Speed of the run (left out when comparing results: it is the machine's, not the experiment's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Seconds of play (for a merge: the sum over the shards).
    pub seconds: f64,
    /// Threads used (for a merge: the sum over the shards).
    pub threads: usize,
    /// Games per second.
    pub games_per_second: f64,
    /// Plies per second.
    pub plies_per_second: f64,
}

/// Everything a run found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The program that made it.
    pub program: String,
    /// The command that reproduces the run.
    pub command: String,
    /// What was played.
    pub experiment: Experiment,
    /// Games counted.
    pub games: u64,
    /// Plies played.
    pub plies: u64,
    /// The endings, in report order (every category, also those with no games).
    pub endings: Vec<EndingShare>,
    /// Game lengths (absent when no game was played).
    pub length: Option<LengthStats>,
    /// Games by length and ending: `[plies, [count per ending, in the order of endings]]`.
    pub histogram: Vec<LengthRow>,
    /// How fast it went.
    pub timing: Timing,
}

/// Why shard reports cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeError {
    /// Nothing to merge.
    Empty,
    /// Two reports are of different experiments (seed, games, start or rules differ).
    Different(String, String),
    /// A shard is missing or appears twice.
    Shards(String),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Empty => f.write_str("no reports to merge"),
            MergeError::Different(a, b) => {
                write!(f, "the reports are of different experiments: {a} / {b}")
            }
            MergeError::Shards(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for MergeError {}

impl Report {
    /// The report of `tally` for `experiment`.
    pub fn new(
        experiment: &Experiment,
        tally: &Tally,
        command: String,
        seconds: f64,
        threads: usize,
    ) -> Report {
        let games = tally.games();
        let plies = tally.plies();
        let counts = tally.counts();
        let endings = Category::ALL
            .iter()
            .map(|&category| {
                let count = counts[category.index()];
                EndingShare {
                    key: category.key().into(),
                    name: category.name().into(),
                    count,
                    share: if games > 0 {
                        count as f64 / games as f64
                    } else {
                        0.0
                    },
                    ci95: wilson_interval(count, games),
                }
            })
            .collect();
        let per_second = |n: u64| n as f64 / seconds.max(1e-9);
        Report {
            program: format!("shannon {}", env!("CARGO_PKG_VERSION")),
            command,
            experiment: experiment.clone(),
            games,
            plies,
            endings,
            length: tally.length_stats(),
            histogram: tally.rows(),
            timing: Timing {
                seconds,
                threads,
                games_per_second: per_second(games),
                plies_per_second: per_second(plies),
            },
        }
    }

    /// The tally this report was made from.
    pub fn tally(&self) -> Tally {
        Tally::from_rows(&self.histogram)
    }

    /// The report of the whole experiment from the reports of all its shards (each exactly once,
    /// in any order). It equals the report of the unsharded run in everything but timing; its
    /// command is the unsharded one.
    pub fn merge(
        reports: &[Report],
        command: impl Fn(&Experiment) -> String,
    ) -> Result<Report, MergeError> {
        let first = reports.first().ok_or(MergeError::Empty)?;
        let whole = Experiment {
            shard: Shard::WHOLE,
            ..first.experiment.clone()
        };
        let count = first.experiment.shard.count;
        let mut seen = vec![false; count as usize];
        let mut tally = Tally::new();
        let (mut seconds, mut threads) = (0.0, 0);
        for report in reports {
            let this = Experiment {
                shard: Shard::WHOLE,
                ..report.experiment.clone()
            };
            if this != whole {
                return Err(MergeError::Different(describe(&whole), describe(&this)));
            }
            let shard = report.experiment.shard;
            if shard.count != count || shard.index >= count {
                return Err(MergeError::Shards(format!(
                    "shard {}/{} among shards of {count}",
                    shard.index, shard.count
                )));
            }
            let slot = &mut seen[shard.index as usize];
            if *slot {
                return Err(MergeError::Shards(format!(
                    "shard {}/{count} appears twice",
                    shard.index
                )));
            }
            *slot = true;
            if report.games != report.experiment.shard_games() {
                return Err(MergeError::Shards(format!(
                    "shard {}/{count} holds {} of its {} games (an unfinished run?)",
                    shard.index,
                    report.games,
                    report.experiment.shard_games()
                )));
            }
            tally.merge(&report.tally());
            seconds += report.timing.seconds;
            threads += report.timing.threads;
        }
        let missing: Vec<String> = (0..count)
            .filter(|&i| !seen[i as usize])
            .map(|i| i.to_string())
            .collect();
        if !missing.is_empty() {
            return Err(MergeError::Shards(format!(
                "missing shard(s) {} of {count}",
                missing.join(", ")
            )));
        }
        Ok(Report::new(
            &whole,
            &tally,
            command(&whole),
            seconds,
            threads,
        ))
    }

    /// The table people read.
    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        let e = &self.experiment;
        writeln!(out, "{} random games, seed {}", self.games, e.seed)?;
        writeln!(out, "start: {}", e.start)?;
        let preset = e
            .rules
            .preset_name()
            .map_or(String::new(), |p| format!("{p}: "));
        writeln!(out, "rules: {preset}{}", e.rules)?;
        if e.shard.count > 1 {
            writeln!(
                out,
                "shard {} of {} (games i with i mod {} = {})",
                e.shard.index, e.shard.count, e.shard.count, e.shard.index
            )?;
        }
        writeln!(out)?;
        writeln!(
            out,
            "{:<24} {:>14} {:>9}   {:<21}",
            "ending", "games", "share", "95% interval (Wilson)"
        )?;
        for ending in &self.endings {
            if ending.count == 0 {
                continue;
            }
            writeln!(
                out,
                "{:<24} {:>14} {:>8.4}%   {:.4}% - {:.4}%",
                ending.name,
                ending.count,
                100.0 * ending.share,
                100.0 * ending.ci95.0,
                100.0 * ending.ci95.1
            )?;
        }
        let mates: u64 = self.endings[..2].iter().map(|s| s.count).sum();
        if self.games > 0 {
            writeln!(
                out,
                "{:<24} {:>14} {:>8.4}%",
                "checkmate (either side)",
                mates,
                100.0 * mates as f64 / self.games as f64
            )?;
        }
        writeln!(out)?;
        if let Some(length) = &self.length {
            writeln!(
                out,
                "length (plies): mean {:.2}, sd {:.2}, median {}, min {}, max {}",
                length.mean, length.sd, length.median, length.min, length.max
            )?;
            let percentiles: Vec<String> = length
                .percentiles
                .iter()
                .map(|(p, v)| format!("p{p}: {v}"))
                .collect();
            writeln!(out, "percentiles: {}", percentiles.join(", "))?;
        }
        writeln!(
            out,
            "{} plies in {:.1} s on {} thread(s): {:.0} games/s, {:.0} plies/s",
            self.plies,
            self.timing.seconds,
            self.timing.threads,
            self.timing.games_per_second,
            self.timing.plies_per_second
        )?;
        writeln!(out, "reproduce: {}", self.command)
    }
}
