//! Pondering, cutechess-cli's engine key `ponder`, side by side with the real cutechess-cli 1.5.1
//! (recorded in `tests/data/peers/ponder/`, see its `record.sh`): the players are seeded Shannon
//! engines, whose `Ponder` option names the reply their own seed would choose (two engines of one
//! seed always hit; of two seeds mostly miss), and Stockfish at fixed nodes (not pondering), so
//! both runners play the same games. Compared: the games, what cutechess-cli prints, and each
//! engine's `go`, `go ponder`, `ponderhit` and `stop` lines in order, the clocks' times masked.
//!
//! One difference is cutechess-cli's timing, not its rule: when the opponent's move arrives
//! before the pondering engine's `readyok`, cutechess-cli drops the `go ponder` it had not sent
//! yet (`UciEngine::makeMove`: `clearWriteBuffer`), so that engine gets neither `go ponder` nor
//! `stop` for that move. Shannon waits for `readyok` before the opponent is asked, so it always
//! sends both; a `go ponder` and its `stop` where the recording has neither are passed over (and
//! counted), nothing else.

use super::caps_peers::{masked, printed, stockfish_words};
use super::odds::odds_games;
use super::peer_tools::stockfish_as_recorded;
use super::run;
use super::sprt_peers::sprt_folder;
use crate::common::data_path;
use std::path::{Path, PathBuf};

/// The recorded cases: name, and the words before the shared ones (`{sf}`: Stockfish's command
/// and options).
pub(super) const CASES: [(&str, &str); 3] = [
    (
        "hits",
        "-engine cmd=./shannon name=a option.Seed=7 ponder \
         -engine cmd=./shannon name=b option.Seed=7 ponder -each tc=10+0.1",
    ),
    (
        "misses",
        "-engine cmd=./shannon name=a option.Seed=7 ponder \
         -engine cmd=./shannon name=b option.Seed=8 ponder -each st=0.2",
    ),
    (
        "stockfish",
        "-maxmoves 60 -engine {sf} name=sf nodes=2000 \
         -engine cmd=./shannon name=random option.Seed=7 ponder -each tc=10+0.1",
    ),
];

/// What every case shares (continuing its `-each`).
const COMMON: &str = "proto=uci -openings file=openings.epd format=epd order=sequential \
                      -games 2 -rounds 2 -repeat -concurrency 1";

/// The command line of `case` with Stockfish at `stockfish`: its PGN written to
/// `CASE.cutechess-cli-1.5.1.pgn`, the engines' lines shown (`-debug all`).
pub(super) fn ponder_words(case: &str, stockfish: &Path) -> Vec<String> {
    let engines = CASES.iter().find(|(name, _)| *name == case).unwrap().1;
    let sf = stockfish_words(stockfish);
    format!(
        "{} {COMMON} -debug all -pgnout {case}.cutechess-cli-1.5.1.pgn",
        engines.replace("{sf}", &sf)
    )
    .split_whitespace()
    .map(String::from)
    .collect()
}

/// A recorded file of `tests/data/peers/ponder/`.
pub(super) fn recorded(name: &str) -> PathBuf {
    data_path(&format!("peers/ponder/{name}"))
}

/// The lines that start, hit or stop a search, `ENGINE: go ...`, `ENGINE: ponderhit`,
/// `ENGINE: stop`, from cutechess-cli's debug lines (`691 >sf(0): go ...`), as the recipe's
/// `grep` and `sed` take them.
pub(super) fn search_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let (head, said) = line.split_once("): ")?;
            let name = head.split_once(" >")?.1.rsplit_once('(')?.0;
            let starts = said.starts_with("go") || said == "ponderhit" || said == "stop";
            starts.then(|| format!("{name}: {said}"))
        })
        .collect()
}

/// Whether `ours` is `theirs` but for `go ponder` lines each followed by that engine's `stop`
/// where `theirs` has neither (cutechess-cli's dropped `go ponder`); the number passed over, or
/// the first line that differs.
pub(super) fn same_but_dropped_ponders(
    ours: &[String],
    theirs: &[String],
) -> Result<usize, String> {
    let mut dropped = 0;
    let mut ours = ours.to_vec();
    let mut i = 0;
    while i < ours.len() {
        if theirs.get(i) == Some(&ours[i]) {
            i += 1;
            continue;
        }
        let engine = ours[i].split_once(": ").map_or("", |(name, _)| name);
        let stop = format!("{engine}: stop");
        let next_own = ours[i + 1..]
            .iter()
            .position(|line| line.starts_with(&format!("{engine}: ")))
            .map(|at| i + 1 + at);
        match next_own {
            Some(at)
                if ours[i].starts_with(&format!("{engine}: go ponder")) && ours[at] == stop =>
            {
                ours.remove(at);
                ours.remove(i);
                dropped += 1;
            }
            _ => {
                return Err(format!(
                    "line {}: ours {:?}, theirs {:?}",
                    i + 1,
                    ours[i],
                    theirs.get(i)
                ))
            }
        }
    }
    match ours.len() == theirs.len() {
        true => Ok(dropped),
        false => Err(format!("theirs goes on: {:?}", theirs.get(ours.len()))),
    }
}

/// Each engine's lines alone, in order.
fn of_engine(lines: &[String], engine: &str) -> Vec<String> {
    lines
        .iter()
        .filter(|line| line.starts_with(&format!("{engine}: ")))
        .cloned()
        .collect()
}

/// Every case in cutechess-cli's form: the games, what it printed, and each engine's search
/// lines (`go ponder` with the clocks as they stand, `ponderhit` on a hit, `stop` and a new `go`
/// on a miss, `stop` at the game's end).
#[test]
fn pondering_plays_as_cutechess_cli_plays_it() {
    let Some(stockfish) = stockfish_as_recorded() else {
        return;
    };
    let dir = sprt_folder("ponder-forms");
    let mut passed_over = Vec::new();
    for (case, _) in CASES {
        let mut args = vec!["match".to_string()];
        args.extend(ponder_words(case, &stockfish));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, out, err) = run(&args, &dir);
        assert!(ok, "{case}: {out}{err}");
        let tool = "cutechess-cli-1.5.1";
        let pgn = format!("{case}.{tool}.pgn");
        let theirs = odds_games(&recorded(&pgn));
        assert_eq!(theirs.len(), 4, "{pgn}");
        assert_eq!(odds_games(&dir.join(&pgn)), theirs, "{case}: the games");
        let theirs_out = std::fs::read_to_string(recorded(&format!("{case}.{tool}.txt"))).unwrap();
        assert_eq!(printed(&out), printed(&theirs_out), "{case}: the lines");
        let theirs_lines =
            std::fs::read_to_string(recorded(&format!("{case}.{tool}.ponder.txt"))).unwrap();
        let theirs_lines: Vec<String> = theirs_lines.lines().map(String::from).collect();
        let ours_lines = masked(&search_lines(&out));
        let theirs_lines = masked(&theirs_lines);
        let engines: &[&str] = match case {
            "stockfish" => &["sf", "random"],
            _ => &["a", "b"],
        };
        for engine in engines {
            let (ours, theirs) = (
                of_engine(&ours_lines, engine),
                of_engine(&theirs_lines, engine),
            );
            assert!(!theirs.is_empty(), "{case} {engine}");
            match same_but_dropped_ponders(&ours, &theirs) {
                Ok(dropped) => passed_over.push(format!("{case} {engine}: {dropped}")),
                Err(why) => panic!("{case}, {engine}'s search lines: {why}"),
            }
        }
        let pondered = ours_lines.iter().any(|l| l.contains(": go ponder"));
        assert!(pondered || case == "hits", "{case}: no go ponder");
    }
    println!("go ponder and stop that cutechess-cli's timing dropped: {passed_over:?}");
}

/// What the recordings show of cutechess-cli's rules: a hit is `ponderhit` (no new `go`), a
/// miss `stop` then `go`; `go ponder` carries the clocks and the caps as `go` does; Stockfish,
/// not told `ponder`, never ponders; and the Shannon engine's reply is its seed's own choice (one
/// seed: every ponder a hit).
#[test]
fn the_recordings_show_cutechess_clis_pondering() {
    let lines = |case: &str| -> Vec<String> {
        let text =
            std::fs::read_to_string(recorded(&format!("{case}.cutechess-cli-1.5.1.ponder.txt")))
                .unwrap();
        masked(&text.lines().map(String::from).collect::<Vec<_>>())
    };
    let hits = lines("hits");
    let a = of_engine(&hits, "a");
    assert!(a.iter().all(|l| l != "a: stop"), "one seed: no miss");
    assert!(a.contains(&"a: go ponder wtime T btime T winc 100 binc 100".to_string()));
    for pair in a.windows(2) {
        if pair[0].starts_with("a: go ponder") {
            assert_eq!(pair[1], "a: ponderhit");
        }
    }
    let misses = lines("misses");
    let b = of_engine(&misses, "b");
    assert!(b.contains(&"b: go ponder movetime 200".to_string()));
    for pair in b.windows(2) {
        if pair[0] == "b: stop" {
            assert!(pair[1] == "b: go movetime 200" || pair[1] == "b: go ponder movetime 200");
        }
    }
    let sf = of_engine(&lines("stockfish"), "sf");
    assert!(sf.iter().all(|l| !l.contains("ponder") && l != "sf: stop"));
}

/// The comparison passes over only what cutechess-cli's timing drops.
#[test]
fn only_a_dropped_go_ponder_and_its_stop_are_passed_over() {
    let v = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    let theirs = v(&["a: go movetime 1", "b: go movetime 1", "a: go movetime 1"]);
    let ours = v(&[
        "a: go movetime 1",
        "a: go ponder movetime 1",
        "b: go movetime 1",
        "a: stop",
        "a: go movetime 1",
    ]);
    assert_eq!(same_but_dropped_ponders(&ours, &theirs), Ok(1));
    let hit = v(&[
        "a: go movetime 1",
        "a: go ponder movetime 1",
        "b: go movetime 1",
        "a: ponderhit",
    ]);
    assert!(same_but_dropped_ponders(&hit, &theirs).is_err());
    assert!(same_but_dropped_ponders(&theirs[..2], &theirs).is_err());
}

/// Shannon's own form: `ponder = true` in engines.toml. Two engines of one seed always hit: each
/// engine's own log (its `Debug Log File`) shows `setoption name Ponder value true`, `go ponder`
/// and `ponderhit`, and the games are those of the same match without pondering.
#[test]
fn our_own_form_ponders_from_engines_toml() {
    let dir = super::scratch("ponder-own");
    let engines = |ponder: bool, tag: &str| {
        format!(
            "[[engine]]\nname = \"a\"\ncommand = \"self\"\nponder = {ponder}\n\
             options = {{ Seed = 3, \"Debug Log File\" = \"a-{tag}.log\" }}\n\n\
             [[engine]]\nname = \"b\"\ncommand = \"self\"\nponder = {ponder}\n\
             options = {{ Seed = 3 }}\n"
        )
    };
    let mut games = Vec::new();
    for (ponder, tag) in [(true, "on"), (false, "off")] {
        std::fs::write(dir.join("engines.toml"), engines(ponder, tag)).unwrap();
        let pgn = format!("{tag}.pgn");
        let (ok, out, err) = crate::common::MatchLine::new()
            .engines("a,b")
            .tc("10+0.1")
            .games(2)
            .pgn(&pgn)
            .run_in(&dir);
        assert!(ok, "{out}{err}");
        let played = super::read_pgn(&dir.join(&pgn));
        games.push(
            played
                .into_iter()
                .map(|g| g.record.moves)
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(games[0], games[1]);
    let log = std::fs::read_to_string(dir.join("a-on.log")).unwrap();
    for said in [
        "setoption name Ponder value true",
        "go ponder wtime",
        "ponderhit",
    ] {
        assert!(log.contains(said), "{said}: {log}");
    }
    assert!(!log.contains(">> stop"), "one seed: no miss");
    let log = std::fs::read_to_string(dir.join("a-off.log")).unwrap();
    assert!(!log.contains("ponder"), "{log}");
}

/// An xboard engine told `ponder` is sent `hard` before each game instead of `easy`, as
/// cutechess-cli 1.5.1's `XboardEngine::startGame` sends it (checked beside the real tool: the
/// same `hard`/`easy` lines and games for this command line), and ponders by itself.
#[test]
fn an_xboard_engine_told_ponder_is_sent_hard() {
    let dir = sprt_folder("ponder-xboard");
    let line = "match -engine cmd=./shannon name=a proto=xboard option.Seed=7 ponder \
                -engine cmd=./shannon name=b option.Seed=8 proto=xboard -each tc=10+0.1 \
                -openings file=openings.epd format=epd order=sequential -games 2 -rounds 1 \
                -repeat -concurrency 1 -debug all -pgnout xboard.pgn";
    let args: Vec<&str> = line.split_whitespace().collect();
    let (ok, out, err) = run(&args, &dir);
    assert!(ok, "{out}{err}");
    let said: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_once(' ').map(|(_, rest)| rest))
        .filter(|rest| rest.ends_with(": hard") || rest.ends_with(": easy"))
        .collect();
    assert_eq!(
        said,
        [">a(0): hard", ">b(1): easy", ">b(1): easy", ">a(0): hard"]
    );
    assert_eq!(super::read_pgn(&dir.join("xboard.pgn")).len(), 2);
}

/// Before each game cutechess-cli tells every engine that declares `Ponder` whether it may
/// ponder, `false` to one without the key (seen beside the real tool: the same lines for this
/// command line); fastchess's form says nothing of it.
#[test]
fn each_form_tells_ponder_as_its_tool_does() {
    let Some(stockfish) = stockfish_as_recorded() else {
        return;
    };
    let dir = sprt_folder("ponder-option");
    let engines = format!(
        "-maxmoves 10 -engine {} name=sf nodes=2000 \
         -engine cmd=./shannon name=random option.Seed=7 -each tc=10+0.1 proto=uci \
         -openings file=openings.epd format=epd order=sequential -games 2 -rounds 1 -repeat \
         -concurrency 1",
        stockfish_words(&stockfish)
    );
    let told = |out: &str| -> Vec<String> {
        out.lines()
            .filter_map(|line| line.split_once(' ').map(|(_, rest)| rest))
            .filter(|rest| rest.contains("setoption name Ponder"))
            .map(String::from)
            .collect()
    };
    let line = format!("match {engines} -debug all");
    let args: Vec<&str> = line.split_whitespace().collect();
    let (ok, out, err) = run(&args, &dir);
    assert!(ok, "{out}{err}");
    assert_eq!(
        told(&out),
        [
            ">sf(0): setoption name Ponder value false",
            ">random(1): setoption name Ponder value false",
            ">random(1): setoption name Ponder value false",
            ">sf(0): setoption name Ponder value false",
        ]
    );
    let line = format!("match {engines} -log file=fast.log level=warn engine=true");
    let args: Vec<&str> = line.split_whitespace().collect();
    let (ok, out, err) = run(&args, &dir);
    assert!(ok, "{out}{err}");
    let log = std::fs::read_to_string(dir.join("fast.log")).unwrap();
    assert!(
        log.contains("<--- go") && !log.contains("Ponder value"),
        "{log}"
    );
}
