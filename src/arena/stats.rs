//! Match statistics: score, Elo difference with its 95% error margin, likelihood of superiority,
//! and the sequential probability ratio test (SPRT) that stops a match once it is decided.
//!
//! The Elo figures use the logistic model and the trinomial (win/draw/loss) variance of a
//! game's score, as Cute Chess and fishtest do. The SPRT is fishtest's generalised SPRT on the
//! trinomial: the log-likelihood ratio of the maximum-likelihood win/draw/loss distributions
//! whose expected scores are those of the two Elo hypotheses, computed from the observed
//! frequencies after the same regularisation fishtest applies (a result never seen counts as
//! 0.001 games). Without that, a match where every game has the same result has no observed
//! variance and the test could never decide, however one-sided the score.

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

/// What a result never observed counts as in the SPRT (fishtest's regularisation).
pub const REGULARISATION: f64 = 1e-3;

/// The score of a loss, a draw and a win, in the order the SPRT's frequencies are kept.
const OUTCOME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The Lagrange multiplier `x` of the maximum-likelihood distribution with mean `s` given the
/// observed frequencies `p` (all positive): the root of
/// `f(x) = sum p_i (a_i - s) / (1 + x (a_i - s))` on `(-1 / (1 - s), 1 / s)`, where every
/// `1 + x (a_i - s)` stays positive. `f` falls strictly there, from +inf to -inf, so bisection
/// finds the root to the last bit; 0 < s < 1 holds for every finite Elo.
fn mle_multiplier(p: &[f64; 3], s: f64) -> f64 {
    let f = |x: f64| -> f64 {
        (0..3)
            .map(|i| {
                let b = OUTCOME_SCORES[i] - s;
                p[i] * b / (1.0 + x * b)
            })
            .sum()
    };
    let (mut low, mut high) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..2_000 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            break;
        }
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    0.5 * (low + high)
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
            // Elo beyond +-2000 is an expected score of 1 or 0 in floating point, where the
            // likelihood ratio is undefined; no test needs it.
            [elo0, elo1, alpha, beta]
                if elo0 < elo1
                    && (-2000.0..=2000.0).contains(&elo0)
                    && (-2000.0..=2000.0).contains(&elo1)
                    && alpha > 0.0
                    && alpha < 1.0
                    && beta > 0.0
                    && beta < 1.0 =>
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

    /// The log-likelihood ratio of the results so far (0 before any game).
    ///
    /// fishtest's `LLR_logistic` for three outcomes: the counts are regularised (a zero count
    /// becomes [`REGULARISATION`] so an all-wins, all-draws or all-losses score still carries
    /// information), turned into frequencies `p` over the scores 0, 1/2 and 1, and for each
    /// hypothesis' expected score `s` the most likely distribution with that mean is
    /// `p_i / (1 + x (a_i - s))` (Van den Bergh's "support_MLE_multinomial", Proposition 1.1);
    /// the ratio is `N * sum p_i ln(p1_i / p0_i)`.
    pub fn llr(&self, score: &Score) -> f64 {
        if score.games() == 0 {
            return 0.0;
        }
        let counts = [score.losses, score.draws, score.wins].map(|c| match c {
            0 => REGULARISATION,
            c => f64::from(c),
        });
        let n: f64 = counts.iter().sum();
        let p = counts.map(|c| c / n);
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        let x0 = mle_multiplier(&p, s0);
        let x1 = mle_multiplier(&p, s1);
        let per_game: f64 = (0..3)
            .map(|i| {
                let a = OUTCOME_SCORES[i];
                p[i] * ((1.0 + x0 * (a - s0)) / (1.0 + x1 * (a - s1))).ln()
            })
            .sum();
        n * per_game
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
        assert!(Sprt::parse("-inf,0,0.05,0.05").is_none());
        assert!(Sprt::parse("0,5000,0.05,0.05").is_none());
        assert!(Sprt::parse("-5,5,0.05,0.05").is_some());
        assert!(Sprt::parse("0,10,0.05").is_none());
    }

    fn score(wins: u32, draws: u32, losses: u32) -> Score {
        Score {
            wins,
            draws,
            losses,
        }
    }

    /// LLRs for `0,10` from `tests/data/sprt/llr_reference.py`, which follows the published
    /// formulas (fishtest's regularisation, the multinomial MLE of Proposition 1.1) but solves
    /// the three-outcome secular equation as a quadratic in closed form instead of bisecting;
    /// `python3 tests/data/sprt/llr_reference.py` prints them.
    const REFERENCE_0_10: [((u32, u32, u32), f64); 8] = [
        ((200, 0, 0), 5.673631181417826),
        ((0, 200, 0), -5.830357904345408),
        ((0, 0, 200), -5.8392942829765095),
        ((1, 0, 0), 0.02836727254835294),
        ((600, 200, 200), 13.898221639392737),
        ((200, 200, 600), -14.881857555271488),
        ((2, 1, 1), 0.036223743425350674),
        ((30, 40, 30), -0.06901291569175583),
    ];

    #[test]
    fn llr_matches_an_independent_computation() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        for ((w, d, l), expected) in REFERENCE_0_10 {
            let llr = sprt.llr(&score(w, d, l));
            assert!(
                (llr - expected).abs() < 1e-9,
                "{w}-{d}-{l} (W-D-L): LLR {llr}, reference {expected}"
            );
        }
        // The same script: all wins with elo0 -5, elo1 5.
        let sprt = Sprt::parse("-5,5,0.05,0.05").unwrap();
        assert!((sprt.llr(&score(200, 0, 0)) - 5.756462732197207).abs() < 1e-9);
        assert_eq!(sprt.llr(&Score::default()), 0.0);
    }

    /// Issue 9: a score with no variance (every game the same result) gave LLR 0 for ever.
    #[test]
    fn one_sided_scores_decide() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        assert_eq!(sprt.verdict(&score(200, 0, 0)), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(&score(0, 200, 0)), SprtVerdict::AcceptH0);
        assert_eq!(sprt.verdict(&score(0, 0, 200)), SprtVerdict::AcceptH0);
        // The reference script finds the first decisive game counts: 104 wins, 102 draws and
        // 101 losses in a row; one game fewer is not enough.
        type InARow = fn(u32) -> Score;
        let cases: [(InARow, u32, SprtVerdict); 3] = [
            (|n| score(n, 0, 0), 104, SprtVerdict::AcceptH1),
            (|n| score(0, n, 0), 102, SprtVerdict::AcceptH0),
            (|n| score(0, 0, n), 101, SprtVerdict::AcceptH0),
        ];
        for (at, decides_at, verdict) in cases {
            assert_eq!(
                sprt.verdict(&at(decides_at)),
                verdict,
                "{:?}",
                at(decides_at)
            );
            assert_eq!(
                sprt.verdict(&at(decides_at - 1)),
                SprtVerdict::Continue,
                "{:?}",
                at(decides_at - 1)
            );
        }
    }
}
