//! `d`: the held game's current position for a person, Stockfish style: the board picture
//! (`Display for Position`), the FEN, the Zobrist key, the checkers, and what the game knows that
//! Stockfish does not print (legal moves, repetitions, the halfmove clock, the game's state).

use super::history::History;
use crate::game::{Game, Status};
use crate::movegen::{Generator, MoveList};
use crate::notation::uci::format_move;
use crate::{CastlingMode, Move};

/// The lines `d` prints; FEN and moves are written for `mode`.
pub fn describe(history: &History, generator: Generator, mode: CastlingMode) -> Vec<String> {
    let game = history.game();
    let pos = game.position();
    let mut lines: Vec<String> = pos.to_string().lines().map(str::to_string).collect();
    lines.push(String::new());
    lines.push(format!("Fen: {}", pos.fen_for(mode)));
    lines.push(format!("Key: {:016X}", pos.key()));
    let checkers: Vec<String> = pos.checkers().map(|sq| sq.to_string()).collect();
    lines.push(format!("Checkers: {}", checkers.join(" ")));
    let mut legal = MoveList::new();
    generator.legal_moves(pos, &mut legal);
    lines.push(format!("Legal moves: {}", legal.len()));
    lines.push(format!("Repetitions: {}", game.repetitions()));
    lines.push(format!("Halfmove clock: {}", pos.halfmove_clock()));
    lines.push(format!("Moves played: {}", game.moves().len()));
    lines.push(format!("Game state: {}", game_state(game, &legal, mode)));
    lines
}

/// The game's state in words: the [`Status`] (`ongoing`, `over: <rule>`, `draw claimable:
/// <rule>`), or `draw claimable by playing <move>: <rule>` when the game goes on but announcing
/// that move would allow the claim (FIDE 9.2.1 and 9.3.1). `legal` are the current position's
/// legal moves.
pub fn game_state(game: &Game, legal: &[Move], mode: CastlingMode) -> String {
    notable_state(game, legal, mode).unwrap_or_else(|| Status::Ongoing.to_string())
}

/// The game's state as [`game_state`] words it, or `None` when the game simply goes on (the
/// engine mentions the state before a move only when there is something to say).
pub fn notable_state(game: &Game, legal: &[Move], mode: CastlingMode) -> Option<String> {
    match game.status_with(legal.len()) {
        Status::Ongoing => game.claim_by_move(legal).map(|(mv, claim)| {
            format!(
                "draw claimable by playing {}: {claim}",
                format_move(mv, mode)
            )
        }),
        status => Some(status.to_string()),
    }
}
