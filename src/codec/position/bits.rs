//! Strings of bits, written and read most significant bit first, and their hexadecimal text.
//!
//! Hex text carries no length, so a code of `n` bits is written as `ceil(n / 4)` digits with up
//! to three zero bits of padding; the reader accepts exactly that padding and nothing more.

use super::DecodeError;
use std::fmt;

/// A string of bits, first bit first.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bits(Vec<bool>);

impl Bits {
    /// No bits.
    pub fn new() -> Bits {
        Bits(Vec::with_capacity(320))
    }

    /// The number of bits.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are no bits.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The bits as a slice.
    pub fn as_slice(&self) -> &[bool] {
        &self.0
    }

    /// Append one bit.
    pub fn push(&mut self, bit: bool) {
        self.0.push(bit);
    }

    /// Append the low `count` bits of `value`, most significant first.
    pub fn push_bits(&mut self, value: u64, count: u32) {
        for i in (0..count).rev() {
            self.0.push((value >> i) & 1 == 1);
        }
    }

    /// Append all of `other`.
    pub fn extend(&mut self, other: &Bits) {
        self.0.extend_from_slice(&other.0);
    }

    /// Append `n >= 1` as an Elias gamma code: `bits(n) - 1` zeros, then `n` in binary.
    pub fn push_gamma(&mut self, n: u64) {
        debug_assert!(n >= 1);
        let width = 64 - n.leading_zeros();
        self.push_bits(0, width - 1);
        self.push_bits(n, width);
    }

    /// Lower-case hex, zero bits padding the last digit.
    pub fn to_hex(&self) -> String {
        self.0
            .chunks(4)
            .map(|chunk| {
                let digit = chunk
                    .iter()
                    .chain(std::iter::repeat(&false))
                    .take(4)
                    .fold(0u32, |acc, &b| acc << 1 | u32::from(b));
                char::from_digit(digit, 16).expect("a nibble")
            })
            .collect()
    }

    /// The bits of hex text, four per digit (padding included).
    pub fn from_hex(text: &str) -> Result<Bits, DecodeError> {
        let mut bits = Bits::new();
        for (index, c) in text.trim().chars().enumerate() {
            let digit = c.to_digit(16).ok_or(DecodeError::BadHex {
                index,
                character: c,
            })?;
            bits.push_bits(u64::from(digit), 4);
        }
        Ok(bits)
    }
}

impl fmt::Display for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in &self.0 {
            f.write_str(if b { "1" } else { "0" })?;
        }
        Ok(())
    }
}

/// Reads a [`Bits`] from the front; running past the end is [`DecodeError::Truncated`].
#[derive(Debug, Clone)]
pub struct BitReader<'a> {
    bits: &'a [bool],
    position: usize,
}

impl<'a> BitReader<'a> {
    /// A reader at the first bit.
    pub fn new(bits: &'a Bits) -> BitReader<'a> {
        BitReader {
            bits: bits.as_slice(),
            position: 0,
        }
    }

    /// How many bits have been read.
    pub fn position(&self) -> usize {
        self.position
    }

    /// How many bits are left.
    pub fn remaining(&self) -> usize {
        self.bits.len() - self.position
    }

    /// The next bit.
    pub fn bit(&mut self) -> Result<bool, DecodeError> {
        let bit = *self
            .bits
            .get(self.position)
            .ok_or(DecodeError::Truncated { at: self.position })?;
        self.position += 1;
        Ok(bit)
    }

    /// The next `count` (at most 64) bits as a number, most significant first.
    pub fn bits(&mut self, count: u32) -> Result<u64, DecodeError> {
        (0..count).try_fold(0u64, |acc, _| Ok(acc << 1 | u64::from(self.bit()?)))
    }

    /// An Elias gamma code of at most `max_width` binary digits.
    pub fn gamma(&mut self, max_width: u32) -> Result<u64, DecodeError> {
        let start = self.position;
        let mut zeros = 0;
        while !self.bit()? {
            zeros += 1;
            if zeros >= max_width {
                return Err(DecodeError::OutOfRange {
                    at: start,
                    what: format!("a number of more than {max_width} binary digits"),
                });
            }
        }
        Ok((1u64 << zeros) | self.bits(zeros)?)
    }

    /// Check that nothing but up to `padding` zero bits is left.
    pub fn finish(&self, padding: usize) -> Result<(), DecodeError> {
        let rest = &self.bits[self.position..];
        if rest.len() > padding {
            return Err(DecodeError::ExtraBits {
                at: self.position,
                count: rest.len(),
            });
        }
        if rest.iter().any(|&b| b) {
            return Err(DecodeError::NonZeroPadding { at: self.position });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_and_gamma_round_trip() {
        let mut bits = Bits::new();
        bits.push_bits(0b101, 3);
        bits.push_gamma(1);
        bits.push_gamma(40);
        assert_eq!(bits.len(), 3 + 1 + 11);
        let hex = bits.to_hex();
        assert_eq!(hex.len(), 4);
        let back = Bits::from_hex(&hex).unwrap();
        let mut reader = BitReader::new(&back);
        assert_eq!(reader.bits(3).unwrap(), 0b101);
        assert_eq!(reader.gamma(33).unwrap(), 1);
        assert_eq!(reader.gamma(33).unwrap(), 40);
        assert!(reader.finish(3).is_ok());
        assert!(reader.finish(0).is_err());
        assert!(Bits::from_hex("0g").is_err());
    }
}
