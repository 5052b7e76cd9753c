//! The `shannon` command: with no subcommand, the UCI engine on stdin/stdout; otherwise one of the
//! subcommands in `cli/`, each parsed and run by its own file.

mod cli;

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let Some(command) = cli::Cli::parse().command else {
        shannon::uci::run_stdio();
        return ExitCode::SUCCESS;
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = command.run(&mut out);
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
