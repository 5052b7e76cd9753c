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

/// The shortcut's verdict and the full count on `pos`, with the instructions `t`.
fn quiet_and_full<T: crate::perft::fast::for_exact::Tier>(
    pos: &Position,
    t: T,
) -> (bool, super::leaf::LastPly) {
    use crate::perft::fast::for_exact::{Black, Board, White};
    let (b, r) = Board::from_position(pos);
    match pos.side_to_move() {
        crate::Color::White => (
            super::quiet::quiet::<White, T>(&b, &r, t),
            super::leaf::last_ply::<White, T>(&b, &r, t),
        ),
        crate::Color::Black => (
            super::quiet::quiet::<Black, T>(&b, &r, t),
            super::leaf::last_ply::<Black, T>(&b, &r, t),
        ),
    }
}

/// How the game stands on `pos` by the last ply's test ([`super::leaf::ending`]), with `t`.
fn ending_of<T: crate::perft::fast::for_exact::Tier>(pos: &Position, t: T) -> Option<bool> {
    use crate::perft::fast::for_exact::{Black, Board, White};
    let (b, r) = Board::from_position(pos);
    match pos.side_to_move() {
        crate::Color::White => super::leaf::ending::<Black, T>(&b, &r, t),
        crate::Color::Black => super::leaf::ending::<White, T>(&b, &r, t),
    }
}

/// A board the shortcut calls quiet has no mating or stalemating move (the full count finds
/// none), the last ply's test of a position's end agrees with the position's moves, on every instruction set, over positions rich in mates, stalemates, pins, discovered
/// and castling checks and en passant; and the shortcut both decides and declines often.
#[test]
fn a_board_called_quiet_has_no_ending_move() {
    use crate::perft::fast::for_exact::Portable;
    let mut rng = SplitMix::new(0x0035_9e1e_7a11);
    let mut starts = suite_positions();
    for fen in [
        // Castling that checks, with witnesses to spare.
        "5k2/ppppp1pp/8/8/8/8/8/4K2R w K - 0 1",
        "r3k3/pp1ppppp/8/8/8/8/8/2K5 b q - 0 1",
        // Pinned pieces that check along or off their pin; discovered checks by pawns.
        "3k4/8/3P4/8/1b6/8/3R4/3K4 w - - 0 1",
        "4k3/8/8/4P3/8/8/4R3/4K3 w - - 0 1",
        "k7/8/8/8/8/8/8/KQ6 w - - 0 1",
        "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
        "7k/8/6K1/3Q4/8/8/8/8 w - - 0 1",
        "k7/p7/P7/8/8/8/7B/K6R w - - 0 1",
        "4k3/4P3/4K3/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq g6 0 3",
    ] {
        starts.push(Position::from_fen(fen).unwrap());
    }
    let (mut quiet, mut declined, mut endings, mut mated) = (0u64, 0u64, 0u64, 0u64);
    for start in &starts {
        let mut pos = start.clone();
        for _ in 0..40 {
            let moves = pos.legal_moves();
            for child in std::iter::once(pos.clone()).chain(moves.iter().map(|&m| pos.play(m))) {
                let (q, full) = quiet_and_full(&child, Portable);
                let over = child.legal_moves().is_empty().then(|| child.in_check());
                assert_eq!(ending_of(&child, Portable), over, "{}", child.fen());
                #[cfg(target_arch = "x86_64")]
                if let Some(t) = crate::perft::fast::for_exact::Bmi2::<true>::detect() {
                    assert_eq!(ending_of(&child, t), over, "{}", child.fen());
                }
                mated += u64::from(over == Some(true));
                let ends = full.mates + full.stalemates;
                assert!(!q || ends == 0, "{}: called quiet, {full:?}", child.fen());
                #[cfg(target_arch = "x86_64")]
                {
                    use crate::perft::fast::for_exact::Bmi2;
                    if let Some(t) = Bmi2::<true>::detect() {
                        assert_eq!(quiet_and_full(&child, t), (q, full), "{}", child.fen());
                    }
                    if let Some(t) = Bmi2::<false>::detect() {
                        assert_eq!(quiet_and_full(&child, t), (q, full), "{}", child.fen());
                    }
                }
                quiet += u64::from(q);
                declined += u64::from(!q && ends == 0);
                endings += u64::from(ends != 0);
            }
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(
        quiet > 10_000 && declined > 1_000 && endings > 300 && mated > 30,
        "{quiet} quiet, {declined} declined, {endings} with an ending, {mated} mated"
    );
}
