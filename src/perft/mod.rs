//! Perft: count the leaf nodes of the legal move tree to a fixed depth, the standard way to check
//! a move generator against known counts.
//!
//! The last ply is bulk-counted (the generator's count, no moves made). [`divide`] gives the count
//! below each root move, spreads the work over threads, and can share a transposition table
//! ([`PerftTable`]: counts keyed by a 64-bit Zobrist key and the remaining depth, lock-free)
//! among them; none of this changes the counts, only the time. With the bitboard generator the
//! counting path does it all ([`fast`], [`fast::hashed`]).

pub(crate) mod bits;
pub mod exact;
pub mod fast;
pub mod stats;
pub mod suite;
mod table;
use crate::movegen::{Generator, MoveList};
use crate::{Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
pub use table::{plan_hash, plan_hash_share, HashShortfall, PerftTable, TableInUse};

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

/// Perft on the full position with an optional table and an optional stop flag (the 0x88
/// generator's way; the bitboard generator's is [`fast::hashed`]); `None` when stopped.
fn perft_with(
    pos: &Position,
    depth: u32,
    generator: Generator,
    table: Option<TableInUse>,
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

/// Counts below each root move, with a table of `options.hash_mb` MiB made for this count (cut
/// down to what the machine has, see [`plan_hash`], and used only as far as the count can fill
/// it). Returns `None` if `stop` was raised before the end.
pub fn divide(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    stop: Option<&AtomicBool>,
) -> Option<Divide> {
    // Below depth 3 the table would store nothing that is looked up again: not worth the memory.
    let table = if depth >= 3 {
        PerftTable::new(plan_hash(options.hash_mb).unwrap_or_else(|s| s.granted_mb))
    } else {
        None
    };
    let in_use = table.as_ref().map(|t| t.for_count(pos, depth));
    divide_in(pos, depth, options, in_use, stop)
}

/// [`divide`] with a table made beforehand (`options.hash_mb` is not looked at): the UCI engine
/// keeps one from `setoption name Hash` to the next, so that a `go perft` never waits for memory.
pub fn divide_in(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    table: Option<TableInUse>,
    stop: Option<&AtomicBool>,
) -> Option<Divide> {
    if depth == 0 {
        return Some(Divide {
            moves: Vec::new(),
            nodes: 1,
        });
    }
    let mut roots = MoveList::new();
    options.generator.legal_moves(pos, &mut roots);
    let children: Vec<Position> = roots.iter().map(|&mv| pos.play(mv)).collect();
    let counts = match options.generator {
        Generator::Bitboard => {
            let shared = fast::hashed::Shared::new(table, stop);
            let counts = count_children(&children, depth - 1, options.threads, &shared);
            (!shared.was_cut()).then_some(counts)?
        }
        Generator::Mailbox0x88 => {
            let count = |child: &Position| -> Option<u64> {
                perft_with(child, depth - 1, options.generator, table, stop)
            };
            run_on_threads(children.len(), options.threads, |i| count(&children[i]))?
        }
    };
    let moves: Vec<(Move, u64)> = roots.iter().copied().zip(counts).collect();
    let nodes = moves.iter().map(|(_, n)| n).sum();
    Some(Divide { moves, nodes })
}

/// The counts of `children` to `depth` on the counting path. On one thread each is counted in
/// turn; on more, the work is shared out by grandchild (a few hundred pieces for the threads to
/// take from a shared index, so no thread waits long at the end for another's last piece), and
/// the table is shared by all.
fn count_children(
    children: &[Position],
    depth: u32,
    threads: usize,
    shared: &fast::hashed::Shared,
) -> Vec<u64> {
    if threads <= 1 || depth < 2 {
        let count = |i: usize| Some(fast::hashed::count(&children[i], depth, shared));
        return run_on_threads(children.len(), threads, count).unwrap_or_default();
    }
    let mut pieces = Vec::new();
    for (i, child) in children.iter().enumerate() {
        for &mv in child.legal_moves().iter() {
            pieces.push((i, child.play(mv)));
        }
    }
    // Handed out from both ends in turn (first, last, second, second to last, ...): threads at
    // work at once are then far apart in the tree, where fewer of their subtrees transpose into
    // each other's before either is stored.
    let n = pieces.len();
    let order = |k: usize| {
        if k.is_multiple_of(2) {
            k / 2
        } else {
            n - 1 - k / 2
        }
    };
    let totals: Vec<AtomicU64> = children.iter().map(|_| AtomicU64::new(0)).collect();
    run_on_threads(n, threads, |k| {
        let (i, grandchild) = &pieces[order(k)];
        let count = fast::hashed::count(grandchild, depth - 1, shared);
        totals[*i].fetch_add(count, Ordering::Relaxed);
        Some(())
    });
    totals.into_iter().map(AtomicU64::into_inner).collect()
}

/// `task(i)` for every `i` below `n` on up to `threads` threads (the calling one when 0 or 1),
/// each taking the next index from a shared counter; the results in index order, `None` when
/// any task gave `None`.
fn run_on_threads<R: Send>(
    n: usize,
    threads: usize,
    task: impl Fn(usize) -> Option<R> + Sync,
) -> Option<Vec<R>> {
    let threads = threads.max(1).min(n.max(1));
    if threads <= 1 {
        return (0..n).map(task).collect();
    }
    let next = AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<R>>> =
        (0..n).map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let result = task(i);
                *results[i].lock().unwrap_or_else(|e| e.into_inner()) = result;
            });
        }
    });
    results
        .into_iter()
        .map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

impl PerftTable {
    /// The part of the table a count of `pos` to `depth` uses: enough for the boards it can
    /// store (see [`PerftTable::in_use`]).
    pub fn for_count(&self, pos: &Position, depth: u32) -> TableInUse<'_> {
        self.in_use(stored_boards(pos, depth))
    }
}

/// About how many boards a count of `pos` to `depth` stores at most: those of 2 to `depth - 1`
/// plies below the root, nearly all of them the `perft(depth - 2)` boards two plies above the
/// leaves. Counted exactly while that is quick (a count of at most a few million leaves), else
/// extrapolated from the last two counts with a branching factor a quarter larger than theirs:
/// an overestimate costs only untouched memory, an underestimate only speed.
fn stored_boards(pos: &Position, depth: u32) -> u64 {
    let Some(target) = depth.checked_sub(2).filter(|&t| t > 0) else {
        return 0;
    };
    let mut counts = vec![1u64];
    while counts.len() as u32 <= target && counts[counts.len() - 1] <= 1 << 16 {
        counts.push(fast::perft(pos, counts.len() as u32));
    }
    let known: u64 = counts[1..].iter().sum();
    let (last, before) = (counts[counts.len() - 1], counts[counts.len() - 2]);
    if last == 0 {
        return known;
    }
    let branching = (last as f64 / before as f64).max(1.0) * 1.25;
    let mut estimate = known as f64;
    let mut level = last as f64;
    for _ in counts.len() as u32..=target {
        level *= branching;
        estimate += level;
    }
    estimate.min(u64::MAX as f64) as u64
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
