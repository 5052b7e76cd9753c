//! The instructions the counting path is compiled with. [`Portable`] runs on any CPU; on x86-64,
//! [`Bmi2`] is the same code compiled with POPCNT, BMI1 and BMI2 (hardware population count,
//! trailing zero count and bit clearing instead of their generic instruction sequences), chosen
//! at run time when the CPU has them, so the default build still runs on any x86-64.

use super::{count_below, Board, Rules, Side};

/// A way of compiling the recursion: `below` counts the leaves below a board.
pub(crate) trait Tier: Copy {
    /// Leaves below `b` (side `S` to move) at `depth` ≥ 1.
    fn below<S: Side>(self, b: &Board, r: &Rules, depth: u32) -> u64;
}

/// Any CPU.
#[derive(Clone, Copy)]
pub(crate) struct Portable;

impl Tier for Portable {
    #[inline(always)]
    fn below<S: Side>(self, b: &Board, r: &Rules, depth: u32) -> u64 {
        count_portable::<S>(b, r, depth)
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
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn count_bmi2<S: Side>(b: &Board, r: &Rules, depth: u32, tier: Bmi2) -> u64 {
    count_below::<S, Bmi2>(b, r, depth, tier)
}
