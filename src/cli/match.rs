//! `shannon match`: engines of engines.toml play a match or a tournament (the work is
//! [`shannon::arena::run_match`]); this file turns the flags into a typed request, renders what
//! the run tells (text, progress bar, HTML, JSON), handles signals, takes the shard from a
//! cluster scheduler's environment and moves to the first run's directory on `--resume`.

use super::compat::Dialect;
use super::prelude::{say, CliError};
use super::report::files::{refusal, Form, Noting};
use super::report::{observer, OutputFormat, Rendering};
use shannon::arena::{
    resume_match, run_match, ArenaError, DrawRule, EngineLimits, Existing, MatchObserver,
    MatchReport, MatchRequest, MatchState, Openings, ResignRule, Resume, SettingError,
    TablebaseRule, TbResults, TournamentKind,
};

use shannon::client::TimeControl;
use shannon::client::{Config, ConfigError};
use shannon::jobs::shard::Shard;
use shannon::notation::pgn::MoveNotation;
use shannon::stats::{EloModel, Sprt, SprtTest};
use std::io::Write;
use std::path::{Path, PathBuf};

/// `shannon match`'s arguments: each overrides the engines file's `[match]` table.
#[derive(clap::Args)]
pub struct Args {
    /// The engines file (default: ./engines.toml, else the built-in one).
    #[arg(long)]
    config: Option<PathBuf>,
    /// The engines, by name: A,B for a match, A,B,C,... for a tournament (default: the file's
    /// [match] engines). A name the engines file does not have is run as a command (a path, or
    /// a program on PATH, then in /usr/games), as audit's --engine is.
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
    /// nodes=N, depth=N; caps beside a clock or movetime= after commas: 10+0.1,nodes=5000,depth=8
    /// (each move stops at whichever comes first).
    #[arg(long)]
    tc: Option<TimeControl>,
    /// One engine's own time control (time odds), as NAME=TC: `--engine-tc base=5+0.05` plays
    /// base at 5+0.05 and the others at --tc. Repeat it for more engines; it overrides the
    /// engines file's `tc` of that engine.
    #[arg(long, value_name = "NAME=TC", value_parser = engine_tc)]
    engine_tc: Vec<(String, TimeControl)>,
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
    /// Stop early by a sequential test: elo0,elo1,alpha,beta in the units of --sprt-model
    /// (elo0 may be negative: --sprt -5,5,0.05,0.05). fishtest's GSPRT on the pentanomial of the
    /// game pairs (trinomial until the first pair is complete).
    #[arg(long, allow_hyphen_values = true)]
    sprt: Option<Sprt>,
    /// The Elo model of --sprt's elo0 and elo1, as fishtest has them: logistic (the default),
    /// normalized (t-values: fishtest's nElo) or bayesian (BayesElo, converted to logistic Elo
    /// through the draw Elo of the games, fishtest's "BayesElo").
    #[arg(long, requires = "sprt", value_name = "logistic|normalized|bayesian")]
    sprt_model: Option<EloModel>,
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
    /// Adjudicate by the Syzygy WDL tables (.rtbw) in these folders, separated as in PATH
    /// (a:b): before each move, a position just after a capture or a pawn move, without
    /// castling rights and of no more pieces than the tables hold, ends the game with the
    /// tables' result, as fastchess's -tb does. A cursed win or a blessed loss is a draw.
    #[arg(long, value_name = "DIR[:DIR...]")]
    tb: Option<std::ffi::OsString>,
    /// Probe positions of at most N pieces (default: as many as the tables hold; more is an
    /// error).
    #[arg(long, value_name = "N", requires = "tb")]
    tb_pieces: Option<u32>,
    /// Count a cursed win and a blessed loss (decided by the fifty-move rule) as a win and a
    /// loss.
    #[arg(long, requires = "tb")]
    tb_ignore_50: bool,
    /// Which of the tables' results end a game: win-loss, draw or both (the default).
    #[arg(long, value_name = "win-loss|draw|both", requires = "tb")]
    tb_adjudicate: Option<TbResults>,
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
    /// --concurrency, --quiet, --progress-lines, --output-format, --rating-interval, --report
    /// and --json may be given with it.
    #[arg(long, value_name = "STATE", conflicts_with_all = [
        "config", "engines", "tournament", "rounds", "games", "tc", "engine_tc", "openings", "book_depth",
        "pgn", "seed", "sprt", "sprt_model", "max_plies", "maxmoves", "draw", "resign", "pgn_min", "epd",
        "state", "shard", "shards", "overwrite", "tb", "tb_pieces", "tb_ignore_50", "tb_adjudicate",
    ])]
    resume: Option<PathBuf>,
    /// Replace the PGN, EPD and state files (and the PGN's forensics files) when they hold an
    /// earlier run. Without it a run does not start over them: it names them, with --resume
    /// when the state is an unfinished run of the same settings (a PGN left to the engines
    /// file's default takes a free name instead, match-2.pgn).
    #[arg(long)]
    overwrite: bool,
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
    /// What to print while playing: text (our header, progress bar and tables), cutechess
    /// (cutechess-cli's lines: "Started game", "Finished game", "Score of", "Elo difference",
    /// "SPRT: llr", "Finished match") or fastchess (fastchess's lines and its "Results of"
    /// blocks with "Elo:", "LLR:", "Games:", "Ptnml(0-2):").
    #[arg(long, value_enum, default_value_t = OutputFormat::Text, value_name = "FORMAT")]
    output_format: OutputFormat,
    /// With --output-format cutechess: the results after every N finished games (default 0: at
    /// the end only); with fastchess: after every N-th game pair completes (default 10). Both
    /// print them at the end too.
    #[arg(long, value_name = "N")]
    rating_interval: Option<u32>,
}

/// One name of `--engines a,b,c`, without the spaces around it.
fn trimmed(text: &str) -> Result<String, String> {
    Ok(text.trim().to_string())
}

/// Run `shannon match` with a progress bar (unless `--quiet`), ending cleanly on Ctrl-C/SIGTERM.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    check_format(&args)?;
    // A resumed run works where its first run worked: its relative paths, --report's and
    // --json's included, are taken from there.
    let resume = args.resume.as_deref().map(enter_first_run).transpose()?;
    let interrupt = super::signals::interrupt_flag(
        "ending the running games and stopping the engines (interrupt again to exit at once)",
    )?;
    // Held until they are written: a second run writing either is refused at once.
    let reports = [
        ("the report", args.report.as_deref()),
        ("the JSON report", args.json.as_deref()),
    ];
    let _locks = lock_reports(reports)?;
    // A resumed run writes its own reports again; a new one refuses an earlier run's.
    let replace = args.overwrite || resume.is_some();
    super::prelude::Overwrite { overwrite: replace }.check(reports)?;
    let interval = args
        .rating_interval
        .unwrap_or(args.output_format.default_rating_interval());
    let resume = resume.as_deref();
    let rendering = match args.output_format {
        OutputFormat::Text => Rendering::Text {
            quiet: args.quiet,
            progress_lines: args.progress_lines,
        },
        OutputFormat::Cutechess => Rendering::Cutechess {
            rating_interval: interval,
            score_interval: 1,
            outcome_interval: 0,
            result_format: Default::default(),
        },
        OutputFormat::Fastchess => Rendering::Fastchess {
            rating_interval: interval,
            penta: true,
            crc_file: None,
            config_file: None,
        },
    };
    let mut renderer = observer(out, rendering);
    let report = play(&args, resume, interrupt, &mut *renderer)?;
    drop(renderer);
    write_files(&report, args.report.as_deref(), args.json.as_deref(), out)?;
    Ok(report.is_clean())
}

/// The locks of the report files a run writes at its end (see [`shannon::jobs::run_lock`]), each
/// `(what, path)`; a lock that cannot be made (a folder that does not exist) names the file.
fn lock_reports<'a>(
    files: impl IntoIterator<Item = (&'a str, Option<&'a Path>)>,
) -> Result<Vec<shannon::jobs::run_lock::RunLock>, CliError> {
    use shannon::jobs::run_lock::{RunLock, RunLockError};
    let mut locks = Vec::new();
    for (what, path) in files {
        let Some(path) = path else { continue };
        locks.push(RunLock::acquire(path).map_err(|e| match e {
            RunLockError::Io { source, .. } => {
                CliError::new(format!("cannot write {what} {}: {source}", path.display()))
            }
            held => CliError::new(held),
        })?);
    }
    Ok(locks)
}

/// Refuse the flags the output format cannot honour.
fn check_format(args: &Args) -> Result<(), CliError> {
    match args.output_format {
        OutputFormat::Text if args.rating_interval.is_some() => Err(CliError::new(
            "--rating-interval sets how often --output-format cutechess or fastchess prints \
             the results; the text output prints them at the end",
        )),
        OutputFormat::Cutechess | OutputFormat::Fastchess if args.progress_lines => {
            Err(CliError::new(
                "--progress-lines prints cutechess-cli's lines beside the text output; with \
                 --output-format cutechess or fastchess those lines are the output already",
            ))
        }
        _ => Ok(()),
    }
}

/// Play the match (or resume the state at `resume`) and tell `observer`.
fn play(
    args: &Args,
    resume: Option<&Path>,
    interrupt: std::sync::Arc<std::sync::atomic::AtomicBool>,
    observer: &mut dyn MatchObserver,
) -> Result<MatchReport, CliError> {
    let mut observer = Noting::new(observer, Form::Long);
    match resume {
        Some(path) => {
            let resume = Resume {
                concurrency: args.concurrency,
                interrupt: Some(interrupt),
                pgn_crc32: false,
                echo: None,
            };
            resume_match(path, &resume, &mut observer)
        }
        None => {
            let request = request_of(args, interrupt)?;
            Config::load(request.config.as_deref())
                .map_err(ArenaError::from)
                .and_then(|config| {
                    // A name the file does not have runs as a command (a path, then PATH, then
                    // /usr/games), as audit's and perft-check's --engine: said here, on stderr.
                    for name in request.engines.iter().flatten() {
                        if let Ok((_, origin)) = config.runnable_engine(name) {
                            super::prelude::note_origin(name, &origin, request.config.as_deref());
                        }
                    }
                    run_match(&config, &request, &mut observer)
                })
        }
    }
    .map_err(explain)
}

/// True when the words after `match` are a cutechess-cli/fastchess command line: the first is a
/// single dash and a word (`-engine`, `-each`, ...; `-h` stays clap's help), or an `-engine` or
/// `-each` comes later.
pub fn is_compat(args: &[String]) -> bool {
    let first_is_one = args.first().is_some_and(|first| {
        first != "-h" && !first.starts_with("--") && super::compat::words_start_option(first)
    });
    // `--games 2 -engine cmd=...` mixes the forms: the compat reader says so by name.
    first_is_one
        || args
            .iter()
            .any(|w| w == "-engine" || w == "-each" || w == "--compliance")
}

/// `shannon match -engine cmd=... -engine cmd=... -each tc=10+0.1 ...`: the command line read
/// by [`super::compat`], the engines given there (no engines file), the notes on stderr, and the
/// games played with the chosen output.
pub fn run_compat(args: &[String], out: &mut impl Write) -> Result<bool, CliError> {
    use super::compat::{CompatCommand, HELP};
    let command = super::compat::parse(args).map_err(CliError::new)?;
    let compat = match command {
        CompatCommand::Help => {
            out.write_all(HELP.as_bytes())?;
            return Ok(true);
        }
        CompatCommand::ResultFormatHelp => {
            out.write_all(super::report::cutechess::result_format::help().as_bytes())?;
            // cutechess-cli exits with status 1 after it.
            return Ok(false);
        }
        CompatCommand::Version => {
            writeln!(out, "shannon {}", env!("CARGO_PKG_VERSION"))?;
            return Ok(true);
        }
        CompatCommand::Engines(names) => {
            for name in names {
                writeln!(out, "{name}")?;
            }
            return Ok(true);
        }
        CompatCommand::Compliance { command, args } => {
            return super::compat::compliance::run(&command, args, out);
        }
        CompatCommand::Match(compat) => compat,
    };
    let super::compat::OutputChoice {
        format,
        rating_interval,
        score_interval,
        outcome_interval,
        penta,
        result_format,
    } = compat.output;
    log::info!(
        "read as {}'s command line; output {format:?}, ratings every {rating_interval:?}, \
         scores every {score_interval:?}, outcomes every {outcome_interval:?} games",
        compat.dialect
    );
    for note in &compat.notes {
        say!("shannon: note: {note}");
    }
    for line in &compat.preamble {
        writeln!(out, "{line}")?;
    }
    let mut request = compat.request;
    request.interrupt = Some(super::signals::interrupt_flag(
        "ending the running games and stopping the engines (interrupt again to exit at once)",
    )?);
    let config = Config::load_saved(request.config.as_deref()).map_err(CliError::new)?;
    let interval = rating_interval.unwrap_or(format.default_rating_interval());
    // fastchess names the PGN in its CRC line as the command line gave it.
    let crc_file = match (&request.pgn, request.pgn_crc32) {
        (Some(Some(path)), true) => Some(path.display().to_string()),
        _ => None,
    };
    // fastchess's form saves its config.json, as fastchess does (-config file= continues it),
    // held for the run: a second run in this folder saves to a name of its own.
    let mut config_file = compat.config_file;
    let _config_lock = match &mut config_file {
        Some(file) => {
            let (lock, notes) = super::compat::ConfigSaver::lock(file);
            for note in notes {
                say!("shannon: note: {note}");
            }
            lock
        }
        None => None,
    };
    let rendering = match format {
        OutputFormat::Fastchess => Rendering::Fastchess {
            rating_interval: interval,
            penta,
            crc_file,
            config_file: config_file.as_ref().map(|f| f.path.display().to_string()),
        },
        // fastchess's -scoreinterval and cutechess-cli's -outcomeinterval; the Score line of
        // fastchess's own format is never printed, as fastchess prints none.
        OutputFormat::Cutechess | OutputFormat::Text => Rendering::Cutechess {
            rating_interval: interval,
            score_interval: score_interval.unwrap_or(1),
            outcome_interval: outcome_interval.unwrap_or(0),
            result_format,
        },
    };
    let mut renderer = observer(out, rendering);
    let mut noting = Noting::new(&mut *renderer, Form::Compat);
    let (report, saved, kept) = match config_file {
        Some(file) => {
            let mut saver = super::compat::ConfigSaver::new(&mut noting, file);
            let report = run_match(&config, &request, &mut saver);
            (report, saver.error, saver.notes)
        }
        None => (run_match(&config, &request, &mut noting), None, Vec::new()),
    };
    drop(renderer);
    for note in kept {
        say!("shannon: note: {note}");
    }
    if let Some(error) = saved {
        say!("shannon: warning: {error}");
    }
    let report = report.map_err(|error| explain_compat(error, compat.dialect, out))?;
    // cutechess-cli ends an interrupted run as any other (exit status 0); fastchess with 1.
    Ok(match compat.dialect {
        Dialect::Cutechess => report.record_error.is_none() && report.stopped.is_none(),
        Dialect::Fastchess => report.is_clean(),
    })
}

/// An arena error in the words of a cutechess-cli/fastchess command line; an engine whose
/// program is not found is, in fastchess's words, an engine startup failure (its `Fatal;` line on
/// stdout, as fastchess prints it, for the scripts that look for it).
fn explain_compat(error: ArenaError, dialect: Dialect, out: &mut impl Write) -> CliError {
    if let (ArenaError::Config(ConfigError::CommandNotFound { engine, .. }), Dialect::Fastchess) =
        (&error, dialect)
    {
        let _ = writeln!(out, "Fatal; {engine} engine startup failure: \"{error}\"");
    }
    match &error {
        ArenaError::Setting(SettingError::SprtNeedsTwoEngines) => {
            CliError::new("-sprt tests one engine against another: it needs exactly two engines")
        }
        ArenaError::Occupied(files) => CliError::new(refusal(files, Form::Compat)),
        _ => CliError::new(error),
    }
}

/// The typed request the flags make.
/// `NAME=TC` of `--engine-tc`.
fn engine_tc(text: &str) -> Result<(String, TimeControl), String> {
    let (name, tc) = text
        .split_once('=')
        .filter(|(name, _)| !name.trim().is_empty())
        .ok_or_else(|| format!("'{text}' is not NAME=TC (e.g. base=5+0.05)"))?;
    let tc = tc.parse::<TimeControl>().map_err(|e| e.to_string())?;
    Ok((name.trim().to_string(), tc))
}

fn request_of(
    args: &Args,
    interrupt: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Result<MatchRequest, CliError> {
    let shard = super::shard::resolve_shard(args.shard, args.shards, false, &|name| {
        std::env::var(name).ok()
    })?;
    let existing = match args.overwrite {
        true => Existing::Overwrite,
        false => Existing::Refuse,
    };
    Ok(MatchRequest {
        config: args.config.clone(),
        engines: args.engines.clone(),
        tournament: args.tournament,
        rounds: args.rounds,
        games: args.games,
        layout: Default::default(),
        concurrency: args.concurrency,
        time_control: args.tc,
        engine_limits: args
            .engine_tc
            .iter()
            .map(|(name, tc)| {
                let limits = EngineLimits {
                    time_control: Some(*tc),
                    time_margin_ms: None,
                };
                (name.clone(), limits)
            })
            .collect(),
        openings: args.openings.clone(),
        book_depth: args.book_depth,
        pgn: args.pgn.as_deref().map(|pgn| match pgn {
            "" | "-" => None,
            path => Some(PathBuf::from(path)),
        }),
        seed: args.seed,
        sprt: args.sprt.map(|sprt| {
            sprt.with_test(SprtTest::Fishtest(
                args.sprt_model.unwrap_or(EloModel::Logistic),
            ))
        }),
        max_plies: args
            .maxmoves
            .map(|m| m.saturating_mul(2))
            .or(args.max_plies),
        draw: args.draw,
        resign: args.resign,
        tablebase: args.tb.as_ref().map(|folders| TablebaseRule {
            paths: std::env::split_paths(folders).collect(),
            max_pieces: args.tb_pieces,
            ignore_50: args.tb_ignore_50,
            results: args.tb_adjudicate.unwrap_or_default(),
        }),
        dialect: None,
        pgn_min: args.pgn_min,
        epd: args.epd.clone(),
        state: args.state.clone(),
        shard,
        engine_configs: Vec::new(),
        time_margin_ms: None,
        event: None,
        site: None,
        interrupt: Some(interrupt),
        existing,
        existing_epd: existing,
        // Shannon's own form plays on after a crash or a stall, the engine restarted.
        recover: None,
        ping_ms: None,
        pgn_crc32: false,
        pgn_notation: MoveNotation::San,
        wait_ms: 0,
        echo: None,
        carried: None,
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
    if let ArenaError::Occupied(files) = &error {
        return CliError::new(refusal(files, Form::Long));
    }
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

/// Change to the directory the first run of the state at `path` worked in (its relative paths
/// are relative to it); the state's path, made absolute first.
fn enter_first_run(path: &Path) -> Result<PathBuf, CliError> {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let state = MatchState::load(&path).map_err(|e| explain(ArenaError::State(path.clone(), e)))?;
    let directory = state.directory();
    let here = std::env::current_dir().ok();
    if here.as_deref() != Some(directory) {
        std::env::set_current_dir(directory).map_err(|e| {
            let why = shannon::arena::StateError::Directory(directory.to_path_buf(), e);
            explain(ArenaError::State(path.clone(), why))
        })?;
        log::info!(
            "resuming in {}, where the match started",
            directory.display()
        );
    }
    Ok(path)
}
