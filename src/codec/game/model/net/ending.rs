//! The end of a game and its result under the network model: the odds that the game goes on
//! depend on the ply, the material balance and whether the last move took a piece (players
//! resign after losing material); the result's odds on how the game stands at its end (mated,
//! no legal move, or the side to move and the balance).

use super::super::coder::scaled;
use super::history::History;
use crate::game::{GameRecord, Outcome};
use crate::{Color, PieceKind, Position};

/// Ply buckets (16 plies each) of the end flag.
const PLY_BUCKETS: usize = 10;

/// Material balance buckets.
const BALANCES: usize = 5;

/// The number of end-flag contexts.
pub const END_CONTEXTS: usize = PLY_BUCKETS * BALANCES * 2;

/// The number of result contexts.
pub const RESULT_CONTEXTS: usize = 2 + 2 * BALANCES;

/// The side to move's material minus the other side's (pawn 1, knight and bishop 3, rook 5,
/// queen 9), as a bucket: 0 down 5 or more, 1 down 2-4, 2 within 1, 3 up 2-4, 4 up 5 or more.
fn balance(pos: &Position) -> usize {
    let material = |color: Color| {
        let count = |kind| pos.pieces(color, kind).count() as i32;
        count(PieceKind::Pawn)
            + 3 * (count(PieceKind::Knight) + count(PieceKind::Bishop))
            + 5 * count(PieceKind::Rook)
            + 9 * count(PieceKind::Queen)
    };
    let us = pos.side_to_move();
    match material(us) - material(!us) {
        ..=-5 => 0,
        -4..=-2 => 1,
        -1..=1 => 2,
        2..=4 => 3,
        _ => 4,
    }
}

/// The end flag's context before ply `history.ply()` in `pos`.
pub fn end_context(pos: &Position, history: &History) -> usize {
    let ply = (history.ply() / 16).min(PLY_BUCKETS - 1);
    (ply * BALANCES + balance(pos)) * 2 + usize::from(history.last_captured)
}

/// The result's context at the end: 0 mated, 1 no legal move (stalemate), else 2 + side to
/// move x balance.
pub fn result_context(pos: &Position, has_moves: bool) -> usize {
    match (has_moves, pos.in_check()) {
        (false, true) => 0,
        (false, false) => 1,
        _ => 2 + pos.side_to_move().index() * BALANCES + balance(pos),
    }
}

/// The odds of the end flag and of the result counted on `games` (each count plus a prior,
/// scaled to sum to at most 2^15).
pub fn fit(games: &[GameRecord]) -> (Vec<[u32; 2]>, Vec<[u32; 4]>) {
    // The prior: one game in fifty ends at any ply, results evenly.
    let mut end = vec![[50u64, 1]; END_CONTEXTS];
    let mut result = vec![[1u64; 4]; RESULT_CONTEXTS];
    for game in games {
        let mut pos = game.start.clone();
        let mut history = History::new(&pos);
        for &mv in &game.moves {
            end[end_context(&pos, &history)][0] += 1;
            history = history.after(&pos, mv);
            let _ = pos.make(mv);
        }
        let has_moves = pos.count_legal_moves() > 0;
        if has_moves {
            end[end_context(&pos, &history)][1] += 1;
        }
        let outcome = Outcome::ALL
            .iter()
            .position(|&o| o == game.outcome)
            .unwrap_or(3);
        result[result_context(&pos, has_moves)][outcome] += 1;
    }
    (
        end.into_iter().map(scaled).collect(),
        result.into_iter().map(scaled).collect(),
    )
}
