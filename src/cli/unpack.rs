//! `shannon unpack`: a file written by `shannon pack` back to PGN.

use super::pack::run_unpack;
use super::prelude::{CliError, Stderr};
use shannon::codec::game::GameCodec;
use std::io::Write;

/// `shannon unpack`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Check that the file was packed with this codec (the file names its codec).
    #[arg(long)]
    codec: Option<GameCodec>,
}

/// Run `shannon unpack`: the packed file on stdin, PGN on `out`.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    run_unpack(args.codec, &mut std::io::stdin().lock(), out, &mut Stderr).map_err(CliError::new)
}
