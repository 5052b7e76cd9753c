//! A real UCI client: python-chess plays 20 games against the engine, analyses with an infinite
//! limit, and checks `go perft` against its own move generator (see `tests/uci_python.py`).
//!
//! Skipped, with the reason printed, when python-chess is not installed; failing instead when the
//! environment sets `SHANNON_REQUIRE_PEERS=1` (CI installs the peers and sets it).

use crate::common::{peer_missing, peers_required, python_chess_missing};
use std::process::Command;

#[test]
fn python_chess_plays_analyses_and_counts_with_the_engine() {
    if let Some(reason) = python_chess_missing() {
        return peer_missing(&reason, peers_required());
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .arg(format!("{root}/tests/uci_python.py"))
        .arg(crate::common::SHANNON)
        .arg(format!("{root}/tests/data/perft"))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "python-chess found problems:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(" 0 failed"), "{stdout}");
}
