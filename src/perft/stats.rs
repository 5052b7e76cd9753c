//! Perft with statistics: for each ply, the leaf count and how many of the moves into those
//! leaves were captures, en passant captures, castlings and promotions, gave check (directly, by
//! discovery, or twice) and mated: the columns of the Chess Programming Wiki's perft results
//! tables.
//!
//! The definitions (those the wiki's tables use, checked against them in the tests):
//! - a *capture* takes a piece, en passant included; a promotion that captures counts as both;
//! - a *check* is any move after which the side to move is in check, mates included;
//! - a *discovered check* is a check by one piece, not the one that moved (for castling, the
//!   rook; for a promotion, the new piece);
//! - a *double check* has two checkers (one of them necessarily discovered); it is not counted
//!   as a discovered check;
//! - a *checkmate* is a check that leaves no legal move.
//!
//! Counted by make/unmake on the full position. A table (`hash_mb`) keyed by the whole board,
//! never by a hash alone, keeps each (position, plies left)'s figures once, so a transposition
//! is counted exactly or not at all.

use super::exact::{BoardId, MemoTable};
use crate::types::MoveKind;
use crate::{Bitboard, Position, Square};

/// The figures of the moves into the leaves at one ply.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlyStats {
    /// Leaves (positions) at this ply, counted by the paths to them: the perft count.
    pub nodes: u64,
    /// Moves into them that captured (en passant included).
    pub captures: u64,
    /// Of those, en passant captures.
    pub en_passant: u64,
    /// Castling moves.
    pub castles: u64,
    /// Promotions (each piece chosen counts once).
    pub promotions: u64,
    /// Moves that gave check (mates included).
    pub checks: u64,
    /// Checks by a piece other than the one moved.
    pub discovered_checks: u64,
    /// Checks by two pieces.
    pub double_checks: u64,
    /// Checks that leave no legal move.
    pub checkmates: u64,
}

impl PlyStats {
    fn add(&mut self, other: &PlyStats) {
        self.nodes += other.nodes;
        self.captures += other.captures;
        self.en_passant += other.en_passant;
        self.castles += other.castles;
        self.promotions += other.promotions;
        self.checks += other.checks;
        self.discovered_checks += other.discovered_checks;
        self.double_checks += other.double_checks;
        self.checkmates += other.checkmates;
    }
}

/// The statistics of every ply from 1 to `depth` below `pos` (entry `i` is ply `i + 1`), with a
/// table of at most `hash_mb` MiB (0: none; the figures do not change, only the time).
///
/// ```
/// use shannon::perft::stats::ply_stats;
/// use shannon::Position;
///
/// let plies = ply_stats(&Position::startpos(), 4, 0);
/// assert_eq!(plies[3].nodes, 197_281);
/// assert_eq!((plies[3].captures, plies[3].checks, plies[3].checkmates), (1576, 469, 8));
/// ```
pub fn ply_stats(pos: &Position, depth: u32, hash_mb: usize) -> Vec<PlyStats> {
    let mut table = MemoTable::new(hash_mb);
    let mut pos = pos.clone();
    (1..=depth)
        .map(|ply| leaf_stats(&mut pos, ply, &mut table))
        .collect()
}

/// The figures of the moves into the leaves `depth` plies below `pos`.
fn leaf_stats(pos: &mut Position, depth: u32, table: &mut MemoTable<PlyStats>) -> PlyStats {
    if depth == 1 {
        return last_ply(pos);
    }
    let id = (depth >= 3 && table.enabled()).then(|| BoardId::of(pos));
    if let Some(found) = id.as_ref().and_then(|id| table.get(id, depth)) {
        return *found;
    }
    let mut total = PlyStats::default();
    for &mv in pos.legal_moves().iter() {
        let undo = pos.make(mv);
        total.add(&leaf_stats(pos, depth - 1, table));
        pos.unmake(mv, &undo);
    }
    if let Some(id) = id {
        table.put(id, depth, total);
    }
    total
}

/// The figures of the moves of `pos` itself.
fn last_ply(pos: &mut Position) -> PlyStats {
    let mut stats = PlyStats::default();
    let them = !pos.side_to_move();
    for &mv in pos.legal_moves().iter() {
        stats.nodes += 1;
        let captured = pos.color_bb(them).contains(mv.to());
        let kind = mv.kind();
        // Where the moved piece stands afterwards: for castling the rook's square.
        let mut moved_to = mv.to();
        match kind {
            MoveKind::EnPassant => {
                stats.captures += 1;
                stats.en_passant += 1;
            }
            MoveKind::Castling => {
                stats.castles += 1;
                let side = if mv.to().file() > mv.from().file() {
                    crate::CastlingSide::King
                } else {
                    crate::CastlingSide::Queen
                };
                moved_to = Square::new(side.rook_destination(), mv.from().rank());
            }
            MoveKind::Promotion(_) => {
                stats.promotions += 1;
                stats.captures += u64::from(captured);
            }
            MoveKind::Normal | MoveKind::DoublePush => stats.captures += u64::from(captured),
        }
        let undo = pos.make(mv);
        let checkers = pos.checkers();
        if !checkers.is_empty() {
            stats.checks += 1;
            if checkers.has_several() {
                stats.double_checks += 1;
            } else if checkers != Bitboard::from_square(moved_to) {
                stats.discovered_checks += 1;
            }
            if pos.count_legal_moves() == 0 {
                stats.checkmates += 1;
            }
        }
        pos.unmake(mv, &undo);
    }
    stats
}
