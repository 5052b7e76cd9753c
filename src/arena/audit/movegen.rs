//! The move-generation checks, for engines that answer `go perft N` in Stockfish's format: the
//! perft suites shipped in `tests/data/perft` (standard, Chess960, en passant, special cases,
//! the tricky positions with promotions) and positions from seeded random games (half Chess960),
//! each counted to the deepest depth the level's node budget allows, every disagreement walked
//! down to the first wrong node by `perft-check`'s machinery.

use super::{Check, CheckResult, Context, Failure, Level, Named};
use crate::arena::client::EngineProcess;
use crate::arena::openings::castling_for;
use crate::arena::perft_check::{check_position, probe_perft, CheckOutcome, CheckPosition};
use crate::chess960::{scharnagl_back_rank, start_position};
use crate::perft::suite::parse_suite;
use crate::{CastlingMode, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "perft-standard",
            title: "perft: standard suite",
            run: |c, n| suite(c, n, STANDARD, 25),
        },
        Check {
            id: "perft-en-passant",
            title: "perft: en passant suite",
            run: |c, n| suite(c, n, EN_PASSANT, 5),
        },
        Check {
            id: "perft-special",
            title: "perft: special cases (pins, checks, castling)",
            run: |c, n| suite(c, n, SPECIAL, 15),
        },
        Check {
            id: "perft-promotions",
            title: "perft: promotions and tricky positions",
            run: |c, n| suite(c, n, TRICKY, 15),
        },
        Check {
            id: "perft-chess960",
            title: "perft: Chess960 suite",
            run: |c, n| suite(c, n, CHESS960, 20),
        },
        Check {
            id: "perft-random",
            title: "perft: positions from seeded random games",
            run: random,
        },
    ]
}

const STANDARD: &str = include_str!("../../../tests/data/perft/standard.epd");
const EN_PASSANT: &str = include_str!("../../../tests/data/perft/en_passant.epd");
const SPECIAL: &str = include_str!("../../../tests/data/perft/special_cases.epd");
const TRICKY: &str = include_str!("../../../tests/data/perft/tricky.perft");
const CHESS960: &str = include_str!("../../../tests/data/perft/chess960.perft");

/// How long one `go perft` may take.
const PERFT_TIMEOUT: Duration = Duration::from_secs(120);

/// The most nodes one position is counted to.
fn position_cap(level: Level) -> u64 {
    match level {
        Level::Quick => 20_000_000,
        Level::Full => 200_000_000,
    }
}

/// A check's share of the audit's perft time, in percent.
fn share(context: &Context, percent: u32) -> Duration {
    context.request.perft_budget() * percent / 100
}

/// Probe `go perft 1` on a started engine: `Err` with the reason when it has no perft.
pub fn probe(engine: &mut EngineProcess) -> Result<(), String> {
    probe_perft(engine, Duration::from_secs(10)).map_err(|e| e.to_string())
}

/// Skip every perft check of an engine without `go perft`.
fn without_perft(context: &Context, id: &'static str, title: &'static str) -> Option<CheckResult> {
    match &context.perft {
        Some(Ok(())) => None,
        Some(Err(why)) => Some(CheckResult::skip(id, title, format!("no go perft: {why}"))),
        None => Some(CheckResult::skip(id, title, "the engine did not start")),
    }
}

/// Count `positions` (each with its depth), stopping at the first disagreement.
fn count(
    context: &Context,
    id: &'static str,
    title: &'static str,
    positions: &[(CheckPosition, u32)],
    time: Duration,
) -> CheckResult {
    let started = std::time::Instant::now();
    let mut counted = positions.len();
    let mut engine = match context.start() {
        Ok(engine) => engine,
        Err(failure) => return CheckResult::fail(id, title, failure, &[]),
    };
    let chess960_option = context.has_option("UCI_Chess960");
    let mut mode = CastlingMode::Standard;
    let mut nodes = 0u64;
    for (index, (target, depth)) in positions.iter().enumerate() {
        if index > 0 && started.elapsed() > time {
            counted = index;
            break;
        }
        if target.castling != mode && chess960_option {
            mode = target.castling;
            engine.send(&format!(
                "setoption name UCI_Chess960 value {}",
                mode.is_chess960()
            ));
        }
        engine.record();
        match check_position(&mut engine, target, *depth, PERFT_TIMEOUT) {
            Ok(CheckOutcome::Agree(n)) => nodes += n,
            Ok(CheckOutcome::Disagree(d)) => {
                let failure = Failure::new(
                    format!("{} at depth {depth}: {d}", target.label),
                    "the legal moves of that position and their counts",
                    "fix the move generator for the moves named (shannon perft-check bisects any position the same way)",
                );
                return CheckResult::fail(id, title, failure, engine.transcript());
            }
            Err(e) => {
                let failure = Failure::new(
                    format!("{}: {e}", target.label),
                    "a go perft answer in Stockfish's format",
                    "answer `go perft N` with `move: count` lines and `Nodes searched: N`",
                );
                return CheckResult::fail(id, title, failure, engine.transcript());
            }
        }
    }
    let cut = if counted < positions.len() {
        format!(" of {} (its {} s were up)", positions.len(), time.as_secs())
    } else {
        String::new()
    };
    CheckResult::pass(
        id,
        title,
        format!(
            "{counted} positions{cut}, {nodes} nodes in {:.1} s",
            started.elapsed().as_secs_f64()
        ),
    )
}

fn suite(context: &Context, named: Named, text: &str, percent: u32) -> CheckResult {
    let Named { id, title } = named;
    if let Some(skipped) = without_perft(context, id, title) {
        return skipped;
    }
    let entries = parse_suite(text).expect("the shipped suites parse");
    let chess960_suite = text == CHESS960;
    if chess960_suite && !context.has_option("UCI_Chess960") {
        return CheckResult::skip(id, title, "the engine has no UCI_Chess960 option");
    }
    let cap = position_cap(context.request.level);
    let plays_chess960 = context.has_option("UCI_Chess960");
    let mut positions = Vec::new();
    for entry in entries {
        let Ok(position) = Position::from_fen(&entry.fen) else {
            continue;
        };
        let deepest = entry
            .counts
            .iter()
            .filter(|&&(_, n)| n <= cap)
            .max_by_key(|&&(d, _)| d);
        let Some(&(depth, _)) = deepest.or(entry.counts.first()) else {
            continue;
        };
        // The Chess960 suite is read in Chess960 notation throughout; elsewhere a position
        // needs it only when its castling rights do (`.perft` files default to Chess960).
        let castling = if chess960_suite {
            entry.castling
        } else {
            castling_for(&position, CastlingMode::Standard)
        };
        // An engine without Chess960 is not asked about positions that need it.
        if castling.is_chess960() && !plays_chess960 {
            continue;
        }
        let target = CheckPosition {
            label: entry.id.clone(),
            position,
            castling,
        };
        positions.push((target, depth));
    }
    count(context, id, title, &positions, share(context, percent))
}

/// Positions of seeded random games: half from the standard start, half (when the engine
/// plays Chess960) from a random Chess960 start, 0 to 80 random plies in.
fn random_positions(count: usize, chess960: bool) -> Vec<CheckPosition> {
    let mut rng = SmallRng::seed_from_u64(1950);
    let mut positions = Vec::new();
    while positions.len() < count {
        let fischer = chess960 && positions.len() % 2 == 1;
        let (mut pos, castling) = if fischer {
            let number = rng.random_range(0..960);
            let rank = scharnagl_back_rank(number).expect("0..960");
            (start_position(&rank), CastlingMode::Chess960)
        } else {
            (Position::startpos(), CastlingMode::Standard)
        };
        let plies = rng.random_range(0..80);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            pos = pos.play(mv);
        }
        if pos.legal_moves().is_empty() {
            continue;
        }
        let label = format!(
            "random position {} ({})",
            positions.len() + 1,
            pos.fen_for(castling)
        );
        positions.push(CheckPosition {
            label,
            position: pos,
            castling,
        });
    }
    positions
}

fn random(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    if let Some(skipped) = without_perft(context, id, title) {
        return skipped;
    }
    let (count_, depth) = match context.request.level {
        Level::Quick => (200, 4),
        Level::Full => (500, 5),
    };
    let positions: Vec<(CheckPosition, u32)> =
        random_positions(count_, context.has_option("UCI_Chess960"))
            .into_iter()
            .map(|p| (p, depth))
            .collect();
    count(context, id, title, &positions, share(context, 20))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_positions_are_seeded_and_half_chess960() {
        let a = random_positions(20, true);
        let b = random_positions(20, true);
        assert_eq!(
            a.iter().map(|p| p.label.clone()).collect::<Vec<_>>(),
            b.iter().map(|p| p.label.clone()).collect::<Vec<_>>()
        );
        assert_eq!(a.iter().filter(|p| p.castling.is_chess960()).count(), 10);
        for suite in [STANDARD, EN_PASSANT, SPECIAL, TRICKY, CHESS960] {
            assert!(!parse_suite(suite).unwrap().is_empty());
        }
    }
}
