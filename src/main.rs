//! The `shannon` command: parses the command line and dispatches into the library.

use clap::{ArgGroup, Parser, Subcommand, ValueEnum};
use shannon::chess960::Numbering;
use shannon::codec::position::PositionCodec;
use shannon::codec::GameCodec;
use shannon::commands;
use shannon::movegen::Generator;
use shannon::notation::boards::{BoardFormat, SideFlags};
use shannon::perft::PerftOptions;
use shannon::Color;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Shannon: a UCI chess engine that plays a uniformly random legal move, and a toolkit around
/// its reference-grade rules core.
///
/// With no subcommand it speaks UCI on stdin/stdout (load it in a GUI).
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Clone, Copy, ValueEnum)]
enum GeneratorArg {
    /// The fast legal generator on bitboards.
    Bitboard,
    /// The 0x88 mailbox reference generator.
    #[value(name = "0x88")]
    Mailbox,
}

impl From<GeneratorArg> for Generator {
    fn from(arg: GeneratorArg) -> Generator {
        match arg {
            GeneratorArg::Bitboard => Generator::Bitboard,
            GeneratorArg::Mailbox => Generator::Mailbox0x88,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum NumberingArg {
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

fn parse_side(text: &str) -> Result<Color, String> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        _ => Err(format!("'{text}': expected w or b")),
    }
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree to DEPTH.
    ///
    /// Example: shannon perft 5 --divide --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    Perft {
        /// Depth in plies.
        depth: u32,
        /// The position (FEN, X-FEN or Shredder-FEN); the start position when absent.
        #[arg(long)]
        fen: Option<String>,
        /// Print castling moves as king-takes-rook (e1h1), as Chess960 GUIs expect.
        #[arg(long)]
        chess960: bool,
        /// Print the count below each root move, Stockfish style (e2e4: 20).
        #[arg(long)]
        divide: bool,
        /// Which move generator counts.
        #[arg(long, value_enum, default_value = "bitboard")]
        generator: GeneratorArg,
        /// Worker threads (root moves are shared out).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB (0: none); counts do not change.
        #[arg(long, default_value_t = 0)]
        hash: usize,
    },
    /// Check every count of a perft suite file (EPD `FEN ;D1 n ;D2 n` or `.perft` blocks).
    ///
    /// Example: shannon perft-suite tests/data/perft/standard.epd --max-nodes 1000000
    PerftSuite {
        /// The suite file.
        file: String,
        /// Skip depths above this.
        #[arg(long, default_value_t = u32::MAX)]
        max_depth: u32,
        /// Skip counts above this many nodes.
        #[arg(long, default_value_t = u64::MAX)]
        max_nodes: u64,
        /// Which move generator to check.
        #[arg(long, value_enum, default_value = "bitboard")]
        generator: GeneratorArg,
        /// Treat every entry as Chess960 (castling rights are read by rook file either way).
        #[arg(long)]
        chess960: bool,
    },
    /// Play a match between two engines of engines.toml, with our rules as the arbiter.
    ///
    /// Example: shannon match --games 20 --tc 10+0.1 --openings chess960 --pgn games.pgn
    Match {
        /// The engines file (default: ./engines.toml, else the built-in one).
        #[arg(long)]
        config: Option<PathBuf>,
        /// The two engines, by name: A,B (default: the file's [match] engines).
        #[arg(long)]
        engines: Option<String>,
        /// Number of games (each opening twice, colours swapped).
        #[arg(long)]
        games: Option<u32>,
        /// Games at once (0: one per core).
        #[arg(long)]
        concurrency: Option<usize>,
        /// Time control: 40/60+0.6, 10+0.1, 40/1:00+0.5 (minutes:seconds), inf, movetime=MS,
        /// nodes=N, depth=N.
        #[arg(long)]
        tc: Option<String>,
        /// startpos, chess960, or an .epd / .pgn file of openings.
        #[arg(long)]
        openings: Option<String>,
        /// Where to write the games ("-" for nowhere).
        #[arg(long)]
        pgn: Option<String>,
        /// Seed of the schedule: the openings, and the per-game Seed of engines that have that
        /// option and no Seed set in engines.toml.
        #[arg(long)]
        seed: Option<u64>,
        /// Stop early by a sequential test: elo0,elo1,alpha,beta (elo0 may be negative:
        /// --sprt -5,5,0.05,0.05).
        #[arg(long, allow_hyphen_values = true)]
        sprt: Option<String>,
        /// Adjudicate a draw after this many plies.
        #[arg(long)]
        max_plies: Option<u32>,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Check an engine's `go perft` against ours, down to the first disagreement.
    ///
    /// Example: shannon perft-check --engine stockfish --epd tests/data/perft/standard.epd --depth 3
    PerftCheck {
        /// The engine, by name in engines.toml.
        #[arg(long)]
        engine: String,
        /// The engines file (default: ./engines.toml, else the built-in one).
        #[arg(long)]
        config: Option<PathBuf>,
        /// One position.
        #[arg(long, conflicts_with = "epd")]
        fen: Option<String>,
        /// A file of positions (EPD or .perft suite).
        #[arg(long)]
        epd: Option<String>,
        /// Depth to count (1 to 64, the deepest perft counted).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(shannon::perft::MAX_PERFT_DEPTH)))]
        depth: u32,
        /// Treat every position as Chess960 (sets UCI_Chess960).
        #[arg(long)]
        chess960: bool,
        /// How long one `go perft` may take, in seconds.
        #[arg(long, default_value_t = 600)]
        timeout: u64,
    },
    /// Pack the games of a PGN file (stdin) into a compact binary file (stdout).
    ///
    /// Kept: start position, Chess960, moves, result. Other tags, comments and variations are
    /// dropped. A game that cannot be read is reported on stderr by number and left out (exit
    /// status 1). Codecs: squares (12 bits a move), index (ceil(log2 n) bits), arith (log2 n).
    ///
    /// Example: shannon pack --codec arith < games.pgn > games.bin
    Pack {
        /// The game codec: squares, index or arith.
        #[arg(long, default_value = "arith")]
        codec: GameCodec,
    },
    /// Unpack a file written by `shannon pack` (stdin) to PGN (stdout).
    ///
    /// The games get the Seven Tag Roster with `?` for what was not kept, plus FEN/SetUp/Variant
    /// when needed. A game that does not decode is reported on stderr and skipped (exit status 1).
    ///
    /// Example: shannon unpack < games.bin > games.pgn
    Unpack {
        /// Check that the file was packed with this codec (the file names its codec).
        #[arg(long)]
        codec: Option<GameCodec>,
    },
    /// Bits per position and per move, and speeds, of the codecs over a PGN file.
    ///
    /// Example: shannon codec-report tests/data/pgn/lichess_2013-01_5000.pgn
    CodecReport {
        /// The PGN file.
        file: String,
    },
    /// Chess960 start positions: by number, the numbers of a FEN, or a random one.
    ///
    /// Example: shannon chess960 518; shannon chess960 --fen "..."; shannon chess960 --random --seed 7
    #[command(group(ArgGroup::new("what").required(true).args(["number", "fen", "random"])))]
    Chess960 {
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
    },
    /// Print a position in a classic board format, or read one back.
    ///
    /// Formats: matrix, shannon, mailbox10x12, 0x88, bitboards, pieces, fen.
    /// Example: shannon show --format matrix --fen "..." | shannon show --from matrix --side b
    Show {
        /// The format to print.
        #[arg(long, default_value = "fen")]
        format: BoardFormat,
        /// The position (start position when absent).
        #[arg(long, conflicts_with = "from")]
        fen: Option<String>,
        /// Read the position in this format (from --input, else stdin).
        #[arg(long)]
        from: Option<BoardFormat>,
        /// The file to read with --from.
        #[arg(long, requires = "from")]
        input: Option<String>,
        /// Side to move for formats without one (w or b; `shannon` has lambda).
        #[arg(long, value_parser = parse_side, default_value = "w")]
        side: Color,
        /// Castling rights for formats without them (KQkq, HAha, -).
        #[arg(long, default_value = "-")]
        castling: String,
        /// En passant square for formats without one (e3, -).
        #[arg(long, default_value = "-")]
        ep: String,
        /// Halfmove clock for formats without one.
        #[arg(long, default_value_t = 0)]
        halfmove: u32,
        /// Fullmove number for formats without one.
        #[arg(long, default_value_t = 1)]
        fullmove: u32,
    },
    /// Encode a complete position with a position codec: prints hex and the length in bits.
    ///
    /// Codecs: nibble, base13, varbase, huffman, huffman-games, pieces, delta, best.
    /// Example: shannon encode --codec huffman --fen "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    Encode {
        /// The codec.
        #[arg(long)]
        codec: PositionCodec,
        /// The position (start position when absent).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Decode a position codec's hex code: prints the FEN.
    ///
    /// Example: shannon decode --codec delta 020bfd8
    Decode {
        /// The codec.
        #[arg(long)]
        codec: PositionCodec,
        /// The code, as `shannon encode` prints it.
        hex: String,
    },
    /// Print speed figures.
    #[command(subcommand)]
    Bench(BenchCommand),
}

#[derive(Subcommand)]
enum BenchCommand {
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
        #[arg(long, value_enum, default_value = "bitboard")]
        generator: GeneratorArg,
    },
    /// Random games under all the rules: games and plies per second.
    ///
    /// Example: shannon bench playout --games 10000 --seed 1
    Playout {
        /// Number of games.
        #[arg(long, default_value_t = 10_000)]
        games: u32,
        /// Seed of the random moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// One engine process answering N position + go requests; its memory must stay flat.
    ///
    /// Example: shannon bench soak --requests 1000000
    Soak {
        /// Number of requests.
        #[arg(long, default_value_t = 1_000_000)]
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
    /// The UCI engine over a pipe: start-up to uciok, and position + go round trips for games
    /// of 0, 100 and 5,000 plies.
    ///
    /// Example: shannon bench uci --rounds 200
    Uci {
        /// Timed rounds per figure (medians are printed).
        #[arg(long, default_value_t = 200)]
        rounds: usize,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        shannon::uci::run_stdio();
        return ExitCode::SUCCESS;
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result: Result<bool, Box<dyn std::error::Error>> = match command {
        Command::Match {
            config,
            engines,
            games,
            concurrency,
            tc,
            openings,
            pgn,
            seed,
            sprt,
            max_plies,
            quiet,
        } => {
            // Installed here, not in the library, because a process has one set of signal
            // handlers and only this command wants them.
            let interrupt = match commands::arena::interrupt_on_signals() {
                Ok(flag) => flag,
                Err(e) => {
                    eprintln!("shannon: {e}");
                    return ExitCode::from(2);
                }
            };
            let request = commands::arena::MatchRequest {
                config,
                engines,
                games,
                concurrency,
                tc,
                openings,
                pgn,
                seed,
                sprt,
                max_plies,
                quiet,
                interrupt: Some(interrupt),
            };
            commands::arena::run_match(&request, &mut out).map_err(Into::into)
        }
        Command::PerftCheck {
            engine,
            config,
            fen,
            epd,
            depth,
            chess960,
            timeout,
        } => {
            let request = commands::arena::PerftCheckRequest {
                config,
                engine,
                fen,
                epd,
                depth,
                chess960,
                timeout: std::time::Duration::from_secs(timeout),
            };
            commands::arena::run_perft_check_command(&request, &mut out).map_err(Into::into)
        }
        Command::Perft {
            depth,
            fen,
            chess960,
            divide,
            generator,
            threads,
            hash,
        } => {
            let request = commands::perft::PerftRequest {
                depth,
                fen,
                chess960,
                divide,
                options: PerftOptions {
                    generator: generator.into(),
                    threads,
                    hash_mb: hash,
                },
            };
            commands::perft::run_perft(&request, &mut out)
                .map(|_| true)
                .map_err(Into::into)
        }
        Command::PerftSuite {
            file,
            max_depth,
            max_nodes,
            generator,
            chess960,
        } => {
            let request = commands::perft::SuiteRequest {
                path: file,
                max_depth,
                max_nodes,
                generator: generator.into(),
                chess960,
            };
            commands::perft::run_suite(&request, &mut out).map_err(Into::into)
        }
        Command::Pack { codec } => commands::pack::run_pack(
            codec,
            &mut std::io::stdin().lock(),
            &mut out,
            &mut std::io::stderr().lock(),
        )
        .map_err(Into::into),
        Command::Unpack { codec } => commands::pack::run_unpack(
            codec,
            &mut std::io::stdin().lock(),
            &mut out,
            &mut std::io::stderr().lock(),
        )
        .map_err(Into::into),
        Command::CodecReport { file } => {
            commands::codec_report::run_codec_report(&file, &mut out, &mut std::io::stderr().lock())
                .map_err(Into::into)
        }
        Command::Chess960 {
            number,
            numbering,
            fen,
            random,
            seed,
        } => {
            let request = match (number, fen) {
                (Some(n), _) => commands::chess960::Chess960Request::Number(n, numbering.into()),
                (None, Some(fen)) => commands::chess960::Chess960Request::Fen(fen),
                (None, None) => {
                    commands::chess960::Chess960Request::Random(seed.filter(|_| random))
                }
            };
            commands::chess960::run_chess960(&request, &mut out).map_err(Into::into)
        }
        Command::Show {
            format,
            fen,
            from,
            input,
            side,
            castling,
            ep,
            halfmove,
            fullmove,
        } => {
            let request = commands::boards::ShowRequest {
                format,
                fen,
                from,
                input,
                flags: SideFlags {
                    side,
                    castling,
                    en_passant: ep,
                    halfmove_clock: halfmove,
                    fullmove_number: fullmove,
                },
            };
            commands::boards::run_show(&request, &mut out)
                .map(|()| true)
                .map_err(Into::into)
        }
        Command::Encode { codec, fen } => {
            commands::codec::run_encode(codec, fen.as_deref(), &mut out)
                .map(|()| true)
                .map_err(Into::into)
        }
        Command::Decode { codec, hex } => commands::codec::run_decode(codec, &hex, &mut out)
            .map(|()| true)
            .map_err(Into::into),
        Command::Bench(BenchCommand::Perft {
            threads,
            hash,
            generator,
        }) => {
            let options = PerftOptions {
                generator: generator.into(),
                threads,
                hash_mb: hash,
            };
            commands::bench::run_perft_bench(&options, &mut out).map_err(Into::into)
        }
        Command::Bench(BenchCommand::Playout { games, seed }) => {
            commands::bench::run_playout_bench(games, seed, &mut out)
                .map(|()| true)
                .map_err(Into::into)
        }
        Command::Bench(BenchCommand::Match { games, concurrency }) => {
            commands::bench::run_match_bench(games, concurrency, &mut out)
                .map(|()| true)
                .map_err(Into::into)
        }
        Command::Bench(BenchCommand::Soak { requests }) => std::env::current_exe()
            .and_then(|engine| commands::bench_uci::run_soak(&engine, requests, &mut out))
            .map(|()| true)
            .map_err(Into::into),
        Command::Bench(BenchCommand::Uci { rounds }) => std::env::current_exe()
            .and_then(|engine| commands::bench_uci::run_uci_bench(&engine, rounds, &mut out))
            .map(|()| true)
            .map_err(Into::into),
    };
    let _ = out.flush();
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("shannon: {e}");
            ExitCode::from(2)
        }
    }
}
