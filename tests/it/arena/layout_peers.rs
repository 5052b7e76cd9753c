//! Both tools' `-reverse` and `-seeds N` (and the other schedule options of issue 44), side by
//! side with the real cutechess-cli 1.5.1 and fastchess 1.8.2-alpha: each case's command line,
//! played by the tool (recorded in `tests/data/peers/layout/`, made by its `record.sh`) and by
//! `shannon match` in the tool's form, gives the same games in the same order: the same
//! players with the same colours, from the same opening, with the same moves and result.
//!
//! The players are seeded Shannon engines (`option.Seed=`: random movers whose every move is a
//! function of the seed and the game), so both runners play the same games when they pair the
//! same engines with the same colours from the same opening. `peer_tools.rs` records the files
//! again with the real tools.

use super::sprt_peers::{games, Game};
use super::{scratch, SHANNON};
use crate::common::{data_path, run};
use std::path::Path;

/// The two seeded players.
const PAIR: &str = "-engine cmd=./shannon name=alpha option.Seed=11 \
                    -engine cmd=./shannon name=beta option.Seed=22";

/// Three of them.
const THREE: &str = "-engine cmd=./shannon name=alpha option.Seed=11 \
                     -engine cmd=./shannon name=beta option.Seed=22 \
                     -engine cmd=./shannon name=gamma option.Seed=33";

/// Four of them.
const FOUR: &str = "-engine cmd=./shannon name=alpha option.Seed=11 \
                    -engine cmd=./shannon name=beta option.Seed=22 \
                    -engine cmd=./shannon name=gamma option.Seed=33 \
                    -engine cmd=./shannon name=delta option.Seed=44";

const EACH: &str = "-each proto=uci tc=inf nodes=1000 -concurrency 1";

const BOOK: &str = "-openings file=openings.epd format=epd order=sequential";

/// A recorded case: its name, its command line (without `-pgnout`), and the tools that recorded
/// it (indices into [`TOOLS`]).
pub(super) struct Case {
    pub(super) name: &'static str,
    pub(super) line: String,
    pub(super) tools: &'static [usize],
}

/// The cases of `tests/data/peers/layout/record.sh`.
pub(super) fn cases() -> Vec<Case> {
    let case = |name, line: String| Case {
        name,
        line,
        tools: &[0, 1],
    };
    // cutechess-cli's reading of `-repeat` (fastchess's `-repeat N` sets its games).
    let cutechess = |name, line: String| Case {
        name,
        line,
        tools: &[0],
    };
    // fastchess's `-tournament roundrobin` (cutechess-cli spells it otherwise).
    let fastchess = |name, line: String| Case {
        name,
        line,
        tools: &[1],
    };
    vec![
        case(
            "reverse",
            format!("{PAIR} {EACH} {BOOK} -games 2 -repeat -rounds 3 -reverse"),
        ),
        case(
            "reverse-noswap",
            format!("{PAIR} {EACH} {BOOK} -games 2 -repeat -rounds 2 -reverse -noswap"),
        ),
        case(
            "seeds",
            format!("{FOUR} {EACH} -tournament gauntlet -seeds 2 -games 2 -repeat -rounds 1"),
        ),
        // Single games: each opening serves `-repeat` consecutive games (one without it),
        // colours alternating game by game, across rounds.
        cutechess(
            "repeat3",
            format!("{PAIR} {EACH} {BOOK} -games 2 -rounds 4 -repeat 3"),
        ),
        cutechess(
            "repeat4-reverse",
            format!("{PAIR} {EACH} {BOOK} -games 9 -repeat 4 -reverse"),
        ),
        cutechess("no-repeat", format!("{PAIR} {EACH} {BOOK} -rounds 5")),
        cutechess(
            "odd-repeat-noswap",
            format!("{PAIR} {EACH} {BOOK} -games 5 -repeat -noswap"),
        ), // cutechess-cli's tournaments: its round-robin order (the circle method), each
        // encounter's games from openings of their own, -reverse at each meeting of a pair.
        cutechess(
            "round-robin-reverse",
            format!(
                "{FOUR} {EACH} {BOOK} -tournament round-robin -games 2 -repeat -rounds 2 -reverse"
            ),
        ),
        cutechess(
            "round-robin-odd",
            format!("{THREE} {EACH} {BOOK} -tournament round-robin -games 3 -repeat -rounds 2"),
        ),
        // fastchess's tournaments: each encounter the next opening of a book cut to -rounds.
        fastchess(
            "roundrobin-reverse",
            format!(
                "{FOUR} {EACH} {BOOK} -tournament roundrobin -games 2 -repeat -rounds 2 -reverse"
            ),
        ),
        cutechess(
            "gauntlet-repeat3",
            format!("{FOUR} {EACH} {BOOK} -tournament gauntlet -games 4 -repeat 3 -rounds 2"),
        ),
    ]
}

/// The two tools: the part of a recorded file's name, and `-pgnout` in its form.
pub(super) const TOOLS: [(&str, &str); 2] = [
    ("cutechess-cli-1.5.1", "-pgnout {} min"),
    ("fastchess-1.8.2-alpha", "-pgnout file={} min=true"),
];

/// The words of `case` for `tool` (an index into [`TOOLS`]), writing `pgn`.
pub(super) fn words(case: &Case, tool: usize, pgn: &str) -> Vec<String> {
    let pgnout = TOOLS[tool].1.replace("{}", pgn);
    format!("{} {pgnout}", case.line)
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// The recorded PGN of `case` played by `tool`.
pub(super) fn recorded(case: &Case, tool: usize) -> std::path::PathBuf {
    data_path(&format!("peers/layout/{}.{}.pgn", case.name, TOOLS[tool].0))
}

/// A scratch folder with the openings and `./shannon`.
pub(super) fn layout_folder(name: &str) -> crate::common::Scratch {
    let dir = scratch(name);
    std::fs::copy(
        data_path("peers/layout/openings.epd"),
        dir.join("openings.epd"),
    )
    .unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(SHANNON, dir.join("shannon")).unwrap();
    dir
}

/// Where two lists of games first differ, told.
pub(super) fn compare(ours: &[Game], theirs: &[Game], what: &str) {
    assert_eq!(ours.len(), theirs.len(), "{what}: the number of games");
    for (i, (ours, theirs)) in ours.iter().zip(theirs).enumerate() {
        assert_eq!(ours, theirs, "{what}: game {}", i + 1);
    }
}

fn play(dir: &Path, words: &[String]) {
    let mut args = vec!["match"];
    args.extend(words.iter().map(String::as_str));
    let (ok, out, err) = run(&args, dir);
    assert!(ok, "shannon {}: {out}\n{err}", args.join(" "));
}

/// `shannon match` plays every case in each tool's form as the tool did.
#[test]
fn shannon_plays_each_tools_schedule_as_the_tool_did() {
    let dir = layout_folder("layout-peers");
    for case in cases() {
        for &tool in case.tools {
            let tool_name = TOOLS[tool].0;
            let pgn = format!("{}.{tool}.pgn", case.name);
            play(dir.path(), &words(&case, tool, &pgn));
            compare(
                &games(&dir.join(&pgn)),
                &games(&recorded(&case, tool)),
                &format!("{} as {tool_name}", case.name),
            );
        }
    }
}

/// The real tools play every case again as recorded (skipped, with the reason printed, when a
/// tool is missing; `SHANNON_REQUIRE_TOOLS=1` makes that a failure).
#[test]
fn the_recorded_schedules_are_what_the_real_tools_play() {
    let tools = [
        super::peer_tools::cutechess_cli(),
        super::peer_tools::fastchess(),
    ];
    let dir = layout_folder("layout-peers-tools");
    for case in cases() {
        for &index in case.tools {
            let Some(tool) = &tools[index] else { continue };
            let pgn = format!("{}.{index}.pgn", case.name);
            let out = std::process::Command::new(tool)
                .args(words(&case, index, &pgn))
                .current_dir(dir.path())
                .output()
                .expect("the tool runs");
            assert!(out.status.success(), "{}", tool.display());
            compare(
                &games(&dir.join(&pgn)),
                &games(&recorded(&case, index)),
                &format!("{} played by {}", case.name, tool.display()),
            );
        }
    }
}
