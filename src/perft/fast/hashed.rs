//! The counting path with a transposition table and a stop flag: the recursion of the counting
//! path with each board's Zobrist key carried along (updated move by move, see the `key`
//! module), and every child of two or more plies looked up in the table before it is counted and
//! stored after: every interior ply down to the boards of two plies, whose counts are the sums of
//! their children's bulk counts (the cheapest subtrees stored, but by far the most numerous and
//! the most often transposed into). A board of one ply is bulk-counted, never looked up: one
//! move generation costs less than a lookup that misses the cache (storing those too took 35%
//! longer at start position depth 7).
//!
//! A board's children are all made first, each with its key and a prefetch of its table bucket,
//! and looked up after: the lookups' memory reads then overlap instead of each waiting for the
//! last (start position, depth 7, 256 MiB: 20% less time than with no prefetch).
//!
//! The stop flag is looked at before each count of two plies or more and on every board of
//! `STOP_DEPTH` plies or more below it (each board under that is counted in well under a
//! millisecond); a count cut short by it is never stored.

use super::board::{Board, Rules};
use super::tier::{self, Instructions, Tier};
use super::{count_below, generate, key, passed, squares, Black, Side, Visit, White};
use super::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::perft::table::TableInUse;
use crate::{Color, Position};
use std::sync::atomic::{AtomicBool, Ordering};

/// What every thread of one count shares: the part of the table in use and the stop flag.
#[derive(Default)]
pub struct Shared<'a> {
    table: Option<TableInUse<'a>>,
    stop: Option<&'a AtomicBool>,
    /// Set when the stop flag cut a count short (a count that did not look at the flag, such as
    /// one of a single ply, is whole even when the flag is up).
    cut: AtomicBool,
}

impl<'a> Shared<'a> {
    /// A count's table (if any) and stop flag (if any).
    pub fn new(table: Option<TableInUse<'a>>, stop: Option<&'a AtomicBool>) -> Shared<'a> {
        Shared {
            table,
            stop,
            cut: AtomicBool::new(false),
        }
    }

    /// True once the stop flag is raised.
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// True when the stop flag cut a count short: its result is then meaningless.
    pub fn was_cut(&self) -> bool {
        self.cut.load(Ordering::Relaxed)
    }

    /// True, and the count marked as cut, when the stop flag is up.
    #[inline(always)]
    fn cut_here(&self) -> bool {
        let stopped = self.stopped();
        if stopped {
            self.cut.store(true, Ordering::Relaxed);
        }
        stopped
    }
}

/// The smallest depth at which the stop flag is looked at inside a count (it is looked at before
/// every count of two plies or more too): a 3-ply subtree is at most a few hundred thousand
/// leaves, well under a millisecond of counting.
const STOP_DEPTH: u32 = 4;

/// Perft of `pos` to `depth` on the counting path with `shared`'s table and stop flag, with the
/// fastest instructions this CPU runs ([`super::instructions`]). The count is meaningless when
/// the stop flag cut it short ([`Shared::was_cut`]).
pub fn count(pos: &Position, depth: u32, shared: &Shared) -> u64 {
    count_on(pos, depth, super::instructions(), shared)
        .unwrap_or_else(|| count_with(pos, depth, tier::Portable, shared))
}

/// [`count`] compiled for `instructions`; `None` when this CPU does not have them.
pub fn count_on(
    pos: &Position,
    depth: u32,
    instructions: Instructions,
    shared: &Shared,
) -> Option<u64> {
    match instructions {
        Instructions::Portable => Some(count_with(pos, depth, tier::Portable, shared)),
        #[cfg(target_arch = "x86_64")]
        Instructions::Bmi2 => {
            tier::Bmi2::<false>::detect().map(|t| count_with(pos, depth, t, shared))
        }
        #[cfg(target_arch = "x86_64")]
        Instructions::Bmi2Pext => {
            tier::Bmi2::<true>::detect().map(|t| count_with(pos, depth, t, shared))
        }
        #[cfg(not(target_arch = "x86_64"))]
        _ => None,
    }
}

fn count_with<T: Tier>(pos: &Position, depth: u32, tier: T, shared: &Shared) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (board, rules) = Board::from_position(pos);
    match pos.side_to_move() {
        Color::White => root::<White, T>(&board, &rules, depth, tier, shared),
        Color::Black => root::<Black, T>(&board, &rules, depth, tier, shared),
    }
}

fn root<S: Side, T: Tier>(b: &Board, r: &Rules, depth: u32, tier: T, shared: &Shared) -> u64 {
    if depth >= 2 && shared.cut_here() {
        return 0;
    }
    if depth <= 2 || (shared.table.is_none() && shared.stop.is_none()) {
        return tier.below::<S>(b, r, depth);
    }
    let key = key::of::<S>(b);
    if let Some(nodes) = shared.table.and_then(|t| t.get(key, depth)) {
        return nodes;
    }
    let mut scratch = vec![Vec::new(); depth as usize + 1];
    let nodes = tier.hashed::<S>(b, r, depth, key, shared, &mut scratch);
    if let Some(table) = shared.table.filter(|_| !shared.stopped()) {
        table.put(key, depth, nodes);
    }
    nodes
}

/// The children of the boards on the way down, by depth: each board's children are made (and
/// their table entries fetched into the cache) before the first is looked up, so the memory
/// reads of all of them overlap instead of each waiting for the last.
pub(crate) type Scratch = Vec<Vec<(Board, u64)>>;

/// Leaves below `b` (side `S` to move, key `key`) at `depth` ≥ 1, its children of two plies or
/// more looked up in and stored to the table; inlined into each tier's entry point.
#[inline(always)]
pub(super) fn count_hashed<S: Side, T: Tier>(
    b: &Board,
    r: &Rules,
    depth: u32,
    key: u64,
    tier: T,
    shared: &Shared,
    scratch: &mut Scratch,
) -> u64 {
    if depth <= 2 {
        return count_below::<S, T>(b, r, depth, tier);
    }
    if depth >= STOP_DEPTH && shared.cut_here() {
        return 0;
    }
    let mut children = std::mem::take(&mut scratch[depth as usize]);
    children.clear();
    let mut collect = Children {
        base: key ^ key::side() ^ key::en_passant::<S>(b),
        children: &mut children,
        table: shared.table,
    };
    generate::<S, T, _>(b, r, tier, &mut collect);
    let table = shared.table;
    let mut nodes = 0;
    for (child, key) in &children {
        // The unit tests check every key made move by move against the key made from scratch.
        #[cfg(test)]
        assert_eq!(*key, key::of::<S::Other>(child), "the key after a move");
        if let Some(count) = table.and_then(|t| t.get(*key, depth - 1)) {
            nodes += count;
            continue;
        }
        let count = tier.hashed::<S::Other>(child, r, depth - 1, *key, shared, scratch);
        if let Some(table) = table.filter(|_| !shared.stopped()) {
            table.put(*key, depth - 1, count);
        }
        nodes += count;
    }
    scratch[depth as usize] = children;
    nodes
}

/// Makes each child with its key, and asks the cache for its table entry.
struct Children<'c, 't> {
    /// The parent's key with the side to move changed and its en passant part taken out: a
    /// child's key is this XOR what its move changes.
    base: u64,
    children: &'c mut Vec<(Board, u64)>,
    table: Option<TableInUse<'t>>,
}

impl Children<'_, '_> {
    #[inline(always)]
    fn add(&mut self, child: Board, key: u64) {
        if let Some(table) = self.table {
            table.prefetch(key);
        }
        self.children.push((child, key));
    }
}

/// The key of the unmoved squares among `set` (most moves touch none).
#[inline(always)]
fn unmoved_part(b: &Board, set: u64) -> u64 {
    let lost = b.unmoved & set;
    if lost == 0 {
        0
    } else {
        key::unmoved(lost)
    }
}

impl Visit for Children<'_, '_> {
    #[inline(always)]
    fn piece<S: Side, const KIND: usize>(&mut self, b: &Board, _: &Rules, from: u32, targets: u64) {
        let moving = self.base ^ key::piece(S::US, KIND, from) ^ unmoved_part(b, 1 << from);
        for to in squares(targets) {
            let key = moving
                ^ key::piece(S::US, KIND, to)
                ^ key::victim::<S>(b, to)
                ^ unmoved_part(b, 1 << to);
            self.add(b.after_piece::<S, KIND>(from, to), key);
        }
    }
    #[inline(always)]
    fn push<S: Side, const DOUBLE: bool>(
        &mut self,
        b: &Board,
        _: &Rules,
        targets: u64,
        delta: i32,
    ) {
        for to in squares(targets) {
            let from = (to as i32 - delta) as u32;
            let mut key = self.base ^ key::piece(S::US, PAWN, from) ^ key::piece(S::US, PAWN, to);
            let ep = passed::<DOUBLE>(to, delta);
            let child = b.after_push::<S>(from, to, ep);
            if DOUBLE {
                key ^= key::en_passant::<S::Other>(&child);
            }
            self.add(child, key);
        }
    }
    #[inline(always)]
    fn capture<S: Side>(&mut self, b: &Board, _: &Rules, targets: u64, delta: i32) {
        for to in squares(targets) {
            let from = (to as i32 - delta) as u32;
            let key = self.base
                ^ key::piece(S::US, PAWN, from)
                ^ key::piece(S::US, PAWN, to)
                ^ key::victim::<S>(b, to)
                ^ unmoved_part(b, 1 << to);
            self.add(b.after_piece::<S, PAWN>(from, to), key);
        }
    }
    #[inline(always)]
    fn promote<S: Side>(&mut self, b: &Board, _: &Rules, targets: u64, delta: i32) {
        for to in squares(targets) {
            let from = (to as i32 - delta) as u32;
            let common = self.base
                ^ key::piece(S::US, PAWN, from)
                ^ key::victim::<S>(b, to)
                ^ unmoved_part(b, 1 << to);
            for kind in [QUEEN, ROOK, BISHOP, KNIGHT] {
                let key = common ^ key::piece(S::US, kind, to);
                self.add(b.after_promotion::<S>(from, to, kind), key);
            }
        }
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, b: &Board, _: &Rules, from: u64) {
        let to = b.en_passant.trailing_zeros();
        let captured = <S::Other as Side>::forward(b.en_passant).trailing_zeros();
        let key = self.base
            ^ key::piece(S::US, PAWN, from.trailing_zeros())
            ^ key::piece(S::US, PAWN, to)
            ^ key::piece(S::THEM, PAWN, captured);
        self.add(b.after_en_passant::<S>(from), key);
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, b: &Board, r: &Rules, right: usize) {
        let c = &r.castles[right];
        let key = self.base
            ^ key::piece(S::US, KING, c.king.trailing_zeros())
            ^ key::piece(S::US, KING, c.king_to.trailing_zeros())
            ^ key::piece(S::US, ROOK, c.rook.trailing_zeros())
            ^ key::piece(S::US, ROOK, c.rook_to.trailing_zeros())
            ^ unmoved_part(b, S::BACK_RANK);
        self.add(b.after_castle::<S>(r, right), key);
    }
}
