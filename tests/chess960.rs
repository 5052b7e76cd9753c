//! Chess960 numbering: all 960 start positions against `tests/data/chess960_scharnagl.tsv` in
//! both directions, and the `shannon chess960` command end to end.

mod common;

use common::data_path;
use shannon::chess960::{
    back_rank_text, fritz9_back_rank, fritz9_number, scharnagl_back_rank, scharnagl_number,
    start_back_rank_of, start_position,
};
use shannon::{FenCastling, Position};
use std::process::Command;

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
        assert_eq!(
            pos.fen(FenCastling::Shredder),
            row.shredder_fen,
            "#{}",
            row.number
        );
        assert_eq!(pos.fen(FenCastling::XFen), row.x_fen, "#{}", row.number);
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

fn shannon(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_shannon"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
    )
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
