//! Other engines, as child processes: the engines file that names them ([`config`]), one engine
//! process with its pipes, waits and log ([`process`]), the two protocols that drive it (UCI in
//! `uci`, xboard in [`xboard`]) and what the runner asks of either on a turn ([`Turn`],
//! `protocol`), what an engine says
//! in its `info` lines ([`info`]), and the time controls and clocks it plays under, told to it as
//! UCI's `go` or xboard's `level`/`st`/`sd` ([`time_control`]). The arena plays matches with them; the audit and perft-check test them.

pub mod config;
pub mod info;
pub mod log;
pub mod option;
mod pipes;
pub mod process;
mod protocol;
mod session;
pub mod time_control;
mod turn;
mod uci;
pub mod xboard;

pub use config::{Config, ConfigError, EngineConfig, EngineOrigin, Protocol};
pub use info::MoveTiming;
pub use log::{Echo, Echoed, EngineLog, LogLine, Said, Stream};
pub use option::{DeclaredOption, OptionKind, OptionProblem, OptionSetting};
pub use process::{EngineError, EngineProcess};
pub use session::{Feature, Negotiation};
pub use time_control::{Clock, TimeControl, TimeControlError};
pub use turn::{Answer, Claim, Turn};
