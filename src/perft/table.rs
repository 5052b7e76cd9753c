//! The perft transposition table: subtree counts keyed by a 64-bit Zobrist key and the remaining
//! depth, shared by every counting thread without a lock.
//!
//! - **Entries** of 16 bytes: the key XORed with the data word, and the data word (the count
//!   shifted left by 6, the depth in the low 6 bits). The whole 64-bit key is checked, not only
//!   the bits beyond the index: a false hit needs two different positions with equal 64-bit keys.
//! - **Buckets** of four entries filling one 64-byte cache line, found from the key's low bits; a
//!   probe reads one line. A store replaces the entry with the smallest count (the empty ones
//!   first): the count is the work an entry saves, a finer measure than its depth.
//! - **Lock-free by the XOR trick**: the two words are written with two plain (relaxed) atomic
//!   stores, and a reader accepts an entry only when the first word XOR the second gives the key.
//!   An entry torn by two threads writing at once (one's key word, the other's data word) fails
//!   that check and reads as a miss, never as a wrong count. Chosen over 128-bit atomic entries
//!   because it needs no compare-and-swap loop (a store is two moves) and works on every target
//!   with 64-bit atomics, in safe code.
//! - **Free until used**: the memory comes zeroed from the operating system (`calloc`, which for
//!   a large block maps fresh zero pages without writing them), so a page costs nothing until a
//!   count first touches it; [`PerftTable::for_count`] uses only as much of it as the count can
//!   fill.
//! - **2 MiB pages** where Linux has them (`MADV_HUGEPAGE`): a probe lands anywhere in the
//!   table, and with 4 KiB pages nearly every one also missed the TLB and walked the page
//!   tables. Start position depth 8, 256 MiB, one thread: 8.3 s of CPU time (user + system)
//!   against 11.5 s with 4 KiB pages, system time unchanged (0.4 s). An earlier trial had found
//!   the faults of the large pages costing up to 0.7 s of system time per 256 MiB; not seen here.

use std::sync::atomic::{AtomicU64, Ordering};

/// Bits of the data word that hold the depth.
const DEPTH_BITS: u32 = 6;
/// Entries per bucket: one 64-byte cache line of 16-byte entries.
const BUCKET_ENTRIES: usize = 4;
/// 64-bit words per bucket.
const BUCKET_WORDS: usize = 2 * BUCKET_ENTRIES;
/// Bytes per bucket.
const BUCKET_BYTES: usize = 8 * BUCKET_WORDS;

/// A perft hash table smaller than the one asked for, because the memory is not there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashShortfall {
    /// The size asked for, in MiB.
    pub requested_mb: usize,
    /// The size that will be used, in MiB (0: no table).
    pub granted_mb: usize,
    /// The memory the operating system reported available, in MiB.
    pub available_mb: usize,
    /// The share of it a table may take, in quarters (2: half, 3: three quarters).
    pub quarters: usize,
}

impl std::fmt::Display for HashShortfall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a {} MiB hash table cannot be had: {} MiB of memory is available and the table may \
             take at most {} of it; ",
            self.requested_mb,
            self.available_mb,
            match self.quarters {
                1 => "a quarter",
                2 => "half",
                _ => "three quarters",
            }
        )?;
        match self.granted_mb {
            0 => f.write_str("counting without a table"),
            granted => write!(f, "using {granted} MiB (counts are the same, only slower)"),
        }
    }
}

impl std::error::Error for HashShortfall {}

/// The size of table a perft will use when `requested_mb` MiB are asked for: the request, or
/// (as the error) the largest power of two MiB within half the memory the system has available
/// now. Half, because a table is touched all over while counting, and a table that only fits by
/// pushing everything else into swap makes the count slower than none. Where the available
/// memory cannot be read (outside Linux), the request stands and the allocation itself is
/// fallible.
pub fn plan_hash(requested_mb: usize) -> Result<usize, HashShortfall> {
    plan_hash_share(requested_mb, 2)
}

/// [`plan_hash`] with a table that may take `quarters` quarters of the available memory (at
/// most 3): `shannon exact`'s cache takes three, its counts being the machine's one job when
/// they are deep, and most of the cache a set of 8-byte words touched once each.
pub fn plan_hash_share(requested_mb: usize, quarters: usize) -> Result<usize, HashShortfall> {
    let quarters = quarters.clamp(1, 3);
    match available_memory_mb() {
        Some(available_mb) if requested_mb > available_mb / 4 * quarters => {
            let limit = available_mb / 4 * quarters;
            let granted_mb = if limit == 0 {
                0
            } else {
                floor_power_of_two(limit)
            };
            Err(HashShortfall {
                requested_mb,
                granted_mb,
                available_mb,
                quarters,
            })
        }
        _ => Ok(requested_mb),
    }
}

/// `MemAvailable` from `/proc/meminfo`, in MiB.
pub(crate) fn available_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The largest power of two not above `n` (which must not be 0).
fn floor_power_of_two(n: usize) -> usize {
    1 << (usize::BITS - 1 - n.leading_zeros())
}

/// The memory of a table: whole buckets of zeroed words, untouched until a count writes them.
pub struct PerftTable {
    words: Box<[AtomicU64]>,
    /// Index of the first word of the first bucket (the allocation is only 8-byte aligned; the
    /// buckets start at the first cache-line boundary in it).
    start: usize,
    buckets: usize,
}

impl PerftTable {
    /// A table of at most `megabytes` MiB, a power of two of buckets (`None` for 0 or less than
    /// one bucket). The memory is asked for zeroed from the system and fallibly: when it cannot
    /// be had, half the size is tried, and so on down to no table, so that a large `Hash` never
    /// aborts the process. Nothing is written: the pages stay untouched until a count uses them.
    pub fn new(megabytes: usize) -> Option<PerftTable> {
        let wanted = megabytes.saturating_mul(1 << 20) / BUCKET_BYTES;
        if wanted == 0 {
            return None;
        }
        let mut buckets = floor_power_of_two(wanted);
        while buckets >= 1 {
            if let Some(words) = zeroed_words(buckets * BUCKET_WORDS + BUCKET_WORDS - 1) {
                let misalignment = (words.as_ptr() as usize / 8) % BUCKET_WORDS;
                let start = (BUCKET_WORDS - misalignment) % BUCKET_WORDS;
                return Some(PerftTable {
                    words,
                    start,
                    buckets,
                });
            }
            log::info!("cannot allocate a perft table of {buckets} buckets; trying half");
            buckets /= 2;
        }
        None
    }

    /// The size in MiB (rounded down; 0 for a table under one MiB).
    pub fn megabytes(&self) -> usize {
        (self.buckets * BUCKET_BYTES) >> 20
    }

    /// The part of the table a count storing at most `entries` subtrees uses: enough buckets for
    /// that many entries (a table larger than what a count stores only spreads its entries over
    /// more pages and cache lines), at least 64 KiB, at most the whole table.
    pub fn in_use(&self, entries: u64) -> TableInUse<'_> {
        let wanted = entries.div_ceil(BUCKET_ENTRIES as u64);
        let floor = (64 << 10) / BUCKET_BYTES;
        let buckets = usize::try_from(wanted)
            .unwrap_or(usize::MAX)
            .max(floor)
            .checked_next_power_of_two()
            .unwrap_or(usize::MAX)
            .min(self.buckets);
        TableInUse {
            words: &self.words[self.start..self.start + buckets * BUCKET_WORDS],
            mask: buckets - 1,
            check: !0,
        }
    }
}

/// `len` zeroed words from the allocator, or `None` when the memory cannot be had.
pub(crate) fn zeroed_words(len: usize) -> Option<Box<[AtomicU64]>> {
    let layout = std::alloc::Layout::array::<AtomicU64>(len).ok()?;
    if layout.size() == 0 {
        return None;
    }
    // SAFETY: the layout has a non-zero size. `alloc_zeroed` with the 8-byte alignment of
    // `AtomicU64` is `calloc`, which for a large block maps fresh pages from the system that are
    // zero without being written (the point: no page is touched until a count uses it). All
    // zero bits are a valid `AtomicU64`, so the `len` words are initialised, and the box takes
    // ownership of a block allocated by the global allocator with exactly this layout. The safe
    // twin, `touched_words`, builds the same table by writing every word; the tests count with
    // both.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
        if ptr.is_null() {
            return None;
        }
        ask_for_huge_pages(ptr.cast::<u8>(), layout.size());
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)))
    }
}

/// Ask Linux to back the whole 2 MiB pages of the block at `ptr` (`size` bytes) with 2 MiB pages
/// when a count first touches them: a probe then finds its page in the TLB instead of walking
/// the page tables (start position depth 8, 256 MiB: 28% less CPU time). Only a hint: where the
/// kernel has no such pages, or its transparent huge pages are off, nothing changes.
fn ask_for_huge_pages(ptr: *mut u8, size: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let first = (ptr as usize).next_multiple_of(HUGE);
        let end = (ptr as usize + size) / HUGE * HUGE;
        if end > first {
            // SAFETY: `[first, end)` lies inside the block just allocated (page-aligned, since
            // 2 MiB-aligned), which this process owns; `MADV_HUGEPAGE` changes neither its
            // contents (the pages are still zero when first read) nor its mapping's validity,
            // only the size of the pages the kernel backs it with.
            let failed = unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE)
            } != 0;
            if failed {
                log::debug!("madvise(MADV_HUGEPAGE) refused for the perft table");
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, size);
}

/// The safe twin of [`zeroed_words`]: the same words, each written (every page touched).
#[cfg(test)]
pub(crate) fn touched_words(len: usize) -> Box<[AtomicU64]> {
    (0..len).map(|_| AtomicU64::new(0)).collect()
}

#[cfg(test)]
impl PerftTable {
    /// The same table built by [`touched_words`], for the tests of the unsafe allocation.
    pub(crate) fn touched(megabytes: usize) -> PerftTable {
        let buckets = floor_power_of_two(megabytes * (1 << 20) / BUCKET_BYTES);
        PerftTable {
            words: touched_words(buckets * BUCKET_WORDS),
            start: 0,
            buckets,
        }
    }
}

/// The part of a [`PerftTable`] one count uses.
#[derive(Clone, Copy)]
pub struct TableInUse<'a> {
    words: &'a [AtomicU64],
    mask: usize,
    /// The key bits an entry must match: all of them, except in the test that weakens the key
    /// on purpose to show that the suites catch collisions.
    check: u64,
}

impl<'a> TableInUse<'a> {
    /// The size in use, in KiB.
    pub fn kilobytes(&self) -> usize {
        ((self.mask + 1) * BUCKET_BYTES) >> 10
    }

    /// The bucket of `key`.
    #[inline(always)]
    fn bucket(&self, key: u64) -> &'a [AtomicU64] {
        let first = (key as usize & self.mask) * BUCKET_WORDS;
        &self.words[first..first + BUCKET_WORDS]
    }

    /// Ask the cache for the bucket of `key`, ahead of a probe.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let first = (key as usize & self.mask) * BUCKET_WORDS;
            let line = self.words[first..].as_ptr().cast::<i8>();
            // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 has; it reads nothing (a hint
            // to the cache, which cannot fault), and `line` points into the table anyway.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The count stored for `key` at `depth`.
    #[inline(always)]
    pub(crate) fn get(&self, key: u64, depth: u32) -> Option<u64> {
        let bucket = self.bucket(key);
        for entry in bucket.chunks_exact(2) {
            let data = entry[1].load(Ordering::Relaxed);
            let tag = entry[0].load(Ordering::Relaxed) ^ data;
            if (tag ^ key) & self.check == 0 && data & DEPTH_MASK == u64::from(depth) {
                return Some(data >> DEPTH_BITS);
            }
        }
        None
    }

    /// Store `count` for `key` at `depth` (1..=63) over the entry of its bucket with the
    /// smallest count; a count too large for the data word is not stored.
    #[inline(always)]
    pub(crate) fn put(&self, key: u64, depth: u32, count: u64) {
        if count >> (64 - DEPTH_BITS) != 0 {
            return;
        }
        let data = count << DEPTH_BITS | u64::from(depth);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut smallest = u64::MAX;
        for (i, entry) in bucket.chunks_exact(2).enumerate() {
            let old = entry[1].load(Ordering::Relaxed);
            if old < smallest {
                smallest = old;
                victim = i;
            }
        }
        bucket[2 * victim].store(key ^ data, Ordering::Relaxed);
        bucket[2 * victim + 1].store(data, Ordering::Relaxed);
    }

    /// The same table with only the low `bits` of the key checked: a deliberately weakened key,
    /// for the test that shows the suites catch collisions.
    #[cfg(test)]
    pub(crate) fn weakened(self, bits: u32) -> TableInUse<'a> {
        TableInUse {
            check: u64::MAX >> (64 - bits.clamp(1, 64)),
            ..self
        }
    }
}

const DEPTH_MASK: u64 = (1 << DEPTH_BITS) - 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_hash_size_is_cut_down_not_fatal() {
        // 2^40 MiB is more than any machine has: the plan cuts it to at most half of what is
        // available, a power of two (or none), and says so.
        if let Err(shortfall) = plan_hash(1 << 40) {
            assert_eq!(shortfall.requested_mb, 1 << 40);
            assert!(shortfall.granted_mb <= shortfall.available_mb / 2);
            assert!(shortfall.granted_mb == 0 || shortfall.granted_mb.is_power_of_two());
            assert!(
                shortfall.to_string().contains("cannot be had"),
                "{shortfall}"
            );
        } else {
            assert!(
                available_memory_mb().is_none(),
                "Linux reports available memory"
            );
        }
        assert_eq!(plan_hash(1), Ok(1));
        // `exact`'s share: three quarters, said so.
        if let Err(shortfall) = plan_hash_share(1 << 40, 3) {
            assert!(shortfall.granted_mb <= shortfall.available_mb / 4 * 3);
            assert!(
                shortfall.granted_mb > shortfall.available_mb / 4 || shortfall.available_mb < 8
            );
            assert!(
                shortfall
                    .to_string()
                    .contains("at most three quarters of it"),
                "{shortfall}"
            );
        }
        assert!(PerftTable::new(0).is_none());
        assert_eq!(PerftTable::new(1).map(|t| t.megabytes()), Some(1));
        assert_eq!(PerftTable::new(3).map(|t| t.megabytes()), Some(2));
    }

    #[test]
    fn buckets_are_cache_lines() {
        let table = PerftTable::new(1).unwrap();
        let in_use = table.in_use(u64::MAX);
        assert_eq!(in_use.words.as_ptr() as usize % 64, 0);
        assert_eq!(in_use.kilobytes(), 1024);
        assert_eq!(table.in_use(0).kilobytes(), 64);
        assert_eq!(table.in_use(100_000).kilobytes(), 1024);
        assert_eq!(table.in_use(10_000).kilobytes(), 256);
    }

    #[test]
    fn entries_are_found_by_key_and_depth_and_the_smallest_count_goes() {
        let table = PerftTable::new(1).unwrap();
        let t = table.in_use(u64::MAX);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(t.get(key, 3), None);
        t.put(key, 3, 1000);
        assert_eq!(t.get(key, 3), Some(1000));
        assert_eq!(t.get(key, 4), None);
        assert_eq!(t.get(key ^ 1 << 40, 3), None, "same bucket, other key");
        // Four more in the same bucket: the smallest count is replaced each time.
        for (i, count) in [(1u64, 5), (2, 2000), (3, 7), (4, 3000)] {
            t.put(key ^ i << 40, 3, count);
        }
        assert_eq!(t.get(key, 3), Some(1000));
        assert_eq!(t.get(key ^ 1 << 40, 3), None, "the smallest went");
        assert_eq!(t.get(key ^ 3 << 40, 3), Some(7));
        t.put(key ^ 5 << 40, 3, 4000);
        assert_eq!(t.get(key ^ 3 << 40, 3), None, "then the next smallest");
        assert_eq!(t.get(key ^ 4 << 40, 3), Some(3000));
        t.put(key, 5, u64::MAX >> 2);
        assert_eq!(t.get(key, 5), None, "a count too large is not stored");
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let table = PerftTable::new(1).unwrap();
        let t = table.in_use(u64::MAX);
        let (a, b) = (0x1111_0000_0000_0040, 0x2222_0000_0000_0040);
        t.put(a, 3, 10);
        // Another thread's data word lands in the same entry before its key word.
        let entry = t.bucket(b);
        entry[1].store(20 << DEPTH_BITS | 3, Ordering::Relaxed);
        assert_eq!(t.get(a, 3), None);
        assert_eq!(t.get(b, 3), None);
    }
}
