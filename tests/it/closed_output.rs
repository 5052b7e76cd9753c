//! A reader that goes away (`shannon ... 2>&1 | head -1`) ends every subcommand quietly with
//! status 0, as `perft` always did and most Unix tools do (issue 45, item 3: `match` panicked
//! with exit status 101 there, and exited 2 with "Broken pipe" when only stdout was closed).
//!
//! Each command runs with its stdout, and its stderr too, on a pipe whose reading end is
//! already closed, so its first write fails: the worst case of `| head`.

use crate::common::{data_path, peer_missing, peers_required, Scratch, SHANNON};
use std::process::{Command, Stdio};

/// One quick run of every subcommand (and `bench`'s), with the file it reads on stdin.
const RUNS: &[(&[&str], Option<&str>)] = &[
    (&["perft", "5", "--divide"], None),
    (&["exact", "--plies", "4"], None),
    (
        &["perft-suite", "DATA/perft/cpw.epd", "--max-depth", "2"],
        None,
    ),
    (
        &["match", "--games", "4", "--tc", "nodes=1", "--pgn", "-"],
        None,
    ),
    (
        &[
            "match",
            "-engine",
            "cmd=SHANNON",
            "-engine",
            "cmd=SHANNON",
            "-each",
            "tc=inf",
            "nodes=1",
            "-rounds",
            "2",
            "-games",
            "2",
        ],
        None,
    ),
    (
        &[
            "perft-check",
            "--engine",
            "SHANNON",
            "--epd",
            "DATA/perft/cpw.epd",
            "--depth",
            "2",
        ],
        None,
    ),
    (
        &[
            "audit",
            "--engine",
            "SHANNON",
            "--quick",
            "--perft-seconds",
            "2",
        ],
        None,
    ),
    // TABLES: the Syzygy tables of `$SHANNON_SYZYGY` (skipped without them).
    (&["tablebase", "verify", "--tb", "TABLES"], None),
    (&["pack"], Some("DATA/pgn/lichess_2013-01_5000.pgn")),
    (&["unpack"], Some("DATA/packed/first500-m2.shgm")),
    (
        &[
            "codec-report",
            "DATA/pgn/lichess_2013-01_5000.pgn",
            "--skip",
            "4950",
        ],
        None,
    ),
    (
        &[
            "codec-fit",
            "DATA/pgn/lichess_2013-01_5000.pgn",
            "--final-only",
            "--iterations",
            "1",
        ],
        None,
    ),
    (&["chess960", "518"], None),
    (&["show", "--format", "matrix"], None),
    (&["encode", "--codec", "huffman"], None),
    (&["decode", "--codec", "delta", "020bfd8"], None),
    (&["random-games", "--games", "2000", "--seed", "1"], None),
    (&["merge", "a.json", "b.json"], None),
    (&["bench", "perft"], None),
    (&["bench", "playout", "--games", "200"], None),
    (&["bench", "soak", "--requests", "20"], None),
    (&["bench", "match", "--games", "4"], None),
    (&["bench", "xboard", "--games", "2"], None),
    (&["bench", "uci", "--rounds", "2"], None),
    (
        &["bench", "tablebase", "--tb", "TABLES", "--positions", "200"],
        None,
    ),
    (&["--generate", "man"], None),
    (&["--help"], None),
];

fn expand(word: &str) -> String {
    word.replace("DATA", &data_path("").display().to_string())
        .replace("SHANNON", SHANNON)
}

#[test]
fn every_subcommand_ends_quietly_when_its_reader_has_gone() {
    let dir = Scratch::new("closed-output");
    for shard in ["0/2", "1/2"] {
        let json = if shard == "0/2" { "a.json" } else { "b.json" };
        let status = Command::new(SHANNON)
            .args([
                "random-games",
                "--games",
                "200",
                "--seed",
                "3",
                "--shard",
                shard,
            ])
            .args(["--json", json])
            .current_dir(&dir)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
    }
    // Every subcommand of `shannon --help` is run here (`help` aside).
    let help = Command::new(SHANNON).arg("--help").output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let listed: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    for name in &listed {
        assert!(
            RUNS.iter().any(|(args, _)| args[0] == *name),
            "`shannon {name}` is not run by this test"
        );
    }
    let mut failures = Vec::new();
    for (args, input) in RUNS {
        let mut args: Vec<String> = args.iter().map(|a| expand(a)).collect();
        if let Some(tables) = args.iter_mut().find(|a| *a == "TABLES") {
            match std::env::var("SHANNON_SYZYGY") {
                Ok(folder) => *tables = folder,
                Err(_) => {
                    peer_missing(
                        "no Syzygy tables: $SHANNON_SYZYGY names no folder (.ci/run fetches them)",
                        peers_required(),
                    );
                    continue;
                }
            }
        }
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let stdin = match input {
            Some(file) => Stdio::from(std::fs::File::open(expand(file)).unwrap()),
            None => Stdio::null(),
        };
        let status = Command::new(SHANNON)
            .args(&args)
            .current_dir(&dir)
            .stdin(stdin)
            .stdout(writer.try_clone().unwrap())
            .stderr(writer)
            .status()
            .unwrap();
        println!("shannon {}: {status}", args.join(" "));
        if status.code() != Some(0) {
            failures.push(format!("shannon {}: {status}", args.join(" ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
