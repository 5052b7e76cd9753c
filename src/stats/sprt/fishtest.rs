//! fishtest's generalised SPRT (its `LLRcalc.py` and `stat_util.py`), Shannon's own test, in its
//! three Elo models, with the maximum-likelihood fits solved to the last bit (fishtest solves
//! them with scipy's Brent method to about 1e-12).
//!
//! - logistic (`LLR_logistic`): the counts of the outcomes are regularised (a count of zero
//!   becomes [`REGULARISATION`], so a match where every game or pair has the same result still
//!   decides), turned into frequencies `p_i` over the outcomes' scores `a_i` (per game: 0, 1/2, 1
//!   for a single game; 0, 1/4, 1/2, 3/4, 1 for a pair), and for each hypothesis' expected score
//!   per game `s = 1 / (1 + 10^(-elo / 400))` the most likely distribution with that mean is
//!   `p_i / (1 + x (a_i - s))` (Van den Bergh, "support_MLE_multinomial", Proposition 1.1). The
//!   ratio is `N sum p_i ln(p1_i / p0_i)` with `N` the number of games or of pairs.
//! - normalized (`LLR_normalized`): the hypotheses are t-values, `nelo / (800 / ln 10)` per game
//!   (times the square root of 2 for a pair); the most likely distribution with t-value `t` is
//!   found by fixed-point iteration from the uniform one (Van den Bergh, "Comments on normalized
//!   Elo", Section 4.1): at most 10 steps, until no probability moves by 1e-9.
//! - BayesElo (`update_SPRT` with `elo_model = "BayesElo"`): the bounds are BayesElo; the draw
//!   Elo is estimated from the regularised trinomial of the games, the bounds become logistic Elo
//!   through it (`bayeselo_to_elo`, its score clamped to [0.001, 0.999]), and the test is the
//!   logistic one.

use super::super::{expected_score, Score};
use super::{EloModel, REGULARISATION};

/// The root of the secular equation `sum p_i v_i / (1 + x v_i) = 0` for positive `p` and values
/// `v` of both signs, on `(-1 / max v, -1 / min v)`, where every `1 + x v_i` stays positive. The
/// left side falls strictly there, from +inf to -inf, so bisection finds the root to the last
/// bit.
fn secular(p: &[f64], v: &[f64]) -> f64 {
    let f = |x: f64| -> f64 { p.iter().zip(v).map(|(p, v)| p * v / (1.0 + x * v)).sum() };
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let (mut low, mut high) = (-1.0 / max, -1.0 / min);
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

/// The regularised counts as frequencies, with their total: `None` while nothing is counted.
fn frequencies(counts: &[u32]) -> Option<(f64, Vec<f64>)> {
    if counts.iter().all(|&c| c == 0) {
        return None;
    }
    let counts: Vec<f64> = counts
        .iter()
        .map(|&c| match c {
            0 => REGULARISATION,
            c => f64::from(c),
        })
        .collect();
    let n: f64 = counts.iter().sum();
    Some((n, counts.iter().map(|c| c / n).collect()))
}

/// The score per game of each outcome: `i / (len - 1)`.
fn scores(len: usize) -> Vec<f64> {
    let last = (len - 1) as f64;
    (0..len).map(|i| i as f64 / last).collect()
}

/// The most likely distribution with expected score `s` given the frequencies `p`.
fn mle_expected(p: &[f64], s: f64) -> Vec<f64> {
    let v: Vec<f64> = scores(p.len()).iter().map(|a| a - s).collect();
    let x = secular(p, &v);
    p.iter().zip(&v).map(|(p, v)| p / (1.0 + x * v)).collect()
}

/// Mean and variance of the scores under `p`.
fn mean_variance(a: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = a.iter().zip(p).map(|(a, p)| a * p).sum();
    let var = a.iter().zip(p).map(|(a, p)| p * (a - mu).powi(2)).sum();
    (mu, var)
}

/// The most likely distribution whose t-value `(mu - 1/2) / sigma` is `t`, given `p`.
fn mle_t_value(p: &[f64], t: f64) -> Vec<f64> {
    let a = scores(p.len());
    let mut mle = vec![1.0 / p.len() as f64; p.len()];
    for _ in 0..10 {
        let (mu, var) = mean_variance(&a, &mle);
        let sigma = var.sqrt();
        let phi: Vec<f64> = a
            .iter()
            .map(|a| a - 0.5 - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0)
            .collect();
        let x = secular(p, &phi);
        let next: Vec<f64> = p.iter().zip(&phi).map(|(p, v)| p / (1.0 + x * v)).collect();
        let moved = next
            .iter()
            .zip(&mle)
            .map(|(n, o)| (n - o).abs())
            .fold(0.0, f64::max);
        mle = next;
        if moved < 1e-9 {
            break;
        }
    }
    mle
}

/// `N sum p_i ln(p1_i / p0_i)`.
fn ratio(n: f64, p: &[f64], p0: &[f64], p1: &[f64]) -> f64 {
    n * p
        .iter()
        .zip(p0.iter().zip(p1))
        .map(|(p, (p0, p1))| p * (p1.ln() - p0.ln()))
        .sum::<f64>()
}

/// fishtest's `LLR_logistic` for the counts of outcomes scoring `0, 1 / (len - 1), ..., 1` per
/// game: 0 while nothing is counted.
pub(super) fn llr_logistic(counts: &[u32], elo0: f64, elo1: f64) -> f64 {
    let Some((n, p)) = frequencies(counts) else {
        return 0.0;
    };
    let p0 = mle_expected(&p, expected_score(elo0));
    let p1 = mle_expected(&p, expected_score(elo1));
    ratio(n, &p, &p0, &p1)
}

/// fishtest's `nelo_divided_by_nt`: normalised Elo per unit of t-value.
pub(super) fn nelo_per_t() -> f64 {
    800.0 / std::f64::consts::LN_10
}

/// fishtest's `LLR_normalized` for three (a game) or five (a pair) outcomes: 0 while nothing is
/// counted.
pub(super) fn llr_normalized(counts: &[u32], nelo0: f64, nelo1: f64) -> f64 {
    let Some((n, p)) = frequencies(counts) else {
        return 0.0;
    };
    let per_game = if counts.len() == 5 {
        std::f64::consts::SQRT_2
    } else {
        1.0
    };
    let (t0, t1) = (
        nelo0 / nelo_per_t() * per_game,
        nelo1 / nelo_per_t() * per_game,
    );
    ratio(n, &p, &mle_t_value(&p, t0), &mle_t_value(&p, t1))
}

/// fishtest's `elo`: the logistic Elo of a score clamped to [0.001, 0.999].
fn clamped_elo(score: f64) -> f64 {
    let score = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The logistic Elo of BayesElo bounds `belo0` and `belo1` for the draw Elo of `games`
/// (fishtest's `draw_elo_calc` of the regularised trinomial, then `bayeselo_to_elo`).
pub(super) fn bayeselo_bounds(games: &Score, belo0: f64, belo1: f64) -> (f64, f64) {
    let counts = [games.losses, games.draws, games.wins].map(|c| match c {
        0 => REGULARISATION,
        c => f64::from(c),
    });
    let n: f64 = counts.iter().sum();
    let (loss, win) = (counts[0] / n, counts[2] / n);
    let draw_elo = 200.0 * ((1.0 - loss) / loss * (1.0 - win) / win).log10();
    let to_elo = |belo: f64| {
        let win = 1.0 / (1.0 + 10f64.powf((-belo + draw_elo) / 400.0));
        let loss = 1.0 / (1.0 + 10f64.powf((belo + draw_elo) / 400.0));
        clamped_elo(win + 0.5 * (1.0 - win - loss))
    };
    (to_elo(belo0), to_elo(belo1))
}

/// The test's LLR in `model` on `counts` (three outcomes of single games or five of pairs),
/// `games` the games one by one (for the BayesElo model's draw Elo).
pub(super) fn llr(model: EloModel, counts: &[u32], games: &Score, elo0: f64, elo1: f64) -> f64 {
    match model {
        EloModel::Logistic => llr_logistic(counts, elo0, elo1),
        EloModel::Normalized => llr_normalized(counts, elo0, elo1),
        EloModel::Bayesian => {
            let (elo0, elo1) = bayeselo_bounds(games, elo0, elo1);
            llr_logistic(counts, elo0, elo1)
        }
    }
}
