//! `shannon perft` and `shannon perft-suite`.

use super::per_second;
use crate::movegen::Generator;
use crate::perft::{divide, plan_hash, PerftOptions, MAX_PERFT_DEPTH};
use crate::perft_suite::{check_entry, parse_suite, CheckError};
use crate::uci_move::{format_move, CastlingMode};
use crate::{FenError, Position};
use std::io::{self, Write};
use std::time::Instant;

/// What `shannon perft` was asked.
#[derive(Debug, Clone)]
pub struct PerftRequest {
    /// Depth in plies.
    pub depth: u32,
    /// The position (start position when `None`).
    pub fen: Option<String>,
    /// Print castling as king-takes-rook.
    pub chess960: bool,
    /// Print the count below each root move.
    pub divide: bool,
    /// Generator, threads and hash.
    pub options: PerftOptions,
}

/// Errors of the perft commands.
#[derive(Debug)]
pub enum PerftCommandError {
    /// The FEN does not parse.
    Fen(FenError),
    /// The suite file cannot be read.
    Io(String, io::Error),
    /// The suite file has a malformed line.
    Suite(String, crate::perft_suite::SuiteError),
    /// The depth is over [`MAX_PERFT_DEPTH`]; counting it would exhaust the stack.
    TooDeep(u32),
    /// Writing the report failed.
    Output(io::Error),
}

impl std::fmt::Display for PerftCommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PerftCommandError::Fen(e) => write!(f, "bad --fen: {e}"),
            PerftCommandError::Io(path, e) => write!(f, "cannot read {path}: {e}"),
            PerftCommandError::Suite(path, e) => write!(f, "{path}: {e}"),
            PerftCommandError::TooDeep(depth) => write!(
                f,
                "depth {depth} is deeper than {MAX_PERFT_DEPTH}, the deepest perft counted"
            ),
            PerftCommandError::Output(e) => write!(f, "cannot write the report: {e}"),
        }
    }
}

impl std::error::Error for PerftCommandError {}

impl From<io::Error> for PerftCommandError {
    fn from(e: io::Error) -> Self {
        PerftCommandError::Output(e)
    }
}

/// Run `shannon perft`: optional divide lines in Stockfish's form, then `Nodes searched: N` and a
/// line of time and speed. The FEN is read as the UCI engine reads it: castling rights that the
/// placement cannot have are dropped, with a warning on stderr; so is a `--hash` the machine
/// cannot give (the count then uses a smaller table).
pub fn run_perft(request: &PerftRequest, out: &mut impl Write) -> Result<u64, PerftCommandError> {
    if request.depth > MAX_PERFT_DEPTH {
        return Err(PerftCommandError::TooDeep(request.depth));
    }
    let pos = match &request.fen {
        Some(fen) => {
            let (pos, warnings) =
                Position::from_fen_lenient(fen).map_err(PerftCommandError::Fen)?;
            for warning in warnings {
                eprintln!("warning: --fen: {warning}");
            }
            pos
        }
        None => Position::startpos(),
    };
    if let Err(shortfall) = plan_hash(request.options.hash_mb) {
        eprintln!("warning: --hash: {shortfall}");
    }
    let mode = if request.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let started = Instant::now();
    let result = divide(&pos, request.depth, &request.options, None)
        .expect("perft without a stop flag always finishes");
    let seconds = started.elapsed().as_secs_f64();
    if request.divide {
        for (mv, count) in &result.moves {
            writeln!(out, "{}: {count}", format_move(*mv, mode))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "Nodes searched: {}", result.nodes)?;
    writeln!(
        out,
        "Time: {:.3} s, {:.0} nodes/s",
        seconds,
        per_second(result.nodes, seconds)
    )?;
    Ok(result.nodes)
}

/// What `shannon perft-suite` was asked.
#[derive(Debug, Clone)]
pub struct SuiteRequest {
    /// The suite file.
    pub path: String,
    /// Skip depths above this.
    pub max_depth: u32,
    /// Skip counts above this.
    pub max_nodes: u64,
    /// Which generator to check.
    pub generator: Generator,
    /// Treat every entry as Chess960. The rules core always reads castling rights by rook file
    /// (X-FEN), which agrees with standard FEN on every standard position, so this only changes
    /// how entries are labelled.
    pub chess960: bool,
}

/// Run `shannon perft-suite`: a line per position and a final `passed P of N` line. Returns true
/// when no position failed and at least one count was checked: a run that checked nothing (an
/// empty file, entries without counts, limits that skip every count) proves nothing, so it says
/// so and fails rather than reporting a pass.
pub fn run_suite(request: &SuiteRequest, out: &mut impl Write) -> Result<bool, PerftCommandError> {
    let text = std::fs::read_to_string(&request.path)
        .map_err(|e| PerftCommandError::Io(request.path.clone(), e))?;
    let entries =
        parse_suite(&text).map_err(|e| PerftCommandError::Suite(request.path.clone(), e))?;
    let started = Instant::now();
    let (mut passed, mut failed, mut skipped, mut counts_checked) = (0, 0, 0, 0);
    for entry in &entries {
        match check_entry(
            entry,
            request.max_depth,
            request.max_nodes,
            request.generator,
        ) {
            Ok(depths) => {
                let mode = if entry.chess960 || request.chess960 {
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
        "passed {passed} of {}, skipped {skipped}; {counts_checked} counts checked ({:.1} s, {} generator)",
        entries.len(),
        started.elapsed().as_secs_f64(),
        request.generator.name()
    )?;
    if counts_checked == 0 {
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
