//! The engine's UCI options: their declarations (printed at `uci` through vampirc-uci's
//! `UciOptionConfig`) and `setoption`, with names matched case-insensitively.
//!
//! This module only validates and stores values; the engine decides what a change means (opening
//! the log file, for one).

use super::output::Output;
use crate::movegen::Generator;
use crate::CastlingMode;
use std::fmt;
use vampirc_uci::{Serializable, UciOptionConfig};

/// The largest `Seed`: GUIs keep spin values in 32-bit integers, and a seed printed by the engine
/// must be one a GUI can send back.
pub const MAX_SEED: u64 = i32::MAX as u64;

/// The values of every option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// `UCI_Chess960`: `Chess960` writes castling king-takes-rook and FENs Shredder style.
    pub castling: CastlingMode,
    /// `Seed`: 0 draws a fresh seed from the OS for each game.
    pub seed: u64,
    /// `Ponder`: the GUI lets the engine ponder, so `bestmove` names the reply it expects
    /// (`bestmove X ponder Y`).
    pub ponder: bool,
    /// `Threads` for `go perft`.
    pub threads: usize,
    /// `Hash` in MiB for `go perft` (0: no table).
    pub hash_mb: usize,
    /// `Move Overhead` in milliseconds: accepted, unused by a mover that answers at once.
    pub move_overhead: u64,
    /// `Move Generator`: which generator lists the moves to choose from and counts perft.
    pub generator: Generator,
    /// `Debug Log File`: empty for none.
    pub debug_log_file: String,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            castling: CastlingMode::Standard,
            seed: 0,
            ponder: false,
            threads: 1,
            hash_mb: 16,
            move_overhead: 10,
            generator: Generator::Bitboard,
            debug_log_file: String::new(),
        }
    }
}

/// Which option a `setoption` changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionName {
    /// `UCI_Chess960`.
    Chess960,
    /// `Seed`.
    Seed,
    /// `Ponder`.
    Ponder,
    /// `Threads`.
    Threads,
    /// `Hash`.
    Hash,
    /// `Move Overhead`.
    MoveOverhead,
    /// `Move Generator`.
    MoveGenerator,
    /// `Debug Log File`.
    DebugLogFile,
}

impl OptionName {
    const ALL: [(OptionName, &'static str); 8] = [
        (OptionName::Chess960, "UCI_Chess960"),
        (OptionName::Seed, "Seed"),
        (OptionName::Ponder, "Ponder"),
        (OptionName::Threads, "Threads"),
        (OptionName::Hash, "Hash"),
        (OptionName::MoveOverhead, "Move Overhead"),
        (OptionName::MoveGenerator, "Move Generator"),
        (OptionName::DebugLogFile, "Debug Log File"),
    ];

    /// The option called `name`, ignoring case.
    pub fn find(name: &str) -> Option<OptionName> {
        OptionName::ALL
            .iter()
            .find(|(_, known)| known.eq_ignore_ascii_case(name))
            .map(|&(option, _)| option)
    }

    /// What the option does, in one sentence (the man page's ENGINE OPTIONS).
    pub fn description(self) -> &'static str {
        match self {
            OptionName::Chess960 => {
                "Chess960: castling is written king-takes-rook (e1h1) and FENs in Shredder style"
            }
            OptionName::Seed => {
                "The seed of the random moves: a game replays from one number; 0 draws a fresh \
                 seed for each game (printed with `debug on`)"
            }
            OptionName::Ponder => {
                "Set by a GUI that lets engines ponder: `bestmove` then names the reply the engine \
                 expects (`ponder M`, the move its own seed would choose there), and `go ponder` \
                 holds its move until `ponderhit` or `stop`"
            }
            OptionName::Threads => "Worker threads of `go perft` (the moves need none)",
            OptionName::Hash => "The `go perft` hash table in MiB (0: none; counts do not change)",
            OptionName::MoveOverhead => {
                "Accepted for GUIs that send it; unused by a mover that answers at once"
            }
            OptionName::MoveGenerator => {
                "Which generator lists the moves to choose from and counts `go perft`: bitboard, \
                 or the 0x88 reference"
            }
            OptionName::DebugLogFile => {
                "A file that gets every line in and out, stamped (empty: none)"
            }
        }
    }

    /// The name as declared.
    pub fn as_str(self) -> &'static str {
        OptionName::ALL
            .iter()
            .find(|(option, _)| *option == self)
            .map_or("", |&(_, name)| name)
    }
}

/// Why a `setoption` was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The value is missing or not allowed.
    BadValue {
        /// The option.
        option: &'static str,
        /// The value sent (empty when none).
        value: String,
        /// What is allowed.
        expected: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "no option named '{name}'; ignored"),
            OptionError::BadValue {
                option,
                value,
                expected,
            } => write!(
                f,
                "option {option}: value '{value}' refused; expected {expected}"
            ),
        }
    }
}

impl std::error::Error for OptionError {}

/// Why an option was not applied: its rules refused the value, or the debug log file it names
/// could not be opened (the options then stay as they were).
#[derive(Debug)]
pub enum ApplyError {
    /// Refused by the option's rules.
    Refused(OptionError),
    /// `Debug Log File` names a file that cannot be opened.
    LogFile {
        /// The path given.
        path: String,
        /// Why it cannot be opened.
        error: std::io::Error,
    },
}

impl Options {
    /// Set an option, as `set`, and open the debug log file it names on `out`; a file that
    /// cannot be opened leaves the options as they were. Both protocols' engines set options so.
    pub(super) fn apply(
        &mut self,
        name: &str,
        value: Option<&str>,
        out: &mut Output<'_>,
    ) -> Result<OptionName, ApplyError> {
        let before = self.clone();
        let option = self.set(name, value).map_err(ApplyError::Refused)?;
        if option == OptionName::DebugLogFile {
            let path = self.debug_log_file.clone();
            if let Err(error) = out.set_log_file(&path) {
                *self = before;
                return Err(ApplyError::LogFile { path, error });
            }
        }
        Ok(option)
    }
}

const THREADS_MAX: i64 = 1024;
/// The largest `Hash`: 64 GiB, more than a perft to any depth people run can fill; a size the
/// machine cannot give is cut down when the count starts (see `perft::plan_hash`).
const HASH_MAX: i64 = 1 << 16;
const OVERHEAD_MAX: i64 = 60_000;

impl Options {
    /// Every option's declaration (as `uci` prints it) with its description, in that order.
    pub fn reference() -> Vec<(String, &'static str)> {
        Options::declarations()
            .into_iter()
            .zip(OptionName::ALL)
            .map(|(line, (option, _))| (line, option.description()))
            .collect()
    }

    /// The `option ...` lines printed at `uci`.
    pub fn declarations() -> Vec<String> {
        let spin = |name: &str, default: i64, min: i64, max: i64| UciOptionConfig::Spin {
            name: name.to_string(),
            default: Some(default),
            min: Some(min),
            max: Some(max),
        };
        let defaults = Options::default();
        let configs = [
            UciOptionConfig::Check {
                name: "UCI_Chess960".to_string(),
                default: Some(false),
            },
            spin("Seed", 0, 0, MAX_SEED as i64),
            UciOptionConfig::Check {
                name: "Ponder".to_string(),
                default: Some(false),
            },
            spin("Threads", defaults.threads as i64, 1, THREADS_MAX),
            spin("Hash", defaults.hash_mb as i64, 0, HASH_MAX),
            spin(
                "Move Overhead",
                defaults.move_overhead as i64,
                0,
                OVERHEAD_MAX,
            ),
            UciOptionConfig::Combo {
                name: "Move Generator".to_string(),
                default: Some(Generator::Bitboard.name().to_string()),
                var: vec![
                    Generator::Bitboard.name().to_string(),
                    Generator::Mailbox0x88.name().to_string(),
                ],
            },
            UciOptionConfig::String {
                name: "Debug Log File".to_string(),
                default: Some("<empty>".to_string()),
            },
        ];
        configs.iter().map(Serializable::serialize).collect()
    }

    /// Apply `setoption name <name> value <value>`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<OptionName, OptionError> {
        let option =
            OptionName::find(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let raw = value.unwrap_or("");
        let bad = |expected: String| OptionError::BadValue {
            option: option.as_str(),
            value: raw.to_string(),
            expected,
        };
        let spin = |min: i64, max: i64| -> Result<i64, OptionError> {
            raw.parse::<i64>()
                .ok()
                .filter(|v| (min..=max).contains(v))
                .ok_or_else(|| bad(format!("an integer from {min} to {max}")))
        };
        match option {
            OptionName::Chess960 => {
                self.castling = match raw.to_ascii_lowercase().as_str() {
                    "true" => CastlingMode::Chess960,
                    "false" => CastlingMode::Standard,
                    _ => return Err(bad("true or false".to_string())),
                }
            }
            OptionName::Seed => self.seed = spin(0, MAX_SEED as i64)? as u64,
            OptionName::Ponder => {
                self.ponder = match raw.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad("true or false".to_string())),
                }
            }
            OptionName::Threads => self.threads = spin(1, THREADS_MAX)? as usize,
            OptionName::Hash => self.hash_mb = spin(0, HASH_MAX)? as usize,
            OptionName::MoveOverhead => self.move_overhead = spin(0, OVERHEAD_MAX)? as u64,
            OptionName::MoveGenerator => {
                self.generator = raw
                    .parse()
                    .map_err(|_| bad("bitboard or 0x88".to_string()))?
            }
            OptionName::DebugLogFile => {
                self.debug_log_file = match raw {
                    "<empty>" => String::new(),
                    path => path.to_string(),
                }
            }
        }
        Ok(option)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_ignore_case_and_values_are_checked() {
        let mut options = Options::default();
        assert_eq!(
            options.set("uci_chess960", Some("TRUE")),
            Ok(OptionName::Chess960)
        );
        assert_eq!(options.castling, CastlingMode::Chess960);
        assert!(options.set("threads", Some("0")).is_err());
        assert_eq!(options.threads, 1);
        assert!(options.set("Hash", None).is_err());
        assert!(matches!(
            options.set("Contempt", Some("3")),
            Err(OptionError::Unknown(_))
        ));
        options.set("move generator", Some("0x88")).unwrap();
        assert_eq!(options.generator, Generator::Mailbox0x88);
        options.set("Debug Log File", Some("<empty>")).unwrap();
        assert_eq!(options.debug_log_file, "");
    }

    #[test]
    fn the_reference_names_every_option_in_the_declarations_order() {
        for ((line, _), (_, name)) in Options::reference().iter().zip(OptionName::ALL) {
            assert!(
                line.starts_with(&format!("option name {name} type ")),
                "{line}"
            );
        }
        assert_eq!(Options::reference().len(), OptionName::ALL.len());
    }

    #[test]
    fn declarations_are_standard_lines() {
        let lines = Options::declarations();
        assert!(lines.contains(&"option name UCI_Chess960 type check default false".to_string()));
        assert!(lines.contains(
            &"option name Move Generator type combo default bitboard var bitboard var 0x88"
                .to_string()
        ));
        assert!(
            lines.contains(&"option name Debug Log File type string default <empty>".to_string())
        );
    }
}
