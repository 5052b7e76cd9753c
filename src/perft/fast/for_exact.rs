//! What the exact random-game walk (`crate::perft::exact::walk`) takes from the counting path:
//! the board, its moves and the generator, named outside this module. Nothing here counts; the
//! counting code is untouched by it.

pub(crate) use super::board::{Board, Rules};
pub(crate) use super::key::Numbers;
#[cfg(target_arch = "x86_64")]
pub(crate) use super::tier::Bmi2;
pub(crate) use super::tier::{Portable, Tier};
pub(crate) use super::{generate, king_danger, open_castles, passed, pawn_targets};
pub(crate) use super::{Black, Side, Visit, White};

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

    /// After the piece of kind `KIND` moves from `from` to `to` (capturing what stands there).
    #[inline(always)]
    pub(crate) fn piece_moved<S: Side, const KIND: usize>(&self, from: u32, to: u32) -> Board {
        self.after_piece::<S, KIND>(from, to)
    }

    /// After a pawn push from `from` to `to`, `en_passant` the square passed over (or 0).
    #[inline(always)]
    pub(crate) fn pawn_pushed<S: Side>(&self, from: u32, to: u32, en_passant: u64) -> Board {
        self.after_push::<S>(from, to, en_passant)
    }

    /// After a promotion from `from` to `to` into kind index `kind`.
    #[inline(always)]
    pub(crate) fn promoted<S: Side>(&self, from: u32, to: u32, kind: usize) -> Board {
        self.after_promotion::<S>(from, to, kind)
    }

    /// After the en passant capture by the pawn on `from` (one bit).
    #[inline(always)]
    pub(crate) fn en_passant_taken<S: Side>(&self, from: u64) -> Board {
        self.after_en_passant::<S>(from)
    }

    /// After castling with right `right` of `r`.
    #[inline(always)]
    pub(crate) fn castled<S: Side>(&self, r: &Rules, right: usize) -> Board {
        self.after_castle::<S>(r, right)
    }
}
