//! The population of finished random games: how many ended by each rule, at each length. Only
//! integer counts are kept, so tallies add exactly: any split of a run over threads, shards or
//! restarts sums to the same tally, and every statistic is computed from it at the end.

use super::play::GameSummary;
use crate::game::{DrawClaim, Ending, Finish};
use crate::stats::nearest_rank;
use crate::Color;
use serde::{Deserialize, Serialize};

/// The ways a random game can end, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// White mated Black.
    MateByWhite,
    /// Black mated White.
    MateByBlack,
    /// Stalemate.
    Stalemate,
    /// Dead position by material.
    InsufficientMaterial,
    /// The 50-move rule.
    FiftyMoveRule,
    /// The 75-move rule.
    SeventyFiveMoveRule,
    /// Threefold repetition.
    ThreefoldRepetition,
    /// Fivefold repetition.
    FivefoldRepetition,
    /// The ply limit.
    PlyLimit,
}

/// The number of categories.
pub const CATEGORIES: usize = 9;

impl Category {
    /// Every category, in report order.
    pub const ALL: [Category; CATEGORIES] = [
        Category::MateByWhite,
        Category::MateByBlack,
        Category::Stalemate,
        Category::InsufficientMaterial,
        Category::FiftyMoveRule,
        Category::SeventyFiveMoveRule,
        Category::ThreefoldRepetition,
        Category::FivefoldRepetition,
        Category::PlyLimit,
    ];

    /// The category of a game's ending.
    pub fn of(finish: Option<Finish>) -> Category {
        match finish {
            Some(Finish::Rule(Ending::Checkmate {
                winner: Color::White,
            })) => Category::MateByWhite,
            Some(Finish::Rule(Ending::Checkmate {
                winner: Color::Black,
            })) => Category::MateByBlack,
            Some(Finish::Rule(Ending::Stalemate)) => Category::Stalemate,
            Some(Finish::Rule(Ending::InsufficientMaterial)) => Category::InsufficientMaterial,
            Some(Finish::Claim(DrawClaim::FiftyMoveRule)) => Category::FiftyMoveRule,
            Some(Finish::Rule(Ending::SeventyFiveMoveRule)) => Category::SeventyFiveMoveRule,
            Some(Finish::Claim(DrawClaim::ThreefoldRepetition)) => Category::ThreefoldRepetition,
            Some(Finish::Rule(Ending::FivefoldRepetition)) => Category::FivefoldRepetition,
            None => Category::PlyLimit,
        }
    }

    /// Its place in [`Category::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// A short name for tables and plots.
    pub fn name(self) -> &'static str {
        match self {
            Category::MateByWhite => "checkmate, white wins",
            Category::MateByBlack => "checkmate, black wins",
            Category::Stalemate => "stalemate",
            Category::InsufficientMaterial => "insufficient material",
            Category::FiftyMoveRule => "50-move rule",
            Category::SeventyFiveMoveRule => "75-move rule",
            Category::ThreefoldRepetition => "threefold repetition",
            Category::FivefoldRepetition => "fivefold repetition",
            Category::PlyLimit => "ply limit",
        }
    }

    /// A machine name for JSON: `mate-white`, `fifty-move`, ...
    pub fn key(self) -> &'static str {
        match self {
            Category::MateByWhite => "mate-white",
            Category::MateByBlack => "mate-black",
            Category::Stalemate => "stalemate",
            Category::InsufficientMaterial => "insufficient-material",
            Category::FiftyMoveRule => "fifty-move",
            Category::SeventyFiveMoveRule => "seventy-five-move",
            Category::ThreefoldRepetition => "threefold",
            Category::FivefoldRepetition => "fivefold",
            Category::PlyLimit => "ply-limit",
        }
    }
}

/// Games counted by length (plies) and category.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// `by_length[plies][category]`.
    by_length: Vec<[u64; CATEGORIES]>,
}

/// One row of a tally as JSON keeps it: a length and the count of each category (only lengths
/// some game had are written).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LengthRow(pub u32, pub [u64; CATEGORIES]);

impl Tally {
    /// An empty tally.
    pub fn new() -> Tally {
        Tally::default()
    }

    /// Count one game.
    #[inline]
    pub fn add(&mut self, game: GameSummary) {
        let plies = game.plies as usize;
        if plies >= self.by_length.len() {
            self.by_length.resize(plies + 1, [0; CATEGORIES]);
        }
        self.by_length[plies][Category::of(game.finish).index()] += 1;
    }

    /// Add every game of `other`.
    pub fn merge(&mut self, other: &Tally) {
        if other.by_length.len() > self.by_length.len() {
            self.by_length
                .resize(other.by_length.len(), [0; CATEGORIES]);
        }
        for (mine, theirs) in self.by_length.iter_mut().zip(&other.by_length) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }

    /// The non-empty rows, shortest first.
    pub fn rows(&self) -> Vec<LengthRow> {
        self.by_length
            .iter()
            .enumerate()
            .filter(|(_, counts)| counts.iter().any(|&c| c > 0))
            .map(|(plies, counts)| LengthRow(plies as u32, *counts))
            .collect()
    }

    /// The tally of these rows (lengths may come in any order and more than once).
    pub fn from_rows(rows: &[LengthRow]) -> Tally {
        let mut tally = Tally::new();
        for LengthRow(plies, counts) in rows {
            let plies = *plies as usize;
            if plies >= tally.by_length.len() {
                tally.by_length.resize(plies + 1, [0; CATEGORIES]);
            }
            for (a, b) in tally.by_length[plies].iter_mut().zip(counts) {
                *a += b;
            }
        }
        tally
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.by_length.iter().flatten().sum()
    }

    /// Plies played in all games.
    pub fn plies(&self) -> u64 {
        self.lengths().map(|(plies, n)| plies * n).sum()
    }

    /// Games of each category, in [`Category::ALL`] order.
    pub fn counts(&self) -> [u64; CATEGORIES] {
        let mut counts = [0; CATEGORIES];
        for row in &self.by_length {
            for (total, n) in counts.iter_mut().zip(row) {
                *total += n;
            }
        }
        counts
    }

    /// (length, games of that length) for every length with games.
    pub fn lengths(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.by_length
            .iter()
            .enumerate()
            .map(|(plies, row)| (plies as u64, row.iter().sum::<u64>()))
            .filter(|&(_, n)| n > 0)
    }

    /// The length statistics, or `None` for an empty tally.
    pub fn length_stats(&self) -> Option<LengthStats> {
        let games = self.games();
        if games == 0 {
            return None;
        }
        let (mut sum, mut squares) = (0u128, 0u128);
        for (plies, n) in self.lengths() {
            sum += u128::from(plies) * u128::from(n);
            squares += u128::from(plies) * u128::from(plies) * u128::from(n);
        }
        let mean = sum as f64 / games as f64;
        // Exact integer sums, so the variance loses nothing to cancellation.
        let variance = if games > 1 {
            (squares as f64 - (sum as f64) * mean) / (games - 1) as f64
        } else {
            0.0
        };
        let percentile = |p: f64| self.percentile(p, games);
        Some(LengthStats {
            mean,
            sd: variance.max(0.0).sqrt(),
            min: self.lengths().next().map_or(0, |(plies, _)| plies),
            max: self.lengths().last().map_or(0, |(plies, _)| plies),
            median: percentile(50.0),
            percentiles: PERCENTILES.map(|p| (p, percentile(p))).to_vec(),
        })
    }

    /// The nearest-rank percentile: the smallest length at least `p`% of games do not exceed.
    fn percentile(&self, p: f64, games: u64) -> u64 {
        nearest_rank(p, games, self.lengths()).unwrap_or(0)
    }
}

/// The percentiles reported.
pub const PERCENTILES: [f64; 9] = [1.0, 5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0];

/// Game lengths in plies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LengthStats {
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation.
    pub sd: f64,
    /// Shortest.
    pub min: u64,
    /// Longest.
    pub max: u64,
    /// Median (nearest rank).
    pub median: u64,
    /// (percent, length) pairs, nearest rank.
    pub percentiles: Vec<(f64, u64)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(plies: u32, finish: Option<Finish>) -> GameSummary {
        GameSummary { plies, finish }
    }

    #[test]
    fn statistics_from_a_small_tally() {
        let mut tally = Tally::new();
        let stalemate = Some(Finish::Rule(Ending::Stalemate));
        for plies in [10, 20, 30, 40] {
            tally.add(game(plies, stalemate));
        }
        tally.add(game(100, None));
        assert_eq!(tally.games(), 5);
        assert_eq!(tally.plies(), 200);
        let counts = tally.counts();
        assert_eq!(counts[Category::Stalemate.index()], 4);
        assert_eq!(counts[Category::PlyLimit.index()], 1);
        let stats = tally.length_stats().unwrap();
        assert_eq!(stats.mean, 40.0);
        // Sample sd of 10, 20, 30, 40, 100: sqrt(5000 / 4).
        assert!((stats.sd - 1250f64.sqrt()).abs() < 1e-9);
        assert_eq!((stats.min, stats.median, stats.max), (10, 30, 100));
        assert_eq!(stats.percentiles[0], (1.0, 10));
        assert_eq!(stats.percentiles[8], (99.0, 100));
    }

    #[test]
    fn merging_is_adding_and_rows_round_trip() {
        let mut a = Tally::new();
        let mut b = Tally::new();
        a.add(game(5, None));
        b.add(game(7, Some(Finish::Claim(DrawClaim::FiftyMoveRule))));
        b.add(game(5, None));
        let mut both = a.clone();
        both.merge(&b);
        assert_eq!(both.games(), 3);
        assert_eq!(Tally::from_rows(&both.rows()), both);
        let mut other_order = b.clone();
        other_order.merge(&a);
        assert_eq!(other_order, both);
    }
}
