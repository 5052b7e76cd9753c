//! `shannon show`: a position in one of the classic board formats, from a FEN or read from
//! another format.

use super::prelude::CliError;
use shannon::notation::boards::{read_board, write_board, BoardError, BoardFormat, SideFlags};
use shannon::{Color, FenError, Position};
use std::io::{self, Read, Write};

/// What `shannon show` was asked.
#[derive(Debug, Clone)]
pub struct ShowRequest {
    /// The format to print.
    pub format: BoardFormat,
    /// The position as FEN (when `from` is absent; start position when both are absent).
    pub fen: Option<String>,
    /// Read the position in this format instead (from `input`, else stdin).
    pub from: Option<BoardFormat>,
    /// The file to read with `from`.
    pub input: Option<String>,
    /// The side state the `from` format lacks.
    pub flags: SideFlags,
}

/// Errors of `shannon show`.
#[derive(Debug)]
pub enum ShowError {
    /// The FEN does not parse.
    Fen(FenError),
    /// The input cannot be read.
    Input(String, io::Error),
    /// The input is not a board in its format.
    Board(BoardFormat, BoardError),
    /// Writing the report failed.
    Output(io::Error),
}

impl std::fmt::Display for ShowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShowError::Fen(e) => write!(f, "bad --fen: {e}"),
            ShowError::Input(from, e) => write!(f, "cannot read {from}: {e}"),
            ShowError::Board(format, e) => write!(f, "bad {format} input: {e}"),
            ShowError::Output(e) => write!(f, "cannot write the board: {e}"),
        }
    }
}

impl std::error::Error for ShowError {}

fn read_input(path: Option<&str>) -> Result<String, ShowError> {
    let mut text = String::new();
    match path {
        Some(path) => {
            text = std::fs::read_to_string(path).map_err(|e| ShowError::Input(path.into(), e))?
        }
        None => {
            io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| ShowError::Input("stdin".into(), e))?;
        }
    }
    Ok(text)
}

/// The position a request names.
fn position(request: &ShowRequest) -> Result<Position, ShowError> {
    match (request.from, &request.fen) {
        (Some(format), _) => {
            let text = read_input(request.input.as_deref())?;
            read_board(&text, format, &request.flags).map_err(|e| ShowError::Board(format, e))
        }
        (None, Some(fen)) => Position::from_fen(fen).map_err(ShowError::Fen),
        (None, None) => Ok(Position::startpos()),
    }
}

/// Run `shannon show`.
pub fn run_show(request: &ShowRequest, out: &mut impl Write) -> Result<(), ShowError> {
    let pos = position(request)?;
    writeln!(out, "{}", write_board(&pos, request.format)).map_err(ShowError::Output)
}

fn parse_side(text: &str) -> Result<Color, String> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        _ => Err(format!("'{text}': expected w or b")),
    }
}

/// `shannon show`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The format to print.
    #[arg(long, default_value = "fen")]
    format: BoardFormat,
    /// The position (start position when absent).
    #[arg(long, conflicts_with = "from")]
    fen: Option<String>,
    /// Read the position in this format (from --input, else stdin).
    #[arg(long)]
    from: Option<BoardFormat>,
    /// The file to read with --from.
    #[arg(long, requires = "from")]
    input: Option<String>,
    /// Side to move for formats without one (w or b; `shannon` has lambda).
    #[arg(long, value_parser = parse_side, default_value = "w")]
    side: Color,
    /// Castling rights for formats without them (KQkq, HAha, -).
    #[arg(long, default_value = "-")]
    castling: String,
    /// En passant square for formats without one (e3, -).
    #[arg(long, default_value = "-")]
    ep: String,
    /// Halfmove clock for formats without one.
    #[arg(long, default_value_t = 0)]
    halfmove: u32,
    /// Fullmove number for formats without one.
    #[arg(long, default_value_t = 1)]
    fullmove: u32,
}

/// Run `shannon show`.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    let request = ShowRequest {
        format: args.format,
        fen: args.fen,
        from: args.from,
        input: args.input,
        flags: SideFlags {
            side: args.side,
            castling: args.castling,
            en_passant: args.ep,
            halfmove_clock: args.halfmove,
            fullmove_number: args.fullmove,
        },
    };
    run_show(&request, out)
        .map(|()| true)
        .map_err(CliError::new)
}
