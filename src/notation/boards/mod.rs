//! The classic board representations as text formats, written from a position and read back.
//!
//! | format | text |
//! |---|---|
//! | `matrix` | 8 lines of 8 numbers, row 1 = rank 8: 0 empty, 1-6 White pawn, rook, knight, bishop, queen, king, 11-16 Black (colour = `t div 10`, piece = `t mod 10`) |
//! | `shannon` | Shannon's 1950 form: 64 numbers -6..6 (pawn 1, knight 2, bishop 3, rook 4, queen 5, king 6, negative for Black), a1 first, 8 to a line, then `lambda +1` (White to move) or `lambda -1` |
//! | `mailbox10x12` | the 120 entries of a 10 x 12 mailbox, index 0 first, 10 to a line (a1 = 21, h8 = 98): Shannon's numbers on the board, `7` off it |
//! | `0x88` | the 128 entries of a 0x88 board, index 0 first, 16 to a line (a1 = 0, h8 = 0x77): Shannon's numbers on the board, `7` on the off-board half |
//! | `bitboards` | 12 lines `P 0x...`: one 64-bit board (bit 0 = a1) per piece, `P N B R Q K p n b r q k` |
//! | `pieces` | `white: Ke1 Qd1 ...` and `black: ...`: piece letter and square, kings first |
//! | `fen` | the FEN (X-FEN castling for Chess960) |
//!
//! Reading: entries are separated by white space (any line breaks); errors name the line and
//! entry. Only `fen` carries the whole side state. For the others it comes from [`SideFlags`]
//! (the command line's `--side w|b`, `--castling KQkq`, `--ep e3`, `--halfmove N`,
//! `--fullmove N`), defaulting to White to move, no castling rights, no en passant square,
//! halfmove clock 0, move 1; `shannon`'s `lambda` gives the side to move and overrides
//! `--side`. The position is built through [`Position::from_setup`], so it is always legal.
//!
//! This module does not do compact binary codes; that is [`crate::codec`].

use crate::{
    Bitboard, Color, FenError, File, Piece, PieceKind, Position, PositionError, Rank, Setup, Square,
};
use std::fmt;

mod reader;
mod writer;

pub use reader::read_board;
pub use writer::write_board;

/// A board: what stands on each square, a1 first.
pub type Placement = [Option<Piece>; 64];

/// The placement of a position.
pub fn placement_of(pos: &Position) -> Placement {
    std::array::from_fn(|i| pos.piece_at(Square::ALL[i]))
}

/// The board formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardFormat {
    /// 8 x 8 numbers, 1-6 and 11-16, rank 8 first.
    Matrix,
    /// Shannon's 64 numbers -6..6 and lambda.
    Shannon,
    /// The 120-entry mailbox.
    Mailbox10x12,
    /// The 128-entry 0x88 board.
    X88,
    /// Twelve piece bitboards in hex.
    Bitboards,
    /// Piece lists per side.
    Pieces,
    /// FEN.
    Fen,
}

impl BoardFormat {
    /// Every format.
    pub const ALL: [BoardFormat; 7] = [
        BoardFormat::Matrix,
        BoardFormat::Shannon,
        BoardFormat::Mailbox10x12,
        BoardFormat::X88,
        BoardFormat::Bitboards,
        BoardFormat::Pieces,
        BoardFormat::Fen,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            BoardFormat::Matrix => "matrix",
            BoardFormat::Shannon => "shannon",
            BoardFormat::Mailbox10x12 => "mailbox10x12",
            BoardFormat::X88 => "0x88",
            BoardFormat::Bitboards => "bitboards",
            BoardFormat::Pieces => "pieces",
            BoardFormat::Fen => "fen",
        }
    }
}

impl fmt::Display for BoardFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BoardFormat {
    type Err = BoardError;

    fn from_str(s: &str) -> Result<BoardFormat, BoardError> {
        BoardFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| BoardError::UnknownFormat(s.to_string()))
    }
}

/// The side state a board format lacks, as FEN fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideFlags {
    /// Whose move it is.
    pub side: Color,
    /// The FEN castling field (`KQkq`, `HAha`, `-`).
    pub castling: String,
    /// The FEN en passant field (`e3`, `-`).
    pub en_passant: String,
    /// Plies since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// The move number.
    pub fullmove_number: u32,
}

impl Default for SideFlags {
    fn default() -> SideFlags {
        SideFlags {
            side: Color::White,
            castling: "-".into(),
            en_passant: "-".into(),
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }
}

impl SideFlags {
    /// The side state of `pos` (castling in Shredder-FEN letters).
    pub fn of(pos: &Position) -> SideFlags {
        let fen = pos.shredder_fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        SideFlags {
            side: pos.side_to_move(),
            castling: fields[2].to_string(),
            en_passant: fields[3].to_string(),
            halfmove_clock: pos.halfmove_clock(),
            fullmove_number: pos.fullmove_number(),
        }
    }
}

/// What is wrong with a board text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// The format name is unknown.
    UnknownFormat(String),
    /// The text has the wrong number of entries.
    EntryCount {
        /// The format.
        format: BoardFormat,
        /// How many it needs.
        expected: usize,
        /// How many there are.
        found: usize,
    },
    /// One entry is wrong.
    BadEntry {
        /// Line number, from 1.
        line: usize,
        /// Entry number in the whole text, from 1.
        entry: usize,
        /// The entry.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A line is wrong as a whole.
    BadLine {
        /// Line number, from 1.
        line: usize,
        /// The line.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Two pieces stand on one square.
    Overlap(Square),
    /// The FEN (format `fen`) or a FEN-style side flag (`--castling`, `--ep`) is malformed.
    Fen(FenError),
    /// The board and side state are not a legal position.
    Illegal(PositionError),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::UnknownFormat(name) => {
                let names: Vec<&str> = BoardFormat::ALL.iter().map(|b| b.name()).collect();
                write!(
                    f,
                    "unknown board format '{name}'; expected one of {}",
                    names.join(", ")
                )
            }
            BoardError::EntryCount {
                format,
                expected,
                found,
            } => write!(f, "{format} needs {expected} entries; found {found}"),
            BoardError::BadEntry {
                line,
                entry,
                text,
                reason,
            } => write!(f, "line {line}, entry {entry} '{text}': {reason}"),
            BoardError::BadLine { line, text, reason } => {
                write!(f, "line {line} '{text}': {reason}")
            }
            BoardError::Overlap(sq) => write!(f, "two pieces stand on {sq}"),
            BoardError::Fen(e) => e.fmt(f),
            BoardError::Illegal(e) => write!(f, "not a legal position: {e}"),
        }
    }
}

impl std::error::Error for BoardError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BoardError::Fen(e) => Some(e),
            BoardError::Illegal(e) => Some(e),
            _ => None,
        }
    }
}

/// The off-board sentinel of `mailbox10x12` and `0x88`.
pub const OFF_BOARD: i64 = 7;

/// Shannon's number of a piece: pawn 1, knight 2, bishop 3, rook 4, queen 5, king 6, negative
/// for Black.
pub fn shannon_number(piece: Option<Piece>) -> i64 {
    let Some(p) = piece else { return 0 };
    let n = p.kind.index() as i64 + 1;
    match p.color {
        Color::White => n,
        Color::Black => -n,
    }
}

fn piece_of_shannon(n: i64) -> Option<Option<Piece>> {
    if n == 0 {
        return Some(None);
    }
    let kind = *PieceKind::ALL.get(n.unsigned_abs().checked_sub(1)? as usize)?;
    let color = if n > 0 { Color::White } else { Color::Black };
    Some(Some(Piece::new(color, kind)))
}

/// The matrix code's piece order: pawn, rook, knight, bishop, queen, king.
const MATRIX_KINDS: [PieceKind; 6] = [
    PieceKind::Pawn,
    PieceKind::Rook,
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Queen,
    PieceKind::King,
];

/// The matrix code of a square: 0, 1-6 White, 11-16 Black.
pub fn matrix_code(piece: Option<Piece>) -> i64 {
    let Some(p) = piece else { return 0 };
    let n = MATRIX_KINDS
        .iter()
        .position(|&k| k == p.kind)
        .expect("six kinds") as i64
        + 1;
    10 * p.color.index() as i64 + n
}

fn piece_of_matrix(t: i64) -> Option<Option<Piece>> {
    if t == 0 {
        return Some(None);
    }
    let color = *Color::ALL.get(usize::try_from(t / 10).ok()?)?;
    let kind = *MATRIX_KINDS.get(usize::try_from(t % 10).ok()?.checked_sub(1)?)?;
    Some(Some(Piece::new(color, kind)))
}

/// The square at a 10x12 mailbox index (a1 = 21, h8 = 98), if any.
fn square_of_mailbox(index: usize) -> Option<Square> {
    let (row, column) = (index / 10, index % 10);
    let rank = Rank::from_index(u8::try_from(row.checked_sub(2)?).ok()?)?;
    let file = File::from_index(u8::try_from(column.checked_sub(1)?).ok()?)?;
    Some(Square::new(file, rank))
}

fn join_rows(values: &[i64], per_line: usize) -> String {
    values
        .chunks(per_line)
        .map(|row| {
            row.iter()
                .map(|v| format!("{v:>2}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_in_every_format() {
        let start = Position::startpos();
        let flags = SideFlags::of(&start);
        for format in BoardFormat::ALL {
            let text = write_board(&start, format);
            assert_eq!(
                read_board(&text, format, &flags),
                Ok(start.clone()),
                "{format}\n{text}"
            );
        }
        assert!(write_board(&start, BoardFormat::Matrix).starts_with("12 13 14 15 16 14 13 12"));
        assert!(write_board(&start, BoardFormat::Shannon).starts_with(" 4  2  3  5  6  3  2  4"));
    }
}
