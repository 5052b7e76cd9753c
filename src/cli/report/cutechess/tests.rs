use super::super::test_support::{play, start};
use super::*;
use shannon::arena::Openings;
use shannon::arena::Termination;
use shannon::arena::TimeLossCause;
use shannon::game::{DrawClaim, Ending, Finish};

fn score(wins: u32, losses: u32, draws: u32) -> Score {
    Score {
        wins,
        draws,
        losses,
    }
}

/// Real cutechess-cli lines (published match logs) and ours from the same counts.
#[test]
fn elo_line_matches_cutechess_clis_numbers() {
    for (s, line) in [
        (
            score(111, 61, 28),
            "Elo difference: 88.7 +/- 46.1, LOS: 100.0 %, DrawRatio: 14.0 %",
        ),
        (
            score(87, 87, 26),
            "Elo difference: 0.0 +/- 45.1, LOS: 50.0 %, DrawRatio: 13.0 %",
        ),
        (
            score(11, 22, 67),
            "Elo difference: -38.4 +/- 39.0, LOS: 2.8 %, DrawRatio: 67.0 %",
        ),
        (
            score(82, 125, 93),
            "Elo difference: -50.1 +/- 32.9, LOS: 0.1 %, DrawRatio: 31.0 %",
        ),
        (
            score(41, 58, 1),
            "Elo difference: -59.6 +/- 69.6, LOS: 4.4 %, DrawRatio: 1.0 %",
        ),
        (
            score(93, 24, 283),
            "Elo difference: 60.5 +/- 18.0, LOS: 100.0 %, DrawRatio: 70.8 %",
        ),
        // cutechess's NaNs and infinities where every game had the same result.
        (
            score(3, 0, 0),
            "Elo difference: inf +/- nan, LOS: 95.8 %, DrawRatio: 0.0 %",
        ),
        (
            score(0, 0, 4),
            "Elo difference: 0.0 +/- 0.0, LOS: nan %, DrawRatio: 100.0 %",
        ),
    ] {
        assert_eq!(elo_line(s), line);
    }
}

#[test]
fn sprt_line_in_cutechess_clis_format() {
    assert_eq!(
        sprt_line(None, 0.0),
        "SPRT: llr 0 (0.0%), lbound -inf, ubound inf"
    );
    let sprt: Sprt = "0,5,0.05,0.05".parse().unwrap();
    assert_eq!(
        sprt_line(Some(&sprt), 2.95),
        "SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted"
    );
    assert_eq!(
        sprt_line(Some(&sprt), -1.234),
        "SPRT: llr -1.23 (-41.9%), lbound -2.94, ubound 2.94"
    );
    assert_eq!(
        sprt_line(Some(&sprt), -3.0),
        "SPRT: llr -3 (-101.9%), lbound -2.94, ubound 2.94 - H0 was accepted"
    );
}

/// fastchess's SPRT line in its `-output format=cutechess` (output_cutechess.hpp, `printSprt`):
/// two decimals, the percentage of the bound on the LLR's side, H0 only strictly below the lower
/// bound.
#[test]
fn a_fastchess_test_has_fastchesss_line() {
    use shannon::stats::{EloModel, SprtTest};
    let sprt = "0,5,0.05,0.05"
        .parse::<Sprt>()
        .unwrap()
        .with_test(SprtTest::fastchess(EloModel::Normalized, false));
    let (lower, _) = sprt.bounds();
    for (llr, line) in [
        (0.59, "SPRT: llr 0.59 (20.0%), lbound -2.94, ubound 2.94"),
        (-1.234, "SPRT: llr -1.23 (41.9%), lbound -2.94, ubound 2.94"),
        (
            2.95,
            "SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted",
        ),
        (
            -3.0,
            "SPRT: llr -3.00 (101.9%), lbound -2.94, ubound 2.94 - H0 was accepted",
        ),
        // At the bound itself fastchess's test accepts H0, its line does not say so.
        (lower, "SPRT: llr -2.94 (100.0%), lbound -2.94, ubound 2.94"),
    ] {
        assert_eq!(sprt_line(Some(&sprt), llr), line);
    }
    // cutechess-cli's own test keeps cutechess-cli's line.
    let cute = sprt.with_test(SprtTest::Cutechess);
    assert_eq!(
        sprt_line(Some(&cute), -1.234),
        "SPRT: llr -1.23 (-41.9%), lbound -2.94, ubound 2.94"
    );
    assert_eq!(
        sprt_line(Some(&cute), -3.0),
        "SPRT: llr -3 (-101.9%), lbound -2.94, ubound 2.94 - H0 was accepted"
    );
}

/// A whole match, every line as cutechess-cli prints it.
#[test]
fn a_match_prints_cutechess_clis_lines() {
    use Color::{Black, White};
    let (start, schedule) = start(&["a", "b"], 4, Openings::default());
    let mut out = Vec::new();
    let mut renderer = Cutechess::new(&mut out, 0);
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
            (
                Outcome::Win(Black),
                Some(Termination::IllegalMove(White, "e1e3".into())),
                None,
            ),
        ],
    );
    let expected = format!(
        "Started game 1 of 4 (a vs b)
Finished game 1 (a vs b): 1-0 {{White mates}}
Score of a vs b: 1 - 0 - 0  [1.000] 1
Started game 2 of 4 (b vs a)
Finished game 2 (b vs a): 1/2-1/2 {{Draw by 3-fold repetition}}
Score of a vs b: 1 - 0 - 1  [0.750] 2
Started game 3 of 4 (a vs b)
Finished game 3 (a vs b): 0-1 {{White loses on time}}
Score of a vs b: 1 - 1 - 1  [0.500] 3
Started game 4 of 4 (b vs a)
Finished game 4 (b vs a): 0-1 {{White makes an illegal move: e1e3}}
Score of a vs b: 2 - 1 - 1  [0.625] 4
...      a playing White: 1 - 1 - 0  [0.500] 2
...      a playing Black: 1 - 0 - 1  [0.750] 2
...      White vs Black: 1 - 2 - 1  [0.375] 4
{}
SPRT: llr 0 (0.0%), lbound -inf, ubound inf

Player: a
   \"Draw by 3-fold repetition\": 1
   \"Loss: White loses on time\": 1
   \"Win: White makes an illegal move: e1e3\": 1
   \"Win: White mates\": 1
Player: b
   \"Draw by 3-fold repetition\": 1
   \"Loss: White makes an illegal move: e1e3\": 1
   \"Loss: White mates\": 1
   \"Win: White loses on time\": 1
Finished match
",
        elo_line(score(2, 1, 1))
    );
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}

/// Three engines: cutechess-cli's default rank table, `Rank,Name,Elo,Error,Games,Score,DScore`.
#[test]
fn a_tournament_prints_the_rank_table() {
    use Color::White;
    let (start, schedule) = start(&["a", "b", "c"], 2, Openings::default());
    let mate = Some(Finish::Rule(Ending::Checkmate { winner: White }));
    let draw = Some(Finish::Rule(Ending::Stalemate));
    let mut out = Vec::new();
    let mut renderer = Cutechess::new(&mut out, 0);
    // a-b: a wins, draw; a-c: draw, draw; b-c: b wins (White), c wins (White).
    play(
        &mut renderer,
        start,
        &schedule,
        vec![
            (Outcome::Win(White), None, mate),
            (Outcome::Draw, None, draw),
            (Outcome::Draw, None, draw),
            (Outcome::Draw, None, draw),
            (Outcome::Win(White), None, mate),
            (Outcome::Win(White), None, mate),
        ],
    );
    let out = String::from_utf8(out).unwrap();
    assert!(!out.contains("Score of"), "{out}");
    let table = "Rank Name                          Elo     +/-   Games   Score    Draw \n   \
                 1 a                              89     173       4   62.5%   75.0% \n   \
                 2 c                               0     296       4   50.0%   50.0% \n   \
                 3 b                             -89     nan       4   37.5%   25.0% \n\n\
                 SPRT: llr 0 (0.0%), lbound -inf, ubound inf\n";
    assert!(out.contains(table), "{out}");
    assert!(out.ends_with("Finished match\n"), "{out}");
}

/// fastchess's `-scoreinterval 3` (its `-output format=cutechess`: the Score line after every
/// third game and after the last) and cutechess-cli's `-outcomeinterval 2` (the outcomes after
/// every second game, not again at the end when the last game printed them).
#[test]
fn score_and_outcome_intervals() {
    use Color::White;
    let (start, schedule) = start(&["a", "b"], 4, Openings::default());
    let mate = Some(Finish::Rule(Ending::Checkmate { winner: White }));
    let mut out = Vec::new();
    let mut renderer = Cutechess::new(&mut out, 0).with_intervals(3, 2);
    play(
        &mut renderer,
        start,
        &schedule,
        vec![(Outcome::Win(White), None, mate); 4],
    );
    let out = String::from_utf8(out).unwrap();
    let score_lines: Vec<&str> = out.lines().filter(|l| l.starts_with("Score of")).collect();
    assert_eq!(
        score_lines,
        [
            "Score of a vs b: 2 - 1 - 0  [0.667] 3",
            "Score of a vs b: 2 - 2 - 0  [0.500] 4"
        ],
        "{out}"
    );
    // After game 2 and after game 4 (the end): twice, not three times.
    assert_eq!(out.matches("Player: a").count(), 2, "{out}");
    let after_two = out.find("Finished game 3").unwrap();
    assert!(out[..after_two].contains("Player: b"), "{out}");
}

/// What each way a game ends counts in the outcome fields, White's then Black's, as
/// cutechess's `addOutcome` counts it.
#[test]
fn outcome_fields_count_each_game_as_cutechess_does() {
    use super::super::test_support::game;
    use result_format::{counted, Counted::*};
    use Color::{Black, White};
    let unknown = TimeLossCause::Unknown {
        info_time_ms: None,
        left_ms: 0,
    };
    let rule = |ending| Some(Finish::Rule(ending));
    type Case = (
        Outcome,
        Option<Termination>,
        Option<Finish>,
        [Option<result_format::Counted>; 2],
    );
    let cases: Vec<Case> = vec![
        (
            Outcome::Win(Black),
            None,
            rule(Ending::Checkmate { winner: Black }),
            [Some(RegularLoss), Some(RegularWin)],
        ),
        (
            Outcome::Draw,
            None,
            rule(Ending::Stalemate),
            [Some(Stalemate), Some(Stalemate)],
        ),
        (
            Outcome::Draw,
            None,
            rule(Ending::InsufficientMaterial),
            [Some(InsufficientMaterial); 2],
        ),
        (
            Outcome::Draw,
            None,
            Some(Finish::Claim(DrawClaim::ThreefoldRepetition)),
            [Some(Repetition); 2],
        ),
        (
            Outcome::Draw,
            None,
            rule(Ending::SeventyFiveMoveRule),
            [Some(MovesRule); 2],
        ),
        (
            Outcome::Draw,
            Some(Termination::PlyLimit),
            None,
            [Some(Adjudication); 2],
        ),
        (
            Outcome::Draw,
            Some(Termination::Tablebase),
            None,
            [Some(Adjudication); 2],
        ),
        (
            Outcome::Win(White),
            Some(Termination::Adjudication("resign rule".into())),
            None,
            [Some(RegularWin), Some(RegularLoss)],
        ),
        (
            Outcome::Win(White),
            Some(Termination::TimeForfeit(Black, unknown)),
            None,
            [Some(OtherWin), Some(TimeForfeit)],
        ),
        // A loss on time against a bare king is a draw: `Time` for both.
        (
            Outcome::Draw,
            Some(Termination::TimeForfeit(Black, unknown)),
            None,
            [Some(TimeForfeit); 2],
        ),
        (
            Outcome::Win(Black),
            Some(Termination::IllegalMove(White, "e1e3".into())),
            None,
            [Some(IllegalMove), Some(OtherWin)],
        ),
        (
            Outcome::Win(Black),
            Some(Termination::Crash(White)),
            None,
            [Some(Disconnection), Some(OtherWin)],
        ),
        (
            Outcome::Win(White),
            Some(Termination::Hang(Black)),
            None,
            [Some(OtherWin), Some(StalledConnection)],
        ),
        (
            Outcome::Win(Black),
            Some(Termination::Resignation(White)),
            None,
            [Some(RegularLoss), Some(RegularWin)],
        ),
        // A refuted claim of a win is an invalid result claim; a refuted `Illegal move` is
        // described otherwise, so cutechess counts it a regular loss.
        (
            Outcome::Win(Black),
            Some(Termination::FalseClaim(White, "1-0 {White mates}".into())),
            None,
            [Some(InvalidResultClaim), Some(OtherWin)],
        ),
        (
            Outcome::Win(Black),
            Some(Termination::FalseClaim(White, "Illegal move: e7e5".into())),
            None,
            [Some(RegularLoss), Some(RegularWin)],
        ),
        (
            Outcome::Unfinished,
            Some(Termination::Interrupted),
            None,
            [None, None],
        ),
    ];
    for (outcome, termination, finish, expected) in cases {
        let played = game(1, "a", "b", outcome, termination.clone(), finish);
        assert_eq!(counted(&played), expected, "{termination:?} {finish:?}");
    }
}

/// A resumed tournament does not know its earlier games' colours and endings: a format with
/// their fields is refused before the first game; one without them prints.
#[test]
fn a_resumed_tournament_refuses_fields_of_each_game() {
    let (mut start, _) = start(&["a", "b", "c"], 2, Openings::default());
    start.resumed = Some(shannon::arena::Resumed {
        state: "x.state.json".into(),
        done: 2,
        of: 6,
    });
    let mut out = Vec::new();
    let mut renderer = Cutechess::new(&mut out, 0).with_result_format(ResultFormat::parse("wide3"));
    let refused = renderer.started(&start).unwrap_err().to_string();
    assert!(refused.contains("resumed run"), "{refused}");
    let mut renderer = Cutechess::new(&mut out, 0).with_result_format(ResultFormat::parse("wide"));
    renderer.started(&start).unwrap();
}
