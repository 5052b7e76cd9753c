//! The three ways of writing the moves after the header.

use super::error::{GameCodecError, GameEncodeError};
use crate::codec::arith;
use crate::codec::bits::{BitReader, Bits};
use crate::game::GameRecord;
use crate::movegen::MAX_MOVES;
use crate::{Move, PieceKind, Position};

/// The sort key of the canonical move order: the order of the moves' UCI text in Chess960
/// notation (castling as king takes rook), i.e. by from square, then to square, each file
/// letter first and rank digit second (`a1` < `a2` < ... < `a8` < `b1`), then the promotion
/// letter with no letter first (`""` < `b` < `n` < `q` < `r`).
pub fn canonical_order_key(mv: Move) -> u32 {
    let text_order = |sq: crate::Square| (sq.index() as u32 % 8) * 8 + sq.index() as u32 / 8;
    let promotion = match mv.promotion() {
        None => 0,
        Some(PieceKind::Bishop) => 1,
        Some(PieceKind::Knight) => 2,
        Some(PieceKind::Queen) => 3,
        Some(_) => 4,
    };
    (text_order(mv.from()) * 64 + text_order(mv.to())) * 5 + promotion
}

/// The legal moves of `pos` in the canonical order (see [`canonical_order_key`]).
pub fn canonical_moves(pos: &Position) -> Vec<Move> {
    let mut moves = pos.legal_moves();
    sort_canonically(&mut moves);
    moves.to_vec()
}

/// Sorts moves into the canonical order: each key is computed once, and the keys (with each
/// move's place) are sorted as plain integers.
pub fn sort_canonically(moves: &mut [Move]) {
    let mut keys = [0u32; MAX_MOVES];
    let keys = &mut keys[..moves.len()];
    for (index, (key, &mv)) in keys.iter_mut().zip(moves.iter()).enumerate() {
        *key = canonical_order_key(mv) << 8 | index as u32;
    }
    keys.sort_unstable();
    let mut original = [Move::default(); MAX_MOVES];
    original[..moves.len()].copy_from_slice(moves);
    for (slot, key) in moves.iter_mut().zip(keys.iter()) {
        *slot = original[(key & 0xff) as usize];
    }
}

/// Bits for an index below `n`: ceil(log2 n), 0 when n == 1.
fn index_width(n: usize) -> u32 {
    usize::BITS - (n.max(1) - 1).leading_zeros()
}

/// Each move's index in the canonical order and the number of legal moves, checking legality.
fn indices(game: &GameRecord) -> Result<Vec<(usize, usize)>, GameEncodeError> {
    let mut pos = game.start.clone();
    let mut out = Vec::with_capacity(game.moves.len());
    for (ply, &mv) in game.moves.iter().enumerate() {
        let legal = canonical_moves(&pos);
        let index = legal
            .iter()
            .position(|&m| m == mv)
            .ok_or(GameEncodeError::IllegalMove { ply: ply + 1 })?;
        out.push((index, legal.len()));
        let _ = pos.make(mv);
    }
    Ok(out)
}

/// `index`: ceil(log2 n) bits per move.
pub(super) fn write_indices(out: &mut Bits, game: &GameRecord) -> Result<(), GameEncodeError> {
    for (index, n) in indices(game)? {
        out.push_bits(index as u64, index_width(n));
    }
    Ok(())
}

/// `arith` with the uniform model: the indices, one arithmetic-coded segment.
pub(super) fn write_arith(out: &mut Bits, game: &GameRecord) -> Result<(), GameEncodeError> {
    let indices = indices(game)?;
    let mut encoder = arith::Encoder::new(out);
    for (index, n) in indices {
        encoder.encode_uniform(index as u32, n as u32);
    }
    encoder.finish();
    Ok(())
}

/// The piece codes of the promotion escape.
const PROMOTIONS: [PieceKind; 4] = [
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
];

/// `squares`: from and to in 6 bits each, and 2 bits of piece after a promotion.
pub(super) fn write_squares(out: &mut Bits, game: &GameRecord) -> Result<(), GameEncodeError> {
    let mut pos = game.start.clone();
    for (ply, &mv) in game.moves.iter().enumerate() {
        if !pos.legal_moves().contains(&mv) {
            return Err(GameEncodeError::IllegalMove { ply: ply + 1 });
        }
        out.push_bits(mv.from().index() as u64, 6);
        out.push_bits(mv.to().index() as u64, 6);
        if let Some(piece) = mv.promotion() {
            let code = PROMOTIONS.iter().position(|&p| p == piece).unwrap_or(0);
            out.push_bits(code as u64, 2);
        }
        let _ = pos.make(mv);
    }
    Ok(())
}

/// Plays `count` moves from `start`, each chosen by `pick` from the legal moves in canonical
/// order (never empty) and the ply (from 1).
fn play_moves(
    start: &Position,
    count: usize,
    mut pick: impl FnMut(&[Move], usize) -> Result<Move, GameCodecError>,
) -> Result<Vec<Move>, GameCodecError> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(count.min(1024));
    for ply in 1..=count {
        let legal = canonical_moves(&pos);
        if legal.is_empty() {
            return Err(GameCodecError::NoLegalMoves { ply });
        }
        let mv = pick(&legal, ply)?;
        moves.push(mv);
        let _ = pos.make(mv);
    }
    Ok(moves)
}

pub(super) fn read_indices(
    input: &mut BitReader,
    start: &Position,
    count: usize,
) -> Result<Vec<Move>, GameCodecError> {
    play_moves(start, count, |legal, ply| {
        let index = input.read_bits(index_width(legal.len()))?;
        legal
            .get(index as usize)
            .copied()
            .ok_or(GameCodecError::IndexOutOfRange {
                ply,
                index,
                legal: legal.len(),
            })
    })
}

/// Decodes `count` moves of a uniform `arith` segment, re-encoding each symbol into `again` as
/// it goes (the caller checks that the input is exactly the encoder's output).
pub(super) fn read_arith(
    input: &mut BitReader,
    start: &Position,
    count: usize,
    again: &mut Bits,
) -> Result<Vec<Move>, GameCodecError> {
    let mut decoder = arith::Decoder::new(input);
    let mut encoder = arith::Encoder::new(again);
    let moves = play_moves(start, count, |legal, _| {
        let n = legal.len() as u32;
        let index = decoder.decode_uniform(n);
        encoder.encode_uniform(index, n);
        Ok(legal[index as usize])
    });
    encoder.finish();
    moves
}

pub(super) fn read_squares(
    input: &mut BitReader,
    start: &Position,
    count: usize,
) -> Result<Vec<Move>, GameCodecError> {
    play_moves(start, count, |legal, ply| {
        let from = input.read_bits(6)? as usize;
        let to = input.read_bits(6)? as usize;
        let matching = |mv: &&Move| mv.from().index() == from && mv.to().index() == to;
        let found = legal
            .iter()
            .find(matching)
            .ok_or(GameCodecError::NoSuchMove {
                ply,
                squares: (from as u8, to as u8),
            })?;
        if found.promotion().is_none() {
            return Ok(*found);
        }
        let piece = PROMOTIONS[input.read_bits(2)? as usize];
        legal
            .iter()
            .filter(matching)
            .find(|mv| mv.promotion() == Some(piece))
            .copied()
            .ok_or(GameCodecError::NoSuchMove {
                ply,
                squares: (from as u8, to as u8),
            })
    })
}
