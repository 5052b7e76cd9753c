//! `engines.toml`: the engines a match or a perft check can run, and the match defaults.
//!
//! The file is TOML: `[[engine]]` tables and one optional `[match]` table. `command = "self"`
//! names the running `shannon` executable, so the shipped file works on a machine with nothing
//! else installed. A syntax or type error is reported with its line, column and what was
//! expected (the TOML reader's own message); an engine whose command cannot be found is reported
//! by name before any game starts.

use super::time_control::TimeControl;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The file shipped at the top of the repository, built into the binary so `shannon match`
/// works from any directory.
pub const DEFAULT_ENGINES_TOML: &str = include_str!("../../engines.toml");

/// One engine the runner can start (saved in a match's state when the command line gave it
/// directly, as cutechess-cli's `-engine cmd=...` does).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    /// The name used by `--engines` and in the PGN.
    pub name: String,
    /// The program: a path, a name on PATH, or `self` for the running shannon executable.
    pub command: String,
    /// Arguments passed to the program.
    #[serde(default)]
    pub args: Vec<String>,
    /// Working directory (default: the current one). The engine runs there, and a relative
    /// `command` is found there, as cutechess-cli and fastchess find `cmd=` in `dir=`.
    pub dir: Option<PathBuf>,
    /// UCI options sent with `setoption` after `uciok` (`UCI_Chess960` is set by the runner).
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    /// How long to wait for `uciok` and `readyok`, in milliseconds (default 10,000, fastchess's
    /// `-startup-ms`: an engine that misses it stops the run, so a loaded machine must not).
    #[serde(default = "default_init_timeout")]
    pub init_timeout_ms: u64,
    /// A Polyglot `.bin` book this engine plays from: while the book has a move for the
    /// position, the runner plays it for the engine (weighted as Polyglot defines, seeded by the
    /// game), up to `book_depth` of its own moves; the first position without one ends it.
    pub book: Option<PathBuf>,
    /// The most moves of its own the engine plays from its book (default 8).
    pub book_depth: Option<u32>,
    /// A file the engine's stderr is appended to (cutechess-cli's `stderr=FILE`); either way
    /// its last lines are kept for the forensics of a forfeit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<PathBuf>,
    /// The protocol the engine speaks: `uci` (the default) or `xboard` (CECP version 2, as
    /// cutechess-cli's `proto=xboard`). Left out of a saved state when it is UCI, so states of
    /// UCI matches read as before.
    #[serde(default, skip_serializing_if = "Protocol::is_uci")]
    pub protocol: Protocol,
    /// The engine's own time control, when it plays under another than the match's (time odds:
    /// `tc = "5+0.05"` against the match's `10+0.1`). A match started with it keeps it in its
    /// state; `--engine-tc` overrides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// How far past its clock the engine may answer, in milliseconds, when not the match's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_margin_ms: Option<u64>,
    /// Start the engine anew for every game (cutechess-cli's and fastchess's `restart=on`);
    /// otherwise it is kept from game to game and restarted only after a failure.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub restart: bool,
    /// Send a UCI engine `debug on` before each game (cutechess-cli's engine key `debug`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub debug: bool,
    /// Let the engine ponder (cutechess-cli's engine key `ponder`): when it declares the UCI
    /// option `Ponder`, it is set, and the engine thinks on the reply it expects while its
    /// opponent thinks (`go ponder`, then `ponderhit` or `stop`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ponder: bool,
    /// Lines written to the engine when it starts, before the protocol's handshake
    /// (cutechess-cli's engine key `initstr`, Cute Chess's `initStrings`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_lines: Vec<String>,
}

/// The protocol an engine speaks. Saved by its stable names, `uci` and `xboard`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// The Universal Chess Interface.
    #[default]
    Uci,
    /// The Chess Engine Communication Protocol, version 2 (XBoard/WinBoard).
    Xboard,
}

impl Protocol {
    /// True for UCI (what a saved state leaves out).
    pub fn is_uci(&self) -> bool {
        *self == Protocol::Uci
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Uci => "uci",
            Protocol::Xboard => "xboard",
        })
    }
}

fn default_init_timeout() -> u64 {
    10_000
}

/// How many plies a line drawn from a Polyglot book may have when `book_depth` is not set: a
/// few moves of theory each, after which the engines play on their own.
pub const DEFAULT_BOOK_DEPTH: u32 = 16;

/// The `[match]` table: defaults for `shannon match`, each overridable on the command line.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct MatchConfig {
    /// Engines to pair (the first two of the file when empty).
    pub engines: Vec<String>,
    /// Games to play (rounded up to an even number: each opening is played twice).
    pub games: u32,
    /// Games at once; 0 means one per core.
    pub concurrency: usize,
    /// Time control, in Cute Chess's form (`40/60+0.6`, `10+0.1`, `inf`) or `movetime=MS`,
    /// `nodes=N`, `depth=N`.
    pub tc: String,
    /// `startpos`, `chess960`, the path of an EPD or PGN file of opening positions, or of a
    /// Polyglot `.bin` book.
    pub openings: String,
    /// The longest line, in plies, drawn from a Polyglot book (`openings = "book.bin"`).
    pub book_depth: u32,
    /// Where to write the PGN of every game (none when empty).
    pub pgn: String,
    /// Seed of the schedule (openings and engine seeds); drawn at random when absent.
    pub seed: Option<u64>,
    /// Adjudicate a draw after this many plies (0: never).
    pub max_plies: u32,
    /// How far past its clock an engine may answer before it loses on time, in milliseconds.
    pub time_margin_ms: u64,
    /// How long a `go` without a clock (`inf`, `nodes=`, `depth=`) may take before the engine
    /// is declared hung, in milliseconds.
    pub hang_timeout_ms: u64,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            engines: Vec::new(),
            games: 20,
            concurrency: 0,
            tc: "10+0.1".to_string(),
            openings: "startpos".to_string(),
            book_depth: DEFAULT_BOOK_DEPTH,
            pgn: String::new(),
            seed: None,
            max_plies: 0,
            time_margin_ms: 100,
            hang_timeout_ms: 10_000,
        }
    }
}

/// The whole file.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The engines, in file order.
    #[serde(rename = "engine", default)]
    pub engines: Vec<EngineConfig>,
    /// Match defaults.
    #[serde(rename = "match", default)]
    pub match_defaults: MatchConfig,
}

/// Why a configuration cannot be used.
#[derive(Debug)]
pub enum ConfigError {
    /// The file cannot be read.
    Read(PathBuf, std::io::Error),
    /// The file is not valid TOML or does not have the expected shape; the message carries
    /// the line, the column and what was expected.
    Parse(String, String),
    /// Two engines share a name.
    DuplicateName(String),
    /// A name asked for is not in the file.
    UnknownEngine {
        /// The name asked for.
        name: String,
        /// The names the file has.
        known: Vec<String>,
    },
    /// A name asked for is neither in the file nor a program (a path, or a name on PATH).
    NoEngineOrCommand {
        /// The name asked for.
        name: String,
        /// The names the file has.
        known: Vec<String>,
    },
    /// An engine's program cannot be found.
    CommandNotFound {
        /// The engine.
        engine: String,
        /// Its command.
        command: String,
        /// The folder a relative command was looked for in (the engine's `dir`).
        dir: Option<PathBuf>,
    },
    /// The file has fewer than two engines, or a match names fewer than two.
    NotEnoughEngines(usize),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            ConfigError::Parse(origin, message) => write!(f, "{origin}: {}", message.trim_end()),
            ConfigError::DuplicateName(name) => {
                write!(f, "two engines are named '{name}'; names must be unique")
            }
            ConfigError::UnknownEngine { name, known } => write!(
                f,
                "no engine named '{name}' in the configuration (it has: {})",
                known.join(", ")
            ),
            ConfigError::NoEngineOrCommand { name, known } => write!(
                f,
                "no engine named '{name}' in the configuration (it has: {}), and no program \
                 '{name}' (a path, or a name on PATH)",
                known.join(", ")
            ),
            ConfigError::CommandNotFound {
                engine,
                command,
                dir,
            } => {
                write!(f, "engine '{engine}': command '{command}' not found")?;
                if let Some(dir) = dir {
                    write!(f, " in its folder {}", dir.display())?;
                }
                write!(
                    f,
                    " (give a path, a program on PATH, or \"self\" for this shannon executable)"
                )
            }
            ConfigError::NotEnoughEngines(n) => {
                write!(f, "a match needs two engines; {n} given")
            }
        }
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Parse configuration text; `origin` names it in error messages.
    pub fn parse(text: &str, origin: &str) -> Result<Config, ConfigError> {
        let config: Config = toml::from_str(text)
            .map_err(|e| ConfigError::Parse(origin.to_string(), e.to_string()))?;
        for (i, engine) in config.engines.iter().enumerate() {
            if config.engines[..i].iter().any(|e| e.name == engine.name) {
                return Err(ConfigError::DuplicateName(engine.name.clone()));
            }
        }
        Ok(config)
    }

    /// Read `path`, or the built-in default when `path` is `None` and there is no
    /// `engines.toml` in the current directory.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let Some(path) = Config::resolve_path(path) else {
            return Config::parse(DEFAULT_ENGINES_TOML, "built-in engines.toml");
        };
        let text =
            std::fs::read_to_string(&path).map_err(|e| ConfigError::Read(path.clone(), e))?;
        Config::parse(&text, &path.display().to_string())
    }

    /// The configuration a saved match was started with: the file it names, or the built-in
    /// one (never a `./engines.toml` that appeared since).
    pub fn load_saved(path: Option<&Path>) -> Result<Config, ConfigError> {
        match path {
            Some(path) => Config::load(Some(path)),
            None => Config::parse(DEFAULT_ENGINES_TOML, "built-in engines.toml"),
        }
    }

    /// The file [`Config::load`] reads for `path`: `None` for the built-in one.
    pub fn resolve_path(path: Option<&Path>) -> Option<PathBuf> {
        match path {
            Some(path) => Some(path.to_path_buf()),
            None if Path::new("engines.toml").exists() => Some(PathBuf::from("engines.toml")),
            None => None,
        }
    }

    /// The engine called `name`.
    pub fn engine(&self, name: &str) -> Result<&EngineConfig, ConfigError> {
        self.engines
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| ConfigError::UnknownEngine {
                name: name.to_string(),
                known: self.engines.iter().map(|e| e.name.clone()).collect(),
            })
    }

    /// The engine called `name`, its command found (so that a typo is reported before any
    /// work starts). A name the file does not have is taken as a command, as cutechess-cli's
    /// `cmd=` is: a path, or a program on PATH (`shannon audit --engine stockfish`).
    pub fn runnable_engine(&self, name: &str) -> Result<(EngineConfig, EngineOrigin), ConfigError> {
        if let Ok(engine) = self.engine(name) {
            engine.resolve_command()?;
            return Ok((engine.clone(), EngineOrigin::Configured));
        }
        let engine = EngineConfig::from_command(name);
        match engine.resolve_command() {
            Ok(path) => Ok((engine, EngineOrigin::Command(path))),
            Err(_) => Err(ConfigError::NoEngineOrCommand {
                name: name.to_string(),
                known: self.engines.iter().map(|e| e.name.clone()).collect(),
            }),
        }
    }
}

/// Where [`Config::runnable_engine`] found an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineOrigin {
    /// An `[[engine]]` table of the configuration.
    Configured,
    /// Not in the configuration: the name was taken as a command, and this program runs.
    Command(PathBuf),
}

/// Folders where Debian installs chess engines (`stockfish`, `fairymax`): on ordinary users'
/// PATH but not on root's, so a bare command is looked for there after PATH.
#[cfg(unix)]
const GAMES_FOLDERS: [&str; 2] = ["/usr/games", "/usr/local/games"];
#[cfg(not(unix))]
const GAMES_FOLDERS: [&str; 0] = [];

impl EngineConfig {
    /// An engine that is only a command (a path or a program's name), with every setting at
    /// its default; named after the program's file name.
    pub fn from_command(command: &str) -> EngineConfig {
        let name = Path::new(command)
            .file_name()
            .map_or_else(|| command.to_string(), |n| n.to_string_lossy().into_owned());
        EngineConfig {
            name,
            command: command.to_string(),
            args: Vec::new(),
            dir: None,
            options: BTreeMap::new(),
            init_timeout_ms: default_init_timeout(),
            book: None,
            book_depth: None,
            stderr: None,
            tc: None,
            time_margin_ms: None,
            protocol: Protocol::Uci,
            restart: false,
            debug: false,
            ponder: false,
            init_lines: Vec::new(),
        }
    }

    /// The program to start, as an absolute path (the engine runs in its `dir`, so a path
    /// relative to ours would name another file there): `self` resolved to the running
    /// executable; a relative path (`./engine`, `bin/engine`) taken in `dir` when there is one
    /// (as cutechess-cli and fastchess take `cmd=` in `dir=`), else in the current directory; a
    /// bare name found in `dir` first (fastchess's rule), then on PATH and in the games folders,
    /// then, without a `dir`, in the current directory (both tools run `cmd=engine` from there).
    pub fn resolve_command(&self) -> Result<PathBuf, ConfigError> {
        let not_found = || ConfigError::CommandNotFound {
            engine: self.name.clone(),
            command: self.command.clone(),
            dir: self.dir.clone(),
        };
        if self.command == "self" {
            return std::env::current_exe().map_err(|_| not_found());
        }
        let command = Path::new(&self.command);
        let in_dir = || self.dir.as_ref().map(|dir| dir.join(command));
        let found = if command.components().count() > 1 || command.is_absolute() {
            let full = match in_dir() {
                Some(full) if command.is_relative() => full,
                _ => command.to_path_buf(),
            };
            Some(full).filter(|full| full.is_file())
        } else {
            let on_path = std::env::var_os("PATH")
                .into_iter()
                .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
                .chain(GAMES_FOLDERS.iter().map(PathBuf::from))
                .map(|dir| dir.join(command));
            let here = self.dir.is_none().then(|| command.to_path_buf());
            in_dir()
                .into_iter()
                .chain(on_path)
                .chain(here)
                .find(|candidate| candidate.is_file())
        };
        let found = found.ok_or_else(not_found)?;
        std::path::absolute(&found).map_err(|_| not_found())
    }

    /// The `Seed` option's value when the file sets one (UCI option names are
    /// case-insensitive). The match runner then leaves it alone instead of sending its own
    /// per-game seeds: a seed written in the file is a choice, and must have its effect.
    pub fn configured_seed(&self) -> Option<String> {
        self.option_values()
            .into_iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("Seed"))
            .map(|(_, value)| value)
    }

    /// The options as `setoption` values (TOML strings, numbers and booleans).
    pub fn option_values(&self) -> Vec<(String, String)> {
        self.options
            .iter()
            .map(|(name, value)| {
                let text = match value {
                    toml::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (name.clone(), text)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 26: `--engine stockfish` failed when the engines file had no such name.
    #[cfg(unix)]
    #[test]
    fn a_name_the_file_lacks_is_taken_as_a_command() {
        let config = Config::parse(DEFAULT_ENGINES_TOML, "engines.toml").unwrap();
        let (engine, origin) = config.runnable_engine("shannon-a").unwrap();
        assert_eq!(
            (engine.name.as_str(), origin),
            ("shannon-a", EngineOrigin::Configured)
        );
        let (engine, origin) = config.runnable_engine("sh").unwrap();
        assert_eq!(engine.name, "sh");
        assert!(matches!(origin, EngineOrigin::Command(path) if path.ends_with("sh")));
        let (engine, _) = config.runnable_engine("/bin/sh").unwrap();
        assert_eq!(
            (engine.name.as_str(), engine.command.as_str()),
            ("sh", "/bin/sh")
        );
        let err = config
            .runnable_engine("no-such-engine-anywhere")
            .unwrap_err();
        assert!(matches!(err, ConfigError::NoEngineOrCommand { .. }));
        assert!(
            err.to_string().contains("(it has: shannon-a, shannon-b"),
            "{err}"
        );
    }

    /// Issue 31: OpenBench's `-engine dir=Engines/ cmd=./<name>` ran `Engines/./<name>` from
    /// inside `Engines/`, a file that does not exist. A relative command is found in `dir`, as
    /// both tools find it, and the program is named by an absolute path (the engine runs in
    /// `dir`).
    #[cfg(unix)]
    #[test]
    fn a_relative_command_is_found_in_the_engines_folder() {
        let scratch = tempfile::tempdir().unwrap();
        let folder = scratch.path().join("Engines");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("eng"), "").unwrap();
        let mut engine = EngineConfig::from_command("./eng");
        engine.dir = Some(folder.clone());
        let program = engine.resolve_command().unwrap();
        assert!(program.is_absolute(), "{}", program.display());
        assert_eq!(program, folder.join("./eng"));
        // A bare name: in the folder first (fastchess's rule), then on PATH.
        engine.command = "eng".into();
        assert_eq!(engine.resolve_command().unwrap(), folder.join("eng"));
        engine.command = "sh".into();
        assert!(engine.resolve_command().unwrap().ends_with("sh"));
        // A path that only exists outside the folder is not the folder's.
        engine.command = "Engines/eng".into();
        engine.dir = Some(scratch.path().join("Engines"));
        let err = engine.resolve_command().unwrap_err();
        assert!(err.to_string().contains("in its folder"), "{err}");
        // A relative folder is taken from the current directory, and the result made absolute.
        let mut relative = EngineConfig::from_command("./Cargo.toml");
        relative.dir = Some(PathBuf::from("."));
        assert!(relative.resolve_command().unwrap().is_absolute());
    }

    #[test]
    fn the_shipped_file_parses_and_names_two_shannons() {
        let config = Config::parse(DEFAULT_ENGINES_TOML, "engines.toml").unwrap();
        assert!(config.engines.len() >= 2);
        assert!(config.engines.iter().take(2).all(|e| e.command == "self"));
        for engine in &config.engines {
            engine.resolve_command().unwrap();
        }
    }

    #[test]
    fn errors_give_line_column_and_expectation() {
        let err = Config::parse("[[engine]]\nname = \"a\"\ncommand = 3\n", "x.toml").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("x.toml") && text.contains("line 3"), "{text}");
        assert!(text.contains("string"), "{text}");
        let err = Config::parse("[[engine]\nname = \"a\"\n", "y.toml").unwrap_err();
        assert!(err.to_string().contains("line 1"), "{err}");
        let err = Config::parse("[[engine]]\nname = \"a\"\n", "z.toml").unwrap_err();
        assert!(err.to_string().contains("command"), "{err}");
        let err = Config::parse("[match]\ngamez = 3\n", "w.toml").unwrap_err();
        assert!(err.to_string().contains("gamez"), "{err}");
    }

    #[test]
    fn missing_commands_and_names_are_named() {
        let config = Config::parse(
            "[[engine]]\nname = \"ghost\"\ncommand = \"/nonexistent/engine\"\n",
            "t",
        )
        .unwrap();
        let err = config.engines[0].resolve_command().unwrap_err();
        assert!(err.to_string().contains("engine 'ghost'"), "{err}");
        let err = config.engine("nobody").unwrap_err();
        assert!(err.to_string().contains("'nobody'") && err.to_string().contains("ghost"));
        let dup = "[[engine]]\nname = \"a\"\ncommand = \"self\"\n[[engine]]\nname = \"a\"\ncommand = \"self\"\n";
        assert!(matches!(
            Config::parse(dup, "d"),
            Err(ConfigError::DuplicateName(_))
        ));
    }
}
