//! How the two tools print numbers, for their renderers: cutechess-cli through Qt's
//! `QString::arg` ([`qt_fixed`], [`qt_general`]), fastchess through fmt ([`fixed`],
//! [`shortest`]). fastchess's report borrows Qt's `%g` for its increments, and cutechess's
//! format of a fastchess test prints fmt's figures, so both renderers take them from here.

/// Qt's `QString::arg(x, 0, 'f', precision)`: rounded half away from zero (Qt's
/// double-conversion), `inf`, `-inf` and `nan` spelt so, no minus sign on a value that rounds
/// to zero.
pub fn qt_fixed(x: f64, precision: usize) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    // Every finite double has an exact decimal expansion of at most 1074 fractional digits.
    let exact = format!("{:.1080}", x.abs());
    let (int, frac) = exact.split_once('.').expect("a fractional part");
    let mut digits: Vec<u8> = int
        .bytes()
        .chain(frac.bytes().take(precision))
        .map(|b| b - b'0')
        .collect();
    let mut int_len = int.len();
    if frac.as_bytes()[precision] >= b'5' {
        let mut i = digits.len();
        loop {
            if i == 0 {
                digits.insert(0, 1);
                int_len += 1;
                break;
            }
            i -= 1;
            if digits[i] == 9 {
                digits[i] = 0;
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    let zero = digits.iter().all(|&d| d == 0);
    let mut text = String::new();
    if x < 0.0 && !zero {
        text.push('-');
    }
    for (i, d) in digits.iter().enumerate() {
        if i == int_len {
            text.push('.');
        }
        text.push(char::from(b'0' + d));
    }
    text
}

/// Qt's `QString::arg(x, width, 'f', precision)`: [`qt_fixed`] right-aligned in `width`.
pub fn qt_fixed_width(x: f64, width: usize, precision: usize) -> String {
    format!("{:>width$}", qt_fixed(x, precision))
}

/// Qt's `QString::arg(x, 0, 'g', precision)`, as C's `%.{precision}g`: the shorter of fixed
/// and exponent notation, trailing zeros removed.
pub fn qt_general(x: f64, precision: usize) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let precision = precision.max(1);
    let scientific = format!("{:.*e}", precision - 1, x);
    let (mantissa, exponent) = scientific.split_once('e').expect("an exponent");
    let exponent: i32 = exponent.parse().expect("a number");
    let trim = |text: &str| -> String {
        if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            text.to_string()
        }
    };
    if exponent < -4 || exponent >= precision as i32 {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exponent.abs())
    } else {
        let decimals = (precision as i32 - 1 - exponent).max(0) as usize;
        trim(&format!("{x:.decimals$}"))
    }
}

/// fmt's `{:.N}` of a double: Rust's, but NaN spelt `nan`.
pub fn fixed(x: f64, precision: usize) -> String {
    if x.is_nan() {
        // glibc's printf and fmt write the sign of a NaN (x86's 0/0 and inf - inf are negative).
        match x.is_sign_negative() {
            true => "-nan".into(),
            false => "nan".into(),
        }
    } else {
        format!("{x:.precision$}")
    }
}

/// fmt's `{}` of a double (the shortest text that reads back), as fastchess prints times.
pub fn shortest(x: f64) -> String {
    format!("{x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qt_numbers() {
        assert_eq!(qt_fixed(0.0625, 3), "0.063");
        assert_eq!(qt_fixed(-0.0, 1), "0.0");
        assert_eq!(qt_fixed(-0.04, 1), "0.0");
        assert_eq!(qt_fixed(-0.06, 1), "-0.1");
        assert_eq!(qt_fixed(99.96, 1), "100.0");
        assert_eq!(qt_fixed(f64::NAN, 1), "nan");
        assert_eq!(qt_fixed(f64::INFINITY, 1), "inf");
        assert_eq!(qt_fixed(12.0, 0), "12");
        assert_eq!(qt_general(2.944_438_979, 3), "2.94");
        assert_eq!(qt_general(-2.944_438_979, 3), "-2.94");
        assert_eq!(qt_general(0.0, 3), "0");
        assert_eq!(qt_general(0.5, 3), "0.5");
        assert_eq!(qt_general(12.345, 3), "12.3");
        assert_eq!(qt_general(1234.5, 3), "1.23e+03");
        assert_eq!(qt_general(0.000_012_34, 3), "1.23e-05");
        assert_eq!(qt_general(f64::NEG_INFINITY, 3), "-inf");
    }

    #[test]
    fn fmt_numbers() {
        assert_eq!(fixed(-1.234, 2), "-1.23");
        assert_eq!(fixed(f64::NAN, 2), "nan");
        assert_eq!(fixed(-f64::NAN, 2), "-nan");
        assert_eq!(shortest(0.1), "0.1");
        assert_eq!(shortest(10.0), "10");
    }
}
