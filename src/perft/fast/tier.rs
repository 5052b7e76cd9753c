//! The instructions the counting path is compiled with. [`Portable`] runs on any CPU; on x86-64,
//! [`Bmi2`] is the same code compiled with POPCNT, BMI1 and BMI2 (hardware population count,
//! trailing zero count and bit clearing instead of their generic instruction sequences), chosen
//! at run time when the CPU has them, so the default build still runs on any x86-64. The BMI2
//! tier also finds slider attacks with `PEXT` instead of a magic multiply.

use super::{count_below, square, Board, Rules, Side};
#[cfg(target_arch = "x86_64")]
use crate::attacks::{bishop_attacks_pext, rook_attacks_pext};
#[cfg(target_arch = "x86_64")]
use crate::Bitboard;

/// A way of compiling the recursion: `below` counts the leaves below a board; `rook` and
/// `bishop` are the slider attacks (the squares' indices, the occupied squares) it uses.
pub(crate) trait Tier: Copy {
    /// Leaves below `b` (side `S` to move) at `depth` ≥ 1.
    fn below<S: Side>(self, b: &Board, r: &Rules, depth: u32) -> u64;
    fn rook(self, sq: u32, occupied: u64) -> u64;
    fn bishop(self, sq: u32, occupied: u64) -> u64;
}

/// Any CPU.
#[derive(Clone, Copy)]
pub(crate) struct Portable;

impl Tier for Portable {
    #[inline(always)]
    fn below<S: Side>(self, b: &Board, r: &Rules, depth: u32) -> u64 {
        count_portable::<S>(b, r, depth)
    }
    #[inline(always)]
    fn rook(self, sq: u32, occupied: u64) -> u64 {
        super::rook(sq, occupied)
    }
    #[inline(always)]
    fn bishop(self, sq: u32, occupied: u64) -> u64 {
        super::bishop(sq, occupied)
    }
}

fn count_portable<S: Side>(b: &Board, r: &Rules, depth: u32) -> u64 {
    count_below::<S, Portable>(b, r, depth, Portable)
}

/// Proof that this CPU has POPCNT, BMI1 and BMI2: only [`Bmi2::detect`] makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Bmi2(());

#[cfg(target_arch = "x86_64")]
impl Bmi2 {
    /// The proof, when the CPU running this has the instructions.
    pub(crate) fn detect() -> Option<Bmi2> {
        let found = std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2");
        found.then_some(Bmi2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Tier for Bmi2 {
    #[inline(always)]
    fn below<S: Side>(self, b: &Board, r: &Rules, depth: u32) -> u64 {
        // SAFETY: `count_bmi2` only needs the CPU to have POPCNT, BMI1 and BMI2, and a `Bmi2`
        // value exists only when `Bmi2::detect` found them on this CPU.
        unsafe { count_bmi2::<S>(b, r, depth, self) }
    }
    #[inline(always)]
    fn rook(self, sq: u32, occupied: u64) -> u64 {
        rook_attacks_pext(square(sq), Bitboard(occupied), |x, mask| self.pext(x, mask)).0
    }
    #[inline(always)]
    fn bishop(self, sq: u32, occupied: u64) -> u64 {
        bishop_attacks_pext(square(sq), Bitboard(occupied), |x, mask| self.pext(x, mask)).0
    }
}

#[cfg(target_arch = "x86_64")]
impl Bmi2 {
    /// BMI2's parallel bit extract (inlined into `count_bmi2`, where it is one instruction).
    #[inline(always)]
    fn pext(self, x: u64, mask: u64) -> u64 {
        // SAFETY: `_pext_u64` only needs the CPU to have BMI2, and a `Bmi2` value exists only
        // when `Bmi2::detect` found it on this CPU.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn count_bmi2<S: Side>(b: &Board, r: &Rules, depth: u32, tier: Bmi2) -> u64 {
    count_below::<S, Bmi2>(b, r, depth, tier)
}
