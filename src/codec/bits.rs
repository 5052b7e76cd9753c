//! Bit-level writing and reading, most significant bit first within each byte.
//!
//! A bit string is stored as bytes with the last byte padded with zero bits. The reader knows
//! the length in bytes only, so decoders check the padding themselves with
//! [`BitReader::check_padding`].

use std::fmt;

/// Appends bits to a growing byte buffer.
#[derive(Debug, Clone, Default)]
pub struct BitWriter {
    bytes: Vec<u8>,
    len: usize,
}

impl BitWriter {
    /// An empty writer.
    pub fn new() -> BitWriter {
        BitWriter::default()
    }

    /// The number of bits written so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends one bit.
    pub fn push_bit(&mut self, bit: bool) {
        if self.len.is_multiple_of(8) {
            self.bytes.push(0);
        }
        if bit {
            self.bytes[self.len / 8] |= 0x80 >> (self.len % 8);
        }
        self.len += 1;
    }

    /// Appends the low `count` bits of `value`, most significant first (`count` <= 64).
    pub fn push_bits(&mut self, value: u64, count: u32) {
        for shift in (0..count).rev() {
            self.push_bit((value >> shift) & 1 == 1);
        }
    }

    /// Appends `value` >= 1 in Elias gamma code: `k` zeros, then the `k + 1` bits of `value`,
    /// where `k` = floor(log2 value). 1 takes 1 bit, 2-3 take 3, 4-7 take 5, ...
    pub fn push_gamma(&mut self, value: u64) {
        debug_assert!(value >= 1);
        let width = 64 - value.leading_zeros();
        self.push_bits(0, width - 1);
        self.push_bits(value, width);
    }

    /// The bit at `index` (< `len`).
    pub fn bit(&self, index: usize) -> bool {
        self.bytes[index / 8] & (0x80 >> (index % 8)) != 0
    }

    /// Flips the bit at `index` (< `len`); the arithmetic coder's carry uses it.
    pub fn flip_bit(&mut self, index: usize) {
        self.bytes[index / 8] ^= 0x80 >> (index % 8);
    }

    /// The bytes, the last one padded with zero bits.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// Reading past the end of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndOfInput;

impl fmt::Display for EndOfInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the input ends too early")
    }
}

impl std::error::Error for EndOfInput {}

/// Reads bits from a byte slice, most significant bit first.
#[derive(Debug, Clone)]
pub struct BitReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> BitReader<'a> {
    /// A reader at the first bit of `bytes`.
    pub fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader { bytes, at: 0 }
    }

    /// The number of bits read so far.
    pub fn position(&self) -> usize {
        self.at
    }

    /// The number of bits left (padding included).
    pub fn remaining(&self) -> usize {
        self.bytes.len() * 8 - self.at
    }

    /// The next bit.
    pub fn read_bit(&mut self) -> Result<bool, EndOfInput> {
        let bit = self.peek_bit(self.at).ok_or(EndOfInput)?;
        self.at += 1;
        Ok(bit)
    }

    /// The next bit, or a zero bit past the end (the arithmetic decoder's convention).
    pub fn read_bit_or_zero(&mut self) -> bool {
        let bit = self.peek_bit(self.at).unwrap_or(false);
        self.at += 1;
        bit
    }

    fn peek_bit(&self, index: usize) -> Option<bool> {
        let byte = self.bytes.get(index / 8)?;
        Some(byte & (0x80 >> (index % 8)) != 0)
    }

    /// The next `count` bits (<= 64) as a number, the first bit most significant.
    pub fn read_bits(&mut self, count: u32) -> Result<u64, EndOfInput> {
        if self.remaining() < count as usize {
            return Err(EndOfInput);
        }
        let mut value = 0;
        for _ in 0..count {
            value = value << 1 | u64::from(self.read_bit()?);
        }
        Ok(value)
    }

    /// An Elias gamma number (see [`BitWriter::push_gamma`]) of at most `max_width` bits;
    /// `None` inside the result when it would be wider.
    pub fn read_gamma(&mut self, max_width: u32) -> Result<Option<u64>, EndOfInput> {
        let mut zeros = 0;
        while !self.read_bit()? {
            zeros += 1;
            if zeros >= max_width {
                return Ok(None);
            }
        }
        let rest = self.read_bits(zeros)?;
        Ok(Some(1 << zeros | rest))
    }

    /// True when what is left is fewer than 8 bits, all zero: the padding of the last byte.
    pub fn check_padding(&self) -> bool {
        self.remaining() < 8
            && (self.at..self.bytes.len() * 8).all(|i| self.peek_bit(i) == Some(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_and_gamma_round_trip() {
        let mut w = BitWriter::new();
        w.push_bits(0b101, 3);
        for v in [1, 2, 3, 4, 80, 1000, u32::MAX as u64] {
            w.push_gamma(v);
        }
        w.push_bit(true);
        let len = w.len();
        let bytes = w.into_bytes();
        assert_eq!(bytes.len(), len.div_ceil(8));
        let mut r = BitReader::new(&bytes);
        assert_eq!(r.read_bits(3), Ok(0b101));
        for v in [1, 2, 3, 4, 80, 1000, u32::MAX as u64] {
            assert_eq!(r.read_gamma(40), Ok(Some(v)));
        }
        assert_eq!(r.read_bit(), Ok(true));
        assert!(r.check_padding());
    }

    #[test]
    fn gamma_too_wide_and_end_of_input() {
        let mut r = BitReader::new(&[0, 0]);
        assert_eq!(r.read_gamma(8), Ok(None));
        let mut r = BitReader::new(&[0x01]);
        assert_eq!(r.read_gamma(16), Err(EndOfInput));
        assert!(!BitReader::new(&[1]).check_padding());
    }
}
