//! PGN: reading whole files of games, and writing games in PGN's export form.
//!
//! The reader keeps the tag pairs, the main line and its comments (`{...}`, `;` to the end of
//! the line, each placed after the ply it follows). Variations (nested, with their comments),
//! NAGs (`$n`), move numbers and `%` escape lines are read past and dropped. `FEN`/`SetUp` give the start position and `Variant "Chess960"` (or "fischerandom")
//! marks a Chess960 game; other variants are read as standard chess. A bad game becomes an error
//! naming the game, the ply and the token, and reading goes on at the next game. One pass over
//! the text: the cost is linear in its length.
//!
//! The writer puts the Seven Tag Roster first, then the other tags, then `SetUp`/`FEN` when the
//! start is not the standard position; the movetext is SAN with move numbers, wrapped at 80
//! columns, with optional comments. It does not write variations or NAGs.

mod lexer;
mod reader;
mod text;
mod writer;

pub use reader::{read_games, PgnReader};
pub use text::{pgn_text, Latin1Bytes};
pub use writer::{export_tags, write_game, write_game_in, Comments, MoveNotation, PgnWriteError};

use super::san::SanError;
use crate::game::GameRecord;
use crate::FenError;
use std::fmt;

/// One game read from PGN, or to be written as PGN: the game itself, the tags around it and the
/// comments in its main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs in file order (names and unescaped values).
    pub tags: Vec<(String, String)>,
    /// The main line's comments, each after the ply it follows (0: before the first move).
    pub comments: Comments,
    /// The game: its start (the `FEN` tag), Chess960 or not (the `Variant` tag), the main line
    /// (every move legal), and its outcome (the movetext's result, else the `Result` tag, else
    /// `*`), with the rule that ended it when the final position shows one.
    pub record: GameRecord,
}

impl PgnGame {
    /// A game with no tags yet (the writer fills in the Seven Tag Roster) and no comments.
    pub fn new(record: GameRecord) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            comments: Comments::default(),
            record,
        }
    }

    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }
}

fn find_tag<'t>(tags: &'t [(String, String)], name: &str) -> Option<&'t str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// The Seven Tag Roster, in the order PGN's export form writes it.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// What is wrong in a game that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A malformed tag pair.
    Tag(&'static str),
    /// The `FEN` tag is not a valid position.
    Fen(FenError),
    /// A movetext token that is not a legal move.
    Move(SanError),
    /// Any other malformed movetext (an unclosed comment, a stray `)`).
    Syntax(&'static str),
}

impl fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::Tag(reason) | PgnErrorKind::Syntax(reason) => f.write_str(reason),
            PgnErrorKind::Fen(e) => write!(f, "bad FEN tag: {e}"),
            PgnErrorKind::Move(e) => f.write_str(&e.reason()),
        }
    }
}

/// A game that could not be read: where, which token, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The ply (from 1) the offending token would have been; 0 in the tag section.
    pub ply: usize,
    /// The line of the file the token is on, from 1.
    pub line: usize,
    /// The offending token.
    pub token: String,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, ply {}, line {}: '{}': {}",
            self.game, self.ply, self.line, self.token, self.kind
        )
    }
}

impl std::error::Error for PgnError {}

#[cfg(test)]
mod tests {
    use super::reader::is_chess960_variant;
    use super::*;
    use crate::game::Outcome;
    use crate::{CastlingMode, Color};

    const TWO_GAMES: &str = r#"[Event "First \"quoted\" game"]
[Site "?"]
[Result "1-0"]

1. e4 {best by test} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 Nc6 ; a comment
3.Bb5 a6!? 4. Ba4 1-0

[Event "Second"]
[FEN "4k3/8/8/8/8/8/8/4K2R b K - 0 30"]

30... Kf7 31. O-O+ *
"#;

    fn ok(text: &str) -> Vec<PgnGame> {
        read_games(text)
            .into_iter()
            .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
            .collect()
    }

    #[test]
    fn reads_tags_moves_and_results_past_comments_and_variations() {
        let games = ok(TWO_GAMES);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("First \"quoted\" game"));
        assert_eq!(games[0].record.moves.len(), 7);
        assert_eq!(games[0].record.outcome, Outcome::Win(Color::White));
        assert_eq!(games[1].record.start.fullmove_number(), 30);
        assert_eq!(games[1].record.moves.len(), 2);
        assert_eq!(games[1].record.outcome, Outcome::Unfinished);
        assert!(games[1].record.end_position().in_check());
    }

    #[test]
    fn writing_then_reading_gives_the_same_game() {
        for game in ok(TWO_GAMES) {
            let text = write_game(&game).unwrap();
            let again = ok(&text).remove(0);
            assert_eq!(again.record, game.record);
            assert_eq!(again.tags, export_tags(&game));
            assert_eq!(again.comments, game.comments);
        }
    }

    #[test]
    fn main_line_comments_are_kept_after_their_ply_and_variations_dropped() {
        let text = "[Event \"c\"]\n\n{before}   1. e4 {a   spaced\n comment} e5 (1... c5 {in a \
                    variation}) 2. Nf3 ; to the end } of the line\nNc6 {last} 1-0\n";
        let game = ok(text).remove(0);
        assert_eq!(
            game.comments.after_ply,
            vec![
                (0, "before".to_string()),
                (1, "a spaced comment".to_string()),
                (3, "to the end ) of the line".to_string()),
                (4, "last".to_string()),
            ]
        );
        assert_eq!(game.comments.final_comment, None);
        let again = ok(&write_game(&game).unwrap()).remove(0);
        assert_eq!(again.comments, game.comments);
        // A comment between games, or after the last, is nobody's and makes no game.
        let games = ok("1. e4 *\n{between}\n[Event \"b\"]\n1. d4 *\n{trailing}\n");
        assert_eq!(games.len(), 2);
        assert!(games.iter().all(|g| g.comments.after_ply.is_empty()));
    }

    #[test]
    fn export_form_roster_first_numbers_and_wrapping() {
        let mut game = ok(TWO_GAMES).remove(1);
        game.tags.push(("Annotator".into(), "me".into()));
        game.comments = Comments {
            after_ply: vec![(1, "a } brace".into())],
            final_comment: Some("White castles with check".into()),
        };
        let text = write_game(&game).unwrap();
        let expected = "[Event \"Second\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
            [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[Annotator \"me\"]\n[SetUp \"1\"]\n\
            [FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 30\"]\n\n\
            30... Kf7 {a ) brace} 31. O-O+ {White castles with check} *\n\n";
        assert_eq!(text, expected);
        let long = ok("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. Nf3 Nf6 *")
            .remove(0);
        let text = write_game(&long).unwrap();
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
        assert!(text.contains("Nf6\n8. Ng1"), "{text}");
        assert_eq!(ok(&text)[0].record, long.record);
    }

    #[test]
    fn a_bad_game_is_reported_and_the_next_ones_still_read() {
        let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n[Event \"c\"]\n\n1. d4 *\n";
        let games = read_games(text);
        assert_eq!(games.len(), 3);
        let err = games[1].as_ref().unwrap_err();
        assert_eq!((err.game, err.ply, err.line), (2, 3, 7));
        assert_eq!(err.token, "Ke3");
        assert_eq!(
            err.to_string(),
            "game 2, ply 3, line 7: 'Ke3': no legal move matches it in this position"
        );
        assert_eq!(games[2].as_ref().unwrap().tag("Event"), Some("c"));
    }

    #[test]
    fn malformed_tags_comments_and_parentheses() {
        let games = read_games("[Event \"x]\n1. e4 *\n[Event \"y\"]\n1. d4 *");
        assert!(matches!(
            games[0],
            Err(PgnError {
                kind: PgnErrorKind::Tag(_),
                ..
            })
        ));
        assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("y"));
        let games = read_games("1. e4 ) e5 *\n[Event \"z\"]\n1. d4 {never closed");
        assert!(matches!(games[0], Err(PgnError { ply: 2, .. })));
        assert!(matches!(
            games[1],
            Err(PgnError {
                kind: PgnErrorKind::Syntax(_),
                ..
            })
        ));
        let games = read_games("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4 *");
        assert!(matches!(
            games[0],
            Err(PgnError {
                kind: PgnErrorKind::Fen(_),
                ..
            })
        ));
    }

    #[test]
    fn chess960_variant_names() {
        for name in ["Chess960", "chess 960", "Fischerandom", "Fischer Random"] {
            assert!(is_chess960_variant(name), "{name}");
        }
        assert!(!is_chess960_variant("Standard"));
        // Chess960 short castling with the king already on g1: only the rook moves.
        let text = "[Variant \"Chess960\"]\n[FEN \"4k3/8/8/8/8/8/8/6KR w H - 0 1\"]\n\n1. O-O *";
        let game = ok(text).remove(0);
        assert_eq!(game.record.castling, CastlingMode::Chess960);
        let end = game.record.end_position();
        let at = |sq: &str| end.piece_at(sq.parse().unwrap()).map(|p| p.kind);
        assert_eq!(at("g1"), Some(crate::PieceKind::King));
        assert_eq!(at("f1"), Some(crate::PieceKind::Rook));
    }

    #[test]
    fn games_without_results_or_blank_lines_split_on_event() {
        let games = ok("[Event \"a\"]\n1. e4\n[Event \"b\"]\n[Event \"c\"]\n1. d4");
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].record.moves.len(), 1);
        assert!(games[1].record.moves.is_empty());
        assert_eq!(games[2].record.outcome, Outcome::Unfinished);
    }

    #[test]
    fn writer_refuses_illegal_moves() {
        let mut game = ok("1. e4 *").remove(0);
        game.record.moves.push(game.record.moves[0]);
        assert!(matches!(
            write_game(&game),
            Err(PgnWriteError::IllegalMove { ply: 2, .. })
        ));
    }
}
