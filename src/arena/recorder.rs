//! The files of a match and the order they are written in, in one place: after every finished
//! game, the state (holding the game's PGN and EPD text as pending) is saved first, then the
//! texts are appended to their files and synced ([`super::state`] says why this order survives a
//! kill at any moment). The games an interrupt ends go the same way: the state holds their text
//! before it is written, so a resume knows them from text another program appended. After a write fails nothing is written again, so the state on disk still
//! fits the files and a resume plays the games from the failure on; the run goes on for its
//! tables, and its report names the failure.
//!
//! Where the bytes go is a [`Store`]: the files, or in the tests a store that fails at a chosen
//! step.

use super::error::{RecordError, StateError};
use super::files::OutputFile;
use super::state::{Appendix, MatchState};
use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;

/// Where a recorder writes.
pub(crate) trait Store {
    /// Save the state (atomically, as a whole).
    fn save_state(&mut self, state: &MatchState) -> Result<(), StateError>;
    /// Append `text` to one of the game files and make it durable.
    fn append(&mut self, file: OutputFile, text: &str) -> io::Result<()>;
}

/// The real files: the state file (when there is one) and the open PGN and EPD files.
pub(crate) struct Files {
    state: Option<PathBuf>,
    pgn: Option<File>,
    epd: Option<File>,
}

impl Files {
    /// The files of a run: its state file's path and the game files, open for appending.
    pub(crate) fn new(state: Option<PathBuf>, pgn: Option<File>, epd: Option<File>) -> Files {
        Files { state, pgn, epd }
    }
}

impl Store for Files {
    fn save_state(&mut self, state: &MatchState) -> Result<(), StateError> {
        match &self.state {
            Some(path) => state.save(path),
            None => Ok(()),
        }
    }

    fn append(&mut self, file: OutputFile, text: &str) -> io::Result<()> {
        let handle = match file {
            OutputFile::Pgn => self.pgn.as_mut(),
            OutputFile::Epd => self.epd.as_mut(),
        };
        match handle {
            Some(handle) => handle
                .write_all(text.as_bytes())
                .and_then(|()| handle.flush())
                .and_then(|()| handle.sync_data()),
            None => Ok(()),
        }
    }
}

/// Writes a match's games and state in the safe order, and stops writing at the first failure.
pub(crate) struct Recorder<S: Store> {
    store: S,
    state_path: Option<PathBuf>,
    failed: Option<RecordError>,
    /// The text of the unfinished games written to the PGN, saved with every state after them.
    unfinished: String,
    /// The CRC-32 of the PGN file so far, kept when asked for ([`Recorder::checksum_pgn`]).
    pgn_crc: Option<crc::Digest<'static, u32>>,
}

/// zlib's CRC-32, the one fastchess prints for `-crc32 pgn=true` and fishtest checks.
static CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

impl<S: Store> Recorder<S> {
    /// A recorder writing to `store`; `state_path` names the state file in messages.
    pub(crate) fn new(store: S, state_path: Option<PathBuf>) -> Recorder<S> {
        Recorder {
            store,
            state_path,
            failed: None,
            unfinished: String::new(),
            pgn_crc: None,
        }
    }

    /// Keep the CRC-32 of the PGN file at `path` from now on: what it holds now, read once,
    /// then every text this recorder appends to it.
    pub(crate) fn checksum_pgn(&mut self, path: &std::path::Path) -> io::Result<()> {
        let mut digest = CRC32.digest();
        let mut file = File::open(path)?;
        let mut buffer = vec![0; 1 << 16];
        loop {
            match io::Read::read(&mut file, &mut buffer)? {
                0 => break,
                n => digest.update(&buffer[..n]),
            }
        }
        self.pgn_crc = Some(digest);
        Ok(())
    }

    /// The CRC-32 of the whole PGN file as written so far, when it is kept and no write failed.
    pub(crate) fn pgn_crc32(&self) -> Option<u32> {
        match self.failed {
            Some(_) => None,
            None => self.pgn_crc.clone().map(|digest| digest.finalize()),
        }
    }

    fn checksummed(&mut self, file: OutputFile, text: &str) {
        if let (OutputFile::Pgn, Some(digest)) = (file, self.pgn_crc.as_mut()) {
            digest.update(text.as_bytes());
        }
    }

    /// The failure that stopped the writing, if one did.
    #[cfg(test)]
    pub(crate) fn failure(&self) -> Option<&RecordError> {
        self.failed.as_ref()
    }

    /// The failure, taken.
    pub(crate) fn take_failure(&mut self) -> Option<RecordError> {
        self.failed.take()
    }

    /// Record a finished game whose texts are `pgn` and `epd` (for the files that are kept):
    /// the state first, with the texts pending, then each text appended.
    pub(crate) fn record(&mut self, state: &mut MatchState, pgn: String, epd: String) {
        if let Some(appendix) = state.pgn.as_mut() {
            appendix.pending = pgn;
        }
        if let Some(appendix) = state.epd.as_mut() {
            appendix.pending = epd;
        }
        if self.failed.is_some() {
            return;
        }
        if let Err(error) = self.store.save_state(state) {
            self.failed = Some(self.state_error(error));
            return;
        }
        for (file, appendix) in [
            (OutputFile::Pgn, state.pgn.as_mut()),
            (OutputFile::Epd, state.epd.as_mut()),
        ] {
            if let Some(appendix) = appendix {
                if let Err(error) = self.commit(file, appendix) {
                    self.failed = Some(error);
                    return;
                }
            }
        }
    }

    fn commit(&mut self, file: OutputFile, appendix: &mut Appendix) -> Result<(), RecordError> {
        if appendix.pending.is_empty() {
            return Ok(());
        }
        self.store
            .append(file, &appendix.pending)
            .map_err(|error| RecordError::File {
                file,
                path: appendix.path.clone(),
                error,
            })?;
        self.checksummed(file, &appendix.pending);
        appendix.committed();
        Ok(())
    }

    /// Append a game that did not finish (an interrupt ended it) to the PGN, after every finished
    /// game and outside the committed part: the state that holds its text is saved first, and a
    /// resume cuts it off and plays the game again.
    pub(crate) fn unfinished(&mut self, state: &MatchState, pgn: &str) {
        let Some(appendix) = &state.pgn else { return };
        if self.failed.is_some() {
            return;
        }
        self.unfinished.push_str(pgn);
        if let Err(error) = self.save(state) {
            self.failed = Some(self.state_error(error));
        } else if let Err(error) = self.store.append(OutputFile::Pgn, pgn) {
            self.failed = Some(RecordError::File {
                file: OutputFile::Pgn,
                path: appendix.path.clone(),
                error,
            });
        } else {
            self.checksummed(OutputFile::Pgn, pgn);
        }
    }

    /// Save the state once more at the end (its time and the SPRT's decision), unless writing
    /// has failed.
    pub(crate) fn close(&mut self, state: &MatchState) {
        if self.failed.is_none() {
            if let Err(error) = self.save(state) {
                self.failed = Some(self.state_error(error));
            }
        }
    }

    /// Save `state` with the unfinished games written so far.
    fn save(&mut self, state: &MatchState) -> Result<(), StateError> {
        if self.unfinished.is_empty() {
            return self.store.save_state(state);
        }
        let mut state = state.clone();
        if let Some(appendix) = state.pgn.as_mut() {
            appendix.unfinished = self.unfinished.clone();
        }
        self.store.save_state(&state)
    }

    fn state_error(&self, error: StateError) -> RecordError {
        let path = self.state_path.clone().unwrap_or_default();
        RecordError::State(path, error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::request::MatchSettings;
    use crate::arena::standings::Standings;

    /// What a store was asked to do, in order; it fails the `fail_at`-th step.
    #[derive(Default)]
    struct Log {
        steps: Vec<String>,
        fail_at: Option<usize>,
        /// The PGN as written.
        pgn: String,
        /// The last state saved: games done, PGN committed length, pending text and the
        /// unfinished games' text.
        saved: Option<(usize, u64, String, String)>,
    }

    impl Log {
        fn step(&mut self, what: String) -> bool {
            let failing = self.fail_at == Some(self.steps.len());
            self.steps.push(if failing {
                format!("FAILED {what}")
            } else {
                what
            });
            !failing
        }
    }

    impl Store for Log {
        fn save_state(&mut self, state: &MatchState) -> Result<(), StateError> {
            let pending = state.pgn.as_ref().map_or("", |a| a.pending.as_str());
            let unfinished = state.pgn.as_ref().map_or("", |a| a.unfinished.as_str());
            let mut what = format!("state, {} done, pgn pending {pending:?}", state.done.len());
            if !unfinished.is_empty() {
                what.push_str(&format!(", unfinished {unfinished:?}"));
            }
            if self.step(what) {
                let committed = state.pgn.as_ref().map_or(0, |a| a.committed);
                let (pending, unfinished) = (pending.to_string(), unfinished.to_string());
                self.saved = Some((state.done.len(), committed, pending, unfinished));
                Ok(())
            } else {
                Err(StateError::Write(io::Error::other("disk full")))
            }
        }

        fn append(&mut self, file: OutputFile, text: &str) -> io::Result<()> {
            if self.step(format!("{file} {text:?}")) {
                if file == OutputFile::Pgn {
                    self.pgn.push_str(text);
                }
                Ok(())
            } else {
                Err(io::Error::other("disk full"))
            }
        }
    }

    fn state() -> MatchState {
        let settings: MatchSettings = serde_json::from_str(
            r#"{"config":null,"engines":["a","b"],"tournament":"RoundRobin","rounds":1,"games":2,
            "concurrency":null,"time_control":"nodes=1","openings":{"source":"startpos",
            "random":false,"plies":null,"start":1},"book_depth":16,"pgn":"g.pgn","seed":1,
            "sprt":null,"max_plies":0,"draw":null,"resign":null,"pgn_min":false,"epd":"g.epd",
            "state":null,"shard":{"index":0,"count":1}}"#,
        )
        .unwrap();
        let mut state = MatchState::new(settings, Standings::default());
        for (path, slot) in [("g.pgn", &mut state.pgn), ("g.epd", &mut state.epd)] {
            *slot = Some(Appendix {
                path: PathBuf::from(path),
                start: 0,
                committed: 0,
                pending: String::new(),
                unfinished: String::new(),
                legacy: false,
            });
        }
        state
    }

    /// Two games recorded and one ended by an interrupt, with the store failing at `fail_at`
    /// (never, when `None`).
    fn run(fail_at: Option<usize>) -> (Log, MatchState, Option<String>) {
        let mut recorder = Recorder::new(
            Log {
                fail_at,
                ..Log::default()
            },
            Some(PathBuf::from("g.state")),
        );
        let mut state = state();
        for game in ["one", "two"] {
            state.done.insert(state.done.len());
            recorder.record(&mut state, format!("{game}\n"), format!("{game};\n"));
        }
        recorder.unfinished(&state, "three *\n");
        recorder.close(&state);
        let failure = recorder.failure().map(|e| e.to_string());
        (recorder.store, state, failure)
    }

    #[test]
    fn the_state_is_saved_before_each_games_text_is_written() {
        let (log, state, failure) = run(None);
        assert_eq!(
            log.steps,
            [
                "state, 1 done, pgn pending \"one\\n\"",
                "PGN \"one\\n\"",
                "EPD \"one;\\n\"",
                "state, 2 done, pgn pending \"two\\n\"",
                "PGN \"two\\n\"",
                "EPD \"two;\\n\"",
                "state, 2 done, pgn pending \"\", unfinished \"three *\\n\"",
                "PGN \"three *\\n\"",
                "state, 2 done, pgn pending \"\", unfinished \"three *\\n\"",
            ]
        );
        assert_eq!(failure, None);
        assert_eq!(state.pgn.unwrap().committed, 8);
    }

    #[test]
    fn after_a_failure_at_any_step_nothing_more_is_written() {
        let all = run(None).0.steps.len();
        for fail_at in 0..all {
            let (log, _, failure) = run(Some(fail_at));
            let steps = &log.steps;
            assert_eq!(steps.len(), fail_at + 1, "step {fail_at}: {steps:?}");
            assert!(steps[fail_at].starts_with("FAILED"), "{steps:?}");
            let failure = failure.expect("the failure is kept");
            let expected = if steps[fail_at].contains("state") {
                "State: state file g.state: disk full"
            } else if steps[fail_at].contains("PGN") {
                "PGN: writing g.pgn failed (disk full)"
            } else {
                "EPD: writing g.epd failed (disk full)"
            };
            assert_eq!(failure, expected, "step {fail_at}");
            // The PGN holds the games the last saved state commits, then at most its pending
            // game and the unfinished ones it knows: a resume (cut back, pending written again)
            // gives every done game once, and finds no text it did not write.
            let (done, committed, pending, unfinished) = log.saved.clone().unwrap_or_default();
            let committed = committed as usize;
            assert!(log.pgn.len() >= committed, "step {fail_at}");
            let tail = &log.pgn[committed..];
            assert!(
                format!("{pending}{unfinished}").starts_with(tail),
                "step {fail_at}: {tail:?}"
            );
            let resumed = format!("{}{pending}", &log.pgn[..committed]);
            assert_eq!(resumed.lines().count(), done, "step {fail_at}");
        }
    }
}
