//! Reading and writing FEN, X-FEN and Shredder-FEN, with validation.
//!
//! Castling letters: `KQkq` name the outermost rook on that wing (X-FEN), a file letter names the
//! rook on that file (Shredder-FEN, or X-FEN's disambiguation), and both may be mixed. The two
//! move counters are optional (EPD style): a missing halfmove clock is 0 and a missing fullmove
//! number is 1. Reading is in two steps: [`Setup::from_fen`] checks the syntax (its errors name the
//! field and the offending text), then [`Position::from_setup`] checks legality (its errors,
//! wrapped in [`FenError::Illegal`], name the rule that the position breaks).

use super::setup::{CastlingRook, PositionError, Setup};
use super::Position;
use crate::CastlingSide;
use crate::{CastlingMode, Color, File, Piece, PieceKind, Rank, Square};
use std::fmt;

/// How the castling field names a right's rook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CastlingLetters {
    /// `KQkq` when the right's rook is the outermost on its wing, the file letter otherwise
    /// (X-FEN; identical to standard FEN for standard positions).
    XFen,
    /// Always the rook's file letter: `HAha` (Shredder-FEN).
    Shredder,
}

/// What is wrong with a FEN: its syntax, or (wrapped) the legality of the position it describes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 to 6 space-separated fields.
    FieldCount {
        /// The whole text.
        fen: String,
        /// How many fields it has.
        found: usize,
    },
    /// The placement field is malformed.
    Placement {
        /// The placement field.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The side to move is not `w` or `b`.
    SideToMove(String),
    /// The castling field is not `-` or castling letters.
    Castling {
        /// The castling field.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The en passant field is not `-` or a square.
    EnPassant {
        /// The en passant field.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The halfmove clock is not a number.
    HalfmoveClock(String),
    /// The fullmove number is not a number.
    FullmoveNumber(String),
    /// The FEN is well-formed but the position is not legal.
    Illegal(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount { fen, found } => write!(
                f,
                "FEN '{fen}' has {found} fields; expected placement, side, castling, en passant \
                 and optionally the two move counters"
            ),
            FenError::Placement { text, reason } => write!(f, "placement field '{text}': {reason}"),
            FenError::SideToMove(text) => {
                write!(f, "side to move field '{text}': expected 'w' or 'b'")
            }
            FenError::Castling { text, reason } => write!(f, "castling field '{text}': {reason}"),
            FenError::EnPassant { text, reason } => {
                write!(f, "en passant field '{text}': {reason}")
            }
            FenError::HalfmoveClock(text) => {
                write!(
                    f,
                    "halfmove clock field '{text}': expected a number of plies"
                )
            }
            FenError::FullmoveNumber(text) => {
                write!(f, "fullmove number field '{text}': expected a move number")
            }
            FenError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Illegal(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Illegal(e)
    }
}

/// Something in a FEN that [`Position::from_fen_lenient`] corrected instead of refusing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenWarning {
    /// A castling right the placement cannot have was dropped.
    CastlingRightDropped {
        /// The castling letter as written.
        letter: char,
        /// Why the placement cannot have it.
        reason: String,
    },
}

impl fmt::Display for FenWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenWarning::CastlingRightDropped { letter, reason } => {
                write!(f, "castling right '{letter}' dropped: {reason}")
            }
        }
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl Setup {
    /// Read a FEN, X-FEN or Shredder-FEN (4 to 6 fields) without checking that the position is
    /// legal: errors are about the text only. [`Position::from_setup`] does the rest.
    ///
    /// ```
    /// use shannon::{FenError, Setup};
    ///
    /// // Two white kings are well-formed FEN.
    /// assert!(Setup::from_fen("K6K/8/8/8/8/8/8/k7 w - - 0 1").is_ok());
    /// assert!(matches!(Setup::from_fen("K6K w"), Err(FenError::FieldCount { .. })));
    /// ```
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount {
                fen: fen.to_string(),
                found: fields.len(),
            });
        }
        let mut setup = Setup {
            board: parse_placement(fields[0])?,
            side_to_move: match fields[1] {
                "w" => Color::White,
                "b" => Color::Black,
                other => return Err(FenError::SideToMove(other.to_string())),
            },
            castling: parse_castling(fields[2])?,
            en_passant: parse_en_passant(fields[3])?,
            ..Setup::default()
        };
        if let Some(text) = fields.get(4) {
            setup.halfmove_clock = text
                .parse()
                .map_err(|_| FenError::HalfmoveClock(text.to_string()))?;
        }
        if let Some(text) = fields.get(5) {
            setup.fullmove_number = text
                .parse()
                .map_err(|_| FenError::FullmoveNumber(text.to_string()))?;
        }
        Ok(setup)
    }
}

impl Position {
    /// Parse a FEN, X-FEN or Shredder-FEN (4 to 6 fields) and check that the position is legal.
    /// A castling right that the placement cannot have is an error (see
    /// [`Position::from_fen_lenient`] for the GUI-friendly reading).
    ///
    /// ```
    /// use shannon::{Color, FenError, Position, PositionError};
    ///
    /// let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    /// let pos = Position::from_fen(fen).unwrap();
    /// assert_eq!(pos.side_to_move(), Color::Black);
    /// assert_eq!(pos.fen(), fen);
    /// // Two white kings: well-formed, but not a legal position.
    /// assert!(matches!(
    ///     Position::from_fen("K6K/8/8/8/8/8/8/k7 w - - 0 1"),
    ///     Err(FenError::Illegal(PositionError::KingCount { .. }))
    /// ));
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup(&Setup::from_fen(fen)?)?)
    }

    /// Parse a FEN as [`Position::from_fen`] does, except that castling rights the placement
    /// cannot have are dropped and reported, as Stockfish and python-chess do: GUIs and opening
    /// files often carry `KQkq` after the rooks have gone, and refusing the whole position would
    /// leave an engine answering for some other one.
    pub fn from_fen_lenient(fen: &str) -> Result<(Position, Vec<FenWarning>), FenError> {
        let (pos, dropped) = Position::from_setup_lenient(&Setup::from_fen(fen)?)?;
        let warnings = dropped
            .iter()
            .filter_map(PositionError::castling_reason)
            .map(|(letter, reason)| FenWarning::CastlingRightDropped { letter, reason })
            .collect();
        Ok((pos, warnings))
    }

    /// The FEN of this position, castling rights written as X-FEN does: `KQkq` for the outermost
    /// rook of a wing, its file letter otherwise. For standard positions this is plain FEN, and
    /// every reader of Chess960 FEN accepts it.
    pub fn fen(&self) -> String {
        self.fen_with(CastlingLetters::XFen)
    }

    /// The Shredder-FEN of this position: castling rights always by the rook's file letter
    /// (`HAha`), which UCI_Chess960 engines and our canonical game headers use.
    pub fn shredder_fen(&self) -> String {
        self.fen_with(CastlingLetters::Shredder)
    }

    /// The FEN a UCI engine playing in `mode` reads and writes: X-FEN for standard chess,
    /// Shredder-FEN for Chess960 (as Stockfish prints with `UCI_Chess960` on).
    pub fn fen_for(&self, mode: CastlingMode) -> String {
        match mode {
            CastlingMode::Standard => self.fen(),
            CastlingMode::Chess960 => self.shredder_fen(),
        }
    }

    /// The four position fields of the FEN (placement, side to move, castling as [`Position::fen`]
    /// writes it, en passant) without the move counters: the position of an EPD line.
    pub fn epd_fields(&self) -> String {
        self.position_fields(CastlingLetters::XFen)
    }

    fn fen_with(&self, notation: CastlingLetters) -> String {
        let mut out = self.position_fields(notation);
        out.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        out
    }

    fn position_fields(&self, notation: CastlingLetters) -> String {
        let mut out = placement_field(|sq| self.piece_at(sq));
        out.push(' ');
        out.push(self.side.to_char());
        out.push(' ');
        let castling = self.castling_field(notation);
        out.push_str(&castling);
        out.push(' ');
        match self.en_passant {
            Some(sq) => out.push_str(&sq.to_string()),
            None => out.push('-'),
        }
        out
    }

    /// The castling field: White's rights then Black's, king side first.
    fn castling_field(&self, notation: CastlingLetters) -> String {
        let mut field = String::new();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let Some(file) = self.castling.rook(color, side) else {
                    continue;
                };
                let letter = match notation {
                    CastlingLetters::Shredder => file.to_char(),
                    CastlingLetters::XFen => {
                        let rank = color.back_rank();
                        let king = self.king_square(color).file();
                        let outermost = self
                            .pieces(color, PieceKind::Rook)
                            .filter(|sq| sq.rank() == rank)
                            .map(Square::file)
                            .filter(|&f| match side {
                                CastlingSide::King => f > king,
                                CastlingSide::Queen => f < king,
                            })
                            .all(|f| match side {
                                CastlingSide::King => f <= file,
                                CastlingSide::Queen => f >= file,
                            });
                        match (outermost, side) {
                            (true, CastlingSide::King) => 'k',
                            (true, CastlingSide::Queen) => 'q',
                            (false, _) => file.to_char(),
                        }
                    }
                };
                field.push(match color {
                    Color::White => letter.to_ascii_uppercase(),
                    Color::Black => letter,
                });
            }
        }
        if field.is_empty() {
            field.push('-');
        }
        field
    }
}

/// The FEN placement field (rank 8 first, digits for runs of empty squares) of whatever board
/// `piece_at` describes.
fn placement_field(piece_at: impl Fn(Square) -> Option<Piece>) -> String {
    let mut out = String::with_capacity(90);
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match piece_at(Square::new(file, *rank)) {
                Some(piece) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(piece.to_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if *rank != Rank::First {
            out.push('/');
        }
    }
    out
}

/// Read the placement field: 8 ranks separated by `/`, rank 8 first, digits for empty squares.
fn parse_placement(text: &str) -> Result<[Option<Piece>; 64], FenError> {
    let error = |reason: String| FenError::Placement {
        text: text.to_string(),
        reason,
    };
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 8 {
        return Err(error(format!(
            "{} ranks; expected 8 separated by '/'",
            rows.len()
        )));
    }
    let mut board = [None; 64];
    for (row_index, row) in rows.iter().enumerate() {
        let rank = Rank::ALL[7 - row_index];
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += skip as u8;
            } else if let Some(piece) = Piece::from_char(c) {
                if file < 8 {
                    board[Square::new(File::ALL[file as usize], rank).index()] = Some(piece);
                }
                file += 1;
            } else {
                return Err(error(format!(
                    "'{c}' is neither a piece letter nor a digit 1-8"
                )));
            }
            if file > 8 {
                return Err(error(format!(
                    "rank {} has more than 8 squares",
                    rank.to_char()
                )));
            }
        }
        if file != 8 {
            return Err(error(format!(
                "rank {} has {file} squares; expected 8",
                rank.to_char()
            )));
        }
    }
    Ok(board)
}

/// Read the castling field: `-`, or letters `KQkq` (the outermost rook on that wing) and file
/// letters (the rook on that file), upper case for White. Whether the placement can have the
/// rights is [`Position::from_setup`]'s question.
pub(crate) fn parse_castling(text: &str) -> Result<Vec<(Color, CastlingRook)>, FenError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    if text.is_empty() {
        return Err(FenError::Castling {
            text: String::new(),
            reason: "expected '-' or castling letters".into(),
        });
    }
    text.chars()
        .map(|c| {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let rook = match c.to_ascii_lowercase() {
                'k' => CastlingRook::Outermost(CastlingSide::King),
                'q' => CastlingRook::Outermost(CastlingSide::Queen),
                letter => CastlingRook::File(File::from_char(letter).ok_or_else(|| {
                    FenError::Castling {
                        text: text.to_string(),
                        reason: format!("'{c}' is not a castling letter"),
                    }
                })?),
            };
            Ok((color, rook))
        })
        .collect()
}

/// Read the en passant field: `-` or a square. Whether a pawn can just have crossed it is
/// [`Position::from_setup`]'s question.
pub(crate) fn parse_en_passant(text: &str) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|e: crate::ParseSquareError| FenError::EnPassant {
            text: text.to_string(),
            reason: e.to_string(),
        })
}
