//! cutechess-cli 1.5.1's knockout (`-tournament knockout`), as a driver the runner asks for its
//! next game: a single-elimination bracket whose later games depend on the results before them.
//!
//! The rules are cutechess's (projects/lib/src/knockouttournament.cpp, tournament.cpp and
//! tournamentpair.cpp at tag v1.5.1):
//!
//! - the seeds (`-seeds N`) first, in their order, then the others drawn one by one by
//!   cutechess's own Mersenne generator ([`CuteMersenne`], from `-srand`);
//! - rank `r` (from 1) placed in a bracket of the next power of two by cutechess's
//!   `playerSeed` (rank 1 at 0; an even rank in the right half, an odd one in the left,
//!   recursively), the byes given to the top ranks;
//! - an encounter plays `games` games, colours swapped each game, and goes on while it is
//!   undecided (cutechess's `needMoreGames`: the leader has no more than half the points, or,
//!   with an even number of games, leads by less than a point and a half after an odd number
//!   of games, or not at all);
//! - a round's encounters one after the other, in bracket order; the next round pairs the
//!   winners in bracket order once every game of the round has ended.
//!
//! cutechess starts a game whenever a slot is free, so with `-concurrency` above 1 the order of
//! its games (and the openings they take) depends on timing. Here the games have one order, the
//! one cutechess plays with `-concurrency 1`: game `k + 1` is handed out only once it is certain
//! which game it is, whatever the results of the games still running
//! ([`Knockout::next_game`] says [`Next::Wait`] otherwise). So every concurrency plays the same
//! games, numbered alike.
//!
//! Nothing here starts an engine: the driver is told the results ([`Knockout::finish`]).

mod mersenne;

pub use mersenne::CuteMersenne;

use crate::game::Outcome;
use crate::Color;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};
use std::fmt;

/// How a knockout is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnockoutRules {
    /// The players (engines), at least 2.
    pub players: usize,
    /// The first `seeds` players are seeded in their order (`-seeds N`; more than the players:
    /// all of them); the others are drawn.
    pub seeds: usize,
    /// Games an encounter plays at least (`-games N`), at least 1.
    pub games: u32,
    /// Consecutive games of an encounter from one opening (cutechess-cli's `-repeat N`; 1
    /// without it; `u32::MAX`: the whole encounter); each encounter starts with a new opening.
    pub games_per_opening: u32,
    /// The encounter's first player White in every game (`-noswap`).
    pub noswap: bool,
    /// Each encounter's colours the other way round (`-reverse`).
    pub reverse: bool,
    /// The seed of cutechess's generator that draws the unseeded players (`-srand`).
    pub seed: u32,
}

/// What a knockout cannot be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KnockoutError {
    /// Fewer than two players.
    TooFewPlayers(usize),
    /// An encounter of no games.
    NoGames,
    /// A result for a game the driver did not hand out, or was already told.
    UnknownGame(u32),
    /// Results to replay ([`Knockout::replay`]) of games this knockout does not play (by
    /// number; the first of them): they are of another knockout.
    NotItsResults(u32),
}

impl fmt::Display for KnockoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KnockoutError::TooFewPlayers(n) => write!(
                f,
                "a knockout needs at least 2 engines, and {n} {} given",
                if *n == 1 { "was" } else { "were" }
            ),
            KnockoutError::NoGames => f.write_str("a knockout's encounters need at least 1 game"),
            KnockoutError::UnknownGame(number) => {
                write!(f, "game {number} is not a running game of the knockout")
            }
            KnockoutError::NotItsResults(number) => write!(
                f,
                "the result saved for game {number} is of no game this knockout plays \
                 with the results before it: the results are of another knockout"
            ),
        }
    }
}

impl std::error::Error for KnockoutError {}

/// A game's result, from White's side (saved in a match's state by these names:
/// `white_wins`, `black_wins`, `draw`, `none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KnockoutResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
    /// No result (an interrupted game): no points, and the encounter stays undecided.
    None,
}

impl KnockoutResult {
    /// The result of a game that ended with `outcome`.
    pub fn of(outcome: Outcome) -> KnockoutResult {
        match outcome {
            Outcome::Win(Color::White) => KnockoutResult::WhiteWins,
            Outcome::Win(Color::Black) => KnockoutResult::BlackWins,
            Outcome::Draw => KnockoutResult::Draw,
            Outcome::Unfinished => KnockoutResult::None,
        }
    }
}

/// One game the driver hands out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnockoutGame {
    /// Its number, from 1, in the order a knockout of `-concurrency 1` plays them.
    pub number: u32,
    /// The knockout's round, from 1 (cutechess-cli's PGN `Round` tag).
    pub round: u32,
    /// The player (index into the engines) with White, and with Black.
    pub white: usize,
    /// See `white`.
    pub black: usize,
    /// The opening: the how-manieth new opening taken from the book, from 0.
    pub opening: usize,
}

/// What the runner does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Play this game.
    Play(KnockoutGame),
    /// Nothing can start until a running game ends.
    Wait,
    /// The knockout is over (or nothing is left that can be played).
    Done,
}

/// Whether an encounter needs another game, over every result its running games may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Certainty {
    Yes,
    No,
    Unknown,
}

/// One encounter of the bracket: players in the order cutechess creates the pair, `None` a bye.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Encounter {
    players: [Option<usize>; 2],
    /// Half points of each player (in `players`' order).
    score: [u32; 2],
    started: u32,
    finished: u32,
    /// Games that ended without a result (an interrupt): they count as started, not finished.
    void: u32,
    /// True when `players[1]` has White in the encounter's next game.
    swapped: bool,
}

impl Encounter {
    fn new(a: Option<usize>, b: Option<usize>) -> Encounter {
        Encounter {
            players: [a, b],
            score: [0, 0],
            started: 0,
            finished: 0,
            void: 0,
            swapped: false,
        }
    }

    fn is_bye(&self) -> bool {
        self.players.iter().any(Option::is_none)
    }

    fn running(&self) -> u32 {
        self.started - self.finished - self.void
    }

    /// The player ahead (the one who is not a bye), if any.
    fn leader(&self) -> Option<usize> {
        match self.players {
            [None, other] | [other, None] => other,
            [Some(a), Some(b)] => match self.score[0].cmp(&self.score[1]) {
                std::cmp::Ordering::Greater => Some(a),
                std::cmp::Ordering::Less => Some(b),
                std::cmp::Ordering::Equal => None,
            },
        }
    }

    /// Whether the encounter needs another game with every game it started ended, the scores
    /// `a` and `b` (cutechess's `needMoreGames` with no game in progress).
    fn needs_more(a: u32, b: u32, started: u32, games: u32) -> bool {
        if a.max(b) <= games {
            return true;
        }
        let min_diff = if games.is_multiple_of(2) { 3 } else { 1 };
        let diff = a.abs_diff(b);
        if diff >= min_diff {
            return false;
        }
        if min_diff == 1 || diff == 0 {
            return true;
        }
        !started.is_multiple_of(2)
    }

    /// Whether it needs another game whatever its running games give.
    fn certainty(&self, games: u32) -> Certainty {
        if self.is_bye() {
            return Certainty::No;
        }
        let running = self.running();
        // Half points still to come, shared in every way between the two players.
        let outcomes = (0..=2 * running).map(|to_first| {
            Encounter::needs_more(
                self.score[0] + to_first,
                self.score[1] + 2 * running - to_first,
                self.started - self.void,
                games,
            )
        });
        let (mut yes, mut no) = (false, false);
        for needs in outcomes {
            if needs {
                yes = true;
            } else {
                no = true;
            }
        }
        match (yes, no) {
            (true, false) => Certainty::Yes,
            (false, true) => Certainty::No,
            _ => Certainty::Unknown,
        }
    }

    /// Decided: no game running and no game more needed.
    fn is_decided(&self, games: u32) -> bool {
        self.running() == 0 && self.certainty(games) == Certainty::No
    }
}

/// Where a handed-out game belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Running {
    round: usize,
    encounter: usize,
    /// True when the encounter's second player has White.
    second_white: bool,
}

/// A knockout in progress.
#[derive(Debug, Clone)]
pub struct Knockout {
    rules: KnockoutRules,
    /// The rounds so far, each its encounters in bracket order.
    rounds: Vec<Vec<Encounter>>,
    /// The encounter of the last round whose games are handed out now.
    cursor: usize,
    /// The encounter's opening and how many of its games took it.
    opening: Option<(usize, u32)>,
    /// New openings taken so far.
    openings: usize,
    handed_out: u32,
    running: BTreeMap<u32, Running>,
    /// Games a replay left running, handed out again first, in order ([`Knockout::replay`]).
    again: VecDeque<KnockoutGame>,
}

impl Knockout {
    /// The first round of a knockout played by `rules`: the players drawn and placed.
    pub fn new(rules: KnockoutRules) -> Result<Knockout, KnockoutError> {
        if rules.players < 2 {
            return Err(KnockoutError::TooFewPlayers(rules.players));
        }
        if rules.games == 0 {
            return Err(KnockoutError::NoGames);
        }
        let n = rules.players;
        let seeds = rules.seeds.min(n);
        let mut ranked: Vec<Option<usize>> = (0..seeds).map(Some).collect();
        let mut unseeded: Vec<usize> = (seeds..n).collect();
        let mut random = CuteMersenne::new(rules.seed);
        while !unseeded.is_empty() {
            let i = random.next_u32() as usize % unseeded.len();
            ranked.push(Some(unseeded.remove(i)));
        }
        let size = n.next_power_of_two();
        ranked.resize(size, None);
        let mut all: Vec<Option<usize>> = vec![None; size];
        let mut byes = 0;
        for (i, &player) in ranked.iter().enumerate() {
            let index = player_seed(i + 1, size);
            match player {
                None => {
                    byes += 1;
                    let bye_index = player_seed(byes, size) + 1;
                    all[index] = all[bye_index];
                    all[bye_index] = None;
                }
                Some(_) => all[index] = player,
            }
        }
        let first = all
            .chunks(2)
            .map(|pair| Encounter::new(pair[0], pair[1]))
            .collect();
        Ok(Knockout {
            rules,
            rounds: vec![first],
            cursor: 0,
            opening: None,
            openings: 0,
            handed_out: 0,
            running: BTreeMap::new(),
            again: VecDeque::new(),
        })
    }

    /// The rules it is played by.
    pub fn rules(&self) -> &KnockoutRules {
        &self.rules
    }

    /// The games the knockout plays at least: an encounter's games for each of its `players
    /// - 1` encounters (cutechess-cli's first count of its games, `Started game N of M`).
    pub fn games_at_least(&self) -> u32 {
        (self.rules.players as u32 - 1).saturating_mul(self.rules.games)
    }

    /// Games handed out so far.
    pub fn handed_out(&self) -> u32 {
        self.handed_out
    }

    /// The next game to play, if it is known.
    pub fn next_game(&mut self) -> Next {
        if let Some(game) = self.again.pop_front() {
            return Next::Play(game);
        }
        let games = self.rules.games;
        loop {
            let round = self.rounds.len() - 1;
            if let Some(encounter) = self.rounds[round].get(self.cursor) {
                match encounter.certainty(games) {
                    Certainty::Yes => return Next::Play(self.hand_out(round)),
                    Certainty::No => {
                        self.cursor += 1;
                        self.opening = None;
                        continue;
                    }
                    Certainty::Unknown => return Next::Wait,
                }
            }
            let last = &self.rounds[round];
            if last.iter().any(|e| e.running() > 0) {
                return Next::Wait;
            }
            let winners: Vec<Option<usize>> = last.iter().map(Encounter::leader).collect();
            // An encounter left undecided by games without a result: nothing more to play.
            if winners.len() <= 1 || winners.iter().any(Option::is_none) {
                return Next::Done;
            }
            let next = winners
                .chunks(2)
                .map(|pair| Encounter::new(pair[0], pair[1]))
                .collect();
            self.rounds.push(next);
            self.cursor = 0;
            self.opening = None;
        }
    }

    /// Hand out the next game of the encounter at the cursor of `round`.
    fn hand_out(&mut self, round: usize) -> KnockoutGame {
        let rules = self.rules;
        let encounter = &mut self.rounds[round][self.cursor];
        if encounter.started == 0 && rules.reverse {
            encounter.swapped = !encounter.swapped;
        }
        let second_white = encounter.swapped;
        if !rules.noswap {
            encounter.swapped = !encounter.swapped;
        }
        encounter.started += 1;
        let [Some(a), Some(b)] = encounter.players else {
            unreachable!("a bye plays no game")
        };
        let (white, black) = if second_white { (b, a) } else { (a, b) };
        let opening = match self.opening {
            Some((opening, used)) if used < rules.games_per_opening.max(1) => {
                self.opening = Some((opening, used + 1));
                opening
            }
            _ => {
                let opening = self.openings;
                self.openings += 1;
                self.opening = Some((opening, 1));
                opening
            }
        };
        self.handed_out += 1;
        let number = self.handed_out;
        self.running.insert(
            number,
            Running {
                round,
                encounter: self.cursor,
                second_white,
            },
        );
        KnockoutGame {
            number,
            round: round as u32 + 1,
            white,
            black,
            opening,
        }
    }

    /// The knockout, new, taken as far as `results` (finished games by number, as a state
    /// saves them) take it: every game the driver hands out with the results it has so far is
    /// finished with its saved result or, without one, left running. [`Knockout::next_game`]
    /// hands those running games (started but unfinished when the run stopped, or certain and
    /// not started yet) out again first, in order; it returns how many there are. A result of
    /// a game it never hands out is refused ([`KnockoutError::NotItsResults`]).
    pub fn replay(
        &mut self,
        results: &BTreeMap<u32, KnockoutResult>,
    ) -> Result<usize, KnockoutError> {
        let mut again = VecDeque::new();
        let mut used = 0;
        while let Next::Play(game) = self.next_game() {
            match results.get(&game.number) {
                Some(&result) => {
                    self.finish(game.number, result)?;
                    used += 1;
                }
                None => again.push_back(game),
            }
        }
        if used < results.len() {
            let unused = results.keys().find(|&&n| n > self.handed_out);
            return Err(KnockoutError::NotItsResults(unused.copied().unwrap_or(0)));
        }
        self.again.extend(again);
        Ok(self.again.len())
    }

    /// Game `number` ended with `result`.
    pub fn finish(&mut self, number: u32, result: KnockoutResult) -> Result<(), KnockoutError> {
        let running = self
            .running
            .remove(&number)
            .ok_or(KnockoutError::UnknownGame(number))?;
        let encounter = &mut self.rounds[running.round][running.encounter];
        let (white, black) = match running.second_white {
            true => (1, 0),
            false => (0, 1),
        };
        match result {
            KnockoutResult::WhiteWins => encounter.score[white] += 2,
            KnockoutResult::BlackWins => encounter.score[black] += 2,
            KnockoutResult::Draw => {
                encounter.score[white] += 1;
                encounter.score[black] += 1;
            }
            KnockoutResult::None => {
                encounter.void += 1;
                return Ok(());
            }
        }
        encounter.finished += 1;
        Ok(())
    }

    /// True once the final is decided.
    pub fn is_over(&self) -> bool {
        let last = &self.rounds[self.rounds.len() - 1];
        last.len() == 1 && last[0].is_decided(self.rules.games)
    }

    /// The winner, once the final is decided.
    pub fn winner(&self) -> Option<usize> {
        let last = &self.rounds[self.rounds.len() - 1];
        self.is_over().then(|| last[0].leader()).flatten()
    }

    /// The bracket as cutechess-cli prints it (`KnockoutTournament::results()`): the first
    /// round's players two by two (a bye as `bye`), and each encounter's winner (`...` while
    /// undecided) indented by two tabs a round, on the line between its two players', with the
    /// points each scored (`winner (2.5-1.5)`, the encounter's first player's first) once a game
    /// has ended.
    pub fn bracket(&self, names: &[String]) -> String {
        let name = |player: Option<usize>| match player {
            Some(p) => names.get(p).map_or("?", String::as_str),
            None => "bye",
        };
        let mut lines: Vec<String> = Vec::new();
        for encounter in &self.rounds[0] {
            lines.push(name(encounter.players[0]).to_string());
            lines.push(String::new());
            lines.push(name(encounter.players[1]).to_string());
            lines.push(String::new());
        }
        lines.pop();
        let games = self.rules.games;
        for (round, encounters) in self.rounds.iter().enumerate() {
            let r = round + 1;
            for (x, encounter) in encounters.iter().enumerate() {
                let winner = match encounter.is_decided(games) {
                    true => name(encounter.leader()),
                    false => "...",
                };
                let line = ((2usize << (r - 1)) - 1) + x * (2usize << r);
                let mut text = format!("{}{winner}", "\t".repeat(r * 2));
                if encounter.score[0] + encounter.score[1] > 0 {
                    text.push_str(&format!(
                        " ({}-{})",
                        f64::from(encounter.score[0]) / 2.0,
                        f64::from(encounter.score[1]) / 2.0
                    ));
                }
                if let Some(l) = lines.get_mut(line) {
                    l.push_str(&text);
                }
            }
        }
        lines.join("\n")
    }
}

/// cutechess's `playerSeed`: where rank `rank` (from 1) goes in a bracket of `size` places.
fn player_seed(rank: usize, size: usize) -> usize {
    if rank <= 1 {
        return 0;
    }
    if rank.is_multiple_of(2) {
        return size / 2 + player_seed(rank / 2, size / 2);
    }
    player_seed(rank / 2 + 1, size / 2)
}

#[cfg(test)]
mod tests;
