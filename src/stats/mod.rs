//! The statistics of matches and experiments: score, Elo difference with its 95% error margin,
//! likelihood of superiority, the pentanomial counts of game pairs, the sequential probability
//! ratio test (SPRT) that stops a match once it is decided, the Wilson interval of a share and
//! the nearest-rank percentile. Numbers in, numbers out: nothing here plays or prints.
//!
//! The Elo figures use the logistic model and the trinomial (win/draw/loss) variance of a
//! game's score, as Cute Chess and fishtest do. `pentanomial` counts the game pairs (the two
//! games of one opening, colours swapped) by their score. `sprt` is the SPRT as each of
//! fishtest (Shannon's own test), fastchess and cutechess-cli computes it, in their Elo models.

mod interval;
mod pentanomial;
mod sprt;

pub use interval::{nearest_rank, wilson_interval};
pub use pentanomial::{PairTally, Pentanomial};
pub use sprt::{EloModel, Sprt, SprtError, SprtModel, SprtTest, SprtVerdict, REGULARISATION};

use serde::{Deserialize, Serialize};

/// The result of one game from the first engine's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameScore {
    /// The first engine lost.
    Loss,
    /// A draw.
    Draw,
    /// The first engine won.
    Win,
}

impl GameScore {
    /// The first engine's score in half points: 0, 1 or 2.
    pub fn half_points(self) -> u32 {
        match self {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        }
    }
}

/// Wins, draws and losses from the first engine's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

/// Expected score of a player `elo` points stronger.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives `score` (0 < score < 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The error function, by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = x.signum();
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

impl Score {
    /// Count one game.
    pub fn add(&mut self, game: GameScore) {
        match game {
            GameScore::Loss => self.losses += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Win => self.wins += 1,
        }
    }

    /// The same games from the other engine's point of view.
    pub fn reversed(&self) -> Score {
        Score {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Both tallies together.
    pub fn plus(&self, other: &Score) -> Score {
        Score {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
        }
    }

    /// Points scored (a win 1, a draw 1/2).
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game for the first engine, 0..1.
    pub fn ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    /// Variance of one game's score.
    fn variance(&self) -> f64 {
        let n = f64::from(self.games());
        if n == 0.0 {
            return 0.0;
        }
        let mean = self.ratio();
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2)
    }

    /// The Elo difference and its 95% margin; `None` while every game has the same result (the
    /// estimate is infinite then).
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.games());
        let score = self.ratio();
        if n == 0.0 || score <= 0.0 || score >= 1.0 {
            return None;
        }
        let deviation = (self.variance() / n).sqrt();
        let low = (score - 1.959_964 * deviation).max(1e-9);
        let high = (score + 1.959_964 * deviation).min(1.0 - 1e-9);
        let elo = elo_from_score(score);
        let margin = (elo_from_score(high) - elo_from_score(low)) / 2.0;
        Some((elo, margin))
    }

    /// Likelihood of superiority: the probability that the first engine is the stronger,
    /// from wins and losses (draws carry no information on it).
    pub fn likelihood_of_superiority(&self) -> f64 {
        let decisive = f64::from(self.wins + self.losses);
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((f64::from(self.wins) - f64::from(self.losses)) / (2.0 * decisive).sqrt()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
        assert!(elo_from_score(0.5).abs() < 1e-9);
        let even = Score {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        let (elo, margin) = even.elo().unwrap();
        assert!(
            elo.abs() < 1e-9 && margin > 30.0 && margin < 80.0,
            "{margin}"
        );
        assert_eq!(
            Score {
                wins: 5,
                draws: 0,
                losses: 0
            }
            .elo(),
            None
        );
        assert!((even.likelihood_of_superiority() - 0.5).abs() < 1e-9);
        let ahead = Score {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(ahead.likelihood_of_superiority() > 0.999);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
    }
}
