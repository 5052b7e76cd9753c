//! `shannon exact`: the exact probability that a uniformly random game ends in checkmate or
//! stalemate at each ply, with the counts of such games; and the split of a deep run into shares
//! (a Slurm job array) and their exact merge.

use super::prelude::{say, CliError, Overwrite};
use num_rational::BigRational;
use serde::Serialize;
use shannon::chess960::{scharnagl_back_rank, start_position};
use shannon::experiment::{read_shares, ShareFile};
use shannon::jobs::shard::Shard;
use shannon::perft::exact::{
    exact, exact_with_frontier, Bounded, ExactOptions, ExactReport, FRACTION_BITS,
};
use shannon::perft::plan_hash_share;
use shannon::Position;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// `shannon exact`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Plies 1 to K (at most the position's exact bound: 16 from a start position).
    #[arg(long, value_name = "K")]
    plies: u32,
    /// The first position (FEN, X-FEN or Shredder-FEN; taken as a game's start).
    #[arg(long, conflicts_with = "chess960")]
    fen: Option<String>,
    /// The Chess960 start position with this Scharnagl number (0-959).
    #[arg(long, value_name = "N")]
    chess960: Option<u32>,
    /// Print JSON: an array of one object per ply.
    #[arg(long)]
    json: bool,
    /// Cache size in MiB (the values do not change, only the time); at most three quarters of
    /// the memory available.
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// Threads (the boards two plies down are shared out; the values do not change). Default:
    /// the CPUs available.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Walk with the reference walk (make and unmake on the full position, every move made at
    /// the last ply, a memo keyed by the whole board; one thread) instead of the fast one: the
    /// independent check, many times slower.
    #[arg(long)]
    reference: bool,
    /// Also draw P(the game has ended in checkmate by ply k), and at ply k, on a log scale,
    /// into this SVG file.
    #[arg(long, value_name = "FILE.svg", conflicts_with = "out")]
    plot: Option<PathBuf>,
    /// Also compute exact fractions up to this many plies (big integers; slow beyond 6).
    #[arg(long, value_name = "K", default_value_t = 6)]
    fraction_plies: u32,
    /// Split the run by the distinct positions at this ply (with --shard/--out, or --merge).
    #[arg(long, value_name = "S")]
    split: Option<u32>,
    /// Compute only share I of N of the split's positions (or from a Slurm array task).
    #[arg(long, value_name = "I/N", requires = "split")]
    shard: Option<Shard>,
    /// The number of shares, for a Slurm array task or Indexed Job.
    #[arg(long, value_name = "N", requires = "split")]
    shards: Option<u64>,
    /// Where a share writes its values.
    #[arg(
        long,
        value_name = "FILE",
        requires = "split",
        conflicts_with = "merge"
    )]
    out: Option<PathBuf>,
    /// Merge the share files of a split run into the result.
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "split")]
    merge: Vec<PathBuf>,
    #[command(flatten)]
    overwrite: Overwrite,
}

/// Run `shannon exact`.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    let pos = start_of(&args)?;
    let hash_mb = match plan_hash_share(args.hash, 3) {
        Ok(mb) => mb,
        Err(shortfall) => {
            say!("warning: --hash: {shortfall}");
            shortfall.granted_mb
        }
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let options = ExactOptions {
        plies: args.plies,
        hash_mb,
        fractions: args.plies <= args.fraction_plies,
        threads,
        reference: args.reference,
    };
    args.overwrite
        .check([("the chart", args.plot.as_deref())])?;
    let started = Instant::now();
    let report = match args.split {
        None => exact(&pos, &options).map_err(CliError::new)?,
        Some(split) if !args.merge.is_empty() => {
            let values =
                read_shares(&args.merge, &pos, args.plies, split).map_err(CliError::new)?;
            exact_with_frontier(&pos, &options, split, &values).map_err(CliError::new)?
        }
        Some(split) => {
            let shard = super::shard::resolve_shard(args.shard, args.shards, false, &|name| {
                std::env::var(name).ok()
            })?;
            let path = args
                .out
                .as_deref()
                .ok_or_else(|| CliError::new("a share needs --out FILE (or --merge FILES)"))?;
            args.overwrite.check([("--out", Some(path))])?;
            return write_share(&pos, &args, split, shard, &options, path, started, out);
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &args.plot {
        super::exact_plot::write_mate_chart(path, &report, &pos.fen()).map_err(CliError::new)?;
    }
    if args.json {
        write_json(&report, out)?;
    } else {
        write_text(&pos, &report, seconds, out)?;
    }
    Ok(true)
}

fn start_of(args: &Args) -> Result<Position, CliError> {
    if let Some(fen) = &args.fen {
        let (pos, warnings) = Position::from_fen_lenient(fen)
            .map_err(|e| CliError::new(format!("bad --fen: {e}")))?;
        for warning in warnings {
            say!("warning: --fen: {warning}");
        }
        return Ok(pos);
    }
    if let Some(n) = args.chess960 {
        let rank = scharnagl_back_rank(n).map_err(|e| CliError::new(format!("--chess960: {e}")))?;
        return Ok(start_position(&rank));
    }
    Ok(Position::startpos())
}

/// The digits of a probability for the text table: the guaranteed ones, cut to 12 significant
/// digits in scientific notation (truncated, never rounded up).
fn short(p: Bounded) -> String {
    let text = p.guaranteed_decimal(60);
    let Some(fraction) = text.strip_prefix("0.") else {
        return text;
    };
    let zeros = fraction.len() - fraction.trim_start_matches('0').len();
    let digits: String = fraction[zeros..].chars().take(12).collect();
    if digits.is_empty() {
        return text;
    }
    let (first, rest) = digits.split_at(1);
    let rest = if rest.is_empty() {
        String::new()
    } else {
        format!(".{rest}")
    };
    format!("{first}{rest}e-{}", zeros + 1)
}

fn write_text(
    pos: &Position,
    report: &ExactReport,
    seconds: f64,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let (bound, rule) = report.bound;
    writeln!(out, "Random games from {}", pos.shredder_fen())?;
    writeln!(
        out,
        "Exact under FIDE's automatic rules to ply {bound} (then {rule} could end a game)."
    )?;
    writeln!(
        out,
        "Probabilities: 128-bit fixed point, rounded down; ply k's value is within k x 2^-{FRACTION_BITS} \
         of the true one; digits shown are guaranteed (truncated)."
    )?;
    let rows: Vec<[String; 7]> = report
        .plies
        .iter()
        .map(|p| {
            [
                p.ply.to_string(),
                p.mates.to_string(),
                short(p.p_mate),
                p.stalemates.to_string(),
                short(p.p_stalemate),
                short(p.cumulative_mate),
                short(p.cumulative_stalemate),
            ]
        })
        .collect();
    let headings = [
        "ply",
        "mates",
        "P(mate at k)",
        "stalemates",
        "P(stalemate at k)",
        "P(mate by k)",
        "P(stalemate by k)",
    ];
    let widths: Vec<usize> = (0..7)
        .map(|c| {
            rows.iter()
                .map(|r| r[c].len())
                .chain([headings[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[&str]| -> String {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:>w$}"))
            .collect::<Vec<_>>()
            .join("  ")
    };
    writeln!(out, "{}", line(&headings))?;
    for row in &rows {
        let cells: Vec<&str> = row.iter().map(String::as_str).collect();
        writeln!(out, "{}", line(&cells))?;
    }
    for p in &report.plies {
        if let Some((mate, stalemate)) = &p.fractions {
            writeln!(
                out,
                "ply {}: P(mate) = {mate}, P(stalemate) = {stalemate}",
                p.ply
            )?;
        }
    }
    writeln!(out, "Time: {seconds:.3} s")
}

/// One ply of `--json`.
#[derive(Serialize)]
struct JsonPly {
    ply: u32,
    mates: u64,
    p_mate: String,
    stalemates: u64,
    p_stalemate: String,
    p_mate_cumulative: String,
    p_stalemate_cumulative: String,
    /// The bound: the true value is in [p, p + error_ulps x 2^-127).
    error_ulps: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    p_mate_fraction: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    p_stalemate_fraction: Option<String>,
    exact_to_ply: u32,
}

fn fraction_text(f: &BigRational) -> String {
    format!("{}/{}", f.numer(), f.denom())
}

fn write_json(report: &ExactReport, out: &mut impl Write) -> Result<(), CliError> {
    let rows: Vec<JsonPly> = report
        .plies
        .iter()
        .map(|p| JsonPly {
            ply: p.ply,
            mates: p.mates,
            p_mate: p.p_mate.guaranteed_decimal(60),
            stalemates: p.stalemates,
            p_stalemate: p.p_stalemate.guaranteed_decimal(60),
            p_mate_cumulative: p.cumulative_mate.guaranteed_decimal(60),
            p_stalemate_cumulative: p.cumulative_stalemate.guaranteed_decimal(60),
            error_ulps: p.p_mate.ulps.max(p.p_stalemate.ulps).to_string(),
            p_mate_fraction: p.fractions.as_ref().map(|f| fraction_text(&f.0)),
            p_stalemate_fraction: p.fractions.as_ref().map(|f| fraction_text(&f.1)),
            exact_to_ply: report.bound.0,
        })
        .collect();
    let text = serde_json::to_string_pretty(&rows).map_err(CliError::new)?;
    writeln!(out, "{text}")?;
    Ok(())
}

/// Compute share `shard` of the run split at `split` and write it to `path`.
#[allow(clippy::too_many_arguments)]
fn write_share(
    pos: &Position,
    args: &Args,
    split: u32,
    shard: Shard,
    options: &ExactOptions,
    path: &std::path::Path,
    started: Instant,
    out: &mut impl Write,
) -> Result<bool, CliError> {
    let share = ShareFile::compute(
        pos,
        args.plies,
        split,
        shard,
        options.hash_mb,
        options.threads,
    )
    .map_err(CliError::new)?;
    share.file.write(path).map_err(CliError::new)?;
    writeln!(
        out,
        "share {}/{}: {} of {} positions at ply {split}, {} plies below, in {:.3} s: {}",
        shard.index,
        shard.count,
        share.file.positions.len(),
        share.of,
        args.plies - split,
        started.elapsed().as_secs_f64(),
        path.display()
    )?;
    Ok(true)
}
