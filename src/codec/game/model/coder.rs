//! A game's moves, its end and its result under a fitted model, as one arithmetic-coded segment
//! after the start position and Chess960 flag.
//!
//! Before each move, while the position has legal moves, a flag says whether the game goes on
//! ([`MovePredictor::end_odds`]; m1 and m2: by ply, [`super::Model::end`]); after the last move
//! comes the result ([`MovePredictor::result_odds`]; m1 and m2: by how the game stands,
//! [`super::Model::result`]: mated, no legal move, White or Black to move). The segment
//! ends with the prefix-free tail ([`arith::Encoder::finish_prefix_free`]), so no code is a
//! prefix of another: a cut code never decodes, and codes can follow each other with no length.

use super::predictor::{Distribution, MovePredictor};
use crate::codec::arith::{Decoder, Encoder};
use crate::game::{GameRecord, Outcome};
use crate::{Move, Position};

/// The ply buckets of the end flag's odds.
pub const END_BUCKETS: usize = 20;

/// The end flag's bucket at `ply` (from 0).
pub fn end_bucket(ply: usize) -> usize {
    (ply / 8).min(END_BUCKETS - 1)
}

/// Counts scaled down (at least 1 each) to sum to at most 2^15: the end's and the result's
/// odds as the fitting programs make them from their counts.
pub fn scaled<const N: usize>(counts: [u64; N]) -> [u32; N] {
    let sum: u64 = counts.iter().sum();
    let limit = 1 << 15;
    counts.map(|c| match sum > limit {
        true => ((c * limit / sum) as u32).max(1),
        false => c as u32,
    })
}

/// How the game stands at its end, for the result's odds: 0 mated, 1 no legal move (stalemate),
/// 2 White to move, 3 Black to move.
pub fn result_context(pos: &Position, has_moves: bool) -> usize {
    match (has_moves, pos.in_check()) {
        (false, true) => 0,
        (false, false) => 1,
        _ => 2 + pos.side_to_move().index(),
    }
}

/// The code of one symbol out of a small table of frequencies.
fn cumulative(freqs: &[u32], index: usize) -> (u32, u32, u32) {
    let cum = freqs[..index].iter().sum();
    (cum, freqs[index], freqs.iter().sum())
}

/// Why a game cannot be coded: the ply of an illegal move, or too many plies.
pub(in crate::codec::game) enum CodeError {
    IllegalMove(usize),
    TooLong,
}

/// Codes the moves and result of `game`.
pub(in crate::codec::game) fn encode<P: MovePredictor>(
    model: &P,
    game: &GameRecord,
    encoder: &mut Encoder,
    max_plies: usize,
) -> Result<(), CodeError> {
    if game.moves.len() > max_plies {
        return Err(CodeError::TooLong);
    }
    let mut pos = game.start.clone();
    let mut history = model.history(&pos);
    let mut dist = Distribution::default();
    for (ply, &mv) in game.moves.iter().enumerate() {
        model.distribution(&pos, &history, &mut dist);
        let index = dist.moves.iter().position(|&m| m == mv);
        let index = index.ok_or(CodeError::IllegalMove(ply + 1))?;
        let (cum, freq, total) = cumulative(&model.end_odds(&pos, &history), 0);
        encoder.encode(cum, freq, total);
        let cum: u32 = dist.freqs[..index].iter().sum();
        encoder.encode(cum, dist.freqs[index], dist.total);
        history = model.after(&history, &pos, mv);
        let _ = pos.make(mv);
    }
    let has_moves = pos.count_legal_moves() > 0;
    if has_moves {
        let (cum, freq, total) = cumulative(&model.end_odds(&pos, &history), 1);
        encoder.encode(cum, freq, total);
    }
    let outcome = Outcome::ALL
        .iter()
        .position(|&o| o == game.outcome)
        .unwrap_or(3);
    let odds = model.result_odds(&pos, &history, has_moves);
    let (cum, freq, total) = cumulative(&odds, outcome);
    encoder.encode(cum, freq, total);
    Ok(())
}

/// Decodes a segment written by [`encode`], re-encoding each symbol into `again`; `None` when
/// the moves run past `max_plies`.
pub(in crate::codec::game) fn decode<P: MovePredictor>(
    model: &P,
    start: &Position,
    decoder: &mut Decoder,
    again: &mut Encoder,
    max_plies: usize,
) -> Option<(Vec<Move>, Outcome)> {
    let mut pos = start.clone();
    let mut history = model.history(&pos);
    let mut dist = Distribution::default();
    let mut moves = Vec::new();
    loop {
        model.distribution(&pos, &history, &mut dist);
        if dist.moves.is_empty() || symbol(decoder, again, &model.end_odds(&pos, &history)) == 1 {
            break;
        }
        if moves.len() == max_plies {
            return None;
        }
        let mv = dist.moves[symbol_of(decoder, again, &dist.freqs, dist.total)];
        moves.push(mv);
        history = model.after(&history, &pos, mv);
        let _ = pos.make(mv);
    }
    let odds = model.result_odds(&pos, &history, !dist.moves.is_empty());
    let outcome = Outcome::ALL[symbol(decoder, again, &odds)];
    Some((moves, outcome))
}

/// Decodes one symbol of `freqs` and encodes it again.
fn symbol(decoder: &mut Decoder, again: &mut Encoder, freqs: &[u32]) -> usize {
    symbol_of(decoder, again, freqs, freqs.iter().sum())
}

/// [`symbol`] when the frequencies' sum, `total`, is known (a distribution's).
fn symbol_of(decoder: &mut Decoder, again: &mut Encoder, freqs: &[u32], total: u32) -> usize {
    let target = decoder.target(total);
    let (mut index, mut cum) = (0, 0);
    while cum + freqs[index] <= target {
        cum += freqs[index];
        index += 1;
    }
    decoder.consume(cum, freqs[index], total);
    again.encode(cum, freqs[index], total);
    index
}
