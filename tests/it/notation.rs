//! SAN and PGN: round trips over random games and the suite positions, the 5,000-game Lichess
//! corpus read, replayed, written and read back, a malformed file, and python-chess as a peer.

use crate::common;

use crate::common::{all_entries, data_path, peer_missing, peers_required, suite};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use shannon::game::{GameRecord, Outcome};
use shannon::notation::pgn::{
    export_tags, read_games, write_game, Comments, PgnErrorKind, PgnGame,
};
use shannon::notation::san::{parse_san, to_san, SanError};
use shannon::notation::uci::format_move;
use shannon::CastlingMode;
use shannon::{Move, Position};
use std::collections::HashSet;
use std::time::Instant;

/// A seeded random game of up to `plies` moves from `start`.
fn random_game(start: &Position, seed: u64, plies: usize) -> Vec<Move> {
    common::random_moves(start, &mut SmallRng::seed_from_u64(seed), plies)
}

/// Every legal move of `pos` goes to SAN and back to itself; the SANs are distinct and the
/// suffix says check or mate exactly when the move gives it.
fn assert_san_round_trips(pos: &Position, context: &str) -> usize {
    let legal = pos.legal_moves();
    let mut seen = HashSet::new();
    for &mv in legal.iter() {
        let san = to_san(pos, mv);
        assert_eq!(parse_san(pos, &san), Ok(mv), "{context}: {san} in {pos:?}");
        assert!(
            seen.insert(san.clone()),
            "{context}: {san} twice in {pos:?}"
        );
        let after = pos.play(mv);
        let suffix = match (after.in_check(), after.legal_moves().is_empty()) {
            (true, true) => "#",
            (true, false) => "+",
            _ => "",
        };
        let body = san.trim_end_matches(['+', '#']);
        assert_eq!(&san[body.len()..], suffix, "{context}: {san}");
    }
    legal.len()
}

fn round_trip_along_random_games(
    start: &Position,
    seeds: std::ops::Range<u64>,
    plies: usize,
) -> usize {
    let mut checked = 0;
    for seed in seeds {
        let mut pos = start.clone();
        for mv in random_game(start, seed, plies) {
            checked += assert_san_round_trips(&pos, &format!("seed {seed}"));
            let _ = pos.make(mv);
        }
        checked += assert_san_round_trips(&pos, &format!("seed {seed}"));
    }
    checked
}

#[test]
fn san_round_trips_along_random_standard_games() {
    let games = if cfg!(debug_assertions) { 5 } else { 200 };
    println!("seeds 0..{games}");
    let checked = round_trip_along_random_games(&Position::startpos(), 0..games, 300);
    println!("{checked} moves checked");
}

#[test]
fn san_round_trips_along_random_chess960_games() {
    let step = if cfg!(debug_assertions) { 96 } else { 3 };
    let mut checked = 0;
    for (index, entry) in suite("perft/chess960_start.epd")
        .iter()
        .enumerate()
        .step_by(step)
    {
        let start = Position::from_fen(&entry.fen).unwrap();
        let seed = index as u64;
        checked += round_trip_along_random_games(&start, seed..seed + 1, 200);
    }
    println!("seeds = Scharnagl numbers, one start in {step}; {checked} moves checked");
}

#[test]
fn san_round_trips_in_every_suite_position() {
    let mut checked = 0;
    for (name, entry) in all_entries() {
        let pos = Position::from_fen(&entry.fen).unwrap();
        checked += assert_san_round_trips(&pos, &format!("{name} {}", entry.id));
    }
    println!("{checked} moves checked");
}

#[test]
fn chess960_castling_where_king_or_rook_stays() {
    let cases = [
        ("8/8/2k5/8/8/8/8/6KR w H - 0 1", "O-O"), // the king stays on g1
        ("8/8/2k5/8/8/8/8/4KR2 w F - 0 1", "O-O"), // the rook stays on f1
        ("8/8/2k5/8/8/8/8/2K1R3 w E - 0 1", "O-O"), // king c1 castles short past the rook
        ("8/8/2k5/8/8/8/8/1RK5 w B - 0 1", "O-O-O"), // the king stays on c1
        ("8/8/2k5/8/8/8/8/3RK3 w D - 0 1", "O-O-O"), // the rook stays on d1
        ("8/8/2k5/8/8/8/8/RK6 w A - 0 1", "O-O-O"), // king b1 moves right, castling long
        ("1kr5/8/8/8/8/8/8/4K3 b c - 0 1", "O-O"), // black: king b8, rook c8, castling short
        ("4k2r/8/8/8/8/8/8/R4K1R b k - 0 1", "O-O+"), // standard, with check by the rook
    ];
    for (fen, expected) in cases {
        let pos = Position::from_fen(fen).unwrap();
        let castling: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| m.kind() == shannon::MoveKind::Castling)
            .collect();
        assert_eq!(castling.len(), 1, "{fen}");
        assert_eq!(to_san(&pos, castling[0]), expected, "{fen}");
        assert_eq!(parse_san(&pos, expected), Ok(castling[0]));
        assert_san_round_trips(&pos, fen);
    }
}

#[test]
fn parse_errors_name_the_token() {
    let pos = Position::startpos();
    let cases = [
        ("Qh9", "syntax"),
        ("e2e4e5", "syntax"),
        ("Nf5", "no such move"),
        ("O-O-O", "no such move"),
        ("bxc3", "no such move"),
    ];
    for (text, expected) in cases {
        let err = parse_san(&pos, text).unwrap_err();
        let kind = match err {
            SanError::Syntax { .. } => "syntax",
            SanError::NoSuchMove { .. } => "no such move",
            SanError::Ambiguous { .. } => "ambiguous",
        };
        assert_eq!(kind, expected, "{text}: {err:?}");
        assert!(err.to_string().starts_with(&format!("'{text}': ")), "{err}");
    }
    let rooks = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
    match parse_san(&rooks, "Rd1") {
        Err(SanError::Ambiguous { mut candidates, .. }) => {
            candidates.sort();
            assert_eq!(candidates, ["Ra1d1", "Rh1d1"]);
        }
        other => panic!("{other:?}"),
    }
}

fn lichess() -> String {
    std::fs::read_to_string(data_path("pgn/lichess_2013-01_5000.pgn")).unwrap()
}

fn read_all_ok(text: &str) -> Vec<PgnGame> {
    read_games(text)
        .into_iter()
        .map(|game| game.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

#[test]
fn the_lichess_corpus_reads_replays_and_round_trips() {
    let text = lichess();
    let clock = Instant::now();
    let games = read_all_ok(&text);
    let read_time = clock.elapsed();
    assert_eq!(games.len(), 5000);
    let plies: usize = games.iter().map(|g| g.record.moves.len()).sum();
    assert_eq!(plies, 327_416);
    for (number, game) in games.iter().enumerate() {
        let mut pos = game.record.start.clone();
        for &mv in &game.record.moves {
            assert!(pos.legal_moves().contains(&mv), "game {}", number + 1);
            let _ = pos.make(mv);
        }
        assert_eq!(Some(game.record.outcome.pgn()), game.tag("Result"));
    }
    let clock = Instant::now();
    let written: String = games.iter().map(|g| write_game(g).unwrap()).collect();
    let write_time = clock.elapsed();
    let again = read_all_ok(&written);
    assert_eq!(again.len(), games.len());
    for (before, after) in games.iter().zip(&again) {
        assert_tags_survive(before, after);
        assert_eq!(
            (&after.record.moves, &after.record.outcome),
            (&before.record.moves, &before.record.outcome)
        );
    }
    println!(
        "read 5,000 games ({plies} plies, {:.1} MB) in {read_time:?}; wrote them in {write_time:?}",
        text.len() as f64 / 1e6
    );
}

/// Every tag read comes back with its value; the only additions are the roster's placeholders.
fn assert_tags_survive(before: &PgnGame, after: &PgnGame) {
    assert_eq!(after.tags, export_tags(before));
    for (name, value) in &before.tags {
        assert_eq!(after.tag(name), Some(value.as_str()), "{name}");
    }
    for (name, value) in &after.tags {
        if before.tag(name).is_none() {
            assert!(
                matches!(value.as_str(), "?" | "????.??.??"),
                "{name} {value}"
            );
        }
    }
}

#[test]
fn a_malformed_game_is_reported_and_its_neighbours_still_read() {
    let text = std::fs::read_to_string(data_path("pgn/malformed.pgn")).unwrap();
    let games = read_games(&text);
    assert_eq!(games.len(), 3);
    let first = games[0].as_ref().unwrap();
    assert_eq!(
        (first.record.moves.len(), first.record.outcome.pgn()),
        (7, "1-0")
    );
    let err = games[1].as_ref().unwrap_err();
    assert_eq!((err.game, err.ply, err.token.as_str()), (2, 6, "Bxc4??"));
    assert!(matches!(
        err.kind,
        PgnErrorKind::Move(SanError::NoSuchMove { .. })
    ));
    assert_eq!(
        err.to_string(),
        "game 2, ply 6, line 19: 'Bxc4??': no legal move matches it in this position"
    );
    let third = games[2].as_ref().unwrap();
    assert_eq!(third.tag("Round"), Some("3"));
    assert_eq!(
        (third.record.moves.len(), third.record.outcome.pgn()),
        (8, "1/2-1/2")
    );
}

#[test]
fn games_from_a_set_up_position_with_black_to_move_write_and_read_back() {
    let start = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 41").unwrap();
    for seed in 0..20 {
        let game = PgnGame {
            tags: vec![("Event".into(), format!("seed {seed}"))],
            comments: Comments::default(),
            record: GameRecord::with_outcome(
                start.clone(),
                CastlingMode::Standard,
                random_game(&start, seed, 120),
                Outcome::Unfinished,
            ),
        };
        let mut game = game;
        game.comments = Comments {
            after_ply: vec![(0, "start".into()), (3, "third ply".into())],
            final_comment: Some("the end".into()),
        };
        let text = write_game(&game).unwrap();
        assert!(text.contains("\n\n{start} 41... "), "{text}");
        assert!(text.lines().all(|line| line.len() <= 80), "{text}");
        let again = read_all_ok(&text).remove(0);
        assert_eq!(
            (&again.record.start, &again.record.moves),
            (&game.record.start, &game.record.moves)
        );
    }
}

// ----- python-chess as a peer ------------------------------------------------------------------

const PYTHON_SCRIPT: &str = r#"
import sys, chess.pgn
with open(sys.argv[1]) as handle:
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        if game.errors:
            print("ERROR", game.errors[0])
            continue
        board = game.board()
        words = []
        for move in game.mainline_moves():
            words.append(board.uci(move, chess960=board.chess960) + ":" + board.san(move))
            board.push(move)
        print(" ".join(words))
"#;

/// What running a python-chess script gave.
#[derive(Debug)]
enum PythonRun {
    /// python3 does not start, or it cannot import python-chess: the peer is missing.
    Missing(String),
    /// The script ran and exited 0: its output lines.
    Lines(Vec<String>),
    /// The script itself failed: its exit status and stderr. Never a reason to skip.
    Failed(String),
}

/// Runs `script` with the file of `pgn` as its argument. A missing python3 or python-chess is
/// told apart from a script that fails: only the first may skip a test.
fn run_python(script: &str, pgn: &str) -> PythonRun {
    if let Some(reason) = common::python_chess_missing() {
        return PythonRun::Missing(reason);
    }
    // Tests run in parallel threads of one process: each run gets its own folder.
    let dir = common::Scratch::new("notation");
    let path = dir.join("games.pgn");
    std::fs::write(&path, pgn).unwrap();
    let output = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&path)
        .output();
    match output {
        Ok(out) if out.status.success() => PythonRun::Lines(
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(String::from)
                .collect(),
        ),
        Ok(out) => PythonRun::Failed(format!(
            "{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )),
        Err(e) => PythonRun::Failed(format!("python3 ran once but not twice: {e}")),
    }
}

/// The script's lines on `pgn`; `None` (with the reason printed) when python-chess is missing
/// and `SHANNON_REQUIRE_PEERS` is not `1`. A failing script fails the test with its stderr.
fn python_chess(pgn: &str) -> Option<Vec<String>> {
    match run_python(PYTHON_SCRIPT, pgn) {
        PythonRun::Lines(lines) => Some(lines),
        PythonRun::Failed(why) => panic!("the python-chess script failed: {why}"),
        PythonRun::Missing(reason) => {
            peer_missing(&reason, peers_required());
            None
        }
    }
}

/// Issue 9 item 13: any failure of the script used to be reported as "python-chess is not
/// available" and skipped. A script that raises must come back as a failure with its stderr.
#[test]
fn a_failing_python_script_is_a_failure_not_a_missing_peer() {
    let raising = "import chess\nraise ValueError('deliberately broken script')";
    match run_python(raising, "") {
        PythonRun::Failed(why) => {
            assert!(why.contains("deliberately broken script"), "{why}")
        }
        PythonRun::Missing(reason) => peer_missing(&reason, peers_required()),
        PythonRun::Lines(lines) => panic!("a raising script succeeded: {lines:?}"),
    }
}

#[test]
fn our_san_matches_python_chess_on_random_games() {
    let chess960_starts = suite("perft/chess960_start.epd");
    let mut games = Vec::new();
    for seed in 0..100u64 {
        let chess960 = seed % 2 == 1;
        let start = if chess960 {
            Position::from_fen(&chess960_starts[(seed * 97 % 960) as usize].fen).unwrap()
        } else {
            Position::startpos()
        };
        let moves = random_game(&start, seed, 250);
        let tags = vec![("Event".into(), format!("seed {seed}"))];
        let castling = CastlingMode::from_chess960(chess960);
        games.push(PgnGame {
            tags,
            comments: Comments::default(),
            record: GameRecord::with_outcome(start, castling, moves, Outcome::Unfinished),
        });
    }
    let pgn: String = games.iter().map(|g| write_game(g).unwrap()).collect();
    let Some(lines) = python_chess(&pgn) else {
        return;
    };
    assert_eq!(lines.len(), games.len());
    for (seed, (game, line)) in games.iter().zip(&lines).enumerate() {
        let mode = game.record.castling;
        let mut pos = game.record.start.clone();
        let ours: Vec<String> = game
            .record
            .moves
            .iter()
            .map(|&mv| {
                let word = format!("{}:{}", format_move(mv, mode), to_san(&pos, mv));
                let _ = pos.make(mv);
                word
            })
            .collect();
        assert_eq!(line, &ours.join(" "), "seed {seed}");
    }
    println!("python-chess agrees on {} games", games.len());
}

/// Found by the `pgn` fuzz target: a tag value holding a newline (and text that looks like
/// movetext) was written verbatim, so the written game read back as two games. Every game the
/// reader accepts must come back as one game with the same moves.
#[test]
fn a_tag_value_with_a_newline_is_written_on_one_line() {
    let text = std::fs::read(common::data_path("pgn/fuzz_tag_with_newline.pgn")).unwrap();
    let text = String::from_utf8_lossy(&text);
    let games: Vec<_> = shannon::notation::pgn::read_games(&text)
        .into_iter()
        .flatten()
        .collect();
    assert!(!games.is_empty());
    for game in games {
        let written = write_game(&game).unwrap();
        let again = shannon::notation::pgn::read_games(&written);
        assert_eq!(again.len(), 1, "{written}");
        assert_eq!(
            again.into_iter().next().unwrap().unwrap().record.moves,
            game.record.moves
        );
    }
}
