//! A move in 16 bits: from (6), to (6) and a 4-bit kind.
//!
//! Castling is stored as "king takes own rook": `to` is the castling rook's square. That one form
//! covers standard chess and every Chess960 set-up; the UCI layer converts it to `e1g1` only when
//! printing in standard mode.

use super::{PieceKind, Square};
use std::fmt;

/// What kind of move this is; decides how it is played on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move not listed below, captures included.
    Normal,
    /// A pawn's two-square first move (it creates an en passant square).
    DoublePush,
    /// A pawn capturing en passant; `to` is the empty square the pawn lands on.
    EnPassant,
    /// Castling; `to` is the square of the castling rook.
    Castling,
    /// A pawn reaching the last rank and becoming this piece.
    Promotion(PieceKind),
}

/// A compact move. Equality is bitwise, so the same move always compares equal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_DOUBLE_PUSH: u16 = 1;
const KIND_EN_PASSANT: u16 = 2;
const KIND_CASTLING: u16 = 3;
/// Promotions use kinds 4..8: knight, bishop, rook, queen.
const KIND_PROMOTION: u16 = 4;

impl Move {
    /// A move of the given kind.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let code = match kind {
            MoveKind::Normal => KIND_NORMAL,
            MoveKind::DoublePush => KIND_DOUBLE_PUSH,
            MoveKind::EnPassant => KIND_EN_PASSANT,
            MoveKind::Castling => KIND_CASTLING,
            MoveKind::Promotion(piece) => KIND_PROMOTION + piece as u16 - PieceKind::Knight as u16,
        };
        Move(from.index() as u16 | (to.index() as u16) << 6 | code << 12)
    }

    /// A normal move (including captures).
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    /// The square the moving piece leaves (for castling, the king's square).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 63) as u8)
    }

    /// The destination square (for castling, the rook's square).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(((self.0 >> 6) & 63) as u8)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_NORMAL => MoveKind::Normal,
            KIND_DOUBLE_PUSH => MoveKind::DoublePush,
            KIND_EN_PASSANT => MoveKind::EnPassant,
            KIND_CASTLING => MoveKind::Castling,
            code => MoveKind::Promotion(PieceKind::ALL[(code - KIND_PROMOTION) as usize + 1]),
        }
    }

    /// The promotion piece, if this is a promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceKind> {
        match self.kind() {
            MoveKind::Promotion(piece) => Some(piece),
            _ => None,
        }
    }

    /// The raw 16-bit code (a stable encoding, e.g. for hashing or storage).
    pub const fn to_bits(self) -> u16 {
        self.0
    }
}

/// Debug output shows the move in king-takes-rook form with its kind.
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}:{:?}", self.from(), self.to(), self.kind())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips() {
        let kinds = [
            MoveKind::Normal,
            MoveKind::DoublePush,
            MoveKind::EnPassant,
            MoveKind::Castling,
            MoveKind::Promotion(PieceKind::Knight),
            MoveKind::Promotion(PieceKind::Bishop),
            MoveKind::Promotion(PieceKind::Rook),
            MoveKind::Promotion(PieceKind::Queen),
        ];
        for from in Square::ALL {
            for to in [Square::A1, Square::H8, Square::E1] {
                for kind in kinds {
                    let mv = Move::new(from, to, kind);
                    assert_eq!((mv.from(), mv.to(), mv.kind()), (from, to, kind));
                }
            }
        }
    }
}
