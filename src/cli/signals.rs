//! Ctrl-C, SIGTERM and SIGHUP for the long-running commands: the first signal raises a flag the
//! work looks at (a match ends its running games and stops its engines, a random-games run saves
//! its checkpoint), and says so; a second exits at once with status 130, for when even that takes
//! too long. Installed by the binary, not the library: a process has one set of signal handlers,
//! and only these commands want them.

use super::prelude::{say, CliError};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Install the handler; `first` is what the first signal prints (after `shannon: interrupted: `).
/// The returned flag is raised by the first signal.
pub fn interrupt_flag(first: &'static str) -> Result<Arc<AtomicBool>, CliError> {
    let flag = Arc::new(AtomicBool::new(false));
    let raised = Arc::clone(&flag);
    ctrlc::set_handler(move || {
        if raised.swap(true, Ordering::SeqCst) {
            say!("shannon: interrupted again: exiting now");
            std::process::exit(130);
        }
        say!("shannon: interrupted: {first}");
    })
    .map_err(|e| CliError::new(format!("cannot handle Ctrl-C and SIGTERM: {e}")))?;
    Ok(flag)
}
