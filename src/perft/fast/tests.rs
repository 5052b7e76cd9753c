//! The counting path against the position-based perft (make/unmake, the bitboard generator):
//! every position of every suite under `tests/data/perft`, and positions reached from them by
//! seeded random moves, at small depths; and the divide of a few positions.

use crate::perft::fast::hashed::{self, count_on, Shared};
use crate::perft::fast::playout::Playout;
use crate::perft::fast::Instructions;
use crate::perft::suite::parse_suite;
use crate::perft::PerftTable;
use crate::perft::{divide, fast, perft_make_unmake, PerftOptions};
use crate::types::splitmix::SplitMix;
use crate::Position;

const SUITES: [&str; 7] = [
    "standard.epd",
    "cpw.epd",
    "en_passant.epd",
    "special_cases.epd",
    "tricky.perft",
    "chess960.perft",
    "chess960_start.epd",
];

fn suite_positions() -> Vec<Position> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/");
    let mut positions = Vec::new();
    for name in SUITES {
        let text = std::fs::read_to_string(format!("{dir}{name}")).expect("suite file");
        for entry in parse_suite(&text).expect("suite parses") {
            positions.push(Position::from_fen(&entry.fen).expect("suite FEN"));
        }
    }
    positions
}

/// The counts at each depth while the reference stays under `budget` nodes, compiled for every
/// instruction set this CPU runs.
fn agree(pos: &Position, max_depth: u32, budget: u64) {
    for depth in 0..=max_depth {
        let expected = perft_make_unmake(pos, depth);
        if fast::perft(pos, depth) != expected {
            // Walk down to the smallest subtree counted wrong.
            let (mut at, mut d) = (pos.clone(), depth);
            'down: while d > 2 {
                for &mv in at.legal_moves().iter() {
                    let child = at.play(mv);
                    if fast::perft(&child, d - 1) != perft_make_unmake(&child, d - 1) {
                        at = child;
                        d -= 1;
                        continue 'down;
                    }
                }
                break;
            }
            panic!("first wrong subtree: {} depth {d}", at.fen());
        }
        assert_eq!(
            fast::perft(pos, depth),
            expected,
            "{} depth {depth}",
            pos.fen()
        );
        for instructions in Instructions::available() {
            assert_eq!(
                fast::perft_on(pos, depth, instructions),
                Some(expected),
                "{}: {} depth {depth}",
                instructions.name(),
                pos.fen()
            );
        }
        if expected > budget {
            break;
        }
    }
}

#[test]
fn suites_agree_with_the_position_perft() {
    let positions = suite_positions();
    assert!(positions.len() > 100, "{} positions", positions.len());
    for pos in &positions {
        agree(pos, 4, 200_000);
    }
}

#[test]
fn random_descendants_agree() {
    let mut rng = SplitMix::new(0x5eed_f457_9e71_0001);
    for start in suite_positions() {
        let mut pos = start;
        for ply in 0..40 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply % 4 == 0 {
                agree(&pos, 3, 20_000);
            }
            let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
            pos = pos.play(mv);
        }
    }
}

#[test]
fn divide_is_unchanged() {
    for pos in suite_positions().iter().step_by(25) {
        let d = divide(pos, 3, &PerftOptions::default(), None).unwrap();
        for (mv, nodes) in &d.moves {
            assert_eq!(
                *nodes,
                perft_make_unmake(&pos.play(*mv), 2),
                "{} {mv:?}",
                pos.fen()
            );
        }
    }
}

#[test]
fn pext_is_slow_only_on_amd_before_zen_3() {
    use super::tier::pext_is_slow;
    let (amd, hygon, intel) = (b"AuthenticAMD", b"HygonGenuine", b"GenuineIntel");
    assert!(
        pext_is_slow(amd, 0x0083_0F10),
        "Zen 2 (EPYC 7002, family 17h)"
    );
    assert!(pext_is_slow(amd, 0x0080_0F12), "Zen 1 (family 17h)");
    assert!(pext_is_slow(amd, 0x0066_0F01), "Excavator (family 15h)");
    assert!(
        pext_is_slow(hygon, 0x0090_0F01),
        "Hygon Dhyana (family 18h)"
    );
    assert!(
        !pext_is_slow(amd, 0x00A0_0F11),
        "Zen 3 (EPYC 7003, family 19h)"
    );
    assert!(!pext_is_slow(amd, 0x00B4_0F40), "Zen 5 (family 1Ah)");
    assert!(!pext_is_slow(intel, 0x0009_06EA), "Coffee Lake");
}

#[test]
fn instructions_are_named_and_found_by_name() {
    let available = Instructions::available();
    assert_eq!(available[0], Instructions::Portable);
    assert!(available.contains(&Instructions::fastest()));
    for instructions in available {
        assert_eq!(
            Instructions::from_name(instructions.name()),
            Some(instructions)
        );
    }
    assert_eq!(Instructions::from_name("avx9000"), None);
}

/// The hashed path (every key checked against the key from scratch as it goes: see
/// `Hashed::below`) against the counting path without a table, compiled for every instruction
/// set this CPU runs, on every suite position, with one small table kept from count to count.
#[test]
fn hashed_counts_agree_on_every_suite_position() {
    let table = PerftTable::new(1).unwrap();
    let shared = Shared::new(Some(table.in_use(u64::MAX)), None);
    for pos in suite_positions() {
        for depth in 0..=4 {
            let expected = fast::perft(&pos, depth);
            for instructions in Instructions::available() {
                assert_eq!(
                    count_on(&pos, depth, instructions, &shared),
                    Some(expected),
                    "{}: {} depth {depth}",
                    instructions.name(),
                    pos.fen()
                );
            }
            if expected > 200_000 {
                break;
            }
        }
    }
}

/// The counts that a table with only the low `bits` of its keys checked gets wrong, over the
/// suite positions at depth 4 (each counted with a fresh table of 1 MiB).
fn wrong_counts_with_a_key_of(bits: u32) -> usize {
    let mut wrong = 0;
    for pos in suite_positions() {
        let table = PerftTable::new(1).unwrap();
        let shared = Shared::new(Some(table.in_use(u64::MAX).weakened(bits)), None);
        wrong += usize::from(hashed::count(&pos, 4, &shared) != fast::perft(&pos, 4));
    }
    wrong
}

/// Key collisions are what can make a hashed perft wrong. With a deliberately tiny table and a
/// deliberately weakened key (20 bits, of which the 14 bits of the bucket index leave 6 to
/// check), the suites catch the false hits; with the whole 64-bit key the same tiny table
/// (crowded: most counts store far more boards than it holds) counts every position exactly.
#[test]
fn a_weakened_key_is_caught_by_the_suites_and_the_full_key_is_exact() {
    let wrong = wrong_counts_with_a_key_of(20);
    assert!(wrong > 10, "only {wrong} wrong counts with a 20-bit key");
    assert_eq!(wrong_counts_with_a_key_of(64), 0);
}

/// The table whose memory comes zeroed from the system without being written counts the same as
/// its safe twin, whose every word is written.
#[test]
fn the_untouched_table_counts_as_its_safe_twin() {
    let (lazy, touched) = (PerftTable::new(1).unwrap(), PerftTable::touched(1));
    for pos in suite_positions().iter().step_by(10) {
        let count = |table: &PerftTable| {
            let shared = Shared::new(Some(table.in_use(u64::MAX)), None);
            hashed::count(pos, 4, &shared)
        };
        assert_eq!(count(&lazy), count(&touched), "{}", pos.fen());
    }
}

/// A raised stop flag ends a count at once and leaves no cut count in the table: the same table
/// then counts exactly, whether the flag was up from the start or raised while counting.
#[test]
fn a_stopped_count_stores_nothing() {
    let table = PerftTable::new(1).unwrap();
    let pos = Position::startpos();
    let stop = std::sync::atomic::AtomicBool::new(true);
    let stopped = Shared::new(Some(table.in_use(u64::MAX)), Some(&stop));
    assert_eq!(hashed::count(&pos, 5, &stopped), 0);
    assert!(stopped.was_cut());
    stop.store(false, std::sync::atomic::Ordering::Relaxed);
    let late = Shared::new(Some(table.in_use(u64::MAX)), Some(&stop));
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(5));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        hashed::count(&pos, 6, &late);
    });
    let whole = Shared::new(Some(table.in_use(u64::MAX)), None);
    assert_eq!(hashed::count(&pos, 6, &whole), 119_060_324);
    assert!(!whole.was_cut());
}

/// The random-game path follows the position move for move, compiled for every instruction set
/// this CPU runs: its moves are the position's list in the list's order (so a seed plays the
/// same game on either), and each of them, played, leaves the key, the halfmove clock, the side
/// to move and the check the position has after the same move; on every suite position and the
/// positions seeded random moves reach from them.
#[test]
fn playouts_follow_the_position_move_for_move() {
    let mut rng = SplitMix::new(0x5eed_91a7_0007_0001);
    for start in suite_positions() {
        for instructions in Instructions::available() {
            let mut pos = start.clone();
            let mut playout = Playout::with(&pos, instructions);
            playout.generate();
            for _ in 0..16 {
                let list = pos.legal_moves();
                assert_eq!(playout.moves(), list.len(), "{}", pos.fen());
                assert_eq!(playout.in_check(), pos.in_check(), "{}", pos.fen());
                if list.is_empty() {
                    break;
                }
                for (index, &mv) in list.iter().enumerate() {
                    let mut after = playout.clone();
                    let played = after.play(index);
                    let next = pos.play(mv);
                    let what = format!("{}: move {index}", pos.fen());
                    assert_eq!(played.mv, mv, "{what} ({})", instructions.name());
                    assert_eq!(after.key(), next.key(), "{what}");
                    assert_eq!(after.halfmove_clock(), next.halfmove_clock(), "{what}");
                    assert_eq!(after.side_to_move(), next.side_to_move(), "{what}");
                    let changed = mv.promotion().is_some()
                        || next.occupied().count() != pos.occupied().count();
                    assert_eq!(played.material_changed, changed, "{what}");
                    assert_eq!(after.moves(), next.legal_moves().len(), "{what}");
                }
                let index = (rng.next_u64() % list.len() as u64) as usize;
                playout.play(index);
                pos = pos.play(list[index]);
            }
        }
    }
}
