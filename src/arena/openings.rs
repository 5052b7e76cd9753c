//! Where match games start: the standard position, random Chess960 start positions, or the
//! positions of an EPD or PGN file (a PGN game's moves are played as the opening line).

use crate::chess960::{scharnagl_back_rank, start_position};
use crate::{CastlingMode, CastlingSide, Color, File, Move, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::fmt;

/// A start position and the opening moves played from it before the engines take over.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening {
    /// The position the game record starts from.
    pub start: Position,
    /// Moves played before the engines are asked (they are part of the game record).
    pub moves: Vec<Move>,
    /// How castling is written in the game: Chess960 for Chess960 starts.
    pub castling: CastlingMode,
    /// A label for messages: `startpos`, `chess960 #518`, `file.epd:12`.
    pub label: String,
}

/// Why openings cannot be loaded.
#[derive(Debug)]
pub enum OpeningsError {
    /// The file cannot be read.
    Read(String, std::io::Error),
    /// A line of an EPD file is not a legal position.
    Epd {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// Why.
        error: crate::FenError,
    },
    /// A game of a PGN file cannot be read.
    Pgn(String, String),
    /// The file has no position at all.
    Empty(String),
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Read(path, e) => write!(f, "cannot read openings file {path}: {e}"),
            OpeningsError::Epd { path, line, error } => write!(f, "{path}:{line}: {error}"),
            OpeningsError::Pgn(path, error) => write!(f, "{path}: {error}"),
            OpeningsError::Empty(path) => write!(f, "{path} holds no opening position"),
        }
    }
}

impl std::error::Error for OpeningsError {}

/// `wanted`, or Chess960 when the position needs it (see [`needs_chess960`]).
pub fn castling_for(pos: &Position, wanted: CastlingMode) -> CastlingMode {
    if needs_chess960(pos) {
        CastlingMode::Chess960
    } else {
        wanted
    }
}

/// True when the position's castling rights only make sense in Chess960 (king off the e-file
/// or a castling rook off the corner).
pub fn needs_chess960(pos: &Position) -> bool {
    Color::ALL.into_iter().any(|color| {
        CastlingSide::ALL
            .into_iter()
            .any(|side| match pos.castling_rights().rook(color, side) {
                None => false,
                Some(file) => {
                    let corner = if side == CastlingSide::King {
                        File::H
                    } else {
                        File::A
                    };
                    file != corner || pos.king_square(color).file() != File::E
                }
            })
    })
}

/// `count` openings for `spec`: `startpos`, `chess960` (uniform Scharnagl numbers drawn from
/// `seed`), or a path ending in `.epd` or `.pgn`.
pub fn load_openings(spec: &str, count: usize, seed: u64) -> Result<Vec<Opening>, OpeningsError> {
    match spec {
        "startpos" => Ok(vec![Opening {
            start: Position::startpos(),
            moves: Vec::new(),
            castling: CastlingMode::Standard,
            label: "startpos".into(),
        }]),
        "chess960" => {
            let mut rng = SmallRng::seed_from_u64(seed);
            Ok((0..count.max(1))
                .map(|_| {
                    let number = rng.random_range(0..960);
                    let rank = scharnagl_back_rank(number).expect("0..960");
                    Opening {
                        start: start_position(&rank),
                        moves: Vec::new(),
                        castling: CastlingMode::Chess960,
                        label: format!("chess960 #{number}"),
                    }
                })
                .collect())
        }
        path => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| OpeningsError::Read(path.to_string(), e))?;
            let openings = if path.to_ascii_lowercase().ends_with(".pgn") {
                pgn_openings(path, &text)?
            } else {
                epd_openings(path, &text)?
            };
            if openings.is_empty() {
                return Err(OpeningsError::Empty(path.to_string()));
            }
            Ok(openings)
        }
    }
}

/// EPD: one position per line (the first four to six fields; `;` operations are ignored).
fn epd_openings(path: &str, text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // Four FEN fields, then the two counters if they are there, then EPD operations.
        let words: Vec<&str> = line
            .split(';')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let mut fields = words.len().min(4);
        while fields < words.len().min(6) && words[fields].parse::<u32>().is_ok() {
            fields += 1;
        }
        let fields = &words[..fields];
        let start = Position::from_fen(&fields.join(" ")).map_err(|error| OpeningsError::Epd {
            path: path.to_string(),
            line: i + 1,
            error,
        })?;
        openings.push(Opening {
            castling: castling_for(&start, CastlingMode::Standard),
            start,
            moves: Vec::new(),
            label: format!("{path}:{}", i + 1),
        });
    }
    Ok(openings)
}

/// PGN: each game's start position and moves.
fn pgn_openings(path: &str, text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut openings = Vec::new();
    for (i, game) in crate::notation::pgn::read_games(text)
        .into_iter()
        .enumerate()
    {
        let game = game.map_err(|e| OpeningsError::Pgn(path.to_string(), e.to_string()))?;
        let record = game.record;
        openings.push(Opening {
            castling: castling_for(&record.start, record.castling),
            start: record.start,
            moves: record.moves,
            label: format!("{path} game {}", i + 1),
        });
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_openings_are_seeded_start_positions() {
        let a = load_openings("chess960", 10, 5).unwrap();
        let b = load_openings("chess960", 10, 5).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 10);
        assert!(a
            .iter()
            .all(|o| o.castling == CastlingMode::Chess960 && o.moves.is_empty()));
        assert!(!needs_chess960(&Position::startpos()));
    }

    #[test]
    fn epd_lines_with_operations() {
        let dir = std::env::temp_dir().join(format!("shannon-epd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("o.epd");
        std::fs::write(
            &path,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";\n\
             bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n",
        )
        .unwrap();
        let openings = load_openings(path.to_str().unwrap(), 2, 0).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].castling, CastlingMode::Standard);
        assert_eq!(openings[1].castling, CastlingMode::Chess960);
        std::fs::write(&path, "not a fen\n").unwrap();
        let err = load_openings(path.to_str().unwrap(), 1, 0).unwrap_err();
        assert!(err.to_string().contains(":1:"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
