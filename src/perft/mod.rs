//! Perft: count the leaf nodes of the legal move tree to a fixed depth, the standard way to check
//! a move generator against known counts.
//!
//! The last ply is bulk-counted (the generator's count, no moves made). [`divide`] gives the count
//! below each root move, spreads the root moves over threads, and can share a hash table keyed by
//! Zobrist key and remaining depth; none of this changes the counts, only the time.

pub mod fast;
pub mod suite;
use crate::movegen::{Generator, MoveList};
use crate::{Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// The deepest perft any entry point (CLI, suite files, `go perft`) accepts. Counting recurses
/// once per ply, so an unchecked depth from the user (`perft 20000`) recurses until the stack
/// runs out and aborts the process; 64 plies is far past anything countable in a lifetime.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Kiwipete, the classic perft stress position.
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The positions `bench perft` measures: (name, FEN, depth, expected nodes).
pub const PERFT_BENCH: [(&str, &str, u32, u64); 2] = [
    ("startpos", crate::STARTPOS_FEN, 6, 119_060_324),
    ("kiwipete", KIWIPETE, 5, 193_690_690),
];

/// How to run a perft.
#[derive(Debug, Clone, Default)]
pub struct PerftOptions {
    /// Which generator lists and counts the moves.
    pub generator: Generator,
    /// Worker threads; 0 or 1 runs on the calling thread.
    pub threads: usize,
    /// Size of the transposition table in MiB; 0 for none.
    pub hash_mb: usize,
}

/// The counts of a divide: one per root move, in generation order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divide {
    /// Each root move with the number of leaves below it.
    pub moves: Vec<(Move, u64)>,
    /// The sum of the counts (for depth 0, 1).
    pub nodes: u64,
}

/// Leaf count of `pos` to `depth` with the given generator, single-threaded and without a table.
///
/// ```
/// use shannon::movegen::Generator;
/// use shannon::perft::perft;
/// use shannon::Position;
///
/// let start = Position::startpos();
/// assert_eq!(perft(&start, 3, Generator::Bitboard), 8_902);
/// // The 0x88 reference generator agrees.
/// assert_eq!(perft(&start, 3, Generator::Mailbox0x88), 8_902);
/// ```
pub fn perft(pos: &Position, depth: u32, generator: Generator) -> u64 {
    match generator {
        Generator::Bitboard => perft_bitboard(pos, depth),
        Generator::Mailbox0x88 => perft_with(pos, depth, generator, None, None).unwrap_or(0),
    }
}

/// The hot path: the bitboard generator, no table, no stop flag: the counting path of [`fast`].
fn perft_bitboard(pos: &Position, depth: u32) -> u64 {
    fast::perft(pos, depth)
}

/// The same count on the full position by make/unmake with the bitboard generator (the hot path
/// before [`fast`]); the reference the fast path is tested against, and measured in
/// `benches/perft.rs`.
pub fn perft_make_unmake(pos: &Position, depth: u32) -> u64 {
    make_unmake(&mut pos.clone(), depth)
}

fn make_unmake(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let moves = pos.legal_moves();
            let mut nodes = 0;
            for &mv in moves.iter() {
                let undo = pos.make(mv);
                nodes += make_unmake(pos, depth - 1);
                pos.unmake(mv, &undo);
            }
            nodes
        }
    }
}

/// The same count by copy-make (each child a fresh copy); kept to measure the two strategies
/// against each other in `benches/perft.rs`.
pub fn perft_copy_make(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => pos
            .legal_moves()
            .iter()
            .map(|&mv| perft_copy_make(&pos.play(mv), depth - 1))
            .sum(),
    }
}

/// Perft with an optional table and an optional stop flag; `None` when stopped.
fn perft_with(
    pos: &Position,
    depth: u32,
    generator: Generator,
    table: Option<&PerftTable>,
    stop: Option<&AtomicBool>,
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if depth == 1 {
        return Some(generator.count_legal(pos));
    }
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return None;
    }
    // Small subtrees go to the fast path whole: counting them is about as quick as looking them
    // up, and the table keeps the big ones (the stop flag is looked at between them).
    if generator == Generator::Bitboard && depth <= WHOLE_SUBTREE_DEPTH {
        return Some(perft_bitboard(pos, depth));
    }
    if let Some(count) = table.and_then(|t| t.get(pos.key(), depth)) {
        return Some(count);
    }
    let mut moves = MoveList::new();
    generator.legal_moves(pos, &mut moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        nodes += perft_with(&pos.play(mv), depth - 1, generator, table, stop)?;
    }
    if let Some(t) = table {
        t.put(pos.key(), depth, nodes);
    }
    Some(nodes)
}

/// The depth at and below which a count with a table or a stop flag (`go perft`, which `stop`
/// must end) hands the subtree whole to the fast path, without looking at the flag: a depth-4
/// subtree is a few million nodes at most, a few milliseconds of the fast path.
const WHOLE_SUBTREE_DEPTH: u32 = 4;

/// Counts below each root move. Returns `None` if `stop` was raised before the end.
pub fn divide(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    stop: Option<&AtomicBool>,
) -> Option<Divide> {
    let mut roots = MoveList::new();
    options.generator.legal_moves(pos, &mut roots);
    if depth == 0 {
        return Some(Divide {
            moves: Vec::new(),
            nodes: 1,
        });
    }
    // Below depth 3 the table would store nothing that is looked up again: not worth the memory.
    let table = if depth >= 3 {
        PerftTable::allocate(plan_hash(options.hash_mb).unwrap_or_else(|s| s.granted_mb))
    } else {
        None
    };
    let table = table.as_ref();
    let generator = options.generator;
    let count_root = |mv: Move| -> Option<u64> {
        let child = pos.play(mv);
        if table.is_none() && stop.is_none() && generator == Generator::Bitboard {
            Some(perft_bitboard(&child, depth - 1))
        } else {
            perft_with(&child, depth - 1, generator, table, stop)
        }
    };
    let threads = options.threads.max(1).min(roots.len().max(1));
    let counts: Vec<Option<u64>> = if threads <= 1 {
        roots.iter().map(|&mv| count_root(mv)).collect()
    } else {
        // Workers take root moves from a shared index: the biggest subtrees do not all land on
        // one thread the way a fixed split could.
        let next = AtomicUsize::new(0);
        let results: Vec<AtomicU64> = roots.iter().map(|_| AtomicU64::new(u64::MAX)).collect();
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&mv) = roots.get(i) else { break };
                    if let Some(count) = count_root(mv) {
                        results[i].store(count, Ordering::Relaxed);
                    }
                });
            }
        });
        results
            .iter()
            .map(|r| Some(r.load(Ordering::Relaxed)).filter(|&c| c != u64::MAX))
            .collect()
    };
    let mut moves = Vec::with_capacity(roots.len());
    for (&mv, count) in roots.iter().zip(counts) {
        moves.push((mv, count?));
    }
    let nodes = moves.iter().map(|(_, n)| n).sum();
    Some(Divide { moves, nodes })
}

/// A perft hash table smaller than the one asked for, because the memory is not there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashShortfall {
    /// The size asked for, in MiB.
    pub requested_mb: usize,
    /// The size that will be used, in MiB (0: no table).
    pub granted_mb: usize,
    /// The memory the operating system reported available, in MiB.
    pub available_mb: usize,
}

impl std::fmt::Display for HashShortfall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a {} MiB hash table cannot be had: {} MiB of memory is available and the table may \
             take at most half of it; ",
            self.requested_mb, self.available_mb
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
    match available_memory_mb() {
        Some(available_mb) if requested_mb > available_mb / 2 => {
            let limit = available_mb / 2;
            let granted_mb = if limit == 0 {
                0
            } else {
                1 << (usize::BITS - 1 - limit.leading_zeros())
            };
            Err(HashShortfall {
                requested_mb,
                granted_mb,
                available_mb,
            })
        }
        _ => Ok(requested_mb),
    }
}

/// `MemAvailable` from `/proc/meminfo`, in MiB.
fn available_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// A shared, lock-free table of subtree counts. Each slot holds the count and the count XORed
/// with the (key, depth) tag, so a slot torn by two threads writing at once fails the tag check
/// instead of returning a wrong count.
struct PerftTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl PerftTable {
    /// A table of at most `megabytes` MiB (0: none), allocated fallibly: when the memory cannot
    /// be had, half the size is tried, and so on down to no table, so that a large `Hash` never
    /// aborts the process.
    fn allocate(megabytes: usize) -> Option<PerftTable> {
        let wanted = megabytes.saturating_mul(1 << 20) / 16;
        if wanted == 0 {
            return None;
        }
        let mut len: usize = if wanted < 2 {
            2
        } else {
            1 << (usize::BITS - 1 - wanted.leading_zeros())
        };
        while len >= 2 {
            let mut slots = Vec::new();
            if slots.try_reserve_exact(len).is_ok() {
                slots.resize_with(len, || [AtomicU64::new(0), AtomicU64::new(0)]);
                return Some(PerftTable {
                    slots,
                    mask: len - 1,
                });
            }
            log::info!("cannot allocate a perft table of {len} slots; trying half");
            len /= 2;
        }
        None
    }

    fn tag(key: u64, depth: u32) -> u64 {
        key ^ u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn get(&self, key: u64, depth: u32) -> Option<u64> {
        let tag = PerftTable::tag(key, depth);
        let slot = &self.slots[tag as usize & self.mask];
        let count = slot[1].load(Ordering::Relaxed);
        (slot[0].load(Ordering::Relaxed) ^ count == tag).then_some(count)
    }

    fn put(&self, key: u64, depth: u32, count: u64) {
        let tag = PerftTable::tag(key, depth);
        let slot = &self.slots[tag as usize & self.mask];
        slot[0].store(tag ^ count, Ordering::Relaxed);
        slot[1].store(count, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_small_depths() {
        let pos = Position::startpos();
        let expected = [1, 20, 400, 8902, 197_281];
        for (depth, &nodes) in expected.iter().enumerate() {
            assert_eq!(perft(&pos, depth as u32, Generator::Bitboard), nodes);
        }
        assert_eq!(perft(&pos, 3, Generator::Mailbox0x88), 8902);
    }

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
        assert!(PerftTable::allocate(0).is_none());
        assert_eq!(
            PerftTable::allocate(1).map(|t| t.slots.len()),
            Some(1 << 16)
        );
    }

    #[test]
    fn threads_and_hash_do_not_change_counts() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        for (threads, hash_mb) in [(1, 0), (2, 0), (1, 1), (2, 1), (3, 16)] {
            let options = PerftOptions {
                threads,
                hash_mb,
                ..PerftOptions::default()
            };
            assert_eq!(divide(&pos, 3, &options, None).unwrap().nodes, 97_862);
        }
    }

    #[test]
    fn stop_aborts() {
        let stop = AtomicBool::new(true);
        let options = PerftOptions::default();
        assert_eq!(
            divide(&Position::startpos(), 4, &options, Some(&stop)),
            None
        );
    }
}
