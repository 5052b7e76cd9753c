//! The counting path of perft: nothing but what a leaf count needs, after Gigantua's design.
//!
//! - Copy-make of a small board (`Board`: twelve piece bitboards, the two occupancies, the en
//!   passant square and the home squares of castling kings and rooks not yet moved from or
//!   captured on, which stand for the castling rights; no Zobrist key, no mailbox, no clocks).
//! - No move list: each group of moves (a piece and its destination set, or all pawns making one
//!   kind of move) goes to a `Visit`or, which either counts it by population count (the last
//!   ply) or plays each move and recurses.
//! - The side to move is a type (`White`, `Black`), so every colour-dependent shift and index
//!   is a constant.
//! - Legal-only generation from masks computed once per node: the check mask, separate
//!   orthogonal and diagonal pin masks (pinned pieces found by seeing through our own pieces from
//!   the king), and which of the king's destinations and castling paths the enemy attacks with
//!   our king taken off the board (square by square when there are two or fewer, else from a map
//!   of all the enemy attacks).
//!
//! Everything stays exact in general: double checks of any kind, en passant decided by looking at
//! the king's attackers after the capture, castling rights by king and rook square (Chess960
//! included), lost when the king or that rook moves or the rook is captured, and Chess960
//! castling tested with the castling rook taken off the board. The tests compare it to the
//! position-based perft.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::perft::bits::{square, squares, FILE_A, FILE_H};
use crate::perft::bits::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::{Bitboard, Color, Position};

/// The side to move, as a type.
pub(crate) trait Side {
    const COLOR: Color;
    const US: usize;
    const THEM: usize;
    /// Our back rank.
    const BACK_RANK: u64;
    /// The rank a single push lands on when a double push is possible.
    const THIRD_RANK: u64;
    /// The promotion rank.
    const LAST_RANK: u64;
    /// Index step of a push (`to = from + PUSH`); captures towards the a- and h-file likewise.
    const PUSH: i32;
    const WEST: i32;
    const EAST: i32;
    type Other: Side;

    /// The set moved one rank forward.
    fn forward(set: u64) -> u64;
    /// The set's captures towards the a-file, and towards the h-file.
    fn west(set: u64) -> u64;
    fn east(set: u64) -> u64;
}

/// White to move.
pub(crate) struct White;
/// Black to move.
pub(crate) struct Black;

impl Side for White {
    const COLOR: Color = Color::White;
    const US: usize = 0;
    const THEM: usize = 1;
    const BACK_RANK: u64 = 0xFF;
    const THIRD_RANK: u64 = 0xFF << 16;
    const LAST_RANK: u64 = 0xFF << 56;
    const PUSH: i32 = 8;
    const WEST: i32 = 7;
    const EAST: i32 = 9;
    type Other = Black;

    #[inline(always)]
    fn forward(set: u64) -> u64 {
        set << 8
    }
    #[inline(always)]
    fn west(set: u64) -> u64 {
        (set & !FILE_A) << 7
    }
    #[inline(always)]
    fn east(set: u64) -> u64 {
        (set & !FILE_H) << 9
    }
}

impl Side for Black {
    const COLOR: Color = Color::Black;
    const US: usize = 1;
    const THEM: usize = 0;
    const BACK_RANK: u64 = 0xFF << 56;
    const THIRD_RANK: u64 = 0xFF << 40;
    const LAST_RANK: u64 = 0xFF;
    const PUSH: i32 = -8;
    const WEST: i32 = -9;
    const EAST: i32 = -7;
    type Other = White;

    #[inline(always)]
    fn forward(set: u64) -> u64 {
        set >> 8
    }
    #[inline(always)]
    fn west(set: u64) -> u64 {
        (set & !FILE_A) >> 9
    }
    #[inline(always)]
    fn east(set: u64) -> u64 {
        (set & !FILE_H) >> 7
    }
}

mod board;
pub(crate) mod for_exact;
pub mod hashed;
mod key;
mod listed;
pub mod playout;
#[cfg(test)]
mod random_positions;
#[cfg(test)]
mod tests;
mod tier;
mod two_ply;

use board::{Board, Rules};
use std::sync::OnceLock;
pub use tier::Instructions;
use tier::Tier;

#[inline(always)]
fn rook(sq: u32, occupied: u64) -> u64 {
    rook_attacks(square(sq), Bitboard(occupied)).0
}

#[inline(always)]
fn bishop(sq: u32, occupied: u64) -> u64 {
    bishop_attacks(square(sq), Bitboard(occupied)).0
}

#[inline(always)]
fn knight(sq: u32) -> u64 {
    knight_attacks(square(sq)).0
}

#[inline(always)]
fn king(sq: u32) -> u64 {
    king_attacks(square(sq)).0
}

#[inline(always)]
fn ray(a: u32, b: u32) -> u64 {
    between(square(a), square(b)).0
}

/// Receives the legal moves of a node in groups.
pub(crate) trait Visit {
    /// The piece of kind `KIND` on `from` moving to each of `targets` (captures included).
    fn piece<S: Side, const KIND: usize>(&mut self, b: &Board, r: &Rules, from: u32, targets: u64);
    /// Pawn moves to each of `targets`, from the square `delta` below: single pushes
    /// (`DOUBLE` false) or double pushes.
    fn push<S: Side, const DOUBLE: bool>(&mut self, b: &Board, r: &Rules, targets: u64, delta: i32);
    /// Pawn captures (not promotions) to each of `targets`, from `delta` below.
    fn capture<S: Side>(&mut self, b: &Board, r: &Rules, targets: u64, delta: i32);
    /// Promotions (pushes or captures) to each of `targets`, four moves each.
    fn promote<S: Side>(&mut self, b: &Board, r: &Rules, targets: u64, delta: i32);
    /// An en passant capture from `from` to the en passant square.
    fn en_passant<S: Side>(&mut self, b: &Board, r: &Rules, from: u64);
    /// Castling with right `right` (an index of [`Rules::castles`]).
    fn castle<S: Side>(&mut self, b: &Board, r: &Rules, right: usize);
}

/// What the enemy sliders of one kind, seen from our king through our own pieces, do to it.
pub(crate) struct Snipers {
    /// Those with none of our pieces between: they check.
    pub(crate) checkers: u64,
    /// The squares between those checkers and the king.
    pub(crate) check_rays: u64,
    /// The rays (sniper included) of those with exactly one of ours between: it is pinned.
    pub(crate) pins: u64,
}

impl Snipers {
    /// No sniper.
    pub(crate) const NONE: Snipers = Snipers {
        checkers: 0,
        check_rays: 0,
        pins: 0,
    };
}

/// What the enemy sliders `snipers` (seen from the king on `king_sq` through `ours`) do to it.
#[inline(always)]
pub(crate) fn snipers(snipers: u64, king_sq: u32, ours: u64) -> Snipers {
    let mut found = Snipers {
        checkers: 0,
        check_rays: 0,
        pins: 0,
    };
    for sniper in squares(snipers) {
        let between = ray(king_sq, sniper);
        let blockers = between & ours;
        if blockers == 0 {
            found.checkers |= 1 << sniper;
            found.check_rays |= between;
        } else if blockers & (blockers - 1) == 0 {
            found.pins |= between | 1 << sniper;
        }
    }
    found
}

/// The en passant square (as a bit) that a pawn push by `delta` to `to` leaves: the square it
/// passed on a double step, none on a single one.
#[inline(always)]
pub(crate) fn passed<const DOUBLE: bool>(to: u32, delta: i32) -> u64 {
    if DOUBLE {
        1 << ((to as i32 - delta / 2) as u32)
    } else {
        0
    }
}

/// Side `S`'s king on `king_sq`: its checkers (leapers, then sliders seen from the king through
/// our own pieces: a slider with none of ours between checks, one with exactly one of ours pins
/// it), and what the enemy's rook-like and bishop-like sliders do to it.
#[inline(always)]
pub(crate) fn king_danger<S: Side, T: Tier>(
    b: &Board,
    t: T,
    king_sq: u32,
    ours: u64,
    theirs: u64,
) -> (u64, Snipers, Snipers) {
    let enemy = &b.pieces[S::THEM];
    let their_orth = enemy[ROOK] | enemy[QUEEN];
    let their_diag = enemy[BISHOP] | enemy[QUEEN];
    let leapers = (knight(king_sq) & enemy[KNIGHT])
        | (pawn_attacks(S::COLOR, square(king_sq)).0 & enemy[PAWN]);
    // No lookup for a kind of slider the enemy has none of (endings).
    let orth = if their_orth != 0 {
        snipers(t.rook(king_sq, theirs) & their_orth, king_sq, ours)
    } else {
        Snipers::NONE
    };
    let diag = if their_diag != 0 {
        snipers(t.bishop(king_sq, theirs) & their_diag, king_sq, ours)
    } else {
        Snipers::NONE
    };
    (leapers | orth.checkers | diag.checkers, orth, diag)
}

/// Generates the legal moves of `b` (side `S` to move) into `v`.
#[inline(always)]
pub(crate) fn generate<S: Side, T: Tier, V: Visit>(b: &Board, r: &Rules, t: T, v: &mut V) {
    let (us, them) = (S::US, S::THEM);
    let ours = b.occupied[us];
    let theirs = b.occupied[them];
    let occupied = ours | theirs;
    let king_bb = b.pieces[us][KING];
    let king_sq = king_bb.trailing_zeros();
    let enemy = &b.pieces[them];
    let their_orth = enemy[ROOK] | enemy[QUEEN];
    let their_diag = enemy[BISHOP] | enemy[QUEEN];
    let (checkers, orth, diag) = king_danger::<S, T>(b, t, king_sq, ours, theirs);
    let check_rays = orth.check_rays | diag.check_rays;
    let (pin_orth, pin_diag) = (orth.pins, diag.pins);

    // Castling rights that hold, out of check, with the squares between king and rook empty:
    // their king paths still need testing for attacks.
    // (Bit `i` of `castles` stands for right `S::US * 2 + i` of [`Rules::castles`].)
    let mut castles = 0u64;
    let mut probe = king(king_sq) & !ours;
    if checkers == 0 {
        let (open, paths) = open_castles::<S>(b, r, occupied);
        castles = open;
        probe |= paths;
    }

    // Which of the king's destinations and castling paths the enemy attacks, tested with our
    // king off the board (it cannot hide behind itself): one square at a time when there are
    // few, else from a map of every square the enemy attacks.
    let without_king = occupied ^ king_bb;
    let danger = if probe.count_ones() <= 2 {
        let mut danger = 0;
        for sq in squares(probe) {
            let attackers = (knight(sq) & enemy[KNIGHT])
                | (pawn_attacks(S::COLOR, square(sq)).0 & enemy[PAWN])
                | (king(sq) & enemy[KING])
                | if their_orth != 0 {
                    t.rook(sq, without_king) & their_orth
                } else {
                    0
                }
                | if their_diag != 0 {
                    t.bishop(sq, without_king) & their_diag
                } else {
                    0
                };
            danger |= u64::from(attackers != 0) << sq;
        }
        danger
    } else {
        let mut danger = <S::Other as Side>::west(enemy[PAWN])
            | <S::Other as Side>::east(enemy[PAWN])
            | king(enemy[KING].trailing_zeros());
        for from in squares(enemy[KNIGHT]) {
            danger |= knight(from);
        }
        for from in squares(their_diag) {
            danger |= t.bishop(from, without_king);
        }
        for from in squares(their_orth) {
            danger |= t.rook(from, without_king);
        }
        danger
    };
    let king_targets = king(king_sq) & !ours & !danger;
    v.piece::<S, KING>(b, r, king_sq, king_targets);

    let check = match checkers.count_ones() {
        0 => !0,
        1 => check_rays | checkers,
        _ => return,
    };
    let movable = !ours & check;
    let pinned = pin_orth | pin_diag;
    let mine = &b.pieces[us];

    // Pieces that are not pinned go anywhere `movable`; a pinned one only along its pin (a
    // pinned knight nowhere, a bishop pinned on a line nowhere, a rook pinned on a diagonal
    // nowhere). Pins are rare, so their loops sit behind one test.
    let free = !pinned;
    for from in squares(mine[KNIGHT] & free) {
        v.piece::<S, KNIGHT>(b, r, from, knight(from) & movable);
    }
    for from in squares(mine[BISHOP] & free) {
        v.piece::<S, BISHOP>(b, r, from, t.bishop(from, occupied) & movable);
    }
    for from in squares(mine[ROOK] & free) {
        v.piece::<S, ROOK>(b, r, from, t.rook(from, occupied) & movable);
    }
    for from in squares(mine[QUEEN] & free) {
        let targets = (t.bishop(from, occupied) | t.rook(from, occupied)) & movable;
        v.piece::<S, QUEEN>(b, r, from, targets);
    }
    if pinned & !mine[PAWN] != 0 {
        for from in squares(mine[BISHOP] & pin_diag) {
            v.piece::<S, BISHOP>(b, r, from, t.bishop(from, occupied) & movable & pin_diag);
        }
        for from in squares(mine[ROOK] & pin_orth) {
            v.piece::<S, ROOK>(b, r, from, t.rook(from, occupied) & movable & pin_orth);
        }
        for from in squares(mine[QUEEN] & pin_diag) {
            v.piece::<S, QUEEN>(b, r, from, t.bishop(from, occupied) & movable & pin_diag);
        }
        for from in squares(mine[QUEEN] & pin_orth) {
            v.piece::<S, QUEEN>(b, r, from, t.rook(from, occupied) & movable & pin_orth);
        }
    }

    let pawns = mine[PAWN];
    let [single, double, west, east] =
        pawn_targets::<S>(pawns, !occupied, theirs & check, check, pin_orth, pin_diag);
    let last = S::LAST_RANK;
    v.push::<S, false>(b, r, single & !last, S::PUSH);
    v.push::<S, true>(b, r, double, 2 * S::PUSH);
    v.capture::<S>(b, r, west & !last, S::WEST);
    v.capture::<S>(b, r, east & !last, S::EAST);
    if (single | west | east) & last != 0 {
        v.promote::<S>(b, r, single & last, S::PUSH);
        v.promote::<S>(b, r, west & last, S::WEST);
        v.promote::<S>(b, r, east & last, S::EAST);
    }

    if b.en_passant != 0 {
        // Decided by the king's attackers after the capture: covers pins of the capturing pawn,
        // the rank pin through both pawns, and checks the capture does or does not answer.
        let ep = b.en_passant;
        let captured = <S::Other as Side>::forward(ep);
        let ep_sq = ep.trailing_zeros();
        for from in squares(pawn_attacks(<S::Other as Side>::COLOR, square(ep_sq)).0 & pawns) {
            let after = occupied ^ (1 << from) ^ captured ^ ep;
            let attackers = (t.rook(king_sq, after) & their_orth)
                | (t.bishop(king_sq, after) & their_diag)
                | (knight(king_sq) & enemy[KNIGHT])
                | (pawn_attacks(S::COLOR, square(king_sq)).0 & enemy[PAWN] & !captured);
            if attackers == 0 {
                v.en_passant::<S>(b, r, 1 << from);
            }
        }
    }

    for side in squares(castles) {
        let right = S::US * 2 + side as usize;
        let c = &r.castles[right];
        if danger & c.path != 0 {
            continue;
        }
        // The castling rook may have shielded its path from a rook or queen on the back
        // rank (Chess960): look again with the king and that rook off the board.
        let behind = their_orth & S::BACK_RANK;
        let after = occupied ^ c.king ^ c.rook;
        if squares(behind).any(|from| t.rook(from, after) & c.path != 0) {
            continue;
        }
        v.castle::<S>(b, r, right);
    }
}

/// The castling rights of side `S` that hold on `b` with the squares between king and rook
/// empty (bit `i` for right `S::US * 2 + i` of [`Rules::castles`]), and their king paths, which
/// still need testing for attacks (as does being in check).
#[inline(always)]
pub(crate) fn open_castles<S: Side>(b: &Board, r: &Rules, occupied: u64) -> (u64, u64) {
    let (mut castles, mut paths) = (0, 0);
    if b.unmoved & S::BACK_RANK != 0 {
        for side in 0..2 {
            let c = &r.castles[S::US * 2 + side];
            if b.unmoved & c.need == c.need && occupied & c.empty == 0 {
                castles |= 1 << side;
                paths |= c.path;
            }
        }
    }
    (castles, paths)
}

/// Where side `S`'s pawns go: single pushes, double pushes, and captures towards the a-file and
/// towards the h-file (promotions among them), given the empty squares, the squares they may
/// capture on, the check mask (all squares when not in check) and the pin rays. A pawn pinned on a
/// diagonal cannot push, one pinned on a line cannot capture; a pinned pawn's destination stays
/// on the pin rays (which no other move of a pawn pinned elsewhere can reach).
#[inline(always)]
pub(crate) fn pawn_targets<S: Side>(
    pawns: u64,
    empty: u64,
    targets: u64,
    check: u64,
    pin_orth: u64,
    pin_diag: u64,
) -> [u64; 4] {
    let (single, west, east) = if pawns & (pin_orth | pin_diag) == 0 {
        (
            S::forward(pawns) & empty,
            S::west(pawns) & targets,
            S::east(pawns) & targets,
        )
    } else {
        let pushers = pawns & !pin_diag;
        let single = (S::forward(pushers & !pin_orth) & empty)
            | (S::forward(pushers & pin_orth) & empty & pin_orth);
        let capturers = pawns & !pin_orth;
        let (free, pinned_diag) = (capturers & !pin_diag, capturers & pin_diag);
        (
            single,
            (S::west(free) | (S::west(pinned_diag) & pin_diag)) & targets,
            (S::east(free) | (S::east(pinned_diag) & pin_diag)) & targets,
        )
    };
    let double = S::forward(single & S::THIRD_RANK) & empty & check;
    [single & check, double, west, east]
}

/// The number of moves of side `S`'s pawns (see [`pawn_targets`]), promotions four each.
#[inline(always)]
fn pawn_moves<S: Side>(pawns: u64, empty: u64, targets: u64, pin_orth: u64, pin_diag: u64) -> u32 {
    let [single, double, west, east] =
        pawn_targets::<S>(pawns, empty, targets, !0, pin_orth, pin_diag);
    let last = S::LAST_RANK;
    let moves = |set: u64| (set & !last).count_ones() + 4 * (set & last).count_ones();
    moves(single) + double.count_ones() + moves(west) + moves(east)
}

/// Counts the moves of a node by population counts.
struct Count(u64);

impl Visit for Count {
    #[inline(always)]
    fn piece<S: Side, const KIND: usize>(&mut self, _: &Board, _: &Rules, _: u32, targets: u64) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn push<S: Side, const DOUBLE: bool>(&mut self, _: &Board, _: &Rules, targets: u64, _: i32) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn capture<S: Side>(&mut self, _: &Board, _: &Rules, targets: u64, _: i32) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn promote<S: Side>(&mut self, _: &Board, _: &Rules, targets: u64, _: i32) {
        self.0 += 4 * u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, _: &Board, _: &Rules, _: u64) {
        self.0 += 1;
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, _: &Board, _: &Rules, _: usize) {
        self.0 += 1;
    }
}

/// Plays each move and counts below it.
struct Recurse<T: Tier> {
    depth: u32,
    nodes: u64,
    tier: T,
}

impl<T: Tier> Recurse<T> {
    #[inline(always)]
    fn below<S: Side>(&mut self, child: &Board, r: &Rules) {
        self.nodes += self.tier.below::<S::Other>(child, r, self.depth);
    }
}

impl<T: Tier> Visit for Recurse<T> {
    #[inline(always)]
    fn piece<S: Side, const KIND: usize>(&mut self, b: &Board, r: &Rules, from: u32, targets: u64) {
        for to in squares(targets) {
            self.below::<S>(&b.after_piece::<S, KIND>(from, to), r);
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
            let ep = passed::<DOUBLE>(to, delta);
            self.below::<S>(&b.after_push::<S>(from, to, ep), r);
        }
    }
    #[inline(always)]
    fn capture<S: Side>(&mut self, b: &Board, r: &Rules, targets: u64, delta: i32) {
        for to in squares(targets) {
            let from = (to as i32 - delta) as u32;
            self.below::<S>(&b.after_piece::<S, PAWN>(from, to), r);
        }
    }
    #[inline(always)]
    fn promote<S: Side>(&mut self, b: &Board, r: &Rules, targets: u64, delta: i32) {
        for to in squares(targets) {
            let from = (to as i32 - delta) as u32;
            for kind in [QUEEN, ROOK, BISHOP, KNIGHT] {
                self.below::<S>(&b.after_promotion::<S>(from, to, kind), r);
            }
        }
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, b: &Board, r: &Rules, from: u64) {
        self.below::<S>(&b.after_en_passant::<S>(from), r);
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, b: &Board, r: &Rules, right: usize) {
        self.below::<S>(&b.after_castle::<S>(r, right), r);
    }
}

/// Leaves below `b` (side `S` to move) at `depth` ≥ 1, the children counted by `tier`; inlined
/// into each tier's entry point so that it is compiled with that tier's instructions.
#[inline(always)]
fn count_below<S: Side, T: Tier>(b: &Board, r: &Rules, depth: u32, tier: T) -> u64 {
    if depth <= 1 {
        let mut count = Count(0);
        generate::<S, T, _>(b, r, tier, &mut count);
        count.0
    } else if depth == 2 {
        two_ply::count_two::<S, T>(b, r, tier)
    } else {
        let mut recurse = Recurse {
            depth: depth - 1,
            nodes: 0,
            tier,
        };
        generate::<S, T, _>(b, r, tier, &mut recurse);
        recurse.nodes
    }
}

/// Perft of `pos` to `depth` on the counting path, with the fastest instructions this CPU runs
/// (or those `SHANNON_PERFT_INSTRUCTIONS` names: [`Instructions::chosen`], read once).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_on(pos, depth, instructions()).unwrap_or_else(|| perft_with(pos, depth, tier::Portable))
}

/// The instructions [`perft`] counts with.
pub fn instructions() -> Instructions {
    static CHOSEN: OnceLock<Instructions> = OnceLock::new();
    *CHOSEN.get_or_init(Instructions::chosen)
}

/// Perft of `pos` to `depth` on the counting path compiled for `instructions` (each the checked
/// twin of the others); `None` when this CPU does not have them.
pub fn perft_on(pos: &Position, depth: u32, instructions: Instructions) -> Option<u64> {
    match instructions {
        Instructions::Portable => Some(perft_with(pos, depth, tier::Portable)),
        #[cfg(target_arch = "x86_64")]
        Instructions::Bmi2 => tier::Bmi2::<false>::detect().map(|t| perft_with(pos, depth, t)),
        #[cfg(target_arch = "x86_64")]
        Instructions::Bmi2Pext => tier::Bmi2::<true>::detect().map(|t| perft_with(pos, depth, t)),
        #[cfg(not(target_arch = "x86_64"))]
        _ => None,
    }
}

fn perft_with<T: Tier>(pos: &Position, depth: u32, tier: T) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (board, rules) = Board::from_position(pos);
    match pos.side_to_move() {
        Color::White => tier.below::<White>(&board, &rules, depth),
        Color::Black => tier.below::<Black>(&board, &rules, depth),
    }
}
