//! The opening book of a move model: how many of the fitting games reached each sequence of
//! moves from the standard start, up to [`BOOK_PLIES`] plies.
//!
//! A sequence is named by a 64-bit hash of its moves (each as from, to and promotion piece, so the
//! hash does not depend on how this build numbers moves), cut to 32 bits in the table. The number
//! of games that played move `m` after a sequence is the count of the sequence extended by `m`,
//! so one table holds both. Only sequences reached by at least two fitting games are kept. A
//! 32-bit collision can only make a probability less apt, never a decoding wrong: the encoder and
//! the decoder look up the same table.
//!
//! Stored as little-endian records of a 4-byte hash and a 2-byte count, sorted by hash.

use crate::{Move, PieceKind};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The plies of a game the book covers.
pub const BOOK_PLIES: usize = 24;

/// The hash of the empty sequence.
pub const ROOT: u64 = 0x5348_474d_424f_4f4b;

/// The hash of a sequence extended by `mv`.
pub fn extend(hash: u64, mv: Move) -> u64 {
    let promotion = mv.promotion().map_or(0, |p: PieceKind| p.index() as u64);
    let code = mv.from().index() as u64 | (mv.to().index() as u64) << 6 | promotion << 12;
    // SplitMix64's first output, fixed by its published values (a test checks them).
    crate::types::splitmix::mix(hash ^ code.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// A book: sequence hash (32 bits) to the number of fitting games that reached it.
#[derive(Debug, Clone, Default)]
pub struct Book {
    counts: HashMap<u32, u32, BuildHasherDefault<KeyHasher>>,
}

impl Book {
    /// The book of stored records (see the module's documentation); a trailing partial record
    /// is ignored.
    pub fn from_bytes(bytes: &[u8]) -> Book {
        let counts = bytes
            .chunks_exact(6)
            .map(|r| {
                let key = u32::from_le_bytes([r[0], r[1], r[2], r[3]]);
                (key, u32::from(u16::from_le_bytes([r[4], r[5]])))
            })
            .collect();
        Book { counts }
    }

    /// The book of `games`' move sequences (each a list of moves from the standard start),
    /// keeping sequences reached at least twice; counts above 65,535 are capped.
    pub fn from_games<'g>(games: impl IntoIterator<Item = &'g [Move]>) -> Book {
        let mut counts: HashMap<u32, u32, BuildHasherDefault<KeyHasher>> = HashMap::default();
        for moves in games {
            let mut hash = ROOT;
            *counts.entry(hash as u32).or_default() += 1;
            for &mv in moves.iter().take(BOOK_PLIES) {
                hash = extend(hash, mv);
                *counts.entry(hash as u32).or_default() += 1;
            }
        }
        counts.retain(|_, count| *count >= 2);
        counts
            .values_mut()
            .for_each(|c| *c = (*c).min(u32::from(u16::MAX)));
        Book { counts }
    }

    /// The stored records, sorted by hash.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut records: Vec<(u32, u32)> = self.counts.iter().map(|(&k, &c)| (k, c)).collect();
        records.sort_unstable();
        let mut out = Vec::with_capacity(records.len() * 6);
        for (key, count) in records {
            out.extend(key.to_le_bytes());
            out.extend((count as u16).to_le_bytes());
        }
        out
    }

    /// The number of sequences kept.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// True when the book holds nothing.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The number of fitting games that reached the sequence with this hash.
    pub fn count(&self, hash: u64) -> u32 {
        self.counts.get(&(hash as u32)).copied().unwrap_or(0)
    }
}

/// The bucket of a move played `count` times out of `total` (>= 1): 6 buckets of `total` by 7
/// of the move's share (0: never played).
pub fn bucket(total: u32, count: u32) -> usize {
    let games = match total {
        0..=1 => 0,
        2..=3 => 1,
        4..=15 => 2,
        16..=63 => 3,
        64..=255 => 4,
        _ => 5,
    };
    let share = if count == 0 {
        0
    } else {
        // 1 for at least half, 2 for a quarter, ... 6 for less than 1/32.
        let mut share = 1;
        while share < 6 && count << share < total {
            share += 1;
        }
        share
    };
    games * 7 + share
}

/// The keys are hashes already: use them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0 << 8 | u64::from(b);
        }
    }

    fn write_u32(&mut self, value: u32) {
        self.0 = u64::from(value).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}
