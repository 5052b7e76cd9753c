//! `shannon bench`: speed figures that are printed, never asserted (machines are shared and
//! noisy; compare against a peer measured in the same run, see `benches/perft.rs`).

use super::per_second;
use crate::game::Game;
use crate::perft::{divide, PerftOptions};
use crate::Position;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::io::{self, Write};
use std::time::Instant;

/// Kiwipete, the classic perft stress position.
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The positions `bench perft` measures: (name, FEN, depth, expected nodes).
pub const PERFT_BENCH: [(&str, &str, u32, u64); 2] = [
    ("startpos", crate::STARTPOS_FEN, 6, 119_060_324),
    ("kiwipete", KIWIPETE, 5, 193_690_690),
];

/// Run the perft benchmark: nodes per second on each position, single thread by default.
/// Returns false if a count was wrong (a benchmark of a wrong generator means nothing).
pub fn run_perft_bench(options: &PerftOptions, out: &mut impl Write) -> io::Result<bool> {
    let mut all_right = true;
    writeln!(
        out,
        "perft benchmark: {} generator, {} thread(s), hash {} MiB, bulk counting",
        options.generator.name(),
        options.threads.max(1),
        options.hash_mb
    )?;
    for (name, fen, depth, expected) in PERFT_BENCH {
        let pos = Position::from_fen(fen).expect("benchmark FENs are valid");
        let started = Instant::now();
        let nodes = divide(&pos, depth, options, None)
            .expect("no stop flag")
            .nodes;
        let seconds = started.elapsed().as_secs_f64();
        let verdict = if nodes == expected {
            "ok"
        } else {
            "WRONG COUNT"
        };
        all_right &= nodes == expected;
        writeln!(
            out,
            "{name:<10} depth {depth}  {nodes:>11} nodes  {seconds:>7.3} s  {:>7.1} Mnps  {verdict}",
            per_second(nodes, seconds) / 1e6
        )?;
    }
    Ok(all_right)
}

/// What one random game came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayoutResult {
    /// Plies played.
    pub plies: usize,
    /// How it ended: an automatic ending, or a draw that could be claimed (taken as the end).
    pub end: PlayoutEnd,
}

/// The rule that ended a random game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayoutEnd {
    /// Checkmate, stalemate, fivefold, 75-move rule or insufficient material.
    Ending(crate::game::Ending),
    /// Threefold repetition or the 50-move rule, claimed at once.
    Claim(crate::game::DrawClaim),
}

/// Play one game of uniformly random legal moves from the start position until any rule ends it
/// (claimable draws are taken at once).
pub fn random_playout(rng: &mut impl Rng) -> PlayoutResult {
    let mut game = Game::new(Position::startpos());
    loop {
        let moves = game.legal_moves();
        let status = game.status_with(moves.len());
        let end = match (status.ending, status.claim) {
            (Some(ending), _) => Some(PlayoutEnd::Ending(ending)),
            (None, Some(claim)) => Some(PlayoutEnd::Claim(claim)),
            (None, None) => None,
        };
        if let Some(end) = end {
            return PlayoutResult {
                plies: game.moves().len(),
                end,
            };
        }
        game.play(moves[rng.random_range(0..moves.len())]);
    }
}

/// Run the playout benchmark: `games` random games, then games and plies per second and how the
/// games ended.
pub fn run_playout_bench(games: u32, seed: u64, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "playout benchmark: {games} random games from the start position, seed {seed}"
    )?;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut endings: Vec<(String, u32)> = Vec::new();
    let mut plies = 0u64;
    let started = Instant::now();
    for _ in 0..games {
        let result = random_playout(&mut rng);
        plies += result.plies as u64;
        let name = match result.end {
            PlayoutEnd::Ending(e) => e.to_string(),
            PlayoutEnd::Claim(c) => c.to_string(),
        };
        match endings.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => endings.push((name, 1)),
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "{games} games, {plies} plies in {seconds:.3} s: {:.0} games/s, {:.2} M plies/s",
        per_second(u64::from(games), seconds),
        per_second(plies, seconds) / 1e6
    )?;
    endings.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
    for (name, count) in endings {
        writeln!(out, "  {count:>8}  {name}")?;
    }
    Ok(())
}

/// The match runner's own overhead: Shannon against Shannon (the built-in engines.toml) at
/// `nodes=1`, so the engines answer at once and the time is the runner's: process pipes, move
/// validation, clocks, PGN. Prints games and plies per minute.
pub fn run_match_bench(games: u32, concurrency: usize, out: &mut impl Write) -> io::Result<()> {
    use super::arena::{run_match_with, MatchRequest};
    use crate::arena::config::{Config, DEFAULT_ENGINES_TOML};
    let config = Config::parse(DEFAULT_ENGINES_TOML, "built-in engines.toml")
        .expect("the built-in engines.toml parses");
    let request = MatchRequest {
        games: Some(games),
        concurrency: Some(concurrency),
        tc: Some("nodes=1".into()),
        openings: Some("startpos".into()),
        pgn: Some("-".into()),
        seed: Some(1),
        quiet: true,
        ..MatchRequest::default()
    };
    let summary = run_match_with(&config, &request, &mut io::sink())
        .map_err(|e| io::Error::other(e.to_string()))?;
    writeln!(
        out,
        "match runner: {} games of Shannon vs Shannon at nodes=1, concurrency {concurrency}: \
         {:.1} s, {:.0} games per minute, {:.0} plies per second, {} failures",
        summary.games,
        summary.seconds,
        60.0 * f64::from(summary.games) / summary.seconds.max(1e-9),
        per_second(summary.plies, summary.seconds),
        summary.failures
    )
}
