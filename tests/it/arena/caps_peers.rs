//! Per-move caps beside a clock (`tc=20+0.2 nodes=5000`, `st=1 depth=4`): both tools accept them
//! and send the clock with the caps. The same command lines were played by the real
//! cutechess-cli 1.5.1 (with `-debug all`) and fastchess 1.8.2-alpha (with `-log ...
//! engine=true`), recorded in `tests/data/peers/caps/` (see tests/data/peers/README.md), and by
//! `shannon match` in each tool's form. The players are Stockfish, which stops at its node or
//! depth cap long before its clock, and a seeded Shannon engine, so both runners play the same
//! games; the `go` lines are compared with the clocks' times masked (they are the moves' real
//! durations), every other word in place.

use super::odds::{dev_and_base, odds_games, TOOLS};
use super::peer_tools::stockfish_as_recorded;
use super::run;
use super::sprt_peers::sprt_folder;
use crate::common::data_path;
use crate::common::MatchLine;
use std::path::{Path, PathBuf};

/// The recorded cases: name, and the engines' words (`{sf}`: Stockfish's command and options).
pub(super) const CASES: [(&str, &str); 3] = [
    (
        "clock",
        "-engine {sf} name=sf tc=20+0.2 nodes=5000 \
         -engine cmd=./shannon name=random option.Seed=7 tc=20+0.2 depth=8",
    ),
    (
        "stockfish",
        "-engine {sf} name=sf-a tc=40/20+0.2 nodes=3000 depth=9 \
         -engine {sf} name=sf-b tc=20+0.2 depth=6 -maxmoves 100",
    ),
    (
        "movetime",
        "-engine {sf} name=sf st=1 nodes=4000 \
         -engine cmd=./shannon name=random option.Seed=7 st=0.5 depth=4",
    ),
];

/// What every case shares.
const COMMON: &str = "-each proto=uci -openings file=openings.epd format=epd \
                      order=sequential -games 2 -rounds 3 -repeat -concurrency 1";

/// The command line of `case` for `tool` with Stockfish at `stockfish`: its PGN written to
/// `CASE.TOOL.pgn`, the engines' lines shown (cutechess-cli's `-debug all` on standard output,
/// fastchess's log `CASE.TOOL.log`).
pub(super) fn caps_words(case: &str, tool: &str, stockfish: &Path) -> Vec<String> {
    let engines = CASES.iter().find(|(name, _)| *name == case).unwrap().1;
    let sf = stockfish_words(stockfish);
    let shown = match tool.starts_with("fastchess") {
        true => format!(
            "-log file={case}.{tool}.log level=warn engine=true -pgnout file={case}.{tool}.pgn"
        ),
        false => format!("-debug all -pgnout {case}.{tool}.pgn"),
    };
    format!("{} {COMMON} {shown}", engines.replace("{sf}", &sf))
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// Stockfish as the recordings' `{sf}` has it: its command, one thread, 16 MB of hash.
pub(super) fn stockfish_words(stockfish: &Path) -> String {
    format!(
        "cmd={} option.Threads=1 option.Hash=16",
        stockfish.display()
    )
}

/// A recorded file of `tests/data/peers/caps/`.
pub(super) fn recorded(name: &str) -> PathBuf {
    data_path(&format!("peers/caps/{name}"))
}

/// The `go` lines of a run, `ENGINE: go ...`, from cutechess-cli's debug lines
/// (`691 >sf(0): go ...`) or fastchess's log (`... sf <--- go ...`), as the recipe's `grep`
/// and `sed` take them.
pub(super) fn go_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            if let Some((head, go)) = line.split_once(" <--- go") {
                let name = head.rsplit(' ').next()?;
                return Some(format!("{name}: go{go}"));
            }
            let (head, go) = line.split_once("): go")?;
            let name = head.split_once(" >")?.1.rsplit_once('(')?.0;
            Some(format!("{name}: go{go}"))
        })
        .collect()
}

/// `go` lines with the clocks' times (`wtime N`, `btime N`) masked: the moves' real durations.
pub(super) fn masked(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|line| {
            let mut words: Vec<&str> = line.split(' ').collect();
            for i in 1..words.len() {
                if matches!(words[i - 1], "wtime" | "btime") {
                    words[i] = "T";
                }
            }
            words.join(" ")
        })
        .collect()
}

/// cutechess-cli's standard output without its debug lines (`N >engine(i): ...`, `N <...`).
pub(super) fn printed(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|line| {
            let mut words = line.splitn(2, ' ');
            let time = words.next().unwrap_or_default();
            let rest = words.next().unwrap_or_default();
            !(time.chars().all(|c| c.is_ascii_digit())
                && (rest.starts_with('>') || rest.starts_with('<')))
        })
        .map(String::from)
        .collect()
}

/// fastchess's lines that do not tell the run's time: the games' and the report's.
fn fastchess_lines(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|line| !line.starts_with("Total Time:"))
        .map(String::from)
        .collect()
}

/// Every case in each tool's form: the games the tool played (opening, moves, result,
/// time-control tags), the `go` lines its engines received, and what it printed.
#[test]
fn caps_beside_a_clock_play_as_each_tool_plays_them() {
    let Some(stockfish) = stockfish_as_recorded() else {
        return;
    };
    let dir = sprt_folder("caps-forms");
    for (case, _) in CASES {
        for tool in TOOLS {
            let mut args = vec!["match".to_string()];
            args.extend(caps_words(case, tool, &stockfish));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (ok, out, err) = run(&args, &dir);
            assert!(ok, "{case} {tool}: {out}{err}");
            let pgn = format!("{case}.{tool}.pgn");
            let theirs = odds_games(&recorded(&pgn));
            assert_eq!(theirs.len(), 6, "{pgn}");
            assert_eq!(
                odds_games(&dir.join(&pgn)),
                theirs,
                "{case} in {tool}'s form"
            );
            let ours_go = match tool.starts_with("fastchess") {
                true => std::fs::read_to_string(dir.join(format!("{case}.{tool}.log"))).unwrap(),
                false => out.clone(),
            };
            let theirs_go =
                std::fs::read_to_string(recorded(&format!("{case}.{tool}.go.txt"))).unwrap();
            let theirs_go: Vec<String> = theirs_go.lines().map(String::from).collect();
            assert!(!theirs_go.is_empty(), "{case} {tool}");
            assert_eq!(
                masked(&go_lines(&ours_go)),
                masked(&theirs_go),
                "{case} in {tool}'s form: the go lines"
            );
            let theirs_out =
                std::fs::read_to_string(recorded(&format!("{case}.{tool}.txt"))).unwrap();
            match tool.starts_with("fastchess") {
                true => assert_eq!(
                    fastchess_lines(&out),
                    fastchess_lines(&theirs_out),
                    "{case}: fastchess's lines"
                ),
                false => assert_eq!(
                    printed(&out),
                    printed(&theirs_out),
                    "{case}: cutechess-cli's lines"
                ),
            }
        }
    }
}

/// The recorded `go` lines are each tool's word order: cutechess-cli's caps after the time,
/// `depth` before `nodes`; fastchess's before it, `nodes` before `depth`.
#[test]
fn the_tools_put_the_caps_in_their_own_places() {
    let first = |file: &str, engine: &str| {
        let text = std::fs::read_to_string(recorded(file)).unwrap();
        let lines: Vec<String> = text.lines().map(String::from).collect();
        masked(&lines)
            .into_iter()
            .find(|line| line.starts_with(&format!("{engine}: ")))
            .unwrap()
    };
    assert_eq!(
        first("stockfish.cutechess-cli-1.5.1.go.txt", "sf-a"),
        "sf-a: go wtime T btime T winc 200 binc 200 movestogo 40 depth 9 nodes 3000"
    );
    assert_eq!(
        first("stockfish.fastchess-1.8.2-alpha.go.txt", "sf-a"),
        "sf-a: go nodes 3000 depth 9 wtime T btime T winc 200 binc 200 movestogo 40"
    );
    assert_eq!(
        first("movetime.cutechess-cli-1.5.1.go.txt", "sf"),
        "sf: go movetime 1000 nodes 4000"
    );
    assert_eq!(
        first("movetime.fastchess-1.8.2-alpha.go.txt", "random"),
        "random: go depth 4 movetime 500"
    );
}

/// Shannon's own form: caps after the pace, in `--tc`, `--engine-tc` and an engines file's
/// `tc`; the header names them, the PGN's tag shows the clock alone, and a resumed run keeps
/// them (the state keeps them since format 6).
#[test]
fn our_own_form_puts_caps_beside_the_clock() {
    let dir = super::scratch("caps-own");
    dev_and_base(&dir, "5+0.05,depth=3");
    let (ok, out, err) = MatchLine::new()
        .engines("dev,base")
        .tc("10+0.1,nodes=5000")
        .games(2)
        .pgn("own.pgn")
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("tc 10+0.1,nodes=5000 (base 5+0.05,depth=3)"),
        "{out}"
    );
    for game in super::read_pgn(&dir.join("own.pgn")) {
        let tags = [game.tag("WhiteTimeControl"), game.tag("BlackTimeControl")];
        assert!(tags.contains(&Some("10+0.1")) && tags.contains(&Some("5+0.05")));
    }
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("own.pgn.state.json")).unwrap())
            .unwrap();
    assert_eq!(state["format"], shannon::arena::STATE_FORMAT);
    assert_eq!(state["settings"]["time_control"], "10+0.1,nodes=5000");
    assert_eq!(
        state["settings"]["engine_limits"]["base"]["time_control"],
        "5+0.05,depth=3"
    );
    let (ok, _, err) = MatchLine::new()
        .tc("10+0.1,nodes=5,nodes=6")
        .pgn("-")
        .run_in(&dir);
    assert!(!ok);
    assert!(
        err.contains("'10+0.1,nodes=5,nodes=6' is not a time control"),
        "{err}"
    );
}

/// The engines' words of the recorded move without any limit (`record-infinite.sh`).
const INFINITE: &str = "-engine cmd=./shannon name=alpha option.Seed=11 tc=inf nodes=1000 \
                        -engine cmd=./shannon name=beta option.Seed=22 tc=inf \
                        -each proto=uci -openings file=openings.epd format=epd \
                        order=sequential -games 2 -rounds 1 -repeat -concurrency 1";

/// A move without any limit (`tc=inf` alone): cutechess-cli's form sends `go infinite`, as
/// cutechess-cli 1.5.1 did (`tests/data/peers/caps/infinite.*`); the engine, keeping to UCI,
/// waits for a `stop` no runner sends, so the run is interrupted once the line went out, and its
/// game is the recorded one (one move, `*`). fastchess's form refuses the line, as fastchess
/// did; Shannon's own form sends a bare `go`, which the engine answers.
#[test]
fn a_move_without_any_limit_is_sent_as_each_tool_sends_it() {
    use std::io::BufRead;
    let dir = sprt_folder("caps-infinite");
    let mut words: Vec<&str> = vec!["match"];
    words.extend(INFINITE.split_whitespace());
    words.extend(["-debug", "all", "-pgnout", "infinite.pgn"]);
    let mut child = crate::common::shannon_command(&words)
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("shannon runs");
    let mut shown = String::new();
    for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        shown.push_str(&line);
        shown.push('\n');
        if line.ends_with("): go infinite") {
            let status = std::process::Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status()
                .expect("kill runs");
            assert!(status.success());
        }
    }
    child.wait().unwrap();
    let theirs = std::fs::read_to_string(recorded("infinite.cutechess-cli-1.5.1.go.txt")).unwrap();
    let theirs: Vec<String> = theirs.lines().map(String::from).collect();
    assert_eq!(theirs, ["alpha: go nodes 1000", "beta: go infinite"]);
    assert_eq!(go_lines(&shown), theirs, "{shown}");
    assert_eq!(
        odds_games(&dir.join("infinite.pgn")),
        odds_games(&recorded("infinite.cutechess-cli-1.5.1.pgn"))
    );

    let mut words: Vec<&str> = vec!["match"];
    words.extend(INFINITE.split_whitespace());
    words.extend(["-pgnout", "file=refused.pgn"]);
    let (ok, _, err) = run(&words, &dir);
    let theirs = std::fs::read_to_string(recorded("infinite.fastchess-1.8.2-alpha.txt")).unwrap();
    assert_eq!(theirs.trim_end(), "Error; no TimeControl specified!");
    assert!(
        !ok && err.contains("-engine #2 needs a time control"),
        "{err}"
    );
    assert!(err.contains(theirs.trim_end()), "{err}");
    assert!(!dir.join("refused.pgn").exists());

    let (ok, out, err) = MatchLine::new()
        .tc("inf")
        .games(2)
        .pgn("own.pgn")
        .seed(3)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert_eq!(super::read_pgn(&dir.join("own.pgn")).len(), 2);
}
