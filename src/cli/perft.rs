//! `shannon perft`: count the leaves of the legal move tree, optionally divided by root move.

use super::prelude::{generator_parser, per_second, say, CliError};
use shannon::movegen::Generator;
use shannon::notation::uci::format_move;
use shannon::perft::stats::{ply_stats, PlyStats};
use shannon::perft::{divide, plan_hash, PerftOptions, MAX_PERFT_DEPTH};
use shannon::CastlingMode;
use shannon::{FenError, Position};
use std::io::{self, Write};
use std::time::Instant;

/// `shannon perft`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies.
    depth: u32,
    /// The position (FEN, X-FEN or Shredder-FEN); the start position when absent.
    #[arg(long)]
    fen: Option<String>,
    /// Print castling moves as king-takes-rook (e1h1), as Chess960 GUIs expect.
    #[arg(long)]
    chess960: bool,
    /// Print the count below each root move, Stockfish style (e2e4: 20).
    #[arg(long)]
    divide: bool,
    /// Which move generator counts.
    #[arg(long, value_parser = generator_parser(), default_value = "bitboard")]
    generator: Generator,
    /// Worker threads (root moves are shared out).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB (0: none); counts do not change.
    #[arg(long, default_value_t = 0)]
    hash: usize,
    /// Print per-ply statistics instead (nodes, captures, en passant, castles, promotions,
    /// checks, discovered and double checks, checkmates), as in the Chess Programming Wiki's
    /// perft results tables. Single-threaded; `--hash` keeps transpositions.
    #[arg(long, conflicts_with_all = ["divide", "threads", "generator"])]
    stats: bool,
    /// With --stats: print the table as JSON, one object per ply.
    #[arg(long, requires = "stats")]
    json: bool,
}

/// Run `shannon perft`.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    run_perft(&args, out).map(|_| true).map_err(CliError::new)
}

/// Errors of `shannon perft`.
#[derive(Debug)]
enum PerftCommandError {
    /// The FEN does not parse.
    Fen(FenError),
    /// The depth is over [`MAX_PERFT_DEPTH`]; counting it would exhaust the stack.
    TooDeep(u32),
    /// Writing the report failed.
    Output(io::Error),
}

impl std::fmt::Display for PerftCommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PerftCommandError::Fen(e) => write!(f, "bad --fen: {e}"),
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
fn run_perft(request: &Args, out: &mut impl Write) -> Result<u64, PerftCommandError> {
    if request.depth > MAX_PERFT_DEPTH {
        return Err(PerftCommandError::TooDeep(request.depth));
    }
    let pos = match &request.fen {
        Some(fen) => {
            let (pos, warnings) =
                Position::from_fen_lenient(fen).map_err(PerftCommandError::Fen)?;
            for warning in warnings {
                say!("warning: --fen: {warning}");
            }
            pos
        }
        None => Position::startpos(),
    };
    let hash_mb = match plan_hash(request.hash) {
        Ok(mb) => mb,
        Err(shortfall) => {
            say!("warning: --hash: {shortfall}");
            shortfall.granted_mb
        }
    };
    if request.stats {
        let started = Instant::now();
        let plies = ply_stats(&pos, request.depth, hash_mb);
        let seconds = started.elapsed().as_secs_f64();
        write_stats(&plies, request.json, out)?;
        if !request.json {
            writeln!(out, "Time: {seconds:.3} s")?;
        }
        return Ok(plies.last().map_or(1, |p| p.nodes));
    }
    let mode = CastlingMode::from_chess960(request.chess960);
    let options = PerftOptions {
        generator: request.generator,
        threads: request.threads,
        hash_mb: request.hash,
    };
    let started = Instant::now();
    let result = divide(&pos, request.depth, &options, None)
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

/// A column of `--stats`: the JSON key, the text heading, the figure.
type StatColumn = (&'static str, &'static str, fn(&PlyStats) -> u64);

/// The columns of `--stats`: the JSON key, the text heading, the figure.
const STAT_COLUMNS: [StatColumn; 9] = [
    ("nodes", "nodes", |p| p.nodes),
    ("captures", "captures", |p| p.captures),
    ("en_passant", "e.p.", |p| p.en_passant),
    ("castles", "castles", |p| p.castles),
    ("promotions", "promotions", |p| p.promotions),
    ("checks", "checks", |p| p.checks),
    ("discovered_checks", "discovered", |p| p.discovered_checks),
    ("double_checks", "double", |p| p.double_checks),
    ("checkmates", "checkmates", |p| p.checkmates),
];

/// The per-ply table: aligned text, or a JSON array of one object per ply (`ply` and the
/// columns' keys).
fn write_stats(plies: &[PlyStats], json: bool, out: &mut impl Write) -> io::Result<()> {
    if json {
        let rows: Vec<serde_json::Value> = plies
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut row = serde_json::Map::new();
                row.insert("ply".into(), (i + 1).into());
                for (key, _, value) in STAT_COLUMNS {
                    row.insert(key.into(), value(p).into());
                }
                serde_json::Value::Object(row)
            })
            .collect();
        let text = serde_json::to_string_pretty(&rows).map_err(io::Error::other)?;
        return writeln!(out, "{text}");
    }
    let width = |heading: &str, value: fn(&PlyStats) -> u64| {
        plies
            .iter()
            .map(|p| value(p).to_string().len())
            .chain([heading.len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = STAT_COLUMNS.iter().map(|&(_, h, v)| width(h, v)).collect();
    write!(out, "ply")?;
    for ((_, heading, _), w) in STAT_COLUMNS.iter().zip(&widths) {
        write!(out, "  {heading:>w$}")?;
    }
    writeln!(out)?;
    for (i, p) in plies.iter().enumerate() {
        write!(out, "{:>3}", i + 1)?;
        for ((_, _, value), w) in STAT_COLUMNS.iter().zip(&widths) {
            write!(out, "  {:>w$}", value(p))?;
        }
        writeln!(out)?;
    }
    Ok(())
}
