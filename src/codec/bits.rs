//! Strings of bits, written and read most significant bit first within each byte: the one bit
//! writer ([`Bits`]) and bit reader ([`BitReader`]) of every codec.
//!
//! A bit string is stored as bytes with the last byte padded with zero bits. Game codecs store
//! those bytes and read them back knowing the length in bytes only, so their decoders check the
//! padding themselves ([`BitReader::rest_is_zero`]); position codecs keep the exact length in
//! bits, or write hex text ([`Bits::to_hex`]), which carries no length either: a code of `n` bits
//! is `ceil(n / 4)` digits with up to three zero bits of padding.

use std::fmt;

/// A string of bits, first bit first, that grows at the end.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bits {
    /// The bits, eight a byte, the first one in the top bit; the bits after `len` are zero.
    bytes: Vec<u8>,
    len: usize,
}

impl Bits {
    /// No bits.
    pub fn new() -> Bits {
        Bits::default()
    }

    /// The number of bits.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no bits.
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

    /// Appends all of `other`.
    pub fn extend(&mut self, other: &Bits) {
        other.iter().for_each(|bit| self.push_bit(bit));
    }

    /// The bit at `index` (< `len`).
    pub fn bit(&self, index: usize) -> bool {
        debug_assert!(index < self.len);
        self.bytes[index / 8] & (0x80 >> (index % 8)) != 0
    }

    /// Flips the bit at `index` (< `len`); the arithmetic coder's carry uses it.
    pub fn flip_bit(&mut self, index: usize) {
        debug_assert!(index < self.len);
        self.bytes[index / 8] ^= 0x80 >> (index % 8);
    }

    /// The bits, first to last.
    pub fn iter(&self) -> impl Iterator<Item = bool> + '_ {
        (0..self.len).map(|index| self.bit(index))
    }

    /// A reader at the first bit, which ends after the last one.
    pub fn reader(&self) -> BitReader<'_> {
        BitReader {
            bytes: &self.bytes,
            len: self.len,
            at: 0,
        }
    }

    /// The bytes, the last one padded with zero bits.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Lower-case hex, zero bits padding the last digit.
    pub fn to_hex(&self) -> String {
        let digits = self.len.div_ceil(4);
        self.bytes
            .iter()
            .flat_map(|&byte| [byte >> 4, byte & 0xF])
            .take(digits)
            .map(|digit| char::from_digit(u32::from(digit), 16).expect("a nibble"))
            .collect()
    }

    /// The bits of hex text, four per digit (padding included); surrounding white space is
    /// ignored.
    pub fn from_hex(text: &str) -> Result<Bits, NotHex> {
        let mut bits = Bits::new();
        for (index, character) in text.trim().chars().enumerate() {
            let digit = character.to_digit(16).ok_or(NotHex { index, character })?;
            bits.push_bits(u64::from(digit), 4);
        }
        Ok(bits)
    }
}

impl FromIterator<bool> for Bits {
    fn from_iter<I: IntoIterator<Item = bool>>(iter: I) -> Bits {
        let mut bits = Bits::new();
        iter.into_iter().for_each(|bit| bits.push_bit(bit));
        bits
    }
}

impl fmt::Display for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.iter()
            .try_for_each(|bit| f.write_str(if bit { "1" } else { "0" }))
    }
}

/// A character of hex text that is not a hex digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotHex {
    /// Its index in the (trimmed) text, in characters.
    pub index: usize,
    /// The character.
    pub character: char,
}

/// Reading past the end of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndOfInput {
    /// The first bit that is not there.
    pub at: usize,
}

impl fmt::Display for EndOfInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the input ends too early")
    }
}

impl std::error::Error for EndOfInput {}

/// Reads bits from the front of bytes or of [`Bits`], most significant bit first.
#[derive(Debug, Clone)]
pub struct BitReader<'a> {
    bytes: &'a [u8],
    /// The number of bits there are.
    len: usize,
    at: usize,
}

impl<'a> BitReader<'a> {
    /// A reader at the first bit of `bytes`, which ends after the last bit of the last byte.
    pub fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader {
            bytes,
            len: bytes.len() * 8,
            at: 0,
        }
    }

    /// The number of bits read so far.
    pub fn position(&self) -> usize {
        self.at
    }

    /// The number of bits left (the padding of bytes included).
    pub fn remaining(&self) -> usize {
        self.len - self.at
    }

    /// The next bit.
    pub fn read_bit(&mut self) -> Result<bool, EndOfInput> {
        let bit = self.peek_bit(self.at).ok_or(EndOfInput { at: self.at })?;
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
        (index < self.len).then(|| self.bytes[index / 8] & (0x80 >> (index % 8)) != 0)
    }

    /// The next `count` bits (<= 64) as a number, the first bit most significant. Fewer than
    /// `count` left is an [`EndOfInput`] at the end.
    pub fn read_bits(&mut self, count: u32) -> Result<u64, EndOfInput> {
        if self.remaining() < count as usize {
            return Err(EndOfInput { at: self.len });
        }
        let mut value = 0;
        for _ in 0..count {
            value = value << 1 | u64::from(self.read_bit()?);
        }
        Ok(value)
    }

    /// An Elias gamma number (see [`Bits::push_gamma`]) of at most `max_width` bits;
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

    /// The next `count` bits (fewer when the input ends first) as a [`Bits`].
    pub fn take(&mut self, count: usize) -> Bits {
        (0..count.min(self.remaining()))
            .map(|_| self.read_bit_or_zero())
            .collect()
    }

    /// True when every bit left is zero (or none is left).
    pub fn rest_is_zero(&self) -> bool {
        (self.at..self.len).all(|i| self.peek_bit(i) == Some(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_and_gamma_round_trip() {
        let mut w = Bits::new();
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
        assert!(r.remaining() < 8 && r.rest_is_zero());
    }

    #[test]
    fn gamma_too_wide_and_end_of_input() {
        let mut r = BitReader::new(&[0, 0]);
        assert_eq!(r.read_gamma(8), Ok(None));
        let mut r = BitReader::new(&[0x01]);
        assert_eq!(r.read_gamma(16), Err(EndOfInput { at: 8 }));
        assert!(!BitReader::new(&[1]).rest_is_zero());
    }

    #[test]
    fn hex_and_gamma_round_trip() {
        let mut bits = Bits::new();
        bits.push_bits(0b101, 3);
        bits.push_gamma(1);
        bits.push_gamma(40);
        assert_eq!(bits.len(), 3 + 1 + 11);
        let hex = bits.to_hex();
        assert_eq!(hex, "b050");
        let back = Bits::from_hex(&hex).unwrap();
        assert_eq!(back.len(), 16);
        let mut reader = back.reader();
        assert_eq!(reader.read_bits(3), Ok(0b101));
        assert_eq!(reader.read_gamma(33), Ok(Some(1)));
        assert_eq!(reader.read_gamma(33), Ok(Some(40)));
        assert_eq!(reader.remaining(), 1);
        assert!(reader.rest_is_zero());
        assert_eq!(
            Bits::from_hex("0g"),
            Err(NotHex {
                index: 1,
                character: 'g'
            })
        );
    }

    #[test]
    fn a_reader_of_bits_ends_at_the_last_bit() {
        let bits: Bits = [true, false, true].into_iter().collect();
        assert_eq!(bits.to_string(), "101");
        let mut reader = bits.reader();
        assert_eq!(reader.read_bits(4), Err(EndOfInput { at: 3 }));
        assert_eq!(reader.read_bits(3), Ok(0b101));
        assert_eq!(reader.read_bit(), Err(EndOfInput { at: 3 }));
        let mut joined = bits.clone();
        joined.extend(&bits);
        assert_eq!(joined.to_string(), "101101");
        assert_eq!(joined.iter().skip(3).collect::<Bits>(), bits);
    }
}
