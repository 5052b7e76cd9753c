//! The random choice: a seed and a game in, an index out, the same on every machine and in every
//! version that keeps these few lines.
//!
//! `Seed` N > 0 makes the index a pure function of N and the game. With `Seed` 0 the index is
//! drawn from fresh OS entropy at every `go` (exactly uniform, independent of any earlier draw),
//! and then a seed is looked for that would have picked the same index, so that the engine can
//! name a seed that replays the move.
//!
//! The generator is SplitMix64 ([`crate::types::splitmix`]) and the index is drawn with Lemire's multiply-and-reject method, so
//! every one of `n` moves has probability exactly `1/n`. The `rand` crate is not used for the
//! choice itself because its small generators are not promised to stay the same across releases,
//! and a seeded game must replay identically; it only supplies fresh OS entropy for `Seed` 0.

use super::options::MAX_SEED;
use crate::types::splitmix::{mix, SplitMix};
use rand::Rng;

/// FNV-1a over bytes, finished with [`mix`]: a hash that does not change between Rust releases
/// (unlike `std`'s `DefaultHasher`).
#[derive(Debug, Clone)]
pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> StableHasher {
        StableHasher(0xCBF2_9CE4_8422_2325)
    }
}

impl StableHasher {
    /// Hash more bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3);
        }
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        mix(self.0)
    }
}

/// The index `Seed` `seed` > 0 picks among `n` moves (`n` > 0) in the game whose hash is
/// `game_hash`: drawn from the SplitMix64 stream from `mix(seed) ^ game_hash`.
pub fn seeded_index(seed: u64, game_hash: u64, n: usize) -> usize {
    SplitMix::new(mix(seed) ^ game_hash).below(n)
}

/// A uniform index below `n` (which must not be 0) from fresh operating-system entropy,
/// independent of everything drawn before: the choice of `Seed` 0.
pub fn fresh_index(n: usize) -> usize {
    rand::rng().random_range(0..n)
}

/// How many seeds [`seed_reproducing`] tries before giving up. Each try hits the wanted index
/// with probability about `1/n` (n is at most 218 legal moves), so a miss after this many tries
/// has probability below `(1 - 1/218)^20000`, about 10^-40.
const SEED_SEARCH_TRIES: u32 = 20_000;

/// A seed in `1..=MAX_SEED` with which `Seed` mode picks `index` among `n` moves in the game
/// whose hash is `game_hash`, so that a move drawn from fresh entropy can be replayed; drawn at
/// random among such seeds. `None` in the astronomically unlikely case that no seed was found.
pub fn seed_reproducing(game_hash: u64, n: usize, index: usize) -> Option<u64> {
    let mut os = rand::rng();
    (0..SEED_SEARCH_TRIES)
        .map(|_| os.random_range(1..=MAX_SEED))
        .find(|&seed| seeded_index(seed, game_hash, n) == index)
}

/// The rule both protocols play by: the index among `n` moves (`n` > 0) in the game whose hash is
/// `game_hash`, and the seed that replays it. `Seed` `seed` > 0: [`seeded_index`], a pure function
/// of the seed and the game. `Seed` 0: [`fresh_index`], with a seed found by
/// [`seed_reproducing`] (`None` if none was found).
pub fn choose_index(seed: u64, game_hash: u64, n: usize) -> (usize, Option<u64>) {
    if seed > 0 {
        (seeded_index(seed, game_hash, n), Some(seed))
    } else {
        let index = fresh_index(n);
        (index, seed_reproducing(game_hash, n, index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_found_seed_replays_the_index() {
        for n in [1, 2, 20, 218] {
            for index in [0, n / 2, n - 1] {
                let seed = seed_reproducing(0x1234_5678, n, index).unwrap();
                assert!((1..=MAX_SEED).contains(&seed));
                assert_eq!(seeded_index(seed, 0x1234_5678, n), index);
            }
        }
        assert!((0..7).contains(&fresh_index(7)));
    }
}
