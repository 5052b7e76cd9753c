//! What an engine said and was told: the lines of an exchange a caller keeps ([`Said`]), and the
//! log a forensics record keeps of the last lines over each pipe ([`EngineLog`]), gathered in
//! rings that stop growing once full.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One line of an exchange with an engine, kept when a caller wants to show what was said
/// (`shannon audit` prints the exchange of a failed check).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// A line we sent.
    Sent(String),
    /// A line the engine sent.
    Received(String),
}

impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Control characters escaped: an exchange shows exactly what went over the pipe.
        let (mark, line) = match self {
            Said::Sent(line) => ('>', line),
            Said::Received(line) => ('<', line),
        };
        write!(f, "{mark} ")?;
        for c in line.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// The lines the engine wrote (stdout and stderr together) that a forensics log keeps.
pub const LOG_RECEIVED: usize = 50;

/// The lines sent to the engine that a forensics log keeps.
pub const LOG_SENT: usize = 20;

/// Where a line of an engine's log went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Sent to the engine (its stdin).
    Sent,
    /// Written by the engine on its stdout.
    Stdout,
    /// Written by the engine on its stderr.
    Stderr,
}

impl Stream {
    /// The mark a log line carries: `>` sent, `<` stdout, `!` stderr.
    pub fn mark(self) -> char {
        match self {
            Stream::Sent => '>',
            Stream::Stdout => '<',
            Stream::Stderr => '!',
        }
    }
}

/// One line of an engine's log, stamped when it went over the pipe (read by a reader thread,
/// or handed to the writer).
#[derive(Debug, Clone)]
pub(super) struct Stamped {
    at: Instant,
    stream: Stream,
    text: String,
}

/// The last lines of one stream, at most a fixed number: the oldest goes when a new one comes,
/// its buffer reused for a copied line (no allocation once the ring is full).
#[derive(Debug)]
pub(super) struct Ring {
    lines: VecDeque<Stamped>,
    capacity: usize,
}

impl Ring {
    pub(super) fn new(capacity: usize) -> Ring {
        Ring {
            lines: VecDeque::with_capacity(capacity),
            capacity,
        }
    }

    pub(super) fn push(&mut self, at: Instant, stream: Stream, text: String) {
        if self.lines.len() == self.capacity {
            self.lines.pop_front();
        }
        self.lines.push_back(Stamped { at, stream, text });
    }

    pub(super) fn push_copy(&mut self, at: Instant, stream: Stream, text: &str) {
        if self.lines.len() == self.capacity {
            if let Some(mut old) = self.lines.pop_front() {
                old.text.clear();
                old.text.push_str(text);
                old.at = at;
                old.stream = stream;
                self.lines.push_back(old);
                return;
            }
        }
        self.lines.push_back(Stamped {
            at,
            stream,
            text: text.to_string(),
        });
    }
}

/// One line of an [`EngineLog`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    /// When, from the engine's start.
    pub at: Duration,
    /// Which way.
    pub stream: Stream,
    /// The line.
    pub text: String,
}

impl fmt::Display for LogLine {
    /// `  12.345 < bestmove e2e4`: seconds since the engine started, the stream's mark, the line
    /// with control characters escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:>9.3} {} ", self.at.as_secs_f64(), self.stream.mark())?;
        for c in self.text.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// What an engine said and was told last: its last [`LOG_RECEIVED`] lines (stdout and stderr)
/// and the last [`LOG_SENT`] lines sent to it, in the order they went over the pipes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineLog {
    /// The lines, oldest first.
    pub lines: Vec<LogLine>,
    /// How the process ended (`exit status 3`, `killed by signal 9`, or that the runner stopped
    /// it), when the log was taken at its end.
    pub exit: Option<String>,
}

impl EngineLog {
    /// The log of an engine started at `epoch`: the last [`LOG_RECEIVED`] of the lines it wrote
    /// (`stdout` and `stderr` together) and the lines `sent` to it, in the order they went over
    /// the pipes.
    pub(super) fn merged(stdout: &Ring, stderr: &Ring, sent: &Ring, epoch: Instant) -> EngineLog {
        let mut received: Vec<&Stamped> = stdout.lines.iter().collect();
        received.extend(stderr.lines.iter());
        received.sort_by_key(|line| line.at);
        let skip = received.len().saturating_sub(LOG_RECEIVED);
        let mut lines: Vec<&Stamped> = received.into_iter().skip(skip).collect();
        lines.extend(sent.lines.iter());
        lines.sort_by_key(|line| line.at);
        EngineLog {
            lines: lines
                .into_iter()
                .map(|line| LogLine {
                    at: line.at.saturating_duration_since(epoch),
                    stream: line.stream,
                    text: line.text.clone(),
                })
                .collect(),
            exit: None,
        }
    }
}

/// Where every line of an engine's exchange is copied as it goes over the pipes, for a person
/// to read while it happens (cutechess-cli's `-debug`, fastchess's `-log engine=true`): what
/// the lines become is the caller's.
pub trait Echo: Send + Sync + fmt::Debug {
    /// A number for an engine process starting now under `name` (cutechess-cli numbers its
    /// engine processes from 0 in the order they start).
    fn started(&self, name: &str) -> u64;
    /// One line of `engine`'s exchange, sent or read at `at`.
    fn line(&self, engine: &Echoed, stream: Stream, text: &str, at: Instant);
}

/// An engine process whose lines go to an [`Echo`]: its name and number.
#[derive(Debug, Clone)]
pub struct Echoed {
    /// The engine's name.
    pub name: String,
    /// Its number, from [`Echo::started`].
    pub number: u64,
}

/// An engine's [`Echo`] and who it is there.
#[derive(Debug, Clone)]
pub(super) struct EchoTo {
    pub(super) echo: Arc<dyn Echo>,
    pub(super) engine: Echoed,
}

impl EchoTo {
    pub(super) fn line(&self, stream: Stream, text: &str, at: Instant) {
        self.echo.line(&self.engine, stream, text, at);
    }
}
