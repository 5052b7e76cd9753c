//! `--output-format cutechess|fastchess`: real matches whose standard output is read the way the
//! testing frameworks read cutechess-cli's and fastchess's, with their own regular expressions
//! and parsing steps (copied, with the repository and file they come from), and the numbers
//! they get compared with our standings (the `--json` report).

use super::{scratch, stockfish, stockfish_config};
use crate::common::MatchLine;
use regex::Regex;
use std::path::Path;

/// Our standings of a two-engine match, from its JSON report: the first engine's wins, draws
/// and losses, and its pentanomial [LL, LD, DD+WL, WD, WW].
fn standings(json: &Path) -> ([u64; 3], [u64; 5]) {
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    let encounter = &report["standings"]["encounters"][0];
    let score = &encounter["score"];
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    let counts = &encounter["pairs"]["pentanomial"]["counts"];
    (
        [n(&score["wins"]), n(&score["draws"]), n(&score["losses"])],
        [0, 1, 2, 3, 4].map(|i| n(&counts[i])),
    )
}

/// What OpenBench's worker makes of the `Finished game` lines (AndyGrant/OpenBench,
/// Client/worker.py, `MatchRunner.update_results` and `run_and_parse_runner`; it splits the
/// line rather than matching a regular expression), ported step by step: the game number is
/// `tokens[2]`, the result `tokens[6]`, the reason `line.split(':')[1]`; games `g` and `g + 1`
/// (`g` odd) form a pair with the first engine White in `g`.
#[derive(Debug, Default)]
pub(super) struct OpenBench {
    pub(super) trinomial: [u64; 3],
    pub(super) pentanomial: [u64; 5],
    pub(super) games: std::collections::HashMap<u32, String>,
    pub(super) crashes: u64,
    pub(super) timelosses: u64,
    pub(super) illegals: u64,
}

impl OpenBench {
    /// Every `Finished game` line of `out`.
    fn read(out: &str) -> OpenBench {
        let mut results = OpenBench::default();
        for line in out.lines() {
            let line = line.trim();
            if line.contains("Finished game") {
                results.update(line);
            }
        }
        results
    }

    /// As the worker reads a runner's output (`runner.stdout.readline().strip().decode('ascii')`):
    /// it fails on a byte that is not ASCII, and stops reading at the first line that is empty
    /// once stripped.
    pub(super) fn read_as_worker(out: &str) -> OpenBench {
        assert!(out.is_ascii(), "{out}");
        let mut results = OpenBench::default();
        for line in out.lines().map(str::trim) {
            if line.is_empty() {
                break;
            }
            if line.contains("Finished game") {
                results.update(line);
            }
        }
        results
    }

    fn update(&mut self, line: &str) {
        let lookup = |r: &str| match r {
            "0-1" => 0,
            "1/2-1/2" => 1,
            "1-0" => 2,
            other => panic!("OpenBench's lookup has no result {other:?}: {line}"),
        };
        // reason = line.split(':')[1]
        let reason = line.split(':').nth(1).unwrap_or_default();
        self.crashes += u64::from(reason.contains("disconnect") || reason.contains("stalls"));
        self.timelosses += u64::from(reason.contains("on time"));
        self.illegals += u64::from(reason.contains("illegal"));
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let game: u32 = tokens[2].parse().unwrap();
        self.games.insert(game, tokens[6].to_string());
        let (first, second) = if game % 2 == 1 {
            (game, game + 1)
        } else {
            (game - 1, game)
        };
        let (Some(r1), Some(r2)) = (self.games.get(&first), self.games.get(&second)) else {
            return;
        };
        let (r1, r2) = (lookup(r1), lookup(r2));
        self.pentanomial[r1 + 2 - r2] += 1;
        self.trinomial[r1] += 1;
        self.trinomial[2 - r2] += 1;
        self.games.remove(&first);
        self.games.remove(&second);
    }
}

/// fishtest's worker before it moved to fastchess (official-stockfish/fishtest,
/// worker/games.py at the parent of commit 11daff5b, "Switch from cutechess-cli to
/// fast-chess"): `update_pentanomial` over the `Finished game` lines and its parse of the
/// `Score of` line (`line.split(":")[1].split()`, W, L, D at 0, 2, 4), ported step by step.
/// Returns the pentanomial and the last score (W, L, D).
fn fishtest_cutechess(out: &str, first: &str) -> ([u64; 5], [u64; 3]) {
    let score_of = |r: &str| match r {
        "1-0" => 2,
        "1/2-1/2" => 1,
        "0-1" => 0,
        _ => -1,
    };
    let mut rounds: std::collections::HashMap<u32, (String, String, i32)> = Default::default();
    let mut pentanomial = [0u64; 5];
    let mut wld = [0u64; 3];
    for line in out.lines() {
        if line.contains("Score") {
            let chunks: Vec<&str> = line.split(':').nth(1).unwrap().split_whitespace().collect();
            wld = [chunks[0], chunks[2], chunks[4]].map(|c| c.parse().unwrap());
        }
        if !line.starts_with("Finished game") {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(words[0] == "Finished" && words[1] == "game" && words.len() >= 7);
        let round: u32 = words[2].parse().unwrap();
        let white = words[3][1..].to_string();
        let black = words[5][..words[5].len() - 2].to_string();
        rounds.insert(round, (white, black, score_of(words[6])));
        let (odd, even) = if round.is_multiple_of(2) {
            (round - 1, round)
        } else {
            (round, round + 1)
        };
        if let (Some(o), Some(e)) = (rounds.get(&odd), rounds.get(&even)) {
            assert_eq!(o.0, first, "the first engine is White in the odd game");
            assert!(o.0 == e.1 && o.1 == e.0, "a pair swaps colours");
            let (i, j) = (o.2, e.2);
            if i != -1 && j != -1 {
                pentanomial[(i + 2 - j) as usize] += 1;
                rounds.remove(&odd);
                rounds.remove(&even);
            }
        }
    }
    (pentanomial, wld)
}

/// The shapes of cutechess-cli's lines (from its source: projects/cli/src/enginematch.cpp,
/// projects/lib/src/tournament.cpp); every line of our cutechess output is one of them.
fn cutechess_shapes() -> Vec<Regex> {
    [
        r"^Started game \d+ of \d+ \(\S+ vs \S+\)$",
        r"^Finished game \d+ \(\S+ vs \S+\): (1-0|0-1|1/2-1/2|\*) \{[^}]+\}$",
        r"^Score of \S+ vs \S+: \d+ - \d+ - \d+  \[\d\.\d{3}\] \d+$",
        r"^\.\.\.      (\S+ playing (White|Black)|White vs Black): \d+ - \d+ - \d+  \[\d\.\d{3}\] \d+$",
        r"^Elo difference: (-?\d+\.\d|-?inf|nan) \+/- (\d+\.\d|nan), LOS: (\d+\.\d|nan) %, DrawRatio: \d+\.\d %$",
        r"^SPRT: llr \S+ \(-?\d+\.\d%\), lbound \S+, ubound \S+( - H[01] was accepted)?$",
        r"^Rank Name {21} {5}Elo {5}\+/- {3}Games {3}Score {4}Draw $",
        r"^ {0,3}-?\d+ \S+ +\S+ +\S+ +\d+ +\d+\.\d% +\d+\.\d% $",
        r"^Player: \S+$",
        r#"^   "[^"]+": \d+$"#,
        r"^Finished match$",
        r"^$",
    ]
    .iter()
    .map(|r| Regex::new(r).unwrap())
    .collect()
}

fn assert_cutechess_shapes(out: &str) {
    let shapes = cutechess_shapes();
    for line in out.lines() {
        assert!(
            shapes.iter().any(|r| r.is_match(line)),
            "not a cutechess-cli line: {line:?}\n{out}"
        );
    }
}

#[test]
fn cutechess_output_reads_as_openbench_and_fishtest_read_it() {
    let dir = scratch("output-cutechess");
    let json = dir.join("report.json");
    let (ok, out, err) = MatchLine::new()
        .games(2)
        .rounds(8)
        .concurrency(2)
        .tc("nodes=1")
        .pgn("-")
        .seed(22)
        .arg("--output-format", "cutechess")
        .arg("--json", &json)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let out = out
        .split("JSON: ")
        .next()
        .expect("the JSON line comes after the match's lines");
    assert_cutechess_shapes(out);
    let ([wins, draws, losses], pentanomial) = standings(&json);
    let count = |prefix: &str| out.lines().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(count("Started game "), 16, "{out}");
    assert_eq!(count("Finished game "), 16, "{out}");
    assert_eq!(count("Score of shannon-a vs shannon-b: "), 16, "{out}");
    assert!(out.ends_with("Finished match\n"), "{out}");

    let openbench = OpenBench::read(out);
    assert_eq!(openbench.pentanomial, pentanomial);
    assert_eq!(openbench.trinomial, [losses, draws, wins]);
    assert!(openbench.games.is_empty(), "every pair complete");
    assert_eq!(
        (openbench.crashes, openbench.timelosses, openbench.illegals),
        (0, 0, 0)
    );

    let (fishtest_pentanomial, wld) = fishtest_cutechess(out, "shannon-a");
    assert_eq!(fishtest_pentanomial, pentanomial);
    assert_eq!(wld, [wins, losses, draws]);

    // The closing line, with cutechess's figures for these counts.
    let elo = Regex::new(
        r"Elo difference: (-?\d+\.\d|-?inf|nan) \+/- (\d+\.\d|nan), LOS: (\d+\.\d|nan) %, DrawRatio: (\d+\.\d) %",
    )
    .unwrap();
    let captures = elo.captures(out).expect("an Elo line");
    let games = (wins + draws + losses) as f64;
    assert_eq!(&captures[4], format!("{:.1}", 100.0 * draws as f64 / games));
    assert!(out.contains("\nSPRT: llr 0 (0.0%), lbound -inf, ubound inf\n"));
    assert!(out.contains("\nPlayer: shannon-a\n") && out.contains("\nPlayer: shannon-b\n"));
}

/// The two lines of fastchess's blocks that fishtest's worker reads with regular expressions
/// (official-stockfish/fishtest, worker/games.py, `pattern_WLD` and `pattern_ptnml`): written
/// here in our own words, to accept the same text (digits where it takes `[0-9]+`, the points
/// as digits and dots, then the opening parenthesis of the points' percentage).
const FISHTEST_WLD: &str =
    r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+), Points: ([\d.]+) \(";
const FISHTEST_PTNML: &str = r"Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]";

/// The blocks fishtest reads, in order: (games, wins, losses, draws, points) and the
/// pentanomial, with fishtest's assertions on each (worker/games.py: twice the pairs are the
/// games).
fn fishtest_blocks(out: &str) -> Vec<([u64; 4], f64, [u64; 5])> {
    let wld = Regex::new(FISHTEST_WLD).unwrap();
    let ptnml = Regex::new(FISHTEST_PTNML).unwrap();
    let mut blocks = Vec::new();
    let mut pending = None;
    for line in out.lines() {
        if let Some(m) = wld.captures(line) {
            let n = |i: usize| m[i].parse::<u64>().unwrap();
            pending = Some(([n(1), n(2), n(3), n(4)], m[5].parse::<f64>().unwrap()));
        }
        if let Some(m) = ptnml.captures(line) {
            let p = [1, 2, 3, 4, 5].map(|i| m[i].parse::<u64>().unwrap());
            let (counts, points) = pending.take().expect("Games: comes before Ptnml");
            let [games, wins, losses, draws] = counts;
            assert_eq!(2 * p.iter().sum::<u64>(), wins + losses + draws, "{line}");
            assert_eq!(games, 2 * p.iter().sum::<u64>(), "{line}");
            blocks.push((counts, points, p));
        }
    }
    blocks
}

#[test]
fn fastchess_output_reads_as_fishtest_and_openbench_read_it() {
    let dir = scratch("output-fastchess");
    let json = dir.join("report.json");
    // fishtest's flags for this: -ratinginterval 1 (a block after every pair).
    let (ok, out, err) = MatchLine::new()
        .games(2)
        .rounds(8)
        .concurrency(2)
        .tc("nodes=1")
        .pgn("-")
        .seed(23)
        .sprt("0,5,0.05,0.05")
        .arg("--output-format", "fastchess")
        .arg("--rating-interval", "1")
        .arg("--json", &json)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let ([wins, draws, losses], pentanomial) = standings(&json);
    let games = wins + draws + losses;
    let blocks = fishtest_blocks(&out);
    assert!(
        blocks.len() >= 8,
        "a block per pair and one at the end: {out}"
    );
    let (counts, points, last) = *blocks.last().unwrap();
    assert_eq!(counts, [games, wins, losses, draws]);
    assert_eq!(points, wins as f64 + 0.5 * draws as f64);
    assert_eq!(last, pentanomial);
    // Blocks only grow, a pair at a time.
    for pair in blocks.windows(2) {
        assert!(pair[1].0[0] >= pair[0].0[0], "{out}");
    }
    // Threads and Hash as the engine declares them (Shannon's defaults), as fastchess shows them.
    let header =
        Regex::new(r"^Results of shannon-a vs shannon-b \(\d+ nodes, 1t, 16MB\):$").unwrap();
    assert!(out.lines().any(|l| header.is_match(l)), "{out}");
    let llr = Regex::new(r"^LLR: -?\d+\.\d\d \(-?\d+\.\d%\) \(-2\.94, 2\.94\) \[0\.00, 5\.00\]$")
        .unwrap();
    assert!(out.lines().any(|l| llr.is_match(l)), "{out}");
    assert!(out.contains("\nFinished match\n"), "{out}");

    // OpenBench's worker drives fastchess too.
    let openbench = OpenBench::read(&out);
    assert_eq!(openbench.pentanomial, pentanomial);
    assert_eq!(openbench.trinomial, [losses, draws, wins]);
}

/// A forfeit of each kind the frameworks count, in the words they look for: OpenBench's
/// `'disconnect' in reason or 'stalls' in reason`, `'on time'`, `'illegal'` over the `Finished
/// game` lines; fishtest's `"disconnect" in line or "stall" in line`, `"on time" in line or
/// "timeout" in line` over every line of fastchess's output (worker/games.py).
#[test]
fn forfeits_are_worded_as_the_frameworks_count_them() {
    for (fault, tc, format) in [
        ("crash", "nodes=1", "cutechess"),
        ("illegal-move", "nodes=1", "fastchess"),
        ("hang", "1+0", "fastchess"),
        ("flood", "nodes=1", "fastchess"),
    ] {
        let dir = scratch(&format!("output-{fault}"));
        let config = super::faults::faulty_config(&dir, fault);
        let (ok, out, err) = MatchLine::new()
            .config(&config)
            .games(4)
            .concurrency(2)
            .tc(tc)
            .pgn("-")
            .seed(9)
            .arg("--output-format", format)
            .run_in(&dir);
        assert!(ok, "{out}{err}");
        let openbench = OpenBench::read(&out);
        let counts = (openbench.crashes, openbench.timelosses, openbench.illegals);
        let expected = match fault {
            "crash" | "flood" => (4, 0, 0),
            "hang" => (0, 4, 0),
            _ => (0, 0, 4),
        };
        assert_eq!(counts, expected, "{fault}: {out}");
        if format == "cutechess" {
            // fishtest reads fastchess now; cutechess's closing outcome list would count twice.
            assert!(out.contains("\n   \"Loss: White disconnects\": "), "{out}");
            continue;
        }
        let fishtest_crashes = out
            .lines()
            .filter(|l| l.contains("disconnect") || l.contains("stall"))
            .count();
        let fishtest_time_losses = out
            .lines()
            .filter(|l| l.contains("on time") || l.contains("timeout"))
            .count();
        let fishtest = (fishtest_crashes as u64, fishtest_time_losses as u64);
        assert_eq!(fishtest, (expected.0, expected.1), "{fault}: {out}");
        if fault != "illegal-move" {
            assert!(out.contains("\nPlayer: bad\n"), "{out}");
        }
    }
}

/// Three engines: cutechess-cli's rank table and fastchess's, no `Score of` lines.
#[test]
fn tournaments_print_the_tools_rank_tables() {
    let dir = scratch("output-tournament");
    let config = dir.join("engines.toml");
    std::fs::write(
        &config,
        "[[engine]]\nname = \"a\"\ncommand = \"self\"\n\n[[engine]]\nname = \"b\"\ncommand = \"self\"\n\n[[engine]]\nname = \"c\"\ncommand = \"self\"\n",
    )
    .unwrap();
    let play = |format: &str| {
        let (ok, out, err) = MatchLine::new()
            .config(&config)
            .engines("a,b,c")
            .games(2)
            .tc("nodes=1")
            .pgn("-")
            .seed(5)
            .arg("--output-format", format)
            .run_in(&dir);
        assert!(ok, "{out}{err}");
        out
    };
    let out = play("cutechess");
    assert_cutechess_shapes(&out);
    assert!(!out.contains("Score of"), "{out}");
    assert!(
        out.contains("Rank Name                          Elo     +/-   Games   Score    Draw \n"),
        "{out}"
    );
    let rows = Regex::new(r"(?m)^ {3}[123] [abc] {24} ").unwrap();
    assert_eq!(rows.find_iter(&out).count(), 3, "{out}");
    let out = play("fastchess");
    let header = Regex::new(
        r"(?m)^Rank Name {29}Elo {8}\+/- {7}nElo {8}\+/- {6}Games {6}Score {7}Draw {11}Ptnml\(0-2\)$",
    )
    .unwrap();
    assert!(header.is_match(&out), "{out}");
}

/// Shannon against Stockfish (when installed), in both formats: Stockfish mates a random mover.
#[test]
fn stockfish_matches_in_both_formats() {
    let Some(stockfish) = stockfish() else {
        return;
    };
    let dir = scratch("output-stockfish");
    let config = stockfish_config(&dir, &stockfish);
    for format in ["cutechess", "fastchess"] {
        let json = dir.join(format!("{format}.json"));
        let (ok, out, err) = MatchLine::new()
            .config(&config)
            .engines("shannon,stockfish")
            .games(2)
            .rounds(2)
            .tc("nodes=2000")
            .pgn("-")
            .seed(3)
            .arg("--output-format", format)
            .arg("--json", &json)
            .run_in(&dir);
        assert!(ok, "{out}{err}");
        let ([wins, draws, losses], pentanomial) = standings(&json);
        let openbench = OpenBench::read(&out);
        assert_eq!(openbench.pentanomial, pentanomial);
        assert_eq!(openbench.trinomial, [losses, draws, wins]);
        assert!(out.contains(" mates}"), "{out}");
        if format == "cutechess" {
            assert_cutechess_shapes(out.split("JSON: ").next().unwrap());
            let (fishtest, wld) = fishtest_cutechess(&out, "shannon");
            assert_eq!(fishtest, pentanomial);
            assert_eq!(wld, [wins, losses, draws]);
        } else {
            let blocks = fishtest_blocks(&out);
            let (counts, _, last) = *blocks.last().expect("a block at the end");
            assert_eq!(counts, [wins + draws + losses, wins, losses, draws]);
            assert_eq!(last, pentanomial);
            assert!(out.contains("(2000 nodes, 1t, 16MB):"), "{out}");
        }
    }
}

#[test]
fn flags_the_format_cannot_honour_are_refused() {
    let dir = scratch("output-refused");
    let (ok, out, err) = MatchLine::new()
        .arg("--rating-interval", "5")
        .games(2)
        .run_in(&dir);
    assert!(!ok, "{out}");
    assert!(err.contains("--rating-interval"), "{err}");
    let (ok, out, err) = MatchLine::new()
        .arg("--output-format", "cutechess")
        .flag("--progress-lines")
        .games(2)
        .run_in(&dir);
    assert!(!ok, "{out}");
    assert!(err.contains("--progress-lines"), "{err}");
}

/// A resumed run's results cover the games of every run: the Elo line and fastchess's block
/// count them all; cutechess's colour lines and outcome list, which only this run's games could
/// fill, are left out.
#[test]
fn a_resumed_run_prints_the_whole_standings() {
    let dir = scratch("output-resume");
    let (ok, out, err) = MatchLine::new()
        .games(4)
        .tc("nodes=1")
        .pgn("g.pgn")
        .seed(4)
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let resume = |format: &str| {
        let (ok, out, err) = MatchLine::new()
            .arg("--resume", "g.pgn.state.json")
            .arg("--output-format", format)
            .run_in(&dir);
        assert!(ok, "{out}{err}");
        out
    };
    let out = resume("cutechess");
    assert_cutechess_shapes(&out);
    assert!(
        out.contains("DrawRatio: ") && !out.contains("Player: "),
        "{out}"
    );
    assert!(!out.contains("playing White"), "{out}");
    let blocks = fishtest_blocks(&resume("fastchess"));
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].0[0], 4);
}
