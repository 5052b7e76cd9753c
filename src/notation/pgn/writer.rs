//! Writing games in PGN's export form.

use super::{PgnGame, SEVEN_TAG_ROSTER};
use crate::notation::san::{to_lan, to_san};
use crate::notation::uci::format_move;
use crate::{CastlingMode, Color, STARTPOS_FEN};
use std::fmt;

/// Comments to write into a game's movetext.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comments {
    /// `(ply, text)`: the comment follows the move that completes that ply (from 1); ply 0 puts
    /// it before the first move. Plies past the end go after the last move.
    pub after_ply: Vec<(usize, String)>,
    /// A comment after the last move, just before the result.
    pub final_comment: Option<String>,
}

/// Why a game cannot be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnWriteError {
    /// A move is not legal in the position it is played from.
    IllegalMove {
        /// The ply of the move, from 1.
        ply: usize,
        /// The move in UCI notation (king takes rook for castling).
        uci: String,
        /// The position, as X-FEN.
        fen: String,
    },
}

impl fmt::Display for PgnWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnWriteError::IllegalMove { ply, uci, fen } => {
                write!(f, "ply {ply}: {uci} is not legal in {fen}")
            }
        }
    }
}

impl std::error::Error for PgnWriteError {}

/// How the moves of a written game are noted: SAN, as PGN defines it, or the other two
/// notations fastchess's `-pgnout notation=` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "tools", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "tools", serde(rename_all = "lowercase"))]
pub enum MoveNotation {
    /// Standard algebraic notation (`Nf3`).
    #[default]
    San,
    /// Long algebraic notation as fastchess writes it (`Ng1f3`: [`to_lan`]).
    Lan,
    /// The UCI move (`g1f3`; castling in the game's own notation).
    Uci,
}

impl MoveNotation {
    /// True for SAN (what a saved state leaves out).
    pub fn is_san(&self) -> bool {
        *self == MoveNotation::San
    }

    fn write(self, pos: &crate::Position, mv: crate::Move, castling: CastlingMode) -> String {
        match self {
            MoveNotation::San => to_san(pos, mv),
            MoveNotation::Lan => to_lan(pos, mv),
            MoveNotation::Uci => format_move(mv, castling),
        }
    }
}

/// The game in PGN export form, its comments included, ending with a blank line so games can be
/// concatenated.
pub fn write_game(game: &PgnGame) -> Result<String, PgnWriteError> {
    write_game_in(game, MoveNotation::San)
}

/// [`write_game`] with the moves in `notation` (a PGN reader reads SAN only: LAN and UCI are for
/// the tools that ask for them).
pub fn write_game_in(game: &PgnGame, notation: MoveNotation) -> Result<String, PgnWriteError> {
    let mut out = String::new();
    for (name, value) in export_tags(game) {
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag_value(&value)));
    }
    out.push('\n');
    wrap_into(
        &mut out,
        &movetext_tokens(game, &game.comments, notation)?,
        80,
    );
    out.push_str("\n\n");
    Ok(out)
}

/// The tags [`write_game`] writes: the Seven Tag Roster (`?` or `????.??.??` when missing, the
/// game's own result), the other tags in order, then `Variant` for a Chess960 game without one,
/// and `SetUp "1"` and `FEN` when the start is not the standard position.
pub fn export_tags(game: &PgnGame) -> Vec<(String, String)> {
    let roster = SEVEN_TAG_ROSTER.iter().map(|&name| {
        let value = match (name, game.tag(name)) {
            ("Result", _) => game.record.outcome.pgn(),
            (_, Some(value)) => value,
            ("Date", None) => "????.??.??",
            (_, None) => "?",
        };
        (name.to_string(), value.to_string())
    });
    let rewritten =
        |name: &str| SEVEN_TAG_ROSTER.contains(&name) || name == "SetUp" || name == "FEN";
    let others = game.tags.iter().filter(|(n, _)| !rewritten(n)).cloned();
    let mut tags: Vec<(String, String)> = roster.chain(others).collect();
    if game.record.castling.is_chess960() && game.tag("Variant").is_none() {
        tags.push(("Variant".into(), "Chess960".into()));
    }
    let fen = game.record.start.fen();
    if fen != STARTPOS_FEN {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), fen));
    }
    tags
}

/// A tag value as PGN writes it: backslashes and quotes escaped, and control characters (a tag
/// must stay on one line; a newline read from a malformed file would split the game in two when
/// read back, as the `pgn` fuzz target found) written as spaces.
fn escape_tag_value(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// Move numbers, SAN moves, comments and the result, as words to wrap.
fn movetext_tokens(
    game: &PgnGame,
    comments: &Comments,
    notation: MoveNotation,
) -> Result<Vec<String>, PgnWriteError> {
    let by_ply = comments_by_ply(game, comments);
    let mut tokens = Vec::new();
    let mut need_number = push_comments(&mut tokens, &by_ply[0]);
    let mut pos = game.record.start.clone();
    for (index, &mv) in game.record.moves.iter().enumerate() {
        if !pos.legal_moves().contains(&mv) {
            return Err(PgnWriteError::IllegalMove {
                ply: index + 1,
                uci: format_move(mv, CastlingMode::Chess960),
                fen: pos.fen(),
            });
        }
        // A move number and its move are one word, so a line never ends with a bare number.
        let san = notation.write(&pos, mv, game.record.castling);
        tokens.push(match pos.side_to_move() {
            Color::White => format!("{}. {san}", pos.fullmove_number()),
            Color::Black if need_number || index == 0 => {
                format!("{}... {san}", pos.fullmove_number())
            }
            Color::Black => san,
        });
        let _ = pos.make(mv);
        need_number = push_comments(&mut tokens, &by_ply[index + 1]);
    }
    if let Some(text) = &comments.final_comment {
        push_comments(&mut tokens, &[text.as_str()]);
    }
    tokens.push(game.record.outcome.pgn().to_string());
    Ok(tokens)
}

/// The comments after each ply, 0 to the number of moves (later plies go after the last).
fn comments_by_ply<'c>(game: &PgnGame, comments: &'c Comments) -> Vec<Vec<&'c str>> {
    let plies = game.record.moves.len();
    let mut by_ply = vec![Vec::new(); plies + 1];
    for (ply, text) in &comments.after_ply {
        by_ply[(*ply).min(plies)].push(text.as_str());
    }
    by_ply
}

/// Each comment as brace-delimited words (a `}` inside becomes `)`); true if there were any.
fn push_comments(tokens: &mut Vec<String>, comments: &[&str]) -> bool {
    for text in comments {
        let clean = text.replace('}', ")");
        let words: Vec<&str> = clean.split_whitespace().collect();
        match words.len() {
            0 => tokens.push("{}".into()),
            n => tokens.extend(words.iter().enumerate().map(|(i, w)| {
                let open = if i == 0 { "{" } else { "" };
                let close = if i == n - 1 { "}" } else { "" };
                format!("{open}{w}{close}")
            })),
        }
    }
    !comments.is_empty()
}

/// Join `words` with spaces, breaking lines before they would pass `width` columns.
fn wrap_into(out: &mut String, words: &[String], width: usize) {
    let mut column = 0;
    for word in words {
        if column > 0 && column + 1 + word.len() > width {
            out.push('\n');
            column = 0;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += word.len();
    }
}
