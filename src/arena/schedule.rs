//! The schedule of a match or tournament: which engines meet (every pair in a round robin, the
//! first engine against each other one in a gauntlet), how often, in which colours and from which
//! opening. Game `k` of the schedule is a pure function of `k`, so a resumed run or a shard plays
//! exactly the game an uninterrupted single run would have played under that number.
//!
//! Order: round by round; within a round, encounter by encounter; within an encounter, its games
//! in pairs (games `2j` and `2j + 1` share an opening, colours swapped: the pairs of the
//! pentanomial statistics). Every encounter of a round plays the same openings, so each engine
//! meets the same openings as the others.
//!
//! A [`Layout`] changes three things for the command lines of cutechess-cli and fastchess:
//! single games (fastchess's `-games 1`: every game from its own opening, colours alternating
//! game by game, in a match of two engines), `-noswap` (the encounter's first engine White in
//! every game) and `-reverse` (every game's colours the other way round).

use super::error::{ArenaError, SettingError};
use crate::client::ConfigError;
use crate::jobs::shard::Shard;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Who meets whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TournamentKind {
    /// Every engine against every other one.
    #[default]
    RoundRobin,
    /// The first engine against each of the others (who do not meet each other).
    Gauntlet,
    /// cutechess-cli's knockout: single elimination, each round's encounters from the results
    /// of the one before (the arena's knockout driver); its games are not numbered in advance.
    Knockout,
}

/// A tournament kind that is neither of ours (the text given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTournament(pub String);

impl fmt::Display for UnknownTournament {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}': the tournament is round-robin or gauntlet", self.0)
    }
}

impl std::error::Error for UnknownTournament {}

impl FromStr for TournamentKind {
    type Err = UnknownTournament;

    fn from_str(text: &str) -> Result<TournamentKind, UnknownTournament> {
        match text {
            "round-robin" | "roundrobin" => Ok(TournamentKind::RoundRobin),
            "gauntlet" => Ok(TournamentKind::Gauntlet),
            _ => Err(UnknownTournament(text.to_string())),
        }
    }
}

impl fmt::Display for TournamentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TournamentKind::RoundRobin => "round-robin",
            TournamentKind::Gauntlet => "gauntlet",
            TournamentKind::Knockout => "knockout",
        })
    }
}

/// How an encounter's games take their openings and colours: Shannon's pairs by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Layout {
    /// Every game from its own opening, White the encounter's first engine in even-numbered
    /// games (from 0) and the second in odd ones, as fastchess plays `-games 1` (its colours go
    /// by the game's number). Any number of games; two engines only. Otherwise games `2j` and
    /// `2j + 1` are a pair: one opening, colours swapped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub single_games: bool,
    /// With single games, how many consecutive games each opening serves (cutechess-cli's
    /// `-repeat N`, and 1 without `-repeat`): games `kN` to `kN + N - 1` start from opening `k`,
    /// their colours still alternating by number. 0 (absent) is 1.
    #[serde(default, skip_serializing_if = "is_one_or_less")]
    pub games_per_opening: u32,
    /// The encounter's first engine has White in every game (cutechess-cli's and fastchess's
    /// `-noswap`); pairs still share their opening.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub noswap: bool,
    /// Every game's colours the other way round (cutechess-cli's and fastchess's `-reverse`):
    /// the encounter's second engine White where the first would be, so in the first game of
    /// each pair (with `noswap`: in every game).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reverse: bool,
    /// A gauntlet's first players (cutechess-cli's and fastchess's `-seeds N`; absent: one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds: Option<Seeds>,
    /// cutechess-cli's tournament of more than two engines: its round-robin order (the circle
    /// method: the first engine fixed, the others turning, each encounter's first engine the one
    /// in the top half), a new opening for every encounter (cutechess-cli takes one whenever
    /// the pair changes), colours alternating over all the games a pair plays, and `reverse`
    /// swapping a pair at each of its meetings (cutechess-cli swaps it whenever the pair
    /// changes, so its second meeting is the right way round again).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cutechess_tournament: bool,
    /// fastchess's tournament of more than two engines: every encounter's games from an
    /// opening of their own, the next of a book fastchess cuts to its first `rounds` openings
    /// (so they come round again after `rounds` encounters).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fastchess_tournament: bool,
}

/// cutechess-cli 1.5.1's round-robin pairs of `engines` (`RoundRobinTournament`): a cycle of
/// the circle method, the pairs of each turn from the top half's first to its last, a pair
/// with the padding player (odd counts) skipped.
fn cutechess_round_robin(engines: usize) -> Vec<(usize, usize)> {
    let count = engines + engines % 2;
    let mut top: Vec<usize> = (0..count / 2).collect();
    let mut bottom: Vec<usize> = (count / 2..count).rev().collect();
    let mut pairs = Vec::new();
    for _ in 0..count - 1 {
        pairs.extend(
            top.iter()
                .zip(&bottom)
                .filter(|&(&a, &b)| a < engines && b < engines)
                .map(|(&a, &b)| (a, b)),
        );
        top.insert(1, bottom.remove(0));
        if let Some(last) = top.pop() {
            bottom.push(last);
        }
    }
    pairs
}

fn is_one_or_less(n: &u32) -> bool {
    *n <= 1
}

/// The seeded players of a gauntlet, the first `count` engines: each plays the others (the two
/// tools differ on whether seeds meet each other). Fewer than one seed is one; every engine
/// but the last at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seeds {
    /// How many.
    pub count: u32,
    /// Whether a seed also meets the seeds after it (fastchess: its gauntlet is a round robin
    /// of the pairs whose first player is a seed), or only the unseeded players (cutechess-cli).
    pub meet_each_other: bool,
}

impl Seeds {
    /// The encounters of a gauntlet of `engines` engines, seed by seed, each seed's opponents
    /// in order (as both tools pair them).
    fn encounters(seeds: Option<Seeds>, engines: usize) -> Vec<(usize, usize)> {
        let Seeds {
            count,
            meet_each_other,
        } = seeds.unwrap_or(Seeds {
            count: 1,
            meet_each_other: false,
        });
        let count = (count as usize).clamp(1, engines - 1);
        (0..count)
            .flat_map(|seed| {
                let first = if meet_each_other { seed + 1 } else { count };
                (first..engines).map(move |other| (seed, other))
            })
            .collect()
    }

    /// True when engine `index` is a seed of a gauntlet of `engines` (the first engine at least).
    pub fn is_seed(seeds: Option<Seeds>, index: usize, engines: usize) -> bool {
        let count = seeds.map_or(1, |s| s.count as usize);
        index < count.clamp(1, engines.saturating_sub(1).max(1))
    }
}

impl Layout {
    /// True for Shannon's own layout (pairs, colours swapped).
    pub fn is_default(&self) -> bool {
        *self == Layout::default()
    }

    /// Consecutive games from one opening: a pair's 2, or with single games
    /// [`Layout::games_per_opening`] (at least 1).
    pub(super) fn per_opening(&self) -> u32 {
        match self.single_games {
            true => self.games_per_opening.max(1),
            false => 2,
        }
    }

    /// Games a unit of the schedule holds: 2 (a pair), or 1 with single games.
    fn unit(&self) -> u32 {
        if self.single_games {
            1
        } else {
            2
        }
    }
}

/// One scheduled game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Its index in the schedule, from 0 (the PGN's `Round` tag is `index + 1`).
    pub index: u32,
    /// The round, from 0.
    pub round: u32,
    /// The encounter (an index into [`Schedule::encounters`]).
    pub encounter: usize,
    /// The engine (index into the tournament's engine list) with White, and with Black.
    pub white: usize,
    /// See `white`.
    pub black: usize,
    /// The opening, an index into the tournament's opening list.
    pub opening: usize,
}

/// The whole schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// The pairs of engines that meet, `(a, b)` with `a` White in the first game of each pair.
    pub encounters: Vec<(usize, usize)>,
    /// Rounds.
    pub rounds: u32,
    /// Games of each encounter in each round (even: whole pairs, unless single games).
    pub games_per_encounter: u32,
    /// How the games take their openings and colours.
    pub layout: Layout,
    /// Who meets whom. A knockout's schedule numbers no game ([`Schedule::len`] is 0): its
    /// encounters are every pair of engines (for the standings), its games handed out by a
    /// [`super::knockout::Knockout`] as the results come.
    pub kind: TournamentKind,
}

impl Schedule {
    /// The schedule of `engines` engines (at least 2). `games_per_encounter` is rounded up to an
    /// even number, so every opening is played with both colours.
    pub fn new(
        kind: TournamentKind,
        engines: usize,
        rounds: u32,
        games_per_encounter: u32,
    ) -> Result<Schedule, ArenaError> {
        Schedule::laid_out(
            kind,
            engines,
            rounds,
            games_per_encounter,
            Layout::default(),
        )
    }

    /// The schedule of `engines` engines laid out as `layout` says: with single games, exactly
    /// `games_per_encounter` games (two engines only); else rounded up to whole pairs.
    pub fn laid_out(
        kind: TournamentKind,
        engines: usize,
        rounds: u32,
        games_per_encounter: u32,
        layout: Layout,
    ) -> Result<Schedule, ArenaError> {
        if engines < 2 {
            return Err(ConfigError::NotEnoughEngines(engines).into());
        }
        if rounds == 0 || games_per_encounter == 0 {
            return Err(SettingError::NoRoundsOrGames.into());
        }
        if layout.single_games && engines > 2 && !layout.cutechess_tournament {
            return Err(SettingError::SingleGamesTournament(engines).into());
        }
        let encounters: Vec<(usize, usize)> = match kind {
            TournamentKind::RoundRobin if layout.cutechess_tournament && engines > 2 => {
                cutechess_round_robin(engines)
            }
            TournamentKind::RoundRobin => (0..engines)
                .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
                .collect(),
            TournamentKind::Gauntlet => Seeds::encounters(layout.seeds, engines),
            TournamentKind::Knockout => (0..engines)
                .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
                .collect(),
        };
        let games_per_encounter = match layout.single_games || kind == TournamentKind::Knockout {
            true => games_per_encounter,
            false => games_per_encounter + games_per_encounter % 2,
        };
        let schedule = Schedule {
            encounters,
            rounds,
            games_per_encounter,
            layout,
            kind,
        };
        let total = u64::from(schedule.games_per_encounter)
            * u64::from(rounds)
            * schedule.encounters.len() as u64;
        if total > u64::from(u32::MAX - 1) {
            return Err(SettingError::TooManyGames(total).into());
        }
        Ok(schedule)
    }

    /// Games in the schedule (none numbered in advance in a knockout).
    pub fn len(&self) -> u32 {
        match self.kind {
            TournamentKind::Knockout => 0,
            _ => self.games_per_round() * self.rounds,
        }
    }

    /// The encounter (an index into [`Schedule::encounters`]) of engines `a` and `b`, either
    /// way round.
    pub fn encounter_of(&self, a: usize, b: usize) -> Option<usize> {
        self.encounters
            .iter()
            .position(|&pair| pair == (a, b) || pair == (b, a))
    }

    /// True when there is nothing to play (never, for a schedule made by [`Schedule::new`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn games_per_round(&self) -> u32 {
        self.games_per_encounter * self.encounters.len() as u32
    }

    /// Openings the schedule uses: one per game pair of an encounter's round (per game, with
    /// single games).
    pub fn openings_needed(&self) -> usize {
        if self.kind == TournamentKind::Knockout {
            // At least this many; a longer knockout takes them round again.
            return (self.encounters.len() * self.games_per_encounter as usize).max(1);
        }
        if self.per_encounter() && self.layout.fastchess_tournament {
            return self.rounds as usize;
        }
        if self.per_encounter() {
            return self.rounds as usize
                * self.encounters.len()
                * self.openings_per_block() as usize;
        }
        (self.rounds * self.games_per_encounter).div_ceil(self.layout.per_opening()) as usize
    }

    /// True when every encounter's games of a round take openings of their own (cutechess-cli's
    /// tournaments); else the encounters of a round share theirs.
    fn per_encounter(&self) -> bool {
        (self.layout.cutechess_tournament || self.layout.fastchess_tournament)
            && self.encounters.len() > 1
    }

    /// How many openings the match keeps of its source: fastchess cuts its book to `rounds`
    /// openings in a tournament (`Openings::truncate`); else all.
    pub fn openings_kept(&self) -> Option<usize> {
        (self.per_encounter() && self.layout.fastchess_tournament).then_some(self.rounds as usize)
    }

    /// Openings the games of one encounter in one round take, with [`Schedule::per_encounter`].
    fn openings_per_block(&self) -> u32 {
        self.games_per_encounter.div_ceil(self.layout.per_opening())
    }

    /// Game `index` (below [`Schedule::len`]).
    pub fn game(&self, index: u32) -> ScheduledGame {
        let round = index / self.games_per_round();
        let within = index % self.games_per_round();
        let encounter = (within / self.games_per_encounter) as usize;
        let game = within % self.games_per_encounter;
        let (a, b) = self.encounters[encounter];
        // Single games alternate by the game's number, as fastchess does (its `game_id`); the
        // games of a pair by their place in it (the same, as pairs are whole).
        // cutechess-cli's tournaments: colours alternate over all the games of the pair, and
        // `-reverse` swaps the pair at each meeting (so in even-numbered rounds from 0).
        let per_encounter = self.per_encounter();
        let played = round * self.games_per_encounter + game;
        let swapped = match self.layout {
            Layout { noswap: true, .. } => false,
            _ if per_encounter => played % 2 == 1,
            Layout {
                single_games: true, ..
            } => index % 2 == 1,
            _ => game % 2 == 1,
        } != (self.layout.reverse
            && (!(per_encounter && self.layout.cutechess_tournament) || round.is_multiple_of(2)));
        let (white, black) = if swapped { (b, a) } else { (a, b) };
        let per_opening = self.layout.per_opening();
        let opening = match per_encounter {
            true => {
                let block = round * self.encounters.len() as u32 + encounter as u32;
                block * self.openings_per_block() + game / per_opening
            }
            false => played / per_opening,
        };
        ScheduledGame {
            index,
            round,
            encounter,
            white,
            black,
            opening: opening as usize,
        }
    }

    /// The games a shard plays, in schedule order: shard `I` of `N` takes the `I`-th of `N`
    /// consecutive runs of game pairs (single games, when so laid out) of (nearly) equal length.
    /// Consecutive pairs, not every `N`-th one: a round's pairs are numbered encounter by
    /// encounter, so `p mod N` could give a shard a single encounter, where a run of pairs covers
    /// the encounters of whole rounds.
    pub fn games_of(&self, shard: Shard) -> Vec<u32> {
        let unit = u64::from(self.layout.unit());
        let units = u64::from(self.len()) / unit;
        let run = shard.run_of(units);
        (run.start * unit..run.end * unit)
            .map(|index| index as u32)
            .collect()
    }
}

#[cfg(test)]
mod tests;
