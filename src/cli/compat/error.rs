//! Why a cutechess-cli/fastchess command line cannot be read: the one error of the reader.

use std::fmt;

/// Why a command line cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub enum CompatError {
    /// An option neither tool has.
    Unknown(String),
    /// Cute Chess's `engines.json` (for `conf=` and `-engines`) cannot be read.
    EnginesFile {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// A file an option names (fastchess's `-log file=`) cannot be written.
    Output {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        why: String,
    },
    /// A `--long` flag among single-dash options: the two forms are not mixed.
    MixedForms(String),
    /// Options only cutechess-cli has beside options only fastchess has.
    MixedDialects {
        /// The cutechess-cli option.
        cutechess: String,
        /// The fastchess option.
        fastchess: String,
    },
    /// An option (or a key of one) Shannon cannot honour, and why.
    Refused {
        /// The option as written, with its key when it is one.
        option: String,
        /// Why.
        why: String,
    },
    /// A word an option does not take.
    Malformed {
        /// The option.
        option: String,
        /// The word.
        word: String,
        /// What it takes.
        expected: String,
    },
    /// An option given without the values it needs.
    Missing {
        /// The option.
        option: String,
        /// What it needs.
        expected: String,
    },
    /// Fewer than two `-engine`s.
    TooFewEngines(usize),
    /// fastchess's `config.json` (`-config file=`) cannot be read: the file, the field and why.
    ConfigFile(String),
}

impl CompatError {
    pub(super) fn refused(option: impl Into<String>, why: impl Into<String>) -> CompatError {
        CompatError::Refused {
            option: option.into(),
            why: why.into(),
        }
    }

    pub(super) fn malformed(
        option: impl Into<String>,
        word: impl Into<String>,
        expected: impl Into<String>,
    ) -> CompatError {
        CompatError::Malformed {
            option: option.into(),
            word: word.into(),
            expected: expected.into(),
        }
    }
}

impl fmt::Display for CompatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompatError::Unknown(option) => write!(
                f,
                "{option}: neither cutechess-cli nor fastchess has this option (shannon match \
                 -help lists the ones read)"
            ),
            CompatError::EnginesFile { path, why } => write!(f, "{}: {why}", path.display()),
            CompatError::Output { path, why } => {
                write!(f, "{}: cannot be written: {why}", path.display())
            }
            CompatError::MixedForms(flag) => write!(
                f,
                "{flag}: a cutechess-cli/fastchess command line (single-dash options) cannot \
                 take shannon's --long flags; use one form or the other"
            ),
            CompatError::MixedDialects {
                cutechess,
                fastchess,
            } => write!(
                f,
                "{cutechess} is cutechess-cli's and {fastchess} is fastchess's: the two tools \
                 read -games, -rounds and -repeat differently, so a command line is one tool's \
                 or the other's"
            ),
            CompatError::Refused { option, why } => write!(f, "{option}: not supported: {why}"),
            CompatError::Malformed {
                option,
                word,
                expected,
            } => write!(f, "{option}: '{word}' is not {expected}"),
            CompatError::Missing { option, expected } => write!(f, "{option} needs {expected}"),
            CompatError::ConfigFile(why) => write!(f, "-config file=: {why}"),
            CompatError::TooFewEngines(n) => {
                write!(f, "a match needs two -engine options; {n} given")
            }
        }
    }
}

impl std::error::Error for CompatError {}
