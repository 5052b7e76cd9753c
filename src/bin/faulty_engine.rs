//! `shannon-faulty-engine`: a deliberately faulty UCI engine for testing match runners and perft
//! checkers (ours and anyone's).
//!
//! `shannon-faulty-engine --fault KIND [--after N]` plays the first legal move until its N-th `go`
//! (default 3), where the fault strikes; `--help` lists the kinds.

use clap::{Parser, ValueEnum};
use shannon::notation::uci::{format_move, parse_move};
use shannon::CastlingMode;
use shannon::{MoveKind, PieceKind, Position, Square};
use std::io::{BufRead, Write};

/// How the engine misbehaves. The names are what `--fault` takes; each doc line is shown by
/// `--help`, so a test author can pick a fault without reading this file.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Fault {
    /// Never misbehaves.
    None,
    /// Answers a well-formed move that is not legal.
    IllegalMove,
    /// Exits without answering.
    Crash,
    /// Kills itself with SIGKILL (as the OOM killer or a user would).
    #[value(name = "sigkill")]
    SigKill,
    /// Never answers (keeps reading).
    Hang,
    /// Stops reading its input and never answers.
    StopReading,
    /// Prints garbage lines without end instead of answering.
    Flood,
    /// Never answers `uci` at all.
    NoUciok,
    /// Plays correctly, but `go perft` leaves out underpromotions, like a buggy generator.
    OmitUnderpromotions,
    /// Plays correctly, but `go perft` leaves out en passant captures.
    OmitEnPassant,
    /// Does not know `go perft`: answers it with a search (`info` lines and a `bestmove`), as
    /// engines without perft do.
    NoPerft,
    /// Does not know `go perft` and says nothing at all to it.
    SilentPerft,
}

/// A deliberately faulty UCI engine for testing match runners and perft checkers.
#[derive(Parser)]
#[command(name = "shannon-faulty-engine", version)]
struct Args {
    /// What goes wrong.
    #[arg(long, value_enum)]
    fault: Fault,
    /// The `go` (counted from 1) at which the fault strikes; earlier ones are answered well.
    #[arg(long, default_value_t = 3)]
    after: u32,
}

/// Perft that leaves out the moves the fault says to.
fn faulty_perft(pos: &Position, depth: u32, fault: Fault) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .filter(|mv| kept(**mv, fault))
        .map(|&mv| faulty_perft(&pos.play(mv), depth - 1, fault))
        .sum()
}

fn kept(mv: shannon::Move, fault: Fault) -> bool {
    match (fault, mv.kind()) {
        (Fault::OmitUnderpromotions, MoveKind::Promotion(piece)) => piece == PieceKind::Queen,
        (Fault::OmitEnPassant, MoveKind::EnPassant) => false,
        _ => true,
    }
}

/// A well-formed move that is not legal in `pos`.
fn illegal_move(pos: &Position) -> String {
    for from in Square::ALL {
        for to in Square::ALL {
            let text = format!("{from}{to}");
            if from != to && parse_move(pos, &text).is_err() {
                return text;
            }
        }
    }
    "a1a2".to_string()
}

/// `position startpos|fen F [moves ...]`, leniently.
fn read_position(line: &str) -> Option<(Position, bool)> {
    let rest = line.strip_prefix("position")?.trim();
    let (setup, moves) = match rest.split_once(" moves") {
        Some((setup, moves)) => (setup.trim(), moves.split_whitespace().collect::<Vec<_>>()),
        None => (rest, Vec::new()),
    };
    let mut pos = if setup == "startpos" {
        Position::startpos()
    } else {
        Position::from_fen(setup.strip_prefix("fen")?.trim()).ok()?
    };
    for text in moves {
        pos = pos.play(parse_move(&pos, text).ok()?);
    }
    Some((pos, true))
}

fn main() {
    let Args { fault, after } = Args::parse();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut pos = Position::startpos();
    let mut mode = CastlingMode::Standard;
    let mut gos = 0;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        if line == "uci" {
            if fault == Fault::NoUciok {
                continue;
            }
            let _ = writeln!(out, "id name Faulty\nid author Shannon tests\noption name UCI_Chess960 type check default false\nuciok");
        } else if line == "isready" {
            let _ = writeln!(out, "readyok");
        } else if line == "quit" {
            break;
        } else if let Some(value) = line.strip_prefix("setoption name UCI_Chess960 value ") {
            mode = CastlingMode::from_chess960(value.trim() == "true");
        } else if line.starts_with("position") {
            if let Some((p, _)) = read_position(line) {
                pos = p;
            }
        } else if line.starts_with("go perft") && fault == Fault::SilentPerft {
            continue;
        } else if line.starts_with("go perft") && fault == Fault::NoPerft {
            // What an engine that reads `perft` as an unknown token does: a (tiny) search.
            let answer = pos
                .legal_moves()
                .first()
                .map_or("0000".to_string(), |&mv| format_move(mv, mode));
            let _ = writeln!(
                out,
                "info depth 1 score cp 0 nodes 1 pv {answer}\nbestmove {answer}"
            );
        } else if let Some(depth) = line.strip_prefix("go perft ") {
            let depth: u32 = depth.trim().parse().unwrap_or(1);
            let mut total = 0;
            for &mv in pos.legal_moves().iter().filter(|mv| kept(**mv, fault)) {
                let count = faulty_perft(&pos.play(mv), depth.saturating_sub(1), fault);
                total += count;
                let _ = writeln!(out, "{}: {count}", format_move(mv, mode));
            }
            let _ = writeln!(out, "\nNodes searched: {total}\n");
        } else if line.starts_with("go") {
            gos += 1;
            if gos >= after {
                match fault {
                    Fault::IllegalMove => {
                        let _ = writeln!(out, "bestmove {}", illegal_move(&pos));
                        let _ = out.flush();
                        continue;
                    }
                    Fault::Crash => std::process::exit(3),
                    Fault::SigKill => {
                        let pid = std::process::id().to_string();
                        let _ = std::process::Command::new("kill")
                            .args(["-9", &pid])
                            .status();
                        std::process::exit(4);
                    }
                    Fault::Hang => continue,
                    Fault::StopReading => loop {
                        std::thread::park();
                    },
                    Fault::Flood => loop {
                        if writeln!(out, "garbage \u{1} {gos} $$$ not uci at all").is_err() {
                            std::process::exit(0);
                        }
                    },
                    _ => {}
                }
            }
            let answer = pos
                .legal_moves()
                .first()
                .map_or("0000".to_string(), |&mv| format_move(mv, mode));
            let _ = writeln!(out, "bestmove {answer}");
        }
        let _ = out.flush();
    }
}
