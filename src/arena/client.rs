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

use super::adjudication::{InfoLine, MoveInfo};
use super::config::EngineConfig;
use crate::CastlingMode;
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

/// A running engine.
pub struct EngineProcess {
    child: Child,
    to_engine: Option<SyncSender<String>>,
    from_engine: Receiver<String>,
    /// The option names the engine announced, lower-cased.
    options: Vec<String>,
    /// Raised to abandon every wait (the match was interrupted).
    interrupt: Option<Arc<AtomicBool>>,
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

        let mut engine = EngineProcess {
            child,
            to_engine: Some(to_engine),
            from_engine,
            options: Vec::new(),
            interrupt,
        };
        let timeout = Duration::from_millis(config.init_timeout_ms);
        engine.send("uci");
        let mut options = Vec::new();
        engine.wait_for("uciok", timeout, |line| {
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                options.push(name.to_ascii_lowercase());
            }
            line == "uciok"
        })?;
        engine.options = options;
        for (name, value) in config.option_values() {
            engine.set_option(&name, &value);
        }
        if engine.has_option("UCI_Chess960") {
            engine.set_option("UCI_Chess960", &castling.is_chess960().to_string());
        }
        engine.ready(timeout)?;
        Ok(engine)
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
            match self.from_engine.recv_timeout(slice) {
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
