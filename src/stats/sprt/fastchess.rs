//! fastchess 1.8.2-alpha's SPRT (its `app/src/matchmaking/sprt/sprt.cpp`), step by step as
//! fastchess computes it, so that the same counts give the same LLR to the digits it prints.
//!
//! - The counts: a zero becomes [`REGULARISATION`] (its `regularize`); a pair's DD and WL are
//!   one cell, regularised together. The frequencies are the counts over their total, which is
//!   summed L + D + W for games and WW + WD + (WL + DD) + LD + LL for pairs.
//! - logistic: the hypotheses' scores `1 / (1 + 10^(-elo / 400))`; the most likely distribution
//!   with a score `s` is `p_i / (1 + theta (a_i - s))` (Proposition 1.1 of Van den Bergh's
//!   "Comparing the approximations for the generalized log likelihood ratio"), `theta` found by
//!   fastchess's ITP root finder to within 1e-3.
//! - normalized: the hypotheses are t-values, `elo / (800 / ln 10)` (times the square root of 2
//!   for pairs); the distribution is found by fixed-point iteration from the uniform one (Section
//!   4.1 of Van den Bergh's "Comments on normalized Elo"): at most 10 steps, each solving for
//!   `theta` to within 1e-7, until no probability moves by 1e-4.
//! - bayesian (single games only: fastchess turns the pentanomial off with it): 0 until there is
//!   a win and a loss; else the draw Elo `200 log10((1 - L) / L (1 - W) / W)` of the regularised
//!   frequencies makes the BayesElo bounds scores, and the test is the logistic one on them.
//!
//! The LLR is the number of games (or pairs) times `sum p_i (ln p1_i - ln p0_i)`.

use super::{EloModel, REGULARISATION};

/// fastchess's `regularize`.
fn regularize(count: u32) -> f64 {
    match count {
        0 => REGULARISATION,
        count => f64::from(count),
    }
}

/// The ITP method (Oliveira and Takahashi, "An Enhancement of the Bisection Method Average
/// Performance Preserving Minmax Optimality", 2021) as fastchess runs it: `f` falls from +inf at
/// `a` to -inf at `b` (fastchess passes those infinities as the end values, so its first steps
/// are bisections), with its constants `k1 = 0.1`, `k2 = 2` and `n0 = 0.99`, until the bracket is
/// at most `2 epsilon` wide; the middle of the bracket.
fn itp(f: impl Fn(f64) -> f64, a: f64, b: f64, epsilon: f64) -> f64 {
    const K1: f64 = 0.1;
    const N0: f64 = 0.99;
    // fastchess orders the ends so that f is negative at the first.
    let (mut a, mut b, mut f_a, mut f_b) = (b, a, f64::NEG_INFINITY, f64::INFINITY);
    let n_half = ((b - a).abs() / (2.0 * epsilon)).log2().ceil();
    let n_max = n_half + N0;
    let mut step = 0u32;
    while (b - a).abs() > 2.0 * epsilon {
        let x_half = (a + b) / 2.0;
        let r = epsilon * 2f64.powf(n_max - f64::from(step)) - (b - a) / 2.0;
        let delta = K1 * ((b - a) * (b - a));
        // The regula falsi point: NaN while an end value is infinite (the step is then the
        // bisection, as in fastchess).
        let x_f = (f_b * a - f_a * b) / (f_b - f_a);
        let sigma = (x_half - x_f) / (x_half - x_f).abs();
        let x_t = if delta <= (x_half - x_f).abs() {
            x_f + sigma * delta
        } else {
            x_half
        };
        let x_itp = if (x_t - x_half).abs() <= r {
            x_t
        } else {
            x_half - sigma * r
        };
        let f_itp = f(x_itp);
        if f_itp == 0.0 {
            a = x_itp;
            b = x_itp;
        } else if f_itp.is_sign_negative() {
            a = x_itp;
            f_a = f_itp;
        } else {
            b = x_itp;
            f_b = f_itp;
        }
        step += 1;
    }
    (a + b) / 2.0
}

/// fastchess's `mean`: `sum x_i p_i`, in order.
fn mean(x: &[f64], p: &[f64]) -> f64 {
    let mut result = 0.0;
    for (x, p) in x.iter().zip(p) {
        result += x * p;
    }
    result
}

/// fastchess's `getLLR_logistic`: `total` the count, `scores` the outcomes' scores, `probs`
/// their frequencies, `s0` and `s1` the hypotheses' scores.
fn llr_logistic(total: f64, scores: &[f64], probs: &[f64], s0: f64, s1: f64) -> f64 {
    let mle = |s: f64| -> Vec<f64> {
        let last = scores.len() - 1;
        let min_theta = -1.0 / (scores[last] - s);
        let max_theta = -1.0 / (scores[0] - s);
        let theta = itp(
            |x| {
                let mut result = 0.0;
                for (a, p) in scores.iter().zip(probs) {
                    result += p * (a - s) / (1.0 + x * (a - s));
                }
                result
            },
            min_theta,
            max_theta,
            1e-3,
        );
        scores
            .iter()
            .zip(probs)
            .map(|(a, p)| p / (1.0 + theta * (a - s)))
            .collect()
    };
    ratio(total, probs, &mle(s0), &mle(s1))
}

/// fastchess's `getLLR_normalized`: the hypotheses are the t-values `t0` and `t1`.
fn llr_normalized(total: f64, scores: &[f64], probs: &[f64], t0: f64, t1: f64) -> f64 {
    let mle = |t: f64| -> Vec<f64> {
        let mu_ref = 0.5;
        let mut p = vec![1.0 / scores.len() as f64; scores.len()];
        for _ in 0..10 {
            let mu = mean(scores, &p);
            let mut var = 0.0;
            for (x, p) in scores.iter().zip(&p) {
                var += p * (x - mu) * (x - mu);
            }
            let sigma = var.sqrt();
            let phi: Vec<f64> = scores
                .iter()
                .map(|a| {
                    let z = (a - mu) / sigma;
                    a - mu_ref - 0.5 * t * sigma * (1.0 + z * z)
                })
                .collect();
            // std::min_element and std::max_element: the first extreme.
            let (mut u, mut v) = (phi[0], phi[0]);
            for &x in &phi[1..] {
                if x < u {
                    u = x;
                }
                if v < x {
                    v = x;
                }
            }
            let theta = itp(
                |x| {
                    let mut result = 0.0;
                    for (p, phi) in probs.iter().zip(&phi) {
                        result += p * phi / (1.0 + x * phi);
                    }
                    result
                },
                -1.0 / v,
                -1.0 / u,
                1e-7,
            );
            let mut max_diff = 0.0;
            for ((p, phat), phi) in p.iter_mut().zip(probs).zip(&phi) {
                let next = phat / (1.0 + theta * phi);
                let diff = (next - *p).abs();
                // std::max(max_diff, diff).
                if max_diff < diff {
                    max_diff = diff;
                }
                *p = next;
            }
            if max_diff < 1e-4 {
                break;
            }
        }
        p
    };
    ratio(total, probs, &mle(t0), &mle(t1))
}

/// `total * mean(ln p1 - ln p0, probs)`.
fn ratio(total: f64, probs: &[f64], p0: &[f64], p1: &[f64]) -> f64 {
    let lpr: Vec<f64> = p0
        .iter()
        .zip(p1)
        .map(|(p0, p1)| p1.ln() - p0.ln())
        .collect();
    total * mean(&lpr, probs)
}

/// fastchess's `leloToScore`.
fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// fastchess's `bayeseloToScore`.
fn bayeselo_score(bayeselo: f64, drawelo: f64) -> f64 {
    let win = 1.0 / (1.0 + 10f64.powf((-bayeselo + drawelo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((bayeselo + drawelo) / 400.0));
    let draw = 1.0 - win - loss;
    win + 0.5 * draw
}

/// Normalised Elo per unit of t-value: `800 / ln 10`.
fn nelo_per_t() -> f64 {
    800.0 / std::f64::consts::LN_10
}

/// fastchess's `getLLR(win, draw, loss)`: the LLR on single games.
pub(super) fn llr_games(
    model: EloModel,
    elo0: f64,
    elo1: f64,
    wins: u32,
    draws: u32,
    losses: u32,
) -> f64 {
    let (l, d, w) = (regularize(losses), regularize(draws), regularize(wins));
    let total = l + d + w;
    let probs = [l / total, d / total, w / total];
    let scores = [0.0, 0.5, 1.0];
    match model {
        EloModel::Normalized => {
            let (t0, t1) = (elo0 / nelo_per_t(), elo1 / nelo_per_t());
            llr_normalized(total, &scores, &probs, t0, t1)
        }
        EloModel::Bayesian => {
            if wins == 0 || losses == 0 {
                return 0.0;
            }
            let (l, w) = (probs[0], probs[2]);
            let drawelo = 200.0 * ((1.0 - l) / l * (1.0 - w) / w).log10();
            let (s0, s1) = (bayeselo_score(elo0, drawelo), bayeselo_score(elo1, drawelo));
            llr_logistic(total, &scores, &probs, s0, s1)
        }
        EloModel::Logistic => {
            let (s0, s1) = (logistic_score(elo0), logistic_score(elo1));
            llr_logistic(total, &scores, &probs, s0, s1)
        }
    }
}

/// fastchess's `getLLR` on pairs, `counts` as [LL, LD, DD + WL, WD, WW]. The Bayesian model has
/// no pentanomial form in fastchess (it turns the pentanomial off): here, as in fastchess's code,
/// it falls to the logistic one.
pub(super) fn llr_pairs(model: EloModel, elo0: f64, elo1: f64, counts: &[u32; 5]) -> f64 {
    let [ll, ld, wl_dd, wd, ww] = counts.map(regularize);
    let total = ww + wd + wl_dd + ld + ll;
    let probs = [
        ll / total,
        ld / total,
        wl_dd / total,
        wd / total,
        ww / total,
    ];
    let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
    match model {
        EloModel::Normalized => {
            let (t0, t1) = (
                std::f64::consts::SQRT_2 * elo0 / nelo_per_t(),
                std::f64::consts::SQRT_2 * elo1 / nelo_per_t(),
            );
            llr_normalized(total, &scores, &probs, t0, t1)
        }
        EloModel::Logistic | EloModel::Bayesian => {
            let (s0, s1) = (logistic_score(elo0), logistic_score(elo1));
            llr_logistic(total, &scores, &probs, s0, s1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// doctest's `Approx(expected).epsilon(e)`, as fastchess's tests compare: `|value -
    /// expected| < e (1 + max(|value|, |expected|))`.
    fn approx(value: f64, expected: f64, epsilon: f64) -> bool {
        (value - expected).abs() < epsilon * (1.0 + value.abs().max(expected.abs()))
    }

    /// Every case of fastchess's `app/tests/sprt_test.cpp` (v1.8.2-alpha), with its expected
    /// LLR and its tolerance (`doctest::Approx(x).epsilon(0.01)`); alpha and beta 0.05 in
    /// every case. Its `Stats(wins, losses, draws)` for games and `Stats(ll, ld, wl, dd, wd,
    /// ww)` for pairs: here as (wins, draws, losses) and [LL, LD, DD + WL, WD, WW].
    #[test]
    fn fastchess_unit_test_values() {
        /// (name, model, elo0, elo1, counts, expected LLR)
        type Case<C> = (&'static str, EloModel, f64, f64, C, f64);
        let games: [Case<(u32, u32, u32)>; 7] = [
            (
                "normalized trinomial 1",
                EloModel::Normalized,
                0.0,
                2.0,
                (36433, 68692, 36027),
                0.92,
            ),
            (
                "normalized trinomial 2",
                EloModel::Normalized,
                -1.75,
                0.25,
                (10871, 20431, 10650),
                2.30,
            ),
            (
                "normalized trinomial 3",
                EloModel::Normalized,
                0.0,
                10.0,
                (4250, 0, 0),
                120.56,
            ),
            (
                "logistic trinomial 1",
                EloModel::Logistic,
                0.5,
                2.5,
                (21404, 40708, 21184),
                -1.57,
            ),
            (
                "logistic trinomial 2",
                EloModel::Logistic,
                0.0,
                2.0,
                (57433, 106593, 57030),
                -2.59,
            ),
            (
                "bayesian trinomial 1",
                EloModel::Bayesian,
                0.0,
                2.0,
                (68965, 128429, 68526),
                -1.26,
            ),
            (
                "bayesian trinomial 2",
                EloModel::Bayesian,
                0.5,
                2.5,
                (21629, 41111, 21484),
                -1.13,
            ),
        ];
        for (name, model, elo0, elo1, (w, d, l), expected) in games {
            let llr = llr_games(model, elo0, elo1, w, d, l);
            assert!(
                approx(llr, expected, 0.01),
                "{name}: {llr}, fastchess {expected}"
            );
        }
        // Stats(ll, ld, wl, dd, wd, ww): DD + WL is one cell.
        let pairs: [Case<[u32; 6]>; 5] = [
            (
                "normalized pentanomial 1",
                EloModel::Normalized,
                0.0,
                2.0,
                [365, 16618, 36029, 200, 16974, 390],
                2.25,
            ),
            (
                "normalized pentanomial 2",
                EloModel::Normalized,
                -1.75,
                0.25,
                [127, 4883, 10311, 401, 5150, 104],
                3.01,
            ),
            (
                "normalized pentanomial 3",
                EloModel::Normalized,
                0.0,
                5.0,
                [0, 0, 0, 0, 0, 5550],
                111.82,
            ),
            (
                "logistic pentanomial 1",
                EloModel::Logistic,
                0.5,
                2.5,
                [223, 9863, 20279, 1000, 10037, 246],
                -3.07,
            ),
            (
                "logistic pentanomial 2",
                EloModel::Logistic,
                0.0,
                2.0,
                [871, 26175, 55003, 980, 26678, 821],
                -4.98,
            ),
        ];
        for (name, model, elo0, elo1, [ll, ld, wl, dd, wd, ww], expected) in pairs {
            let llr = llr_pairs(model, elo0, elo1, &[ll, ld, wl + dd, wd, ww]);
            assert!(
                approx(llr, expected, 0.01),
                "{name}: {llr}, fastchess {expected}"
            );
        }
    }

    /// The Bayesian model says nothing until a game is won and one lost, as in fastchess.
    #[test]
    fn the_bayesian_model_waits_for_a_win_and_a_loss() {
        assert_eq!(llr_games(EloModel::Bayesian, 0.0, 5.0, 10, 30, 0), 0.0);
        assert_eq!(llr_games(EloModel::Bayesian, 0.0, 5.0, 0, 30, 10), 0.0);
        assert_ne!(llr_games(EloModel::Bayesian, 0.0, 5.0, 1, 30, 1), 0.0);
    }

    /// ITP finds a root within its tolerance, from infinite end values as fastchess gives them.
    #[test]
    fn itp_brackets_the_root() {
        // f falls from +inf at -1 to -inf at 2 (poles at both ends), with its root at 0.5.
        let f = |x: f64| 1.0 / (x + 1.0) - 1.0 / (2.0 - x);
        for epsilon in [1e-3, 1e-7] {
            let root = itp(f, -1.0, 2.0, epsilon);
            assert!((root - 0.5).abs() <= epsilon, "{epsilon}: {root}");
        }
    }
}
