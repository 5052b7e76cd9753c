//! The start of an xboard engine: `xboard`, `protover 2` and the feature negotiation, each
//! `feature` answered `accepted NAME` or `rejected NAME`, `done=1` awaited for 2 seconds (an
//! hour after `done=0`), as the specification says, and 8 seconds once a `feature` line came; then the configured options and a `ping`.
//! What was said is kept as a [`Negotiation`] (the audit reports it).

use super::lines::{declared_option, feature_pairs};
use crate::client::config::EngineConfig;
use crate::client::option::check_option;
use crate::client::process::{EngineError, EngineProcess};
use crate::client::session::{Feature, Negotiation, XboardSession};
use std::time::{Duration, Instant};

/// How long the runner waits for `done=1` after `protover 2` (the specification's 2 seconds).
pub const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// How long after `protover 2` it waits for `done=1` once the engine has sent a `feature` line
/// (a protocol 2 engine, slow to list its features: GNU Chess on a loaded machine takes over 2
/// seconds, after a `done=0` it hides behind a prompt). cutechess-cli waits 8 seconds for
/// `done=1` in any case.
pub const FEATURE_WAIT_SPEAKING: Duration = Duration::from_secs(8);

/// How long it waits once the engine sent `done=0` (the specification's hour).
const FEATURE_WAIT_EXTENDED: Duration = Duration::from_secs(3600);

impl EngineProcess {
    /// `xboard`, `protover 2` and the feature negotiation, then the configured options and a
    /// `ping`.
    pub(in crate::client) fn initialise_xboard(
        &mut self,
        config: &EngineConfig,
    ) -> Result<(), EngineError> {
        self.start_xboard(config, Duration::ZERO)
    }

    /// [`EngineProcess::initialise`] for an xboard engine, with `pause` between `xboard` and
    /// `protover 2` (the audit's second try of an engine that does not answer `protover 2`
    /// written right after `xboard`; a match sends them together, as XBoard does).
    pub fn start_xboard(
        &mut self,
        config: &EngineConfig,
        pause: Duration,
    ) -> Result<(), EngineError> {
        self.xboard = Some(Box::new(XboardSession {
            ponder: config.ponder,
            ..XboardSession::new()
        }));
        self.send("xboard");
        if !pause.is_zero() {
            std::thread::sleep(pause);
        }
        self.send("protover 2");
        let sent = Instant::now();
        let mut negotiation = Negotiation {
            pause,
            ..Negotiation::default()
        };
        let mut deadline = sent + FEATURE_WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let misplaced = &mut negotiation.misplaced;
            let waited = self.wait_for("feature done=1", left, |l| {
                if !l.starts_with("feature") && l.contains("feature ") {
                    misplaced.push(l.to_string());
                }
                l.starts_with("feature")
            });
            let line = match waited {
                Ok(line) => line,
                // No done=1 in 2 seconds: the engine is taken with what it said (protocol 1
                // engines say nothing).
                Err(EngineError::Timeout { .. }) if !negotiation.extended => break,
                Err(error) => {
                    self.session().negotiation = negotiation;
                    return Err(error);
                }
            };
            if !negotiation.extended {
                deadline = deadline.max(sent + FEATURE_WAIT_SPEAKING);
            }
            let args = line.strip_prefix("feature").unwrap_or("");
            for (name, value) in feature_pairs(args) {
                let accepted = self.session().feature(&name, &value);
                if name == "option" {
                    if let Some(option) = declared_option(&value) {
                        self.options.push(option.name.to_ascii_lowercase());
                        self.declared.push(option);
                    }
                }
                let word = if accepted { "accepted" } else { "rejected" };
                self.send(&format!("{word} {name}"));
                if name == "done" {
                    match value.as_str() {
                        "0" => {
                            negotiation.extended = true;
                            deadline = Instant::now() + FEATURE_WAIT_EXTENDED;
                        }
                        _ => negotiation.done = Some(sent.elapsed()),
                    }
                }
                negotiation.features.push(Feature {
                    name,
                    value,
                    accepted,
                });
            }
            if negotiation.done.is_some() {
                break;
            }
        }
        self.session().negotiation = negotiation;
        for (name, value) in config.option_values() {
            match check_option(&self.declared, &name, &value) {
                Ok(declared) => self.set_xboard_option(&declared, &value),
                Err(problem) => self.option_problems.push(problem),
            }
        }
        self.ping_xboard(Duration::from_millis(config.init_timeout_ms))
    }

    /// What an xboard engine said at `protover 2` (`None` for a UCI engine).
    pub fn negotiation(&self) -> Option<&Negotiation> {
        self.xboard.as_ref().map(|session| &session.negotiation)
    }
}
