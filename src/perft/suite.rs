//! Perft suites: positions with known leaf counts, in the two formats in circulation.
//!
//! - EPD style: `FEN ;D1 20 ;D2 400 ...` on one line.
//! - `.perft` style (as scalachess and python-chess keep them): blocks of `id NAME`,
//!   `epd FEN`, then `perft DEPTH NODES` lines; `#` starts a comment.
//!
//! `.perft` files use Chess960 castling semantics and notation; so does any entry whose castling
//! field is written with file letters (Shredder-FEN).

use crate::movegen::Generator;
use crate::perft::{perft, MAX_PERFT_DEPTH};
use crate::position::epd::epd_lines;
use crate::{CastlingMode, Position};
use std::fmt;

/// One position of a suite with its expected counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteEntry {
    /// A name: the `id` of a `.perft` block, or `line N` for EPD.
    pub id: String,
    /// The position's FEN as written in the file.
    pub fen: String,
    /// How the entry's castling is to be read and written (Chess960 for `.perft` files and for
    /// EPD lines with file-letter castling rights).
    pub castling: CastlingMode,
    /// (depth, expected leaf count), in file order.
    pub counts: Vec<(u32, u64)>,
}

/// A line of a suite file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteError {
    /// 1-based line number.
    pub line: usize,
    /// The offending text.
    pub text: String,
    /// What was expected.
    pub reason: &'static str,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: '{}': {}", self.line, self.text, self.reason)
    }
}

impl std::error::Error for SuiteError {}

/// True when the castling field of `fen` uses file letters (Shredder-FEN / X-FEN files).
fn uses_file_letters(fen: &str) -> bool {
    fen.split_whitespace()
        .nth(2)
        .is_some_and(|castling| castling.chars().any(|c| !"KQkq-".contains(c)))
}

/// Read a suite; the format is told by its content (`id`/`epd`/`perft` lines or `;D` fields).
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let is_perft_format = text.lines().any(|l| l.trim_start().starts_with("epd "));
    if is_perft_format {
        parse_perft_format(text)
    } else {
        parse_epd_format(text)
    }
}

fn parse_epd_format(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries = Vec::new();
    for (line, epd) in epd_lines(text) {
        let mut counts = Vec::new();
        for op in &epd.operations {
            let written = format!("{} {}", op.opcode, op.operand);
            let error = |reason| SuiteError {
                line,
                text: written.trim().to_string(),
                reason,
            };
            let depth = op
                .opcode
                .strip_prefix('D')
                .and_then(|d| d.parse().ok())
                .ok_or_else(|| error("expected 'D<depth> <nodes>'"))?;
            let nodes = op
                .operand
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| error("expected a node count after the depth"))?;
            counts.push((depth, nodes));
        }
        entries.push(SuiteEntry {
            id: format!("line {line}"),
            castling: CastlingMode::from_chess960(uses_file_letters(&epd.fen)),
            fen: epd.fen,
            counts,
        });
    }
    Ok(entries)
}

fn parse_perft_format(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries: Vec<SuiteEntry> = Vec::new();
    let mut id = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let error = |reason| SuiteError {
            line: i + 1,
            text: line.to_string(),
            reason,
        };
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match keyword {
            "id" => id = Some(rest.trim().to_string()),
            "epd" => entries.push(SuiteEntry {
                id: id.take().unwrap_or_else(|| format!("line {}", i + 1)),
                fen: rest.trim().to_string(),
                castling: CastlingMode::Chess960,
                counts: Vec::new(),
            }),
            "perft" => {
                let entry = entries
                    .last_mut()
                    .ok_or_else(|| error("'perft' before any 'epd'"))?;
                let mut words = rest.split_whitespace();
                let depth = words.next().and_then(|d| d.parse().ok());
                let nodes = words.next().and_then(|n| n.parse().ok());
                match (depth, nodes) {
                    (Some(d), Some(n)) => entry.counts.push((d, n)),
                    _ => return Err(error("expected 'perft <depth> <nodes>'")),
                }
            }
            _ => return Err(error("expected 'id', 'epd' or 'perft'")),
        }
    }
    Ok(entries)
}

/// The outcome of checking one count of one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The entry's FEN.
    pub fen: String,
    /// The depth checked.
    pub depth: u32,
    /// What the suite says.
    pub expected: u64,
    /// What we counted.
    pub actual: u64,
    /// The depths of the entry checked before this one, whose counts were right.
    pub right_before: Vec<u32>,
}

impl Mismatch {
    /// The counts of the entry that were checked: the right ones before, and this wrong one.
    pub fn counts_checked(&self) -> usize {
        self.right_before.len() + 1
    }
}

/// Check every count of `entry` up to `max_depth` whose expected count is at most `max_nodes`.
/// Returns the depths checked, or the first mismatch (with the depths checked before it); an
/// unreadable FEN is an error too.
pub fn check_entry(
    entry: &SuiteEntry,
    max_depth: u32,
    max_nodes: u64,
    generator: Generator,
) -> Result<Vec<u32>, CheckError> {
    let pos = Position::from_fen(&entry.fen).map_err(CheckError::Fen)?;
    let mut checked = Vec::new();
    for &(depth, expected) in &entry.counts {
        if depth > max_depth || expected > max_nodes {
            continue;
        }
        if depth > MAX_PERFT_DEPTH {
            return Err(CheckError::TooDeep { depth });
        }
        let actual = perft(&pos, depth, generator);
        if actual != expected {
            return Err(CheckError::Mismatch(Mismatch {
                fen: entry.fen.clone(),
                depth,
                expected,
                actual,
                right_before: checked,
            }));
        }
        checked.push(depth);
    }
    Ok(checked)
}

/// Why an entry failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckError {
    /// The FEN does not parse.
    Fen(crate::FenError),
    /// A count differs.
    Mismatch(Mismatch),
    /// A depth is over [`MAX_PERFT_DEPTH`]; counting it would exhaust the stack.
    TooDeep {
        /// The depth the entry asks for.
        depth: u32,
    },
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Fen(e) => write!(f, "{e}"),
            CheckError::Mismatch(m) => write!(
                f,
                "{}: depth {}: expected {}, counted {}",
                m.fen, m.depth, m.expected, m.actual
            ),
            CheckError::TooDeep { depth } => write!(
                f,
                "depth {depth} is deeper than {MAX_PERFT_DEPTH}, the deepest perft counted"
            ),
        }
    }
}

impl std::error::Error for CheckError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_formats() {
        let epd = "8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 9\n\n# comment\n";
        let entries = parse_suite(epd).unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].counts, vec![(1, 3), (2, 9)]);
        assert_eq!(entries[0].castling, CastlingMode::Standard);

        let perft = "# x\nid a\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\n\nid b\nepd 8/8/8/8/8/8/8/K6k b - -\nperft 1 3\n";
        let entries = parse_suite(perft).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1].id, "b");
        assert_eq!(entries[1].castling, CastlingMode::Chess960);
    }

    #[test]
    fn bad_lines_are_reported_with_their_number() {
        let err = parse_suite("8/8/8/8/8/8/8/K6k w - - ;D1 x").unwrap_err();
        assert_eq!(err.line, 1);
        let err = parse_suite("epd 8/8/8/8/8/8/8/K6k w - -\nperft one 3").unwrap_err();
        assert_eq!(err.line, 2);
    }
}
