//! Draw claims against python-chess: along a few hundred random games, Shannon's threefold and
//! 50-move claims (including a claim made by announcing the next move, FIDE 9.2.1 and 9.3.1)
//! must be python-chess's `can_claim_threefold_repetition()` and `can_claim_fifty_moves()`.
//!
//! Skipped, with the reason printed, when python-chess is not installed; failing instead when the
//! environment sets `SHANNON_REQUIRE_PEERS=1`.

use crate::common::{peer_missing, peers_required, python_chess_missing, Scratch};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shannon::game::{DrawClaim, Game, Status};
use shannon::notation::uci::format_move;
use shannon::CastlingMode;
use shannon::Position;
use std::process::Command;

/// A random game until the rules end it (or `max_plies`), with Shannon's claim mark for every
/// position before the last move, in the script's alphabet.
fn random_game(rng: &mut SmallRng, max_plies: usize) -> (Vec<String>, String) {
    let mut game = Game::new(Position::startpos());
    let mut moves = Vec::new();
    let mut marks = String::new();
    while moves.len() < max_plies {
        let legal = game.legal_moves();
        let status = game.status_with(legal.len());
        if let Status::Over(_) = status {
            break;
        }
        let three = status == Status::Claimable(DrawClaim::ThreefoldRepetition)
            || game
                .move_allowing(DrawClaim::ThreefoldRepetition, &legal)
                .is_some();
        let fifty = game.position().halfmove_clock() >= 100
            || game
                .move_allowing(DrawClaim::FiftyMoveRule, &legal)
                .is_some();
        marks.push(match (three, fifty) {
            (true, true) => 'B',
            (true, false) => 'T',
            (false, true) => 'F',
            (false, false) => '.',
        });
        let mv = legal[rng.random_range(0..legal.len())];
        moves.push(format_move(mv, CastlingMode::Standard));
        game.play(mv);
    }
    (moves, marks)
}

#[test]
fn threefold_and_fifty_move_claims_match_python_chess() {
    if let Some(reason) = python_chess_missing() {
        return peer_missing(&reason, peers_required());
    }
    let mut rng = SmallRng::seed_from_u64(9_12);
    let games: Vec<(Vec<String>, String)> = (0..300).map(|_| random_game(&mut rng, 600)).collect();
    let dir = Scratch::new("claims");
    let file = dir.join("games.txt");
    let text: Vec<String> = games.iter().map(|(moves, _)| moves.join(" ")).collect();
    std::fs::write(&file, text.join("\n") + "\n").unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/draw_claims.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&file)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "the script failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(theirs.len(), games.len());
    let mut counts = [0usize; 4];
    for (number, ((moves, ours), theirs)) in games.iter().zip(&theirs).enumerate() {
        if let Some(ply) = ours.chars().zip(theirs.chars()).position(|(a, b)| a != b) {
            panic!(
                "game {number}, before ply {}: Shannon says '{}', python-chess '{}'; moves: {}",
                ply + 1,
                &ours[ply..=ply],
                &theirs[ply..=ply],
                moves[..=ply].join(" ")
            );
        }
        assert_eq!(ours, theirs, "game {number}");
        for c in ours.chars() {
            counts[".TFB".find(c).unwrap()] += 1;
        }
    }
    println!(
        "{} games, {} positions: {} threefold claims, {} 50-move claims, {} both; python-chess agrees",
        games.len(),
        counts.iter().sum::<usize>(),
        counts[1],
        counts[2],
        counts[3]
    );
    // The comparison means something only if both kinds of claim occur.
    assert!(counts[1] + counts[3] > 100, "{counts:?}");
    assert!(counts[2] + counts[3] > 10, "{counts:?}");
}
