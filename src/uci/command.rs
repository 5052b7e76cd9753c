//! One input line to one [`Command`], or an error saying what is wrong with it.
//!
//! The first known command word decides the command (the UCI specification asks engines to skip
//! unknown leading tokens: `joho debug on` is `debug on`). `position` and `go` are read by the
//! small tokenizer here, because vampirc-uci 0.11 reads only the longest valid prefix of them,
//! loses `ponder`/`infinite` next to time controls, does not know `go perft` and panics on some
//! numbers. The simple commands and `setoption` go through `vampirc_uci::parse_one`, and its answer
//! is checked against the command word, so that `isreadyx` is not taken for `isready`.

use std::fmt;
use vampirc_uci::UciMessage;

/// A command from the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name N [value V]`.
    SetOption {
        /// The option name, trimmed, as sent (matched case-insensitively).
        name: String,
        /// The value, trimmed; `None` when absent.
        value: Option<String>,
    },
    /// `register ...` (accepted and ignored: nothing to register).
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position ...`.
    Position(PositionCommand),
    /// `go ...`.
    Go(GoCommand),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: show the position.
    Display,
    /// `help`: list the commands (for a person at a terminal, as Stockfish's `help`).
    Help,
}

/// Where a `position` command starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartSpec {
    /// `startpos`.
    StartPos,
    /// `fen F...`: the FEN fields joined by single spaces.
    Fen(String),
}

/// A `position` command: the start and the moves exactly as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionCommand {
    /// The start position.
    pub start: StartSpec,
    /// Everything after `moves`, trimmed (empty when there are no moves). Kept as text so that a
    /// command extending the previous one is recognised by a prefix comparison.
    pub moves: String,
}

/// A `go` command's parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// `go perft N`: count instead of playing.
    pub perft: Option<u32>,
    /// `infinite`: hold `bestmove` until `stop`.
    pub infinite: bool,
    /// `ponder`: hold `bestmove` until `stop` or `ponderhit`.
    pub ponder: bool,
    /// `searchmoves`: choose among these only.
    pub searchmoves: Vec<String>,
    /// The numeric limits that were given, by name (`wtime`, `depth`, ...), saturated to `i64`.
    /// A random mover needs none of them; they are kept for `debug` tracing.
    pub limits: Vec<(&'static str, i64)>,
    /// Problems found that did not stop the command (unknown tokens, bad numbers). The `go` is
    /// still answered, with exactly one `bestmove`, because a GUI waits for it.
    pub warnings: Vec<String>,
}

/// Why a line is not a command the engine can carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandError {
    /// No known command word on the line.
    Unknown(String),
    /// The command word is known but its arguments are malformed.
    Malformed {
        /// The command word.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(line) => write!(f, "unknown command '{}'", shorten(line)),
            CommandError::Malformed { command, reason } => write!(f, "{command}: {reason}"),
        }
    }
}

impl std::error::Error for CommandError {}

/// At most 80 characters of `text`, for error messages about possibly huge lines.
pub fn shorten(text: &str) -> String {
    const MAX: usize = 80;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

const COMMAND_WORDS: [&str; 13] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "help",
];

/// What a line asks for: `Ok(None)` for a blank line, which is ignored.
pub fn parse_line(line: &str) -> Result<Option<Command>, CommandError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let mut rest = line;
    loop {
        let Some(word) = rest.split_ascii_whitespace().next() else {
            return Err(CommandError::Unknown(line.to_string()));
        };
        // `rest` is trimmed, so it starts with `word`.
        let tail = rest[word.len()..].trim_start();
        if COMMAND_WORDS.contains(&word) {
            return parse_command(word, rest, tail).map(Some);
        }
        rest = tail;
    }
}

fn parse_command(word: &str, text: &str, args: &str) -> Result<Command, CommandError> {
    match word {
        "position" => parse_position(args).map(Command::Position),
        "go" => parse_go(args).map(Command::Go),
        "d" => Ok(Command::Display),
        "help" => Ok(Command::Help),
        "register" => Ok(Command::Register),
        "setoption" => parse_setoption(text, args),
        _ => parse_simple(word, text),
    }
}

/// vampirc-uci's reading of one line, or `None` if it panics (0.11 does on some numbers; the
/// lines given to it here should not have any, but input must never bring the engine down).
fn vampirc_parse(text: &str) -> Option<UciMessage> {
    std::panic::catch_unwind(|| vampirc_uci::parse_one(text)).ok()
}

/// The argument-free commands and `debug`, through vampirc-uci, checked against the word.
fn parse_simple(word: &str, text: &str) -> Result<Command, CommandError> {
    let message = vampirc_parse(text);
    let command = match (word, message) {
        ("uci", Some(UciMessage::Uci)) => Command::Uci,
        ("isready", Some(UciMessage::IsReady)) => Command::IsReady,
        ("ucinewgame", Some(UciMessage::UciNewGame)) => Command::UciNewGame,
        ("stop", Some(UciMessage::Stop)) => Command::Stop,
        ("ponderhit", Some(UciMessage::PonderHit)) => Command::PonderHit,
        ("quit", Some(UciMessage::Quit)) => Command::Quit,
        ("debug", Some(UciMessage::Debug(on))) => Command::Debug(on),
        ("debug", _) => {
            return Err(CommandError::Malformed {
                command: "debug",
                reason: "expected 'debug on' or 'debug off'".to_string(),
            })
        }
        // Extra words after an argument-free command are ignored, as the specification asks.
        ("uci", _) => Command::Uci,
        ("isready", _) => Command::IsReady,
        ("ucinewgame", _) => Command::UciNewGame,
        ("stop", _) => Command::Stop,
        ("ponderhit", _) => Command::PonderHit,
        ("quit", _) => Command::Quit,
        _ => return Err(CommandError::Unknown(text.to_string())),
    };
    Ok(command)
}

/// `setoption name N [value V]`. vampirc-uci reads it; its answer is trimmed (it keeps trailing
/// spaces), and when it refuses the line (a name starting with "value") our own split is used.
fn parse_setoption(text: &str, args: &str) -> Result<Command, CommandError> {
    let (name, value) = match vampirc_parse(text) {
        Some(UciMessage::SetOption { name, value }) => (name, value),
        _ => split_setoption(args)?,
    };
    let name = name.trim().to_string();
    if name.is_empty() {
        return Err(malformed("setoption", "the option name is missing"));
    }
    let value = value.map(|v| v.trim().to_string());
    Ok(Command::SetOption { name, value })
}

fn split_setoption(args: &str) -> Result<(String, Option<String>), CommandError> {
    let Some(rest) = args.strip_prefix("name") else {
        return Err(malformed(
            "setoption",
            "expected 'setoption name <name> [value <value>]'",
        ));
    };
    let words: Vec<&str> = rest.split_ascii_whitespace().collect();
    // The last "value" word splits name from value, so a name may itself begin with "value".
    match words.iter().rposition(|&w| w == "value") {
        Some(at) if at > 0 => Ok((words[..at].join(" "), Some(words[at + 1..].join(" ")))),
        _ => Ok((words.join(" "), None)),
    }
}

fn malformed(command: &'static str, reason: impl Into<String>) -> CommandError {
    CommandError::Malformed {
        command,
        reason: reason.into(),
    }
}

fn parse_position(args: &str) -> Result<PositionCommand, CommandError> {
    let (head, moves) = match find_word(args, "moves") {
        Some(at) => (&args[..at], args[at + "moves".len()..].trim()),
        None => (args, ""),
    };
    let mut words = head.split_ascii_whitespace();
    let start = match words.next() {
        Some("startpos") => {
            if let Some(extra) = words.next() {
                return Err(malformed(
                    "position",
                    format!(
                        "unexpected '{}' after 'startpos' (expected 'moves')",
                        shorten(extra)
                    ),
                ));
            }
            StartSpec::StartPos
        }
        Some("fen") => {
            let fields: Vec<&str> = words.collect();
            if fields.is_empty() {
                return Err(malformed("position", "'fen' needs a FEN"));
            }
            StartSpec::Fen(fields.join(" "))
        }
        Some(other) => {
            return Err(malformed(
                "position",
                format!("expected 'startpos' or 'fen', found '{}'", shorten(other)),
            ))
        }
        None => return Err(malformed("position", "expected 'startpos' or 'fen'")),
    };
    Ok(PositionCommand {
        start,
        moves: moves.to_string(),
    })
}

/// The byte offset of `word` as a whole whitespace-separated word in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find(word) {
        let at = from + found;
        let before_ok = at == 0 || text.as_bytes()[at - 1].is_ascii_whitespace();
        let end = at + word.len();
        let after_ok = end == text.len() || text.as_bytes()[end].is_ascii_whitespace();
        if before_ok && after_ok {
            return Some(at);
        }
        from = end;
    }
    None
}

const GO_NUMBERS: [&str; 9] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
];

fn parse_go(args: &str) -> Result<GoCommand, CommandError> {
    let mut go = GoCommand::default();
    let mut words = args.split_ascii_whitespace().peekable();
    while let Some(word) = words.next() {
        match word {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "perft" => go.perft = Some(parse_perft_depth(words.next())?),
            "searchmoves" => {
                while let Some(&mv) = words.peek() {
                    if is_go_keyword(mv) {
                        break;
                    }
                    go.searchmoves.push(mv.to_string());
                    words.next();
                }
            }
            _ => match GO_NUMBERS.iter().find(|&&name| name == word) {
                Some(&name) => match words.peek().map(|w| parse_saturating(w)) {
                    Some(Some(value)) => {
                        go.limits.push((name, value));
                        words.next();
                    }
                    Some(None) => {
                        let bad = words.next().unwrap_or_default();
                        go.warnings
                            .push(format!("'{}' is not a number for {name}", shorten(bad)));
                    }
                    None => go.warnings.push(format!("{name} needs a number")),
                },
                None => go
                    .warnings
                    .push(format!("unknown token '{}' ignored", shorten(word))),
            },
        }
    }
    Ok(go)
}

fn is_go_keyword(word: &str) -> bool {
    matches!(word, "infinite" | "ponder" | "perft" | "searchmoves") || GO_NUMBERS.contains(&word)
}

/// The largest `go perft` depth, shared with the command line and suite files.
pub use crate::perft::MAX_PERFT_DEPTH;

fn parse_perft_depth(word: Option<&str>) -> Result<u32, CommandError> {
    let word = word.ok_or_else(|| malformed("go perft", "needs a depth"))?;
    match word.parse::<u32>() {
        Ok(depth) if depth <= MAX_PERFT_DEPTH => Ok(depth),
        _ => Err(malformed(
            "go perft",
            format!(
                "depth '{}' is not a number from 0 to {MAX_PERFT_DEPTH}",
                shorten(word)
            ),
        )),
    }
}

/// An integer of any length, clamped to `i64` (GUIs send negative clocks; nobody needs more).
fn parse_saturating(word: &str) -> Option<i64> {
    let (negative, digits) = match word.as_bytes().first() {
        Some(b'-') => (true, &word[1..]),
        Some(b'+') => (false, &word[1..]),
        _ => (false, word),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match (digits.parse::<i64>(), negative) {
        (Ok(n), true) => -n,
        (Ok(n), false) => n,
        (Err(_), true) => i64::MIN,
        (Err(_), false) => i64::MAX,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(args: &str) -> GoCommand {
        match parse_line(&format!("go {args}")) {
            Ok(Some(Command::Go(go))) => go,
            other => panic!("{other:?}"),
        }
    }

    fn position(line: &str) -> PositionCommand {
        match parse_line(line) {
            Ok(Some(Command::Position(p))) => p,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn numbers_vampirc_panics_on() {
        assert_eq!(go("depth 300").limits, vec![("depth", 300)]);
        assert_eq!(go("mate 300").limits, vec![("mate", 300)]);
        assert_eq!(go("movestogo 999").limits, vec![("movestogo", 999)]);
        assert_eq!(
            go("wtime 99999999999999999999999").limits,
            vec![("wtime", i64::MAX)]
        );
        assert_eq!(go("wtime -500").limits, vec![("wtime", -500)]);
        assert_eq!(go("depth x").warnings.len(), 1);
    }

    #[test]
    fn ponder_and_infinite_survive_time_controls() {
        let g = go("ponder wtime 1000 btime 1000");
        assert!(g.ponder && !g.infinite);
        let g = go("wtime 1000 btime 1000 infinite");
        assert!(g.infinite);
        assert_eq!(go("perft 5").perft, Some(5));
        let g = go("searchmoves e2e4 d2d4 infinite");
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(g.infinite);
    }

    #[test]
    fn position_keeps_every_move_token() {
        let p = position("position startpos moves e2e4 0000 e7e5");
        assert_eq!(p.moves, "e2e4 0000 e7e5");
        let p = position("position startpos moves  e2e4  e7e5");
        assert_eq!(p.moves.split_ascii_whitespace().count(), 2);
        assert!(parse_line("position startpos e2e4").is_err());
        let p = position("position fen 4k3/8/8/8/8/8/8/4K2R w H - moves e1h1");
        assert_eq!(p.start, StartSpec::Fen("4k3/8/8/8/8/8/8/4K2R w H -".into()));
        assert_eq!(p.moves, "e1h1");
    }

    #[test]
    fn command_word_is_checked() {
        assert!(matches!(
            parse_line("isreadyx"),
            Err(CommandError::Unknown(_))
        ));
        assert_eq!(parse_line("joho debug on"), Ok(Some(Command::Debug(true))));
        assert!(parse_line("debug joho on").is_err());
        assert_eq!(parse_line("   "), Ok(None));
    }

    #[test]
    fn setoption_trimmed_and_value_names() {
        assert_eq!(
            parse_line("setoption name Hash value 32   "),
            Ok(Some(Command::SetOption {
                name: "Hash".into(),
                value: Some("32".into())
            }))
        );
        assert_eq!(
            parse_line("setoption name valueless value 3"),
            Ok(Some(Command::SetOption {
                name: "valueless".into(),
                value: Some("3".into())
            }))
        );
        assert_eq!(
            parse_line("setoption name Debug Log File value <empty>"),
            Ok(Some(Command::SetOption {
                name: "Debug Log File".into(),
                value: Some("<empty>".into())
            }))
        );
    }
}
