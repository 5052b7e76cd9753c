//! `shannon bench`: speed figures that are printed, never asserted (machines are shared and
//! noisy; compare against a peer measured in the same run, see `benches/perft.rs`).

use super::bench_tablebase;
use super::bench_uci;
use super::prelude::{generator_parser, per_second, CliError};
use super::tablebase::Folders;
use shannon::experiment::{self, Category, Experiment, RuleSet, RunOptions, Shard, Start};
use shannon::movegen::Generator;
use shannon::perft::fast;
use shannon::perft::{divide_in, plan_hash, PerftOptions, PerftTable, PERFT_BENCH};
use shannon::Position;
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Run the perft benchmark: nodes per second on each position, single thread by default, each
/// with a fresh table of `options.hash_mb` MiB (cut down to what the machine has, and used only as
/// far as the count can fill it: the size in use is printed). Returns false if a count was wrong
/// (a benchmark of a wrong generator means nothing).
pub fn run_perft_bench(options: &PerftOptions, out: &mut impl Write) -> io::Result<bool> {
    let mut all_right = true;
    let granted = match plan_hash(options.hash_mb) {
        Ok(granted) => granted,
        Err(shortfall) => {
            writeln!(out, "hash: {shortfall}")?;
            shortfall.granted_mb
        }
    };
    writeln!(
        out,
        "perft benchmark: {} generator, {} thread(s), hash {granted} MiB, bulk counting",
        options.generator.name(),
        options.threads.max(1),
    )?;
    if options.generator == Generator::Bitboard {
        writeln!(
            out,
            "counting path built for: {}",
            fast::instructions().name()
        )?;
    }
    for (name, fen, depth, expected) in PERFT_BENCH {
        let pos = Position::from_fen(fen).expect("benchmark FENs are valid");
        let started = Instant::now();
        let table = PerftTable::new(granted);
        let in_use = table.as_ref().map(|t| t.for_count(&pos, depth));
        let in_use_kb = in_use.map_or(0, |t| t.kilobytes());
        let nodes = divide_in(&pos, depth, options, in_use, None)
            .expect("no stop flag")
            .nodes;
        let seconds = started.elapsed().as_secs_f64();
        let verdict = if nodes == expected {
            "ok"
        } else {
            "WRONG COUNT"
        };
        all_right &= nodes == expected;
        writeln!(
            out,
            "{name:<10} depth {depth}  {nodes:>11} nodes  {seconds:>7.3} s  {:>7.1} Mnps  table in \
             use {}  {verdict}",
            per_second(nodes, seconds) / 1e6,
            table_size(in_use_kb)
        )?;
    }
    Ok(all_right)
}

/// A table size for people: "none", "512 KiB", "64 MiB".
fn table_size(kilobytes: usize) -> String {
    match kilobytes {
        0 => "none".to_string(),
        kb if kb < 1024 => format!("{kb} KiB"),
        kb => format!("{} MiB", kb / 1024),
    }
}

/// Run the playout benchmark: `games` random games from the start position under the `claims`
/// rules on one thread (the loop of `shannon random-games`), then games and plies per second and
/// how the games ended.
pub fn run_playout_bench(games: u32, seed: u64, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "playout benchmark: {games} random games from the start position, claims rules, one \
         thread, seed {seed}"
    )?;
    let experiment = Experiment {
        seed,
        games: u64::from(games),
        start: Start::Standard,
        rules: RuleSet::CLAIMS,
        shard: Shard::WHOLE,
    };
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        threads: 1,
        checkpoint: None,
        checkpoint_every: Duration::from_secs(3600),
        progress: &|_, _| {},
        stop: &stop,
    };
    let result = experiment::run(&experiment, &options).map_err(io::Error::other)?;
    let (plies, seconds) = (result.tally.plies(), result.seconds);
    writeln!(
        out,
        "{games} games, {plies} plies in {seconds:.3} s: {:.0} games/s, {:.2} M plies/s",
        per_second(u64::from(games), seconds),
        per_second(plies, seconds) / 1e6
    )?;
    let counts = result.tally.counts();
    let mut endings: Vec<(u64, &str)> = Category::ALL
        .iter()
        .map(|c| (counts[c.index()], c.name()))
        .filter(|&(n, _)| n > 0)
        .collect();
    endings.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
    for (count, name) in endings {
        writeln!(out, "  {count:>8}  {name}")?;
    }
    Ok(())
}

/// One match of Shannon against Shannon for a runner figure: the report, timed by the runner.
fn runner_match(
    config: &shannon::client::Config,
    games: u32,
    concurrency: usize,
    time_control: shannon::client::TimeControl,
) -> io::Result<shannon::arena::MatchReport> {
    use shannon::arena::{run_match, MatchRequest, OpeningSource};
    let request = MatchRequest {
        games: Some(games),
        concurrency: Some(concurrency),
        time_control: Some(time_control),
        openings: Some(OpeningSource::Startpos.into()),
        pgn: Some(None),
        seed: Some(1),
        ..MatchRequest::default()
    };
    run_match(config, &request, &mut ()).map_err(|e| io::Error::other(e.to_string()))
}

/// The match runner's own overhead: Shannon against Shannon (the built-in engines.toml) at
/// `nodes=1`, so the engines answer at once and the time is the runner's: process pipes, move
/// validation, clocks, PGN. Prints games and plies per minute.
pub fn run_match_bench(games: u32, concurrency: usize, out: &mut impl Write) -> io::Result<()> {
    use shannon::client::TimeControl;
    use shannon::client::{Config, DEFAULT_ENGINES_TOML};
    let config = Config::parse(DEFAULT_ENGINES_TOML, "built-in engines.toml")
        .expect("the built-in engines.toml parses");
    let report = runner_match(&config, games, concurrency, TimeControl::nodes(1))?;
    writeln!(
        out,
        "match runner: {} games of Shannon vs Shannon at nodes=1, concurrency {concurrency}: \
         {:.1} s, {:.0} games per minute, {:.0} plies per second, {} failures",
        report.games(),
        report.seconds,
        60.0 * f64::from(report.games()) / report.seconds.max(1e-9),
        per_second(report.standings.plies, report.seconds),
        report.standings.failures
    )?;
    match report.latency {
        Some(latency) => writeln!(
            out,
            "runner latency per move (time measured from go to bestmove, less the engine's own \
             info time): median {:.3} ms, 99th percentile {:.3} ms",
            latency.median.as_secs_f64() * 1e3,
            latency.p99.as_secs_f64() * 1e3
        ),
        None => writeln!(out, "runner latency: the engines reported no search time"),
    }
}

/// The runner over xboard beside UCI and beside cutechess-cli: Shannon against Shannon without a
/// clock (`tc=inf`: the engines answer at once, so the time is the runner's), one game at a
/// time, from the start position, each the same number of games; plies per second of each,
/// and the ratios. cutechess-cli (proto=xboard) runs when it is on PATH, else its line says why.
pub fn run_xboard_bench(games: u32, out: &mut impl Write) -> io::Result<()> {
    use shannon::client::Config;
    use shannon::client::TimeControl;
    let engines = |protocol: &str| {
        format!(
            "[[engine]]\nname = \"a\"\ncommand = \"self\"\nprotocol = \"{protocol}\"\n\n\
             [[engine]]\nname = \"b\"\ncommand = \"self\"\nprotocol = \"{protocol}\"\n"
        )
    };
    let mut figures = Vec::new();
    for protocol in ["xboard", "uci"] {
        let config = Config::parse(&engines(protocol), "the benchmark's engines")
            .map_err(|e| io::Error::other(e.to_string()))?;
        let report = runner_match(&config, games, 1, TimeControl::INFINITE)?;
        let rate = per_second(report.standings.plies, report.seconds);
        writeln!(
            out,
            "shannon match, {protocol:<6}: {} games, {} plies in {:.2} s: {rate:.0} plies per \
             second, {} failures",
            report.games(),
            report.standings.plies,
            report.seconds,
            report.standings.failures
        )?;
        figures.push(rate);
    }
    writeln!(
        out,
        "xboard / uci: {:.2}",
        figures[0] / figures[1].max(1e-9)
    )?;
    match cutechess_cli(games)? {
        Ok((plies, seconds)) => {
            let rate = per_second(plies, seconds);
            writeln!(
                out,
                "cutechess-cli, xboard: {games} games, {plies} plies in {seconds:.2} s: {rate:.0} \
                 plies per second; shannon match over xboard: {:.2} times that",
                figures[0] / rate.max(1e-9)
            )
        }
        Err(why) => writeln!(out, "cutechess-cli, xboard: skipped: {why}"),
    }
}

/// cutechess-cli (from PATH) playing the same match over xboard: (plies, seconds), or why it
/// did not run.
fn cutechess_cli(games: u32) -> io::Result<Result<(u64, f64), String>> {
    use shannon::client::EngineConfig;
    use shannon::notation::pgn::read_games;
    let Ok(program) = EngineConfig::from_command("cutechess-cli").resolve_command() else {
        return Ok(Err("cutechess-cli is not on PATH".into()));
    };
    let exe = std::env::current_exe()?;
    let pgn = std::env::temp_dir().join(format!("shannon-bench-xboard-{}.pgn", std::process::id()));
    let engine = |name: &str| {
        [
            "-engine".to_string(),
            format!("cmd={}", exe.display()),
            format!("name={name}"),
            "proto=xboard".to_string(),
        ]
    };
    let started = std::time::Instant::now();
    let status = std::process::Command::new(&program)
        .args(engine("a"))
        .args(engine("b"))
        .args([
            "-each",
            "tc=inf",
            "-games",
            &games.to_string(),
            "-repeat",
            "-srand",
            "1",
        ])
        .args(["-concurrency", "1", "-pgnout"])
        .arg(&pgn)
        .stdout(std::process::Stdio::null())
        .status()?;
    let seconds = started.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&pgn);
    let _ = std::fs::remove_file(&pgn);
    if !status.success() {
        return Ok(Err(format!("{} exited with {status}", program.display())));
    }
    let plies = read_games(&text?)
        .into_iter()
        .filter_map(Result::ok)
        .map(|game| game.record.moves.len() as u64)
        .sum();
    Ok(Ok((plies, seconds)))
}

/// `shannon bench`'s figures.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Perft speed: start position depth 6 and Kiwipete depth 5, bulk counting.
    ///
    /// Example: shannon bench perft --threads 1
    Perft {
        /// Worker threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB (0: none).
        #[arg(long, default_value_t = 0)]
        hash: usize,
        /// Which move generator to time.
        #[arg(long, value_parser = generator_parser(), default_value = "bitboard")]
        generator: Generator,
    },
    /// Random games under all the rules: games and plies per second.
    ///
    /// Example: shannon bench playout --games 10000 --seed 1
    Playout {
        /// Number of games (at least 1).
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Seed of the random moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// One engine process answering N position + go requests; its memory must stay flat.
    ///
    /// Example: shannon bench soak --requests 100000
    Soak {
        /// Number of requests (at least 1).
        #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        requests: u64,
    },
    /// The match runner's overhead: Shannon vs Shannon at nodes=1, games per minute.
    ///
    /// Example: shannon bench match --games 400 --concurrency 2
    Match {
        /// Number of games.
        #[arg(long, default_value_t = 400)]
        games: u32,
        /// Games at once.
        #[arg(long, default_value_t = 2)]
        concurrency: usize,
    },
    /// The match runner over xboard: Shannon vs Shannon over CECP, over UCI, and through
    /// cutechess-cli (proto=xboard) when it is on PATH, without a clock; plies per second.
    ///
    /// Example: shannon bench xboard --games 200
    Xboard {
        /// Games of each match.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
    },
    /// Syzygy WDL probes per second, ours and python-chess's on the same random positions (of
    /// every table in the folders), with the number of values on which they differ (exit
    /// status 1 if any). python-chess is skipped, with the reason, when it is missing.
    ///
    /// Example: shannon bench tablebase --tb syzygy --positions 20000
    Tablebase {
        #[command(flatten)]
        folders: Folders,
        /// Positions to probe, shared out over the tables.
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
        positions: u64,
        /// Seed of the random positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The UCI engine over a pipe: start-up to uciok, and position + go round trips for games
    /// of 0, 100 and 5,000 plies.
    ///
    /// Example: shannon bench uci --rounds 200
    Uci {
        /// Timed rounds per figure (medians are printed; at least 1).
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
        rounds: u64,
    },
}

/// Run one `shannon bench` figure.
pub fn run(command: Command, out: &mut impl Write) -> Result<bool, CliError> {
    match command {
        Command::Perft {
            threads,
            hash,
            generator,
        } => {
            let options = PerftOptions {
                generator,
                threads,
                hash_mb: hash,
            };
            run_perft_bench(&options, out)
        }
        Command::Playout { games, seed } => run_playout_bench(games, seed, out).map(|()| true),
        Command::Match { games, concurrency } => {
            run_match_bench(games, concurrency, out).map(|()| true)
        }
        Command::Xboard { games } => run_xboard_bench(games, out).map(|()| true),
        Command::Soak { requests } => std::env::current_exe()
            .and_then(|engine| bench_uci::run_soak(&engine, requests, out))
            .map(|()| true),
        Command::Tablebase {
            folders,
            positions,
            seed,
        } => {
            let tables = folders.open()?;
            bench_tablebase::run_tablebase_bench(
                &tables,
                folders.as_os_str(),
                positions as usize,
                seed,
                out,
            )
        }
        Command::Uci { rounds } => std::env::current_exe()
            .and_then(|engine| bench_uci::run_uci_bench(&engine, rounds as usize, out))
            .map(|()| true),
    }
    .map_err(CliError::new)
}
