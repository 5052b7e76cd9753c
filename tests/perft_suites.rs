//! Every position of every perft suite under `tests/data/perft`, checked against its published
//! counts with both generators, within a node budget per position (full depths: the ignored
//! test at the end, run with `cargo test --release -- --ignored`).

mod common;

use common::{all_entries, budget, suite, SUITES};
use shannon::movegen::Generator;
use shannon::perft::{divide, PerftOptions};
use shannon::perft_suite::check_entry;
use shannon::Position;

fn check_file(name: &str, generator: Generator, max_nodes: u64) {
    let entries = suite(name);
    assert!(!entries.is_empty(), "{name} has entries");
    let mut checked = 0;
    for entry in &entries {
        // Every position is checked: at each depth within the budget, or, when even its
        // smallest published count is over it, at that smallest count.
        let smallest = entry.counts.iter().map(|&(_, n)| n).min().unwrap_or(0);
        match check_entry(entry, u32::MAX, max_nodes.max(smallest), generator) {
            Ok(depths) => {
                assert!(!depths.is_empty(), "{name} {}: no count checked", entry.id);
                checked += depths.len();
            }
            Err(e) => panic!("{name} {}: {e}", entry.id),
        }
    }
    println!(
        "{name}: {} positions, {checked} counts, {generator:?}",
        entries.len()
    );
}

#[test]
fn bitboard_generator_standard_suites() {
    for name in &SUITES[..5] {
        check_file(name, Generator::Bitboard, budget(5_000_000));
    }
}

#[test]
fn bitboard_generator_chess960_middlegames() {
    check_file(
        "perft/chess960.perft",
        Generator::Bitboard,
        budget(1_000_000),
    );
}

#[test]
fn bitboard_generator_chess960_start_positions() {
    check_file(
        "perft/chess960_start.epd",
        Generator::Bitboard,
        budget(500_000),
    );
}

#[test]
fn mailbox_generator_standard_suites() {
    for name in &SUITES[..5] {
        check_file(name, Generator::Mailbox0x88, budget(300_000));
    }
}

#[test]
fn mailbox_generator_chess960_suites() {
    for name in &SUITES[5..] {
        check_file(name, Generator::Mailbox0x88, budget(30_000));
    }
}

/// Every count of every file, at full depth, two threads. Hours of work on a slow machine; run
/// it deliberately: `cargo test --release --test perft_suites -- --ignored`.
#[test]
#[ignore]
fn full_depth_every_suite() {
    let options = PerftOptions {
        threads: 2,
        ..PerftOptions::default()
    };
    let started = std::time::Instant::now();
    let mut nodes = 0u64;
    for (name, entry) in all_entries() {
        let pos = Position::from_fen(&entry.fen).unwrap();
        for &(depth, expected) in &entry.counts {
            let counted = divide(&pos, depth, &options, None).unwrap().nodes;
            assert_eq!(counted, expected, "{name} {} depth {depth}", entry.id);
            nodes += counted;
        }
    }
    println!(
        "full depth: {nodes} nodes in {:.0} s",
        started.elapsed().as_secs_f64()
    );
}
