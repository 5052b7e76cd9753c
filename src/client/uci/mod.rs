//! The UCI exchange of an engine process, as the runner speaks it: the handshake (`uci`,
//! `uciok`, the configured options, `isready`), each game's `ucinewgame`, and each turn's
//! `position` (kept move by move: [`UciSession`]) and `go`, answered by `bestmove`.

use super::config::EngineConfig;
use super::info::{InfoLine, MoveInfo};
use super::option::{check_option, DeclaredOption, OptionKind};
use super::process::{Dialect, EngineError, EngineProcess};
use super::turn::{Answer, Turn};
use crate::types::CastlingMode;
use std::time::{Duration, Instant};

impl EngineProcess {
    /// [`EngineProcess::initialise`] for a UCI engine: `uci` and `uciok`, its configured
    /// options (and `UCI_Chess960` when it announces that option), `isready` and `readyok`.
    pub(super) fn initialise_uci(
        &mut self,
        config: &EngineConfig,
        castling: CastlingMode,
    ) -> Result<(), EngineError> {
        let timeout = Duration::from_millis(config.init_timeout_ms);
        self.handshake(timeout)?;
        // As cutechess-cli and fastchess: an option the engine does not declare, or a value its
        // declaration does not allow, is not sent, and said ([`EngineProcess::take_option_problems`]).
        for (name, value) in config.option_values() {
            match check_option(&self.declared, &name, &value) {
                Ok(declared) => self.set_declared_option(&declared, &value),
                Err(problem) => self.option_problems.push(problem),
            }
        }
        if self.has_option("UCI_Chess960") {
            self.set_option("UCI_Chess960", &castling.is_chess960().to_string());
        }
        self.ready_uci(timeout)
    }

    /// `uci`, then wait for `uciok`: the lines the engine sent before it (its `id` and `option`
    /// lines), and the options it announced remembered for [`EngineProcess::has_option`].
    pub fn handshake(&mut self, timeout: Duration) -> Result<Vec<String>, EngineError> {
        self.send("uci");
        let mut lines = Vec::new();
        self.wait_for("uciok", timeout, |line| {
            lines.push(line.to_string());
            line == "uciok"
        })?;
        lines.pop();
        self.options = lines
            .iter()
            .filter_map(|line| line.strip_prefix("option name "))
            .map(|rest| {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                name.to_ascii_lowercase()
            })
            .collect();
        self.declared = lines
            .iter()
            .filter_map(|line| DeclaredOption::parse(line))
            .collect();
        Ok(lines)
    }

    /// `setoption name N value V`.
    pub(super) fn set_uci_option(&mut self, name: &str, value: &str) {
        self.send(&format!("setoption name {name} value {value}"));
    }

    /// Send a declared option: `setoption name N value V`, a button pressed without a value.
    fn set_declared_option(&mut self, name: &str, value: &str) {
        let button = self
            .declared
            .iter()
            .any(|o| o.name == name && o.kind == OptionKind::Button);
        match button {
            true => {
                self.sent_values.push((name.to_string(), value.to_string()));
                self.send(&format!("setoption name {name}"))
            }
            false => self.set_option(name, value),
        }
    }

    /// `isready`, then wait for `readyok`.
    pub(super) fn ready_uci(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready");
        self.wait_for("readyok", timeout, |line| line == "readyok")
            .map(|_| ())
    }

    /// [`EngineProcess::new_game`] for a UCI engine: `ucinewgame`, then `isready`.
    pub(super) fn new_game_uci(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.uci.forget();
        self.send("ucinewgame");
        self.ready_uci(timeout)
    }

    /// [`EngineProcess::think_then`] for a UCI engine: `position` and `go`, written at once,
    /// then `bestmove` (and the reply it expects, `ponder M`, when it names one).
    pub(super) fn think_uci(
        &mut self,
        turn: &Turn<'_>,
        timeout: Duration,
        after_go: impl FnOnce(&mut EngineProcess),
    ) -> Result<Answer, EngineError> {
        let mut session = std::mem::take(&mut self.uci);
        self.queue(session.position(turn.game, turn.mode));
        self.uci = session;
        self.go_then(&turn.uci_go(), timeout, after_go)
            .map(|(line, _)| bestmove_answer(&line))
    }

    /// Start pondering, as cutechess-cli starts it: `position` of `turn`'s game (whose last
    /// move is the reply the engine expects, its `ponder` move), `isready` and `readyok`, then
    /// `go ponder` with the clocks as they stand. The engine's answer is read by
    /// [`EngineProcess::ponderhit`] or [`EngineProcess::stop_pondering`].
    pub fn ponder(&mut self, turn: &Turn<'_>, timeout: Duration) -> Result<(), EngineError> {
        let mut session = std::mem::take(&mut self.uci);
        self.queue(session.ponder_position(turn.game, turn.mode));
        self.uci = session;
        self.ready_uci(timeout)?;
        let go = turn.uci_go();
        self.send(&format!(
            "go ponder{}",
            go.strip_prefix("go").unwrap_or(&go)
        ));
        Ok(())
    }

    /// The reply the engine is pondering on, if it is.
    pub fn pondering(&self) -> Option<crate::Move> {
        self.uci.pondering()
    }

    /// The reply it pondered on was played: `ponderhit`, then `bestmove`, timed from
    /// `ponderhit` as a `go` is.
    pub fn ponderhit(&mut self, timeout: Duration) -> Result<Answer, EngineError> {
        self.uci.ponder_hit();
        self.go_then("ponderhit", timeout, |_| {})
            .map(|(line, _)| bestmove_answer(&line))
    }

    /// Another reply was played, or the game ended: `stop`, and the `bestmove` of the search
    /// read and dropped; how long that took. Nothing when the engine is not pondering.
    pub fn stop_pondering(&mut self, timeout: Duration) -> Result<Duration, EngineError> {
        if self.uci.pondering().is_none() {
            return Ok(Duration::ZERO);
        }
        self.uci.ponder_miss();
        let started = Instant::now();
        self.send("stop");
        self.wait_for("bestmove", timeout, |line| line.starts_with("bestmove"))?;
        Ok(started.elapsed())
    }

    /// Send `go ...` and wait for `bestmove`; returns the move text, and the time taken with
    /// the last score and depth the engine's `info` lines gave. What it gathered and measured
    /// is kept for [`EngineProcess::last_go`], also when it fails.
    pub fn go(&mut self, go: &str, timeout: Duration) -> Result<(String, MoveInfo), EngineError> {
        self.go_then(go, timeout, |_| {})
            .map(|(line, info)| (word(&line, 1).to_string(), info))
    }

    /// Send `go` (or `ponderhit`) and wait for `bestmove`, doing `after_go` once it is sent,
    /// before the answer is read; the `bestmove` line and what the search said.
    fn go_then(
        &mut self,
        go: &str,
        timeout: Duration,
        after_go: impl FnOnce(&mut EngineProcess),
    ) -> Result<(String, MoveInfo), EngineError> {
        let started = Instant::now();
        self.send(go);
        after_go(self);
        let mut info = MoveInfo::default();
        let answer = self.wait_for("bestmove", timeout, |line| {
            if let Some(fields) = InfoLine::parse(line) {
                info.absorb(&fields);
            }
            line.starts_with("bestmove")
        });
        let uci = Dialect {
            info: InfoLine::parse,
            is_answer: |line| line.starts_with("bestmove"),
        };
        self.finish_go(started, info, answer, uci, str::to_string)
    }
}

/// The `n`th word of a line (from 0), or nothing.
fn word(line: &str, n: usize) -> &str {
    line.split_whitespace().nth(n).unwrap_or("")
}

/// `bestmove M [ponder R]` read: the move as written, and the reply named after `ponder`.
fn bestmove_answer(line: &str) -> Answer {
    Answer::Move {
        text: word(line, 1).to_string(),
        draw_claim: None,
        ponder: (word(line, 2) == "ponder" && !word(line, 3).is_empty())
            .then(|| word(line, 3).to_string()),
    }
}
