//! What a packed file of version 4 keeps of each game beside its code, when its header says it
//! keeps text ([`Keeps::Text`](super::Keeps::Text)): the game's tags, but those the PGN writer
//! makes from the game itself (`Result`, `SetUp`, `FEN`), and its main line's comments, each after
//! the ply it follows.
//!
//! # Layout of a block's text
//! For each game of the block, in order:
//!
//! | field | form |
//! |---|---|
//! | tags | their number (LEB128), then each name and value (strings) |
//! | comments | their number (LEB128), then each ply (LEB128, 0 to the game's plies) and text (string) |
//!
//! A string is LEB128 `r`: 0 for a new string, its length in bytes (LEB128) and its UTF-8 bytes
//! following; else the `r`-th new string of the block so far. Tag names and the values a match
//! repeats (players, event, site, time control) are written once a block. Nothing may follow the
//! last game's comments. The block's check covers its text, so damage is caught by it; text that
//! does not read as this layout (a writer's fault) makes the block unreadable.

use super::{push_leb128, read_leb128};
use crate::notation::pgn::{Comments, PgnGame};
use std::collections::HashMap;

/// The tags the PGN writer makes from the game itself: not kept (their values come back from the
/// game's start and result).
const DERIVED_TAGS: [&str; 3] = ["Result", "SetUp", "FEN"];

/// A game's text, as a packed file keeps it: tags in file order (the derived ones left out) and
/// main-line comments after their plies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameText {
    /// Tag pairs, in file order, without `Result`, `SetUp` and `FEN`.
    pub tags: Vec<(String, String)>,
    /// `(ply, text)`: each comment after the ply it follows (0: before the first move).
    pub comments: Vec<(usize, String)>,
}

impl GameText {
    /// What a packed file keeps of `game` beside its moves (a final comment goes after the last
    /// ply, where the writer puts it too).
    pub fn of(game: &PgnGame) -> GameText {
        let tags = game
            .tags
            .iter()
            .filter(|(name, _)| !DERIVED_TAGS.contains(&name.as_str()))
            .cloned()
            .collect();
        let plies = game.record.moves.len();
        let mut comments: Vec<(usize, String)> = game
            .comments
            .after_ply
            .iter()
            .map(|(ply, text)| ((*ply).min(plies), text.clone()))
            .collect();
        comments.extend(
            game.comments
                .final_comment
                .iter()
                .map(|t| (plies, t.clone())),
        );
        GameText { tags, comments }
    }

    /// The tags and comments as a PGN game holds them.
    pub fn into_parts(self) -> (Vec<(String, String)>, Comments) {
        let comments = Comments {
            after_ply: self.comments,
            final_comment: None,
        };
        (self.tags, comments)
    }

    /// The last ply a comment follows (0 without comments).
    pub fn last_ply(&self) -> usize {
        self.comments.iter().map(|(ply, _)| *ply).max().unwrap_or(0)
    }
}

/// Strings written once a block: the first time in full, then by number.
#[derive(Default)]
struct Table<'a> {
    numbers: HashMap<&'a str, u64>,
}

impl<'a> Table<'a> {
    fn push(&mut self, out: &mut Vec<u8>, text: &'a str) {
        if let Some(&number) = self.numbers.get(text) {
            push_leb128(out, number);
            return;
        }
        let number = self.numbers.len() as u64 + 1;
        self.numbers.insert(text, number);
        out.push(0);
        push_leb128(out, text.len() as u64);
        out.extend(text.as_bytes());
    }
}

/// A block's text: every game's, in the layout above.
pub(super) fn encode_texts(texts: &[GameText]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut table = Table::default();
    for text in texts {
        push_leb128(&mut out, text.tags.len() as u64);
        for (name, value) in &text.tags {
            table.push(&mut out, name);
            table.push(&mut out, value);
        }
        push_leb128(&mut out, text.comments.len() as u64);
        for (ply, comment) in &text.comments {
            push_leb128(&mut out, *ply as u64);
            table.push(&mut out, comment);
        }
    }
    out
}

/// `count` games' text from a block's text bytes, or `None` when they do not read as the layout
/// (a bad number, string or string number, or bytes after the last game).
pub(super) fn decode_texts(mut bytes: &[u8], count: usize) -> Option<Vec<GameText>> {
    let input = &mut bytes;
    let mut strings: Vec<String> = Vec::new();
    let mut texts = Vec::with_capacity(count.min(input.len()));
    for _ in 0..count {
        let mut text = GameText::default();
        let tags = read_leb128(input).ok()? as usize;
        for _ in 0..tags {
            let name = read_string(input, &mut strings)?;
            let value = read_string(input, &mut strings)?;
            text.tags.push((name, value));
        }
        let comments = read_leb128(input).ok()? as usize;
        for _ in 0..comments {
            let ply = read_leb128(input).ok()? as usize;
            text.comments.push((ply, read_string(input, &mut strings)?));
        }
        texts.push(text);
    }
    input.is_empty().then_some(texts)
}

/// One string: new (then kept in `strings`), or the number of one read before.
fn read_string(input: &mut &[u8], strings: &mut Vec<String>) -> Option<String> {
    match read_leb128(input).ok()? as usize {
        0 => {
            let len = read_leb128(input).ok()? as usize;
            let (bytes, rest) = input.split_at_checked(len)?;
            let text = std::str::from_utf8(bytes).ok()?.to_string();
            *input = rest;
            strings.push(text.clone());
            Some(text)
        }
        number => strings.get(number - 1).cloned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<GameText> {
        let player = |n: u32| format!("Player {n}");
        (0..5)
            .map(|i| GameText {
                tags: vec![
                    ("Event".into(), "Rated game".into()),
                    ("White".into(), player(i % 2)),
                    ("Black".into(), player(1 - i % 2)),
                    ("Round".into(), format!("{i}")),
                    ("Annotator".into(), "é, \"quoted\" \\".into()),
                ],
                comments: match i {
                    0 => vec![],
                    _ => vec![
                        (0, "start".into()),
                        (3, "+0.31/12 0.5s".into()),
                        (3, "".into()),
                    ],
                },
            })
            .collect()
    }

    #[test]
    fn texts_read_back_and_repeated_strings_are_written_once() {
        let texts = sample();
        let bytes = encode_texts(&texts);
        assert_eq!(decode_texts(&bytes, texts.len()), Some(texts.clone()));
        // "Rated game" and "Event" appear once in the bytes for five games.
        let count = |needle: &str| {
            bytes
                .windows(needle.len())
                .filter(|w| *w == needle.as_bytes())
                .count()
        };
        assert_eq!(count("Rated game"), 1);
        assert_eq!(count("Player 1"), 1);
        assert_eq!(decode_texts(&[], 0), Some(vec![]));
    }

    #[test]
    fn text_that_is_not_the_layout_is_refused() {
        let texts = sample();
        let bytes = encode_texts(&texts);
        // Cut anywhere, or with a byte more: refused.
        for cut in 0..bytes.len() {
            assert_eq!(
                decode_texts(&bytes[..cut], texts.len()),
                None,
                "cut at {cut}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode_texts(&longer, texts.len()), None);
        // A string number before its string, and bytes that are not UTF-8.
        assert_eq!(decode_texts(&[1, 1, 0], 1), None);
        assert_eq!(decode_texts(&[1, 0, 1, 0xff, 0, 0, 0], 1), None);
    }

    #[test]
    fn derived_tags_are_not_kept_and_a_final_comment_follows_the_last_ply() {
        let pgn = "[Event \"e\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n\
                   [FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[Site \"s\"]\n\n1. Rh8# {mate} 1-0\n";
        let mut game = crate::notation::pgn::read_games(pgn).remove(0).unwrap();
        game.comments.final_comment = Some("White mates".into());
        let text = GameText::of(&game);
        assert_eq!(
            text.tags,
            vec![("Event".into(), "e".into()), ("Site".into(), "s".into())]
        );
        assert_eq!(
            text.comments,
            vec![(1, "mate".into()), (1, "White mates".into())]
        );
        assert_eq!(text.last_ply(), 1);
    }
}
