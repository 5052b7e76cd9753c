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
    Bitboard, Color, FenCastling, FenError, File, Piece, PieceKind, Position, PositionError, Rank,
    Setup, Square,
};
use std::fmt;

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
        let fen = pos.fen(FenCastling::Shredder);
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

/// The text of `pos` in `format` (no trailing newline).
pub fn write_board(pos: &Position, format: BoardFormat) -> String {
    let board = placement_of(pos);
    match format {
        BoardFormat::Matrix => {
            let values: Vec<i64> = Rank::ALL
                .iter()
                .rev()
                .flat_map(|&r| File::ALL.map(|f| matrix_code(board[Square::new(f, r).index()])))
                .collect();
            join_rows(&values, 8)
        }
        BoardFormat::Shannon => {
            let values: Vec<i64> = board.iter().map(|p| shannon_number(*p)).collect();
            let lambda = if pos.side_to_move() == Color::White {
                "+1"
            } else {
                "-1"
            };
            format!("{}\nlambda {lambda}", join_rows(&values, 8))
        }
        BoardFormat::Mailbox10x12 => {
            let values: Vec<i64> = (0..120)
                .map(|i| {
                    square_of_mailbox(i).map_or(OFF_BOARD, |sq| shannon_number(board[sq.index()]))
                })
                .collect();
            join_rows(&values, 10)
        }
        BoardFormat::X88 => {
            let values: Vec<i64> = (0..128)
                .map(|i| {
                    Square::from_0x88(i).map_or(OFF_BOARD, |sq| shannon_number(board[sq.index()]))
                })
                .collect();
            join_rows(&values, 16)
        }
        BoardFormat::Bitboards => write_bitboards(pos),
        BoardFormat::Pieces => write_pieces(&board),
        BoardFormat::Fen => pos.fen(FenCastling::XFen),
    }
}

/// The twelve bitboards, White's pawn to king then Black's.
fn write_bitboards(pos: &Position) -> String {
    Color::ALL
        .into_iter()
        .flat_map(|c| PieceKind::ALL.map(|k| Piece::new(c, k)))
        .map(|p| format!("{} 0x{:016x}", p.to_char(), pos.pieces(p.color, p.kind).0))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The piece order of the `pieces` format: king, queen, rook, bishop, knight, pawn.
const LIST_ORDER: [PieceKind; 6] = [
    PieceKind::King,
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
    PieceKind::Pawn,
];

fn write_pieces(board: &Placement) -> String {
    Color::ALL
        .into_iter()
        .map(|color| {
            let items: Vec<String> = LIST_ORDER
                .iter()
                .flat_map(|&kind| {
                    Square::ALL
                        .into_iter()
                        .filter(move |sq| board[sq.index()] == Some(Piece::new(color, kind)))
                        .map(move |sq| format!("{}{sq}", kind.to_char().to_ascii_uppercase()))
                })
                .collect();
            format!("{color}: {}", items.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One white-space separated entry of a text, with where it stands.
#[derive(Debug, Clone)]
struct Entry<'a> {
    line: usize,
    entry: usize,
    text: &'a str,
}

impl Entry<'_> {
    fn error(&self, reason: impl Into<String>) -> BoardError {
        BoardError::BadEntry {
            line: self.line,
            entry: self.entry,
            text: self.text.to_string(),
            reason: reason.into(),
        }
    }

    fn number(&self) -> Result<i64, BoardError> {
        self.text
            .parse()
            .map_err(|_| self.error("not a whole number"))
    }
}

fn entries(text: &str) -> Vec<Entry<'_>> {
    text.lines()
        .enumerate()
        .flat_map(|(i, line)| line.split_whitespace().map(move |t| (i + 1, t)))
        .enumerate()
        .map(|(entry, (line, text))| Entry {
            line,
            entry: entry + 1,
            text,
        })
        .collect()
}

fn expect_count(format: BoardFormat, entries: &[Entry], expected: usize) -> Result<(), BoardError> {
    if entries.len() != expected {
        return Err(BoardError::EntryCount {
            format,
            expected,
            found: entries.len(),
        });
    }
    Ok(())
}

/// Read the position in `text`, taking what the format lacks from `flags`.
pub fn read_board(
    text: &str,
    format: BoardFormat,
    flags: &SideFlags,
) -> Result<Position, BoardError> {
    let mut side_to_move = flags.side;
    let board = match format {
        BoardFormat::Fen => {
            let setup = Setup::from_fen(text.trim()).map_err(BoardError::Fen)?;
            return Position::from_setup(&setup).map_err(BoardError::Illegal);
        }
        BoardFormat::Matrix => read_matrix(text)?,
        BoardFormat::Shannon => {
            let (board, side) = read_shannon(text)?;
            side_to_move = side;
            board
        }
        BoardFormat::Mailbox10x12 => read_array(text, format, 120, square_of_mailbox)?,
        BoardFormat::X88 => read_array(text, format, 128, Square::from_0x88)?,
        BoardFormat::Bitboards => read_bitboards(text)?,
        BoardFormat::Pieces => read_pieces(text)?,
    };
    let setup = Setup {
        board,
        side_to_move,
        castling: crate::position::parse_castling(&flags.castling).map_err(BoardError::Fen)?,
        en_passant: crate::position::parse_en_passant(&flags.en_passant)
            .map_err(BoardError::Fen)?,
        halfmove_clock: flags.halfmove_clock,
        fullmove_number: flags.fullmove_number,
    };
    Position::from_setup(&setup).map_err(BoardError::Illegal)
}

fn read_matrix(text: &str) -> Result<Placement, BoardError> {
    let entries = entries(text);
    expect_count(BoardFormat::Matrix, &entries, 64)?;
    let mut board = [None; 64];
    for (i, e) in entries.iter().enumerate() {
        let sq = Square::new(File::ALL[i % 8], Rank::ALL[7 - i / 8]);
        board[sq.index()] = piece_of_matrix(e.number()?)
            .ok_or_else(|| e.error(format!("not a matrix code (0, 1-6, 11-16) for {sq}")))?;
    }
    Ok(board)
}

fn read_shannon(text: &str) -> Result<(Placement, Color), BoardError> {
    let mut entries = entries(text);
    if let Some(i) = entries
        .iter()
        .position(|e| e.text.eq_ignore_ascii_case("lambda"))
    {
        entries.remove(i);
    }
    expect_count(BoardFormat::Shannon, &entries, 65)?;
    let mut board = [None; 64];
    for (sq, e) in Square::ALL.into_iter().zip(&entries) {
        board[sq.index()] = piece_of_shannon(e.number()?)
            .ok_or_else(|| e.error(format!("not a Shannon number (-6..6) for {sq}")))?;
    }
    let lambda = &entries[64];
    let side = match lambda.number()? {
        1 => Color::White,
        -1 => Color::Black,
        _ => return Err(lambda.error("lambda must be +1 (White to move) or -1")),
    };
    Ok((board, side))
}

fn read_array(
    text: &str,
    format: BoardFormat,
    size: usize,
    square_of: fn(usize) -> Option<Square>,
) -> Result<Placement, BoardError> {
    let entries = entries(text);
    expect_count(format, &entries, size)?;
    let mut board = [None; 64];
    for (i, e) in entries.iter().enumerate() {
        let n = e.number()?;
        match square_of(i) {
            None if n == OFF_BOARD => {}
            None => {
                return Err(e.error(format!("index {i} is off the board: expected {OFF_BOARD}")))
            }
            Some(sq) => {
                board[sq.index()] = piece_of_shannon(n)
                    .ok_or_else(|| e.error(format!("not a Shannon number (-6..6) for {sq}")))?;
            }
        }
    }
    Ok(board)
}

fn place(board: &mut Placement, sq: Square, piece: Piece) -> Result<(), BoardError> {
    if board[sq.index()].is_some() {
        return Err(BoardError::Overlap(sq));
    }
    board[sq.index()] = Some(piece);
    Ok(())
}

fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
}

fn read_bitboards(text: &str) -> Result<Placement, BoardError> {
    let mut board = [None; 64];
    let mut seen = [false; 12];
    for (line, content) in content_lines(text) {
        let bad = |reason: String| BoardError::BadLine {
            line,
            text: content.to_string(),
            reason,
        };
        let (letter, hex) = content
            .split_once(char::is_whitespace)
            .ok_or_else(|| bad("expected a piece letter and a hex number".into()))?;
        let mut chars = letter.chars();
        let piece = match (chars.next().and_then(Piece::from_char), chars.next()) {
            (Some(p), None) => p,
            _ => return Err(bad(format!("'{letter}' is not a piece letter"))),
        };
        let digits = hex.trim().trim_start_matches("0x");
        let bits = u64::from_str_radix(digits, 16)
            .map_err(|_| bad(format!("'{}' is not a 64-bit hex number", hex.trim())))?;
        if std::mem::replace(&mut seen[piece.index()], true) {
            return Err(bad(format!("a second board for '{letter}'")));
        }
        for sq in Bitboard(bits) {
            place(&mut board, sq, piece)?;
        }
    }
    if let Some(missing) = seen.iter().position(|&s| !s) {
        let piece = Piece::new(Color::ALL[missing / 6], PieceKind::ALL[missing % 6]);
        return Err(BoardError::BadLine {
            line: text.lines().count(),
            text: String::new(),
            reason: format!("no board for '{piece}'; all twelve are needed"),
        });
    }
    Ok(board)
}

fn read_pieces(text: &str) -> Result<Placement, BoardError> {
    let mut board = [None; 64];
    let mut seen = [false; 2];
    let mut entry = 0;
    for (line, content) in content_lines(text) {
        let bad = |reason: String| BoardError::BadLine {
            line,
            text: content.to_string(),
            reason,
        };
        let (name, list) = content
            .split_once(':')
            .ok_or_else(|| bad("expected 'white: ...' or 'black: ...'".into()))?;
        let color = match name.trim() {
            "white" => Color::White,
            "black" => Color::Black,
            other => return Err(bad(format!("'{other}' is not white or black"))),
        };
        if std::mem::replace(&mut seen[color.index()], true) {
            return Err(bad(format!("a second list for {color}")));
        }
        for item in list.split_whitespace() {
            entry += 1;
            let e = Entry {
                line,
                entry,
                text: item,
            };
            let kind = item
                .chars()
                .next()
                .filter(char::is_ascii_uppercase)
                .and_then(PieceKind::from_char);
            let sq = item.get(1..).and_then(|s| s.parse::<Square>().ok());
            match (kind, sq) {
                (Some(kind), Some(sq)) => place(&mut board, sq, Piece::new(color, kind))?,
                _ => {
                    return Err(
                        e.error("expected a piece letter (K Q R B N P) and a square, as Ke1")
                    )
                }
            }
        }
    }
    if seen != [true, true] {
        return Err(BoardError::BadLine {
            line: text.lines().count(),
            text: String::new(),
            reason: "both a 'white:' and a 'black:' line are needed".into(),
        });
    }
    Ok(board)
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
