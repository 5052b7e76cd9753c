//! Tablebase adjudication side by side with the real tools (`tests/data/peers/tablebase/`): two
//! seeded Shannon engines (random movers) play from positions of five and six pieces (and, for
//! cutechess-cli's distance-to-zeroing adjudication, from positions of four and five pieces deep
//! into the fifty moves), with the 3- and 4-man Syzygy tables of `$SHANNON_SYZYGY`; `shannon
//! match` given each recorded command line ends every game at the same ply, with the same
//! result, `Termination` tag and words as the tool, and prints what the tool printed, line for
//! line (`-tbignore50` included: cutechess-cli then calls 4 of the counter run's cursed wins
//! wins). `peer_tools.rs` records them again.
//!
//! Without the tables the tests are skipped with a printed reason, and fail under
//! `SHANNON_REQUIRE_PEERS=1`.

use super::sprt_peers::games;
use super::{read_pgn, scratch, tag};
use crate::common::{data_path, peer_missing, peers_required, syzygy_folder, Scratch, SHANNON};
use std::path::{Path, PathBuf};

/// One recorded run: its files' name (`NAME.pgn`, `NAME.txt`), whose command line it is, and
/// the options it adds to [`COMMON`].
pub(super) struct TablebaseRun {
    pub(super) name: &'static str,
    pub(super) cutechess: bool,
    pub(super) extra: &'static str,
}

/// The openings of five and six pieces, counter 0.
const OPENINGS: &str = "-openings file=openings.epd format=epd order=sequential";

/// The openings of four and five pieces deep into the fifty moves.
const COUNTER: &str = "-openings file=counter-openings.pgn format=pgn order=sequential";

/// The recorded runs (tests/data/peers/README.md).
pub(super) const RUNS: [TablebaseRun; 8] = [
    TablebaseRun {
        name: "fastchess-1.8.2-alpha",
        cutechess: false,
        extra: OPENINGS,
    },
    TablebaseRun {
        name: "fastchess-1.8.2-alpha-win-loss",
        cutechess: false,
        extra: concat!(
            "-openings file=openings.epd format=epd order=sequential",
            " -tbadjudicate WIN_LOSS"
        ),
    },
    TablebaseRun {
        name: "cutechess-cli-1.5.1-tbpieces-4",
        cutechess: true,
        extra: concat!(
            "-openings file=openings.epd format=epd order=sequential",
            " -tbpieces 4"
        ),
    },
    TablebaseRun {
        name: "cutechess-cli-1.5.1",
        cutechess: true,
        extra: OPENINGS,
    },
    TablebaseRun {
        name: "cutechess-cli-1.5.1-counter",
        cutechess: true,
        extra: COUNTER,
    },
    TablebaseRun {
        name: "cutechess-cli-1.5.1-counter-tbignore50",
        cutechess: true,
        extra: concat!(
            "-openings file=counter-openings.pgn format=pgn order=sequential",
            " -tbignore50"
        ),
    },
    TablebaseRun {
        name: "fastchess-1.8.2-alpha-counter",
        cutechess: false,
        extra: COUNTER,
    },
    TablebaseRun {
        name: "fastchess-1.8.2-alpha-counter-tbignore50",
        cutechess: false,
        extra: concat!(
            "-openings file=counter-openings.pgn format=pgn order=sequential",
            " -tbignore50"
        ),
    },
];

/// The options every run shares.
const COMMON: &str = "-engine cmd=./shannon name=alpha option.Seed=11 \
                      -engine cmd=./shannon name=beta option.Seed=22 \
                      -each proto=uci tc=inf nodes=1000 \
                      -concurrency 1 -rounds 24 -games 2 -repeat -tb syzygy";

impl TablebaseRun {
    /// The command line's words, writing the PGN as `pgn` (in the tool's form of `-pgnout`).
    pub(super) fn words(&self, pgn: &str) -> Vec<String> {
        let pgnout = match self.cutechess {
            true => pgn.to_string(),
            false => format!("file={pgn}"),
        };
        format!("{COMMON} {} -pgnout {pgnout}", self.extra)
            .split_whitespace()
            .map(String::from)
            .collect()
    }
}

/// A recorded file.
pub(super) fn recorded(name: &str) -> PathBuf {
    data_path(&format!("peers/tablebase/{name}"))
}

/// A folder to run in: the openings, `./shannon` (the binary under test) and `syzygy` (the
/// tables); `None` (skipped, or a failure under `SHANNON_REQUIRE_PEERS=1`) without the tables.
pub(super) fn tablebase_folder(name: &str) -> Option<Scratch> {
    let tables = match syzygy_folder() {
        Ok(tables) => tables,
        Err(why) => {
            peer_missing(&why, peers_required());
            return None;
        }
    };
    let dir = scratch(name);
    for openings in ["openings.epd", "counter-openings.pgn"] {
        std::fs::copy(recorded(openings), dir.join(openings)).unwrap();
    }
    std::os::unix::fs::symlink(SHANNON, dir.join("shannon")).unwrap();
    std::os::unix::fs::symlink(tables, dir.join("syzygy")).unwrap();
    Some(dir)
}

/// What is compared of a run: each game (start, players, moves, result) with its
/// `Termination` tag or its absence (cutechess-cli writes none for a game the rules ended, and
/// neither does Shannon in its form), and every line the run printed but fastchess's `Total
/// Time` (the run's duration).
pub(super) fn outcome(pgn: &Path, stdout: &str) -> (Vec<(String, Option<String>)>, Vec<String>) {
    let terminations = read_pgn(pgn)
        .iter()
        .map(|game| game.tag("Termination").map(String::from))
        .collect::<Vec<_>>();
    let games = games(pgn)
        .into_iter()
        .zip(terminations)
        .map(|(game, termination)| (format!("{game:?}"), termination))
        .collect();
    let printed = stdout
        .lines()
        .filter(|line| !line.starts_with("Total Time: "))
        .map(String::from)
        .collect();
    (games, printed)
}

#[test]
fn shannon_adjudicates_by_the_tables_as_each_tool_did() {
    let Some(dir) = tablebase_folder("tablebase-peers") else {
        return;
    };
    for run in &RUNS {
        let pgn = format!("{}.shannon.pgn", run.name);
        let out = std::process::Command::new(SHANNON)
            .arg("match")
            .args(run.words(&pgn))
            .current_dir(dir.path())
            .output()
            .expect("shannon runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}: {out:?}", run.name);
        let theirs = std::fs::read_to_string(recorded(&format!("{}.txt", run.name))).unwrap();
        let (ours, recorded_games) = (
            outcome(&dir.join(&pgn), &stdout),
            outcome(&recorded(&format!("{}.pgn", run.name)), &theirs),
        );
        assert_eq!(ours.0.len(), 48, "{}", run.name);
        assert_eq!(ours, recorded_games, "{}: other games or words", run.name);
        let adjudicated = ours
            .1
            .iter()
            .filter(|l| l.starts_with("Finished game ") && l.contains("SyzygyTB"))
            .count();
        assert!(adjudicated >= 30, "{}: {adjudicated} adjudicated", run.name);
    }
}

/// Shannon's own form: `--tb` adjudicates (fastchess's rule), and a folder that cannot be read
/// or `--tb-pieces` above what the tables hold stops the match before its first game, naming
/// the folder.
#[test]
fn our_own_form_adjudicates_and_refuses_bad_tables_before_the_first_game() {
    let Some(dir) = tablebase_folder("tablebase-own-form") else {
        return;
    };
    let run = |words: &str| {
        let out = std::process::Command::new(SHANNON)
            .arg("match")
            .args(words.split_whitespace())
            .current_dir(dir.path())
            .output()
            .expect("shannon runs");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.success(), err)
    };
    let (ok, err) = run("--games 2 --tb no-such-folder --pgn refused.pgn");
    assert!(
        !ok && err.contains("cannot read the tablebase folder no-such-folder"),
        "{err}"
    );
    let (ok, err) = run("--games 2 --tb syzygy --tb-pieces 6 --pgn refused.pgn");
    assert!(!ok && err.contains("hold at most 4"), "{err}");
    assert!(!dir.join("refused.pgn").exists());
    let (ok, err) = run(
        "--games 8 --seed 1 --tc inf --openings openings.epd --tb syzygy --pgn own.pgn --quiet",
    );
    assert!(ok, "{err}");
    let games = read_pgn(&dir.join("own.pgn"));
    let by_tables = std::fs::read_to_string(dir.join("own.pgn"))
        .unwrap()
        .matches("{adjudicated by the Syzygy tables}")
        .count();
    assert_eq!(games.len(), 8);
    assert!(by_tables >= 2, "{by_tables} of 8 adjudicated by the tables");
    for game in &games {
        assert_ne!(tag(game, "Termination"), "", "every game ends");
    }
}

/// cutechess-cli's form with a damaged DTZ table (KRPvK.rtbz, a byte changed: its checksum
/// fails at its first use): one warning naming it, the positions that need it played on, and
/// every game the tables do end ended as the intact tables say.
#[test]
fn a_damaged_dtz_table_is_warned_of_once_and_decides_nothing() {
    let Some(dir) = tablebase_folder("tablebase-damaged-dtz") else {
        return;
    };
    let intact_folder = dir.join("syzygy");
    let damaged = dir.join("damaged");
    std::fs::create_dir(&damaged).unwrap();
    for entry in std::fs::read_dir(&intact_folder).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, damaged.join(path.file_name().unwrap())).unwrap();
    }
    let file = damaged.join("KRPvK.rtbz");
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(&file, bytes).unwrap();
    let run = &RUNS[3];
    assert_eq!(run.name, "cutechess-cli-1.5.1");
    let words: Vec<String> = run
        .words("damaged.pgn")
        .into_iter()
        .map(|w| if w == "syzygy" { "damaged".into() } else { w })
        .collect();
    let out = std::process::Command::new(SHANNON)
        .arg("match")
        .args(&words)
        .current_dir(dir.path())
        .output()
        .expect("shannon runs");
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("KRPvK.rtbz"))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].contains("checksum"), "{stderr}");
    let intact = shannon::tablebase::Tablebase::open(&[intact_folder]).unwrap();
    let games = read_pgn(&dir.join("damaged.pgn"));
    let recorded_games = read_pgn(&recorded("cutechess-cli-1.5.1.pgn"));
    let mut by_tables = 0;
    for game in &games {
        if game.tag("Termination") != Some("adjudication") {
            continue;
        }
        by_tables += 1;
        let end = game.record.end_position();
        let white = end.side_to_move() == shannon::Color::White;
        let probe = intact.probe_root(&end).unwrap();
        let expected = match probe {
            shannon::tablebase::RootProbe::Checkmate => ["0-1", "1-0"][usize::from(!white)],
            shannon::tablebase::RootProbe::Stalemate => "1/2-1/2",
            shannon::tablebase::RootProbe::Value { wdl, .. } => match wdl {
                shannon::tablebase::Wdl::Win => ["0-1", "1-0"][usize::from(white)],
                shannon::tablebase::Wdl::Loss => ["0-1", "1-0"][usize::from(!white)],
                _ => "1/2-1/2",
            },
        };
        assert_eq!(tag(game, "Result"), expected, "{}", end.fen());
    }
    let changed = games
        .iter()
        .zip(&recorded_games)
        .filter(|(a, b)| a.record.moves != b.record.moves)
        .count();
    println!("damaged KRPvK.rtbz: {by_tables} of 48 games ended by the tables, {changed} played otherwise");
    assert!(changed > 0 && by_tables >= 30, "{changed} {by_tables}");
}
