//! Shannon against cozy-chess (a well-kept Rust move generator), measured side by side in one
//! run: perft with bulk counting on one thread, then random playouts under all the rules, and
//! `shannon random-games` on one and two threads (`cargo bench --bench perft -- cozy`). Add
//! `RUSTFLAGS="-C target-cpu=native"` to compare both built for the host CPU. Options: `quick`
//! (smaller depths), `deep` (the start position to depth 7 and Kiwipete to depth 6; one round
//! unless told, and no copy-make comparison), `perft-only`, `playouts-only`, `before` (also the
//! counting path compiled for each other instruction set this CPU runs, and the position
//! make/unmake path perft used before the counting path), `rounds=N` (best of N, default 3).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shannon::experiment::{run, Experiment, Player, RuleSet, RunOptions, Shard, Start};
use shannon::movegen::Generator;
use shannon::perft::fast::{perft_on, Instructions};
use shannon::perft::{perft, perft_copy_make, perft_make_unmake};
use shannon::perft::{KIWIPETE, PERFT_BENCH};
use shannon::Position;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The depths of the goal (issue 14): (name, FEN, depth, expected nodes).
const PERFT_BENCH_DEEP: [(&str, &str, u32, u64); 2] = [
    ("startpos", shannon::STARTPOS_FEN, 7, 3_195_901_860),
    ("kiwipete", KIWIPETE, 6, 8_031_647_685),
];

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

/// The loop of `shannon random-games` (claims rules), on cozy-chess: a random legal move, the key history scanned
/// for repetitions, the same draw rules.
fn cozy_playout(rng: &mut SmallRng) -> usize {
    use cozy_chess::{BitBoard, Board, Piece};
    let mut board = Board::default();
    let mut history: Vec<u64> = vec![board.hash()];
    let mut moves = Vec::with_capacity(256);
    loop {
        moves.clear();
        board.generate_moves(|piece_moves| {
            moves.extend(piece_moves);
            false
        });
        if moves.is_empty() {
            return history.len() - 1;
        }
        let heavy =
            board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
        let minors = board.pieces(Piece::Knight) | board.pieces(Piece::Bishop);
        if heavy.is_empty() {
            let light = BitBoard::LIGHT_SQUARES;
            let bishops = board.pieces(Piece::Bishop);
            if minors.len() <= 1
                || (board.pieces(Piece::Knight).is_empty()
                    && ((bishops & light).is_empty() || (bishops & !light).is_empty()))
            {
                return history.len() - 1;
            }
        }
        let clock = board.halfmove_clock() as usize;
        if clock >= 100 {
            return history.len() - 1;
        }
        let key = board.hash();
        let last = history.len() - 1;
        let repeats = (2..=clock.min(last))
            .step_by(2)
            .filter(|&back| history[last - back] == key)
            .count();
        if repeats >= 2 {
            return history.len() - 1;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        board.play_unchecked(mv);
        history.push(board.hash());
    }
}

fn best_of<F: FnMut() -> u64>(rounds: u32, mut f: F) -> (u64, f64) {
    let mut best = f64::INFINITY;
    let mut result = 0;
    for _ in 0..rounds {
        let started = Instant::now();
        result = f();
        best = best.min(started.elapsed().as_secs_f64());
    }
    (result, best)
}

/// Runs the comparison with cozy-chess; `args` are the bench's arguments.
pub fn run_cozy(args: &[String]) {
    let quick = args.iter().any(|a| a == "quick");
    let deep = !quick && args.iter().any(|a| a == "deep");
    let before = args.iter().any(|a| a == "before");
    let rounds = args
        .iter()
        .find_map(|a| a.strip_prefix("rounds=").and_then(|n| n.parse().ok()))
        .unwrap_or(if quick || deep { 1 } else { 3 });
    println!(
        "perft, one thread, bulk counting, best of {rounds} (Mnps = million nodes per second)"
    );
    println!(
        "{:<10} {:>5} {:>12} {:>12} {:>12} {:>7}",
        "position", "depth", "nodes", "shannon", "cozy", "ratio"
    );
    let mut copy_make = Vec::new();
    let positions = if args.iter().any(|a| a == "playouts-only") {
        &[][..]
    } else if deep {
        &PERFT_BENCH_DEEP[..]
    } else {
        &PERFT_BENCH[..]
    };
    for &(name, fen, depth, expected) in positions {
        let depth = if quick { depth - 2 } else { depth };
        let ours = Position::from_fen(fen).unwrap();
        let theirs = cozy_chess::Board::from_fen(fen, false).unwrap();
        let (n1, t1) = best_of(rounds, || perft(&ours, depth, Generator::Bitboard));
        let (n2, t2) = best_of(rounds, || cozy_perft(&theirs, depth));
        assert_eq!(n1, n2, "{name}: the two libraries disagree");
        if !quick {
            assert_eq!(n1, expected);
        }
        let (m1, m2) = (n1 as f64 / t1 / 1e6, n2 as f64 / t2 / 1e6);
        println!(
            "{name:<10} {depth:>5} {n1:>12} {m1:>7.1} Mnps {m2:>7.1} Mnps {:>6.2}x",
            m1 / m2
        );
        if before {
            let fastest = Instructions::fastest();
            for instructions in Instructions::available() {
                if instructions == fastest {
                    continue;
                }
                let (np, tp) = best_of(rounds, || perft_on(&ours, depth, instructions).unwrap());
                assert_eq!(np, n1);
                let mp = np as f64 / tp / 1e6;
                println!(
                    "{:<10} {depth:>5} {np:>12} {mp:>7.1} Mnps (the counting path for {}) {:>6.2}x",
                    "  before",
                    instructions.name(),
                    mp / m2
                );
            }
            let (n0, t0) = best_of(rounds, || perft_make_unmake(&ours, depth));
            assert_eq!(n0, n1);
            let m0 = n0 as f64 / t0 / 1e6;
            println!(
                "{:<10} {depth:>5} {n0:>12} {m0:>7.1} Mnps (the position make/unmake path) {:>6.2}x",
                "  before",
                m0 / m2
            );
        }
        copy_make.push((name, depth, ours));
    }
    if deep {
        copy_make.clear();
    } else {
        println!("\nshannon make/unmake against shannon copy-make of the full position");
    }
    for (name, depth, pos) in copy_make {
        let (n, t) = best_of(rounds, || perft_make_unmake(&pos, depth));
        let unmake_mnps = n as f64 / t / 1e6;
        let (n, t) = best_of(rounds, || perft_copy_make(&pos, depth));
        let m = n as f64 / t / 1e6;
        println!("{name:<10} {depth:>5} make/unmake {unmake_mnps:>7.1} Mnps, copy-make {m:>7.1} Mnps, ratio {:.2}x", unmake_mnps / m);
    }

    if args.iter().any(|a| a == "perft-only") {
        return;
    }
    let games = if quick { 200 } else { 5000 };
    println!(
        "\nrandom playouts from the start position (claims rules), {games} games, best of {rounds}"
    );
    let start = Position::startpos();
    let mut player = Player::new();
    let (p1, t1) = best_of(rounds, || {
        let mut rng = SmallRng::seed_from_u64(7);
        (0..games)
            .map(|_| u64::from(player.play(&start, &RuleSet::CLAIMS, &mut rng).plies))
            .sum()
    });
    let (p2, t2) = best_of(rounds, || {
        let mut rng = SmallRng::seed_from_u64(7);
        (0..games).map(|_| cozy_playout(&mut rng) as u64).sum()
    });
    let (r1, r2) = (p1 as f64 / t1 / 1e6, p2 as f64 / t2 / 1e6);
    let per_game = |t: f64| games as f64 / t;
    println!(
        "shannon random-games loop {r1:.2} M plies/s ({:.0} games/s), cozy-chess {r2:.2} M plies/s \
         ({:.0} games/s): ratio {:.2}x",
        per_game(t1),
        per_game(t2),
        r1 / r2
    );

    let games = if quick { 2_000 } else { 40_000 };
    println!("\nshannon random-games on 1 and 2 threads, {games} games, best of {rounds}");
    let mut rate = [0.0; 2];
    for threads in [1, 2] {
        let experiment = Experiment {
            seed: 7,
            games,
            start: Start::Standard,
            rules: RuleSet::CLAIMS,
            shard: Shard::WHOLE,
        };
        let stop = AtomicBool::new(false);
        let options = RunOptions {
            threads,
            checkpoint: None,
            checkpoint_every: Duration::from_secs(3600),
            progress: &|_, _| {},
            stop: &stop,
        };
        let (n, t) = best_of(rounds, || run(&experiment, &options).unwrap().tally.games());
        rate[threads - 1] = n as f64 / t;
        println!("{threads} thread(s): {:.0} games/s", rate[threads - 1]);
    }
    println!("2 threads / 1 thread: {:.2}x", rate[1] / rate[0]);
}
