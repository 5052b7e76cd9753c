//! The arena: matches and tournaments between engines (driven by [`crate::client`]), with our
//! rules as the arbiter.
//!
//! - What a match is made of: [`crate::client::TimeControl`], [`Openings`] (Polyglot books, one source of
//!   openings, are [`crate::notation::polyglot`]), the [`Schedule`] (who plays whom, colours and
//!   openings, shards), adjudication ([`DrawRule`], [`ResignRule`]: ending games early from the
//!   engines' scores).
//! - The request ([`MatchRequest`], typed) settled into [`MatchSettings`] against the engines
//!   file; [`run_match`] and [`resume_match`] play it: the runner plays the games, the standings
//!   count them, the recorder writes the state and the files in their safe order. Every file a
//!   run writes is locked for the run, and what a new run finds in them ([`Existing`]) is
//!   refused, replaced or appended to, never lost.
//! - What a run tells is data: a [`MatchObserver`] hears the start, every finished
//!   game and the [`MatchReport`]; rendering it is the command line's.
//! - [`merge_states`] adds up the saved states of a sharded run's shards.
//!
//! The statistics are [`crate::stats`]'s. Nothing here knows how moves are generated; it uses
//! the rules core's public API.

mod adjudication;
mod dialect;
mod done_games;
mod error;
mod feed;
mod files;
mod game_output;
mod knockout;
mod match_game;
mod merge;
mod misbehaving;
mod not_ready;
mod openings;
mod outputs;
mod prepare;
mod recorder;
mod report;
mod request;
mod run;
mod runner;
mod schedule;
mod session;
mod sprt_run;
mod standings;
mod state;
mod stop;
mod tablebase;
mod turn;

pub use adjudication::{Adjudication, DrawRule, ResignRule};
pub use dialect::Dialect;
pub use error::RecordError;
pub use error::StateError;
pub use error::{continues, ArenaError, SettingError};
pub use files::{FileNote, Holding, Occupant, OutputFile, SavedRun};
pub use game_output::utc_now;
pub use knockout::{
    CuteMersenne, Knockout, KnockoutError, KnockoutGame, KnockoutResult, KnockoutRules, Next,
};
pub use match_game::{EndCategory, Forensics, MatchGame, Termination, TimeLossCause};
pub use merge::{merge_states, MergeError, MergeFailure, MergeFailureKind};
pub use openings::{OpeningSource, Openings, OpeningsError};

pub use report::{
    EngineOptions, GameFinished, GameStarted, KnockoutReport, Latency, MatchObserver, MatchReport,
    MatchStart, OptionWarning, Resumed, ShardSpan, SprtReport, StateReport,
};
pub use request::{
    Carried, CarriedEncounter, EngineLimits, Existing, MatchRequest, MatchSettings, SPRT_MAX_GAMES,
};
pub use run::{resume_match, run_match, Resume};
pub use schedule::{Layout, Schedule, ScheduledGame, Seeds, TournamentKind, UnknownTournament};
pub use sprt_run::SprtStatus;
pub use standings::{EncounterTally, Forfeit, OtherTournament, Standings, TimeLosses};
pub use state::{MatchState, STATE_FORMAT, STATE_FORMATS_READ};
pub use stop::{RunStop, StartFailure};
pub use tablebase::{
    Probing, TablebaseJudge, TablebaseRule, TablebaseSettingError, TbResults, TbResultsError,
};
