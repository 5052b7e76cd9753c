//! Moves as UCI text: `e2e4`, `e7e8q`, and castling as `e1g1` (standard) or `e1h1` (Chess960,
//! king takes rook).
//!
//! Moves are stored king-takes-rook; the notation is decided here, at the boundary, by
//! [`CastlingMode`]. Parsing accepts both castling forms in both modes, because GUIs echo an
//! engine's own notation back to it.

use crate::{CastlingMode, Move, MoveKind, PieceKind, Position, Square};
use std::fmt;

/// Why a piece of text is not a legal move here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UciMoveError {
    /// The text is not of the form `e2e4` or `e7e8q`.
    Syntax {
        /// The text.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Well-formed, but no legal move in the position matches.
    Illegal {
        /// The text.
        text: String,
    },
}

impl fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMoveError::Syntax { text, reason } => write!(f, "{text}: {reason}"),
            UciMoveError::Illegal { text } => write!(f, "{text}: not a legal move here"),
        }
    }
}

impl std::error::Error for UciMoveError {}

/// The UCI text of `mv` (played in `pos`, which decides how castling is shown).
pub fn format_move(mv: Move, mode: CastlingMode) -> String {
    let mut text = String::with_capacity(5);
    let from = mv.from();
    let to = match (mv.kind(), mode) {
        (MoveKind::Castling, CastlingMode::Standard) => standard_castling_destination(mv),
        _ => mv.to(),
    };
    text.push_str(&from.to_string());
    text.push_str(&to.to_string());
    if let Some(piece) = mv.promotion() {
        text.push(piece.to_char());
    }
    text
}

/// The `e1g1` destination of a castling move when king and rook stand where standard chess puts
/// them; otherwise the rook's square (no other notation could tell the moves apart).
fn standard_castling_destination(mv: Move) -> Square {
    use crate::File;
    let (king, rook) = (mv.from(), mv.to());
    match (king.file(), rook.file()) {
        (File::E, File::H) => Square::new(File::G, king.rank()),
        (File::E, File::A) => Square::new(File::C, king.rank()),
        _ => rook,
    }
}

/// The legal move in `pos` that `text` names, in either castling notation.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, UciMoveError> {
    let syntax = |reason| UciMoveError::Syntax {
        text: text.to_string(),
        reason,
    };
    if !text.is_ascii() || !(4..=5).contains(&text.len()) {
        return Err(syntax("expected a move like e2e4 or e7e8q"));
    }
    let from: Square = text[0..2]
        .parse()
        .map_err(|_| syntax("the first two characters are not a square"))?;
    let to: Square = text[2..4]
        .parse()
        .map_err(|_| syntax("characters 3-4 are not a square"))?;
    let promotion = match text.as_bytes().get(4) {
        None => None,
        Some(&c) => match PieceKind::from_char(c as char) {
            Some(
                kind @ (PieceKind::Queen | PieceKind::Rook | PieceKind::Bishop | PieceKind::Knight),
            ) if c.is_ascii_lowercase() => Some(kind),
            _ => return Err(syntax("the promotion piece must be one of q, r, b, n")),
        },
    };
    let legal = pos.legal_moves();
    let direct = legal
        .iter()
        .find(|mv| mv.from() == from && mv.to() == to && mv.promotion() == promotion)
        .copied();
    let castling_by_destination = || {
        legal
            .iter()
            .find(|mv| {
                mv.kind() == MoveKind::Castling
                    && mv.from() == from
                    && promotion.is_none()
                    && castling_king_destination(**mv) == to
            })
            .copied()
    };
    match direct {
        Some(mv) if mv.kind() != MoveKind::Castling || promotion.is_none() => Ok(mv),
        _ => castling_by_destination().ok_or_else(|| UciMoveError::Illegal {
            text: text.to_string(),
        }),
    }
}

/// Where the king ends up after a castling move.
pub fn castling_king_destination(mv: Move) -> Square {
    let side = if mv.to().file() > mv.from().file() {
        crate::CastlingSide::King
    } else {
        crate::CastlingSide::Queen
    };
    Square::new(side.king_destination(), mv.from().rank())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_in_both_notations() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for text in ["e1g1", "e1h1"] {
            let mv = parse_move(&pos, text).unwrap();
            assert_eq!(mv.kind(), MoveKind::Castling);
            assert_eq!(format_move(mv, CastlingMode::Standard), "e1g1");
            assert_eq!(format_move(mv, CastlingMode::Chess960), "e1h1");
        }
        let mv = parse_move(&pos, "e1c1").unwrap();
        assert_eq!(format_move(mv, CastlingMode::Chess960), "e1a1");
    }

    #[test]
    fn errors_say_which_move_and_why() {
        let pos = Position::startpos();
        assert_eq!(
            parse_move(&pos, "e2e5").unwrap_err().to_string(),
            "e2e5: not a legal move here"
        );
        assert!(matches!(
            parse_move(&pos, "e2"),
            Err(UciMoveError::Syntax { .. })
        ));
        assert!(matches!(
            parse_move(&pos, "e2e4k"),
            Err(UciMoveError::Syntax { .. })
        ));
        assert!(matches!(
            parse_move(&pos, "z2e4"),
            Err(UciMoveError::Syntax { .. })
        ));
        assert!(matches!(
            parse_move(&pos, "é2e4"),
            Err(UciMoveError::Syntax { .. })
        ));
    }

    #[test]
    fn promotions_need_their_letter() {
        let pos = Position::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
        assert!(parse_move(&pos, "e7e8").is_err());
        let mv = parse_move(&pos, "e7e8n").unwrap();
        assert_eq!(mv.promotion(), Some(PieceKind::Knight));
    }

    #[test]
    fn a_normal_king_move_wins_over_castling_by_destination() {
        // Chess960: king f1, rook h1. "f1g1" is a plain king step; "f1h1" is castling.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1").unwrap();
        assert_eq!(parse_move(&pos, "f1g1").unwrap().kind(), MoveKind::Normal);
        assert_eq!(parse_move(&pos, "f1h1").unwrap().kind(), MoveKind::Castling);
    }
}
