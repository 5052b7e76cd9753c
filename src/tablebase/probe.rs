//! Probing as Syzygy defines it: a table's value is the position's only when the side to move
//! has no capture to consider, so captures are searched first.
//!
//! The generator stores, for a position where a capture is best, whatever value compresses best
//! (a "don't care"), and stores no position with an en passant right at all. So a probe runs a
//! small alpha-beta over captures only ([`search`]): the position's value is the best of its
//! captures' values and the table's. At the root, en passant captures join in, with the one case
//! the table cannot know: when the only legal moves are en passant captures, the table (which
//! sees the position without the right) says stalemate, and the best capture decides
//! ([`root`]). This follows the reference prober (Ronald de Man's, as Fathom and pyrrhic
//! carry it); python-chess's `probe_wdl` reaches the same values by a different order.

use super::error::ProbeError;
use super::material::Material;
use super::Tablebase;
use crate::movegen::MoveList;
use crate::{Move, MoveKind, Position};

/// The value of a position no table holds: below every real one.
const NONE: i8 = -3;

/// True when `mv` captures (en passant included). Castling, stored as king takes rook, is not.
pub(super) fn is_capture(pos: &Position, mv: Move) -> bool {
    match mv.kind() {
        MoveKind::EnPassant => true,
        MoveKind::Castling => false,
        _ => pos.piece_at(mv.to()).is_some(),
    }
}

/// The legal captures of `pos`.
fn captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    for &mv in pos.legal_moves().iter() {
        if is_capture(pos, mv) {
            list.push(mv);
        }
    }
    list
}

/// The value of `pos` for the side to move, -2..=2, with en passant captures considered.
pub(super) fn root(tb: &Tablebase, pos: &Position) -> Result<i8, ProbeError> {
    let mut best_capture = NONE;
    let mut best_en_passant = NONE;
    let mut child = pos.clone();
    for &mv in captures(pos).iter() {
        let undo = child.make(mv);
        let value = search(tb, &child, -2, -best_capture);
        child.unmake(mv, &undo);
        let value = -value?;
        if value > best_capture {
            if value == 2 {
                return Ok(2);
            }
            if mv.kind() != MoveKind::EnPassant {
                best_capture = value;
            } else if value > best_en_passant {
                best_en_passant = value;
            }
        }
    }
    let stored = table_value(tb, pos)?;
    // Without the en passant right, the value is the best of the table and the other captures.
    if best_en_passant > best_capture {
        if best_en_passant > stored {
            return Ok(best_en_passant);
        }
        best_capture = best_en_passant;
    }
    if best_capture >= stored {
        return Ok(best_capture);
    }
    // The table says draw; if en passant captures are the only legal moves, that draw is the
    // stalemate of the position without the right, and the capture must be played.
    if best_en_passant > NONE && stored == 0 && !pos.in_check() {
        let only_en_passant = pos
            .legal_moves()
            .iter()
            .all(|mv| mv.kind() == MoveKind::EnPassant);
        if only_en_passant {
            return Ok(best_en_passant);
        }
    }
    Ok(stored)
}

/// Alpha-beta over captures of a position without an en passant right (every position after a
/// capture): the value for the side to move, exact when it lies within `alpha..beta`.
fn search(tb: &Tablebase, pos: &Position, mut alpha: i8, beta: i8) -> Result<i8, ProbeError> {
    let mut child = pos.clone();
    for &mv in captures(pos).iter() {
        let undo = child.make(mv);
        let value = search(tb, &child, -beta, -alpha);
        child.unmake(mv, &undo);
        let value = -value?;
        if value > alpha {
            if value >= beta {
                return Ok(value);
            }
            alpha = value;
        }
    }
    Ok(alpha.max(table_value(tb, pos)?))
}

/// The table's value of `pos`, captures not considered: 0 for the two kings alone.
pub(super) fn table_value(tb: &Tablebase, pos: &Position) -> Result<i8, ProbeError> {
    let material = Material::of(pos);
    if material.pieces() == 2 {
        return Ok(0);
    }
    tb.table_for(material)?
        .wdl(pos)
        .map_err(|problem| tb.error_for(material, problem))
}
