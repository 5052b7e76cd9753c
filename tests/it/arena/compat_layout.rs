//! fastchess's `-games 1` and both tools' `-noswap` (issue 31, item 4: fastchess's e2e scripts
//! `black_to_move` and `engine_recovery` use them). Each game's colours and opening are read back
//! from the PGN and compared with what fastchess 1.8.2-alpha played for the same command line
//! (checked side by side with the mock engines of its e2e tests): with `-games 1` every game
//! takes the next opening and the colours alternate game by game; with `-noswap` the first engine
//! has White in every game and the two games of a round share their opening.

use super::{read_pgn, scratch, tag};
use crate::common::{run, SHANNON};
use shannon::notation::pgn::PgnGame;
use std::path::Path;

/// Five positions, one a line.
const OPENINGS: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1
rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR b KQkq - 1 1
";

/// Run `shannon match` with two Shannons named `a` and `b` at one node a move, the openings
/// above in order, the PGN in `games.pgn`, and `more`: (success, stdout, stderr).
fn play(dir: &Path, more: &str) -> (bool, String, String) {
    std::fs::write(dir.join("openings.epd"), OPENINGS).unwrap();
    let engine = format!("cmd={SHANNON}");
    let mut args = vec![
        "match",
        "-engine",
        &engine,
        "name=a",
        "-engine",
        &engine,
        "name=b",
        "-each",
        "tc=inf",
        "nodes=1",
        "-concurrency",
        "2",
        "-openings",
        "file=openings.epd",
        "format=epd",
        "order=sequential",
        "-pgnout",
        "file=games.pgn",
    ];
    args.extend(more.split_whitespace());
    run(&args, dir)
}

/// The games by their number (the `Round` tag), each as (White, Black, opening's index).
fn layout(dir: &Path) -> Vec<(String, String, usize)> {
    let mut games: Vec<PgnGame> = read_pgn(&dir.join("games.pgn"));
    games.sort_by_key(|g| tag(g, "Round").parse::<u32>().unwrap());
    let fens: Vec<&str> = OPENINGS.lines().collect();
    games
        .iter()
        .map(|game| {
            let fen = game.record.start.fen();
            let opening = fens
                .iter()
                .position(|f| *f == fen)
                .unwrap_or_else(|| panic!("{fen} is none of the openings"));
            (
                tag(game, "White").to_string(),
                tag(game, "Black").to_string(),
                opening,
            )
        })
        .collect()
}

fn games(list: &[(&str, &str, usize)]) -> Vec<(String, String, usize)> {
    list.iter()
        .map(|(w, b, o)| (w.to_string(), b.to_string(), *o))
        .collect()
}

/// fastchess's `-games 1 -rounds 5`: five games, not rounded up to pairs, openings 1 to 5,
/// colours alternating; reported without the pentanomial (fastchess reports single games so).
#[test]
fn games_1_plays_single_games_each_from_the_next_opening() {
    let dir = scratch("compat-games-1");
    let (ok, out, err) = play(&dir, "-games 1 -rounds 5");
    assert!(ok, "{out}{err}");
    assert_eq!(
        layout(&dir),
        games(&[
            ("a", "b", 0),
            ("b", "a", 1),
            ("a", "b", 2),
            ("b", "a", 3),
            ("a", "b", 4),
        ])
    );
    assert!(out.contains("Started game 5 of 5 (a vs b)"), "{out}");
    assert!(!out.contains("of 6"), "{out}");
    assert!(out.contains("Games: 5, Wins: "), "{out}");
    assert!(!out.contains("Ptnml"), "{out}");
    assert!(!out.contains("PairsRatio"), "{out}");
    // One game is a match too (fastchess's black_to_move script plays one).
    let dir = scratch("compat-games-1-one");
    let (ok, out, err) = play(&dir, "-games 1 -rounds 1");
    assert!(ok, "{out}{err}");
    assert_eq!(layout(&dir), games(&[("a", "b", 0)]));
    assert!(out.contains("Games: 1, Wins: "), "{out}");
}

/// fastchess's `-games 1` in a tournament of three is refused by name (Shannon's encounters
/// play whole pairs there), not played as something else.
#[test]
fn games_1_in_a_tournament_is_refused() {
    let dir = scratch("compat-games-1-tournament");
    let engine = format!("cmd={SHANNON}");
    let (ok, out, err) = run(
        &[
            "match", "-engine", &engine, "name=a", "-engine", &engine, "name=b", "-engine",
            &engine, "name=c", "-each", "tc=inf", "nodes=1", "-games", "1", "-rounds", "2",
        ],
        &dir,
    );
    assert!(!ok, "{out}{err}");
    assert!(err.contains("-games 1"), "{err}");
    assert!(!out.contains("Started game"), "{out}");
}

/// `-noswap`: the first engine White in every game; each round's two games share an opening
/// (fastchess's `-games 2 -rounds 2 -noswap`), and the pentanomial pairs them as fastchess does.
#[test]
fn noswap_gives_the_first_engine_white_in_every_game() {
    let dir = scratch("compat-noswap");
    let (ok, out, err) = play(&dir, "-games 2 -rounds 2 -noswap");
    assert!(ok, "{out}{err}");
    assert!(!err.contains("-noswap"), "accepted without a note: {err}");
    assert_eq!(
        layout(&dir),
        games(&[("a", "b", 0), ("a", "b", 0), ("a", "b", 1), ("a", "b", 1)])
    );
    assert_eq!(out.matches("(a vs b)").count(), 8, "{out}");
    assert!(!out.contains("(b vs a)"), "{out}");
    assert!(out.contains("Ptnml(0-2): "), "{out}");
    // cutechess-cli's form: -repeat plays each opening twice, -noswap keeps the colours.
    let dir = scratch("compat-noswap-cutechess");
    let (ok, out, err) = play(
        &dir,
        "-games 2 -rounds 2 -repeat -noswap -dialect cutechess",
    );
    assert!(ok, "{out}{err}");
    assert_eq!(
        layout(&dir),
        games(&[("a", "b", 0), ("a", "b", 0), ("a", "b", 1), ("a", "b", 1)])
    );
}
