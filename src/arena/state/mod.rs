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
//! What follows the committed games in the file is checked before it is cut: the pending game and
//! the games an interrupt ended (the state holds their text too) are the run's own and are cut;
//! anything else was written by another program behind the state's back, and is moved, whole, to
//! a file beside (`games.appended-1.pgn`) before the cut, so a resume never deletes a byte it did
//! not write. A run may also start after games already in the file (appending, as cutechess-cli
//! and fastchess do): [`Appendix::start`] says where its own games begin.
//!
//! The file is a format: JSON whose `format` names its version, every field keyed by a stable
//! name (the ways games ended by [`super::match_game::EndCategory`]'s names, not by the words the
//! tables show). Format 7 added each knockout game's result (`knockout_results`), so that a
//! knockout that did not end can be continued; format 6 reads as format 7 without them (an
//! unfinished knockout of format 6 is refused: its later games depend on results it did not
//! keep). Format 6 added per-move caps beside a clock or a time per move (a time control's
//! notation may be `10+0.1,nodes=5000`: [`crate::client::TimeControl`]); format 5 reads as
//! format 6 whose time controls have none, as it was played. Format 5 added each engine's own limits (time odds: the settings'
//! `engine_limits`, by engine name) and the tablebase adjudication (`tablebase`); format 4 reads
//! as format 5 with neither, the match's limits for every engine, as it was played. Format 4 added whose SPRT it is (the test of the command-line form and its Elo
//! model: [`crate::stats::Sprt`]'s `test`, `elo_model` and `counts`); format 3 reads as format
//! 4 with fishtest's test in logistic Elo, the one every run of format 3 played. Format 3 added
//! where a run's games start in its files, the text of the games an interrupt ended, and the
//! numbering of forensics files; format 2 reads as format 3 with none of them (games from the
//! files' first byte), and format 1 is still read ([`format_1`]).

mod format_1;

use super::done_games::DoneGames;
use super::error::StateError;
use super::knockout::KnockoutResult;
use super::request::MatchSettings;
use super::sprt_run::SprtRun;
use super::standings::Standings;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The `format` of the state files this build writes.
pub const STATE_FORMAT: &str = "shannon match state 7";

/// Format 6: format 7 without a knockout's results.
const FORMAT_6: &str = "shannon match state 6";

/// Format 5: format 6 without caps beside a clock.
const FORMAT_5: &str = "shannon match state 5";

/// Format 4: format 5 without engines of their own limits.
const FORMAT_4: &str = "shannon match state 4";

/// Format 3: format 4 whose SPRT, if any, is fishtest's in logistic Elo (it names no test).
const FORMAT_3: &str = "shannon match state 3";

/// Format 2: format 3 without its new fields.
const FORMAT_2: &str = "shannon match state 2";

/// Every `format` of state files this build reads: its own, 6, 5, 4, 3, 2 and 1.
pub const STATE_FORMATS_READ: [&str; 7] = [
    STATE_FORMAT,
    FORMAT_6,
    FORMAT_5,
    FORMAT_4,
    FORMAT_3,
    FORMAT_2,
    format_1::FORMAT,
];

/// An output file that only grows, game by game: where the run's games begin, its length with
/// every committed game, and the text of a game that was recorded as done but may not be in the
/// file yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Appendix {
    /// The file.
    pub(crate) path: PathBuf,
    /// Where the run's own games begin: the bytes before are an earlier run's or another
    /// program's, kept (0 when the run made the file; always 0 before format 3).
    #[serde(default)]
    pub(crate) start: u64,
    /// Its length before `pending`.
    pub(crate) committed: u64,
    /// The last done game's text, written after the state that records it.
    pub(crate) pending: String,
    /// The text of the games an interrupt ended (result `*`), written after `pending`: a resume
    /// cuts them off and plays them again.
    #[serde(default)]
    pub(crate) unfinished: String,
    /// Read from a state of format 1 or 2, which did not keep `unfinished`: games with result
    /// `*` right after the pending one are taken as the run's own.
    #[serde(skip)]
    pub(crate) legacy: bool,
}

/// Text found after the games a state records that the run did not write, and where it was
/// moved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SetAside {
    /// The file it was found in.
    pub(crate) from: PathBuf,
    /// The file it is in now.
    pub(crate) to: PathBuf,
    /// Its length in bytes.
    pub(crate) bytes: u64,
}

impl Appendix {
    /// The run's file at `path`, made new (an existing one is replaced).
    pub(crate) fn create(path: &Path) -> io::Result<(Appendix, File)> {
        let file = File::create(path)?;
        Ok((Appendix::at(path, 0), file))
    }

    /// The run's file at `path`, its games appended after what the file holds (made when there is
    /// none). The text before is made to end in `line_ends` line ends (2 for a PGN: a blank line
    /// between games; 1 for an EPD), so that the run's first game starts on a line of its own.
    pub(crate) fn append(path: &Path, line_ends: usize) -> io::Result<(Appendix, File)> {
        let mut file = OpenOptions::new().create(true).append(true).open(path)?;
        let length = file.metadata()?.len();
        if length > 0 {
            let ending = last_bytes(path, length, 2 * line_ends as u64)?;
            let found = ending
                .iter()
                .rev()
                .filter(|&&b| b != b'\r')
                .take_while(|&&b| b == b'\n')
                .count();
            let missing = "\n".repeat(line_ends.saturating_sub(found));
            if !missing.is_empty() {
                file.write_all(missing.as_bytes())?;
                file.sync_data()?;
            }
        }
        let start = file.metadata()?.len();
        Ok((Appendix::at(path, start), file))
    }

    fn at(path: &Path, start: u64) -> Appendix {
        Appendix {
            path: path.to_path_buf(),
            start,
            committed: start,
            pending: String::new(),
            unfinished: String::new(),
            legacy: false,
        }
    }

    /// Reopen the file of a saved state: check what follows the committed games, move what the
    /// run did not write to a file beside (returned), cut the file back to the committed length
    /// and write the pending text again (see the module's documentation).
    pub(crate) fn reopen(&mut self) -> Result<(File, Option<SetAside>), StateError> {
        let reopen = |e| StateError::Reopen(self.path.clone(), e);
        let mut file = OpenOptions::new()
            .read(true)
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
        let foreign = self.foreign_tail(&mut file, length).map_err(reopen)?;
        let set_aside = match foreign {
            Some(from) => Some(set_aside(&self.path, &mut file, from, length).map_err(reopen)?),
            None => None,
        };
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
        self.unfinished.clear();
        Ok((file, set_aside))
    }

    /// Where the text after the committed games stops being the run's own (the pending game and
    /// the unfinished ones, either maybe cut short by a kill), or `None` when all of it is.
    fn foreign_tail(&self, file: &mut File, length: u64) -> io::Result<Option<u64>> {
        let ours = [self.pending.as_bytes(), self.unfinished.as_bytes()].concat();
        let tail_length = length - self.committed;
        let mut tail = Vec::new();
        file.seek(SeekFrom::Start(self.committed))?;
        (&*file)
            .take((ours.len() as u64).min(tail_length))
            .read_to_end(&mut tail)?;
        if tail_length <= ours.len() as u64 && ours.starts_with(&tail) {
            return Ok(None);
        }
        // The run's own text, whole, then another program's; when what follows the committed
        // games is not even the whole pending game, all of it is set aside (a kill's half-written
        // game among it is harmless there, and its game is written again here).
        let own = if tail == ours {
            ours.len()
        } else if tail.starts_with(self.pending.as_bytes()) {
            self.pending.len()
        } else {
            0
        };
        let from = self.committed + own as u64;
        if self.legacy && own == self.pending.len() && unfinished_only(file, from, length)? {
            return Ok(None);
        }
        Ok(Some(from))
    }

    /// The pending text is in the file now.
    pub(crate) fn committed(&mut self) {
        self.committed += self.pending.len() as u64;
        self.pending.clear();
    }
}

/// True when bytes `from..length` of `file` are PGN games that did not finish (result `*`), as
/// an interrupt leaves them after the finished games (a format-2 state does not say which).
fn unfinished_only(file: &mut File, from: u64, length: u64) -> io::Result<bool> {
    const MOST: u64 = 16 << 20;
    if length - from > MOST {
        return Ok(false);
    }
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(from))?;
    (&*file).take(length - from).read_to_end(&mut bytes)?;
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return Ok(false);
    };
    let games = crate::notation::pgn::read_games(text);
    Ok(!games.is_empty()
        && games
            .iter()
            .all(|game| game.as_ref().is_ok_and(|g| !g.record.outcome.is_finished())))
}

/// The last `n` bytes (at most) of the file at `path`, `length` bytes long.
fn last_bytes(path: &Path, length: u64, n: u64) -> io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(length.saturating_sub(n)))?;
    let mut bytes = Vec::new();
    file.take(n).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Copy bytes `from..length` of `file` (at `path`) to a new file beside it, synced:
/// `games.pgn` to `games.appended-1.pgn` (or the first number not taken).
fn set_aside(path: &Path, file: &mut File, from: u64, length: u64) -> io::Result<SetAside> {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let extension = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    for number in 1..10_000 {
        let to = path.with_file_name(format!("{stem}.appended-{number}{extension}"));
        let mut out = match File::create_new(&to) {
            Ok(out) => out,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        };
        file.seek(SeekFrom::Start(from))?;
        let bytes = io::copy(&mut (&*file).take(length - from), &mut out)?;
        out.sync_all()?;
        crate::jobs::atomic_file::sync_folder(&to);
        return Ok(SetAside {
            from: path.to_path_buf(),
            to,
            bytes,
        });
    }
    Err(io::Error::other("no free name to move it to"))
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
    /// Added to a game's number to name its forensics file (`<pgn>.forensics/<number>.txt`):
    /// a run appending to a PGN numbers them after the earlier runs' files.
    #[serde(default)]
    pub(crate) forensics_offset: u32,
    /// False from the moment a run starts playing until it ends (its games played, its SPRT
    /// decided, or an interrupt): a state left `false` is of a run that was killed, which a
    /// re-run of its command line continues even when nothing is left to play but its report.
    /// States written before this field count as ended.
    #[serde(default = "ended_when_not_said")]
    pub(crate) ended: bool,
    /// True once a knockout's final is decided (a knockout numbers no game in advance, so its
    /// games done say nothing of whether it is over).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) knockout_over: bool,
    /// A knockout's finished games' results, by game number: a resume replays the bracket from
    /// them ([`super::knockout::Knockout::replay`]). Absent from other runs, and from states
    /// of format 6 and older (whose unfinished knockouts are refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) knockout_results: Option<BTreeMap<u32, KnockoutResult>>,
}

/// States written before [`MatchState::ended`] say nothing of how their run ended: as before,
/// only their games decide whether they are finished.
fn ended_when_not_said() -> bool {
    true
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
            forensics_offset: 0,
            ended: false,
            knockout_over: false,
            knockout_results: None,
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

    /// Read a state file, of this format or of the older ones ([`STATE_FORMATS_READ`]).
    pub fn load(path: &Path) -> Result<MatchState, StateError> {
        let text = std::fs::read_to_string(path).map_err(StateError::Read)?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(StateError::NotAState)?;
        match value.get("format").and_then(|f| f.as_str()) {
            Some(STATE_FORMAT) => serde_json::from_value(value).map_err(StateError::NotAState),
            // Its SPRT names no test: fishtest's in logistic Elo, as it was played; a format 4
            // state has no engine limits of its own, which is what it reads as; a format 5
            // state's time controls have no caps beside a clock, as they read.
            // A format 6 state keeps no knockout results (`knockout_results` absent).
            Some(FORMAT_6 | FORMAT_5 | FORMAT_4 | FORMAT_3) => {
                let mut state: MatchState =
                    serde_json::from_value(value).map_err(StateError::NotAState)?;
                state.format = STATE_FORMAT.to_string();
                Ok(state)
            }
            Some(FORMAT_2) => {
                let mut state: MatchState =
                    serde_json::from_value(value).map_err(StateError::NotAState)?;
                state.format = STATE_FORMAT.to_string();
                state.legacy();
                Ok(state)
            }
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

    /// Mark its files as a format-1 or format-2 state's (see [`Appendix::legacy`]).
    pub(super) fn legacy(&mut self) {
        for appendix in [&mut self.pgn, &mut self.epd].into_iter().flatten() {
            appendix.legacy = true;
        }
    }

    /// Write it atomically ([`crate::jobs::atomic_file`]).
    pub(crate) fn save(&self, path: &Path) -> Result<(), StateError> {
        let text = serde_json::to_string(self).expect("a state serialises");
        crate::jobs::atomic_file::write_atomically(path, text.as_bytes()).map_err(StateError::Write)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reopened_file_holds_the_committed_games_and_the_pending_one_once() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let path = dir.join("games.txt");
        let (mut appendix, mut file) = Appendix::create(&path).unwrap();
        appendix.pending = "game 1\n".into();
        file.write_all(appendix.pending.as_bytes()).unwrap();
        appendix.committed();
        // Saved with game 2 pending; the append was cut short.
        appendix.pending = "game 2\n".into();
        let saved = appendix.clone();
        file.write_all(b"gam").unwrap();
        drop(file);
        let mut resumed = saved.clone();
        let (_, moved) = resumed.reopen().unwrap();
        assert_eq!(moved, None);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "game 1\ngame 2\n");
        // Reopening the same saved state again (a second kill before the next save) is harmless.
        let mut again = saved.clone();
        again.reopen().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "game 1\ngame 2\n");
        assert_eq!(again.committed, 14);
        // An interrupt's unfinished games, recorded in the state, cut short by a kill.
        let mut interrupted = saved.clone();
        interrupted.unfinished = "unfinished 3\nunfinished 4\n".into();
        std::fs::write(&path, "game 1\ngame 2\nunfinished 3\nunfin").unwrap();
        let (_, moved) = interrupted.clone().reopen().unwrap();
        assert_eq!(moved, None);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "game 1\ngame 2\n");
        std::fs::write(&path, "short").unwrap();
        assert!(resumed.reopen().is_err(), "a file shorter than the state");
    }

    /// What another program appended behind the state's back is moved, whole, to a file beside
    /// before the cut: after the run's own text, or right after the committed games when the
    /// pending game is not whole there.
    #[test]
    fn text_appended_behind_the_states_back_is_set_aside() {
        let scratch = tempfile::tempdir().unwrap();
        let path = scratch.path().join("games.pgn");
        let saved = Appendix {
            path: path.clone(),
            start: 0,
            committed: 7,
            pending: "game 2\n".into(),
            unfinished: "game 3 *\n".into(),
            legacy: false,
        };
        let cases = [
            ("game 1\ngame 2\ngame 3 *\nother\n", "other\n"),
            ("game 1\ngame 2\nother\n", "other\n"),
            ("game 1\ngame 2\ngame 3 *\n", ""),
            ("game 1\nother\n", "other\n"),
            ("game 1\ngaother\n", "gaother\n"),
        ];
        let mut set_aside = 0;
        for (file, foreign) in cases {
            std::fs::write(&path, file).unwrap();
            let (_, moved) = saved.clone().reopen().unwrap();
            assert_eq!(
                std::fs::read_to_string(&path).unwrap(),
                "game 1\ngame 2\n",
                "{file:?}"
            );
            match moved {
                None => assert_eq!(foreign, "", "{file:?}"),
                Some(moved) => {
                    // Each set-aside file takes the next free number.
                    set_aside += 1;
                    let to = scratch
                        .path()
                        .join(format!("games.appended-{set_aside}.pgn"));
                    assert_eq!(moved.to, to, "{file:?}");
                    assert_eq!(std::fs::read_to_string(&to).unwrap(), foreign);
                    assert_eq!(moved.bytes, foreign.len() as u64);
                }
            }
        }
    }

    /// A format-2 state does not know the games an interrupt ended: `*` games right after the
    /// pending one are its own (cut), anything else is set aside.
    #[test]
    fn a_legacy_states_unfinished_games_are_its_own() {
        let scratch = tempfile::tempdir().unwrap();
        let path = scratch.path().join("games.pgn");
        let ended = "[Event \"m\"]\n[Result \"*\"]\n\n1. e4 *\n\n";
        let other = "[Event \"o\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";
        let saved = Appendix {
            path: path.clone(),
            start: 0,
            committed: 7,
            pending: "game 2\n".into(),
            unfinished: String::new(),
            legacy: true,
        };
        for (tail, set_aside) in [
            (format!("{ended}{ended}"), None),
            (format!("{ended}{other}"), Some(format!("{ended}{other}"))),
            (other.to_string(), Some(other.to_string())),
        ] {
            std::fs::write(&path, format!("game 1\ngame 2\n{tail}")).unwrap();
            let (_, moved) = saved.clone().reopen().unwrap();
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "game 1\ngame 2\n");
            let moved = moved.map(|m| std::fs::read_to_string(m.to).unwrap());
            assert_eq!(moved, set_aside, "{tail:?}");
        }
    }

    #[test]
    fn an_appending_run_starts_after_the_files_text_on_a_line_of_its_own() {
        let scratch = tempfile::tempdir().unwrap();
        let path = scratch.path().join("games.pgn");
        for (before, line_ends, after) in [
            ("", 2, ""),
            ("1-0\n\n", 2, "1-0\n\n"),
            ("1-0\n", 2, "1-0\n\n"),
            ("1-0", 2, "1-0\n\n"),
            ("1-0\r\n\r\n", 2, "1-0\r\n\r\n"),
            ("a b c d;", 1, "a b c d;\n"),
            ("a b c d;\n", 1, "a b c d;\n"),
        ] {
            std::fs::write(&path, before).unwrap();
            let (appendix, _) = Appendix::append(&path, line_ends).unwrap();
            assert_eq!(std::fs::read_to_string(&path).unwrap(), after, "{before:?}");
            assert_eq!(appendix.start, after.len() as u64);
            assert_eq!(appendix.committed, appendix.start);
        }
        std::fs::remove_file(&path).unwrap();
        let (appendix, _) = Appendix::append(&path, 2).unwrap();
        assert!(path.exists() && appendix.start == 0, "made when missing");
    }
}
