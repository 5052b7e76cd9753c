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
use shannon::notation::uci::format_move;
use shannon::CastlingMode;
use shannon::Position;
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// The game lengths measured.
pub const PLIES: [usize; 3] = [0, 100, 5_000];

/// An engine process over pipes.
struct Piped {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
}

impl Piped {
    fn start(engine: &Path) -> io::Result<Piped> {
        let mut child = Command::new(engine)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        Ok(Piped {
            child,
            stdin,
            stdout,
            line: String::new(),
        })
    }

    fn send(&mut self, text: &str) -> io::Result<()> {
        self.stdin.write_all(text.as_bytes())?;
        self.stdin.flush()
    }

    /// Read lines until one starts with `prefix`.
    fn wait_for(&mut self, prefix: &str) -> io::Result<()> {
        loop {
            self.line.clear();
            if self.stdout.read_line(&mut self.line)? == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("the engine closed its output before '{prefix}'"),
                ));
            }
            if self.line.starts_with(prefix) {
                return Ok(());
            }
        }
    }

    fn quit(mut self) -> io::Result<()> {
        self.send("quit\n")?;
        self.child.wait()?;
        Ok(())
    }
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

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
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
    engine: &mut Piped,
    game: &[String],
    plies: usize,
    rounds: usize,
) -> io::Result<Duration> {
    let mut samples = Vec::with_capacity(rounds);
    let timed = position_command(&game[..plies]) + "go\n";
    let before = position_command(&game[..plies.saturating_sub(1)]) + "isready\n";
    for _ in 0..rounds {
        engine.send(&before)?;
        engine.wait_for("readyok")?;
        let started = Instant::now();
        engine.send(&timed)?;
        engine.wait_for("bestmove")?;
        samples.push(started.elapsed());
    }
    Ok(median(samples))
}

/// Run the benchmark against the engine binary at `engine`.
pub fn run_uci_bench(engine: &Path, rounds: usize, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "UCI benchmark over pipes: {rounds} rounds each, medians"
    )?;
    let mut startups = Vec::with_capacity(rounds.min(50));
    for _ in 0..rounds.min(50) {
        let started = Instant::now();
        let mut piped = Piped::start(engine)?;
        piped.send("uci\n")?;
        piped.wait_for("uciok")?;
        startups.push(started.elapsed());
        piped.quit()?;
    }
    writeln!(
        out,
        "start-up to uciok (process spawn included): {:>8.1} us",
        median(startups).as_secs_f64() * 1e6
    )?;
    let game = long_random_game(PLIES[PLIES.len() - 1], 1);
    let mut piped = Piped::start(engine)?;
    piped.send("setoption name Seed value 1\n")?;
    let mut figures = Vec::new();
    for plies in PLIES {
        let time = round_trip(&mut piped, &game, plies, rounds)?;
        figures.push(time);
        writeln!(
            out,
            "position startpos moves <{plies:>5} plies> + go -> bestmove: {:>8.1} us",
            time.as_secs_f64() * 1e6
        )?;
    }
    piped.quit()?;
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
pub fn run_soak(engine: &Path, requests: u64, out: &mut impl Write) -> io::Result<()> {
    use shannon::game::{Game, Status};
    use shannon::notation::uci::parse_move;
    let mut piped = Piped::start(engine)?;
    let pid = piped.child.id();
    piped.send("uci\nsetoption name Seed value 1\nisready\n")?;
    piped.wait_for("readyok")?;
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
        piped.send(&(position_command(&texts) + "go\n"))?;
        piped.wait_for("bestmove")?;
        let answer = piped
            .line
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .to_string();
        let mv = parse_move(game.position(), &answer)
            .map_err(|e| io::Error::other(format!("request {request}: the engine answered {e}")))?;
        game.play(mv);
        texts.push(answer);
        if game.status() != Status::Ongoing {
            games += 1;
            game = Game::new(Position::startpos());
            texts.clear();
            piped.send("ucinewgame\n")?;
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
    )?;
    piped.quit()
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
