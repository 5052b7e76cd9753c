//! Issue 31's acceptance: OpenBench's and fishtest's workers, their command lines built as the
//! workers build them (the format strings and lists copied from AndyGrant/OpenBench
//! Client/worker.py and official-stockfish/fishtest worker/games.py, with a workload of our
//! choosing), run verbatim in a folder laid out as the worker lays it out (OpenBench: `Engines/`,
//! `Books/`, `PGNs/` beside the runner, `cmd=./<binary>` in `dir=Engines/`; fishtest: the
//! `testing` folder, engines by absolute path in `dir=.`), the engines this shannon copied there
//! under the worker's names, and the output read by each worker's own parsing rules,
//! re-implemented here: 0 crashes, 0 time losses, 0 illegal moves, the results complete, and
//! fishtest's CRC32 equal to the PGN's. Only the program differs: `shannon match` where the
//! worker runs `./fastchess-ob` or `fastchess`.

use super::compat::shell_words;
use super::output_formats::OpenBench;
use super::{read_pgn, scratch, tag};
use crate::common::SHANNON;
use regex::Regex;
use std::path::Path;
use std::process::{Command, Output};

/// Run `shannon match` with `args` in `dir`.
fn runner(dir: &Path, args: &[String]) -> Output {
    Command::new(SHANNON)
        .arg("match")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("shannon runs")
}

/// Copy this shannon to `to` (the workers run a binary they built or downloaded there).
fn install_engine(to: &Path) {
    std::fs::copy(SHANNON, to).unwrap();
}

/// Ten openings, one a line.
const BOOK_EPD: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1
rnbqkbnr/pppppppp/8/8/8/6P1/PPPPPP1P/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/1P6/P1PPPPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/5P2/8/PPPPP1PP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR b KQkq - 1 1
rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/1P6/8/P1PPPPPP/RNBQKBNR b KQkq - 0 1
";

/// What OpenBench's worker needs of a workload (`config.workload['test']`, `['distribution']`).
struct ObWorkload {
    engine: &'static str,
    dev_sha: &'static str,
    base_sha: &'static str,
    options: &'static str,
    time_control: &'static str,
    book: &'static str,
    book_index: u32,
    book_seed: u64,
    win_adj: &'static str,
    draw_adj: &'static str,
    concurrency_per: u32,
    rounds_per_runner: u32,
    test_id: u32,
    result_id: u32,
}

/// `utils.engine_binary_name` (no network file): `<engine>-<SHA[:8]>`.
fn engine_binary_name(engine: &str, sha: &str) -> String {
    format!("{engine}-{}", &sha.to_uppercase()[..8])
}

/// `scale_time_control` for an `X+Y` clock: `tc=%.2f+%.2f timemargin=250`.
fn scale_time_control(time_control: &str, scale_factor: f64) -> String {
    let (base, inc) = time_control.split_once('+').unwrap_or((time_control, "0"));
    let base = base.parse::<f64>().unwrap() * scale_factor;
    let inc = inc.parse::<f64>().unwrap() * scale_factor;
    format!("tc={base:.2}+{inc:.2} timemargin=250")
}

/// `build_runner_command` with `MatchRunner`'s settings, in their order, as the worker writes
/// them (an SPRT test of a standard book, no Syzygy), without the executable.
fn openbench_command(w: &ObWorkload, scale_factor: f64, timestamp: u64, runner_idx: u32) -> String {
    // basic_settings
    let mut flags = format!(" {}", "-recover -variant standard -testEnv");
    // concurrency_settings
    flags += &format!(
        " -concurrency {} -rounds {} -games {}",
        w.concurrency_per, w.rounds_per_runner, 2
    );
    // adjudication_settings: '%s %s %s' % (win_flags, draw_flags, syzygy_flags)
    flags += &format!(
        " {} {} {}",
        format_args!("-resign {}", w.win_adj),
        format_args!("-draw {}", w.draw_adj),
        ""
    );
    // engine_settings, dev then base
    for (branch, sha) in [("dev", w.dev_sha), ("base", w.base_sha)] {
        let command = engine_binary_name(w.engine, sha);
        let control = scale_time_control(w.time_control, scale_factor);
        // ' option.'.join([''] + re.findall(r'"[^"]*"|\S+', options))
        let options: String = w
            .options
            .split_whitespace()
            .map(|o| format!(" option.{o}"))
            .collect();
        flags += &format!(
            " -engine dir=Engines/ cmd=./{command} proto=uci {control}{options} name={}-{branch}",
            w.engine
        );
    }
    // book_settings
    let pairs = w.rounds_per_runner / 2;
    let start = w.book_index + runner_idx * pairs;
    let suffix = w.book.rsplit('.').next().unwrap();
    flags += &format!(
        " -openings file=Books/{} format={suffix} order=random start={start} -srand {}",
        w.book, w.book_seed
    );
    // pgnout_settings: shlex.quote('^info string pgncomment .*')
    flags += &format!(
        " -pgnout file={} seldepth=true nodes=true match_line={}",
        format_args!(
            "PGNs/{}.{}.{timestamp}.{runner_idx}.pgn",
            w.test_id, w.result_id
        ),
        "'^info string pgncomment .*'"
    );
    flags
}

/// OpenBench's worker, verbatim: `-engine dir=Engines/ cmd=./Shannon-<SHA>` (the issue's first
/// failure: every game a forfeit), its adjudication, book and `-pgnout ... match_line=`, in the
/// worker's folder. OpenBench reads every game, and every pair completes: no crash, no time
/// loss, no illegal move; the PGN's games (read as `PGNHelper` reads them) carry no error.
#[cfg(unix)]
#[test]
fn openbench_worker_verbatim() {
    let dir = scratch("frameworks-openbench");
    for folder in ["PGNs", "Engines", "Networks", "Books"] {
        std::fs::create_dir(dir.join(folder)).unwrap();
    }
    let workload = ObWorkload {
        engine: "Shannon",
        dev_sha: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c",
        base_sha: "a1b2c3d4e5f60718293a4b5c6d7e8f9011223344",
        options: "Threads=1 Hash=16",
        time_control: "8.0+0.08",
        book: "UHO_4060_v2.epd",
        book_index: 3,
        book_seed: 1234,
        win_adj: "movecount=3 score=400",
        draw_adj: "movenumber=40 movecount=8 score=10",
        concurrency_per: 2,
        rounds_per_runner: 4,
        test_id: 17,
        result_id: 42,
    };
    for sha in [workload.dev_sha, workload.base_sha] {
        install_engine(&dir.join("Engines").join(engine_binary_name("Shannon", sha)));
    }
    std::fs::write(dir.join("Books/UHO_4060_v2.epd"), BOOK_EPD).unwrap();
    let timestamp = 1_764_262_000;
    let flags = openbench_command(&workload, 0.25, timestamp, 0);
    assert!(
        flags.contains(
            " -engine dir=Engines/ cmd=./Shannon-0F1E2D3C proto=uci tc=2.00+0.02 \
             timemargin=250 option.Threads=1 option.Hash=16 name=Shannon-dev "
        ),
        "{flags}"
    );
    // `Popen(shlex.split(command), stdout=PIPE)`.
    let output = runner(&dir, &shell_words(&flags, ""));
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{out}{err}");
    let results = OpenBench::read_as_worker(&out);
    assert_eq!(
        (results.crashes, results.timelosses, results.illegals),
        (0, 0, 0),
        "{out}"
    );
    assert_eq!(results.pentanomial.iter().sum::<u64>(), 4, "{out}");
    assert_eq!(results.trinomial.iter().sum::<u64>(), 8, "{out}");
    assert!(results.games.is_empty(), "every pair completes: {out}");
    // `PGNHelper.slice_pgn_file` and `get_error_reason`.
    let pgn = dir.join(format!("PGNs/17.42.{timestamp}.0.pgn"));
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 8);
    for game in &games {
        let reason = game.tag("Termination").unwrap_or_default();
        for error in ["abandoned", "stalled", "illegal"] {
            assert!(!reason.contains(error), "{reason}: {out}");
        }
        assert_eq!(tag(game, "TimeControl"), "2+0.02");
        assert!(!game.record.moves.is_empty());
    }
}

/// What fishtest's `run_games` builds for an SPRT test with the worker's `testing` folder
/// (`cmd` from `testing_dir / engine_name`, absolute), without the executable; `_spsa_` removed
/// as `launch_fastchess` removes it when there are no SPSA parameters. The engines (this
/// shannon) are put where `setup_engine` puts them.
fn fishtest_command(testing: &Path, new_options: &str, games_to_play: u32) -> Vec<String> {
    let engine = |sha: &str| {
        // setup_engine: "-".join(["stockfish", sha, compiler_ver, env_hash])
        let name = ["stockfish", sha, "g++_12_2_0", "9c0f3e"].join("-");
        testing.join(name).display().to_string()
    };
    let (new_engine, base_engine) = (engine("0f1e2d3c4b"), engine("a1b2c3d4e5"));
    let format_fastchess_options = |options: &str| -> Vec<String> {
        options
            .split_whitespace()
            .map(|token| {
                let (key, value) = token.split_once('=').unwrap();
                format!("option.{key}={value}")
            })
            .collect()
    };
    let new_options = format_fastchess_options(new_options);
    let base_options = format_fastchess_options("Hash=16");
    let threads_cmd: Vec<String> = match new_options
        .iter()
        .chain(&base_options)
        .any(|s| s.contains("Threads"))
    {
        true => vec![],
        false => vec!["option.Threads=1".into()],
    };
    let pgn_name = "results-6561bd1b3e2f4a0c8d9e7f10-3.pgn";
    let book = "UHO_Lichess_4852_v1.epd";
    let book_depth = 8;
    let start_game_index = 0;
    let new_name = "New-0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c";
    let base_name = "Base-a1b2c3d4e5f60718293a4b5c6d7e8f9011223344";
    let mut cmd: Vec<String> = Vec::new();
    let push =
        |cmd: &mut Vec<String>, words: &[&str]| cmd.extend(words.iter().map(|w| w.to_string()));
    push(
        &mut cmd,
        &["-testEnv", "-recover", "-repeat", "-games", "2", "-rounds"],
    );
    push(&mut cmd, &[&(games_to_play / 2).to_string()]);
    push(
        &mut cmd,
        &[
            "-ratinginterval",
            "1",
            "-scoreinterval",
            "1",
            "-autosaveinterval",
            "0",
            "-report",
            "penta=true",
        ],
    );
    push(
        &mut cmd,
        &["-pgnout", &format!("file={pgn_name}"), "append=false"],
    );
    push(&mut cmd, &["-crc32", "pgn=true"]);
    push(
        &mut cmd,
        &[
            "-site",
            "https://tests.stockfishchess.org/tests/view/6561bd1b3e2f4a0c8d9e7f10",
        ],
    );
    push(&mut cmd, &["-event", "Batch 3: patch-a vs master"]);
    push(&mut cmd, &["-srand", "5764610211239047203"]);
    push(
        &mut cmd,
        &[
            "-resign",
            "movecount=3",
            "score=600",
            "-draw",
            "movenumber=34",
            "movecount=8",
            "score=20",
        ],
    );
    push(&mut cmd, &["-variant", "standard"]);
    push(&mut cmd, &["-concurrency", "2"]);
    push(
        &mut cmd,
        &[
            "-openings",
            &format!("file={book}"),
            "format=epd",
            "order=random",
            &format!("plies={}", 2 * book_depth),
            &format!("start={}", 1 + start_game_index / 2),
        ],
    );
    push(&mut cmd, &["-check-mate-pvs"]);
    push(
        &mut cmd,
        &[
            "-engine",
            &format!("name={new_name}"),
            "tc=1.5+0.015",
            &format!("cmd={new_engine}"),
            "dir=.",
        ],
    );
    cmd.extend(new_options);
    push(
        &mut cmd,
        &[
            "-engine",
            &format!("name={base_name}"),
            "tc=1.5+0.015",
            &format!("cmd={base_engine}"),
            "dir=.",
        ],
    );
    cmd.extend(base_options);
    cmd.extend(["-each".to_string(), "proto=uci".to_string()]);
    cmd.extend(threads_cmd);
    for engine in [new_engine, base_engine] {
        install_engine(Path::new(&engine));
    }
    cmd
}

/// Why fishtest's `parse_fastchess_output` stops a task.
#[derive(Debug, PartialEq)]
enum FishtestStop {
    /// A `RunException`: the line that raised it.
    Run(String),
    /// A `WorkerException`.
    Worker(String),
}

/// What `parse_fastchess_output` makes of the runner's stdout and stderr (read together), and
/// then `run_games`/worker.py of the PGN: the stats, the CRC, the updates sent.
#[derive(Debug, Default)]
struct Fishtest {
    pentanomial: [u32; 5],
    wins: u32,
    losses: u32,
    draws: u32,
    crashes: u32,
    time_losses: u32,
    crc: Option<String>,
    updates: u32,
}

impl Fishtest {
    fn read(
        lines: &str,
        returncode: i32,
        games_to_play: u32,
        batch_size: u32,
    ) -> Result<Fishtest, FishtestStop> {
        let pattern_wld = Regex::new(
            r"Games: ([0-9]+), Wins: ([0-9]+), Losses: ([0-9]+), Draws: ([0-9]+), Points: ([0-9.]+) \(",
        )
        .unwrap();
        let pattern_ptnml =
            Regex::new(r"Ptnml\(0-2\): \[([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+)\]")
                .unwrap();
        let errors = [
            r"Warning;.*doesn't have option",
            r"Warning; Invalid value for option",
            r"Warning; Failed to set.*option",
            r"Warning; No info line available to extract score from engine",
            r"Warning; Illegal move",
            r"Warning; Could not extract score from engine",
            r"Warning; Illegal PV move",
            r"Warning; Move does not match uci move format",
            r"Warning; PV continues after checkmate",
            r"Warning; PV continues after stalemate",
            r"Warning; PV continues after threefold",
            r"Warning; PV continues after fifty-move rule",
            r"Warning; Incomplete mating PV",
            r"Warning; Too long mating PV",
            r"Warning; Mating PV does not end with checkmate",
            r"Warning; Bestmove does not match beginning of last PV",
            r"Warning; Sign mismatch in mate scores",
        ]
        .map(|p| Regex::new(p).unwrap());
        let mut state = Fishtest::default();
        let (mut wld, mut ptnml): (Option<[u32; 4]>, Option<[u32; 5]>) = (None, None);
        let mut num_games_updated = 0;
        for line in lines.lines().map(str::trim) {
            if line.contains("has CRC32:") {
                state.crc = line.split_whitespace().last().map(String::from);
            }
            if line.contains("Finished match") && num_games_updated != games_to_play {
                return Err(FishtestStop::Worker(format!(
                    "Finished match uncleanly {num_games_updated} vs. required {games_to_play}."
                )));
            }
            if errors.iter().any(|p| p.is_match(line)) {
                return Err(FishtestStop::Run(format!("fastchess says: '{line}'")));
            }
            if line.contains("disconnect") || line.contains("stall") {
                state.crashes += 1;
            }
            if line.contains("on time") || line.contains("timeout") {
                state.time_losses += 1;
            }
            if let Some(m) = pattern_wld.captures(line) {
                wld = Some([1, 2, 3, 4].map(|i| m[i].parse().unwrap()));
            }
            if let Some(m) = pattern_ptnml.captures(line) {
                ptnml = Some([1, 2, 3, 4, 5].map(|i| m[i].parse().unwrap()));
            }
            if let (Some([games, wins, losses, draws]), Some(penta)) = (wld, ptnml) {
                state.pentanomial = penta;
                (state.wins, state.losses, state.draws) = (wins, losses, draws);
                let pairs: u32 = penta.iter().sum();
                assert_eq!(2 * pairs, wins + losses + draws, "{line}");
                assert_eq!(games, 2 * pairs, "{line}");
                assert!(games <= num_games_updated + batch_size, "{line}");
                assert!(games <= games_to_play, "{line}");
                (wld, ptnml) = (None, None);
                if games == num_games_updated + batch_size || games == games_to_play {
                    // update_task, answered task_alive.
                    num_games_updated = games;
                    state.updates += 1;
                }
            }
        }
        if returncode != 0 {
            return Err(FishtestStop::Worker(format!(
                "Fastchess failed with error code {returncode}"
            )));
        }
        Ok(state)
    }
}

/// zlib's CRC-32 as fishtest checks it: `hex(zlib.crc32(file_content))`.
fn zlib_crc32_hex(path: &Path) -> String {
    let crc = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
    format!("{:#x}", crc.checksum(&std::fs::read(path).unwrap()))
}

/// Lay out fishtest's `testing` folder (the book beside the engines) and run its command line.
fn fishtest_run(name: &str, new_options: &str, games: u32) -> (crate::common::Scratch, Output) {
    let worker = scratch(name);
    let testing = worker.join("testing");
    std::fs::create_dir(&testing).unwrap();
    std::fs::write(testing.join("UHO_Lichess_4852_v1.epd"), BOOK_EPD).unwrap();
    let cmd = fishtest_command(&testing, new_options, games);
    let output = runner(&testing, &cmd);
    (worker, output)
}

/// fishtest's worker, verbatim: its fastchess command line (`-crc32 pgn=true`, `-recover`,
/// `-report penta=true`, the engines by absolute path in `dir=.`) for an SPRT task of 8 games
/// (batches of one pair). Its parser sees every update, no crash and no time loss, and the CRC32
/// it reads equals the PGN's, so it would upload the file.
#[test]
fn fishtest_worker_verbatim() {
    let games = 8;
    let (worker, output) = fishtest_run("frameworks-fishtest", "Hash=16", games);
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    let both = format!("{out}{err}");
    let read = Fishtest::read(&both, output.status.code().unwrap_or(-1), games, 2)
        .unwrap_or_else(|stop| panic!("{stop:?}\n{both}"));
    assert_eq!((read.crashes, read.time_losses), (0, 0), "{both}");
    assert_eq!(read.pentanomial.iter().sum::<u32>(), 4, "{both}");
    assert_eq!(read.wins + read.losses + read.draws, games, "{both}");
    assert_eq!(read.updates, 4, "{both}");
    let pgn = worker.join("testing/results-6561bd1b3e2f4a0c8d9e7f10-3.pgn");
    assert_eq!(read_pgn(&pgn).len(), games as usize);
    let crc = read.crc.expect("a CRC32 line");
    assert_eq!(crc, zlib_crc32_hex(&pgn), "{out}");
    // One CRC line per game written, before its Finished line, as fastchess prints them.
    assert_eq!(
        out.matches(" has CRC32: 0x").count(),
        games as usize,
        "{out}"
    );
    assert!(
        out.contains("File results-6561bd1b3e2f4a0c8d9e7f10-3.pgn has CRC32: 0x"),
        "{out}"
    );
}

/// fishtest's worker with a misspelled option (`option.Hahs=16`, the issue's example) and an
/// invalid value: fastchess's warnings, which fishtest's parser stops the task on.
#[test]
fn fishtest_stops_on_an_option_warning() {
    let (_worker, output) = fishtest_run("frameworks-fishtest-option", "Hahs=16", 2);
    let out = String::from_utf8_lossy(&output.stdout);
    let stop = Fishtest::read(&out, output.status.code().unwrap_or(-1), 2, 2).unwrap_err();
    assert_eq!(
        stop,
        FishtestStop::Run(
            "fastchess says: 'Warning; New-0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c doesn't \
             have option Hahs'"
                .into()
        ),
        "{out}"
    );
    let (_worker, output) = fishtest_run("frameworks-fishtest-value", "Hash=-16", 2);
    let out = String::from_utf8_lossy(&output.stdout);
    let stop = Fishtest::read(&out, output.status.code().unwrap_or(-1), 2, 2).unwrap_err();
    assert_eq!(
        stop,
        FishtestStop::Run("fastchess says: 'Warning; Invalid value for option Hash; -16'".into()),
        "{out}"
    );
}

/// `-crc32 pgn=true` on a PGN that already holds a game (both tools append to it): a line after
/// each game written, and the last one is the whole file's CRC, what it held before included.
#[test]
fn the_crc32_is_the_whole_files_when_a_run_appends() {
    let dir = scratch("frameworks-crc-append");
    let words = |pgn: &str| -> Vec<String> {
        shell_words(
            &format!(
                "-engine cmd={{shannon}} name=a -engine cmd={{shannon}} name=b -each nodes=1 \
                 -rounds 1 -games 2 -pgnout file={pgn} -crc32 pgn=true"
            ),
            "",
        )
    };
    std::fs::write(dir.join("old.pgn"), "[Event \"before\"]\n\n1. e4 *\n\n").unwrap();
    let output = runner(&dir, &words("old.pgn"));
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    let last = out
        .lines()
        .rfind(|line| line.starts_with("File old.pgn has CRC32: "))
        .map(|line| line.split_whitespace().last().unwrap().to_string());
    assert_eq!(out.matches(" has CRC32: ").count(), 2, "{out}");
    assert_eq!(last, Some(zlib_crc32_hex(&dir.join("old.pgn"))), "{out}");
}
