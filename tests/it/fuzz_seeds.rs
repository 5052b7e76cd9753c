//! The fuzz seeds under `cargo test`: every file of `fuzz/seeds/TARGET/` goes through the very
//! function the fuzz target `TARGET` runs (`fuzz/invariants.rs`), so a seed that would crash the
//! fuzzer, or break an invariant it checks, fails the ordinary test suite, where cargo-fuzz and
//! nightly are not needed.

#[path = "../../fuzz/invariants.rs"]
mod invariants;

use std::collections::BTreeSet;
use std::path::PathBuf;

/// A fuzz target's check: panics when an invariant breaks.
type Check = fn(&[u8]);

/// Each fuzz target's name (its seed folder) and its check.
const TARGETS: [(&str, Check); 5] = [
    ("fen", invariants::fen),
    ("uci_engine", invariants::uci_engine),
    ("pgn", invariants::pgn),
    ("decoders", invariants::decoders),
    ("engines_toml", invariants::engines_toml),
];

fn seeds_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds")
}

#[test]
fn every_seed_passes_its_targets_checks() {
    // A seed folder without a check here, or a check without seeds, would go unreplayed.
    let folders: BTreeSet<String> = std::fs::read_dir(seeds_dir())
        .expect("fuzz/seeds is present")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let targets: BTreeSet<String> = TARGETS.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(folders, targets, "fuzz/seeds folders and fuzz targets");

    let mut failures = Vec::new();
    let mut replayed = 0;
    for (target, check) in TARGETS {
        let mut files: Vec<PathBuf> = std::fs::read_dir(seeds_dir().join(target))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "fuzz/seeds/{target} has no seeds");
        for file in files {
            let data = std::fs::read(&file).unwrap();
            replayed += 1;
            if let Err(panic) = std::panic::catch_unwind(|| check(&data)) {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!(
                    "fuzz/seeds/{target}/{}: {message}",
                    file.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("{replayed} seeds replayed");
}
