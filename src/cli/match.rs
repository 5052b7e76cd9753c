//! `shannon match`: engines of engines.toml play a match or a tournament (the work is
//! [`shannon::arena::run_match`]); this file turns the flags into a typed request, renders what
//! the run tells (text, progress bar, HTML, JSON), handles signals, takes the shard from a
//! cluster scheduler's environment and moves to the first run's directory on `--resume`.

use super::report::text::Console;
use super::CliError;
use indicatif::{ProgressBar, ProgressStyle};
use shannon::arena::{
    resume_match, run_match, ArenaError, DrawRule, MatchReport, MatchRequest, MatchState, Openings,
    ResignRule, Resume, SettingError, TimeControl, TournamentKind,
};
use shannon::client::Config;
use shannon::shard::Shard;
use shannon::stats::Sprt;
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
    #[arg(long, value_delimiter = ',', value_parser = trimmed)]
    engines: Option<Vec<String>>,
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
    tc: Option<TimeControl>,
    /// startpos, chess960, an .epd / .pgn file of openings, or a Polyglot .bin book.
    #[arg(long)]
    openings: Option<Openings>,
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
    sprt: Option<Sprt>,
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
    report: Option<PathBuf>,
    /// Also write the whole report (settings, standings, SPRT, files, latency) as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Save the match's state here after every game, atomically (default: the PGN's name with
    /// .state.json added; none without a PGN).
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Continue the match saved in STATE (after a kill, a power cut or Ctrl-C): the same
    /// schedule, openings and seeds; games already in the PGN are not played again. Only
    /// --concurrency, --quiet, --progress-lines, --report and --json may be given with it.
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

/// One name of `--engines a,b,c`, without the spaces around it.
fn trimmed(text: &str) -> Result<String, String> {
    Ok(text.trim().to_string())
}

/// Run `shannon match` with a progress bar (unless `--quiet`), ending cleanly on Ctrl-C/SIGTERM.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    let interrupt = super::signals::interrupt_flag(
        "ending the running games and stopping the engines (interrupt again to exit at once)",
    )?;
    super::check_outputs([
        ("the report", args.report.as_deref()),
        ("the JSON report", args.json.as_deref()),
    ])?;
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}]")
            .expect("a valid template"),
    );
    let mut console = Console::new(out, bar, args.progress_lines);
    let report = match &args.resume {
        Some(path) => {
            let resume = Resume {
                concurrency: args.concurrency,
                interrupt: Some(interrupt),
            };
            resume_from(path, &resume, &mut console)
        }
        None => {
            let request = request_of(&args, interrupt)?;
            Config::load(request.config.as_deref())
                .map_err(ArenaError::from)
                .and_then(|config| run_match(&config, &request, &mut console))
        }
    }
    .map_err(explain)?;
    write_files(&report, args.report.as_deref(), args.json.as_deref(), out)?;
    Ok(report.is_clean())
}

/// The typed request the flags make.
fn request_of(
    args: &Args,
    interrupt: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Result<MatchRequest, CliError> {
    let shard = super::shard::resolve_shard(args.shard, args.shards, false, &|name| {
        std::env::var(name).ok()
    })?;
    Ok(MatchRequest {
        config: args.config.clone(),
        engines: args.engines.clone(),
        tournament: args.tournament,
        rounds: args.rounds,
        games: args.games,
        concurrency: args.concurrency,
        time_control: args.tc,
        openings: args.openings.clone(),
        book_depth: args.book_depth,
        pgn: args.pgn.as_deref().map(|pgn| match pgn {
            "" | "-" => None,
            path => Some(PathBuf::from(path)),
        }),
        seed: args.seed,
        sprt: args.sprt,
        max_plies: args
            .maxmoves
            .map(|m| m.saturating_mul(2))
            .or(args.max_plies),
        draw: args.draw,
        resign: args.resign,
        pgn_min: args.pgn_min,
        epd: args.epd.clone(),
        state: args.state.clone(),
        shard,
        interrupt: Some(interrupt),
    })
}

/// The report's HTML page and JSON, when asked for.
fn write_files(
    report: &MatchReport,
    html: Option<&Path>,
    json: Option<&Path>,
    out: &mut impl Write,
) -> Result<(), CliError> {
    if let Some(path) = html {
        super::report::html::write_report(path, report).map_err(CliError::new)?;
        writeln!(out, "Report: {}", path.display()).map_err(CliError::new)?;
    }
    if let Some(path) = json {
        super::report::json::write_json(path, report).map_err(CliError::new)?;
        writeln!(out, "JSON: {}", path.display()).map_err(CliError::new)?;
    }
    Ok(())
}

/// An arena error in the command line's words: a setting named by the flag that sets it.
pub fn explain(error: ArenaError) -> CliError {
    let ArenaError::Setting(setting) = &error else {
        return CliError::new(error);
    };
    CliError::new(match setting {
        SettingError::EngineTwice(name) => format!(
            "--engines names {name} twice: a tournament's engines are distinct (add a second \
             [[engine]] table with another name to play an engine against itself)"
        ),
        SettingError::NoGames => {
            "the number of games (--games, or games in [match]) must be at least 1".into()
        }
        SettingError::NoRoundsOrGames => "--rounds and --games must be at least 1".into(),
        SettingError::SprtNeedsTwoEngines => {
            "--sprt tests one engine against another: it needs exactly two engines".into()
        }
        SettingError::SprtOnShards => "--sprt cannot run on shards: the test is sequential (it \
             stops at the first game that decides it), and shards play in parallel without seeing \
             each other's results. Run an SPRT in one process, or shard a fixed number of games"
            .into(),
        _ => setting.to_string(),
    })
}

/// Resume the state at `path` from the directory its first run worked in (its relative paths
/// are relative to that directory).
fn resume_from(
    path: &Path,
    resume: &Resume,
    console: &mut Console<'_, impl Write>,
) -> Result<MatchReport, ArenaError> {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let state = MatchState::load(&path).map_err(|e| ArenaError::State(path.clone(), e))?;
    let directory = state.directory();
    let here = std::env::current_dir().ok();
    if here.as_deref() != Some(directory) {
        std::env::set_current_dir(directory).map_err(|e| {
            let why = shannon::arena::StateError::Directory(directory.to_path_buf(), e);
            ArenaError::State(path.clone(), why)
        })?;
        log::info!(
            "resuming in {}, where the match started",
            directory.display()
        );
    }
    resume_match(&path, resume, console)
}
