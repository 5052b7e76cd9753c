//! Settings made ready to play: [`prepare`] turns [`MatchSettings`] into the [`MatchPlan`] that
//! plays them, the shard's games, its files and what the run tells before its first game. A
//! resumed run prepares the saved settings again, so it plays the same schedule, openings and
//! seeds.

use super::adjudication::Adjudication;
use super::dialect::Dialect;
use super::error::{ArenaError, SettingError};
use super::knockout::{Knockout, KnockoutRules};
use super::openings::load_openings;
use super::report::{MatchStart, ShardSpan};
use super::request::MatchSettings;
use super::runner::{Limits, MatchPlan};
use super::schedule::TournamentKind;
use super::tablebase::{Probing, TablebaseJudge};
use crate::client::{Config, EngineConfig};
use crate::jobs::shard::Shard;
use crate::notation::polyglot::Book;
use crate::types::splitmix::mix;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Settings made ready to play: the plan, the shard's games in order, its files, and what the
/// run tells before its first game.
pub(super) struct Prepared {
    pub(super) settings: MatchSettings,
    pub(super) plan: MatchPlan,
    /// The shard's games (schedule indices), in the order they are played.
    pub(super) todo: Vec<u32>,
    pub(super) pgn: Option<PathBuf>,
    pub(super) epd: Option<PathBuf>,
    pub(super) state: Option<PathBuf>,
    pub(super) start: MatchStart,
    /// A knockout's driver, which hands out its games (`todo` is then empty).
    pub(super) knockout: Option<Knockout>,
}

impl Prepared {
    /// The run's games: the shard's, or those a knockout plays at least (more as its
    /// encounters go on, so never fewer than the `done` ones).
    pub(super) fn games(&self, done: usize) -> usize {
        match self.plan.schedule.kind {
            TournamentKind::Knockout => (self.start.games as usize).max(done),
            _ => self.todo.len(),
        }
    }
}

/// The file a shard writes for `path`: `games.pgn` becomes `games.shard-1-of-4.pgn`, so the
/// shards of one command line do not write over each other.
fn shard_file(path: &Path, shard: Shard) -> PathBuf {
    if !shard.is_partial() {
        return path.to_path_buf();
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let mut name = format!("{stem}.shard-{}-of-{}", shard.index, shard.count);
    if let Some(extension) = path.extension() {
        name.push('.');
        name.push_str(&extension.to_string_lossy());
    }
    path.with_file_name(name)
}

/// The state file of a run: `--state` (a shard's name put in), else beside the PGN.
fn state_file(settings: &MatchSettings, pgn: Option<&Path>) -> Option<PathBuf> {
    match &settings.state {
        Some(path) => Some(shard_file(path, settings.shard)),
        None => pgn.map(|pgn| {
            let mut name = pgn.as_os_str().to_owned();
            name.push(".state.json");
            PathBuf::from(name)
        }),
    }
}

/// The files a run of `settings` writes: its PGN, EPD and state (a shard's name put in).
pub(super) fn files_of(
    settings: &MatchSettings,
) -> (Option<PathBuf>, Option<PathBuf>, Option<PathBuf>) {
    let pgn = settings
        .pgn
        .as_deref()
        .map(|p| shard_file(p, settings.shard));
    let epd = settings
        .epd
        .as_deref()
        .map(|p| shard_file(p, settings.shard));
    let state = state_file(settings, pgn.as_deref());
    (pgn, epd, state)
}

/// The engines of `settings` (given directly, or found by name in the file, a name the file does
/// not have taken as a command as [`Config::runnable_engine`] takes it, keeping the name given),
/// each with its program found.
fn engines_of(config: &Config, settings: &MatchSettings) -> Result<Vec<EngineConfig>, ArenaError> {
    let names = &settings.engines;
    if names.len() < 2 {
        return Err(crate::client::ConfigError::NotEnoughEngines(names.len()).into());
    }
    let engines = match settings.engine_configs.is_empty() {
        true => names
            .iter()
            // A configured engine's program is looked for after every name is found (below),
            // so a name that is neither is reported first, as before.
            .map(|name| match config.engine(name) {
                Ok(engine) => Ok(engine.clone()),
                Err(_) => config
                    .runnable_engine(name)
                    .map(|(engine, _)| EngineConfig {
                        name: name.clone(),
                        ..engine
                    }),
            })
            .collect::<Result<Vec<_>, _>>()?,
        false => settings.engine_configs.clone(),
    };
    for engine in &engines {
        engine.resolve_command()?;
    }
    Ok(engines)
}

/// The engine's own book and depth, loaded, when the engines file gives it one.
fn engine_book(engine: &EngineConfig) -> Result<Option<(Arc<Book>, u32)>, ArenaError> {
    let Some(path) = &engine.book else {
        return Ok(None);
    };
    let book = Book::open(path).map_err(|error| ArenaError::Book {
        engine: engine.name.clone(),
        path: path.clone(),
        error,
    })?;
    Ok(Some((Arc::new(book), engine.book_depth.unwrap_or(8))))
}

/// Make `settings` ready to play with the engines of `config`; `interrupt` ends the run early.
pub(super) fn prepare(
    config: &Config,
    settings: MatchSettings,
    interrupt: Option<Arc<AtomicBool>>,
) -> Result<Prepared, ArenaError> {
    let defaults = &config.match_defaults;
    let engines = engines_of(config, &settings)?;
    let schedule = settings.schedule()?;
    let shard = settings.shard;
    let todo = schedule.games_of(shard);
    let knockout = match schedule.kind {
        TournamentKind::Knockout => Some(
            Knockout::new(KnockoutRules {
                players: engines.len(),
                seeds: schedule.layout.seeds.map_or(0, |s| s.count as usize),
                games: schedule.games_per_encounter,
                games_per_opening: schedule.layout.per_opening(),
                noswap: schedule.layout.noswap,
                reverse: schedule.layout.reverse,
                // cutechess-cli's `-srand` is 32 bits.
                seed: settings.seed as u32,
            })
            .map_err(SettingError::Knockout)?,
        ),
        _ => None,
    };
    // What a knockout plays at least, and so may play at once.
    let playable = knockout
        .as_ref()
        .map_or(todo.len(), |k| k.games_at_least() as usize);
    let concurrency = match settings.concurrency.unwrap_or(defaults.concurrency) {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    let mut openings = load_openings(
        &settings.openings,
        schedule.openings_needed(),
        mix(settings.seed),
        settings.book_depth,
    )?;
    if let Some(kept) = schedule.openings_kept() {
        openings.truncate(kept.max(1));
    }
    let books = engines
        .iter()
        .map(engine_book)
        .collect::<Result<Vec<_>, _>>()?;
    // The tables are opened (each file's name and header checked) before any game is played.
    let tablebase = match &settings.tablebase {
        Some(rule) => Some(
            TablebaseJudge::open(
                rule.clone(),
                Probing::of(settings.dialect),
                settings.dialect.is_none(),
            )
            .map_err(ArenaError::Tablebase)?,
        ),
        None => None,
    };
    let (pgn, epd, state) = files_of(&settings);
    let time_margin_ms = settings.time_margin_ms.unwrap_or(defaults.time_margin_ms);
    let limits: Vec<Limits> = engines
        .iter()
        .map(|engine| {
            let own = settings
                .engine_limits
                .get(&engine.name)
                .copied()
                .unwrap_or_default();
            Limits {
                time_control: settings.time_control_of(&engine.name),
                time_margin: Duration::from_millis(own.time_margin_ms.unwrap_or(time_margin_ms)),
            }
        })
        .collect();
    let start = MatchStart {
        games: knockout
            .as_ref()
            .map_or(schedule.len(), Knockout::games_at_least),
        time_controls: limits.iter().map(|l| l.time_control).collect(),
        concurrency: concurrency.min(playable.max(1)),
        shard: shard.is_partial().then(|| ShardSpan {
            shard,
            first: todo.first().map_or(0, |g| g + 1),
            last: todo.last().map_or(0, |g| g + 1),
            of: schedule.len(),
        }),
        configured_seeds: engines
            .iter()
            .filter_map(|e| e.configured_seed().map(|seed| (e.name.clone(), seed)))
            .collect(),
        engine_options: engines.iter().map(EngineConfig::option_values).collect(),
        ..MatchStart::of(&settings, &schedule)
    };
    let plan = MatchPlan {
        engines,
        schedule,
        concurrency: concurrency.min(playable).max(1),
        limits,
        openings,
        seed: settings.seed,
        max_plies: settings.max_plies,
        adjudication: Adjudication {
            draw: settings.draw,
            resign: settings.resign,
            bound_scores: Dialect::bound_scores(settings.dialect),
        },
        tablebase,
        books,
        go_order: Dialect::go_order(settings.dialect),
        hang_timeout: Duration::from_millis(defaults.hang_timeout_ms),
        dialect: settings.dialect,
        interrupt: interrupt.unwrap_or_else(|| Arc::new(AtomicBool::new(false))),
        recover: settings.recover,
        ping: settings.ping_ms.map(Duration::from_millis),
        wait: Duration::from_millis(settings.wait_ms),
        echo: None,
        halt: Arc::default(),
    };
    Ok(Prepared {
        settings,
        plan,
        todo,
        pgn,
        epd,
        state,
        start,
        knockout,
    })
}
