//! The counting board and its moves (copy-make), and the castling geometry fixed at the root.

use super::{Side, KING, PAWN, ROOK};
use crate::attacks::{between, pawn_attacks};
use crate::{CastlingSide, Color, PieceKind, Position, Square};

/// One castling right: where the king and rook stand and go, the squares that must be empty
/// (the king and rook themselves excepted) and the squares the king crosses or lands on.
#[derive(Clone, Copy)]
pub(super) struct Castle {
    /// The squares that must still be in [`Board::unmoved`] for the right to hold: the king's
    /// and the rook's; every square for a right the root position did not have (never held).
    pub(super) need: u64,
    pub(super) king: u64,
    pub(super) king_to: u64,
    pub(super) rook: u64,
    pub(super) rook_to: u64,
    pub(super) empty: u64,
    pub(super) path: u64,
}

/// What stays fixed below the root: the castling geometry.
#[derive(Clone)]
pub(crate) struct Rules {
    /// By right: White king side, White queen side, Black king side, Black queen side.
    pub(super) castles: [Castle; 4],
}

impl Castle {
    /// A right the root position does not have.
    const NONE: Castle = Castle {
        need: !0,
        king: 0,
        king_to: 0,
        rook: 0,
        rook_to: 0,
        empty: 0,
        path: 0,
    };
}

/// The counting board.
#[derive(Clone, Copy)]
pub(crate) struct Board {
    /// By colour, then kind (pawn, knight, bishop, rook, queen, king).
    pub(super) pieces: [[u64; 6]; 2],
    pub(super) occupied: [u64; 2],
    /// The square a pawn just passed over in a double push, or 0.
    pub(super) en_passant: u64,
    /// The home squares of the castling kings and rooks that no move has left or landed on yet.
    /// A right holds while both its squares are in it, so a move only clears its two squares
    /// (one `and`, no table of rights kept per square); this is exact, as the rights are lost
    /// exactly when the king or that rook moves or something captures on the rook's square.
    pub(super) unmoved: u64,
}

impl Board {
    /// The board and rules of `pos`.
    pub(crate) fn from_position(pos: &Position) -> (Board, Rules) {
        let mut board = Board {
            pieces: [[0; 6]; 2],
            occupied: [pos.color_bb(Color::White).0, pos.color_bb(Color::Black).0],
            en_passant: pos.en_passant().map_or(0, |sq| 1 << sq.index()),
            unmoved: 0,
        };
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                board.pieces[color.index()][kind.index()] = pos.pieces(color, kind).0;
            }
        }
        let mut rules = Rules {
            castles: [Castle::NONE; 4],
        };
        for color in Color::ALL {
            let king_sq = pos.king_square(color);
            let rank = color.back_rank();
            for side in CastlingSide::ALL {
                let Some(rook_sq) = pos.castling_rook(color, side) else {
                    continue;
                };
                let right = color.index() * 2 + side.index();
                let king_to = Square::new(side.king_destination(), rank);
                let rook_to = Square::new(side.rook_destination(), rank);
                let bit = |sq: Square| 1u64 << sq.index();
                let path = between(king_sq, king_to).0 | bit(king_to);
                rules.castles[right] = Castle {
                    need: bit(king_sq) | bit(rook_sq),
                    king: bit(king_sq),
                    king_to: bit(king_to),
                    rook: bit(rook_sq),
                    rook_to: bit(rook_to),
                    empty: (path | between(rook_sq, rook_to).0 | bit(rook_to))
                        & !(bit(king_sq) | bit(rook_sq)),
                    path,
                };
                board.unmoved |= bit(king_sq) | bit(rook_sq);
            }
        }
        (board, rules)
    }
}

impl Board {
    /// The en passant square (one bit) when a pawn of side `S` (to move) can take on it, else
    /// 0: the board marks the square behind every double push, takeable or not.
    #[inline(always)]
    pub(crate) fn takeable_en_passant<S: Side>(&self) -> u64 {
        if self.en_passant == 0 {
            return 0;
        }
        let sq = Square::from_index_unchecked(self.en_passant.trailing_zeros() as u8);
        let takers = pawn_attacks(<S::Other as Side>::COLOR, sq).0;
        if takers & self.pieces[S::US][PAWN] != 0 {
            self.en_passant
        } else {
            0
        }
    }

    /// Take `to` off the other side's bitboards (no-op unless it is a capture).
    #[inline(always)]
    pub(super) fn clear<S: Side>(&mut self, to: u64) {
        let theirs = &mut self.pieces[S::THEM];
        for set in theirs.iter_mut().take(KING) {
            *set &= !to;
        }
        self.occupied[S::THEM] &= !to;
    }

    #[inline(always)]
    pub(crate) fn after_piece<S: Side, const KIND: usize>(&self, from: u32, to: u32) -> Board {
        let mut child = *self;
        let both = (1 << from) | (1 << to);
        child.clear::<S>(1 << to);
        child.pieces[S::US][KIND] ^= both;
        child.occupied[S::US] ^= both;
        child.en_passant = 0;
        child.unmoved &= !both;
        child
    }

    #[inline(always)]
    pub(crate) fn after_push<S: Side>(&self, from: u32, to: u32, en_passant: u64) -> Board {
        let mut child = *self;
        let both = (1 << from) | (1 << to);
        child.pieces[S::US][PAWN] ^= both;
        child.occupied[S::US] ^= both;
        child.en_passant = en_passant;
        child
    }

    #[inline(always)]
    pub(crate) fn after_promotion<S: Side>(&self, from: u32, to: u32, kind: usize) -> Board {
        let mut child = *self;
        child.clear::<S>(1 << to);
        child.pieces[S::US][PAWN] ^= 1 << from;
        child.pieces[S::US][kind] |= 1 << to;
        let both = (1 << from) | (1 << to);
        child.occupied[S::US] ^= both;
        child.en_passant = 0;
        child.unmoved &= !both;
        child
    }

    #[inline(always)]
    pub(crate) fn after_en_passant<S: Side>(&self, from: u64) -> Board {
        let mut child = *self;
        let both = from | self.en_passant;
        let captured = <S::Other as Side>::forward(self.en_passant);
        child.pieces[S::US][PAWN] ^= both;
        child.occupied[S::US] ^= both;
        child.pieces[S::THEM][PAWN] ^= captured;
        child.occupied[S::THEM] ^= captured;
        child.en_passant = 0;
        child
    }

    #[inline(always)]
    pub(crate) fn after_castle<S: Side>(&self, r: &Rules, right: usize) -> Board {
        let c = &r.castles[right];
        let mut child = *self;
        let mine = &mut child.pieces[S::US];
        mine[KING] = (mine[KING] & !c.king) | c.king_to;
        mine[ROOK] = (mine[ROOK] & !c.rook) | c.rook_to;
        child.occupied[S::US] =
            (child.occupied[S::US] & !(c.king | c.rook)) | c.king_to | c.rook_to;
        child.en_passant = 0;
        child.unmoved &= !S::BACK_RANK;
        child
    }
}

/// What the exact walk reads of a board (its fields stay the counting path's own).
impl Board {
    /// The pieces of colour index `color` and kind index `kind`.
    #[inline(always)]
    pub(crate) fn set(&self, color: usize, kind: usize) -> u64 {
        self.pieces[color][kind]
    }

    /// The squares of colour index `color`.
    #[inline(always)]
    pub(crate) fn side_set(&self, color: usize) -> u64 {
        self.occupied[color]
    }

    /// The home squares of castling kings and rooks not yet moved from or captured on.
    #[inline(always)]
    pub(crate) fn unmoved_squares(&self) -> u64 {
        self.unmoved
    }
}
