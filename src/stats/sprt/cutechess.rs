//! cutechess-cli 1.5.1's SPRT (its `projects/lib/src/sprt.cpp`): a BayesElo test on the wins,
//! draws and losses of every game, step by step as cutechess computes it.
//!
//! Half a game is added to each count (a Dirichlet(1/2, 1/2, 1/2) prior, Jeffreys' for the
//! trinomial: no count is ever zero). The draw Elo is estimated from those frequencies
//! (`200 log10((1 - L) / L (1 - W) / W)`), and `elo0` and `elo1` are divided by the scale
//! `4x / (1 + x)^2`, `x = 10^(-drawElo / 400)`, to make the BayesElo of each hypothesis; each
//! with the draw Elo gives the win, loss and draw probabilities, and the LLR is
//! `W ln(p1w / p0w) + L ln(p1l / p0l) + D ln(p1d / p0d)` on the regularised counts.

/// Win and loss probabilities of a BayesElo and a draw Elo (cutechess's `SprtProbability` of a
/// `BayesElo`), with the draw's.
fn probabilities(bayes_elo: f64, draw_elo: f64) -> (f64, f64, f64) {
    let win = 1.0 / (1.0 + 10f64.powf((draw_elo - bayes_elo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + bayes_elo) / 400.0));
    (win, loss, 1.0 - win - loss)
}

/// cutechess's `Sprt::status().llr` after `wins`, `losses` and `draws`.
pub(super) fn llr(elo0: f64, elo1: f64, wins: u32, losses: u32, draws: u32) -> f64 {
    let wins = f64::from(wins) + 0.5;
    let losses = f64::from(losses) + 0.5;
    let draws = f64::from(draws) + 0.5;
    let count = wins + losses + draws;
    let (p_win, p_loss) = (wins / count, losses / count);
    let draw_elo = 200.0 * ((1.0 - p_loss) / p_loss * (1.0 - p_win) / p_win).log10();
    let x = 10f64.powf(-draw_elo / 400.0);
    let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
    let (w0, l0, d0) = probabilities(elo0 / scale, draw_elo);
    let (w1, l1, d1) = probabilities(elo1 / scale, draw_elo);
    wins * (w1 / w0).ln() + losses * (l1 / l0).ln() + draws * (d1 / d0).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every case of cutechess's `projects/lib/tests/sprt/tst_sprt.cpp` (v1.5.1), with its
    /// expected LLR and bounds and its tolerance (`fuzzyCompare`: within 0.01).
    #[test]
    fn cutechess_unit_test_values() {
        let near = |value: f64, expected: f64| (value - expected).abs() <= 0.01;
        /// One row of the test's data: `sprt_data()`'s columns.
        struct Row {
            elo0: f64,
            elo1: f64,
            alpha: f64,
            beta: f64,
            wins: u32,
            losses: u32,
            draws: u32,
            llr: f64,
            lbound: f64,
            ubound: f64,
        }
        let row = |wins, losses, draws, llr| Row {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.01,
            beta: 0.01,
            wins,
            losses,
            draws,
            llr,
            lbound: -4.6,
            ubound: 4.6,
        };
        // "test1", "test2", "test3".
        for r in [
            row(1477, 1351, 2942, 2.52),
            row(555, 555, 298, -0.74),
            row(3, 149, 1, -4.69),
        ] {
            let value = llr(r.elo0, r.elo1, r.wins, r.losses, r.draws);
            let (w, l, d) = (r.wins, r.losses, r.draws);
            assert!(
                near(value, r.llr),
                "{w}-{l}-{d}: {value}, cutechess {}",
                r.llr
            );
            let sprt = super::super::Sprt::new(r.elo0, r.elo1, r.alpha, r.beta).unwrap();
            let (lower, upper) = sprt.bounds();
            assert!(
                near(lower, r.lbound) && near(upper, r.ubound),
                "{lower} {upper}"
            );
        }
    }
}
