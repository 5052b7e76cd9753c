//! The `shannon` command: with no subcommand, the engine on stdin/stdout (UCI, or the xboard
//! protocol when its first command is `xboard`); otherwise one of the subcommands in `cli/`, each
//! parsed and run by its own file.

mod cli;

use cli::prelude::say;
use std::io::{self, Write};
use std::process::ExitCode;

/// Standard output that remembers whether its reader has gone (`shannon ... | head -1`: the
/// pipe is closed). A command whose reader left ends quietly with status 0, as `perft`, `exact`
/// and most Unix tools do, whatever error its unwritable output then made it return.
///
/// It hands standard output whole lines only, each write at once, so that lines another thread
/// writes to the same file (cutechess-cli's `-debug` echo) fall between them, never inside one
/// (standard output's own line buffer writes what it held and the rest of a line apart).
struct Watched<W: Write> {
    inner: W,
    reader_gone: bool,
    /// The start of a line not yet ended.
    partial: Vec<u8>,
}

impl<W: Write> Watched<W> {
    fn note<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if matches!(&result, Err(e) if e.kind() == io::ErrorKind::BrokenPipe) {
            self.reader_gone = true;
        }
        result
    }
}

impl<W: Write> Write for Watched<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        if let Some(end) = self.partial.iter().rposition(|&b| b == b'\n') {
            let rest = self.partial.split_off(end + 1);
            let lines = std::mem::replace(&mut self.partial, rest);
            let result = self.inner.write_all(&lines);
            self.note(result)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let partial = std::mem::take(&mut self.partial);
        let result = self
            .inner
            .write_all(&partial)
            .and_then(|()| self.inner.flush());
        self.note(result)
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut out = Watched {
        inner: io::stdout().lock(),
        reader_gone: false,
        partial: Vec::new(),
    };
    let result = match cli::run_compat_match(&args, &mut out) {
        Some(result) => result,
        None => {
            let cli = cli::parse_or_exit(&args);
            match (cli.generate, cli.command) {
                (Some(what), _) => cli::generate(what, &mut out),
                (None, Some(command)) => command.run(&mut out),
                (None, None) => {
                    drop(out);
                    shannon::uci::run_stdio();
                    return ExitCode::SUCCESS;
                }
            }
        }
    };
    let _ = out.flush();
    if out.reader_gone {
        return ExitCode::SUCCESS;
    }
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            say!("shannon: {e}");
            ExitCode::from(2)
        }
    }
}
