//! The command line: one file per subcommand, each with its `clap` arguments and a `run` that
//! writes its report to a given output (so tests and benchmarks can capture what a user sees).
//! The library underneath knows nothing of clap, progress bars or signals.

mod audit;
mod bench;
mod bench_tablebase;
mod bench_uci;
mod chess960;
mod codec_fit;
mod codec_report;
mod codec_report_plot;
mod compat;
mod decode;
mod encode;
mod exact;
mod exact_plot;
pub mod generate;
mod r#match;
mod merge;
mod pack;
mod perft;
mod perft_check;
mod perft_suite;
pub mod prelude;
mod random_games;
mod random_games_plot;
mod report;
mod shard;
mod show;
mod signals;
mod tablebase;
mod unpack;

use clap::{CommandFactory, Parser, Subcommand};
pub use prelude::CliError;
use std::io::Write;

/// Shannon: a UCI chess engine that plays a uniformly random legal move, and a toolkit around
/// its reference-grade rules core.
///
/// With no subcommand it speaks UCI on stdin/stdout (load it in a GUI).
#[derive(Parser)]
#[command(version, about, long_about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// The subcommand; none runs the UCI engine.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Print the man page or a shell's completion script, made from these definitions.
    ///
    /// Example: shannon --generate man > shannon.1; shannon --generate complete-bash > shannon.bash
    #[arg(long, value_enum, value_name = "WHAT", exclusive = true)]
    pub generate: Option<generate::Generate>,
}

/// The subcommands, in the order `--help` lists them.
#[derive(Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree to DEPTH.
    ///
    /// Example: shannon perft 5 --divide --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    Perft(perft::Args),
    /// The exact probability that a uniformly random game ends in checkmate or stalemate at
    /// each ply, with the number of such games (OEIS A079485 for checkmate).
    ///
    /// What it costs, measured on 2 cores of a Zen 3 EPYC (docs/random-games-exact.md): ply 8
    /// about a minute of CPU with the default --hash; ply 9 about 9 minutes (--hash 8192, 4 GB
    /// resident); ply 10 47 minutes on both cores, 5,647 s of CPU, with --hash 16384 (16.8 GB
    /// resident); each ply 10 to 13 times the one before, so plies 11 and 12 are a cluster's
    /// work (--split with a Slurm job array).
    ///
    /// Example: shannon exact --plies 5
    Exact(exact::Args),
    /// Check every count of a perft suite file (EPD `FEN ;D1 n ;D2 n` or `.perft` blocks).
    ///
    /// Example: shannon perft-suite tests/data/perft/standard.epd --max-nodes 1000000
    PerftSuite(perft_suite::Args),
    /// Play a match between two engines of engines.toml, or a tournament of more, with our rules
    /// as the arbiter.
    ///
    /// Also reads cutechess-cli's and fastchess's command lines as they are, engines included
    /// (shannon match -engine cmd=A -engine cmd=B -each tc=10+0.1 -rounds 100 -repeat; shannon
    /// match -help lists the options read).
    ///
    /// Example: shannon match --games 20 --tc 10+0.1 --openings chess960 --pgn games.pgn
    Match(Box<r#match::Args>),
    /// Check an engine's `go perft` against ours, down to the first disagreement.
    ///
    /// Example: shannon perft-check --engine stockfish --epd tests/data/perft/standard.epd --depth 3
    PerftCheck(perft_check::Args),
    /// Audit a UCI engine of engines.toml: the protocol as GUIs use it and, when it answers
    /// `go perft`, its move generator against ours. Exit status 1 when a check fails.
    ///
    /// Example: shannon audit --engine stockfish --quick --json audit.json
    Audit(audit::Args),
    /// Pack the games of a PGN file (stdin) into a compact binary file (stdout).
    ///
    /// Kept: start position, Chess960, moves, result, every tag and the main line's comments
    /// (variations and NAGs are dropped); with --moves-only the first four alone. A game that
    /// cannot be read is reported on stderr by number and left out (exit status 1). Codecs:
    /// squares (12 bits a move), index (ceil(log2 n) bits), arith (log2 n with the uniform
    /// model; arith-m1, arith-m2, arith-m3, the default, arith-m4, m3 made faster, arith-m5,
    /// faster still, and arith-m6, m5 with the exchange of captures, weigh the moves by a fitted
    /// move model: about 3.3 bits a move on lichess games with m2, under 3 with m3, m4 and m6,
    /// about 3.08 with m5).
    ///
    /// Example: shannon pack --codec arith --model m2 < tests/data/pgn/lichess_2013-01_5000.pgn > games.bin
    Pack(pack::Args),
    /// Unpack a file written by `shannon pack` (stdin) to PGN (stdout).
    ///
    /// The games get the tags and comments the file kept (the Seven Tag Roster with `?` for a
    /// roster tag it does not have), plus FEN/SetUp when needed. A game that does not decode, or
    /// a block of games whose checksum fails, is reported on stderr and skipped (exit status 1).
    /// Unpack to another file than the PGN you packed, or it is written over.
    ///
    /// Example: shannon unpack < tests/data/packed/first20-m2-v3.shgm > unpacked.pgn
    Unpack(unpack::Args),
    /// Bits per position and per move, and speeds, of the codecs over a PGN file.
    ///
    /// Example: shannon codec-report tests/data/pgn/lichess_2013-01_5000.pgn
    CodecReport(codec_report::Args),
    /// Fit the move models of the arith codec on the first games of a PGN file, measure them on
    /// the rest (one feature group added per step), and optionally write them as source.
    ///
    /// The shipped models are `--final-only --write src/codec/game/model --overwrite` with the
    /// defaults (deterministic: the same weights every time).
    ///
    /// Example: shannon codec-fit tests/data/pgn/lichess_2013-01_5000.pgn --final-only --iterations 10
    CodecFit(codec_fit::Args),
    /// Chess960 start positions: by number, the numbers of a FEN, or a random one.
    ///
    /// Examples: shannon chess960 518; shannon chess960 --fen
    /// "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"; shannon chess960 --random --seed 7
    Chess960(chess960::Args),
    /// Print a position in a classic board format, or read one back.
    ///
    /// Formats: matrix, shannon, mailbox10x12, 0x88, bitboards, pieces, fen. Only fen holds the
    /// whole position: the others hold the pieces (shannon the side to move too), so reading one
    /// back takes the rest from --side, --castling, --ep, --halfmove and --fullmove (white to
    /// move, no castling rights, no en passant square, clocks 0 and 1 unless given).
    ///
    /// Example: shannon show --format matrix --fen "4k3/8/8/8/8/8/8/4K2R b K - 0 1" | shannon show
    /// --from matrix --side b --castling K
    Show(show::Args),
    /// Encode a complete position with a position codec: prints hex and the length in bits.
    ///
    /// Codecs: nibble, base13, varbase, huffman, huffman-games, pieces, delta, best.
    /// Example: shannon encode --codec huffman --fen "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    Encode(encode::Args),
    /// Decode a position codec's hex code: prints the FEN.
    ///
    /// Example: shannon decode --codec delta 020bfd8
    Decode(decode::Args),
    /// Play random games to their end and count how they ended (Shannon's experiment at scale).
    ///
    /// Example: shannon random-games --games 1e5 --seed 1950 --json run.json --plot lengths.svg
    RandomGames(random_games::Args),
    /// Merge the shards of one sharded run: random-games --json reports, or the state files of
    /// `shannon match --shard I/N`.
    ///
    /// Examples: shannon merge shard-*.json --json all.json;
    /// shannon merge games.shard-*.pgn.state.json --pgn merged.pgn
    Merge(merge::Args),
    /// Syzygy endgame tablebases (WDL tables, .rtbw): probe positions, check the tables.
    #[command(subcommand)]
    Tablebase(tablebase::Command),
    /// Print speed figures.
    #[command(subcommand)]
    Bench(bench::Command),
}

impl Command {
    /// Run the subcommand, its report on `out`: `Ok(true)` for success, `Ok(false)` for a run that
    /// completed but found a failure (exit status 1), `Err` for one that could not run (2).
    pub fn run(self, out: &mut impl Write) -> Result<bool, CliError> {
        match self {
            Command::Perft(args) => perft::run(args, out),
            Command::PerftSuite(args) => perft_suite::run(args, out),
            Command::Exact(args) => exact::run(args, out),
            Command::Match(args) => r#match::run(*args, out),
            Command::PerftCheck(args) => perft_check::run(args, out),
            Command::Audit(args) => audit::run(args, out),
            Command::Pack(args) => pack::run(args, out),
            Command::Unpack(args) => unpack::run(args, out),
            Command::CodecReport(args) => codec_report::run(args, out),
            Command::CodecFit(args) => codec_fit::run(args, out),
            Command::Chess960(args) => chess960::run(args, out),
            Command::Show(args) => show::run(args, out),
            Command::Encode(args) => encode::run(args, out),
            Command::Decode(args) => decode::run(args, out),
            Command::RandomGames(args) => random_games::run_command(args, out),
            Command::Merge(args) => merge::run(args, out),
            Command::Tablebase(command) => tablebase::run(command, out),
            Command::Bench(command) => bench::run(command, out),
        }
    }
}

/// The command line read by clap, or the process ends with clap's error (exit status 2), and,
/// when a `--fen` was given unquoted (its fields taken as arguments of their own), a hint to
/// quote it.
pub fn parse_or_exit(args: &[String]) -> Cli {
    let error = match Cli::try_parse_from(args) {
        Ok(cli) => return cli,
        Err(error) => error,
    };
    let hint = match error.kind() {
        clap::error::ErrorKind::UnknownArgument => unquoted_fen(args),
        _ => None,
    };
    let Some(fen) = hint else { error.exit() };
    let _ = error.print();
    prelude::say!("\nhint: a FEN is one argument with spaces in it: quote it, as --fen \"{fen}\"");
    std::process::exit(2)
}

/// The FEN of a `--fen` followed by its fields as separate words (`--fen 8/8/... w - - 0 1`),
/// joined, if the command line has one.
fn unquoted_fen(args: &[String]) -> Option<String> {
    let at = args.iter().position(|a| a == "--fen")?;
    let placement = args.get(at + 1).filter(|a| a.contains('/'))?;
    let fields: Vec<&str> = std::iter::once(placement.as_str())
        .chain(
            args[at + 2..]
                .iter()
                .take(5)
                .take_while(|a| !a.starts_with("--"))
                .map(String::as_str),
        )
        .collect();
    matches!(fields.get(1), Some(&("w" | "b"))).then(|| fields.join(" "))
}

/// `shannon match` followed by a cutechess-cli/fastchess command line (`-engine cmd=...`), which
/// clap does not read: run it, or `None` when `args` (the program's, from its name on) is not one.
pub fn run_compat_match(args: &[String], out: &mut impl Write) -> Option<Result<bool, CliError>> {
    let rest = args.get(2..)?;
    (args.get(1).map(String::as_str) == Some("match") && r#match::is_compat(rest))
        .then(|| r#match::run_compat(rest, out))
}

/// `shannon --generate WHAT`: the man page or a completion script of these definitions.
pub fn generate(what: generate::Generate, out: &mut impl Write) -> Result<bool, CliError> {
    generate::run(what, Cli::command(), out)
}
