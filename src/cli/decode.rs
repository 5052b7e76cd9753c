//! `shannon decode`: a position codec's hex code back to a FEN.

use super::encode::run_decode;
use super::prelude::CliError;
use shannon::codec::position::PositionCodec;
use std::io::Write;

/// `shannon decode`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The codec.
    #[arg(long)]
    codec: PositionCodec,
    /// The code, as `shannon encode` prints it.
    hex: String,
}

/// Run `shannon decode`.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    run_decode(args.codec, &args.hex, out)
        .map(|()| true)
        .map_err(CliError::new)
}
