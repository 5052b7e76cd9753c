//! The instructions the counting path is compiled with. [`Portable`] runs on any CPU; on x86-64,
//! [`Bmi2`] is the same code compiled with POPCNT, BMI1 and BMI2 (hardware population count,
//! trailing zero count and bit clearing instead of their generic instruction sequences), chosen
//! at run time when the CPU has them, so the default build still runs on any x86-64. Where BMI2's
//! `PEXT` is fast, that tier also finds slider attacks by `PEXT` instead of a magic multiply.

use super::hashed::{count_hashed, Scratch, Shared};
use super::listed::{self, Groups};
use super::playout::{self, Played, Playout};
use super::{count_below, square, Board, Rules, Side};
#[cfg(target_arch = "x86_64")]
use crate::attacks::{bishop_attacks_pext, rook_attacks_pext};
#[cfg(target_arch = "x86_64")]
use crate::Bitboard;

/// The instruction sets the counting path can be compiled for, slowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instructions {
    /// Any CPU; slider attacks by magic multiply.
    Portable,
    /// POPCNT, BMI1 and BMI2; slider attacks by magic multiply.
    Bmi2,
    /// POPCNT, BMI1 and BMI2; slider attacks by `PEXT`.
    Bmi2Pext,
}

impl Instructions {
    /// Every one this CPU runs, slowest first.
    pub fn available() -> Vec<Instructions> {
        let mut found = vec![Instructions::Portable];
        #[cfg(target_arch = "x86_64")]
        if Bmi2::<false>::detect().is_some() {
            found.extend([Instructions::Bmi2, Instructions::Bmi2Pext]);
        }
        found
    }

    /// The fastest on this CPU: `PEXT` wherever there is BMI2, except on AMD (and Hygon) CPUs
    /// before Zen 3, whose `PEXT` is microcode taking tens to hundreds of cycles.
    pub fn fastest() -> Instructions {
        #[cfg(target_arch = "x86_64")]
        if Bmi2::<false>::detect().is_some() {
            return if slow_pext() {
                Instructions::Bmi2
            } else {
                Instructions::Bmi2Pext
            };
        }
        Instructions::Portable
    }

    /// A name for tables and figures, and for `SHANNON_PERFT_INSTRUCTIONS`.
    pub fn name(self) -> &'static str {
        match self {
            Instructions::Portable => "portable",
            Instructions::Bmi2 => "bmi2",
            Instructions::Bmi2Pext => "bmi2+pext",
        }
    }

    /// The one with this [`name`](Instructions::name).
    pub fn from_name(name: &str) -> Option<Instructions> {
        [
            Instructions::Portable,
            Instructions::Bmi2,
            Instructions::Bmi2Pext,
        ]
        .into_iter()
        .find(|instructions| instructions.name() == name)
    }

    /// What [`perft`](super::perft) counts with: the fastest, unless `SHANNON_PERFT_INSTRUCTIONS`
    /// names another this CPU runs (to compare the builds, or to overrule the guess about
    /// `PEXT`); a name that is unknown or not available here is refused with a warning.
    pub fn chosen() -> Instructions {
        let fastest = Instructions::fastest();
        let Ok(requested) = std::env::var("SHANNON_PERFT_INSTRUCTIONS") else {
            return fastest;
        };
        match Instructions::from_name(&requested) {
            Some(instructions) if Instructions::available().contains(&instructions) => instructions,
            Some(_) => {
                log::warn!(
                    "SHANNON_PERFT_INSTRUCTIONS={requested}: this CPU lacks them; counting with {}",
                    fastest.name()
                );
                fastest
            }
            None => {
                log::warn!(
                    "SHANNON_PERFT_INSTRUCTIONS={requested}: not one of portable, bmi2, bmi2+pext; \
                     counting with {}",
                    fastest.name()
                );
                fastest
            }
        }
    }
}

/// True when this CPU's `PEXT` is microcoded (see [`pext_is_slow`]).
#[cfg(target_arch = "x86_64")]
fn slow_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let mut name = [0u8; 12];
    for (chunk, word) in name.chunks_mut(4).zip([vendor.ebx, vendor.edx, vendor.ecx]) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    pext_is_slow(&name, __cpuid(1).eax)
}

/// True for a CPU whose `PEXT` is microcoded: AMD and Hygon families before 19h (Zen 3), from
/// the CPUID vendor string and processor signature (leaf 1, EAX).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) fn pext_is_slow(vendor: &[u8; 12], signature: u32) -> bool {
    if vendor != b"AuthenticAMD" && vendor != b"HygonGenuine" {
        return false;
    }
    let base_family = (signature >> 8) & 0xF;
    let family = if base_family == 0xF {
        base_family + ((signature >> 20) & 0xFF)
    } else {
        base_family
    };
    family < 0x19
}

/// A way of compiling the recursion: `below` counts the leaves below a board; `rook` and
/// `bishop` are the slider attacks (from a square's index, given the occupied squares).
pub(crate) trait Tier: Copy {
    /// Leaves below `b` (side `S` to move) at `depth` ≥ 1.
    fn below<S: Side>(self, b: &Board, r: &Rules, depth: u32) -> u64;
    /// The same with `shared`'s table and stop flag, `key` being the key of `b`.
    #[allow(clippy::too_many_arguments)]
    fn hashed<S: Side>(
        self,
        b: &Board,
        r: &Rules,
        depth: u32,
        key: u64,
        shared: &Shared,
        scratch: &mut Scratch,
    ) -> u64;
    fn rook(self, sq: u32, occupied: u64) -> u64;
    fn bishop(self, sq: u32, occupied: u64) -> u64;
    /// The square of the `n`-th lowest square of `set` (which has more than `n`).
    fn nth(self, set: u64, n: usize) -> u32;
    /// The legal moves of `b` in the position's list order (see [`listed`]).
    fn listed<S: Side>(self, b: &Board, r: &Rules, groups: &mut Groups);
    /// Play the `index`-th of `p`'s legal moves (see [`playout`]).
    fn play_listed<S: Side>(self, p: &mut Playout, index: usize) -> Played;
}

/// The `n`-th lowest square of `set` by clearing the lowest `n` (no `PDEP`).
#[inline(always)]
fn nth_by_clearing(mut set: u64, n: usize) -> u32 {
    for _ in 0..n {
        set &= set - 1;
    }
    set.trailing_zeros()
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
    fn hashed<S: Side>(
        self,
        b: &Board,
        r: &Rules,
        depth: u32,
        key: u64,
        shared: &Shared,
        scratch: &mut Scratch,
    ) -> u64 {
        count_hashed::<S, Portable>(b, r, depth, key, Portable, shared, scratch)
    }
    #[inline(always)]
    fn rook(self, sq: u32, occupied: u64) -> u64 {
        super::rook(sq, occupied)
    }
    #[inline(always)]
    fn bishop(self, sq: u32, occupied: u64) -> u64 {
        super::bishop(sq, occupied)
    }
    #[inline(always)]
    fn nth(self, set: u64, n: usize) -> u32 {
        nth_by_clearing(set, n)
    }
    fn listed<S: Side>(self, b: &Board, r: &Rules, groups: &mut Groups) {
        listed::generate::<S, Portable>(b, r, self, groups);
    }
    fn play_listed<S: Side>(self, p: &mut Playout, index: usize) -> Played {
        playout::play_listed::<S, Portable>(p, self, index)
    }
}

fn count_portable<S: Side>(b: &Board, r: &Rules, depth: u32) -> u64 {
    count_below::<S, Portable>(b, r, depth, Portable)
}

/// Proof that this CPU has POPCNT, BMI1 and BMI2: only [`Bmi2::detect`] makes one. `PEXT` says
/// whether slider attacks come from the PEXT table or from the magic one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Bmi2<const PEXT: bool>(());

#[cfg(target_arch = "x86_64")]
impl<const PEXT: bool> Bmi2<PEXT> {
    /// The proof, when the CPU running this has the instructions.
    pub(crate) fn detect() -> Option<Bmi2<PEXT>> {
        let found = std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2");
        found.then_some(Bmi2(()))
    }

    /// BMI2's parallel bit extract (inlined into `count_bmi2`, where it is one instruction).
    #[inline(always)]
    fn pext(self, x: u64, mask: u64) -> u64 {
        // SAFETY: `_pext_u64` only needs the CPU to have BMI2, and a `Bmi2` value exists only
        // when `Bmi2::detect` found it on this CPU.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }

    /// BMI2's parallel bit deposit.
    #[inline(always)]
    fn pdep(self, x: u64, mask: u64) -> u64 {
        // SAFETY: as for `pext`: `_pdep_u64` only needs BMI2, which a `Bmi2` value proves.
        unsafe { std::arch::x86_64::_pdep_u64(x, mask) }
    }
}

#[cfg(target_arch = "x86_64")]
impl<const PEXT: bool> Tier for Bmi2<PEXT> {
    #[inline(always)]
    fn below<S: Side>(self, b: &Board, r: &Rules, depth: u32) -> u64 {
        // SAFETY: `count_bmi2` only needs the CPU to have POPCNT, BMI1 and BMI2, and a `Bmi2`
        // value exists only when `Bmi2::detect` found them on this CPU.
        unsafe { count_bmi2::<S, PEXT>(b, r, depth, self) }
    }
    #[inline(always)]
    fn hashed<S: Side>(
        self,
        b: &Board,
        r: &Rules,
        depth: u32,
        key: u64,
        shared: &Shared,
        scratch: &mut Scratch,
    ) -> u64 {
        // SAFETY: as for `below`: `hashed_bmi2` only needs POPCNT, BMI1 and BMI2, which a `Bmi2`
        // value proves this CPU has.
        unsafe { hashed_bmi2::<S, PEXT>(b, r, depth, key, shared, scratch, self) }
    }
    #[inline(always)]
    fn rook(self, sq: u32, occupied: u64) -> u64 {
        if PEXT {
            rook_attacks_pext(square(sq), Bitboard(occupied), |x, mask| self.pext(x, mask)).0
        } else {
            super::rook(sq, occupied)
        }
    }
    #[inline(always)]
    fn bishop(self, sq: u32, occupied: u64) -> u64 {
        if PEXT {
            bishop_attacks_pext(square(sq), Bitboard(occupied), |x, mask| self.pext(x, mask)).0
        } else {
            super::bishop(sq, occupied)
        }
    }
    #[inline(always)]
    fn nth(self, set: u64, n: usize) -> u32 {
        // `PDEP` is fast where `PEXT` is (both microcode on AMD before Zen 3).
        if PEXT {
            self.pdep(1 << n, set).trailing_zeros()
        } else {
            nth_by_clearing(set, n)
        }
    }
    fn listed<S: Side>(self, b: &Board, r: &Rules, groups: &mut Groups) {
        // SAFETY: as for `below`: `listed_bmi2` only needs POPCNT, BMI1 and BMI2, which a `Bmi2`
        // value proves this CPU has.
        unsafe { listed_bmi2::<S, PEXT>(b, r, groups, self) }
    }
    fn play_listed<S: Side>(self, p: &mut Playout, index: usize) -> Played {
        // SAFETY: as for `listed`.
        unsafe { play_bmi2::<S, PEXT>(p, index, self) }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn count_bmi2<S: Side, const PEXT: bool>(
    b: &Board,
    r: &Rules,
    depth: u32,
    tier: Bmi2<PEXT>,
) -> u64 {
    count_below::<S, Bmi2<PEXT>>(b, r, depth, tier)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn hashed_bmi2<S: Side, const PEXT: bool>(
    b: &Board,
    r: &Rules,
    depth: u32,
    key: u64,
    shared: &Shared,
    scratch: &mut Scratch,
    tier: Bmi2<PEXT>,
) -> u64 {
    count_hashed::<S, Bmi2<PEXT>>(b, r, depth, key, tier, shared, scratch)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn listed_bmi2<S: Side, const PEXT: bool>(
    b: &Board,
    r: &Rules,
    groups: &mut Groups,
    tier: Bmi2<PEXT>,
) {
    listed::generate::<S, Bmi2<PEXT>>(b, r, tier, groups);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn play_bmi2<S: Side, const PEXT: bool>(p: &mut Playout, index: usize, tier: Bmi2<PEXT>) -> Played {
    playout::play_listed::<S, Bmi2<PEXT>>(p, tier, index)
}
