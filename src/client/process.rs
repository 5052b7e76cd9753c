//! A UCI engine in a child process, driven by the runner.
//!
//! Two helper threads per engine keep the runner from ever blocking on it: a reader turns the
//! engine's stdout into lines on a bounded channel (invalid UTF-8 decoded lossily, so garbage
//! is only a line to ignore), and a writer feeds its stdin (an engine that stops reading cannot
//! stall us; it only stops answering, which a timeout catches). Dropping the client sends
//! `quit`, then kills and reaps the process.
//!
//! An engine runs in a process group of its own, so a Ctrl-C at the terminal reaches only the
//! runner: the runner decides what an interrupted game is and ends every engine itself, rather
//! than seeing engines die mid-game and scoring that as crashes. A client given an interrupt
//! flag stops waiting as soon as the flag is raised.

use super::config::EngineConfig;
use super::info::{InfoLine, MoveInfo};
use crate::types::CastlingMode;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Lines buffered from an engine before its reader waits (bounds memory if it floods stdout).
const LINE_BUFFER: usize = 4096;

/// How often a wait looks at the interrupt flag: short enough that an interrupted match ends
/// at once for a person, long enough to cost nothing.
const INTERRUPT_POLL: Duration = Duration::from_millis(20);

/// What went wrong talking to an engine.
#[derive(Debug)]
pub enum EngineError {
    /// The program could not be started.
    Spawn(String, std::io::Error),
    /// No answer in time.
    Timeout {
        /// What the runner was waiting for.
        waiting_for: String,
        /// How long it waited.
        after: Duration,
    },
    /// The process ended (crashed or quit).
    Exited {
        /// What the runner was waiting for.
        waiting_for: String,
    },
    /// The runner was interrupted (Ctrl-C, SIGTERM) while it waited.
    Interrupted {
        /// What the runner was waiting for.
        waiting_for: String,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(command, e) => write!(f, "cannot start '{command}': {e}"),
            EngineError::Timeout { waiting_for, after } => {
                write!(f, "no {waiting_for} within {} ms", after.as_millis())
            }
            EngineError::Exited { waiting_for } => {
                write!(
                    f,
                    "the engine exited while the runner waited for {waiting_for}"
                )
            }
            EngineError::Interrupted { waiting_for } => {
                write!(f, "interrupted while waiting for {waiting_for}")
            }
        }
    }
}

impl std::error::Error for EngineError {}

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

/// The most lines a transcript keeps (an engine flooding its output must not fill memory).
const TRANSCRIPT_LINES: usize = 400;

/// A running engine.
pub struct EngineProcess {
    child: Child,
    to_engine: Option<SyncSender<String>>,
    from_engine: Receiver<String>,
    /// The option names the engine announced, lower-cased.
    options: Vec<String>,
    /// Raised to abandon every wait (the match was interrupted).
    interrupt: Option<Arc<AtomicBool>>,
    /// The exchange since recording started, when it is being recorded.
    transcript: Option<Vec<Said>>,
}

impl EngineProcess {
    /// Start the engine, wait for `uciok`, send its configured options (and `UCI_Chess960`
    /// when it announces that option), then wait for `readyok`.
    pub fn start(
        config: &EngineConfig,
        castling: CastlingMode,
    ) -> Result<EngineProcess, EngineError> {
        EngineProcess::start_interruptible(config, castling, None)
    }

    /// [`EngineProcess::start`] whose waits, the handshake's included, end with
    /// [`EngineError::Interrupted`] once `interrupt` is raised.
    pub fn start_interruptible(
        config: &EngineConfig,
        castling: CastlingMode,
        interrupt: Option<Arc<AtomicBool>>,
    ) -> Result<EngineProcess, EngineError> {
        let mut engine = EngineProcess::spawn(config, interrupt)?;
        let timeout = Duration::from_millis(config.init_timeout_ms);
        engine.handshake(timeout)?;
        for (name, value) in config.option_values() {
            engine.set_option(&name, &value);
        }
        if engine.has_option("UCI_Chess960") {
            engine.set_option("UCI_Chess960", &castling.is_chess960().to_string());
        }
        engine.ready(timeout)?;
        Ok(engine)
    }

    /// `uci`, then wait for `uciok`: the lines the engine sent before it (its `id` and `option`
    /// lines), and the options it announced remembered for [`EngineProcess::has_option`].
    pub fn handshake(&mut self, timeout: Duration) -> Result<Vec<String>, EngineError> {
        self.send("uci");
        let mut lines = Vec::new();
        self.wait_for("uciok", timeout, |line| {
            lines.push(line.to_string());
            line == "uciok"
        })?;
        lines.pop();
        self.options = lines
            .iter()
            .filter_map(|line| line.strip_prefix("option name "))
            .map(|rest| {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                name.to_ascii_lowercase()
            })
            .collect();
        Ok(lines)
    }

    /// Start the engine's process and nothing more: no `uci`, no options (for checks of the
    /// handshake itself).
    pub fn spawn(
        config: &EngineConfig,
        interrupt: Option<Arc<AtomicBool>>,
    ) -> Result<EngineProcess, EngineError> {
        let program = config.resolve_command().map_err(|e| {
            EngineError::Spawn(config.command.clone(), std::io::Error::other(e.to_string()))
        })?;
        let mut command = Command::new(&program);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| EngineError::Spawn(config.command.clone(), e))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stdin = child.stdin.take().expect("piped stdin");

        let (line_tx, from_engine) = mpsc::sync_channel(LINE_BUFFER);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buffer).trim_end().to_string();
                        if line_tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let (to_engine, commands) = mpsc::sync_channel::<String>(LINE_BUFFER);
        std::thread::spawn(move || {
            for line in commands {
                if writeln!(stdin, "{line}")
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });

        Ok(EngineProcess {
            child,
            to_engine: Some(to_engine),
            from_engine,
            options: Vec::new(),
            interrupt,
            transcript: None,
        })
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Start keeping the exchange (anew).
    pub fn record(&mut self) {
        self.transcript = Some(Vec::new());
    }

    /// The exchange kept since [`EngineProcess::record`] (empty when not recording).
    pub fn transcript(&self) -> &[Said] {
        self.transcript.as_deref().unwrap_or(&[])
    }

    fn keep(&mut self, said: Said) {
        if let Some(transcript) = self.transcript.as_mut() {
            if transcript.len() < TRANSCRIPT_LINES {
                transcript.push(said);
            }
        }
    }

    /// Close the engine's input (what a GUI that dies does).
    pub fn close_input(&mut self) {
        self.keep(Said::Sent("(end of input)".into()));
        self.to_engine = None;
    }

    /// Wait up to `timeout` for the process to end; true when it did.
    pub fn exited_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Every line the engine has sent and we have not read yet, waiting up to `quiet` after the
    /// last one (to see what an engine says unasked, or whether it says nothing).
    pub fn drain(&mut self, quiet: Duration) -> Vec<String> {
        let mut lines = Vec::new();
        while let Ok(line) = self.from_engine.recv_timeout(quiet) {
            self.keep(Said::Received(line.clone()));
            lines.push(line);
            if lines.len() >= TRANSCRIPT_LINES {
                break;
            }
        }
        lines
    }

    /// The option names the engine announced in its handshake, lower-cased.
    pub fn options(&self) -> &[String] {
        &self.options
    }

    /// True when the engine announced an option of this name (case-insensitive).
    pub fn has_option(&self, name: &str) -> bool {
        self.options.contains(&name.to_ascii_lowercase())
    }

    /// Send `setoption name N value V`.
    pub fn set_option(&mut self, name: &str, value: &str) {
        self.send(&format!("setoption name {name} value {value}"));
    }

    /// Send one line (never blocks; a stuck engine shows up as a timeout later).
    pub fn send(&mut self, line: &str) {
        self.keep(Said::Sent(line.to_string()));
        if let Some(tx) = &self.to_engine {
            // A full buffer means the engine stopped reading: drop the line, it will time out.
            let _ = tx.try_send(line.to_string());
        }
    }

    /// `isready`, then wait for `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready");
        self.wait_for("readyok", timeout, |line| line == "readyok")
            .map(|_| ())
    }

    /// Read lines until `done` accepts one (returned) or the timeout passes.
    pub fn wait_for(
        &mut self,
        what: &str,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let interrupted = self
                .interrupt
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed));
            if interrupted {
                return Err(EngineError::Interrupted {
                    waiting_for: what.to_string(),
                });
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let slice = match self.interrupt {
                Some(_) => left.min(INTERRUPT_POLL),
                None => left,
            };
            let received = self.from_engine.recv_timeout(slice);
            if let Ok(line) = &received {
                self.keep(Said::Received(line.clone()));
            }
            match received {
                Ok(line) if done(&line) => return Ok(line),
                // Lines that are not the answer do not extend the wait (an engine flooding
                // output must still time out).
                Ok(_) | Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Ok(_) | Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout {
                        waiting_for: what.to_string(),
                        after: timeout,
                    })
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineError::Exited {
                        waiting_for: what.to_string(),
                    })
                }
            }
        }
    }

    /// Send `go ...` and wait for `bestmove`; returns the move text, and the time taken with
    /// the last score and depth the engine's `info` lines gave.
    pub fn go(&mut self, go: &str, timeout: Duration) -> Result<(String, MoveInfo), EngineError> {
        let started = Instant::now();
        self.send(go);
        let mut info = MoveInfo::default();
        let line = self.wait_for("bestmove", timeout, |line| {
            if let Some(fields) = InfoLine::parse(line) {
                info.absorb(&fields);
            }
            line.starts_with("bestmove")
        })?;
        info.time = started.elapsed();
        let mv = line.split_whitespace().nth(1).unwrap_or("").to_string();
        Ok((mv, info))
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.send("quit");
        // Closing the channel ends the writer thread, which closes the engine's stdin.
        self.to_engine = None;
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
