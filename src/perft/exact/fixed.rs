//! Probabilities in 128-bit fixed point, and the decimal digits such a value guarantees.

use num_bigint::BigUint;
use num_rational::BigRational;

/// Fraction bits: a value is `bits / 2^127`, so 1 fits in a `u128`.
pub const FRACTION_BITS: u32 = 127;

/// A probability as a multiple of 2^-127, always rounded down: the computed value is never
/// above the true one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Fixed(pub u128);

impl Fixed {
    /// 1.
    pub const ONE: Fixed = Fixed(1 << FRACTION_BITS);

    /// `m / n` rounded down (`m <= n`, `n > 0`): exact but for the last bit.
    pub fn ratio(m: u64, n: u64) -> Fixed {
        let (n, m) = (u128::from(n), u128::from(m));
        let one = Fixed::ONE.0;
        Fixed(m * (one / n) + (m * (one % n)) / n)
    }

    /// The sum of `values` divided by `n`, rounded down once: the same as dividing the exact
    /// sum, without a 256-bit sum.
    pub fn mean(values: impl IntoIterator<Item = Fixed>, n: u64) -> Fixed {
        let n = u128::from(n);
        let (mut quotients, mut remainders) = (0u128, 0u128);
        for v in values {
            quotients += v.0 / n;
            remainders += v.0 % n;
        }
        Fixed(quotients + remainders / n)
    }

    /// As an exact fraction.
    pub fn to_ratio(self) -> BigRational {
        BigRational::new(
            BigUint::from(self.0).into(),
            (BigUint::from(1u8) << FRACTION_BITS).into(),
        )
    }
}

/// A probability known to lie in `[low, low + ulps * 2^-127)`: a [`Fixed`] value and how many
/// units of its last place it may fall short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounded {
    /// The computed value, never above the true one.
    pub low: Fixed,
    /// The true value is below `low + ulps * 2^-127`.
    pub ulps: u128,
}

impl Bounded {
    /// The sum of two bounded values (the bounds add).
    pub fn plus(self, other: Bounded) -> Bounded {
        Bounded {
            low: Fixed(self.low.0 + other.low.0),
            ulps: self.ulps + other.ulps,
        }
    }

    /// The decimal digits every value in the interval shares, truncated (not rounded): `"0."`
    /// and then digits while the low and high ends agree, at most `max_digits` of them. An
    /// exact zero (no error) is `"0"`.
    pub fn guaranteed_decimal(self, max_digits: usize) -> String {
        if self.low.0 == 0 && self.ulps == 0 {
            return "0".to_string();
        }
        let one = BigUint::from(1u8) << FRACTION_BITS;
        let mut low = BigUint::from(self.low.0);
        let mut high = BigUint::from(self.low.0) + BigUint::from(self.ulps);
        // The interval is half-open, so its values below `high` share a digit with `low` when
        // `high * 10^j - 1` (in units of 2^-127) still has it; an exact value prints its own
        // digits, which end (the denominator is a power of two).
        let exact = self.ulps == 0;
        let top = |high: &BigUint, low_digit: &BigUint| {
            if exact {
                low_digit.clone()
            } else {
                (high - 1u8) / &one
            }
        };
        let int_low = &low / &one;
        let int_high = top(&high, &int_low);
        if int_low != int_high {
            return String::new();
        }
        let mut text = format!("{int_low}.");
        low %= &one;
        high -= &int_low * &one;
        let start = text.len();
        for _ in 0..max_digits {
            if exact && low == BigUint::default() {
                break;
            }
            low *= 10u8;
            high *= 10u8;
            let digit_low = &low / &one;
            let digit_high = top(&high, &digit_low);
            if digit_low != digit_high {
                break;
            }
            text.push_str(&digit_low.to_string());
            low -= &digit_low * &one;
            high -= &digit_low * &one;
        }
        if text.len() == start {
            text.pop();
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_and_mean_round_down_once() {
        assert_eq!(Fixed::ratio(1, 1), Fixed::ONE);
        assert_eq!(Fixed::ratio(1, 2).0, 1 << 126);
        let third = Fixed::ratio(1, 3);
        assert!(third.to_ratio() < BigRational::new(1.into(), 3.into()));
        assert_eq!(
            Fixed::mean([Fixed::ONE, Fixed::ONE, Fixed(0)], 3),
            Fixed::ratio(2, 3)
        );
        assert_eq!(Fixed::mean([Fixed::ONE; 20], 20), Fixed::ONE);
    }

    #[test]
    fn only_shared_digits_are_printed() {
        let quarter = Bounded {
            low: Fixed(1 << 125),
            ulps: 0,
        };
        assert_eq!(quarter.guaranteed_decimal(10), "0.25");
        let third = Bounded {
            low: Fixed::ratio(1, 3),
            ulps: 3,
        };
        let text = third.guaranteed_decimal(60);
        assert!(
            text.starts_with("0.333333333333333333333333333333333333"),
            "{text}"
        );
        assert!(text.len() < 2 + 40, "{text}");
        assert_eq!(
            Bounded {
                low: Fixed(0),
                ulps: 0
            }
            .guaranteed_decimal(5),
            "0"
        );
        // Exactly 1, known exactly.
        assert_eq!(
            Bounded {
                low: Fixed::ONE,
                ulps: 0
            }
            .guaranteed_decimal(5),
            "1"
        );
    }
}
