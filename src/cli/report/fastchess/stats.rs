//! The figures fastchess prints for an encounter or an engine: its counts of complete pairs
//! (`Stats`), its pentanomial Elo (app/src/matchmaking/elo/elo_pentanomial.cpp) and, with
//! `-report penta=false`, its Elo of single games (app/src/matchmaking/elo/elo_wdl.cpp).

use shannon::arena::Standings;
use shannon::stats::{erf, Score};

/// The counts fastchess keeps for an encounter (its `Stats`): the games of complete pairs and
/// the pairs by score, DD and WL apart.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PairStats {
    /// Wins, draws and losses in complete pairs, from the first engine's side.
    pub score: Score,
    /// Pairs LL, LD, WL, DD, WD, WW.
    pub ll: u32,
    /// Pairs with a loss and a draw.
    pub ld: u32,
    /// Pairs with a win and a loss.
    pub wl: u32,
    /// Pairs of two draws.
    pub dd: u32,
    /// Pairs with a win and a draw.
    pub wd: u32,
    /// Pairs of two wins.
    pub ww: u32,
}

impl PairStats {
    /// The complete pairs of `encounter` of `standings`: the games whose partner has not
    /// finished are left out, and the draws of the games in pairs tell DD from WL.
    pub fn of_encounter(standings: &Standings, encounter: usize) -> PairStats {
        let tally = &standings.encounters[encounter];
        let waiting = tally.pairs.unpaired_score();
        let score = Score {
            wins: tally.score.wins - waiting.wins,
            draws: tally.score.draws - waiting.draws,
            losses: tally.score.losses - waiting.losses,
        };
        let [ll, ld, middle, wd, ww] = tally.pairs.pentanomial().counts;
        // Draws in pairs: 2 DD + LD + WD.
        let dd = (score.draws.saturating_sub(ld + wd) / 2).min(middle);
        PairStats {
            score,
            ll,
            ld,
            wl: middle - dd,
            dd,
            wd,
            ww,
        }
    }

    /// The same counts from the other engine's side (fastchess's `~stats`).
    pub fn reversed(&self) -> PairStats {
        PairStats {
            score: self.score.reversed(),
            ll: self.ww,
            ld: self.wd,
            wl: self.wl,
            dd: self.dd,
            wd: self.ld,
            ww: self.ll,
        }
    }

    pub(super) fn plus(&self, other: &PairStats) -> PairStats {
        PairStats {
            score: self.score.plus(&other.score),
            ll: self.ll + other.ll,
            ld: self.ld + other.ld,
            wl: self.wl + other.wl,
            dd: self.dd + other.dd,
            wd: self.wd + other.wd,
            ww: self.ww + other.ww,
        }
    }

    /// An engine's counts against the field (fastchess's `getAllStats`).
    pub fn of_engine(standings: &Standings, engine: usize) -> PairStats {
        let mut total = PairStats::default();
        for (i, tally) in standings.encounters.iter().enumerate() {
            let stats = PairStats::of_encounter(standings, i);
            match tally.engines {
                (a, _) if a == engine => total = total.plus(&stats),
                (_, b) if b == engine => total = total.plus(&stats.reversed()),
                _ => {}
            }
        }
        total
    }

    pub(super) fn pairs(&self) -> u32 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    pub(super) fn games(&self) -> u32 {
        self.score.games()
    }

    pub(super) fn points(&self) -> f64 {
        self.score.points()
    }

    pub(super) fn points_ratio(&self) -> f64 {
        self.points() / f64::from(self.games()) * 100.0
    }

    pub(super) fn draw_ratio_penta(&self) -> f64 {
        f64::from(self.wl + self.dd) / f64::from(self.pairs()) * 100.0
    }

    pub(super) fn pairs_ratio(&self) -> f64 {
        f64::from(self.ww + self.wd) / f64::from(self.ld + self.ll)
    }

    pub(super) fn wl_dd_ratio(&self) -> f64 {
        f64::from(self.wl) / f64::from(self.dd)
    }

    /// `[LL, LD, WL+DD, WD, WW]`.
    pub(super) fn ptnml(&self) -> String {
        format!(
            "[{}, {}, {}, {}, {}]",
            self.ll,
            self.ld,
            self.wl + self.dd,
            self.wd,
            self.ww
        )
    }
}

/// fastchess's `EloPentanomial` of some pairs, or its `EloWDL` of single games: its figures
/// with its NaNs and infinities.
#[derive(Debug, Clone, Copy)]
pub struct Elo {
    score: f64,
    /// The variance of the score per pair (per game, of single games).
    per_unit: f64,
    /// The Elo difference.
    pub diff: f64,
    /// Its 95% error margin.
    pub error: f64,
    /// The normalised Elo difference.
    pub nelo: f64,
    /// Its 95% error margin.
    pub nelo_error: f64,
}

const CI95ZSCORE: f64 = 1.959963984540054;

fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Elo {
    /// The figures of the pairs of `stats` (`EloPentanomial`).
    pub fn pentanomial(stats: &PairStats) -> Elo {
        let pairs = f64::from(stats.pairs());
        let p = |n: u32| f64::from(n) / pairs;
        let score = p(stats.ww)
            + 0.75 * p(stats.wd)
            + 0.5 * (p(stats.wl) + p(stats.dd))
            + 0.25 * p(stats.ld);
        let variance = p(stats.ww) * (1.0 - score).powi(2)
            + p(stats.wd) * (0.75 - score).powi(2)
            + (p(stats.wl) + p(stats.dd)) * (0.5 - score).powi(2)
            + p(stats.ld) * (0.25 - score).powi(2)
            + p(stats.ll) * (0.0 - score).powi(2);
        Elo::of(score, pairs, variance, 2.0 * variance)
    }

    /// The figures of the single games of `score` (`EloWDL`): wins, draws and losses.
    pub fn wdl(score: &Score) -> Elo {
        let games = f64::from(score.games());
        let (w, d, l) = (
            f64::from(score.wins) / games,
            f64::from(score.draws) / games,
            f64::from(score.losses) / games,
        );
        let mean = w + 0.5 * d;
        let variance =
            w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * (0.0 - mean).powi(2);
        Elo::of(mean, games, variance, variance)
    }

    /// The figures of a mean `score` over `units` pairs or games whose score has `variance`;
    /// the normalised Elo divides by the root of `nelo_variance` (twice the pairs' variance,
    /// the games' own).
    fn of(score: f64, units: f64, variance: f64, nelo_variance: f64) -> Elo {
        let per_unit = variance / units;
        let upper = score + CI95ZSCORE * per_unit.sqrt();
        let lower = score - CI95ZSCORE * per_unit.sqrt();
        let nelo = |s: f64| (s - 0.5) / nelo_variance.sqrt() * (800.0 / 10f64.ln());
        Elo {
            score,
            per_unit,
            diff: elo_of_score(score),
            error: (elo_of_score(upper) - elo_of_score(lower)) / 2.0,
            nelo: nelo(score),
            nelo_error: (nelo(upper) - nelo(lower)) / 2.0,
        }
    }

    /// The likelihood of superiority in percent.
    pub fn los(&self) -> f64 {
        (1.0 - erf(-(self.score - 0.5) / (2.0 * self.per_unit).sqrt())) / 2.0 * 100.0
    }
}
