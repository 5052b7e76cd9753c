//! `shannon merge` of a sharded match: the state files of every shard (`--shard I/N`, each run
//! to its end) become the report of the whole schedule, equal to one process's, and their PGN
//! files one PGN with every game once.

use super::error::ArenaError;
use super::error::StateError;
use super::report::{MatchReport, MatchStart};
use super::standings::OtherTournament;
use super::state::MatchState;
use crate::jobs::shard::Shard;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why shards do not merge.
#[derive(Debug)]
pub enum MergeError {
    /// No state given.
    Nothing,
    /// A shard of another run than the first file's.
    OtherRun {
        /// The first file.
        first: PathBuf,
    },
    /// A shard of a run split another way.
    OtherCount {
        /// The shard.
        shard: Shard,
        /// The first file's count.
        count: u64,
    },
    /// A shard given twice.
    Twice {
        /// The shard.
        shard: Shard,
        /// The other file holding it.
        other: PathBuf,
    },
    /// A shard with games left to play.
    Unfinished {
        /// The shard.
        shard: Shard,
        /// Games it played.
        done: usize,
        /// Games it has.
        games: usize,
        /// Its state file.
        state: PathBuf,
    },
    /// Shards not given.
    Missing {
        /// Them, as `I/N`.
        shards: Vec<String>,
        /// The first file.
        first: PathBuf,
    },
    /// A shard that wrote no PGN, when the merged PGN is asked for.
    NoPgn,
    /// A shard's PGN cannot be read.
    ReadPgn(PathBuf, std::io::Error),
    /// The standings of two shards do not add up.
    Standings(OtherTournament),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Nothing => f.write_str("nothing to merge"),
            MergeError::OtherRun { first } => write!(
                f,
                "not a shard of the same run as {}: the engines, games, openings, time control \
                 or seed differ",
                first.display()
            ),
            MergeError::OtherCount { shard, count } => {
                write!(f, "shard {shard} among shards of {count}")
            }
            MergeError::Twice { shard, other } => {
                write!(f, "shard {shard} is also {}", other.display())
            }
            MergeError::Unfinished {
                shard,
                done,
                games,
                state,
            } => write!(
                f,
                "shard {shard} has played {done} of its {games} games: finish it first (shannon \
                 match --resume {})",
                state.display()
            ),
            MergeError::Missing { shards, first } => write!(
                f,
                "missing shard(s) {} of the run in {}",
                shards.join(", "),
                first.display()
            ),
            MergeError::NoPgn => f.write_str("this shard wrote no PGN"),
            MergeError::ReadPgn(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            MergeError::Standings(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for MergeError {}

/// A merge that failed: the file it is about (if one), and why.
#[derive(Debug)]
pub struct MergeFailure {
    /// The state file the failure concerns.
    pub path: Option<PathBuf>,
    /// Why.
    pub error: MergeFailureKind,
}

/// Why a merge failed.
#[derive(Debug)]
pub enum MergeFailureKind {
    /// A state cannot be read.
    State(StateError),
    /// The shards do not merge.
    Merge(MergeError),
    /// The merged PGN cannot be written.
    Write(std::io::Error),
    /// The settings of the first shard make no schedule.
    Arena(Box<ArenaError>),
}

impl fmt::Display for MergeFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.as_deref().map(Path::display);
        match (&self.error, path) {
            (MergeFailureKind::State(e), Some(path)) => write!(f, "state file {path}: {e}"),
            (MergeFailureKind::Merge(e), Some(path)) => write!(f, "state file {path}: {e}"),
            (MergeFailureKind::Write(e), Some(path)) => {
                write!(f, "cannot write the PGN file {path}: {e}")
            }
            (MergeFailureKind::State(e), None) => write!(f, "{e}"),
            (MergeFailureKind::Merge(e), None) => write!(f, "{e}"),
            (MergeFailureKind::Write(e), None) => write!(f, "{e}"),
            (MergeFailureKind::Arena(e), _) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MergeFailure {}

fn failed(path: &Path, error: MergeFailureKind) -> MergeFailure {
    MergeFailure {
        path: Some(path.to_path_buf()),
        error,
    }
}

/// Merge the states at `paths` (every shard of one run, each once, each complete), writing the
/// games of their PGN files, shard by shard, to `pgn` when given; the report of the whole run.
pub fn merge_states(paths: &[PathBuf], pgn: Option<&Path>) -> Result<MatchReport, MergeFailure> {
    let mut states = Vec::new();
    for path in paths {
        let state = MatchState::load(path).map_err(|e| failed(path, MergeFailureKind::State(e)))?;
        states.push((path.clone(), state));
    }
    check_shards(&states)?;
    states.sort_by_key(|(_, state)| state.settings.shard.index);
    let mut standings = states[0].1.standings.clone();
    for (path, state) in &states[1..] {
        standings
            .merge(&state.standings)
            .map_err(|why| failed(path, MergeFailureKind::Merge(MergeError::Standings(why))))?;
    }
    if let Some(out_path) = pgn {
        write_pgn(&states, out_path)?;
    }
    let first = &states[0].1;
    let start = start_of(first).map_err(|e| MergeFailure {
        path: None,
        error: MergeFailureKind::Arena(Box::new(e)),
    })?;
    Ok(MatchReport {
        start,
        seconds: states.iter().map(|(_, s)| s.seconds).sum(),
        standings,
        sprt: None,
        interrupted: None,
        stopped: None,
        pgn_crc32: None,
        knockout: None,
        record_error: None,
        pgn: pgn.map(Path::to_path_buf),
        epd: None,
        state: None,
        latency: None,
    })
}

/// What the whole run set out to play, from a shard's settings.
fn start_of(state: &MatchState) -> Result<MatchStart, ArenaError> {
    let settings = &state.settings;
    let schedule = settings.schedule()?;
    Ok(MatchStart::of(settings, &schedule))
}

/// Every shard of one run, each once, each complete.
fn check_shards(states: &[(PathBuf, MatchState)]) -> Result<(), MergeFailure> {
    let Some((first_path, first)) = states.first() else {
        return Err(MergeFailure {
            path: None,
            error: MergeFailureKind::Merge(MergeError::Nothing),
        });
    };
    let count = first.settings.shard.count;
    let mut seen: Vec<Option<&PathBuf>> = vec![None; count as usize];
    for (path, state) in states {
        let bad = |error| failed(path, MergeFailureKind::Merge(error));
        let shard = state.settings.shard;
        if !state.settings.same_run(&first.settings) {
            return Err(bad(MergeError::OtherRun {
                first: first_path.clone(),
            }));
        }
        if shard.count != count {
            return Err(bad(MergeError::OtherCount { shard, count }));
        }
        if let Some(other) = seen[shard.index as usize].replace(path) {
            return Err(bad(MergeError::Twice {
                shard,
                other: other.clone(),
            }));
        }
        let schedule = state.settings.schedule().map_err(|e| MergeFailure {
            path: Some(path.clone()),
            error: MergeFailureKind::Arena(Box::new(e)),
        })?;
        let games = schedule.games_of(shard).len();
        if state.done.len() != games {
            return Err(bad(MergeError::Unfinished {
                shard,
                done: state.done.len(),
                games,
                state: path.clone(),
            }));
        }
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, path)| path.is_none())
        .map(|(i, _)| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(MergeFailure {
            path: None,
            error: MergeFailureKind::Merge(MergeError::Missing {
                shards: missing,
                first: first_path.clone(),
            }),
        });
    }
    Ok(())
}

/// The finished games of every shard's PGN, in schedule order, into `out_path`.
fn write_pgn(states: &[(PathBuf, MatchState)], out_path: &Path) -> Result<(), MergeFailure> {
    let mut games: Vec<(u32, String)> = Vec::new();
    for (path, state) in states {
        let Some(appendix) = &state.pgn else {
            return Err(failed(path, MergeFailureKind::Merge(MergeError::NoPgn)));
        };
        // A relative path is relative to the directory the shard ran in.
        let file = state.directory.join(&appendix.path);
        let text = std::fs::read(&file)
            .map_err(|e| failed(path, MergeFailureKind::Merge(MergeError::ReadPgn(file, e))))?;
        // The finished games: the committed part from where the shard's own games start (a
        // shard appending to a PGN follows earlier games) and the last game (written, or not
        // yet if the shard died between its state and its PGN); never an unfinished `*` game.
        let committed = (appendix.committed as usize).min(text.len());
        let start = (appendix.start as usize).min(committed);
        let mut finished = String::from_utf8_lossy(&text[start..committed]).into_owned();
        finished.push_str(&appendix.pending);
        games.extend(split_games(&finished));
    }
    // In schedule order, as one process playing one game at a time would write them.
    games.sort_by_key(|&(number, _)| number);
    let write_failed = |e| failed(out_path, MergeFailureKind::Write(e));
    let mut out = std::fs::File::create(out_path).map_err(write_failed)?;
    for (_, text) in &games {
        out.write_all(text.as_bytes()).map_err(write_failed)?;
    }
    out.sync_all().map_err(write_failed)
}

/// The games of a PGN text the runner wrote, each with its number in the schedule (its `Round`
/// tag; 0 when it has none) and its text (tags, moves and the blank line after).
fn split_games(text: &str) -> Vec<(u32, String)> {
    let mut games: Vec<(u32, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Event ") || games.is_empty() {
            games.push((0, String::new()));
        }
        let (number, game) = games.last_mut().expect("pushed above");
        if let Some(round) = line.strip_prefix("[Round \"") {
            *number = round
                .trim_end()
                .trim_end_matches("\"]")
                .parse()
                .unwrap_or(0);
        }
        game.push_str(line);
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_split_with_their_numbers() {
        let text = "[Event \"m\"]\n[Round \"7\"]\n\n1. e4 *\n\n[Event \"m\"]\n[Round \"2\"]\n\n1. d4 *\n\n";
        let games = split_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].0, games[1].0), (7, 2));
        assert_eq!(games[0].1.len() + games[1].1.len(), text.len());
        assert!(games[1].1.starts_with("[Event") && games[1].1.ends_with("1. d4 *\n\n"));
    }
}
