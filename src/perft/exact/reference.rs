//! The reference walk: make and unmake on the full [`Position`], its legal move list at every
//! node, a memo table keyed by the whole board. Slow and plain: the independent check of the
//! fast walk, the walk of exact fractions, and the top plies of a merge.

use super::{BoardId, Ends, Frontier, MemoTable, Weight};
use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::{Bitboard, Color, PieceKind, Position, Square};

pub(super) struct Walker<'a, W> {
    pub(super) table: MemoTable<Ends<W>>,
    pub(super) frontier: Option<(&'a Frontier<W>, u32)>,
}

impl<W: Weight> Walker<'_, W> {
    /// The games from `pos` (at `ply` from the root) that end exactly `d >= 1` plies later.
    pub(super) fn ends(&mut self, pos: &mut Position, d: u32, ply: u32) -> Ends<W> {
        if let Some((values, split)) = self.frontier {
            if ply == split {
                // Checked complete before the walk.
                return values[&BoardId::of(pos)][d as usize - 1].clone();
            }
        }
        let id = self.table.enabled().then(|| BoardId::of(pos));
        if let Some(found) = id.as_ref().and_then(|id| self.table.get(id, d)) {
            return found.clone();
        }
        let moves = pos.legal_moves();
        let n = moves.len() as u64;
        if n == 0 {
            return Ends::none();
        }
        let result = if d == 1 {
            let (mut mates, mut stalemates) = (0, 0);
            for &mv in moves.iter() {
                let undo = pos.make(mv);
                if !has_legal_move(pos) {
                    if pos.in_check() {
                        mates += 1;
                    } else {
                        stalemates += 1;
                    }
                }
                pos.unmake(mv, &undo);
            }
            Ends {
                mates,
                stalemates,
                p_mate: W::ratio(mates, n),
                p_stalemate: W::ratio(stalemates, n),
            }
        } else {
            let (mut mates, mut stalemates) = (0, 0);
            let (mut p_mate, mut p_stalemate) = (W::start(), W::start());
            for &mv in moves.iter() {
                let undo = pos.make(mv);
                let child = self.ends(pos, d - 1, ply + 1);
                pos.unmake(mv, &undo);
                mates += child.mates;
                stalemates += child.stalemates;
                W::add(&mut p_mate, &child.p_mate, n);
                W::add(&mut p_stalemate, &child.p_stalemate, n);
            }
            Ends {
                mates,
                stalemates,
                p_mate: W::mean(p_mate, n),
                p_stalemate: W::mean(p_stalemate, n),
            }
        };
        if let Some(id) = id {
            self.table.put(id, d, result.clone());
        }
        result
    }
}

/// True when the side to move has a legal move. Out of check, a witness is looked for first
/// (a knight or a pawn push of a piece that no slider pins, or a king step to an unattacked
/// square), which nearly every position has; else, and in check, the moves are counted.
fn has_legal_move(pos: &Position) -> bool {
    if !pos.in_check() && has_quick_witness(pos) {
        return true;
    }
    pos.count_legal_moves() > 0
}

fn has_quick_witness(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let them = !us;
    let own = pos.color_bb(us);
    let occupied = pos.occupied();
    let king = pos.king_square(us);
    let queens = pos.pieces(them, PieceKind::Queen);
    let rooks = pos.pieces(them, PieceKind::Rook) | queens;
    let bishops = pos.pieces(them, PieceKind::Bishop) | queens;
    // Not in check: a piece is pinned exactly when taking it off exposes the king to a slider.
    let pinned = |from: Square| {
        let without = occupied ^ Bitboard::from_square(from);
        !(rook_attacks(king, without) & rooks).is_empty()
            || !(bishop_attacks(king, without) & bishops).is_empty()
    };
    for from in pos.pieces(us, PieceKind::Knight) {
        if !(knight_attacks(from) & !own).is_empty() && !pinned(from) {
            return true;
        }
    }
    let empty = !occupied;
    for from in pos.pieces(us, PieceKind::Pawn) {
        let ahead = if us == Color::White {
            Bitboard::from_square(from).north()
        } else {
            Bitboard::from_square(from).south()
        };
        if !(ahead & empty).is_empty() && !pinned(from) {
            return true;
        }
    }
    let without_king = occupied ^ Bitboard::from_square(king);
    (king_attacks(king) & !own)
        .into_iter()
        .any(|to| !pos.is_attacked(to, them, without_king))
}
