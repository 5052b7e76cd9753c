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
pub mod see;
mod tier;

use super::book::{self, Book};
use super::predictor::{Distribution, MovePredictor};
use crate::codec::game::moves::canonical_legal_moves;
use crate::{Move, Position};
use context::Context;
pub use fast::Layout;
use features::{FeatureSink, ALL_GROUPS, M4_GROUPS};
pub use history::History;
pub use tier::Instructions;
use tier::{Portable, Tier};

/// Score units per bit.
pub const SCALE: i32 = 64;

/// A hidden unit's activation of 1.
pub const ONE: i16 = 512;

/// The output weights' unit is 1 / ([`SCALE`] << `OUTPUT_SHIFT`) bit per [`ONE`] of activation.
pub const OUTPUT_SHIFT: u32 = 4;

/// The shift from (output weight x activation) to score units: log2(ONE) + OUTPUT_SHIFT.
const PRODUCT_SHIFT: u32 = 9 + OUTPUT_SHIFT;

/// The largest frequency total (the arithmetic coder's limit).
const TOTAL: u32 = crate::codec::arith::MAX_TOTAL;

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

/// Adds up the rows of the features it hears, in the order it hears them, lane by lane with
/// saturation: the features go straight into the accumulator, with no list of indices between.
struct Accumulator<'a, const W: usize> {
    rows: &'a [[i16; W]],
    acc: [i16; W],
}

impl<const W: usize> Accumulator<'_, W> {
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // the form that vectorises
    fn add(&mut self, feature: usize) {
        let row = &self.rows[feature];
        for j in 0..W {
            self.acc[j] = self.acc[j].saturating_add(row[j]);
        }
    }
}

impl<const W: usize> FeatureSink for Accumulator<'_, W> {
    #[inline(always)]
    fn piece(&mut self, feature: usize) {
        self.add(feature);
    }

    #[inline(always)]
    fn movement(&mut self, feature: usize) {
        self.add(feature);
    }
}

/// `base` plus the rows of `features`, lane by lane with saturation, in order.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // the form that vectorises
fn sum_rows<const W: usize>(base: &[i16; W], rows: &[[i16; W]], features: &[u16]) -> [i16; W] {
    let mut acc = *base;
    for &f in features {
        let row = &rows[usize::from(f)];
        for j in 0..W {
            acc[j] = acc[j].saturating_add(row[j]);
        }
    }
    acc
}

impl<const W: usize> Net<W> {
    /// The score of an accumulator, in 1/[`SCALE`] bit.
    /// (Lane 0 is clipped too, but its output weight is 0: one loop over every lane, which the
    /// compiler turns into a few vector instructions.)
    #[inline(always)]
    #[allow(clippy::needless_range_loop, clippy::manual_clamp)] // the form that vectorises
    fn score(&self, acc: &[i16; W]) -> i32 {
        let mut hidden = 0i32;
        for j in 0..W {
            let a = acc[j].max(0).min(ONE);
            hidden += i32::from(a) * i32::from(self.output[j]);
        }
        i32::from(acc[0]) + (hidden >> PRODUCT_SHIFT)
    }

    /// [`Net::score`] on its own: inlined into the features, its loops went one lane at a time
    /// (the portable tier's; AVX2's keeps the sum in a register: [`tier`]).
    #[inline(never)]
    fn clipped_score(&self, acc: &[i16; W]) -> i32 {
        self.score(acc)
    }

    /// The score of each of `moves` (canonical order: each piece's moves together, so the rows
    /// of the piece's own features are added once per piece).
    #[inline(always)]
    fn scores(
        &self,
        groups: u32,
        context: &Context,
        moves: &[Move],
        book: Option<(u64, u32)>,
        scores: &mut Vec<i32>,
    ) {
        let slots = context::POSITION_GROUPS.len();
        let mut position = [0u16; 16];
        for (slot, feature) in position.iter_mut().zip(context.position_features()) {
            *slot = feature as u16;
        }
        let base = sum_rows(&self.bias, &self.position_rows, &position[..slots]);
        let mut piece = (usize::MAX, base);
        for &mv in moves {
            let from = mv.from().index();
            if piece.0 != from {
                let mut sink = Accumulator {
                    rows: &self.rows,
                    acc: base,
                };
                context.piece_features(from, groups, &mut sink);
                piece = (from, sink.acc);
            }
            let bucket = book
                .map(|(hash, total)| book::bucket(total, self.book.count(book::extend(hash, mv))));
            let mut sink = Accumulator {
                rows: &self.rows,
                acc: piece.1,
            };
            context.move_features(mv, groups, bucket, &mut sink);
            scores.push(self.clipped_score(&sink.acc));
        }
    }

    /// The score of each of `moves` under [`Layout::Fast`] (or [`Layout::FastExchange`] when
    /// `EXCHANGE`): the piece's slots added once per piece, then each move's. Returns the
    /// largest score (`i32::MIN` with no moves).
    #[inline(always)]
    fn fast_scores<const EXCHANGE: bool, T: Tier>(
        &self,
        tier: T,
        context: &Context,
        moves: &[Move],
        book: Option<(u64, u32)>,
        scores: &mut Vec<i32>,
    ) -> i32 {
        let mut max = i32::MIN;
        let base = sum_rows(&self.bias, &self.position_rows, &context.position);
        let mut piece = (usize::MAX, context.fast_mover(0), base);
        for &mv in moves {
            let from = mv.from().index();
            if piece.0 != from {
                let mover = context.fast_mover(from);
                let rows = context.fast_piece::<EXCHANGE>(&mover);
                piece = (from, mover, sum_rows(&base, &self.rows, &rows));
            }
            let bucket = book
                .map(|(hash, total)| book::bucket(total, self.book.count(book::extend(hash, mv))));
            let features = context.fast_move::<EXCHANGE>(&piece.1, mv, bucket);
            let score = tier.move_score(self, &piece.2, &features);
            max = max.max(score);
            scores.push(score);
        }
        max
    }

    /// The score of each of `moves` by the model's layout and groups; returns the largest
    /// (with no moves, a number no frequency uses). Each tier's copy is out of line
    /// ([`Tier::all_scores`]), so the context is a parameter the compiler knows no store to
    /// `scores` changes: inlined, it read the context's fields again after each.
    #[inline(always)]
    fn all_scores_in<T: Tier>(
        &self,
        tier: T,
        context: &Context,
        moves: &[Move],
        book: Option<(u64, u32)>,
        scores: &mut Vec<i32>,
    ) -> i32 {
        // The shipped models' groups as constants: the compiler drops the tests of the groups.
        if self.layout == Layout::Fast {
            return self.fast_scores::<false, T>(tier, context, moves, book, scores);
        } else if self.layout == Layout::FastExchange {
            return self.fast_scores::<true, T>(tier, context, moves, book, scores);
        } else if self.groups == ALL_GROUPS {
            self.scores(ALL_GROUPS, context, moves, book, scores);
        } else if self.groups == M4_GROUPS {
            self.scores(M4_GROUPS, context, moves, book, scores);
        } else {
            self.scores(self.groups, context, moves, book, scores);
        }
        scores.iter().copied().max().unwrap_or(0)
    }

    /// The work of [`MovePredictor::distribution`], inlined into each tier's entry point
    /// ([`Tier::distribution`]).
    #[inline(always)]
    fn distribution_in<T: Tier>(
        &self,
        tier: T,
        pos: &Position,
        history: &History,
        out: &mut Distribution,
    ) {
        canonical_legal_moves(pos, &mut out.order, &mut out.moves);
        let book = self.book_total(history);
        let (legal, in_book) = (out.moves.len(), book.is_some());
        let context = match &mut out.context {
            Some(context) => {
                context.renew(pos, history, legal, in_book, self.groups);
                context
            }
            None => out
                .context
                .insert(Context::new(pos, history, legal, in_book, self.groups)),
        };
        out.scores.clear();
        let max = tier.all_scores(self, context, &out.moves, book, &mut out.scores);
        out.total = frequencies_below(max, &out.scores, &mut out.freqs);
    }

    /// [`MovePredictor::distribution`] worked out with `instructions` (or, where this CPU
    /// lacks them, the portable code): every tier gives the same, bit for bit.
    pub fn distribution_with(
        &self,
        instructions: Instructions,
        pos: &Position,
        history: &History,
        out: &mut Distribution,
    ) {
        #[cfg(target_arch = "x86_64")]
        if instructions == Instructions::Avx2 {
            if let Some(avx2) = tier::Avx2::detect() {
                return avx2.distribution(self, pos, history, out);
            }
        }
        let _ = instructions;
        Portable.distribution(self, pos, history, out);
    }

    /// The book bucket function of the position `history` reached, if it is in the book.
    fn book_total(&self, history: &History) -> Option<(u64, u32)> {
        let hash = history.book?;
        let total = self.book.count(hash);
        (total > 0).then_some((hash, total))
    }
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
    if sum <= u64::from(TOTAL) {
        return sum as u32;
    }
    // The floor of 1 can add up to one per move: leave room for 256 moves.
    let budget = u64::from(TOTAL - 256);
    let factor = (budget << 32) / sum;
    let mut total = 0;
    for f in freqs.iter_mut() {
        *f = (((u64::from(*f) * factor) >> 32) as u32).max(1);
        total += *f;
    }
    total
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
