//! Matches that play out normally: the shipped and built-in configurations, reproducibility
//! from a seed, a configured `Seed`, time controls, the SPRT, `--games 0`, and the 10,000-game
//! soak.

use super::{read_pgn, scratch, tag, FAULTY};
use crate::common::MatchLine;
use shannon::game::{Ending, Status};
use std::path::Path;

/// Replay a game that ended by a rule with the library's rules and check that its Result tag is
/// what the final position says: mate for the side that gave it, 1/2-1/2 for stalemate, the
/// draw rules and claims. Returns the ending's name, for counting.
fn assert_result_matches_final_position(game: &shannon::notation::pgn::PgnGame) -> String {
    let round = tag(game, "Round");
    let replay = game.record.game();
    let (expected, name) = match replay.status() {
        Status::Over(Ending::Checkmate { winner }) => (
            match winner {
                shannon::Color::White => "1-0",
                shannon::Color::Black => "0-1",
            },
            "Checkmate".to_string(),
        ),
        Status::Over(ending) => ("1/2-1/2", format!("{ending:?}")),
        Status::Claimable(claim) => ("1/2-1/2", format!("{claim:?}")),
        Status::Ongoing => panic!("round {round} stops before the rules end it"),
    };
    assert_eq!(
        game.record.outcome.pgn(),
        expected,
        "round {round}: the result does not match the final position ({name})"
    );
    name.split([' ', '(', '{']).next().unwrap().to_string()
}

#[test]
fn shipped_engines_toml_plays_standard_and_chess960() {
    let dir = scratch("shipped");
    let root = env!("CARGO_MANIFEST_DIR");
    let config = format!("{root}/engines.toml");
    for openings in ["startpos", "chess960"] {
        let pgn = dir.join(format!("{openings}.pgn"));
        let (ok, out, err) = MatchLine::new()
            .config(&config)
            .games(6)
            .openings(openings)
            .pgn(&pgn)
            .seed(3)
            .quiet()
            .run_in(&dir);
        assert!(ok, "{out}{err}");
        assert!(out.contains("shannon-a vs shannon-b"), "{out}");
        assert!(
            out.contains("Elo difference") && out.contains("LOS: ") && out.contains("DrawRatio: "),
            "{out}"
        );
        assert!(out.contains("0 lost by engine failure"), "{out}");
        let games = read_pgn(&pgn);
        assert_eq!(games.len(), 6);
        for game in &games {
            assert_eq!(tag(game, "Termination"), "normal");
            assert_eq!(tag(game, "PlyCount"), game.record.moves.len().to_string());
            // The reader replayed every move legally; the rules must end the game where it
            // stops, with the result they give.
            assert_result_matches_final_position(game);
            if openings == "chess960" {
                assert_eq!(tag(game, "Variant"), "Chess960");
                assert!(game.record.castling.is_chess960());
            }
        }
    }
}

#[test]
fn the_built_in_config_is_used_when_there_is_no_file() {
    let dir = scratch("builtin");
    let (ok, out, err) = MatchLine::new()
        .games(2)
        .pgn("-")
        .quiet()
        .seed(1)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(out.contains("2 games"), "{out}");
}

#[test]
fn a_match_is_reproducible_from_its_seed() {
    let dir = scratch("seeded");
    let mut texts = Vec::new();
    for run_index in 0..2 {
        let pgn = dir.join(format!("{run_index}.pgn"));
        let (ok, out, err) = MatchLine::new()
            .games(4)
            .concurrency(2)
            .seed(42)
            .openings("chess960")
            .pgn(&pgn)
            .quiet()
            .run_in(&dir);
        assert!(ok, "{out}{err}");
        let mut games = read_pgn(&pgn);
        games.sort_by_key(|g| tag(g, "Round").parse::<u32>().unwrap());
        texts.push(
            games
                .iter()
                .map(|g| (g.record.start.clone(), g.record.moves.clone()))
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(texts[0], texts[1]);
}

/// The soak of issue 6: 10,000 games of Shannon vs Shannon, half of them Chess960, at a fast time
/// control with two games at once; no forfeit, no illegal move, no hang, and every game in the
/// PGN replays legally and ends the way its result says. About five minutes on two cores:
/// `cargo test --profile test-release --test it -- --ignored ten_thousand --nocapture`.
#[test]
#[ignore]
fn ten_thousand_games_without_a_failure() {
    let dir = scratch("soak");
    let started = std::time::Instant::now();
    let mut terminations = std::collections::BTreeMap::new();
    for openings in ["startpos", "chess960"] {
        let pgn = dir.join(format!("{openings}.pgn"));
        let (ok, out, err) = MatchLine::new()
            .games(5000)
            .concurrency(2)
            .tc("1+0.01")
            .openings(openings)
            .pgn(&pgn)
            .quiet()
            .seed(10000)
            .run_in(&dir);
        assert!(ok, "{out}{err}");
        assert!(
            out.contains("5000 games,") && out.contains(" 0 lost by engine failure"),
            "{out}"
        );
        println!("{out}");
        let games = read_pgn(&pgn);
        assert_eq!(games.len(), 5000);
        for game in &games {
            assert_eq!(tag(game, "Termination"), "normal");
            let name = assert_result_matches_final_position(game);
            *terminations.entry(name).or_insert(0) += 1;
        }
    }
    println!(
        "10,000 games in {:.0} s; terminations {terminations:?}",
        started.elapsed().as_secs_f64()
    );
}

/// Issue 9: with every game won, the SPRT stayed at LLR 0 and never stopped the match.
#[test]
fn sprt_stops_a_match_that_one_side_wins_every_game() {
    let dir = scratch("sprt-all-wins");
    let config = dir.join("engines.toml");
    std::fs::write(
        &config,
        format!("[[engine]]\nname = \"good\"\ncommand = \"self\"\n\n[[engine]]\nname = \"bad\"\ncommand = \"{FAULTY}\"\nargs = [\"--fault\", \"illegal-move\", \"--after\", \"1\"]\n"),
    )
    .unwrap();
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .games(400)
        .concurrency(2)
        .tc("nodes=1")
        .sprt("0,10,0.05,0.05")
        .pgn("-")
        .quiet()
        .seed(1)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    // The test runs on game pairs, in schedule order, and decides at 104 straight won pairs,
    // 208 games (tests/data/sprt/pentanomial_reference.py); the game the other worker is playing
    // then finishes too (and one that finished ahead of the deciding game is kept).
    assert!(out.contains("H1 accepted at game 208\n"), "{out}");
    let games: u32 = out
        .lines()
        .find_map(|l| l.strip_suffix(" lost by engine failure"))
        .and_then(|l| l.split(" games,").next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no games count: {out}"));
    assert!((208..=212).contains(&games), "{games} games: {out}");
    let won_pairs: u32 = out
        .lines()
        .find_map(|l| l.strip_prefix("Pentanomial [LL, LD, DD+WL, WD, WW]: [0, 0, 0, 0, "))
        .and_then(|l| l.split(']').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no all-WW pentanomial line: {out}"));
    assert!(
        won_pairs >= 104
            && out.contains(&format!(
                "({won_pairs} complete pairs, {} finished games whose partner did not finish)",
                games - 2 * won_pairs
            )),
        "{out}"
    );
    assert!(
        out.contains(
            "SPRT (fishtest, pentanomial, logistic Elo): elo0 0 elo1 10 alpha 0.05 beta 0.05: LLR "
        ),
        "{out}"
    );
    // The same with a negative elo0, which the command line used to refuse.
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .games(400)
        .tc("nodes=1")
        .sprt("-5,5,0.05,0.05")
        .pgn("-")
        .quiet()
        .seed(1)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("SPRT (fishtest, pentanomial, logistic Elo): elo0 -5 elo1 5")
            && out.contains("H1 accepted"),
        "{out}"
    );
}

/// Issue 9: Cute Chess's minutes:seconds time controls were refused.
#[test]
fn minutes_seconds_time_controls_are_accepted() {
    let dir = scratch("mmss");
    for (i, (tc, tag_value)) in [("1:00+1", "60+1"), ("40/1:00+0.5", "40/60+0.5")]
        .into_iter()
        .enumerate()
    {
        let pgn = dir.join(format!("games-{i}.pgn"));
        let (ok, out, err) = MatchLine::new()
            .games(2)
            .tc(tc)
            .pgn(&pgn)
            .quiet()
            .seed(1)
            .run_in(&dir);
        assert!(ok, "{tc}: {out}{err}");
        for game in read_pgn(&pgn) {
            assert_eq!(tag(&game, "TimeControl"), tag_value);
        }
    }
    let (ok, _, err) = MatchLine::new().games(2).tc("1:75").run_in(&dir);
    assert!(!ok && err.contains("'1:75' is not a time control"), "{err}");
}

/// Issue 9: `--games 0` played two games.
#[test]
fn zero_games_is_an_error() {
    let dir = scratch("zero-games");
    let pgn = dir.join("games.pgn");
    let (ok, out, err) = MatchLine::new().games(0).pgn(&pgn).quiet().run_in(&dir);
    assert!(!ok, "{out}");
    assert!(out.is_empty(), "nothing is played: {out}");
    assert!(err.contains("must be at least 1"), "{err}");
    assert!(!pgn.exists(), "no PGN is started");
}

/// Issue 31: an engines.toml engine with `dir` and a relative `command` runs from its folder,
/// its command found there (as cutechess-cli's and fastchess's `dir=` and `cmd=`): it used to be
/// looked for in the folder but started from the current directory, and failed to start.
#[cfg(unix)]
#[test]
fn an_engine_runs_from_its_folder_and_its_command_is_found_there() {
    let dir = scratch("engine-dir");
    std::fs::create_dir(dir.join("Engines")).unwrap();
    std::os::unix::fs::symlink(super::SHANNON, dir.join("Engines").join("mover")).unwrap();
    std::fs::write(
        dir.join("engines.toml"),
        "[[engine]]\nname = \"a\"\ncommand = \"./mover\"\ndir = \"Engines\"\n\n\
         [[engine]]\nname = \"b\"\ncommand = \"mover\"\ndir = \"Engines/\"\n",
    )
    .unwrap();
    let (ok, out, err) = MatchLine::new()
        .games(2)
        .tc("nodes=1")
        .pgn("g.pgn")
        .quiet()
        .seed(4)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let games = read_pgn(&dir.join("g.pgn"));
    assert_eq!(games.len(), 2);
    for game in &games {
        let ending = assert_result_matches_final_position(game);
        assert!(!ending.is_empty(), "{out}");
    }
}

/// The moves of every game of a PGN, by round.
fn moves_by_round(pgn: &Path) -> Vec<(u32, Vec<shannon::Move>)> {
    let mut games: Vec<_> = read_pgn(pgn)
        .iter()
        .map(|g| (tag(g, "Round").parse().unwrap(), g.record.moves.clone()))
        .collect();
    games.sort_by_key(|(round, _)| *round);
    games
}

/// Issue 9: a `Seed` set in engines.toml was replaced by the runner's per-game seeds, so two
/// files that differ only in it played the very same games.
#[test]
fn a_configured_seed_is_kept_and_changes_the_games() {
    let dir = scratch("configured-seed");
    let mut played = Vec::new();
    for seed in [7, 99, 7] {
        let config = dir.join(format!("seed{seed}.toml"));
        std::fs::write(
            &config,
            format!("[[engine]]\nname = \"a\"\ncommand = \"self\"\noptions = {{ Seed = {seed} }}\n\n[[engine]]\nname = \"b\"\ncommand = \"self\"\n"),
        )
        .unwrap();
        let pgn = dir.join(format!("seed{seed}-{}.pgn", played.len()));
        let (ok, out, err) = MatchLine::new()
            .config(&config)
            .games(4)
            .seed(3)
            .pgn(&pgn)
            .quiet()
            .run_in(&dir);
        assert!(ok, "{out}{err}");
        assert!(
            out.contains(&format!(
                "a: plays every game with its configured Seed {seed}"
            )),
            "{out}"
        );
        assert!(!out.contains("b: plays"), "b has no configured seed: {out}");
        played.push(moves_by_round(&pgn));
    }
    assert_ne!(
        played[0], played[1],
        "Seed 7 and Seed 99 must play differently"
    );
    assert_eq!(
        played[0], played[2],
        "the same configuration replays the same games"
    );
    // Games 1 and 3 (a White, the same opening, a's fixed seed) differ only through b's
    // per-game seeds, which still come from the match seed.
    assert_ne!(
        played[0][0].1, played[0][2].1,
        "b's per-game seeds still vary"
    );
}

/// `--progress-lines`: cutechess-cli's lines after every game, parsed as its scripts parse them.
#[test]
fn progress_lines_follow_cutechess_clis_format() {
    let dir = scratch("progress-lines");
    let (ok, out, err) = MatchLine::new()
        .games(6)
        .tc("nodes=1")
        .pgn("-")
        .quiet()
        .flag("--progress-lines")
        .seed(4)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let finished = out
        .lines()
        .filter(|l| l.starts_with("Finished game "))
        .count();
    assert_eq!(finished, 6, "{out}");
    let scores: Vec<(u32, u32, u32, f64, u32)> = out
        .lines()
        .filter_map(|line| line.strip_prefix("Score of shannon-a vs shannon-b: "))
        .map(|rest| {
            // "W - L - D  [0.500] N"
            let (wld, tail) = rest.split_once("  [").expect("two spaces before the ratio");
            let n: Vec<u32> = wld.split(" - ").map(|x| x.parse().unwrap()).collect();
            let (ratio, games) = tail.split_once("] ").unwrap();
            (
                n[0],
                n[1],
                n[2],
                ratio.parse().unwrap(),
                games.parse().unwrap(),
            )
        })
        .collect();
    assert_eq!(scores.len(), 6, "{out}");
    for (i, &(w, l, d, ratio, games)) in scores.iter().enumerate() {
        assert_eq!(w + l + d, games);
        assert_eq!(games as usize, i + 1);
        let expected = (f64::from(w) + 0.5 * f64::from(d)) / f64::from(games);
        assert!((ratio - expected).abs() < 0.0005, "{ratio} {expected}");
    }
    assert!(
        out.contains(", LOS: ") && out.contains(" %, DrawRatio: "),
        "{out}"
    );
}
