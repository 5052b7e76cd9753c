//! fastchess 1.8.2-alpha's `--compliance ENGINE [ARGS]`: a fixed list of steps a UCI engine must
//! pass (start, `isready`, `id name` and `id author`, three `go` with clocks and the info line
//! before each `bestmove`, a short game), run as fastchess runs them (`engine/compliance.hpp`),
//! stopping at the first step that fails. Engine developers run it in their CI; `shannon audit`
//! is the thorough check.
//!
//! As fastchess: the lines an engine sent are kept from the last wait for `uciok` or
//! `bestmove` (a wait for `readyok` does not replace them), and those are what a failure shows;
//! the info line of a search is the last one with ` score ` (not `info string`, not a
//! `multipv` other than 1), one without `lowerbound`/`upperbound` preferred; the waits are
//! fastchess's defaults: 10 s for `uciok`, 60 s for `readyok` and `bestmove`.

use crate::client::{EngineConfig, EngineProcess};
use std::time::Duration;

/// fastchess's wait for `uciok` at start-up (`startup_time`).
const STARTUP: Duration = Duration::from_secs(10);

/// fastchess's wait for `readyok` and `bestmove` (`ping_time`, `ucinewgame_time`).
const PING: Duration = Duration::from_secs(60);

/// What a step does.
#[derive(Debug, Clone, Copy)]
enum Action {
    Start,
    IsReady,
    IdName,
    IdAuthor,
    NewGame,
    Send(&'static str),
    ReadBestmove,
    /// `bestmove` read, and a move named in it.
    ReadMove,
    HasInfo,
    ValidInfo,
    InfoScore,
}

/// The steps, in fastchess's order and words.
const STEPS: [(&str, Action); 40] = [
    ("Start the engine", Action::Start),
    ("Check if engine is ready", Action::IsReady),
    ("Check id name", Action::IdName),
    ("Check id author", Action::IdAuthor),
    ("Send ucinewgame", Action::NewGame),
    (
        "Set position to startpos",
        Action::Send("position startpos"),
    ),
    ("Check if engine is ready after startpos", Action::IsReady),
    (
        "Set position to fen",
        Action::Send(
            "position fen 3r2k1/p5n1/1pq1p2p/2p3p1/2P1P1n1/1P1P2pP/PN1Q2K1/5R2 w - - 0 27",
        ),
    ),
    ("Check if engine is ready after fen", Action::IsReady),
    ("Send go wtime 100", Action::Send("go wtime 100")),
    ("Read bestmove", Action::ReadBestmove),
    ("Check if engine prints an info line", Action::HasInfo),
    ("Verify info line format is valid", Action::ValidInfo),
    ("Verify info line contains score", Action::InfoScore),
    (
        "Set position to black to move",
        Action::Send("position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
    ),
    ("Send go btime 100", Action::Send("go btime 100")),
    ("Read bestmove after go btime 100", Action::ReadBestmove),
    (
        "Check if engine prints an info line after go btime 100",
        Action::HasInfo,
    ),
    (
        "Verify info line format is valid after go btime 100",
        Action::ValidInfo,
    ),
    (
        "Check if engine prints an info line with the score after go btime 100",
        Action::InfoScore,
    ),
    (
        "Send go wtime 100 winc 100 btime 100 binc 100",
        Action::Send("go wtime 100 winc 100 btime 100 binc 100"),
    ),
    (
        "Read bestmove after go wtime 100 winc 100 btime 100 binc 100",
        Action::ReadBestmove,
    ),
    (
        "Check if engine prints an info line after go wtime 100 winc 100",
        Action::HasInfo,
    ),
    (
        "Verify info line format is valid after go wtime 100 winc 100",
        Action::ValidInfo,
    ),
    (
        "Check if engine prints an info line with the score after go wtime 100 winc 100",
        Action::InfoScore,
    ),
    (
        "Send go btime 100 binc 100 wtime 100 winc 100",
        Action::Send("go btime 100 binc 100 wtime 100 winc 100"),
    ),
    (
        "Read bestmove after go btime 100 binc 100 wtime 100 winc 100",
        Action::ReadBestmove,
    ),
    (
        "Check if engine prints an info line after go btime 100 binc 100",
        Action::HasInfo,
    ),
    (
        "Verify info line format is valid after go btime 100 binc 100",
        Action::ValidInfo,
    ),
    (
        "Check if engine prints an info line with the score after go btime 100 binc 100",
        Action::InfoScore,
    ),
    // fastchess's own words, though this step looks for the score.
    (
        "Check if engine prints an info line after go btime 100 binc 100",
        Action::InfoScore,
    ),
    ("Send ucinewgame", Action::NewGame),
    (
        "Set position to startpos",
        Action::Send("position startpos"),
    ),
    ("Send go wtime 100", Action::Send("go wtime 100 btime 100")),
    (
        "Read bestmove after go wtime 100 btime 100",
        Action::ReadMove,
    ),
    (
        "Verify info line format is valid after go wtime 100 btime 100",
        Action::ValidInfo,
    ),
    (
        "Set position to startpos moves e2e4 e7e5",
        Action::Send("position startpos moves e2e4 e7e5"),
    ),
    (
        "Send go wtime 100 btime 100",
        Action::Send("go wtime 100 btime 100"),
    ),
    (
        "Read bestmove after position startpos moves e2e4 e7e5",
        Action::ReadMove,
    ),
    (
        "Verify info line format is valid after position startpos moves e2e4 e7e5",
        Action::ValidInfo,
    ),
];

/// What the check tells as it goes, in the order fastchess prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ComplianceEvent<'a> {
    /// Step `number` (from 1) begins.
    Step {
        /// Its number.
        number: usize,
        /// fastchess's words for it.
        description: &'static str,
    },
    /// It passed.
    Passed {
        /// Its number.
        number: usize,
        /// fastchess's words for it.
        description: &'static str,
    },
    /// It failed: the check ends here, and `stdout` is what the engine printed in the last
    /// wait for `uciok` or `bestmove`.
    Failed {
        /// Its number.
        number: usize,
        /// fastchess's words for it.
        description: &'static str,
        /// The engine's lines.
        stdout: &'a [String],
    },
    /// A warning fastchess prints on stdout (`Warning; Engine  is not responsive`: the check's
    /// engine has no name).
    Warning(&'static str),
    /// Why an info line is not valid, as fastchess prints it on stderr.
    InvalidInfo(String),
}

/// The check in progress: the engine and what fastchess keeps of it.
struct Run<'c> {
    config: &'c EngineConfig,
    engine: Option<EngineProcess>,
    /// Lines of the last wait for `uciok` or `bestmove` (fastchess's `output_`).
    output: Vec<String>,
}

impl Run<'_> {
    fn alive(&mut self) -> bool {
        self.engine
            .as_mut()
            .is_some_and(|e| !e.exited_within(Duration::ZERO))
    }

    /// `writeEngine`: false when the engine is not running.
    fn send(&mut self, line: &str) -> bool {
        if !self.alive() {
            return false;
        }
        self.engine.as_mut().is_some_and(|e| {
            e.send(line);
            true
        })
    }

    /// `readEngine`: the lines until one starts with `word` (kept in `into`), true when it came.
    fn read(&mut self, word: &str, timeout: Duration, into: &mut Vec<String>) -> bool {
        into.clear();
        let Some(engine) = self.engine.as_mut() else {
            return false;
        };
        engine
            .wait_for(word, timeout, |line| {
                into.push(line.to_string());
                line.starts_with(word)
            })
            .is_ok()
    }

    fn read_output(&mut self, word: &str, timeout: Duration) -> bool {
        let mut lines = std::mem::take(&mut self.output);
        let read = self.read(word, timeout, &mut lines);
        self.output = lines;
        read
    }

    /// `isready`: false (with fastchess's warning when the engine runs) when no `readyok`
    /// comes in time.
    fn is_ready(&mut self, tell: &mut dyn FnMut(ComplianceEvent<'_>)) -> bool {
        if !self.alive() {
            return false;
        }
        self.send("isready");
        let mut lines = Vec::new();
        let ready = self.read("readyok", PING, &mut lines);
        if !ready {
            tell(ComplianceEvent::Warning(
                "Warning; Engine  is not responsive",
            ));
        }
        ready
    }

    /// The value of the last `id KEY ...` line of the start-up, if any.
    fn id(&self, key: &str) -> bool {
        let prefix = format!("id {key} ");
        self.output.iter().any(|line| line.starts_with(&prefix))
    }

    /// fastchess's `lastInfoLine`.
    fn last_info_line(&self) -> String {
        let mut fallback = None;
        for line in self.output.iter().rev() {
            let multipv_other = line.contains(" multipv ") && !line.contains(" multipv 1");
            if line.contains("info string")
                || !line.contains("info")
                || !line.contains(" score ")
                || multipv_other
            {
                continue;
            }
            if !(line.contains("lowerbound") || line.contains("upperbound")) {
                return line.clone();
            }
            fallback.get_or_insert_with(|| line.clone());
        }
        fallback.unwrap_or_default()
    }

    /// fastchess's `bestmove()`: the last line is `bestmove` and names a move.
    fn has_move(&self) -> bool {
        self.output.last().is_some_and(|line| {
            let mut words = line.split(' ');
            line.starts_with("bestmove") && words.any(|w| w == "bestmove") && words.next().is_some()
        })
    }

    fn step(&mut self, action: Action, tell: &mut dyn FnMut(ComplianceEvent<'_>)) -> bool {
        match action {
            Action::Start => match EngineProcess::spawn(self.config, None) {
                Ok(engine) => {
                    self.engine = Some(engine);
                    self.send("uci") && self.read_output("uciok", STARTUP)
                }
                Err(_) => false,
            },
            Action::IsReady => self.is_ready(tell),
            Action::IdName => self.id("name"),
            Action::IdAuthor => self.id("author"),
            Action::NewGame => self.send("ucinewgame") && self.is_ready(tell),
            Action::Send(line) => self.send(line),
            Action::ReadBestmove => self.read_output("bestmove", PING),
            Action::ReadMove => self.read_output("bestmove", PING) && self.has_move(),
            Action::HasInfo => !self.last_info_line().is_empty(),
            Action::ValidInfo => match info_line_problem(&self.last_info_line()) {
                None => true,
                Some(problem) => {
                    tell(ComplianceEvent::InvalidInfo(problem));
                    false
                }
            },
            Action::InfoScore => self.last_info_line().contains("score"),
        }
    }
}

/// Why fastchess's `isValidInfoLine` refuses `line`, in its words, or `None` when it is valid.
fn info_line_problem(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return Some(format!("Invalid info line format: {line}"));
    }
    while let Some(word) = words.next() {
        if matches!(word, "time" | "nps" | "score") {
            match words.next() {
                None => return Some(format!("No value after token: {word}")),
                Some(value) if value.contains('.') => {
                    return Some(format!("Time/NPS/Score value is not an integer: {value}"))
                }
                Some(_) => {}
            }
        }
    }
    None
}

/// Run fastchess's compliance steps on the engine `config` starts, telling each as it goes;
/// true when every step passed. The engine is stopped at the end.
pub fn check_compliance(config: &EngineConfig, tell: &mut dyn FnMut(ComplianceEvent<'_>)) -> bool {
    let mut run = Run {
        config,
        engine: None,
        output: Vec::new(),
    };
    let mut passed = true;
    for (i, &(description, action)) in STEPS.iter().enumerate() {
        let number = i + 1;
        tell(ComplianceEvent::Step {
            number,
            description,
        });
        if run.step(action, tell) {
            tell(ComplianceEvent::Passed {
                number,
                description,
            });
        } else {
            tell(ComplianceEvent::Failed {
                number,
                description,
                stdout: &run.output,
            });
            passed = false;
            break;
        }
    }
    if let Some(engine) = run.engine.as_mut() {
        engine.send("quit");
        engine.close_input();
    }
    passed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_judged_as_fastchess_judges_them() {
        let line = "info depth 1 score cp 20 time 5 nps 100 pv e2e4";
        assert_eq!(info_line_problem(line), None);
        assert_eq!(
            info_line_problem("bestmove e2e4"),
            Some("Invalid info line format: bestmove e2e4".into())
        );
        assert_eq!(
            info_line_problem(""),
            Some("Invalid info line format: ".into())
        );
        assert_eq!(
            info_line_problem("info depth 1 time 1.5"),
            Some("Time/NPS/Score value is not an integer: 1.5".into())
        );
        assert_eq!(
            info_line_problem("info depth 1 nps"),
            Some("No value after token: nps".into())
        );
    }

    #[test]
    fn the_info_line_is_fastchess_s_last_info_line() {
        let run = |lines: &[&str]| {
            Run {
                config: &EngineConfig::from_command("x"),
                engine: None,
                output: lines.iter().map(|l| l.to_string()).collect(),
            }
            .last_info_line()
        };
        let exact = "info depth 2 score cp 5";
        let bound = "info depth 3 score cp 9 lowerbound";
        assert_eq!(run(&[exact, bound, "bestmove e2e4"]), exact);
        assert_eq!(run(&[bound, "info string hi score x"]), bound);
        assert_eq!(run(&["info depth 4 multipv 2 score cp 1", exact]), exact);
        assert_eq!(run(&["info depth 4 multipv 2 score cp 1"]), "");
        assert_eq!(run(&["bestmove e2e4"]), "");
    }
}
