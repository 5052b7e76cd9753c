//! A binary arithmetic coder (a range coder with bit-level output) on 32-bit integers.
//!
//! The interval is `low` (32 bits, plus a carry bit) and `range` in (2^31, 2^32] after every
//! renormalisation. A symbol with cumulative frequency `cum`, frequency `freq` out of `total`
//! (`total` <= 2^16) narrows it to `low + r * cum`, width `r * freq`, where `r = range / total`;
//! the last symbol (`cum + freq == total`) also takes the rounding remainder `range - r * total`,
//! so a uniform model wastes nothing. Renormalisation shifts out the top bit of `low` while
//! `range` <= 2^31. A carry out of `low` is added into the bits already written (a run of ones
//! becomes zeros and the zero before it a one); it can never reach past the start of the coded
//! segment because the coded interval always lies inside [0, 1).
//!
//! [`Encoder::finish`] writes the fewest bits that name a point of the final interval when the
//! stream is read as followed by zeros; the decoder reads zero bits past the end of its input.
//! The cost is therefore the sum of -log2(freq / total) plus at most 2 bits, plus a loss of
//! about `total / 2^31` per symbol from the integer rounding.

use super::bits::{BitReader, Bits};

const TOP: u64 = 1 << 32;
const HALF: u64 = 1 << 31;

/// The largest `total` a model may use.
pub const MAX_TOTAL: u32 = 1 << 16;

/// Encodes symbols into a [`Bits`], after whatever it already holds.
#[derive(Debug)]
pub struct Encoder<'w> {
    out: &'w mut Bits,
    start: usize,
    low: u64,
    range: u64,
}

impl<'w> Encoder<'w> {
    /// An encoder appending to `out`.
    pub fn new(out: &'w mut Bits) -> Encoder<'w> {
        let start = out.len();
        Encoder {
            out,
            start,
            low: 0,
            range: TOP,
        }
    }

    /// Encodes the symbol with cumulative frequency `cum` and frequency `freq` (> 0) out of
    /// `total` (`cum + freq <= total <= MAX_TOTAL`).
    pub fn encode(&mut self, cum: u32, freq: u32, total: u32) {
        debug_assert!(freq > 0 && cum + freq <= total && total <= MAX_TOTAL);
        let r = self.range / u64::from(total);
        self.low += r * u64::from(cum);
        self.range = if cum + freq == total {
            self.range - r * u64::from(cum)
        } else {
            r * u64::from(freq)
        };
        if self.low >= TOP {
            self.low -= TOP;
            self.carry();
        }
        self.normalise();
    }

    /// Encodes `index` < `n` with every index equally likely (nothing when `n` == 1).
    pub fn encode_uniform(&mut self, index: u32, n: u32) {
        if n > 1 {
            self.encode(index, 1, n);
        }
    }

    fn normalise(&mut self) {
        while self.range <= HALF {
            self.out.push_bit(self.low & HALF != 0);
            self.low = (self.low << 1) & (TOP - 1);
            self.range <<= 1;
        }
    }

    /// Adds one to the bits written since the encoder started.
    fn carry(&mut self) {
        let mut index = self.out.len();
        while index > self.start {
            index -= 1;
            let was_one = self.out.bit(index);
            self.out.flip_bit(index);
            if !was_one {
                return;
            }
        }
        debug_assert!(
            false,
            "a carry past the start of the arithmetic-coded segment"
        );
    }

    /// Writes the shortest tail that, followed by zeros, lies in the final interval: the point
    /// of [low, low + range) with the fewest significant bits (a carry when it is 2^32).
    pub fn finish(self) {
        self.finish_with(0);
    }

    /// Writes the shortest tail that lies in the final interval whatever bits follow it: the
    /// codes of different symbol strings are then never prefixes of one another, so a code can
    /// be followed by anything (another code) and a cut code never decodes. About one bit more
    /// than [`Encoder::finish`].
    pub fn finish_prefix_free(self) {
        self.finish_with(1);
    }

    /// The tail of `width` bits must keep `margin` steps of 2^(32 - width) inside the interval.
    fn finish_with(mut self, margin: u64) {
        let end = self.low + self.range;
        let (point, width) = (0..=32)
            .map(|width| {
                let step = 1u64 << (32 - width);
                (self.low.div_ceil(step) * step, width, step)
            })
            .find(|&(point, _, step)| point + (margin * step).max(1) <= end)
            .map(|(point, width, _)| (point, width))
            .unwrap_or((self.low, 32));
        if point >= TOP {
            self.carry();
        }
        let point = point & (TOP - 1);
        self.out.push_bits(point >> (32 - width), width);
    }
}

/// Decodes symbols written by [`Encoder`], reading from a [`BitReader`].
#[derive(Debug)]
pub struct Decoder<'r, 'a> {
    input: &'r mut BitReader<'a>,
    /// The code value minus `low`: always below `range`, whatever the input.
    diff: u64,
    range: u64,
}

impl<'r, 'a> Decoder<'r, 'a> {
    /// A decoder reading from the reader's current position.
    pub fn new(input: &'r mut BitReader<'a>) -> Decoder<'r, 'a> {
        let mut diff = 0;
        for _ in 0..32 {
            diff = diff << 1 | u64::from(input.read_bit_or_zero());
        }
        Decoder {
            input,
            diff,
            range: TOP,
        }
    }

    /// The cumulative count (< `total`) the next symbol's interval contains; find the symbol
    /// with it, then call [`Decoder::consume`].
    pub fn target(&self, total: u32) -> u32 {
        let r = self.range / u64::from(total);
        (self.diff / r).min(u64::from(total) - 1) as u32
    }

    /// Removes the symbol `cum`, `freq`, `total` found through [`Decoder::target`].
    pub fn consume(&mut self, cum: u32, freq: u32, total: u32) {
        let r = self.range / u64::from(total);
        self.diff -= r * u64::from(cum);
        self.range = if cum + freq == total {
            self.range - r * u64::from(cum)
        } else {
            r * u64::from(freq)
        };
        while self.range <= HALF {
            self.range <<= 1;
            self.diff = self.diff << 1 | u64::from(self.input.read_bit_or_zero());
        }
    }

    /// Decodes an index < `n` coded by [`Encoder::encode_uniform`].
    pub fn decode_uniform(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        let index = self.target(n);
        self.consume(index, 1, n);
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn round_trip(symbols: &[(u32, u32)]) -> usize {
        let mut w = Bits::new();
        let mut enc = Encoder::new(&mut w);
        for &(s, n) in symbols {
            enc.encode_uniform(s, n);
        }
        enc.finish();
        let bits = w.len();
        let bytes = w.into_bytes();
        let mut r = BitReader::new(&bytes);
        let mut dec = Decoder::new(&mut r);
        for &(s, n) in symbols {
            assert_eq!(dec.decode_uniform(n), s);
        }
        bits
    }

    #[test]
    fn uniform_symbols_round_trip_near_entropy() {
        for seed in 0..50 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let symbols: Vec<(u32, u32)> = (0..rng.random_range(0..300))
                .map(|_| {
                    let n = rng.random_range(1..=218);
                    (rng.random_range(0..n), n)
                })
                .collect();
            let entropy: f64 = symbols.iter().map(|&(_, n)| f64::from(n).log2()).sum();
            let bits = round_trip(&symbols) as f64;
            assert!(
                bits <= entropy * 1.001 + 3.0,
                "seed {seed}: {bits} > {entropy}"
            );
        }
    }

    #[test]
    fn extreme_symbols_carry() {
        let high: Vec<(u32, u32)> = (0..500).map(|_| (216, 217)).collect();
        round_trip(&high);
        let low: Vec<(u32, u32)> = (0..500).map(|_| (0, 3)).collect();
        round_trip(&low);
        let mixed: Vec<(u32, u32)> = (0..500).map(|i| ((i % 2) * 99, 100)).collect();
        round_trip(&mixed);
        assert_eq!(round_trip(&[]), 0);
    }
}
