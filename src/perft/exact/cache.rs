//! The transposition cache of the fast exact walk: a node's games ending `d` plies below it
//! (counts and fixed-point probabilities), keyed by a 128-bit Zobrist key of the counting board
//! and `d`, shared by every thread of a run.
//!
//! - **Key.** Two independent 64-bit Zobrist keys (a SplitMix stream of their own) over what the
//!   value depends on: the pieces, the side to move, the unmoved home squares of castling kings
//!   and rooks (which decide every castling right below the board) and the en passant square
//!   when a pawn of the side to move attacks it. Equal boards get equal keys; a different board
//!   with an equal key is a collision, below.
//! - **Entries** of 64 bytes (one cache line): the tag (62 bits of the second key, a bit always
//!   set, a lock bit), the whole first key, the two counts (the plies left in the top byte of
//!   the stalemate count), the two 128-bit values. A hit needs the first key, 62 bits of the
//!   second and the plies left to match: 126 key bits.
//! - **Collisions.** For two fixed different boards, random Zobrist numbers make the 126 bits
//!   agree with probability 2^-126. A lookup compares the board with at most two stored boards,
//!   so a run of L lookups reads a wrong value with probability at most 2L x 2^-126 (under the
//!   usual model of the keys as random): about 2e-27 for 10^11 lookups. (The zeros below are
//!   held with fewer bits.)
//! - **Buckets** of two entries (two adjacent cache lines), found from the first key and the
//!   plies left: a store goes over an entry of the same board, else over the first entry when
//!   that one holds no more plies left than the new one (deeper subtrees are dearer), else over
//!   the second (always replaced).
//! - **Threads.** Each entry has a lock bit in its tag: a reader or writer takes it with one
//!   compare-and-swap, reads or writes the other seven words, and puts the tag back. An entry
//!   locked by another thread reads as a miss, and a store to it is dropped: nobody waits, and no
//!   reader ever sees half of one entry and half of another.
//! - **Zeros.** Most subtrees end no game (at ply 10, the some 10^9 boards two plies from the
//!   end mostly have no mate or stalemate two plies below them), and a 64-byte entry for a value
//!   of nothing would hold a quarter as many boards as the table could. A value of all zeros is
//!   kept instead as one 64-bit word in a set of its own: 63 bits of the second key mixed with
//!   the plies left (bit 0 always set, so an empty word never matches), eight to a 64-byte
//!   bucket found from the first key and the plies left. A lookup reads the set, then the
//!   entries. A wrong zero is read only when another (board, plies left) in the bucket has the
//!   same 63 bits: at most 8 x 2^-63 = 2^-60 a lookup (about 1e-8 for 10^10 lookups, the order of
//!   a ply-10 run). A store goes to an empty word, else over one of the eight picked by the
//!   key. The words are written and read whole, so threads need no lock.
//! - **Memory** from the perft table's allocator: zeroed by the system, untouched until used,
//!   2 MiB pages asked for; a quarter of it for the entries, the rest for the zeros.

use super::{Ends, Fixed};
use crate::perft::fast::for_exact::Numbers;
use std::sync::atomic::{AtomicU64, Ordering};

/// Words per entry (64 bytes).
const ENTRY_WORDS: usize = 8;
/// Entries per bucket.
const BUCKET_ENTRIES: usize = 2;
const BUCKET_WORDS: usize = ENTRY_WORDS * BUCKET_ENTRIES;
/// Bytes per entry.
pub const ENTRY_BYTES: usize = 8 * ENTRY_WORDS;
/// The lock bit of a tag.
const LOCKED: u64 = 1;
/// Set in every tag, so that an empty entry (0) never matches.
const PRESENT: u64 = 2;
/// The counts must fit below the plies-left byte.
const COUNT_LIMIT: u64 = 1 << 56;
/// Words (zero tags) per bucket of the zero set: one cache line.
const ZERO_WORDS: usize = 8;
/// Mixes the plies left into a bucket's index (the golden ratio's odd constant).
const PLIES_MIX: u64 = 0x9E37_79B9_7F4A_7C15;
/// Mixes the plies left into a zero tag (an odd constant of its own).
const ZERO_PLIES: u64 = 0xD6E8_FEB8_6659_FD93;

/// A board's 128-bit key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    /// Finds the bucket and is kept whole.
    pub(crate) index: u64,
    /// 62 of its bits are kept in the tag.
    pub(crate) check: u64,
}

impl Key {
    fn tag(self) -> u64 {
        (self.check & !(LOCKED | PRESENT)) | PRESENT
    }
}

/// The Zobrist numbers of the two keys (the counting board's table, two wide), from a fixed
/// SplitMix stream of their own ("EXACTKEY"), made at compile time.
pub(crate) const NUMBERS: Numbers<2> = Numbers::draw(0x4558_4143_544B_4559);

/// The shared cache: whole buckets of zeroed words for the entries, and the zero set.
pub(crate) struct Cache {
    words: Box<[AtomicU64]>,
    /// The first word of the first bucket (buckets start on a 128-byte boundary).
    start: usize,
    mask: usize,
    zeros: Zeros,
}

/// The values of all zeros, a tag each.
struct Zeros {
    words: Box<[AtomicU64]>,
    /// The first word of the first bucket (buckets start on a 64-byte boundary).
    start: usize,
    buckets: u64,
}

/// `len` zeroed words with `align` words (a power of two) from the first aligned one to the
/// end, and where that first one is; `None` when the memory cannot be had.
fn aligned_words(len: usize, align: usize) -> Option<(Box<[AtomicU64]>, usize)> {
    let words = crate::perft::table::zeroed_words(len + align - 1)?;
    let misalignment = (words.as_ptr() as usize / 8) % align;
    let start = (align - misalignment) % align;
    Some((words, start))
}

impl Cache {
    /// A cache of at most `megabytes` MiB, `None` for 0 or when no memory can be had (then half
    /// the size is tried, and so on): a quarter for the entries (a power of two of buckets, at
    /// least one), the rest for the zero set.
    pub(crate) fn new(megabytes: usize) -> Option<Cache> {
        let mut bytes = megabytes.saturating_mul(1 << 20);
        while bytes >= 8 * (BUCKET_WORDS + ZERO_WORDS) {
            let wanted = (bytes / 4 / (8 * BUCKET_WORDS)).max(1);
            let buckets = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
            let zero_buckets = (bytes - buckets * 8 * BUCKET_WORDS) / (8 * ZERO_WORDS);
            let full = aligned_words(buckets * BUCKET_WORDS, BUCKET_WORDS);
            let zeros = full
                .as_ref()
                .and_then(|_| aligned_words(zero_buckets * ZERO_WORDS, ZERO_WORDS));
            if let (Some((words, start)), Some((zero_words, zero_start))) = (full, zeros) {
                return Some(Cache {
                    words,
                    start,
                    mask: buckets - 1,
                    zeros: Zeros {
                        words: zero_words,
                        start: zero_start,
                        buckets: zero_buckets as u64,
                    },
                });
            }
            bytes /= 2;
        }
        None
    }

    /// The zero set's bucket of `key` with `plies` left, and the tag it would hold.
    #[inline(always)]
    fn zero_bucket(&self, key: Key, plies: u32) -> (&[AtomicU64], u64) {
        let z = &self.zeros;
        let mixed = (key.index ^ u64::from(plies).wrapping_mul(PLIES_MIX)).rotate_left(7);
        // The high half of the product: a bucket for any number of them.
        let bucket = ((u128::from(mixed) * u128::from(z.buckets)) >> 64) as usize;
        let first = z.start + bucket * ZERO_WORDS;
        let tag = (key.check ^ u64::from(plies).wrapping_mul(ZERO_PLIES)) | 1;
        (&z.words[first..first + ZERO_WORDS], tag)
    }

    /// True when the zero set holds `key` with `plies` left.
    #[inline(always)]
    fn is_zero(&self, key: Key, plies: u32) -> bool {
        let (bucket, tag) = self.zero_bucket(key, plies);
        bucket.iter().any(|w| w.load(Ordering::Relaxed) == tag)
    }

    /// Keep `key` with `plies` left in the zero set.
    #[inline(always)]
    fn put_zero(&self, key: Key, plies: u32) {
        let (bucket, tag) = self.zero_bucket(key, plies);
        let mut empty = None;
        for (i, w) in bucket.iter().enumerate() {
            match w.load(Ordering::Relaxed) {
                seen if seen == tag => return,
                0 if empty.is_none() => empty = Some(i),
                _ => {}
            }
        }
        let slot = empty.unwrap_or((tag >> 61) as usize);
        bucket[slot].store(tag, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: Key, plies: u32) -> &[AtomicU64] {
        let mixed = key.index ^ u64::from(plies).wrapping_mul(PLIES_MIX);
        let first = self.start + (mixed.rotate_left(23) as usize & self.mask) * BUCKET_WORDS;
        &self.words[first..first + BUCKET_WORDS]
    }

    /// Ask the memory for the bucket of `key` with `plies` left, ahead of a lookup.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: Key, plies: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            let line = self.bucket(key, plies).as_ptr().cast::<i8>();
            let zeros = self.zero_bucket(key, plies).0.as_ptr().cast::<i8>();
            // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 has; it is a hint to the
            // cache that reads nothing and cannot fault, and `line` and `zeros` point into the
            // cache.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(zeros);
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line);
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    line.add(ENTRY_BYTES),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (key, plies);
    }

    /// The value stored for `key` with `plies` left.
    #[inline(always)]
    pub(crate) fn get(&self, key: Key, plies: u32) -> Option<Ends<Fixed>> {
        if self.is_zero(key, plies) {
            return Some(Ends::none());
        }
        let tag = key.tag();
        for entry in self.bucket(key, plies).chunks_exact(ENTRY_WORDS) {
            let seen = entry[0].load(Ordering::Relaxed);
            if seen != tag {
                // Another board, or locked by another thread: a miss either way.
                continue;
            }
            if entry[0]
                .compare_exchange(tag, tag | LOCKED, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                return None;
            }
            let word = |i: usize| entry[i].load(Ordering::Relaxed);
            let (index, mates, stalemates) = (word(1), word(2), word(3));
            let p_mate = u128::from(word(4)) | u128::from(word(5)) << 64;
            let p_stalemate = u128::from(word(6)) | u128::from(word(7)) << 64;
            entry[0].store(tag, Ordering::Release);
            if index == key.index && stalemates >> 56 == u64::from(plies) {
                return Some(Ends {
                    mates,
                    stalemates: stalemates & (COUNT_LIMIT - 1),
                    p_mate: Fixed(p_mate),
                    p_stalemate: Fixed(p_stalemate),
                });
            }
        }
        None
    }

    /// Keep `value` for `key` with `plies` (below 256) left; dropped when the entry chosen is
    /// in use by another thread, or a count does not fit.
    #[inline(always)]
    pub(crate) fn put(&self, key: Key, plies: u32, value: &Ends<Fixed>) {
        if *value == Ends::none() {
            self.put_zero(key, plies);
            return;
        }
        if value.mates >= COUNT_LIMIT || value.stalemates >= COUNT_LIMIT || plies > 255 {
            return;
        }
        let tag = key.tag();
        let bucket = self.bucket(key, plies);
        let (first, second) = bucket.split_at(ENTRY_WORDS);
        let plies_of = |entry: &[AtomicU64]| entry[3].load(Ordering::Relaxed) >> 56;
        let same = |entry: &[AtomicU64]| {
            entry[0].load(Ordering::Relaxed) & !LOCKED == tag
                && entry[1].load(Ordering::Relaxed) == key.index
        };
        let entry = if same(second) {
            second
        } else if same(first) || plies_of(first) <= u64::from(plies) {
            first
        } else {
            second
        };
        let old = entry[0].load(Ordering::Relaxed);
        if old & LOCKED != 0
            || entry[0]
                .compare_exchange(old, old | LOCKED, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let words = [
            key.index,
            value.mates,
            value.stalemates | u64::from(plies) << 56,
            value.p_mate.0 as u64,
            (value.p_mate.0 >> 64) as u64,
            value.p_stalemate.0 as u64,
            (value.p_stalemate.0 >> 64) as u64,
        ];
        for (slot, word) in entry[1..].iter().zip(words) {
            slot.store(word, Ordering::Relaxed);
        }
        entry[0].store(tag, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ends(m: u64) -> Ends<Fixed> {
        Ends {
            mates: m,
            stalemates: m + 1,
            p_mate: Fixed(u128::from(m) << 70 | 5),
            p_stalemate: Fixed(7 << 100),
        }
    }

    #[test]
    fn values_are_found_by_key_and_plies_and_deeper_ones_stay() {
        let cache = Cache::new(1).unwrap();
        assert_eq!(cache.mask + 1, (1 << 18) / (8 * BUCKET_WORDS));
        assert_eq!(cache.zeros.buckets, (3 << 18) / (8 * ZERO_WORDS as u64));
        let key = Key {
            index: 0x1234_5678_9abc_def0,
            check: 0x0fed_cba9_8765_4321,
        };
        assert_eq!(cache.get(key, 3), None);
        cache.put(key, 3, &ends(10));
        assert_eq!(cache.get(key, 3), Some(ends(10)));
        assert_eq!(cache.get(key, 4), None, "other plies left");
        let other_check = Key {
            check: key.check ^ 1 << 40,
            ..key
        };
        assert_eq!(cache.get(other_check, 3), None, "same bucket, other key");
        let other_index = Key {
            index: key.index ^ 1 << 63,
            ..key
        };
        // The high bit is not among the index bits of a 1 MiB cache: same bucket, refused.
        assert_eq!(cache.get(other_index, 3), None);
        // A shallower value landing in the same bucket goes to the second entry; the deeper one
        // stays. (The bucket mixes the plies left into the index: undo it.)
        let shallower = Key {
            index: key.index ^ 3u64.wrapping_mul(PLIES_MIX) ^ 2u64.wrapping_mul(PLIES_MIX),
            ..key
        };
        cache.put(shallower, 2, &ends(20));
        assert_eq!(cache.get(key, 3), Some(ends(10)));
        assert_eq!(cache.get(shallower, 2), Some(ends(20)));
        // An equally deep one replaces the first entry.
        cache.put(other_index, 3, &ends(25));
        assert_eq!(cache.get(other_index, 3), Some(ends(25)));
        assert_eq!(cache.get(key, 3), None);
        cache.put(key, 3, &ends(30));
        assert_eq!(cache.get(key, 3), Some(ends(30)), "found again");
        let big = Ends {
            mates: COUNT_LIMIT,
            ..ends(0)
        };
        cache.put(other_check, 3, &big);
        assert_eq!(
            cache.get(other_check, 3),
            None,
            "a count too large is not kept"
        );
    }

    #[test]
    fn zeros_are_kept_apart_by_key_and_plies_eight_to_a_bucket() {
        let cache = Cache::new(1).unwrap();
        let key = Key {
            index: 99,
            check: 0x1234_5678_9abc_def0,
        };
        assert_eq!(cache.get(key, 2), None);
        cache.put(key, 2, &Ends::none());
        assert_eq!(cache.get(key, 2), Some(Ends::none()));
        assert_eq!(cache.get(key, 3), None, "other plies left");
        assert!(
            cache
                .bucket(key, 2)
                .iter()
                .all(|w| w.load(Ordering::Relaxed) == 0),
            "no entry taken for a zero"
        );
        // A value with a count is an entry, not a zero.
        cache.put(key, 3, &ends(0));
        assert_eq!(cache.get(key, 3), Some(ends(0)));
        // Nine zeros of one bucket (one first key, other second keys): eight stay, the last
        // stored among them.
        let keys: Vec<Key> = (1..=9u64)
            .map(|i| Key {
                index: 0xA5A5_5A5A_1234_5678,
                check: i.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            })
            .collect();
        for k in &keys {
            cache.put(*k, 2, &Ends::none());
        }
        let found = keys.iter().filter(|k| cache.get(**k, 2).is_some()).count();
        assert_eq!(found, ZERO_WORDS);
        assert_eq!(cache.get(keys[8], 2), Some(Ends::none()));
    }

    #[test]
    fn a_locked_entry_reads_as_a_miss_and_is_not_written() {
        let cache = Cache::new(1).unwrap();
        let key = Key {
            index: 77,
            check: 0xabcdef,
        };
        cache.put(key, 2, &ends(1));
        let entry = &cache.bucket(key, 2)[..ENTRY_WORDS];
        let tag = entry[0].load(Ordering::Relaxed);
        entry[0].store(tag | LOCKED, Ordering::Relaxed);
        assert_eq!(cache.get(key, 2), None);
        cache.put(key, 2, &ends(2));
        entry[0].store(tag, Ordering::Relaxed);
        assert_eq!(cache.get(key, 2), Some(ends(1)));
    }
}
