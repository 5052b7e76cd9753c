//! `shannon perft-suite`: check every count of a suite file.

use super::prelude::{generator_parser, CliError};
use shannon::movegen::Generator;
use shannon::perft::suite::{check_entry, parse_suite, CheckError};
use std::io::Write;
use std::time::Instant;

/// `shannon perft-suite`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The suite file.
    file: String,
    /// Skip depths above this.
    #[arg(long, default_value_t = u32::MAX)]
    max_depth: u32,
    /// Skip counts above this many nodes.
    #[arg(long, default_value_t = u64::MAX)]
    max_nodes: u64,
    /// Which move generator to check.
    #[arg(long, value_parser = generator_parser(), default_value = "bitboard")]
    generator: Generator,
    /// Treat every entry as Chess960 (castling rights are read by rook file either way, so this
    /// only changes how entries are labelled).
    #[arg(long)]
    chess960: bool,
}

/// Run `shannon perft-suite`: a line per position and a final `passed P of N, failed F, skipped
/// S; C counts checked` line, where a failed count is one of the counts checked. Returns true
/// when no position failed and at least one count was checked: a run that checked nothing (an
/// empty file, entries without counts, limits that skip every count) proves nothing, so it says
/// so and fails rather than reporting a pass.
pub fn run(request: Args, out: &mut impl Write) -> Result<bool, CliError> {
    let path = &request.file;
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::new(format!("cannot read {path}: {e}")))?;
    let entries = parse_suite(&text).map_err(|e| CliError::new(format!("{path}: {e}")))?;
    let generator: Generator = request.generator;
    let started = Instant::now();
    let (mut passed, mut failed, mut skipped, mut counts_checked) = (0, 0, 0, 0);
    for entry in &entries {
        match check_entry(entry, request.max_depth, request.max_nodes, generator) {
            Ok(depths) => {
                let mode = if entry.castling.is_chess960() || request.chess960 {
                    "chess960"
                } else {
                    "standard"
                };
                counts_checked += depths.len();
                let (status, depths) = match (depths.first(), depths.last()) {
                    (Some(first), Some(last)) => ("ok", format!("depths {first}-{last}")),
                    _ if entry.counts.is_empty() => ("skip", "no counts".to_string()),
                    _ => ("skip", "no count within the limits".to_string()),
                };
                if status == "ok" {
                    passed += 1;
                } else {
                    skipped += 1;
                }
                writeln!(
                    out,
                    "{status:<5} {:<12} {mode:<9} {depths:<12} {}",
                    entry.id, entry.fen
                )?;
            }
            Err(CheckError::Mismatch(m)) => {
                failed += 1;
                counts_checked += m.counts_checked();
                writeln!(
                    out,
                    "FAIL  {:<12} {}: depth {}: expected {}, counted {}",
                    entry.id, m.fen, m.depth, m.expected, m.actual
                )?;
            }
            Err(e) => {
                failed += 1;
                writeln!(out, "FAIL  {:<12} {}: {e}", entry.id, entry.fen)?;
            }
        }
    }
    writeln!(
        out,
        "passed {passed} of {}, failed {failed}, skipped {skipped}; {counts_checked} counts \
         checked ({:.1} s, {} generator)",
        entries.len(),
        started.elapsed().as_secs_f64(),
        generator.name()
    )?;
    if counts_checked == 0 && failed == 0 {
        let why = if entries.is_empty() {
            "the file has no positions"
        } else if entries.iter().all(|e| e.counts.is_empty()) {
            "no position has a count"
        } else {
            "every count is over --max-depth or --max-nodes"
        };
        writeln!(out, "nothing checked: {why}")?;
    }
    Ok(failed == 0 && counts_checked > 0)
}
