//! A match's saved state: its settings (so `--resume` rebuilds the same schedule, openings and
//! seeds), which games of the shard are done, their standings, the SPRT's history, and how far
//! the PGN and EPD files hold the done games.
//!
//! After every finished game the runner writes the state (to a temporary file, synced, renamed
//! over the old one) with the game's PGN text as *pending*, then appends that text to the PGN and
//! syncs it ([`super::recorder`]). Whenever a kill or a power cut strikes, the state on disk says
//! how long the PGN was before the last game and what that game's text is: a resume cuts the PGN
//! back to that length (dropping a half-written game, or games ended unfinished by an interrupt)
//! and writes the text again. So every game of the schedule ends up in the PGN exactly once, and
//! no finished game is played twice.
//!
//! The file is a format: JSON whose `format` names its version, every field keyed by a stable
//! name (the ways games ended by [`super::match_game::EndCategory`]'s names, not by the words the
//! tables show). Format 1, written before, is still read ([`format_1`]).

mod format_1;

use super::error::StateError;
use super::request::MatchSettings;
use super::sprt_run::SprtRun;
use super::standings::Standings;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The `format` of the state files this build writes.
pub const STATE_FORMAT: &str = "shannon match state 2";

/// Every `format` of state files this build reads: its own and format 1.
pub const STATE_FORMATS_READ: [&str; 2] = [STATE_FORMAT, format_1::FORMAT];

/// Which of a shard's games (by their index in its list of games to play) are done: all below
/// `prefix`, and those in `beyond`. Games finish out of order when several run at once, so a few
/// wait in `beyond` until the gap before them closes; the set stays small however long the run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DoneGames {
    /// Indices `0..prefix` are done.
    pub(crate) prefix: usize,
    /// Done indices above the prefix.
    pub(crate) beyond: BTreeSet<usize>,
}

impl DoneGames {
    /// Mark the game at `index` done.
    pub(crate) fn insert(&mut self, index: usize) {
        if index < self.prefix {
            return;
        }
        self.beyond.insert(index);
        while self.beyond.remove(&self.prefix) {
            self.prefix += 1;
        }
    }

    /// True when the game at `index` is done.
    pub(crate) fn contains(&self, index: usize) -> bool {
        index < self.prefix || self.beyond.contains(&index)
    }

    /// Games done.
    pub(crate) fn len(&self) -> usize {
        self.prefix + self.beyond.len()
    }
}

/// An output file that only grows, game by game: its length with every committed game, and the
/// text of a game that was recorded as done but may not be in the file yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Appendix {
    /// The file.
    pub(crate) path: PathBuf,
    /// Its length before `pending`.
    pub(crate) committed: u64,
    /// The last done game's text, written after the state that records it.
    pub(crate) pending: String,
}

impl Appendix {
    /// A new, empty file at `path` (an existing one is replaced).
    pub(crate) fn create(path: &Path) -> io::Result<(Appendix, File)> {
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
    pub(crate) fn reopen(&mut self) -> Result<File, StateError> {
        let reopen = |e| StateError::Reopen(self.path.clone(), e);
        let mut file = OpenOptions::new()
            .write(true)
            .open(&self.path)
            .map_err(reopen)?;
        let length = file.metadata().map_err(reopen)?.len();
        if length < self.committed {
            return Err(StateError::Shorter {
                path: self.path.clone(),
                length,
                committed: self.committed,
            });
        }
        file.set_len(self.committed)
            .and_then(|()| file.sync_all())
            .map_err(reopen)?;
        file = OpenOptions::new()
            .append(true)
            .open(&self.path)
            .map_err(reopen)?;
        if !self.pending.is_empty() {
            file.write_all(self.pending.as_bytes())
                .and_then(|()| file.sync_data())
                .map_err(reopen)?;
            self.committed();
        }
        Ok(file)
    }

    /// The pending text is in the file now.
    pub(crate) fn committed(&mut self) {
        self.committed += self.pending.len() as u64;
        self.pending.clear();
    }
}

/// Everything a resumed run or a merge needs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MatchState {
    /// [`STATE_FORMAT`].
    pub(crate) format: String,
    /// The settings, every choice made.
    pub(crate) settings: MatchSettings,
    /// The working directory of the first run (relative paths in the settings are relative to
    /// it).
    pub(crate) directory: PathBuf,
    /// Games done, by index in the shard's list of games.
    pub(crate) done: DoneGames,
    /// Their results.
    pub(crate) standings: Standings,
    /// The SPRT's log-likelihood ratio after each finished game (games, LLR), thinned to at most
    /// [`MatchState::LLR_POINTS`] points by dropping every other one when full.
    pub(crate) llr_history: Vec<(u32, f64)>,
    /// True once the SPRT decided (the run stops there: its remaining games are not played).
    pub(crate) sprt_decided: bool,
    /// The SPRT taken on the games in schedule order, and its decision (absent without an SPRT,
    /// and from states written before the test was taken in order: rebuilt from the standings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) sprt_run: Option<SprtRun>,
    /// Seconds of play over every run of this state.
    pub(crate) seconds: f64,
    /// The PGN file, when games are written.
    pub(crate) pgn: Option<Appendix>,
    /// The EPD file of final positions, when asked for.
    pub(crate) epd: Option<Appendix>,
}

impl MatchState {
    /// The most LLR points kept.
    pub const LLR_POINTS: usize = 2000;

    /// A state with no game done yet.
    pub(crate) fn new(settings: MatchSettings, standings: Standings) -> MatchState {
        MatchState {
            format: STATE_FORMAT.to_string(),
            settings,
            directory: std::env::current_dir().unwrap_or_default(),
            done: DoneGames::default(),
            standings,
            llr_history: Vec::new(),
            sprt_decided: false,
            sprt_run: None,
            seconds: 0.0,
            pgn: None,
            epd: None,
        }
    }

    /// The directory the match first ran in: its relative paths are relative to it.
    pub fn directory(&self) -> &Path {
        &self.directory
    }

    /// The settings it plays.
    pub fn settings(&self) -> &MatchSettings {
        &self.settings
    }

    /// Record the LLR after `games` finished games.
    pub(crate) fn push_llr(&mut self, games: u32, llr: f64) {
        if self.llr_history.len() >= Self::LLR_POINTS {
            let kept: Vec<(u32, f64)> = self.llr_history.iter().copied().step_by(2).collect();
            self.llr_history = kept;
        }
        self.llr_history.push((games, llr));
    }

    /// Read a state file, of this format or of format 1.
    pub fn load(path: &Path) -> Result<MatchState, StateError> {
        let text = std::fs::read_to_string(path).map_err(StateError::Read)?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(StateError::NotAState)?;
        match value.get("format").and_then(|f| f.as_str()) {
            Some(STATE_FORMAT) => serde_json::from_value(value).map_err(StateError::NotAState),
            Some(format_1::FORMAT) => format_1::read_state(value),
            Some(other) => Err(StateError::Format {
                found: other.to_string(),
                reads: STATE_FORMAT,
            }),
            // What serde says of a JSON without the field.
            None => match serde_json::from_value::<MatchState>(value) {
                Err(e) => Err(StateError::NotAState(e)),
                Ok(_) => Err(StateError::Format {
                    found: String::new(),
                    reads: STATE_FORMAT,
                }),
            },
        }
    }

    /// Write it atomically ([`crate::atomic_file`]).
    pub(crate) fn save(&self, path: &Path) -> Result<(), StateError> {
        let text = serde_json::to_string(self).expect("a state serialises");
        crate::atomic_file::write_atomically(path, text.as_bytes()).map_err(StateError::Write)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn done_games_stay_a_prefix_and_a_few_stragglers() {
        let mut done = DoneGames::default();
        for index in [2, 0, 5, 1] {
            done.insert(index);
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
        file.write_all(appendix.pending.as_bytes()).unwrap();
        appendix.committed();
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
