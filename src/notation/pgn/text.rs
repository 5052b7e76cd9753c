//! PGN files as text: UTF-8, or older files in Latin-1 (ISO 8859-1, the PGN standard's own
//! character set).

use std::borrow::Cow;
use std::fmt;

/// Bytes that were not UTF-8 and were read as Latin-1: how many, and the first one's line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Latin1Bytes {
    /// The number of bytes read as Latin-1.
    pub count: usize,
    /// The line (from 1) of the first one.
    pub first_line: usize,
}

impl fmt::Display for Latin1Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the PGN input is not all UTF-8: {} byte(s) read as Latin-1, the first on line {} \
             (a move that is not ASCII is still an error)",
            self.count, self.first_line
        )
    }
}

/// The text of PGN bytes: UTF-8 as it is; any byte that is not part of valid UTF-8 is read as
/// the Latin-1 character with its value (so a tag or comment in Latin-1 reads, and a move with
/// such a byte reads as a move that is not ASCII, which the reader refuses by game and ply),
/// and reported.
pub fn pgn_text(bytes: &[u8]) -> (Cow<'_, str>, Option<Latin1Bytes>) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (Cow::Borrowed(text), None);
    }
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    let mut latin1: Option<Latin1Bytes> = None;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        if chunk.invalid().is_empty() {
            continue;
        }
        let report = latin1.get_or_insert_with(|| Latin1Bytes {
            count: 0,
            first_line: 1 + text.matches('\n').count(),
        });
        report.count += chunk.invalid().len();
        text.extend(chunk.invalid().iter().map(|&byte| char::from(byte)));
    }
    (Cow::Owned(text), latin1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_kept_and_other_bytes_are_latin1() {
        let (text, report) = pgn_text("[Event \"caf\u{e9}\"]".as_bytes());
        assert_eq!(text, "[Event \"caf\u{e9}\"]");
        assert_eq!(report, None);
        let (text, report) = pgn_text(b"[Event \"x\"]\n[Site \"\xe9\xe8\"]\n");
        assert_eq!(text, "[Event \"x\"]\n[Site \"\u{e9}\u{e8}\"]\n");
        assert_eq!(
            report,
            Some(Latin1Bytes {
                count: 2,
                first_line: 2
            })
        );
    }
}
