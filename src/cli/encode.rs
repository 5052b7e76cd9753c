//! `shannon encode`: a position as a position codec's hex code (`shannon decode` reads it back).

use super::prelude::CliError;
use shannon::codec::position::{DecodeError, PositionCodec};
use shannon::{FenError, Position};
use std::io::{self, Write};

/// Errors of `shannon encode` and `shannon decode`.
#[derive(Debug)]
pub enum CodecCommandError {
    /// The FEN does not parse.
    Fen(FenError),
    /// The code does not decode.
    Decode(PositionCodec, DecodeError),
    /// Writing the report failed.
    Output(io::Error),
}

impl std::fmt::Display for CodecCommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodecCommandError::Fen(e) => write!(f, "bad --fen: {e}"),
            CodecCommandError::Decode(codec, e) => write!(f, "not a {codec} code: {e}"),
            CodecCommandError::Output(e) => write!(f, "cannot write the result: {e}"),
        }
    }
}

impl std::error::Error for CodecCommandError {}

impl From<io::Error> for CodecCommandError {
    fn from(e: io::Error) -> Self {
        CodecCommandError::Output(e)
    }
}

/// Run `shannon encode`: the hex code, then its length in bits.
pub fn run_encode(
    codec: PositionCodec,
    fen: Option<&str>,
    out: &mut impl Write,
) -> Result<(), CodecCommandError> {
    let pos = match fen {
        Some(fen) => Position::from_fen(fen).map_err(CodecCommandError::Fen)?,
        None => Position::startpos(),
    };
    let bits = codec.encode(&pos);
    writeln!(out, "{}", bits.to_hex())?;
    writeln!(out, "{} bits", bits.len())?;
    Ok(())
}

/// Run `shannon decode`: the FEN of a hex code (X-FEN castling).
pub fn run_decode(
    codec: PositionCodec,
    hex: &str,
    out: &mut impl Write,
) -> Result<(), CodecCommandError> {
    let pos = codec
        .decode_hex(hex)
        .map_err(|e| CodecCommandError::Decode(codec, e))?;
    writeln!(out, "{}", pos.fen())?;
    Ok(())
}

/// `shannon encode`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The codec.
    #[arg(long)]
    codec: PositionCodec,
    /// The position (start position when absent).
    #[arg(long)]
    fen: Option<String>,
}

/// Run `shannon encode`.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    run_encode(args.codec, args.fen.as_deref(), out)
        .map(|()| true)
        .map_err(CliError::new)
}
