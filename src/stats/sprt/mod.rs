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
mod tests;
