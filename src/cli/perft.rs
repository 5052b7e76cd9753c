//! `shannon perft`: count the leaves of the legal move tree, optionally divided by root move.

use super::{generator_parser, per_second, CliError};
use shannon::movegen::Generator;
use shannon::notation::uci::format_move;
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
                eprintln!("warning: --fen: {warning}");
            }
            pos
        }
        None => Position::startpos(),
    };
    if let Err(shortfall) = plan_hash(request.hash) {
        eprintln!("warning: --hash: {shortfall}");
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
