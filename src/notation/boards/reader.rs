//! Reading each board format back into a legal position, through a [`Setup`].

use super::*;

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
