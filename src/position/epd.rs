//! EPD (Extended Position Description) lines: a position and its operations, read and written
//! in one place, beside FEN (as shakmaty keeps them). Perft suites (`FEN ;D1 20 ;D2 400`),
//! opening files and the final positions a match writes are all EPD.
//!
//! A line is the four position fields of a FEN (placement, side to move, castling, en passant),
//! optionally the two move counters (common in files written as FEN), then operations, each an
//! opcode and its operands ended by `;` (`hmvc 0; fmvn 1; id "game 7";`, or a suite's `;D1 20`).
//! This module is syntax only: the position fields become a [`Position`] with
//! [`Epd::position`], which checks them.

use crate::{FenError, Position};
use std::fmt;

/// One operation: `opcode operand...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// The opcode (`id`, `hmvc`, `D1`, ...).
    pub opcode: String,
    /// Everything after the opcode up to the `;`, trimmed (quotes kept).
    pub operand: String,
}

impl Operation {
    /// An operation.
    pub fn new(opcode: impl Into<String>, operand: impl Into<String>) -> Operation {
        Operation {
            opcode: opcode.into(),
            operand: operand.into(),
        }
    }

    fn parse(text: &str) -> Option<Operation> {
        let text = text.trim();
        let (opcode, operand) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        (!opcode.is_empty()).then(|| Operation::new(opcode, operand.trim()))
    }
}

/// One EPD line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Epd {
    /// The position as written: its four fields, and the two move counters when the line has
    /// them, separated by single spaces.
    pub fen: String,
    /// The operations, in order.
    pub operations: Vec<Operation>,
}

impl Epd {
    /// Read one line. Reading cannot fail: whether the position fields make a position is
    /// [`Epd::position`]'s question, and what an operation means is its reader's.
    pub fn parse(line: &str) -> Epd {
        let (head, rest) = line.split_once(';').unwrap_or((line, ""));
        let words: Vec<&str> = head.split_whitespace().collect();
        // Four fields, then the counters if they are there, then the first operation.
        let mut fields = words.len().min(4);
        while fields < words.len().min(6) && words[fields].parse::<u32>().is_ok() {
            fields += 1;
        }
        let mut operations = Vec::new();
        operations.extend(Operation::parse(&words[fields..].join(" ")));
        operations.extend(rest.split(';').filter_map(Operation::parse));
        Epd {
            fen: words[..fields].join(" "),
            operations,
        }
    }

    /// The line for `position`: its four position fields (castling as X-FEN) and `operations`.
    pub fn of(position: &Position, operations: Vec<Operation>) -> Epd {
        Epd {
            fen: position.epd_fields(),
            operations,
        }
    }

    /// The position (move counters from the line when it has them, else 0 and 1).
    pub fn position(&self) -> Result<Position, FenError> {
        Position::from_fen(&self.fen)
    }

    /// The first operation with this opcode.
    pub fn operation(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.opcode == opcode)
    }
}

impl fmt::Display for Epd {
    /// The line as EPD writes it: `fields opcode operand; opcode operand;`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen)?;
        for op in &self.operations {
            match op.operand.as_str() {
                "" => write!(f, " {};", op.opcode)?,
                operand => write!(f, " {} {operand};", op.opcode)?,
            }
        }
        Ok(())
    }
}

/// The EPD lines of a file's text with their 1-based line numbers: blank lines and `#` comments
/// are skipped.
pub fn epd_lines(text: &str) -> impl Iterator<Item = (usize, Epd)> + '_ {
    text.lines().enumerate().filter_map(|(i, line)| {
        let line = line.trim();
        (!line.is_empty() && !line.starts_with('#')).then(|| (i + 1, Epd::parse(line)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_lines_standard_lines_and_bare_fens_read_alike() {
        let suite = Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66");
        assert_eq!(suite.fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(
            suite.operations,
            vec![Operation::new("D1", "15"), Operation::new("D2", "66")]
        );
        let standard = Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - hmvc 3; fmvn 9; id \"a b\";");
        assert_eq!(standard.fen, "4k3/8/8/8/8/8/8/4K2R w K -");
        assert_eq!(standard.operation("id").unwrap().operand, "\"a b\"");
        assert_eq!(standard.operations.len(), 3);
        assert_eq!(
            standard.to_string(),
            "4k3/8/8/8/8/8/8/4K2R w K - hmvc 3; fmvn 9; id \"a b\";"
        );
        let bare = Epd::parse("8/8/8/8/8/8/8/K6k b - -");
        assert!(bare.operations.is_empty());
        assert_eq!(bare.position().unwrap().side_to_move(), crate::Color::Black);
    }

    #[test]
    fn a_position_is_written_with_its_four_fields() {
        let epd = Epd::of(
            &Position::startpos(),
            vec![Operation::new("id", "\"start\"")],
        );
        assert_eq!(
            epd.to_string(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";"
        );
        let lines: Vec<usize> = epd_lines("# c\n\nx w - -\n  \ny b - -\n")
            .map(|(n, _)| n)
            .collect();
        assert_eq!(lines, [3, 5]);
    }
}
