//! PGN text as tokens: tag pairs, comments, symbols and parentheses, in one forward pass that
//! counts lines. NAGs (`$n`) and `%` escape lines never leave the lexer.

use super::PgnErrorKind;

/// A movetext or tag-section token; NAGs never leave the lexer.
#[derive(Debug)]
pub(super) enum Token<'a> {
    Tag(&'a str, String),
    /// A comment's text: `{...}` without its braces, or `;` to the end of the line.
    Comment(&'a str),
    Symbol(&'a str),
    Open,
    Close,
}

/// A token with the line it starts on.
#[derive(Debug)]
pub(super) struct Lexed<'a> {
    pub(super) token: Token<'a>,
    pub(super) line: usize,
}

/// A malformed stretch of text, before it is attached to a game.
#[derive(Debug)]
pub(super) struct LexFailure {
    pub(super) line: usize,
    pub(super) token: String,
    pub(super) kind: PgnErrorKind,
}

pub(super) type LexItem<'a> = Result<Lexed<'a>, LexFailure>;

/// Splits PGN text into tokens in one forward pass, counting lines.
pub(super) struct Lexer<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || b"{}()[];$\"".contains(&b)
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str) -> Lexer<'a> {
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
    pub(super) fn next_item(&mut self) -> Option<LexItem<'a>> {
        loop {
            self.skip_while(|b| b.is_ascii_whitespace());
            let line = self.line;
            let lexed = |token| Some(Ok(Lexed { token, line }));
            match self.peek_byte()? {
                b'{' => {
                    return match self.brace_comment() {
                        Ok(text) => lexed(Token::Comment(text)),
                        Err(failure) => Some(Err(failure)),
                    }
                }
                b';' => {
                    self.advance(1);
                    let start = self.at;
                    self.advance_to(b'\n');
                    return lexed(Token::Comment(&self.text[start..self.at]));
                }
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

    /// A `{...}` comment's text, the braces left out.
    fn brace_comment(&mut self) -> Result<&'a str, LexFailure> {
        let line = self.line;
        let start = self.at + 1;
        if self.advance_to(b'}') {
            let text = &self.text[start..self.at];
            self.advance(1);
            return Ok(text);
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
