//! Adjudication from the engines' own scores (`--resign`, `--draw`, `--maxmoves`), move comments
//! in cutechess-cli's form, `--pgn-min` and `--epd`. Scores need an engine that reports them:
//! Stockfish (Shannon says `score cp 0` about every move).

use super::{read_pgn, run, scratch, stockfish, tag};
use crate::common::MatchLine;

/// Two Stockfish engines (different names, the same program) for a match of its own.
fn two_stockfish(dir: &std::path::Path, stockfish: &std::path::Path) -> std::path::PathBuf {
    let config = dir.join("engines.toml");
    let engine = |name: &str| {
        format!(
            "[[engine]]\nname = \"{name}\"\ncommand = \"{}\"\noptions = {{ Threads = 1, Hash = 16 }}\n\n",
            stockfish.display()
        )
    };
    std::fs::write(&config, engine("sf-a") + &engine("sf-b")).unwrap();
    config
}

#[test]
fn a_lost_position_is_adjudicated_by_both_scores_and_the_pgn_says_so() {
    let Some(stockfish) = stockfish() else { return };
    let dir = scratch("adjudicate-resign");
    let config = two_stockfish(&dir, &stockfish);
    // White is a queen and a rook up: both engines agree at once.
    let openings = dir.join("lopsided.epd");
    std::fs::write(&openings, "3qk3/8/8/8/8/8/PPP5/1K1Q3R w - - 0 1\n").unwrap();
    let pgn = dir.join("games.pgn");
    let epd = dir.join("final.epd");
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .games(2)
        .tc("nodes=3000")
        .openings(&openings)
        .arg("--resign", "movecount=3 score=500 twosided=true")
        .pgn(&pgn)
        .arg("--epd", &epd)
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 2);
    // The writer wraps lines at 80 columns: compare with single spaces.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for game in &games {
        assert_eq!(tag(game, "Termination"), "adjudication", "{text}");
        assert_eq!(game.record.outcome.pgn(), "1-0", "{text}");
        // Three moves of Black's at or below -5 pawns: at least 6 plies, and not a long game.
        let plies = game.record.moves.len();
        assert!((5..=8).contains(&plies), "{plies} plies\n{text}");
    }
    assert!(
        words.contains("adjudicated: black's score at or below -500 cp for 3 moves, and white's"),
        "{text}"
    );
    // Every engine move carries cutechess's comment: {+9.87/12 0.034s}.
    let comment = regex_like_comment(&text);
    assert!(
        comment,
        "no move comment of the form {{+x.yz/d t.tttS}}:\n{text}"
    );
    // One EPD line per game, readable as an opening file again.
    let lines = std::fs::read_to_string(&epd).unwrap();
    assert_eq!(lines.lines().count(), 2, "{lines}");
    assert!(
        lines
            .lines()
            .all(|l| l.contains("hmvc") && l.contains("id \"round")),
        "{lines}"
    );
    let again = dir.join("again.pgn");
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .games(2)
        .tc("nodes=200")
        .openings(&epd)
        .arg("--maxmoves", "1")
        .pgn(&again)
        .flag("--pgn-min")
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let minimal = std::fs::read_to_string(&again).unwrap();
    assert!(
        !minimal.contains('{'),
        "--pgn-min writes no comments:\n{minimal}"
    );
    assert!(!minimal.contains("[Termination"), "{minimal}");
    for game in read_pgn(&again) {
        // --maxmoves 1: one move of each side, then a draw.
        assert_eq!(game.record.moves.len(), 2);
        assert_eq!(game.record.outcome.pgn(), "1/2-1/2");
    }
}

/// `{+0.31/12 0.052s}` somewhere in `text`.
fn regex_like_comment(text: &str) -> bool {
    text.split('{').skip(1).any(|rest| {
        let body = rest.split('}').next().unwrap_or("");
        let mut words = body.split_whitespace();
        let (Some(score), Some(time), None) = (words.next(), words.next(), words.next()) else {
            return false;
        };
        let (value, depth) = score.split_once('/').unwrap_or((score, ""));
        (value.starts_with('+') || value.starts_with('-'))
            && depth.parse::<u32>().is_ok()
            && time.ends_with('s')
            && time.trim_end_matches('s').parse::<f64>().is_ok()
    })
}

#[test]
fn quiet_scores_adjudicate_a_draw_from_the_move_number_on() {
    let Some(stockfish) = stockfish() else { return };
    let dir = scratch("adjudicate-draw");
    let config = two_stockfish(&dir, &stockfish);
    let pgn = dir.join("games.pgn");
    // From the start position a strong engine's score stays within a pawn of 0 for a few moves.
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .games(2)
        .tc("nodes=2000")
        .arg("--draw", "movenumber=3 movecount=2 score=100")
        .pgn(&pgn)
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    // The writer wraps lines at 80 columns: compare with single spaces.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for game in read_pgn(&pgn) {
        assert_eq!(tag(&game, "Termination"), "adjudication", "{text}");
        assert_eq!(game.record.outcome.pgn(), "1/2-1/2");
        // Moves 3 and 4 of both sides at the earliest: 8 plies.
        assert!(game.record.moves.len() >= 8, "{text}");
    }
    assert!(
        words.contains("adjudicated: both engines' scores within 100 cp of 0 for 2 moves each"),
        "{text}"
    );
    assert!(
        out.contains("adjudication"),
        "the table counts the terminations:\n{out}"
    );
}

#[test]
fn bad_adjudication_settings_are_refused() {
    let dir = scratch("adjudicate-bad");
    for (flag, value) in [
        ("--resign", "movecount=3"),
        ("--resign", "score=600 colour=white movecount=2"),
        ("--draw", "movenumber=x movecount=2 score=1"),
    ] {
        let (ok, _, err) = run(&["match", "--games", "2", flag, value], &dir);
        assert!(!ok, "{flag} {value} was accepted");
        assert!(err.contains(flag), "{flag} {value}: {err}");
    }
}
