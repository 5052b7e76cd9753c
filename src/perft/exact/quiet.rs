//! The last ply's shortcut: on almost every board no move mates or stalemates, and that can be
//! shown without generating every move, so that the board's value (zero, whatever its number
//! of moves) needs no count at all.
//!
//! A board is *quiet* when both hold:
//! - **No stalemate.** The opponent has at least two *witnesses* off every line through its
//!   king (three when we may castle): a knight with a move to a square not its own side's, a
//!   slider with a step to such a square next to it, a pawn with the square ahead empty. Off
//!   those lines no move of ours can pin the piece; a witness is taken away only by a move
//!   landing on the piece or (a pawn) in front of it. A move of ours lands on one square (on
//!   two when castling), so one witness stays, and the opponent, not in check, keeps a legal
//!   move: no stalemate.
//! - **No mate.** Every legal move of ours that may give check (landing where its piece attacks
//!   their king as the board stands, or moving a piece that alone shields that king from one of
//!   our sliders: [`CheckSquares`]) is made, and the opponent has a legal reply. Only those
//!   moves are generated, with the legality rules of the counting path's generator (the checks
//!   on our king, our pinned pieces). A castling move that gives check (made whether legal or
//!   not), en passant (when a pawn of ours can take on the square passed) and promotions are
//!   not shortcut: the board is then counted in full.
//!
//! Anything else (we are in double check, our king shields a discovered check) is counted in
//! full too. The tests check the shortcut against the full count on boards rich in mates,
//! stalemates, pins, castling and en passant.

use super::leaf::{ending, in_check, CheckSquares, Movers};
use crate::attacks::knight_attacks;
use crate::perft::bits::{shift, square, squares, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::perft::fast::for_exact::{king_danger, open_castles, pawn_targets};
use crate::perft::fast::for_exact::{Board, Rules, Side, Tier};
use crate::Bitboard;

/// The light squares.
const LIGHT: u64 = Bitboard::LIGHT.0;

/// True when `b` (side `S` to move) is shown to have no legal move that mates or stalemates;
/// false when that is not shown (count it in full).
#[inline(always)]
pub(super) fn quiet<S: Side, T: Tier>(b: &Board, r: &Rules, t: T) -> bool {
    let (us, them) = (S::US, S::THEM);
    let pawns = b.set(us, PAWN);
    if S::forward(pawns) & S::LAST_RANK != 0 {
        return false;
    }
    if b.takeable_en_passant::<S>() != 0 {
        return false;
    }
    let ours = b.side_set(us);
    let theirs = b.side_set(them);
    let occupied = ours | theirs;
    let (castles, _) = open_castles::<S>(b, r, occupied);
    if !witnessed::<S, T>(b, t, if castles == 0 { 2 } else { 3 }) {
        return false;
    }
    for side in squares(castles) {
        let after = b.after_castle::<S>(r, S::US * 2 + side as usize);
        if in_check::<S::Other, T>(&after, t) {
            return false;
        }
    }

    // Our king: its checkers and our pinned pieces, as the generator finds them.
    let king_sq = b.set(us, KING).trailing_zeros();
    let (checkers, orth, diag) = king_danger::<S, T>(b, t, king_sq, ours, theirs);
    let check = match checkers.count_ones() {
        0 => !0,
        1 => orth.check_rays | diag.check_rays | checkers,
        _ => return false,
    };
    let checks = CheckSquares::new::<S, T>(b, t);
    if checks.discoverers & b.set(us, KING) != 0 {
        return false;
    }
    let movable = !ours & check;
    let (pin_orth, pin_diag) = (orth.pins, diag.pins);
    let free = !(pin_orth | pin_diag);
    let mate = Mate {
        b,
        r,
        t,
        checks: &checks,
    };

    for from in squares(b.set(us, KNIGHT) & free) {
        let targets = knight_attacks(square(from)).0 & movable;
        if mate.among::<S, KNIGHT>(from, targets) {
            return false;
        }
    }
    for from in squares(b.set(us, BISHOP) & (free | pin_diag)) {
        let on_pin = if free & 1 << from != 0 { !0 } else { pin_diag };
        // A bishop stays on its colour: one on the other colour than their king's diagonals
        // (a direct check) needs no lookup.
        let colour = if LIGHT & 1 << from != 0 {
            LIGHT
        } else {
            !LIGHT
        };
        let targets = mate.wanted::<BISHOP>(from) & movable & on_pin & colour;
        if targets != 0 && mate.among::<S, BISHOP>(from, t.bishop(from, occupied) & targets) {
            return false;
        }
    }
    for from in squares(b.set(us, ROOK) & (free | pin_orth)) {
        let on_pin = if free & 1 << from != 0 { !0 } else { pin_orth };
        let targets = mate.wanted::<ROOK>(from) & movable & on_pin;
        if targets != 0 && mate.among::<S, ROOK>(from, t.rook(from, occupied) & targets) {
            return false;
        }
    }
    for from in squares(b.set(us, QUEEN)) {
        let bit = 1u64 << from;
        let reach = if free & bit != 0 {
            t.bishop(from, occupied) | t.rook(from, occupied)
        } else if pin_diag & bit != 0 {
            t.bishop(from, occupied) & pin_diag
        } else {
            t.rook(from, occupied) & pin_orth
        };
        if mate.among::<S, QUEEN>(from, reach & movable & mate.wanted::<QUEEN>(from)) {
            return false;
        }
    }

    let [single, double, west, east] =
        pawn_targets::<S>(pawns, !occupied, theirs & check, check, pin_orth, pin_diag);
    let pawn_checks =
        |targets: u64, delta: i32| targets & (checks.pawn | shift(checks.discoverers, delta));
    for to in squares(pawn_checks(single, S::PUSH)) {
        let from = (to as i32 - S::PUSH) as u32;
        if ending::<S, T>(&b.after_push::<S>(from, to, 0), r, t).is_some() {
            return false;
        }
    }
    for to in squares(pawn_checks(double, 2 * S::PUSH)) {
        let from = (to as i32 - 2 * S::PUSH) as u32;
        let ep = 1 << ((to as i32 - S::PUSH) as u32);
        if ending::<S, T>(&b.after_push::<S>(from, to, ep), r, t).is_some() {
            return false;
        }
    }
    for (targets, delta) in [(west, S::WEST), (east, S::EAST)] {
        for to in squares(pawn_checks(targets, delta)) {
            let from = (to as i32 - delta) as u32;
            if ending::<S, T>(&b.after_piece::<S, PAWN>(from, to), r, t).is_some() {
                return false;
            }
        }
    }
    true
}

/// True when the opponent (`S::Other`) has `need` witnesses off the lines through its king.
#[inline(always)]
fn witnessed<S: Side, T: Tier>(b: &Board, t: T, need: u32) -> bool {
    let king = b.set(S::THEM, KING).trailing_zeros();
    let lines = t.rook(king, 0) | t.bishop(king, 0);
    let pieces = Movers::new::<S>(b);
    let mut found = 0;
    for f in squares(pieces.all() & !lines) {
        if pieces.can_move(f) {
            found += 1;
            if found == need {
                return true;
            }
        }
    }
    false
}

/// The moves that may mate, and the test of each.
struct Mate<'a, T> {
    b: &'a Board,
    r: &'a Rules,
    t: T,
    checks: &'a CheckSquares,
}

impl<T: Tier> Mate<'_, T> {
    /// The destinations from which a piece of kind `KIND` on `from` may give check.
    #[inline(always)]
    fn wanted<const KIND: usize>(&self, from: u32) -> u64 {
        if self.checks.discoverers & 1 << from != 0 {
            !0
        } else {
            self.checks.of::<KIND>()
        }
    }

    /// True when a move of the piece of kind `KIND` on `from` to one of `targets` (legal) that
    /// may give check ends the game.
    #[inline(always)]
    fn among<S: Side, const KIND: usize>(&self, from: u32, targets: u64) -> bool {
        squares(targets & self.wanted::<KIND>(from)).any(|to| {
            ending::<S, T>(&self.b.after_piece::<S, KIND>(from, to), self.r, self.t).is_some()
        })
    }
}
