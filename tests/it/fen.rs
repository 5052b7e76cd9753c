//! FEN, X-FEN and Shredder-FEN: round trips over every suite position and random positions, and
//! one test per validation error.

use crate::common;

use crate::common::{all_entries, random_walk};
use proptest::prelude::*;
use shannon::{CastlingMode, Color, FenError, Position, PositionError, Setup, Square};

fn error(fen: &str) -> FenError {
    Position::from_fen(fen).expect_err(fen)
}

#[test]
fn every_suite_position_round_trips_in_both_notations() {
    for (name, entry) in all_entries() {
        let pos = Position::from_fen(&entry.fen).unwrap_or_else(|e| panic!("{name}: {e}"));
        for notation in [CastlingMode::Standard, CastlingMode::Chess960] {
            let written = pos.fen_for(notation);
            let again = Position::from_fen(&written).unwrap();
            assert_eq!(again, pos, "{name} {}: {written}", entry.id);
            assert_eq!(again.fen_for(notation), written);
        }
        // The fields the suite wrote come back verbatim in the notation it used.
        let notation = if entry
            .fen
            .split_whitespace()
            .nth(2)
            .unwrap()
            .chars()
            .all(|c| "KQkq-".contains(c))
        {
            CastlingMode::Standard
        } else {
            CastlingMode::Chess960
        };
        let ours: Vec<String> = pos
            .fen_for(notation)
            .split_whitespace()
            .map(String::from)
            .collect();
        let theirs: Vec<&str> = entry.fen.split_whitespace().collect();
        for (i, field) in theirs.iter().enumerate() {
            assert_eq!(ours[i], *field, "{name} {}: field {i}", entry.id);
        }
    }
}

#[test]
fn missing_counters_default_to_zero_and_one() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 7").unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 7 1");
}

#[test]
fn x_fen_names_an_inner_rook_by_its_file() {
    // Two white rooks on the queen side: the right belongs to the inner one (b1), which X-FEN
    // writes as 'B'; 'Q' would mean the outermost (a1).
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1").unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1").unwrap();
    assert_eq!(pos.shredder_fen(), "4k3/8/8/8/8/8/8/RR2K3 w A - 0 1");
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1");
}

#[test]
fn shredder_and_x_fen_describe_the_same_position() {
    let shredder =
        Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
            .unwrap();
    let x_fen =
        Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9")
            .unwrap();
    assert_eq!(shredder, x_fen);
}

#[test]
fn en_passant_square_is_written_after_every_double_push() {
    let pos = Position::startpos();
    let mv = shannon::notation::uci::parse_move(&pos, "e2e4").unwrap();
    let after = pos.play(mv);
    assert_eq!(
        after.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
}

#[test]
fn field_count() {
    assert!(matches!(
        error("8/8/8/8/8/8/8/8 w"),
        FenError::FieldCount { found: 2, .. }
    ));
    assert!(matches!(error(""), FenError::FieldCount { found: 0, .. }));
    assert!(matches!(
        error("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"),
        FenError::FieldCount { found: 7, .. }
    ));
}

#[test]
fn placement_errors_say_what_is_wrong() {
    let cases = [
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", "7 ranks"),
        ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", "rank 1 has 7 squares"),
        ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", "more than 8 squares"),
        ("4k3/8/8/8/8/8/8/4X3 w - - 0 1", "'X' is neither"),
        ("4k3/8/8/8/8/8/8/4K09 w - - 0 1", "'0' is neither"),
    ];
    for (fen, expected) in cases {
        let e = error(fen);
        assert!(matches!(e, FenError::Placement { .. }), "{fen}: {e:?}");
        let message = e.to_string();
        assert!(message.contains(expected), "{fen}: {message}");
        assert!(message.starts_with("placement field '"), "{message}");
    }
}

#[test]
fn side_to_move() {
    assert_eq!(
        error("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
        FenError::SideToMove("x".into())
    );
    assert_eq!(
        error("4k3/8/8/8/8/8/8/4K3 W - - 0 1").to_string(),
        "side to move field 'W': expected 'w' or 'b'"
    );
}

#[test]
fn castling_errors() {
    let e = error("4k3/8/8/8/8/8/8/R3K2R w KX - 0 1");
    assert!(matches!(e, FenError::Castling { .. }), "{e:?}");
    assert!(
        e.to_string()
            .contains("castling field 'KX': 'X' is not a castling letter"),
        "{e}"
    );
    let impossible = [
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            "'K' needs a white rook on the h side",
        ),
        (
            "4k3/8/8/8/8/8/4K3/R6R w K - 0 1",
            "'K' needs the white king on rank 1",
        ),
        ("4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", "second white right"),
        (
            "4k3/8/8/8/8/8/8/R3K2R w C - 0 1",
            "'C' names a white rook on c1, but there is none",
        ),
        ("4k3/8/8/8/8/8/8/R3K2R w KH - 0 1", "second white right"),
    ];
    for (fen, expected) in impossible {
        let e = error(fen);
        assert!(
            matches!(e, FenError::Illegal(PositionError::Castling { .. })),
            "{fen}: {e:?}"
        );
        assert!(e.to_string().contains(expected), "{fen}: {e}");
    }
}

#[test]
fn en_passant_errors() {
    let e = error("4k3/8/8/3pP3/8/8/8/4K3 w - z9 0 1");
    assert!(matches!(e, FenError::EnPassant { .. }), "{e:?}");
    assert!(e.to_string().contains("is not a square"), "{e}");
    let impossible = [
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1", "must be on rank 6"),
        ("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1", "no black pawn on d5"),
        (
            "4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1",
            "a square is occupied",
        ),
        (
            "4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 1",
            "a square is occupied",
        ),
        ("4k3/8/8/8/3Pp3/8/8/4K3 b - d6 0 1", "must be on rank 3"),
    ];
    for (fen, expected) in impossible {
        let e = error(fen);
        assert!(
            matches!(e, FenError::Illegal(PositionError::EnPassant { .. })),
            "{fen}: {e:?}"
        );
        assert!(e.to_string().contains(expected), "{fen}: {e}");
    }
    // The same square is fine when the pawn could just have moved.
    Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
}

/// Syntax and legality are two kinds of error: a malformed field is a FEN error, a well-formed
/// FEN of an impossible position wraps a `PositionError` (with the same text) and reads as a
/// `Setup`.
#[test]
fn syntax_errors_and_illegal_positions_are_two_kinds() {
    let syntax = error("4k3/8/8/8/8/8/8/4K3 w - - 0 z");
    assert!(matches!(syntax, FenError::FullmoveNumber(_)), "{syntax:?}");
    assert!(std::error::Error::source(&syntax).is_none());
    assert!(Setup::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 z").is_err());

    let two_kings = "4k3/8/8/8/8/8/8/K3K3 w - - 0 1";
    let illegal = error(two_kings);
    let FenError::Illegal(inner) = &illegal else {
        panic!("{illegal:?}");
    };
    assert_eq!(
        *inner,
        PositionError::KingCount {
            color: Color::White,
            count: 2
        }
    );
    assert_eq!(illegal.to_string(), inner.to_string());
    assert_eq!(
        illegal.to_string(),
        "white has 2 kings; each side needs exactly one"
    );
    assert!(std::error::Error::source(&illegal).is_some());
    let setup = Setup::from_fen(two_kings).unwrap();
    assert_eq!(Position::from_setup(&setup), Err(inner.clone()));
}

#[test]
fn counters() {
    assert_eq!(
        error("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
        FenError::HalfmoveClock("x".into())
    );
    assert_eq!(
        error("4k3/8/8/8/8/8/8/4K3 w - - -1 1"),
        FenError::HalfmoveClock("-1".into())
    );
    assert_eq!(
        error("4k3/8/8/8/8/8/8/4K3 w - - 0 y"),
        FenError::FullmoveNumber("y".into())
    );
    assert_eq!(
        error("4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999").to_string(),
        "fullmove number field '99999999999': expected a move number"
    );
}

#[test]
fn king_count() {
    assert_eq!(
        error("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::Illegal(PositionError::KingCount {
            color: Color::Black,
            count: 0
        })
    );
    assert_eq!(
        error("3kk3/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::Illegal(PositionError::KingCount {
            color: Color::Black,
            count: 2
        })
    );
    assert_eq!(
        error("4k3/8/8/8/8/8/8/8 w - - 0 1"),
        FenError::Illegal(PositionError::KingCount {
            color: Color::White,
            count: 0
        })
    );
}

#[test]
fn pawn_on_back_rank() {
    assert_eq!(
        error("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::Illegal(PositionError::PawnOnBackRank(Square::H8))
    );
    assert_eq!(
        error("4k3/8/8/8/8/8/8/p3K3 w - - 0 1"),
        FenError::Illegal(PositionError::PawnOnBackRank(Square::A1))
    );
}

#[test]
fn opponent_in_check() {
    assert_eq!(
        error("4k3/8/8/8/8/8/8/4RK2 w - - 0 1"),
        FenError::Illegal(PositionError::OpponentInCheck(Color::Black))
    );
    assert!(error("4k3/8/8/8/8/8/8/4RK2 w - - 0 1")
        .to_string()
        .contains("black is in check"));
}

#[test]
fn too_many_pieces_and_pawns() {
    // Sixteen is the most a side can have (even if eight of them are knights).
    Position::from_fen("4k3/8/8/8/8/8/PPPPPPPP/NNNNKNNN w - - 0 1").unwrap();
    assert_eq!(
        error("4k3/8/8/8/8/1N6/PPPPPPPP/NNNNKNNN w - - 0 1"),
        FenError::Illegal(PositionError::TooManyPieces {
            color: Color::White,
            count: 17
        })
    );
    assert_eq!(
        error("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"),
        FenError::Illegal(PositionError::TooManyPawns {
            color: Color::White,
            count: 9
        })
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Positions along random games: FEN round trip, make/unmake symmetry and the redundant
    /// parts of the position agreeing after every move.
    #[test]
    fn random_positions_round_trip(seed in any::<u64>(), start in 0usize..960) {
        let starts = common::suite("perft/chess960_start.epd");
        let first = if seed % 2 == 0 { Position::startpos() } else { Position::from_fen(&starts[start].fen).unwrap() };
        for pos in random_walk(&first, seed, 300) {
            prop_assert_eq!(pos.consistency_error(), None);
            for notation in [CastlingMode::Standard, CastlingMode::Chess960] {
                prop_assert_eq!(Position::from_fen(&pos.fen_for(notation)).unwrap(), pos.clone());
            }
            let mut copy = pos.clone();
            for &mv in pos.legal_moves().iter() {
                let undo = copy.make(mv);
                prop_assert_eq!(copy.consistency_error(), None);
                copy.unmake(mv, &undo);
                prop_assert_eq!(&copy, &pos);
            }
        }
    }
}
