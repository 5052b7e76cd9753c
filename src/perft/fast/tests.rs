//! The counting path against the position-based perft (make/unmake, the bitboard generator):
//! every position of every suite under `tests/data/perft`, and positions reached from them by
//! seeded random moves, at small depths; and the divide of a few positions.

use crate::perft::fast::Instructions;
use crate::perft::suite::parse_suite;
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
