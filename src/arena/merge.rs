//! `shannon merge` of a sharded match: the state files of every shard (`--shard I/N`, each run
//! to its end) become the standings of the whole schedule, equal to one process's, and their
//! PGN files one PGN with every game once.

use super::schedule::Schedule;
use super::standings::Standings;
use super::state::MatchState;
use super::ArenaError;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The merged result.
#[derive(Debug, Clone)]
pub struct MergedMatch {
    /// The standings of the whole schedule.
    pub standings: Standings,
    /// Seconds of play, summed over the shards.
    pub seconds: f64,
    /// How many shards.
    pub shards: u64,
}

/// What makes two states shards of one run: their requests without the per-shard parts.
fn run_of(state: &MatchState) -> String {
    let mut request = state.request.clone();
    request.shard = None;
    request.state = None;
    request.pgn = None;
    request.epd = None;
    request.concurrency = None;
    serde_json::to_string(&request).expect("a request serialises")
}

/// Merge the states at `paths` (every shard of one run, each once, each complete), writing the
/// games of their PGN files, shard by shard, to `pgn` when given.
pub fn merge_states(paths: &[PathBuf], pgn: Option<&Path>) -> Result<MergedMatch, ArenaError> {
    let mut states = Vec::new();
    for path in paths {
        states.push((path, MatchState::load(path)?));
    }
    let Some((first_path, first)) = states.first() else {
        return Err(ArenaError::Setting("nothing to merge".into()));
    };
    let count = first.shard.count;
    let run = run_of(first);
    let mut seen = vec![None; count as usize];
    for (path, state) in &states {
        let bad = |why: String| ArenaError::State(path.to_path_buf(), why);
        if run_of(state) != run {
            return Err(bad(format!(
                "not a shard of the same run as {}: the engines, games, openings, time control \
                 or seed differ",
                first_path.display()
            )));
        }
        if state.shard.count != count {
            return Err(bad(format!(
                "shard {} among shards of {count}",
                state.shard
            )));
        }
        if let Some(other) = seen[state.shard.index as usize].replace(path) {
            return Err(bad(format!(
                "shard {} is also {}",
                state.shard,
                other.display()
            )));
        }
        let request = &state.request;
        let schedule = Schedule::new(
            request.tournament.unwrap_or_default(),
            state.standings.names.len(),
            request.rounds.unwrap_or(1),
            request.games.unwrap_or(2),
        )?;
        let games = schedule.games_of(state.shard).len();
        if state.done.len() != games {
            return Err(bad(format!(
                "shard {} has played {} of its {games} games: finish it first (shannon match \
                 --resume {})",
                state.shard,
                state.done.len(),
                path.display()
            )));
        }
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, path)| path.is_none())
        .map(|(i, _)| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(ArenaError::Setting(format!(
            "missing shard(s) {} of the run in {}",
            missing.join(", "),
            first_path.display()
        )));
    }
    states.sort_by_key(|(_, state)| state.shard.index);
    let mut standings = states[0].1.standings.clone();
    for (path, state) in &states[1..] {
        standings
            .merge(&state.standings)
            .map_err(|why| ArenaError::State(path.to_path_buf(), why))?;
    }
    if let Some(out_path) = pgn {
        let failed = |e: std::io::Error| ArenaError::Pgn(out_path.display().to_string(), e);
        let mut games: Vec<(u32, String)> = Vec::new();
        for (path, state) in &states {
            let Some(appendix) = &state.pgn else {
                return Err(ArenaError::State(
                    path.to_path_buf(),
                    "this shard wrote no PGN".into(),
                ));
            };
            // A relative path is relative to the directory the shard ran in.
            let file = state.directory.join(&appendix.path);
            let text = std::fs::read(&file).map_err(|e| {
                ArenaError::State(
                    path.to_path_buf(),
                    format!("cannot read {}: {e}", file.display()),
                )
            })?;
            // The finished games: the committed part and the last game (written, or not yet if
            // the shard died between its state and its PGN); never an unfinished `*` game.
            let committed = (appendix.committed as usize).min(text.len());
            let mut finished = String::from_utf8_lossy(&text[..committed]).into_owned();
            finished.push_str(&appendix.pending);
            games.extend(split_games(&finished));
        }
        // In schedule order, as one process playing one game at a time would write them.
        games.sort_by_key(|&(number, _)| number);
        let mut out = std::fs::File::create(out_path).map_err(failed)?;
        for (_, text) in &games {
            out.write_all(text.as_bytes()).map_err(failed)?;
        }
        out.sync_all().map_err(failed)?;
    }
    Ok(MergedMatch {
        standings,
        seconds: states.iter().map(|(_, s)| s.seconds).sum(),
        shards: count,
    })
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
