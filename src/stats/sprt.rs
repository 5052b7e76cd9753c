//! fishtest's generalised SPRT (GSPRT) in logistic Elo, on game pairs (pentanomial) or single
//! games (trinomial).
//!
//! The log-likelihood ratio is fishtest's `LLR_logistic` (its `LLRcalc.py`): the counts of the
//! outcomes are regularised (a count of zero becomes [`REGULARISATION`], so a match where every
//! game or pair has the same result still decides), turned into frequencies `p_i` over the
//! outcomes' scores `a_i` (per game: 0, 1/2, 1 for a single game; 0, 1/4, 1/2, 3/4, 1 for a pair),
//! and for each hypothesis' expected score per game `s = 1 / (1 + 10^(-elo / 400))` the most
//! likely distribution with that mean is `p_i / (1 + x (a_i - s))` (Van den Bergh,
//! "support_MLE_multinomial", Proposition 1.1). The ratio is `N sum p_i ln(p1_i / p0_i)` with `N`
//! the number of games or of pairs.
//!
//! Which counts a match tests ([`Sprt::match_llr`]): the pentanomial of its complete pairs as soon
//! as one pair is complete (as fishtest and fastchess do; the games whose partner has not finished
//! are left out of the test until it has), and the trinomial of its finished games before that.
//!
//! Logistic Elo rather than fishtest's normalised Elo: `elo0` and `elo1` are then in the units of
//! the Elo difference the match table prints, and the trinomial used before the first pair
//! completes measures the same thing; the logistic maximum-likelihood fit is also one monotone
//! equation solved to the last bit, where the normalised one is a fixed-point iteration.

use super::{expected_score, Pentanomial, Score};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What an outcome never observed counts as in the SPRT (fishtest's regularisation).
pub const REGULARISATION: f64 = 1e-3;

/// The Lagrange multiplier `x` of the maximum-likelihood distribution with mean `s` given the
/// observed frequencies `p` (all positive) of the outcomes scoring `i / (len - 1)`: the root of
/// `f(x) = sum p_i (a_i - s) / (1 + x (a_i - s))` on `(-1 / (1 - s), 1 / s)`, where every
/// `1 + x (a_i - s)` stays positive. `f` falls strictly there, from +inf to -inf, so bisection
/// finds the root to the last bit; 0 < s < 1 holds for every finite Elo.
fn mle_multiplier(p: &[f64], s: f64) -> f64 {
    let last = (p.len() - 1) as f64;
    let f = |x: f64| -> f64 {
        p.iter()
            .enumerate()
            .map(|(i, p)| {
                let b = i as f64 / last - s;
                p * b / (1.0 + x * b)
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

/// fishtest's `LLR_logistic` for the counts of outcomes scoring `0, 1 / (len - 1), ..., 1` per
/// game: 0 while nothing is counted.
fn llr_logistic(counts: &[u32], elo0: f64, elo1: f64) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let counts: Vec<f64> = counts
        .iter()
        .map(|&c| match c {
            0 => REGULARISATION,
            c => f64::from(c),
        })
        .collect();
    let n: f64 = counts.iter().sum();
    let p: Vec<f64> = counts.iter().map(|c| c / n).collect();
    let last = (p.len() - 1) as f64;
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    let x0 = mle_multiplier(&p, s0);
    let x1 = mle_multiplier(&p, s1);
    let per_sample: f64 = p
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let a = i as f64 / last;
            p * ((1.0 + x0 * (a - s0)) / (1.0 + x1 * (a - s1))).ln()
        })
        .sum();
    n * per_sample
}

/// A sequential test of H0 "the Elo difference is `elo0`" against H1 "it is `elo1`": made by
/// [`Sprt::new`] or parsed, so always one that can be run (a saved one is checked when read).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "SprtFields")]
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

/// Where a running SPRT stands (saved by its stable names: `continue`, `accept-h0`,
/// `accept-h1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtVerdict {
    /// Keep playing.
    Continue,
    /// H0 accepted.
    AcceptH0,
    /// H1 accepted.
    AcceptH1,
}

impl fmt::Display for SprtVerdict {
    /// The verdict in the words every report uses: `H0 accepted`, `H1 accepted`, `no decision
    /// yet`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtVerdict::AcceptH0 => "H0 accepted",
            SprtVerdict::AcceptH1 => "H1 accepted",
            SprtVerdict::Continue => "no decision yet",
        })
    }
}

/// Why an SPRT's settings are refused: text that is not four numbers, or a test that cannot be
/// run (fastchess refuses the same ones, by the same rules).
#[derive(Debug, Clone, PartialEq)]
pub enum SprtError {
    /// Not `elo0,elo1,alpha,beta` (the text given).
    Malformed(String),
    /// `elo0` is not below `elo1`: the hypotheses are the same, or swapped.
    Elo0NotBelowElo1 {
        /// elo0.
        elo0: f64,
        /// elo1.
        elo1: f64,
    },
    /// An Elo that is not a number between -2000 and 2000 (beyond, the expected score is 0 or 1
    /// in floating point and the likelihood ratio is undefined).
    EloOutOfRange(f64),
    /// `alpha` is not strictly between 0 and 1.
    Alpha(f64),
    /// `beta` is not strictly between 0 and 1.
    Beta(f64),
    /// `alpha + beta` is 1 or more: the bounds meet or cross, and the test would decide
    /// before any game.
    AlphaPlusBeta {
        /// alpha.
        alpha: f64,
        /// beta.
        beta: f64,
    },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::Malformed(text) => write!(
                f,
                "'{text}': expected elo0,elo1,alpha,beta with elo0 < elo1, e.g. 0,10,0.05,0.05"
            ),
            SprtError::Elo0NotBelowElo1 { elo0, elo1 } => {
                write!(f, "elo0 ({elo0}) must be less than elo1 ({elo1})")
            }
            SprtError::EloOutOfRange(elo) => {
                write!(
                    f,
                    "an Elo of {elo}: elo0 and elo1 must be between -2000 and 2000"
                )
            }
            SprtError::Alpha(alpha) => {
                write!(f, "alpha ({alpha}) must be between 0 and 1, both excluded")
            }
            SprtError::Beta(beta) => {
                write!(f, "beta ({beta}) must be between 0 and 1, both excluded")
            }
            SprtError::AlphaPlusBeta { alpha, beta } => write!(
                f,
                "the sum of alpha and beta must be less than 1 (alpha {alpha} + beta {beta} = \
                 {}): the bounds would cross and the test would decide before any game",
                alpha + beta
            ),
        }
    }
}

impl std::error::Error for SprtError {}

impl FromStr for Sprt {
    type Err = SprtError;

    /// `elo0,elo1,alpha,beta`.
    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let values: Option<Vec<f64>> = text.split(',').map(|v| v.trim().parse().ok()).collect();
        match values.as_deref() {
            Some(&[elo0, elo1, alpha, beta]) => Sprt::new(elo0, elo1, alpha, beta),
            _ => Err(SprtError::Malformed(text.to_string())),
        }
    }
}

/// The four numbers of an SPRT as a saved file holds them, checked by [`Sprt::new`] when read.
#[derive(Deserialize)]
struct SprtFields {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

impl TryFrom<SprtFields> for Sprt {
    type Error = SprtError;

    fn try_from(fields: SprtFields) -> Result<Sprt, SprtError> {
        Sprt::new(fields.elo0, fields.elo1, fields.alpha, fields.beta)
    }
}

impl Sprt {
    /// The test of H0 `elo0` against H1 `elo1` with error rates `alpha` and `beta`, when it
    /// can be run: `elo0 < elo1`, both within +-2000, `alpha` and `beta` in (0, 1) and
    /// `alpha + beta < 1` (else the bounds cross).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        for elo in [elo0, elo1] {
            if !(-2000.0..=2000.0).contains(&elo) {
                return Err(SprtError::EloOutOfRange(elo));
            }
        }
        if elo0 >= elo1 {
            return Err(SprtError::Elo0NotBelowElo1 { elo0, elo1 });
        }
        // Written so that NaN is refused too.
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(SprtError::Alpha(alpha));
        }
        if !(beta > 0.0 && beta < 1.0) {
            return Err(SprtError::Beta(beta));
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::AlphaPlusBeta { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The acceptance bounds of the log-likelihood ratio: (H0 below, H1 above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The trinomial log-likelihood ratio of single games (0 before any game): fishtest's
    /// `LLR_logistic` on the losses, draws and wins.
    pub fn llr(&self, score: &Score) -> f64 {
        llr_logistic(
            &[score.losses, score.draws, score.wins],
            self.elo0,
            self.elo1,
        )
    }

    /// The pentanomial log-likelihood ratio of game pairs (0 before any pair): fishtest's
    /// `LLR_logistic` on the pairs scoring 0, 1/2, 1, 3/2 and 2 points, `N` the number of pairs.
    pub fn llr_pentanomial(&self, pairs: &Pentanomial) -> f64 {
        llr_logistic(&pairs.counts, self.elo0, self.elo1)
    }

    /// The log-likelihood ratio a match is tested on, and the model it comes from: the
    /// pentanomial of the complete pairs once there is one, else the trinomial of the `games`.
    pub fn match_llr(&self, games: &Score, pairs: &Pentanomial) -> (SprtModel, f64) {
        if pairs.pairs() > 0 {
            (SprtModel::Pentanomial, self.llr_pentanomial(pairs))
        } else {
            (SprtModel::Trinomial, self.llr(games))
        }
    }

    /// Accept, reject or continue at log-likelihood ratio `llr`.
    pub fn decide(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }

    /// Accept, reject or continue on the trinomial of single games.
    pub fn verdict(&self, score: &Score) -> SprtVerdict {
        self.decide(self.llr(score))
    }
}

/// The counts an SPRT's log-likelihood ratio was computed from (saved by its stable names:
/// `trinomial`, `pentanomial`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtModel {
    /// Single games: losses, draws, wins.
    Trinomial,
    /// Game pairs by their score: LL, LD, DD+WL, WD, WW.
    Pentanomial,
}

impl SprtModel {
    /// The model's name as the match table prints it.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Trinomial => "trinomial",
            SprtModel::Pentanomial => "pentanomial",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprt_decides_clear_cases() {
        let sprt = "0,10,0.05,0.05".parse::<Sprt>().unwrap();
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
        assert!("10,0,0.05,0.05".parse::<Sprt>().is_err());
        assert!("-inf,0,0.05,0.05".parse::<Sprt>().is_err());
        assert!("0,5000,0.05,0.05".parse::<Sprt>().is_err());
        assert!("-5,5,0.05,0.05".parse::<Sprt>().is_ok());
        assert!("0,10,0.05".parse::<Sprt>().is_err());
    }

    /// Issue 30: alpha + beta >= 1 gave crossed bounds and "H1 accepted" before any game.
    /// Every test that cannot be run is refused, by the rule it breaks (fastchess's rules).
    #[test]
    fn impossible_tests_are_refused_by_their_rule() {
        let refused = |text: &str| text.parse::<Sprt>().unwrap_err();
        assert_eq!(
            refused("0,5,0.5,0.6"),
            SprtError::AlphaPlusBeta {
                alpha: 0.5,
                beta: 0.6
            }
        );
        assert!(refused("0,5,0.5,0.6").to_string().starts_with(
            "the sum of alpha and beta must be less than 1 (alpha 0.5 + beta 0.6 = 1.1)"
        ));
        assert!(matches!(
            refused("0,5,0.5,0.5"),
            SprtError::AlphaPlusBeta { .. }
        ));
        assert_eq!(
            refused("5,5,0.05,0.05"),
            SprtError::Elo0NotBelowElo1 {
                elo0: 5.0,
                elo1: 5.0
            }
        );
        assert_eq!(
            refused("10,0,0.05,0.05").to_string(),
            "elo0 (10) must be less than elo1 (0)"
        );
        for (text, error) in [
            ("0,5,0,0.05", SprtError::Alpha(0.0)),
            ("0,5,1,0.05", SprtError::Alpha(1.0)),
            ("0,5,-0.1,0.05", SprtError::Alpha(-0.1)),
            ("0,5,0.05,0", SprtError::Beta(0.0)),
            ("0,5,0.05,1.5", SprtError::Beta(1.5)),
            ("0,5000,0.05,0.05", SprtError::EloOutOfRange(5000.0)),
            ("0,5", SprtError::Malformed("0,5".into())),
            (
                "a,5,0.05,0.05",
                SprtError::Malformed("a,5,0.05,0.05".into()),
            ),
        ] {
            assert_eq!(refused(text), error, "{text}");
        }
        for nan in ["nan,5,0.05,0.05", "0,5,nan,0.05", "0,5,0.05,nan"] {
            assert!(nan.parse::<Sprt>().is_err(), "{nan}");
        }
        // The bounds of every test accepted are on both sides of 0: no decision before a game.
        let sprt = Sprt::new(0.0, 5.0, 0.49, 0.5).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(lower < 0.0 && upper > 0.0);
        assert_eq!(sprt.decide(0.0), SprtVerdict::Continue);
        // A saved test is checked when it is read.
        let saved = r#"{"elo0":0.0,"elo1":5.0,"alpha":0.5,"beta":0.6}"#;
        let error = serde_json::from_str::<Sprt>(saved).unwrap_err().to_string();
        assert!(error.contains("the sum of alpha and beta"), "{error}");
        let good = serde_json::to_string(&sprt).unwrap();
        assert_eq!(serde_json::from_str::<Sprt>(&good).unwrap(), sprt);
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
        let sprt = "0,10,0.05,0.05".parse::<Sprt>().unwrap();
        for ((w, d, l), expected) in REFERENCE_0_10 {
            let llr = sprt.llr(&score(w, d, l));
            assert!(
                (llr - expected).abs() < 1e-9,
                "{w}-{d}-{l} (W-D-L): LLR {llr}, reference {expected}"
            );
        }
        // The same script: all wins with elo0 -5, elo1 5.
        let sprt = "-5,5,0.05,0.05".parse::<Sprt>().unwrap();
        assert!((sprt.llr(&score(200, 0, 0)) - 5.756462732197207).abs() < 1e-9);
        assert_eq!(sprt.llr(&Score::default()), 0.0);
    }

    /// Issue 9: a score with no variance (every game the same result) gave LLR 0 for ever.
    #[test]
    fn one_sided_scores_decide() {
        let sprt = "0,10,0.05,0.05".parse::<Sprt>().unwrap();
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

    /// Pentanomial LLRs from `tests/data/sprt/pentanomial_reference.py` (a transcription of
    /// fishtest's `LLR_logistic` with Brent's method for the secular equation;
    /// `python3 tests/data/sprt/pentanomial_reference.py` prints them), as
    /// ((elo0, elo1), [LL, LD, DD+WL, WD, WW], LLR). tests/it/arena/sprt_reference.rs runs the
    /// script itself on more tables.
    const PENTANOMIAL_REFERENCE: [((f64, f64), [u32; 5], f64); 12] = [
        ((0.0, 10.0), [0, 0, 0, 0, 200], 5.673687916750321),
        ((0.0, 10.0), [0, 0, 200, 0, 0], -5.830128717698321),
        ((0.0, 10.0), [200, 0, 0, 0, 0], -5.839352674978772),
        ((0.0, 10.0), [0, 0, 0, 0, 1], 0.028423811539487056),
        ((0.0, 10.0), [20, 20, 20, 20, 20], -0.08281700969804198),
        ((0.0, 10.0), [10, 50, 200, 60, 12], 0.42911641788487165),
        ((0.0, 5.0), [10, 50, 200, 60, 12], 0.4450925740105363),
        ((0.0, 5.0), [0, 0, 0, 0, 200], 2.8575499090708765),
        ((-5.0, 5.0), [0, 0, 0, 0, 200], 5.756520295864972),
        ((-5.0, 5.0), [200, 0, 0, 0, 0], -5.756520295864983),
        ((-5.0, 5.0), [10, 50, 200, 60, 12], 1.344486443959137),
        (
            (-5.0, 5.0),
            [1187, 7410, 13475, 7378, 1164],
            -5.678194123218121,
        ),
    ];

    fn sprt_of(elo0: f64, elo1: f64) -> Sprt {
        format!("{elo0},{elo1},0.05,0.05").parse::<Sprt>().unwrap()
    }

    #[test]
    fn pentanomial_llr_matches_an_independent_computation() {
        for ((elo0, elo1), counts, expected) in PENTANOMIAL_REFERENCE {
            let llr = sprt_of(elo0, elo1).llr_pentanomial(&Pentanomial { counts });
            assert!(
                (llr - expected).abs() <= 1e-9 * expected.abs().max(1.0),
                "{elo0},{elo1} {counts:?}: LLR {llr}, reference {expected}"
            );
        }
        // Symmetric hypotheses: all draws and a balanced table carry no evidence either way.
        let sprt = sprt_of(-5.0, 5.0);
        for counts in [[0, 0, 200, 0, 0], [20, 20, 20, 20, 20]] {
            assert!(sprt.llr_pentanomial(&Pentanomial { counts }).abs() < 1e-9);
        }
        assert_eq!(sprt.llr_pentanomial(&Pentanomial::default()), 0.0);
    }

    /// One-sided pair counts decide, after as many pairs as the reference script finds.
    #[test]
    fn one_sided_pairs_decide() {
        let cases: [(f64, f64, usize, u32, SprtVerdict); 5] = [
            (0.0, 10.0, 4, 104, SprtVerdict::AcceptH1),
            (-5.0, 5.0, 4, 103, SprtVerdict::AcceptH1),
            (0.0, 10.0, 2, 102, SprtVerdict::AcceptH0),
            (0.0, 10.0, 0, 101, SprtVerdict::AcceptH0),
            (-5.0, 5.0, 0, 103, SprtVerdict::AcceptH0),
        ];
        for (elo0, elo1, cell, decides_at, verdict) in cases {
            let sprt = sprt_of(elo0, elo1);
            let at = |n: u32| {
                let mut counts = [0; 5];
                counts[cell] = n;
                sprt.decide(sprt.llr_pentanomial(&Pentanomial { counts }))
            };
            assert_eq!(at(decides_at), verdict, "{elo0},{elo1} cell {cell}");
            assert_eq!(at(decides_at - 1), SprtVerdict::Continue);
        }
    }

    #[test]
    fn a_match_is_tested_on_pairs_once_one_is_complete() {
        let sprt = sprt_of(0.0, 10.0);
        let games = score(3, 0, 0);
        let none = Pentanomial::default();
        assert_eq!(
            sprt.match_llr(&games, &none),
            (SprtModel::Trinomial, sprt.llr(&games))
        );
        let one = Pentanomial {
            counts: [0, 0, 0, 0, 1],
        };
        let (model, llr) = sprt.match_llr(&games, &one);
        assert_eq!(model, SprtModel::Pentanomial);
        assert!((llr - 0.028423811539487056).abs() < 1e-12, "{llr}");
        assert_eq!(SprtModel::Pentanomial.name(), "pentanomial");
    }
}
