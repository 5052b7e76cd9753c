//! The Syzygy prober (src/tablebase/) against an independent one, python-chess's
//! `chess.syzygy` (tests/syzygy_python.py), on seeded random positions of every material of the
//! tables in `$SHANNON_SYZYGY`; against a one-ply search of its own values; on bad input
//! (`bad_input`); and through `shannon tablebase` (`cli`).
//!
//! Skipped, with the reason printed, when the tables or python-chess are missing; failing
//! instead under `SHANNON_REQUIRE_PEERS=1` (.ci/run fetches the tables and sets it).

mod bad_input;
mod cli;
mod root;

use crate::common::{peer_missing, peers_required, python_chess_missing, syzygy_folder};
use shannon::tablebase::sample::random_positions;
use shannon::tablebase::{Material, ProbeError, Tablebase, Wdl};
use shannon::{MoveKind, Position};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The tables' folder, or `None` after saying why there is none.
pub fn tables() -> Option<PathBuf> {
    match syzygy_folder() {
        Ok(folder) => Some(folder),
        Err(why) => {
            peer_missing(&why, peers_required());
            None
        }
    }
}

/// The tables and python-chess, or `None` after saying what is missing.
fn tables_and_python() -> Option<PathBuf> {
    let folder = tables()?;
    if let Some(why) = python_chess_missing() {
        peer_missing(&why, peers_required());
        return None;
    }
    Some(folder)
}

/// Which probe a comparison makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Probe {
    /// `probe_wdl`.
    Wdl,
    /// `probe_dtz`.
    Dtz,
}

impl Probe {
    /// Our value of `pos`, as python-chess writes it.
    fn ours(self, tables: &Tablebase, pos: &Position) -> Result<String, ProbeError> {
        match self {
            Probe::Wdl => tables.probe_wdl(pos).map(|v| v.to_i8().to_string()),
            Probe::Dtz => tables.probe_dtz(pos).map(|v| v.plies().to_string()),
        }
    }
}

/// python-chess's answer for each FEN (one process, FENs on stdin): the value, or its refusal.
fn python_values(folder: &Path, fens: &[String]) -> Vec<String> {
    python_probe(folder, fens, Probe::Wdl)
}

/// python-chess's answer of `probe` for each FEN.
fn python_probe(folder: &Path, fens: &[String], probe: Probe) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/syzygy_python.py");
    let mut child = Command::new("python3")
        .arg(script)
        .arg(folder)
        .args((probe == Probe::Dtz).then_some("--dtz"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut stdin = child.stdin.take().unwrap();
    let text: String = fens.iter().map(|f| format!("{f}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "tests/syzygy_python.py failed");
    let answers: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(answers.len(), fens.len(), "python-chess answered every FEN");
    answers
}

/// Every material of the tables, both colour orientations (`KQvKR` and `KRvKQ`).
fn materials(tables: &Tablebase) -> Vec<Material> {
    let mut all: Vec<Material> = tables
        .tables()
        .flat_map(|(_, m)| [m, m.mirrored()])
        .collect();
    all.sort();
    all.dedup();
    all
}

/// Our value and python-chess's of `per_material` seeded positions of every material (half in
/// each colour orientation), all compared; prints the counts. Panics on the first
/// disagreements, listing them.
fn compare_with_python(folder: &Path, per_material: usize, seed: u64) -> usize {
    compare_probe_with_python(folder, per_material, seed, Probe::Wdl)
}

/// As [`compare_with_python`], of `probe`.
fn compare_probe_with_python(folder: &Path, per_material: usize, seed: u64, probe: Probe) -> usize {
    let tables = Tablebase::open(&[folder.to_path_buf()]).unwrap();
    let started = Instant::now();
    let mut fens = Vec::new();
    let mut ours = Vec::new();
    let mut by_material: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    for (i, material) in materials(&tables).into_iter().enumerate() {
        let count = if material.is_symmetric() {
            per_material
        } else {
            per_material / 2
        };
        let seed = seed + i as u64;
        for pos in random_positions(material, count, seed) {
            let tally = by_material.entry(material.syzygy_name()).or_default();
            tally.0 += 1;
            tally.1 += usize::from(pos.en_passant().is_some());
            tally.2 += usize::from(pos.has_legal_en_passant());
            let value = probe.ours(&tables, &pos).unwrap_or_else(|e| {
                panic!("{}: {e} (material {material}, seed {seed})", pos.fen())
            });
            fens.push(pos.fen());
            ours.push(value);
        }
    }
    let ours_took = started.elapsed();
    let started = Instant::now();
    let theirs = python_probe(folder, &fens, probe);
    let differ: Vec<String> = fens
        .iter()
        .zip(ours.iter().zip(&theirs))
        .filter(|(_, (a, b))| a != b)
        .map(|(fen, (a, b))| format!("{fen}: ours {a}, python-chess {b}"))
        .collect();
    for (name, (count, squares, capturable)) in &by_material {
        println!(
            "{name:<8} {count:>7} positions, {squares:>6} with an en passant square \
             ({capturable} capturable)"
        );
    }
    println!(
        "{} positions of {} tables compared with python-chess's {probe:?} (seed {seed}): {} \
         differ; ours {ours_took:.1?}, python-chess {:.1?}",
        fens.len(),
        by_material.len(),
        differ.len(),
        started.elapsed()
    );
    assert!(
        differ.is_empty(),
        "{} of {} values differ, first ones:\n{}",
        differ.len(),
        fens.len(),
        differ[..differ.len().min(20)].join("\n")
    );
    fens.len()
}

/// 2,000 positions of every 3- and 4-man material (1,000 in each colour orientation), both
/// sides to move, a quarter with en passant squares where the material allows: 70,000 values
/// equal to python-chess's.
#[test]
fn every_material_agrees_with_python_chess() {
    let Some(folder) = tables_and_python() else {
        return;
    };
    let compared = compare_with_python(&folder, 2_000, 44_000);
    assert!(compared >= 2_000, "only {compared} positions compared");
}

/// The distances to zeroing of 500 positions of every 3- and 4-man material (as above, 17,500
/// in all): equal to python-chess's `probe_dtz`.
#[test]
fn every_material_s_distances_agree_with_python_chess() {
    let Some(folder) = tables_and_python() else {
        return;
    };
    let compared = compare_probe_with_python(&folder, 500, 44_500, Probe::Dtz);
    assert!(compared >= 500, "only {compared} positions compared");
}

/// The long run of distances: `SHANNON_SYZYGY_SAMPLE` positions per material (default 10,000),
/// run by hand as below.
#[test]
#[ignore]
fn many_distances_agree_with_python_chess() {
    let Some(folder) = tables_and_python() else {
        return;
    };
    let per_material = std::env::var("SHANNON_SYZYGY_SAMPLE")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    compare_probe_with_python(&folder, per_material, 2_000_000, Probe::Dtz);
}

/// The long run: `SHANNON_SYZYGY_SAMPLE` positions per material (default 30,000: about a
/// million in all), run by hand with `cargo test --profile test-release --test it
/// tablebase -- --ignored`.
#[test]
#[ignore]
fn a_million_positions_agree_with_python_chess() {
    let Some(folder) = tables_and_python() else {
        return;
    };
    let per_material = std::env::var("SHANNON_SYZYGY_SAMPLE")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(30_000);
    compare_with_python(&folder, per_material, 1_000_000);
}

/// Every placement of KPvK (both sides to move, and the pawn on every square of ranks 2-7)
/// that is legal: all compared with python-chess. Run by hand, as above.
#[test]
#[ignore]
fn every_kpvk_position_agrees_with_python_chess() {
    let Some(folder) = tables_and_python() else {
        return;
    };
    let tables = Tablebase::open(std::slice::from_ref(&folder)).unwrap();
    let mut fens = Vec::new();
    let mut ours = Vec::new();
    for pawn in 8..56 {
        for white_king in 0..64 {
            for black_king in 0..64 {
                for side in ["w", "b"] {
                    let mut board = ['.'; 64];
                    if pawn == white_king || pawn == black_king || white_king == black_king {
                        continue;
                    }
                    board[pawn] = 'P';
                    board[white_king] = 'K';
                    board[black_king] = 'k';
                    let fen = format!("{} {side} - - 0 1", placement(&board));
                    let Ok(pos) = Position::from_fen(&fen) else {
                        continue;
                    };
                    ours.push(tables.probe_wdl(&pos).unwrap().to_i8().to_string());
                    fens.push(fen);
                }
            }
        }
    }
    let theirs = python_values(&folder, &fens);
    let differ = ours.iter().zip(&theirs).filter(|(a, b)| a != b).count();
    println!("{} KPvK positions compared: {differ} differ", fens.len());
    assert_eq!(differ, 0);
}

/// The FEN placement of a board given square by square from a1.
fn placement(board: &[char; 64]) -> String {
    let mut ranks = Vec::new();
    for rank in (0..8).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                '.' => empty += 1,
                c => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    ranks.join("/")
}

/// Positions of python-chess's own tests (its test.py, SyzygyTestCase), with the values its
/// `probe_wdl` gives: among them positions where the table alone says otherwise, because a
/// capture decides (the table's value there is a "don't care") or en passant does (tables hold
/// no en passant rights).
#[test]
fn known_values() {
    let Some(folder) = tables() else {
        return;
    };
    let tables = Tablebase::open(&[folder]).unwrap();
    for (fen, expected) in [
        // The table says loss; Kxd3 draws.
        ("8/8/8/5N2/5K2/2kB4/8/8 b - - 0 1", Wdl::Draw),
        ("7B/5kNK/8/8/8/8/8/8 w - - 0 1", Wdl::Win),
        ("N7/8/2k5/8/7K/8/8/B7 w - - 0 1", Wdl::Win),
        ("8/8/1NkB4/8/7K/8/8/8 w - - 1 1", Wdl::Draw),
        ("8/8/8/2n5/2b1K3/2k5/8/8 w - - 0 1", Wdl::Loss),
        ("8/8/2K5/4P3/8/8/8/3r3k b - - 1 1", Wdl::Draw),
        ("8/8/2K5/8/4P3/8/8/3r3k b - - 1 1", Wdl::Win),
        ("7k/6b1/6K1/8/8/8/8/3R4 b - - 12 7", Wdl::Loss),
        ("7k/8/8/4K3/3B4/4B3/8/8 b - - 12 7", Wdl::Draw),
        ("7k/8/8/4K2B/8/4B3/8/8 w - - 12 7", Wdl::Win),
        // The table says draw; dxe6 e.p. wins.
        ("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2", Wdl::Win),
        ("8/8/8/k2Pp3/8/8/8/4K3 w - - 0 2", Wdl::Draw),
        // The table says loss; cxd3 e.p. wins.
        ("8/8/8/8/2pP4/2K5/4k3/8 b - d3 0 1", Wdl::Win),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Wdl::Draw),
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(tables.probe_wdl(&pos).unwrap(), expected, "{fen}");
    }
}

/// Sign of a value: 1 won, 0 drawn, -1 lost, without the fifty-move rule.
fn sign(wdl: Wdl) -> i8 {
    wdl.to_i8().signum()
}

/// The values agree with a one-ply search of themselves, for 300 positions of every material:
/// without the fifty-move rule, a position is worth the best of its moves (mate lost, stalemate
/// drawn); a capture or pawn move into a position lost even with the rule wins even with it,
/// and a position lost even with the rule has only such moves into won ones.
#[test]
fn values_agree_with_a_one_ply_search() {
    let Some(folder) = tables() else {
        return;
    };
    let tables = Tablebase::open(&[folder]).unwrap();
    let mut checked = 0;
    for (i, material) in materials(&tables).into_iter().enumerate() {
        for pos in random_positions(material, 150, 7_000 + i as u64) {
            let value = tables.probe_wdl(&pos).unwrap();
            let moves = pos.legal_moves();
            if moves.is_empty() {
                let expected = if pos.in_check() { Wdl::Loss } else { Wdl::Draw };
                assert_eq!(value, expected, "{}", pos.fen());
                continue;
            }
            let mut best = -1;
            for &mv in moves.iter() {
                let child = pos.play(mv);
                let reply = tables.probe_wdl(&child).unwrap();
                best = best.max(-sign(reply));
                let zeroing = pos.piece_at(mv.to()).is_some()
                    || mv.kind() == MoveKind::EnPassant
                    || pos
                        .piece_at(mv.from())
                        .is_some_and(|p| p.kind == shannon::PieceKind::Pawn);
                if zeroing && reply == Wdl::Loss {
                    assert_eq!(value, Wdl::Win, "{} then {mv:?}", pos.fen());
                }
                if zeroing && value == Wdl::Loss {
                    assert_eq!(reply, Wdl::Win, "{} then {mv:?}", pos.fen());
                }
            }
            assert_eq!(sign(value), best, "{}", pos.fen());
            checked += 1;
        }
    }
    println!("{checked} positions agree with a one-ply search of their moves");
    assert!(checked > 1_000);
}
