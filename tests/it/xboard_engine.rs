//! Shannon as an xboard (CECP v2) engine, over pipes: the test is the GUI. Two engine processes
//! play whole games against each other (standard chess and Chess960 through `variant
//! fischerandom`), every move checked against our rules, every claim against the final position;
//! stdout carries protocol only, the log goes to stderr. Then python-chess's xboard client
//! (`popen_xboard`, see `tests/xboard_python.py`) plays with it.

use crate::common::{peer_missing, peers_required, python_chess_missing, SHANNON};
use shannon::game::{DrawClaim, Ending, Game, Status};
use shannon::notation::san::parse_san;
use shannon::notation::uci::parse_move;
use shannon::{chess960, Color, Move, Position};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// One engine process and its output lines.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line it wrote, for the messages of failed checks.
    seen: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(SHANNON)
            .env("RUST_LOG", "debug")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("shannon starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        };
        engine.send("xboard\nprotover 2");
        while engine.next() != "feature done=1" {}
        engine.send("accepted done\nnew\nforce\nlevel 40 5 0\npost");
        engine
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").expect("the engine reads");
    }

    fn next(&mut self) -> String {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no answer in 20 s; it wrote {:?}", self.seen));
        // Protocol only: features, moves, thinking output, claims, pongs, offers.
        let known = ["feature ", "move ", "1 0 0 ", "pong ", "offer draw"];
        let claim = ["1-0 {", "0-1 {", "1/2-1/2 {"];
        assert!(
            known.iter().chain(&claim).any(|p| line.starts_with(p)),
            "not a protocol line: {line:?}"
        );
        self.seen.push(line.clone());
        line
    }

    /// Read to the engine's move (or its claim, `Err`), noting an `offer draw` before it.
    fn answer(&mut self) -> (Result<String, String>, bool) {
        let mut offered = false;
        loop {
            let line = self.next();
            if let Some(mv) = line.strip_prefix("move ") {
                return (Ok(mv.to_string()), offered);
            }
            if line == "offer draw" {
                offered = true;
            } else if !line.starts_with("1 0 0 ") {
                return (Err(line), offered);
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

fn read(pos: &Position, text: &str) -> Move {
    parse_move(pos, text)
        .or_else(|_| parse_san(pos, text).map_err(|e| e.to_string()))
        .unwrap_or_else(|e| panic!("{text} is not legal in {}: {e}", pos.fen()))
}

fn claim_for(status: Status) -> &'static str {
    match status {
        Status::Over(Ending::Checkmate {
            winner: Color::White,
        }) => "1-0 {White mates}",
        Status::Over(Ending::Checkmate { .. }) => "0-1 {Black mates}",
        Status::Over(Ending::Stalemate) => "1/2-1/2 {Stalemate}",
        Status::Over(Ending::InsufficientMaterial) => "1/2-1/2 {Insufficient material}",
        Status::Over(Ending::FivefoldRepetition) => "1/2-1/2 {Draw by fivefold repetition}",
        Status::Over(Ending::SeventyFiveMoveRule) => "1/2-1/2 {Draw by 75-move rule}",
        Status::Claimable(DrawClaim::ThreefoldRepetition) => "1/2-1/2 {Draw by repetition}",
        Status::Claimable(DrawClaim::FiftyMoveRule) => "1/2-1/2 {Draw by 50-move rule}",
        Status::Ongoing => "(no claim)",
    }
}

/// One game between two engine processes from `start` (`fischerandom`: set up by `setboard`
/// after `variant fischerandom`); its plies and how it ended.
fn play(start: &Position, fischerandom: bool, seeds: [u64; 2]) -> (usize, String) {
    let mut engines = [Engine::start(), Engine::start()];
    for (engine, seed) in engines.iter_mut().zip(seeds) {
        engine.send(&format!("option Seed={seed}"));
        if fischerandom {
            engine.send("variant fischerandom");
            engine.send(&format!("setboard {}", start.shredder_fen()));
        }
    }
    let mut game = Game::new(start.clone());
    let side = |c: Color| usize::from(c == Color::Black);
    let first = side(start.side_to_move());
    engines[first].send("time 30000\notim 30000\ngo");
    loop {
        let mover = side(game.position().side_to_move());
        let (answer, offered) = engines[mover].answer();
        let text = match answer {
            Ok(text) => text,
            Err(claim) => {
                // A claim instead of a move: only a draw the mover may claim now.
                let status = game.status();
                assert!(
                    matches!(status, Status::Claimable(_)),
                    "{claim} in {status}"
                );
                assert_eq!(claim, claim_for(status));
                return (game.moves().len(), claim);
            }
        };
        let mv = read(game.position(), &text);
        game.play(mv);
        let status = game.status();
        match status {
            Status::Over(_) => {
                // The mover claims the end its move brought.
                let (claim, _) = engines[mover].answer();
                assert_eq!(claim, Err(claim_for(status).to_string()));
                return (game.moves().len(), claim_for(status).to_string());
            }
            Status::Claimable(_) => {
                assert!(offered, "{text} made {status} but no offer draw came first");
                return (game.moves().len(), format!("offer draw: {status}"));
            }
            Status::Ongoing => assert!(!offered, "offer draw before {text}, {status}"),
        }
        let other = 1 - mover;
        engines[other].send(&format!("time 30000\notim 30000\nusermove {text}"));
        if game.moves().len() == 1 {
            // The second engine was in force mode since `new`: it now plays its side.
            engines[other].send("go");
        }
    }
}

#[test]
fn two_shannons_play_whole_games_over_cecp() {
    let mut endings = Vec::new();
    for n in 0..4u64 {
        let (plies, end) = play(&Position::startpos(), false, [10 + n, 20 + n]);
        endings.push(format!("standard {n}: {plies} plies, {end}"));
        let rank = chess960::scharnagl_back_rank(((n * 211 + 5) % 960) as u32).unwrap();
        let start = chess960::start_position(&rank);
        let (plies, end) = play(&start, true, [30 + n, 40 + n]);
        endings.push(format!("chess960 {n}: {plies} plies, {end}"));
    }
    println!("{}", endings.join("\n"));
}

#[test]
fn python_chess_plays_with_the_xboard_engine() {
    if let Some(reason) = python_chess_missing() {
        return peer_missing(&reason, peers_required());
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .arg(format!("{root}/tests/xboard_python.py"))
        .arg(SHANNON)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "python-chess found problems:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(" 0 failed"), "{stdout}");
}
