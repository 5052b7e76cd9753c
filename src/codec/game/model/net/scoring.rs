//! How a network model scores the legal moves of a position and makes their distribution: the
//! rows added up, clipped and weighed ([`Net::score`]), per layout, by the instructions chosen at
//! run time ([`Tier`]: the portable code, or AVX2's, [`super::tier`]).

use super::context::{self, Context};
use super::features::{FeatureSink, ALL_GROUPS, M4_GROUPS};
#[cfg(target_arch = "x86_64")]
use super::tier::Avx2;
use super::tier::Instructions;
use super::{frequencies_below, History, Layout, Net, ONE, PRODUCT_SHIFT};
use crate::codec::game::model::book;
use crate::codec::game::model::predictor::Distribution;
use crate::codec::game::moves::canonical_legal_moves;
use crate::{Move, Position};

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

    /// [`MovePredictor::distribution`] worked out with `instructions` (or, where this CPU lacks
    /// them, the portable code): every tier gives the same, bit for bit.
    ///
    /// [`MovePredictor::distribution`]: crate::codec::game::model::MovePredictor::distribution
    pub fn distribution_with(
        &self,
        instructions: Instructions,
        pos: &Position,
        history: &History,
        out: &mut Distribution,
    ) {
        #[cfg(target_arch = "x86_64")]
        if instructions == Instructions::Avx2 {
            if let Some(avx2) = Avx2::detect() {
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

/// How a network's distributions are worked out: the portable code, or AVX2's. The work itself
/// is [`Net::distribution_in`] and [`Net::all_scores_in`], inlined into each tier's entry points
/// so that it is compiled with that tier's instructions.
pub(super) trait Tier: Copy {
    /// The score of the accumulator `piece` plus the rows of `features` (in order, lane by
    /// lane with saturation), as [`Net::score`] gives it.
    fn move_score<const W: usize>(self, net: &Net<W>, piece: &[i16; W], features: &[u16]) -> i32;
    /// [`Net::all_scores_in`], out of line.
    fn all_scores<const W: usize>(
        self,
        net: &Net<W>,
        context: &Context,
        moves: &[Move],
        book: Option<(u64, u32)>,
        scores: &mut Vec<i32>,
    ) -> i32;
    /// [`Net::distribution_in`].
    fn distribution<const W: usize>(
        self,
        net: &Net<W>,
        pos: &Position,
        history: &History,
        out: &mut Distribution,
    );
}

/// The portable code: any CPU.
#[derive(Clone, Copy)]
pub(super) struct Portable;

impl Tier for Portable {
    #[inline(always)]
    fn move_score<const W: usize>(self, net: &Net<W>, piece: &[i16; W], features: &[u16]) -> i32 {
        net.clipped_score(&sum_rows(piece, &net.rows, features))
    }

    #[inline(never)]
    fn all_scores<const W: usize>(
        self,
        net: &Net<W>,
        context: &Context,
        moves: &[Move],
        book: Option<(u64, u32)>,
        scores: &mut Vec<i32>,
    ) -> i32 {
        net.all_scores_in(self, context, moves, book, scores)
    }

    #[inline(never)]
    fn distribution<const W: usize>(
        self,
        net: &Net<W>,
        pos: &Position,
        history: &History,
        out: &mut Distribution,
    ) {
        net.distribution_in(self, pos, history, out);
    }
}

#[cfg(target_arch = "x86_64")]
impl Tier for Avx2 {
    #[inline(always)]
    fn move_score<const W: usize>(self, net: &Net<W>, piece: &[i16; W], features: &[u16]) -> i32 {
        if W == 16 {
            // SAFETY: `score16` needs the CPU to have AVX2, which an `Avx2` value proves, and
            // rows of 16 lanes, which `W == 16` says these are.
            unsafe { score16(piece, &net.rows, features, &net.output) }
        } else {
            Portable.move_score(net, piece, features)
        }
    }

    #[inline(always)]
    fn all_scores<const W: usize>(
        self,
        net: &Net<W>,
        context: &Context,
        moves: &[Move],
        book: Option<(u64, u32)>,
        scores: &mut Vec<i32>,
    ) -> i32 {
        // SAFETY: `all_scores_avx2` needs the CPU to have AVX2, POPCNT, BMI1 and BMI2, which an
        // `Avx2` value proves.
        unsafe { all_scores_avx2(self, net, context, moves, book, scores) }
    }

    #[inline(always)]
    fn distribution<const W: usize>(
        self,
        net: &Net<W>,
        pos: &Position,
        history: &History,
        out: &mut Distribution,
    ) {
        // SAFETY: as for `all_scores`.
        unsafe { distribution_avx2(self, net, pos, history, out) }
    }
}

/// [`Net::all_scores_in`] compiled with AVX2, POPCNT, BMI1 and BMI2; out of line, as
/// [`Net::all_scores_in`] says why.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
#[inline(never)]
fn all_scores_avx2<const W: usize>(
    tier: Avx2,
    net: &Net<W>,
    context: &Context,
    moves: &[Move],
    book: Option<(u64, u32)>,
    scores: &mut Vec<i32>,
) -> i32 {
    net.all_scores_in(tier, context, moves, book, scores)
}

/// [`Net::distribution_in`] compiled with AVX2, POPCNT, BMI1 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
#[inline(never)]
fn distribution_avx2<const W: usize>(
    tier: Avx2,
    net: &Net<W>,
    pos: &Position,
    history: &History,
    out: &mut Distribution,
) {
    net.distribution_in(tier, pos, history, out);
}

/// [`Tier::move_score`] for rows of 16 lanes, in one AVX2 register from the piece's row to the
/// score: the same saturating additions in the same order, the same clipping, the products
/// summed in 32 bits (exact: each is below 2^24) and shifted as [`Net::score`] does.
///
/// # Safety
/// The CPU must have AVX2, and `W` must be 16.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn score16<const W: usize>(
    piece: &[i16; W],
    rows: &[[i16; W]],
    features: &[u16],
    output: &[i16; W],
) -> i32 {
    use std::arch::x86_64::*;
    debug_assert_eq!(W, 16);
    // SAFETY: each load reads 32 bytes from a `[i16; W]` with `W == 16` (the caller's promise):
    // 32 bytes exactly; `loadu` needs no alignment.
    let load = |row: &[i16; W]| unsafe { _mm256_loadu_si256(row.as_ptr().cast()) };
    let mut acc = load(piece);
    for &f in features {
        acc = _mm256_adds_epi16(acc, load(&rows[usize::from(f)]));
    }
    let linear = i32::from(_mm256_extract_epi16::<0>(acc) as i16);
    let clipped = _mm256_min_epi16(
        _mm256_max_epi16(acc, _mm256_setzero_si256()),
        _mm256_set1_epi16(ONE),
    );
    let products = _mm256_madd_epi16(clipped, load(output));
    let half = _mm_add_epi32(
        _mm256_castsi256_si128(products),
        _mm256_extracti128_si256::<1>(products),
    );
    let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b1110>(half));
    let sum = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b0001>(quarter));
    linear + (_mm_cvtsi128_si32(sum) >> PRODUCT_SHIFT)
}
