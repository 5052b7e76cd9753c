//! `shannon pack` and `shannon unpack`: PGN games to a packed binary file and back.
//!
//! A round trip keeps the start position (`FEN`/`SetUp`), Chess960, the moves, the result, every
//! tag and the main line's comments; variations and NAGs are dropped. With `--moves-only` only
//! what the game codecs hold survives (unpacked games get the Seven Tag Roster filled with `?`).

use super::prelude::{CliError, Stderr};
use shannon::codec::container::{
    ContainerError, GameText, Keeps, Pack, UNBOUND_VERSION, UNCHECKED_VERSION, VERSION,
};
use shannon::codec::game::model::MoveModel;
use shannon::codec::game::GameCodec;
use shannon::notation::pgn::{pgn_text, read_games, write_game};
use std::fmt;
use std::io::{Read, Write};

/// Why packing or unpacking stopped (a bad game is reported and skipped instead).
#[derive(Debug)]
pub enum PackError {
    /// Reading the input or writing the output failed.
    Io(std::io::Error),
    /// The packed input is not a packed file, or its header is damaged.
    Container(ContainerError),
    /// `--codec` names a different codec from the one the file was packed with.
    CodecMismatch {
        /// The codec in the file.
        file: GameCodec,
        /// The codec asked for.
        asked: GameCodec,
    },
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::Io(e) => write!(f, "i/o error: {e}"),
            PackError::Container(e) => e.fmt(f),
            PackError::CodecMismatch { file, asked } => write!(
                f,
                "the file was packed with codec {file}, not {asked} (leave out --codec)"
            ),
        }
    }
}

impl std::error::Error for PackError {}

impl From<std::io::Error> for PackError {
    fn from(e: std::io::Error) -> PackError {
        PackError::Io(e)
    }
}

/// Reads PGN from `input` and writes the packed file to `out`, keeping `keeps` beside the games'
/// codes. Games that cannot be read or encoded are reported on `errors` with their number and
/// left out; returns false if any were.
pub fn run_pack(
    codec: GameCodec,
    keeps: Keeps,
    input: &mut impl Read,
    out: &mut impl Write,
    errors: &mut impl Write,
) -> Result<bool, PackError> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    let (text, latin1) = pgn_text(&bytes);
    if let Some(latin1) = latin1 {
        writeln!(errors, "warning: {latin1}")?;
    }
    let mut pack = Pack {
        codec,
        games: Vec::new(),
        texts: (keeps == Keeps::Text).then(Vec::new),
    };
    let mut all_good = true;
    for (number, game) in read_games(&text).into_iter().enumerate() {
        // A PGN error names its game already; an encoding error does not.
        let encoded = game.map_err(|e| e.to_string()).and_then(|g| {
            codec
                .encode_bits(&g.record)
                .map(|code| (code, g))
                .map_err(|e| format!("game {}: {e}", number + 1))
        });
        match encoded {
            Ok((code, game)) => {
                pack.games.push(code);
                if let Some(texts) = &mut pack.texts {
                    texts.push(GameText::of(&game));
                }
            }
            Err(e) => {
                all_good = false;
                writeln!(errors, "{e}")?;
            }
        }
    }
    out.write_all(&pack.to_bytes())?;
    Ok(all_good)
}

/// Reads a packed file from `input` and writes its games as PGN to `out`. Games that do not
/// decode, and damaged blocks, are reported on `errors` by number and skipped; returns false if
/// any were. With `codec`, the file must have been packed with it. A file of an older version
/// is read with a warning on `errors` saying what cannot be checked in it. A file whose blocks
/// do not belong together is refused whole (an error), before anything is written.
pub fn run_unpack(
    codec: Option<GameCodec>,
    input: &mut impl Read,
    out: &mut impl Write,
    errors: &mut impl Write,
) -> Result<bool, PackError> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    let contents = Pack::read(&bytes).map_err(PackError::Container)?;
    if let Some(asked) = codec.filter(|&asked| asked != contents.codec) {
        return Err(PackError::CodecMismatch {
            file: contents.codec,
            asked,
        });
    }
    match contents.version {
        UNCHECKED_VERSION => writeln!(
            errors,
            "warning: this packed file (version {UNCHECKED_VERSION}) has no checksums: \
             damage to it cannot be detected, and its games are unchecked"
        )?,
        UNBOUND_VERSION => writeln!(
            errors,
            "warning: this packed file is of version {UNBOUND_VERSION}, whose blocks do not say \
             where they belong: blocks swapped, duplicated, dropped or taken from another file \
             cannot be detected (pack it again to get version {VERSION})"
        )?,
        _ => {}
    }
    let mut all_good = true;
    for game in contents.pgn_games() {
        let text = game
            .map_err(|e| e.to_string())
            .and_then(|game| write_game(&game).map_err(|e| e.to_string()));
        match text {
            Ok(text) => out.write_all(text.as_bytes())?,
            Err(e) => {
                all_good = false;
                writeln!(errors, "{e}")?;
            }
        }
    }
    Ok(all_good)
}

/// `shannon pack`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The game codec: squares, index, arith (uniform model), arith-m1, arith-m2, arith-m3,
    /// arith-m4, arith-m5 or arith-m6.
    #[arg(long, default_value = "arith-m3")]
    codec: GameCodec,
    /// The move model of the arith codec: uniform, m1, m2, m3, m4, m5 or m6 (overrides the codec's).
    #[arg(long)]
    model: Option<MoveModel>,
    /// Keep only what the game codecs hold (start position, Chess960, moves, result): no tags
    /// but those, no comments. Smaller; unpacked games get the Seven Tag Roster with `?`.
    #[arg(long)]
    moves_only: bool,
}

/// Run `shannon pack`: PGN on stdin, the packed file on `out` (refused when that is a terminal,
/// as gzip refuses: binary bytes would garble it).
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        return Err(CliError::new(
            "the packed file is binary and standard output is a terminal: redirect it to a \
             file (shannon pack < games.pgn > games.bin)",
        ));
    }
    let keeps = match args.moves_only {
        true => Keeps::Moves,
        false => Keeps::Text,
    };
    let codec = match (args.codec, args.model) {
        (GameCodec::Arith(_), Some(model)) => GameCodec::Arith(model),
        (codec, None) => codec,
        (codec, Some(_)) => {
            return Err(CliError::new(format!(
                "--model is for the arith codec, not {codec}"
            )))
        }
    };
    run_pack(codec, keeps, &mut std::io::stdin().lock(), out, &mut Stderr).map_err(CliError::new)
}
