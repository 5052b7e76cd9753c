//! `shannon perft-check`: an engine's `go perft` against ours (the work is
//! [`shannon::audit::perft_check`]); this file turns `--fen` and `--epd` into positions.

use super::prelude::{CliError, EngineChoice};
use shannon::audit::perft_check::{run_perft_check, suite_positions, CheckPosition};
use shannon::{CastlingMode, Position};
use std::io::Write;
use std::path::PathBuf;

/// `shannon perft-check`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    choice: EngineChoice,
    /// One position.
    #[arg(long, conflicts_with = "epd")]
    fen: Option<String>,
    /// A file of positions (EPD or .perft suite).
    #[arg(long)]
    epd: Option<PathBuf>,
    /// Depth to count (1 to 64, the deepest perft counted).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(shannon::perft::MAX_PERFT_DEPTH)))]
    depth: u32,
    /// Treat every position as Chess960 (sets UCI_Chess960).
    #[arg(long)]
    chess960: bool,
    /// How long one `go perft` may take, in seconds (at least 1).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
}

/// Run `shannon perft-check`: true when every count agrees.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    let engine = args.choice.resolve_uci()?;
    let castling = CastlingMode::from_chess960(args.chess960);
    let mut positions = Vec::new();
    if let Some(fen) = &args.fen {
        let position = Position::from_fen(fen).map_err(|e| CliError::new(format!("--fen: {e}")))?;
        positions.push(CheckPosition {
            label: "--fen".into(),
            castling: position.castling_mode(castling),
            position,
        });
    }
    if let Some(path) = &args.epd {
        positions.extend(suite_positions(path, castling).map_err(CliError::new)?);
    }
    if positions.is_empty() {
        return Err(CliError::new(
            "give a position with --fen FEN or --epd FILE",
        ));
    }
    let timeout = std::time::Duration::from_secs(args.timeout);
    run_perft_check(&engine, &positions, args.depth, timeout, out).map_err(CliError::from)
}
