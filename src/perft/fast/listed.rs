//! The legal moves of a counting board in groups, in the order of the position's move list
//! (`movegen::bitboard`: the king; the knights; the bishops and queens along diagonals, then the
//! rooks and queens along lines, each square in turn; the pawns that are not pinned, then each
//! pinned pawn; en passant; castling), so that the `i`-th move here is the `i`-th move there and a
//! seeded random game plays the same moves on either (a test checks it on every suite position).
//! Random games draw an index and play only the move it names ([`Groups::find`]), never listing
//! the others.

use super::board::{Board, Rules};
use super::tier::Tier;
use super::{king, knight, ray, square, squares, Side};
use super::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::attacks::{line, pawn_attacks};
use crate::CastlingSide;

/// How the moves of a group are played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Play {
    /// The piece of this kind (a [`Board::pieces`] index) on the origin square, to each target.
    Piece(u8),
    /// Pawns to each target, from the square the origin (an index step) below: pushes by one
    /// and captures that do not promote.
    Pawn,
    /// Double pushes to each target.
    Double,
    /// Promotions to each target, four moves each (queen, rook, bishop, knight).
    Promotion,
    /// The pawn on the origin square takes en passant.
    EnPassant,
    /// Castling with this right (an index of [`Rules::castles`]).
    Castle(u8),
}

/// A group of legal moves.
#[derive(Clone, Copy, Debug)]
pub(super) struct Group {
    pub(super) targets: u64,
    /// Moves in the group.
    pub(super) count: u32,
    /// The origin square (pieces, en passant) or the index step from origin to target (pawns).
    pub(super) origin: i32,
    pub(super) play: Play,
}

/// The most groups a position can have: every piece of one side with its own group (a queen two),
/// plus seven for the unpinned pawns, seven for each pinned one, en passant and castling.
const MAX_GROUPS: usize = 128;

/// The legal moves of one board, as groups.
#[derive(Clone)]
pub(crate) struct Groups {
    groups: [Group; MAX_GROUPS],
    used: usize,
    total: usize,
}

impl Default for Groups {
    fn default() -> Groups {
        let empty = Group {
            targets: 0,
            count: 0,
            origin: 0,
            play: Play::Pawn,
        };
        Groups {
            groups: [empty; MAX_GROUPS],
            used: 0,
            total: 0,
        }
    }
}

impl Groups {
    /// The number of legal moves.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.total
    }

    /// Add a group; an empty one is written but not kept (no branch on the count, which is as
    /// often 0 as not for some groups). `used` stays below `MAX_GROUPS`, the most groups a
    /// position has; the mask only spares the bounds check.
    #[inline(always)]
    fn push(&mut self, targets: u64, count: u32, origin: i32, play: Play) {
        self.groups[self.used & (MAX_GROUPS - 1)] = Group {
            targets,
            count,
            origin,
            play,
        };
        self.used += usize::from(count > 0);
        self.total += count as usize;
    }

    #[inline(always)]
    fn targets(&mut self, targets: u64, origin: i32, play: Play) {
        let per_target = if play == Play::Promotion { 4 } else { 1 };
        self.push(targets, per_target * targets.count_ones(), origin, play);
    }

    /// The group of the `index`-th move, and the move's index within it.
    #[inline(always)]
    pub(super) fn find(&mut self, mut index: usize) -> (Group, usize) {
        for group in &self.groups[..self.used] {
            let count = group.count as usize;
            if index < count {
                return (*group, index);
            }
            index -= count;
        }
        unreachable!("index beyond the {} legal moves", self.total)
    }
}

/// The pieces of the side not to move that attack `sq` with `occupied` as the occupied squares.
#[inline(always)]
pub(super) fn attackers<S: Side, T: Tier>(b: &Board, t: T, sq: u32, occupied: u64) -> u64 {
    let enemy = &b.pieces[S::THEM];
    (knight(sq) & enemy[KNIGHT])
        | (pawn_attacks(S::COLOR, square(sq)).0 & enemy[PAWN])
        | (king(sq) & enemy[KING])
        | (t.rook(sq, occupied) & (enemy[ROOK] | enemy[QUEEN]))
        | (t.bishop(sq, occupied) & (enemy[BISHOP] | enemy[QUEEN]))
}

/// Every square the side not to move attacks, sliders seeing through `occupied`.
#[inline(always)]
fn attacked<S: Side, T: Tier>(b: &Board, t: T, occupied: u64) -> u64 {
    let enemy = &b.pieces[S::THEM];
    let mut attacked = <S::Other as Side>::west(enemy[PAWN])
        | <S::Other as Side>::east(enemy[PAWN])
        | king(enemy[KING].trailing_zeros());
    for from in squares(enemy[KNIGHT]) {
        attacked |= knight(from);
    }
    for from in squares(enemy[BISHOP] | enemy[QUEEN]) {
        attacked |= t.bishop(from, occupied);
    }
    for from in squares(enemy[ROOK] | enemy[QUEEN]) {
        attacked |= t.rook(from, occupied);
    }
    attacked
}

/// True when the pawn of the side to move on `from` may take en passant: no attacker of its
/// king is left once both pawns have gone (pins of the capturer, the rank pin through both
/// pawns, and a check the capture does or does not answer).
#[inline(always)]
pub(super) fn en_passant_is_legal<S: Side, T: Tier>(b: &Board, t: T, from: u32) -> bool {
    let captured = <S::Other as Side>::forward(b.en_passant);
    let occupied = ((b.occupied[0] | b.occupied[1]) ^ (1 << from) ^ captured) | b.en_passant;
    let king_sq = b.pieces[S::US][KING].trailing_zeros();
    attackers::<S, T>(b, t, king_sq, occupied) & !captured == 0
}

/// The pawns of the side to move that may take en passant on `b.en_passant` (0 when there is no
/// en passant square).
#[inline(always)]
fn en_passant_capturers<S: Side>(b: &Board) -> u64 {
    if b.en_passant == 0 {
        return 0;
    }
    let ep = square(b.en_passant.trailing_zeros());
    pawn_attacks(<S::Other as Side>::COLOR, ep).0 & b.pieces[S::US][PAWN]
}

/// True when the side to move has a legal en passant capture.
#[inline(always)]
pub(super) fn has_legal_en_passant<S: Side, T: Tier>(b: &Board, t: T) -> bool {
    squares(en_passant_capturers::<S>(b)).any(|from| en_passant_is_legal::<S, T>(b, t, from))
}

/// The legal moves of `b` (side `S` to move) into `groups`, in the position's list order.
#[inline(always)]
pub(super) fn generate<S: Side, T: Tier>(b: &Board, r: &Rules, t: T, groups: &mut Groups) {
    groups.used = 0;
    groups.total = 0;
    let ours = b.occupied[S::US];
    let theirs = b.occupied[S::THEM];
    let occupied = ours | theirs;
    let mine = &b.pieces[S::US];
    let enemy = &b.pieces[S::THEM];
    let king_sq = mine[KING].trailing_zeros();

    // The king: a few destinations tested one by one, more against one map of the enemy's
    // attacks, the king taken off the board so that it cannot hide behind itself.
    let without_king = occupied ^ mine[KING];
    let candidates = king(king_sq) & !ours;
    let safe = if candidates.count_ones() <= 2 {
        squares(candidates)
            .filter(|&sq| attackers::<S, T>(b, t, sq, without_king) == 0)
            .fold(0, |safe, sq| safe | 1 << sq)
    } else {
        candidates & !attacked::<S, T>(b, t, without_king)
    };
    groups.targets(safe, king_sq as i32, Play::Piece(KING as u8));

    // Enemy sliders seen from the king through our own pieces: with nothing between they
    // check, with one of ours alone between it is pinned.
    let snipers = (t.rook(king_sq, theirs) & (enemy[ROOK] | enemy[QUEEN]))
        | (t.bishop(king_sq, theirs) & (enemy[BISHOP] | enemy[QUEEN]));
    let mut checkers = (knight(king_sq) & enemy[KNIGHT])
        | (pawn_attacks(S::COLOR, square(king_sq)).0 & enemy[PAWN]);
    let mut pinned = 0;
    for sniper in squares(snipers) {
        let blockers = ray(king_sq, sniper) & occupied;
        if blockers == 0 {
            checkers |= 1 << sniper;
        } else if blockers & (blockers - 1) == 0 {
            pinned |= blockers & ours;
        }
    }
    if checkers.count_ones() > 1 {
        return;
    }
    let target = if checkers == 0 {
        !ours
    } else {
        ray(king_sq, checkers.trailing_zeros()) | checkers
    };
    let pin_line = |from: u32| {
        if pinned & 1 << from != 0 {
            line(square(king_sq), square(from)).0
        } else {
            !0
        }
    };

    for from in squares(mine[KNIGHT] & !pinned) {
        groups.targets(
            knight(from) & target,
            from as i32,
            Play::Piece(KNIGHT as u8),
        );
    }
    let kind = |from: u32, other: usize| {
        if mine[QUEEN] & 1 << from != 0 {
            QUEEN
        } else {
            other
        }
    };
    for from in squares(mine[BISHOP] | mine[QUEEN]) {
        let targets = t.bishop(from, occupied) & target & pin_line(from);
        groups.targets(targets, from as i32, Play::Piece(kind(from, BISHOP) as u8));
    }
    for from in squares(mine[ROOK] | mine[QUEEN]) {
        let targets = t.rook(from, occupied) & target & pin_line(from);
        groups.targets(targets, from as i32, Play::Piece(kind(from, ROOK) as u8));
    }

    pawn_moves::<S>(b, mine[PAWN] & !pinned, target, groups);
    if checkers == 0 {
        for pawn in squares(mine[PAWN] & pinned) {
            pawn_moves::<S>(b, 1 << pawn, target & pin_line(pawn), groups);
        }
    }
    for from in squares(en_passant_capturers::<S>(b)) {
        if en_passant_is_legal::<S, T>(b, t, from) {
            groups.push(0, 1, from as i32, Play::EnPassant);
        }
    }
    if checkers == 0 {
        for side in CastlingSide::ALL {
            let right = S::US * 2 + side.index();
            let c = &r.castles[right];
            if b.unmoved & c.need != c.need || occupied & c.empty != 0 {
                continue;
            }
            let without_rook = occupied ^ c.rook;
            if squares(c.path).all(|sq| attackers::<S, T>(b, t, sq, without_rook) == 0) {
                groups.push(0, 1, 0, Play::Castle(right as u8));
            }
        }
    }
}

/// Pushes, double pushes, captures and promotions of `pawns`, landing only on `allowed`.
#[inline(always)]
fn pawn_moves<S: Side>(b: &Board, pawns: u64, allowed: u64, groups: &mut Groups) {
    if pawns == 0 {
        return;
    }
    let empty = !(b.occupied[0] | b.occupied[1]);
    let enemies = b.occupied[S::THEM] & allowed;
    let single = S::forward(pawns) & empty;
    let double = S::forward(single & S::THIRD_RANK) & empty & allowed;
    let single = single & allowed;
    let west = S::west(pawns) & enemies;
    let east = S::east(pawns) & enemies;
    let last = S::LAST_RANK;
    groups.targets(single & !last, S::PUSH, Play::Pawn);
    groups.targets(double, 2 * S::PUSH, Play::Double);
    groups.targets(west & !last, S::WEST, Play::Pawn);
    groups.targets(east & !last, S::EAST, Play::Pawn);
    if (single | west | east) & last != 0 {
        groups.targets(single & last, S::PUSH, Play::Promotion);
        groups.targets(west & last, S::WEST, Play::Promotion);
        groups.targets(east & last, S::EAST, Play::Promotion);
    }
}
