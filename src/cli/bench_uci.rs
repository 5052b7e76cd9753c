//! `shannon bench uci`: the engine timed the way a GUI meets it, over a pipe.
//!
//! It prints the start-up time to `uciok` (a fresh process each time) and the median round trip
//! of `position startpos moves <N plies>` + `go` -> `bestmove` for N = 0, 100 and 5,000, where
//! each timed command adds one ply to the game the engine holds, as a GUI's commands do. The long
//! game is random and runs past every rule that would end it (the engine accepts moves after a
//! game is over; a GUI decides), which is how 5,000 plies are reached. Figures are printed, never
//! asserted.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shannon::client::{EngineConfig, EngineProcess};
use shannon::notation::uci::format_move;
use shannon::stats::nearest_rank;
use shannon::CastlingMode;
use shannon::Position;
use std::io::{self, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// The game lengths measured.
pub const PLIES: [usize; 3] = [0, 100, 5_000];

/// How long any answer may take before the benchmark gives up.
const PATIENCE: Duration = Duration::from_secs(60);

/// The engine at `program`, started (no `uci` sent yet): the arena's engine process, so the
/// figures include what the match runner's reader and writer threads add.
fn start(program: &Path) -> io::Result<EngineProcess> {
    let config = EngineConfig::from_command(&program.to_string_lossy());
    EngineProcess::spawn(&config, None).map_err(io::Error::other)
}

/// Send each line of `text`.
fn send(engine: &mut EngineProcess, text: &str) {
    for line in text.lines() {
        engine.send(line);
    }
}

/// Read lines until one starts with `prefix`; that line.
fn wait_for(engine: &mut EngineProcess, prefix: &str) -> io::Result<String> {
    engine
        .wait_for(prefix, PATIENCE, |line| line.starts_with(prefix))
        .map_err(io::Error::other)
}

/// A random game of `plies` moves in UCI text, played past the end of the game when needed; a
/// game that reaches mate or stalemate first is thrown away and another seed tried.
pub fn long_random_game(plies: usize, seed: u64) -> Vec<String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    loop {
        let mut pos = Position::startpos();
        let mut moves = Vec::with_capacity(plies);
        while moves.len() < plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())];
            moves.push(format_move(mv, CastlingMode::Standard));
            pos = pos.play(mv);
        }
        if moves.len() == plies {
            return moves;
        }
    }
}

/// The median (nearest rank) of the samples.
fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    let total = samples.len() as u64;
    nearest_rank(50.0, total, samples.into_iter().map(|d| (d, 1))).unwrap_or_default()
}

fn position_command(moves: &[String]) -> String {
    if moves.is_empty() {
        "position startpos\n".to_string()
    } else {
        format!("position startpos moves {}\n", moves.join(" "))
    }
}

/// Median round trip of a `position` command of `plies` plies, extending the held game by one
/// ply, plus `go`, over `rounds` rounds.
fn round_trip(
    engine: &mut EngineProcess,
    game: &[String],
    plies: usize,
    rounds: usize,
) -> io::Result<Duration> {
    let mut samples = Vec::with_capacity(rounds);
    let timed = position_command(&game[..plies]) + "go\n";
    let before = position_command(&game[..plies.saturating_sub(1)]) + "isready\n";
    for _ in 0..rounds {
        send(engine, &before);
        wait_for(engine, "readyok")?;
        let started = Instant::now();
        send(engine, &timed);
        wait_for(engine, "bestmove")?;
        samples.push(started.elapsed());
    }
    Ok(median(samples))
}

/// Run the benchmark against the engine binary at `engine`.
pub fn run_uci_bench(program: &Path, rounds: usize, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "UCI benchmark over pipes: {rounds} rounds each, medians"
    )?;
    let mut startups = Vec::with_capacity(rounds.min(50));
    for _ in 0..rounds.min(50) {
        let started = Instant::now();
        let mut process = start(program)?;
        process.send("uci");
        wait_for(&mut process, "uciok")?;
        startups.push(started.elapsed());
    }
    writeln!(
        out,
        "start-up to uciok (process spawn included): {:>8.1} us",
        median(startups).as_secs_f64() * 1e6
    )?;
    let game = long_random_game(PLIES[PLIES.len() - 1], 1);
    let mut engine = start(program)?;
    engine.send("setoption name Seed value 1");
    let mut figures = Vec::new();
    for plies in PLIES {
        let time = round_trip(&mut engine, &game, plies, rounds)?;
        figures.push(time);
        writeln!(
            out,
            "position startpos moves <{plies:>5} plies> + go -> bestmove: {:>8.1} us",
            time.as_secs_f64() * 1e6
        )?;
    }
    if let [_, hundred, long] = figures[..] {
        writeln!(
            out,
            "5,000 plies / 100 plies: {:.1}x",
            long.as_secs_f64() / hundred.as_secs_f64().max(1e-9)
        )?;
    }
    Ok(())
}

/// Resident memory of process `pid` in KiB, from /proc (Linux); `None` elsewhere.
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
}

/// `shannon bench soak`: one engine process answers `requests` rounds of
/// `position startpos moves ...` + `go`, playing its own moves into games the way a GUI does
/// (each game to its end by the rules, then `ucinewgame`), and the engine's resident memory is
/// printed at the start, every tenth of the way, and at the end: it must stay flat.
pub fn run_soak(program: &Path, requests: u64, out: &mut impl Write) -> io::Result<()> {
    use shannon::game::{Game, Status};
    use shannon::notation::uci::parse_move;
    let mut engine = start(program)?;
    let pid = engine.id();
    send(&mut engine, "uci\nsetoption name Seed value 1\nisready");
    wait_for(&mut engine, "readyok")?;
    let rss = || resident_kib(pid).map_or("unknown".to_string(), |k| format!("{k} KiB"));
    writeln!(
        out,
        "soak: {requests} position + go requests to one engine process"
    )?;
    writeln!(out, "{:>10} requests  RSS {}", 0, rss())?;
    let started = Instant::now();
    let mut game = Game::new(Position::startpos());
    let mut texts: Vec<String> = Vec::new();
    let (mut games, step) = (0u64, (requests / 10).max(1));
    for request in 1..=requests {
        send(&mut engine, &(position_command(&texts) + "go"));
        let line = wait_for(&mut engine, "bestmove")?;
        let answer = line.split_whitespace().nth(1).unwrap_or("").to_string();
        let mv = parse_move(game.position(), &answer)
            .map_err(|e| io::Error::other(format!("request {request}: the engine answered {e}")))?;
        game.play(mv);
        texts.push(answer);
        if game.status() != Status::Ongoing {
            games += 1;
            game = Game::new(Position::startpos());
            texts.clear();
            engine.send("ucinewgame");
        }
        if request % step == 0 {
            writeln!(
                out,
                "{request:>10} requests  RSS {}  ({games} games finished)",
                rss()
            )?;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "{requests} requests in {seconds:.1} s ({:.1} us each)",
        seconds * 1e6 / requests.max(1) as f64
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_long_game_is_legal_and_long() {
        let game = long_random_game(600, 3);
        assert_eq!(game.len(), 600);
        let mut pos = Position::startpos();
        for text in &game {
            pos = pos.play(shannon::notation::uci::parse_move(&pos, text).unwrap());
        }
    }
}
