//! `shannon match`: engines of engines.toml play a match or a tournament (the work is
//! [`shannon::arena::tournament`]); this file adds the progress bar, the signal handling, the
//! shard from a cluster scheduler's environment and the move to the first run's directory on
//! `--resume`.

use super::CliError;
use indicatif::{ProgressBar, ProgressStyle};
use shannon::arena::adjudication::{DrawRule, ResignRule};
use shannon::arena::schedule::TournamentKind;
use shannon::arena::state::MatchState;
use shannon::arena::tournament::{
    resume_match, run_match_with, MatchProgress, MatchRequest, MatchSummary,
};
use shannon::arena::ArenaError;
use shannon::client::Config;
use shannon::types::Shard;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `shannon match`'s arguments: each overrides the engines file's `[match]` table.
#[derive(clap::Args)]
pub struct Args {
    /// The engines file (default: ./engines.toml, else the built-in one).
    #[arg(long)]
    config: Option<PathBuf>,
    /// The engines, by name: A,B for a match, A,B,C,... for a tournament (default: the file's
    /// [match] engines).
    #[arg(long)]
    engines: Option<String>,
    /// Who meets whom: round-robin (every pair of engines) or gauntlet (the first engine
    /// against each of the others). Default: round-robin.
    #[arg(long, value_name = "round-robin|gauntlet")]
    tournament: Option<TournamentKind>,
    /// Rounds: every encounter plays its --games once per round, from new openings (default 1).
    #[arg(long)]
    rounds: Option<u32>,
    /// Games of each encounter per round, rounded up to whole pairs (each opening twice, colours
    /// swapped). Default: the file's [match] games for two engines, 2 for a tournament.
    #[arg(long)]
    games: Option<u32>,
    /// Games at once (0: one per core).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Time control: 40/60+0.6, 10+0.1, 40/1:00+0.5 (minutes:seconds), inf, movetime=MS,
    /// nodes=N, depth=N.
    #[arg(long)]
    tc: Option<String>,
    /// startpos, chess960, an .epd / .pgn file of openings, or a Polyglot .bin book.
    #[arg(long)]
    openings: Option<String>,
    /// Longest opening line drawn from a .bin book, in plies (default 16).
    #[arg(long)]
    book_depth: Option<u32>,
    /// Where to write the games ("-" for nowhere).
    #[arg(long)]
    pgn: Option<String>,
    /// Seed of the schedule: the openings, and the per-game Seed of engines that have that
    /// option and no Seed set in engines.toml.
    #[arg(long)]
    seed: Option<u64>,
    /// Stop early by a sequential test: elo0,elo1,alpha,beta in logistic Elo (elo0 may be
    /// negative: --sprt -5,5,0.05,0.05). fishtest's GSPRT on the pentanomial of the game pairs
    /// (trinomial until the first pair is complete).
    #[arg(long, allow_hyphen_values = true)]
    sprt: Option<String>,
    /// Adjudicate a draw after this many plies.
    #[arg(long)]
    max_plies: Option<u32>,
    /// Adjudicate a draw after this many moves of each side (cutechess-cli's -maxmoves).
    #[arg(long, conflicts_with = "max_plies")]
    maxmoves: Option<u32>,
    /// Adjudicate a draw when both engines' scores stay within S centipawns of 0 for M
    /// consecutive moves each, from move N on: "movenumber=N movecount=M score=S".
    /// Example: --draw "movenumber=40 movecount=8 score=10"
    #[arg(long, value_name = "SETTINGS")]
    draw: Option<DrawRule>,
    /// Adjudicate a loss for a side whose own score stays at or below -S for M consecutive
    /// moves (two-sided: and the winner's at or above S): "movecount=M score=S [twosided=true]".
    /// Example: --resign "movecount=3 score=600 twosided=true"
    #[arg(long, value_name = "SETTINGS")]
    resign: Option<ResignRule>,
    /// Write only the Seven Tag Roster and the moves (no move comments).
    #[arg(long)]
    pgn_min: bool,
    /// Also write each game's final position, one EPD line per game.
    #[arg(long, value_name = "FILE")]
    epd: Option<std::path::PathBuf>,
    /// Write a self-contained HTML page: crosstable, Elo with its error bar, the SPRT's LLR over
    /// the games, terminations.
    #[arg(long, value_name = "FILE.html")]
    report: Option<std::path::PathBuf>,
    /// Save the match's state here after every game, atomically (default: the PGN's name with
    /// .state.json added; none without a PGN).
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Continue the match saved in STATE (after a kill, a power cut or Ctrl-C): the same
    /// schedule, openings and seeds; games already in the PGN are not played again. Only
    /// --concurrency, --quiet, --progress-lines and --report may be given with it.
    #[arg(long, value_name = "STATE", conflicts_with_all = [
        "config", "engines", "tournament", "rounds", "games", "tc", "openings", "book_depth",
        "pgn", "seed", "sprt", "max_plies", "maxmoves", "draw", "resign", "pgn_min", "epd",
        "state", "shard", "shards",
    ])]
    resume: Option<PathBuf>,
    /// Play only shard I of N (counted from 0) of the schedule: the I-th of N equal runs of
    /// consecutive game pairs. Without it, a Slurm array task plays SLURM_ARRAY_TASK_ID (minus
    /// SLURM_ARRAY_TASK_MIN) of SLURM_ARRAY_TASK_COUNT. The PGN, EPD and state files get
    /// .shard-I-of-N in their names; `shannon merge` adds the shards' states up.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// The number of shards, for a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) or to override
    /// SLURM_ARRAY_TASK_COUNT.
    #[arg(long, value_name = "N")]
    shards: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// After every game print cutechess-cli's lines: "Finished game N (A vs B): 1-0 {reason}"
    /// and "Score of A vs B: W - L - D  [0.500] N".
    #[arg(long)]
    progress_lines: bool,
}

/// Run `shannon match` with a progress bar (unless `--quiet`), ending cleanly on Ctrl-C/SIGTERM.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    let interrupt = super::signals::interrupt_flag(
        "ending the running games and stopping the engines (interrupt again to exit at once)",
    )?;
    super::check_outputs([("the report", args.report.as_deref())])?;
    let shard = super::shard::resolve_shard(args.shard, args.shards, false, &|name| {
        std::env::var(name).ok()
    })?;
    let request = MatchRequest {
        config: args.config,
        engines: args.engines,
        tournament: args.tournament,
        rounds: args.rounds,
        games: args.games,
        concurrency: args.concurrency,
        tc: args.tc,
        openings: args.openings,
        book_depth: args.book_depth,
        pgn: args.pgn,
        seed: args.seed,
        sprt: args.sprt,
        max_plies: args.max_plies,
        max_moves: args.maxmoves,
        draw: args.draw,
        resign: args.resign,
        pgn_min: args.pgn_min,
        epd: args.epd,
        state: args.state,
        shard: Some(shard),
        progress_lines: args.progress_lines,
        interrupt: Some(interrupt),
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}]")
            .expect("a valid template"),
    );
    let mut show = |progress: &MatchProgress| {
        bar.set_length(u64::from(progress.total));
        bar.set_position(u64::from(progress.finished));
        bar.set_message(progress.score.clone());
    };
    let result = match &args.resume {
        Some(path) => resume(path, &request, out, &mut show),
        None => Config::load(request.config.as_deref())
            .map_err(ArenaError::from)
            .and_then(|config| run_match_with(&config, &request, out, &mut show)),
    };
    bar.finish_and_clear();
    let summary = result.map_err(CliError::new)?;
    if let Some(path) = &args.report {
        super::match_report::write_report(path, &summary).map_err(CliError::new)?;
        writeln!(out, "Report: {}", path.display()).map_err(CliError::new)?;
    }
    Ok(summary.pgn_ok && !summary.interrupted)
}

/// Resume the state at `path` from the directory its first run worked in (its relative paths
/// are relative to that directory).
fn resume(
    path: &Path,
    request: &MatchRequest,
    out: &mut impl Write,
    show: &mut dyn FnMut(&MatchProgress),
) -> Result<MatchSummary, ArenaError> {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let state = MatchState::load(&path)?;
    let here = std::env::current_dir().ok();
    if here.as_deref() != Some(state.directory.as_path()) {
        std::env::set_current_dir(&state.directory).map_err(|e| {
            ArenaError::State(
                path.clone(),
                format!(
                    "cannot change to the first run's directory {}: {e}",
                    state.directory.display()
                ),
            )
        })?;
        log::info!(
            "resuming in {}, where the match started",
            state.directory.display()
        );
    }
    resume_match(&path, request, out, show)
}
