//! `shannon audit`: every protocol check and the perft suites against one engine of
//! engines.toml (the work is [`shannon::audit`]); this file adds the progress bar, the
//! table, the failures' exchanges and the JSON file.

use super::prelude::{CliError, EngineChoice, Overwrite};
use indicatif::{ProgressBar, ProgressStyle};
use shannon::audit::{run_audit, shortened, AuditReport, AuditRequest, Level, Verdict};
use std::io::Write;
use std::path::PathBuf;

/// `shannon audit`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    choice: EngineChoice,
    /// About a minute of perft (the default).
    #[arg(long, conflicts_with = "full")]
    quick: bool,
    /// About ten minutes of perft: deeper counts, more random positions.
    #[arg(long)]
    full: bool,
    /// Require Chess960: a missing UCI_Chess960 option fails instead of skipping those checks.
    #[arg(long)]
    chess960: bool,
    /// Seconds of perft in all, shared among the suites (default: 60 with --quick, 600 with
    /// --full).
    #[arg(long, value_name = "SECONDS")]
    perft_seconds: Option<u64>,
    /// Also write the report as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    overwrite: Overwrite,
}

/// Run `shannon audit`: true when no check failed.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    let engine = args.choice.resolve()?;
    args.overwrite
        .check([("the JSON report", args.json.as_deref())])?;
    let request = AuditRequest {
        engine,
        level: if args.full { Level::Full } else { Level::Quick },
        chess960: args.chess960,
        perft_seconds: args.perft_seconds,
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} checks {msg} [{elapsed}]")
            .expect("a valid template"),
    );
    let report = run_audit(&request, &mut |done, total, check| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        bar.set_message(check.to_string());
    });
    bar.finish_and_clear();
    write_report(&report, out).map_err(CliError::new)?;
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report).expect("a report serialises");
        std::fs::write(path, text + "\n")
            .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))?;
        writeln!(out, "JSON: {}", path.display()).map_err(CliError::new)?;
    }
    Ok(report.failures() == 0)
}

/// The table of checks, then each failure with its exchange and fix.
fn write_report(report: &AuditReport, out: &mut impl Write) -> std::io::Result<()> {
    let name = match report.id_name.is_empty() {
        true => "no id name",
        false => &report.id_name,
    };
    match report.protocol.is_uci() {
        true => writeln!(
            out,
            "Audit of {} ({name}), {:?}",
            report.engine, report.level
        )?,
        // The level is the perft's, which an xboard audit has not.
        false => writeln!(out, "Audit of {} ({name}), xboard", report.engine)?,
    }
    writeln!(out)?;
    let width = report.results.iter().map(|r| r.id.len()).max().unwrap_or(5);
    for result in &report.results {
        writeln!(
            out,
            "{:<width$}  {:<7}  {}",
            result.id,
            result.verdict.to_string(),
            result.detail
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{} passed, {} partial, {} failed, {} skipped",
        report.count(Verdict::Pass),
        report.count(Verdict::Partial),
        report.count(Verdict::Fail),
        report.count(Verdict::Skipped)
    )?;
    for result in report.results.iter().filter(|r| r.verdict == Verdict::Fail) {
        writeln!(out)?;
        writeln!(out, "FAIL {}: {}", result.id, result.title)?;
        writeln!(out, "  what happened: {}", result.detail)?;
        writeln!(out, "  expected:      {}", result.expected)?;
        if !result.exchange.is_empty() {
            writeln!(out, "  exchange (> sent, < received):")?;
            // The end of a long exchange is where it went wrong.
            let skip = result.exchange.len().saturating_sub(40);
            if skip > 0 {
                writeln!(out, "    ... {skip} earlier lines")?;
            }
            // Long lines shortened (a 1,000-ply `position`); the JSON file keeps them whole.
            for line in &result.exchange[skip..] {
                writeln!(out, "    {}", shortened(line))?;
            }
        }
        writeln!(out, "  fix:           {}", result.fix)?;
    }
    Ok(())
}
