//! The SPRT of a match, taken on its games in schedule order.
//!
//! Games finish out of order when several run at once, and which of two running games ends
//! first is a matter of thread timing. The test is not: it counts the games of the schedule in
//! their order, game `k` once every game before it has finished (a game that finishes early
//! waits for them), and is taken at every step where its counts change ([`Sprt::counts_at`]):
//! fishtest's (Shannon's own form) after the first game (on the trinomial of that game) and after
//! each complete pair (on the pentanomial of the pairs so far), fastchess's on the pentanomial
//! after each complete pair, and a test of single games (cutechess-cli's, fastchess's without
//! the pentanomial) after every game, as those tools take it. So with the same seed it decides at the same game with the same LLR on every run,
//! interrupted and resumed or not, whatever the concurrency, and a recomputation from the PGN
//! (its games sorted by `Round`, paired as 1-2, 3-4, ...) finds the same point.
//!
//! Its decision is final and is saved with the state. The games running when it decides finish
//! and are recorded (and counted in the tables, not in the test); no new game starts. A game that
//! finished ahead of the decision's game is recorded as well, and counted in the tables only.

use super::done_games::DoneGames;
use super::standings::EncounterTally;
use crate::stats::{GameScore, PairTally, Score, Sprt, SprtModel, SprtVerdict};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The SPRT at one point of the schedule: its decision (or [`SprtVerdict::Continue`]), and the
/// LLR and the games it was taken on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtStatus {
    /// The decision, or `Continue`.
    pub verdict: SprtVerdict,
    /// The counts the LLR comes from.
    pub model: SprtModel,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The games its LLR is taken on: the first `games` of the schedule (the complete pairs
    /// among the games counted in order; the first game before a pair is complete).
    pub games: u32,
}

/// The test's counts and its decision, saved in the state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct SprtRun {
    /// The games counted: the schedule's first `counted` (and those of `counted_ahead`).
    counted: u32,
    /// Their results, for the first engine.
    score: Score,
    /// Their pairs.
    pairs: PairTally,
    /// Finished games beyond the counted ones, waiting for the games before them: schedule
    /// index and result.
    waiting: BTreeMap<u32, GameScore>,
    /// Games beyond `counted` that are in the counts already: only in a test continued from a
    /// state written before the test was taken in order, which counted games as they finished.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    counted_ahead: BTreeSet<u32>,
    /// The decision, once taken.
    decision: Option<SprtStatus>,
}

impl SprtRun {
    /// The test of a state written before the test was taken in order (no `sprt_run` in it).
    /// Its counts are the encounter's (every finished game, as that state counted them); they
    /// go on from its first game not done, in order. Its decision, when it had decided, is the
    /// first point of its LLR history beyond a bound (the test as it stood when it stopped the
    /// run), or the LLR of the counts when the history was thinned past it.
    pub(crate) fn of_older_state(
        sprt: &Sprt,
        encounter: &EncounterTally,
        done: &DoneGames,
        decided: bool,
        history: &[(u32, f64)],
    ) -> SprtRun {
        let mut run = SprtRun {
            counted: done.prefix as u32,
            score: encounter.score,
            pairs: encounter.pairs.clone(),
            waiting: BTreeMap::new(),
            counted_ahead: done.beyond.iter().map(|&i| i as u32).collect(),
            decision: None,
        };
        if decided {
            let crossed = history.iter().find_map(|&(games, llr)| {
                let verdict = sprt.decide(llr);
                let model = match games {
                    0 | 1 => SprtModel::Trinomial,
                    _ => SprtModel::Pentanomial,
                };
                (verdict != SprtVerdict::Continue).then_some(SprtStatus {
                    verdict,
                    model,
                    llr,
                    games,
                })
            });
            run.decision = Some(crossed.unwrap_or_else(|| run.status(sprt)));
        }
        run
    }

    /// Count finished game `index` (of the schedule), which scored `result` for the first
    /// engine, with every waiting game it lets in, in order, taking the test at each step that
    /// changes it until it decides: the points `(games, LLR)` it was taken at. A game after the
    /// decision, or counted already, changes nothing.
    pub(crate) fn add(&mut self, sprt: &Sprt, index: u32, result: GameScore) -> Vec<(u32, f64)> {
        let mut points = Vec::new();
        if self.decision.is_some() || index < self.counted || self.counted_ahead.contains(&index) {
            return points;
        }
        self.waiting.insert(index, result);
        loop {
            let next = self.counted;
            if self.counted_ahead.remove(&next) {
                self.counted += 1;
                continue;
            }
            let Some(result) = self.waiting.remove(&next) else {
                break;
            };
            let pairs_before = self.pairs.pentanomial().pairs();
            self.score.add(result);
            self.pairs.add(next, result);
            self.counted += 1;
            let pairs = self.pairs.pentanomial().pairs();
            if pairs == pairs_before && sprt.counts_at(pairs) == SprtModel::Pentanomial {
                // The first game of a pair: the pentanomial has not changed.
                continue;
            }
            let status = self.status(sprt);
            points.push((status.games, status.llr));
            if status.verdict != SprtVerdict::Continue {
                self.decision = Some(status);
                self.waiting.clear();
                break;
            }
        }
        points
    }

    /// The decision, once taken.
    pub(crate) fn decision(&self) -> Option<SprtStatus> {
        self.decision
    }

    /// Where the test stands: its decision, or its LLR on the games counted so far.
    pub(crate) fn status(&self, sprt: &Sprt) -> SprtStatus {
        if let Some(decision) = self.decision {
            return decision;
        }
        let pairs = self.pairs.pentanomial();
        // The pairs' own games (fishtest's BayesElo model estimates its draw Elo from them): the
        // counted games but those waiting for their partner.
        let waiting = self.pairs.unpaired_score();
        let games = match sprt.counts_at(pairs.pairs()) {
            SprtModel::Pentanomial => Score {
                wins: self.score.wins - waiting.wins,
                draws: self.score.draws - waiting.draws,
                losses: self.score.losses - waiting.losses,
            },
            SprtModel::Trinomial => self.score,
        };
        let (model, llr) = sprt.match_llr(&games, pairs);
        let games = match model {
            SprtModel::Pentanomial => 2 * pairs.pairs(),
            SprtModel::Trinomial => self.score.games(),
        };
        SprtStatus {
            verdict: sprt.decide(llr),
            model,
            llr,
            games,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::GameScore::{Draw, Loss, Win};
    use crate::stats::Pentanomial;

    fn sprt() -> Sprt {
        "0,10,0.05,0.05".parse().unwrap()
    }

    /// 110 pairs, won but for one draw in the third.
    fn results() -> Vec<GameScore> {
        let mut games = Vec::new();
        for _ in 0..110 {
            games.extend([Win, Win]);
        }
        // A draw early, so the LLR is not the same at every game count.
        games[4] = Draw;
        games
    }

    /// The games finished in `order` (a permutation of their indices): the decision and the
    /// points the test was taken at.
    fn run_in(order: &[u32], results: &[GameScore]) -> (Option<SprtStatus>, Vec<(u32, f64)>) {
        let mut run = SprtRun::default();
        let mut points = Vec::new();
        for &index in order {
            points.extend(run.add(&sprt(), index, results[index as usize]));
        }
        (run.decision(), points)
    }

    #[test]
    fn the_decision_does_not_depend_on_the_order_games_finish_in() {
        let results = results();
        let n = results.len() as u32;
        let in_order: Vec<u32> = (0..n).collect();
        let (decision, points) = run_in(&in_order, &results);
        let decision = decision.expect("decides");
        assert_eq!(decision.verdict, SprtVerdict::AcceptH1);
        assert_eq!(decision.model, SprtModel::Pentanomial);
        // 104 pairs, as with straight wins (tests/data/sprt/pentanomial_reference.py): one
        // WD pair among them does not move the decision.
        assert_eq!(decision.games, 208);
        // Taken after the first game, then after every pair.
        assert_eq!(points[0].0, 1);
        assert!(points[1..].iter().all(|&(games, _)| games % 2 == 0));
        assert_eq!(points.last().unwrap(), &(208, decision.llr));
        // The same counts give the same LLR.
        let mut pairs = Pentanomial::default();
        for pair in results[..208].chunks(2) {
            pairs.add(pair[0], pair[1]);
        }
        assert_eq!(
            decision.llr,
            sprt().llr_pentanomial(&pairs, &Score::default())
        );
        // Scrambled orders: neighbours swapped, a slow game finishing far behind, reversed
        // blocks.
        let mut swapped = in_order.clone();
        for pair in swapped.chunks_mut(2) {
            pair.swap(0, 1);
        }
        let mut slow = in_order.clone();
        let game = slow.remove(150);
        slow.insert(215, game);
        let mut blocks = in_order.clone();
        for block in blocks.chunks_mut(7) {
            block.reverse();
        }
        for order in [swapped, slow, blocks] {
            let (other, other_points) = run_in(&order, &results);
            assert_eq!(other, Some(decision));
            assert_eq!(other_points, points);
        }
    }

    #[test]
    fn games_after_the_decision_change_nothing() {
        let results = results();
        let mut run = SprtRun::default();
        for index in 0..208 {
            run.add(&sprt(), index, results[index as usize]);
        }
        let decision = run.decision().unwrap();
        assert_eq!(decision.games, 208);
        for index in 208..220 {
            assert!(run.add(&sprt(), index, Loss).is_empty());
        }
        assert_eq!(run.status(&sprt()), decision);
        // Saved and read back, it stays decided.
        let saved = serde_json::to_string(&run).unwrap();
        let read: SprtRun = serde_json::from_str(&saved).unwrap();
        assert_eq!(read, run);
    }

    #[test]
    fn an_undecided_test_stands_on_the_games_in_order() {
        let mut run = SprtRun::default();
        assert_eq!(run.status(&sprt()).games, 0);
        assert_eq!(run.status(&sprt()).llr, 0.0);
        // Game 1 first: it waits for game 0; the test has not moved.
        assert!(run.add(&sprt(), 1, Win).is_empty());
        assert_eq!(run.status(&sprt()).games, 0);
        // Game 0: the trinomial of game 0, then the first pair.
        let points = run.add(&sprt(), 0, Win);
        assert_eq!(points.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 2]);
        let status = run.status(&sprt());
        assert_eq!((status.games, status.model), (2, SprtModel::Pentanomial));
        // Games 3 and 4 wait for game 2.
        run.add(&sprt(), 3, Win);
        run.add(&sprt(), 4, Win);
        assert_eq!(run.status(&sprt()).games, 2);
        assert_eq!(run.add(&sprt(), 2, Win), vec![(4, run.status(&sprt()).llr)]);
        // Game 4 is counted, but its pair is not complete: the LLR is on the first 4 games.
        assert_eq!(run.counted, 5);
        assert_eq!(run.status(&sprt()).games, 4);
    }

    #[test]
    fn an_older_states_test_goes_on_from_its_counts() {
        // Games 0-3 and 6 done (two pairs; game 6 waits for game 7), game 4 and 5 not.
        let mut encounter = EncounterTally::default();
        for (index, result) in [(0, Win), (1, Win), (2, Draw), (3, Win), (6, Loss)] {
            encounter.score.add(result);
            encounter.pairs.add(index, result);
        }
        let mut done = DoneGames::default();
        for index in [0, 1, 2, 3, 6] {
            done.insert(index);
        }
        let mut run = SprtRun::of_older_state(&sprt(), &encounter, &done, false, &[]);
        assert_eq!(run.status(&sprt()).games, 4);
        // Games 4 and 5 finish: a pair more, and game 6 is skipped (counted already).
        run.add(&sprt(), 5, Win);
        run.add(&sprt(), 4, Win);
        assert_eq!(run.status(&sprt()).games, 6);
        assert_eq!(run.pairs.pentanomial().pairs(), 3);
        // Game 7 completes game 6's pair.
        run.add(&sprt(), 7, Win);
        assert_eq!(run.pairs.pentanomial().counts, [0, 0, 1, 1, 2]);
        assert_eq!(run.counted, 8);
        // A decided one keeps the decision its history shows.
        let history = [(2, 0.5), (100, 3.1), (102, 2.0)];
        let decided = SprtRun::of_older_state(&sprt(), &encounter, &done, true, &history);
        let decision = decided.decision().unwrap();
        assert_eq!(
            (decision.verdict, decision.games, decision.llr),
            (SprtVerdict::AcceptH1, 100, 3.1)
        );
    }

    /// cutechess-cli and fastchess without the pentanomial take the test after every game,
    /// fastchess with it after each complete pair only (not on the first game, as Shannon's own
    /// test does); each on its own counts.
    #[test]
    fn each_tool_takes_its_test_when_it_does() {
        use crate::stats::{EloModel, SprtTest};
        let results = [Win, Draw, Loss, Win, Win, Draw, Draw];
        let taken_at = |test: SprtTest| -> (Vec<u32>, SprtStatus) {
            let sprt = sprt().with_test(test);
            let mut run = SprtRun::default();
            let mut points = Vec::new();
            for (index, &result) in results.iter().enumerate() {
                points.extend(run.add(&sprt, index as u32, result));
            }
            (points.iter().map(|p| p.0).collect(), run.status(&sprt))
        };
        let (games, status) = taken_at(SprtTest::Cutechess);
        assert_eq!(games, [1, 2, 3, 4, 5, 6, 7]);
        assert_eq!((status.model, status.games), (SprtModel::Trinomial, 7));
        let cute = sprt().with_test(SprtTest::Cutechess);
        assert_eq!(
            status.llr,
            cute.llr(&Score {
                wins: 3,
                draws: 3,
                losses: 1
            })
        );
        let (games, status) = taken_at(SprtTest::fastchess(EloModel::Normalized, false));
        assert_eq!(games, [1, 2, 3, 4, 5, 6, 7]);
        assert_eq!((status.model, status.games), (SprtModel::Trinomial, 7));
        let (games, status) = taken_at(SprtTest::fastchess(EloModel::Normalized, true));
        assert_eq!(games, [2, 4, 6]);
        assert_eq!((status.model, status.games), (SprtModel::Pentanomial, 6));
        let (games, _) = taken_at(SprtTest::Fishtest(EloModel::Logistic));
        assert_eq!(games, [1, 2, 4, 6]);
        // fishtest's BayesElo model takes its draw Elo from the pairs' games, not from game 7
        // waiting for its partner.
        let bayes = sprt().with_test(SprtTest::Fishtest(EloModel::Bayesian));
        let (_, status) = taken_at(bayes.test);
        let mut pairs = Pentanomial::default();
        for pair in results[..6].chunks(2) {
            pairs.add(pair[0], pair[1]);
        }
        let six = Score {
            wins: 3,
            draws: 2,
            losses: 1,
        };
        assert_eq!(status.llr, bayes.llr_pentanomial(&pairs, &six));
    }
}
