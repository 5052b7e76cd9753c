//! What the runner asks of an engine whatever protocol it speaks: start it, set an option,
//! make it ready, begin a game, play a turn ([`Turn`]), end a game. Each request goes to the
//! engine's protocol, UCI (`uci`) or xboard (`xboard`), both driving the one process
//! (`process`).

use super::config::{EngineConfig, Protocol};
use super::process::{EngineError, EngineProcess};
use super::time_control::TimeControl;
use super::turn::{Answer, Turn};
use crate::types::CastlingMode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

impl EngineProcess {
    /// Start the engine, wait for `uciok`, send its configured options (and `UCI_Chess960`
    /// when it announces that option), then wait for `readyok`.
    pub fn start(
        config: &EngineConfig,
        castling: CastlingMode,
    ) -> Result<EngineProcess, EngineError> {
        EngineProcess::start_interruptible(config, castling, None)
    }

    /// [`EngineProcess::start`] whose waits, the handshake's included, end with
    /// [`EngineError::Interrupted`] once `interrupt` is raised.
    pub fn start_interruptible(
        config: &EngineConfig,
        castling: CastlingMode,
        interrupt: Option<Arc<AtomicBool>>,
    ) -> Result<EngineProcess, EngineError> {
        let mut engine = EngineProcess::spawn(config, interrupt)?;
        engine.initialise(config, castling)?;
        Ok(engine)
    }

    /// What [`EngineProcess::start`] does once the process runs: its configured init lines
    /// (written with the first line of the handshake, as cutechess-cli writes them), `uci` and `uciok`, its
    /// configured options (and `UCI_Chess960` when it announces that option), `isready` and
    /// `readyok`. On an error the process is still there, for its log
    /// ([`EngineProcess::into_log`]).
    pub fn initialise(
        &mut self,
        config: &EngineConfig,
        castling: CastlingMode,
    ) -> Result<(), EngineError> {
        for line in &config.init_lines {
            self.queue(line);
        }
        match config.protocol {
            Protocol::Xboard => self.initialise_xboard(config),
            Protocol::Uci => self.initialise_uci(config, castling),
        }
    }

    /// Send `setoption name N value V` (to an xboard engine, `option N=V`).
    pub fn set_option(&mut self, name: &str, value: &str) {
        self.sent_values.push((name.to_string(), value.to_string()));
        match self.xboard.is_some() {
            true => self.set_xboard_option(name, value),
            false => self.set_uci_option(name, value),
        }
    }

    /// `isready`, then wait for `readyok` (to an xboard engine, `ping N` and `pong N`).
    pub fn ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        match self.xboard.is_some() {
            true => self.ping_xboard(timeout),
            false => self.ready_uci(timeout),
        }
    }

    /// Make the engine ready for a new game in `castling` mode at `level`: UCI `ucinewgame`
    /// then `isready`; xboard `new`, the variant, `force`, the time control, `post`, `easy`,
    /// then `ping`. An xboard engine that cannot play the game (Chess960 not among its
    /// variants, a node limit without `nps`) is refused ([`EngineError::Unsupported`]).
    pub fn new_game(
        &mut self,
        castling: CastlingMode,
        level: TimeControl,
        timeout: Duration,
    ) -> Result<(), EngineError> {
        match self.xboard.is_some() {
            true => self.new_game_xboard(castling, level, timeout),
            false => self.new_game_uci(timeout),
        }
    }

    /// The engine's move for `turn`, or its claim: UCI `position` and `go`, then `bestmove`;
    /// xboard's moves, `time`, `otim` and `go`, then `move` (or a claim). What it said and the
    /// timing are kept for [`EngineProcess::last_go`] as for `go`.
    pub fn think(&mut self, turn: &Turn<'_>, timeout: Duration) -> Result<Answer, EngineError> {
        self.think_then(turn, timeout, |_| {})
    }

    /// [`EngineProcess::think`], doing `after_go` to the engine once it was told to think and
    /// before its answer is read (the audit sends `ping`s to a thinking engine).
    pub fn think_then(
        &mut self,
        turn: &Turn<'_>,
        timeout: Duration,
        after_go: impl FnOnce(&mut EngineProcess),
    ) -> Result<Answer, EngineError> {
        match self.xboard.is_some() {
            true => self.think_xboard(turn, timeout, after_go),
            false => self.think_uci(turn, timeout, after_go),
        }
    }

    /// Tell the engine the game is over: to an xboard engine `force`, then `result RESULT
    /// {REASON}`; nothing to a UCI engine.
    pub fn game_over(&mut self, result: &str, reason: &str) {
        if self.xboard.is_some() {
            self.game_over_xboard(result, reason);
        }
    }
}
