//! An engine's two pipes, driven from the thread that plays with it, with no helper thread and
//! no blocking call but a bounded `poll`: both ends are non-blocking. A line for the engine is
//! written at once if its pipe takes it and kept otherwise, to be written when the pipe has room
//! (an engine that stops reading cannot stall us; it only stops answering, which a timeout
//! catches). The engine's output is read as it comes and cut into lines (invalid UTF-8 decoded
//! lossily, so garbage is only a line to ignore).
//!
//! Before, a reader and a writer thread per engine handed every line over a channel: three
//! thread wake-ups per move in a match, which cost more than the rest of the runner's work.

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};
use std::io::{self, ErrorKind, Read, Write};
use std::os::fd::AsFd;
use std::process::{ChildStdin, ChildStdout};
use std::time::Duration;

/// The most bytes kept for an engine that does not read its input: past that, lines are dropped
/// (it has stopped reading, and will time out).
const MAX_PENDING: usize = 1 << 20;

/// The longest line kept whole: a longer run without a newline is cut into lines of this size
/// (bounds memory if an engine floods one endless line).
const MAX_LINE: usize = 1 << 20;

/// Make a pipe's end non-blocking.
fn non_blocking(fd: impl AsFd) -> io::Result<()> {
    let flags = fcntl_getfl(&fd)?;
    fcntl_setfl(&fd, flags | OFlags::NONBLOCK)?;
    Ok(())
}

/// The engine's standard input.
pub(super) struct EngineInput {
    /// Closed once the engine is gone or its input was closed.
    stdin: Option<ChildStdin>,
    /// Bytes not yet taken by the pipe.
    pending: Vec<u8>,
    /// When the pipe last took the last queued byte.
    written_at: Option<std::time::Instant>,
}

impl EngineInput {
    pub(super) fn new(stdin: ChildStdin) -> io::Result<EngineInput> {
        non_blocking(&stdin)?;
        Ok(EngineInput {
            stdin: Some(stdin),
            pending: Vec::new(),
            written_at: None,
        })
    }

    /// Queue `line` and a newline, to be written by the next [`EngineInput::flush`].
    pub(super) fn queue(&mut self, line: &str) {
        if self.stdin.is_none() || self.pending.len() + line.len() > MAX_PENDING {
            return;
        }
        self.pending.extend_from_slice(line.as_bytes());
        self.pending.push(b'\n');
    }

    /// Write what the pipe takes of the queued bytes.
    pub(super) fn flush(&mut self) {
        let Some(stdin) = self.stdin.as_mut() else {
            return;
        };
        while !self.pending.is_empty() {
            match stdin.write(&self.pending) {
                Ok(0) => break,
                Ok(n) => {
                    self.pending.drain(..n);
                    if self.pending.is_empty() {
                        self.written_at = Some(std::time::Instant::now());
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(_) => {
                    // The engine is gone (a broken pipe): nothing more reaches it.
                    self.stdin = None;
                    self.pending.clear();
                    break;
                }
            }
        }
    }

    /// When the pipe last took everything queued (the time a line was written to the engine).
    pub(super) fn written_at(&self) -> Option<std::time::Instant> {
        self.written_at
    }

    /// True once the engine's input is closed.
    pub(super) fn is_closed(&self) -> bool {
        self.stdin.is_none()
    }

    /// True while bytes wait for room in the pipe.
    pub(super) fn has_pending(&self) -> bool {
        self.stdin.is_some() && !self.pending.is_empty()
    }

    /// Close the engine's input (what the pipe does not take at once of the queued bytes is
    /// dropped).
    pub(super) fn close(&mut self) {
        self.flush();
        self.stdin = None;
        self.pending.clear();
    }
}

/// What reading the engine's output gave.
pub(super) enum Read1 {
    /// A line, and when it was read from the pipe.
    Line(std::time::Instant, String),
    /// Nothing within the time.
    Timeout,
    /// The engine closed its output (it ended).
    Closed,
}

/// The engine's standard output.
pub(super) struct EngineOutput {
    stdout: ChildStdout,
    /// Bytes read and not yet handed out as lines.
    buffer: Vec<u8>,
    /// Where the next line starts in `buffer`.
    start: usize,
    /// The engine closed its output.
    closed: bool,
    /// When the bytes of the lines in `buffer` were read.
    read_at: std::time::Instant,
}

impl EngineOutput {
    pub(super) fn new(stdout: ChildStdout) -> io::Result<EngineOutput> {
        non_blocking(&stdout)?;
        Ok(EngineOutput {
            stdout,
            buffer: Vec::with_capacity(4096),
            start: 0,
            closed: false,
            read_at: std::time::Instant::now(),
        })
    }

    /// The next whole line already read, if any (and, once the engine closed its output, the
    /// unfinished last one).
    fn buffered_line(&mut self) -> Option<String> {
        let rest = &self.buffer[self.start..];
        let end = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => i,
            None if rest.len() >= MAX_LINE || (self.closed && !rest.is_empty()) => rest.len(),
            None => return None,
        };
        let line = String::from_utf8_lossy(&rest[..end]).trim_end().to_string();
        self.start += (end + 1).min(rest.len());
        if self.start == self.buffer.len() {
            self.buffer.clear();
            self.start = 0;
        }
        Some(line)
    }

    /// Read what the pipe holds now; false when it held nothing.
    fn read_available(&mut self) -> bool {
        if self.start > 0 {
            self.buffer.drain(..self.start);
            self.start = 0;
        }
        let mut chunk = [0u8; 8192];
        let mut any = false;
        loop {
            match self.stdout.read(&mut chunk) {
                Ok(0) => {
                    self.closed = true;
                    return true;
                }
                Ok(n) => {
                    self.buffer.extend_from_slice(&chunk[..n]);
                    self.read_at = std::time::Instant::now();
                    any = true;
                    if n < chunk.len() {
                        return any;
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return any,
                Err(_) => {
                    self.closed = true;
                    return true;
                }
            }
        }
    }

    /// The next line, waiting up to `timeout` for it; meanwhile `input`'s queued bytes are
    /// written as its pipe makes room.
    pub(super) fn next_line(&mut self, timeout: Duration, input: &mut EngineInput) -> Read1 {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if let Some(line) = self.buffered_line() {
                return Read1::Line(self.read_at, line);
            }
            if self.closed {
                return Read1::Closed;
            }
            if self.read_available() {
                continue;
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Read1::Timeout;
            }
            let wait = Timespec {
                tv_sec: left.as_secs().min(i64::MAX as u64) as i64,
                tv_nsec: i64::from(left.subsec_nanos()),
            };
            let writing = input.has_pending();
            // An interrupted or failed poll only starts the loop again.
            let _ = match input.stdin.as_ref().filter(|_| writing) {
                Some(stdin) => poll(
                    &mut [
                        PollFd::new(&self.stdout, PollFlags::IN),
                        PollFd::new(stdin, PollFlags::OUT),
                    ],
                    Some(&wait),
                ),
                None => poll(&mut [PollFd::new(&self.stdout, PollFlags::IN)], Some(&wait)),
            };
            if writing {
                input.flush();
            }
        }
    }
}
