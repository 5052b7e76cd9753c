//! What a match tells, as data: [`MatchStart`] before the first game, every finished game with
//! the standings so far, and the [`MatchReport`] at the end (a merge of shards makes one too).
//! The library renders nothing: a [`MatchObserver`] hears each of these, and the command line's
//! renderers (text tables, cutechess-cli's progress lines, JSON, the HTML page) turn them into
//! output.

use super::error::RecordError;
use super::files::FileNote;
use super::match_game::MatchGame;
use super::openings::Openings;
use super::request::MatchSettings;
use super::schedule::{Layout, Schedule, TournamentKind};
use super::sprt_run::SprtStatus;
use super::standings::Standings;
use super::stop::RunStop;
use crate::client::TimeControl;
use crate::client::{OptionProblem, OptionSetting};
use crate::jobs::shard::Shard;
use crate::stats::{Sprt, SprtModel, SprtVerdict};
use serde::Serialize;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

/// The games of the schedule a shard plays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShardSpan {
    /// The shard.
    #[serde(serialize_with = "as_text")]
    pub shard: Shard,
    /// Its first game (1-based number in the schedule).
    pub first: u32,
    /// Its last game.
    pub last: u32,
    /// Games in the whole schedule.
    pub of: u32,
}

/// A resumed run: its state file and how far it had come.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resumed {
    /// The state file.
    pub state: PathBuf,
    /// Games done before this run.
    pub done: usize,
    /// Games of the shard.
    pub of: usize,
}

/// What a run is about to play.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchStart {
    /// The engines, in the tournament's order.
    pub names: Vec<String>,
    /// Who meets whom, for more than two engines (`None`: a match).
    pub tournament: Option<TournamentKind>,
    /// Rounds.
    pub rounds: u32,
    /// Games of each encounter per round.
    pub games_per_encounter: u32,
    /// How the games take their openings and colours (absent: Shannon's pairs).
    #[serde(skip_serializing_if = "Layout::is_default")]
    pub layout: Layout,
    /// Games in the schedule.
    pub games: u32,
    /// The time control.
    pub time_control: TimeControl,
    /// Each engine's, in the tournament's order: the match's, unless it has its own.
    pub time_controls: Vec<TimeControl>,
    /// The openings.
    #[serde(serialize_with = "as_text")]
    pub openings: Openings,
    /// Games at once.
    pub concurrency: usize,
    /// The seed.
    pub seed: u64,
    /// The shard's games, when the run is one shard of several.
    pub shard: Option<ShardSpan>,
    /// Set when the run continues a saved state.
    pub resumed: Option<Resumed>,
    /// Engines whose engines file sets `Seed` (name, value): they keep it in every game.
    pub configured_seeds: Vec<(String, String)>,
    /// The SPRT's decision, when a resumed run's test had decided before it (nothing is played
    /// then).
    pub decided_before: Option<SprtStatus>,
    /// The sequential test that can stop the run, when one runs (the report's JSON has it in
    /// its `sprt`).
    #[serde(skip)]
    pub sprt: Option<crate::stats::Sprt>,
    /// The options each engine's configuration sets, as `setoption` values (name, value), in
    /// the order of `names` (fastchess's output shows each engine's Threads and Hash).
    #[serde(skip)]
    pub engine_options: Vec<Vec<(String, String)>>,
    /// What the run did with files that held something when it started.
    #[serde(skip)]
    pub notes: Vec<FileNote>,
    /// Games another program played before this run, counted in its standings
    /// ([`super::Carried`]: fastchess's `-config file=`).
    #[serde(skip)]
    pub carried: u32,
}

impl MatchStart {
    /// What a run of `settings` over `schedule` tells before its first game, from the settings
    /// alone: the whole schedule, no shard, nothing resumed or carried, no engine started. A
    /// run fills in what its shard and its engines add ([`super::prepare`]); a merge takes it
    /// as it is.
    pub(super) fn of(settings: &MatchSettings, schedule: &Schedule) -> MatchStart {
        MatchStart {
            names: settings.engines.clone(),
            tournament: (settings.engines.len() > 2
                || settings.tournament == TournamentKind::Knockout)
                .then_some(settings.tournament),
            rounds: settings.rounds,
            games_per_encounter: schedule.games_per_encounter,
            layout: schedule.layout,
            games: schedule.len(),
            time_control: settings.time_control,
            time_controls: settings
                .engines
                .iter()
                .map(|name| settings.time_control_of(name))
                .collect(),
            openings: settings.openings.clone(),
            concurrency: settings.concurrency.unwrap_or(0),
            seed: settings.seed,
            shard: None,
            resumed: None,
            carried: 0,
            configured_seeds: Vec::new(),
            decided_before: None,
            sprt: settings.sprt,
            engine_options: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// A finished game and where the match stands after it.
#[derive(Debug, Clone, Copy)]
pub struct GameFinished<'a> {
    /// The game.
    pub game: &'a MatchGame,
    /// Its encounter (an index into `standings.encounters`).
    pub encounter: usize,
    /// The standings with it.
    pub standings: &'a Standings,
    /// Games of the shard finished, this one included (over every run of a resumed state).
    pub finished: u32,
    /// Games of the shard.
    pub total: u32,
    /// Where the SPRT stands after it, when one runs (its decision once taken).
    pub sprt: Option<SprtStatus>,
    /// The CRC-32 (zlib's) of the whole PGN file with this game written, when the request asked
    /// for it ([`super::MatchRequest::pgn_crc32`]) and the writing has not failed.
    pub pgn_crc32: Option<u32>,
}

/// How a knockout ended.
#[derive(Debug, Clone, Serialize)]
pub struct KnockoutReport {
    /// Its bracket as cutechess-cli prints it (`KnockoutTournament::results()`).
    pub bracket: String,
    /// The winner, when the final was decided.
    pub winner: Option<String>,
}

/// A configured option an engine was started without, and why (cutechess-cli's and
/// fastchess's `doesn't have option` and `Invalid value for option` warnings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionWarning {
    /// The engine.
    pub engine: String,
    /// The option, and why it was not sent.
    pub problem: OptionProblem,
}

/// An engine started for a game: the options it declared and the values they hold then
/// (fastchess's `Results of` line shows its `Threads` and `Hash`).
#[derive(Debug, Clone, PartialEq)]
pub struct EngineOptions {
    /// The engine.
    pub engine: String,
    /// Its declared options and their values.
    pub settings: Vec<OptionSetting>,
}

/// A game about to start (its engines not yet started or made ready).
#[derive(Debug, Clone, Copy)]
pub struct GameStarted<'a> {
    /// Its number in the schedule, from 1 (as [`MatchGame::number`]).
    pub number: u32,
    /// Games in the schedule.
    pub total: u32,
    /// White's engine name.
    pub white: &'a str,
    /// Black's engine name.
    pub black: &'a str,
}

/// The SPRT at the end of a match: its decision with the LLR and the games it was taken on, or
/// where it stands when it has not decided. It is taken on the games in schedule order
/// (`games` is the schedule's first games), so the tables, which count every finished game,
/// may count more: the games running when it decided, or finished ahead of an earlier one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SprtReport {
    /// The test.
    pub sprt: Sprt,
    /// The counts its LLR came from.
    pub model: SprtModel,
    /// The log-likelihood ratio: where it decided, or its last.
    pub llr: f64,
    /// Its decision.
    pub verdict: SprtVerdict,
    /// The games the LLR was taken on: the first `games` of the schedule.
    pub games: u32,
    /// The LLR at each step of the test (games, LLR): after the first game, then after each
    /// complete pair in schedule order, thinned to a few thousand points.
    pub history: Vec<(u32, f64)>,
}

/// The runner's own time per engine move (the time it measured less the engine's own `info
/// time`), nearest rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Latency {
    /// The median.
    pub median: Duration,
    /// The 99th percentile.
    pub p99: Duration,
}

/// The state file at the end of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StateReport {
    /// Where it is.
    pub path: PathBuf,
    /// Games of the shard done.
    pub done: usize,
    /// Games of the shard.
    pub of: usize,
    /// True when nothing is left to play (every game done, or the SPRT decided).
    pub complete: bool,
}

/// Everything a finished (or interrupted) match, or a merge of shards, amounts to.
#[derive(Debug, Serialize)]
pub struct MatchReport {
    /// What it set out to play.
    pub start: MatchStart,
    /// The results of every finished game (of every run of a resumed state; of every shard of a
    /// merge).
    pub standings: Standings,
    /// Seconds of play (over every run of a resumed state; summed over a merge's shards).
    pub seconds: f64,
    /// The SPRT, if one ran.
    pub sprt: Option<SprtReport>,
    /// Set when the match was interrupted: how many running games ended unfinished.
    pub interrupted: Option<usize>,
    /// Set when a failure stopped the run before its schedule's end (an engine that could not
    /// start; a crash or a stall without `-recover`).
    pub stopped: Option<RunStop>,
    /// The write that failed and stopped the writing, if one did.
    #[serde(serialize_with = "as_text_opt")]
    pub record_error: Option<RecordError>,
    /// The PGN file.
    pub pgn: Option<PathBuf>,
    /// The EPD file.
    pub epd: Option<PathBuf>,
    /// The state file.
    pub state: Option<StateReport>,
    /// The runner's overhead per move, when the engines reported their search time.
    pub latency: Option<Latency>,
    /// The CRC-32 of the whole PGN file at the end, when asked for and the writing has not
    /// failed.
    #[serde(skip)]
    pub pgn_crc32: Option<u32>,
    /// A knockout's bracket, as it ended.
    pub knockout: Option<KnockoutReport>,
}

impl MatchReport {
    /// Games finished.
    pub fn games(&self) -> u32 {
        self.standings.games()
    }

    /// True when every game was recorded and the match was neither interrupted nor stopped.
    pub fn is_clean(&self) -> bool {
        self.record_error.is_none() && self.interrupted.is_none() && self.stopped.is_none()
    }
}

/// Hears what a run tells, as it happens. Each method may fail to write (its error ends the
/// run's telling, not its games).
pub trait MatchObserver {
    /// Before the first game.
    fn started(&mut self, _start: &MatchStart) -> io::Result<()> {
        Ok(())
    }

    /// When a game starts (cutechess-cli's and fastchess's `Started game N of M`).
    fn game_started(&mut self, _game: &GameStarted<'_>) -> io::Result<()> {
        Ok(())
    }

    /// After each finished game (not after those an interrupt ends).
    fn game_finished(&mut self, _game: &GameFinished<'_>) -> io::Result<()> {
        Ok(())
    }

    /// After each game an interrupt ended (result `*`, not counted), in the forms whose tool
    /// tells them ([`super::Dialect::tells_unfinished_games`]: cutechess-cli's).
    fn game_unfinished(&mut self, _game: &GameFinished<'_>) -> io::Result<()> {
        Ok(())
    }

    /// When an engine started for a game was not given one of its configured options (before
    /// that game's end).
    fn option_warning(&mut self, _warning: &OptionWarning) -> io::Result<()> {
        Ok(())
    }

    /// When an engine has started for a game, with its declared options and their values
    /// (before that game's end).
    fn engine_options(&mut self, _options: &EngineOptions) -> io::Result<()> {
        Ok(())
    }

    /// When a failure stops the run ([`RunStop`]): at once for an engine that could not start;
    /// before the game a crash or a stall stopped it at is told as finished (it counts).
    fn run_stopped(&mut self, _stop: &RunStop) -> io::Result<()> {
        Ok(())
    }

    /// At the end.
    fn finished(&mut self, _report: &MatchReport) -> io::Result<()> {
        Ok(())
    }
}

/// An observer that hears nothing.
impl MatchObserver for () {}

fn as_text<T: std::fmt::Display, S: serde::Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

fn as_text_opt<T: std::fmt::Display, S: serde::Serializer>(
    value: &Option<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(value) => s.collect_str(value),
        None => s.serialize_none(),
    }
}
