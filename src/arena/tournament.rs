//! A match or tournament from settings to report: the request resolved against engines.toml
//! (the `request` module), the games played by the runner's `MatchPlan`, each written to the PGN as it
//! finishes, the [`Standings`] with the optional SPRT stop, the [`MatchState`] saved after every
//! game (so `--resume` continues after a kill), and the result tables. The command line only
//! parses its arguments into a [`MatchRequest`], shows progress and catches signals.

use super::game_output::{game_epd, game_pgn};
use super::match_game::MatchGame;
use super::request::{prepare, Prepared};
use super::standings::Standings;
use super::state::{Appendix, DoneGames, MatchState, STATE_FORMAT};
use super::tables::write_tables;
use super::ArenaError;
use crate::atomic_file::check_writable;
use crate::client::Config;
use crate::run_lock::RunLock;
use crate::stats::{Pentanomial, Score, Sprt, SprtVerdict};
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub use super::request::MatchRequest;

/// How far a match has come, reported after every finished game (for a progress bar).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchProgress {
    /// Games finished so far (this shard's, over every run of its state).
    pub finished: u32,
    /// Games to play (this shard's).
    pub total: u32,
    /// The score so far in words: `name W-L-D (W-L-D)` for a match, the leader for more engines.
    pub score: String,
}

/// What a finished (or interrupted) match amounts to, for callers that measure it or draw it.
#[derive(Debug, Clone)]
pub struct MatchSummary {
    /// The results of every finished game (of every run of a resumed state).
    pub standings: Standings,
    /// The SPRT, if one ran, and its log-likelihood ratio after each finished game
    /// (games finished, LLR; thinned to at most [`MatchState::LLR_POINTS`] points).
    pub sprt: Option<(Sprt, Vec<(u32, f64)>)>,
    /// Wall-clock time of the games (over every run of a resumed state).
    pub seconds: f64,
    /// False when writing the PGN, the EPD file or the state failed at some point.
    pub pgn_ok: bool,
    /// True when the match was interrupted before its end.
    pub interrupted: bool,
    /// The runner's overhead per engine move of this run (measured time less the engine's own
    /// `info time`): (median, 99th percentile), nearest rank; `None` when no engine reported its
    /// time.
    pub latency: Option<(Duration, Duration)>,
}

impl MatchSummary {
    /// The engines.
    pub fn names(&self) -> &[String] {
        &self.standings.names
    }

    /// The first encounter's score, from its first engine's side (a match has one encounter).
    pub fn score(&self) -> Score {
        self.standings.encounters[0].score
    }

    /// The first encounter's complete game pairs.
    pub fn pentanomial(&self) -> Pentanomial {
        *self.standings.encounters[0].pairs.pentanomial()
    }

    /// Games finished.
    pub fn games(&self) -> u32 {
        self.standings.games()
    }
}

/// Run a match or tournament with an already loaded configuration: a new PGN, EPD and state
/// file, the games, and the tables on `out`; `progress` hears of every finished game.
pub fn run_match_with(
    config: &Config,
    request: &MatchRequest,
    out: &mut impl Write,
    progress: &mut dyn FnMut(&MatchProgress),
) -> Result<MatchSummary, ArenaError> {
    let prepared = prepare(config, request)?;
    // A wrong folder is named as the PGN's or EPD's before the state's lock file is tried there.
    if let Some(path) = &prepared.pgn {
        check_writable(path).map_err(|e| ArenaError::Pgn(path.display().to_string(), e))?;
    }
    if let Some(path) = &prepared.epd {
        check_writable(path).map_err(|e| {
            ArenaError::Setting(format!("cannot write the EPD file {}: {e}", path.display()))
        })?;
    }
    // Held until the run ends: a second runner on this state is refused before it writes.
    let _lock = lock(prepared.state.as_deref())?;
    let pgn = match &prepared.pgn {
        Some(path) => Some(
            Appendix::create(path).map_err(|e| ArenaError::Pgn(path.display().to_string(), e))?,
        ),
        None => None,
    };
    let epd = match &prepared.epd {
        Some(path) => Some(Appendix::create(path).map_err(|e| {
            ArenaError::Setting(format!("cannot write the EPD file {}: {e}", path.display()))
        })?),
        None => None,
    };
    let (pgn, pgn_file) = pgn.unzip();
    let (epd, epd_file) = epd.unzip();
    let state = MatchState {
        format: STATE_FORMAT.to_string(),
        request: prepared.request.clone(),
        directory: std::env::current_dir().unwrap_or_default(),
        shard: prepared.shard,
        done: DoneGames::default(),
        standings: Standings::new(
            prepared
                .plan
                .engines
                .iter()
                .map(|e| e.name.clone())
                .collect(),
            &prepared.plan.schedule,
        ),
        llr_history: Vec::new(),
        sprt_decided: false,
        seconds: 0.0,
        pgn,
        epd,
    };
    if let Some(path) = &prepared.state {
        state.save(path)?;
    }
    play(prepared, state, [pgn_file, epd_file], None, out, progress)
}

/// Continue the match a state file saved (after a kill, a power cut or an interrupt): the PGN and
/// EPD files are cut back to the finished games and the rest of the schedule is played. Of the
/// request only the output choices (`concurrency`, `progress_lines`, `interrupt`) apply; the
/// games are the saved ones. Relative paths are relative to the first run's directory
/// ([`MatchState::directory`]): the caller changes to it first.
pub fn resume_match(
    path: &Path,
    overrides: &MatchRequest,
    out: &mut impl Write,
    progress: &mut dyn FnMut(&MatchProgress),
) -> Result<MatchSummary, ArenaError> {
    let _lock = lock(Some(path))?;
    let mut state = MatchState::load(path)?;
    let config = Config::load_saved(state.request.config.as_deref())?;
    let mut request = state.request.clone();
    request.concurrency = overrides.concurrency.or(request.concurrency);
    request.progress_lines = overrides.progress_lines;
    request.interrupt = overrides.interrupt.clone();
    let mut prepared = prepare(&config, &request)?;
    prepared.state = Some(path.to_path_buf());
    let names: Vec<&String> = prepared.plan.engines.iter().map(|e| &e.name).collect();
    if state.standings.names.iter().collect::<Vec<_>>() != names
        || state.standings.encounters.len() != prepared.plan.schedule.encounters.len()
    {
        return Err(ArenaError::State(
            path.to_path_buf(),
            "its results do not fit the schedule it asks for".into(),
        ));
    }
    let reopen = |appendix: &mut Option<Appendix>| -> Result<Option<File>, ArenaError> {
        appendix
            .as_mut()
            .map(|a| {
                a.reopen()
                    .map_err(|why| ArenaError::State(path.to_path_buf(), why))
            })
            .transpose()
    };
    let files = [reopen(&mut state.pgn)?, reopen(&mut state.epd)?];
    let resumed = state.done.len();
    play(prepared, state, files, Some(resumed), out, progress)
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

/// Play the games of `prepared` that `state` does not hold yet, recording each in the state, the
/// PGN and the EPD file as it finishes; then print the tables.
fn play(
    prepared: Prepared,
    mut state: MatchState,
    files: [Option<File>; 2],
    resumed: Option<usize>,
    out: &mut impl Write,
    progress: &mut dyn FnMut(&MatchProgress),
) -> Result<MatchSummary, ArenaError> {
    let Prepared {
        request,
        plan,
        sprt,
        shard,
        todo,
        state: state_path,
        header,
        ..
    } = prepared;
    let [mut pgn_file, mut epd_file] = files;
    writeln!(out, "{header}")?;
    if shard.is_partial() {
        writeln!(
            out,
            "Shard {shard}: games {} to {} of the {}",
            todo.first().map_or(0, |g| g + 1),
            todo.last().map_or(0, |g| g + 1),
            plan.schedule.len(),
        )?;
    }
    if let Some(done) = resumed {
        writeln!(
            out,
            "Resuming {}: {done} of {} games done",
            state_path.as_deref().unwrap_or(Path::new("?")).display(),
            todo.len()
        )?;
    }
    for engine in &plan.engines {
        if let Some(seed) = engine.configured_seed() {
            writeln!(
                out,
                "{}: plays every game with its configured Seed {seed} (the match seed does not \
                 change it)",
                engine.name
            )?;
        }
    }
    out.flush()?;

    let position_of: HashMap<u32, usize> = todo.iter().enumerate().map(|(p, &g)| (g, p)).collect();
    let left: Vec<u32> = if state.sprt_decided {
        Vec::new()
    } else {
        (0..todo.len())
            .filter(|&p| !state.done.contains(p))
            .map(|p| todo[p])
            .collect()
    };
    let (sender, receiver) = mpsc::channel();
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let seconds_before = state.seconds;
    let mut latencies: Vec<u64> = Vec::new();
    let mut write_error: Option<String> = None;
    let mut unfinished: Vec<MatchGame> = Vec::new();
    std::thread::scope(|scope| -> Result<(), ArenaError> {
        let (plan, stop, left) = (&plan, &stop, &left);
        scope.spawn(move || plan.run(left, sender, stop));
        for record in receiver {
            let index = record.round - 1;
            if !record.is_finished() {
                // Its moves are real, so it goes to the PGN as `*` at the end, after the
                // finished games and outside them: a resume cuts it off and plays the game again.
                unfinished.push(record);
                continue;
            }
            let scheduled = plan.schedule.game(index);
            state.standings.add(&scheduled, &record);
            state.done.insert(position_of[&index]);
            latencies.extend(
                record
                    .infos
                    .iter()
                    .filter_map(|(_, info)| info.latency())
                    .map(|d| d.as_micros() as u64),
            );
            if let Some(sprt) = &sprt {
                let encounter = &state.standings.encounters[0];
                let (_, llr) = sprt.match_llr(&encounter.score, encounter.pairs.pentanomial());
                state.push_llr(state.standings.games(), llr);
                if sprt.decide(llr) != SprtVerdict::Continue {
                    state.sprt_decided = true;
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(appendix) = state.pgn.as_mut() {
                appendix.pending = game_pgn(&record, &plan.time_control, request.pgn_min);
            }
            if let Some(appendix) = state.epd.as_mut() {
                appendix.pending = game_epd(&record);
            }
            state.seconds = seconds_before + started.elapsed().as_secs_f64();
            // The state first, then the files: see the state module. After a failed write
            // neither is touched again, so the state on disk still fits the files and a resume
            // plays the games from the failure on again; this run goes on for its tables.
            if write_error.is_none() {
                let saved = match &state_path {
                    Some(path) => state.save(path).map_err(|e| format!("State: {e}")),
                    None => Ok(()),
                };
                let committed =
                    saved.and_then(|()| commit(&mut state, &mut pgn_file, &mut epd_file));
                write_error = committed.err();
            }
            if request.progress_lines {
                progress_lines(out, &record, &state.standings, scheduled.encounter)?;
            }
            progress(&MatchProgress {
                finished: state.done.len() as u32,
                total: todo.len() as u32,
                score: score_words(&state.standings),
            });
        }
        Ok(())
    })?;
    let interrupted = plan.interrupt.load(Ordering::Relaxed);
    for record in &unfinished {
        if let (Some(file), None) = (pgn_file.as_mut(), &write_error) {
            let text = game_pgn(record, &plan.time_control, request.pgn_min);
            let written = file
                .write_all(text.as_bytes())
                .and_then(|()| file.sync_data());
            if let Err(e) = written {
                write_error = Some(format!("PGN: writing {} failed ({e})", pgn_name(&state)));
            }
        }
    }
    if let (Some(path), None) = (&state_path, &write_error) {
        if let Err(e) = state.save(path) {
            write_error = Some(format!("State: {e}"));
        }
    }
    if interrupted {
        writeln!(
            out,
            "Interrupted after {} finished games; {} running games were ended unfinished (in the \
             PGN with result *, not counted below) and every engine stopped",
            state.standings.games(),
            unfinished.len()
        )?;
    }
    write_tables(out, &state.standings, state.seconds)?;
    if let Some(sprt) = &sprt {
        let encounter = &state.standings.encounters[0];
        let (model, llr) = sprt.match_llr(&encounter.score, encounter.pairs.pentanomial());
        let (lower, upper) = sprt.bounds();
        let decision = match sprt.decide(llr) {
            SprtVerdict::AcceptH0 => "H0 accepted",
            SprtVerdict::AcceptH1 => "H1 accepted",
            SprtVerdict::Continue => "no decision yet",
        };
        writeln!(
            out,
            "SPRT ({}, logistic Elo): elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.3} [{lower:.3}, {upper:.3}]: {decision}",
            model.name(), sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        )?;
    }
    if let Some(why) = &write_error {
        writeln!(
            out,
            "{why}; the games before the failure are kept{}",
            match &state_path {
                Some(path) => format!(
                    ", and `shannon match --resume {}` plays the games after it again",
                    path.display()
                ),
                None => String::new(),
            }
        )?;
    }
    for (what, appendix) in [("PGN", &state.pgn), ("EPD", &state.epd)] {
        if let Some(appendix) = appendix {
            writeln!(out, "{what}: {}", appendix.path.display())?;
        }
    }
    if let Some(path) = &state_path {
        let complete = state.sprt_decided || state.done.len() == todo.len();
        if complete {
            writeln!(out, "State: {}", path.display())?;
        } else {
            writeln!(
                out,
                "State: {} ({} of {} games done; continue with: shannon match --resume {})",
                path.display(),
                state.done.len(),
                todo.len(),
                path.display()
            )?;
        }
    }
    Ok(MatchSummary {
        sprt: sprt.map(|sprt| (sprt, state.llr_history.clone())),
        standings: state.standings,
        seconds: state.seconds,
        pgn_ok: write_error.is_none(),
        interrupted,
        latency: percentiles(&mut latencies),
    })
}

/// Write the pending texts of the state to their files.
fn commit(
    state: &mut MatchState,
    pgn: &mut Option<File>,
    epd: &mut Option<File>,
) -> Result<(), String> {
    for (what, appendix, file) in [("PGN", &mut state.pgn, pgn), ("EPD", &mut state.epd, epd)] {
        if let (Some(appendix), Some(file)) = (appendix.as_mut(), file.as_mut()) {
            appendix
                .commit(file)
                .map_err(|e| format!("{what}: writing {} failed ({e})", appendix.path.display()))?;
        }
    }
    Ok(())
}

/// The PGN file's name, for messages.
fn pgn_name(state: &MatchState) -> String {
    state
        .pgn
        .as_ref()
        .map_or_else(String::new, |a| a.path.display().to_string())
}

/// cutechess-cli's per-game lines, for scripts that follow a match as it runs.
fn progress_lines(
    out: &mut impl Write,
    record: &MatchGame,
    standings: &Standings,
    encounter: usize,
) -> std::io::Result<()> {
    let tally = &standings.encounters[encounter];
    let s = tally.score;
    writeln!(
        out,
        "Finished game {} ({} vs {}): {} {{{}}}",
        record.round,
        record.white,
        record.black,
        record.record.outcome.pgn(),
        record.describe()
    )?;
    writeln!(
        out,
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        standings.names[tally.engines.0],
        standings.names[tally.engines.1],
        s.wins,
        s.losses,
        s.draws,
        s.ratio(),
        s.games()
    )?;
    out.flush()
}

/// The score so far in a few words, for a progress bar.
fn score_words(standings: &Standings) -> String {
    if standings.encounters.len() == 1 {
        let s = standings.encounters[0].score;
        let first = &standings.names[standings.encounters[0].engines.0];
        return format!("{first} {}-{}-{} (W-L-D)", s.wins, s.losses, s.draws);
    }
    let leader = standings.ranking()[0];
    let s = standings.engine_score(leader);
    format!(
        "leader {} {}/{}",
        standings.names[leader],
        s.points(),
        s.games()
    )
}

/// (median, 99th percentile) of `micros`, nearest rank.
fn percentiles(micros: &mut [u64]) -> Option<(Duration, Duration)> {
    micros.sort_unstable();
    let rank = |p: f64| {
        let sample = micros.iter().map(|&m| (m, 1));
        crate::stats::nearest_rank(p, micros.len() as u64, sample).map(Duration::from_micros)
    };
    Some((rank(50.0)?, rank(99.0)?))
}
