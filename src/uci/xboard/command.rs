//! One line from the GUI to one xboard (CECP version 2) command.
//!
//! Every command of the specification is recognised, including those Shannon only acknowledges
//! (time controls, pondering, thinking output, opponent's name); a line that is no command is a
//! move when it looks like one (`e2e4`, `e7e8q`, `O-O`, `Nf3`), and unknown otherwise.

/// A command from the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `xboard`: the first line, repeated.
    Xboard,
    /// `protover N`.
    Protover,
    /// `accepted FEATURE`.
    Accepted(String),
    /// `rejected FEATURE`.
    Rejected(String),
    /// `new`.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `force`.
    Force,
    /// `go`.
    Go,
    /// `playother`.
    PlayOther,
    /// `usermove MOVE`, or a bare move.
    Move(String),
    /// `?`: move now.
    MoveNow,
    /// `ping N` (the argument as sent).
    Ping(String),
    /// `result RESULT {COMMENT}`.
    Result,
    /// `setboard FEN`.
    SetBoard(String),
    /// `undo`.
    Undo,
    /// `remove`.
    Remove,
    /// `post`.
    Post,
    /// `nopost`.
    NoPost,
    /// `option NAME[=VALUE]`.
    Option {
        /// The option's name.
        name: String,
        /// Its value, when one was sent.
        value: Option<String>,
    },
    /// A command that needs nothing from a random mover, accepted and ignored: time controls and
    /// clocks (`level`, `st`, `sd`, `nps`, `time`, `otim`), pondering (`hard`, `easy`), the
    /// opponent (`computer`, `name`, `rating`, `ics`), `random`, `draw` (an offer declined by
    /// silence), `hint`, `bk`, `memory`, `cores`, `exclude`/`include` and `.`.
    Ignored(&'static str),
    /// `quit`.
    Quit,
    /// A known command sent with arguments it cannot have.
    Malformed {
        /// The command.
        command: &'static str,
        /// What is wrong.
        reason: &'static str,
    },
    /// Anything else: answered `Error (unknown command): ...`.
    Unknown,
}

/// The commands accepted and ignored, and how many arguments each needs at least.
const IGNORED: [(&str, usize); 19] = [
    ("level", 3),
    ("st", 1),
    ("sd", 1),
    ("nps", 1),
    ("time", 1),
    ("otim", 1),
    ("hard", 0),
    ("easy", 0),
    ("computer", 0),
    ("name", 0),
    ("rating", 0),
    ("ics", 0),
    ("random", 0),
    ("draw", 0),
    ("hint", 0),
    ("bk", 0),
    ("memory", 1),
    ("cores", 1),
    (".", 0),
];

/// The command on `line`, or `None` for a blank line.
pub fn parse_line(line: &str) -> Option<Command> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    };
    if word.is_empty() {
        return None;
    }
    let numbers_ok = |min: usize| {
        let args: Vec<&str> = rest.split_whitespace().collect();
        args.len() >= min && args.iter().take(min).all(|a| is_number_like(a))
    };
    Some(match word {
        "xboard" => Command::Xboard,
        "protover" => Command::Protover,
        "accepted" => Command::Accepted(rest.to_string()),
        "rejected" => Command::Rejected(rest.to_string()),
        "new" => Command::New,
        "variant" if !rest.is_empty() => Command::Variant(rest.to_string()),
        "variant" => malformed("variant", "a variant name is needed"),
        "force" => Command::Force,
        "go" => Command::Go,
        "playother" => Command::PlayOther,
        "usermove" if !rest.is_empty() => Command::Move(rest.to_string()),
        "usermove" => malformed("usermove", "a move is needed"),
        "?" => Command::MoveNow,
        "ping" => Command::Ping(rest.to_string()),
        "result" => Command::Result,
        "setboard" if !rest.is_empty() => Command::SetBoard(rest.to_string()),
        "setboard" => malformed("setboard", "a FEN is needed"),
        "undo" => Command::Undo,
        "remove" => Command::Remove,
        "post" => Command::Post,
        "nopost" => Command::NoPost,
        "option" if !rest.is_empty() => match rest.split_once('=') {
            Some((name, value)) => Command::Option {
                name: name.trim().to_string(),
                value: Some(value.trim().to_string()),
            },
            None => Command::Option {
                name: rest.to_string(),
                value: None,
            },
        },
        "option" => malformed("option", "an option name is needed"),
        "exclude" | "include" => Command::Ignored("exclude"),
        "quit" => Command::Quit,
        _ => match IGNORED.iter().find(|(name, _)| *name == word) {
            Some(&(name, min)) if numbers_ok(min) || !numeric_arguments(name) => {
                Command::Ignored(name)
            }
            Some(&(name, _)) => malformed(name, "expected numbers"),
            None if rest.is_empty() && looks_like_move(word) => Command::Move(word.to_string()),
            None => Command::Unknown,
        },
    })
}

fn malformed(command: &'static str, reason: &'static str) -> Command {
    Command::Malformed { command, reason }
}

/// The ignored commands whose arguments are numbers (clock readings, depths, sizes); `level`'s
/// base may be written `M:SS`.
fn numeric_arguments(name: &str) -> bool {
    matches!(
        name,
        "level" | "st" | "sd" | "nps" | "time" | "otim" | "memory" | "cores"
    )
}

/// A decimal number, negative or fractional (`st 0.01`), or minutes and seconds (`5:30`).
fn is_number_like(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty()
        && digits.chars().any(|c| c.is_ascii_digit())
        && digits
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ':')
}

/// Whether a word that is no command is recognisably a move (the specification answers those
/// `Illegal move`, anything else `Error (unknown command)`): coordinate text (`e2e4`, `e7e8q`),
/// castling (`O-O`, `0-0-0`) or SAN (`Nf3`, `exd5`, `e8=Q+`), at most 8 characters.
pub fn looks_like_move(word: &str) -> bool {
    let core = word.trim_end_matches(['+', '#', '!', '?']);
    if matches!(core, "O-O" | "O-O-O" | "0-0" | "0-0-0") {
        return true;
    }
    let b = core.as_bytes();
    if !core.is_ascii() || !(2..=8).contains(&b.len()) {
        return false;
    }
    let first_ok = matches!(b[0], b'a'..=b'h' | b'K' | b'Q' | b'R' | b'B' | b'N' | b'P');
    let has_rank = b.iter().any(|c| (b'1'..=b'8').contains(c));
    let chars_ok = b
        .iter()
        .all(|c| matches!(c, b'a'..=b'h' | b'1'..=b'8' | b'x' | b'=' | b'K' | b'Q' | b'R' | b'B' | b'N' | b'P' | b'q' | b'r' | b'n' | b'-'));
    first_ok && has_rank && chars_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_moves_and_unknown_words() {
        assert_eq!(parse_line("  "), None);
        assert_eq!(parse_line("protover 2"), Some(Command::Protover));
        assert_eq!(
            parse_line("usermove e2e4"),
            Some(Command::Move("e2e4".into()))
        );
        assert_eq!(parse_line("e7e8q"), Some(Command::Move("e7e8q".into())));
        assert_eq!(parse_line("O-O-O"), Some(Command::Move("O-O-O".into())));
        assert_eq!(parse_line("Nf3"), Some(Command::Move("Nf3".into())));
        assert_eq!(parse_line("ping 17"), Some(Command::Ping("17".into())));
        assert_eq!(
            parse_line("option Seed=42"),
            Some(Command::Option {
                name: "Seed".into(),
                value: Some("42".into())
            })
        );
        assert_eq!(
            parse_line("level 40 5:00 0"),
            Some(Command::Ignored("level"))
        );
        assert_eq!(parse_line("st 0.01"), Some(Command::Ignored("st")));
        assert!(matches!(
            parse_line("level 40"),
            Some(Command::Malformed { .. })
        ));
        assert!(matches!(
            parse_line("time fast"),
            Some(Command::Malformed { .. })
        ));
        assert_eq!(parse_line("analyze"), Some(Command::Unknown));
        assert_eq!(parse_line("hello"), Some(Command::Unknown));
        assert_eq!(parse_line("e2e4 e7e5"), Some(Command::Unknown));
        assert!(matches!(
            parse_line("setboard"),
            Some(Command::Malformed { .. })
        ));
    }
}
