//! Shannon's experiment, exactly: the probability that a uniformly random game (each legal move
//! chosen with probability 1/n) ends in checkmate or stalemate at ply k, and how many games do
//! (the counts of OEIS A079485 for checkmate from the start position).
//!
//! **Why this is exact.** Under FIDE's automatic rules a game ends besides mate and stalemate
//! only by fivefold repetition, the 75-move rule or a dead position. Up to the ply given by
//! [`rule_bound`] none of these can fire, so the probability of ending at ply k depends only on
//! the position and the plies left, and a memo table keyed by the two gives each subtree's value
//! once ([`MemoTable`], keyed by the whole board, so no collision can change a result). Which
//! rules `shannon random-games --rules claims` adds (threefold repetition, the 50-move rule) can
//! fire earlier (threefold at ply 8): the values here are FIDE's automatic rules'.
//!
//! **Arithmetic.** Each probability is computed in 128-bit fixed point ([`Fixed`], 127 fraction
//! bits, always rounded down): one level of the tree averages its children's values and rounds
//! down once, and the last level divides a count exactly (one rounding), so the value for ply k
//! is below the true one by less than k units of 2^-127 ([`Bounded`]); only the decimal digits
//! the whole interval shares are printed. Where asked ([`ExactOptions::fractions`]), the same
//! walk runs again with exact fractions.
//!
//! **Split and merge.** A deep run can be cut by the distinct positions at a given ply
//! ([`frontier`]): each share computes its positions' values ([`frontier_values`]), and
//! [`exact_with_frontier`] redoes the plies above from them with the same arithmetic, so a
//! merged result is bit for bit the one a single run gives.

mod cache;
mod fixed;
mod leaf;
mod memo;
mod quiet;
mod reference;
#[cfg(test)]
mod tests;
mod walk;

pub use cache::ENTRY_BYTES;
pub use fixed::{Bounded, Fixed, FRACTION_BITS};
pub use memo::{BoardId, MemoTable};
use reference::Walker;

use crate::{Color, PieceKind, Position};
use num_rational::BigRational;
use num_traits::Zero;
use std::collections::HashMap;
use std::fmt;

/// The deepest ply asked for at all (the recursion depth; far past anything computable).
pub const MAX_EXACT_PLIES: u32 = 64;

/// The games that end exactly `d` plies below a position: counts and probabilities.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ends<W> {
    /// Games (move paths) ending in checkmate.
    pub mates: u64,
    /// Games ending in stalemate.
    pub stalemates: u64,
    /// Probability that a random game from here ends in checkmate there.
    pub p_mate: W,
    /// Probability that it ends in stalemate there.
    pub p_stalemate: W,
}

impl<W: Weight> Ends<W> {
    fn none() -> Ends<W> {
        Ends {
            mates: 0,
            stalemates: 0,
            p_mate: W::ratio(0, 1),
            p_stalemate: W::ratio(0, 1),
        }
    }
}

/// A number type for the probabilities: 128-bit fixed point or exact fractions.
pub trait Weight: Clone {
    /// The running sum of a node's children.
    type Sum;
    /// `m / n`.
    fn ratio(m: u64, n: u64) -> Self;
    /// An empty sum.
    fn start() -> Self::Sum;
    /// Adds a child's value to the sum of a node with `n` children.
    fn add(sum: &mut Self::Sum, child: &Self, n: u64);
    /// The sum divided by `n`.
    fn mean(sum: Self::Sum, n: u64) -> Self;
}

impl Weight for Fixed {
    /// Quotients and remainders by `n`, kept apart so that the sum never overflows and the
    /// division rounds once.
    type Sum = (u128, u128);
    fn ratio(m: u64, n: u64) -> Fixed {
        Fixed::ratio(m, n)
    }
    fn start() -> (u128, u128) {
        (0, 0)
    }
    fn add(sum: &mut (u128, u128), child: &Fixed, n: u64) {
        sum.0 += child.0 / u128::from(n);
        sum.1 += child.0 % u128::from(n);
    }
    fn mean(sum: (u128, u128), n: u64) -> Fixed {
        Fixed(sum.0 + sum.1 / u128::from(n))
    }
}

impl Weight for BigRational {
    type Sum = BigRational;
    fn ratio(m: u64, n: u64) -> BigRational {
        BigRational::new(m.into(), n.into())
    }
    fn start() -> BigRational {
        BigRational::zero()
    }
    fn add(sum: &mut BigRational, child: &BigRational, _n: u64) {
        *sum += child;
    }
    fn mean(sum: BigRational, n: u64) -> BigRational {
        sum / BigRational::from_integer(n.into())
    }
}

/// The rule that limits how deep the values are exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitingRule {
    /// Fivefold repetition: a position's fifth occurrence needs 16 plies (each return to a
    /// position takes at least 4).
    Fivefold,
    /// The 75-move rule, from the position's halfmove clock.
    SeventyFiveMoves,
    /// A dead position by insufficient material, reachable only after this many captures and
    /// promotions (see [`rule_bound`]).
    InsufficientMaterial,
}

impl fmt::Display for LimitingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LimitingRule::Fivefold => "fivefold repetition",
            LimitingRule::SeventyFiveMoves => "the 75-move rule",
            LimitingRule::InsufficientMaterial => "insufficient material",
        })
    }
}

/// The last ply up to which no rule but checkmate and stalemate can end a game from `pos`
/// (taken as the first position of the game), and the rule that sets it:
/// - fivefold repetition: ply 16 (occurrences at plies 0, 4, 8, 12, 16 at the earliest);
/// - the 75-move rule: ply 150 minus the halfmove clock (a mate on that move stands);
/// - insufficient material: every pawn, queen and rook, and all knights but one, must go (be
///   captured, or for a pawn, promote); one ply captures at most one piece, and a pawn that
///   promotes makes at least as many moves as it has squares to go (a double step from its
///   first rank). With `p` pawns promoting (those closest), at least `max(gone - p, moves of
///   the p)` plies pass; the bound is the least over `p`, and the game ends there at the
///   earliest; the values are taken as exact to one ply before it. From the start position
///   that is ply 21 (4 pawns promoting in 20 moves, 21 captures), so fivefold's 16 decides.
pub fn rule_bound(pos: &Position) -> (u32, LimitingRule) {
    let mut bound = (16, LimitingRule::Fivefold);
    let clock_limit = 150u32.saturating_sub(pos.halfmove_clock());
    if clock_limit < bound.0 {
        bound = (clock_limit, LimitingRule::SeventyFiveMoves);
    }
    let count = |kind: PieceKind| pos.kind_bb(kind).count();
    let gone = count(PieceKind::Pawn)
        + count(PieceKind::Queen)
        + count(PieceKind::Rook)
        + count(PieceKind::Knight).saturating_sub(1);
    let mut distances: Vec<u32> = Vec::new();
    for color in Color::ALL {
        for sq in pos.pieces(color, PieceKind::Pawn) {
            let rank = sq.rank().index() as u32;
            let relative = if color == Color::White {
                rank
            } else {
                7 - rank
            };
            distances.push(7 - relative - u32::from(relative == 1));
        }
    }
    distances.sort_unstable();
    let mut moves = 0;
    let mut dead = gone;
    for (p, d) in distances.iter().enumerate() {
        moves += d;
        dead = dead.min((gone - (p as u32 + 1)).max(moves));
    }
    // The game can end on the ply where the material first falls short; before it, no.
    let dead_limit = dead.saturating_sub(1);
    if dead_limit < bound.0 {
        bound = (dead_limit, LimitingRule::InsufficientMaterial);
    }
    bound
}

/// What to compute.
#[derive(Debug, Clone, Default)]
pub struct ExactOptions {
    /// Plies 1 to this.
    pub plies: u32,
    /// Cache size in MiB (0: none; only the time changes).
    pub hash_mb: usize,
    /// Also compute exact fractions (a second walk, with big integers: for small plies).
    pub fractions: bool,
    /// Threads of the fast walk (0 or 1: the calling thread); the values do not change.
    pub threads: usize,
    /// Walk with the reference walk (make and unmake on the full position, a memo keyed by the
    /// whole board) instead of the fast one: the independent check, much slower.
    pub reference: bool,
}

/// The figures of one ply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlyResult {
    /// The ply, from 1.
    pub ply: u32,
    /// Games ending in checkmate at this ply.
    pub mates: u64,
    /// Games ending in stalemate at this ply.
    pub stalemates: u64,
    /// P(checkmate at this ply).
    pub p_mate: Bounded,
    /// P(stalemate at this ply).
    pub p_stalemate: Bounded,
    /// P(checkmate at this ply or before).
    pub cumulative_mate: Bounded,
    /// P(stalemate at this ply or before).
    pub cumulative_stalemate: Bounded,
    /// The exact fractions (checkmate, stalemate), when computed.
    pub fractions: Option<(BigRational, BigRational)>,
}

/// The result of [`exact`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactReport {
    /// One entry per ply, from 1.
    pub plies: Vec<PlyResult>,
    /// The ply to which the values are exact under FIDE's automatic rules, and why.
    pub bound: (u32, LimitingRule),
}

/// Why a computation cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExactError {
    /// No plies asked for.
    NoPlies,
    /// Another rule could end a game at or before the last ply asked for.
    BeyondRules {
        /// Plies asked for.
        plies: u32,
        /// The last exact ply.
        bound: u32,
        /// The rule.
        rule: LimitingRule,
    },
    /// A split at or beyond the plies asked for.
    SplitTooDeep {
        /// The split ply.
        split: u32,
        /// Plies asked for.
        plies: u32,
    },
    /// A frontier position whose values are missing (a share not given).
    MissingFrontier {
        /// How many positions have no values.
        missing: usize,
    },
    /// Frontier values for fewer plies than needed.
    ShortFrontier {
        /// Plies needed below the frontier.
        needed: u32,
        /// Plies given.
        given: usize,
    },
}

impl fmt::Display for ExactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExactError::NoPlies => f.write_str("at least one ply is needed"),
            ExactError::BeyondRules { plies, bound, rule } => write!(
                f,
                "{plies} plies is beyond the exact bound: from this position {rule} could end a \
                 game after ply {bound}, so at most {bound} plies are computed exactly"
            ),
            ExactError::SplitTooDeep { split, plies } => write!(
                f,
                "the split ply {split} must be between 1 and {} (below the {plies} plies \
                 computed)",
                plies.saturating_sub(1)
            ),
            ExactError::MissingFrontier { missing } => write!(
                f,
                "{missing} positions of the split ply have no values: a share is missing"
            ),
            ExactError::ShortFrontier { needed, given } => write!(
                f,
                "the shares hold values for {given} plies below the split, {needed} are needed"
            ),
        }
    }
}

impl std::error::Error for ExactError {}

/// The values of the positions at the split ply, by position: entry `d - 1` for `d` plies
/// below.
pub type FrontierValues = Frontier<Fixed>;

/// Values by position at the split ply, in any number type.
pub type Frontier<W> = HashMap<BoardId, Vec<Ends<W>>>;

/// The figures for plies 1 to `options.plies` from `pos`, refused beyond [`rule_bound`].
///
/// ```
/// use shannon::perft::exact::{exact, ExactOptions};
/// use shannon::Position;
///
/// let options = ExactOptions { plies: 4, hash_mb: 1, fractions: true, ..Default::default() };
/// let report = exact(&Position::startpos(), &options).unwrap();
/// // Eight fool's mates at ply 4 (1. f3 e5 2. g4 Qh4#, and the like).
/// assert_eq!(report.plies[3].mates, 8);
/// let (p_mate, _) = report.plies[3].fractions.clone().unwrap();
/// assert_eq!(p_mate.to_string(), "32183/989520000");
/// ```
pub fn exact(pos: &Position, options: &ExactOptions) -> Result<ExactReport, ExactError> {
    run(pos, options, None)
}

/// [`exact`] with the values of the positions at ply `split` given (from [`frontier_values`]
/// over every share of [`frontier`]); fractions are not computed.
pub fn exact_with_frontier(
    pos: &Position,
    options: &ExactOptions,
    split: u32,
    values: &FrontierValues,
) -> Result<ExactReport, ExactError> {
    run(pos, options, Some((values, split)))
}

fn run(
    pos: &Position,
    options: &ExactOptions,
    frontier: Option<(&FrontierValues, u32)>,
) -> Result<ExactReport, ExactError> {
    let plies = options.plies;
    let bound = check_plies(pos, plies, frontier.map(|(_, split)| split))?;
    if let Some((values, split)) = frontier {
        let positions = self::frontier(pos, split);
        let missing = positions
            .iter()
            .filter(|p| !values.contains_key(&BoardId::of(p)))
            .count();
        if missing > 0 {
            return Err(ExactError::MissingFrontier { missing });
        }
        let needed = plies - split;
        if let Some(short) = values.values().find(|v| v.len() < needed as usize) {
            return Err(ExactError::ShortFrontier {
                needed,
                given: short.len(),
            });
        }
    }
    let mut root = pos.clone();
    let fixed: Vec<Ends<Fixed>> = if options.reference || frontier.is_some() {
        // The top plies of a merge are few: the reference walk reads the shares by board.
        let mut walker = Walker {
            table: MemoTable::new(options.hash_mb),
            frontier,
        };
        (1..=plies).map(|k| walker.ends(&mut root, k, 0)).collect()
    } else {
        let cache = cache::Cache::new(options.hash_mb);
        (1..=plies)
            .map(|k| {
                let started = std::time::Instant::now();
                let ends = walk::fast_ends(pos, k, cache.as_ref(), options.threads);
                log::info!(
                    "ply {k}: {} mates, {} stalemates, {:.1} s",
                    ends.mates,
                    ends.stalemates,
                    started.elapsed().as_secs_f64()
                );
                ends
            })
            .collect()
    };
    let fractions: Option<Vec<Ends<BigRational>>> =
        (options.fractions && frontier.is_none()).then(|| {
            let mut walker = Walker::<BigRational> {
                table: MemoTable::new(options.hash_mb),
                frontier: None,
            };
            (1..=plies).map(|k| walker.ends(&mut root, k, 0)).collect()
        });
    let mut results = Vec::new();
    let zero = Bounded {
        low: Fixed(0),
        ulps: 0,
    };
    let (mut cumulative_mate, mut cumulative_stalemate) = (zero, zero);
    for (i, ends) in fixed.iter().enumerate() {
        let ply = i as u32 + 1;
        // Ply k's value: k roundings down, each under one unit; an exact zero stays exact.
        let bounded = |v: Fixed, count: u64| Bounded {
            low: v,
            ulps: if count == 0 { 0 } else { u128::from(ply) },
        };
        let p_mate = bounded(ends.p_mate, ends.mates);
        let p_stalemate = bounded(ends.p_stalemate, ends.stalemates);
        cumulative_mate = cumulative_mate.plus(p_mate);
        cumulative_stalemate = cumulative_stalemate.plus(p_stalemate);
        results.push(PlyResult {
            ply,
            mates: ends.mates,
            stalemates: ends.stalemates,
            p_mate,
            p_stalemate,
            cumulative_mate,
            cumulative_stalemate,
            fractions: fractions
                .as_ref()
                .map(|f| (f[i].p_mate.clone(), f[i].p_stalemate.clone())),
        });
    }
    Ok(ExactReport {
        plies: results,
        bound,
    })
}

/// Whether plies 1 to `plies` from `pos` can be computed, split at ply `split` when one is
/// given: at least one ply, none beyond [`rule_bound`] (nor [`MAX_EXACT_PLIES`]), the split
/// between 1 and `plies - 1`. The bound and its rule. [`exact`] and [`exact_with_frontier`]
/// check it first; a share of a split run checks it before any work.
pub fn check_plies(
    pos: &Position,
    plies: u32,
    split: Option<u32>,
) -> Result<(u32, LimitingRule), ExactError> {
    if plies == 0 {
        return Err(ExactError::NoPlies);
    }
    let (bound, rule) = rule_bound(pos);
    if plies > bound.min(MAX_EXACT_PLIES) {
        return Err(ExactError::BeyondRules {
            plies,
            bound: bound.min(MAX_EXACT_PLIES),
            rule,
        });
    }
    if let Some(split) = split {
        if split == 0 || split >= plies {
            return Err(ExactError::SplitTooDeep { split, plies });
        }
    }
    Ok((bound, rule))
}

/// The distinct positions `split` plies below `pos`, in the order a walk of the legal moves in
/// generation order first meets them: the units a split run shares out.
pub fn frontier(pos: &Position, split: u32) -> Vec<Position> {
    let mut seen = HashMap::new();
    let mut out = Vec::new();
    let mut level = vec![pos.clone()];
    for _ in 0..split {
        let mut next = Vec::new();
        seen.clear();
        for p in &level {
            for &mv in p.legal_moves().iter() {
                let child = p.play(mv);
                if seen.insert(BoardId::of(&child), ()).is_none() {
                    next.push(child);
                }
            }
        }
        level = next;
    }
    out.extend(level);
    out
}

/// The values of `positions` for 1 to `plies` plies below each (entry `d - 1` for `d`), on
/// the fast walk with one cache of `hash_mb` MiB for them all and `threads` threads.
pub fn frontier_values(
    positions: &[Position],
    plies: u32,
    hash_mb: usize,
    threads: usize,
) -> Vec<Vec<Ends<Fixed>>> {
    let cache = cache::Cache::new(hash_mb);
    positions
        .iter()
        .map(|p| {
            (1..=plies)
                .map(|d| walk::fast_ends(p, d, cache.as_ref(), threads))
                .collect()
        })
        .collect()
}
