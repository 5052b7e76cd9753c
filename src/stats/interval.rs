//! Where the values of a sample lie: the Wilson interval of a share, and the nearest-rank
//! percentile.

/// The Wilson score interval for `successes` out of `trials` at 95% (z = 1.959964): unlike the
/// normal approximation it stays inside [0, 1] and is sound for rare events.
pub fn wilson_interval(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n = trials as f64;
    let p = successes as f64 / n;
    let denominator = 1.0 + Z * Z / n;
    let centre = (p + Z * Z / (2.0 * n)) / denominator;
    let half = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The nearest-rank `percent`-th percentile of a sample of `total` values, given in ascending
/// order as (value, how many times it occurs): the smallest value that at least `percent`% of
/// the sample does not exceed. `None` for an empty sample.
pub fn nearest_rank<T>(
    percent: f64,
    total: u64,
    counted: impl IntoIterator<Item = (T, u64)>,
) -> Option<T> {
    if total == 0 {
        return None;
    }
    let rank = ((percent / 100.0) * total as f64).ceil().max(1.0) as u64;
    let mut seen = 0;
    let mut last = None;
    for (value, count) in counted {
        seen += count;
        if seen >= rank {
            return Some(value);
        }
        last = Some(value);
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_published_values() {
        // Wilson 95% for 81 of 263 (Newcombe 1998, Table I, example): 0.2553 to 0.3662.
        let (lo, hi) = wilson_interval(81, 263);
        assert!(
            (lo - 0.2553).abs() < 5e-4 && (hi - 0.3662).abs() < 5e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson_interval(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 5e-4, "{hi}");
    }

    #[test]
    fn nearest_rank_counts_repeated_values() {
        let sample = [(10, 1), (20, 1), (30, 1), (40, 1), (100, 1)];
        assert_eq!(nearest_rank(50.0, 5, sample), Some(30));
        assert_eq!(nearest_rank(99.0, 5, sample), Some(100));
        assert_eq!(nearest_rank(1.0, 5, sample), Some(10));
        assert_eq!(nearest_rank(50.0, 4, [(1, 3), (9, 1)]), Some(1));
        assert_eq!(nearest_rank::<u32>(50.0, 0, []), None);
    }
}
