//! Moves as the xboard protocol (CECP) writes them: coordinates (either castling form) or SAN,
//! as negotiated; read the same way by Shannon's xboard engine and by the runner's xboard client.

use crate::notation::san::{parse_san, SanError};
use crate::notation::uci::{parse_move, UciMoveError};
use crate::{Move, Position};
use std::fmt;

/// Why a move text of the xboard protocol names no legal move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XboardMoveError {
    /// Coordinates of a move that is not legal in the position.
    NotLegal,
    /// Not coordinates, and no legal SAN move of the position.
    San(SanError),
}

impl XboardMoveError {
    /// Why the text was refused, without the text itself (the reason of `Illegal move`).
    pub fn reason(&self) -> String {
        match self {
            XboardMoveError::NotLegal => "not legal here".to_string(),
            XboardMoveError::San(error) => error.reason(),
        }
    }
}

impl fmt::Display for XboardMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason())
    }
}

impl std::error::Error for XboardMoveError {}

/// The legal move `text` names in `position`: coordinates (either castling form), else SAN, with
/// `0-0`/`0-0-0` read as `O-O`/`O-O-O` (some engines write zeros).
pub fn parse_xboard_move(position: &Position, text: &str) -> Result<Move, XboardMoveError> {
    match parse_move(position, text) {
        Ok(mv) => Ok(mv),
        Err(UciMoveError::Illegal { .. }) => Err(XboardMoveError::NotLegal),
        Err(UciMoveError::Syntax { .. }) => parse_san(position, text).or_else(|error| {
            match text.contains("0-0") {
                true => parse_san(position, &text.replace("0-0", "O-O")),
                false => Err(error.clone()),
            }
            .map_err(|_| XboardMoveError::San(error))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_san_and_zeros_are_read_and_illegal_moves_refused() {
        let start = Position::startpos();
        let e4 = parse_xboard_move(&start, "e2e4").unwrap();
        assert_eq!(parse_xboard_move(&start, "e4"), Ok(e4));
        assert_eq!(
            parse_xboard_move(&start, "e2e5"),
            Err(XboardMoveError::NotLegal)
        );
        assert!(matches!(
            parse_xboard_move(&start, "Qh5"),
            Err(XboardMoveError::San(_))
        ));
        let castling = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let short = parse_xboard_move(&castling, "O-O").unwrap();
        assert_eq!(parse_xboard_move(&castling, "0-0"), Ok(short));
        assert_eq!(parse_xboard_move(&castling, "e1g1"), Ok(short));
    }
}
