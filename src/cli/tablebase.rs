//! `shannon tablebase`: Syzygy WDL tables from the command line. `probe` prints the value of
//! positions, `verify` reads and checks every table of the folders.

use super::prelude::CliError;
use shannon::tablebase::Tablebase;
use shannon::Position;
use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// The tablebase folders: `--tb DIR[:DIR...]`.
#[derive(clap::Args)]
pub struct Folders {
    /// The folders of the .rtbw files, separated as in PATH (':' on Unix, ';' on Windows).
    #[arg(long, value_name = "DIR[:DIR...]")]
    tb: OsString,
}

impl Folders {
    /// The folders as given.
    pub fn as_os_str(&self) -> &std::ffi::OsStr {
        &self.tb
    }

    /// Open the tables, or say why they cannot be.
    pub fn open(&self) -> Result<Tablebase, CliError> {
        let paths: Vec<PathBuf> = std::env::split_paths(&self.tb).collect();
        Tablebase::open(&paths).map_err(CliError::new)
    }
}

/// `shannon tablebase`'s subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// The value of positions for the side to move: one line `FEN<TAB>wdl` per position, wdl
    /// one of win, cursed-win, draw, blessed-loss, loss (cursed and blessed: decided by the
    /// fifty-move rule, counted from the position). The FENs come from the command line, else
    /// one per line from stdin. A position that cannot be probed (castling rights, more pieces
    /// than the tables, a missing or damaged table, a bad FEN) is reported on stderr and the
    /// others are still printed; the exit status is then 1.
    ///
    /// Example: shannon tablebase probe --tb syzygy "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"
    Probe(ProbeArgs),
    /// Read every table of the folders now and check it (its checksum, headers and block
    /// index), as a probe does the first time it needs a table: one line per table, exit
    /// status 1 when one is damaged.
    ///
    /// Example: shannon tablebase verify --tb syzygy
    Verify(Folders),
}

/// `shannon tablebase probe`'s arguments.
#[derive(clap::Args)]
pub struct ProbeArgs {
    #[command(flatten)]
    folders: Folders,
    /// Positions (FEN); none: one per line from stdin.
    fens: Vec<String>,
}

/// Run a `shannon tablebase` subcommand.
pub fn run(command: Command, out: &mut impl Write) -> Result<bool, CliError> {
    match command {
        Command::Probe(args) => probe(args, out),
        Command::Verify(folders) => verify(&folders, out),
    }
}

fn probe(args: ProbeArgs, out: &mut impl Write) -> Result<bool, CliError> {
    let tables = args.folders.open()?;
    let mut all_right = true;
    let mut one = |place: &str, fen: &str, out: &mut dyn Write| -> Result<(), CliError> {
        match probe_one(&tables, fen) {
            Ok(wdl) => writeln!(out, "{fen}\t{wdl}")?,
            Err(why) => {
                all_right = false;
                eprintln!("shannon: {place}: '{fen}': {why}");
            }
        }
        Ok(())
    };
    if args.fens.is_empty() {
        for (n, line) in std::io::stdin().lock().lines().enumerate() {
            let line = line.map_err(|e| CliError::new(format!("cannot read stdin: {e}")))?;
            let fen = line.trim();
            if !fen.is_empty() {
                one(&format!("line {}", n + 1), fen, out)?;
            }
        }
    } else {
        for (n, fen) in args.fens.iter().enumerate() {
            one(&format!("position {}", n + 1), fen.trim(), out)?;
        }
    }
    Ok(all_right)
}

/// The value of one FEN, or why there is none. Castling rights the placement cannot have are
/// dropped with a warning, as `perft --fen` does.
fn probe_one(tables: &Tablebase, fen: &str) -> Result<shannon::tablebase::Wdl, String> {
    let (pos, warnings) = Position::from_fen_lenient(fen).map_err(|e| e.to_string())?;
    for warning in warnings {
        eprintln!("warning: '{fen}': {warning}");
    }
    tables.probe_wdl(&pos).map_err(|e| e.to_string())
}

fn verify(folders: &Folders, out: &mut impl Write) -> Result<bool, CliError> {
    let tables = folders.open()?;
    let damaged = tables.verify();
    let count = tables.tables().count();
    for (path, _) in tables.tables() {
        match damaged.iter().find(|e| e.path == path) {
            Some(e) => writeln!(out, "damaged  {}: {}", path.display(), e.problem)?,
            None => writeln!(out, "ok       {}", path.display())?,
        }
    }
    writeln!(
        out,
        "{count} tables, {} damaged; the largest hold {} pieces",
        damaged.len(),
        tables.max_pieces()
    )?;
    Ok(damaged.is_empty())
}
