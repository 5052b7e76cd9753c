//! `shannon audit`: one run that tells an engine author whether their UCI engine is correct:
//! the protocol as GUIs use it ([`protocol`], [`search`], [`chess960`]) and the move generator
//! through `go perft` ([`movegen`]), every check against our rules.
//!
//! Each check starts the engine afresh (a check that leaves it searching or dead cannot spoil the
//! next), keeps the exchange, and ends in a [`CheckResult`]: pass, fail (with what was sent, what
//! came back, what was expected and one sentence on the fix) or skipped (with the reason).

pub mod chess960;
pub mod movegen;
pub mod options;
pub mod positions;
pub mod protocol;
pub mod search;

use super::client::{EngineError, EngineProcess, Said};
use super::config::EngineConfig;
use serde::Serialize;
use std::fmt;
use std::time::Duration;

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The engine did what the specification asks.
    Pass,
    /// It did not.
    Fail,
    /// The check does not apply (the engine lacks the feature), or could not run.
    Skipped,
    /// Nothing wrong was found, but the time allowed ran out before the check covered what it
    /// must (a perft suite not counted to depth 2 everywhere).
    Partial,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "FAIL",
            Verdict::Skipped => "skipped",
            Verdict::Partial => "partial",
        })
    }
}

/// One check's result.
#[derive(Debug, Clone, Serialize)]
pub struct CheckResult {
    /// Short name (`uci`, `isready-searching`, `perft-chess960`, ...).
    pub id: &'static str,
    /// What it checks, in words.
    pub title: &'static str,
    /// Pass, fail or skipped.
    pub verdict: Verdict,
    /// One line: what was measured, what went wrong, or why it was skipped.
    pub detail: String,
    /// For a failure: what the specification expects.
    pub expected: String,
    /// For a failure: the exchange (`> ` sent, `< ` received).
    pub exchange: Vec<String>,
    /// For a failure: how to fix it, in one sentence.
    pub fix: String,
}

impl CheckResult {
    /// A passed check.
    pub fn pass(id: &'static str, title: &'static str, detail: impl Into<String>) -> CheckResult {
        CheckResult {
            id,
            title,
            verdict: Verdict::Pass,
            detail: detail.into(),
            expected: String::new(),
            exchange: Vec::new(),
            fix: String::new(),
        }
    }

    /// A skipped check.
    pub fn skip(id: &'static str, title: &'static str, why: impl Into<String>) -> CheckResult {
        CheckResult {
            verdict: Verdict::Skipped,
            ..CheckResult::pass(id, title, why)
        }
    }

    /// A check cut short by its time: nothing wrong found in what `covered` says.
    pub fn partial(
        id: &'static str,
        title: &'static str,
        covered: impl Into<String>,
    ) -> CheckResult {
        CheckResult {
            verdict: Verdict::Partial,
            ..CheckResult::pass(id, title, covered)
        }
    }

    /// A failed check, with the exchange so far.
    pub fn fail(
        id: &'static str,
        title: &'static str,
        failure: Failure,
        exchange: &[Said],
    ) -> CheckResult {
        CheckResult {
            id,
            title,
            verdict: Verdict::Fail,
            detail: failure.what,
            expected: failure.expected,
            exchange: exchange.iter().map(Said::to_string).collect(),
            fix: failure.fix,
        }
    }
}

/// Why a check failed: what happened, what should have, and the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What the engine did.
    pub what: String,
    /// What the specification asks.
    pub expected: String,
    /// How to fix it.
    pub fix: String,
}

impl Failure {
    /// A failure in three sentences.
    pub fn new(
        what: impl Into<String>,
        expected: impl Into<String>,
        fix: impl Into<String>,
    ) -> Failure {
        Failure {
            what: what.into(),
            expected: expected.into(),
            fix: fix.into(),
        }
    }

    /// The engine did not answer, or died, while we waited for `what`.
    pub fn silent(error: &EngineError, expected: &str, fix: &str) -> Failure {
        Failure::new(error.to_string(), expected, fix)
    }
}

/// How long the audit runs its move-generation checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// About a minute of perft, positions counted up to 20 M nodes each.
    Quick,
    /// About ten minutes, up to 200 M nodes each and more random positions, one ply deeper.
    Full,
}

/// What to audit.
#[derive(Debug, Clone)]
pub struct AuditRequest {
    /// The engine, from engines.toml.
    pub engine: EngineConfig,
    /// How much perft.
    pub level: Level,
    /// Require Chess960 support (fail, instead of skip, when the engine lacks `UCI_Chess960`).
    pub chess960: bool,
    /// Seconds of perft in all (`None`: the level's, 60 or 600), shared among the suites; a
    /// slow engine counts fewer positions, a wrong count ends a suite at once.
    pub perft_seconds: Option<u64>,
}

impl AuditRequest {
    /// The perft time of the whole audit.
    pub fn perft_budget(&self) -> Duration {
        Duration::from_secs(self.perft_seconds.unwrap_or(match self.level {
            Level::Quick => 60,
            Level::Full => 600,
        }))
    }
}

/// A check run by the audit: its name, title and the function that runs it.
pub struct Check {
    /// Short name.
    pub id: &'static str,
    /// What it checks.
    pub title: &'static str,
    /// Runs it, given its own name and title (written once, in the table of checks).
    pub run: fn(&Context, Named) -> CheckResult,
}

/// A check's name and title, handed to the function that runs it for its result.
#[derive(Debug, Clone, Copy)]
pub struct Named {
    /// Short name.
    pub id: &'static str,
    /// What it checks.
    pub title: &'static str,
}

/// What every check may use: the request and what the first start of the engine told.
pub struct Context {
    /// The request.
    pub request: AuditRequest,
    /// The option names the engine announced (lower-case), from a first handshake.
    pub options: Vec<String>,
    /// The engine's `id name`.
    pub name: String,
    /// Whether it answers `go perft` in Stockfish's format (`None` until probed).
    pub perft: Option<Result<(), String>>,
}

/// How long any engine may take for its first `uciok` before checks other than the handshake
/// give up on it (the handshake check itself holds it to its configured `init_timeout_ms`).
pub const PATIENT_START: Duration = Duration::from_secs(30);

impl Context {
    /// A fresh engine for one check: handshake (with [`PATIENT_START`]), the options configured
    /// in engines.toml, `isready`; then recording the exchange.
    pub fn start(&self) -> Result<EngineProcess, Failure> {
        let config = &self.request.engine;
        let mut engine = EngineProcess::spawn(config, None).map_err(|e| {
            Failure::new(
                e.to_string(),
                "the engine starts",
                "check `command` and `args` in engines.toml",
            )
        })?;
        engine.record();
        let started = engine.handshake(PATIENT_START).and_then(|_| {
            for (name, value) in config.option_values() {
                engine.set_option(&name, &value);
            }
            engine.ready(PATIENT_START)
        });
        started.map_err(|e| {
            Failure::new(
                e.to_string(),
                "uciok after uci, readyok after isready",
                "answer `uci` with `uciok` and `isready` with `readyok`",
            )
        })?;
        engine.record();
        Ok(engine)
    }

    /// True when the engine announced option `name`.
    pub fn has_option(&self, name: &str) -> bool {
        self.options.contains(&name.to_ascii_lowercase())
    }
}

/// Every check, in the order the audit runs them.
pub fn checks() -> Vec<Check> {
    let mut all = protocol::checks();
    all.extend(search::checks());
    all.extend(chess960::checks());
    all.extend(movegen::checks());
    all
}

/// The audit's findings.
#[derive(Debug, Clone, Serialize)]
pub struct AuditReport {
    /// The engine's name in engines.toml.
    pub engine: String,
    /// Its `id name`.
    pub id_name: String,
    /// Quick or full.
    pub level: Level,
    /// Every check's result, in order.
    pub results: Vec<CheckResult>,
}

impl AuditReport {
    /// Checks that failed.
    pub fn failures(&self) -> usize {
        self.count(Verdict::Fail)
    }

    /// Checks with this verdict.
    pub fn count(&self, verdict: Verdict) -> usize {
        self.results.iter().filter(|r| r.verdict == verdict).count()
    }
}

/// Run the audit; `progress` hears (checks done, checks in all, the check about to run).
pub fn run_audit(
    request: &AuditRequest,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> AuditReport {
    let mut context = Context {
        request: request.clone(),
        options: Vec::new(),
        name: String::new(),
        perft: None,
    };
    // A first start to learn the options and the name (which checks apply).
    if let Ok(mut engine) = EngineProcess::spawn(&request.engine, None) {
        if let Ok(lines) = engine.handshake(PATIENT_START) {
            context.name = lines
                .iter()
                .find_map(|l| l.strip_prefix("id name "))
                .unwrap_or("")
                .trim()
                .to_string();
            context.options = engine.options().to_vec();
            context.perft = Some(movegen::probe(&mut engine));
        }
    }
    let all = checks();
    let mut results = Vec::new();
    for (done, check) in all.iter().enumerate() {
        progress(done, all.len(), check.id);
        let named = Named {
            id: check.id,
            title: check.title,
        };
        results.push((check.run)(&context, named));
    }
    progress(all.len(), all.len(), "");
    AuditReport {
        engine: request.engine.name.clone(),
        id_name: context.name,
        level: request.level,
        results,
    }
}
