//! `shannon merge`: the shards of a sharded run added up into the result of the whole run:
//! random-games `--json` reports, or the state files of a sharded `shannon match`.

use super::prelude::{CliError, Overwrite};
use super::report::text::write_tables;
use shannon::arena::{merge_states, STATE_FORMAT, STATE_FORMATS_READ};
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
    #[command(flatten)]
    overwrite: Overwrite,
}

/// What a file given to `shannon merge` holds.
enum Found {
    MatchState,
    RandomGamesReport,
    /// Neither: what was found instead, in words.
    Neither(String),
}

/// Look at `path`: a match state (its `format` field says so), a random-games report (it reads as
/// one), or neither, and then what it is.
fn classify(path: &Path) -> Result<Found, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::new(format!("cannot read {}: {e}", path.display())))?;
    let value: serde_json::Value = match serde_json::from_str(&text) {
        Ok(value) => value,
        Err(_) if text.trim().is_empty() => return Ok(Found::Neither("an empty file".into())),
        Err(e) => return Ok(Found::Neither(format!("not JSON ({e})"))),
    };
    let Some(object) = value.as_object() else {
        return Ok(Found::Neither("JSON, but not an object".into()));
    };
    match object.get("format").and_then(|f| f.as_str()) {
        Some(format) if STATE_FORMATS_READ.contains(&format) => return Ok(Found::MatchState),
        Some(format) if format.starts_with("shannon match state") => {
            return Ok(Found::Neither(format!(
                "a match state of format '{format}' (this shannon reads '{STATE_FORMAT}')"
            )))
        }
        Some(format) if format.starts_with("shannon random-games checkpoint") => {
            return Ok(Found::Neither(
                "a random-games checkpoint (merge the reports the shards write with --json)".into(),
            ))
        }
        _ => {}
    }
    if object.contains_key("done") && object.contains_key("lengths") {
        return Ok(Found::Neither(
            "a random-games checkpoint (merge the reports the shards write with --json)".into(),
        ));
    }
    match serde_json::from_value::<shannon::experiment::Report>(value.clone()) {
        Ok(_) => Ok(Found::RandomGamesReport),
        Err(e) => {
            let keys: Vec<&str> = object.keys().map(String::as_str).take(8).collect();
            Ok(Found::Neither(format!(
                "a JSON object with the keys {} ({e})",
                keys.join(", ")
            )))
        }
    }
}

/// What the files are: all match states (true) or all random-games reports (false).
fn all_match_states(files: &[PathBuf]) -> Result<bool, CliError> {
    let mut kinds = Vec::new();
    for path in files {
        match classify(path)? {
            Found::MatchState => kinds.push(true),
            Found::RandomGamesReport => kinds.push(false),
            Found::Neither(what) => {
                return Err(CliError::new(format!(
                    "{} is neither a match state nor a random-games report: {what}",
                    path.display()
                )))
            }
        }
    }
    if kinds.iter().any(|&k| k != kinds[0]) {
        return Err(CliError::new(
            "the files mix match states and random-games reports: merge each kind on its own",
        ));
    }
    Ok(kinds[0])
}

/// Run `shannon merge`.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    args.overwrite.check([
        ("the JSON file", args.json.as_deref()),
        ("the plot", args.plot.as_deref()),
        ("the PGN file", args.pgn.as_deref()),
        ("the report", args.report.as_deref()),
    ])?;
    if !all_match_states(&args.files)? {
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
        args.files.len(),
        merged.standings.names.join(", ")
    )
    .map_err(CliError::new)?;
    write_tables(out, &merged.standings, merged.seconds).map_err(CliError::new)?;
    if let Some(path) = &args.pgn {
        writeln!(out, "PGN: {}", path.display()).map_err(CliError::new)?;
    }
    if let Some(path) = &args.report {
        super::report::html::write_report(path, &merged).map_err(CliError::new)?;
        writeln!(out, "Report: {}", path.display()).map_err(CliError::new)?;
    }
    Ok(true)
}
