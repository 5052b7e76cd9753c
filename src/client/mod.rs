//! Other engines, as child processes: the engines file that names them ([`Config`]), one engine
//! process with its pipes, waits and log ([`EngineProcess`]), the two protocols that drive it
//! (UCI in `uci`, xboard in [`xboard`]) and what the runner asks of either on a turn ([`Turn`],
//! `protocol`), what an engine says in its `info` lines ([`MoveInfo`]), and the time controls and
//! clocks it plays under, told to it as UCI's `go` or xboard's `level`/`st`/`sd`
//! ([`TimeControl`]). The arena plays matches with them; the audit and perft-check test them.

mod config;
mod info;
mod log;
mod option;
mod pipes;
mod process;
mod protocol;
mod session;
mod time_control;
mod turn;
mod uci;
pub mod xboard;

pub use config::{
    Config, ConfigError, EngineConfig, EngineOrigin, MatchConfig, Protocol, DEFAULT_BOOK_DEPTH,
    DEFAULT_ENGINES_TOML,
};
pub use info::{BoundScores, EngineScore, InfoLine, MoveInfo, MoveTiming};
pub use log::{Echo, Echoed, EngineLog, LogLine, Said, Stream, LOG_RECEIVED, LOG_SENT};
pub use option::{DeclaredOption, OptionKind, OptionProblem, OptionSetting};
pub use process::{EngineError, EngineProcess};
pub use session::{Feature, Negotiation};
pub use time_control::{Caps, Clock, GoOrder, Pace, TimeControl, TimeControlError};
pub use turn::{Answer, Claim, Turn};
