//! The bit helpers both counting walks share (`fast`, the perft counting path, and `exact`, the
//! exact random-game walk on its board): the files and first rank as sets, the board's piece
//! slots, a square from its index, the squares of a set and a set shifted by a move's step.
//! A leaf of the perft room: it imports only the crate's types (the codec's move model uses it
//! too).

use crate::{Bitboard, File, PieceKind, Rank, Square};

/// Slots of the counting board's pieces: the kinds' own indices, as constants for the const
/// generics.
pub(crate) const PAWN: usize = PieceKind::Pawn.index();
pub(crate) const KNIGHT: usize = PieceKind::Knight.index();
pub(crate) const BISHOP: usize = PieceKind::Bishop.index();
pub(crate) const ROOK: usize = PieceKind::Rook.index();
pub(crate) const QUEEN: usize = PieceKind::Queen.index();
pub(crate) const KING: usize = PieceKind::King.index();

/// The first rank and the a-, b-, g- and h-files.
pub(crate) const RANK_1: u64 = Bitboard::rank(Rank::First).0;
pub(crate) const FILE_A: u64 = Bitboard::file(File::A).0;
pub(crate) const FILE_B: u64 = FILE_A << 1;
pub(crate) const FILE_G: u64 = FILE_A << 6;
pub(crate) const FILE_H: u64 = FILE_A << 7;

/// The square of index `index` (0..64, a1 = 0).
#[inline(always)]
pub(crate) fn square(index: u32) -> Square {
    Square::from_index_unchecked(index as u8)
}

/// The squares of a set, lowest first.
#[inline(always)]
pub(crate) fn squares(mut set: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let sq = set.trailing_zeros();
            set &= set - 1;
            Some(sq)
        }
    })
}

/// `set` moved by `delta` squares (positive: towards rank 8; the destinations of moves from
/// `set` by `delta`). A delta of 0 leaves the set as it is.
#[inline(always)]
pub(crate) fn shift(set: u64, delta: i32) -> u64 {
    if delta >= 0 {
        set << delta
    } else {
        set >> -delta
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sets_are_the_files_and_rank() {
        assert_eq!(FILE_A, 0x0101_0101_0101_0101);
        assert_eq!(FILE_H, 0x8080_8080_8080_8080);
        assert_eq!(RANK_1, 0xFF);
        assert_eq!(FILE_B | FILE_G, 0x4242_4242_4242_4242);
    }

    #[test]
    fn shift_by_every_step_a_walk_uses() {
        // The pawn steps and captures of both sides, and 0 (either comparison shifts by 0).
        let set = 0x0000_1234_5678_0000u64;
        for delta in [-9, -8, -7, 0, 7, 8, 9, 16, -16] {
            let expected = if delta > 0 {
                set << delta
            } else {
                set >> -delta
            };
            assert_eq!(shift(set, delta), expected, "delta {delta}");
        }
        assert_eq!(squares(0b1010_0001).collect::<Vec<_>>(), [0, 5, 7]);
    }
}
