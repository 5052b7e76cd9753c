//! `shannon chess960`: a start position by number, the numbers of a start position, or a random
//! one from a printed seed.

use super::prelude::CliError;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shannon::chess960::{
    back_rank_text, fritz9_back_rank, fritz9_number, scharnagl_back_rank, scharnagl_number,
    start_back_rank_of, start_position, BackRank, NumberOutOfRange, Numbering,
};
use shannon::{FenError, Position};
use std::io::{self, Write};

/// What `shannon chess960` was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chess960Request {
    /// The start position with this number in this numbering.
    Number(u32, Numbering),
    /// The numbers of this FEN, if it is a start position.
    Fen(String),
    /// A uniformly drawn start position; the seed is drawn (and printed) when absent.
    Random(Option<u64>),
}

/// Errors of `shannon chess960`.
#[derive(Debug)]
pub enum Chess960CommandError {
    /// The number is outside its numbering.
    Number(NumberOutOfRange),
    /// The FEN does not parse.
    Fen(FenError),
    /// Writing the report failed.
    Output(io::Error),
}

impl std::fmt::Display for Chess960CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Chess960CommandError::Number(e) => write!(f, "{e}"),
            Chess960CommandError::Fen(e) => write!(f, "bad --fen: {e}"),
            Chess960CommandError::Output(e) => write!(f, "cannot write the report: {e}"),
        }
    }
}

impl std::error::Error for Chess960CommandError {}

impl From<io::Error> for Chess960CommandError {
    fn from(e: io::Error) -> Self {
        Chess960CommandError::Output(e)
    }
}

/// Run `shannon chess960`. Returns `Ok(false)` when `--fen` is not a start position.
pub fn run_chess960(
    request: &Chess960Request,
    out: &mut impl Write,
) -> Result<bool, Chess960CommandError> {
    match request {
        Chess960Request::Number(number, numbering) => {
            let rank = match numbering {
                Numbering::Scharnagl => scharnagl_back_rank(*number),
                Numbering::Fritz9 => fritz9_back_rank(*number),
            }
            .map_err(Chess960CommandError::Number)?;
            write_start(&rank, out)?;
            Ok(true)
        }
        Chess960Request::Fen(fen) => {
            let pos = Position::from_fen(fen).map_err(Chess960CommandError::Fen)?;
            match start_back_rank_of(&pos) {
                Some(rank) => {
                    write_start(&rank, out)?;
                    Ok(true)
                }
                None => {
                    writeln!(out, "not a Chess960 start position")?;
                    Ok(false)
                }
            }
        }
        Chess960Request::Random(seed) => {
            let seed = seed.unwrap_or_else(|| rand::rng().random());
            let number = SmallRng::seed_from_u64(seed).random_range(0..960);
            writeln!(out, "seed: {seed}")?;
            let rank = scharnagl_back_rank(number).expect("drawn below 960");
            write_start(&rank, out)?;
            Ok(true)
        }
    }
}

/// The numbers, the back rank and both FENs of a start arrangement.
fn write_start(rank: &BackRank, out: &mut impl Write) -> io::Result<()> {
    let pos = start_position(rank);
    let scharnagl = scharnagl_number(rank).expect("a start arrangement");
    let fritz9 = fritz9_number(rank).expect("a start arrangement");
    writeln!(out, "scharnagl: {scharnagl}")?;
    writeln!(out, "fritz9: {fritz9}")?;
    writeln!(out, "back rank: {}", back_rank_text(rank))?;
    writeln!(out, "shredder-fen: {}", pos.shredder_fen())?;
    writeln!(out, "x-fen: {}", pos.fen())
}

/// `--numbering`: which numbering a Chess960 number is in.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum NumberingArg {
    /// 0-959, 518 = standard.
    Scharnagl,
    /// 1-960, 359 = standard.
    Fritz9,
}

impl From<NumberingArg> for Numbering {
    fn from(arg: NumberingArg) -> Numbering {
        match arg {
            NumberingArg::Scharnagl => Numbering::Scharnagl,
            NumberingArg::Fritz9 => Numbering::Fritz9,
        }
    }
}

/// `shannon chess960`'s arguments.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["number", "fen", "random"])))]
pub struct Args {
    /// The start position's number.
    number: Option<u32>,
    /// Which numbering NUMBER is in.
    #[arg(long, value_enum, default_value = "scharnagl")]
    numbering: NumberingArg,
    /// Print the numbers of this start position.
    #[arg(long)]
    fen: Option<String>,
    /// Draw a start position uniformly.
    #[arg(long)]
    random: bool,
    /// Seed of the draw (printed; drawn when absent).
    #[arg(long, requires = "random")]
    seed: Option<u64>,
}

/// Run `shannon chess960`.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    let request = match (args.number, args.fen) {
        (Some(n), _) => Chess960Request::Number(n, args.numbering.into()),
        (None, Some(fen)) => Chess960Request::Fen(fen),
        (None, None) => Chess960Request::Random(args.seed.filter(|_| args.random)),
    };
    run_chess960(&request, out).map_err(CliError::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(request: Chess960Request) -> (bool, String) {
        let mut out = Vec::new();
        let found = run_chess960(&request, &mut out).unwrap();
        (found, String::from_utf8(out).unwrap())
    }

    #[test]
    fn number_fen_and_random() {
        let (_, text) = run(Chess960Request::Number(359, Numbering::Fritz9));
        assert!(text.contains("scharnagl: 518"), "{text}");
        assert!(text.contains("x-fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
        let (found, text) = run(Chess960Request::Fen(shannon::STARTPOS_FEN.into()));
        assert!(found && text.contains("fritz9: 359"));
        let (found, _) = run(Chess960Request::Fen(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
        ));
        assert!(!found);
        assert_eq!(
            run(Chess960Request::Random(Some(7))),
            run(Chess960Request::Random(Some(7)))
        );
        let mut sink = Vec::new();
        assert!(run_chess960(
            &Chess960Request::Number(960, Numbering::Scharnagl),
            &mut sink
        )
        .is_err());
    }
}
