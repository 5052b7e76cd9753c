//! Between a PGN game and what a game codec keeps of it: the start position, Chess960, the moves
//! and the result (tags other than those, comments and variations are not kept).

use super::{GameRecord, GameResult};
use crate::notation::pgn::PgnGame;

/// What a codec keeps of a PGN game.
pub fn record_of(game: &PgnGame) -> GameRecord {
    GameRecord {
        start: game.start.clone(),
        chess960: game.chess960,
        moves: game.moves.clone(),
        result: GameResult::from_pgn(&game.result).unwrap_or(GameResult::Unknown),
    }
}

/// A PGN game with no tags but those the record implies.
pub fn pgn_of(record: GameRecord) -> PgnGame {
    PgnGame {
        tags: Vec::new(),
        start: record.start,
        chess960: record.chess960,
        moves: record.moves,
        result: record.result.as_pgn().to_string(),
    }
}
