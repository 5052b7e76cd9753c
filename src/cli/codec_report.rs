//! `shannon codec-report FILE.pgn`: sizes and speeds of the position and game codecs over every
//! position and game of a PGN file.
//!
//! Position codecs plug in through [`ReportedPositionCodec`] and [`position_codecs`]; the list
//! holds a baseline (the FEN text) so the report is meaningful with no compact position codec.
//! Game codecs are every [`GameCodec`]. Every encoding is decoded again and compared with the
//! original; mismatches are counted in the `errors` column.

use super::codec_report_plot::{write_trade_chart, GameCodecRow};
use super::prelude::{per_second, CliError, Overwrite, Stderr};
use super::random_games_plot::PlotError;
use shannon::codec::container::Pack;
use shannon::codec::game::model::net::Instructions;
use shannon::codec::game::{canonical_moves, GameCodec};
use shannon::codec::position::PositionCodec;
use shannon::game::GameRecord;
use shannon::notation::pgn::{pgn_text, read_games};
use shannon::Position;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A position codec as the report measures it.
pub trait ReportedPositionCodec {
    /// The row's name.
    fn name(&self) -> &str;
    /// The encoding of `pos` and its exact length in bits.
    fn encode(&self, pos: &Position) -> (Vec<u8>, usize);
    /// The position the bytes encode, or `None` when the codec rejects them.
    fn decode(&self, bytes: &[u8]) -> Option<Position>;
}

/// The baseline: the position as X-FEN text, 8 bits a character.
#[derive(Debug, Clone, Copy, Default)]
pub struct FenText;

impl ReportedPositionCodec for FenText {
    fn name(&self) -> &str {
        "fen-text"
    }

    fn encode(&self, pos: &Position) -> (Vec<u8>, usize) {
        let bytes = pos.fen().into_bytes();
        let bits = bytes.len() * 8;
        (bytes, bits)
    }

    fn decode(&self, bytes: &[u8]) -> Option<Position> {
        Position::from_fen(std::str::from_utf8(bytes).ok()?).ok()
    }
}

/// The position codecs the report measures, one row each.
pub fn position_codecs() -> Vec<Box<dyn ReportedPositionCodec>> {
    let mut codecs: Vec<Box<dyn ReportedPositionCodec>> = vec![Box::new(FenText)];
    for codec in PositionCodec::ALL {
        codecs.push(Box::new(codec));
    }
    codecs
}

/// The compact position codecs, carried as their hex text (the decode figures include parsing it).
impl ReportedPositionCodec for PositionCodec {
    fn name(&self) -> &str {
        PositionCodec::name(*self)
    }

    fn encode(&self, pos: &Position) -> (Vec<u8>, usize) {
        let bits = PositionCodec::encode(*self, pos);
        (bits.to_hex().into_bytes(), bits.len())
    }

    fn decode(&self, bytes: &[u8]) -> Option<Position> {
        self.decode_hex(std::str::from_utf8(bytes).ok()?).ok()
    }
}

/// Sizes in bits over many items: count, total, maximum.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BitStats {
    /// Items measured.
    pub count: u64,
    /// Bits over all items.
    pub total: u64,
    /// The largest item, in bits.
    pub max: u64,
}

impl BitStats {
    fn add(&mut self, bits: usize) {
        self.count += 1;
        self.total += bits as u64;
        self.max = self.max.max(bits as u64);
    }

    /// Mean bits per item.
    pub fn mean(&self) -> f64 {
        self.total as f64 / self.count.max(1) as f64
    }
}

/// One row of the report.
#[derive(Debug, Clone, PartialEq)]
pub struct CodecRow {
    /// The codec's name.
    pub name: String,
    /// Bits per item (position, or game for game codecs).
    pub bits: BitStats,
    /// Items (positions, or moves for game codecs) encoded per second.
    pub encode_rate: f64,
    /// Items decoded per second.
    pub decode_rate: f64,
    /// Items that failed to encode, or decoded to something else.
    pub errors: u64,
    /// Game codecs: the bytes of the packed file of all the games (framing and checks included).
    pub packed_bytes: usize,
}

/// Measures one position codec over `positions`.
pub fn measure_position_codec(
    codec: &dyn ReportedPositionCodec,
    positions: &[Position],
) -> CodecRow {
    let clock = Instant::now();
    let encoded: Vec<(Vec<u8>, usize)> = positions.iter().map(|p| codec.encode(p)).collect();
    let encode_seconds = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let decoded: Vec<Option<Position>> = encoded.iter().map(|(b, _)| codec.decode(b)).collect();
    let decode_seconds = clock.elapsed().as_secs_f64();
    let mut bits = BitStats::default();
    encoded.iter().for_each(|(_, n)| bits.add(*n));
    let errors = positions
        .iter()
        .zip(&decoded)
        .filter(|(p, d)| d.as_ref() != Some(*p))
        .count() as u64;
    let count = positions.len() as u64;
    CodecRow {
        name: codec.name().to_string(),
        bits,
        encode_rate: per_second(count, encode_seconds),
        decode_rate: per_second(count, decode_seconds),
        errors,
        packed_bytes: 0,
    }
}

/// Measures one game codec over `games`; rates are in moves per second.
pub fn measure_game_codec(codec: GameCodec, games: &[GameRecord]) -> CodecRow {
    let moves: u64 = games.iter().map(|g| g.moves.len() as u64).sum();
    let clock = Instant::now();
    let encoded: Vec<Option<(Vec<u8>, usize)>> = games
        .iter()
        .map(|g| codec.encode_bits(g).ok().map(|w| (w.len(), w.into_bytes())))
        .map(|e| e.map(|(len, bytes)| (bytes, len)))
        .collect();
    let encode_seconds = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let decoded: Vec<Option<GameRecord>> = encoded
        .iter()
        .map(|e| e.as_ref().and_then(|(bytes, _)| codec.decode(bytes).ok()))
        .collect();
    let decode_seconds = clock.elapsed().as_secs_f64();
    let mut bits = BitStats::default();
    encoded.iter().flatten().for_each(|(_, n)| bits.add(*n));
    let pack = Pack {
        codec,
        games: games
            .iter()
            .filter_map(|g| codec.encode_bits(g).ok())
            .collect(),
        texts: None,
    };
    let errors = games
        .iter()
        .zip(&decoded)
        .filter(|(g, d)| d.as_ref() != Some(*g))
        .count() as u64;
    CodecRow {
        name: codec.name().to_string(),
        bits,
        encode_rate: per_second(moves, encode_seconds),
        decode_rate: per_second(moves, decode_seconds),
        errors,
        packed_bytes: pack.to_bytes().len(),
    }
}

/// The information content of the moves when each is one of n equally likely legal moves:
/// (sum of log2 n, sum of ceil(log2 n)) over all moves of all games.
pub fn uniform_move_bits(games: &[GameRecord]) -> (f64, u64) {
    let mut exact = 0.0;
    let mut whole = 0;
    for game in games {
        let mut pos = game.start.clone();
        for &mv in &game.moves {
            let n = canonical_moves(&pos).len().max(1);
            exact += (n as f64).log2();
            whole += u64::from(usize::BITS - (n - 1).leading_zeros());
            let _ = pos.make(mv);
        }
    }
    (exact, whole)
}

/// Every position of every game: the start and the position after each move.
pub fn all_positions(games: &[GameRecord]) -> Vec<Position> {
    let mut positions = Vec::new();
    for game in games {
        let mut pos = game.start.clone();
        positions.push(pos.clone());
        for &mv in &game.moves {
            let _ = pos.make(mv);
            positions.push(pos.clone());
        }
    }
    positions
}

/// Why `codec-report` could not run.
#[derive(Debug)]
pub enum CodecReportError {
    /// The PGN file cannot be read (named, so the user sees which path was wrong).
    Read(String, std::io::Error),
    /// Writing the report failed.
    Output(std::io::Error),
    /// The chart could not be drawn or written.
    Plot(PlotError),
}

impl std::fmt::Display for CodecReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodecReportError::Read(path, e) => write!(f, "cannot read {path}: {e}"),
            CodecReportError::Output(e) => write!(f, "cannot write the report: {e}"),
            CodecReportError::Plot(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CodecReportError {}

impl From<std::io::Error> for CodecReportError {
    fn from(e: std::io::Error) -> Self {
        CodecReportError::Output(e)
    }
}

/// Reads `path`, measures every codec and writes the report. Unreadable games are counted (and
/// named on `errors`) but do not stop the report; returns false if there were any.
pub fn run_codec_report(
    path: &str,
    options: ReportOptions,
    out: &mut impl Write,
    errors: &mut impl Write,
) -> Result<bool, CodecReportError> {
    let bytes = std::fs::read(path).map_err(|e| CodecReportError::Read(path.to_string(), e))?;
    let (text, latin1) = pgn_text(&bytes);
    if let Some(latin1) = latin1 {
        writeln!(errors, "warning: {latin1}")?;
    }
    let mut games = Vec::new();
    let mut bad = 0;
    for game in read_games(&text).into_iter().skip(options.skip) {
        match game {
            Ok(game) => games.push(game.record),
            Err(e) => {
                bad += 1;
                writeln!(errors, "{e}")?;
            }
        }
    }
    let rows = write_report(&games, bad, options.games_only, out)?;
    if let Some(plot) = options.plot {
        let about = format!(
            "{} games of {}{}",
            games.len(),
            Path::new(path)
                .file_name()
                .map_or(path.into(), |n| n.to_string_lossy()),
            if options.skip > 0 {
                format!(" after the first {}", options.skip)
            } else {
                String::new()
            }
        ) + &format!(
            "; the networks on {} instructions",
            Instructions::chosen().name()
        );
        write_trade_chart(plot, &rows, &about).map_err(CodecReportError::Plot)?;
    }
    Ok(bad == 0)
}

/// Which games and codecs the report covers.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReportOptions<'a> {
    /// Games left out at the start of the file.
    pub skip: usize,
    /// Only the game codecs (no position table).
    pub games_only: bool,
    /// Draw the arith codecs' bits against their speed into this SVG file.
    pub plot: Option<&'a Path>,
}

/// The report over already-read games (`unreadable` is only printed); returns the game codecs'
/// rows, bits per move and speeds as printed.
pub fn write_report(
    games: &[GameRecord],
    unreadable: usize,
    games_only: bool,
    out: &mut impl Write,
) -> std::io::Result<Vec<GameCodecRow>> {
    let positions = all_positions(games);
    let moves: u64 = games.iter().map(|g| g.moves.len() as u64).sum();
    writeln!(
        out,
        "{} games ({unreadable} unreadable), {moves} moves, {} positions",
        games.len(),
        positions.len()
    )?;
    writeln!(out)?;
    if !games_only {
        write_position_table(&positions, out)?;
        writeln!(out)?;
    }
    write_game_table(games, moves, out)
}

fn write_position_table(positions: &[Position], out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<16} {:>10} {:>10} {:>14} {:>14} {:>7}",
        "position codec", "avg bits", "max bits", "encode pos/s", "decode pos/s", "errors"
    )?;
    for codec in position_codecs() {
        let row = measure_position_codec(codec.as_ref(), positions);
        writeln!(
            out,
            "{:<16} {:>10.1} {:>10} {:>14.0} {:>14.0} {:>7}",
            row.name,
            row.bits.mean(),
            row.bits.max,
            row.encode_rate,
            row.decode_rate,
            row.errors
        )?;
    }
    Ok(())
}

fn write_game_table(
    games: &[GameRecord],
    moves: u64,
    out: &mut impl Write,
) -> std::io::Result<Vec<GameCodecRow>> {
    writeln!(
        out,
        "{:<16} {:>10} {:>10} {:>10} {:>10} {:>14} {:>14} {:>7}",
        "game codec",
        "bits/move",
        "packed",
        "avg bits",
        "max bits",
        "enc moves/s",
        "dec moves/s",
        "errors"
    )?;
    let per_move = |bits: f64| bits / moves.max(1) as f64;
    let mut rows = Vec::new();
    for codec in GameCodec::ALL {
        let row = measure_game_codec(codec, games);
        rows.push(GameCodecRow {
            codec,
            packed_bits: per_move(row.packed_bytes as f64 * 8.0),
            encode_rate: row.encode_rate,
            decode_rate: row.decode_rate,
        });
        writeln!(
            out,
            "{:<16} {:>10.3} {:>10.3} {:>10.1} {:>10} {:>14.0} {:>14.0} {:>7}",
            row.name,
            per_move(row.bits.total as f64),
            per_move(row.packed_bytes as f64 * 8.0),
            row.bits.mean(),
            row.bits.max,
            row.encode_rate,
            row.decode_rate,
            row.errors
        )?;
    }
    let (exact, whole) = uniform_move_bits(games);
    writeln!(
        out,
        "(bits/move: each game's bits, header included; packed: the whole packed file, framing \
         and checksums included; moves alone: sum log2 n = {:.3} bits/move, \
         sum ceil(log2 n) = {:.3} bits/move; the network models (m3-m6) on {} instructions: \
         {}=portable to compare)",
        per_move(exact),
        per_move(whole as f64),
        Instructions::chosen().name(),
        Instructions::VARIABLE
    )?;
    Ok(rows)
}

/// `shannon codec-report`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The PGN file.
    file: String,
    /// Leave out the first N games (to measure the move models on games they were not fitted
    /// on: `--skip 2500` on the corpus).
    #[arg(long, default_value_t = 0)]
    skip: usize,
    /// Measure the game codecs only.
    #[arg(long)]
    games_only: bool,
    /// Also draw the arith codecs' packed bits per move against their encoding and decoding
    /// speed, with the goals of 3 bits and a million moves a second, into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    #[command(flatten)]
    overwrite: Overwrite,
}

/// Run `shannon codec-report`.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    args.overwrite.check([("the plot", args.plot.as_deref())])?;
    let options = ReportOptions {
        skip: args.skip,
        games_only: args.games_only,
        plot: args.plot.as_deref(),
    };
    run_codec_report(&args.file, options, out, &mut Stderr).map_err(CliError::new)
}
