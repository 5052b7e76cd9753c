//! Helpers shared by the integration tests: the suite files under `tests/data/` and a seeded
//! random walk through legal moves.

#![allow(dead_code)]

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shannon::perft::suite::{parse_suite, SuiteEntry};
use shannon::Position;
use std::path::{Path, PathBuf};
use std::process::Command;

/// True when `SHANNON_REQUIRE_PEERS=1`: every outside program (python-chess, Stockfish, XBoard,
/// polyglot, Xvfb, Slurm with munge) must be there and work, so a broken install fails CI instead
/// of skipping.
pub fn peers_required() -> bool {
    std::env::var("SHANNON_REQUIRE_PEERS").as_deref() == Ok("1")
}

/// An outside program is missing: print why (the caller then skips its check), or fail when
/// peers are `required`.
pub fn peer_missing(reason: &str, required: bool) {
    if required {
        panic!("SHANNON_REQUIRE_PEERS=1 but {reason}");
    }
    println!("skipped: {reason}");
}

/// Why python-chess cannot be used here (`python3` does not start, or cannot import `chess`),
/// or `None` when it can.
pub fn python_chess_missing() -> Option<String> {
    match std::process::Command::new("python3")
        .args(["-c", "import chess"])
        .output()
    {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(format!(
            "python3 cannot import chess (pip install chess): {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Some(format!("python3 does not run: {e}")),
    }
}

/// The folder of the Syzygy tables the tablebase tests read, `$SHANNON_SYZYGY` (every 3- and
/// 4-man WDL table: `.ci/run` extracts them from python-chess's source distribution, see
/// docs/tablebase.md), or why it cannot be used.
pub fn syzygy_folder() -> Result<PathBuf, String> {
    let Some(folder) = std::env::var_os("SHANNON_SYZYGY") else {
        return Err(
            "SHANNON_SYZYGY is not set (the folder of the Syzygy tables, see \
                    docs/tablebase.md)"
                .into(),
        );
    };
    let folder = PathBuf::from(folder);
    let has_tables = std::fs::read_dir(&folder).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "rtbw"))
    });
    if has_tables {
        Ok(folder)
    } else {
        Err(format!(
            "SHANNON_SYZYGY={} holds no .rtbw table",
            folder.display()
        ))
    }
}

/// `tests/data/...` inside the crate, wherever the tests run from.
pub fn data_path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(relative)
}

/// The perft suite files, by name.
pub const SUITES: [&str; 7] = [
    "perft/standard.epd",
    "perft/cpw.epd",
    "perft/tricky.perft",
    "perft/en_passant.epd",
    "perft/special_cases.epd",
    "perft/chess960.perft",
    "perft/chess960_start.epd",
];

/// Every entry of one suite file.
pub fn suite(name: &str) -> Vec<SuiteEntry> {
    let text = std::fs::read_to_string(data_path(name)).expect("suite file present");
    parse_suite(&text).expect("suite parses")
}

/// Every entry of every suite file, with the file name.
pub fn all_entries() -> Vec<(&'static str, SuiteEntry)> {
    SUITES
        .iter()
        .flat_map(|&name| suite(name).into_iter().map(move |e| (name, e)))
        .collect()
}

/// Debug builds run the rules with their self-checks on and are far slower: scale budgets.
pub fn budget(release: u64) -> u64 {
    if cfg!(debug_assertions) {
        (release / 50).max(1_000)
    } else {
        release
    }
}

/// Positions along seeded random games from `start`: up to `plies` moves each game.
pub fn random_walk(start: &Position, seed: u64, plies: usize) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = start.clone();
    let mut seen = vec![pos.clone()];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[rng.random_range(0..moves.len())]);
        seen.push(pos.clone());
    }
    seen
}

/// Every position of the first `games` games of the Lichess corpus: each start and the position
/// after every move.
pub fn corpus_positions(games: usize) -> Vec<Position> {
    let text =
        std::fs::read_to_string(data_path("pgn/lichess_2013-01_5000.pgn")).expect("corpus present");
    let mut positions = Vec::new();
    for game in shannon::notation::pgn::PgnReader::new(&text).take(games) {
        let game = game.expect("corpus games parse");
        let mut pos = game.record.start.clone();
        positions.push(pos.clone());
        for &mv in &game.record.moves {
            pos = pos.play(mv);
            positions.push(pos.clone());
        }
    }
    positions
}

/// The positions of every perft suite entry.
pub fn suite_positions() -> Vec<Position> {
    all_entries()
        .into_iter()
        .map(|(name, e)| {
            Position::from_fen(&e.fen).unwrap_or_else(|err| panic!("{name} {}: {err}", e.id))
        })
        .collect()
}

/// Moves of a random game from `start`: up to `plies` uniformly drawn legal moves, stopping early
/// at mate or stalemate. The caller's generator goes on from where the game left it.
pub fn random_moves(start: &Position, rng: &mut SmallRng, plies: usize) -> Vec<shannon::Move> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.random_range(0..legal.len())];
        let _ = pos.make(mv);
        moves.push(mv);
    }
    moves
}

/// A scratch directory for one test: removed when the test ends, kept (and its path printed) when
/// the test fails, so what it wrote can be read.
pub struct Scratch {
    dir: Option<tempfile::TempDir>,
}

impl Scratch {
    /// A new, empty directory under the system's temporary folder, named after the test.
    pub fn new(name: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("shannon-{name}-"))
            .tempdir()
            .expect("a scratch directory can be made");
        Scratch { dir: Some(dir) }
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.dir.as_ref().expect("present until dropped").path()
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.path()
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path().as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            if std::thread::panicking() {
                let kept = dir.keep();
                eprintln!(
                    "the failed test's scratch directory is kept: {}",
                    kept.display()
                );
            }
        }
    }
}

/// The `shannon` binary under test.
pub const SHANNON: &str = env!("CARGO_BIN_EXE_shannon");

/// The deliberately faulty UCI engine (`shannon-faulty-engine --fault KIND`).
pub const FAULTY: &str = env!("CARGO_BIN_EXE_shannon-faulty-engine");

/// `shannon args`, ready to run (in the test process's directory unless told otherwise).
pub fn shannon_command(args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new(SHANNON);
    command.args(args);
    command
}

/// Run `shannon args` in `dir`: its whole output.
pub fn run_in(args: &[&str], dir: &Path) -> std::process::Output {
    shannon_command(args)
        .current_dir(dir)
        .output()
        .expect("shannon runs")
}

/// Run `shannon args` in `dir`: (exit status 0, stdout, stderr).
pub fn run(args: &[&str], dir: &Path) -> (bool, String, String) {
    texts(run_in(args, dir))
}

/// Run `shannon args` in the test process's directory: (exit status 0, stdout, stderr).
pub fn run_here(args: &[&str]) -> (bool, String, String) {
    texts(shannon(args))
}

fn texts(output: std::process::Output) -> (bool, String, String) {
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Run `shannon args` in the test process's directory: its whole output.
pub fn shannon(args: &[&str]) -> std::process::Output {
    shannon_command(args).output().expect("shannon runs")
}

/// `shannon match` in Shannon's own form, set option by option, so a test writes only what it
/// sets: `MatchLine::new().games(2).tc("nodes=1").pgn("-").seed(4).run_in(&dir)`. Options
/// without a method of their own go through [`MatchLine::arg`] and [`MatchLine::flag`], in the
/// order given.
#[derive(Debug, Clone)]
pub struct MatchLine {
    args: Vec<String>,
}

impl Default for MatchLine {
    fn default() -> MatchLine {
        MatchLine::new()
    }
}

impl MatchLine {
    /// `shannon match` with no option (its defaults: the built-in engines, 20 games, 10+0.1).
    pub fn new() -> MatchLine {
        MatchLine {
            args: vec!["match".into()],
        }
    }

    /// `OPTION VALUE`, for an option without a method of its own.
    pub fn arg(mut self, option: &str, value: impl AsRef<std::ffi::OsStr>) -> MatchLine {
        let value = value
            .as_ref()
            .to_str()
            .expect("a test's arguments are UTF-8");
        self.args.push(option.into());
        self.args.push(value.into());
        self
    }

    /// More arguments as they are, after those set so far.
    pub fn then(mut self, args: &[&str]) -> MatchLine {
        self.args.extend(args.iter().map(|arg| arg.to_string()));
        self
    }

    /// `OPTION`, an option that takes no value.
    pub fn flag(mut self, option: &str) -> MatchLine {
        self.args.push(option.into());
        self
    }

    /// `--games N`.
    pub fn games(self, games: impl std::fmt::Display) -> MatchLine {
        self.arg("--games", games.to_string())
    }

    /// `--rounds N`.
    pub fn rounds(self, rounds: impl std::fmt::Display) -> MatchLine {
        self.arg("--rounds", rounds.to_string())
    }

    /// `--concurrency N`.
    pub fn concurrency(self, workers: impl std::fmt::Display) -> MatchLine {
        self.arg("--concurrency", workers.to_string())
    }

    /// `--seed N`.
    pub fn seed(self, seed: impl std::fmt::Display) -> MatchLine {
        self.arg("--seed", seed.to_string())
    }

    /// `--tc TC`.
    pub fn tc(self, tc: &str) -> MatchLine {
        self.arg("--tc", tc)
    }

    /// `--pgn FILE` (`-`: standard output).
    pub fn pgn(self, file: impl AsRef<std::ffi::OsStr>) -> MatchLine {
        self.arg("--pgn", file)
    }

    /// `--config FILE`, the engines file.
    pub fn config(self, file: impl AsRef<std::ffi::OsStr>) -> MatchLine {
        self.arg("--config", file)
    }

    /// `--engines A,B,...`.
    pub fn engines(self, names: &str) -> MatchLine {
        self.arg("--engines", names)
    }

    /// `--openings SOURCE`.
    pub fn openings(self, source: impl AsRef<std::ffi::OsStr>) -> MatchLine {
        self.arg("--openings", source)
    }

    /// `--sprt ELO0,ELO1,ALPHA,BETA`.
    pub fn sprt(self, test: &str) -> MatchLine {
        self.arg("--sprt", test)
    }

    /// `--quiet`.
    pub fn quiet(self) -> MatchLine {
        self.flag("--quiet")
    }

    /// The arguments after `shannon`, for helpers that take the tools' command lines too.
    pub fn words(&self) -> Vec<String> {
        self.args.clone()
    }

    /// The arguments after `shannon`, borrowed.
    pub fn strs(&self) -> Vec<&str> {
        self.args.iter().map(String::as_str).collect()
    }

    /// The command, ready to run or spawn.
    pub fn command(&self) -> Command {
        let mut command = Command::new(SHANNON);
        command.args(&self.args);
        command
    }

    /// Run it in `dir`: its whole output.
    pub fn output_in(&self, dir: &Path) -> std::process::Output {
        self.command()
            .current_dir(dir)
            .output()
            .expect("shannon runs")
    }

    /// Run it in `dir`: (exit status 0, stdout, stderr).
    pub fn run_in(&self, dir: &Path) -> (bool, String, String) {
        texts(self.output_in(dir))
    }
}

/// Run `shannon args` with `stdin` as its input: its whole output.
pub fn shannon_with_input(args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = shannon_command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("shannon starts");
    let mut input = child.stdin.take().expect("piped");
    let bytes = stdin.to_vec();
    // Written from a thread: a command that answers before it has read everything must not
    // block the test on a full pipe.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let output = child.wait_with_output().expect("shannon ends");
    writer.join().expect("the writer thread ends");
    output
}

/// Run `shannon args`, which must succeed; its stdout.
pub fn shannon_ok(args: &[&str]) -> String {
    let out = shannon(args);
    assert!(
        out.status.success(),
        "shannon {}: {}\n{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Run `shannon args`, which must be refused with exit status 2; its stderr.
pub fn shannon_refused(args: &[&str]) -> String {
    let out = shannon(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(2),
        "shannon {} should be refused (exit 2); stdout:\n{}\nstderr:\n{stderr}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout)
    );
    stderr
}

/// `sh -c script` in `dir`, the `shannon` under test first on PATH, then Debian's games folder
/// (where its Stockfish is; on ordinary users' PATH already).
pub fn shell(dir: &Path, script: &str) -> Command {
    let path = format!(
        "{}:{}:/usr/games",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut command = Command::new("sh");
    command
        .args(["-c", script])
        .current_dir(dir)
        .env("PATH", path);
    command
}

/// Debian's Stockfish (or one in /usr/bin) is installed.
pub fn stockfish_installed() -> bool {
    ["/usr/games/stockfish", "/usr/bin/stockfish"]
        .iter()
        .any(|p| Path::new(p).is_file())
}
