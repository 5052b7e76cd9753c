//! `shannon --generate man|complete-bash|complete-zsh|complete-fish`: the man page and the shell
//! completions, made from the same clap definitions that parse the command line (as ripgrep's
//! `rg --generate`), so they cannot drift from it.
//!
//! A flag of the top command, not a subcommand: the subcommands are the chess work, and the
//! flag is ripgrep's form, which packagers already script.

use super::prelude::CliError;
use std::io::Write;

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
/// description and options, the headings of its own page one level down.
fn man_page(command: &clap::Command, out: &mut impl Write) -> Result<(), CliError> {
    let mut page = Vec::new();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
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
        let mut text = Vec::new();
        let man = clap_mangen::Man::new(sub);
        man.render_synopsis_section(&mut text)?;
        man.render_description_section(&mut text)?;
        man.render_options_section(&mut text)?;
        writeln!(page, ".SH \"{}\"", roff_text(&title.to_uppercase()))?;
        for line in String::from_utf8_lossy(&text).lines() {
            match line.strip_prefix(".SH ") {
                Some(heading) => writeln!(page, ".SS {heading}")?,
                None => writeln!(page, "{line}")?,
            }
        }
    }
    man.render_version_section(&mut page)?;
    out.write_all(&page)?;
    Ok(())
}

/// `text` as roff text on a line of its own: backslashes and hyphens escaped, a leading `.` or
/// `'` (a request) guarded.
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
