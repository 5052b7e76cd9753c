//! The network move model (m3): richer features ([`features`]) than m1 and m2, weighed by a
//! linear part and one small hidden layer of clipped-linear units, all in integer arithmetic.
//!
//! Each feature (of the move, of the piece it moves, or of the position) has a row of `W`
//! 16-bit weights. A move's accumulator is the sum, with saturation, of the bias row, its
//! position's rows, its piece's rows and its own rows, always in that order. Lane 0 is the
//! linear part, in 1/[`SCALE`] bit; lanes 1.. are hidden units, clipped to 0..=[`ONE`] and
//! weighed by the output row. The score (1/[`SCALE`] bit) becomes a frequency with an integer
//! exponential ([`frequencies`]). Integers only, added in a fixed order: every machine computes
//! the same frequencies, and a test pins them.
//!
//! The end of the game and its result are coded with odds by how the position stands
//! ([`ending`]). What it does not do: search, or learn while coding.

pub mod context;
pub mod ending;
pub mod fast;
pub mod features;
pub mod file;
pub mod fit;
mod group;
mod history;
mod scoring;
pub mod see;
mod tier;

use super::book::Book;
use super::predictor::{fit_to_total, Distribution, MovePredictor};
use crate::{Move, Position};
pub use fast::Layout;
pub use history::History;
pub use tier::Instructions;

/// Score units per bit.
pub const SCALE: i32 = 64;

/// A hidden unit's activation of 1.
pub const ONE: i16 = 512;

/// The output weights' unit is 1 / ([`SCALE`] << `OUTPUT_SHIFT`) bit per [`ONE`] of activation.
pub const OUTPUT_SHIFT: u32 = 4;

/// The shift from (output weight x activation) to score units: log2(ONE) + OUTPUT_SHIFT.
const PRODUCT_SHIFT: u32 = 9 + OUTPUT_SHIFT;

/// 2^16 * 2^(-k/64) for k in 0..64, rounded (a test checks them).
const EXP_FRACTION: [u32; 64] = [
    65536, 64830, 64132, 63441, 62757, 62081, 61413, 60751, 60097, 59449, 58809, 58176, 57549,
    56929, 56316, 55709, 55109, 54515, 53928, 53347, 52773, 52204, 51642, 51085, 50535, 49991,
    49452, 48920, 48393, 47871, 47356, 46846, 46341, 45842, 45348, 44859, 44376, 43898, 43425,
    42958, 42495, 42037, 41584, 41136, 40693, 40255, 39821, 39392, 38968, 38548, 38133, 37722,
    37316, 36914, 36516, 36123, 35734, 35349, 34968, 34591, 34219, 33850, 33486, 33125,
];

/// A network move model with rows of `W` lanes (lane 0 linear, `W - 1` hidden units).
#[derive(Debug, Clone)]
pub struct Net<const W: usize> {
    /// The rows' layout: m3's and m4's groups, or m5's slots.
    pub layout: Layout,
    /// The feature groups ([`features::Group::bit`]); in [`Layout::Fast`], what the context
    /// works out ([`fast::FAST_GROUPS`]).
    pub groups: u32,
    /// One row per move feature ([`Layout::features`]).
    pub rows: Vec<[i16; W]>,
    /// One row per position feature ([`features::POSITION_FEATURES`]).
    pub position_rows: Vec<[i16; W]>,
    /// The bias row.
    pub bias: [i16; W],
    /// The output weight of each hidden unit (lane 0 unused).
    pub output: [i16; W],
    /// The odds of going on and of ending, by [`ending::end_context`].
    pub end: Vec<[u32; 2]>,
    /// The odds of each result by [`ending::result_context`].
    pub result: Vec<[u32; 4]>,
    /// The opening book.
    pub book: Book,
}

impl<const W: usize> MovePredictor for Net<W> {
    type History = History;

    fn history(&self, start: &Position) -> History {
        History::new(start)
    }

    fn after(&self, history: &History, pos: &Position, mv: Move) -> History {
        history.after(pos, mv)
    }

    fn distribution(&self, pos: &Position, history: &History, out: &mut Distribution) {
        self.distribution_with(Instructions::chosen(), pos, history, out);
    }

    fn end_odds(&self, pos: &Position, history: &History) -> [u32; 2] {
        self.end[ending::end_context(pos, history)]
    }

    fn result_odds(&self, pos: &Position, _history: &History, has_moves: bool) -> [u32; 4] {
        self.result[ending::result_context(pos, has_moves)]
    }
}

/// Integer frequencies from scores (1/[`SCALE`] bit): 2^15 * 2^((s - max) / 64), at least 1,
/// scaled down to fit the coder's total when they sum above it. Returns the total.
pub fn frequencies(scores: &[i32], freqs: &mut Vec<u32>) -> u32 {
    let max = scores.iter().copied().max().unwrap_or(0);
    frequencies_below(max, scores, freqs)
}

/// [`frequencies`] when the largest score, `max`, is known.
fn frequencies_below(max: i32, scores: &[i32], freqs: &mut Vec<u32>) -> u32 {
    freqs.clear();
    // Summed as they are made (each below 2^15: a sum of 2^17 of them fits in a u64).
    let mut sum = 0u64;
    freqs.extend(scores.iter().map(|&s| {
        let f = exp_below(max - s);
        sum += u64::from(f);
        f
    }));
    fit_to_total(freqs, sum)
}

/// [`EXP_FRACTION`] halved: 2^15 * 2^(-k/64).
const EXP_HALF: [u32; 64] = {
    let mut out = [0; 64];
    let mut k = 0;
    while k < 64 {
        out[k] = EXP_FRACTION[k] >> 1;
        k += 1;
    }
    out
};

/// 2^15 * 2^(-d / 64), at least 1 (d >= 0). (Shifted 16 places or more, every entry of
/// [`EXP_HALF`] is 0, so the floor of 1 stands for it: no test of the shift.)
#[inline(always)]
fn exp_below(d: i32) -> u32 {
    let d = d.max(0) as u32;
    (EXP_HALF[(d % 64) as usize] >> (d / 64).min(31)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped networks' row sums never saturate: in every lane, the bias, the largest
    /// weight of each position group and, for each move group (m5: each slot), its largest
    /// weight times the most features a piece and its move hear from it (m5: one), add up to
    /// far less than `i16::MAX`.
    /// So the saturating sums are plain sums, and the order the rows are added in does not
    /// change a probability (what a faster way of adding them may rely on).
    #[test]
    fn the_shipped_networks_sums_never_saturate() {
        use super::super::{Fitted, MoveModel};
        use features::Group;
        // The most features of each group ([`Group::ALL`] order) a piece and its move hear.
        let most = [1, 1, 2, 1, 1, 3, 2, 1, 1, 2, 1, 3, 4, 3, 1, 1, 1, 1];
        for model in [MoveModel::M3, MoveModel::M4, MoveModel::M5, MoveModel::M6] {
            let Some(Fitted::Net(file::AnyNet::W16(net))) = model.fitted() else {
                panic!("{model} is a network of 16 lanes");
            };
            let ranges: Vec<(std::ops::Range<usize>, i32)> = match net.layout {
                Layout::Groups => Group::ALL
                    .iter()
                    .zip(most)
                    .map(|(g, n)| (g.offset()..g.offset() + g.size(), n))
                    .collect(),
                layout => fast::slots(layout).into_iter().map(|r| (r, 1)).collect(),
            };
            let largest = |rows: &[[i16; 16]], lane: usize| {
                rows.iter()
                    .map(|r| i32::from(r[lane]).abs())
                    .max()
                    .unwrap_or(0)
            };
            for lane in 0..16 {
                let mut bound = i32::from(net.bias[lane]).abs();
                for (range, n) in &ranges {
                    bound += n * largest(&net.rows[range.clone()], lane);
                }
                let mut offset = 0;
                for size in context::POSITION_GROUPS {
                    bound += largest(&net.position_rows[offset..offset + size], lane);
                    offset += size;
                }
                assert!(
                    bound < i32::from(i16::MAX) / 4,
                    "{model} lane {lane}: {bound}"
                );
            }
        }
    }

    #[test]
    fn the_exponential_table_is_two_to_the_minus_k_over_64() {
        for (k, &value) in EXP_FRACTION.iter().enumerate() {
            let exact = 65536.0 * (-(k as f64) / 64.0).exp2();
            assert_eq!(value, exact.round() as u32, "{k}");
        }
    }
}
