//! The `shannon` command: with no subcommand, the engine on stdin/stdout (UCI, or the xboard
//! protocol when its first command is `xboard`); otherwise one of the subcommands in `cli/`, each
//! parsed and run by its own file.

mod cli;

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let stdout = std::io::stdout();
    let result = match cli::run_compat_match(&args, &mut stdout.lock()) {
        Some(result) => result,
        None => {
            let cli = cli::Cli::parse();
            match (cli.generate, cli.command) {
                (Some(what), _) => cli::generate(what, &mut stdout.lock()),
                (None, Some(command)) => command.run(&mut stdout.lock()),
                (None, None) => {
                    shannon::uci::run_stdio();
                    return ExitCode::SUCCESS;
                }
            }
        }
    };
    let mut out = stdout.lock();
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
