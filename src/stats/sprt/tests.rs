//! The tests of the SPRT: clear cases, the bounds, the three tools' tests and their models.

use super::*;

#[test]
fn sprt_decides_clear_cases() {
    let sprt = "0,10,0.05,0.05".parse::<Sprt>().unwrap();
    let (lower, upper) = sprt.bounds();
    assert!((upper - 2.944).abs() < 0.01 && (lower + 2.944).abs() < 0.01);
    let strong = Score {
        wins: 600,
        draws: 200,
        losses: 200,
    };
    assert_eq!(sprt.verdict(&strong), SprtVerdict::AcceptH1);
    let weak = Score {
        wins: 200,
        draws: 200,
        losses: 600,
    };
    assert_eq!(sprt.verdict(&weak), SprtVerdict::AcceptH0);
    let early = Score {
        wins: 2,
        draws: 1,
        losses: 1,
    };
    assert_eq!(sprt.verdict(&early), SprtVerdict::Continue);
    assert!("10,0,0.05,0.05".parse::<Sprt>().is_err());
    assert!("-inf,0,0.05,0.05".parse::<Sprt>().is_err());
    assert!("0,5000,0.05,0.05".parse::<Sprt>().is_err());
    assert!("-5,5,0.05,0.05".parse::<Sprt>().is_ok());
    assert!("0,10,0.05".parse::<Sprt>().is_err());
}

/// Issue 30: alpha + beta >= 1 gave crossed bounds and "H1 accepted" before any game.
/// Every test that cannot be run is refused, by the rule it breaks (fastchess's rules).
#[test]
fn impossible_tests_are_refused_by_their_rule() {
    let refused = |text: &str| text.parse::<Sprt>().unwrap_err();
    assert_eq!(
        refused("0,5,0.5,0.6"),
        SprtError::AlphaPlusBeta {
            alpha: 0.5,
            beta: 0.6
        }
    );
    assert!(refused("0,5,0.5,0.6")
        .to_string()
        .starts_with("the sum of alpha and beta must be less than 1 (alpha 0.5 + beta 0.6 = 1.1)"));
    assert!(matches!(
        refused("0,5,0.5,0.5"),
        SprtError::AlphaPlusBeta { .. }
    ));
    assert_eq!(
        refused("5,5,0.05,0.05"),
        SprtError::Elo0NotBelowElo1 {
            elo0: 5.0,
            elo1: 5.0
        }
    );
    assert_eq!(
        refused("10,0,0.05,0.05").to_string(),
        "elo0 (10) must be less than elo1 (0)"
    );
    for (text, error) in [
        ("0,5,0,0.05", SprtError::Alpha(0.0)),
        ("0,5,1,0.05", SprtError::Alpha(1.0)),
        ("0,5,-0.1,0.05", SprtError::Alpha(-0.1)),
        ("0,5,0.05,0", SprtError::Beta(0.0)),
        ("0,5,0.05,1.5", SprtError::Beta(1.5)),
        ("0,5000,0.05,0.05", SprtError::EloOutOfRange(5000.0)),
        ("0,5", SprtError::Malformed("0,5".into())),
        (
            "a,5,0.05,0.05",
            SprtError::Malformed("a,5,0.05,0.05".into()),
        ),
    ] {
        assert_eq!(refused(text), error, "{text}");
    }
    for nan in ["nan,5,0.05,0.05", "0,5,nan,0.05", "0,5,0.05,nan"] {
        assert!(nan.parse::<Sprt>().is_err(), "{nan}");
    }
    // The bounds of every test accepted are on both sides of 0: no decision before a game.
    let sprt = Sprt::new(0.0, 5.0, 0.49, 0.5).unwrap();
    let (lower, upper) = sprt.bounds();
    assert!(lower < 0.0 && upper > 0.0);
    assert_eq!(sprt.decide(0.0), SprtVerdict::Continue);
    // A saved test is checked when it is read.
    let saved = r#"{"elo0":0.0,"elo1":5.0,"alpha":0.5,"beta":0.6}"#;
    let error = serde_json::from_str::<Sprt>(saved).unwrap_err().to_string();
    assert!(error.contains("the sum of alpha and beta"), "{error}");
    let good = serde_json::to_string(&sprt).unwrap();
    assert_eq!(serde_json::from_str::<Sprt>(&good).unwrap(), sprt);
}

fn score(wins: u32, draws: u32, losses: u32) -> Score {
    Score {
        wins,
        draws,
        losses,
    }
}

/// LLRs for `0,10` from `tests/data/sprt/llr_reference.py`, which follows the published
/// formulas (fishtest's regularisation, the multinomial MLE of Proposition 1.1) but solves
/// the three-outcome secular equation as a quadratic in closed form instead of bisecting;
/// `python3 tests/data/sprt/llr_reference.py` prints them.
const REFERENCE_0_10: [((u32, u32, u32), f64); 8] = [
    ((200, 0, 0), 5.673631181417826),
    ((0, 200, 0), -5.830357904345408),
    ((0, 0, 200), -5.8392942829765095),
    ((1, 0, 0), 0.02836727254835294),
    ((600, 200, 200), 13.898221639392737),
    ((200, 200, 600), -14.881857555271488),
    ((2, 1, 1), 0.036223743425350674),
    ((30, 40, 30), -0.06901291569175583),
];

#[test]
fn llr_matches_an_independent_computation() {
    let sprt = "0,10,0.05,0.05".parse::<Sprt>().unwrap();
    for ((w, d, l), expected) in REFERENCE_0_10 {
        let llr = sprt.llr(&score(w, d, l));
        assert!(
            (llr - expected).abs() < 1e-9,
            "{w}-{d}-{l} (W-D-L): LLR {llr}, reference {expected}"
        );
    }
    // The same script: all wins with elo0 -5, elo1 5.
    let sprt = "-5,5,0.05,0.05".parse::<Sprt>().unwrap();
    assert!((sprt.llr(&score(200, 0, 0)) - 5.756462732197207).abs() < 1e-9);
    assert_eq!(sprt.llr(&Score::default()), 0.0);
}

/// Issue 9: a score with no variance (every game the same result) gave LLR 0 for ever.
#[test]
fn one_sided_scores_decide() {
    let sprt = "0,10,0.05,0.05".parse::<Sprt>().unwrap();
    assert_eq!(sprt.verdict(&score(200, 0, 0)), SprtVerdict::AcceptH1);
    assert_eq!(sprt.verdict(&score(0, 200, 0)), SprtVerdict::AcceptH0);
    assert_eq!(sprt.verdict(&score(0, 0, 200)), SprtVerdict::AcceptH0);
    // The reference script finds the first decisive game counts: 104 wins, 102 draws and
    // 101 losses in a row; one game fewer is not enough.
    type InARow = fn(u32) -> Score;
    let cases: [(InARow, u32, SprtVerdict); 3] = [
        (|n| score(n, 0, 0), 104, SprtVerdict::AcceptH1),
        (|n| score(0, n, 0), 102, SprtVerdict::AcceptH0),
        (|n| score(0, 0, n), 101, SprtVerdict::AcceptH0),
    ];
    for (at, decides_at, verdict) in cases {
        assert_eq!(
            sprt.verdict(&at(decides_at)),
            verdict,
            "{:?}",
            at(decides_at)
        );
        assert_eq!(
            sprt.verdict(&at(decides_at - 1)),
            SprtVerdict::Continue,
            "{:?}",
            at(decides_at - 1)
        );
    }
}

/// Pentanomial LLRs from `tests/data/sprt/pentanomial_reference.py` (a transcription of
/// fishtest's `LLR_logistic` with Brent's method for the secular equation;
/// `python3 tests/data/sprt/pentanomial_reference.py` prints them), as
/// ((elo0, elo1), [LL, LD, DD+WL, WD, WW], LLR). tests/it/arena/sprt_reference.rs runs the
/// script itself on more tables.
const PENTANOMIAL_REFERENCE: [((f64, f64), [u32; 5], f64); 12] = [
    ((0.0, 10.0), [0, 0, 0, 0, 200], 5.673687916750321),
    ((0.0, 10.0), [0, 0, 200, 0, 0], -5.830128717698321),
    ((0.0, 10.0), [200, 0, 0, 0, 0], -5.839352674978772),
    ((0.0, 10.0), [0, 0, 0, 0, 1], 0.028423811539487056),
    ((0.0, 10.0), [20, 20, 20, 20, 20], -0.08281700969804198),
    ((0.0, 10.0), [10, 50, 200, 60, 12], 0.42911641788487165),
    ((0.0, 5.0), [10, 50, 200, 60, 12], 0.4450925740105363),
    ((0.0, 5.0), [0, 0, 0, 0, 200], 2.8575499090708765),
    ((-5.0, 5.0), [0, 0, 0, 0, 200], 5.756520295864972),
    ((-5.0, 5.0), [200, 0, 0, 0, 0], -5.756520295864983),
    ((-5.0, 5.0), [10, 50, 200, 60, 12], 1.344486443959137),
    (
        (-5.0, 5.0),
        [1187, 7410, 13475, 7378, 1164],
        -5.678194123218121,
    ),
];

fn sprt_of(elo0: f64, elo1: f64) -> Sprt {
    format!("{elo0},{elo1},0.05,0.05").parse::<Sprt>().unwrap()
}

#[test]
fn pentanomial_llr_matches_an_independent_computation() {
    for ((elo0, elo1), counts, expected) in PENTANOMIAL_REFERENCE {
        let llr = sprt_of(elo0, elo1).llr_pentanomial(&Pentanomial { counts }, &Score::default());
        assert!(
            (llr - expected).abs() <= 1e-9 * expected.abs().max(1.0),
            "{elo0},{elo1} {counts:?}: LLR {llr}, reference {expected}"
        );
    }
    // Symmetric hypotheses: all draws and a balanced table carry no evidence either way.
    let sprt = sprt_of(-5.0, 5.0);
    for counts in [[0, 0, 200, 0, 0], [20, 20, 20, 20, 20]] {
        assert!(
            sprt.llr_pentanomial(&Pentanomial { counts }, &Score::default())
                .abs()
                < 1e-9
        );
    }
    assert_eq!(
        sprt.llr_pentanomial(&Pentanomial::default(), &Score::default()),
        0.0
    );
}

/// One-sided pair counts decide, after as many pairs as the reference script finds.
#[test]
fn one_sided_pairs_decide() {
    let cases: [(f64, f64, usize, u32, SprtVerdict); 5] = [
        (0.0, 10.0, 4, 104, SprtVerdict::AcceptH1),
        (-5.0, 5.0, 4, 103, SprtVerdict::AcceptH1),
        (0.0, 10.0, 2, 102, SprtVerdict::AcceptH0),
        (0.0, 10.0, 0, 101, SprtVerdict::AcceptH0),
        (-5.0, 5.0, 0, 103, SprtVerdict::AcceptH0),
    ];
    for (elo0, elo1, cell, decides_at, verdict) in cases {
        let sprt = sprt_of(elo0, elo1);
        let at = |n: u32| {
            let mut counts = [0; 5];
            counts[cell] = n;
            sprt.decide(sprt.llr_pentanomial(&Pentanomial { counts }, &Score::default()))
        };
        assert_eq!(at(decides_at), verdict, "{elo0},{elo1} cell {cell}");
        assert_eq!(at(decides_at - 1), SprtVerdict::Continue);
    }
}

#[test]
fn a_match_is_tested_on_pairs_once_one_is_complete() {
    let sprt = sprt_of(0.0, 10.0);
    let games = score(3, 0, 0);
    let none = Pentanomial::default();
    assert_eq!(
        sprt.match_llr(&games, &none),
        (SprtModel::Trinomial, sprt.llr(&games))
    );
    let one = Pentanomial {
        counts: [0, 0, 0, 0, 1],
    };
    let (model, llr) = sprt.match_llr(&games, &one);
    assert_eq!(model, SprtModel::Pentanomial);
    assert!((llr - 0.028423811539487056).abs() < 1e-12, "{llr}");
    assert_eq!(SprtModel::Pentanomial.name(), "pentanomial");
}

/// A saved test names its tool and model; one saved by an earlier Shannon (no `test`) is
/// fishtest's in logistic Elo, the test it ran.
#[test]
fn a_saved_test_keeps_its_tool_and_model() {
    let sprt = sprt_of(0.0, 5.0);
    let older = r#"{"elo0":0.0,"elo1":5.0,"alpha":0.05,"beta":0.05}"#;
    assert_eq!(serde_json::from_str::<Sprt>(older).unwrap(), sprt);
    assert_eq!(sprt.test, SprtTest::Fishtest(EloModel::Logistic));
    let tests = [
        SprtTest::Fishtest(EloModel::Logistic),
        SprtTest::Fishtest(EloModel::Normalized),
        SprtTest::Fishtest(EloModel::Bayesian),
        SprtTest::fastchess(EloModel::Normalized, true),
        SprtTest::fastchess(EloModel::Logistic, false),
        SprtTest::fastchess(EloModel::Bayesian, true),
        SprtTest::Cutechess,
    ];
    for test in tests {
        let saved = serde_json::to_string(&sprt.with_test(test)).unwrap();
        assert_eq!(
            serde_json::from_str::<Sprt>(&saved).unwrap().test,
            test,
            "{saved}"
        );
    }
    let saved = serde_json::to_string(&sprt.with_test(tests[3])).unwrap();
    assert_eq!(
        saved,
        r#"{"elo0":0.0,"elo1":5.0,"alpha":0.05,"beta":0.05,"test":"fastchess","elo_model":"normalized","counts":"pentanomial"}"#
    );
    let cute = serde_json::to_string(&sprt.with_test(SprtTest::Cutechess)).unwrap();
    assert_eq!(
        cute,
        r#"{"elo0":0.0,"elo1":5.0,"alpha":0.05,"beta":0.05,"test":"cutechess"}"#
    );
    // What a tool's test does not have is refused by name.
    let read = |text: &str| serde_json::from_str::<Sprt>(text).unwrap_err().to_string();
    let with_model =
        r#"{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"test":"cutechess","elo_model":"logistic"}"#;
    assert!(read(with_model).contains("a saved cutechess SPRT has no elo_model"));
    let with_counts = r#"{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"counts":"trinomial"}"#;
    assert!(read(with_counts).contains("a saved fishtest SPRT has no counts"));
    let unknown = r#"{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"test":"banksia"}"#;
    assert!(read(unknown).contains("banksia"), "{}", read(unknown));
}

#[test]
fn models_are_read_by_their_names() {
    for model in EloModel::ALL {
        assert_eq!(model.name().parse::<EloModel>(), Ok(model));
    }
    assert_eq!(
        "BayesElo".parse::<EloModel>(),
        Err(SprtError::UnknownModel("BayesElo".into()))
    );
    assert_eq!(
        SprtError::UnknownModel("x".into()).to_string(),
        "'x' is not an Elo model: logistic, normalized or bayesian"
    );
    // fastchess's Bayesian model is on single games, whatever is asked.
    assert_eq!(
        SprtTest::fastchess(EloModel::Bayesian, true),
        SprtTest::Fastchess {
            model: EloModel::Bayesian,
            counts: SprtModel::Trinomial
        }
    );
    assert_eq!(
        SprtTest::fastchess(EloModel::Normalized, true).to_string(),
        "fastchess, normalized Elo"
    );
    assert_eq!(SprtTest::Cutechess.to_string(), "cutechess-cli, BayesElo");
}

/// Which counts each test is taken on, and that it is its own tool's formula.
#[test]
fn each_test_is_taken_on_its_own_counts_by_its_own_formula() {
    let base = sprt_of(0.0, 10.0);
    let games = score(30, 20, 10);
    let pairs = Pentanomial {
        counts: [2, 5, 12, 6, 5],
    };
    let none = Pentanomial::default();
    let fastchess_penta = base.with_test(SprtTest::fastchess(EloModel::Normalized, true));
    let fastchess_games = base.with_test(SprtTest::fastchess(EloModel::Normalized, false));
    let cute = base.with_test(SprtTest::Cutechess);
    // fishtest: the first game before a pair, the pairs after; fastchess: its own counts
    // even before a pair; cutechess-cli: the games.
    assert_eq!(base.match_llr(&games, &none).0, SprtModel::Trinomial);
    assert_eq!(base.match_llr(&games, &pairs).0, SprtModel::Pentanomial);
    assert_eq!(
        fastchess_penta.match_llr(&games, &none).0,
        SprtModel::Pentanomial
    );
    assert_eq!(
        fastchess_games.match_llr(&games, &pairs),
        (
            SprtModel::Trinomial,
            fastchess::llr_games(EloModel::Normalized, 0.0, 10.0, 30, 20, 10)
        )
    );
    assert_eq!(
        cute.match_llr(&games, &pairs),
        (SprtModel::Trinomial, cutechess::llr(0.0, 10.0, 30, 10, 20))
    );
    assert_eq!(
        fastchess_penta.match_llr(&games, &pairs).1,
        fastchess::llr_pairs(EloModel::Normalized, 0.0, 10.0, &pairs.counts)
    );
    // fastchess before any pair: the regularised zeros, a tiny ratio, not a shortcut to 0.
    let empty = fastchess_penta.match_llr(&Score::default(), &none).1;
    assert!(empty != 0.0 && empty.abs() < 1e-3, "{empty}");
    // The same counts in other models give other ratios.
    let normalized = base.with_test(SprtTest::Fishtest(EloModel::Normalized));
    let bayes = base.with_test(SprtTest::Fishtest(EloModel::Bayesian));
    let (l, n, b) = (
        base.match_llr(&games, &pairs).1,
        normalized.match_llr(&games, &pairs).1,
        bayes.match_llr(&games, &pairs).1,
    );
    assert!(l != n && l != b && n != b, "{l} {n} {b}");
}

/// fishtest's normalized model agrees with fastchess's published values (the same formula,
/// which fastchess solves less finely), and its BayesElo model converts the bounds through
/// the games' draw Elo: with no draws and wins as many as losses the draw Elo is about 0, so
/// BayesElo and logistic Elo nearly agree.
#[test]
fn fishtest_models_agree_with_the_published_values() {
    type Case = (f64, f64, (u32, u32, u32), f64);
    let cases: [Case; 3] = [
        (0.0, 2.0, (36433, 68692, 36027), 0.92),
        (-1.75, 0.25, (10871, 20431, 10650), 2.30),
        (0.0, 10.0, (4250, 0, 0), 120.56),
    ];
    for (elo0, elo1, (w, d, l), expected) in cases {
        let sprt = sprt_of(elo0, elo1).with_test(SprtTest::Fishtest(EloModel::Normalized));
        let llr = sprt.llr(&score(w, d, l));
        assert!(
            (llr - expected).abs() < 0.01 * (1.0 + expected.abs()),
            "{w}-{d}-{l}: {llr}, fastchess's test {expected}"
        );
    }
    let pairs = Pentanomial {
        counts: [365, 16618, 36029 + 200, 16974, 390],
    };
    let sprt = sprt_of(0.0, 2.0).with_test(SprtTest::Fishtest(EloModel::Normalized));
    let llr = sprt.llr_pentanomial(&pairs, &Score::default());
    assert!((llr - 2.25).abs() < 0.01 * 3.25, "{llr}");
    let even = score(500, 0, 500);
    let (elo0, elo1) = fishtest::bayeselo_bounds(&even, 0.0, 10.0);
    assert!(
        elo0.abs() < 1e-9 && (elo1 - 10.0).abs() < 0.01,
        "{elo0} {elo1}"
    );
    // With draws the draw Elo is positive: a BayesElo is worth less logistic Elo.
    let drawn = score(100, 800, 100);
    let (_, elo1) = fishtest::bayeselo_bounds(&drawn, 0.0, 10.0);
    assert!(elo1 > 0.0 && elo1 < 5.0, "{elo1}");
}
