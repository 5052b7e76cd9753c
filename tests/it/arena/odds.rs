//! Time and depth odds: each engine plays under its own limits, and the PGN says so as each tool
//! writes it. The same command lines were played by the real cutechess-cli 1.5.1 and fastchess
//! 1.8.2-alpha (recorded in `tests/data/peers/odds/`, see tests/data/peers/README.md) and by
//! `shannon match` in each tool's form; the players are two seeded Shannon engines, so both
//! runners play the same games. `peer_tools.rs` records them again with the real tools.
//!
//! The recorded cases: a clock against a clock with moves per period (`tc=10+0.1` against
//! `tc=40/5+0.05`), fastchess's comparison with cutechess-cli (`app/tests/cutechess/`: depth 6
//! against depth 8), and a fixed time per move against a node limit (`st=0.2` against
//! `tc=inf nodes=1000`).

use super::sprt_peers::sprt_folder;
use super::{read_pgn, run, scratch, tag};
use crate::common::data_path;
use crate::common::MatchLine;
use std::path::{Path, PathBuf};

/// The recorded cases: name, and the two engines' words.
pub(super) const CASES: [(&str, &str); 3] = [
    (
        "clock",
        "-engine cmd=./shannon name=alpha option.Seed=11 tc=10+0.1 \
         -engine cmd=./shannon name=beta option.Seed=22 tc=40/5+0.05",
    ),
    (
        "depth",
        "-engine cmd=./shannon name=alpha option.Seed=11 tc=inf depth=6 \
         -engine cmd=./shannon name=beta option.Seed=22 tc=inf depth=8",
    ),
    (
        "mixed",
        "-engine cmd=./shannon name=alpha option.Seed=11 st=0.2 \
         -engine cmd=./shannon name=beta option.Seed=22 tc=inf nodes=1000",
    ),
];

/// What every case shares.
const COMMON: &str = "-each proto=uci -openings file=openings.epd format=epd \
                      order=sequential -games 2 -rounds 3 -repeat -concurrency 1";

/// The two tools, by the recorded files' names.
pub(super) const TOOLS: [&str; 2] = ["cutechess-cli-1.5.1", "fastchess-1.8.2-alpha"];

/// The command line of `case` for `tool`, its PGN written to `pgn`.
pub(super) fn odds_words(case: &str, tool: &str, pgn: &str) -> Vec<String> {
    let engines = CASES.iter().find(|(name, _)| *name == case).unwrap().1;
    let mut words: Vec<String> = engines.split_whitespace().map(String::from).collect();
    words.extend(COMMON.split_whitespace().map(String::from));
    words.push("-pgnout".to_string());
    words.push(match tool.starts_with("fastchess") {
        true => format!("file={pgn}"),
        false => pgn.to_string(),
    });
    words
}

/// A folder laid out for the cases: the openings and `./shannon`.
pub(super) fn odds_folder(name: &str) -> crate::common::Scratch {
    sprt_folder(name)
}

/// A recorded file of `tests/data/peers/odds/`.
pub(super) fn recorded(name: &str) -> PathBuf {
    data_path(&format!("peers/odds/{name}"))
}

/// Each game's opening, moves, result and time-control tags (absent ones as "").
pub(super) fn odds_games(pgn: &Path) -> Vec<(String, Vec<String>, String, [String; 3])> {
    read_pgn(pgn)
        .iter()
        .map(|game| {
            let tags = ["TimeControl", "WhiteTimeControl", "BlackTimeControl"]
                .map(|name| game.tag(name).unwrap_or_default().to_string());
            (
                tag(game, "FEN").to_string(),
                game.record.moves.iter().map(|m| format!("{m:?}")).collect(),
                game.record.outcome.pgn().to_string(),
                tags,
            )
        })
        .collect()
}

/// fastchess's `Results of ...` lines, whole: both engines' time controls, and their `Threads`
/// and `Hash` as the engines declare them (Stockfish's `1t, 16MB`).
pub(super) fn results_lines(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|line| line.starts_with("Results of "))
        .map(str::to_string)
        .collect()
}

/// Every case in each tool's form: the games the tool played, with its tags, and fastchess's
/// report line naming both time controls.
#[test]
fn odds_play_and_are_written_as_each_tool_writes_them() {
    let dir = odds_folder("odds-forms");
    for (case, _) in CASES {
        for tool in TOOLS {
            let pgn = format!("{case}.{tool}.pgn");
            let words = odds_words(case, tool, &pgn);
            let mut args = vec!["match"];
            args.extend(words.iter().map(String::as_str));
            let (ok, out, err) = run(&args, &dir);
            assert!(ok, "{case} {tool}: {out}{err}");
            let theirs = odds_games(&recorded(&pgn));
            assert_eq!(theirs.len(), 6, "{pgn}");
            assert_eq!(
                odds_games(&dir.join(&pgn)),
                theirs,
                "{case} in {tool}'s form"
            );
            if tool.starts_with("fastchess") {
                let recorded_out =
                    std::fs::read_to_string(recorded(&format!("{case}.{tool}.txt"))).unwrap();
                assert_eq!(results_lines(&out), results_lines(&recorded_out), "{case}");
            }
        }
    }
}

/// The tags differ between the tools where their rules differ: depth 6 against depth 8 is two
/// tags for cutechess-cli (`inf` each) and one `-` for fastchess.
#[test]
fn the_recorded_tools_differ_where_their_rules_do() {
    let tags = |file: &str| {
        let games = odds_games(&recorded(file));
        games[0].3.clone()
    };
    assert_eq!(
        tags("depth.cutechess-cli-1.5.1.pgn"),
        [String::new(), "inf".into(), "inf".into()]
    );
    assert_eq!(
        tags("depth.fastchess-1.8.2-alpha.pgn"),
        ["-".to_string(), String::new(), String::new()]
    );
    assert_eq!(
        tags("mixed.fastchess-1.8.2-alpha.pgn"),
        [String::new(), "0.2/move".into(), "-".into()]
    );
}

/// An engines.toml in `dir` with two Shannon engines: `dev` (Seed 5) and `base`, whose own time
/// control is `base_tc`.
pub(super) fn dev_and_base(dir: &Path, base_tc: &str) {
    std::fs::write(
        dir.join("engines.toml"),
        format!(
            "[[engine]]\nname = \"dev\"\ncommand = \"self\"\noptions = {{ Seed = 5 }}\n\n\
             [[engine]]\nname = \"base\"\ncommand = \"self\"\ntc = \"{base_tc}\"\n"
        ),
    )
    .unwrap();
}

/// Shannon's own form: `--engine-tc NAME=TC` and an engines file's `tc` give an engine its own
/// time control; the header and the PGN say so; a name the match does not play is refused.
#[test]
fn our_own_form_gives_an_engine_its_own_time_control() {
    let dir = scratch("odds-own");
    dev_and_base(&dir, "5+0.05");
    let (ok, out, err) = MatchLine::new()
        .engines("dev,base")
        .tc("10+0.1")
        .games(2)
        .pgn("file.pgn")
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(out.contains("tc 10+0.1 (base 5+0.05)"), "{out}");
    // Each side's tag is its engine's time control, whichever colour it has.
    let own = |file: &str, dev: &str, base: &str| {
        for game in read_pgn(&dir.join(file)) {
            for side in ["White", "Black"] {
                let tc = tag(&game, &format!("{side}TimeControl"));
                match tag(&game, side) {
                    "dev" => assert_eq!(tc, dev, "{file}"),
                    _ => assert_eq!(tc, base, "{file}"),
                }
            }
        }
    };
    own("file.pgn", "10+0.1", "5+0.05");
    let (ok, out, err) = MatchLine::new()
        .engines("dev,base")
        .tc("10+0.1")
        .arg("--engine-tc", "base=depth=3")
        .arg("--engine-tc", "dev=3+0.03")
        .games(2)
        .pgn("flag.pgn")
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("tc 10+0.1 (dev 3+0.03, base depth=3)"),
        "{out}"
    );
    own("flag.pgn", "3+0.03", "-");
    let (ok, _, err) = MatchLine::new()
        .engines("dev,base")
        .arg("--engine-tc", "other=1+0")
        .games(2)
        .pgn("-")
        .run_in(&dir);
    assert!(!ok);
    assert!(
        err.contains(
            "limits are given to other, which this match does not play (its engines: dev, base)"
        ),
        "{err}"
    );
    let (ok, _, err) = MatchLine::new()
        .arg("--engine-tc", "base")
        .pgn("-")
        .run_in(&dir);
    assert!(!ok);
    assert!(err.contains("'base' is not NAME=TC"), "{err}");
}

/// A match with odds, killed and resumed, keeps each engine's own time control: it is in the
/// state (format 5 and after), not read again from the engines file.
#[test]
fn a_resumed_match_keeps_the_engines_own_time_controls() {
    let dir = scratch("odds-resume");
    let (ok, out, err) = MatchLine::new()
        .engines("shannon-a,shannon-b")
        .tc("10+0.1")
        .arg("--engine-tc", "shannon-b=nodes=5")
        .games(4)
        .pgn("g.pgn")
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("g.pgn.state.json")).unwrap())
            .unwrap();
    assert_eq!(state["format"], shannon::arena::STATE_FORMAT);
    assert_eq!(
        state["settings"]["engine_limits"]["shannon-b"]["time_control"],
        "nodes=5"
    );
}
