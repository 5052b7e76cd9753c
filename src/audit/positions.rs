//! The positions the audit asks an engine to move in: the ones move generators get wrong
//! (checks, double checks, pins, en passant, en passant that would expose the king, promotions,
//! castling through or out of check, a single legal move) and the two without a move (mate and
//! stalemate). A unit test holds each to what its name says.

/// One position and what a correct `bestmove` is there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrickyPosition {
    /// What makes it tricky.
    pub name: &'static str,
    /// The position.
    pub fen: &'static str,
    /// The one legal move, when there is exactly one.
    pub only_move: Option<&'static str>,
}

/// Positions with at least one legal move.
pub const TRICKY: [TrickyPosition; 12] = [
    TrickyPosition {
        name: "check by a knight",
        fen: "4k3/8/8/8/8/5n2/8/4K3 w - - 0 1",
        only_move: None,
    },
    TrickyPosition {
        name: "double check (only king moves)",
        fen: "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
        only_move: None,
    },
    TrickyPosition {
        name: "a pinned bishop",
        fen: "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
        only_move: None,
    },
    TrickyPosition {
        name: "en passant available",
        fen: "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        only_move: None,
    },
    TrickyPosition {
        name: "en passant would expose the king",
        fen: "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2",
        only_move: None,
    },
    TrickyPosition {
        name: "en passant takes the checking pawn",
        fen: "8/8/8/2k5/3Pp3/8/8/3K4 b - d3 0 1",
        only_move: None,
    },
    TrickyPosition {
        name: "promotion",
        fen: "8/P6k/8/8/8/8/8/K7 w - - 0 1",
        only_move: None,
    },
    TrickyPosition {
        name: "promotion by capture, pawn only",
        fen: "nr5k/P7/8/8/8/8/8/K7 w - - 0 1",
        only_move: None,
    },
    TrickyPosition {
        name: "castling through check",
        fen: "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1",
        only_move: None,
    },
    TrickyPosition {
        name: "castling out of check",
        fen: "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
        only_move: None,
    },
    TrickyPosition {
        name: "exactly one legal move",
        fen: "7k/8/5K2/8/8/8/8/6R1 b - - 0 1",
        only_move: Some("h8h7"),
    },
    TrickyPosition {
        name: "promotions by push and by capture, to any piece",
        fen: "8/8/8/8/8/7k/1p6/2R4K b - - 0 1",
        only_move: None,
    },
];

/// A checkmate (the side to move has no move).
pub const MATE: &str = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";

/// A stalemate.
pub const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::uci::format_move;
    use crate::{CastlingMode, Position};

    fn moves(fen: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        pos.legal_moves()
            .iter()
            .map(|&mv| format_move(mv, CastlingMode::Standard))
            .collect()
    }

    #[test]
    fn each_position_is_what_its_name_says() {
        let has = |fen: &str, mv: &str| moves(fen).contains(&mv.to_string());
        for p in TRICKY {
            let legal = moves(p.fen);
            assert!(!legal.is_empty(), "{}", p.name);
            if let Some(only) = p.only_move {
                assert_eq!(legal, vec![only.to_string()], "{}", p.name);
            }
        }
        assert!(moves(TRICKY[1].fen).iter().all(|m| m.starts_with("e1")));
        assert!(!moves(TRICKY[2].fen).iter().any(|m| m.starts_with("e2")));
        assert!(has(TRICKY[3].fen, "e5d6"));
        assert!(!has(TRICKY[4].fen, "e5d6"));
        assert!(Position::from_fen(TRICKY[5].fen).unwrap().in_check());
        assert!(has(TRICKY[5].fen, "e4d3"));
        assert!(has(TRICKY[6].fen, "a7a8n"));
        assert!(has(TRICKY[7].fen, "a7b8q") && !has(TRICKY[7].fen, "a7a8q"));
        assert!(!has(TRICKY[8].fen, "e1g1"));
        assert!(!has(TRICKY[9].fen, "e1g1") && !has(TRICKY[9].fen, "e1c1"));
        assert!(has(TRICKY[11].fen, "b2c1n") && has(TRICKY[11].fen, "b2c1q"));
        assert!(moves(MATE).is_empty() && Position::from_fen(MATE).unwrap().in_check());
        assert!(moves(STALEMATE).is_empty() && !Position::from_fen(STALEMATE).unwrap().in_check());
    }
}
