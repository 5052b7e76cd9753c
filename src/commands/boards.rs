//! `shannon show`: a position in one of the classic board formats, from a FEN or read from
//! another format.

use crate::notation::boards::{read_board, write_board, BoardError, BoardFormat, SideFlags};
use crate::{FenError, Position};
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
