//! Other engines, as child processes: the engines file that names them ([`config`]), one engine
//! process driven over UCI with timeouts ([`process`]), and what an engine says in its `info`
//! lines ([`info`]). The arena plays matches with them; the audit and perft-check test them.

pub mod config;
pub mod info;
pub mod option;
mod pipes;
pub mod process;

pub use config::{Config, ConfigError, EngineConfig, EngineOrigin};
pub use option::{DeclaredOption, OptionKind, OptionProblem};
pub use process::{EngineError, EngineLog, EngineProcess, LogLine, MoveTiming, Said, Stream};
