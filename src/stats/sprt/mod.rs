//! The sequential probability ratio test (SPRT) that stops a match once it is decided, in the
//! three forms the command lines ask for ([`SprtTest`]):
//!
//! - fishtest's generalised SPRT ([`fishtest`]), Shannon's own: in logistic Elo (the default),
//!   normalized Elo or BayesElo, on game pairs (pentanomial) once one is complete and on the
//!   first game (trinomial) before;
//! - fastchess 1.8.2-alpha's ([`fastchess`]): normalized (its default), logistic or bayesian, on
//!   the pentanomial of complete pairs, or on the trinomial of every game when fastchess reports
//!   no pentanomial (single games, `-report penta=false`, `-output format=cutechess`, and the
//!   Bayesian model, which turns it off);
//! - cutechess-cli 1.5.1's ([`cutechess`]): BayesElo on the trinomial of every game.
//!
//! Each is computed as its tool computes it, step by step, so that the same counts give the
//! same LLR to the digits the tool prints: the tools' own unit tests are the tests here.
//! All three share the bounds (`ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`) and the
//! rule that decides (H1 at or above the upper bound, H0 at or below the lower).

mod cutechess;
mod fastchess;
mod fishtest;

use super::{Pentanomial, Score};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What an outcome never observed counts as in fishtest's and fastchess's tests (their
/// regularisation; cutechess-cli adds half a game to every count instead).
pub const REGULARISATION: f64 = 1e-3;

/// The Elo model of an SPRT's `elo0` and `elo1` (saved by its stable names: `logistic`,
/// `normalized`, `bayesian`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EloModel {
    /// Logistic Elo: the expected score is `1 / (1 + 10^(-elo / 400))`.
    Logistic,
    /// Normalized Elo: a t-value, `(score - 1/2) / sigma`, times `800 / ln 10`.
    Normalized,
    /// BayesElo: Elo of a model with a draw Elo, which is estimated from the games.
    Bayesian,
}

impl EloModel {
    /// Every model, in the order the help lists them.
    pub const ALL: [EloModel; 3] = [EloModel::Logistic, EloModel::Normalized, EloModel::Bayesian];

    /// The model's name on the command line: `logistic`, `normalized`, `bayesian`.
    pub fn name(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
            EloModel::Bayesian => "bayesian",
        }
    }

    /// The units of `elo0` and `elo1` in words: `logistic Elo`, `normalized Elo`, `BayesElo`.
    pub fn units(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic Elo",
            EloModel::Normalized => "normalized Elo",
            EloModel::Bayesian => "BayesElo",
        }
    }
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EloModel {
    type Err = SprtError;

    /// `logistic`, `normalized` or `bayesian`.
    fn from_str(text: &str) -> Result<EloModel, SprtError> {
        EloModel::ALL
            .into_iter()
            .find(|model| model.name() == text)
            .ok_or_else(|| SprtError::UnknownModel(text.to_string()))
    }
}

/// Whose SPRT a match runs: the test of the command-line form it was given in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtTest {
    /// fishtest's GSPRT (Shannon's own form): on the pairs once one is complete, the first game
    /// before.
    Fishtest(EloModel),
    /// fastchess's SPRT in its model, on `counts`: the pentanomial of the complete pairs, or the
    /// trinomial of every game. [`SprtTest::fastchess`] makes it as fastchess does.
    Fastchess {
        /// The model (fastchess's `model=`; its default is normalized).
        model: EloModel,
        /// What it is taken on.
        counts: SprtModel,
    },
    /// cutechess-cli's BayesElo SPRT, on the trinomial of every game.
    Cutechess,
}

impl Default for SprtTest {
    /// Shannon's own: fishtest's GSPRT in logistic Elo.
    fn default() -> SprtTest {
        SprtTest::Fishtest(EloModel::Logistic)
    }
}

impl SprtTest {
    /// fastchess's test in `model`, on the pentanomial when fastchess reports it
    /// (`pentanomial`), else on single games; the Bayesian model always on single games, as
    /// fastchess turns the pentanomial off for it.
    pub fn fastchess(model: EloModel, pentanomial: bool) -> SprtTest {
        let counts = match pentanomial && model != EloModel::Bayesian {
            true => SprtModel::Pentanomial,
            false => SprtModel::Trinomial,
        };
        SprtTest::Fastchess { model, counts }
    }

    /// The tool whose test it is: `fishtest`, `fastchess` or `cutechess-cli`.
    pub fn tool(self) -> &'static str {
        match self {
            SprtTest::Fishtest(_) => "fishtest",
            SprtTest::Fastchess { .. } => "fastchess",
            SprtTest::Cutechess => "cutechess-cli",
        }
    }

    /// The model of its bounds (cutechess-cli's is BayesElo).
    pub fn elo_model(self) -> EloModel {
        match self {
            SprtTest::Fishtest(model) | SprtTest::Fastchess { model, .. } => model,
            SprtTest::Cutechess => EloModel::Bayesian,
        }
    }
}

impl fmt::Display for SprtTest {
    /// `fishtest, logistic Elo`, `fastchess, normalized Elo`, `cutechess-cli, BayesElo`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}", self.tool(), self.elo_model().units())
    }
}

/// A sequential test of H0 "the Elo difference is `elo0`" against H1 "it is `elo1`", in the form
/// of `test`: made by [`Sprt::new`] (and [`Sprt::with_test`]) or parsed, so always one that can
/// be run (a saved one is checked when read). Saved by stable names: `elo0`, `elo1`, `alpha`,
/// `beta`, `test` (`fishtest`, `fastchess`, `cutechess`), `elo_model` (not for cutechess) and
/// `counts` (fastchess's only); a saved test without `test` is fishtest's in logistic Elo, the
/// one every earlier Shannon ran.
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
    /// Whose test, in which model.
    pub test: SprtTest,
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

/// Why an SPRT's settings are refused: text that is not four numbers, a test that cannot be run
/// (fastchess refuses the same ones, by the same rules), a model that is not one, or a saved test
/// that says what its tool has not.
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
    /// Not an Elo model's name (the text given).
    UnknownModel(String),
    /// A saved test with a setting its tool does not have: cutechess-cli's with an Elo model,
    /// or another than fastchess's with `counts` (the setting's name).
    NotOfTest {
        /// The tool.
        test: &'static str,
        /// The setting it does not have.
        setting: &'static str,
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
            SprtError::UnknownModel(text) => write!(
                f,
                "'{text}' is not an Elo model: logistic, normalized or bayesian"
            ),
            SprtError::NotOfTest { test, setting } => {
                write!(f, "a saved {test} SPRT has no {setting}")
            }
        }
    }
}

impl std::error::Error for SprtError {}

impl FromStr for Sprt {
    type Err = SprtError;

    /// `elo0,elo1,alpha,beta`: fishtest's test in logistic Elo.
    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let values: Option<Vec<f64>> = text.split(',').map(|v| v.trim().parse().ok()).collect();
        match values.as_deref() {
            Some(&[elo0, elo1, alpha, beta]) => Sprt::new(elo0, elo1, alpha, beta),
            _ => Err(SprtError::Malformed(text.to_string())),
        }
    }
}

/// The tools, as a saved test names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Tool {
    Fishtest,
    Fastchess,
    Cutechess,
}

/// An SPRT as a saved file holds it, checked by [`Sprt::new`] when read.
#[derive(Serialize, Deserialize)]
struct SprtFields {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    /// Absent in states of earlier Shannons: fishtest's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    test: Option<Tool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    elo_model: Option<EloModel>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    counts: Option<SprtModel>,
}

impl TryFrom<SprtFields> for Sprt {
    type Error = SprtError;

    fn try_from(fields: SprtFields) -> Result<Sprt, SprtError> {
        let not_of = |test, setting| Err(SprtError::NotOfTest { test, setting });
        let test = match (fields.test, fields.elo_model, fields.counts) {
            (None | Some(Tool::Fishtest), model, None) => {
                SprtTest::Fishtest(model.unwrap_or(EloModel::Logistic))
            }
            (Some(Tool::Fastchess), model, counts) => {
                let model = model.unwrap_or(EloModel::Normalized);
                let counts = counts.unwrap_or(SprtModel::Pentanomial);
                SprtTest::fastchess(model, counts == SprtModel::Pentanomial)
            }
            (Some(Tool::Cutechess), None, None) => SprtTest::Cutechess,
            (Some(Tool::Cutechess), Some(_), _) => return not_of("cutechess", "elo_model"),
            (_, _, Some(_)) => {
                let tool = match fields.test {
                    Some(Tool::Cutechess) => "cutechess",
                    _ => "fishtest",
                };
                return not_of(tool, "counts");
            }
        };
        Ok(Sprt::new(fields.elo0, fields.elo1, fields.alpha, fields.beta)?.with_test(test))
    }
}

impl Serialize for Sprt {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (test, elo_model, counts) = match self.test {
            SprtTest::Fishtest(model) => (Tool::Fishtest, Some(model), None),
            SprtTest::Fastchess { model, counts } => (Tool::Fastchess, Some(model), Some(counts)),
            SprtTest::Cutechess => (Tool::Cutechess, None, None),
        };
        SprtFields {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            test: Some(test),
            elo_model,
            counts,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Sprt {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Sprt, D::Error> {
        let fields = SprtFields::deserialize(deserializer)?;
        Sprt::try_from(fields).map_err(serde::de::Error::custom)
    }
}

impl Sprt {
    /// fishtest's test in logistic Elo of H0 `elo0` against H1 `elo1` with error rates `alpha`
    /// and `beta`, when it can be run: `elo0 < elo1`, both within +-2000, `alpha` and `beta` in
    /// (0, 1) and `alpha + beta < 1` (else the bounds cross). [`Sprt::with_test`] makes it
    /// another tool's or model's.
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
            test: SprtTest::default(),
        })
    }

    /// The same hypotheses and error rates, tested as `test` does.
    pub fn with_test(self, test: SprtTest) -> Sprt {
        Sprt { test, ..self }
    }

    /// The acceptance bounds of the log-likelihood ratio: (H0 below, H1 above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of single games `games` under the test's formula (fishtest's
    /// is 0 before any game; fastchess's and cutechess-cli's regularise even then).
    pub fn llr(&self, games: &Score) -> f64 {
        let (w, d, l) = (games.wins, games.draws, games.losses);
        match self.test {
            SprtTest::Fishtest(model) => {
                fishtest::llr(model, &[l, d, w], games, self.elo0, self.elo1)
            }
            SprtTest::Fastchess { model, .. } => {
                fastchess::llr_games(model, self.elo0, self.elo1, w, d, l)
            }
            SprtTest::Cutechess => cutechess::llr(self.elo0, self.elo1, w, l, d),
        }
    }

    /// The log-likelihood ratio of the game pairs `pairs` (the pairs scoring 0, 1/2, 1, 3/2 and
    /// 2 points, `N` the number of pairs) under the test's formula; `games` are the same games
    /// one by one, from which fishtest's BayesElo model estimates its draw Elo. cutechess-cli's
    /// test has no pentanomial form: for it this is its LLR of `games`.
    pub fn llr_pentanomial(&self, pairs: &Pentanomial, games: &Score) -> f64 {
        match self.test {
            SprtTest::Fishtest(model) => {
                fishtest::llr(model, &pairs.counts, games, self.elo0, self.elo1)
            }
            SprtTest::Fastchess { model, .. } => {
                fastchess::llr_pairs(model, self.elo0, self.elo1, &pairs.counts)
            }
            SprtTest::Cutechess => self.llr(games),
        }
    }

    /// The counts the test is taken on once `pairs` pairs are complete: fishtest's the pairs
    /// once there is one and the first game before; fastchess's its own; cutechess-cli's the
    /// games.
    pub fn counts_at(&self, pairs: u32) -> SprtModel {
        match self.test {
            SprtTest::Fishtest(_) if pairs > 0 => SprtModel::Pentanomial,
            SprtTest::Fishtest(_) | SprtTest::Cutechess => SprtModel::Trinomial,
            SprtTest::Fastchess { counts, .. } => counts,
        }
    }

    /// The log-likelihood ratio a match is tested on, and the counts it comes from
    /// ([`Sprt::counts_at`]): `games` the match's games one by one, `pairs` its complete pairs.
    pub fn match_llr(&self, games: &Score, pairs: &Pentanomial) -> (SprtModel, f64) {
        match self.counts_at(pairs.pairs()) {
            SprtModel::Pentanomial => (SprtModel::Pentanomial, self.llr_pentanomial(pairs, games)),
            SprtModel::Trinomial => (SprtModel::Trinomial, self.llr(games)),
        }
    }

    /// Accept, reject or continue at log-likelihood ratio `llr` (every tool's rule: H1 at or
    /// above the upper bound, H0 at or below the lower).
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
            let llr =
                sprt_of(elo0, elo1).llr_pentanomial(&Pentanomial { counts }, &Score::default());
            assert!(
                (llr - expected).abs() <= 1e-9 * expected.abs().max(1.0),
                "{elo0},{elo1} {counts:?}: LLR {llr}, reference {expected}"
            );
        }
        // Symmetric hypotheses: all draws and a balanced table carry no evidence either way.
        let sprt = sprt_of(-5.0, 5.0);
        for counts in [[0, 0, 200, 0, 0], [20, 20, 20, 20, 20]] {
            assert!(
                sprt.llr_pentanomial(&Pentanomial { counts }, &Score::default())
                    .abs()
                    < 1e-9
            );
        }
        assert_eq!(
            sprt.llr_pentanomial(&Pentanomial::default(), &Score::default()),
            0.0
        );
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
                sprt.decide(sprt.llr_pentanomial(&Pentanomial { counts }, &Score::default()))
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

    /// A saved test names its tool and model; one saved by an earlier Shannon (no `test`) is
    /// fishtest's in logistic Elo, the test it ran.
    #[test]
    fn a_saved_test_keeps_its_tool_and_model() {
        let sprt = sprt_of(0.0, 5.0);
        let older = r#"{"elo0":0.0,"elo1":5.0,"alpha":0.05,"beta":0.05}"#;
        assert_eq!(serde_json::from_str::<Sprt>(older).unwrap(), sprt);
        assert_eq!(sprt.test, SprtTest::Fishtest(EloModel::Logistic));
        let tests = [
            SprtTest::Fishtest(EloModel::Logistic),
            SprtTest::Fishtest(EloModel::Normalized),
            SprtTest::Fishtest(EloModel::Bayesian),
            SprtTest::fastchess(EloModel::Normalized, true),
            SprtTest::fastchess(EloModel::Logistic, false),
            SprtTest::fastchess(EloModel::Bayesian, true),
            SprtTest::Cutechess,
        ];
        for test in tests {
            let saved = serde_json::to_string(&sprt.with_test(test)).unwrap();
            assert_eq!(
                serde_json::from_str::<Sprt>(&saved).unwrap().test,
                test,
                "{saved}"
            );
        }
        let saved = serde_json::to_string(&sprt.with_test(tests[3])).unwrap();
        assert_eq!(
            saved,
            r#"{"elo0":0.0,"elo1":5.0,"alpha":0.05,"beta":0.05,"test":"fastchess","elo_model":"normalized","counts":"pentanomial"}"#
        );
        let cute = serde_json::to_string(&sprt.with_test(SprtTest::Cutechess)).unwrap();
        assert_eq!(
            cute,
            r#"{"elo0":0.0,"elo1":5.0,"alpha":0.05,"beta":0.05,"test":"cutechess"}"#
        );
        // What a tool's test does not have is refused by name.
        let read = |text: &str| serde_json::from_str::<Sprt>(text).unwrap_err().to_string();
        let with_model = r#"{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"test":"cutechess","elo_model":"logistic"}"#;
        assert!(read(with_model).contains("a saved cutechess SPRT has no elo_model"));
        let with_counts = r#"{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"counts":"trinomial"}"#;
        assert!(read(with_counts).contains("a saved fishtest SPRT has no counts"));
        let unknown = r#"{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"test":"banksia"}"#;
        assert!(read(unknown).contains("banksia"), "{}", read(unknown));
    }

    #[test]
    fn models_are_read_by_their_names() {
        for model in EloModel::ALL {
            assert_eq!(model.name().parse::<EloModel>(), Ok(model));
        }
        assert_eq!(
            "BayesElo".parse::<EloModel>(),
            Err(SprtError::UnknownModel("BayesElo".into()))
        );
        assert_eq!(
            SprtError::UnknownModel("x".into()).to_string(),
            "'x' is not an Elo model: logistic, normalized or bayesian"
        );
        // fastchess's Bayesian model is on single games, whatever is asked.
        assert_eq!(
            SprtTest::fastchess(EloModel::Bayesian, true),
            SprtTest::Fastchess {
                model: EloModel::Bayesian,
                counts: SprtModel::Trinomial
            }
        );
        assert_eq!(
            SprtTest::fastchess(EloModel::Normalized, true).to_string(),
            "fastchess, normalized Elo"
        );
        assert_eq!(SprtTest::Cutechess.to_string(), "cutechess-cli, BayesElo");
    }

    /// Which counts each test is taken on, and that it is its own tool's formula.
    #[test]
    fn each_test_is_taken_on_its_own_counts_by_its_own_formula() {
        let base = sprt_of(0.0, 10.0);
        let games = score(30, 20, 10);
        let pairs = Pentanomial {
            counts: [2, 5, 12, 6, 5],
        };
        let none = Pentanomial::default();
        let fastchess_penta = base.with_test(SprtTest::fastchess(EloModel::Normalized, true));
        let fastchess_games = base.with_test(SprtTest::fastchess(EloModel::Normalized, false));
        let cute = base.with_test(SprtTest::Cutechess);
        // fishtest: the first game before a pair, the pairs after; fastchess: its own counts
        // even before a pair; cutechess-cli: the games.
        assert_eq!(base.match_llr(&games, &none).0, SprtModel::Trinomial);
        assert_eq!(base.match_llr(&games, &pairs).0, SprtModel::Pentanomial);
        assert_eq!(
            fastchess_penta.match_llr(&games, &none).0,
            SprtModel::Pentanomial
        );
        assert_eq!(
            fastchess_games.match_llr(&games, &pairs),
            (
                SprtModel::Trinomial,
                fastchess::llr_games(EloModel::Normalized, 0.0, 10.0, 30, 20, 10)
            )
        );
        assert_eq!(
            cute.match_llr(&games, &pairs),
            (SprtModel::Trinomial, cutechess::llr(0.0, 10.0, 30, 10, 20))
        );
        assert_eq!(
            fastchess_penta.match_llr(&games, &pairs).1,
            fastchess::llr_pairs(EloModel::Normalized, 0.0, 10.0, &pairs.counts)
        );
        // fastchess before any pair: the regularised zeros, a tiny ratio, not a shortcut to 0.
        let empty = fastchess_penta.match_llr(&Score::default(), &none).1;
        assert!(empty != 0.0 && empty.abs() < 1e-3, "{empty}");
        // The same counts in other models give other ratios.
        let normalized = base.with_test(SprtTest::Fishtest(EloModel::Normalized));
        let bayes = base.with_test(SprtTest::Fishtest(EloModel::Bayesian));
        let (l, n, b) = (
            base.match_llr(&games, &pairs).1,
            normalized.match_llr(&games, &pairs).1,
            bayes.match_llr(&games, &pairs).1,
        );
        assert!(l != n && l != b && n != b, "{l} {n} {b}");
    }

    /// fishtest's normalized model agrees with fastchess's published values (the same formula,
    /// which fastchess solves less finely), and its BayesElo model converts the bounds through
    /// the games' draw Elo: with no draws and wins as many as losses the draw Elo is about 0, so
    /// BayesElo and logistic Elo nearly agree.
    #[test]
    fn fishtest_models_agree_with_the_published_values() {
        type Case = (f64, f64, (u32, u32, u32), f64);
        let cases: [Case; 3] = [
            (0.0, 2.0, (36433, 68692, 36027), 0.92),
            (-1.75, 0.25, (10871, 20431, 10650), 2.30),
            (0.0, 10.0, (4250, 0, 0), 120.56),
        ];
        for (elo0, elo1, (w, d, l), expected) in cases {
            let sprt = sprt_of(elo0, elo1).with_test(SprtTest::Fishtest(EloModel::Normalized));
            let llr = sprt.llr(&score(w, d, l));
            assert!(
                (llr - expected).abs() < 0.01 * (1.0 + expected.abs()),
                "{w}-{d}-{l}: {llr}, fastchess's test {expected}"
            );
        }
        let pairs = Pentanomial {
            counts: [365, 16618, 36029 + 200, 16974, 390],
        };
        let sprt = sprt_of(0.0, 2.0).with_test(SprtTest::Fishtest(EloModel::Normalized));
        let llr = sprt.llr_pentanomial(&pairs, &Score::default());
        assert!((llr - 2.25).abs() < 0.01 * 3.25, "{llr}");
        let even = score(500, 0, 500);
        let (elo0, elo1) = fishtest::bayeselo_bounds(&even, 0.0, 10.0);
        assert!(
            elo0.abs() < 1e-9 && (elo1 - 10.0).abs() < 0.01,
            "{elo0} {elo1}"
        );
        // With draws the draw Elo is positive: a BayesElo is worth less logistic Elo.
        let drawn = score(100, 800, 100);
        let (_, elo1) = fishtest::bayeselo_bounds(&drawn, 0.0, 10.0);
        assert!(elo1 > 0.0 && elo1 < 5.0, "{elo1}");
    }
}
