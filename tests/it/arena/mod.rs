//! `shannon match` and `shannon perft-check` end to end: the shipped engines.toml, misbehaving
//! engines (the `shannon-faulty-engine` helper binary), and Stockfish when it is installed.
//!
//! This module holds the helpers the subjects share: running `shannon`, a scratch folder per
//! test, reading a PGN back, and finding Stockfish.

mod adjudication;
mod books;
mod bound_scores;
mod caps_peers;
mod compat;
mod compat_files;
mod compat_layout;
mod compliance_peers;
mod config_peers;
mod engines_as_commands;
mod engines_json;
mod faults;
mod faults_peers;
mod forensics;
mod frameworks;
mod initstr_peers;
mod interrupt_peers;
mod knockout_peers;
mod knockout_resume;
mod layout_peers;
mod matches;
mod odds;
mod old_states;
mod one_runner;
mod output_formats;
mod outputs;
mod peer_tools;
mod peers;
mod perft_check;
mod ponder_peers;
mod report;
mod reruns;
mod resultformat_peers;
mod resume;
mod signals;
mod soak;
mod sprt_peers;
mod sprt_reference;
mod sprt_stop;
mod stops;
mod tablebase_peers;
mod tournaments;
mod two_runs;
mod xboard_peers;

use crate::common::{peer_missing, peers_required, Scratch};
use crate::common::{run, FAULTY, SHANNON};
use std::path::{Path, PathBuf};

/// A scratch directory for one test (removed when it ends, kept when it fails).
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("arena-{name}"))
}

/// Read a PGN file with our reader; every game must parse and replay legally.
fn read_pgn(path: &Path) -> Vec<shannon::notation::pgn::PgnGame> {
    let text = std::fs::read_to_string(path).unwrap();
    shannon::notation::pgn::read_games(&text)
        .into_iter()
        .map(|game| game.unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

fn tag<'a>(game: &'a shannon::notation::pgn::PgnGame, name: &str) -> &'a str {
    game.tag(name).unwrap_or_else(|| panic!("no {name} tag"))
}

/// Stockfish from Debian, if installed.
fn stockfish() -> Option<PathBuf> {
    let candidates = [
        PathBuf::from("/usr/games/stockfish"),
        PathBuf::from("/usr/bin/stockfish"),
    ];
    let found = candidates.into_iter().find(|p| p.is_file());
    if found.is_none() {
        peer_missing(
            "stockfish is not installed (apt-get install stockfish)",
            peers_required(),
        );
    }
    found
}

fn stockfish_config(dir: &Path, stockfish: &Path) -> PathBuf {
    let config = dir.join("engines.toml");
    std::fs::write(
        &config,
        format!(
            "[[engine]]\nname = \"shannon\"\ncommand = \"self\"\n\n[[engine]]\nname = \"stockfish\"\ncommand = \"{}\"\noptions = {{ Threads = 1, Hash = 16 }}\n",
            stockfish.display()
        ),
    )
    .unwrap();
    config
}
