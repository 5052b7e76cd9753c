//! Adjudication on bound scores (`score cp X upperbound|lowerbound`): cutechess-cli takes them as
//! the engine's score, fastchess passes over them when the move has an exact score; Shannon
//! follows each in its own command-line form, and takes them in its own form. Checked with a
//! scripted engine, and with Stockfish against the games the real tools played with it
//! (recorded in `tests/data/peers/bound-scores/`; `peer_tools.rs` records them again).

use super::peer_tools::stockfish_as_recorded;
use super::{read_pgn, run, scratch, tag};
use crate::common::data_path;
use crate::common::MatchLine;
use std::path::{Path, PathBuf};

/// A UCI engine in sh that shuffles its knights (a draw by repetition at ply 8 unless something
/// ends the game first), saying about every move first an exact score of -0.20, then an
/// upper bound of -7.00 (a fail-low the search was cut short in).
const MOCK_ENGINE: &str = r#"#!/bin/sh
plies=0
while read -r cmd rest; do
    case "$cmd" in
        uci) echo "id name knights"; echo "uciok" ;;
        isready) echo "readyok" ;;
        position) set -- $rest; plies=$(( $# > 2 ? $# - 2 : 0 )) ;;
        go)
            case $((plies % 4)) in
                0) mv=g1f3 ;; 1) mv=g8f6 ;; 2) mv=f3g1 ;; *) mv=f6g8 ;;
            esac
            echo "info depth 5 seldepth 7 score cp -20 nodes 100 time 1 pv $mv"
            echo "info depth 6 seldepth 9 score cp -700 upperbound nodes 200 time 2 pv $mv"
            echo "bestmove $mv" ;;
        quit) exit 0 ;;
    esac
done
"#;

fn mock_engine(dir: &Path) -> PathBuf {
    let path = dir.join("knights.sh");
    std::fs::write(&path, MOCK_ENGINE).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// The games of `pgn`: (result, plies, termination, the first move's comment).
fn outcomes(pgn: &Path) -> Vec<(String, usize, String)> {
    read_pgn(pgn)
        .iter()
        .map(|game| {
            (
                game.record.outcome.pgn().to_string(),
                game.record.moves.len(),
                tag(game, "Termination").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_scripted_bound_resigns_in_cutechess_form_and_in_our_own_but_not_in_fastchess_form() {
    let dir = scratch("bound-scores-mock");
    let engine = mock_engine(&dir);
    let engine = engine.to_str().unwrap();
    // `depth=9`, which the script passes over: fastchess refuses `tc=inf` alone.
    let play = |pgnout: &str| {
        let line = format!(
            "match -engine name=a cmd={engine} -engine name=b cmd={engine} -each proto=uci tc=inf \
             depth=9 -resign movecount=1 score=500 -rounds 1 -games 2 -pgnout {pgnout}"
        );
        let words: Vec<&str> = line.split_whitespace().collect();
        let (ok, out, err) = run(&words, &dir);
        assert!(ok, "{line}\n{out}{err}");
    };
    // cutechess-cli's form (-pgnout FILE): White's -7.00 upper bound is its score; it resigns
    // after its first move.
    play("cute.pgn");
    let cute = outcomes(&dir.join("cute.pgn"));
    assert_eq!(
        cute,
        vec![("0-1".into(), 1, "adjudication".into()); 2],
        "cutechess-cli's form"
    );
    let text = std::fs::read_to_string(dir.join("cute.pgn")).unwrap();
    assert!(
        text.contains("{-7.00/6 "),
        "the comment is the score judged:\n{text}"
    );
    // fastchess's form (-pgnout file=): the exact -0.20 is the score; nobody resigns and the
    // knights repeat the position.
    play("file=fast.pgn");
    let fast = outcomes(&dir.join("fast.pgn"));
    assert_eq!(
        fast,
        vec![("1/2-1/2".into(), 8, "normal".into()); 2],
        "fastchess's form"
    );
    let text = std::fs::read_to_string(dir.join("fast.pgn")).unwrap();
    assert!(
        text.contains("{-0.20/5 "),
        "the comment is the score judged:\n{text}"
    );
    assert!(!text.contains("-7.00"), "{text}");
    // Shannon's own form reads scores as cutechess-cli does.
    let config = dir.join("engines.toml");
    std::fs::write(
        &config,
        format!(
            "[[engine]]\nname = \"a\"\ncommand = \"{engine}\"\n\n[[engine]]\nname = \"b\"\ncommand = \"{engine}\"\n"
        ),
    )
    .unwrap();
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .games(2)
        .tc("inf")
        .arg("--resign", "movecount=1 score=500")
        .pgn("own.pgn")
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert_eq!(outcomes(&dir.join("own.pgn")), cute, "Shannon's own form");
}

/// The recorded games of the real tools (`tests/data/peers/bound-scores/`): cutechess-cli's and
/// fastchess's PGN.
pub(super) const RECORDED: [&str; 2] = [
    "peers/bound-scores/cutechess-cli-1.5.1.pgn",
    "peers/bound-scores/fastchess-1.8.2-alpha.pgn",
];

/// The command line the games were recorded with (tests/data/peers/README.md), writing the PGN
/// with `pgnout` (`FILE`: cutechess-cli's form, `file=FILE`: fastchess's), in a folder holding
/// the recorded `openings.epd` (see [`bound_scores_folder`]).
pub(super) fn bound_score_words(stockfish: &Path, pgnout: &str) -> Vec<String> {
    let sf = stockfish.display();
    format!(
        "-engine cmd={sf} name=sf-a proto=uci -engine cmd={sf} name=sf-b proto=uci \
         -each tc=inf nodes=3000 option.Threads=1 option.Hash=16 \
         -openings file=openings.epd format=epd order=sequential \
         -draw movenumber=20 movecount=4 score=10 -resign movecount=3 score=400 \
         -concurrency 1 -rounds 6 -games 2 -repeat -pgnout {pgnout}"
    )
    .split_whitespace()
    .map(String::from)
    .collect()
}

/// A scratch folder holding the recorded games' `openings.epd`.
pub(super) fn bound_scores_folder(name: &str) -> crate::common::Scratch {
    let dir = scratch(name);
    std::fs::copy(
        data_path("peers/bound-scores/openings.epd"),
        dir.join("openings.epd"),
    )
    .unwrap();
    dir
}

/// Each game of `pgn`: its opening, moves, result and TimeControl tag.
pub(super) fn games_of(pgn: &Path) -> Vec<(String, Vec<String>, String, String)> {
    read_pgn(pgn)
        .iter()
        .map(|game| {
            (
                tag(game, "FEN").to_string(),
                game.record.moves.iter().map(|m| format!("{m:?}")).collect(),
                game.record.outcome.pgn().to_string(),
                tag(game, "TimeControl").to_string(),
            )
        })
        .collect()
}

/// Stockfish at 3000 nodes (deterministic) with -draw and -resign: Shannon in each tool's form
/// plays the 12 games that tool played (recorded in tests/data/peers/bound-scores/),
/// adjudicated at the same ply with the same result, and writes the same TimeControl tag; the
/// two tools differ from each other in some.
#[test]
fn stockfish_games_adjudicate_as_each_real_tool_did() {
    let Some(stockfish) = stockfish_as_recorded() else {
        return;
    };
    let [cute, fast] = RECORDED.map(|file| games_of(&data_path(file)));
    assert_eq!(cute.len(), 12);
    assert_eq!(fast.len(), 12);
    let dir = bound_scores_folder("bound-scores-stockfish");
    let ours = |pgnout: &str| {
        let mut args = vec!["match".to_string()];
        args.extend(bound_score_words(&stockfish, pgnout));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, out, err) = run(&args, &dir);
        assert!(ok, "{out}{err}");
    };
    std::thread::scope(|s| {
        s.spawn(|| ours("cutechess-form.pgn"));
        s.spawn(|| ours("file=fastchess-form.pgn"));
    });
    assert_eq!(
        games_of(&dir.join("cutechess-form.pgn")),
        cute,
        "cutechess-cli's form against cutechess-cli 1.5.1's games"
    );
    assert_eq!(
        games_of(&dir.join("fastchess-form.pgn")),
        fast,
        "fastchess's form against fastchess 1.8.2-alpha's games"
    );
    assert!(
        cute.iter().all(|g| g.3 == "inf"),
        "cutechess-cli writes tc=inf as inf"
    );
    assert!(
        fast.iter().all(|g| g.3 == "-"),
        "fastchess writes tc=inf as -"
    );
    // The rules differ on this sample (else the comparison could not tell them apart).
    let differ = cute
        .iter()
        .zip(&fast)
        .filter(|(c, f)| (c.1.len(), &c.2) != (f.1.len(), &f.2))
        .count();
    assert!(
        differ > 0,
        "cutechess-cli and fastchess agree on every game"
    );
}
