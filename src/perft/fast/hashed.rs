//! The counting path with a transposition table and a stop flag: the recursion of
//! [`count_below`] with each board's Zobrist key carried along (updated per move, see
//! [`key`](super::key)), and every child of two or more plies looked up in the table before it is
//! counted and stored after. The leaves' parents (two plies) are stored too: their counts are the
//! bulk counts of their children, the cheapest subtrees but by far the most numerous and the most
//! often transposed into. The stop flag is looked at on every board of [`STOP_DEPTH`] plies or
//! more (each of the boards below it is counted in well under a millisecond); a count cut short
//! by it is never stored.

use super::board::{Board, Rules};
use super::tier::{self, Instructions, Tier};
use super::{count_below, generate, key, squares, Black, Side, Visit, White};
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
    let nodes = tier.hashed::<S>(b, r, depth, key, shared);
    if let Some(table) = shared.table.filter(|_| !shared.stopped()) {
        table.put(key, depth, nodes);
    }
    nodes
}

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
) -> u64 {
    if depth <= 2 {
        return count_below::<S, T>(b, r, depth, tier);
    }
    if depth >= STOP_DEPTH && shared.cut_here() {
        return 0;
    }
    let mut hashed = Hashed {
        depth: depth - 1,
        nodes: 0,
        base: key ^ key::side() ^ key::en_passant::<S>(b),
        tier,
        shared,
    };
    generate::<S, T, _>(b, r, tier, &mut hashed);
    hashed.nodes
}

/// Plays each move, finds the child's key and takes its count from the table or counts it.
struct Hashed<'s, 't, T: Tier> {
    /// The children's depth (2 or more).
    depth: u32,
    nodes: u64,
    /// The parent's key with the side to move changed and its en passant part taken out: a
    /// child's key is this XOR what its move changes.
    base: u64,
    tier: T,
    shared: &'s Shared<'t>,
}

impl<T: Tier> Hashed<'_, '_, T> {
    #[inline(always)]
    fn below<S: Side>(&mut self, child: &Board, r: &Rules, key: u64) {
        // The unit tests check every key made move by move against the key made from scratch.
        #[cfg(test)]
        assert_eq!(key, key::of::<S::Other>(child), "the key after a move");
        let table = self.shared.table;
        if let Some(nodes) = table.and_then(|t| t.get(key, self.depth)) {
            self.nodes += nodes;
            return;
        }
        let nodes = self
            .tier
            .hashed::<S::Other>(child, r, self.depth, key, self.shared);
        if let Some(table) = table.filter(|_| !self.shared.stopped()) {
            table.put(key, self.depth, nodes);
        }
        self.nodes += nodes;
    }

    #[inline(always)]
    fn prefetch(&self, key: u64) {
        if let Some(table) = self.shared.table {
            table.prefetch(key);
        }
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

impl<T: Tier> Visit for Hashed<'_, '_, T> {
    #[inline(always)]
    fn piece<S: Side, const KIND: usize>(&mut self, b: &Board, r: &Rules, from: u32, targets: u64) {
        let moving = self.base ^ key::piece(S::US, KIND, from) ^ unmoved_part(b, 1 << from);
        for to in squares(targets) {
            let key = moving
                ^ key::piece(S::US, KIND, to)
                ^ key::victim::<S>(b, to)
                ^ unmoved_part(b, 1 << to);
            self.prefetch(key);
            self.below::<S>(&b.after_piece::<S, KIND>(from, to), r, key);
        }
    }
    #[inline(always)]
    fn push<S: Side, const DOUBLE: bool>(
        &mut self,
        b: &Board,
        r: &Rules,
        targets: u64,
        delta: i32,
    ) {
        for to in squares(targets) {
            let from = (to as i32 - delta) as u32;
            let mut key = self.base ^ key::piece(S::US, PAWN, from) ^ key::piece(S::US, PAWN, to);
            let ep = if DOUBLE {
                1 << ((to as i32 - delta / 2) as u32)
            } else {
                0
            };
            let child = b.after_push::<S>(from, to, ep);
            if DOUBLE {
                key ^= key::en_passant::<S::Other>(&child);
            }
            self.prefetch(key);
            self.below::<S>(&child, r, key);
        }
    }
    #[inline(always)]
    fn capture<S: Side>(&mut self, b: &Board, r: &Rules, targets: u64, delta: i32) {
        for to in squares(targets) {
            let from = (to as i32 - delta) as u32;
            let key = self.base
                ^ key::piece(S::US, PAWN, from)
                ^ key::piece(S::US, PAWN, to)
                ^ key::victim::<S>(b, to)
                ^ unmoved_part(b, 1 << to);
            self.prefetch(key);
            self.below::<S>(&b.after_piece::<S, PAWN>(from, to), r, key);
        }
    }
    #[inline(always)]
    fn promote<S: Side>(&mut self, b: &Board, r: &Rules, targets: u64, delta: i32) {
        for to in squares(targets) {
            let from = (to as i32 - delta) as u32;
            let common = self.base
                ^ key::piece(S::US, PAWN, from)
                ^ key::victim::<S>(b, to)
                ^ unmoved_part(b, 1 << to);
            for kind in [QUEEN, ROOK, BISHOP, KNIGHT] {
                let key = common ^ key::piece(S::US, kind, to);
                self.prefetch(key);
                self.below::<S>(&b.after_promotion::<S>(from, to, kind), r, key);
            }
        }
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, b: &Board, r: &Rules, from: u64) {
        let to = b.en_passant.trailing_zeros();
        let captured = <S::Other as Side>::forward(b.en_passant).trailing_zeros();
        let key = self.base
            ^ key::piece(S::US, PAWN, from.trailing_zeros())
            ^ key::piece(S::US, PAWN, to)
            ^ key::piece(S::THEM, PAWN, captured);
        self.prefetch(key);
        self.below::<S>(&b.after_en_passant::<S>(from), r, key);
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
        self.prefetch(key);
        self.below::<S>(&b.after_castle::<S>(r, right), r, key);
    }
}
