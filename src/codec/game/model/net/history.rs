//! A game's history as the network model sees it: the last two moves, whether the last took a
//! piece, the ply and the book sequence while within the book's plies.

use super::super::book::{self, BOOK_PLIES};
use crate::{Move, MoveKind, Position};

/// A game's history as the network model sees it.
#[derive(Debug, Clone, Copy)]
pub struct History {
    pub(in crate::codec::game::model) last: Option<Move>,
    pub(in crate::codec::game::model) our_last: Option<Move>,
    /// True when the last move took a piece.
    pub(in crate::codec::game::model) last_captured: bool,
    pub(in crate::codec::game::model) ply: usize,
    pub(in crate::codec::game::model) book: Option<u64>,
}

impl History {
    /// The history at the start of a game from `start`.
    pub fn new(start: &Position) -> History {
        let standard = start == crate::codec::game::header::standard_start();
        History {
            last: None,
            our_last: None,
            last_captured: false,
            ply: 0,
            book: standard.then_some(book::ROOT),
        }
    }

    /// The history after `mv`, played in `pos`.
    pub fn after(&self, pos: &Position, mv: Move) -> History {
        let captured = match mv.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castling => false,
            _ => pos.piece_at(mv.to()).is_some(),
        };
        let ply = self.ply + 1;
        History {
            last: Some(mv),
            our_last: self.last,
            last_captured: captured,
            ply,
            book: self
                .book
                .filter(|_| ply < BOOK_PLIES)
                .map(|hash| book::extend(hash, mv)),
        }
    }

    /// The book hash of the moves so far, while within the book's plies from the start.
    pub fn book_hash(&self) -> Option<u64> {
        self.book
    }

    /// The number of plies played.
    pub fn ply(&self) -> usize {
        self.ply
    }
}

/// Calls `visit` on each position of seeded random games (`seed`), at most `plies` a game, from
/// every position of the perft suite `tests/data/perft/tricky.perft` (Chess960 castling,
/// promotions and en passant among them), with its history and its legal moves (never none).
#[cfg(test)]
pub(super) fn random_suite_positions(
    seed: u64,
    plies: usize,
    mut visit: impl FnMut(&Position, &History, &crate::movegen::MoveList),
) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/perft/tricky.perft"
    ))
    .unwrap();
    let mut rng = crate::types::splitmix::SplitMix::new(seed);
    for entry in crate::perft::suite::parse_suite(&text).unwrap() {
        let mut pos = Position::from_fen(&entry.fen).unwrap();
        let mut history = History::new(&pos);
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            visit(&pos, &history, &legal);
            let mv = legal[rng.below(legal.len())];
            history = history.after(&pos, mv);
            let _ = pos.make(mv);
        }
    }
}
