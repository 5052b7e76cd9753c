//! `shannon merge`: the shards of a sharded run added up into the result of the whole run:
//! random-games `--json` reports, or the state files of a sharded `shannon match`.

use super::CliError;
use shannon::arena::merge::merge_states;
use shannon::arena::state::STATE_FORMAT;
use shannon::arena::tables::write_tables;
use shannon::arena::tournament::MatchSummary;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `shannon merge`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Every shard's file: random-games --json reports, or match state files (each shard's
    /// .state.json).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Random games: write the merged result as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Random games: draw the histogram of game lengths of the whole experiment, as SVG.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Match: write the games of every shard's PGN to one file.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Match: write the HTML report of the whole run.
    #[arg(long, value_name = "FILE.html")]
    report: Option<PathBuf>,
}

/// True when `path` holds a match state (its `format` field says so).
fn is_match_state(path: &Path) -> bool {
    #[derive(serde::Deserialize)]
    struct Format {
        format: Option<String>,
    }
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| serde_json::from_str::<Format>(&text).ok())
        .and_then(|f| f.format)
        .is_some_and(|f| f == STATE_FORMAT)
}

/// Run `shannon merge`.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    if !is_match_state(&args.files[0]) {
        if args.pgn.is_some() || args.report.is_some() {
            return Err(CliError::new(
                "--pgn and --report merge match states; these are random-games reports",
            ));
        }
        return super::random_games::merge_reports(
            &args.files,
            args.json.as_deref(),
            args.plot.as_deref(),
            out,
        );
    }
    if args.json.is_some() || args.plot.is_some() {
        return Err(CliError::new(
            "--json and --plot merge random-games reports; these are match states",
        ));
    }
    let merged = merge_states(&args.files, args.pgn.as_deref()).map_err(CliError::new)?;
    writeln!(
        out,
        "Merged {} shards of {}",
        merged.shards,
        merged.standings.names.join(", ")
    )
    .map_err(CliError::new)?;
    write_tables(out, &merged.standings, merged.seconds).map_err(CliError::new)?;
    if let Some(path) = &args.pgn {
        writeln!(out, "PGN: {}", path.display()).map_err(CliError::new)?;
    }
    if let Some(path) = &args.report {
        let summary = MatchSummary {
            standings: merged.standings,
            sprt: None,
            seconds: merged.seconds,
            pgn_ok: true,
            interrupted: false,
            latency: None,
        };
        super::match_report::write_report(path, &summary).map_err(CliError::new)?;
        writeln!(out, "Report: {}", path.display()).map_err(CliError::new)?;
    }
    Ok(true)
}
