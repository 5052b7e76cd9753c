//! The engines' exchange as each tool shows it while it happens: cutechess-cli's `-debug` on
//! standard output (`1234 >alpha(0): go nodes 1000`, `<` for what the engine said: milliseconds
//! since the match began, the engine's name and number), fastchess's `-log file=F level=L
//! engine=true` in its log file (`[Engine] [04:30:29.739272] <  ...>  alpha <--- position
//! startpos`, `--->` for what the engine said, `<stderr> ` before its standard error), with
//! fastchess's own lines of the levels asked for.

use shannon::client::{Echo, Echoed, Stream};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// cutechess-cli's `-debug`: every line on standard output, as its `EngineMatch::print` prints
/// `ChessEngine`'s debug messages (the engine's standard error is not among them).
/// The lines go to standard output's file itself, unbuffered (the report holds Rust's
/// standard output locked for the whole run, and writes whole lines).
#[derive(Debug)]
pub struct CutechessDebug {
    start: Instant,
    engines: AtomicU64,
    out: Mutex<Option<File>>,
}

impl CutechessDebug {
    /// Timed from now.
    pub fn new() -> CutechessDebug {
        #[cfg(unix)]
        let out = {
            use std::os::fd::AsFd;
            std::io::stdout()
                .as_fd()
                .try_clone_to_owned()
                .ok()
                .map(File::from)
        };
        #[cfg(not(unix))]
        let out = None;
        CutechessDebug {
            start: Instant::now(),
            engines: AtomicU64::new(0),
            out: Mutex::new(out),
        }
    }
}

impl Echo for CutechessDebug {
    fn started(&self, _name: &str) -> u64 {
        self.engines.fetch_add(1, Ordering::Relaxed)
    }

    fn line(&self, engine: &Echoed, stream: Stream, text: &str, at: Instant) {
        let mark = match stream {
            Stream::Sent => '>',
            Stream::Stdout => '<',
            Stream::Stderr => return,
        };
        let ms = at.saturating_duration_since(self.start).as_millis();
        let line = format!("{ms} {mark}{}({}): {text}\n", engine.name, engine.number);
        // A closed standard output ends the run elsewhere; a line lost here is no error.
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(file) = out.as_mut() {
            let _ = file.write_all(line.as_bytes());
        }
    }
}

/// fastchess's log levels (`-log level=`): a line is written when its level is the one asked
/// or above. fastchess 1.8.2-alpha has no `debug` level (it refuses `level=debug`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    /// `trace`.
    Trace,
    /// `info`.
    Info,
    /// `warn` (the default).
    Warn,
    /// `err`.
    Err,
    /// `fatal`.
    Fatal,
}

impl LogLevel {
    /// The level `-log level=` names.
    pub fn parse(word: &str) -> Option<LogLevel> {
        Some(match word {
            "trace" => LogLevel::Trace,
            "info" => LogLevel::Info,
            "warn" => LogLevel::Warn,
            "err" => LogLevel::Err,
            "fatal" => LogLevel::Fatal,
            _ => return None,
        })
    }
}

/// What `-log` asked for.
#[derive(Debug, Clone)]
pub struct LogSettings {
    /// `file=`.
    pub file: PathBuf,
    /// `level=` (default warn).
    pub level: LogLevel,
    /// `append=` (default true; false empties the file first).
    pub append: bool,
    /// `engine=`: the engines' exchange too.
    pub engine: bool,
}

/// fastchess's log file.
#[derive(Debug)]
pub struct FastchessLog {
    file: Mutex<File>,
    settings: LogSettings,
    start: Instant,
}

thread_local! {
    /// This thread's number in the log (fastchess writes the thread's id).
    static THREAD: u64 = NEXT_THREAD.fetch_add(1, Ordering::Relaxed);
}

static NEXT_THREAD: AtomicU64 = AtomicU64::new(1);

impl FastchessLog {
    /// The log `settings` ask for, its file opened (appended to unless `append=false`), and
    /// fastchess's first lines written: its version and the tournament's start (at `info`).
    pub fn open(settings: LogSettings) -> std::io::Result<FastchessLog> {
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .append(settings.append)
            .truncate(!settings.append)
            .open(&settings.file)?;
        let log = FastchessLog {
            file: Mutex::new(file),
            settings,
            start: Instant::now(),
        };
        log.note(
            LogLevel::Info,
            &format!("shannon {}", env!("CARGO_PKG_VERSION")),
        );
        log.note(LogLevel::Info, "Starting tournament...");
        Ok(log)
    }

    /// One of fastchess's own lines, when `level` is logged: `[INFO  ] [time] <  (20 spaces)>
    /// fastchess --- text`.
    pub fn note(&self, level: LogLevel, text: &str) {
        if level < self.settings.level {
            return;
        }
        let label = match level {
            LogLevel::Trace => "TRACE",
            LogLevel::Info => "INFO",
            LogLevel::Warn => "WARN",
            LogLevel::Err => "ERR",
            LogLevel::Fatal => "FATAL",
        };
        let prefix = prefix(label, SystemTime::now(), "");
        self.write(&format!("{prefix}fastchess --- {text}\n"));
    }

    fn write(&self, text: &str) {
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        // A log that cannot be written loses lines; the match goes on, as fastchess's does.
        let _ = file.write_all(text.as_bytes());
    }
}

/// fastchess's `make_prefix`: `[label ] [HH:MM:SS.micros] <thread id, 20 wide> `.
fn prefix(label: &str, at: SystemTime, thread: &str) -> String {
    format!("[{label:<6}] [{:>15}] <{thread:>20}> ", time_of_day(at))
}

/// `HH:MM:SS.ffffff`, UTC (fastchess writes local time; Shannon reads no time zone).
fn time_of_day(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    let seconds = since.as_secs() % 86_400;
    format!(
        "{:02}:{:02}:{:02}.{:06}",
        seconds / 3600,
        seconds % 3600 / 60,
        seconds % 60,
        since.subsec_micros()
    )
}

impl Echo for FastchessLog {
    fn started(&self, _name: &str) -> u64 {
        0
    }

    fn line(&self, engine: &Echoed, stream: Stream, text: &str, at: Instant) {
        if !self.settings.engine {
            return;
        }
        let when = SystemTime::now() - Instant::now().saturating_duration_since(at);
        let thread = THREAD.with(|n| n.to_string());
        let prefix = prefix("Engine", when, &thread);
        let name = &engine.name;
        let line = match stream {
            Stream::Sent => format!("{prefix} {name} <--- {text}\n"),
            Stream::Stdout => format!("{prefix} {name} ---> {text}\n"),
            Stream::Stderr => format!("{prefix} <stderr> {name} ---> {text}\n"),
        };
        self.write(&line);
    }
}

impl Drop for FastchessLog {
    /// fastchess's last lines (`Finished match`, the total time), at `info`.
    fn drop(&mut self) {
        self.note(LogLevel::Info, "Finished match\n");
        let total = self.start.elapsed().as_secs();
        self.note(
            LogLevel::Info,
            &format!(
                "Total Time: {:02}:{:02}:{:02} (hours:minutes:seconds)\n",
                total / 3600,
                total % 3600 / 60,
                total % 60
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fastchess_prefixes_are_as_its_logger_makes_them() {
        let at =
            UNIX_EPOCH + Duration::from_micros(((4 * 3600 + 30 * 60 + 29) * 1_000_000) + 739_272);
        assert_eq!(
            prefix("Engine", at, "140004986836672"),
            "[Engine] [04:30:29.739272] <     140004986836672> "
        );
        assert_eq!(
            prefix("INFO", at, ""),
            "[INFO  ] [04:30:29.739272] <                    > "
        );
        assert_eq!(LogLevel::parse("debug"), None);
        assert!(LogLevel::parse("trace").unwrap() < LogLevel::Warn);
    }
}
