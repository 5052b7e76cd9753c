//! The UCI engine end to end: the real binary over pipes, every command, every vampirc-uci gap the
//! engine works around, bad input, uniformity of the random choice and its reproducibility.
//!
//! This module holds the helpers the subjects share: a whole script piped in, the bestmoves and
//! errors of its answer, and `Live`, an engine talked to line by line.

mod go;
mod perft;
mod position;
mod protocol;

use shannon::notation::uci::parse_move;
use shannon::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use crate::common::SHANNON as BIN;

/// Send `input`, close stdin, and return every stdout line; the process must exit 0.
fn script(input: &str) -> Vec<String> {
    script_bytes(input.as_bytes())
}

fn script_bytes(input: &[u8]) -> Vec<String> {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "exit {:?}; stderr: {stderr}",
        output.status
    );
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    String::from_utf8(output.stdout)
        .expect("stdout is UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(str::to_string)
        .collect()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

fn assert_legal(fen: &str, moves: &str, best: &str) {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves.split_whitespace() {
        pos = pos.play(parse_move(&pos, m).unwrap());
    }
    assert!(
        parse_move(&pos, best).is_ok(),
        "{best} is not legal after {moves}"
    );
}

const START: &str = shannon::STARTPOS_FEN;

/// An engine talked to line by line, for commands whose answers depend on timing. Dropped (at
/// the end of a test, or when it fails) it kills the engine if it still runs: a count it was
/// left with would otherwise go on for hours after the test.
struct Live {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Drop for Live {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl Live {
    fn start() -> Live {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
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
        Live {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("the input is open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Close the engine's input: its end of input.
    fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Wait for the engine to exit, at most `limit`; fail otherwise (the drop then kills it).
    fn exits_within(&mut self, limit: Duration) -> std::process::ExitStatus {
        let started = std::time::Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                started.elapsed() <= limit,
                "the engine did not exit within {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(Duration::from_secs(20)) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no '{prefix}' line; got {seen:?}"),
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}
