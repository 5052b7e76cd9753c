//! `shannon codec-fit FILE.pgn`: fits the move models of the `arith` codec on the first games of
//! a PGN file and measures them on the rest, one feature group added per step; with `--write
//! DIR`, writes the last two steps as model sources (`m1.rs` without the book, `m2.rs` and
//! `m2_book.bin` with it). With `--model m3`, the network model: its steps (each new group, then
//! the network's sizes), and with `--write DIR` the model `m3.bin` and its source `m3.rs`.

use super::prelude::{say, CliError, Overwrite};
use shannon::codec::game::model::book::Book;
use shannon::codec::game::model::features::Group;
use shannon::codec::game::model::fit::{self, FitOptions, Samples};
use shannon::codec::game::model::net::{self, file::AnyNet};
use shannon::codec::game::model::Model;
use shannon::game::GameRecord;
use shannon::notation::pgn::{pgn_text, read_games};
use std::io::Write;
use std::path::PathBuf;

/// `shannon codec-fit`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The PGN file.
    file: PathBuf,
    /// Fit on the first N games; measure on the games after them (the file must hold more).
    #[arg(long, default_value_t = 2500,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    fit_games: usize,
    /// Full passes of the optimiser per step.
    #[arg(long, default_value_t = FitOptions::default().iterations)]
    iterations: usize,
    /// Fit only the last two steps (the shipped models), not every step.
    #[arg(long)]
    final_only: bool,
    /// Write the models' sources into this folder (src/codec/game/model, with --overwrite, to
    /// release them).
    #[arg(long)]
    write: Option<PathBuf>,
    /// Which models: m1 and m2 (the linear ones), or a network, m3 (every feature group), m4
    /// (the groups that earn their time), m5 (a fixed number of rows per move, for speed) or m6
    /// (m5's rows with the defences mended, the sole defenders and the exchange of captures).
    #[arg(long, default_value = "m2", value_parser = ["m2", "m3", "m4", "m5", "m6"])]
    model: String,
    /// m3-m6: lanes per row of the network (8, 16 or 32: 7, 15 or 31 hidden units; the
    /// model's own by default, 16 for each).
    #[arg(long)]
    lanes: Option<usize>,
    /// m3-m6: passes of the optimiser over the fitting games.
    #[arg(long, default_value_t = net::fit::FitOptions::default().epochs)]
    epochs: usize,
    /// m3, m4: leave these feature groups out (comma-separated names, as the step report
    /// prints them), to measure what each earns (m5 and m6 have slots, not groups).
    #[arg(long, value_delimiter = ',', value_parser = group_named)]
    without: Vec<net::features::Group>,
    #[command(flatten)]
    overwrite: Overwrite,
}

/// The files `--write` writes, in its folder.
const MODEL_FILES: [&str; 3] = ["m1.rs", "m2.rs", "m2_book.bin"];

/// A network feature group by its name.
fn group_named(name: &str) -> Result<net::features::Group, String> {
    let groups = net::features::Group::ALL;
    groups
        .into_iter()
        .find(|g| g.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = groups.iter().map(|g| g.name()).collect();
            format!("no feature group '{name}' (one of: {})", names.join(", "))
        })
}

/// The network model `--model` names, if it names one.
fn release(model: &str) -> Option<net::fit::Release> {
    [net::fit::M3, net::fit::M4, net::fit::M5, net::fit::M6]
        .into_iter()
        .find(|r| r.name == model)
}

/// Run `shannon codec-fit`.
pub fn run(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    // The folder is checked before minutes of fitting, not after.
    if let Some(dir) = &args.write {
        if !dir.is_dir() {
            return Err(CliError::new(format!(
                "--write {}: no such folder (the models are written into a folder that exists, \
                 src/codec/game/model to release them)",
                dir.display()
            )));
        }
        let net_files =
            release(&args.model).map(|r| [format!("{}.bin", r.name), format!("{}.rs", r.name)]);
        let names: Vec<&str> = match &net_files {
            Some(files) => files.iter().map(String::as_str).collect(),
            None => MODEL_FILES.to_vec(),
        };
        let files: Vec<(String, std::path::PathBuf)> = names
            .iter()
            .map(|name| (format!("--write {}:", dir.display()), dir.join(name)))
            .collect();
        args.overwrite.check(
            files
                .iter()
                .map(|(what, path)| (what.as_str(), Some(path.as_path()))),
        )?;
    }
    let bytes = std::fs::read(&args.file)
        .map_err(|e| CliError::new(format!("cannot read {}: {e}", args.file.display())))?;
    let (text, _) = pgn_text(&bytes);
    let read = read_games(&text);
    let unreadable = read.iter().filter(|g| g.is_err()).count();
    let games: Vec<GameRecord> = read
        .into_iter()
        .filter_map(Result::ok)
        .map(|g| g.record)
        .collect();
    if unreadable > 0 {
        say!(
            "shannon: warning: {}: {unreadable} games cannot be read and are left out",
            args.file.display()
        );
    }
    if games.len() <= args.fit_games {
        return Err(CliError::new(format!(
            "{} has {} readable games: fitting on the first {} leaves none to measure on \
             (give --fit-games a number below {})",
            args.file.display(),
            games.len(),
            args.fit_games,
            games.len()
        )));
    }
    let cut = args.fit_games;
    let (fitting, measured) = games.split_at(cut);
    writeln!(
        out,
        "fitting on games 1-{cut}, measuring on games {}-{} ({} moves)",
        cut + 1,
        games.len(),
        measured.iter().map(|g| g.moves.len()).sum::<usize>()
    )?;
    let book = Book::from_games(
        fitting
            .iter()
            .filter(|g| g.start == shannon::Position::startpos())
            .map(|g| g.moves.as_slice()),
    );
    writeln!(
        out,
        "book: {} sequences, {} bytes",
        book.len(),
        book.to_bytes().len()
    )?;
    if let Some(release) = release(&args.model) {
        return run_net(&args, release, fitting, measured, &book, cut, out);
    }
    writeln!(
        out,
        "{:<10} {:>12} {:>12}  groups",
        "step", "fit bits", "held bits"
    )?;
    let steps = Group::ALL.len();
    let first = if args.final_only { steps - 2 } else { 0 };
    let options = FitOptions {
        iterations: args.iterations,
        ..FitOptions::default()
    };
    let (end, result) = fit::end_and_result_odds(fitting);
    let mut fitted = Vec::new();
    for step in first..steps {
        let groups = Group::ALL[..=step].iter().fold(0, |a, g| a | g.bit());
        let with_book = groups & Group::Book.bit() != 0;
        let samples = Samples::new(fitting, groups, with_book.then_some(&book));
        let weights = fit::quantise(&fit::fit(&samples, options, |_, _| {}));
        let model = Model {
            groups,
            weights: &weights,
            book: with_book.then_some(&book),
            end: &end,
            result: &result,
        };
        let per_move = |games: &[GameRecord]| {
            let (bits, moves) = fit::move_bits(&model, games);
            bits / moves.max(1) as f64
        };
        writeln!(
            out,
            "{:<10} {:>12.3} {:>12.3}  {}",
            Group::ALL[step].name(),
            per_move(fitting),
            per_move(measured),
            fit::group_names(groups)
        )?;
        fitted.push((groups, weights));
    }
    if let Some(dir) = args.write {
        let models: Vec<Model> = fitted
            .iter()
            .map(|(groups, weights)| Model {
                groups: *groups,
                weights,
                book: Some(&book),
                end: &end,
                result: &result,
            })
            .collect();
        write_models(&dir, &models, &book, cut)
            .map_err(|e| CliError::new(format!("cannot write the models: {e}")))?;
    }
    Ok(true)
}

fn write_models(
    dir: &std::path::Path,
    models: &[Model],
    book: &Book,
    cut: usize,
) -> std::io::Result<()> {
    let [.., m1, m2] = models else {
        return Ok(());
    };
    let [m1_file, m2_file, book_file] = MODEL_FILES;
    let origin = format!("fitted on games 1-{cut} of tests/data/pgn/lichess_2013-01_5000.pgn");
    let m1_doc = format!("Move model 1: every feature group but the book, {origin}.");
    std::fs::write(dir.join(m1_file), fit::model_source(&m1_doc, m1, None))?;
    let m2_doc = format!("Move model 2: every feature group and the opening book, {origin}.");
    std::fs::write(
        dir.join(m2_file),
        fit::model_source(&m2_doc, m2, Some(book_file)),
    )?;
    std::fs::write(dir.join(book_file), book.to_bytes())
}

/// `--model m3`, `m4`, `m5` or `m6`: the network's steps (unless `--final-only`; m3's groups, so
/// not for m5 and m6), then the model, measured
/// exactly (integer coder) and written with `--write`.
fn run_net(
    args: &Args,
    release: net::fit::Release,
    fitting: &[GameRecord],
    measured: &[GameRecord],
    book: &Book,
    cut: usize,
    out: &mut impl Write,
) -> Result<bool, CliError> {
    let lanes = args.lanes.unwrap_or(release.lanes);
    let groups = args
        .without
        .iter()
        .fold(release.groups, |groups, g| groups & !g.bit());
    let options = net::fit::FitOptions {
        lanes,
        epochs: args.epochs,
        ..net::fit::FitOptions::default()
    };
    if release.layout != net::Layout::Groups && !args.without.is_empty() {
        return Err(CliError::new(format!(
            "--without: {} has no feature groups to leave out",
            release.name
        )));
    }
    if !args.final_only && release.layout == net::Layout::Groups {
        writeln!(
            out,
            "{:<12} {:>12} {:>12}  (f32, before rounding)",
            "step", "fit bits", "held bits"
        )?;
        for step in net::fit::steps() {
            let (fit_bits, held_bits) = net::fit::measure(step, fitting, measured, book, options);
            writeln!(
                out,
                "{:<12} {:>12.3} {:>12.3}",
                step.name, fit_bits, held_bits
            )?;
        }
    }
    let started = std::time::Instant::now();
    let model = net::fit::fit_model(fitting, book, release.layout, groups, options, |_, _| {})
        .map_err(|e| CliError::new(format!("cannot fit {}: {e}", release.name)))?;
    let seconds = started.elapsed().as_secs_f64();
    let bytes = match &model {
        AnyNet::W8(n) => net::file::write(n),
        AnyNet::W16(n) => net::file::write(n),
        AnyNet::W32(n) => net::file::write(n),
    };
    let per_move = |games: &[GameRecord]| {
        let (bits, moves) = match &model {
            AnyNet::W8(n) => fit::move_bits(n, games),
            AnyNet::W16(n) => fit::move_bits(n, games),
            AnyNet::W32(n) => fit::move_bits(n, games),
        };
        bits / moves.max(1) as f64
    };
    writeln!(
        out,
        "{} ({lanes} lanes, {} bytes, fitted in {seconds:.0} s): {:.3} bits/move on the fitting games, {:.3} on the others",
        release.name,
        bytes.len(),
        per_move(fitting),
        per_move(measured)
    )?;
    if let Some(dir) = &args.write {
        let origin = format!("fitted on games 1-{cut} of tests/data/pgn/lichess_2013-01_5000.pgn");
        let write = || -> std::io::Result<()> {
            std::fs::write(dir.join(format!("{}.bin", release.name)), &bytes)?;
            std::fs::write(
                dir.join(format!("{}.rs", release.name)),
                release.source(&origin, lanes, &bytes),
            )
        };
        write().map_err(|e| CliError::new(format!("cannot write the model: {e}")))?;
    }
    Ok(true)
}
