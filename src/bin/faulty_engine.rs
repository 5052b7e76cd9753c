//! `shannon-faulty-engine`: a deliberately faulty UCI engine for testing match runners and perft
//! checkers (ours and anyone's).
//!
//! `shannon-faulty-engine --fault KIND [--after N]` plays the first legal move until its N-th `go`
//! (default 3), where the fault strikes:
//! - `none`: never misbehaves;
//! - `illegal-move`: answers a well-formed move that is not legal;
//! - `crash`: exits without answering;
//! - `sigkill`: kills itself with SIGKILL (as the OOM killer or a user would);
//! - `hang`: never answers (keeps reading);
//! - `stop-reading`: stops reading its input and never answers;
//! - `flood`: prints garbage lines without end instead of answering;
//! - `no-uciok`: never answers `uci` at all;
//! - `omit-underpromotions`, `omit-en-passant`: play correctly, but `go perft` leaves out those
//!   moves, like a buggy move generator.

use shannon::uci_move::{format_move, parse_move, CastlingMode};
use shannon::{MoveKind, PieceKind, Position, Square};
use std::io::{BufRead, Write};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    IllegalMove,
    Crash,
    SigKill,
    Hang,
    StopReading,
    Flood,
    NoUciok,
    OmitUnderpromotions,
    OmitEnPassant,
}

fn parse_fault(name: &str) -> Option<Fault> {
    Some(match name {
        "none" => Fault::None,
        "illegal-move" => Fault::IllegalMove,
        "crash" => Fault::Crash,
        "sigkill" => Fault::SigKill,
        "hang" => Fault::Hang,
        "stop-reading" => Fault::StopReading,
        "flood" => Fault::Flood,
        "no-uciok" => Fault::NoUciok,
        "omit-underpromotions" => Fault::OmitUnderpromotions,
        "omit-en-passant" => Fault::OmitEnPassant,
        _ => return None,
    })
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
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    let Some(fault) = value("--fault").map(|f| parse_fault(f)) else {
        eprintln!(
            "usage: shannon-faulty-engine --fault KIND [--after N] (see the source for kinds)"
        );
        std::process::exit(2);
    };
    let Some(fault) = fault else {
        eprintln!("shannon-faulty-engine: unknown fault kind");
        std::process::exit(2);
    };
    let after: u32 = value("--after").and_then(|n| n.parse().ok()).unwrap_or(3);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut pos = Position::startpos();
    let mut chess960 = false;
    let mut gos = 0;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
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
            chess960 = value.trim() == "true";
        } else if line.starts_with("position") {
            if let Some((p, _)) = read_position(line) {
                pos = p;
            }
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
