//! A finished game as the match writes it: its PGN (tags, moves with cutechess-cli's comments,
//! the termination) and its final position as an EPD line.

use super::dialect::Dialect;
use super::match_game::MatchGame;
use crate::client::TimeControl;
use crate::notation::pgn::{write_game_in, Comments, MoveNotation, PgnGame};
use crate::position::epd::{Epd, Operation};

/// How a match writes its games: the `Event` and `Site` tags (default "shannon match" and
/// "shannon") and whether only the Seven Tag Roster and the moves are written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PgnStyle {
    /// The `Event` tag, when asked.
    pub event: Option<String>,
    /// The `Site` tag, when asked.
    pub site: Option<String>,
    /// Tags and moves only.
    pub minimal: bool,
    /// The tool whose `TimeControl` and `Termination` tags are written (`None`: Shannon's).
    pub dialect: Option<Dialect>,
    /// How the moves are noted (fastchess's `-pgnout notation=`; SAN by default).
    pub notation: MoveNotation,
}

/// The PGN of one finished game: each engine move with its comment as cutechess-cli writes it
/// (`{+0.31/12 0.052s}`: score in pawns from the mover's side, depth, time), each book move (the
/// opening's, an engine book's) with `{book}` as cutechess-cli and fastchess write them, and the
/// termination as a final comment; with a minimal style, the Seven Tag Roster and the moves only.
/// White's and Black's time controls give its time-control tags (one when they are the same);
/// `round` is its `Round` tag (the game's number, or a knockout's round as cutechess-cli writes
/// it).
pub fn game_pgn(
    played: &MatchGame,
    round: u32,
    time_controls: [TimeControl; 2],
    style: &PgnStyle,
) -> String {
    let date = today();
    let minimal = style.minimal;
    let mut tags = vec![
        (
            "Event".to_string(),
            style
                .event
                .as_deref()
                .unwrap_or("shannon match")
                .to_string(),
        ),
        (
            "Site".to_string(),
            style.site.as_deref().unwrap_or("shannon").to_string(),
        ),
        ("Date".to_string(), date),
        ("Round".to_string(), round.to_string()),
        ("White".to_string(), played.white.clone()),
        ("Black".to_string(), played.black.clone()),
    ];
    if !minimal {
        let [white, black] = time_controls;
        tags.extend(
            Dialect::time_control_tags(style.dialect, &white, &black)
                .into_iter()
                .map(|(tag, value)| (tag.to_string(), value)),
        );
        if let Some(termination) = played.pgn_termination_in(style.dialect) {
            tags.push(("Termination".to_string(), termination.to_string()));
        }
        tags.push((
            "PlyCount".to_string(),
            played.record.moves.len().to_string(),
        ));
    }
    let comments = if minimal {
        Comments::default()
    } else {
        Comments {
            after_ply: played
                .infos
                .iter()
                .map(|(ply, info)| (*ply, info.to_string()))
                .collect(),
            final_comment: Some(played.describe()),
        }
    };
    let game = PgnGame {
        tags,
        comments,
        record: played.record.clone(),
    };
    write_game_in(&game, style.notation).expect("the runner only records legal moves")
}

/// The final position of a game as one EPD line: the four position fields, the move counters
/// as `hmvc`/`fmvn` and the game as `id`.
pub fn game_epd(played: &MatchGame) -> String {
    let end = played.record.end_position();
    let operations = vec![
        Operation::new("hmvc", end.halfmove_clock().to_string()),
        Operation::new("fmvn", end.fullmove_number().to_string()),
        Operation::new("id", format!("\"round {}\"", played.number)),
    ];
    format!("{}\n", Epd::of(&end, operations))
}

/// The forensics file of a game an engine lost by failing: what ended it, how the engine's
/// process ended, and its log (its last lines on stdout and stderr and the last lines sent to
/// it, each with the seconds since the engine started); `None` for a game without forensics.
pub fn game_forensics(played: &MatchGame) -> Option<String> {
    use std::fmt::Write;
    let forensics = played.forensics.as_ref()?;
    let engine = match forensics.side {
        crate::Color::White => &played.white,
        crate::Color::Black => &played.black,
    };
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Game {}: {} vs {}, {}",
        played.number,
        played.white,
        played.black,
        played
            .termination
            .as_ref()
            .map_or_else(String::new, ToString::to_string)
    );
    let _ = writeln!(text, "Engine: {engine} ({})", forensics.side);
    if let Some(exit) = &forensics.log.exit {
        let _ = writeln!(text, "Process: {exit}");
    }
    let _ = writeln!(
        text,
        "Its last {} lines written (< stdout, ! stderr) and the last {} sent to it (>), by seconds since it started:",
        crate::client::LOG_RECEIVED,
        crate::client::LOG_SENT
    );
    for line in &forensics.log.lines {
        let _ = writeln!(text, "{line}");
    }
    if forensics.log.lines.is_empty() {
        let _ = writeln!(text, "(none)");
    }
    Some(text)
}

/// Today's date as PGN writes it (UTC).
fn today() -> String {
    utc_now().0
}

/// The date and the time of day now, UTC, as PGN writes them (`2026.11.29`, `02:41:07`), from the
/// system clock without a date library.
pub fn utc_now() -> (String, String) {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let days = seconds.div_euclid(86_400);
    let of_day = seconds.rem_euclid(86_400);
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        format!("{year:04}.{month:02}.{day:02}"),
        format!(
            "{:02}:{:02}:{:02}",
            of_day / 3600,
            of_day % 3600 / 60,
            of_day % 60
        ),
    )
}
