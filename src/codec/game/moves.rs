//! The three ways of writing the moves after the header.

use super::error::{GameCodecError, GameEncodeError};
use crate::codec::arith;
use crate::codec::bits::{BitReader, Bits};
use crate::game::GameRecord;
use crate::movegen::bitboard::{legal_moves_to, MoveSink, PawnMove};
use crate::movegen::MoveList;
use crate::{Bitboard, Move, MoveKind, PieceKind, Position, Square};

/// The sort key of the canonical move order: the order of the moves' UCI text in Chess960
/// notation (castling as king takes rook), i.e. by from square, then to square, each file
/// letter first and rank digit second (`a1` < `a2` < ... < `a8` < `b1`), then the promotion
/// letter with no letter first (`""` < `b` < `n` < `q` < `r`).
pub fn canonical_order_key(mv: Move) -> u32 {
    let text_order = |sq| text_order(sq) as u32;
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
    let mut moves = MoveList::new();
    CanonicalOrder::default().legal_moves(pos, &mut moves);
    moves.to_vec()
}

/// The legal moves of `pos` into `list` (replacing what it held), in the canonical order.
#[inline(always)]
pub(super) fn canonical_legal_moves(
    pos: &Position,
    order: &mut CanonicalOrder,
    list: &mut MoveList,
) {
    order.legal_moves(pos, list);
}

/// The legal moves in the canonical order without sorting: the generator's groups (a piece and
/// its destinations) are gathered by origin square, then read back with the origins and each
/// origin's destinations in the order's square order (file first: the bitboards are transposed,
/// so their bits come lowest first in that order). Each move's kind (double push, en passant,
/// castling as king takes rook, promotions in the key's order) follows from the squares. Same
/// result as sorting by [`canonical_order_key`] (a test checks it on every suite position and
/// the positions of random games from each).
///
/// It is empty between calls, so one order serves every position of a game.
#[derive(Clone)]
pub struct CanonicalOrder {
    /// Per origin square (board index): its destinations.
    targets: [u64; 64],
    /// The origins with moves.
    froms: u64,
}

impl Default for CanonicalOrder {
    fn default() -> CanonicalOrder {
        CanonicalOrder {
            targets: [0; 64],
            froms: 0,
        }
    }
}

impl std::fmt::Debug for CanonicalOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CanonicalOrder")
    }
}

impl MoveSink for CanonicalOrder {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard) {
        if !targets.is_empty() {
            self.targets[from.index()] |= targets.0;
            self.froms |= 1 << from.index();
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, _kind: PawnMove) {
        for to in targets {
            let from = (to.index() as isize - delta as isize) as usize & 63;
            self.targets[from] |= 1 << to.index();
            self.froms |= 1 << from;
        }
    }

    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.targets[mv.from().index()] |= 1 << mv.to().index();
        self.froms |= 1 << mv.from().index();
    }
}

/// The first and last ranks, where pawns promote.
const PROMOTION_RANKS: u64 = 0xff00_0000_0000_00ff;

impl CanonicalOrder {
    /// The legal moves of `pos` into `list` (replacing what it held), in the canonical order.
    #[inline(always)] // into the network models' tiers (net/scoring.rs)
    pub fn legal_moves(&mut self, pos: &Position, list: &mut MoveList) {
        list.clear();
        legal_moves_to(pos, self);
        let us = pos.side_to_move();
        let pawns = pos.pieces(us, PieceKind::Pawn).0;
        let ours = pos.color_bb(us).0;
        let king = pos.king_square(us).index();
        let en_passant = pos.en_passant().map_or(64, Square::index);
        for from in squares(transpose(std::mem::take(&mut self.froms))) {
            let from = transposed_index(from);
            let targets = transpose(std::mem::take(&mut self.targets[from]));
            let origin = Square::from_index_unchecked(from as u8);
            if pawns >> from & 1 != 0 {
                for to in squares(targets) {
                    let to = transposed_index(to);
                    let target = Square::from_index_unchecked(to as u8);
                    if PROMOTION_RANKS >> to & 1 != 0 {
                        for piece in [
                            PieceKind::Bishop,
                            PieceKind::Knight,
                            PieceKind::Queen,
                            PieceKind::Rook,
                        ] {
                            list.push(Move::new(origin, target, MoveKind::Promotion(piece)));
                        }
                    } else if to.abs_diff(from) == 16 {
                        list.push(Move::new(origin, target, MoveKind::DoublePush));
                    } else if to == en_passant {
                        list.push(Move::new(origin, target, MoveKind::EnPassant));
                    } else {
                        list.push(Move::normal(origin, target));
                    }
                }
            } else if from == king {
                for to in squares(targets) {
                    let to = transposed_index(to);
                    let target = Square::from_index_unchecked(to as u8);
                    if ours >> to & 1 != 0 {
                        list.push(Move::new(origin, target, MoveKind::Castling));
                    } else {
                        list.push(Move::normal(origin, target));
                    }
                }
            } else {
                for to in squares(targets) {
                    let target = Square::from_index_unchecked(transposed_index(to) as u8);
                    list.push(Move::normal(origin, target));
                }
            }
        }
    }
}

/// The bitboard mirrored in the a1-h8 diagonal: the bit of square (file f, rank r) moves to
/// index 8f + r, the square's place in the canonical order of squares.
#[inline(always)]
fn transpose(mut x: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The board index of the square with this place in the canonical order (and the other way).
#[inline(always)]
fn transposed_index(index: usize) -> usize {
    (index & 7) << 3 | index >> 3
}

/// A square's place in the canonical order of squares: file first, then rank (`a1` = 0,
/// `a2` = 1, ..., `h8` = 63).
#[inline(always)]
fn text_order(sq: crate::Square) -> usize {
    transposed_index(sq.index())
}

/// The bits of `set`, lowest first. (The test for none left comes first: the lowest bit of a
/// set known not to be empty needs no case for zero.)
#[inline(always)]
fn squares(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let bit = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(bit)
    })
}

/// Bits for an index below `n`: ceil(log2 n), 0 when n == 1.
fn index_width(n: usize) -> u32 {
    usize::BITS - (n.max(1) - 1).leading_zeros()
}

/// Each move's index in the canonical order and the number of legal moves, checking legality.
fn indices(game: &GameRecord) -> Result<Vec<(usize, usize)>, GameEncodeError> {
    let mut pos = game.start.clone();
    let mut out = Vec::with_capacity(game.moves.len());
    let (mut legal, mut order) = (MoveList::new(), CanonicalOrder::default());
    for (ply, &mv) in game.moves.iter().enumerate() {
        canonical_legal_moves(&pos, &mut order, &mut legal);
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
    let (mut legal, mut order) = (MoveList::new(), CanonicalOrder::default());
    for ply in 1..=count {
        canonical_legal_moves(&pos, &mut order, &mut legal);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::suite::parse_suite;
    use crate::types::splitmix::SplitMix;

    /// Every perft suite position, and the positions of a seeded random game of up to 200 plies
    /// from each (Chess960 castling, promotions, en passant, checks and pins all occur).
    fn positions() -> Vec<Position> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/");
        let mut out = Vec::new();
        let mut rng = SplitMix::new(24);
        for name in [
            "standard.epd",
            "cpw.epd",
            "en_passant.epd",
            "special_cases.epd",
            "tricky.perft",
            "chess960.perft",
            "chess960_start.epd",
        ] {
            let text = std::fs::read_to_string(format!("{dir}{name}")).expect("suite file");
            for entry in parse_suite(&text).expect("suite parses") {
                let mut pos = Position::from_fen(&entry.fen).expect("suite FEN");
                out.push(pos.clone());
                for _ in 0..200 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let _ = pos.make(legal[rng.below(legal.len())]);
                    out.push(pos.clone());
                }
            }
        }
        out
    }

    /// The codecs' list of legal moves is the generator's list sorted by the canonical key, in
    /// every position, with one order reused throughout as the codecs reuse it.
    #[test]
    fn canonical_legal_moves_are_the_legal_moves_sorted_by_key() {
        let (mut order, mut list) = (CanonicalOrder::default(), MoveList::new());
        let positions = positions();
        assert!(positions.len() > 10_000, "{}", positions.len());
        for pos in positions {
            let mut expected = pos.legal_moves().to_vec();
            expected.sort_by_key(|&mv| canonical_order_key(mv));
            canonical_legal_moves(&pos, &mut order, &mut list);
            assert_eq!(list.as_slice(), expected.as_slice(), "{}", pos.fen());
            assert_eq!(canonical_moves(&pos), expected, "{}", pos.fen());
        }
    }
}
