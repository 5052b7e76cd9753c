//! Match statistics: score, Elo difference with its 95% error margin, likelihood of superiority,
//! and the sequential probability ratio test (SPRT) that stops a match once it is decided.
//!
//! The Elo figures use the logistic model and the trinomial (win/draw/loss) variance of a
//! game's score, as Cute Chess and fishtest do; the SPRT uses the normal approximation of the
//! log-likelihood ratio between the two Elo hypotheses.

/// Wins, draws and losses from the first engine's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
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
fn erf(x: f64) -> f64 {
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

/// A sequential test of H0 "the Elo difference is `elo0`" against H1 "it is `elo1`".
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where a running SPRT stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SprtVerdict {
    /// Keep playing.
    Continue,
    /// H0 accepted.
    AcceptH0,
    /// H1 accepted.
    AcceptH1,
}

impl Sprt {
    /// Parse `elo0,elo1,alpha,beta`.
    pub fn parse(text: &str) -> Option<Sprt> {
        let values: Vec<f64> = text
            .split(',')
            .map(|v| v.trim().parse().ok())
            .collect::<Option<_>>()?;
        match values[..] {
            [elo0, elo1, alpha, beta]
                if elo0 < elo1 && alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0 =>
            {
                Some(Sprt {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                })
            }
            _ => None,
        }
    }

    /// The acceptance bounds of the log-likelihood ratio: (H0 below, H1 above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results so far (0 before any information).
    pub fn llr(&self, score: &Score) -> f64 {
        let n = f64::from(score.games());
        let variance = score.variance();
        if n == 0.0 || variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * score.ratio() - s0 - s1) / (2.0 * variance)
    }

    /// Accept, reject or continue.
    pub fn verdict(&self, score: &Score) -> SprtVerdict {
        let llr = self.llr(score);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
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

    #[test]
    fn sprt_decides_clear_cases() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944).abs() < 0.01 && (lower + 2.944).abs() < 0.01);
        let strong = Score {
            wins: 600,
            draws: 200,
            losses: 200,
        };
        assert_eq!(sprt.verdict(&strong), SprtVerdict::AcceptH1);
        let weak = Score {
            wins: 200,
            draws: 200,
            losses: 600,
        };
        assert_eq!(sprt.verdict(&weak), SprtVerdict::AcceptH0);
        let early = Score {
            wins: 2,
            draws: 1,
            losses: 1,
        };
        assert_eq!(sprt.verdict(&early), SprtVerdict::Continue);
        assert!(Sprt::parse("10,0,0.05,0.05").is_none());
        assert!(Sprt::parse("0,10,0.05").is_none());
    }
}
