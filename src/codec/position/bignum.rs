//! Unsigned 256-bit numbers on four u64 limbs: just what the base-13 and mixed-radix codecs need
//! (multiply by a small number and add, divide by a small number, move to and from bits).

use super::{BitReader, Bits, DecodeError};

/// A 256-bit unsigned number, least significant limb first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct U256([u64; 4]);

impl U256 {
    /// `self * factor + addend`; the codecs never overflow 256 bits.
    pub(super) fn mul_add(&mut self, factor: u64, addend: u64) {
        let mut carry = u128::from(addend);
        for limb in &mut self.0 {
            let wide = u128::from(*limb) * u128::from(factor) + carry;
            *limb = wide as u64;
            carry = wide >> 64;
        }
        debug_assert_eq!(carry, 0, "the codecs stay below 2^256");
    }

    /// Divide by `divisor` (below 2^32) in place and return the remainder: two 64-bit
    /// divisions per limb, as long division in base 2^32 (128-bit division is far slower).
    pub(super) fn div_rem(&mut self, divisor: u64) -> u64 {
        debug_assert!(divisor > 0 && divisor < 1 << 32);
        let mut rest = 0u64;
        for limb in self.0.iter_mut().rev() {
            let high = (rest << 32) | (*limb >> 32);
            let (q_high, r_high) = (high / divisor, high % divisor);
            let low = (r_high << 32) | (*limb & 0xFFFF_FFFF);
            let (q_low, r_low) = (low / divisor, low % divisor);
            *limb = (q_high << 32) | q_low;
            rest = r_low;
        }
        rest
    }

    /// True for zero.
    pub(super) fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// Bit `i` (0 = least significant).
    fn bit(&self, i: u32) -> bool {
        (self.0[(i / 64) as usize] >> (i % 64)) & 1 == 1
    }

    /// Append the low `width` bits, most significant first.
    pub(super) fn write(&self, width: u32, bits: &mut Bits) {
        for i in (0..width).rev() {
            bits.push_bit(self.bit(i));
        }
    }

    /// Read a `width`-bit number, most significant bit first.
    pub(super) fn read(width: u32, reader: &mut BitReader) -> Result<U256, DecodeError> {
        let mut n = U256::default();
        for _ in 0..width {
            n.mul_add(2, u64::from(reader.read_bit()?));
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_in_and_out() {
        let mut n = U256::default();
        for d in (0..64).rev() {
            n.mul_add(13, d % 13);
        }
        for d in 0..64 {
            assert_eq!(n.div_rem(13), d % 13);
        }
        assert!(n.is_zero());
    }
}
