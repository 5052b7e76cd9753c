//! `base13` and `varbase`: the 64 squares' symbols as the digits of one big number, a1 the least
//! significant digit. `base13` gives every square 13 symbols (237 bits); `varbase` gives the
//! squares of ranks 1 and 8 only the 11 symbols without pawns (233 bits).

use super::bignum::U256;
use super::{piece_of_symbol, symbol_of, BitReader, Bits, DecodeError, Placement};
use crate::{PieceKind, Rank, Square};

/// Which radix each square has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Radix {
    /// 13 everywhere.
    Base13,
    /// 11 on ranks 1 and 8, 13 elsewhere.
    Varbase,
}

/// The symbols 1 (White pawn) and 7 (Black pawn) are left out on the back ranks.
const WHITE_PAWN: usize = 1;
const BLACK_PAWN: usize = 7;

impl Radix {
    /// Bits of the number: ceil(log2 of the product of the radices).
    fn width(self) -> u32 {
        match self {
            Radix::Base13 => 237,
            Radix::Varbase => 233,
        }
    }

    fn is_short(self, sq: Square) -> bool {
        self == Radix::Varbase && matches!(sq.rank(), Rank::First | Rank::Eighth)
    }

    fn radix(self, sq: Square) -> u64 {
        if self.is_short(sq) {
            11
        } else {
            13
        }
    }

    /// The digit of a 13-symbol code on `sq` (no pawn on a short square).
    fn digit(self, sq: Square, symbol: usize) -> u64 {
        if !self.is_short(sq) {
            return symbol as u64;
        }
        debug_assert!(symbol != WHITE_PAWN && symbol != BLACK_PAWN);
        let skipped = usize::from(symbol > WHITE_PAWN) + usize::from(symbol > BLACK_PAWN);
        (symbol - skipped) as u64
    }

    /// The 13-symbol code of a digit on `sq`.
    fn symbol(self, sq: Square, digit: u64) -> usize {
        let mut symbol = digit as usize;
        if self.is_short(sq) {
            if symbol >= WHITE_PAWN {
                symbol += 1;
            }
            if symbol >= BLACK_PAWN {
                symbol += 1;
            }
        }
        symbol
    }
}

/// Append the placement as one number of `radix.width()` bits.
pub(super) fn encode(board: &Placement, radix: Radix, bits: &mut Bits) {
    let mut n = U256::default();
    for sq in Square::ALL.into_iter().rev() {
        let piece = board[sq.index()];
        debug_assert!(!(radix.is_short(sq) && piece.is_some_and(|p| p.kind == PieceKind::Pawn)));
        n.mul_add(radix.radix(sq), radix.digit(sq, symbol_of(piece)));
    }
    n.write(radix.width(), bits);
}

/// Read the placement; a number beyond the last placement is out of range.
pub(super) fn decode(reader: &mut BitReader, radix: Radix) -> Result<Placement, DecodeError> {
    let at = reader.position();
    let mut n = U256::read(radix.width(), reader)?;
    let mut board = [None; 64];
    for sq in Square::ALL {
        let digit = n.div_rem(radix.radix(sq));
        board[sq.index()] = piece_of_symbol(radix.symbol(sq, digit));
    }
    if !n.is_zero() {
        return Err(DecodeError::OutOfRange {
            at,
            what: "the placement number (it exceeds the product of the radices)".into(),
        });
    }
    Ok(board)
}
