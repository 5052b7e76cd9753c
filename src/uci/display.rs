//! `d`: the held game's current position for a person, Stockfish style: a board diagram, the FEN,
//! the Zobrist key, the checkers, and what the game knows that Stockfish does not print (legal
//! moves, repetitions, the halfmove clock, whether the game is over).

use super::history::History;
use crate::{FenCastling, File, Rank, Square};

/// The lines `d` prints.
pub fn describe(
    history: &History,
    generator: crate::movegen::Generator,
    fen_style: FenCastling,
    castling_mode: crate::notation::uci::CastlingMode,
) -> Vec<String> {
    let game = history.game();
    let pos = game.position();
    let rule = " +---+---+---+---+---+---+---+---+";
    let mut lines = vec![String::new(), rule.to_string()];
    for rank in Rank::ALL.iter().rev() {
        let mut row = String::from(" |");
        for file in File::ALL {
            let c = pos
                .piece_at(Square::new(file, *rank))
                .map_or(' ', |p| p.to_char());
            row.push_str(&format!(" {c} |"));
        }
        row.push_str(&format!(" {}", rank.to_char()));
        lines.push(row);
        lines.push(rule.to_string());
    }
    lines.push("   a   b   c   d   e   f   g   h".to_string());
    lines.push(String::new());
    lines.push(format!("Fen: {}", pos.fen(fen_style)));
    lines.push(format!("Key: {:016X}", pos.key()));
    let checkers: Vec<String> = pos.checkers().map(|sq| sq.to_string()).collect();
    lines.push(format!("Checkers: {}", checkers.join(" ")));
    let mut legal = crate::movegen::MoveList::new();
    generator.legal_moves(pos, &mut legal);
    lines.push(format!("Legal moves: {}", legal.len()));
    lines.push(format!("Repetitions: {}", game.repetitions()));
    lines.push(format!("Halfmove clock: {}", pos.halfmove_clock()));
    lines.push(format!("Moves played: {}", game.moves().len()));
    lines.push(format!(
        "Game state: {}",
        super::engine::game_state(game, &legal, castling_mode)
    ));
    lines
}
