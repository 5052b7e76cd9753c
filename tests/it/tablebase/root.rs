//! Fathom's root probe (`Tablebase::probe_root`, cutechess-cli's tablebase adjudication) on the
//! positions of cutechess-cli's own test of it (`projects/lib/tests/tb/tst_tb.cpp`: the FEN,
//! the result it adjudicates and the distance to zeroing; its one 5-man position left out), and
//! on the same positions deeper into the fifty moves.

use super::tables;
use shannon::tablebase::{Dtz, ProbeError, RootProbe, Tablebase, Wdl};
use shannon::Position;

/// cutechess-cli's cases: FEN, result (`1-0`, `0-1`, `1/2-1/2`) and |DTZ|.
const CUTECHESS_CASES: [(&str, &str, i32); 11] = [
    ("7k/8/8/8/5KP1/8/8/8 w - - 0 1", "1-0", 7),
    ("7k/8/8/6P1/5K2/8/8/8 w - - 0 1", "1/2-1/2", 0),
    ("8/2k5/8/6N1/5K2/1r6/8/8 w - - 0 1", "1/2-1/2", 0),
    ("1n6/8/8/8/8/8/6R1/2K1k3 w - - 0 1", "1-0", 48),
    ("3n4/8/8/8/7R/8/8/2K1k3 w - - 0 1", "1-0", 48),
    ("8/8/3n4/8/8/8/4R3/2K2k2 w - - 0 1", "1-0", 44),
    ("8/8/7R/n7/8/8/8/2K2k2 w - - 0 1", "1-0", 44),
    ("4n3/8/8/8/7R/8/8/3K1k2 w - - 0 1", "1-0", 46),
    ("2B5/8/8/8/8/2K2k2/6p1/8 b - - 0 1", "0-1", 1),
    ("8/B7/8/8/8/2K2k2/6p1/8 b - - 0 1", "1/2-1/2", 0),
    ("2K4N/8/8/8/7p/5k2/8/8 w - - 0 1", "0-1", 4),
];

/// The result cutechess-cli writes for a root probe of a position with `mover` to move,
/// counting a cursed win and a blessed loss as draws (its default).
fn result(probe: RootProbe, white_to_move: bool) -> &'static str {
    let wins = |white: bool| if white { "1-0" } else { "0-1" };
    match probe {
        RootProbe::Checkmate => wins(!white_to_move),
        RootProbe::Stalemate => "1/2-1/2",
        RootProbe::Value { wdl, .. } => match wdl {
            Wdl::Win => wins(white_to_move),
            Wdl::Loss => wins(!white_to_move),
            _ => "1/2-1/2",
        },
    }
}

fn open() -> Option<Tablebase> {
    Some(Tablebase::open(&[tables()?]).unwrap())
}

#[test]
fn cutechess_s_own_cases_give_its_results_and_distances() {
    let Some(tables) = open() else {
        return;
    };
    for (fen, expected, distance) in CUTECHESS_CASES {
        let pos = Position::from_fen(fen).unwrap();
        let probe = tables
            .probe_root(&pos)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        let white = fen.contains(" w ");
        assert_eq!(result(probe, white), expected, "{fen}: {probe:?}");
        let RootProbe::Value { dtz, .. } = probe else {
            panic!("{fen}: {probe:?}");
        };
        assert_eq!(dtz.plies().abs(), distance, "{fen}");
    }
    // The start position has castling rights: no probe, as cutechess-cli's `*`.
    let start = Position::startpos();
    assert!(matches!(
        tables.probe_root(&start),
        Err(ProbeError::CastlingRights)
    ));
}

/// A win 48 plies from zeroing is a win with the counter at 52, a cursed win (drawn by the
/// fifty-move rule) at 53; a loss the same, from the loser's side.
#[test]
fn the_fifty_move_counter_turns_a_long_win_into_a_cursed_one() {
    let Some(tables) = open() else {
        return;
    };
    for (counter, wdl) in [(0, Wdl::Win), (52, Wdl::Win), (53, Wdl::CursedWin)] {
        let fen = format!("1n6/8/8/8/8/8/6R1/2K1k3 w - - {counter} 40");
        let pos = Position::from_fen(&fen).unwrap();
        let probe = tables.probe_root(&pos).unwrap();
        assert_eq!(
            probe,
            RootProbe::Value {
                dtz: Dtz::new(48),
                wdl
            },
            "{fen}"
        );
    }
    let lost = Position::from_fen("2K4N/8/8/8/7p/5k2/8/8 w - - 97 80").unwrap();
    let probe = tables.probe_root(&lost).unwrap();
    assert_eq!(
        probe,
        RootProbe::Value {
            dtz: Dtz::new(-4),
            wdl: Wdl::BlessedLoss
        }
    );
}

/// Checkmate and stalemate on the board are the root probe's own answers; a position of five
/// pieces is answered when a capture into the tables decides every line, and refused when a
/// line needs a 5-man table.
#[test]
fn mate_stalemate_and_positions_beyond_the_tables() {
    let Some(tables) = open() else {
        return;
    };
    let probe = |fen: &str| tables.probe_root(&Position::from_fen(fen).unwrap());
    assert!(matches!(
        probe("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"),
        Ok(RootProbe::Checkmate)
    ));
    assert!(matches!(
        probe("7k/8/6QK/8/8/8/8/8 b - - 0 1"),
        Ok(RootProbe::Stalemate)
    ));
    // KRRvKR: a quiet rook move needs the 5-man table.
    assert!(matches!(
        probe("4k3/8/8/8/8/8/r7/RR2K3 w - - 0 1"),
        Err(ProbeError::MissingTable { .. })
    ));
}
