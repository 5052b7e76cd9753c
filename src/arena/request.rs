//! What a match is asked to play, typed, and its resolution against the engines file.
//!
//! The command line fills a [`MatchRequest`] (each field overrides the file's `[match]` table);
//! [`settle`] makes every choice that is left (defaults, the seed, games rounded to pairs) and
//! returns the [`MatchSettings`] a state file keeps (`prepare` then turns them into the plan
//! that plays them).

use super::adjudication::{DrawRule, ResignRule};
use super::dialect::Dialect;
use super::error::{ArenaError, SettingError};
use super::openings::Openings;
use super::schedule::{Layout, Schedule, TournamentKind};
use super::tablebase::TablebaseRule;
use crate::client::MatchConfig;
use crate::client::TimeControl;
use crate::client::{Config, Echo, EngineConfig};
use crate::jobs::shard::Shard;
use crate::notation::pgn::MoveNotation;
use crate::stats::Sprt;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What a new run does with a file it would write that already holds something.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Existing {
    /// Refuse to start, naming the file and what it holds (a PGN left to the engines file's
    /// default takes the next free name instead).
    #[default]
    Refuse,
    /// Replace it (and, for a PGN, its state and its forensics files).
    Overwrite,
    /// Append the run's games after what it holds, as cutechess-cli and fastchess do.
    Append,
}

/// The games of a match with an SPRT and no `--games` or `--rounds`: it plays until the test
/// decides, or this many games (fishtest's runs of the cheapest patches decide within about 50,000
/// games; a test not decided by then is stopped, and says so).
pub const SPRT_MAX_GAMES: u32 = 100_000;

/// What `shannon match` was asked; `None` leaves the choice to the engines file's `[match]`
/// table (or its default).
#[derive(Debug, Clone, Default)]
pub struct MatchRequest {
    /// The engines file (the current directory's `engines.toml`, else the built-in one).
    pub config: Option<PathBuf>,
    /// The engines, by name: two for a match, more for a tournament.
    pub engines: Option<Vec<String>>,
    /// Who meets whom (default: round robin).
    pub tournament: Option<TournamentKind>,
    /// Rounds: every encounter plays its games once per round (default 1).
    pub rounds: Option<u32>,
    /// Games per encounter per round.
    pub games: Option<u32>,
    /// How the games take their openings and colours (cutechess-cli's and fastchess's
    /// `-noswap`, fastchess's `-games 1`); Shannon's pairs by default.
    pub layout: Layout,
    /// Games at once (0: one per core).
    pub concurrency: Option<usize>,
    /// The time control.
    pub time_control: Option<TimeControl>,
    /// Engines that play under their own limits, by name (time odds): these override the
    /// engines file's `tc` and `time_margin_ms` of the engine, which override the match's.
    pub engine_limits: BTreeMap<String, EngineLimits>,
    /// The openings.
    pub openings: Option<Openings>,
    /// The longest line drawn from a Polyglot book, in plies.
    pub book_depth: Option<u32>,
    /// Where the games go: `Some(None)` for nowhere.
    pub pgn: Option<Option<PathBuf>>,
    /// The seed of the schedule's openings and of the engines' per-game seeds.
    pub seed: Option<u64>,
    /// Stop early by a sequential test.
    pub sprt: Option<Sprt>,
    /// Adjudicate a draw after this many plies (0: never).
    pub max_plies: Option<u32>,
    /// Adjudicate a draw from low scores.
    pub draw: Option<DrawRule>,
    /// Adjudicate a loss from a bad score.
    pub resign: Option<ResignRule>,
    /// Adjudicate by the Syzygy tables.
    pub tablebase: Option<TablebaseRule>,
    /// The tool whose command-line form this is, whose conventions the run follows (`None`:
    /// Shannon's own).
    pub dialect: Option<Dialect>,
    /// Write the Seven Tag Roster and the moves only.
    pub pgn_min: bool,
    /// Also write each game's final position, one EPD line per game.
    pub epd: Option<PathBuf>,
    /// Where the state goes (default: beside the PGN, `.state.json` added; none without one).
    pub state: Option<PathBuf>,
    /// The slice of the schedule this run plays.
    pub shard: Shard,
    /// The engines themselves, when the command line gives them (cutechess-cli's and
    /// fastchess's `-engine cmd=...`): no engines file is consulted for them, `engines` is left
    /// `None`, and a resumed run finds them in the state. Empty: `engines` names them in the file.
    pub engine_configs: Vec<EngineConfig>,
    /// How far past its clock an engine may answer, in milliseconds (default: the engines file's
    /// `time_margin_ms`).
    pub time_margin_ms: Option<u64>,
    /// The PGN's `Event` tag (default "shannon match").
    pub event: Option<String>,
    /// The PGN's `Site` tag (default "shannon").
    pub site: Option<String>,
    /// Raised (on Ctrl-C or SIGTERM) to end the match early: running games end unfinished, the
    /// engines are stopped and the report covers the finished games.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// What the run does when its PGN, its state or the PGN's forensics folder already hold
    /// something (default: refuse, naming them; a PGN left to the engines file's default takes
    /// a free name instead).
    pub existing: Existing,
    /// The same for its EPD file.
    pub existing_epd: Existing,
    /// Whether a crash or a stall is played on from (default), or stops the run after its game
    /// (cutechess-cli and fastchess without `-recover`).
    pub recover: Option<bool>,
    /// Ping each engine (`isready`) before and after each of its moves, waiting this many
    /// milliseconds for `readyok` (fastchess's `-ping-ms`): no answer in time is a stall.
    pub ping_ms: Option<u64>,
    /// Tell the CRC-32 of the whole PGN file after every game written (fastchess's `-crc32
    /// pgn=true`): [`super::GameFinished::pgn_crc32`].
    pub pgn_crc32: bool,
    /// How the PGN notes the moves (fastchess's `-pgnout notation=`; SAN by default).
    pub pgn_notation: MoveNotation,
    /// Milliseconds a worker waits before each game after its first (cutechess-cli's and
    /// fastchess's `-wait N`).
    pub wait_ms: u64,
    /// Where every line of the engines' exchange is copied as it goes (cutechess-cli's
    /// `-debug`, fastchess's `-log engine=true`), when somewhere.
    pub echo: Option<Arc<dyn Echo>>,
    /// Games another program played before this run (fastchess's `-config file=`: the results
    /// its `config.json` holds): the schedule's first games, counted and not played again.
    pub carried: Option<Carried>,
}

/// The games a run continues from when another program played them (fastchess, whose
/// `config.json` keeps only counts): the schedule's first [`Carried::games`] games are taken as
/// done and their results, per encounter, start the standings; the run plays the rest. Only a
/// run of whole pairs can take them (fastchess starts a resumed run at the pair after the last
/// complete one, so a half-played pair has no place in the schedule), on the whole schedule
/// (not a shard).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Carried {
    /// Games played.
    pub games: u32,
    /// Their results, per pair of engines.
    pub encounters: Vec<CarriedEncounter>,
}

/// One pair of engines' results in [`Carried`], from the first engine's side.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CarriedEncounter {
    /// The first engine's name.
    pub first: String,
    /// The second's.
    pub second: String,
    /// The first engine's wins, draws and losses.
    pub score: crate::stats::Score,
    /// The complete pairs, by the first engine's score.
    pub pairs: crate::stats::Pentanomial,
}

/// A request with every choice made: what a state file keeps, by field name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchSettings {
    /// The engines file, as found when the match started (`None`: the built-in one).
    pub config: Option<PathBuf>,
    /// The engines, in the tournament's order.
    pub engines: Vec<String>,
    /// Who meets whom.
    pub tournament: TournamentKind,
    /// Rounds.
    pub rounds: u32,
    /// Games per encounter per round (even: whole pairs, unless single games).
    pub games: u32,
    /// How the games take their openings and colours (absent: Shannon's pairs).
    #[serde(default, skip_serializing_if = "Layout::is_default")]
    pub layout: Layout,
    /// Games at once as asked (`None`: the engines file's choice at each run).
    pub concurrency: Option<usize>,
    /// The time control.
    pub time_control: TimeControl,
    /// Engines that play under their own limits, by name (absent: every engine plays under the
    /// match's).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub engine_limits: BTreeMap<String, EngineLimits>,
    /// The openings.
    pub openings: Openings,
    /// The longest book line, in plies.
    pub book_depth: u32,
    /// The PGN file, before a shard's name is put in it.
    pub pgn: Option<PathBuf>,
    /// The seed.
    pub seed: u64,
    /// The sequential test, if any.
    pub sprt: Option<Sprt>,
    /// The ply limit (0: none).
    pub max_plies: u32,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Tablebase adjudication (absent from older states: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<TablebaseRule>,
    /// The tool whose conventions the run follows (bound scores, the `TimeControl` tag);
    /// `None`, and absent from older states: Shannon's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialect: Option<Dialect>,
    /// Tags and moves only.
    pub pgn_min: bool,
    /// The EPD file, before a shard's name is put in it.
    pub epd: Option<PathBuf>,
    /// The state file as asked, before a shard's name is put in it.
    pub state: Option<PathBuf>,
    /// This run's slice of the schedule.
    pub shard: Shard,
    /// The engines, when the command line gave them rather than names in the engines file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub engine_configs: Vec<EngineConfig>,
    /// The allowed overrun of a clock, in milliseconds, when asked (else the engines file's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_margin_ms: Option<u64>,
    /// The PGN's `Event` tag, when asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The PGN's `Site` tag, when asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// False when a crash or a stall stops the run after its game (no `-recover`); runs saved
    /// before this field played on.
    #[serde(default = "plays_on", skip_serializing_if = "is_true")]
    pub recover: bool,
    /// The `isready` ping's timeout before and after every move, in milliseconds, when asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ping_ms: Option<u64>,
    /// How the PGN notes the moves (absent: SAN).
    #[serde(default, skip_serializing_if = "MoveNotation::is_san")]
    pub pgn_notation: MoveNotation,
    /// The wait before each game after a worker's first, in milliseconds (absent: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wait_ms: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// One engine's own limits, where they differ from the match's (time odds). Saved by field name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineLimits {
    /// Its time control (`None`: the match's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// How far past its clock it may answer, in milliseconds (`None`: the match's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_margin_ms: Option<u64>,
}

impl EngineLimits {
    /// True when it sets nothing.
    pub fn is_empty(&self) -> bool {
        *self == EngineLimits::default()
    }

    /// `self`, its gaps filled from `other`.
    fn or(self, other: EngineLimits) -> EngineLimits {
        EngineLimits {
            time_control: self.time_control.or(other.time_control),
            time_margin_ms: self.time_margin_ms.or(other.time_margin_ms),
        }
    }
}

fn plays_on() -> bool {
    true
}

fn is_true(value: &bool) -> bool {
    *value
}

impl MatchSettings {
    /// True when `other` is a shard of the same run: everything but the per-shard choices
    /// (shard, files, concurrency, what a failure does) is equal.
    pub fn same_run(&self, other: &MatchSettings) -> bool {
        let run = |s: &MatchSettings| MatchSettings {
            shard: Shard::WHOLE,
            pgn: None,
            epd: None,
            state: None,
            concurrency: None,
            recover: true,
            ping_ms: None,
            wait_ms: 0,
            ..s.clone()
        };
        run(self) == run(other)
    }

    /// The time control engine `name` plays under: its own, else the match's.
    pub fn time_control_of(&self, name: &str) -> TimeControl {
        self.engine_limits
            .get(name)
            .and_then(|limits| limits.time_control)
            .unwrap_or(self.time_control)
    }

    /// The schedule.
    pub fn schedule(&self) -> Result<Schedule, ArenaError> {
        Schedule::laid_out(
            self.tournament,
            self.engines.len(),
            self.rounds,
            self.games,
            self.layout,
        )
    }
}

/// The engines file's `[match]` table, typed: its text is read here, once.
struct MatchDefaults {
    engines: Vec<String>,
    games: u32,
    time_control: TimeControl,
    openings: Openings,
    book_depth: u32,
    pgn: Option<PathBuf>,
    seed: Option<u64>,
    max_plies: u32,
}

impl MatchDefaults {
    fn of(table: &MatchConfig) -> Result<MatchDefaults, SettingError> {
        let bad = |key: &'static str, why: String| SettingError::Defaults { key, why };
        Ok(MatchDefaults {
            engines: table.engines.clone(),
            games: table.games,
            time_control: table.tc.parse().map_err(|e| bad("tc", format!("{e}")))?,
            openings: table
                .openings
                .parse()
                .map_err(|e| bad("openings", format!("{e}")))?,
            book_depth: table.book_depth,
            pgn: match table.pgn.as_str() {
                "" | "-" => None,
                path => Some(PathBuf::from(path)),
            },
            seed: table.seed,
            max_plies: table.max_plies,
        })
    }
}

/// Every choice of `request` made: the file's `[match]` table for what it leaves open, a drawn
/// seed when neither gives one.
pub fn settle(config: &Config, request: &MatchRequest) -> Result<MatchSettings, ArenaError> {
    let defaults = MatchDefaults::of(&config.match_defaults)?;
    let engines = match &request.engines {
        _ if !request.engine_configs.is_empty() => request
            .engine_configs
            .iter()
            .map(|e| e.name.clone())
            .collect(),
        Some(names) => names.clone(),
        None if !defaults.engines.is_empty() => defaults.engines.clone(),
        None => config
            .engines
            .iter()
            .take(2)
            .map(|e| e.name.clone())
            .collect(),
    };
    let names = engines.clone();
    let tournament = engines.len() > 2 || request.tournament.is_some();
    // A match with an SPRT plays until its test decides unless the command line says how many
    // games: the engines file's `games` is for matches without one.
    let games = match (request.games, request.rounds) {
        (Some(games), _) => games,
        (None, _) if tournament => 2,
        (None, None) if request.sprt.is_some() => SPRT_MAX_GAMES,
        (None, _) => defaults.games,
    };
    if games == 0 {
        return Err(SettingError::NoGames.into());
    }
    let settings = MatchSettings {
        // Engines given directly need no file: the one asked for, else the built-in one.
        config: match request.engine_configs.is_empty() {
            true => Config::resolve_path(request.config.as_deref()),
            false => request.config.clone(),
        },
        engines,
        tournament: request.tournament.unwrap_or_default(),
        rounds: request.rounds.unwrap_or(1),
        // Rounded up to whole pairs, as the schedule plays them (single games are not paired).
        games: match request.layout.single_games {
            true => games,
            false => games + games % 2,
        },
        layout: request.layout,
        concurrency: request.concurrency,
        time_control: request.time_control.unwrap_or(defaults.time_control),
        engine_limits: engine_limits(config, request, &names)?,
        openings: request.openings.clone().unwrap_or(defaults.openings),
        book_depth: request.book_depth.unwrap_or(defaults.book_depth),
        pgn: request.pgn.clone().unwrap_or(defaults.pgn),
        seed: request
            .seed
            .or(defaults.seed)
            .unwrap_or_else(|| rand::random::<u32>().into()),
        sprt: request.sprt,
        max_plies: request.max_plies.unwrap_or(defaults.max_plies),
        draw: request.draw,
        resign: request.resign,
        tablebase: request.tablebase.clone(),
        dialect: request.dialect,
        pgn_min: request.pgn_min,
        epd: request.epd.clone(),
        state: request.state.clone(),
        shard: request.shard,
        engine_configs: request.engine_configs.clone(),
        time_margin_ms: request.time_margin_ms,
        event: request.event.clone(),
        site: request.site.clone(),
        recover: request.recover.unwrap_or(true),
        ping_ms: request.ping_ms,
        pgn_notation: request.pgn_notation,
        wait_ms: request.wait_ms,
    };
    check(&settings)?;
    Ok(settings)
}

/// Each engine's own limits: the command line's, else the engines file's (`tc` and
/// `time_margin_ms` in its `[[engine]]` table), for the engines of the match; a name the match
/// does not play is refused.
pub(super) fn engine_limits(
    config: &Config,
    request: &MatchRequest,
    engines: &[String],
) -> Result<BTreeMap<String, EngineLimits>, ArenaError> {
    if let Some(name) = request
        .engine_limits
        .keys()
        .find(|name| !engines.contains(name))
    {
        return Err(SettingError::LimitsOfAnotherEngine {
            name: name.clone(),
            engines: engines.to_vec(),
        }
        .into());
    }
    let mut limits = BTreeMap::new();
    for name in engines {
        let asked = request.engine_limits.get(name).copied().unwrap_or_default();
        let filed = match request.engine_configs.is_empty() {
            true => config
                .engine(name)
                .ok()
                .map_or_else(EngineLimits::default, |e| EngineLimits {
                    time_control: e.tc,
                    time_margin_ms: e.time_margin_ms,
                }),
            false => EngineLimits::default(),
        };
        let own = asked.or(filed);
        if !own.is_empty() {
            limits.insert(name.clone(), own);
        }
    }
    Ok(limits)
}

/// What no schedule can play: an engine twice, an SPRT of more than two engines or on shards.
pub(super) fn check(settings: &MatchSettings) -> Result<(), ArenaError> {
    let names = &settings.engines;
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(SettingError::EngineTwice(name.clone()).into());
        }
    }
    if settings.sprt.is_some() {
        if names.len() > 2 {
            return Err(SettingError::SprtNeedsTwoEngines.into());
        }
        if settings.shard.is_partial() {
            return Err(SettingError::SprtOnShards.into());
        }
    }
    if settings.tournament == TournamentKind::Knockout {
        if settings.sprt.is_some() {
            return Err(SettingError::KnockoutSprt.into());
        }
        if settings.shard.is_partial() {
            return Err(SettingError::KnockoutOnShards.into());
        }
    }
    Ok(())
}
