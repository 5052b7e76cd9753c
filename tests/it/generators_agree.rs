//! Differential tests: the bitboard generator against the 0x88 reference on every node of the
//! suite trees, and against cozy-chess (a dev-dependency, used only as an oracle) on positions
//! from seeded random games, standard and Chess960.

use crate::common;

use crate::common::{all_entries, random_walk};
use shannon::movegen::{Generator, MoveList};
use shannon::notation::uci::format_move;
use shannon::CastlingMode;
use shannon::Position;
use std::collections::BTreeSet;

fn move_set(pos: &Position, generator: Generator) -> BTreeSet<String> {
    let mut list = MoveList::new();
    generator.legal_moves(pos, &mut list);
    let set: BTreeSet<String> = list
        .iter()
        .map(|&mv| format_move(mv, CastlingMode::Chess960))
        .collect();
    assert_eq!(set.len(), list.len(), "no duplicate moves in {pos:?}");
    set
}

/// Compare the two generators at every node of the tree below `pos` whose moves lead to at most
/// `depth` plies; returns the number of nodes compared.
fn compare_tree(pos: &mut Position, depth: u32) -> u64 {
    let fast = move_set(pos, Generator::Bitboard);
    let reference = move_set(pos, Generator::Mailbox0x88);
    assert_eq!(
        fast,
        reference,
        "generators disagree in {}: bitboard only {:?}, 0x88 only {:?}",
        pos.shredder_fen(),
        fast.difference(&reference).collect::<Vec<_>>(),
        reference.difference(&fast).collect::<Vec<_>>()
    );
    assert_eq!(
        pos.count_legal_moves() as usize,
        fast.len(),
        "count agrees with the list"
    );
    if depth <= 1 {
        return 1;
    }
    let mut nodes = 1;
    for mv in pos.legal_moves().iter() {
        let before = pos.clone();
        let undo = pos.make(*mv);
        assert_eq!(pos.consistency_error(), None, "after {mv:?} in {before:?}");
        assert_eq!(*pos, before.play(*mv), "make and copy-make agree");
        nodes += compare_tree(pos, depth - 1);
        pos.unmake(*mv, &undo);
        assert_eq!(*pos, before, "unmake restores {mv:?}");
    }
    nodes
}

#[test]
fn move_sets_agree_on_every_suite_tree_to_depth_3() {
    let depth = if cfg!(debug_assertions) { 2 } else { 3 };
    let mut nodes = 0;
    let entries = all_entries();
    for (_, entry) in &entries {
        let mut pos = Position::from_fen(&entry.fen).unwrap();
        nodes += compare_tree(&mut pos, depth);
    }
    println!("{} suite positions, {nodes} nodes compared", entries.len());
}

fn cozy_move_set(board: &cozy_chess::Board) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    board.generate_moves(|moves| {
        set.extend(moves.into_iter().map(|mv| mv.to_string()));
        false
    });
    set
}

fn compare_with_cozy(start: &Position, seed: u64, chess960: bool) -> usize {
    let walk = random_walk(start, seed, 400);
    // cozy-chess refuses halfmove clocks above 100; the move rules do not depend on it.
    let walk: Vec<&Position> = walk.iter().filter(|p| p.halfmove_clock() <= 100).collect();
    for pos in &walk {
        let (fen, board) = if chess960 {
            let fen = pos.shredder_fen();
            let board = cozy_chess::Board::from_fen(&fen, true);
            (fen, board)
        } else {
            let fen = pos.fen();
            let board = cozy_chess::Board::from_fen(&fen, false);
            (fen, board)
        };
        let board = board.unwrap_or_else(|e| panic!("cozy-chess rejects {fen}: {e:?}"));
        assert_eq!(
            move_set(pos, Generator::Bitboard),
            cozy_move_set(&board),
            "cozy-chess disagrees in {fen}"
        );
    }
    walk.len()
}

#[test]
fn move_sets_agree_with_cozy_chess_standard() {
    let games = if cfg!(debug_assertions) { 20 } else { 300 };
    let positions: usize = (0..games)
        .map(|seed| compare_with_cozy(&Position::startpos(), seed, false))
        .sum();
    println!("{positions} positions compared with cozy-chess");
}

#[test]
fn move_sets_agree_with_cozy_chess_chess960() {
    let starts = common::suite("perft/chess960_start.epd");
    let step = if cfg!(debug_assertions) { 40 } else { 3 };
    let mut positions = 0;
    for (number, entry) in starts.iter().enumerate().step_by(step) {
        let start = Position::from_fen(&entry.fen).unwrap();
        positions += compare_with_cozy(&start, number as u64, true);
    }
    println!("{positions} Chess960 positions compared with cozy-chess");
}

/// The random-games loop takes its move by index from the groups the counting path finds
/// ([`Playout`]); the i-th move of the groups must be the i-th of the list (so a seeded game is
/// the same either way), at every suite position and the positions of a random walk from each.
#[test]
fn playout_groups_index_the_list_in_order() {
    use shannon::perft::fast::playout::Playout;
    let mut checked = 0;
    for (name, entry) in all_entries() {
        let start = Position::from_fen(&entry.fen).unwrap();
        for pos in random_walk(&start, checked as u64, 40) {
            let mut list = MoveList::new();
            Generator::Bitboard.legal_moves(&pos, &mut list);
            let mut playout = Playout::new(&pos);
            assert_eq!(
                playout.generate(),
                list.len(),
                "{name} {}",
                pos.shredder_fen()
            );
            for (i, &mv) in list.iter().enumerate() {
                let played = playout.clone().play(i).mv;
                assert_eq!(played, mv, "{name} {} move {i}", pos.shredder_fen());
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}
