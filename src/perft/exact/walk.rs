//! The fast exact walk: the recursion of the reference walk on the counting path's board
//! (copy-make, legal moves generated in groups, the side to move a type), the last ply sorted
//! by masks ([`super::leaf`]), subtrees of two plies or more kept in a shared cache
//! ([`super::cache`]), and the work shared by threads.
//!
//! **Threads.** The boards two plies below the root are handed out from a shared index; each
//! thread walks its boards with its own scratch space and the one cache. A node's value is the
//! sum of its children's quotients and remainders by its number of moves (integer additions),
//! so it does not depend on the order in which the children are summed, nor on which were found
//! in the cache (a stored value is the value): the result is bit for bit that of one thread.

use super::cache::{Cache, Key, NUMBERS};
use super::leaf::last_ply;
use super::quiet::quiet;
use super::{Ends, Fixed, Weight};
use crate::perft::bits::{squares, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::perft::fast::for_exact::{generate, Black, Board, Portable, Rules, Side, Tier, Visit};
use crate::perft::fast::for_exact::{passed, White};
use crate::perft::fast::Instructions;
use crate::{Color, Position};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The 128-bit key of `b` with `S` to move (see [`super::cache`]).
#[inline(always)]
fn key_of<S: Side>(b: &Board) -> Key {
    let mut k = [0u64; 2];
    let mut add = |n: &[u64; 2]| {
        k[0] ^= n[0];
        k[1] ^= n[1];
    };
    for color in 0..2 {
        for kind in PAWN..=KING {
            for sq in squares(b.set(color, kind)) {
                add(&NUMBERS.pieces[color][kind][sq as usize]);
            }
        }
    }
    for sq in squares(b.unmoved_squares()) {
        add(&NUMBERS.unmoved[sq as usize]);
    }
    let ep = b.takeable_en_passant::<S>();
    if ep != 0 {
        add(&NUMBERS.en_passant[ep.trailing_zeros() as usize]);
    }
    if S::COLOR == Color::Black {
        add(&NUMBERS.black);
    }
    Key {
        index: k[0],
        check: k[1],
    }
}

/// Collects the boards after each legal move.
struct Children<'v>(&'v mut Vec<Board>);

impl Visit for Children<'_> {
    #[inline(always)]
    fn piece<S: Side, const KIND: usize>(&mut self, b: &Board, _: &Rules, from: u32, targets: u64) {
        for to in squares(targets) {
            self.0.push(b.after_piece::<S, KIND>(from, to));
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
            let ep = passed::<DOUBLE>(to, delta);
            self.0.push(b.after_push::<S>(from, to, ep));
        }
    }
    #[inline(always)]
    fn capture<S: Side>(&mut self, b: &Board, _: &Rules, targets: u64, delta: i32) {
        for to in squares(targets) {
            let from = (to as i32 - delta) as u32;
            self.0.push(b.after_piece::<S, PAWN>(from, to));
        }
    }
    #[inline(always)]
    fn promote<S: Side>(&mut self, b: &Board, _: &Rules, targets: u64, delta: i32) {
        for to in squares(targets) {
            let from = (to as i32 - delta) as u32;
            for kind in [QUEEN, ROOK, BISHOP, KNIGHT] {
                self.0.push(b.after_promotion::<S>(from, to, kind));
            }
        }
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, b: &Board, _: &Rules, from: u64) {
        self.0.push(b.after_en_passant::<S>(from));
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, b: &Board, r: &Rules, right: usize) {
        self.0.push(b.after_castle::<S>(r, right));
    }
}

/// One thread's walk: the instructions, the castling rules of the root, the cache and scratch
/// space for the children of each depth.
struct Walk<'a, T> {
    t: T,
    r: &'a Rules,
    cache: Option<&'a Cache>,
    /// By plies left: the children of the node being walked, and their keys.
    boards: Vec<Vec<Board>>,
    keys: Vec<Vec<Key>>,
}

/// The running sums of a node's children.
struct Sums {
    mates: u64,
    stalemates: u64,
    p_mate: <Fixed as Weight>::Sum,
    p_stalemate: <Fixed as Weight>::Sum,
}

impl Sums {
    fn new() -> Sums {
        Sums {
            mates: 0,
            stalemates: 0,
            p_mate: <Fixed as Weight>::start(),
            p_stalemate: <Fixed as Weight>::start(),
        }
    }

    #[inline(always)]
    fn add(&mut self, child: &Ends<Fixed>, n: u64) {
        self.mates += child.mates;
        self.stalemates += child.stalemates;
        // Most values are 0, whose quotient and remainder are 0: no 128-bit division.
        if child.p_mate.0 != 0 {
            <Fixed as Weight>::add(&mut self.p_mate, &child.p_mate, n);
        }
        if child.p_stalemate.0 != 0 {
            <Fixed as Weight>::add(&mut self.p_stalemate, &child.p_stalemate, n);
        }
    }

    fn mean(self, n: u64) -> Ends<Fixed> {
        Ends {
            mates: self.mates,
            stalemates: self.stalemates,
            p_mate: <Fixed as Weight>::mean(self.p_mate, n),
            p_stalemate: <Fixed as Weight>::mean(self.p_stalemate, n),
        }
    }
}

/// A way to compile the walk: [`Tier`]s with an entry point per node, so that a tier built for
/// BMI2 enters code compiled with it at every level of the recursion.
trait ExactTier: Tier {
    fn node<S: Side>(self, walk: &mut Walk<'_, Self>, b: &Board, d: u32) -> Ends<Fixed>;
}

impl ExactTier for Portable {
    fn node<S: Side>(self, walk: &mut Walk<'_, Self>, b: &Board, d: u32) -> Ends<Fixed> {
        walk.ends::<S>(b, d)
    }
}

#[cfg(target_arch = "x86_64")]
impl<const PEXT: bool> ExactTier for crate::perft::fast::for_exact::Bmi2<PEXT> {
    #[inline(always)]
    fn node<S: Side>(self, walk: &mut Walk<'_, Self>, b: &Board, d: u32) -> Ends<Fixed> {
        // SAFETY: `node_bmi2` only needs the CPU to have POPCNT, BMI1 and BMI2, and a `Bmi2`
        // value exists only when `Bmi2::detect` found them on this CPU.
        unsafe { node_bmi2::<S, PEXT>(walk, b, d) }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn node_bmi2<S: Side, const PEXT: bool>(
    walk: &mut Walk<'_, crate::perft::fast::for_exact::Bmi2<PEXT>>,
    b: &Board,
    d: u32,
) -> Ends<Fixed> {
    walk.ends::<S>(b, d)
}

impl<T: ExactTier> Walk<'_, T> {
    /// The games from `b` (side `S` to move) that end exactly `d >= 1` plies later.
    #[inline(always)]
    fn ends<S: Side>(&mut self, b: &Board, d: u32) -> Ends<Fixed> {
        if d == 1 {
            if quiet::<S, T>(b, self.r, self.t) {
                return Ends::none();
            }
            let last = last_ply::<S, T>(b, self.r, self.t);
            if last.moves == 0 {
                return Ends::none();
            }
            let ratio = |m: u64| {
                if m == 0 {
                    Fixed(0)
                } else {
                    <Fixed as Weight>::ratio(m, last.moves)
                }
            };
            return Ends {
                mates: last.mates,
                stalemates: last.stalemates,
                p_mate: ratio(last.mates),
                p_stalemate: ratio(last.stalemates),
            };
        }
        let mut boards = std::mem::take(&mut self.boards[d as usize]);
        boards.clear();
        generate::<S, T, _>(b, self.r, self.t, &mut Children(&mut boards));
        let n = boards.len() as u64;
        let mut sums = Sums::new();
        match self.cache.filter(|_| d > 2) {
            None => {
                for child in &boards {
                    let value = self.t.node::<S::Other>(self, child, d - 1);
                    sums.add(&value, n);
                }
            }
            Some(cache) => {
                // Every child's key first, and its bucket asked for: the lookups then overlap.
                let mut keys = std::mem::take(&mut self.keys[d as usize]);
                keys.clear();
                for child in &boards {
                    let key = key_of::<S::Other>(child);
                    cache.prefetch(key, d - 1);
                    keys.push(key);
                }
                for (child, key) in boards.iter().zip(&keys) {
                    let value = match cache.get(*key, d - 1) {
                        Some(value) => value,
                        None => {
                            let value = self.t.node::<S::Other>(self, child, d - 1);
                            cache.put(*key, d - 1, &value);
                            value
                        }
                    };
                    sums.add(&value, n);
                }
                self.keys[d as usize] = keys;
            }
        }
        self.boards[d as usize] = boards;
        if n == 0 {
            return Ends::none();
        }
        sums.mean(n)
    }
}

/// The games from `pos` ending exactly `d >= 1` plies later, on the fast walk with `cache` (if
/// any) on up to `threads` threads, compiled for the instructions the counting path uses.
pub(super) fn fast_ends(
    pos: &Position,
    d: u32,
    cache: Option<&Cache>,
    threads: usize,
) -> Ends<Fixed> {
    fast_ends_on(pos, d, cache, threads, crate::perft::fast::instructions())
        .unwrap_or_else(|| split(pos, d, cache, threads, Portable))
}

/// [`fast_ends`] compiled for `instructions`; `None` when this CPU does not have them.
pub(super) fn fast_ends_on(
    pos: &Position,
    d: u32,
    cache: Option<&Cache>,
    threads: usize,
    instructions: Instructions,
) -> Option<Ends<Fixed>> {
    #[cfg(target_arch = "x86_64")]
    use crate::perft::fast::for_exact::Bmi2;
    match instructions {
        Instructions::Portable => Some(split(pos, d, cache, threads, Portable)),
        #[cfg(target_arch = "x86_64")]
        Instructions::Bmi2 => Bmi2::<false>::detect().map(|t| split(pos, d, cache, threads, t)),
        #[cfg(target_arch = "x86_64")]
        Instructions::Bmi2Pext => Bmi2::<true>::detect().map(|t| split(pos, d, cache, threads, t)),
        #[cfg(not(target_arch = "x86_64"))]
        _ => None,
    }
}

fn split<T: ExactTier + Send + Sync>(
    pos: &Position,
    d: u32,
    cache: Option<&Cache>,
    threads: usize,
    t: T,
) -> Ends<Fixed> {
    let (board, rules) = Board::from_position(pos);
    match pos.side_to_move() {
        Color::White => split_from::<White, T>(&board, &rules, d, cache, threads, t),
        Color::Black => split_from::<Black, T>(&board, &rules, d, cache, threads, t),
    }
}

fn walk_with<'a, T: ExactTier>(t: T, r: &'a Rules, cache: Option<&'a Cache>) -> Walk<'a, T> {
    let depths = super::MAX_EXACT_PLIES as usize + 1;
    Walk {
        t,
        r,
        cache,
        boards: vec![Vec::new(); depths],
        keys: vec![Vec::new(); depths],
    }
}

/// The root's value from the values of the boards two plies below it, computed on `threads`
/// threads (one: the plain recursion).
fn split_from<S: Side, T: ExactTier + Send + Sync>(
    b: &Board,
    r: &Rules,
    d: u32,
    cache: Option<&Cache>,
    threads: usize,
    t: T,
) -> Ends<Fixed> {
    if threads <= 1 || d < 3 {
        return t.node::<S>(&mut walk_with(t, r, cache), b, d);
    }
    let mut children = Vec::new();
    generate::<S, T, _>(b, r, t, &mut Children(&mut children));
    let grandchildren: Vec<Vec<Board>> = children
        .iter()
        .map(|c| {
            let mut below = Vec::new();
            generate::<S::Other, T, _>(c, r, t, &mut Children(&mut below));
            below
        })
        .collect();
    let pieces: Vec<(usize, usize)> = grandchildren
        .iter()
        .enumerate()
        .flat_map(|(i, g)| (0..g.len()).map(move |j| (i, j)))
        .collect();
    let values: Vec<std::sync::Mutex<Option<Ends<Fixed>>>> =
        pieces.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(pieces.len().max(1)) {
            scope.spawn(|| {
                let mut walk = walk_with(t, r, cache);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(i, j)) = pieces.get(k) else {
                        break;
                    };
                    let value = t.node::<S>(&mut walk, &grandchildren[i][j], d - 2);
                    *values[k].lock().unwrap_or_else(|e| e.into_inner()) = Some(value);
                }
            });
        }
    });
    let mut values = values.into_iter().map(|v| {
        v.into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .expect("every piece walked")
    });
    let n = children.len() as u64;
    let mut root = Sums::new();
    for below in &grandchildren {
        let m = below.len() as u64;
        let mut child = Sums::new();
        for _ in 0..m {
            child.add(&values.next().expect("one value per piece"), m);
        }
        let value = if m == 0 { Ends::none() } else { child.mean(m) };
        root.add(&value, n);
    }
    if n == 0 {
        return Ends::none();
    }
    root.mean(n)
}
