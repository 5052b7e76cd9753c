//! The last two plies counted together. At a board two plies above the leaves, the opponent's
//! moves are counted once, on the board as it stands with the opponent to move (the null move:
//! MPerft 5.1's "nullmove counting at the penultimate ply"), and most moves of ours are never
//! made: their replies are that count plus a difference worked out from what the move changes.
//!
//! Every move of ours falls in one of three kinds:
//! - **Near the king**: the move touches what the opponent king's moves, its checks or its pins
//!   depend on (see below), or it is castling, en passant, or a double push its pawns could take
//!   en passant. It is made and its replies counted in full, as one ply above.
//! - **Quiet**: it touches nothing the opponent's moves depend on; its replies are the null
//!   move's count.
//! - **Counted by difference**: its squares lie on the rays of unpinned sliders of the opponent,
//!   on the squares its pawns move or capture to, or it captures an unpinned piece. The replies
//!   are the null move's count plus, for each slider whose rays it touches, that slider's moves
//!   recounted after the move (one attack lookup), plus the pawns' moves recounted (a few
//!   shifts), minus the captured piece's moves, plus one for each of its knights that now
//!   captures on the destination.
//!
//! The opponent king's zone is its square, the squares around it, and the king paths of its
//! castling rights that can happen. A move is near the king when either of its squares is in the
//! zone or on a castling right's squares (those that must be empty, and the rook's); when the
//! moving piece attacks a square of the zone (or, as a slider, sees the king through one of the
//! opponent's pieces: a pin) from either square; when either square lies where one of our
//! sliders and a zone square see each other (our attacks on the zone change); or on a line from
//! the king to one of our sliders with at most two pieces between (a pin or a discovered check
//! appears or goes). Each of those is a mask made once per board, so a group of moves (a piece
//! and its destinations, or a set of pawn pushes) is sorted by a few `and`s.
//!
//! Tested against the count that makes every move, on every suite position and on random
//! placements rich in pins, checks, en passant and castling (`random_positions`).

use super::board::{Board, Rules};
use super::tier::Tier;
use super::{generate, knight, passed, pawn_moves, snipers, Count, Side, Visit};
use crate::perft::bits::{shift, squares, FILE_A, FILE_B, FILE_G, FILE_H};
use crate::perft::bits::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};

/// The squares a knight on any square of `set` attacks.
#[inline(always)]
fn knights_of(set: u64) -> u64 {
    let l1 = (set >> 1) & !FILE_H;
    let l2 = (set >> 2) & !(FILE_G | FILE_H);
    let r1 = (set << 1) & !FILE_A;
    let r2 = (set << 2) & !(FILE_A | FILE_B);
    let h1 = l1 | r1;
    let h2 = l2 | r2;
    (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8)
}

/// The squares a king on any square of `set` attacks.
#[inline(always)]
fn kings_of(set: u64) -> u64 {
    let row = set | ((set << 1) & !FILE_A) | ((set >> 1) & !FILE_H);
    (row | (row << 8) | (row >> 8)) & !set
}

/// The most unpinned sliders a side can have (two rooks, two bishops, a queen and eight
/// promoted pieces; more cannot arise from the start position, and a board with more falls back
/// to making every move).
const MAX_SLIDERS: usize = 13;

/// The opponent's moves on the board as it stands, in the parts that a move of ours not near its
/// king can change.
struct Replies {
    /// The attacks of its unpinned sliders as the board stands, one for each square of
    /// `slider_squares`, lowest first. Only the attacks are kept (the square comes from that
    /// order, the lines from `orth` and `diag`, the moves from the attacks): a list of tuples
    /// of all four was zeroed field by field on every board, 52 stores.
    attacks: [u64; MAX_SLIDERS],
    /// Squares of the unpinned sliders.
    slider_squares: u64,
    /// Its rooks and queens, and its bishops and queens.
    orth: u64,
    diag: u64,
    /// Unpinned knights.
    knights: u64,
    pawns: u64,
    /// Its pawns' moves, and the squares whose emptying or filling can change them.
    pawn_moves: u32,
    pawn_squares: u64,
    pin_orth: u64,
    pin_diag: u64,
    theirs: u64,
    ours: u64,
    occupied: u64,
}

impl Replies {
    /// The change in the opponent's number of moves when our piece goes from `from` to `to`
    /// (one bit each), capturing whatever stands there, the move not being near its king.
    #[inline(always)]
    fn change<S: Side, T: Tier>(&self, t: T, from: u64, to: u64) -> i64 {
        let moved = from | to;
        let captured = self.theirs & to;
        let occupied = self.occupied ^ from ^ (to & !captured);
        let theirs = self.theirs ^ captured;
        let mut change = 0i64;
        for (sq, &attacks) in squares(self.slider_squares).zip(&self.attacks) {
            let bit = 1 << sq;
            let moves = i64::from((attacks & !self.theirs).count_ones());
            if bit == captured {
                change -= moves;
            } else if attacks & moved != 0 {
                let mut now = 0;
                if self.orth & bit != 0 {
                    now |= t.rook(sq, occupied);
                }
                if self.diag & bit != 0 {
                    now |= t.bishop(sq, occupied);
                }
                change += i64::from((now & !theirs).count_ones()) - moves;
            }
        }
        if captured != 0 {
            let at = to.trailing_zeros();
            // Its knights that guarded the square now take on it; a captured knight's moves go.
            change += i64::from((knight(at) & self.knights).count_ones());
            if self.knights & captured != 0 {
                change -= i64::from((knight(at) & !self.theirs).count_ones());
            }
        }
        if moved & self.pawn_squares != 0 {
            let now = pawn_moves::<S::Other>(
                self.pawns & !captured,
                !occupied,
                self.ours ^ from ^ to,
                self.pin_orth,
                self.pin_diag,
            );
            change += i64::from(now) - i64::from(self.pawn_moves);
        }
        change
    }
}

/// Leaves two plies below `b` (side `S` to move).
#[inline(always)]
pub(super) fn count_two<S: Side, T: Tier>(b: &Board, r: &Rules, t: T) -> u64 {
    let (us, them) = (S::US, S::THEM);
    let ours = b.occupied[us];
    let theirs = b.occupied[them];
    let occupied = ours | theirs;
    let mine = &b.pieces[us];
    let enemy = &b.pieces[them];
    let king_sq = enemy[KING].trailing_zeros();
    let our_orth_sliders = mine[ROOK] | mine[QUEEN];
    let our_diag_sliders = mine[BISHOP] | mine[QUEEN];

    // The opponent's pins, as it sees them (through its own pieces from its king); none when
    // we have no sliders of that kind (endings: no lookup spent).
    let pin_orth = if our_orth_sliders != 0 {
        snipers(t.rook(king_sq, ours) & our_orth_sliders, king_sq, theirs).pins
    } else {
        0
    };
    let pin_diag = if our_diag_sliders != 0 {
        snipers(t.bishop(king_sq, ours) & our_diag_sliders, king_sq, theirs).pins
    } else {
        0
    };
    let pinned = theirs & (pin_orth | pin_diag);

    // Its unpinned sliders and pawns, with their moves as they stand.
    let their_orth = enemy[ROOK] | enemy[QUEEN];
    let their_diag = enemy[BISHOP] | enemy[QUEEN];
    let mut replies = Replies {
        attacks: [0; MAX_SLIDERS],
        slider_squares: 0,
        orth: their_orth,
        diag: their_diag,
        knights: enemy[KNIGHT] & !pinned,
        pawns: enemy[PAWN],
        pawn_moves: pawn_moves::<S::Other>(enemy[PAWN], !occupied, ours, pin_orth, pin_diag),
        pawn_squares: 0,
        pin_orth,
        pin_diag,
        theirs,
        ours,
        occupied,
    };
    let mut rays = 0;
    let mut crowded = false;
    for (i, sq) in squares((their_orth | their_diag) & !pinned).enumerate() {
        if i == MAX_SLIDERS {
            crowded = true;
            break;
        }
        let bit = 1 << sq;
        let mut attacks = 0;
        if their_orth & bit != 0 {
            attacks |= t.rook(sq, occupied);
        }
        if their_diag & bit != 0 {
            attacks |= t.bishop(sq, occupied);
        }
        rays |= attacks;
        replies.slider_squares |= bit;
        replies.attacks[i] = attacks;
    }
    let their_pawns = enemy[PAWN];
    let pawn_attacks =
        <S::Other as Side>::west(their_pawns) | <S::Other as Side>::east(their_pawns);
    let single = <S::Other as Side>::forward(their_pawns);
    replies.pawn_squares = their_pawns
        | pawn_attacks
        | single
        | <S::Other as Side>::forward(single & <S::Other as Side>::THIRD_RANK & !occupied);

    // The opponent king's zone, and its castling rights that can happen: their squares that
    // must be empty and their rook's square are near the king.
    let mut zone = enemy[KING] | super::king(king_sq);
    let mut free_zone = enemy[KING] | (super::king(king_sq) & !theirs);
    let mut near = 0;
    let mut back_rank = 0;
    if b.unmoved & <S::Other as Side>::BACK_RANK != 0 {
        for side in 0..2 {
            let c = &r.castles[S::THEM * 2 + side];
            if b.unmoved & c.need == c.need && theirs & c.empty == 0 {
                near |= c.empty | c.rook;
                zone |= c.path;
                free_zone |= c.path;
                // Our rooks and queens on that rank may see the path through the castling
                // rook once it has gone (Chess960).
                back_rank = <S::Other as Side>::BACK_RANK;
            }
        }
    }

    // What the zone's squares see (where our sliders attack it from), and what the king sees
    // through one of its own pieces (where a slider of ours pins it). Only our sliders' moves,
    // moves that uncover one of our sliders, and promotions (a new slider) need those lines:
    // with no slider of ours and no pawn on the seventh rank (king and pawn endings) they are
    // left empty, and the near masks of the slider kinds, then never read, are wrong.
    let (mut orth, mut diag, mut pin_from_orth, mut pin_from_diag) = (0, 0, 0, 0);
    if (our_orth_sliders | our_diag_sliders) != 0 || S::forward(mine[PAWN]) & S::LAST_RANK != 0 {
        for sq in squares(free_zone) {
            orth |= t.rook(sq, occupied);
            diag |= t.bishop(sq, occupied);
        }
        pin_from_orth = orth | t.rook(king_sq, occupied ^ (t.rook(king_sq, occupied) & theirs));
        pin_from_diag = diag | t.bishop(king_sq, occupied ^ (t.bishop(king_sq, occupied) & theirs));

        // The lines from the king to our sliders with at most two pieces between: a move onto
        // or off one can make or break a pin or a discovered check.
        let aligned =
            (t.rook(king_sq, 0) & our_orth_sliders) | (t.bishop(king_sq, 0) & our_diag_sliders);
        for slider in squares(aligned) {
            let line = super::ray(king_sq, slider);
            if (line & occupied).count_ones() <= 2 {
                near |= line;
            }
        }
        let (mut our_orth, mut our_diag) = (0, 0);
        for from in squares(our_orth_sliders) {
            our_orth |= t.rook(from, occupied);
        }
        for from in squares(our_diag_sliders) {
            our_diag |= t.bishop(from, occupied);
        }
        near |= (orth & our_orth) | (diag & our_diag);
    }
    near |= zone;
    if crowded {
        near = !0;
    }

    let mut split = Split {
        near: [
            near | <S::Other as Side>::west(free_zone) | <S::Other as Side>::east(free_zone),
            near | knights_of(free_zone),
            near | pin_from_diag,
            near | pin_from_orth | back_rank,
            near | pin_from_orth | pin_from_diag | back_rank,
            near | kings_of(free_zone),
        ],
        changing: rays | replies.pawn_squares | theirs,
        en_passant: S::forward(pawn_attacks),
        replies: &replies,
        quiet: 0,
        change: 0,
        made: 0,
        tier: t,
        #[cfg(test)]
        base: {
            let mut null = *b;
            null.en_passant = 0;
            let mut count = Count(0);
            generate::<S::Other, T, _>(&null, r, t, &mut count);
            count.0
        },
    };
    generate::<S, T, _>(b, r, t, &mut split);
    let (quiet, change, made) = (split.quiet, split.change, split.made);
    if quiet == 0 {
        return made;
    }
    let mut null = *b;
    null.en_passant = 0;
    let mut count = Count(0);
    generate::<S::Other, T, _>(&null, r, t, &mut count);
    // The sum of the replies is never negative, whatever the sign of the changes.
    (quiet as i64 * count.0 as i64 + change) as u64 + made
}

/// Sorts the moves of a board (see the module's documentation) and counts their replies.
struct Split<'r, T: Tier> {
    /// By kind of the moving piece: the squares near the king for it.
    near: [u64; 6],
    /// The squares a move not near the king must touch to change the replies.
    changing: u64,
    /// The squares a double push lands on when an opponent's pawn attacks the passed square.
    en_passant: u64,
    replies: &'r Replies,
    /// Moves whose replies are the null move's count plus a change.
    quiet: u64,
    change: i64,
    /// Replies of the moves made.
    made: u64,
    tier: T,
    /// The null move's count, to check each move counted by difference against its replies
    /// counted in full.
    #[cfg(test)]
    base: u64,
}

#[cfg(test)]
impl<T: Tier> Split<'_, T> {
    /// Checks a move counted by difference against its replies counted in full.
    fn check<S: Side>(&self, child: &Board, r: &Rules, from: u64, to: u64, what: &str) {
        let mut count = Count(0);
        generate::<S::Other, T, _>(child, r, self.tier, &mut count);
        let change = self.replies.change::<S, T>(self.tier, from, to);
        assert_eq!(
            self.base as i64 + change,
            count.0 as i64,
            "{what} {} -> {}: change {change}, base {}, pieces after {:x?}",
            from.trailing_zeros(),
            to.trailing_zeros(),
            self.base,
            child.pieces,
        );
    }
}

impl<T: Tier> Split<'_, T> {
    #[inline(always)]
    fn replies<S: Side>(&mut self, child: &Board, r: &Rules) {
        let mut count = Count(0);
        generate::<S::Other, T, _>(child, r, self.tier, &mut count);
        self.made += count.0;
    }

    /// Moves from `from` to each of `targets`, none near the king.
    #[inline(always)]
    fn counted<S: Side>(&mut self, from: u64, targets: u64) {
        self.quiet += u64::from(targets.count_ones());
        let changing = if self.changing & from != 0 {
            targets
        } else {
            targets & self.changing
        };
        for to in squares(changing) {
            self.change += self.replies.change::<S, T>(self.tier, from, 1 << to);
        }
    }
}

impl<T: Tier> Visit for Split<'_, T> {
    #[inline(always)]
    fn piece<S: Side, const KIND: usize>(&mut self, b: &Board, r: &Rules, from: u32, targets: u64) {
        let near = self.near[KIND];
        let far = if near & (1 << from) == 0 {
            targets & !near
        } else {
            0
        };
        self.counted::<S>(1 << from, far);
        #[cfg(test)]
        for to in squares(far) {
            self.check::<S>(
                &b.after_piece::<S, KIND>(from, to),
                r,
                1 << from,
                1 << to,
                "piece",
            );
        }
        for to in squares(targets ^ far) {
            self.replies::<S>(&b.after_piece::<S, KIND>(from, to), r);
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
        let near = self.near[PAWN];
        let mut far = targets & !near & shift(!near, delta);
        if DOUBLE {
            far &= !self.en_passant;
        }
        for to in squares(far) {
            let from = (to as i32 - delta) as u32;
            self.counted::<S>(1 << from, 1 << to);
            #[cfg(test)]
            {
                let ep = passed::<DOUBLE>(to, delta);
                self.check::<S>(
                    &b.after_push::<S>(from, to, ep),
                    r,
                    1 << from,
                    1 << to,
                    "push",
                );
            }
        }
        for to in squares(targets ^ far) {
            let from = (to as i32 - delta) as u32;
            let ep = passed::<DOUBLE>(to, delta);
            self.replies::<S>(&b.after_push::<S>(from, to, ep), r);
        }
    }
    #[inline(always)]
    fn capture<S: Side>(&mut self, b: &Board, r: &Rules, targets: u64, delta: i32) {
        let near = self.near[PAWN];
        let far = targets & !near & shift(!near, delta);
        for to in squares(far) {
            let from = (to as i32 - delta) as u32;
            self.counted::<S>(1 << from, 1 << to);
            #[cfg(test)]
            self.check::<S>(
                &b.after_piece::<S, PAWN>(from, to),
                r,
                1 << from,
                1 << to,
                "capture",
            );
        }
        for to in squares(targets ^ far) {
            let from = (to as i32 - delta) as u32;
            self.replies::<S>(&b.after_piece::<S, PAWN>(from, to), r);
        }
    }
    #[inline(always)]
    fn promote<S: Side>(&mut self, b: &Board, r: &Rules, targets: u64, delta: i32) {
        // The four pieces change the replies alike unless one of them is near the king, from
        // its square or through the square the pawn leaves.
        let near_to = self.near[QUEEN] | self.near[KNIGHT];
        let far = targets & !near_to & shift(!(self.near[PAWN] | self.near[QUEEN]), delta);
        for to in squares(far) {
            let from = (to as i32 - delta) as u32;
            let change = self.replies.change::<S, T>(self.tier, 1 << from, 1 << to);
            self.quiet += 4;
            self.change += 4 * change;
            #[cfg(test)]
            for kind in [QUEEN, ROOK, BISHOP, KNIGHT] {
                self.check::<S>(
                    &b.after_promotion::<S>(from, to, kind),
                    r,
                    1 << from,
                    1 << to,
                    "promotion",
                );
            }
        }
        for to in squares(targets ^ far) {
            let from = (to as i32 - delta) as u32;
            for kind in [QUEEN, ROOK, BISHOP, KNIGHT] {
                self.replies::<S>(&b.after_promotion::<S>(from, to, kind), r);
            }
        }
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, b: &Board, r: &Rules, from: u64) {
        self.replies::<S>(&b.after_en_passant::<S>(from), r);
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, b: &Board, r: &Rules, right: usize) {
        self.replies::<S>(&b.after_castle::<S>(r, right), r);
    }
}
