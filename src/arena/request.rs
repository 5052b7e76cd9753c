//! A `shannon match` request and its resolution against engines.toml: the engines, the
//! [`Schedule`], the time control, openings and books, the output files (a shard's named after
//! it), and the [`MatchPlan`] that plays it. A state file keeps the resolved request, so a
//! resumed run resolves it to the same schedule, openings and seeds.

use super::adjudication::{Adjudication, DrawRule, ResignRule};
use super::openings::load_openings_spec;
use super::runner::MatchPlan;
use super::schedule::{Schedule, TournamentKind};
use super::time_control::TimeControl;
use super::ArenaError;
use crate::client::{Config, ConfigError, EngineConfig};
use crate::notation::polyglot::Book;
use crate::stats::Sprt;
use crate::types::splitmix::mix;
use crate::types::Shard;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// What `shannon match` was asked (command-line values override the file's `[match]` table).
/// A state file keeps it, resolved (seed, engines, games, config file filled in), so a resumed
/// run rebuilds the same schedule.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct MatchRequest {
    /// engines.toml (the current directory's, else the built-in one).
    pub config: Option<PathBuf>,
    /// `A,B` or `A,B,C,...`.
    pub engines: Option<String>,
    /// Who meets whom when there are more than two engines (default: round robin).
    pub tournament: Option<TournamentKind>,
    /// Rounds: every encounter plays its games once per round (default 1).
    pub rounds: Option<u32>,
    /// Games per encounter per round (two engines, one round: the games of the match).
    pub games: Option<u32>,
    /// Games at once.
    pub concurrency: Option<usize>,
    /// Time control.
    pub tc: Option<String>,
    /// Openings.
    pub openings: Option<String>,
    /// Longest line from a Polyglot book, in plies.
    pub book_depth: Option<u32>,
    /// PGN output path (`-` or empty for none).
    pub pgn: Option<String>,
    /// Schedule seed.
    pub seed: Option<u64>,
    /// `elo0,elo1,alpha,beta`.
    pub sprt: Option<String>,
    /// Draw after this many plies.
    pub max_plies: Option<u32>,
    /// `--maxmoves N`: draw after N moves of each side (2N plies; wins over `max_plies`).
    pub max_moves: Option<u32>,
    /// `--draw movenumber=N movecount=M score=S`.
    pub draw: Option<DrawRule>,
    /// `--resign movecount=M score=S [twosided=true]`.
    pub resign: Option<ResignRule>,
    /// `--pgn-min`: tags and moves only (no move comments, no termination comment).
    pub pgn_min: bool,
    /// `--epd FILE`: each game's final position, one EPD line per game.
    pub epd: Option<PathBuf>,
    /// `--state FILE`: where the state goes after every game (default: beside the PGN, with
    /// `.state.json` added to its name; none when there is no PGN).
    pub state: Option<PathBuf>,
    /// `--shard I/N`: play only this slice of the schedule (whole game pairs).
    pub shard: Option<Shard>,
    /// Print cutechess-cli's `Finished game ...` and `Score of A vs B: W - L - D  [r] N` lines
    /// after every game.
    #[serde(skip)]
    pub progress_lines: bool,
    /// Raised (the command line does it on Ctrl-C or SIGTERM) to end the match early: running
    /// games end unfinished, the engines are stopped and the table covers the finished games.
    #[serde(skip)]
    pub interrupt: Option<Arc<AtomicBool>>,
}

/// The engines a match or tournament plays.
fn pick_engines(config: &Config, names: Option<&str>) -> Result<Vec<EngineConfig>, ArenaError> {
    let names: Vec<String> = match names {
        Some(list) => list.split(',').map(|n| n.trim().to_string()).collect(),
        None if !config.match_defaults.engines.is_empty() => config.match_defaults.engines.clone(),
        None => config
            .engines
            .iter()
            .take(2)
            .map(|e| e.name.clone())
            .collect(),
    };
    if names.len() < 2 {
        return Err(ConfigError::NotEnoughEngines(names.len()).into());
    }
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(ArenaError::Setting(format!(
                "--engines names {name} twice: a tournament's engines are distinct (add a second \
                 [[engine]] table with another name to play an engine against itself)"
            )));
        }
    }
    let engines = names
        .iter()
        .map(|name| config.engine(name).cloned())
        .collect::<Result<Vec<_>, _>>()?;
    for engine in &engines {
        engine.resolve_command()?;
    }
    Ok(engines)
}

/// The engine's own book and depth, loaded, when engines.toml gives it one.
fn engine_book(engine: &EngineConfig) -> Result<Option<(Arc<Book>, u32)>, ArenaError> {
    let Some(path) = &engine.book else {
        return Ok(None);
    };
    let book = Book::open(path).map_err(|e| {
        ArenaError::Openings(format!(
            "engine {}: book {}: {e}",
            engine.name,
            path.display()
        ))
    })?;
    Ok(Some((Arc::new(book), engine.book_depth.unwrap_or(8))))
}

/// A request resolved against engines.toml: everything a run needs.
pub(super) struct Prepared {
    /// The request with every default filled in (what a state keeps).
    pub(super) request: MatchRequest,
    pub(super) plan: MatchPlan,
    pub(super) sprt: Option<Sprt>,
    pub(super) shard: Shard,
    /// The shard's games, in the order they are played.
    pub(super) todo: Vec<u32>,
    pub(super) pgn: Option<PathBuf>,
    pub(super) epd: Option<PathBuf>,
    pub(super) state: Option<PathBuf>,
    pub(super) header: String,
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

pub(super) fn prepare(config: &Config, request: &MatchRequest) -> Result<Prepared, ArenaError> {
    let defaults = &config.match_defaults;
    let engines = pick_engines(config, request.engines.as_deref())?;
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    let kind = request.tournament.unwrap_or_default();
    let rounds = request.rounds.unwrap_or(1);
    let tournament = engines.len() > 2 || request.tournament.is_some();
    let games = request
        .games
        .unwrap_or(if tournament { 2 } else { defaults.games });
    if games == 0 {
        return Err(ArenaError::Setting(
            "the number of games (--games, or games in [match]) must be at least 1".into(),
        ));
    }
    let schedule = Schedule::new(kind, engines.len(), rounds, games)?;
    let tc_text = request.tc.clone().unwrap_or_else(|| defaults.tc.clone());
    let time_control: TimeControl =
        tc_text
            .parse()
            .map_err(|e: crate::arena::time_control::TimeControlError| {
                ArenaError::Setting(e.to_string())
            })?;
    let shard = request.shard.unwrap_or(Shard::WHOLE);
    let sprt =
        match &request.sprt {
            Some(_) if schedule.encounters.len() > 1 => {
                return Err(ArenaError::Setting(
                    "--sprt tests one engine against another: it needs exactly two engines".into(),
                ))
            }
            Some(_) if shard.is_partial() => return Err(ArenaError::Setting(
                "--sprt cannot run on shards: the test is sequential (it stops at the first game \
                 that decides it), and shards play in parallel without seeing each other's \
                 results. Run an SPRT in one process, or shard a fixed number of games"
                    .into(),
            )),
            Some(text) => Some(
                text.parse::<Sprt>()
                    .map_err(|e| ArenaError::Setting(format!("--sprt {e}")))?,
            ),
            None => None,
        };
    let concurrency = match request.concurrency.unwrap_or(defaults.concurrency) {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    let seed = request
        .seed
        .or(defaults.seed)
        .unwrap_or_else(|| rand::random::<u32>().into());
    let openings_spec = request
        .openings
        .clone()
        .unwrap_or_else(|| defaults.openings.clone());
    let book_depth = request.book_depth.unwrap_or(defaults.book_depth);
    let openings = load_openings_spec(
        &openings_spec,
        schedule.openings_needed(),
        mix(seed),
        book_depth,
    )
    .map_err(|e| ArenaError::Openings(e.to_string()))?;
    let pgn_text = request.pgn.clone().unwrap_or_else(|| defaults.pgn.clone());
    let pgn = match pgn_text.as_str() {
        "" | "-" => None,
        path => Some(shard_file(Path::new(path), shard)),
    };
    let epd = request.epd.as_deref().map(|path| shard_file(path, shard));
    let state = request
        .state
        .as_deref()
        .map(|path| shard_file(path, shard))
        .or_else(|| {
            pgn.as_ref().map(|pgn| {
                let mut name = pgn.as_os_str().to_owned();
                name.push(".state.json");
                PathBuf::from(name)
            })
        });
    let todo = schedule.games_of(shard);
    let mut books = Vec::new();
    for engine in &engines {
        books.push(engine_book(engine)?);
    }
    let header = if engines.len() > 2 {
        format!(
            "Tournament ({kind}) of {}: {rounds} round(s), {} games per encounter, {} games, tc \
             {tc_text}, openings {openings_spec}, concurrency {}, seed {seed}",
            names.join(", "),
            schedule.games_per_encounter,
            schedule.len(),
            concurrency.min(todo.len().max(1))
        )
    } else {
        format!(
            "Match {} vs {}: {} games, tc {tc_text}, openings {openings_spec}, concurrency {}, seed {seed}",
            names[0],
            names[1],
            schedule.len(),
            concurrency.min(todo.len().max(1))
        )
    };
    let mut resolved = request.clone();
    resolved.engines = Some(names.join(","));
    resolved.tournament = Some(kind);
    resolved.rounds = Some(rounds);
    resolved.games = Some(schedule.games_per_encounter);
    resolved.tc = Some(tc_text);
    resolved.openings = Some(openings_spec);
    resolved.book_depth = Some(book_depth);
    resolved.pgn = Some(pgn_text);
    resolved.seed = Some(seed);
    resolved.shard = Some(shard);
    resolved.config = Config::resolve_path(request.config.as_deref());
    let plan = MatchPlan {
        engines,
        schedule,
        concurrency: concurrency.min(todo.len()).max(1),
        time_control,
        openings,
        seed,
        max_plies: match request.max_moves {
            Some(moves) => moves.saturating_mul(2),
            None => request.max_plies.unwrap_or(defaults.max_plies),
        },
        adjudication: Adjudication {
            draw: request.draw,
            resign: request.resign,
        },
        books,
        time_margin: Duration::from_millis(defaults.time_margin_ms),
        hang_timeout: Duration::from_millis(defaults.hang_timeout_ms),
        interrupt: request
            .interrupt
            .clone()
            .unwrap_or_else(|| Arc::new(AtomicBool::new(false))),
    };
    resolved.max_plies = Some(plan.max_plies);
    resolved.max_moves = None;
    Ok(Prepared {
        request: resolved,
        plan,
        sprt,
        shard,
        todo,
        pgn,
        epd,
        state,
        header,
    })
}
