//! Polyglot books made by Debian's `polyglot make-book` from real games (the first games of the
//! Lichess corpus): every entry of the book must be what our key, our move code and polyglot's
//! documented weighting say it is, and a match opened from the book must start with book moves.

use super::{read_pgn, scratch, tag};
use crate::common::MatchLine;
use crate::common::{data_path, peer_missing, peers_required};
use shannon::game::Outcome;
use shannon::notation::pgn::{read_games, write_game, Comments, PgnGame};
use shannon::notation::polyglot::{encode_move, polyglot_key, Book};
use shannon::{Color, Position};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Games the book is made from: enough that the first moves repeat often (polyglot keeps a move
/// only when at least 3 games played it).
const GAMES: usize = 400;

/// polyglot from Debian, if installed.
fn polyglot() -> Option<PathBuf> {
    let path = PathBuf::from("/usr/games/polyglot");
    if path.is_file() {
        Some(path)
    } else {
        peer_missing(
            "polyglot is not installed (apt-get install polyglot)",
            peers_required(),
        );
        None
    }
}

/// The first [`GAMES`] corpus games, written to `dir/games.pgn` by our writer without comments
/// (polyglot's PGN reader gives up on long comments), and `polyglot make-book` run on them.
/// Returns the games as read back and the book's path.
fn make_book(polyglot: &Path, dir: &Path) -> (Vec<PgnGame>, PathBuf) {
    let text = std::fs::read_to_string(data_path("pgn/lichess_2013-01_5000.pgn")).unwrap();
    let mut pgn = String::new();
    for game in read_games(&text).into_iter().take(GAMES) {
        let mut game = game.unwrap();
        game.comments = Comments::default();
        pgn.push_str(&write_game(&game).unwrap());
    }
    std::fs::write(dir.join("games.pgn"), &pgn).unwrap();
    let output = Command::new(polyglot)
        .args(["make-book", "-pgn", "games.pgn", "-bin", "book.bin"])
        .current_dir(dir)
        .output()
        .expect("polyglot runs");
    assert!(
        output.status.success(),
        "polyglot make-book failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (read_pgn(&dir.join("games.pgn")), dir.join("book.bin"))
}

/// Every (position, move) of the games with polyglot's statistics: the number of games that
/// played it, and the points of the side that played it, counted 2 for a win, 1 for a draw
/// (polyglot counts any result other than 1-0 and 0-1 as a draw) and 0 for a loss. Also the
/// position behind each key, to decode the book's moves in.
type Stats = BTreeMap<(u64, u16), (u32, u32)>;
fn game_stats(games: &[PgnGame]) -> (Stats, HashMap<u64, Position>) {
    let mut stats = Stats::new();
    let mut positions = HashMap::new();
    for game in games {
        let mut pos = game.record.start.clone();
        for &mv in &game.record.moves {
            let key = polyglot_key(&pos);
            let points = match game.record.outcome {
                Outcome::Win(winner) if winner == pos.side_to_move() => 2,
                Outcome::Win(_) => 0,
                _ => 1,
            };
            let entry = stats.entry((key, encode_move(mv))).or_default();
            entry.0 += 1;
            entry.1 += points;
            positions.entry(key).or_insert_with(|| pos.clone());
            pos = pos.play(mv);
        }
    }
    (stats, positions)
}

#[test]
fn polyglot_make_book_agrees_with_our_keys_moves_and_weights() {
    let Some(polyglot) = polyglot() else { return };
    let dir = scratch("polyglot-book");
    let (games, path) = make_book(&polyglot, &dir);
    assert_eq!(games.len(), GAMES);
    let book = Book::open(&path).unwrap();
    let (stats, positions) = game_stats(&games);

    // Every entry is a position of the games (so our key is polyglot's) and its move is legal
    // there (so our move code is polyglot's, castling included).
    let mut in_book = BTreeMap::new();
    for entry in book.entries() {
        let pos = positions
            .get(&entry.key)
            .unwrap_or_else(|| panic!("book key {:016x} is no position of the games", entry.key));
        assert!(
            shannon::notation::polyglot::decode_move(pos, entry.raw_move).is_some(),
            "move {:04x} is not legal in {}",
            entry.raw_move,
            pos.fen()
        );
        assert!(in_book
            .insert((entry.key, entry.raw_move), entry.weight)
            .is_none());
    }
    // polyglot's defaults: keep a move played in at least 3 games and with some points; its
    // weight is the points.
    let expected: BTreeMap<(u64, u16), u16> = stats
        .iter()
        .filter(|(_, &(n, points))| n >= 3 && points > 0)
        .map(|(&k, &(_, points))| (k, u16::try_from(points).unwrap()))
        .collect();
    assert!(expected.len() > 20, "a book of {} entries", expected.len());
    assert_eq!(in_book, expected);

    // The start position: the first moves of the games and their weights, as we read them.
    let start = Position::startpos();
    let mut ours: Vec<(String, u16)> = book
        .moves(&start)
        .into_iter()
        .map(|(mv, w)| {
            (
                shannon::notation::uci::format_move(mv, Default::default()),
                w,
            )
        })
        .collect();
    ours.sort();
    let mut firsts: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for game in &games {
        let mv = game.record.moves[0];
        let entry = firsts
            .entry(shannon::notation::uci::format_move(mv, Default::default()))
            .or_default();
        entry.0 += 1;
        entry.1 += match game.record.outcome {
            Outcome::Win(Color::White) => 2,
            Outcome::Win(Color::Black) => 0,
            _ => 1,
        };
    }
    let theirs: Vec<(String, u16)> = firsts
        .into_iter()
        .filter(|(_, (n, points))| *n >= 3 && *points > 0)
        .map(|(mv, (_, points))| (mv, points as u16))
        .collect();
    assert!(ours.iter().any(|(mv, _)| mv == "e2e4"), "{ours:?}");
    assert_eq!(ours, theirs);
}

#[test]
fn a_match_from_a_polyglot_book_opens_with_book_lines() {
    let Some(polyglot) = polyglot() else { return };
    let dir = scratch("book-match");
    let (_, path) = make_book(&polyglot, &dir);
    let book = Book::open(&path).unwrap();
    let pgn = dir.join("match.pgn");
    // No engines.toml in the scratch folder: the built-in one (Shannon against Shannon).
    let (ok, out, err) = MatchLine::new()
        .games(8)
        .tc("nodes=1")
        .openings("book.bin")
        .arg("--book-depth", "6")
        .pgn(&pgn)
        .seed(11)
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(out.contains("openings book.bin"), "{out}");
    let mut games = read_pgn(&pgn);
    assert_eq!(games.len(), 8);
    // Games are written as they finish; round 2k-1 and 2k share an opening.
    games.sort_by_key(|g| tag(g, "Round").parse::<u32>().unwrap());
    // The book line of a game: its first moves while each is a book move, at most 6. The
    // engines take over where the book has no move or at the depth, so this is exactly the
    // opening, and the two games of an opening share it.
    let book_line = |game: &PgnGame| {
        let mut pos = game.record.start.clone();
        let mut line = Vec::new();
        for &mv in game.record.moves.iter().take(6) {
            if !book.moves(&pos).iter().any(|&(m, _)| m == mv) {
                break;
            }
            line.push(mv);
            pos = pos.play(mv);
        }
        line
    };
    let lines: Vec<_> = games.iter().map(book_line).collect();
    for (i, line) in lines.iter().enumerate() {
        assert!(
            !line.is_empty(),
            "game {} does not start with a book move",
            i + 1
        );
    }
    for pair in lines.chunks(2) {
        assert_eq!(pair[0], pair[1], "the two games of an opening differ");
    }
    assert!(
        lines.iter().any(|line| line.len() >= 2),
        "some line goes past the first move: {lines:?}"
    );
}

/// An engine's own book (`book`/`book_depth` in engines.toml): its first moves are book moves,
/// marked `{book}`, at most `book_depth` of them; the other engine is asked as usual.
#[test]
fn an_engine_plays_its_own_book_moves_up_to_its_book_depth() {
    let Some(polyglot) = polyglot() else { return };
    let dir = scratch("engine-book");
    let (_, path) = make_book(&polyglot, &dir);
    let book = Book::open(&path).unwrap();
    let config = dir.join("engines.toml");
    std::fs::write(
        &config,
        "[[engine]]\nname = \"booked\"\ncommand = \"self\"\nbook = \"book.bin\"\nbook_depth = 3\n\n\
         [[engine]]\nname = \"plain\"\ncommand = \"self\"\n",
    )
    .unwrap();
    // Not games.pgn: the book was made from the games there.
    let pgn = dir.join("played.pgn");
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .games(4)
        .tc("nodes=1")
        .seed(5)
        .pgn(&pgn)
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    for game in read_pgn(&pgn) {
        let booked = if tag(&game, "White") == "booked" {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = game.record.start.clone();
        let mut from_book = 0u32;
        for &mv in game.record.moves.iter().take(6) {
            if pos.side_to_move() == booked && from_book < 3 {
                // The booked engine's first moves come from its book while the book has one.
                let in_book = book.moves(&pos);
                if in_book.is_empty() {
                    break;
                }
                assert!(in_book.iter().any(|&(m, _)| m == mv), "{text}");
                from_book += 1;
            }
            pos = pos.play(mv);
        }
    }
    // At most book_depth book moves a game (the other engine has no book), and some at all:
    // the booked engine plays White in half the games, from the start position, which the
    // book has.
    let per_game: Vec<usize> = text
        .split("[Event ")
        .skip(1)
        .map(|game| game.matches("{book}").count())
        .collect();
    assert_eq!(per_game.len(), 4);
    assert!(per_game.iter().all(|&n| n <= 3), "{per_game:?}");
    assert!(per_game.iter().any(|&n| n >= 1), "{per_game:?}\n{text}");
}
