//! `go` and the move it picks: its parameters, `searchmoves`, ponder and infinite, one bestmove
//! per go, the uniformity of the random choice, and seeds that replay it.

use super::{assert_legal, bestmoves, errors, script, Live, START};
use shannon::Position;

#[test]
fn go_answers_with_one_info_line_and_a_legal_bestmove() {
    let lines = script(
        "position startpos moves e2e4\ngo wtime 1000 btime 1000 winc 10 binc 10 movestogo 20\n",
    );
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].starts_with("info string seed "),
        "Seed 0 prints the game's seed"
    );
    let lines = script("setoption name Seed value 3\nposition startpos moves e2e4\ngo depth 5 nodes 100 movetime 50 mate 2\n");
    assert_eq!(lines.len(), 2, "{lines:?}");
    let best = lines[1].strip_prefix("bestmove ").unwrap();
    assert!(lines[0].starts_with("info depth 1 seldepth 1 multipv 1 score cp 0 nodes 20 time "));
    assert!(lines[0].ends_with(&format!(" pv {best}")));
    assert_legal(START, "e2e4", best);
}

#[test]
fn numbers_that_make_vampirc_panic_are_fine() {
    let lines = script("go depth 256\ngo depth 999\ngo mate 300\ngo movestogo 300\ngo wtime 99999999999999999999999999 btime -5\nisready\n");
    assert_eq!(bestmoves(&lines).len(), 5, "{lines:?}");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "readyok");
}

#[test]
fn searchmoves_restricts_the_choice() {
    let mut seen = std::collections::HashSet::new();
    let mut input = String::new();
    for seed in 1..=200 {
        input.push_str(&format!(
            "setoption name Seed value {seed}\ngo searchmoves a2a3 h2h4\n"
        ));
    }
    for best in bestmoves(&script(&input)) {
        seen.insert(best);
    }
    assert_eq!(
        seen,
        ["a2a3", "h2h4"].iter().map(|s| s.to_string()).collect()
    );
    let lines = script("go searchmoves e2e5\n");
    assert!(!errors(&lines).is_empty());
    assert_eq!(bestmoves(&lines).len(), 1);
}

#[test]
fn ponder_and_infinite_survive_time_controls_and_hold_bestmove() {
    // vampirc-uci loses `ponder` in `go ponder wtime ...` and `infinite` in `go wtime ... infinite`.
    let mut e = Live::start();
    e.send("go ponder wtime 1000 btime 1000");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(bestmoves(&lines).is_empty(), "{lines:?}");
    e.send("ponderhit");
    let lines = e.until("bestmove");
    assert_eq!(bestmoves(&lines).len(), 1);

    e.send("go wtime 1000 btime 1000 infinite");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(bestmoves(&lines).is_empty(), "{lines:?}");
    e.send("ponderhit"); // does not end an infinite search
    e.send("isready");
    assert!(bestmoves(&e.until("readyok")).is_empty());
    e.send("stop");
    e.until("bestmove");
    e.send("stop"); // idle: nothing
    e.send("isready");
    assert_eq!(e.until("readyok"), vec!["readyok"]);
    e.quit();
}

#[test]
fn exactly_one_bestmove_per_go() {
    let lines = script("go infinite\ngo\nstop\nstop\ngo ponder\nstop\ngo infinite\n");
    // The held infinite answer is released by the next go; the last one by the end of input.
    assert_eq!(bestmoves(&lines).len(), 4, "{lines:?}");
    let lines = script("go infinite\nquit\n");
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
}

#[test]
fn uniform_in_the_start_position() {
    chi_square_test(START, 20_000);
}

#[test]
fn uniform_with_promotions() {
    // 8 promotions (4 pieces on b8 and on a8 by capture) and 5 king moves.
    chi_square_test("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 20_000);
}

/// Draw `draws` moves with seeds 1..=draws in one process and test that every legal move is
/// equally likely (chi-square, p = 0.001). Deterministic, because every draw is seeded.
fn chi_square_test(fen: &str, draws: u64) {
    let pos = Position::from_fen(fen).unwrap();
    let legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&mv| shannon::notation::uci::format_move(mv, Default::default()))
        .collect();
    let mut input = format!("position fen {fen}\n");
    for seed in 1..=draws {
        input.push_str(&format!("setoption name Seed value {seed}\ngo\n"));
    }
    let best = bestmoves(&script(&input));
    assert_eq!(best.len() as u64, draws);
    let mut counts = vec![0u64; legal.len()];
    for mv in &best {
        let i = legal
            .iter()
            .position(|m| m == mv)
            .unwrap_or_else(|| panic!("{mv} not legal"));
        counts[i] += 1;
    }
    let expected = draws as f64 / legal.len() as f64;
    let chi2: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let critical = chi_square_critical_0_001(legal.len() - 1);
    assert!(
        chi2 < critical,
        "chi2 {chi2:.1} >= {critical:.1}; counts {counts:?} for {legal:?}"
    );
}

/// The chi-square value exceeded with probability 0.001, by the Wilson-Hilferty approximation
/// (within 0.5% of the tables from 10 degrees of freedom up).
fn chi_square_critical_0_001(df: usize) -> f64 {
    let k = df as f64;
    let z = 3.090_232; // the standard normal quantile of 0.999
    let a = 2.0 / (9.0 * k);
    k * (1.0 - a + z * a.sqrt()).powi(3)
}

#[test]
fn the_same_seed_and_game_give_the_same_move_in_any_process() {
    let game = "position startpos moves e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6";
    let direct = script(&format!("setoption name Seed value 12345\n{game}\ngo\n"));
    // Another process reaches the same game by extension, after other traffic and another
    // generator; the move must not change.
    let extended = script(&format!(
        "uci\nsetoption name Move Generator value 0x88\nposition startpos moves e2e4\ngo\nposition startpos moves e2e4 c7c5\nsetoption name Seed value 12345\n{game}\nisready\ngo\n"
    ));
    assert_eq!(bestmoves(&direct), bestmoves(&extended)[1..]);
    // A different seed gives different moves over a few games.
    let other = script(&format!("setoption name Seed value 12346\n{game}\ngo\n"));
    let another = script(&format!("setoption name Seed value 7\n{game}\ngo\n"));
    assert!(bestmoves(&direct) != bestmoves(&other) || bestmoves(&direct) != bestmoves(&another));
}

#[test]
fn seed_zero_draws_afresh_at_every_go_and_names_a_seed_that_replays_each_move() {
    // Issue 9, item 1: the same position sent again and again, without `ucinewgame` (as
    // python-chess's `engine.play` loop does), must not give the same move every time.
    let positions = ["position startpos", "position startpos moves e2e4 e7e5"];
    let mut input = String::new();
    for _ in 0..40 {
        for position in positions {
            input.push_str(&format!("{position}\ngo\n"));
        }
    }
    let lines = script(&input);
    let best = bestmoves(&lines);
    let seeds: Vec<u64> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string seed "))
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(best.len(), 80);
    assert_eq!(seeds.len(), 80, "one seed per go: {lines:?}");
    let from_start: std::collections::HashSet<&String> = best.iter().step_by(2).collect();
    // 40 draws among 20 moves: all equal with probability 20^-39.
    assert!(from_start.len() > 1, "{best:?}");
    // Each named seed replays its move in `Seed` mode.
    let mut replay = String::new();
    for (i, seed) in seeds.iter().enumerate() {
        replay.push_str(&format!(
            "setoption name Seed value {seed}\n{}\ngo\n",
            positions[i % 2]
        ));
    }
    assert_eq!(bestmoves(&script(&replay)), best);
}

#[test]
fn with_ponder_on_bestmove_names_the_reply_its_seed_would_choose() {
    // Off (the default): no ponder word.
    let lines = script("setoption name Seed value 7\nposition startpos\ngo\n");
    assert!(!lines.last().unwrap().contains("ponder"), "{lines:?}");
    for seed in [1, 7, 12345] {
        let lines = script(&format!(
            "setoption name Seed value {seed}\nsetoption name Ponder value true\n\
             position startpos moves e2e4\ngo wtime 1000 btime 1000\n"
        ));
        let words: Vec<&str> = lines.last().unwrap().split(' ').collect();
        assert_eq!((words.len(), words[0], words[2]), (4, "bestmove", "ponder"));
        assert_legal(START, &format!("e2e4 {}", words[1]), words[3]);
        // The reply is the move the same seed plays there.
        let reply = script(&format!(
            "setoption name Seed value {seed}\nposition startpos moves e2e4 {}\ngo\n",
            words[1]
        ));
        assert_eq!(reply.last().unwrap(), &format!("bestmove {}", words[3]));
    }
    // A move that mates names no reply.
    let lines = script(
        "setoption name Ponder value true\nsetoption name Seed value 1\n\
         position startpos moves f2f3 e7e5 g2g4\ngo searchmoves d8h4\n",
    );
    assert_eq!(lines.last().unwrap(), "bestmove d8h4");
    let lines = script("setoption name Ponder value maybe\nisready\n");
    assert!(!errors(&lines).is_empty(), "{lines:?}");
}
