//! `shannon exact`: the exact probability that a uniformly random game ends in checkmate or
//! stalemate at each ply, with the counts of such games; and the split of a deep run into shares
//! (a Slurm job array) and their exact merge.

use super::prelude::{say, CliError, Overwrite};
use num_rational::BigRational;
use serde::{Deserialize, Serialize};
use shannon::chess960::{scharnagl_back_rank, start_position};
use shannon::jobs::shard::Shard;
use shannon::perft::exact::{
    exact, exact_with_frontier, frontier, frontier_values, BoardId, Bounded, Ends, ExactOptions,
    ExactReport, Fixed, FrontierValues, FRACTION_BITS,
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
            let values = read_shares(&args.merge, &pos, args.plies, split)?;
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

/// The format name of a share file.
const SHARE_FORMAT: &str = "shannon-exact-share";
/// Its version: 2 deals the split's positions in runs of consecutive ones ([`Shard::run_of`]);
/// version 1 dealt every N-th position. A merge reads both, but not mixed: a share of one
/// and a share of the other may overlap and leave positions out.
const SHARE_VERSION: u32 = 2;
/// The share file versions a merge reads.
const SHARE_VERSIONS_READ: [u32; 2] = [1, 2];

/// How a share file's version dealt the positions, in words.
fn dealt_by(version: u32) -> &'static str {
    if version == 1 {
        "every N-th position"
    } else {
        "runs of consecutive positions"
    }
}

/// A share file: the values of some of the split ply's positions.
#[derive(Serialize, Deserialize)]
struct ShareFile {
    format: String,
    version: u32,
    /// The root position (Shredder-FEN).
    root: String,
    plies: u32,
    split: u32,
    shard: Shard,
    positions: Vec<SharePosition>,
}

#[derive(Serialize, Deserialize)]
struct SharePosition {
    /// Shredder-FEN of the position at the split ply.
    fen: String,
    /// Entry d - 1: the games ending d plies below it.
    ends: Vec<ShareEnds>,
}

#[derive(Serialize, Deserialize)]
struct ShareEnds {
    mates: u64,
    stalemates: u64,
    /// In units of 2^-127, as a decimal integer.
    p_mate: String,
    p_stalemate: String,
}

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
    if split == 0 || split >= args.plies {
        return Err(CliError::new(format!(
            "--split {split} must be between 1 and {} (below --plies)",
            args.plies - 1
        )));
    }
    // Plies beyond the bound are refused before any work.
    let check = ExactOptions {
        plies: args.plies,
        ..Default::default()
    };
    if let Err(e) = exact_check(pos, &check) {
        return Err(CliError::new(e));
    }
    let all = frontier(pos, split);
    // A run of consecutive positions, not every N-th: the frontier lists the replies to one
    // move together, and those share many descendants that a share computes once.
    let run = shard.run_of(all.len() as u64);
    let mine: Vec<Position> = all[run.start as usize..run.end as usize].to_vec();
    let values = frontier_values(&mine, args.plies - split, options.hash_mb, options.threads);
    let file = ShareFile {
        format: SHARE_FORMAT.into(),
        version: SHARE_VERSION,
        root: pos.shredder_fen(),
        plies: args.plies,
        split,
        shard,
        positions: mine
            .iter()
            .zip(values)
            .map(|(p, ends)| SharePosition {
                fen: p.shredder_fen(),
                ends: ends
                    .into_iter()
                    .map(|e| ShareEnds {
                        mates: e.mates,
                        stalemates: e.stalemates,
                        p_mate: e.p_mate.0.to_string(),
                        p_stalemate: e.p_stalemate.0.to_string(),
                    })
                    .collect(),
            })
            .collect(),
    };
    let text = serde_json::to_string(&file).map_err(CliError::new)?;
    shannon::jobs::atomic_file::write_atomically(path, text.as_bytes())
        .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))?;
    writeln!(
        out,
        "share {}/{}: {} of {} positions at ply {split}, {} plies below, in {:.3} s: {}",
        shard.index,
        shard.count,
        mine.len(),
        all.len(),
        args.plies - split,
        started.elapsed().as_secs_f64(),
        path.display()
    )?;
    Ok(true)
}

/// The bound check of [`exact`] alone (plies 0 or beyond the rules' bound).
fn exact_check(
    pos: &Position,
    options: &ExactOptions,
) -> Result<(), shannon::perft::exact::ExactError> {
    let (bound, rule) = shannon::perft::exact::rule_bound(pos);
    if options.plies == 0 {
        return Err(shannon::perft::exact::ExactError::NoPlies);
    }
    if options.plies > bound {
        return Err(shannon::perft::exact::ExactError::BeyondRules {
            plies: options.plies,
            bound,
            rule,
        });
    }
    Ok(())
}

fn read_shares(
    paths: &[PathBuf],
    pos: &Position,
    plies: u32,
    split: u32,
) -> Result<FrontierValues, CliError> {
    let mut values = FrontierValues::new();
    let mut seen: Vec<Shard> = Vec::new();
    let mut dealing: Option<u32> = None;
    for path in paths {
        let bad = |why: String| CliError::new(format!("{}: {why}", path.display()));
        let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
        let file: ShareFile =
            serde_json::from_str(&text).map_err(|e| bad(format!("not a share file: {e}")))?;
        if file.format != SHARE_FORMAT {
            return Err(bad(format!("format '{}', not {SHARE_FORMAT}", file.format)));
        }
        if !SHARE_VERSIONS_READ.contains(&file.version) {
            return Err(bad(format!(
                "share file version {}; this shannon reads versions 1 and {SHARE_VERSION}",
                file.version
            )));
        }
        match dealing {
            Some(v) if v != file.version => {
                return Err(bad(format!(
                    "share {} of version {} (dealt {}) mixed with shares of version {v} \
                     (dealt {}): compute every share with one shannon",
                    file.shard,
                    file.version,
                    dealt_by(file.version),
                    dealt_by(v)
                )));
            }
            _ => dealing = Some(file.version),
        }
        if file.root != pos.shredder_fen() || file.plies != plies || file.split != split {
            return Err(bad(format!(
                "a share of another run ({} --plies {} --split {}), not of {} --plies {plies} \
                 --split {split}",
                file.root,
                file.plies,
                file.split,
                pos.shredder_fen()
            )));
        }
        if let Some(first) = seen.first() {
            if first.count != file.shard.count {
                return Err(bad(format!(
                    "share {}/{} mixed with shares of {}",
                    file.shard.index, file.shard.count, first.count
                )));
            }
        }
        if seen.contains(&file.shard) {
            return Err(bad(format!(
                "share {}/{} given twice",
                file.shard.index, file.shard.count
            )));
        }
        seen.push(file.shard);
        for p in file.positions {
            let position =
                Position::from_fen(&p.fen).map_err(|e| bad(format!("bad FEN {}: {e}", p.fen)))?;
            let mut ends = Vec::new();
            for e in p.ends {
                let number = |s: &str| {
                    s.parse::<u128>()
                        .map(Fixed)
                        .map_err(|_| bad(format!("bad fixed-point value '{s}'")))
                };
                ends.push(Ends {
                    mates: e.mates,
                    stalemates: e.stalemates,
                    p_mate: number(&e.p_mate)?,
                    p_stalemate: number(&e.p_stalemate)?,
                });
            }
            values.insert(BoardId::of(&position), ends);
        }
    }
    if let Some(first) = seen.first() {
        if seen.len() as u64 != first.count {
            return Err(CliError::new(format!(
                "{} of {} shares given: every share is needed for an exact result",
                seen.len(),
                first.count
            )));
        }
    }
    Ok(values)
}
