//! A match or tournament from request to report: the request settled and prepared against the
//! engines file ([`super::request`]), every file the run writes locked for the run
//! ([`crate::jobs::run_lock`]), what those files already hold looked at ([`super::outputs`]: refused,
//! replaced, appended to, or the unfinished run they hold continued), its files made (or,
//! resuming, cut back to the games the state records), and the games played by a [`Session`].
//! The command line only turns its flags into a [`MatchRequest`], renders what the
//! [`MatchObserver`] hears, and catches signals.

use super::error::ArenaError;
use super::error::SettingError;
use super::error::StateError;
use super::files::{FileNote, Holding, Occupant, OutputFile};
use super::outputs::{self, Decision, Found, Survey};
use super::prepare::{files_of, prepare, Prepared};
use super::recorder::{Files, Recorder};
use super::report::{MatchObserver, MatchReport, Resumed};
use super::request::{settle, Carried, Existing, MatchRequest, MatchSettings};
use super::schedule::TournamentKind;
use super::session::Session;
use super::standings::Standings;
use super::state::{Appendix, MatchState};
use crate::client::{Config, Echo};
use crate::jobs::atomic_file::check_writable;
use crate::jobs::run_lock::{RunLock, RunLockError};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Play the match `request` asks for with the engines of `config`: its PGN, EPD and state files
/// made (or, as [`MatchRequest::existing`] says, appended to or replaced; or the unfinished run
/// they hold continued), the games, and the report; `observer` hears the start, every finished
/// game and the end.
pub fn run_match(
    config: &Config,
    request: &MatchRequest,
    observer: &mut dyn MatchObserver,
) -> Result<MatchReport, ArenaError> {
    let mut settings = settle(config, request)?;
    let seed_drawn = request.seed.is_none() && config.match_defaults.seed.is_none();
    let mut notes = Vec::new();
    if request.pgn.is_none() && request.existing == Existing::Refuse {
        notes.extend(free_default_name(&mut settings, seed_drawn));
    }
    let mut prepared = prepare(config, settings, request.interrupt.clone())?;
    prepared.plan.echo = request.echo.clone();
    // Held until the run ends: a second run on any of these files is refused before it writes.
    let locks = lock(
        prepared.state.as_deref(),
        prepared.pgn.as_deref(),
        prepared.epd.as_deref(),
    )?;
    let mut survey = outputs::survey(
        prepared.pgn.as_deref(),
        prepared.epd.as_deref(),
        prepared.state.as_deref(),
        &prepared.settings,
        seed_drawn,
    )
    .map_err(|(file, path, error)| output_error(file, &path, error))?;
    let decision = survey
        .decide(request.existing, request.existing_epd)
        .map_err(ArenaError::Occupied)?;
    match decision {
        Decision::Start => start(prepared, survey, request, notes, observer),
        Decision::Continue(state) => {
            let path = prepared.state.clone().expect("a state file was read");
            if let Some(carried) = &request.carried {
                notes.extend(behind(carried, &state, &path)?);
            }
            let resume = Resume {
                concurrency: request.concurrency,
                interrupt: request.interrupt.clone(),
                pgn_crc32: request.pgn_crc32,
                echo: request.echo.clone(),
            };
            notes.push(FileNote::Continued {
                state: path.clone(),
                done: state.done.len(),
                of: prepared.games(state.done.len()),
            });
            go_on(&path, *state, &resume, notes, locks, observer)
        }
    }
}

/// A new run: its files made, appended to or replaced as asked, its first state saved, and the
/// games played.
fn start(
    mut prepared: Prepared,
    survey: Survey,
    request: &MatchRequest,
    mut notes: Vec<FileNote>,
    observer: &mut dyn MatchObserver,
) -> Result<MatchReport, ArenaError> {
    let (existing, existing_epd) = (request.existing, request.existing_epd);
    if let Some((found, saved)) = &survey.state {
        match (existing, &found.holds) {
            // A finished earlier run (the only kind `decide` lets an appending run find).
            (Existing::Append, Some(_)) if saved.is_some() => {
                notes.push(keep_state(&found.path)?);
            }
            (Existing::Overwrite, Some(_)) => notes.extend(replaced(found)),
            _ => {}
        }
    }
    let mut forensics_offset = 0;
    if let Some((found, highest)) = &survey.forensics {
        if existing == Existing::Overwrite && found.holds.is_some() {
            outputs::clear_forensics(&found.path)
                .map_err(|error| output_error(OutputFile::Pgn, &found.path, error))?;
            notes.extend(replaced(found));
        }
        if existing == Existing::Append {
            let games = match survey.pgn.as_ref().and_then(|f| f.holds.as_ref()) {
                Some(Holding::Games(games)) => *games as u32,
                _ => 0,
            };
            forensics_offset = games.max(*highest);
        }
    }
    let (pgn, pgn_file) = open(
        OutputFile::Pgn,
        prepared.pgn.as_deref(),
        existing,
        survey.pgn.as_ref(),
        &mut notes,
    )?;
    let (epd, epd_file) = open(
        OutputFile::Epd,
        prepared.epd.as_deref(),
        existing_epd,
        survey.epd.as_ref(),
        &mut notes,
    )?;
    let names = prepared.settings.engines.clone();
    let mut standings = Standings::new(names, &prepared.plan.schedule);
    let carried = match &request.carried {
        Some(carried) => carry(carried, &prepared, &mut standings)?,
        None => 0,
    };
    let mut state = MatchState::new(prepared.settings.clone(), standings);
    if prepared.knockout.is_some() {
        state.knockout_results = Some(Default::default());
    }
    state.done.prefix = carried;
    prepared.start.carried = carried as u32;
    state.pgn = pgn;
    state.epd = epd;
    state.forensics_offset = forensics_offset;
    if let Some(path) = &prepared.state {
        state
            .save(path)
            .map_err(|e| ArenaError::State(path.clone(), e))?;
    }
    prepared.start.notes = notes;
    let mut recorder = Recorder::new(
        Files::new(prepared.state.clone(), pgn_file, epd_file),
        prepared.state.clone(),
    );
    checksum(&mut recorder, &state, request.pgn_crc32)?;
    Session::new(prepared, state, recorder).play(observer)
}

/// Add the games another program played ([`Carried`]) to `standings`: the number of the
/// schedule's first games they stand for, or why this run cannot continue from them.
fn carry(
    carried: &Carried,
    prepared: &Prepared,
    standings: &mut Standings,
) -> Result<usize, ArenaError> {
    let refuse = |why: String| ArenaError::Setting(SettingError::Carried(why));
    let games = carried.games as usize;
    if carried.games > 0 && prepared.settings.shard.is_partial() {
        return Err(refuse("a shard cannot continue them".into()));
    }
    if games > prepared.todo.len() {
        return Err(refuse(format!(
            "{games} games played, but the schedule has {}",
            prepared.todo.len()
        )));
    }
    if !prepared.plan.schedule.layout.single_games && games % 2 == 1 {
        return Err(refuse(format!(
            "{games} games played: the last pair of games is half played, and the run would \
             have to play that pair's first game again with the colours the other way round \
             (fastchess continues so); continue a run stopped after a whole pair"
        )));
    }
    let mut counted = 0;
    for played in &carried.encounters {
        let names = &standings.names;
        let index = |name: &String| names.iter().position(|n| n == name);
        let (Some(first), Some(second)) = (index(&played.first), index(&played.second)) else {
            return Err(refuse(format!(
                "{} vs {}: not a pair of this run's engines ({})",
                played.first,
                played.second,
                names.join(", ")
            )));
        };
        let games_of = played.score.wins + played.score.draws + played.score.losses;
        let encounter = standings
            .encounters
            .iter_mut()
            .find(|e| e.engines == (first, second) || e.engines == (second, first));
        let Some(encounter) = encounter else {
            if games_of == 0 {
                continue;
            }
            return Err(refuse(format!(
                "{} vs {}: these engines do not meet in this schedule",
                played.first, played.second
            )));
        };
        let (score, mut pairs) = (played.score, played.pairs);
        let score = match encounter.engines == (first, second) {
            true => score,
            false => {
                pairs.counts.reverse();
                score.reversed()
            }
        };
        if 2 * pairs.pairs() > games_of {
            return Err(refuse(format!(
                "{} vs {}: {} pairs of games in {games_of} games",
                played.first,
                played.second,
                pairs.pairs()
            )));
        }
        encounter.score = encounter.score.plus(&score);
        encounter.pairs.add_pairs(&pairs);
        counted += games_of as usize;
    }
    if counted != games {
        return Err(refuse(format!(
            "{games} games played, but the results count {counted}"
        )));
    }
    Ok(games)
}

/// A note when the state beside the PGN, continued, holds more games of the run than the
/// carried results; `Err` when it holds fewer (another program went on with the run after
/// Shannon's state was saved: continuing either would lose or repeat games).
fn behind(
    carried: &Carried,
    state: &MatchState,
    path: &Path,
) -> Result<Option<FileNote>, ArenaError> {
    let done = state.done.len();
    match (carried.games as usize).cmp(&done) {
        std::cmp::Ordering::Equal => Ok(None),
        std::cmp::Ordering::Less => Ok(Some(FileNote::CarriedBehind {
            state: path.to_path_buf(),
            done,
            carried: carried.games,
        })),
        std::cmp::Ordering::Greater => Err(ArenaError::Setting(SettingError::Carried(format!(
            "{} games played, but {} (Shannon's state of this run) holds {done}: another \
             program went on with the run after Shannon stopped; move {} away to continue \
             from the -config file alone",
            carried.games,
            path.display(),
            path.display()
        )))),
    }
}

/// What a resumed run may choose anew; the games are the saved ones.
#[derive(Debug, Clone, Default)]
pub struct Resume {
    /// Games at once.
    pub concurrency: Option<usize>,
    /// Raised to end the run early (see [`MatchRequest::interrupt`]).
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Tell the PGN's CRC-32 after every game (see [`MatchRequest::pgn_crc32`]).
    pub pgn_crc32: bool,
    /// Where the engines' lines are copied (see [`MatchRequest::echo`]).
    pub echo: Option<Arc<dyn Echo>>,
}

/// Continue the match a state file saved (after a kill, a power cut or an interrupt): the PGN and
/// EPD files are cut back to the finished games (what another program appended after them is
/// moved to a file beside first) and the rest of the schedule is played. A finished match's
/// files are not touched: its report is made again. Relative paths are relative to the first
/// run's directory ([`MatchState::directory`]): the caller changes to it first.
pub fn resume_match(
    path: &Path,
    resume: &Resume,
    observer: &mut dyn MatchObserver,
) -> Result<MatchReport, ArenaError> {
    // The state's own lock first: a second resume of it is refused by its name.
    let mut locks = lock(Some(path), None, None)?;
    let state = MatchState::load(path).map_err(|e| ArenaError::State(path.to_path_buf(), e))?;
    let file = |a: &Option<Appendix>| a.as_ref().map(|a| a.path.clone());
    locks.extend(lock(
        None,
        file(&state.pgn).as_deref(),
        file(&state.epd).as_deref(),
    )?);
    go_on(path, state, resume, Vec::new(), locks, observer)
}

/// Play the rest of the run saved in `state` (read from `path`), its files locked by `locks`.
fn go_on(
    path: &Path,
    mut state: MatchState,
    resume: &Resume,
    mut notes: Vec<FileNote>,
    locks: Vec<RunLock>,
    observer: &mut dyn MatchObserver,
) -> Result<MatchReport, ArenaError> {
    let in_state = |e: StateError| ArenaError::State(path.to_path_buf(), e);
    let knockout = state.settings.tournament == TournamentKind::Knockout;
    if knockout && !state.knockout_over && state.knockout_results.is_none() {
        return Err(in_state(StateError::KnockoutUnfinished));
    }
    let config = Config::load_saved(state.settings.config.as_deref())?;
    let mut settings = state.settings.clone();
    settings.concurrency = resume.concurrency.or(settings.concurrency);
    let mut prepared = prepare(&config, settings, resume.interrupt.clone())?;
    prepared.plan.echo = resume.echo.clone();
    prepared.state = Some(path.to_path_buf());
    if !fits(&state, &prepared) {
        return Err(in_state(StateError::DoesNotFit));
    }
    if let Some(driver) = prepared.knockout.as_mut() {
        match &state.knockout_results {
            // The bracket as far as the finished games take it; the games left running
            // are handed out first.
            Some(results) => {
                driver
                    .replay(results)
                    .map_err(|e| in_state(StateError::KnockoutReplay(e)))?;
            }
            // A finished knockout of an older state: nothing to play, and no bracket.
            None => prepared.knockout = None,
        }
    }
    let done = state.done.len();
    let finished = match knockout {
        true => state.knockout_over,
        false => state.sprt_decided || done >= prepared.todo.len(),
    };
    let all_written = |a: &Option<Appendix>| {
        a.as_ref()
            .is_none_or(|a| a.pending.is_empty() && a.unfinished.is_empty())
    };
    let files = if finished && all_written(&state.pgn) && all_written(&state.epd) {
        // Nothing to play and nothing to write: the files stay as they are, whatever follows.
        for appendix in [&state.pgn, &state.epd].into_iter().flatten() {
            check_length(appendix).map_err(in_state)?;
        }
        Files::new(prepared.state.clone(), None, None)
    } else {
        state.ended = false;
        let pgn_file = reopen(state.pgn.as_mut(), OutputFile::Pgn, &mut notes);
        let epd_file = reopen(state.epd.as_mut(), OutputFile::Epd, &mut notes);
        Files::new(
            prepared.state.clone(),
            pgn_file.map_err(in_state)?,
            epd_file.map_err(in_state)?,
        )
    };
    prepared.start.resumed = Some(Resumed {
        state: path.to_path_buf(),
        done,
        of: prepared.games(done),
    });
    prepared.start.notes = notes;
    let mut recorder = Recorder::new(files, prepared.state.clone());
    checksum(&mut recorder, &state, resume.pgn_crc32)?;
    // Held until the games are played and recorded.
    let _locks = locks;
    Session::new(prepared, state, recorder).play(observer)
}

/// When `asked`, keep the CRC-32 of the run's PGN from what it holds now on.
fn checksum(
    recorder: &mut Recorder<Files>,
    state: &MatchState,
    asked: bool,
) -> Result<(), ArenaError> {
    match (&state.pgn, asked) {
        (Some(pgn), true) => recorder
            .checksum_pgn(&pgn.path)
            .map_err(|error| output_error(OutputFile::Pgn, &pgn.path, error)),
        _ => Ok(()),
    }
}

/// True when the saved results are of the schedule the settings make.
fn fits(state: &MatchState, prepared: &Prepared) -> bool {
    let names: Vec<&String> = prepared.plan.engines.iter().map(|e| &e.name).collect();
    state.standings.names.iter().collect::<Vec<_>>() == names
        && state.standings.encounters.len() == prepared.plan.schedule.encounters.len()
}

/// Reopen a saved run's file, when it has one; a note when text another program appended to it
/// was set aside.
fn reopen(
    appendix: Option<&mut Appendix>,
    file: OutputFile,
    notes: &mut Vec<FileNote>,
) -> Result<Option<File>, StateError> {
    let Some(appendix) = appendix else {
        return Ok(None);
    };
    let (handle, set_aside) = appendix.reopen()?;
    if let Some(set_aside) = set_aside {
        let holds = outputs::game_file(file, &set_aside.to)
            .ok()
            .flatten()
            .unwrap_or(Holding::Games(0));
        log::info!(
            "{}: {} bytes after the run's games moved to {}",
            set_aside.from.display(),
            set_aside.bytes,
            set_aside.to.display()
        );
        notes.push(FileNote::SetAside {
            from: set_aside.from,
            to: Occupant {
                path: set_aside.to,
                holds,
            },
        });
    }
    Ok(Some(handle))
}

/// A finished run's file must still hold the games its state records.
fn check_length(appendix: &Appendix) -> Result<(), StateError> {
    let length = std::fs::metadata(&appendix.path)
        .map_err(|e| StateError::Reopen(appendix.path.clone(), e))?
        .len();
    match length < appendix.committed {
        true => Err(StateError::Shorter {
            path: appendix.path.clone(),
            length,
            committed: appendix.committed,
        }),
        false => Ok(()),
    }
}

/// The run's game file at `path`, when there is one: made (replacing an empty or, as asked, any
/// file) or appended to, as `existing` says.
fn open(
    file: OutputFile,
    path: Option<&Path>,
    existing: Existing,
    found: Option<&Found>,
    notes: &mut Vec<FileNote>,
) -> Result<(Option<Appendix>, Option<File>), ArenaError> {
    let Some(path) = path else {
        return Ok((None, None));
    };
    let made = match existing {
        Existing::Append => {
            notes.extend(found.and_then(occupant).map(FileNote::Appended));
            let line_ends = match file {
                OutputFile::Pgn => 2,
                OutputFile::Epd => 1,
            };
            Appendix::append(path, line_ends)
        }
        Existing::Overwrite => {
            notes.extend(found.and_then(replaced));
            Appendix::create(path)
        }
        // Empty or missing: `decide` refused anything else.
        Existing::Refuse => Appendix::create(path),
    };
    let (appendix, handle) = made.map_err(|error| output_error(file, path, error))?;
    Ok((Some(appendix), Some(handle)))
}

fn occupant(found: &Found) -> Option<Occupant> {
    found.holds.clone().map(|holds| Occupant {
        path: found.path.clone(),
        holds,
    })
}

fn replaced(found: &Found) -> Option<FileNote> {
    occupant(found).map(FileNote::Replaced)
}

/// Move a finished earlier run's state to a free name beside it, keeping it.
fn keep_state(path: &Path) -> Result<FileNote, ArenaError> {
    let write_error = |e| ArenaError::State(path.to_path_buf(), StateError::Write(e));
    let to = outputs::numbered(path, 1, Path::exists)
        .ok_or_else(|| write_error(std::io::Error::other("no free name to keep it under")))?;
    std::fs::rename(path, &to).map_err(write_error)?;
    crate::jobs::atomic_file::sync_folder(&to);
    Ok(FileNote::StateKept {
        from: path.to_path_buf(),
        to,
    })
}

/// When the engines file's default PGN (or its state, or its forensics folder) already holds
/// something, name the run's PGN after it with the first free number (`match-2.pgn`), and say so.
fn free_default_name(settings: &mut MatchSettings, seed_drawn: bool) -> Option<FileNote> {
    let base = settings.pgn.clone()?;
    let taken = |pgn: &Path| {
        let candidate = MatchSettings {
            pgn: Some(pgn.to_path_buf()),
            ..settings.clone()
        };
        let (pgn, _, state) = files_of(&candidate);
        // An explicit state file is the run's whatever the PGN's name: refused if it holds one.
        let state = state.filter(|_| candidate.state.is_none());
        match outputs::survey(
            pgn.as_deref(),
            None,
            state.as_deref(),
            &candidate,
            seed_drawn,
        ) {
            Ok(survey) => survey_occupants(&survey),
            Err((_, path, error)) => vec![Occupant {
                path,
                holds: Holding::NotAState(error.to_string()),
            }],
        }
    };
    let occupied = taken(&base);
    if occupied.is_empty() {
        return None;
    }
    let chosen = outputs::numbered(&base, 2, |pgn| !taken(pgn).is_empty())?;
    settings.pgn = Some(chosen);
    let (chosen, _, _) = files_of(settings);
    Some(FileNote::NewName {
        taken: occupied,
        chosen: chosen.expect("a PGN was named"),
    })
}

/// What a survey found in the PGN, the state and the forensics folder.
fn survey_occupants(survey: &Survey) -> Vec<Occupant> {
    let forensics = survey.forensics.as_ref().map(|(found, _)| found);
    let state = survey.state.as_ref().map(|(found, _)| found);
    [survey.pgn.as_ref(), state, forensics]
        .into_iter()
        .flatten()
        .filter_map(occupant)
        .collect()
}

fn output_error(file: OutputFile, path: &Path, error: std::io::Error) -> ArenaError {
    ArenaError::Output {
        file,
        path: PathBuf::from(path),
        error,
    }
}

/// Take the locks of a run's files (see [`crate::jobs::run_lock`]): its state file first, then its
/// PGN and EPD, each then checked for writing. A PGN or EPD whose lock cannot be made (a folder
/// that does not exist) is named as the file.
fn lock(
    state: Option<&Path>,
    pgn: Option<&Path>,
    epd: Option<&Path>,
) -> Result<Vec<RunLock>, ArenaError> {
    let take = |path: &Path| -> Result<RunLock, RunLockError> {
        let lock = RunLock::acquire(path)?;
        if let Some(warning) = lock.takeover_warning() {
            log::warn!("{warning}");
        }
        Ok(lock)
    };
    let mut locks = Vec::new();
    // A folder that does not exist is named as the PGN's or EPD's, before any lock is tried.
    for (file, path) in [(OutputFile::Pgn, pgn), (OutputFile::Epd, epd)] {
        if let Some(path) = path {
            folder_of(path).map_err(|error| output_error(file, path, error))?;
        }
    }
    if let Some(path) = state {
        locks.push(take(path)?);
    }
    for (file, path) in [(OutputFile::Pgn, pgn), (OutputFile::Epd, epd)] {
        let Some(path) = path else { continue };
        locks.push(take(path).map_err(|e| match e {
            RunLockError::Io { source, .. } => output_error(file, path, source),
            held => ArenaError::Locked(held),
        })?);
        check_writable(path).map_err(|error| output_error(file, path, error))?;
    }
    Ok(locks)
}

/// The folder `path` is in must exist.
fn folder_of(path: &Path) -> std::io::Result<()> {
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => std::fs::read_dir(folder).map(drop),
        _ => Ok(()),
    }
}
