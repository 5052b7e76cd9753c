//! Chess960 checks, for engines that declare `UCI_Chess960`: start positions in X-FEN and in
//! Shredder-FEN, castling moves received in king-takes-rook notation (the king does not move,
//! the rook does not move, the two swap squares), and castling sent in that notation, in a
//! position where castling is the only legal move (the king stays on g1: king-takes-rook is
//! `g1h1`, a king-to-square writer says `g1g1`).

use super::perft_check::read_divide;
use super::protocol::{bestmove, illegal, ANSWER};
use super::{Check, CheckResult, Context, Failure, Named};
use crate::client::EngineProcess;
use crate::notation::uci::{format_move, parse_move};
use crate::{CastlingMode, Position};
use std::collections::BTreeSet;

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "chess960-positions",
            title: "Chess960: X-FEN and Shredder-FEN, castling received king-takes-rook",
            run: positions,
        },
        Check {
            id: "chess960-castling",
            title: "Chess960: castling sent king-takes-rook",
            run: castling,
        },
    ]
}

/// Scharnagl #0 in X-FEN (outermost rooks: KQkq) and in Shredder-FEN (rook files).
pub const STARTS: [&str; 2] = [
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
];

/// (what, position, the castling move in king-takes-rook notation).
pub const CASTLINGS: [(&str, &str, &str); 3] = [
    (
        "the king does not move",
        "k4r2/8/8/8/8/8/8/6KR w H - 0 1",
        "g1h1",
    ),
    (
        "the rook does not move",
        "4k3/8/8/8/8/8/8/1K1R4 w D - 0 1",
        "b1d1",
    ),
    (
        "king and rook swap squares",
        "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
        "f1g1",
    ),
];

/// Castling is White's only legal move, and the king stays on g1.
pub const ONLY_CASTLING: &str = "k4r2/8/8/8/8/7p/7P/6KR w H - 0 1";

/// A fresh engine in Chess960 mode; or, for an engine without `UCI_Chess960`, the check
/// skipped (failed when the audit requires Chess960).
fn chess960_engine(context: &Context, named: Named) -> Result<EngineProcess, Box<CheckResult>> {
    let Named { id, title } = named;
    if !context.has_option("UCI_Chess960") {
        return Err(Box::new(if context.request.chess960 {
            let failure = Failure::new(
                "no UCI_Chess960 option",
                "`option name UCI_Chess960 type check default false` (--chess960 requires it)",
                "support Chess960 and announce the option",
            );
            CheckResult::fail(id, title, failure, &[])
        } else {
            CheckResult::skip(id, title, "the engine has no UCI_Chess960 option")
        }));
    }
    let mut engine = context
        .start()
        .map_err(|failure| Box::new(CheckResult::fail(id, title, failure, &[])))?;
    engine.send("setoption name UCI_Chess960 value true");
    Ok(engine)
}

/// Our moves of `pos` in king-takes-rook notation.
fn our_moves(pos: &Position) -> BTreeSet<String> {
    pos.legal_moves()
        .iter()
        .map(|&mv| format_move(mv, CastlingMode::Chess960))
        .collect()
}

/// The engine's `go perft 1` move list after `command`, when it has perft.
fn perft_moves(engine: &mut EngineProcess, command: &str) -> Option<BTreeSet<String>> {
    engine.send(command);
    let (moves, _) = read_divide(engine, 1, ANSWER).ok()?;
    Some(moves.into_keys().collect())
}

fn positions(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = match chess960_engine(context, named) {
        Ok(engine) => engine,
        Err(result) => return *result,
    };
    let has_perft = matches!(context.perft, Some(Ok(())));
    let mut cases: Vec<(String, String, Position)> = STARTS
        .iter()
        .map(|fen| {
            (
                format!("start position {fen}"),
                format!("position fen {fen}"),
                Position::from_fen(fen).expect("valid"),
            )
        })
        .collect();
    for (what, fen, castle) in CASTLINGS {
        let pos = Position::from_fen(fen).expect("valid");
        let mv = parse_move(&pos, castle).expect("castling is legal there");
        cases.push((
            format!("castling where {what} ({castle})"),
            format!("position fen {fen} moves {castle}"),
            pos.play(mv),
        ));
    }
    for (what, command, pos) in &cases {
        engine.send(command);
        let answer = match bestmove(&mut engine, "go depth 1", ANSWER) {
            Ok((mv, _)) => mv,
            Err(e) => {
                let failure =
                    Failure::silent(&e, "a bestmove", "answer `go` in Chess960 positions");
                return CheckResult::fail(id, title, failure, engine.transcript());
            }
        };
        if let Some(why) = illegal(pos, &answer) {
            let failure = Failure::new(format!("{what}: {why}"), "a legal move of the position after the castling", "read castling as king-takes-rook (the king's square, then its rook's) when UCI_Chess960 is true");
            return CheckResult::fail(id, title, failure, engine.transcript());
        }
        if has_perft {
            if let Some(theirs) = perft_moves(&mut engine, command) {
                let ours = our_moves(pos);
                if theirs != ours {
                    let missing: Vec<&String> = ours.difference(&theirs).collect();
                    let extra: Vec<&String> = theirs.difference(&ours).collect();
                    let failure = Failure::new(format!("{what}: go perft 1 lacks {missing:?} and lists {extra:?}"), "the legal moves of the position, castling written king-takes-rook", "apply castling moves as the king's square then the rook's, and write them the same way");
                    return CheckResult::fail(id, title, failure, engine.transcript());
                }
            }
        }
    }
    CheckResult::pass(
        id,
        title,
        format!(
            "{} positions{}",
            cases.len(),
            if has_perft {
                ", each also by go perft 1"
            } else {
                ""
            }
        ),
    )
}

fn castling(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = match chess960_engine(context, named) {
        Ok(engine) => engine,
        Err(result) => return *result,
    };
    engine.send(&format!("position fen {ONLY_CASTLING}"));
    match bestmove(&mut engine, "go depth 1", ANSWER) {
        Ok((mv, _)) if mv == "g1h1" => CheckResult::pass(
            id,
            title,
            "g1h1 (king-takes-rook) in a position where castling is the only move",
        ),
        Ok((mv, _)) => {
            let how = if mv == "g1g1" {
                "the king's destination square"
            } else {
                "not castling at all"
            };
            let failure = Failure::new(
                format!("answered '{mv}' ({how})"),
                "'g1h1': castling, the only legal move, written king-takes-rook",
                "in Chess960 mode write castling as the king's square then its rook's square",
            );
            CheckResult::fail(id, title, failure, engine.transcript())
        }
        Err(e) => {
            let failure = Failure::silent(&e, "bestmove g1h1", "answer `go` in Chess960 positions");
            CheckResult::fail(id, title, failure, engine.transcript())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_positions_are_what_they_claim() {
        let pos = Position::from_fen(ONLY_CASTLING).unwrap();
        assert_eq!(our_moves(&pos), BTreeSet::from(["g1h1".to_string()]));
        for (what, fen, castle) in CASTLINGS {
            let pos = Position::from_fen(fen).unwrap();
            assert!(our_moves(&pos).contains(castle), "{what}");
        }
        let [x, shredder] = STARTS.map(|fen| Position::from_fen(fen).unwrap());
        assert_eq!(x, shredder);
        assert_eq!(our_moves(&x).len(), 20);
    }
}
