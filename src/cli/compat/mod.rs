//! `shannon match -engine cmd=... -each tc=10+0.1 -rounds 100 ...`: the command lines of
//! cutechess-cli and fastchess, read verbatim into the same [`MatchRequest`] our `--long` flags
//! build. The engines are given on the command line, so no engines.toml is read.
//!
//! The two tools read some options differently (fastchess plays `-games 2` from one opening and
//! `-rounds` times over, cutechess-cli multiplies `-games` by `-rounds` and changes the opening
//! every game unless `-repeat`); the options only one of them has tell which tool's command line
//! this is ([`Dialect`]), and when none does and the two readings differ, fastchess's is taken
//! and a note says so (`-dialect cutechess` chooses the other).
//!
//! [`words`] splits the words into options, [`options`] and [`engine`] (`-engine`/`-each`) fill
//! a [`read::Read`], and [`resolve`] turns what was read into the request.

pub mod compliance;
mod config_json;
mod echo;
mod engine;
mod engines_json;
mod error;
#[cfg(test)]
mod option_table;
mod options;
mod read;
mod resolve;
mod schedule;
mod words;

use shannon::arena::MatchRequest;

/// Read a cutechess-cli or fastchess command line (the words after `match`): fastchess's
/// `--compliance ENGINE [ARGS]`, or a match ([`resolve::parse_line`]).
pub fn parse(args: &[String]) -> Result<CompatCommand, error::CompatError> {
    match compliance::command(args) {
        Some(command) => command,
        None => resolve::parse_line(args),
    }
}
pub use words::is_option as words_start_option;

/// Which tool's command line this is: it decides how `-games`, `-rounds` and `-repeat` combine,
/// which output is printed by default, and the conventions the run follows where the tools
/// differ (how bound scores are read, the `TimeControl` tag).
pub use shannon::arena::Dialect;

/// The lines a run prints (`-output format=...`; by default the tool's own): the same choice
/// as `--output-format` (never `Text` here).
pub use super::report::OutputFormat;

/// The columns of cutechess-cli's rank table (`-resultformat`).
pub use super::report::cutechess::result_format::ResultFormat;

/// What the run prints and how often: `-output format=`, `-ratinginterval`, fastchess's
/// `-scoreinterval`, cutechess-cli's `-outcomeinterval` (`None`: the tool's default) and its
/// `-resultformat`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputChoice {
    /// The format.
    pub format: OutputFormat,
    /// Print the ratings every N games (0: never).
    pub rating_interval: Option<u32>,
    /// Print the score line every N games.
    pub score_interval: Option<u32>,
    /// Print the outcomes every N games (cutechess-cli).
    pub outcome_interval: Option<u32>,
    /// fastchess's blocks on game pairs (the pentanomial), else on single games: its
    /// `-report penta=`, off with `-games 1`.
    pub penta: bool,
    /// The columns of cutechess-cli's rank table (`-resultformat`; its default without).
    pub result_format: ResultFormat,
}

/// A command line read: the match to play, what to print, and the notes on options accepted
/// without effect.
#[derive(Debug)]
pub struct CompatMatch {
    /// The request, as the `--long` flags would make it.
    pub request: MatchRequest,
    /// What to print.
    pub output: OutputChoice,
    /// Whose command line it was read as.
    pub dialect: Dialect,
    /// One line per option accepted with no effect, or read one of two ways.
    pub notes: Vec<String>,
    /// The lines the tool prints on its standard output before the games (fastchess's warning
    /// that the Bayesian model turns the pentanomial off).
    pub preamble: Vec<String>,
    /// fastchess's `config.json`, which a run of its form saves (none in cutechess-cli's).
    pub config_file: Option<ConfigFile>,
}

pub use config_json::{ConfigFile, ConfigSaver};

/// What a command line asks for.
#[derive(Debug)]
pub enum CompatCommand {
    /// Play a match.
    Match(Box<CompatMatch>),
    /// `-help`: print the summary of the options.
    Help,
    /// cutechess-cli's `-resultformat help`: print its formats, fields and groups (it exits
    /// with status 1 after them).
    ResultFormatHelp,
    /// `-version`.
    Version,
    /// `-engines` (cutechess-cli's): the names of the engines in Cute Chess's `engines.json`.
    Engines(Vec<String>),
    /// `--compliance ENGINE [ARGS]` (fastchess's): its compliance steps on the engine.
    Compliance {
        /// The engine's command.
        command: String,
        /// Its arguments (fastchess's one word of them, split at spaces).
        args: Vec<String>,
    },
}

/// The summary `shannon match -help` prints.
pub const HELP: &str = "\
shannon match, cutechess-cli/fastchess form (docs/compat.md)

  -engine cmd=PATH | conf=NAME (from Cute Chess's engines.json) [name=NAME] [dir=DIR]
          [arg=A | args=\"A B\"] [option.NAME=VALUE]
          [proto=uci|xboard] [tc=40/60+0.6|10+0.1|inf] [st=S] [nodes=N] [depth=N|plies=N]
          [timemargin=MS] [book=FILE.bin] [bookdepth=N] [stderr=FILE] [restart=auto|off|on]
          [debug]
  -quick cmd=A cmd=B book=FILE   (fastchess's quick test)
  -each KEY=VALUE ...          keys for every engine (applied after each -engine's)
  -tournament round-robin|roundrobin|gauntlet   -seeds N   -rounds N   -games N   -repeat [N]
  -noswap   -reverse   -wait MS
  -concurrency N   -srand N   -variant standard|fischerandom   -event NAME   -site NAME
  -openings file=F [format=epd|pgn] [order=sequential|random] [plies=N] [start=N] [policy=P]
  -pgnout FILE [min] [fi]  |  -pgnout file=F [min=true] [notation=san|lan|uci] ...
  -epdout FILE  |  -epdout file=F
  -sprt elo0=E0 elo1=E1 alpha=A beta=B [model=normalized|logistic|bayesian]   (fastchess's
          test in its model, default normalized; cutechess-cli's BayesElo test, no model=)
  -draw movenumber=N movecount=M score=S   -resign movecount=M score=S [twosided=true]
  -maxmoves N   -recover   -ping-ms N   -crc32 pgn=true   -startup-ms N
  -output format=cutechess|fastchess   -ratinginterval N   -report penta=true|false
  -outcomeinterval N   -resultformat FORMAT|FIELD,FIELD,...|help   (cutechess-cli's)
  -debug [all]   (engine I/O on stdout)   -log file=F [level=L] [engine=true] [append=]
  -dialect cutechess|fastchess   (shannon's own: how to read -games/-rounds/-repeat)
  -engines   the engines of Cute Chess's engines.json   -version   -help
";
