//! `pieces`: piece lists instead of a board.
//!
//! White's and Black's king squares (6 bits each); for White then Black the number of pawns
//! (4 bits) and the pawn set's rank in the combinatorial number system among the 48 squares of
//! ranks 2-7 (`ceil(log2 C(48, k))` bits for `k` pawns: 29 for eight); for White then Black the
//! number of other pieces (4 bits) and each as kind (2 bits: knight, bishop, rook, queen) and
//! square (6 bits), squares ascending.

use super::{BitReader, Bits, DecodeError, Placement};
use crate::{Color, Piece, PieceKind, Square};

/// The first square a pawn can stand on (a2); pawn squares are counted from it.
const PAWN_BASE: usize = 8;
/// The squares of ranks 2-7.
const PAWN_SQUARES: u64 = 48;
/// The other pieces by their 2-bit code.
const OTHERS: [PieceKind; 4] = [
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
];

/// The binomial coefficient C(n, k) (small arguments only).
fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Bits for a rank below C(48, k).
fn rank_width(k: u64) -> u32 {
    let count = binomial(PAWN_SQUARES, k);
    64 - (count - 1).leading_zeros()
}

fn squares_of(board: &Placement, wanted: impl Fn(Piece) -> bool) -> Vec<usize> {
    (0..64).filter(|&i| board[i].is_some_and(&wanted)).collect()
}

fn encode_pawns(board: &Placement, color: Color, bits: &mut Bits) {
    let pawns = squares_of(board, |p| p == Piece::new(color, PieceKind::Pawn));
    let k = pawns.len() as u64;
    let rank: u64 = pawns
        .iter()
        .enumerate()
        .map(|(i, &sq)| binomial((sq - PAWN_BASE) as u64, i as u64 + 1))
        .sum();
    bits.push_bits(k, 4);
    bits.push_bits(rank, rank_width(k));
}

fn encode_others(board: &Placement, color: Color, bits: &mut Bits) {
    let others = squares_of(board, |p| p.color == color && OTHERS.contains(&p.kind));
    bits.push_bits(others.len() as u64, 4);
    for sq in others {
        let kind = board[sq].expect("listed").kind;
        let code = OTHERS
            .iter()
            .position(|&k| k == kind)
            .expect("not a pawn or king");
        bits.push_bits(code as u64, 2);
        bits.push_bits(sq as u64, 6);
    }
}

/// Append the piece lists.
pub(super) fn encode(board: &Placement, bits: &mut Bits) {
    for color in Color::ALL {
        let king = squares_of(board, |p| p == Piece::new(color, PieceKind::King));
        bits.push_bits(king.first().copied().unwrap_or(0) as u64, 6);
    }
    for color in Color::ALL {
        encode_pawns(board, color, bits);
    }
    for color in Color::ALL {
        encode_others(board, color, bits);
    }
}

fn place(board: &mut Placement, index: usize, piece: Piece) -> Result<(), DecodeError> {
    let cell = &mut board[index];
    if cell.is_some() {
        return Err(DecodeError::Overlap(Square::ALL[index]));
    }
    *cell = Some(piece);
    Ok(())
}

fn decode_pawns(
    reader: &mut BitReader,
    color: Color,
    board: &mut Placement,
) -> Result<(), DecodeError> {
    let at = reader.position();
    let k = reader.read_bits(4)?;
    if k > 8 {
        return Err(DecodeError::OutOfRange {
            at,
            what: format!("{color} pawn count {k}"),
        });
    }
    let at = reader.position();
    let mut rank = reader.read_bits(rank_width(k))?;
    if rank >= binomial(PAWN_SQUARES, k) {
        return Err(DecodeError::OutOfRange {
            at,
            what: format!("{color} pawn combination {rank}"),
        });
    }
    for i in (1..=k).rev() {
        let c = (i - 1..PAWN_SQUARES)
            .rev()
            .find(|&c| binomial(c, i) <= rank)
            .expect("C(i-1, i) = 0");
        rank -= binomial(c, i);
        place(
            board,
            c as usize + PAWN_BASE,
            Piece::new(color, PieceKind::Pawn),
        )?;
    }
    Ok(())
}

fn decode_others(
    reader: &mut BitReader,
    color: Color,
    board: &mut Placement,
) -> Result<(), DecodeError> {
    let count = reader.read_bits(4)?;
    for _ in 0..count {
        let kind = OTHERS[reader.read_bits(2)? as usize];
        let sq = reader.read_bits(6)? as usize;
        place(board, sq, Piece::new(color, kind))?;
    }
    Ok(())
}

/// Read the piece lists.
pub(super) fn decode(reader: &mut BitReader) -> Result<Placement, DecodeError> {
    let mut board = [None; 64];
    for color in Color::ALL {
        let sq = reader.read_bits(6)? as usize;
        place(&mut board, sq, Piece::new(color, PieceKind::King))?;
    }
    for color in Color::ALL {
        decode_pawns(reader, color, &mut board)?;
    }
    for color in Color::ALL {
        decode_others(reader, color, &mut board)?;
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths() {
        assert_eq!(rank_width(0), 0);
        assert_eq!(rank_width(1), 6);
        assert_eq!(rank_width(8), 29);
        assert_eq!(binomial(48, 8), 377_348_994);
    }
}
