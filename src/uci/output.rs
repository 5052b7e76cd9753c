//! The engine's side of the pipe: every protocol line goes through [`Output::send`], which writes
//! it with a newline, flushes at once (a GUI waits for each line), logs it at `debug` level to
//! stderr and mirrors it to the `Debug Log File` when one is open.
//!
//! A write error means the GUI has gone (closed pipe): the output remembers it and the engine
//! loop ends quietly. Nothing here ever writes to stdout except protocol.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};

/// Where protocol lines go, and where traffic is mirrored.
pub struct Output<'w> {
    sink: &'w mut dyn Write,
    log_file: Option<(String, File)>,
    closed: bool,
}

impl<'w> Output<'w> {
    /// Protocol output to `sink`, no log file yet.
    pub fn new(sink: &'w mut dyn Write) -> Output<'w> {
        Output {
            sink,
            log_file: None,
            closed: false,
        }
    }

    /// Send one protocol line (without its newline).
    pub fn send(&mut self, line: &str) {
        log::debug!("<< {line}");
        self.mirror("<< ", line);
        if self.closed {
            return;
        }
        let written = self
            .sink
            .write_all(line.as_bytes())
            .and_then(|()| self.sink.write_all(b"\n"))
            .and_then(|()| self.sink.flush());
        if let Err(e) = written {
            log::info!("output closed ({e}); stopping");
            self.closed = true;
        }
    }

    /// Record one input line (the GUI's side of the traffic).
    pub fn record_input(&mut self, line: &str) {
        log::debug!(">> {line}");
        self.mirror(">> ", line);
    }

    /// True once a write has failed: nobody is listening any more.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Mirror traffic to `path` (appending), or stop mirroring when `path` is empty.
    pub fn set_log_file(&mut self, path: &str) -> io::Result<()> {
        if path.is_empty() {
            self.log_file = None;
            return Ok(());
        }
        if self.log_file.as_ref().is_some_and(|(open, _)| open == path) {
            return Ok(());
        }
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        self.log_file = Some((path.to_string(), file));
        Ok(())
    }

    fn mirror(&mut self, prefix: &str, line: &str) {
        if let Some((path, file)) = &mut self.log_file {
            let written = writeln!(file, "{prefix}{line}").and_then(|()| file.flush());
            if let Err(e) = written {
                log::warn!("cannot write the debug log file {path}: {e}; closing it");
                self.log_file = None;
            }
        }
    }
}
