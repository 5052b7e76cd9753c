//! A match or tournament from request to report: the request settled and prepared against the
//! engines file ([`super::request`]), the state file locked for the run ([`crate::run_lock`]), its
//! files made (or, resuming, cut back to the games the state records), and the games played by a
//! [`Session`]. The command line only turns its flags into a [`MatchRequest`], renders what the
//! [`MatchObserver`] hears, and catches signals.

use super::error::ArenaError;
use super::error::OutputFile;
use super::error::StateError;
use super::recorder::{Files, Recorder};
use super::report::{MatchObserver, MatchReport, Resumed};
use super::request::{prepare, settle, MatchRequest, Prepared};
use super::session::Session;
use super::standings::Standings;
use super::state::{Appendix, MatchState};
use crate::atomic_file::check_writable;
use crate::client::Config;
use crate::run_lock::RunLock;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Play the match `request` asks for with the engines of `config`: new PGN, EPD and state
/// files, the games, and the report; `observer` hears the start, every finished game and the end.
pub fn run_match(
    config: &Config,
    request: &MatchRequest,
    observer: &mut dyn MatchObserver,
) -> Result<MatchReport, ArenaError> {
    let settings = settle(config, request)?;
    let prepared = prepare(config, settings, request.interrupt.clone())?;
    // A wrong folder is named as the PGN's or EPD's before the state's lock file is tried there.
    for (file, path) in [
        (OutputFile::Pgn, &prepared.pgn),
        (OutputFile::Epd, &prepared.epd),
    ] {
        if let Some(path) = path {
            check_writable(path).map_err(|error| output_error(file, path, error))?;
        }
    }
    // Held until the run ends: a second runner on this state is refused before it writes.
    let _lock = lock(prepared.state.as_deref())?;
    let (pgn, pgn_file) = create(OutputFile::Pgn, prepared.pgn.as_deref())?;
    let (epd, epd_file) = create(OutputFile::Epd, prepared.epd.as_deref())?;
    let names = prepared.settings.engines.clone();
    let standings = Standings::new(names, &prepared.plan.schedule);
    let mut state = MatchState::new(prepared.settings.clone(), standings);
    state.pgn = pgn;
    state.epd = epd;
    if let Some(path) = &prepared.state {
        state
            .save(path)
            .map_err(|e| ArenaError::State(path.clone(), e))?;
    }
    let recorder = Recorder::new(
        Files::new(prepared.state.clone(), pgn_file, epd_file),
        prepared.state.clone(),
    );
    Session::new(prepared, state, recorder).play(observer)
}

/// What a resumed run may choose anew; the games are the saved ones.
#[derive(Debug, Clone, Default)]
pub struct Resume {
    /// Games at once.
    pub concurrency: Option<usize>,
    /// Raised to end the run early (see [`MatchRequest::interrupt`]).
    pub interrupt: Option<Arc<AtomicBool>>,
}

/// Continue the match a state file saved (after a kill, a power cut or an interrupt): the PGN and
/// EPD files are cut back to the finished games and the rest of the schedule is played.
/// Relative paths are relative to the first run's directory ([`MatchState::directory`]): the
/// caller changes to it first.
pub fn resume_match(
    path: &Path,
    resume: &Resume,
    observer: &mut dyn MatchObserver,
) -> Result<MatchReport, ArenaError> {
    let _lock = lock(Some(path))?;
    let in_state = |e: StateError| ArenaError::State(path.to_path_buf(), e);
    let mut state = MatchState::load(path).map_err(in_state)?;
    let config = Config::load_saved(state.settings.config.as_deref())?;
    let mut settings = state.settings.clone();
    settings.concurrency = resume.concurrency.or(settings.concurrency);
    let mut prepared = prepare(&config, settings, resume.interrupt.clone())?;
    prepared.state = Some(path.to_path_buf());
    if !fits(&state, &prepared) {
        return Err(in_state(StateError::DoesNotFit));
    }
    let pgn_file = state.pgn.as_mut().map(reopen).transpose();
    let epd_file = state.epd.as_mut().map(reopen).transpose();
    let files = Files::new(
        prepared.state.clone(),
        pgn_file.map_err(in_state)?,
        epd_file.map_err(in_state)?,
    );
    prepared.start.resumed = Some(Resumed {
        state: path.to_path_buf(),
        done: state.done.len(),
        of: prepared.todo.len(),
    });
    let recorder = Recorder::new(files, prepared.state.clone());
    Session::new(prepared, state, recorder).play(observer)
}

/// Reopen a saved run's file (see [`Appendix::reopen`]), saying where text another program
/// appended to it was moved.
fn reopen(appendix: &mut Appendix) -> Result<File, StateError> {
    let (file, set_aside) = appendix.reopen()?;
    if let Some(set_aside) = set_aside {
        log::warn!(
            "{} held {} bytes after the games its state records that this run did not write: \
             moved to {}",
            set_aside.from.display(),
            set_aside.bytes,
            set_aside.to.display()
        );
    }
    Ok(file)
}

/// True when the saved results are of the schedule the settings make.
fn fits(state: &MatchState, prepared: &Prepared) -> bool {
    let names: Vec<&String> = prepared.plan.engines.iter().map(|e| &e.name).collect();
    state.standings.names.iter().collect::<Vec<_>>() == names
        && state.standings.encounters.len() == prepared.plan.schedule.encounters.len()
}

/// A new, empty game file at `path`, when there is one.
fn create(
    file: OutputFile,
    path: Option<&Path>,
) -> Result<(Option<Appendix>, Option<File>), ArenaError> {
    match path {
        Some(path) => {
            let (appendix, handle) =
                Appendix::create(path).map_err(|error| output_error(file, path, error))?;
            Ok((Some(appendix), Some(handle)))
        }
        None => Ok((None, None)),
    }
}

fn output_error(file: OutputFile, path: &Path, error: std::io::Error) -> ArenaError {
    ArenaError::Output {
        file,
        path: PathBuf::from(path),
        error,
    }
}

/// Take the lock of a run's state file, if it has one (see [`crate::run_lock`]).
fn lock(state: Option<&Path>) -> Result<Option<RunLock>, ArenaError> {
    let Some(path) = state else { return Ok(None) };
    let lock = RunLock::acquire(path)?;
    if let Some(warning) = lock.takeover_warning() {
        log::warn!("{warning}");
    }
    Ok(Some(lock))
}
