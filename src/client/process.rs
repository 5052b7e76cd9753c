//! An engine in a child process, driven by the runner: its pipes, its waits, its log, whatever
//! protocol it speaks (UCI's exchange is in `uci`, xboard's in `xboard`, and what either does
//! on a turn in `protocol`).
//!
//! The runner never blocks on an engine: its stdin and stdout are non-blocking pipes driven from
//! the runner's own thread (see the `pipes` module): an engine that stops reading cannot stall us,
//! it only stops answering, which a timeout catches. Its stderr is read by a thread of its own
//! (for the forensics of a forfeit, and the engine's `stderr` file). Dropping the client sends
//! `quit`, then kills and reaps the process.
//!
//! An engine runs in a process group of its own, so a Ctrl-C at the terminal reaches only the
//! runner: the runner decides what an interrupted game is and ends every engine itself, rather
//! than seeing engines die mid-game and scoring that as crashes. A client given an interrupt
//! flag stops waiting as soon as the flag is raised.

use super::config::EngineConfig;
use super::info::{InfoLine, MoveInfo, MoveTiming};
use super::log::{Echo, EchoTo, Echoed, EngineLog, Ring, Said, Stream, LOG_RECEIVED, LOG_SENT};
use super::option::{DeclaredOption, OptionProblem, OptionSetting};
use super::pipes::{EngineInput, EngineOutput, Read1};
use super::session::{UciSession, XboardSession};
use std::fmt;
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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
    /// The engine cannot play the game asked of it (an xboard engine without Chess960 among
    /// its variants, or without `nps` for a node limit): what it lacks.
    Unsupported(String),
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
            EngineError::Unsupported(what) => write!(f, "the engine cannot play {what}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// The most lines a transcript keeps (an engine flooding its output must not fill memory).
const TRANSCRIPT_LINES: usize = 400;

/// Test-only: a delay (in milliseconds) the runner waits after reading each `bestmove` before
/// handling it, read once from this environment variable. It exists so that a test can make
/// the harness, not the engine, late on the clock (a loaded machine, honestly simulated); it is
/// not a setting, and nobody else should set it.
pub const TEST_RUNNER_DELAY_VAR: &str = "SHANNON_TEST_RUNNER_DELAY_MS";

fn test_runner_delay() -> Option<Duration> {
    static DELAY: OnceLock<Option<Duration>> = OnceLock::new();
    *DELAY.get_or_init(|| {
        std::env::var(TEST_RUNNER_DELAY_VAR)
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map(Duration::from_millis)
    })
}

/// How a protocol's lines are read at the end of a move: what a line of search information
/// says, and which line is the answer.
#[derive(Clone, Copy)]
pub(super) struct Dialect {
    /// A line of search information, read.
    pub(super) info: fn(&str) -> Option<InfoLine>,
    /// True for the line that answers (`bestmove`, xboard's `move`).
    pub(super) is_answer: fn(&str) -> bool,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    to_engine: EngineInput,
    from_engine: EngineOutput,
    /// When the process was started (a log's times count from it).
    epoch: Instant,
    /// The last lines sent.
    sent: Ring,
    /// The last stdout lines handled.
    received: Ring,
    /// The last stderr lines, kept by the stderr thread.
    stderr: Arc<Mutex<Ring>>,
    /// The stderr thread (it ends when the engine's stderr closes).
    stderr_thread: Option<JoinHandle<()>>,
    /// When the reader thread read the last line `wait_for` accepted.
    pub(super) accepted_at: Option<Instant>,
    /// What the last `go` gathered and measured, kept when it failed.
    pub(super) last_go: MoveInfo,
    /// The option names the engine announced, lower-cased.
    pub(super) options: Vec<String>,
    /// The options it declared, read.
    pub(super) declared: Vec<DeclaredOption>,
    /// The values sent to its options since it started (by the name sent), the latest last.
    pub(super) sent_values: Vec<(String, String)>,
    /// The configured options not sent at the last start, and why (taken by the runner).
    pub(super) option_problems: Vec<OptionProblem>,
    /// What a UCI engine was told of the game in hand.
    pub(super) uci: UciSession,
    /// The xboard session, when the engine speaks xboard (`None`: UCI).
    pub(super) xboard: Option<Box<XboardSession>>,
    /// Raised to abandon every wait (the match was interrupted).
    interrupt: Option<Arc<AtomicBool>>,
    /// The exchange since recording started, when it is being recorded.
    transcript: Option<Vec<Said>>,
    /// Where every line is copied as it goes, when somewhere ([`EngineProcess::echo_to`]); the
    /// stderr thread reads it too.
    echo: Arc<OnceLock<EchoTo>>,
}

impl EngineProcess {
    /// Start the engine's process and nothing more: no `uci`, no options (for checks of the
    /// handshake itself).
    pub fn spawn(
        config: &EngineConfig,
        interrupt: Option<Arc<AtomicBool>>,
    ) -> Result<EngineProcess, EngineError> {
        let program = config.resolve_command().map_err(|e| {
            EngineError::Spawn(config.command.clone(), std::io::Error::other(e.to_string()))
        })?;
        let mut stderr_file = match &config.stderr {
            Some(path) => Some(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| {
                        let why = format!("cannot open its stderr file {}: {e}", path.display());
                        EngineError::Spawn(config.command.clone(), std::io::Error::other(why))
                    })?,
            ),
            None => None,
        };
        let mut command = Command::new(&program);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| EngineError::Spawn(config.command.clone(), e))?;
        let epoch = Instant::now();
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let stdin = child.stdin.take().expect("piped stdin");

        let pipes =
            EngineOutput::new(stdout).and_then(|output| Ok((output, EngineInput::new(stdin)?)));
        let (from_engine, to_engine) = match pipes {
            Ok(pipes) => pipes,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(EngineError::Spawn(config.command.clone(), e));
            }
        };
        // Stderr is read to its end: its last lines kept, all of it appended to the engine's
        // stderr file when it has one.
        let stderr = Arc::new(Mutex::new(Ring::new(LOG_RECEIVED)));
        let stderr_ring = Arc::clone(&stderr);
        let echo: Arc<OnceLock<EchoTo>> = Arc::default();
        let stderr_echo = Arc::clone(&echo);
        let stderr_thread = std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr_pipe);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let at = Instant::now();
                        if let Some(file) = stderr_file.as_mut() {
                            if file.write_all(&buffer).is_err() {
                                stderr_file = None;
                            }
                        }
                        let line = String::from_utf8_lossy(&buffer).trim_end().to_string();
                        if let Some(echo) = stderr_echo.get() {
                            echo.line(Stream::Stderr, &line, at);
                        }
                        if let Ok(mut ring) = stderr_ring.lock() {
                            ring.push(at, Stream::Stderr, line);
                        }
                    }
                }
            }
        });
        Ok(EngineProcess {
            child,
            to_engine,
            from_engine,
            epoch,
            sent: Ring::new(LOG_SENT),
            received: Ring::new(LOG_RECEIVED),
            stderr,
            stderr_thread: Some(stderr_thread),
            accepted_at: None,
            last_go: MoveInfo::default(),
            options: Vec::new(),
            declared: Vec::new(),
            sent_values: Vec::new(),
            option_problems: Vec::new(),
            uci: UciSession::default(),
            xboard: None,
            interrupt,
            transcript: None,
            echo,
        })
    }

    /// Copy every line from now on to `echo`, the engine called `name` there (once: a second
    /// call changes nothing).
    pub fn echo_to(&mut self, echo: Arc<dyn Echo>, name: &str) {
        let engine = Echoed {
            name: name.to_string(),
            number: echo.started(name),
        };
        let _ = self.echo.set(EchoTo { echo, engine });
    }

    fn echo(&self, stream: Stream, text: &str, at: Instant) {
        if let Some(echo) = self.echo.get() {
            echo.line(stream, text, at);
        }
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
        self.to_engine.close();
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
        while let Read1::Line(at, line) = self.from_engine.next_line(quiet, &mut self.to_engine) {
            self.echo(Stream::Stdout, &line, at);
            self.keep(Said::Received(line.clone()));
            self.received.push_copy(at, Stream::Stdout, &line);
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

    /// Each option the engine declared and the value it holds: the last one sent (names
    /// compared without case), else its declared default.
    pub fn option_settings(&self) -> Vec<OptionSetting> {
        self.declared
            .iter()
            .map(|option| OptionSetting {
                option: option.clone(),
                value: self
                    .sent_values
                    .iter()
                    .rev()
                    .find(|(name, _)| name.eq_ignore_ascii_case(&option.name))
                    .map(|(_, value)| value.clone())
                    .or_else(|| option.default.clone()),
            })
            .collect()
    }

    /// The configured options the last start did not send, and why (empty once taken).
    pub fn take_option_problems(&mut self) -> Vec<OptionProblem> {
        std::mem::take(&mut self.option_problems)
    }

    /// Send one line (never blocks; a stuck engine shows up as a timeout later).
    pub fn send(&mut self, line: &str) {
        self.queue(line);
        self.to_engine.flush();
    }

    /// Queue one line, to be written with the next line sent (one write for a `position` and
    /// the `go` after it: the engine wakes once).
    pub fn queue(&mut self, line: &str) {
        if self.transcript.is_some() {
            self.keep(Said::Sent(line.to_string()));
        }
        let now = Instant::now();
        self.echo(Stream::Sent, line, now);
        self.sent.push_copy(now, Stream::Sent, line);
        self.to_engine.queue(line);
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
            let received = self.from_engine.next_line(slice, &mut self.to_engine);
            if let Read1::Line(at, line) = &received {
                self.echo(Stream::Stdout, line, *at);
                if self.transcript.is_some() {
                    self.keep(Said::Received(line.clone()));
                }
            }
            let answer = match received {
                Read1::Line(at, line) if done(&line) => {
                    self.received.push_copy(at, Stream::Stdout, &line);
                    self.accepted_at = Some(at);
                    Some(line)
                }
                Read1::Line(at, line) => {
                    // Kept in the log by value: no copy of a line that is not the answer.
                    self.received.push(at, Stream::Stdout, line);
                    None
                }
                Read1::Timeout => None,
                Read1::Closed => {
                    return Err(EngineError::Exited {
                        waiting_for: what.to_string(),
                    })
                }
            };
            match answer {
                Some(line) => return Ok(line),
                // Lines that are not the answer do not extend the wait (an engine flooding
                // output must still time out).
                None if Instant::now() < deadline => {}
                None => {
                    return Err(EngineError::Timeout {
                        waiting_for: what.to_string(),
                        after: timeout,
                    })
                }
            }
        }
    }

    /// The end of a `go` (or of an xboard engine's turn) begun at `started`: its timing
    /// measured, what the engine said kept for [`EngineProcess::last_go`], and the answer's
    /// move read by `read`.
    pub(super) fn finish_go(
        &mut self,
        started: Instant,
        mut info: MoveInfo,
        answer: Result<String, EngineError>,
        dialect: Dialect,
        read: impl FnOnce(&str) -> String,
    ) -> Result<(String, MoveInfo), EngineError> {
        // Taken after the wait: a `go` the pipe had no room for is written while it lasts.
        let mut timing = MoveTiming {
            go_sent: Some(started),
            go_written: self.written_at().filter(|&at| at >= started),
            ..MoveTiming::default()
        };
        match answer {
            Ok(line) => {
                if let Some(delay) = test_runner_delay() {
                    std::thread::sleep(delay);
                }
                let handled = Instant::now();
                info.time = handled - started;
                timing.bestmove_read = self.accepted_at;
                timing.bestmove_handled = Some(handled);
                info.timing = timing;
                self.last_go = info;
                Ok((read(&line), info))
            }
            Err(error) => {
                info.time = started.elapsed();
                // Lines read but not handled yet: the engine's last word may be among them (a
                // `bestmove` the runner was too late for).
                while let Read1::Line(at, line) = self
                    .from_engine
                    .next_line(Duration::ZERO, &mut self.to_engine)
                {
                    if let Some(fields) = (dialect.info)(&line) {
                        info.absorb(&fields);
                    }
                    if (dialect.is_answer)(&line) && timing.bestmove_read.is_none() {
                        timing.bestmove_read = Some(at);
                    }
                    self.echo(Stream::Stdout, &line, at);
                    self.received.push(at, Stream::Stdout, line);
                }
                info.timing = timing;
                self.last_go = info;
                Err(error)
            }
        }
    }

    /// What the last [`EngineProcess::go`] gathered from the engine's `info` lines and what the
    /// runner measured of it (also when it failed: a timeout keeps the engine's last `info
    /// time`).
    pub fn last_go(&self) -> MoveInfo {
        self.last_go
    }

    /// When the last line sent was written to the engine's pipe.
    pub(super) fn written_at(&self) -> Option<Instant> {
        self.to_engine.written_at()
    }

    /// The engine's log so far (it may still be running: its latest stderr lines may be missing).
    pub fn log(&self) -> EngineLog {
        let stderr = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        EngineLog::merged(&self.received, &stderr, &self.sent, self.epoch)
    }

    /// Stop the engine and return its whole log: what it wrote before it ended (its stderr read
    /// to the end, for up to half a second) and how it ended.
    pub fn into_log(mut self) -> EngineLog {
        // An engine that closed its output is ending: a moment to see how.
        let mut ended = None;
        let deadline = Instant::now() + Duration::from_millis(100);
        while ended.is_none() && Instant::now() < deadline {
            ended = self.child.try_wait().ok().flatten();
            if ended.is_none() {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        self.shut_down();
        if let Some(thread) = self.stderr_thread.take() {
            let deadline = Instant::now() + Duration::from_millis(500);
            while !thread.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(2));
            }
            if thread.is_finished() {
                let _ = thread.join();
            }
        }
        while let Read1::Line(at, line) = self
            .from_engine
            .next_line(Duration::ZERO, &mut self.to_engine)
        {
            self.received.push(at, Stream::Stdout, line);
        }
        let exit = match ended {
            Some(status) => exit_words(status),
            None => "running until the runner stopped it".to_string(),
        };
        EngineLog {
            exit: Some(exit),
            ..self.log()
        }
    }

    /// `quit`, then the process killed if it has not ended within 200 ms, and reaped.
    fn shut_down(&mut self) {
        if self.to_engine.is_closed() {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
        }
        self.send("quit");
        self.to_engine.close();
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

/// How a process ended, in words: `exit status 3`, `killed by signal 9`.
fn exit_words(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => status.to_string(),
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shut_down();
    }
}
