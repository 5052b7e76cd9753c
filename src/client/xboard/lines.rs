//! What an xboard engine writes, read: its `feature` lines (name, value pairs; the options it
//! declares with `option="NAME -TYPE ..."`), its thinking output (`depth score time nodes pv`)
//! and the lines that matter during a game (a move, a result claim, `resign`, `Illegal move`).

use crate::client::info::{EngineScore, InfoLine};
use crate::client::option::{DeclaredOption, OptionKind};
use std::time::Duration;

/// The `name=value` pairs of a `feature` line's arguments, in order; a value is one word or a
/// quoted string (quotes removed), as cutechess-cli reads them.
pub fn feature_pairs(args: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let chars: Vec<char> = args.chars().collect();
    let mut i = 0;
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    while i < chars.len() {
        if !word(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && word(chars[i]) {
            i += 1;
        }
        let name: String = chars[start..i].iter().collect();
        let mut j = i;
        while j < chars.len() && chars[j] == ' ' {
            j += 1;
        }
        if j >= chars.len() || chars[j] != '=' {
            continue;
        }
        j += 1;
        while j < chars.len() && chars[j] == ' ' {
            j += 1;
        }
        let value: String = if j < chars.len() && chars[j] == '"' {
            let end = chars[j + 1..]
                .iter()
                .position(|&c| c == '"')
                .map_or(chars.len(), |p| j + 1 + p);
            let value = chars[j + 1..end].iter().collect();
            j = (end + 1).min(chars.len());
            value
        } else {
            let start = j;
            while j < chars.len() && !chars[j].is_whitespace() {
                j += 1;
            }
            chars[start..j].iter().collect()
        };
        pairs.push((name, value));
        i = j;
    }
    pairs
}

/// An option an xboard engine declares (`feature option="Hash -spin 16 1 1024"`), read as one
/// the runner can check a configured value against: `-spin` and `-slider` take numbers within
/// their bounds, `-check` true or false (sent as 1 or 0), `-combo` one of its choices (the
/// default marked `*`), `-button` and `-save` a press, `-string`, `-file` and `-path` any text.
/// `None` for a declaration of no known type.
pub fn declared_option(value: &str) -> Option<DeclaredOption> {
    let (name, rest) = value.split_once(" -")?;
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    let (kind, args) = rest.split_once(' ').unwrap_or((rest, ""));
    let kind = match kind {
        "check" => OptionKind::Check,
        "spin" | "slider" => {
            let numbers: Vec<f64> = args
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .ok()?;
            match numbers[..] {
                [_, min, max] => OptionKind::Spin { min, max },
                _ => return None,
            }
        }
        "combo" => OptionKind::Combo(
            args.split(" /// ")
                .map(|choice| choice.trim().trim_start_matches('*').to_string())
                .filter(|choice| !choice.is_empty())
                .collect(),
        ),
        "button" | "save" => OptionKind::Button,
        "string" | "file" | "path" => OptionKind::String,
        _ => return None,
    };
    Some(DeclaredOption {
        name: name.to_string(),
        kind,
        default: None,
    })
}

/// Thinking output (`post`): `depth score time nodes [pv]`, the time in centiseconds, the score
/// in centipawns from the engine's side (mates as 100000 + N moves, the newer convention, or as
/// large scores near a multiple of 1000, the older one). `None` for any other line.
pub fn thinking(line: &str) -> Option<InfoLine> {
    let mut words = line.split_whitespace();
    let depth = words.next()?;
    let depth = depth.strip_suffix(['.', '&']).unwrap_or(depth);
    let depth: u32 = depth.parse().ok()?;
    let score: i64 = words.next()?.parse().ok()?;
    let centiseconds: u64 = words.next()?.parse().ok()?;
    words.next()?.parse::<u64>().ok()?;
    Some(InfoLine {
        score: Some(score_of(score)),
        bound: false,
        multipv: None,
        depth: Some(depth),
        time: Some(Duration::from_millis(centiseconds.saturating_mul(10))),
    })
}

fn score_of(score: i64) -> EngineScore {
    let size = score.abs();
    let sign = if score < 0 { -1 } else { 1 };
    if size > 100_000 && size < 100_200 {
        return EngineScore::Mate(sign * (size - 100_000) as i32);
    }
    EngineScore::Cp(score.clamp(-99_999, 99_999) as i32)
}

/// A result an engine claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claimed {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: no result.
    NoResult,
}

/// A line of an engine during a game that the runner acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameLine {
    /// `move X`, or the old form `N. ... X`: the move's text.
    Move(String),
    /// `1-0 {...}`, `0-1 {...}`, `1/2-1/2 {...}`, `* {...}`.
    Result(Claimed),
    /// `resign`.
    Resign,
    /// `Illegal move: X` (or `Illegal move (reason): X`): the engine refuses a move.
    Illegal,
    /// Anything else (`offer draw`, `tellusererror`, `telluser`, thinking output, ...).
    Other,
}

/// What a line of an engine during a game is, as cutechess-cli reads it.
pub fn game_line(line: &str) -> GameLine {
    let line = line.trim();
    let (command, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let args = args.trim();
    match command {
        "1-0" => GameLine::Result(Claimed::WhiteWins),
        "0-1" => GameLine::Result(Claimed::BlackWins),
        "1/2-1/2" => GameLine::Result(Claimed::Draw),
        "*" => GameLine::Result(Claimed::NoResult),
        "resign" => GameLine::Resign,
        "move" if !args.is_empty() => {
            GameLine::Move(args.split_whitespace().next().unwrap_or("").to_string())
        }
        _ if command.starts_with("Illegal") => GameLine::Illegal,
        _ if command.starts_with(|c: char| c.is_ascii_digit())
            && command.contains('.')
            && args.starts_with("...") =>
        {
            match args.trim_start_matches('.').split_whitespace().next() {
                Some(text) => GameLine::Move(text.to_string()),
                None => GameLine::Other,
            }
        }
        _ => GameLine::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_read_as_cutechess_reads_them() {
        let pairs = feature_pairs(
            "ping=1 setboard=1 myname=\"Fairy-Max 5.0b\" option=\"Resign -check 0\" done=0",
        );
        assert_eq!(
            pairs,
            [
                ("ping", "1"),
                ("setboard", "1"),
                ("myname", "Fairy-Max 5.0b"),
                ("option", "Resign -check 0"),
                ("done", "0")
            ]
            .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        assert_eq!(feature_pairs("done = 1"), [("done".into(), "1".into())]);
        assert!(feature_pairs("garbage without pairs").is_empty());
        assert_eq!(feature_pairs("x=\"unterminated").len(), 1);
    }

    #[test]
    fn option_declarations_of_the_debian_engines() {
        let spin = declared_option("Resign Threshold -spin 800 200 1200").unwrap();
        assert_eq!(spin.name, "Resign Threshold");
        assert!(spin.accepts("300") && !spin.accepts("100"));
        let combo =
            declared_option("Makruk rules -combo makruk /// *Cambodian /// Ai-wok").unwrap();
        assert!(combo.accepts("Cambodian") && combo.accepts("Ai-wok") && !combo.accepts("x"));
        assert_eq!(
            declared_option("Clear Hash -button").unwrap().kind,
            OptionKind::Button
        );
        assert_eq!(
            declared_option("Ini File -file /usr/share/games/fairymax/fmax.ini")
                .unwrap()
                .kind,
            OptionKind::String
        );
        assert_eq!(
            declared_option("Resign -check 0").unwrap().kind,
            OptionKind::Check
        );
        assert!(declared_option("Broken -spin 1 2").is_none());
        assert!(declared_option("Weird -colour red").is_none());
        assert!(declared_option("-spin 1 2 3").is_none());
    }

    #[test]
    fn thinking_output_and_game_lines() {
        let info = thinking("9 -34 125 123456 e2e4 e7e5").unwrap();
        assert_eq!(
            (info.depth, info.score, info.time),
            (
                Some(9),
                Some(EngineScore::Cp(-34)),
                Some(Duration::from_millis(1250))
            )
        );
        assert_eq!(
            thinking("12. 100003 5 99 Qh5").unwrap().score,
            Some(EngineScore::Mate(3))
        );
        assert!(thinking("move e2e4").is_none());
        assert!(thinking("1. ... e2e4").is_none());
        assert_eq!(game_line("move e2e4"), GameLine::Move("e2e4".into()));
        assert_eq!(game_line("1. ... e7e5"), GameLine::Move("e7e5".into()));
        assert_eq!(
            game_line("1-0 {White mates}"),
            GameLine::Result(Claimed::WhiteWins)
        );
        assert_eq!(
            game_line("1/2-1/2 {Draw by repetition}"),
            GameLine::Result(Claimed::Draw)
        );
        assert_eq!(game_line("resign"), GameLine::Resign);
        assert_eq!(game_line("Illegal move: e2e5"), GameLine::Illegal);
        assert_eq!(
            game_line("Illegal move (no piece): e2e5"),
            GameLine::Illegal
        );
        assert_eq!(game_line("offer draw"), GameLine::Other);
        assert_eq!(game_line("tellusererror oops"), GameLine::Other);
        assert_eq!(game_line("move"), GameLine::Other);
    }
}
