//! The lines cutechess-cli and fastchess print when an engine is not given an option, cannot
//! start, or a failure stops the run, in each tool's words: fastchess's `Warning; ...` and
//! `Fatal; ...` on stdout (app/src/engine/uci_engine.cpp, app/src/matchmaking/match/match.cpp,
//! app/src/matchmaking/tournament/base/tournament.cpp), cutechess-cli's `Warning: ...` on
//! stderr (projects/lib/src/chessengine.cpp, chessgame.cpp, enginebuilder.cpp), so that the
//! scripts that read them (fishtest's worker stops a run on fastchess's) see ours.

use shannon::arena::{OptionWarning, RunStop, StartFailure};
use shannon::client::OptionProblem;

/// fastchess's warning for an option not sent.
pub fn fastchess_option(warning: &OptionWarning) -> String {
    match &warning.problem {
        OptionProblem::Missing { name } => {
            format!("Warning; {} doesn't have option {name}", warning.engine)
        }
        OptionProblem::Invalid { name, value } => {
            format!("Warning; Invalid value for option {name}; {value}")
        }
    }
}

/// cutechess-cli's warning for an option not sent (without its `Warning: ` prefix, which its
/// message handler adds).
pub fn cutechess_option(warning: &OptionWarning) -> String {
    match &warning.problem {
        OptionProblem::Missing { name } => {
            format!("{} doesn't have option {name}", warning.engine)
        }
        OptionProblem::Invalid { name, value } => {
            format!("Invalid value for option {name}: {value}")
        }
    }
}

/// fastchess's line for a failure that stops the run.
pub fn fastchess_stop(stop: &RunStop) -> String {
    match stop {
        RunStop::StartFailure {
            engine, failure, ..
        } => {
            let why = match failure {
                StartFailure::NoUciok { .. } => "Engine didn't respond to uciok after startup",
                StartFailure::NotReady { .. } => "Engine didn't respond to isready after startup",
                StartFailure::Spawn { error } => error,
            };
            format!("Fatal; {engine} engine startup failure: \"{why}\"")
        }
        RunStop::NoRecover { game, .. } => format!(
            "Game {game} stalled / disconnected and no recover option set for engine, stopping \
             tournament."
        ),
    }
}

/// cutechess-cli's warning for an engine that cannot start (without its `Warning: ` prefix); it
/// has none for a crash without `-recover` (it stops after the game, silently).
pub fn cutechess_stop(stop: &RunStop) -> Option<String> {
    match stop {
        RunStop::StartFailure {
            engine,
            command,
            failure: StartFailure::Spawn { .. },
            ..
        } => Some(format!(
            "Cannot start engine {engine}:\nCannot execute command: {command}"
        )),
        RunStop::StartFailure {
            engine, failure, ..
        } => Some(format!(
            "Could not initialize player {engine}: {}",
            failure.error()
        )),
        RunStop::NoRecover { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_are_the_tools_own() {
        let missing = OptionWarning {
            engine: "random_move_1".into(),
            problem: OptionProblem::Missing {
                name: "Threads".into(),
            },
        };
        let invalid = OptionWarning {
            engine: "random_move_1".into(),
            problem: OptionProblem::Invalid {
                name: "Hash".into(),
                value: "-16".into(),
            },
        };
        // engine_diagnostics.sh greps for these two.
        assert_eq!(
            fastchess_option(&missing),
            "Warning; random_move_1 doesn't have option Threads"
        );
        assert_eq!(
            fastchess_option(&invalid),
            "Warning; Invalid value for option Hash; -16"
        );
        assert_eq!(
            cutechess_option(&invalid),
            "Invalid value for option Hash: -16"
        );
        let stop = RunStop::StartFailure {
            game: 1,
            engine: "random_move_1".into(),
            command: "app/tests/mock/engine/missing_engine.sh".into(),
            failure: StartFailure::NoUciok {
                exited: true,
                error: "the engine exited while the runner waited for uciok".into(),
            },
            forensics: None,
        };
        assert_eq!(
            fastchess_stop(&stop),
            "Fatal; random_move_1 engine startup failure: \"Engine didn't respond to uciok after \
             startup\""
        );
        let crash = RunStop::NoRecover {
            game: 1,
            engine: "crasher".into(),
            stalled: false,
        };
        assert!(fastchess_stop(&crash).contains("no recover option set"));
        assert_eq!(cutechess_stop(&crash), None);
    }
}
