//! The running results of a match or tournament: per encounter (two engines) the wins, draws and
//! losses and the game pairs, and over all games the terminations, failures and plies. Only
//! counts are kept, so standings add exactly: a resumed run continues the saved ones, and the
//! shards of a run merge into the standings of the whole run.

use super::match_game::{EndCategory, MatchGame, TimeLossCause};
use super::schedule::{Schedule, ScheduledGame};
use crate::game::Outcome;
use crate::stats::{GameScore, PairTally, Score};
use crate::Color;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One encounter's results, from its first engine's point of view.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncounterTally {
    /// The two engines (indices into [`Standings::names`]).
    pub engines: (usize, usize),
    /// Wins, draws and losses of the first.
    pub score: Score,
    /// Its game pairs (by schedule index: games `2j`, `2j + 1`).
    pub pairs: PairTally,
}

impl EncounterTally {
    /// The result of the finished game `played`, scheduled as `game`, for the first of the
    /// encounter's `engines`.
    pub fn result(engines: (usize, usize), game: &ScheduledGame, played: &MatchGame) -> GameScore {
        let first = if engines.0 == game.white {
            Color::White
        } else {
            Color::Black
        };
        match played.record.outcome {
            Outcome::Draw => GameScore::Draw,
            Outcome::Win(winner) if winner == first => GameScore::Win,
            _ => GameScore::Loss,
        }
    }
}

/// Standings of another tournament than the ones they were to be added to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherTournament {
    /// The engines of the standings added to.
    pub mine: Vec<String>,
    /// The engines of the others.
    pub theirs: Vec<String>,
}

impl std::fmt::Display for OtherTournament {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "different tournaments: engines {:?} and {:?}",
            self.mine, self.theirs
        )
    }
}

impl std::error::Error for OtherTournament {}

/// The results of the finished games.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    /// The engines, in the tournament's order.
    pub names: Vec<String>,
    /// One per encounter of the schedule, in its order.
    pub encounters: Vec<EncounterTally>,
    /// Games per way of ending.
    pub terminations: BTreeMap<EndCategory, u32>,
    /// Games an engine lost by failing (illegal move, time, crash, hang, start).
    pub failures: u32,
    /// Plies of all games.
    pub plies: u64,
    /// Games lost on time, by cause (absent from a state or report without any).
    #[serde(default, skip_serializing_if = "TimeLosses::is_empty")]
    pub time_losses: TimeLosses,
    /// The games an engine lost by failing, with why and where its forensics are, in the order
    /// they finished (at most [`Standings::FORFEITS_KEPT`]; the counts above are exact).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forfeits: Vec<Forfeit>,
}

/// Games lost on time, by [`TimeLossCause`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeLosses {
    /// The engine overran by its own account.
    pub engine: u32,
    /// The runner was late.
    pub harness: u32,
    /// Neither shown.
    pub unknown: u32,
}

impl TimeLosses {
    /// All of them.
    pub fn total(&self) -> u32 {
        self.engine + self.harness + self.unknown
    }

    /// These counts over `time_forfeits` losses on time: those whose cause was not recorded
    /// (states written before causes were) are counted as unknown.
    pub fn of_all(&self, time_forfeits: u32) -> TimeLosses {
        TimeLosses {
            unknown: time_forfeits.saturating_sub(self.engine + self.harness),
            ..*self
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    fn add(&mut self, cause: TimeLossCause) {
        match cause {
            TimeLossCause::Engine { .. } => self.engine += 1,
            TimeLossCause::Harness { .. } => self.harness += 1,
            TimeLossCause::Unknown { .. } => self.unknown += 1,
        }
    }
}

/// A game an engine lost by failing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forfeit {
    /// The game's number in the schedule.
    pub game: u32,
    /// The engine that failed.
    pub engine: String,
    /// How (`time-forfeit`, `crash`, ...).
    pub category: EndCategory,
    /// The cause of a loss on time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_loss: Option<TimeLossCause>,
    /// What ended the game, in words (as the PGN's last comment says it).
    pub why: String,
    /// The file holding the engine's last lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forensics: Option<PathBuf>,
}

impl Forfeit {
    /// The forfeit of `played`, a game an engine lost by failing.
    fn of(played: &MatchGame) -> Forfeit {
        let side = played.termination.as_ref().and_then(|t| t.side());
        let engine = match side {
            Some(Color::White) => played.white.clone(),
            Some(Color::Black) => played.black.clone(),
            None => String::new(),
        };
        Forfeit {
            game: played.number,
            engine,
            category: played.category(),
            time_loss: played.time_loss(),
            why: played
                .termination
                .as_ref()
                .map_or_else(String::new, ToString::to_string),
            forensics: played.forensics.as_ref().and_then(|f| f.file.clone()),
        }
    }
}

impl Standings {
    /// The most forfeits listed.
    pub const FORFEITS_KEPT: usize = 1000;

    /// Empty standings for `names` playing `schedule`.
    pub fn new(names: Vec<String>, schedule: &Schedule) -> Standings {
        Standings {
            names,
            encounters: schedule
                .encounters
                .iter()
                .map(|&engines| EncounterTally {
                    engines,
                    ..EncounterTally::default()
                })
                .collect(),
            ..Standings::default()
        }
    }

    /// Count the finished game `played`, scheduled as `game`.
    pub fn add(&mut self, game: &ScheduledGame, played: &MatchGame) {
        let encounter = &mut self.encounters[game.encounter];
        let result = EncounterTally::result(encounter.engines, game, played);
        encounter.score.add(result);
        encounter.pairs.add(game.index, result);
        *self.terminations.entry(played.category()).or_default() += 1;
        self.plies += played.record.moves.len() as u64;
        if played.is_failure() {
            self.failures += 1;
            if let Some(cause) = played.time_loss() {
                self.time_losses.add(cause);
            }
            if self.forfeits.len() < Self::FORFEITS_KEPT {
                // In the schedule's order, however the games finished.
                let at = self.forfeits.partition_point(|f| f.game < played.number);
                self.forfeits.insert(at, Forfeit::of(played));
            }
        }
    }

    /// The ways games ended and how many ended so, in the alphabetical order of their words
    /// (as the tables show them).
    pub fn terminations_by_words(&self) -> Vec<(EndCategory, u32)> {
        let mut counts: Vec<(EndCategory, u32)> =
            self.terminations.iter().map(|(&c, &n)| (c, n)).collect();
        counts.sort_by_key(|(category, _)| category.words());
        counts
    }

    /// Games lost on time by cause, every one counted (those of a state that kept no causes as
    /// unknown).
    pub fn time_losses_by_cause(&self) -> TimeLosses {
        let total = self
            .terminations
            .get(&EndCategory::TimeForfeit)
            .copied()
            .unwrap_or(0);
        self.time_losses.of_all(total)
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.encounters.iter().map(|e| e.score.games()).sum()
    }

    /// Engine `engine`'s results against the whole field.
    pub fn engine_score(&self, engine: usize) -> Score {
        self.encounters
            .iter()
            .fold(Score::default(), |total, e| match e.engines {
                (a, _) if a == engine => total.plus(&e.score),
                (_, b) if b == engine => total.plus(&e.score.reversed()),
                _ => total,
            })
    }

    /// Engine `row`'s results against engine `column` (`None` when they do not meet).
    pub fn head_to_head(&self, row: usize, column: usize) -> Option<Score> {
        self.encounters.iter().find_map(|e| match e.engines {
            (a, b) if (a, b) == (row, column) => Some(e.score),
            (a, b) if (a, b) == (column, row) => Some(e.score.reversed()),
            _ => None,
        })
    }

    /// Add the standings of another part of the same tournament (a shard): `Err` when they
    /// belong to a different one.
    pub fn merge(&mut self, other: &Standings) -> Result<(), OtherTournament> {
        let pairs = |s: &Standings| s.encounters.iter().map(|e| e.engines).collect::<Vec<_>>();
        if self.names != other.names || pairs(self) != pairs(other) {
            return Err(OtherTournament {
                mine: self.names.clone(),
                theirs: other.names.clone(),
            });
        }
        for (mine, theirs) in self.encounters.iter_mut().zip(&other.encounters) {
            mine.score = mine.score.plus(&theirs.score);
            mine.pairs.merge(&theirs.pairs);
        }
        for (&category, count) in &other.terminations {
            *self.terminations.entry(category).or_default() += count;
        }
        self.failures += other.failures;
        self.plies += other.plies;
        self.time_losses.engine += other.time_losses.engine;
        self.time_losses.harness += other.time_losses.harness;
        self.time_losses.unknown += other.time_losses.unknown;
        let room = Self::FORFEITS_KEPT.saturating_sub(self.forfeits.len());
        self.forfeits
            .extend(other.forfeits.iter().take(room).cloned());
        self.forfeits.sort_by_key(|f| f.game);
        Ok(())
    }

    /// The engines by score against the field, best first (ties keep the tournament's order).
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| {
            let (sa, sb) = (self.engine_score(a), self.engine_score(b));
            sb.ratio()
                .partial_cmp(&sa.ratio())
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(sb.games().cmp(&sa.games()))
        });
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::schedule::TournamentKind;
    use crate::game::GameRecord;
    use crate::{CastlingMode, Position};

    fn game(outcome: Outcome) -> MatchGame {
        let mut record = GameRecord::new(Position::startpos(), CastlingMode::Standard);
        record.outcome = outcome;
        MatchGame {
            number: 0,
            white: String::new(),
            black: String::new(),
            record,
            termination: None,
            infos: Vec::new(),
            forensics: None,
        }
    }

    #[test]
    fn results_count_for_the_right_engine_whatever_the_colours() {
        let schedule = Schedule::new(TournamentKind::RoundRobin, 3, 1, 2).unwrap();
        let names = ["a", "b", "c"].map(String::from).to_vec();
        let mut standings = Standings::new(names, &schedule);
        // Game 1: b (White) beats a; game 4: b (White) draws with c; game 5: c (White) wins.
        standings.add(&schedule.game(1), &game(Outcome::Win(Color::White)));
        standings.add(&schedule.game(4), &game(Outcome::Draw));
        standings.add(&schedule.game(5), &game(Outcome::Win(Color::White)));
        assert_eq!(standings.games(), 3);
        let b = standings.engine_score(1);
        assert_eq!((b.wins, b.draws, b.losses), (1, 1, 1));
        let a_vs_b = standings.head_to_head(0, 1).unwrap();
        assert_eq!((a_vs_b.wins, a_vs_b.losses), (0, 1));
        assert_eq!(standings.ranking(), vec![2, 1, 0]);
        // Games 4 and 5 make a pair of encounter b-c: b scored a draw and a loss.
        assert_eq!(
            standings.encounters[2].pairs.pentanomial().counts,
            [0, 1, 0, 0, 0]
        );
    }

    #[test]
    fn standings_of_parts_add_up() {
        let schedule = Schedule::new(TournamentKind::Gauntlet, 3, 1, 2).unwrap();
        let names = ["a", "b", "c"].map(String::from).to_vec();
        let mut whole = Standings::new(names.clone(), &schedule);
        let mut parts = [
            Standings::new(names.clone(), &schedule),
            Standings::new(names, &schedule),
        ];
        for (i, outcome) in [Outcome::Draw, Outcome::Win(Color::Black), Outcome::Draw]
            .into_iter()
            .enumerate()
        {
            let scheduled = schedule.game(i as u32);
            whole.add(&scheduled, &game(outcome));
            parts[i % 2].add(&scheduled, &game(outcome));
        }
        let [mut first, second] = parts;
        first.merge(&second).unwrap();
        assert_eq!(first, whole);
        let other = Standings::new(vec!["x".into(), "y".into()], &schedule);
        assert!(first.merge(&other).is_err());
    }

    #[test]
    fn forfeits_and_time_losses_are_kept_merged_and_optional_in_saved_standings() {
        use crate::arena::match_game::{Termination, TimeLossCause};
        let schedule = Schedule::new(TournamentKind::RoundRobin, 2, 1, 2).unwrap();
        let names = ["a", "b"].map(String::from).to_vec();
        let mut standings = Standings::new(names.clone(), &schedule);
        let plain = serde_json::to_string(&standings).unwrap();
        assert!(!plain.contains("forfeits") && !plain.contains("time_losses"));
        let mut lost = game(Outcome::Win(Color::White));
        lost.number = 2;
        lost.black = "b".into();
        let cause = TimeLossCause::Harness { late_by_ms: 41 };
        lost.termination = Some(Termination::TimeForfeit(Color::Black, cause));
        standings.add(&schedule.game(1), &lost);
        assert_eq!(standings.time_losses.harness, 1);
        assert_eq!(standings.forfeits[0].engine, "b");
        assert_eq!(standings.forfeits[0].time_loss, Some(cause));
        let saved = serde_json::to_string(&standings).unwrap();
        let read: Standings = serde_json::from_str(&saved).unwrap();
        assert_eq!(read, standings);
        // Standings saved before causes were kept read back, their losses on time unknown.
        let old: Standings = serde_json::from_str(
            &saved.replace(r#""time_losses":{"engine":0,"harness":1,"unknown":0},"#, ""),
        )
        .unwrap();
        assert_eq!(old.time_losses_by_cause().unknown, 1);
        let mut other = Standings::new(names, &schedule);
        let mut first = lost.clone();
        first.number = 1;
        other.add(&schedule.game(0), &first);
        other.merge(&standings).unwrap();
        let games: Vec<u32> = other.forfeits.iter().map(|f| f.game).collect();
        assert_eq!(games, [1, 2]);
        assert_eq!(other.time_losses.harness, 2);
    }
}
