//! Reading and writing FEN, X-FEN and Shredder-FEN, with validation.
//!
//! Castling letters: `KQkq` name the outermost rook on that wing (X-FEN), a file letter names the
//! rook on that file (Shredder-FEN, or X-FEN's disambiguation), and both may be mixed. The two
//! move counters are optional (EPD style): a missing halfmove clock is 0 and a missing fullmove
//! number is 1. Parse errors name the field and the offending text; legality errors name the rule
//! that the position breaks.

use super::{Position, EMPTY};
use crate::castling::CastlingSide;
use crate::{Bitboard, CastlingMode, Color, File, Piece, PieceKind, Rank, Square};
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

/// What is wrong with a FEN.
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
    /// The castling field is malformed or does not match the placement.
    Castling {
        /// The castling field.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The en passant field is malformed or impossible.
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
    /// A side has no king or several.
    KingCount {
        /// Whose kings.
        color: Color,
        /// How many there are.
        count: u32,
    },
    /// A pawn stands on rank 1 or 8.
    PawnOnBackRank(Square),
    /// The side that just moved is in check, which no legal move can leave.
    OpponentInCheck(Color),
    /// More than 16 pieces of one colour.
    TooManyPieces {
        /// Whose pieces.
        color: Color,
        /// How many there are.
        count: u32,
    },
    /// More than 8 pawns of one colour.
    TooManyPawns {
        /// Whose pawns.
        color: Color,
        /// How many there are.
        count: u32,
    },
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
            FenError::KingCount { color, count } => {
                write!(f, "{color} has {count} kings; each side needs exactly one")
            }
            FenError::PawnOnBackRank(sq) => {
                write!(f, "a pawn stands on {sq}; pawns cannot be on rank 1 or 8")
            }
            FenError::OpponentInCheck(color) => write!(
                f,
                "{color} is in check but it is not {color}'s move; no legal game reaches that"
            ),
            FenError::TooManyPieces { color, count } => {
                write!(f, "{color} has {count} pieces; at most 16 are possible")
            }
            FenError::TooManyPawns { color, count } => {
                write!(f, "{color} has {count} pawns; at most 8 are possible")
            }
        }
    }
}

impl std::error::Error for FenError {}

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

/// Why one castling letter gives no right.
enum CastlingProblem {
    /// Not a castling letter at all: the FEN is malformed.
    Syntax(String),
    /// A well-formed right that the placement cannot have.
    Impossible(String),
}

impl std::str::FromStr for Position {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl Position {
    /// Parse a FEN, X-FEN or Shredder-FEN (4 to 6 fields) and check that the position is legal.
    /// A castling right that the placement cannot have is an error (see
    /// [`Position::from_fen_lenient`] for the GUI-friendly reading).
    ///
    /// ```
    /// use shannon::{Color, Position};
    ///
    /// let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    /// let pos = Position::from_fen(fen).unwrap();
    /// assert_eq!(pos.side_to_move(), Color::Black);
    /// assert_eq!(pos.fen(), fen);
    /// // Two white kings: not a legal position.
    /// assert!(Position::from_fen("K6K/8/8/8/8/8/8/k7 w - - 0 1").is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::parse_fen(fen, false).map(|(pos, _)| pos)
    }

    /// Parse a FEN as [`Position::from_fen`] does, except that castling rights the placement
    /// cannot have are dropped and reported, as Stockfish and python-chess do: GUIs and opening
    /// files often carry `KQkq` after the rooks have gone, and refusing the whole position would
    /// leave an engine answering for some other one.
    pub fn from_fen_lenient(fen: &str) -> Result<(Position, Vec<FenWarning>), FenError> {
        Position::parse_fen(fen, true)
    }

    fn parse_fen(fen: &str, lenient: bool) -> Result<(Position, Vec<FenWarning>), FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount {
                fen: fen.to_string(),
                found: fields.len(),
            });
        }
        let mut pos = Position::empty();
        pos.parse_placement(fields[0])?;
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::SideToMove(other.to_string())),
        };
        pos.validate_material()?;
        let warnings = pos.parse_castling(fields[2], lenient)?;
        pos.parse_en_passant(fields[3])?;
        if let Some(text) = fields.get(4) {
            pos.halfmove_clock = text
                .parse()
                .map_err(|_| FenError::HalfmoveClock(text.to_string()))?;
        }
        if let Some(text) = fields.get(5) {
            let number: u32 = text
                .parse()
                .map_err(|_| FenError::FullmoveNumber(text.to_string()))?;
            // Some tools write 0; the first move is move 1.
            pos.fullmove_number = number.max(1);
        }
        let them = !pos.side;
        if pos.is_attacked(pos.king_square(them), pos.side, pos.occupied()) {
            return Err(FenError::OpponentInCheck(them));
        }
        pos.refresh_derived_state();
        debug_assert_eq!(pos.consistency_error(), None);
        Ok((pos, warnings))
    }

    fn parse_placement(&mut self, text: &str) -> Result<(), FenError> {
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
        for (row_index, row) in rows.iter().enumerate() {
            let rank = Rank::ALL[7 - row_index];
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += skip as u8;
                } else if let Some(piece) = Piece::from_char(c) {
                    if file < 8 {
                        let sq = Square::new(File::ALL[file as usize], rank);
                        self.put(piece, sq);
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
        Ok(())
    }

    fn validate_material(&self) -> Result<(), FenError> {
        for color in Color::ALL {
            let kings = self.pieces(color, PieceKind::King).count();
            if kings != 1 {
                return Err(FenError::KingCount {
                    color,
                    count: kings,
                });
            }
            let pawns = self.pieces(color, PieceKind::Pawn).count();
            if pawns > 8 {
                return Err(FenError::TooManyPawns {
                    color,
                    count: pawns,
                });
            }
            let pieces = self.color_bb(color).count();
            if pieces > 16 {
                return Err(FenError::TooManyPieces {
                    color,
                    count: pieces,
                });
            }
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        if let Some(sq) = (self.kind_bb(PieceKind::Pawn) & back_ranks).first() {
            return Err(FenError::PawnOnBackRank(sq));
        }
        Ok(())
    }

    /// Read the castling field. A letter that is not a castling letter is always an error; a
    /// right that the placement cannot have (no king on its back rank, no rook where the letter
    /// points, a second right on one wing) is an error when `lenient` is false and is dropped
    /// with a [`FenWarning`] when it is true.
    fn parse_castling(&mut self, text: &str, lenient: bool) -> Result<Vec<FenWarning>, FenError> {
        let mut warnings = Vec::new();
        if text == "-" {
            return Ok(warnings);
        }
        for c in text.chars() {
            match self.castling_right(c) {
                Ok((color, side, rook_file)) => self.castling.set(color, side, Some(rook_file)),
                Err(CastlingProblem::Syntax(reason)) | Err(CastlingProblem::Impossible(reason))
                    if !lenient =>
                {
                    return Err(FenError::Castling {
                        text: text.to_string(),
                        reason,
                    })
                }
                Err(CastlingProblem::Syntax(reason)) => {
                    return Err(FenError::Castling {
                        text: text.to_string(),
                        reason,
                    })
                }
                Err(CastlingProblem::Impossible(reason)) => {
                    warnings.push(FenWarning::CastlingRightDropped { letter: c, reason })
                }
            }
        }
        Ok(warnings)
    }

    /// The right that castling letter `c` gives, checked against the placement and the rights
    /// already read.
    fn castling_right(&self, c: char) -> Result<(Color, CastlingSide, File), CastlingProblem> {
        let impossible = CastlingProblem::Impossible;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let letter = c.to_ascii_lowercase();
        // `K`/`Q` name the outermost rook on a wing; a file letter names the rook's file.
        let named_file = match letter {
            'k' | 'q' => None,
            _ => Some(File::from_char(letter).ok_or_else(|| {
                CastlingProblem::Syntax(format!("'{c}' is not a castling letter"))
            })?),
        };
        let rank = color.back_rank();
        let king = self.king_square(color);
        if king.rank() != rank {
            return Err(impossible(format!(
                "'{c}' needs the {color} king on rank {}",
                rank.to_char()
            )));
        }
        let rooks: Vec<File> = self
            .pieces(color, PieceKind::Rook)
            .filter(|sq| sq.rank() == rank)
            .map(Square::file)
            .collect();
        let rook_file = match named_file {
            Some(file) if rooks.contains(&file) => Some(file),
            Some(file) => {
                return Err(impossible(format!(
                    "'{c}' names a {color} rook on {}, but there is none",
                    Square::new(file, rank)
                )))
            }
            None if letter == 'k' => rooks.iter().copied().filter(|&f| f > king.file()).max(),
            None => rooks.iter().copied().filter(|&f| f < king.file()).min(),
        };
        let Some(rook_file) = rook_file else {
            return Err(impossible(format!(
                "'{c}' needs a {color} rook on the {} side of the king on rank {}",
                if letter == 'k' { "h" } else { "a" },
                rank.to_char()
            )));
        };
        if rook_file == king.file() {
            return Err(impossible(format!("'{c}' names the king's own file")));
        }
        let side = if rook_file > king.file() {
            CastlingSide::King
        } else {
            CastlingSide::Queen
        };
        if self.castling.rook(color, side).is_some() {
            return Err(impossible(format!(
                "'{c}' is a second {color} right on the {} side",
                if side == CastlingSide::King {
                    "king"
                } else {
                    "queen"
                }
            )));
        }
        Ok((color, side, rook_file))
    }

    fn parse_en_passant(&mut self, text: &str) -> Result<(), FenError> {
        if text == "-" {
            return Ok(());
        }
        let error = |reason: String| FenError::EnPassant {
            text: text.to_string(),
            reason,
        };
        let sq: Square = text
            .parse()
            .map_err(|e: crate::square::ParseSquareError| error(e.to_string()))?;
        let us = self.side;
        let expected_rank = Position::en_passant_rank(us);
        if sq.rank() != expected_rank {
            return Err(error(format!(
                "with {us} to move the en passant square must be on rank {}",
                expected_rank.to_char()
            )));
        }
        let forward: i8 = if us == Color::White { 1 } else { -1 };
        let pawn_square = sq
            .offset(0, -forward)
            .expect("rank 3/6 has a square behind it");
        let origin = sq.offset(0, forward).expect("rank 3/6 has a square ahead");
        if self.piece_at(pawn_square) != Some(Piece::new(!us, PieceKind::Pawn)) {
            return Err(error(format!(
                "no {} pawn on {pawn_square} that could just have moved two squares",
                !us
            )));
        }
        if self.mailbox[sq.to_0x88()] != EMPTY || self.mailbox[origin.to_0x88()] != EMPTY {
            return Err(error(format!(
                "the pawn could not have crossed {sq} from {origin}: a square is occupied"
            )));
        }
        self.en_passant = Some(sq);
        Ok(())
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

    fn fen_with(&self, notation: CastlingLetters) -> String {
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
        out.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
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
/// `piece_at` describes; FEN output and the board formats share it.
pub(crate) fn placement_field(piece_at: impl Fn(Square) -> Option<Piece>) -> String {
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
