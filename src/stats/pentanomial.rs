//! Game pairs: the two games of one opening, colours swapped (games `2k` and `2k + 1`, 0-based,
//! in a match), counted by the first engine's score over the pair.
//!
//! Games finish out of order when several run at once, so [`PairTally`] keeps the first finished
//! game of each pair until its partner finishes; a pair whose partner never finishes (the match
//! stopped, or the game ended unfinished) stays out of the counts.

use super::{GameScore, Score};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Game pairs by the first engine's score over the pair, from 0 to 2 points in half points:
/// `counts[0]` LL, `counts[1]` LD (or DL), `counts[2]` DD or WL (or LW), `counts[3]` WD (or
/// DW), `counts[4]` WW.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pairs scoring 0, 1/2, 1, 3/2 and 2 points.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Complete pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Count the pair of games `first` and `second`.
    pub fn add(&mut self, first: GameScore, second: GameScore) {
        self.counts[(first.half_points() + second.half_points()) as usize] += 1;
    }
}

/// The pentanomial of a match's complete pairs, filled as games finish in any order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairTally {
    pentanomial: Pentanomial,
    /// Finished games whose partner has not finished: pair number -> (game index, result).
    waiting: HashMap<u32, (u32, GameScore)>,
}

impl PairTally {
    /// Count the finished game `game` (0-based index in the match; games `2k` and `2k + 1` form
    /// pair `k`): it waits for its partner, or completes the pair with it. Only finished games
    /// belong here; a game given twice is counted once.
    pub fn add(&mut self, game: u32, score: GameScore) {
        let pair = game / 2;
        match self.waiting.get(&pair) {
            Some(&(first, first_score)) if first != game => {
                self.waiting.remove(&pair);
                self.pentanomial.add(first_score, score);
            }
            Some(_) => {}
            None => {
                self.waiting.insert(pair, (game, score));
            }
        }
    }

    /// Add another tally of the same match (a shard's, or a saved one): its complete pairs, and
    /// its waiting games, which may complete pairs waiting here.
    pub fn merge(&mut self, other: &PairTally) {
        for (count, more) in self
            .pentanomial
            .counts
            .iter_mut()
            .zip(other.pentanomial.counts)
        {
            *count += more;
        }
        let mut waiting: Vec<_> = other.waiting.values().copied().collect();
        waiting.sort_unstable_by_key(|&(game, _)| game);
        for (game, score) in waiting {
            self.add(game, score);
        }
    }

    /// Add complete pairs counted elsewhere (games played by another program before this run:
    /// fastchess's saved results), by their counts.
    pub fn add_pairs(&mut self, pairs: &Pentanomial) {
        for (count, more) in self.pentanomial.counts.iter_mut().zip(pairs.counts) {
            *count += more;
        }
    }

    /// The counts of the complete pairs.
    pub fn pentanomial(&self) -> &Pentanomial {
        &self.pentanomial
    }

    /// Finished games whose partner has not finished (not in the counts).
    pub fn unpaired(&self) -> u32 {
        self.waiting.len() as u32
    }

    /// The results of the finished games whose partner has not finished.
    pub fn unpaired_score(&self) -> Score {
        let mut score = Score::default();
        for &(_, result) in self.waiting.values() {
            score.add(result);
        }
        score
    }

    /// True when finished game `game` waits for its partner (its pair is not complete).
    pub fn waits(&self, game: u32) -> bool {
        self.waiting
            .get(&(game / 2))
            .is_some_and(|&(first, _)| first == game)
    }
}

#[cfg(test)]
mod tests {
    use super::GameScore::{Draw, Loss, Win};
    use super::*;

    #[test]
    fn pairs_are_counted_by_their_score() {
        let mut p = Pentanomial::default();
        for (a, b) in [
            (Loss, Loss),
            (Loss, Draw),
            (Draw, Loss),
            (Draw, Draw),
            (Win, Loss),
            (Loss, Win),
            (Win, Draw),
            (Win, Win),
        ] {
            p.add(a, b);
        }
        assert_eq!(p.counts, [1, 2, 3, 1, 1]);
        assert_eq!(p.pairs(), 8);
    }

    #[test]
    fn a_pair_completes_when_both_games_finish_in_any_order() {
        let mut tally = PairTally::default();
        // Concurrency scrambles the order: game 3 first, then 0, 5, 2 (pair 1 done), 1 (pair 0
        // done); game 4 never finishes, so game 5 waits for ever.
        tally.add(3, Win);
        assert_eq!((tally.pentanomial().pairs(), tally.unpaired()), (0, 1));
        tally.add(0, Draw);
        tally.add(5, Loss);
        assert_eq!((tally.pentanomial().pairs(), tally.unpaired()), (0, 3));
        tally.add(2, Win);
        assert_eq!(tally.pentanomial().counts, [0, 0, 0, 0, 1]);
        tally.add(1, Loss);
        assert_eq!(tally.pentanomial().counts, [0, 1, 0, 0, 1]);
        assert_eq!(tally.unpaired(), 1);
        assert!(tally.waits(5) && !tally.waits(4) && !tally.waits(1));
        assert_eq!(
            tally.unpaired_score(),
            Score {
                losses: 1,
                ..Score::default()
            }
        );
        // Game 5's partner is game 4, not game 6: pair 3 (games 6, 7) is separate.
        tally.add(6, Draw);
        assert_eq!(tally.unpaired(), 2);
        tally.add(4, Draw);
        assert_eq!(tally.pentanomial().counts, [0, 2, 0, 0, 1]);
        assert_eq!(tally.unpaired(), 1);
    }

    #[test]
    fn merged_tallies_complete_pairs_across_them() {
        let (mut a, mut b) = (PairTally::default(), PairTally::default());
        a.add(0, Win);
        a.add(1, Draw);
        a.add(2, Loss);
        b.add(3, Loss);
        b.add(5, Win);
        a.merge(&b);
        assert_eq!(a.pentanomial().counts, [1, 0, 0, 1, 0]);
        assert_eq!(a.unpaired(), 1);
    }

    #[test]
    fn the_same_game_twice_does_not_make_a_pair() {
        let mut tally = PairTally::default();
        tally.add(7, Win);
        tally.add(7, Win);
        assert_eq!((tally.pentanomial().pairs(), tally.unpaired()), (0, 1));
        tally.add(6, Win);
        assert_eq!(tally.pentanomial().counts, [0, 0, 0, 0, 1]);
    }
}
