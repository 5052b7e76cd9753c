//! `shannon match --compliance ENGINE ["ARGS"]`: fastchess's compliance steps
//! ([`shannon::audit::compliance`]) printed as fastchess prints them: `Step N: WHAT...`, then on
//! the same line (a carriage return, green) ` Passed Step N: WHAT`; at a failure, on stderr, the
//! red ` Failed` line and the engine's stdout lines; at the end `Engine passed all compliance
//! checks.`. The exit status is 0 when every step passed, else 1.

use super::super::prelude::CliError;
use super::error::CompatError;
use super::CompatCommand;
use shannon::audit::compliance::{check_compliance, ComplianceEvent};
use shannon::client::EngineConfig;
use std::io::Write;

/// `--compliance ENGINE [ARGS]` as fastchess reads it (only as the first word): the command,
/// or why it cannot be; `None` for any other command line.
pub fn command(args: &[String]) -> Option<Result<CompatCommand, CompatError>> {
    if args.first().is_none_or(|first| first != "--compliance") {
        return None;
    }
    let Some(command) = args.get(1) else {
        return Some(Err(CompatError::refused(
            "--compliance",
            "it needs the engine: --compliance ENGINE [\"ARGS\"]",
        )));
    };
    Some(Ok(CompatCommand::Compliance {
        command: command.clone(),
        // fastchess takes one word of arguments and splits it at spaces.
        args: args
            .get(2)
            .map(|a| a.split_whitespace().map(String::from).collect())
            .unwrap_or_default(),
    }))
}

/// Run the steps on `command` with `args`; true when the engine passed every one.
pub fn run(command: &str, args: Vec<String>, out: &mut impl Write) -> Result<bool, CliError> {
    let mut config = EngineConfig::from_command(command);
    config.args = args;
    let mut written = Ok(());
    let passed = check_compliance(&config, &mut |event| {
        if written.is_ok() {
            written = tell(&event, out);
        }
    });
    written?;
    if passed {
        writeln!(out, "Engine passed all compliance checks.")?;
    }
    out.flush()?;
    Ok(passed)
}

/// One event, in fastchess's bytes (its colours included).
fn tell(event: &ComplianceEvent<'_>, out: &mut impl Write) -> std::io::Result<()> {
    let mut err = std::io::stderr().lock();
    match event {
        ComplianceEvent::Step {
            number,
            description,
        } => write!(out, "Step {number}: {description}...")?,
        ComplianceEvent::Passed {
            number,
            description,
        } => write!(
            out,
            "\r\x1b[1;32m Passed\x1b[0m Step {number}: {description}\n"
        )?,
        ComplianceEvent::Failed {
            number,
            description,
            stdout,
        } => {
            out.flush()?;
            write!(
                err,
                "\r\x1b[1;31m Failed\x1b[0m Step {number}: {description}\n"
            )?;
            writeln!(err, "\x1b[1;33m Your engine's stdout output was:\x1b[0m")?;
            for line in stdout.iter() {
                writeln!(err, " {line}")?;
            }
        }
        ComplianceEvent::Warning(warning) => writeln!(out, "{warning}")?,
        ComplianceEvent::InvalidInfo(problem) => {
            out.flush()?;
            write!(err, "\r\n{problem}\n")?;
        }
    }
    out.flush()
}
