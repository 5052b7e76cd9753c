//! The move-generation checks, for engines that answer `go perft N` in Stockfish's format: the
//! perft suites shipped in `tests/data/perft` (standard, Chess960, en passant, special cases,
//! the tricky positions with promotions) and positions from seeded random games (half Chess960),
//! each counted to the deepest depth the level's node budget allows, every disagreement walked
//! down to the first wrong node by `perft-check`'s machinery.

use super::perft_check::{
    check_position, probe_perft, CheckOutcome, CheckPosition, PerftCheckError,
};
use super::{Check, CheckResult, Context, Failure, Level, Named};
use crate::chess960::{scharnagl_back_rank, start_position};
use crate::client::EngineProcess;
use crate::perft::suite::parse_suite;
use crate::{CastlingMode, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

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

const STANDARD: &str = include_str!("../../tests/data/perft/standard.epd");
const EN_PASSANT: &str = include_str!("../../tests/data/perft/en_passant.epd");
const SPECIAL: &str = include_str!("../../tests/data/perft/special_cases.epd");
const TRICKY: &str = include_str!("../../tests/data/perft/tricky.perft");
const CHESS960: &str = include_str!("../../tests/data/perft/chess960.perft");

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
pub fn probe(engine: &mut EngineProcess) -> Result<(), PerftCheckError> {
    probe_perft(engine, Duration::from_secs(10))
}

/// Skip every perft check of an engine without `go perft`.
fn without_perft(context: &Context, id: &'static str, title: &'static str) -> Option<CheckResult> {
    match &context.perft {
        Some(Ok(())) => None,
        Some(Err(why)) => Some(CheckResult::skip(id, title, format!("no go perft: {why}"))),
        None => Some(CheckResult::skip(id, title, "the engine did not start")),
    }
}

/// The deepest a suite's position is counted (the node cap stops most sooner).
const DEEPEST: u32 = 12;

/// The depth every position of a check must be counted to for it to pass; a check whose time
/// runs out sooner is partial.
const COVERED: usize = 2;

/// One position of a check and how far it has been counted.
struct Planned {
    target: CheckPosition,
    /// The node counts its suite lists, by depth (exact; estimates fill the gaps).
    listed: Vec<(u32, u64)>,
    /// The deepest depth to count it to.
    deepest: u32,
    /// Its counts (agreed) at depth 1, 2, ...
    counted: Vec<u64>,
}

impl Planned {
    fn new(target: CheckPosition, listed: Vec<(u32, u64)>, deepest: u32) -> Planned {
        Planned {
            target,
            listed,
            deepest,
            counted: Vec::new(),
        }
    }

    /// The depth to count next, or `None` when it is done: at its deepest, with no move left
    /// to count, or with the next count over `cap` nodes (as listed, or estimated from the
    /// growth of the last two counts).
    fn next_depth(&self, cap: u64) -> Option<u32> {
        let depth = self.counted.len() as u32 + 1;
        if depth > self.deepest || self.counted.last() == Some(&0) {
            return None;
        }
        let listed = self.listed.iter().find(|&&(d, _)| d == depth);
        let expected = listed.map_or_else(
            || match self.counted[..] {
                [] => 0,
                [last] => last.saturating_mul(last),
                [.., before, last] => last.saturating_mul(last) / before.max(1),
            },
            |&(_, n)| n,
        );
        (depth == 1 || expected <= cap).then_some(depth)
    }

    /// Counted to [`COVERED`] depths, or as deep as it goes.
    fn covered(&self, cap: u64) -> bool {
        self.counted.len() >= COVERED || self.next_depth(cap).is_none()
    }
}

/// How deep the positions were counted, where the number reached falls: `all 32 to depth 2,
/// 20 to depth 4, 3 to depth 5`.
fn coverage(planned: &[Planned]) -> String {
    let total = planned.len();
    let reached = |depth: usize| planned.iter().filter(|p| p.counted.len() >= depth).count();
    let deepest = planned.iter().map(|p| p.counted.len()).max().unwrap_or(0);
    let mut parts = Vec::new();
    for depth in 1..=deepest {
        let n = reached(depth);
        if depth < deepest && reached(depth + 1) == n {
            continue;
        }
        parts.push(if n == total {
            format!("all {total} to depth {depth}")
        } else if parts.is_empty() {
            format!("{n} of {total} to depth {depth}")
        } else {
            format!("{n} to depth {depth}")
        });
    }
    if parts.is_empty() {
        return format!("none of {total} counted");
    }
    parts.join(", ")
}

/// Count the positions breadth first (every one at depth 1, then every one at depth 2, ...)
/// until each is done or `time` is up, stopping at the first disagreement: a short time still
/// covers every position shallowly. Not every position to [`COVERED`] depths is partial.
fn count(
    context: &Context,
    named: Named,
    mut planned: Vec<Planned>,
    time: Duration,
) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = match context.start() {
        Ok(engine) => engine,
        Err(failure) => return CheckResult::fail(id, title, failure, &[]),
    };
    // The engine's start is not perft time.
    let started = Instant::now();
    let cap = position_cap(context.request.level);
    let chess960_option = context.has_option("UCI_Chess960");
    let mut mode = CastlingMode::Standard;
    let (mut nodes, mut steps, mut out_of_time) = (0u64, 0, false);
    'depths: for depth in 1.. {
        let due: Vec<usize> = (0..planned.len())
            .filter(|&i| planned[i].next_depth(cap) == Some(depth))
            .collect();
        if due.is_empty() {
            break;
        }
        for i in due {
            if steps > 0 && started.elapsed() > time {
                out_of_time = true;
                break 'depths;
            }
            let target = &planned[i].target;
            if target.castling != mode && chess960_option {
                mode = target.castling;
                engine.send(&format!(
                    "setoption name UCI_Chess960 value {}",
                    mode.is_chess960()
                ));
            }
            engine.record();
            let failure = match check_position(&mut engine, target, depth, PERFT_TIMEOUT) {
                Ok(CheckOutcome::Agree(n)) => {
                    nodes += n;
                    planned[i].counted.push(n);
                    steps += 1;
                    continue;
                }
                Ok(CheckOutcome::Disagree(d)) => Failure::new(
                    format!("{} at depth {depth}: {d}", target.label),
                    "the legal moves of that position and their counts",
                    "fix the move generator for the moves named (shannon perft-check bisects any position the same way)",
                ),
                Err(e) => Failure::new(
                    format!("{}: {e}", target.label),
                    "a go perft answer in Stockfish's format",
                    "answer `go perft N` with `move: count` lines and `Nodes searched: N`",
                ),
            };
            return CheckResult::fail(id, title, failure, engine.transcript());
        }
    }
    let cut = if out_of_time {
        format!(" (its {:.1} s were up)", time.as_secs_f64())
    } else {
        String::new()
    };
    let detail = format!(
        "{}{cut}; {nodes} nodes in {:.1} s",
        coverage(&planned),
        started.elapsed().as_secs_f64()
    );
    if planned.iter().all(|p| p.covered(cap)) {
        CheckResult::pass(id, title, detail)
    } else {
        let detail = format!("not every position to depth {COVERED}: {detail}");
        CheckResult::partial(id, title, detail)
    }
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
    let plays_chess960 = context.has_option("UCI_Chess960");
    let mut positions = Vec::new();
    for entry in entries {
        let Ok(position) = Position::from_fen(&entry.fen) else {
            continue;
        };
        // The Chess960 suite is read in Chess960 notation throughout; elsewhere a position
        // needs it only when its castling rights do (`.perft` files default to Chess960).
        let castling = if chess960_suite {
            entry.castling
        } else {
            position.castling_mode(CastlingMode::Standard)
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
        positions.push(Planned::new(target, entry.counts, DEEPEST));
    }
    count(context, named, positions, share(context, percent))
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

/// How deep the random positions are counted.
fn random_depth(level: Level) -> u32 {
    match level {
        Level::Quick => 4,
        Level::Full => 5,
    }
}

fn random(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    if let Some(skipped) = without_perft(context, id, title) {
        return skipped;
    }
    let level = context.request.level;
    let how_many = match level {
        Level::Quick => 200,
        Level::Full => 500,
    };
    let positions = random_positions(how_many, context.has_option("UCI_Chess960"))
        .into_iter()
        .map(|p| Planned::new(p, Vec::new(), random_depth(level)))
        .collect();
    count(context, named, positions, share(context, 20))
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

    fn planned(listed: Vec<(u32, u64)>, counted: Vec<u64>) -> Planned {
        let target = CheckPosition {
            label: "p".into(),
            position: Position::startpos(),
            castling: CastlingMode::Standard,
        };
        Planned {
            counted,
            ..Planned::new(target, listed, DEEPEST)
        }
    }

    #[test]
    fn a_position_is_counted_deeper_while_the_next_count_fits_the_cap() {
        // Depth 1 always; then as listed, else estimated from the last two counts' growth.
        assert_eq!(planned(vec![(1, 50)], vec![]).next_depth(10), Some(1));
        assert_eq!(planned(vec![], vec![20]).next_depth(400), Some(2));
        assert_eq!(planned(vec![], vec![20]).next_depth(399), None);
        assert_eq!(planned(vec![(2, 500)], vec![20]).next_depth(400), None);
        assert_eq!(planned(vec![], vec![20, 400]).next_depth(8000), Some(3));
        assert_eq!(planned(vec![], vec![20, 400]).next_depth(7999), None);
        // No move to count, or at its deepest: done (and covered).
        assert_eq!(planned(vec![], vec![0]).next_depth(u64::MAX), None);
        assert!(planned(vec![], vec![0]).covered(u64::MAX));
        let deep = planned(vec![], vec![1; DEEPEST as usize]);
        assert_eq!(deep.next_depth(u64::MAX), None);
        assert!(!planned(vec![], vec![20]).covered(400));
    }

    #[test]
    fn coverage_says_where_the_number_reached_falls() {
        let at = |counts: &[usize]| -> Vec<Planned> {
            counts
                .iter()
                .map(|&n| planned(vec![], vec![1; n]))
                .collect()
        };
        assert_eq!(
            coverage(&at(&[2, 2, 4, 5])),
            "all 4 to depth 2, 2 to depth 4, 1 to depth 5"
        );
        assert_eq!(coverage(&at(&[1, 0, 0])), "1 of 3 to depth 1");
        assert_eq!(coverage(&at(&[0, 0])), "none of 2 counted");
    }
}
