//! What the subcommand files share (as cargo's `command_prelude`): the error a subcommand
//! returns, the line it writes to stderr (`say!`), the check of its output files, the
//! `--generator` and `--engine` arguments, and rates.
//! The dispatcher in `mod.rs` only dispatches; every subcommand imports from here.

use clap::builder::TypedValueParser;
use shannon::movegen::Generator;
use std::fmt;

/// Why a subcommand could not run: the message is the whole story, printed as `shannon: ...`.
#[derive(Debug)]
pub struct CliError(String);

impl CliError {
    /// An error with this message.
    pub fn new(message: impl fmt::Display) -> CliError {
        CliError(message.to_string())
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> CliError {
        CliError::new(format!("cannot write the report: {e}"))
    }
}

/// `eprintln!` without its panic when standard error is gone: with `shannon ... 2>&1 | head -1`
/// the reader of both streams leaves, and a note written after that is lost like the rest of the
/// output instead of ending the command with a panic. Every line the command line writes to
/// stderr goes through it.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}
pub(crate) use say;

/// Standard error as a writer that, like [`say!`], loses what it cannot write instead of
/// failing: for the functions that write their warnings to a writer they are given (pack,
/// unpack, codec-report), so that a closed stderr does not end their work.
pub struct Stderr;

impl std::io::Write for Stderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = std::io::stderr().lock().write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let _ = std::io::stderr().flush();
        Ok(())
    }
}

/// `--overwrite`, for every subcommand that writes files: the one rule of them all, as `match`
/// keeps for its games. An output file that exists is refused before any work starts, naming
/// it; `--overwrite` replaces it. (A re-run over the first run's files, or two runs pointed at
/// one folder, then loses nothing unasked.)
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct Overwrite {
    /// Replace output files that exist (without it, a command whose output file exists is
    /// refused before it starts, naming the file).
    #[arg(long)]
    pub overwrite: bool,
}

impl Overwrite {
    /// Check, before any long work starts, that each output file may and can be written: one
    /// that exists is refused unless `--overwrite` was given (then it is opened for writing and
    /// left as it is until the work is done); a new one is made and removed again. So a wrong
    /// path or a file of an earlier run is an error at once, not after hours of work whose
    /// results are then lost or written over.
    pub fn check<'a>(
        self,
        outputs: impl IntoIterator<Item = (&'a str, Option<&'a std::path::Path>)>,
    ) -> Result<(), CliError> {
        for (what, path) in outputs {
            let Some(path) = path else { continue };
            if !self.overwrite && path.exists() {
                return Err(CliError::new(format!(
                    "{what} {} exists: choose another name, or add --overwrite to replace it",
                    path.display()
                )));
            }
            shannon::jobs::atomic_file::check_writable(path).map_err(|e| {
                CliError::new(format!("cannot write {what} {}: {e}", path.display()))
            })?;
        }
        Ok(())
    }
}

/// `--generator`: which move generator, by the names [`Generator`] reads and writes, each with
/// its description in `--help`.
pub fn generator_parser() -> impl TypedValueParser<Value = Generator> {
    let names =
        Generator::ALL.map(|g| clap::builder::PossibleValue::new(g.name()).help(g.description()));
    clap::builder::PossibleValuesParser::new(names)
        .map(|name| name.parse::<Generator>().expect("a generator's own name"))
}

/// `--engine NAME [--config FILE]`: one engine of an engines file, for the commands that test
/// one engine (audit, perft-check).
#[derive(clap::Args)]
pub struct EngineChoice {
    /// The engine: a name in engines.toml, else a command (a path, or a program on PATH).
    #[arg(long)]
    pub engine: String,
    /// The engines file (default: ./engines.toml, else the built-in one).
    #[arg(long)]
    pub config: Option<std::path::PathBuf>,
}

impl EngineChoice {
    /// The engine asked for, its program found, of either protocol; says on stderr when the
    /// name was taken as a command because the engines file does not have it.
    pub fn resolve(&self) -> Result<shannon::client::EngineConfig, CliError> {
        use shannon::client::Config;
        let (engine, origin) = Config::load(self.config.as_deref())
            .and_then(|config| config.runnable_engine(&self.engine))
            .map_err(CliError::new)?;
        note_origin(&self.engine, &origin, self.config.as_deref());
        Ok(engine)
    }

    /// [`EngineChoice::resolve`] for a command that talks UCI only (perft-check's `go perft`):
    /// an xboard engine is refused by name.
    pub fn resolve_uci(&self) -> Result<shannon::client::EngineConfig, CliError> {
        let engine = self.resolve()?;
        if !engine.protocol.is_uci() {
            return Err(CliError::new(format!(
                "engine '{}' speaks xboard (protocol = \"xboard\" in the engines file): \
                 perft-check talks to UCI engines only (go perft); audit an xboard engine \
                 with `shannon audit`",
                self.engine
            )));
        }
        Ok(engine)
    }
}

/// Say on stderr that `name` was taken as a command because the engines file does not have it
/// (`--engine` of audit and perft-check, `--engines` of match), naming the file read for `config`
/// (`--config`, else ./engines.toml, else the built-in one, which a folder without an
/// engines.toml gets).
pub fn note_origin(
    name: &str,
    origin: &shannon::client::EngineOrigin,
    config: Option<&std::path::Path>,
) {
    if let shannon::client::EngineOrigin::Command(path) = origin {
        let file = match shannon::client::Config::resolve_path(config) {
            Some(file) => file.display().to_string(),
            None => "the built-in engines file (there is no engines.toml here)".to_string(),
        };
        say!(
            "shannon: '{name}' is not in {file}: running it as a command ({})",
            path.display()
        );
    }
}

/// Nodes (or anything) per second, guarding against a zero duration.
pub fn per_second(count: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        count as f64 / seconds
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::Overwrite;

    #[test]
    fn outputs_are_checked_without_changing_or_leaving_files() {
        let dir = tempfile::tempdir().unwrap();
        let existing = dir.path().join("kept.json");
        std::fs::write(&existing, "old").unwrap();
        let new = dir.path().join("new.json");
        let replace = Overwrite { overwrite: true };
        replace
            .check([
                ("the JSON file", Some(existing.as_path())),
                ("the plot", Some(new.as_path())),
            ])
            .unwrap();
        assert_eq!(std::fs::read_to_string(&existing).unwrap(), "old");
        assert!(!new.exists(), "the check left {}", new.display());
        let missing = dir.path().join("no-folder").join("x.json");
        let err = replace
            .check([
                ("the JSON file", Some(missing.as_path())),
                ("the plot", None),
            ])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("cannot write the JSON file "), "{err}");
    }

    #[test]
    fn an_output_that_exists_is_refused_without_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let existing = dir.path().join("run.json");
        std::fs::write(&existing, "old").unwrap();
        let err = Overwrite::default()
            .check([("the JSON file", Some(existing.as_path()))])
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            format!(
                "the JSON file {} exists: choose another name, or add --overwrite to replace it",
                existing.display()
            )
        );
        assert_eq!(std::fs::read_to_string(&existing).unwrap(), "old");
    }
}
