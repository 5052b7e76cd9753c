//! Chess960 numbering: all 960 start positions against `tests/data/chess960_scharnagl.tsv` in
//! both directions, and the `shannon chess960` command end to end.

use crate::common::data_path;
use shannon::chess960::{
    back_rank_text, fritz9_back_rank, fritz9_number, scharnagl_back_rank, scharnagl_number,
    start_back_rank_of, start_position,
};
use shannon::Position;

struct Row {
    number: u32,
    back_rank: String,
    shredder_fen: String,
    x_fen: String,
}

fn table() -> Vec<Row> {
    let text = std::fs::read_to_string(data_path("chess960_scharnagl.tsv")).expect("table present");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("scharnagl\tback_rank\tshredder_fen\tx_fen")
    );
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 4, "{line}");
            Row {
                number: f[0].parse().expect("a number"),
                back_rank: f[1].into(),
                shredder_fen: f[2].into(),
                x_fen: f[3].into(),
            }
        })
        .collect()
}

#[test]
fn number_to_position_matches_the_table() {
    let rows = table();
    assert_eq!(rows.len(), 960);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.number, i as u32);
        let rank = scharnagl_back_rank(row.number).unwrap();
        assert_eq!(back_rank_text(&rank), row.back_rank, "#{}", row.number);
        let pos = start_position(&rank);
        assert_eq!(pos.shredder_fen(), row.shredder_fen, "#{}", row.number);
        assert_eq!(pos.fen(), row.x_fen, "#{}", row.number);
        let id = fritz9_number(&rank).unwrap();
        assert_eq!(fritz9_back_rank(id).unwrap(), rank);
    }
}

#[test]
fn position_to_number_matches_the_table() {
    for row in table() {
        for fen in [&row.shredder_fen, &row.x_fen] {
            let pos = Position::from_fen(fen).unwrap();
            let rank = start_back_rank_of(&pos).unwrap_or_else(|| panic!("{fen}"));
            assert_eq!(scharnagl_number(&rank), Some(row.number), "{fen}");
        }
    }
    let moved = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(start_back_rank_of(&moved.unwrap()), None);
}

/// Fritz9 numbers worked out by hand, not by the code under test. The definition used is the one
/// the "Fischer random chess numbering scheme" article (Wikipedia, Fritz9 section) gives: take
/// id - 1, divide by 4 (the remainder places the light-squared bishop on b, d, f, h), by 4 again
/// (the dark-squared bishop on a, c, e, g), then by 15 (the remainder is the knights' pair among
/// the six squares the bishops leave, pairs numbered (0,1)=0, (0,2)=1 ... (4,5)=14); the quotient
/// 0-3 puts the queen on the first ... fourth square left, and R K R fill the rest. The same
/// article states outright that the standard array is 359.
#[test]
fn fritz9_numbers_derived_by_hand() {
    let cases = [
        // Stated in the article; by hand: bishops c (dark, 1) and f (light, 2): 2 + 4 x 1 = 6.
        // Left a b d e g h = R N Q K N R: knights at 1 and 4, pair (1,4) = 7; queen on the second
        // of a d e h, 1. 1 + 6 + 16 x (7 + 15 x 1) = 359.
        (359, "RNBQKBNR"),
        // Scharnagl 0. Bishops b (light, 0) and a (dark, 0): 0. Left c..h = Q N N R K R: knights
        // at 1 and 2, pair (1,2) = 5; queen on the first of c f g h, 0. 1 + 0 + 16 x 5 = 81.
        (81, "BBQNNRKR"),
        // id 1: everything 0. Bishops on b and a; knights on the first two of c..h (c, d); queen
        // on the first left (e); R K R on f g h.
        (1, "BBNNQRKR"),
        // id 960: 959 = 15 + 16 x 59, 59 = 14 + 15 x 3. Bishops h (light, 3) and g (dark, 3);
        // knights pair 14 = (4,5) of a..f: e, f; queen the fourth of a b c d: d; R K R on a b c.
        (960, "RKRQNNBB"),
        // Bishops f (light, 2) and e (dark, 2): 10. Left a b c d g h = N Q R K N R: knights at 0
        // and 4, pair (0,4) = 3; queen the first of b c d h, 0. 1 + 10 + 16 x 3 = 59.
        (59, "NQRKBBNR"),
        // Bishops b (light, 0) and c (dark, 1): 4. Left a d e f g h = R K Q N N R: knights at 3
        // and 4, pair (3,4) = 12; queen the third of a d e h, 2. 1 + 4 + 16 x (12 + 30) = 677.
        (677, "RBBKQNNR"),
    ];
    for (id, rank) in cases {
        let derived = fritz9_back_rank(id).unwrap();
        assert_eq!(back_rank_text(&derived), rank, "Fritz9 {id}");
        assert_eq!(fritz9_number(&derived), Some(id), "{rank}");
    }
    // docs/codecs.md's example: the FEN of Scharnagl 0 prints Scharnagl 0 and Fritz9 81.
    let (ok, text) = shannon(&[
        "chess960",
        "--fen",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    ]);
    assert!(
        ok && text.contains("scharnagl: 0\n") && text.contains("fritz9: 81\n"),
        "{text}"
    );
}

fn shannon(args: &[&str]) -> (bool, String) {
    let (ok, out, _) = crate::common::run_here(args);
    (ok, out)
}

#[test]
fn the_chess960_command() {
    let (ok, text) = shannon(&["chess960", "0"]);
    assert!(ok);
    assert!(text.contains("shredder-fen: bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"));
    assert!(text.contains("x-fen: bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"));
    let (ok, text) = shannon(&["chess960", "359", "--numbering", "fritz9"]);
    assert!(ok && text.contains("scharnagl: 518"), "{text}");
    let (ok, text) = shannon(&["chess960", "--fen", shannon::STARTPOS_FEN]);
    assert!(ok && text.contains("scharnagl: 518") && text.contains("fritz9: 359"));
    let (ok, text) = shannon(&["chess960", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"]);
    assert!(!ok && text.contains("not a Chess960 start position"));
    let (ok, first) = shannon(&["chess960", "--random", "--seed", "42"]);
    assert!(ok && first.contains("seed: 42"));
    assert_eq!(shannon(&["chess960", "--random", "--seed", "42"]).1, first);
    assert!(!shannon(&["chess960", "960"]).0);
    assert!(!shannon(&["chess960"]).0);
}
