//! Static exchange evaluation: what a capture (or a move to an attacked square) wins once both
//! sides have taken back on that square with their cheapest pieces in turn, each side free to
//! stop when going on would lose. Pins and checks are ignored; x-rays are seen (a slider behind
//! a piece that has taken joins in).
//!
//! Integer arithmetic on bitboards only, so the encoder and the decoder agree.

use super::super::lines;
use crate::attacks::{king_attacks, knight_attacks, pawn_attacks};
use crate::{Color, Square};

/// Piece values in pawns, by kind number (pawn, knight, bishop, rook, queen, king).
pub const VALUE: [i32; 6] = [1, 3, 3, 5, 9, 100];

/// The pieces of a board as the exchange sees them.
#[derive(Debug, Clone, Copy)]
pub struct Board {
    /// Every piece of each kind, both colours (kind number order).
    pub by_kind: [u64; 6],
    /// The white pieces and the black pieces.
    pub by_color: [u64; 2],
}

impl Board {
    /// Pieces of both colours that attack `sq` with `occupied` as the blockers (pieces not in
    /// `occupied` included: the caller masks them).
    #[inline(always)]
    pub fn attackers_to(&self, sq: usize, occupied: u64) -> u64 {
        let square = Square::from_index_unchecked(sq as u8);
        let [pawns, knights, bishops, rooks, queens, kings] = self.by_kind;
        (lines::rook(sq, occupied) & (rooks | queens))
            | (lines::bishop(sq, occupied) & (bishops | queens))
            | (knight_attacks(square).0 & knights)
            | (king_attacks(square).0 & kings)
            | (pawn_attacks(Color::White, square).0 & pawns & self.by_color[Color::Black.index()])
            | (pawn_attacks(Color::Black, square).0 & pawns & self.by_color[Color::White.index()])
    }

    /// What the side of the piece on `from` (kind `mover`, worth `VALUE[mover]` once on `to`)
    /// gains by moving it to `to` and taking `captured` pawns' worth there, both sides then
    /// exchanging on `to` as long as it pays.
    pub fn exchange(
        &self,
        side: Color,
        from: usize,
        to: usize,
        mover: usize,
        captured: i32,
    ) -> i32 {
        let mut gain = [0i32; 32];
        gain[0] = captured;
        let mut occupied = (self.by_color[0] | self.by_color[1]) & !(1 << from);
        let [pawns, knights, bishops, rooks, queens, kings] = self.by_kind;
        let diagonal = bishops | queens;
        let straight = rooks | queens;
        let mut attackers = self.attackers_to(to, occupied) & occupied;
        let mut on_square = VALUE[mover];
        let mut turn = !side;
        let mut depth = 0;
        while depth < 31 {
            let mine = attackers & self.by_color[turn.index()];
            if mine == 0 {
                break;
            }
            // The cheapest attacker.
            let (kind, set) = if mine & pawns != 0 {
                (0, mine & pawns)
            } else if mine & knights != 0 {
                (1, mine & knights)
            } else if mine & bishops != 0 {
                (2, mine & bishops)
            } else if mine & rooks != 0 {
                (3, mine & rooks)
            } else if mine & queens != 0 {
                (4, mine & queens)
            } else {
                (5, mine & kings)
            };
            // A king does not take on a square the other side still attacks.
            if kind == 5 && attackers & self.by_color[(!turn).index()] != 0 {
                break;
            }
            let pick = set & set.wrapping_neg();
            depth += 1;
            gain[depth] = on_square - gain[depth - 1];
            on_square = VALUE[kind];
            occupied &= !pick;
            attackers &= !pick;
            // Only the line through the square left can open: a slider behind it joins in.
            if kind != 1 {
                let diagonal_line = kind == 0 || kind == 2 || (kind >= 4 && is_diagonal(to, pick));
                attackers |= if diagonal_line {
                    lines::bishop(to, occupied) & diagonal & occupied
                } else {
                    lines::rook(to, occupied) & straight & occupied
                };
            }
            turn = !turn;
        }
        while depth > 0 {
            gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
            depth -= 1;
        }
        gain[0]
    }
}

/// True when the square of the bit `pick` is on a diagonal through `sq`.
#[inline(always)]
fn is_diagonal(sq: usize, pick: u64) -> bool {
    let other = pick.trailing_zeros() as usize;
    (sq & 7).abs_diff(other & 7) == (sq >> 3).abs_diff(other >> 3)
}

#[cfg(test)]
mod tests {
    use super::super::history::random_suite_positions;
    use super::*;
    use crate::{PieceKind, Position};

    fn board_of(pos: &Position) -> Board {
        Board {
            by_kind: PieceKind::ALL.map(|k| pos.kind_bb(k).0),
            by_color: [pos.color_bb(Color::White).0, pos.color_bb(Color::Black).0],
        }
    }

    fn board(fen: &str) -> (Board, Position) {
        let pos = Position::from_fen(fen).unwrap();
        (board_of(&pos), pos)
    }

    /// The exchange as first written: every attacker found again after each capture.
    fn exchange_reference(
        b: &Board,
        side: Color,
        from: usize,
        to: usize,
        mover: usize,
        captured: i32,
    ) -> i32 {
        let mut gain = vec![captured];
        let mut occupied = (b.by_color[0] | b.by_color[1]) & !(1 << from);
        let mut on_square = VALUE[mover];
        let mut turn = !side;
        loop {
            let mine = b.attackers_to(to, occupied) & occupied & b.by_color[turn.index()];
            let Some(kind) = (0..6).find(|&k| mine & b.by_kind[k] != 0) else {
                break;
            };
            let others = b.attackers_to(to, occupied) & occupied & b.by_color[(!turn).index()];
            if kind == 5 && others != 0 {
                break;
            }
            let set = mine & b.by_kind[kind];
            gain.push(on_square - gain[gain.len() - 1]);
            on_square = VALUE[kind];
            occupied &= !(set & set.wrapping_neg());
            turn = !turn;
        }
        while gain.len() > 1 {
            let last = gain.pop().unwrap();
            let n = gain.len();
            gain[n - 1] = -(-gain[n - 1]).max(last);
        }
        gain[0]
    }

    /// The exchange equals the reference for every legal move of the positions of seeded random
    /// games from the perft suite (captures and quiet moves alike).
    #[test]
    fn exchanges_equal_the_reference_on_random_positions() {
        let mut checked = 0;
        random_suite_positions(47, 120, |pos, _, legal| {
            let b = board_of(pos);
            for &mv in legal.iter() {
                let (from, to) = (mv.from().index(), mv.to().index());
                let mover = pos.piece_at(mv.from()).unwrap().kind.index();
                let taken = pos
                    .piece_at(mv.to())
                    .map_or(0, |p| VALUE[p.kind.index()].min(9));
                let side = pos.side_to_move();
                let fast = b.exchange(side, from, to, mover, taken);
                assert_eq!(
                    fast,
                    exchange_reference(&b, side, from, to, mover, taken),
                    "{} {mv:?}",
                    pos.fen()
                );
                checked += 1;
            }
        });
        assert!(checked > 20_000, "{checked}");
    }

    fn sq(name: &str) -> usize {
        name.parse::<Square>().unwrap().index()
    }

    #[test]
    fn exchanges_count_both_sides_cheapest_pieces_and_x_rays() {
        // A pawn takes a defended knight: wins 3 for 1.
        let (b, _) = board("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1");
        assert_eq!(b.exchange(Color::White, sq("d4"), sq("e5"), 0, 3), 2);
        // A queen takes a pawn defended by a pawn: loses 8.
        let (b, _) = board("4k3/8/3p4/4p3/8/8/1Q6/4K3 w - - 0 1");
        assert_eq!(b.exchange(Color::White, sq("b2"), sq("e5"), 4, 1), -8);
        // Rooks doubled on a file: the rook behind joins in; RxP RxR RxR wins the pawn.
        let (b, _) = board("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1");
        assert_eq!(b.exchange(Color::White, sq("d2"), sq("d5"), 3, 1), 1);
        // A quiet move to a square a pawn attacks loses the piece.
        let (b, _) = board("4k3/8/3p4/8/8/8/8/4KN2 w - - 0 1");
        assert_eq!(b.exchange(Color::White, sq("f1"), sq("e3"), 1, 0), 0);
        let (b, _) = board("4k3/8/3p4/8/2N5/8/8/4K3 w - - 0 1");
        assert_eq!(b.exchange(Color::White, sq("c4"), sq("e5"), 1, 0), -3);
        // A king takes back only when nothing else attacks the square.
        let (b, _) = board("4k3/5p2/8/8/2B5/8/8/4KQ2 w - - 0 1");
        assert_eq!(b.exchange(Color::White, sq("f1"), sq("f7"), 4, 1), 1);
        let (b, _) = board("4k3/5p2/8/8/8/8/8/4KQ2 w - - 0 1");
        assert_eq!(b.exchange(Color::White, sq("f1"), sq("f7"), 4, 1), -8);
    }
}
