//! Other engines, as child processes: the engines file that names them ([`config`]), one engine
//! process driven over UCI or xboard with timeouts ([`process`], [`xboard`]), what an engine says
//! in its `info` lines ([`info`]), and the time controls and clocks it plays under, told to it as
//! UCI's `go` or xboard's `level`/`st`/`sd` ([`time_control`]). The arena plays matches with them; the audit and perft-check test them.

pub mod config;
pub mod info;
pub mod log;
pub mod option;
mod pipes;
pub mod process;
pub mod time_control;
pub mod xboard;

pub use config::{Config, ConfigError, EngineConfig, EngineOrigin, Protocol};
pub use info::MoveTiming;
pub use log::{Echo, Echoed, EngineLog, LogLine, Said, Stream};
pub use option::{DeclaredOption, OptionKind, OptionProblem, OptionSetting};
pub use process::{EngineError, EngineProcess};
pub use time_control::{Clock, TimeControl, TimeControlError};
pub use xboard::{Answer, Claim, Feature, Negotiation, Turn};
