//! PGN: reading whole files of games, and writing games in PGN's export form.
//!
//! The reader keeps the tag pairs and the main line. Comments (`{...}`, `;` to the end of the
//! line), variations (nested), NAGs (`$n`), move numbers and `%` escape lines are read past and
//! dropped. `FEN`/`SetUp` give the start position and `Variant "Chess960"` (or "fischerandom")
//! marks a Chess960 game; other variants are read as standard chess. A bad game becomes an error
//! naming the game, the ply and the token, and reading goes on at the next game. One pass over
//! the text: the cost is linear in its length.
//!
//! The writer puts the Seven Tag Roster first, then the other tags, then `SetUp`/`FEN` when the
//! start is not the standard position; the movetext is SAN with move numbers, wrapped at 80
//! columns, with optional comments. It does not write variations or NAGs.

use super::san::{parse_san, to_san, SanError};
use crate::notation::uci::{format_move, CastlingMode};
use crate::{Color, FenCastling, FenError, Move, Position, STARTPOS_FEN};
use std::fmt;

/// One game read from PGN, or to be written as PGN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs in file order (names and unescaped values).
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// True for a Chess960 game (the `Variant` tag).
    pub chess960: bool,
    /// The main line, every move legal.
    pub moves: Vec<Move>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`: the movetext's result, else the `Result` tag, else `*`.
    pub result: String,
}

impl PgnGame {
    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }

    /// The position after the last move.
    pub fn end_position(&self) -> Position {
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            let _ = pos.make(mv);
        }
        pos
    }
}

fn find_tag<'t>(tags: &'t [(String, String)], name: &str) -> Option<&'t str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// The four results PGN knows.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The Seven Tag Roster, in the order PGN's export form writes it.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

// ----- Errors --------------------------------------------------------------------------------

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

// ----- Lexer ---------------------------------------------------------------------------------

/// A movetext or tag-section token; comments and NAGs never leave the lexer.
#[derive(Debug)]
enum Token<'a> {
    Tag(&'a str, String),
    Symbol(&'a str),
    Open,
    Close,
}

/// A token with the line it starts on.
#[derive(Debug)]
struct Lexed<'a> {
    token: Token<'a>,
    line: usize,
}

/// A malformed stretch of text, before it is attached to a game.
#[derive(Debug)]
struct LexFailure {
    line: usize,
    token: String,
    kind: PgnErrorKind,
}

type LexItem<'a> = Result<Lexed<'a>, LexFailure>;

/// Splits PGN text into tokens in one forward pass, counting lines.
struct Lexer<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || b"{}()[];$\"".contains(&b)
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Lexer {
            text,
            at: 0,
            line: 1,
        }
    }

    fn peek_byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Move past `n` bytes, counting the newlines among them.
    fn advance(&mut self, n: usize) {
        let end = (self.at + n).min(self.text.len());
        self.line += self.text.as_bytes()[self.at..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.at = end;
    }

    /// Move to the first byte equal to `stop` (or the end); returns false at the end.
    fn advance_to(&mut self, stop: u8) -> bool {
        let found = self.text.as_bytes()[self.at..]
            .iter()
            .position(|&b| b == stop);
        self.advance(found.unwrap_or(self.text.len() - self.at));
        found.is_some()
    }

    fn skip_while(&mut self, keep: impl Fn(u8) -> bool) -> &'a str {
        let start = self.at;
        let len = self.text.as_bytes()[start..]
            .iter()
            .take_while(|&&b| keep(b))
            .count();
        self.advance(len);
        &self.text[start..self.at]
    }

    fn at_line_start(&self) -> bool {
        self.at == 0 || self.text.as_bytes()[self.at - 1] == b'\n'
    }

    /// The next token, or `None` at the end of the text.
    fn next_item(&mut self) -> Option<LexItem<'a>> {
        loop {
            self.skip_while(|b| b.is_ascii_whitespace());
            let line = self.line;
            let lexed = |token| Some(Ok(Lexed { token, line }));
            match self.peek_byte()? {
                b'{' => {
                    if let Err(failure) = self.skip_comment() {
                        return Some(Err(failure));
                    }
                }
                b';' => _ = self.advance_to(b'\n'),
                b'%' if self.at_line_start() => _ = self.advance_to(b'\n'),
                b'$' => {
                    self.advance(1);
                    self.skip_while(|b| b.is_ascii_digit());
                }
                b'(' => {
                    self.advance(1);
                    return lexed(Token::Open);
                }
                b')' => {
                    self.advance(1);
                    return lexed(Token::Close);
                }
                b'[' => return Some(self.tag()),
                _ => return lexed(Token::Symbol(self.symbol())),
            }
        }
    }

    fn skip_comment(&mut self) -> Result<(), LexFailure> {
        let line = self.line;
        if self.advance_to(b'}') {
            self.advance(1);
            return Ok(());
        }
        Err(LexFailure {
            line,
            token: "{".into(),
            kind: PgnErrorKind::Syntax("comment never closed"),
        })
    }

    /// A run of non-delimiters; at least one character, so a stray `]` or `}` is a symbol too.
    fn symbol(&mut self) -> &'a str {
        let start = self.at;
        let first = self.text[start..].chars().next().map_or(1, char::len_utf8);
        self.advance(first);
        self.skip_while(|b| !is_delimiter(b));
        &self.text[start..self.at]
    }

    /// `[Name "value"]`, on one line; a malformed tag pair consumes the rest of its line.
    fn tag(&mut self) -> LexItem<'a> {
        let (start, line) = (self.at, self.line);
        match self.tag_pair() {
            Ok((name, value)) => Ok(Lexed {
                token: Token::Tag(name, value),
                line,
            }),
            Err(reason) => {
                self.at = start;
                self.advance_to(b'\n');
                Err(LexFailure {
                    line,
                    token: self.text[start..self.at].trim_end().to_string(),
                    kind: PgnErrorKind::Tag(reason),
                })
            }
        }
    }

    fn tag_pair(&mut self) -> Result<(&'a str, String), &'static str> {
        let spaces = |b: u8| b == b' ' || b == b'\t';
        self.advance(1);
        self.skip_while(spaces);
        let name = self.skip_while(|b| b.is_ascii_alphanumeric() || b == b'_');
        if name.is_empty() {
            return Err("a tag needs a name");
        }
        self.skip_while(spaces);
        if self.peek_byte() != Some(b'"') {
            return Err("a tag value must be in double quotes");
        }
        self.advance(1);
        let value = self.tag_value()?;
        self.skip_while(spaces);
        if self.peek_byte() != Some(b']') {
            return Err("a tag must end with ']'");
        }
        self.advance(1);
        Ok((name, value))
    }

    /// The quoted value after its opening quote, with `\"` and `\\` unescaped.
    fn tag_value(&mut self) -> Result<String, &'static str> {
        let mut value = Vec::new();
        loop {
            match self.peek_byte() {
                None | Some(b'\n') => return Err("the tag value is not closed on its line"),
                Some(b'"') => break,
                Some(b'\\') if self.at + 1 < self.text.len() => {
                    value.push(self.text.as_bytes()[self.at + 1]);
                    self.advance(2);
                }
                Some(b) => {
                    value.push(b);
                    self.advance(1);
                }
            }
        }
        self.advance(1);
        Ok(String::from_utf8_lossy(&value).into_owned())
    }
}

// ----- Reader --------------------------------------------------------------------------------

/// Reads the games of a PGN text one by one; each item is a game or the error that ended it.
///
/// ```
/// use shannon::notation::PgnReader;
///
/// let pgn = "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
///            [Result \"*\"]\n\n1. e4 Ke7?? *\n";
/// let mut games = PgnReader::new(pgn);
/// let game = games.next().unwrap().unwrap();
/// assert_eq!(game.tag("White"), Some("A"));
/// assert_eq!((game.moves.len(), game.result.as_str()), (4, "0-1"));
/// let mut pos = game.start.clone();
/// for &mv in &game.moves {
///     pos = pos.play(mv);
/// }
/// assert!(pos.in_check() && pos.legal_moves().is_empty());
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
                    token: Token::Tag(..),
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
        let first = self.next_item()?;
        self.peeked = Some(first);
        self.games += 1;
        let mut game = GameBuilder::new(self.games);
        let read = self.read_game(&mut game);
        if read.is_err() {
            self.resync(game.board.is_some());
        }
        Some(read)
    }
}

fn is_result(s: &str) -> bool {
    RESULTS.contains(&s)
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

/// The position a game is at while its movetext is read.
struct Board {
    start: Position,
    current: Position,
    chess960: bool,
}

/// A game being read.
struct GameBuilder {
    number: usize,
    tags: Vec<(String, String)>,
    board: Option<Board>,
    moves: Vec<Move>,
    depth: usize,
}

impl GameBuilder {
    fn new(number: usize) -> GameBuilder {
        GameBuilder {
            number,
            tags: Vec::new(),
            board: None,
            moves: Vec::new(),
            depth: 0,
        }
    }

    /// A tag after movetext, or a second `Event`, belongs to the next game.
    fn starts_new_game(&self, name: &str) -> bool {
        self.board.is_some() || (name == "Event" && find_tag(&self.tags, "Event").is_some())
    }

    fn ply(&self) -> usize {
        if self.board.is_some() {
            self.moves.len() + 1
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

    /// The start position from the tags, set up once, when the movetext begins.
    fn board(&mut self, line: usize) -> Result<&mut Board, PgnError> {
        if self.board.is_none() {
            let start = match find_tag(&self.tags, "FEN") {
                None => Position::startpos(),
                Some(fen) => Position::from_fen(fen)
                    .map_err(|e| self.fail(line, fen, PgnErrorKind::Fen(e)))?,
            };
            let chess960 = find_tag(&self.tags, "Variant").is_some_and(is_chess960_variant);
            let current = start.clone();
            self.board = Some(Board {
                start,
                current,
                chess960,
            });
        }
        Ok(self.board.as_mut().expect("set just above"))
    }

    /// Take one movetext token; `Some(result)` when it ends the game.
    fn movetext(&mut self, lexed: Lexed<'_>) -> Result<Option<String>, PgnError> {
        let line = lexed.line;
        self.board(line)?;
        match lexed.token {
            Token::Symbol(s) if is_result(s) => return Ok(Some(s.to_string())),
            Token::Symbol(_) if self.depth > 0 => {}
            Token::Symbol(s) => self.symbol(s, line)?,
            Token::Open => self.depth += 1,
            Token::Close if self.depth == 0 => {
                let reason = PgnErrorKind::Syntax("')' closes no variation");
                return Err(self.fail(line, ")", reason));
            }
            Token::Close => self.depth -= 1,
            Token::Tag(..) => unreachable!("tags are handled by the reader"),
        }
        Ok(None)
    }

    /// A main-line symbol: a move, possibly glued to its number, or a bare number or annotation.
    fn symbol(&mut self, s: &str, line: usize) -> Result<(), PgnError> {
        let san = strip_move_number(s);
        if san.bytes().all(|b| b == b'!' || b == b'?') {
            return Ok(());
        }
        let board = self.board(line)?;
        match parse_san(&board.current, san) {
            Ok(mv) => {
                let _ = board.current.make(mv);
                self.moves.push(mv);
                Ok(())
            }
            Err(e) => Err(self.fail(line, s, PgnErrorKind::Move(e))),
        }
    }

    fn finish(&mut self, result: Option<String>) -> Result<PgnGame, PgnError> {
        let line = 0;
        let board = self.board(line)?;
        let start = board.start.clone();
        let chess960 = board.chess960;
        let result = result
            .or_else(|| find_tag(&self.tags, "Result").map(String::from))
            .filter(|r| is_result(r))
            .unwrap_or_else(|| "*".into());
        Ok(PgnGame {
            tags: std::mem::take(&mut self.tags),
            start,
            chess960,
            moves: std::mem::take(&mut self.moves),
            result,
        })
    }
}

/// `Chess960`, `Fischerandom`, `Fischer Random`, `chess 960` (case and spacing vary in the wild).
fn is_chess960_variant(value: &str) -> bool {
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

// ----- Writer --------------------------------------------------------------------------------

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
    /// The result is not one of [`RESULTS`].
    BadResult(String),
}

impl fmt::Display for PgnWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnWriteError::IllegalMove { ply, uci, fen } => {
                write!(f, "ply {ply}: {uci} is not legal in {fen}")
            }
            PgnWriteError::BadResult(result) => {
                write!(f, "result '{result}' is not one of {}", RESULTS.join(", "))
            }
        }
    }
}

impl std::error::Error for PgnWriteError {}

/// The game in PGN export form, ending with a blank line so games can be concatenated.
pub fn write_game(game: &PgnGame, comments: &Comments) -> Result<String, PgnWriteError> {
    if !is_result(&game.result) {
        return Err(PgnWriteError::BadResult(game.result.clone()));
    }
    let mut out = String::new();
    for (name, value) in export_tags(game) {
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag_value(&value)));
    }
    out.push('\n');
    wrap_into(&mut out, &movetext_tokens(game, comments)?, 80);
    out.push_str("\n\n");
    Ok(out)
}

/// The tags [`write_game`] writes: the Seven Tag Roster (`?` or `????.??.??` when missing, the
/// game's own result), the other tags in order, then `Variant` for a Chess960 game without one,
/// and `SetUp "1"` and `FEN` when the start is not the standard position.
pub fn export_tags(game: &PgnGame) -> Vec<(String, String)> {
    let roster = SEVEN_TAG_ROSTER.iter().map(|&name| {
        let value = match (name, game.tag(name)) {
            ("Result", _) => game.result.as_str(),
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
    if game.chess960 && game.tag("Variant").is_none() {
        tags.push(("Variant".into(), "Chess960".into()));
    }
    let fen = game.start.fen(FenCastling::XFen);
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
fn movetext_tokens(game: &PgnGame, comments: &Comments) -> Result<Vec<String>, PgnWriteError> {
    let by_ply = comments_by_ply(game, comments);
    let mut tokens = Vec::new();
    let mut need_number = push_comments(&mut tokens, &by_ply[0]);
    let mut pos = game.start.clone();
    for (index, &mv) in game.moves.iter().enumerate() {
        if !pos.legal_moves().contains(&mv) {
            return Err(PgnWriteError::IllegalMove {
                ply: index + 1,
                uci: format_move(mv, CastlingMode::Chess960),
                fen: pos.fen(FenCastling::XFen),
            });
        }
        // A move number and its move are one word, so a line never ends with a bare number.
        let san = to_san(&pos, mv);
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
    tokens.push(game.result.clone());
    Ok(tokens)
}

/// The comments after each ply, 0 to the number of moves (later plies go after the last).
fn comments_by_ply<'c>(game: &PgnGame, comments: &'c Comments) -> Vec<Vec<&'c str>> {
    let mut by_ply = vec![Vec::new(); game.moves.len() + 1];
    for (ply, text) in &comments.after_ply {
        by_ply[(*ply).min(game.moves.len())].push(text.as_str());
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(games[0].moves.len(), 7);
        assert_eq!(games[0].result, "1-0");
        assert_eq!(games[1].start.fullmove_number(), 30);
        assert_eq!(games[1].moves.len(), 2);
        assert_eq!(games[1].result, "*");
        assert!(games[1].end_position().in_check());
    }

    #[test]
    fn writing_then_reading_gives_the_same_game() {
        for game in ok(TWO_GAMES) {
            let text = write_game(&game, &Comments::default()).unwrap();
            let again = ok(&text).remove(0);
            assert_eq!(again.moves, game.moves);
            assert_eq!(again.start, game.start);
            assert_eq!(again.tags, export_tags(&game));
        }
    }

    #[test]
    fn export_form_roster_first_numbers_and_wrapping() {
        let mut game = ok(TWO_GAMES).remove(1);
        game.tags.push(("Annotator".into(), "me".into()));
        let comments = Comments {
            after_ply: vec![(1, "a } brace".into())],
            final_comment: Some("White castles with check".into()),
        };
        let text = write_game(&game, &comments).unwrap();
        let expected = "[Event \"Second\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
            [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[Annotator \"me\"]\n[SetUp \"1\"]\n\
            [FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 30\"]\n\n\
            30... Kf7 {a ) brace} 31. O-O+ {White castles with check} *\n\n";
        assert_eq!(text, expected);
        let long = PgnGame {
            moves: ok("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. Nf3 Nf6 *")
                .remove(0)
                .moves,
            ..ok("*").remove(0)
        };
        let text = write_game(&long, &Comments::default()).unwrap();
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
        assert!(text.contains("Nf6\n8. Ng1"), "{text}");
        assert_eq!(ok(&text)[0].moves, long.moves);
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
        assert!(game.chess960);
        let end = game.end_position();
        let at = |sq: &str| end.piece_at(sq.parse().unwrap()).map(|p| p.kind);
        assert_eq!(at("g1"), Some(crate::PieceKind::King));
        assert_eq!(at("f1"), Some(crate::PieceKind::Rook));
    }

    #[test]
    fn games_without_results_or_blank_lines_split_on_event() {
        let games = ok("[Event \"a\"]\n1. e4\n[Event \"b\"]\n[Event \"c\"]\n1. d4");
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].moves.len(), 1);
        assert!(games[1].moves.is_empty());
        assert_eq!(games[2].result, "*");
    }

    #[test]
    fn writer_refuses_illegal_moves_and_bad_results() {
        let mut game = ok("1. e4 *").remove(0);
        game.moves.push(game.moves[0]);
        assert!(matches!(
            write_game(&game, &Comments::default()),
            Err(PgnWriteError::IllegalMove { ply: 2, .. })
        ));
        game.result = "2-0".into();
        assert!(matches!(
            write_game(&game, &Comments::default()),
            Err(PgnWriteError::BadResult(_))
        ));
    }
}
