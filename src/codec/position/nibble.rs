//! `nibble`: 4 bits per square, a1 first: 0 empty, 1-6 a White pawn, knight, bishop, rook,
//! queen, king, and the same plus 8 for Black (7, 8 and 15 are no piece).

use super::{BitReader, Bits, DecodeError, Placement};
use crate::{Color, Piece, PieceKind, Square};

/// The nibble of a square's content.
pub(super) fn nibble_of(piece: Option<Piece>) -> u64 {
    match piece {
        None => 0,
        Some(p) => 8 * p.color.index() as u64 + 1 + p.kind.index() as u64,
    }
}

/// The content of a nibble; `Err(())` for the three that are no piece.
pub(super) fn piece_of_nibble(nibble: u64) -> Result<Option<Piece>, ()> {
    match nibble {
        0 => Ok(None),
        1..=6 => Ok(Some(Piece::new(
            Color::White,
            PieceKind::ALL[nibble as usize - 1],
        ))),
        9..=14 => Ok(Some(Piece::new(
            Color::Black,
            PieceKind::ALL[nibble as usize - 9],
        ))),
        _ => Err(()),
    }
}

/// Append 256 bits of placement.
pub(super) fn encode(board: &Placement, bits: &mut Bits) {
    for piece in board {
        bits.push_bits(nibble_of(*piece), 4);
    }
}

/// Read 256 bits of placement.
pub(super) fn decode(reader: &mut BitReader) -> Result<Placement, DecodeError> {
    let mut board = [None; 64];
    for (square, cell) in Square::ALL.into_iter().zip(&mut board) {
        let at = reader.position();
        let value = reader.read_bits(4)?;
        *cell =
            piece_of_nibble(value).map_err(|()| DecodeError::BadSymbol { at, square, value })?;
    }
    Ok(board)
}
