//! What the coder asks of a move model ([`MovePredictor`]) and what a model fills in for each
//! position ([`Distribution`]): a file of its own, so that the models (linear and network) and
//! the coder import it without importing each other.

use super::net::context::Context;
use crate::codec::game::moves::CanonicalOrder;
use crate::movegen::MoveList;
use crate::{Move, Position};

/// What the coder asks of a fitted model: a distribution over the legal moves of each position
/// of a game, and the odds of the game's end and result. Everything integer, so the encoder and
/// the decoder find the same numbers.
pub trait MovePredictor {
    /// What the model remembers of the game so far.
    type History: Clone;
    /// The history at the start of a game from `start`.
    fn history(&self, start: &Position) -> Self::History;
    /// The history after `mv`, played in `pos`.
    fn after(&self, history: &Self::History, pos: &Position, mv: Move) -> Self::History;
    /// Fills `out` with the legal moves of `pos` (canonical order) and their frequencies.
    fn distribution(&self, pos: &Position, history: &Self::History, out: &mut Distribution);
    /// The odds of the game going on and of its ending in `pos` (which has legal moves).
    fn end_odds(&self, pos: &Position, history: &Self::History) -> [u32; 2];
    /// The odds of each result ([`crate::game::Outcome::ALL`]) when the game ends in `pos`.
    fn result_odds(&self, pos: &Position, history: &Self::History, has_moves: bool) -> [u32; 4];
}

/// Fits frequencies (each at least 1 and at most 2^15) whose sum is `sum` to the arithmetic
/// coder's total: unchanged when they fit, else each scaled by one 32-bit fixed-point factor,
/// budget / sum (below 1), leaving room for the floor of 1 of up to 256 moves. Returns their
/// total.
pub(super) fn fit_to_total(freqs: &mut [u32], sum: u64) -> u32 {
    let limit = crate::codec::arith::MAX_TOTAL;
    if sum <= u64::from(limit) {
        return sum as u32;
    }
    let budget = u64::from(limit - 256);
    let factor = (budget << 32) / sum;
    let mut total = 0;
    for f in freqs.iter_mut() {
        *f = (((u64::from(*f) * factor) >> 32) as u32).max(1);
        total += *f;
    }
    total
}

/// The legal moves of a position in canonical order and their frequencies.
#[derive(Debug, Clone, Default)]
pub struct Distribution {
    /// The legal moves, in the canonical order ([`crate::codec::game::canonical_order_key`]).
    pub moves: MoveList,
    /// Each move's frequency (>= 1).
    pub freqs: Vec<u32>,
    /// Their sum (<= the arithmetic coder's limit).
    pub total: u32,
    pub(super) scores: Vec<i32>,
    pub(super) order: CanonicalOrder,
    /// The network models' context of the position, renewed in place from one position to
    /// the next ([`Context::renew`]).
    pub(super) context: Option<Context>,
}
