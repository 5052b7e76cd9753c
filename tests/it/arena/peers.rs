//! Other programs: a match against Stockfish whose PGN python-chess must read, and a python
//! that cannot start when peers are required.

use super::{read_pgn, scratch, stockfish, stockfish_config};
use crate::common::MatchLine;
use crate::common::{peer_missing, peers_required};
use std::path::Path;
use std::process::Command;

/// How many games python-chess reads from `pgn` without an error, each ending in a valid
/// board; `None` when the check was skipped (no `python` or no python-chess, peers not
/// `required`). A PGN python-chess cannot read always fails.
fn python_chess_games(python: &str, pgn: &Path, required: bool) -> Option<usize> {
    let script = "import chess.pgn, sys\nn = 0\nwith open(sys.argv[1]) as f:\n    while (g := chess.pgn.read_game(f)) is not None:\n        assert not g.errors, g.errors\n        assert g.end().board().is_valid()\n        n += 1\nprint(n)\n";
    match Command::new(python)
        .args(["-c", script, pgn.to_str().unwrap()])
        .output()
    {
        Ok(output) if output.status.success() => Some(
            String::from_utf8_lossy(&output.stdout)
                .trim()
                .parse()
                .unwrap(),
        ),
        Ok(output) => {
            let err = String::from_utf8_lossy(&output.stderr);
            if !err.contains("No module named") {
                panic!("python-chess could not read the PGN: {err}");
            }
            peer_missing(
                "python-chess is not installed (pip install chess)",
                required,
            );
            None
        }
        Err(e) => {
            peer_missing(&format!("{python} cannot start ({e})"), required);
            None
        }
    }
}

/// Issue 9: with peers required, a python3 that cannot start was still only a skip.
#[test]
#[should_panic(expected = "SHANNON_REQUIRE_PEERS=1 but /nonexistent/python3 cannot start")]
fn a_python_that_cannot_start_fails_when_peers_are_required() {
    // No file is needed (the program never starts), and a scratch directory would be kept by the
    // expected panic.
    python_chess_games(
        "/nonexistent/python3",
        Path::new("/nonexistent/empty.pgn"),
        true,
    );
}

#[test]
fn shannon_plays_stockfish_and_python_chess_reads_the_pgn() {
    let Some(stockfish) = stockfish() else { return };
    let dir = scratch("stockfish-match");
    let config = stockfish_config(&dir, &stockfish);
    let pgn = dir.join("games.pgn");
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .engines("shannon,stockfish")
        .games(2)
        .tc("movetime=20")
        .pgn(&pgn)
        .quiet()
        .seed(5)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(out.contains("0 lost by engine failure"), "{out}");
    assert_eq!(read_pgn(&pgn).len(), 2);
    if let Some(n) = python_chess_games("python3", &pgn, peers_required()) {
        assert_eq!(n, 2);
    }
}
