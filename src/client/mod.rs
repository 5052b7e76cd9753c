//! Other engines, as child processes: the engines file that names them ([`config`]), one engine
//! process driven over UCI or xboard with timeouts ([`process`], [`xboard`]), and what an engine says in its `info`
//! lines ([`info`]). The arena plays matches with them; the audit and perft-check test them.

pub mod config;
pub mod info;
pub mod option;
mod pipes;
pub mod process;
pub mod xboard;

pub use config::{Config, ConfigError, EngineConfig, EngineOrigin, Protocol};
pub use option::{DeclaredOption, OptionKind, OptionProblem};
pub use process::{EngineError, EngineLog, EngineProcess, LogLine, MoveTiming, Said, Stream};
pub use xboard::{Answer, Claim, Feature, Level, Negotiation, Turn};
