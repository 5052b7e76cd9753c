use super::super::test_support::{game, play, start};
use super::*;
use shannon::arena::Termination;
use shannon::arena::TimeLossCause;
use shannon::arena::{Openings, Schedule};
use shannon::game::Outcome;
use shannon::game::{DrawClaim, Ending, Finish};
use shannon::stats::Score;
use std::time::Duration;

/// The block fishtest's worker quotes (worker/games.py) from fastchess, reproduced from the
/// same counts (WL and DD apart from its WL/DD ratio: 119 and 25).
#[test]
fn block_matches_fastchesss_numbers() {
    let stats = PairStats {
        score: Score {
            wins: 248,
            losses: 266,
            draws: 166,
        },
        ll: 43,
        ld: 61,
        wl: 119,
        dd: 25,
        wd: 55,
        ww: 37,
    };
    assert_eq!(
        block_lines(&stats),
        "Elo: -9.20 +/- 20.93, nElo: -11.50 +/- 26.11\n\
         LOS: 19.41 %, DrawRatio: 42.35 %, PairsRatio: 0.88\n\
         Games: 680, Wins: 248, Losses: 266, Draws: 166, Points: 331.0 (48.68 %)\n\
         Ptnml(0-2): [43, 61, 144, 55, 37], WL/DD Ratio: 4.76"
    );
    let sprt: Sprt = "0,5,0.05,0.05".parse().unwrap();
    assert_eq!(
        llr_line(&sprt, -1.234),
        "LLR: -1.23 (-41.9%) (-2.94, 2.94) [0.00, 5.00]"
    );
    assert_eq!(
        llr_line(&sprt, 0.5),
        "LLR: 0.50 (17.0%) (-2.94, 2.94) [0.00, 5.00]"
    );
}

/// The blocks of `-report penta=false` (fastchess's `EloWDL` on single games), each from a
/// block fastchess 1.8.2-alpha printed for the same counts (its e2e `rating_interval` command
/// line and `-games 1`, with its mock engines).
#[test]
fn games_block_matches_fastchesss_numbers() {
    let block = |wins, losses, draws| {
        games_block_lines(&Score {
            wins,
            losses,
            draws,
        })
    };
    assert_eq!(
        block(2, 1, 7),
        "Elo: 34.86 +/- 122.07, nElo: 64.52 +/- 215.34\n\
         LOS: 72.15 %, DrawRatio: 70.00 %\n\
         Games: 10, Wins: 2, Losses: 1, Draws: 7, Points: 5.5 (55.00 %)"
    );
    assert_eq!(
        block(2, 0, 2),
        "Elo: 190.85 +/- 457.95, nElo: 347.44 +/- 340.48\n\
         LOS: 97.72 %, DrawRatio: 50.00 %\n\
         Games: 4, Wins: 2, Losses: 0, Draws: 2, Points: 3.0 (75.00 %)"
    );
    assert_eq!(
        block(2, 1, 3),
        "Elo: 58.45 +/- 226.57, nElo: 84.27 +/- 278.00\n\
         LOS: 72.38 %, DrawRatio: 50.00 %\n\
         Games: 6, Wins: 2, Losses: 1, Draws: 3, Points: 3.5 (58.33 %)"
    );
    assert_eq!(
        block(1, 0, 4),
        "Elo: 70.44 +/- 133.94, nElo: 173.72 +/- 304.54\n\
         LOS: 86.82 %, DrawRatio: 80.00 %\n\
         Games: 5, Wins: 1, Losses: 0, Draws: 4, Points: 3.0 (60.00 %)"
    );
    // Its NaNs and infinities, signs included (x86's inf - inf and 0/0 are negative NaNs).
    assert_eq!(
        block(2, 0, 0),
        "Elo: inf +/- -nan, nElo: inf +/- -nan\n\
         LOS: 100.00 %, DrawRatio: 0.00 %\n\
         Games: 2, Wins: 2, Losses: 0, Draws: 0, Points: 2.0 (100.00 %)"
    );
    assert_eq!(
        block(0, 0, 2),
        "Elo: -0.00 +/- 0.00, nElo: -nan +/- -nan\n\
         LOS: -nan %, DrawRatio: 100.00 %\n\
         Games: 2, Wins: 0, Losses: 0, Draws: 2, Points: 1.0 (50.00 %)"
    );
}

/// fastchess's table of a tournament with `-report penta=false` (three of its mock engines,
/// `-games 2 -rounds 3`): the figures of every game, the `Ptnml(0-2)` column left blank.
#[test]
fn rank_table_without_the_pentanomial() {
    use Color::White;
    let (_, schedule) = start(&["a", "bb", "c"], 6, Openings::default());
    let mut standings = Standings::new(vec!["a".into(), "bb".into(), "c".into()], &schedule);
    let draw = Some(Finish::Rule(Ending::Stalemate));
    let mate = Some(Finish::Rule(Ending::Checkmate { winner: White }));
    // Every game drawn but two of a's against bb: one won, one lost.
    for i in 0..schedule.len() {
        let (outcome, finish) = match i {
            0 | 1 => (Outcome::Win(White), mate),
            _ => (Outcome::Draw, draw),
        };
        standings.add(
            &schedule.game(i),
            &game(i + 1, "", "", outcome, None, finish),
        );
    }
    // fastchess's rows end with its blank column: a space and twenty more.
    let blank = " ".repeat(21);
    let rows = [
        "Rank Name                             Elo        +/-       nElo        +/-      \
         Games      Score       Draw           Ptnml(0-2)"
            .to_string(),
        format!(
            "   1 a                              -0.00      81.73       0.00     196.58         \
             12      50.0%      83.3%{blank}"
        ),
        format!(
            "   2 bb                             -0.00      81.73       0.00     196.58         \
             12      50.0%      83.3%{blank}"
        ),
        format!(
            "   3 c                              -0.00       0.00       -nan       -nan         \
             12      50.0%     100.0%{blank}"
        ),
    ];
    assert_eq!(
        rank_table(&standings, false),
        rows.iter()
            .map(|row| format!("{row}\n"))
            .collect::<String>()
    );
}

/// With `-report penta=false` the blocks come after every N-th finished game (fastchess counts
/// its games there, its pairs otherwise): at games 3 and 6 of six with `-ratinginterval 3`,
/// where the pentanomial's come after the third pair only.
#[test]
fn blocks_without_the_pentanomial_count_games() {
    let results = || {
        (0..6)
            .map(|_| {
                (
                    Outcome::Draw,
                    None,
                    Some(Finish::Claim(DrawClaim::ThreefoldRepetition)),
                )
            })
            .collect::<Vec<_>>()
    };
    let blocks = |penta: bool| {
        let (start, schedule) = start(&["dev", "base"], 6, Openings::default());
        let mut out = Vec::new();
        let mut renderer = Fastchess::new(&mut out, 3).penta(penta);
        play(&mut renderer, start, &schedule, results());
        String::from_utf8(out).unwrap()
    };
    let games = blocks(false);
    assert_eq!(
        games.matches("Results of dev vs base").count(),
        2,
        "{games}"
    );
    let third = games.find("Finished game 3 ").unwrap();
    let fourth = games.find("Started game 4 ").unwrap();
    assert!(
        games[third..fourth].contains(
            "Results of dev vs base (10+0.1, NULL, NULL):\n\
             Elo: -0.00 +/- 0.00, nElo: -nan +/- -nan\n\
             LOS: -nan %, DrawRatio: 100.00 %\n\
             Games: 3, Wins: 0, Losses: 0, Draws: 3, Points: 1.5 (50.00 %)\n---"
        ),
        "{games}"
    );
    assert!(!games.contains("Ptnml") && !games.contains("PairsRatio"));
    let pairs = blocks(true);
    assert_eq!(
        pairs.matches("Results of dev vs base").count(),
        1,
        "{pairs}"
    );
    assert!(pairs.contains("Ptnml(0-2): [0, 0, 3, 0, 0]"), "{pairs}");
}

/// A fastchess test on single games (its `-report penta=false`, its Bayesian model) means
/// fastchess reports no pentanomial: the blocks are on single games, with the LLR line.
#[test]
fn a_test_on_single_games_turns_the_pentanomial_off() {
    use shannon::stats::{EloModel, SprtTest};
    let results = (0..4)
        .map(|_| {
            (
                Outcome::Draw,
                None,
                Some(Finish::Claim(DrawClaim::ThreefoldRepetition)),
            )
        })
        .collect::<Vec<_>>();
    let sprt = "0,5,0.05,0.05".parse::<Sprt>().unwrap();
    let blocks = |test: SprtTest| {
        let (mut start, schedule) = start(&["dev", "base"], 4, Openings::default());
        start.sprt = Some(sprt.with_test(test));
        let mut out = Vec::new();
        let mut renderer = Fastchess::new(&mut out, 1);
        play(&mut renderer, start, &schedule, results.clone());
        String::from_utf8(out).unwrap()
    };
    let bayes = blocks(SprtTest::fastchess(EloModel::Bayesian, true));
    assert!(
        !bayes.contains("Ptnml") && !bayes.contains("PairsRatio"),
        "{bayes}"
    );
    assert_eq!(
        bayes.matches("Results of dev vs base").count(),
        4,
        "{bayes}"
    );
    assert!(
        bayes.contains("LLR: 0.00 (0.0%) (-2.94, 2.94) [0.00, 5.00]"),
        "{bayes}"
    );
    let pairs = blocks(SprtTest::fastchess(EloModel::Normalized, true));
    assert!(pairs.contains("Ptnml(0-2): [0, 0, 2, 0, 0]"), "{pairs}");
}

#[test]
fn time_controls_as_fastchess_writes_them() {
    let clock = |moves, base: f64, inc: f64| {
        TimeControl::clock(
            moves,
            Duration::from_secs_f64(base),
            Duration::from_secs_f64(inc),
        )
    };
    assert_eq!(time_control(&clock(0, 10.0, 0.1)), "10+0.1");
    assert_eq!(time_control(&clock(0, 0.601, 0.006)), "0.601+0.006");
    assert_eq!(time_control(&clock(40, 60.0, 0.6)), "40/60+0.6");
    assert_eq!(time_control(&clock(0, 8.0, 0.0)), "8");
    assert_eq!(
        time_control(&TimeControl::move_time(Duration::from_millis(100))),
        "0.1/move"
    );
    assert_eq!(time_control(&TimeControl::depth(3)), "3 plies");
    assert_eq!(time_control(&TimeControl::nodes(1000)), "1000 nodes");
    // Caps beside a pace: fastchess's getTime shows the first it finds.
    let caps = |text: &str| time_control(&text.parse().unwrap());
    assert_eq!(caps("10+0.1,nodes=5000,depth=8"), "10+0.1");
    assert_eq!(caps("movetime=100,nodes=5000"), "0.1/move");
    assert_eq!(caps("nodes=5000,depth=8"), "8 plies");
}

/// Pair counts from the standings: the games whose partner has not finished are left out,
/// DD and WL told apart by the draws.
#[test]
fn pair_stats_count_complete_pairs_only() {
    use Color::White;
    let schedule = Schedule::new(shannon::arena::TournamentKind::RoundRobin, 2, 1, 6).unwrap();
    let mut standings = Standings::new(vec!["a".into(), "b".into()], &schedule);
    let mate = Some(Finish::Rule(Ending::Checkmate { winner: White }));
    let draw = Some(Finish::Rule(Ending::Stalemate));
    // Pair 0: a wins with White, then b wins with White (WL); pair 1: two draws (DD); game
    // 5 (pair 2) waits for its partner.
    for (i, outcome, finish) in [
        (0, Outcome::Win(White), mate),
        (1, Outcome::Win(White), mate),
        (2, Outcome::Draw, draw),
        (3, Outcome::Draw, draw),
        (4, Outcome::Draw, draw),
    ] {
        standings.add(
            &schedule.game(i),
            &game(i + 1, "", "", outcome, None, finish),
        );
    }
    let stats = PairStats::of_encounter(&standings, 0);
    assert_eq!(
        stats,
        PairStats {
            score: Score {
                wins: 1,
                losses: 1,
                draws: 2
            },
            wl: 1,
            dd: 1,
            ..PairStats::default()
        }
    );
    assert_eq!(stats.reversed().score.wins, 1);
}

/// A whole match: the blocks after every pair (interval 1) and at the end.
#[test]
fn a_match_prints_fastchesss_blocks() {
    use Color::{Black, White};
    let openings: Openings = "file=/books/UHO_4060_v2.epd order=random".parse().unwrap();
    let (mut start, schedule) = start(&["dev", "base"], 4, openings);
    let options = vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())];
    start.engine_options = vec![options.clone(), options];
    let mut out = Vec::new();
    let mut renderer = Fastchess::new(&mut out, 1);
    play(
        &mut renderer,
        start,
        &schedule,
        vec![
            (
                Outcome::Win(White),
                None,
                Some(Finish::Rule(Ending::Checkmate { winner: White })),
            ),
            (
                Outcome::Draw,
                None,
                Some(Finish::Claim(DrawClaim::ThreefoldRepetition)),
            ),
            (
                Outcome::Win(Black),
                Some(Termination::TimeForfeit(
                    White,
                    TimeLossCause::Unknown {
                        info_time_ms: None,
                        left_ms: 1000,
                    },
                )),
                None,
            ),
            (Outcome::Win(White), Some(Termination::Crash(Black)), None),
        ],
    );
    let out = String::from_utf8(out).unwrap();
    let expected_start = "Started game 1 of 4 (dev vs base)
Finished game 1 (dev vs base): 1-0 {White mates}
Started game 2 of 4 (base vs dev)
Finished game 2 (base vs dev): 1/2-1/2 {Draw by 3-fold repetition}
--------------------------------------------------
Results of dev vs base (10+0.1, 1t, 16MB, UHO_4060_v2.epd):
Elo: 190.85 +/- 0.00, nElo: inf +/- -nan
LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf
Games: 2, Wins: 1, Losses: 0, Draws: 1, Points: 1.5 (75.00 %)
Ptnml(0-2): [0, 0, 0, 1, 0], WL/DD Ratio: -nan
--------------------------------------------------
Started game 3 of 4 (dev vs base)
Finished game 3 (dev vs base): 0-1 {White loses on time}
Started game 4 of 4 (base vs dev)
Finished game 4 (base vs dev): 1-0 {Black disconnects}
--------------------------------------------------
Results of dev vs base (10+0.1, 1t, 16MB, UHO_4060_v2.epd):
";
    assert!(out.starts_with(expected_start), "{out}");
    assert!(
        out.contains(
            "Games: 4, Wins: 1, Losses: 2, Draws: 1, Points: 1.5 (37.50 %)\n\
             Ptnml(0-2): [1, 0, 0, 1, 0], WL/DD Ratio: -nan\n"
        ),
        "{out}"
    );
    assert!(
        out.ends_with(
            "--------------------------------------------------

Player: dev
  Timeouts: 1
  Crashed: 1

Finished match
Total Time: 01:02:05 (hours:minutes:seconds)

"
        ),
        "{out}"
    );
}
