//! `shannon perft-check`: an engine's `go perft` against ours (the work is
//! [`shannon::arena::perft_check::run_perft_check_command`]).

use super::{CliError, EngineChoice};
use shannon::arena::perft_check::{run_perft_check_command, PerftCheckRequest};
use shannon::CastlingMode;
use std::io::Write;

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
    epd: Option<String>,
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
    let request = PerftCheckRequest {
        engine: args.choice.resolve()?,
        fen: args.fen,
        epd: args.epd,
        depth: args.depth,
        castling: CastlingMode::from_chess960(args.chess960),
        timeout: std::time::Duration::from_secs(args.timeout),
    };
    run_perft_check_command(&request, out).map_err(CliError::new)
}
