//! What the engine loop reacts to: the input thread's lines and the end of its input, and a
//! `go perft` that finished on its own thread.

use crate::perft::Divide;

/// What the engine loop reacts to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Event {
    /// One input line, without its line ending.
    Line(String),
    /// The input has ended.
    Eof,
    /// A `go perft` finished (`None`: it was stopped).
    PerftDone(Option<Divide>),
}
