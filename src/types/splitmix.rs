//! SplitMix64 (Steele, Lea and Flood; Vigna's constants): the one generator behind every fixed
//! pseudo-random stream of the crate: the Zobrist keys (made at compile time, so the functions
//! are `const`), the seeded move choice of the UCI engine, and the per-game seeds of a match.
//! It is written out here rather than taken from a crate so that its output never changes: seeded
//! games must replay identically in every version.

/// The stream's step: the golden ratio as a 64-bit fraction.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// A SplitMix64 stream: the state advances by `GAMMA`, each output is the state finalised.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// The stream from `state`.
    pub const fn new(state: u64) -> SplitMix {
        SplitMix(state)
    }

    /// The next 64 random bits.
    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` (which must not be 0); see [`below`].
    pub fn below(&mut self, n: usize) -> usize {
        below(n, || self.next_u64())
    }
}

/// A uniform index below `n` (which must not be 0) from a source of uniform 64-bit words, by
/// Lemire's multiply-and-reject method, so that every index has probability exactly `1/n`.
/// Written out rather than taken from `rand`, whose range sampling may change between versions:
/// seeded streams must choose the same moves in every version.
pub fn below(n: usize, mut next: impl FnMut() -> u64) -> usize {
    let n = n as u64;
    // The high half of x * n is uniform once the low half is outside the short first stretch
    // of length 2^64 mod n. That stretch is shorter than n, so the division that finds it is
    // needed only when the low half falls below n (rarely: with probability n / 2^64).
    let mut product = u128::from(next()) * u128::from(n);
    if (product as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (product as u64) < threshold {
            product = u128::from(next()) * u128::from(n);
        }
    }
    (product >> 64) as usize
}

/// The first output of the stream from `z`: a bijection of `u64` that spreads every input bit
/// over the output, used to derive seeds from seeds and to finish hashes.
pub const fn mix(z: u64) -> u64 {
    SplitMix::new(z).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_fixed() {
        // SplitMix64 from state 0: the published first outputs.
        let mut stream = SplitMix::new(0);
        assert_eq!(stream.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(stream.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut stream = SplitMix::new(7);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            seen[stream.below(5)] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(SplitMix::new(2).below(1), 0);
    }
}
