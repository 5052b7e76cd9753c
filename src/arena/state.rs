//! A match's saved state: what was asked (so `--resume` rebuilds the same schedule, openings and
//! seeds), which games of the schedule are done, their standings, the SPRT's history, and how
//! far the PGN and EPD files hold the done games.
//!
//! After every finished game the runner writes the state (to a temporary file, synced, renamed
//! over the old one) with the game's PGN text as *pending*, then appends that text to the PGN and
//! syncs it. Whenever a kill or a power cut strikes, the state on disk says how long the PGN was
//! before the last game and what that game's text is: a resume cuts the PGN back to that length
//! (dropping a half-written game, or games ended unfinished by an interrupt) and writes the text
//! again. So every game of the schedule ends up in the PGN exactly once, and no finished game is
//! played twice.

use super::standings::Standings;
use super::tournament::MatchRequest;
use super::ArenaError;
use crate::types::Shard;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first line of every state file's JSON, to tell a state from other JSON.
pub const STATE_FORMAT: &str = "shannon match state 1";

/// Which of a run's games (positions in its list of games to play) are done: all below
/// `prefix`, and those in `beyond`. Games finish out of order when several run at once, so a few
/// wait in `beyond` until the gap before them closes; the set stays small however long the run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoneGames {
    /// Positions `0..prefix` are done.
    pub prefix: usize,
    /// Done positions above the prefix.
    pub beyond: BTreeSet<usize>,
}

impl DoneGames {
    /// Mark position `position` done.
    pub fn insert(&mut self, position: usize) {
        if position < self.prefix {
            return;
        }
        self.beyond.insert(position);
        while self.beyond.remove(&self.prefix) {
            self.prefix += 1;
        }
    }

    /// True when position `position` is done.
    pub fn contains(&self, position: usize) -> bool {
        position < self.prefix || self.beyond.contains(&position)
    }

    /// Positions done.
    pub fn len(&self) -> usize {
        self.prefix + self.beyond.len()
    }

    /// True when no game is done.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An output file that only grows, game by game: its length with every committed game, and the
/// text of a game that was recorded as done but may not be in the file yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Appendix {
    /// The file.
    pub path: PathBuf,
    /// Its length before `pending`.
    pub committed: u64,
    /// The last done game's text, written after the state that records it.
    pub pending: String,
}

impl Appendix {
    /// A new, empty file at `path` (an existing one is replaced).
    pub fn create(path: &Path) -> std::io::Result<(Appendix, File)> {
        let file = File::create(path)?;
        let appendix = Appendix {
            path: path.to_path_buf(),
            committed: 0,
            pending: String::new(),
        };
        Ok((appendix, file))
    }

    /// Reopen the file of a saved state: cut it back to the committed length and write the
    /// pending text again (see the module's documentation).
    pub fn reopen(&mut self) -> Result<File, String> {
        let path = self.path.display().to_string();
        let mut file = OpenOptions::new()
            .write(true)
            .open(&self.path)
            .map_err(|e| format!("cannot reopen {path}: {e}"))?;
        let length = file
            .metadata()
            .map_err(|e| format!("cannot read {path}: {e}"))?
            .len();
        if length < self.committed {
            return Err(format!(
                "{path} holds {length} bytes, but the state says its finished games take {}: \
                 was it changed or replaced?",
                self.committed
            ));
        }
        file.set_len(self.committed)
            .and_then(|()| file.sync_all())
            .map_err(|e| format!("cannot cut {path} back to its finished games: {e}"))?;
        file = OpenOptions::new()
            .append(true)
            .open(&self.path)
            .map_err(|e| format!("cannot reopen {path}: {e}"))?;
        self.commit(&mut file)
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        Ok(file)
    }

    /// Append the pending text to `file` and sync it: it is committed.
    pub fn commit(&mut self, file: &mut File) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            file.write_all(self.pending.as_bytes())?;
            file.flush()?;
            file.sync_data()?;
            self.committed += self.pending.len() as u64;
            self.pending.clear();
        }
        Ok(())
    }
}

/// Everything a resumed run or a merge needs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MatchState {
    /// [`STATE_FORMAT`].
    pub format: String,
    /// The request, resolved: seed, engines, games per encounter and the config file filled in.
    pub request: MatchRequest,
    /// The working directory of the first run (relative paths in the request are relative to
    /// it).
    pub directory: PathBuf,
    /// The slice of the schedule this run plays.
    pub shard: Shard,
    /// Games done, by position in the shard's list of games.
    pub done: DoneGames,
    /// Their results.
    pub standings: Standings,
    /// The SPRT's log-likelihood ratio after each finished game (games, LLR), thinned to at most
    /// [`MatchState::LLR_POINTS`] points by dropping every other one when full.
    pub llr_history: Vec<(u32, f64)>,
    /// True once the SPRT decided (the run stops there: its remaining games are not played).
    pub sprt_decided: bool,
    /// Seconds of play over every run of this state.
    pub seconds: f64,
    /// The PGN file, when games are written.
    pub pgn: Option<Appendix>,
    /// The EPD file of final positions, when asked for.
    pub epd: Option<Appendix>,
}

impl MatchState {
    /// The most LLR points kept.
    pub const LLR_POINTS: usize = 2000;

    /// Record the LLR after `games` finished games.
    pub fn push_llr(&mut self, games: u32, llr: f64) {
        if self.llr_history.len() >= Self::LLR_POINTS {
            let kept: Vec<(u32, f64)> = self.llr_history.iter().copied().step_by(2).collect();
            self.llr_history = kept;
        }
        self.llr_history.push((games, llr));
    }

    /// Read a state file.
    pub fn load(path: &Path) -> Result<MatchState, ArenaError> {
        let bad = |why: String| ArenaError::State(path.to_path_buf(), why);
        let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
        let state: MatchState =
            serde_json::from_str(&text).map_err(|e| bad(format!("not a match state file: {e}")))?;
        if state.format != STATE_FORMAT {
            return Err(bad(format!(
                "format '{}', this shannon reads '{STATE_FORMAT}'",
                state.format
            )));
        }
        Ok(state)
    }

    /// Write it atomically ([`crate::atomic_file`]).
    pub fn save(&self, path: &Path) -> Result<(), ArenaError> {
        let failed = |e: std::io::Error| ArenaError::State(path.to_path_buf(), e.to_string());
        let text = serde_json::to_string(self).expect("a state serialises");
        crate::atomic_file::write_atomically(path, text.as_bytes()).map_err(failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn done_games_stay_a_prefix_and_a_few_stragglers() {
        let mut done = DoneGames::default();
        for position in [2, 0, 5, 1] {
            done.insert(position);
        }
        assert_eq!(done.prefix, 3);
        assert_eq!(done.beyond, BTreeSet::from([5]));
        assert!(done.contains(1) && done.contains(5) && !done.contains(3));
        done.insert(1);
        assert_eq!(done.len(), 4);
    }

    #[test]
    fn a_reopened_file_holds_the_committed_games_and_the_pending_one_once() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let path = dir.join("games.txt");
        let (mut appendix, mut file) = Appendix::create(&path).unwrap();
        appendix.pending = "game 1\n".into();
        appendix.commit(&mut file).unwrap();
        // Saved with game 2 pending; the append was cut short, and an unfinished game followed.
        appendix.pending = "game 2\n".into();
        let saved = appendix.clone();
        file.write_all(b"gam").unwrap();
        file.write_all(b"unfinished\n").unwrap();
        drop(file);
        let mut resumed = saved.clone();
        resumed.reopen().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "game 1\ngame 2\n");
        // Reopening the same saved state again (a second kill before the next save) is harmless.
        let mut again = saved;
        again.reopen().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "game 1\ngame 2\n");
        assert_eq!(again.committed, 14);
        std::fs::write(&path, "short").unwrap();
        assert!(resumed.reopen().is_err(), "a file shorter than the state");
    }
}
