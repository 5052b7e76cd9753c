//! Tournaments of more than two engines: round robin and gauntlet schedules, colours, shared
//! openings, the crosstable, and the settings a tournament refuses.

use super::{read_pgn, scratch, tag};
use crate::common::MatchLine;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// engines.toml with engines `names`, each this shannon.
fn config(dir: &Path, names: &[&str]) -> String {
    let text: String = names
        .iter()
        .map(|n| format!("[[engine]]\nname = \"{n}\"\ncommand = \"self\"\n\n"))
        .collect();
    let path = dir.join("engines.toml");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_round_robin_meets_every_pair_with_both_colours_from_shared_openings() {
    let dir = scratch("round-robin");
    let config = config(&dir, &["a", "b", "c"]);
    let pgn = dir.join("games.pgn");
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .engines("a,b,c")
        .arg("--tournament", "round-robin")
        .rounds(2)
        .tc("nodes=1")
        .openings("chess960")
        .arg("--max-plies", "200")
        .seed(5)
        .pgn(&pgn)
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    // --games defaults to one pair per encounter in a tournament: 3 encounters x 2 x 2 rounds.
    assert!(
        out.contains(
            "Tournament (round-robin) of a, b, c: 2 round(s), 2 games per encounter, 12 games"
        ),
        "{out}"
    );
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 12);
    let rounds: BTreeSet<u32> = games
        .iter()
        .map(|g| tag(g, "Round").parse().unwrap())
        .collect();
    assert_eq!(rounds, (1..=12).collect());
    let mut whites: BTreeMap<(String, String), u32> = BTreeMap::new();
    let mut fens: BTreeMap<u32, String> = BTreeMap::new();
    for game in &games {
        let pair = (
            tag(game, "White").to_string(),
            tag(game, "Black").to_string(),
        );
        *whites.entry(pair).or_default() += 1;
        fens.insert(
            tag(game, "Round").parse().unwrap(),
            tag(game, "FEN").to_string(),
        );
    }
    // Every ordered pair (each engine with White against each other) twice: one per round.
    assert_eq!(whites.len(), 6, "{whites:?}");
    assert!(whites.values().all(|&n| n == 2), "{whites:?}");
    // Round 1 is games 1-6: all three encounters from one Chess960 start; round 2 another.
    assert!((1..=6).all(|r| fens[&r] == fens[&1]), "{fens:?}");
    assert!((7..=12).all(|r| fens[&r] == fens[&7]), "{fens:?}");
    assert_ne!(fens[&1], fens[&7]);
    // The ranking lists each engine once with 8 games, and the crosstable has every pair.
    for name in ["a", "b", "c"] {
        let row = out
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name) && l.contains('%'))
            .unwrap_or_else(|| panic!("no ranking row for {name}: {out}"));
        assert!(row.split_whitespace().any(|w| w == "8"), "{row}");
    }
    assert!(out.contains("Crosstable"), "{out}");
    for pair in ["a vs b", "a vs c", "b vs c"] {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(pair))
            .unwrap();
        assert!(line.contains("4 games"), "{line}");
        assert!(line.contains("pairs ["), "{line}");
    }
}

#[test]
fn a_gauntlet_pits_the_first_engine_against_each_other_one_only() {
    let dir = scratch("gauntlet");
    let config = config(&dir, &["hero", "b", "c", "d"]);
    let pgn = dir.join("games.pgn");
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .engines("hero,b,c,d")
        .arg("--tournament", "gauntlet")
        .games(4)
        .tc("nodes=1")
        .seed(9)
        .pgn(&pgn)
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 12);
    for game in &games {
        let (white, black) = (tag(game, "White"), tag(game, "Black"));
        assert!(white == "hero" || black == "hero", "{white} vs {black}");
    }
    let hero_white = games.iter().filter(|g| tag(g, "White") == "hero").count();
    assert_eq!(hero_white, 6, "colours alternate within each pair");
    // Crosstable row of b: nothing against c or d (they never meet).
    let row = out
        .lines()
        .skip_while(|l| !l.starts_with("Crosstable"))
        .find(|l| l.starts_with("b "))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(
        row.split_whitespace().count(),
        3,
        "b, its score against hero and '-': {row}"
    );
}

#[test]
fn settings_a_tournament_cannot_take_are_refused() {
    let dir = scratch("tournament-refusals");
    let config = config(&dir, &["a", "b", "c"]);
    let (ok, _, err) = MatchLine::new()
        .config(&config)
        .engines("a,b,c")
        .sprt("0,10,0.05,0.05")
        .run_in(&dir);
    assert!(!ok && err.contains("exactly two engines"), "{err}");
    let (ok, _, err) = MatchLine::new()
        .config(&config)
        .engines("a,b,a")
        .run_in(&dir);
    assert!(!ok && err.contains("twice"), "{err}");
    let (ok, _, err) = MatchLine::new()
        .config(&config)
        .engines("a,b")
        .arg("--tournament", "swiss")
        .run_in(&dir);
    assert!(!ok && err.contains("round-robin or gauntlet"), "{err}");
    let (ok, _, err) = MatchLine::new()
        .config(&config)
        .arg("--resume", "x")
        .games(4)
        .run_in(&dir);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
}
