//! [`Read`]: everything the options of a cutechess-cli/fastchess command line said, before the
//! dialect is known. [`super::options`] and [`super::engine`] fill it, [`super::resolve`] makes
//! it a request; it lives in a file of its own so neither imports the other for it.

use super::engine::EngineArgs;
use super::schedule::{Plan, Policy};
use super::{Dialect, OutputChoice, OutputFormat, ResultFormat};
use shannon::arena::{DrawRule, Openings, ResignRule, TbResults, TournamentKind};
use shannon::stats::{EloModel, Sprt};
use std::path::PathBuf;

/// Everything the options said, before the dialect is known.
#[derive(Debug, Default)]
pub(super) struct Read {
    pub(super) engines: Vec<EngineArgs>,
    pub(super) each: Vec<String>,
    pub(super) tournament: Option<TournamentKind>,
    pub(super) rounds: Option<u32>,
    pub(super) games: Option<u32>,
    /// `-noswap`: the first engine White in every game.
    pub(super) noswap: bool,
    /// `-reverse`: every game's colours the other way round.
    pub(super) reverse: bool,
    /// `-seeds N`: a gauntlet's seeded players.
    pub(super) seeds: Option<u32>,
    /// `-wait N`: milliseconds between games.
    pub(super) wait_ms: u64,
    /// cutechess-cli's `-debug` (`Some(true)`: `-debug all`, the engines' debug mode too).
    pub(super) debug: Option<bool>,
    /// fastchess's `-log`.
    pub(super) log: Option<super::echo::LogSettings>,
    /// fastchess's `-pgnout ... notation=`.
    pub(super) pgn_notation: shannon::notation::pgn::MoveNotation,
    /// `-repeat [N]` (2 without a value).
    pub(super) repeat: Option<u32>,
    /// fastchess: `-repeat` sets the games, so the later of the two wins.
    pub(super) repeat_after_games: bool,
    pub(super) concurrency: Option<usize>,
    pub(super) openings: Option<Openings>,
    pub(super) format: Option<String>,
    pub(super) policy: Policy,
    pub(super) pgn: Option<PathBuf>,
    pub(super) pgn_min: bool,
    /// fastchess's `-pgnout ... append=`: false empties an existing file (both tools append).
    pub(super) pgn_append: bool,
    pub(super) epd: Option<PathBuf>,
    /// fastchess's `-epdout ... append=`.
    pub(super) epd_append: bool,
    pub(super) sprt: Option<Sprt>,
    /// fastchess's `-sprt model=`.
    pub(super) sprt_model: Option<EloModel>,
    pub(super) draw: Option<DrawRule>,
    pub(super) resign: Option<ResignRule>,
    pub(super) maxmoves: Option<u32>,
    /// `-tb`, `-tbpieces`, `-tbignore50`, `-tbadjudicate`.
    pub(super) tablebase: TablebaseRead,
    pub(super) seed: Option<u64>,
    pub(super) chess960: bool,
    pub(super) event: Option<String>,
    pub(super) site: Option<String>,
    pub(super) output: OutputChoiceRead,
    pub(super) dialect: Option<Dialect>,
    pub(super) cutechess_only: Option<String>,
    pub(super) fastchess_only: Option<String>,
    pub(super) init_timeout_ms: Option<u64>,
    /// `-recover`: play on after a crash or a stall (both tools stop without it).
    pub(super) recover: bool,
    /// fastchess's `-ping-ms`.
    pub(super) ping_ms: Option<u64>,
    /// fastchess's `-crc32 pgn=true`.
    pub(super) pgn_crc32: bool,
    pub(super) notes: Vec<String>,
}

/// The tablebase options as given.
#[derive(Debug, Default)]
pub(super) struct TablebaseRead {
    /// `-tb`: the folders.
    pub(super) paths: Option<Vec<PathBuf>>,
    /// `-tbpieces`.
    pub(super) pieces: Option<u32>,
    /// `-tbignore50`.
    pub(super) ignore_50: bool,
    /// fastchess's `-tbadjudicate`.
    pub(super) results: Option<TbResults>,
}

#[derive(Debug, Default)]
pub(super) struct OutputChoiceRead {
    pub(super) format: Option<OutputFormat>,
    pub(super) rating_interval: Option<u32>,
    pub(super) score_interval: Option<u32>,
    pub(super) outcome_interval: Option<u32>,
    /// fastchess's `-report penta=`.
    pub(super) penta: Option<bool>,
    /// cutechess-cli's `-resultformat`.
    pub(super) result_format: Option<ResultFormat>,
}

impl Read {
    /// What the run prints: `-output format=`, else the tool's own, and the intervals;
    /// fastchess's blocks show the pentanomial of game pairs unless `-report penta=false` or
    /// single games (fastchess turns it off unless `-games 2`).
    pub(super) fn output_choice(&self, dialect: Dialect, schedule: &Plan) -> OutputChoice {
        OutputChoice {
            penta: self.output.penta.unwrap_or(true) && !schedule.single,
            format: self.output.format.unwrap_or(match dialect {
                Dialect::Cutechess => OutputFormat::Cutechess,
                Dialect::Fastchess => OutputFormat::Fastchess,
            }),
            rating_interval: self.output.rating_interval,
            score_interval: self.output.score_interval,
            outcome_interval: self.output.outcome_interval,
            result_format: self.output.result_format.clone().unwrap_or_default(),
        }
    }

    /// Remember that `what` is only `dialect`'s.
    pub(super) fn only(&mut self, dialect: Dialect, what: impl Into<String>) {
        let slot = match dialect {
            Dialect::Cutechess => &mut self.cutechess_only,
            Dialect::Fastchess => &mut self.fastchess_only,
        };
        slot.get_or_insert_with(|| what.into());
    }

    pub(super) fn note(&mut self, option: &str, text: &str) {
        self.notes.push(format!("{option}: {text}"));
    }
}
