//! cutechess-cli's Mersenne generator, which draws a knockout's unseeded players.

use std::fmt;

/// cutechess-cli's Mersenne generator (projects/lib/src/mersenne.cpp): MT19937's seeding and
/// tempering, but its twist takes bit 0 of the word where MT19937 takes the top bit, so its
/// numbers part from MT19937's after the first.
#[derive(Clone)]
pub struct CuteMersenne {
    state: [u32; 624],
    index: usize,
}

impl fmt::Debug for CuteMersenne {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CuteMersenne")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl CuteMersenne {
    /// Seeded as `Mersenne::initialize(seed)` seeds it at the start of cutechess-cli (no
    /// number drawn before).
    pub fn new(seed: u32) -> CuteMersenne {
        let mut random = CuteMersenne {
            state: [0; 624],
            index: 0,
        };
        random.reseed(seed);
        random
    }

    /// Seeded again as `Mersenne::initialize(seed)` does it: the words only, not the place of
    /// the next one (cutechess keeps that), so after draws the next numbers are not those of a
    /// new generator.
    pub fn reseed(&mut self, seed: u32) {
        self.state[0] = seed;
        for i in 1..624 {
            let previous = self.state[i - 1];
            self.state[i] = 0x6C07_8965u32
                .wrapping_mul(previous ^ (previous >> 30))
                .wrapping_add(i as u32);
        }
    }

    fn generate(&mut self) {
        for i in 0..624 {
            let y = (self.state[i] & 0x1).wrapping_add(self.state[(i + 1) % 624] & 0x7FFF_FFFF);
            self.state[i] = self.state[(i + 397) % 624] ^ (y >> 1);
            if y % 2 == 1 {
                self.state[i] ^= 0x9908_B0DF;
            }
        }
    }

    /// The next number, as `Mersenne::random()`.
    pub fn next_u32(&mut self) -> u32 {
        if self.index == 0 {
            self.generate();
        }
        let mut y = self.state[self.index];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9D2C_5680;
        y ^= (y << 15) & 0xEFC6_0000;
        y ^= y >> 18;
        self.index = (self.index + 1) % 624;
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_cutechess_s() {
        // cutechess's own test (projects/lib/tests/mersenne/tst_mersenne.cpp), whose second
        // row runs after the first, so from the third word on.
        let mut random = CuteMersenne::new(0);
        assert_eq!(
            [random.next_u32(), random.next_u32()],
            [2_357_136_044, 1_745_961_492]
        );
        random.reseed(0xFFFF_FFFF);
        assert_eq!(
            [random.next_u32(), random.next_u32()],
            [485_482_874, 4_213_522_654]
        );
    }
}
