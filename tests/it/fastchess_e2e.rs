//! fastchess's own end-to-end tests, run against `shannon match` (issue 31, item 4).
//!
//! fastchess's `app/tests/e2e/*.sh`, `lib.sh`, mock engines and test data are vendored unchanged
//! under `tests/fastchess_e2e/` (tag v1.8.2-alpha; its README says how to update them), with the
//! SHA-256 of every file in `SHA256SUMS`. Each test here checks that list first (a script edited
//! until it passes tests nothing), lays the tree out in a scratch folder as fastchess's checkout
//! is laid out, puts the mock engines built with g++ (as `lib.sh` builds them) beside it, writes
//! `./fastchess` as a script that runs `shannon match "$@"` and nothing else, and runs the script
//! with `bash app/tests/e2e/<name>.sh` and `E2E_SKIP_BUILD=1` (so `lib.sh` does not build
//! fastchess). `TMPDIR` points into the scratch folder, so the scripts' `mktemp` files go with it.
//!
//! One test per script, so a failure names it; its output (the script's `set -x` trace and
//! Shannon's lines) is printed when it fails. The mocks are built once per source version into
//! cargo's test temporary folder (`target/tmp`), not once per test. Without g++ the scripts are
//! skipped with the reason, and fail under `SHANNON_REQUIRE_PEERS=1`.

use crate::common::{peer_missing, peers_required, Scratch, SHANNON};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The vendored tree.
const VENDORED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fastchess_e2e");

/// The scripts `e2e.sh` runs, in its order.
const SCRIPTS: [&str; 7] = [
    "opening_books",
    "engine_diagnostics",
    "engine_recovery",
    "rating_interval",
    "pgn_book_plies",
    "random_order",
    "black_to_move",
];

/// The mock engines `lib.sh` builds (source in `app/tests/mock/engine/`, binary in the
/// checkout's root).
const MOCKS: [&str; 2] = ["random_mover", "scripted_result"];

/// How long one script may take (they take seconds; a hang must not hold CI).
const SCRIPT_LIMIT: Duration = Duration::from_secs(600);

/// The `SHA256SUMS` lines: (hash, path).
fn recorded_sums() -> Vec<(String, String)> {
    let text = fs::read_to_string(Path::new(VENDORED).join("SHA256SUMS")).unwrap();
    text.lines()
        .map(|line| {
            let (hash, path) = line.split_once("  ").expect("`HASH  PATH` lines");
            (hash.to_string(), path.to_string())
        })
        .collect()
}

/// Every file of the vendored tree but the README and the list, relative to it.
fn vendored_files() -> Vec<String> {
    let root = Path::new(VENDORED);
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if relative != "README.md" && relative != "SHA256SUMS" {
                files.push(relative);
            }
        }
    }
    files.sort();
    files
}

/// Why the vendored files are not fastchess's as recorded, or `None` when they are: every
/// file listed, none changed (`sha256sum --check`).
fn vendored_changes() -> Option<String> {
    let mut listed: Vec<String> = recorded_sums().into_iter().map(|(_, p)| p).collect();
    listed.sort();
    let files = vendored_files();
    if listed != files {
        return Some(format!(
            "SHA256SUMS lists {listed:?} but the folder holds {files:?}"
        ));
    }
    let output = Command::new("sha256sum")
        .args(["--check", "--strict", "--quiet", "SHA256SUMS"])
        .current_dir(VENDORED)
        .output()
        .expect("sha256sum (coreutils) runs");
    (!output.status.success()).then(|| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn assert_unchanged() {
    if let Some(changes) = vendored_changes() {
        panic!(
            "tests/fastchess_e2e is not fastchess's as recorded (the scripts run unchanged; \
             see its README to update them): {changes}"
        );
    }
}

#[test]
fn the_vendored_files_are_fastchess_s_unchanged() {
    assert_unchanged();
    // The list is fastchess's: its scripts are among the files it covers.
    let sums = recorded_sums();
    for script in SCRIPTS.iter().map(|s| format!("app/tests/e2e/{s}.sh")) {
        assert!(sums.iter().any(|(_, p)| *p == script), "{script} unlisted");
    }
}

/// The list here is `e2e.sh`'s: every script it runs has its test, in its order.
#[test]
fn every_script_of_e2e_sh_has_its_test() {
    let e2e = fs::read_to_string(Path::new(VENDORED).join("app/tests/e2e/e2e.sh")).unwrap();
    let run: Vec<&str> = e2e
        .lines()
        .filter_map(|line| line.strip_prefix("bash app/tests/e2e/"))
        .filter_map(|rest| rest.strip_suffix(".sh"))
        .collect();
    assert_eq!(run, SCRIPTS);
}

/// The mock engines, built once: their folder, or why they could not be built.
fn mocks() -> &'static Result<PathBuf, String> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT.get_or_init(build_mocks)
}

/// Build the mocks as `lib.sh` does (`g++ -O3 -std=c++17 SOURCE -o NAME`, in the checkout's
/// root) into a folder of `target/tmp` named by the sources' hashes, unless they are there.
fn build_mocks() -> Result<PathBuf, String> {
    if let Err(e) = Command::new("g++").arg("--version").output() {
        return Err(format!("g++ does not run ({e}): apt-get install g++"));
    }
    assert_unchanged();
    let sums = recorded_sums();
    let hash_of = |path: &str| {
        sums.iter()
            .find(|(_, p)| p == path)
            .map(|(h, _)| h[..12].to_string())
            .expect("listed")
    };
    let key = format!(
        "{}-{}-{}",
        hash_of("app/tests/mock/engine/random_mover.cpp"),
        hash_of("app/tests/mock/engine/scripted_result.cpp"),
        hash_of("app/third_party/chess.hpp")
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("fastchess-e2e-mocks")
        .join(key);
    fs::create_dir_all(&dir).unwrap();
    for mock in MOCKS {
        let binary = dir.join(mock);
        if binary.is_file() {
            continue;
        }
        // Built under a name of this process's, then renamed: a run beside this one never
        // finds half a binary.
        let partial = dir.join(format!("{mock}.{}.partial", std::process::id()));
        let output = Command::new("g++")
            .args(["-O3", "-std=c++17"])
            .arg(format!("app/tests/mock/engine/{mock}.cpp"))
            .arg("-o")
            .arg(&partial)
            .current_dir(VENDORED)
            .output()
            .map_err(|e| format!("g++ does not run: {e}"))?;
        if !output.status.success() {
            let _ = fs::remove_file(&partial);
            panic!(
                "g++ could not build {mock}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        fs::rename(&partial, &binary).unwrap();
    }
    Ok(dir)
}

/// Copy the tree under `from` to `to`, modes kept (`missing_engine.sh` is executable).
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

/// Run fastchess's `app/tests/e2e/<name>.sh` against `shannon match`; it must exit 0.
fn run_script(name: &str) {
    assert_unchanged();
    let mocks = match mocks() {
        Ok(dir) => dir,
        Err(why) => {
            peer_missing(why, peers_required());
            return;
        }
    };
    let scratch = Scratch::new(&format!("fastchess-e2e-{name}"));
    let root = scratch.path();
    copy_tree(&Path::new(VENDORED).join("app"), &root.join("app"));
    for mock in MOCKS {
        fs::copy(mocks.join(mock), root.join(mock)).unwrap();
    }
    let fastchess = root.join("fastchess");
    fs::write(
        &fastchess,
        format!("#!/bin/sh\nexec '{SHANNON}' match \"$@\"\n"),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&fastchess, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let tmp = root.join("tmp");
    fs::create_dir(&tmp).unwrap();
    let log_path = root.join("script-output.txt");
    let log = fs::File::create(&log_path).unwrap();
    let mut child = {
        use std::os::unix::process::CommandExt;
        Command::new("bash")
            .arg(format!("app/tests/e2e/{name}.sh"))
            .current_dir(root)
            .env("E2E_SKIP_BUILD", "1")
            .env("TMPDIR", &tmp)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            // Its own process group, so a script that hangs is stopped with every process it
            // started.
            .process_group(0)
            .spawn()
            .expect("bash starts")
    };
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > SCRIPT_LIMIT {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = fs::read_to_string(&log_path).unwrap_or_default();
    match status {
        Some(status) if status.success() => {}
        Some(status) => panic!("fastchess's {name}.sh failed ({status}); its output:\n{output}"),
        None => panic!(
            "fastchess's {name}.sh did not end within {} s; its output:\n{output}",
            SCRIPT_LIMIT.as_secs()
        ),
    }
}

#[test]
fn opening_books() {
    run_script("opening_books");
}

#[test]
fn engine_diagnostics() {
    run_script("engine_diagnostics");
}

#[test]
fn engine_recovery() {
    run_script("engine_recovery");
}

#[test]
fn rating_interval() {
    run_script("rating_interval");
}

#[test]
fn pgn_book_plies() {
    run_script("pgn_book_plies");
}

#[test]
fn random_order() {
    run_script("random_order");
}

#[test]
fn black_to_move() {
    run_script("black_to_move");
}
