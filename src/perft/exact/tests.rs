//! The fast walk against the reference walk (make and unmake on the full position, every move
//! made at the last ply, a memo keyed by the whole board): the same counts and the same
//! fixed-point values, bit for bit, on the perft suites' positions, on positions reached from
//! them by random moves (sparse endings, with stalemates), on positions built to mate and
//! stalemate, for every instruction set this CPU runs, on one thread and several, with and
//! without a cache.

use super::cache::Cache;
use super::reference::Walker;
use super::walk::{fast_ends, fast_ends_on};
use super::{Ends, Fixed, MemoTable};
use crate::perft::fast::Instructions;
use crate::perft::perft_make_unmake;
use crate::perft::suite::parse_suite;
use crate::types::splitmix::SplitMix;
use crate::Position;

fn reference(pos: &Position, d: u32) -> Ends<Fixed> {
    let mut walker = Walker::<Fixed> {
        table: MemoTable::new(1),
        frontier: None,
    };
    walker.ends(&mut pos.clone(), d, 0)
}

/// Fast and reference agree at plies 1 to `max` (while perft stays under `budget`), on every
/// instruction set, without a cache and with a small one, on one and on two threads.
fn agree(pos: &Position, max: u32, budget: u64) -> (u64, u64) {
    let cache = Cache::new(1);
    let mut endings = (0, 0);
    for d in 1..=max {
        let expected = reference(pos, d);
        endings.0 += expected.mates;
        endings.1 += expected.stalemates;
        for instructions in Instructions::available() {
            for (cache, threads) in [(None, 1), (cache.as_ref(), 1), (cache.as_ref(), 2)] {
                let got = fast_ends_on(pos, d, cache, threads, instructions).unwrap();
                assert_eq!(
                    got,
                    expected,
                    "{}: {} plies, {}, cache {}, {threads} threads",
                    pos.fen(),
                    d,
                    instructions.name(),
                    cache.is_some()
                );
            }
        }
        if perft_make_unmake(pos, d) > budget {
            break;
        }
    }
    endings
}

fn suite_positions() -> Vec<Position> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/");
    let mut positions = Vec::new();
    for (name, step) in [
        ("standard.epd", 1),
        ("cpw.epd", 1),
        ("en_passant.epd", 1),
        ("special_cases.epd", 1),
        ("tricky.perft", 1),
        ("chess960_start.epd", 97),
    ] {
        let text = std::fs::read_to_string(format!("{dir}{name}")).expect("suite file");
        let entries = parse_suite(&text).expect("suite parses");
        for entry in entries.iter().step_by(step) {
            positions.push(Position::from_fen(&entry.fen).expect("suite FEN"));
        }
    }
    positions
}

#[test]
fn the_fast_walk_equals_the_reference_on_the_suites() {
    let positions = suite_positions();
    assert!(positions.len() > 150, "{} positions", positions.len());
    for pos in &positions {
        agree(pos, 3, 100_000);
    }
}

#[test]
fn the_fast_walk_equals_the_reference_on_random_descendants_with_endings() {
    let mut rng = SplitMix::new(0x000e_8ac7_0035);
    let (mut mates, mut stalemates) = (0, 0);
    let mut starts = suite_positions();
    // Sparse material, where stalemates happen.
    for fen in [
        "7k/8/6K1/8/8/8/PPP2Q2/R7 w - - 0 1",
        "k7/8/1Q6/8/8/8/8/K7 w - - 0 1",
        "k7/p7/P7/8/8/8/7B/K6R w - - 0 1",
        "8/8/8/8/8/5k2/5p2/5K2 b - - 0 1",
        "7k/5Q2/8/8/3b4/8/8/K7 w - - 0 1",
        "k7/2Q5/8/8/8/8/1r6/4K3 b - - 0 1",
        "4k3/4P3/4K3/8/8/8/8/8 w - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ] {
        starts.push(Position::from_fen(fen).unwrap());
    }
    for start in starts.iter().step_by(3) {
        let mut pos = start.clone();
        for ply in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply % 6 == 0 {
                let (m, s) = agree(&pos, 3, 30_000);
                mates += m;
                stalemates += s;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(
        mates > 100 && stalemates > 10,
        "{mates} mates, {stalemates} stalemates"
    );
}

#[test]
fn the_fast_walk_equals_the_reference_from_the_start_kiwipete_and_chess960() {
    let start = Position::startpos();
    let kiwipete = Position::from_fen(crate::perft::KIWIPETE).unwrap();
    let rank = crate::chess960::scharnagl_back_rank(0).unwrap();
    let chess960 = crate::chess960::start_position(&rank);
    for (pos, plies) in [(&start, 5), (&kiwipete, 3), (&chess960, 5)] {
        let cache = Cache::new(16);
        for d in 1..=plies {
            let expected = reference(pos, d);
            assert_eq!(
                fast_ends(pos, d, cache.as_ref(), 2),
                expected,
                "{} {d}",
                pos.fen()
            );
        }
    }
}

#[test]
fn threads_and_cache_sizes_do_not_change_a_bit() {
    let pos = Position::startpos();
    let one = fast_ends(&pos, 6, None, 1);
    assert_eq!(one.mates, 10828);
    for (mb, threads) in [(1, 1), (1, 2), (4, 3), (64, 2)] {
        let cache = Cache::new(mb);
        assert_eq!(fast_ends(&pos, 6, cache.as_ref(), threads), one);
    }
}
