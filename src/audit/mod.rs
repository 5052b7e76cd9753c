//! `shannon audit`: one run that tells an engine author whether their engine is correct: for a
//! UCI engine the protocol as GUIs use it (`protocol`, `search`, `chess960`) and the move
//! generator through `go perft` (`movegen`); for an xboard engine its CECP version 2 (`xboard`);
//! every check against our rules.
//!
//! Each check starts the engine afresh (a check that leaves it searching or dead cannot spoil the
//! next), keeps the exchange, and ends in a [`CheckResult`]: pass, fail (with what was sent, what
//! came back, what was expected and one sentence on the fix) or skipped (with the reason).

mod chess960;
pub mod compliance;
mod movegen;
mod options;
pub mod perft_check;
mod positions;
mod protocol;
mod search;
mod xboard;

use crate::client::{EngineConfig, EngineError, EngineProcess, Negotiation, Protocol, Said};
use serde::Serialize;
use std::borrow::Cow;
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
    pub perft: Option<Result<(), perft_check::PerftCheckError>>,
    /// What the engine never answered at the first start, if anything.
    pub unanswered: Option<Unanswered>,
    /// For an xboard engine: the pause between `xboard` and `protover 2` with which it
    /// answered `protover 2` at the first start (none unless it needed one).
    pub pace: Duration,
    /// For an xboard engine: what it said at `protover 2` at the first start.
    pub negotiation: Option<Negotiation>,
}

/// What the engine never answered at the audit's first start (waiting [`PATIENT_START`]).
/// Waiting again at every check would only repeat it: the check of that step fails with it at
/// once, and the checks that need the step are skipped with it as their reason.
#[derive(Debug, Clone)]
pub struct Unanswered {
    /// The check of the step: `uci` (no `uciok`) or `isready` (no `readyok`).
    pub check: &'static str,
    /// What happened, what was expected, the fix.
    pub failure: Failure,
    /// The first start's exchange.
    pub exchange: Vec<Said>,
}

/// How long any engine may take for its first `uciok` before checks other than the handshake
/// give up on it (the handshake check itself holds it to its configured `init_timeout_ms`).
pub const PATIENT_START: Duration = Duration::from_secs(30);

/// Why an engine could not be started as the checks start it.
enum Unstarted {
    /// The process did not start.
    Spawn(EngineError),
    /// No `uciok` (the check `uci`), with the exchange.
    Uci(EngineError, Vec<Said>),
    /// No `readyok` (the check `isready`), with the engine (its exchange, its options) and
    /// its handshake's lines.
    Ready(EngineError, Box<EngineProcess>, Vec<String>),
    /// An xboard engine that died, or did not answer its `ping` after the features (the check
    /// `features`), with the exchange.
    Xboard(EngineError, Vec<Said>),
}

impl Unstarted {
    /// The failure to report.
    fn failure(&self) -> Failure {
        match self {
            Unstarted::Spawn(e) => Failure::new(
                e.to_string(),
                "the engine starts",
                "check `command` and `args` in engines.toml",
            ),
            Unstarted::Uci(e, _) => protocol::no_uciok(e),
            Unstarted::Ready(e, _, _) => Failure::silent(
                e,
                "readyok after isready",
                "answer `isready` with `readyok` at once",
            ),
            Unstarted::Xboard(e, _) => xboard::unstarted(e),
        }
    }
}

/// Start the engine as every check does: handshake (with [`PATIENT_START`]), the options
/// configured in engines.toml, `isready`; the exchange recorded. Also the handshake's lines.
/// An xboard engine gets `xboard`, `pace`, `protover 2`, its features answered, its options and
/// a `ping` (no lines are returned).
fn start_engine(
    config: &EngineConfig,
    pace: Duration,
) -> Result<(EngineProcess, Vec<String>), Unstarted> {
    let mut engine = EngineProcess::spawn(config, None).map_err(Unstarted::Spawn)?;
    engine.record();
    if config.protocol == Protocol::Xboard {
        return match engine.start_xboard(config, pace) {
            Ok(()) => Ok((engine, Vec::new())),
            Err(e) => Err(Unstarted::Xboard(e, engine.transcript().to_vec())),
        };
    }
    let lines = match engine.handshake(PATIENT_START) {
        Ok(lines) => lines,
        Err(e) => return Err(Unstarted::Uci(e, engine.transcript().to_vec())),
    };
    for (name, value) in config.option_values() {
        engine.set_option(&name, &value);
    }
    if let Err(e) = engine.ready(PATIENT_START) {
        return Err(Unstarted::Ready(e, Box::new(engine), lines));
    }
    Ok((engine, lines))
}

impl Context {
    /// A fresh engine for one check: handshake (with [`PATIENT_START`]), the options
    /// configured in engines.toml, `isready`; then recording the exchange anew.
    ///
    /// An xboard engine that answered `protover 2` at its first start but not at this one
    /// (GNU Chess 6.2.7 catches it or not by the timing of its reads; `features` reports that)
    /// is started once more with a longer pause, so that the check audits what it names, not
    /// that race again.
    pub fn start(&self) -> Result<EngineProcess, Failure> {
        let config = &self.request.engine;
        let (mut engine, _) =
            start_engine(config, self.pace).map_err(|unstarted| unstarted.failure())?;
        let answered = |engine: &EngineProcess| {
            engine
                .negotiation()
                .is_some_and(|negotiation| negotiation.done.is_some())
        };
        let answers = self.negotiation.as_ref().is_some_and(|n| n.done.is_some());
        if config.protocol == Protocol::Xboard && answers && !answered(&engine) {
            let slower = (self.pace * 3).max(xboard::PACE);
            if let Ok((again, _)) = start_engine(config, slower) {
                if answered(&again) {
                    engine = again;
                }
            }
        }
        engine.record();
        Ok(engine)
    }

    /// The result of a check that cannot run because the engine did not answer at the first
    /// start: failed at once for the check of the step it did not answer, skipped with that
    /// reason for every check that needs the step (`uciok` all, `readyok` all but
    /// `protocol::UCIOK_ONLY`).
    pub fn unanswered_result(&self, named: Named) -> Option<CheckResult> {
        let unanswered = self.unanswered.as_ref()?;
        let Named { id, title } = named;
        if unanswered.check == id {
            let failure = unanswered.failure.clone();
            return Some(CheckResult::fail(id, title, failure, &unanswered.exchange));
        }
        let needs = unanswered.check != "isready" || !protocol::UCIOK_ONLY.contains(&id);
        needs.then(|| {
            let why = format!(
                "not run: at its first start, {} (see `{}`)",
                unanswered.failure.what, unanswered.check
            );
            CheckResult::skip(id, title, why)
        })
    }

    /// True when the engine announced option `name`.
    pub fn has_option(&self, name: &str) -> bool {
        self.options.contains(&name.to_ascii_lowercase())
    }

    /// The first start: what the engine announces (its name, its options), whether it has
    /// `go perft`, or what it never answered.
    fn first_start(&mut self) {
        if self.request.engine.protocol == Protocol::Xboard {
            return self.first_xboard_start();
        }
        let unstarted = match start_engine(&self.request.engine, Duration::ZERO) {
            Ok((mut engine, lines)) => {
                self.announced(&engine, &lines);
                self.perft = Some(movegen::probe(&mut engine));
                return;
            }
            Err(unstarted) => unstarted,
        };
        let failure = unstarted.failure();
        let (check, error, exchange) = match unstarted {
            Unstarted::Uci(e, exchange) => ("uci", e, exchange),
            Unstarted::Ready(e, engine, lines) => {
                self.announced(&engine, &lines);
                ("isready", e, engine.transcript().to_vec())
            }
            Unstarted::Spawn(_) | Unstarted::Xboard(..) => return,
        };
        // An engine that exits is asked again by every check (it may have crashed once); only
        // one that never answers would cost a full wait at each.
        if matches!(error, EngineError::Timeout { .. }) {
            self.unanswered = Some(Unanswered {
                check,
                failure,
                exchange,
            });
        }
    }

    /// The first start of an xboard engine: its name (`myname`), its options and features;
    /// when it does not answer `protover 2` written right after `xboard`, a second start with
    /// a pause between them (as `features` reports), which the other checks then use.
    fn first_xboard_start(&mut self) {
        for pace in [Duration::ZERO, xboard::PACE] {
            let (engine, _) = match start_engine(&self.request.engine, pace) {
                Ok(started) => started,
                Err(unstarted) => {
                    let failure = unstarted.failure();
                    if let Unstarted::Xboard(EngineError::Timeout { .. }, exchange) = unstarted {
                        self.unanswered = Some(Unanswered {
                            check: "features",
                            failure,
                            exchange,
                        });
                    }
                    return;
                }
            };
            let negotiation = engine.negotiation().cloned().unwrap_or_default();
            self.name = negotiation.value("myname").unwrap_or("").to_string();
            self.options = engine.options().to_vec();
            self.pace = pace;
            let answered = negotiation.done.is_some();
            self.negotiation = Some(negotiation);
            if answered {
                return;
            }
        }
        self.pace = Duration::ZERO;
    }

    /// Keep the name and the options the engine announced in its handshake (`lines`).
    fn announced(&mut self, engine: &EngineProcess, lines: &[String]) {
        self.name = lines
            .iter()
            .find_map(|l| l.strip_prefix("id name "))
            .unwrap_or("")
            .trim()
            .to_string();
        self.options = engine.options().to_vec();
    }
}

/// Every check for an engine of `protocol`, in the order the audit runs them.
pub fn checks(protocol: Protocol) -> Vec<Check> {
    if protocol == Protocol::Xboard {
        return xboard::checks();
    }
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
    /// Its `id name` (an xboard engine's `myname`).
    pub id_name: String,
    /// The protocol audited (left out of the JSON for UCI).
    #[serde(skip_serializing_if = "Protocol::is_uci")]
    pub protocol: Protocol,
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

/// How many moves of a `position ... moves` line [`shortened`] shows.
pub const MOVES_SHOWN: usize = 6;

/// How many characters of any other line [`shortened`] shows.
pub const CHARS_SHOWN: usize = 200;

/// A line of an exchange shortened for a person to read: a `position ... moves` line past its
/// first [`MOVES_SHOWN`] moves ends `... (994 more moves)`, any other line past [`CHARS_SHOWN`]
/// characters ends `... (N more characters)`. The report keeps every line whole (the JSON
/// file has them).
pub fn shortened(line: &str) -> Cow<'_, str> {
    if let Some(at) = line.find(" moves ") {
        let (head, rest) = line.split_at(at + " moves".len());
        let moves: Vec<&str> = rest.split_whitespace().collect();
        if head.contains("position") && moves.len() > MOVES_SHOWN {
            let shown = moves[..MOVES_SHOWN].join(" ");
            let more = moves.len() - MOVES_SHOWN;
            return format!("{head} {shown} ... ({more} more moves)").into();
        }
    }
    match line.char_indices().nth(CHARS_SHOWN) {
        Some((at, _)) => {
            let more = line[at..].chars().count();
            format!("{} ... ({more} more characters)", &line[..at]).into()
        }
        None => line.into(),
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
        unanswered: None,
        pace: Duration::ZERO,
        negotiation: None,
    };
    context.first_start();
    let all = checks(request.engine.protocol);
    let mut results = Vec::new();
    for (done, check) in all.iter().enumerate() {
        progress(done, all.len(), check.id);
        let named = Named {
            id: check.id,
            title: check.title,
        };
        let result = context.unanswered_result(named);
        results.push(result.unwrap_or_else(|| (check.run)(&context, named)));
    }
    progress(all.len(), all.len(), "");
    AuditReport {
        engine: request.engine.name.clone(),
        id_name: context.name,
        protocol: request.engine.protocol,
        level: request.level,
        results,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_shortened_and_short_ones_kept() {
        let moves = ["e2e4"; 10].join(" ");
        assert_eq!(
            shortened(&format!("> position startpos moves {moves}")),
            "> position startpos moves e2e4 e2e4 e2e4 e2e4 e2e4 e2e4 ... (4 more moves)"
        );
        let short = "> position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2";
        assert_eq!(shortened(short), short);
        let long = format!("< info string {}", "é".repeat(300));
        let cut = shortened(&long);
        assert!(cut.ends_with(" ... (114 more characters)"), "{cut}");
        assert_eq!(
            cut.chars().count(),
            CHARS_SHOWN + " ... (114 more characters)".len()
        );
    }
}
