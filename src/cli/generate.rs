//! `shannon --generate man|complete-bash|complete-zsh|complete-fish`: the man page and the shell
//! completions, made from the same clap definitions that parse the command line (as ripgrep's
//! `rg --generate`), so they cannot drift from it.
//!
//! A flag of the top command, not a subcommand: the subcommands are the chess work, and the
//! flag is ripgrep's form, which packagers already script.

use super::prelude::CliError;
use std::io::{self, Write};

/// What `--generate` writes to standard output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Generate {
    /// The man page, shannon(1), every subcommand in it (`man -l -` reads it; install it as
    /// man1/shannon.1).
    Man,
    /// The bash completion script (source it, or install it as completions/shannon).
    CompleteBash,
    /// The zsh completion script (install it as _shannon in a folder of $fpath).
    CompleteZsh,
    /// The fish completion script (install it as completions/shannon.fish).
    CompleteFish,
}

/// Write what `what` names, made from `command` (the whole command line's clap definition), to `out`.
pub fn run(
    what: Generate,
    mut command: clap::Command,
    out: &mut impl Write,
) -> Result<bool, CliError> {
    command.build();
    let shell = match what {
        Generate::Man => {
            man_page(&command, out)?;
            return Ok(true);
        }
        Generate::CompleteBash => clap_complete::Shell::Bash,
        Generate::CompleteZsh => clap_complete::Shell::Zsh,
        Generate::CompleteFish => clap_complete::Shell::Fish,
    };
    // clap_complete writes straight to the output; a write error there would panic, so the
    // script is made in memory first.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "shannon", &mut script);
    out.write_all(&script)?;
    Ok(true)
}

/// One page: the top command's name, synopsis, description and options, the list of
/// subcommands, then a section for each subcommand (and each of `bench`'s) with its synopsis,
/// description and options, the headings of its own page one level down; then the engine's UCI
/// options, the files and the environment it reads.
///
/// The synopses and descriptions are ours, not clap_mangen's: its synopsis drops the values
/// (`[--fen]` for `[--fen FEN]`), and its description fills the `Example:` lines like prose, so
/// that a long command is stretched across the line. Options and the rest are clap_mangen's.
fn man_page(command: &clap::Command, out: &mut impl Write) -> Result<(), CliError> {
    let mut page = Vec::new();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    synopsis(command, "shannon", ".SH", &mut page)?;
    description(command, ".SH", &mut page)?;
    man.render_options_section(&mut page)?;
    let subcommands = subcommands(command, "shannon");
    writeln!(page, ".SH SUBCOMMANDS")?;
    for (title, sub) in &subcommands {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        writeln!(
            page,
            ".TP\n\\fB{}\\fR\n{}",
            roff_text(title),
            roff_text(&about)
        )?;
    }
    for (title, sub) in subcommands {
        writeln!(page, ".SH \"{}\"", roff_text(&title.to_uppercase()))?;
        synopsis(&sub, &title, ".SS", &mut page)?;
        description(&sub, ".SS", &mut page)?;
        let mut text = Vec::new();
        clap_mangen::Man::new(sub).render_options_section(&mut text)?;
        for line in String::from_utf8_lossy(&text).lines() {
            match line.strip_prefix(".SH ") {
                Some(heading) => writeln!(page, ".SS {heading}")?,
                None => writeln!(page, "{line}")?,
            }
        }
    }
    engine_options(&mut page)?;
    files_and_environment(&mut page)?;
    man.render_version_section(&mut page)?;
    out.write_all(&page)?;
    Ok(())
}

/// The synopsis under `heading` (`.SH` or `.SS`): the command's name, then each argument with
/// its value (`[--fen FEN]`, `[--threads N]`, `<DEPTH>`, `[FILES]...`), optional ones in
/// brackets, and the subcommand when it has some.
fn synopsis(
    command: &clap::Command,
    name: &str,
    heading: &str,
    page: &mut Vec<u8>,
) -> io::Result<()> {
    writeln!(page, "{heading} SYNOPSIS")?;
    let mut words = vec![format!("\\fB{}\\fR", roff_text(name))];
    for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
        let value = arg
            .get_value_names()
            .and_then(|names| names.first())
            .map_or_else(|| arg.get_id().as_str().to_uppercase(), |n| n.to_string());
        let takes = arg.get_action().takes_values();
        let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
        let word = match (arg.get_long(), arg.get_short()) {
            (None, None) => {
                let value = format!(
                    "\\fI{}\\fR{}",
                    roff_text(&value),
                    if many { "..." } else { "" }
                );
                match arg.is_required_set() {
                    true => value,
                    false => format!("[{value}]"),
                }
            }
            (long, short) => {
                let flag = match (long, short) {
                    (Some(long), Some(short)) => {
                        format!("\\fB\\-{short}\\fR|\\fB\\-\\-{}\\fR", roff_text(long))
                    }
                    (Some(long), None) => format!("\\fB\\-\\-{}\\fR", roff_text(long)),
                    (None, Some(short)) => format!("\\fB\\-{short}\\fR"),
                    (None, None) => unreachable!(),
                };
                let value = match (
                    takes,
                    arg.get_num_args().is_some_and(|n| n.min_values() == 0),
                ) {
                    (false, _) => String::new(),
                    (true, false) => format!(" \\fI{}\\fR", roff_text(&value)),
                    (true, true) => format!(" [\\fI{}\\fR]", roff_text(&value)),
                };
                match arg.is_required_set() {
                    true => format!("{flag}{value}"),
                    false => format!("[{flag}{value}]"),
                }
            }
        };
        words.push(word);
    }
    if command.has_subcommands() {
        words.push("[\\fICOMMAND\\fR]".to_string());
    }
    // Left-adjusted and unhyphenated, so that no word of it is stretched or split.
    writeln!(page, ".nh\n.ad l\n{}\n.ad b\n.hy", words.join(" "))
}

/// The command's long description under `heading`: its paragraphs filled, and every `Example:`
/// or `Examples:` line set as it is, one command a line (an `Examples:` list is split at `; `),
/// unfilled, so that a command is never stretched or hyphenated.
fn description(command: &clap::Command, heading: &str, page: &mut Vec<u8>) -> io::Result<()> {
    let Some(about) = command.get_long_about().or(command.get_about()) else {
        return Ok(());
    };
    writeln!(page, "{heading} DESCRIPTION")?;
    for paragraph in about.to_string().split("\n\n") {
        let paragraph = paragraph.trim();
        let example = ["Examples: ", "Example: "]
            .iter()
            .find_map(|marker| paragraph.find(marker).map(|at| (at, marker)));
        match example {
            Some((at, marker)) => {
                let (before, commands) = (&paragraph[..at], &paragraph[at + marker.len()..]);
                writeln!(page, ".PP")?;
                if !before.trim().is_empty() {
                    writeln!(page, "{}", roff_text(before.trim()))?;
                    writeln!(page, ".br")?;
                }
                writeln!(page, "{}\n.RS 4\n.nf", roff_text(marker.trim()))?;
                let joined = commands.split_whitespace().collect::<Vec<_>>().join(" ");
                for command in joined.split("; ") {
                    writeln!(page, "{}", roff_text(command))?;
                }
                writeln!(page, ".fi\n.RE")?;
            }
            None => writeln!(
                page,
                ".PP\n{}",
                roff_text(&paragraph.split_whitespace().collect::<Vec<_>>().join(" "))
            )?,
        }
    }
    Ok(())
}

/// ENGINE OPTIONS: what `shannon` with no subcommand declares at `uci`, from the engine's own
/// declarations.
fn engine_options(page: &mut Vec<u8>) -> io::Result<()> {
    writeln!(page, ".SH \"ENGINE OPTIONS\"")?;
    writeln!(
        page,
        ".PP\nWith no subcommand, \\fBshannon\\fR is a UCI engine on standard input and output \
         (the xboard protocol when the first command is \\fBxboard\\fR). Besides the UCI \
         commands it answers \\fBgo perft\\fR \\fIN\\fR and \\fBd\\fR, as Stockfish does. \
         Its options, as \\fBuci\\fR declares them:"
    )?;
    for (declaration, what) in shannon::uci::option_reference() {
        let shown = declaration
            .strip_prefix("option name ")
            .unwrap_or(&declaration);
        writeln!(page, ".TP\n{}\n{}", roff_text(shown), roff_text(what))?;
    }
    Ok(())
}

/// FILES and ENVIRONMENT.
fn files_and_environment(page: &mut Vec<u8>) -> io::Result<()> {
    let files: [(&str, &str); 4] = [
        (
            "engines.toml",
            "The engines by name ([[engine]]: name, command, args, dir, protocol, options, book, \
             stderr, init_timeout_ms) and the defaults of shannon match ([match]: engines, games, \
             concurrency, tc, openings, book_depth, pgn, seed, max_plies, time_margin_ms, \
             hang_timeout_ms). Read from the current directory, else --config FILE; else the copy \
             built into the binary, which ships two Shannons and commented examples.",
        ),
        (
            "match.pgn, match.pgn.state.json, match.pgn.forensics/",
            "What a match writes by default: its games, its state (shannon match --resume \
             continues it) and, when an engine forfeits, how its process ended and what it said \
             last.",
        ),
        (
            "engines.json",
            "Cute Chess's engines, for -engine conf=NAME and -engines (cutechess-cli's form): \
             the current directory's, else $XDG_CONFIG_HOME/cutechess/engines.json \
             (~/.config/cutechess/engines.json).",
        ),
        (
            "*.shgm",
            "Packed games (shannon pack and unpack): versioned, checksummed blocks; every older \
             version is still read.",
        ),
    ];
    terms(page, "FILES", &files)?;
    let environment: [(&str, &str); 7] = [
        (
            "RUST_LOG",
            "What is logged on standard error: warn (the default), info, debug or trace, also \
             per module (RUST_LOG=shannon::arena=debug). Standard output stays the protocol's.",
        ),
        (
            "SHANNON_PERFT_INSTRUCTIONS",
            "portable, bmi2 or bmi2+pext: the instruction set perft counts with, instead of the \
             fastest this CPU runs (to compare them, or to overrule the guess about PEXT).",
        ),
        (
            "SHANNON_CODEC_INSTRUCTIONS",
            "portable or avx2: the instruction set the network move models (m3-m6) are worked \
             out with, instead of the fastest this CPU runs (to compare them; both give the same \
             bits).",
        ),
        (
            "SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, SLURM_ARRAY_TASK_MIN",
            "In a Slurm job array, the shard a match, random-games or exact run plays when \
             --shard is not given.",
        ),
        (
            "JOB_COMPLETION_INDEX",
            "The same in a Kubernetes indexed job (with --shards N).",
        ),
        (
            "XDG_CONFIG_HOME, HOME",
            "Where Cute Chess's engines.json is looked for.",
        ),
        (
            "PATH",
            "Where an engine named by a bare command is found (after its dir and before \
             /usr/games).",
        ),
    ];
    terms(page, "ENVIRONMENT", &environment)?;
    writeln!(
        page,
        ".SH \"EXIT STATUS\"\n.PP\n0 when the command did what it was asked, 1 when it ran but \
         found a failure (a perft count, an audit check, a game that did not pack), 2 when it \
         could not run (bad arguments, a file it cannot read or must not write over). A reader \
         that goes away (a closed pipe) ends a command quietly with 0."
    )
}

/// `text` as roff text on a line of its own: backslashes and hyphens escaped, a leading `.` or
/// `'` (a request) guarded.
/// A section of terms, each name in bold with its text beneath (FILES, ENVIRONMENT).
fn terms(page: &mut Vec<u8>, heading: &str, items: &[(&str, &str)]) -> io::Result<()> {
    writeln!(page, ".SH {heading}")?;
    for (name, what) in items {
        writeln!(
            page,
            ".TP\n\\fB{}\\fR\n{}",
            roff_text(name),
            roff_text(what)
        )?;
    }
    Ok(())
}

fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    match escaped.starts_with(['.', '\'']) {
        true => format!("\\&{escaped}"),
        false => escaped,
    }
}

/// Every subcommand under `command` (depth first, in `--help`'s order, `help` left out), each with
/// its full name (`shannon bench perft`), ready to render on its own.
fn subcommands(command: &clap::Command, name: &str) -> Vec<(String, clap::Command)> {
    let mut all = Vec::new();
    for sub in command.get_subcommands() {
        if sub.get_name() == "help" || sub.is_hide_set() {
            continue;
        }
        let full = format!("{name} {}", sub.get_name());
        let nested = subcommands(sub, &full);
        let page = sub.clone().bin_name(full.clone());
        all.push((full, page));
        all.extend(nested);
    }
    all
}
