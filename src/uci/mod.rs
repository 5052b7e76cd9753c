//! The UCI engine: `shannon` with no arguments speaks the Universal Chess Interface (the April
//! 2006 specification plus the usual extensions: `go perft`, `d`, `UCI_Chess960`) on stdin and
//! stdout, and answers every `go` with a uniformly random legal move; when the first command is
//! `xboard`, the same engine speaks the xboard protocol instead (`xboard`).
//!
//! The pieces, one concept each:
//! - `reader`: a thread reads input lines (lossy UTF-8, CRLF, any length) into a channel;
//! - `command`: one line to one command, or an error;
//! - `options`: the option declarations and `setoption`;
//! - `history`: the held game, extended in place when a `position` command only adds moves;
//! - `random`: the seeded, portable, exactly uniform choice;
//! - `engine`: the state machine (held `bestmove`, `go perft` on a worker thread);
//! - `output`: protocol lines to stdout, flushed, mirrored to the log and the `Debug Log File`;
//! - `display`: the `d` command's board;
//! - `xboard`: the same engine over the xboard protocol (CECP v2), when the first command is
//!   `xboard`.
//!
//! vampirc-uci 0.11 parses the argument-free commands, `debug` and `setoption`, and writes the
//! `id`, `option`, `info`, `bestmove`, `uciok` and `readyok` lines; `command` reads `position` and
//! `go` itself, for the gaps `tests/it/uci.rs` covers one by one.
//!
//! This module does not know chess rules; it asks the library. Nothing but protocol goes to
//! stdout; logging (`RUST_LOG=debug`) goes to stderr.

mod command;
mod display;
mod engine;
mod event;
mod history;
mod options;
mod output;
mod random;
mod reader;
mod xboard;

use engine::{Engine, Flow};
use event::Event;
use output::Output;
use std::io::{Read, Write};
use std::sync::mpsc;

pub use options::MAX_SEED;

/// The engine's UCI options: each declaration, as `uci` prints it, with what the option does.
pub fn option_reference() -> Vec<(String, &'static str)> {
    options::Options::reference()
}

/// Speak UCI on `input` and `output` until `quit`, the end of input, or a closed output; or, when
/// the first command (after any blank lines) is `xboard`, speak the xboard protocol (CECP
/// version 2) instead.
pub fn run<R: Read + Send + 'static>(input: R, output: &mut dyn Write) {
    let (sender, events) = mpsc::channel();
    reader::spawn(input, sender.clone());
    let mut blank = Vec::new();
    let first = loop {
        match events.recv() {
            Ok(Event::Line(line)) if line.trim().is_empty() => blank.push(Event::Line(line)),
            Ok(event) => break Some(event),
            Err(_) => break None,
        }
    };
    if let Some(Event::Line(line)) = &first {
        if line.trim() == "xboard" {
            let mut out = Output::new(output);
            out.record_input(line);
            xboard::run(&events, out);
            return;
        }
    }
    let mut engine = Engine::new(Output::new(output), sender);
    for event in blank.into_iter().chain(first).chain(events.iter()) {
        if engine.handle(event) == Flow::Quit {
            break;
        }
    }
    engine.finish();
}

/// Speak UCI on the process's stdin and stdout. At a terminal (a person, not a GUI) a one-line
/// banner on stderr says what this is and how to leave.
pub fn run_stdio() {
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "Shannon {}: a UCI chess engine that plays a uniformly random legal move (help lists \
             the commands, quit leaves)",
            env!("CARGO_PKG_VERSION")
        );
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    run(std::io::stdin(), &mut out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(input: &'static str) -> Vec<String> {
        let mut out = Vec::new();
        run(input.as_bytes(), &mut out);
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn uci_handshake() {
        let lines = talk("uci\nisready\n");
        assert!(lines[0].starts_with("id name Shannon "));
        assert!(lines[1].starts_with("id author "));
        assert_eq!(lines[lines.len() - 2], "uciok");
        assert_eq!(lines[lines.len() - 1], "readyok");
    }

    #[test]
    fn seeded_go_in_process() {
        let lines = talk("setoption name Seed value 5\nposition startpos\ngo\n");
        assert!(lines[0].starts_with("info depth 1 seldepth 1 multipv 1 score cp 0 nodes 20 time "));
        assert!(lines[1].starts_with("bestmove "));
    }

    #[test]
    fn random_lines_never_bring_the_engine_down() {
        use rand::{Rng, SeedableRng};
        let words = [
            "uci",
            "isready",
            "go",
            "position",
            "startpos",
            "fen",
            "moves",
            "setoption",
            "name",
            "value",
            "Hash",
            "Seed",
            "debug",
            "on",
            "stop",
            "ponderhit",
            "ponder",
            "infinite",
            "searchmoves",
            "depth",
            "wtime",
            "-1",
            "300",
            "99999999999999999999",
            "e2e4",
            "e7e5",
            "0000",
            "e1g1",
            "8/8/8/8/8/8/8/8",
            "w",
            "KQkq",
            "-",
            "d",
            "ucinewgame",
            "register",
            "\u{fffd}",
            "",
            "Move Generator",
            "0x88",
            "UCI_Chess960",
            "true",
            "mate",
        ];
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        let mut input = String::new();
        for _ in 0..3000 {
            let n = rng.random_range(0..8);
            let line: Vec<&str> = (0..n)
                .map(|_| words[rng.random_range(0..words.len())])
                .collect();
            input.push_str(&line.join(" "));
            input.push('\n');
        }
        input.push_str("isready\n");
        let mut out = Vec::new();
        run(std::io::Cursor::new(input.into_bytes()), &mut out);
        let out = String::from_utf8(out).unwrap();
        // A `go infinite` held at the end is answered after the final readyok.
        let last: Vec<&str> = out.lines().rev().take(2).collect();
        assert!(last.contains(&"readyok"), "{last:?}");
    }

    #[test]
    fn a_count_prints_before_quit_or_the_end_of_input_is_obeyed() {
        // Issue 45, item 2: what perft scripts pipe in, with `quit` and without.
        for input in [
            "position startpos\ngo perft 3\nquit\n",
            "position startpos\ngo perft 3\n",
        ] {
            let lines = talk(input);
            assert_eq!(lines.len(), 20 + 3, "{input:?}: {lines:?}");
            assert!(lines.contains(&"e2e4: 600".to_string()), "{lines:?}");
            assert_eq!(lines[21], "Nodes searched: 8902", "{input:?}");
        }
        // Queued commands run in order after the count, then the end of input is obeyed.
        let lines = talk("go perft 1\nposition startpos moves e2e4\ngo perft 1\n");
        let counts: Vec<&String> = lines.iter().filter(|l| l.starts_with("Nodes")).collect();
        assert_eq!(counts, ["Nodes searched: 20", "Nodes searched: 20"]);
        assert!(lines.contains(&"e7e5: 1".to_string()), "{lines:?}");
    }

    #[test]
    fn stop_still_cuts_a_count_short_before_quit() {
        // Depth 12 from the start takes days; `stop` ends it, then `quit` is obeyed.
        let started = std::time::Instant::now();
        let lines = talk("go perft 12\nstop\nquit\n");
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
        assert_eq!(lines, ["info string perft stopped"]);
    }
}
