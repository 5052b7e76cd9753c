//! The fast legal move generator: attacks from magic bitboards, a check mask and pin rays, so no
//! move is ever made and unmade to test it.
//!
//! Legality rules, as the generator applies them:
//! - King moves: the destination must not be attacked with the king removed from the board (so
//!   the king cannot step back along a checking ray).
//! - In double check only the king moves.
//! - In single check the other pieces must capture the checker or block its ray (the check mask).
//! - A pinned piece moves only along the line through its king and itself; in check it cannot
//!   move at all, since it cannot both stay on its pin line and answer a check from elsewhere.
//! - En passant removes two pawns from one rank at once, which a pin test on one piece cannot
//!   see, so it is decided by recomputing the attacks on the king after the capture.
//! - Castling (standard and Chess960): not in check; every square between the king and its
//!   destination and between the rook and its destination empty except for those two pieces; no
//!   square the king crosses or lands on attacked, with the castling rook taken off the board
//!   (a Chess960 rook can shield its king from a rook or queen behind it).
//!
//! The generator reports moves to a `MoveSink` in groups (a piece and its destination set),
//! which lets perft count the last ply with population counts instead of listing moves.

use super::MoveList;
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::{
    Bitboard, CastlingSide, Color, File, Move, MoveKind, PieceKind, Position, Rank, Square,
};

/// How a group of pawn moves is played.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) enum PawnMove {
    #[default]
    Single,
    Double,
    /// Each destination is four moves, one per promotion piece.
    Promotion,
}

/// Receives the generated moves, grouped.
pub(crate) trait MoveSink {
    /// Normal moves (captures included) of the piece on `from` to each of `targets`.
    fn piece_moves(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves to each of `targets`, each from the square `delta` below it (in index steps).
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: PawnMove);
    /// One en passant or castling move.
    fn special(&mut self, mv: Move);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: PawnMove) {
        for to in targets {
            let from = Square::from_index_unchecked((to.index() as i8 - delta) as u8);
            match kind {
                PawnMove::Single => self.push(Move::normal(from, to)),
                PawnMove::Double => self.push(Move::new(from, to, MoveKind::DoublePush)),
                PawnMove::Promotion => {
                    for piece in PieceKind::PROMOTIONS {
                        self.push(Move::new(from, to, MoveKind::Promotion(piece)));
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without listing them.
struct Counter(u64);

impl MoveSink for Counter {
    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _delta: i8, kind: PawnMove) {
        let n = u64::from(targets.count());
        self.0 += if kind == PawnMove::Promotion {
            4 * n
        } else {
            n
        };
    }

    #[inline(always)]
    fn special(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

/// Append the legal moves of `pos` to `list`.
pub fn legal_moves(pos: &Position, list: &mut MoveList) {
    generate(pos, list);
}

/// The legal moves of `pos`, in groups, to `sink` (the game codecs gather them in their own
/// order).
#[inline(always)]
pub(crate) fn legal_moves_to<S: MoveSink>(pos: &Position, sink: &mut S) {
    generate(pos, sink);
}

/// The number of legal moves of `pos`.
pub fn count_legal(pos: &Position) -> u64 {
    let mut counter = Counter(0);
    generate(pos, &mut counter);
    counter.0
}

/// Every square a piece of `by` attacks, sliders seeing through `occupied`.
#[inline(always)]
fn attacked_by(pos: &Position, by: Color, occupied: Bitboard) -> Bitboard {
    let pawns = pos.pieces(by, PieceKind::Pawn).0;
    let (not_a, not_h) = (!Bitboard::file(File::A).0, !Bitboard::file(File::H).0);
    let mut attacked = Bitboard(match by {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    });
    for from in pos.pieces(by, PieceKind::Knight) {
        attacked |= knight_attacks(from);
    }
    let queens = pos.pieces(by, PieceKind::Queen);
    for from in pos.pieces(by, PieceKind::Bishop) | queens {
        attacked |= bishop_attacks(from, occupied);
    }
    for from in pos.pieces(by, PieceKind::Rook) | queens {
        attacked |= rook_attacks(from, occupied);
    }
    attacked | king_attacks(pos.king_square(by))
}

/// Our pieces that are the only blocker between our king and an enemy slider.
#[inline(always)]
fn pinned_pieces(pos: &Position, us: Color, king: Square) -> Bitboard {
    let them = !us;
    let theirs = pos.color_bb(them);
    let queens = pos.pieces(them, PieceKind::Queen);
    let snipers = (rook_attacks(king, theirs) & (pos.pieces(them, PieceKind::Rook) | queens))
        | (bishop_attacks(king, theirs) & (pos.pieces(them, PieceKind::Bishop) | queens));
    let occupied = pos.occupied();
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = between(king, sniper) & occupied;
        if !blockers.has_several() {
            pinned |= blockers & pos.color_bb(us);
        }
    }
    pinned
}

#[inline(always)]
fn generate<S: MoveSink>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let them = !us;
    let ours = pos.color_bb(us);
    let occupied = pos.occupied();
    let king = pos.king_square(us);
    let checkers = pos.checkers();

    let without_king = occupied ^ Bitboard::from_square(king);
    let candidates = king_attacks(king) & !ours;
    // A few squares are cheapest tested one by one; more, with one map of everything the other
    // side attacks (the king taken off the board, so it cannot hide behind itself).
    let king_targets = if candidates.count() <= 2 {
        let mut safe = Bitboard::EMPTY;
        for to in candidates {
            if !pos.is_attacked(to, them, without_king) {
                safe.insert(to);
            }
        }
        safe
    } else {
        candidates & !attacked_by(pos, them, without_king)
    };
    sink.piece_moves(king, king_targets);

    if checkers.has_several() {
        return;
    }
    let target = match checkers.first() {
        None => !ours,
        Some(checker) => between(king, checker) | checkers,
    };
    let pinned = pinned_pieces(pos, us, king);

    for from in pos.pieces(us, PieceKind::Knight) & !pinned {
        sink.piece_moves(from, knight_attacks(from) & target);
    }
    let queens = pos.pieces(us, PieceKind::Queen);
    for from in pos.pieces(us, PieceKind::Bishop) | queens {
        let mut targets = bishop_attacks(from, occupied) & target;
        if pinned.contains(from) {
            targets &= line(king, from);
        }
        sink.piece_moves(from, targets);
    }
    for from in pos.pieces(us, PieceKind::Rook) | queens {
        let mut targets = rook_attacks(from, occupied) & target;
        if pinned.contains(from) {
            targets &= line(king, from);
        }
        sink.piece_moves(from, targets);
    }

    let pawns = pos.pieces(us, PieceKind::Pawn);
    pawn_moves(pos, us, pawns & !pinned, target, sink);
    if checkers.is_empty() {
        for pawn in pawns & pinned {
            pawn_moves(
                pos,
                us,
                Bitboard::from_square(pawn),
                target & line(king, pawn),
                sink,
            );
        }
    }
    if let Some(ep) = pos.en_passant() {
        en_passant(pos, us, ep, king, sink);
    }
    if checkers.is_empty() {
        castling(pos, us, king, sink);
    }
}

/// Pushes, double pushes, captures and promotions of `pawns`, landing only on `allowed`.
#[inline(always)]
fn pawn_moves<S: MoveSink>(
    pos: &Position,
    us: Color,
    pawns: Bitboard,
    allowed: Bitboard,
    sink: &mut S,
) {
    if pawns.is_empty() {
        return;
    }
    let empty = !pos.occupied();
    let enemies = pos.color_bb(!us) & allowed;
    let not_a = !Bitboard::file(File::A);
    let not_h = !Bitboard::file(File::H);
    let (single, double, west, east, promotion_rank, forward) = match us {
        Color::White => {
            let single = pawns.north() & empty;
            let double = (single & Bitboard::rank(Rank::Third)).north() & empty & allowed;
            let west = Bitboard((pawns & not_a).0 << 7) & enemies;
            let east = Bitboard((pawns & not_h).0 << 9) & enemies;
            (
                single & allowed,
                double,
                west,
                east,
                Bitboard::rank(Rank::Eighth),
                8i8,
            )
        }
        Color::Black => {
            let single = pawns.south() & empty;
            let double = (single & Bitboard::rank(Rank::Sixth)).south() & empty & allowed;
            let west = Bitboard((pawns & not_a).0 >> 9) & enemies;
            let east = Bitboard((pawns & not_h).0 >> 7) & enemies;
            (
                single & allowed,
                double,
                west,
                east,
                Bitboard::rank(Rank::First),
                -8i8,
            )
        }
    };
    let (west_delta, east_delta) = (forward - 1, forward + 1);
    let others = !promotion_rank;
    sink.pawn_moves(single & others, forward, PawnMove::Single);
    sink.pawn_moves(double, 2 * forward, PawnMove::Double);
    sink.pawn_moves(west & others, west_delta, PawnMove::Single);
    sink.pawn_moves(east & others, east_delta, PawnMove::Single);
    if !((single | west | east) & promotion_rank).is_empty() {
        sink.pawn_moves(single & promotion_rank, forward, PawnMove::Promotion);
        sink.pawn_moves(west & promotion_rank, west_delta, PawnMove::Promotion);
        sink.pawn_moves(east & promotion_rank, east_delta, PawnMove::Promotion);
    }
}

/// En passant captures, each tested by looking at the king's attackers after the capture: that
/// covers pins on the capturing pawn, the rank pin through both pawns, and checks the capture
/// does or does not answer.
#[inline(always)]
fn en_passant<S: MoveSink>(pos: &Position, us: Color, ep: Square, king: Square, sink: &mut S) {
    let them = !us;
    let captured = Square::new(
        ep.file(),
        if us == Color::White {
            Rank::Fifth
        } else {
            Rank::Fourth
        },
    );
    for from in pawn_attacks(them, ep) & pos.pieces(us, PieceKind::Pawn) {
        let occupied =
            (pos.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured))
                | Bitboard::from_square(ep);
        let attackers = pos.attackers_to(king, occupied)
            & pos.color_bb(them)
            & !Bitboard::from_square(captured);
        if attackers.is_empty() {
            sink.special(Move::new(from, ep, MoveKind::EnPassant));
        }
    }
}

/// Castling moves of `us` (never called in check).
#[inline(always)]
fn castling<S: MoveSink>(pos: &Position, us: Color, king: Square, sink: &mut S) {
    let them = !us;
    let rank = us.back_rank();
    let occupied = pos.occupied();
    for side in CastlingSide::ALL {
        let Some(rook) = pos.castling_rook(us, side) else {
            continue;
        };
        let king_to = Square::new(side.king_destination(), rank);
        let rook_to = Square::new(side.rook_destination(), rank);
        let pieces = Bitboard::from_square(king) | Bitboard::from_square(rook);
        let must_be_empty = (between(king, king_to)
            | Bitboard::from_square(king_to)
            | between(rook, rook_to)
            | Bitboard::from_square(rook_to))
            & !pieces;
        if !(occupied & must_be_empty).is_empty() {
            continue;
        }
        let without_rook = occupied ^ Bitboard::from_square(rook);
        let king_path = between(king, king_to) | Bitboard::from_square(king_to);
        if king_path
            .into_iter()
            .all(|sq| !pos.is_attacked(sq, them, without_rook))
        {
            sink.special(Move::new(king, rook, MoveKind::Castling));
        }
    }
}
