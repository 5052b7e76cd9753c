//! Reading PGN files game by game: tags, the main line and its comments, every move checked.

use super::lexer::{LexFailure, LexItem, Lexed, Lexer, Token};
use super::{find_tag, Comments, PgnError, PgnErrorKind, PgnGame};
use crate::game::{Game, GameRecord, Outcome};
use crate::notation::san::parse_san;
use crate::{CastlingMode, Position};

/// Reads the games of a PGN text one by one; each item is a game or the error that ended it.
///
/// ```
/// use shannon::game::Outcome;
/// use shannon::notation::pgn::PgnReader;
/// use shannon::Color;
///
/// let pgn = "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
///            [Result \"*\"]\n\n1. e4 Ke7?? *\n";
/// let mut games = PgnReader::new(pgn);
/// let game = games.next().unwrap().unwrap();
/// assert_eq!(game.tag("White"), Some("A"));
/// assert_eq!(game.record.moves.len(), 4);
/// assert_eq!(game.record.outcome, Outcome::Win(Color::Black));
/// assert_eq!(game.record.finish.unwrap().to_string(), "checkmate, black wins");
/// // The second game's king cannot go to e7 (the e-pawn is still on e7): an error.
/// assert!(games.next().unwrap().is_err());
/// assert!(games.next().is_none());
/// ```
pub struct PgnReader<'a> {
    lexer: Lexer<'a>,
    peeked: Option<LexItem<'a>>,
    games: usize,
}

/// Every game of a PGN text, in order.
pub fn read_games(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    PgnReader::new(text).collect()
}

impl<'a> PgnReader<'a> {
    /// A reader over the whole of `text` (a leading byte-order mark is skipped).
    pub fn new(text: &'a str) -> PgnReader<'a> {
        PgnReader {
            lexer: Lexer::new(text),
            peeked: None,
            games: 0,
        }
    }

    fn next_item(&mut self) -> Option<LexItem<'a>> {
        self.peeked.take().or_else(|| self.lexer.next_item())
    }

    fn read_game(&mut self, game: &mut GameBuilder) -> Result<PgnGame, PgnError> {
        while let Some(item) = self.next_item() {
            let lexed = item.map_err(|failure| game.error(failure))?;
            if let Token::Comment(text) = lexed.token {
                game.comment(text);
                continue;
            }
            if let Token::Tag(name, value) = lexed.token {
                if game.starts_new_game(name) {
                    self.peeked = Some(Ok(Lexed {
                        token: Token::Tag(name, value),
                        line: lexed.line,
                    }));
                    break;
                }
                game.tags.push((name.to_string(), value));
            } else if let Some(result) = game.movetext(lexed)? {
                return game.finish(Some(result));
            }
        }
        game.finish(None)
    }

    /// After an error, read past the rest of the game: up to its result, or up to the next tag
    /// section once movetext has been seen.
    fn resync(&mut self, mut seen_movetext: bool) {
        while let Some(item) = self.next_item() {
            match item {
                Ok(Lexed {
                    token: Token::Tag(..),
                    ..
                }) if seen_movetext => {
                    self.peeked = item.into();
                    return;
                }
                Ok(Lexed {
                    token: Token::Symbol(s),
                    ..
                }) if is_result(s) => return,
                Ok(Lexed {
                    token: Token::Tag(..) | Token::Comment(_),
                    ..
                }) => {}
                _ => seen_movetext = true,
            }
        }
    }
}

impl Iterator for PgnReader<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        // A comment before a game's first tag or move (between games, or after the last) is
        // nobody's: it is read past, as before comments were kept.
        let first = loop {
            match self.next_item()? {
                Ok(Lexed {
                    token: Token::Comment(_),
                    ..
                }) => continue,
                item => break item,
            }
        };
        self.peeked = Some(first);
        self.games += 1;
        let mut game = GameBuilder::new(self.games);
        let read = self.read_game(&mut game);
        if read.is_err() {
            self.resync(game.game.is_some());
        }
        Some(read)
    }
}

fn is_result(s: &str) -> bool {
    Outcome::from_pgn(s).is_some()
}

/// `12.e4` -> `e4`, `12...` -> ``; anything else unchanged.
fn strip_move_number(s: &str) -> &str {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && s[digits..].starts_with('.') {
        s[digits..].trim_start_matches('.')
    } else {
        s
    }
}

/// A game being read.
struct GameBuilder {
    number: usize,
    tags: Vec<(String, String)>,
    /// The main line's comments so far.
    comments: Comments,
    /// The game so far, set up from the tags when the movetext begins.
    game: Option<Game>,
    castling: CastlingMode,
    depth: usize,
}

impl GameBuilder {
    fn new(number: usize) -> GameBuilder {
        GameBuilder {
            number,
            tags: Vec::new(),
            comments: Comments::default(),
            game: None,
            castling: CastlingMode::Standard,
            depth: 0,
        }
    }

    /// A tag after movetext, or a second `Event`, belongs to the next game.
    fn starts_new_game(&self, name: &str) -> bool {
        self.game.is_some() || (name == "Event" && find_tag(&self.tags, "Event").is_some())
    }

    fn ply(&self) -> usize {
        if let Some(game) = &self.game {
            game.moves().len() + 1
        } else {
            0
        }
    }

    fn error(&self, failure: LexFailure) -> PgnError {
        PgnError {
            game: self.number,
            ply: self.ply(),
            line: failure.line,
            token: failure.token,
            kind: failure.kind,
        }
    }

    fn fail(&self, line: usize, token: &str, kind: PgnErrorKind) -> PgnError {
        self.error(LexFailure {
            line,
            token: token.to_string(),
            kind,
        })
    }

    /// A comment of the main line, after the moves read so far (a comment inside a variation
    /// goes with the variation). Its whitespace is folded to single spaces and a `}` (possible
    /// in a `;` comment) becomes `)`, as the writer writes it, so that a game read, written and
    /// read again keeps its comments unchanged.
    fn comment(&mut self, text: &str) {
        if self.depth > 0 {
            return;
        }
        let ply = self.game.as_ref().map_or(0, |game| game.moves().len());
        let text = text.replace('}', ")");
        let words: Vec<&str> = text.split_whitespace().collect();
        self.comments.after_ply.push((ply, words.join(" ")));
    }

    /// The game from the tags' start position, set up once, when the movetext begins.
    fn game(&mut self, line: usize) -> Result<&mut Game, PgnError> {
        if self.game.is_none() {
            let start = match find_tag(&self.tags, "FEN") {
                None => Position::startpos(),
                Some(fen) => Position::from_fen(fen)
                    .map_err(|e| self.fail(line, fen, PgnErrorKind::Fen(e)))?,
            };
            let chess960 = find_tag(&self.tags, "Variant").is_some_and(is_chess960_variant);
            self.castling = CastlingMode::from_chess960(chess960);
            self.game = Some(Game::new(start));
        }
        Ok(self.game.as_mut().expect("set just above"))
    }

    /// Take one movetext token; `Some(result)` when it ends the game.
    fn movetext(&mut self, lexed: Lexed<'_>) -> Result<Option<Outcome>, PgnError> {
        let line = lexed.line;
        self.game(line)?;
        match lexed.token {
            Token::Symbol(s) if is_result(s) => return Ok(Outcome::from_pgn(s)),
            Token::Symbol(_) if self.depth > 0 => {}
            Token::Symbol(s) => self.symbol(s, line)?,
            Token::Open => self.depth += 1,
            Token::Close if self.depth == 0 => {
                let reason = PgnErrorKind::Syntax("')' closes no variation");
                return Err(self.fail(line, ")", reason));
            }
            Token::Close => self.depth -= 1,
            Token::Tag(..) | Token::Comment(_) => {
                unreachable!("tags and comments are handled by the reader")
            }
        }
        Ok(None)
    }

    /// A main-line symbol: a move, possibly glued to its number, or a bare number or annotation.
    fn symbol(&mut self, s: &str, line: usize) -> Result<(), PgnError> {
        let san = strip_move_number(s);
        if san.bytes().all(|b| b == b'!' || b == b'?') {
            return Ok(());
        }
        let game = self.game(line)?;
        match parse_san(game.position(), san) {
            Ok(mv) => {
                game.play(mv);
                Ok(())
            }
            Err(e) => Err(self.fail(line, s, PgnErrorKind::Move(e))),
        }
    }

    fn finish(&mut self, result: Option<Outcome>) -> Result<PgnGame, PgnError> {
        let line = 0;
        self.game(line)?;
        let game = self.game.take().expect("set up just above");
        let outcome = result
            .or_else(|| find_tag(&self.tags, "Result").and_then(Outcome::from_pgn))
            .unwrap_or(Outcome::Unfinished);
        Ok(PgnGame {
            tags: std::mem::take(&mut self.tags),
            comments: std::mem::take(&mut self.comments),
            record: GameRecord {
                start: game.start().clone(),
                castling: self.castling,
                moves: game.moves().to_vec(),
                outcome,
                finish: GameRecord::finish_for(&game, outcome),
            },
        })
    }
}

/// `Chess960`, `Fischerandom`, `Fischer Random`, `chess 960` (case and spacing vary in the wild).
pub(super) fn is_chess960_variant(value: &str) -> bool {
    let name: String = value
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    matches!(
        name.as_str(),
        "chess960" | "fischerandom" | "fischerrandom" | "960"
    )
}
