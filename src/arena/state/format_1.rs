//! State files of format 1 (`shannon match state 1`), read into today's state. They kept the
//! request as the command line's text (`"tc": "10+0.1"`, engines as `"a,b"`, `"pgn": "-"` for
//! none) and counted the ways games ended by the words the tables showed then. Every such word is
//! still [`EndCategory::words`] of one category, and every text still reads as the command line
//! reads it; a file that does not is refused by name, never miscounted. A resumed run writes the
//! state back in today's format.

use super::{Appendix, MatchState, STATE_FORMAT};
use crate::arena::adjudication::{DrawRule, ResignRule};
use crate::arena::done_games::DoneGames;
use crate::arena::error::StateError;
use crate::arena::match_game::EndCategory;
use crate::arena::openings::Openings;
use crate::arena::request::MatchSettings;
use crate::arena::schedule::TournamentKind;
use crate::arena::standings::{EncounterTally, Standings};
use crate::client::TimeControl;
use crate::jobs::shard::Shard;
use crate::notation::pgn::MoveNotation;
use crate::stats::Sprt;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The format's name.
pub(super) const FORMAT: &str = "shannon match state 1";

#[derive(Deserialize)]
struct StateV1 {
    request: RequestV1,
    directory: PathBuf,
    done: DoneGames,
    standings: StandingsV1,
    llr_history: Vec<(u32, f64)>,
    sprt_decided: bool,
    seconds: f64,
    pgn: Option<Appendix>,
    epd: Option<Appendix>,
}

/// The request as format 1 saved it: resolved, every choice made, but as text.
#[derive(Deserialize)]
struct RequestV1 {
    config: Option<PathBuf>,
    engines: Option<String>,
    tournament: Option<TournamentKind>,
    rounds: Option<u32>,
    games: Option<u32>,
    concurrency: Option<usize>,
    tc: Option<String>,
    openings: Option<String>,
    book_depth: Option<u32>,
    pgn: Option<String>,
    seed: Option<u64>,
    sprt: Option<String>,
    max_plies: Option<u32>,
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    #[serde(default)]
    pgn_min: bool,
    epd: Option<PathBuf>,
    state: Option<PathBuf>,
    shard: Option<Shard>,
}

#[derive(Deserialize)]
struct StandingsV1 {
    names: Vec<String>,
    encounters: Vec<EncounterTally>,
    terminations: BTreeMap<String, u32>,
    failures: u32,
    plies: u64,
}

/// A setting a format-1 state must have.
fn needed<T>(value: Option<T>, name: &str) -> Result<T, StateError> {
    value.ok_or_else(|| StateError::Format1(format!("request has no {name}")))
}

/// A text of a format-1 request, read as the command line reads it.
fn read<T: std::str::FromStr>(text: Option<String>, name: &str) -> Result<T, StateError>
where
    T::Err: std::fmt::Display,
{
    let text = needed(text, name)?;
    text.parse()
        .map_err(|e| StateError::Format1(format!("{name} '{text}' does not read: {e}")))
}

fn settings(request: RequestV1) -> Result<MatchSettings, StateError> {
    let engines: String = needed(request.engines, "engines")?;
    Ok(MatchSettings {
        config: request.config,
        engines: engines.split(',').map(|n| n.trim().to_string()).collect(),
        tournament: needed(request.tournament, "tournament")?,
        rounds: needed(request.rounds, "rounds")?,
        games: needed(request.games, "games")?,
        layout: Default::default(),
        concurrency: request.concurrency,
        time_control: read::<TimeControl>(request.tc, "tc")?,
        engine_limits: Default::default(),
        openings: read::<Openings>(request.openings, "openings")?,
        book_depth: needed(request.book_depth, "book_depth")?,
        pgn: match needed(request.pgn, "pgn")?.as_str() {
            "" | "-" => None,
            path => Some(PathBuf::from(path)),
        },
        seed: needed(request.seed, "seed")?,
        sprt: match request.sprt {
            Some(text) => Some(read::<Sprt>(Some(text), "sprt")?),
            None => None,
        },
        max_plies: needed(request.max_plies, "max_plies")?,
        draw: request.draw,
        resign: request.resign,
        tablebase: None,
        dialect: None,
        pgn_min: request.pgn_min,
        epd: request.epd,
        state: request.state,
        shard: needed(request.shard, "shard")?,
        engine_configs: Vec::new(),
        time_margin_ms: None,
        event: None,
        site: None,
        recover: true,
        ping_ms: None,
        pgn_notation: MoveNotation::San,
        wait_ms: 0,
    })
}

fn standings(old: StandingsV1) -> Result<Standings, StateError> {
    let mut terminations = BTreeMap::new();
    for (words, count) in old.terminations {
        let category = EndCategory::from_format_1(&words).ok_or_else(|| {
            StateError::Format1(format!(
                "standings count games ended by '{words}', not a way of ending"
            ))
        })?;
        *terminations.entry(category).or_default() += count;
    }
    Ok(Standings {
        names: old.names,
        encounters: old.encounters,
        terminations,
        failures: old.failures,
        plies: old.plies,
        // Format 1 kept no causes of time losses nor forfeits: the counts say "unknown".
        ..Standings::default()
    })
}

/// Today's state of a format-1 file's JSON.
pub(super) fn read_state(value: serde_json::Value) -> Result<MatchState, StateError> {
    let old: StateV1 = serde_json::from_value(value).map_err(StateError::NotAState)?;
    let mut state = MatchState {
        format: STATE_FORMAT.to_string(),
        settings: settings(old.request)?,
        directory: old.directory,
        done: old.done,
        standings: standings(old.standings)?,
        llr_history: old.llr_history,
        sprt_decided: old.sprt_decided,
        sprt_run: None,
        seconds: old.seconds,
        pgn: old.pgn,
        epd: old.epd,
        forensics_offset: 0,
        ended: true,
        knockout_over: false,
        knockout_results: None,
    };
    state.legacy();
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_format_1_counted_by_is_one_category() {
        let old = [
            "checkmate",
            "stalemate",
            "fivefold repetition",
            "75-move rule",
            "insufficient material",
            "threefold repetition",
            "50-move rule",
            "ply limit",
            "adjudication",
            "time forfeit",
            "illegal move",
            "crash",
            "hang",
            "start failure",
            "interrupted",
            "unknown",
        ];
        let categories: std::collections::BTreeSet<EndCategory> = old
            .iter()
            .map(|words| EndCategory::from_format_1(words).expect(words))
            .collect();
        assert_eq!(categories.len(), old.len());
        assert_eq!(EndCategory::from_format_1("resigned"), None);
    }

    #[test]
    fn a_word_no_category_has_is_refused_by_name() {
        let old = StandingsV1 {
            names: vec![],
            encounters: vec![],
            terminations: BTreeMap::from([("checkmate".to_string(), 2), ("zugzwang".into(), 1)]),
            failures: 0,
            plies: 0,
        };
        let error = standings(old).unwrap_err().to_string();
        assert!(error.contains("'zugzwang'"), "{error}");
    }
}
