//! The instructions a network model's distributions are worked out with. [`Instructions::Portable`]
//! runs on any CPU; on x86-64, [`Instructions::Avx2`] is the same code compiled with AVX2,
//! POPCNT, BMI1 and BMI2 (a 16-lane row in one register, hardware population counts), chosen at
//! run time when the CPU has them, so the default build still runs on any x86-64. Integers only,
//! added in the same order: both give the same frequencies, bit for bit (the pinned
//! probabilities of every shipped network, `tests/it/move_models.rs`, are checked under each
//! instruction set this CPU runs). `SHANNON_CODEC_INSTRUCTIONS=portable` picks the portable code
//! on any CPU, to compare them.

use super::context::Context;
use super::{Distribution, History, Net};
#[cfg(target_arch = "x86_64")]
use super::{ONE, PRODUCT_SHIFT};
use crate::{Move, Position};

/// The instruction sets a network model's distributions can be worked out with, slowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instructions {
    /// Any CPU.
    Portable,
    /// AVX2, POPCNT, BMI1 and BMI2.
    Avx2,
}

impl Instructions {
    /// The environment variable that overrules [`Instructions::fastest`].
    pub const VARIABLE: &str = "SHANNON_CODEC_INSTRUCTIONS";

    /// Every one, slowest first.
    pub const ALL: [Instructions; 2] = [Instructions::Portable, Instructions::Avx2];

    /// Every one this CPU runs, slowest first.
    pub fn available() -> Vec<Instructions> {
        let mut found = vec![Instructions::Portable];
        #[cfg(target_arch = "x86_64")]
        if Avx2::detect().is_some() {
            found.push(Instructions::Avx2);
        }
        found
    }

    /// The fastest on this CPU.
    pub fn fastest() -> Instructions {
        *Instructions::available()
            .last()
            .unwrap_or(&Instructions::Portable)
    }

    /// A name for tables and figures, and for [`Instructions::VARIABLE`].
    pub fn name(self) -> &'static str {
        match self {
            Instructions::Portable => "portable",
            Instructions::Avx2 => "avx2",
        }
    }

    /// The one with this [`name`](Instructions::name).
    pub fn from_name(name: &str) -> Option<Instructions> {
        Instructions::ALL.into_iter().find(|i| i.name() == name)
    }

    /// What the network models use: the fastest, unless [`Instructions::VARIABLE`] names another this CPU
    /// runs (to compare them); a name unknown or not available here is refused with a warning.
    /// Read once.
    pub fn chosen() -> Instructions {
        static CHOSEN: std::sync::OnceLock<Instructions> = std::sync::OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let fastest = Instructions::fastest();
            const VARIABLE: &str = Instructions::VARIABLE;
            let Ok(requested) = std::env::var(VARIABLE) else {
                return fastest;
            };
            match Instructions::from_name(&requested) {
                Some(i) if Instructions::available().contains(&i) => i,
                Some(_) => {
                    log::warn!(
                        "{VARIABLE}={requested}: this CPU lacks them; coding with {}",
                        fastest.name()
                    );
                    fastest
                }
                None => {
                    log::warn!(
                        "{VARIABLE}={requested}: not one of portable, avx2; coding with {}",
                        fastest.name()
                    );
                    fastest
                }
            }
        })
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
        net.clipped_score(&super::sum_rows(piece, &net.rows, features))
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

/// Proof that this CPU has AVX2, POPCNT, BMI1 and BMI2: only [`Avx2::detect`] makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The proof, when the CPU running this has the instructions.
    pub(super) fn detect() -> Option<Avx2> {
        let found = std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2");
        found.then_some(Avx2(()))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each instruction set's name reads back to it, an unknown name to none, and what the
    /// models use is one this CPU runs, the portable code always among them.
    #[test]
    fn names_read_back_and_the_choice_is_available() {
        for instructions in Instructions::ALL {
            assert_eq!(
                Instructions::from_name(instructions.name()),
                Some(instructions)
            );
        }
        assert_eq!(Instructions::from_name("sse9"), None);
        let available = Instructions::available();
        assert_eq!(available[0], Instructions::Portable);
        assert!(available.contains(&Instructions::chosen()));
        assert!(available.contains(&Instructions::fastest()));
    }
}
