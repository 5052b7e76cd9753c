//! Shards: one of N slices of a long run (a random-games experiment, a match schedule), so a
//! cluster scheduler's array tasks can each play one and a merge can add them up. Which items a
//! shard takes is the run's choice: an experiment's shard plays every N-th game
//! ([`Shard::holds`]), a match's shard a run of consecutive game pairs of its schedule
//! ([`Shard::run_of`]), an exact split's shard a run of the split ply's positions.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which of N shards a run plays (which items those are is the run's choice: see the module).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u64,
    /// How many shards the run is split into.
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// True when item `i` belongs to this shard when items are dealt out in turn (`i mod count =
    /// index`), as an experiment deals its games.
    pub fn holds(&self, i: u64) -> bool {
        i % self.count.max(1) == self.index
    }

    /// The items this shard takes when `items` are cut into runs of consecutive ones (of nearly
    /// equal length, in order): shard `I` of `N` takes the `I`-th run, so the runs cover every
    /// item once. A match deals its game pairs so, and an exact split its positions, which
    /// keeps positions that share descendants (the replies to one first move) in one share.
    pub fn run_of(&self, items: u64) -> std::ops::Range<u64> {
        let count = self.count.max(1);
        items * self.index / count..items * (self.index + 1) / count
    }

    /// True for a real slice (more than one shard).
    pub fn is_partial(&self) -> bool {
        self.count > 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why a text is not a shard (each variant holds the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardError {
    /// No `/`.
    NotIOfN(String),
    /// The index is not a number.
    BadIndex(String),
    /// The count is not a number.
    BadCount(String),
    /// The index is not below the count.
    OutOfRange(String),
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::NotIOfN(text) => write!(f, "'{text}': expected I/N, such as 0/4"),
            ShardError::BadIndex(text) => write!(f, "'{text}': bad index"),
            ShardError::BadCount(text) => write!(f, "'{text}': bad count"),
            ShardError::OutOfRange(text) => write!(
                f,
                "'{text}': the index must be below the count (shards count from 0)"
            ),
        }
    }
}

impl std::error::Error for ShardError {}

impl FromStr for Shard {
    type Err = ShardError;

    /// `I/N` with I < N (counted from 0, as Slurm array task ids usually are).
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let (index, count) = text
            .split_once('/')
            .ok_or_else(|| ShardError::NotIOfN(text.to_string()))?;
        let index: u64 = index
            .trim()
            .parse()
            .map_err(|_| ShardError::BadIndex(text.to_string()))?;
        let count: u64 = count
            .trim()
            .parse()
            .map_err(|_| ShardError::BadCount(text.to_string()))?;
        if count == 0 || index >= count {
            return Err(ShardError::OutOfRange(text.to_string()));
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_read_and_partition() {
        let shard: Shard = "1/3".parse().unwrap();
        assert_eq!(shard, Shard { index: 1, count: 3 });
        assert_eq!(shard.to_string(), "1/3");
        assert!(shard.holds(4) && !shard.holds(3));
        for bad in ["3/3", "1", "a/2", "0/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert!((0..10).all(|i| Shard::WHOLE.holds(i)));
    }

    #[test]
    fn runs_cover_every_item_once_in_order() {
        for items in [0u64, 1, 5, 64, 400, 401] {
            for count in [1u64, 2, 3, 7, 64, 500] {
                let runs: Vec<_> = (0..count)
                    .map(|index| Shard { index, count }.run_of(items))
                    .collect();
                let all: Vec<u64> = runs.iter().flat_map(|r| r.clone()).collect();
                assert_eq!(all, (0..items).collect::<Vec<_>>(), "{items} in {count}");
                let (short, long) = runs.iter().fold((u64::MAX, 0), |(s, l), r| {
                    let n = r.end - r.start;
                    (s.min(n), l.max(n))
                });
                assert!(
                    long - short <= 1,
                    "{items} in {count}: runs of {short} to {long}"
                );
            }
        }
        assert_eq!(Shard { index: 1, count: 3 }.run_of(10), 3..6);
    }
}
