//! The counting path against the plain count that makes every move (the position's make/unmake
//! perft), on random placements rich in what the last two plies' counting must get right: pieces
//! put on the kings' lines (pins, checks, discovered checks), castling rights on standard and
//! Chess960 files, en passant squares. Every instruction set this CPU runs counts each one, to
//! depth 3 (so the two-ply count runs at the root and below every root move).

use crate::perft::fast::{self, Instructions};
use crate::perft::perft_make_unmake;
use crate::Position;
use proptest::prelude::*;

/// A placement: for each colour, an optional castling set-up (king's file and the rooks' files,
/// each with a flag for its right), the other pieces as (square, code) pairs, half of them
/// moved onto a line through a king, the side to move, and which pawn (if any) just made a
/// double push.
/// A castling set-up: the king's file (above 6: the standard files), the two rooks' files (as
/// offsets), and whether each rook (queen side, king side) has its right.
type CastlingSetup = (u8, u8, u8, bool, bool);

#[derive(Debug, Clone)]
struct Placement {
    castling: [Option<CastlingSetup>; 2],
    kings: [u8; 2],
    pieces: Vec<(u8, u8, bool)>,
    black_to_move: bool,
    en_passant: u8,
}

fn placements() -> impl Strategy<Value = Placement> {
    let castle =
        prop::option::weighted(0.6, (1u8..11, 0u8..8, 0u8..8, any::<bool>(), any::<bool>()));
    (
        [castle.clone(), castle],
        [0u8..64, 0u8..64],
        prop::collection::vec((0u8..64, 0u8..10, any::<bool>()), 0..16),
        any::<bool>(),
        0u8..16,
    )
        .prop_map(
            |(castling, kings, pieces, black_to_move, en_passant)| Placement {
                castling,
                kings,
                pieces,
                black_to_move,
                en_passant,
            },
        )
}

/// The square `along` steps from `from` in one of the eight directions (`dir`), if on the board.
fn on_line(from: u8, dir: u8, along: u8) -> Option<u8> {
    let (df, dr) = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ][usize::from(dir % 8)];
    let steps = i32::from(along % 7) + 1;
    let file = i32::from(from % 8) + df * steps;
    let rank = i32::from(from / 8) + dr * steps;
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as u8)
}

/// The FEN of a placement (Shredder-FEN castling letters), or `None` when squares clash.
fn fen_of(p: &Placement) -> Option<String> {
    let mut board: [Option<char>; 64] = [None; 64];
    let mut rights = String::new();
    for (color, setup) in p.castling.iter().enumerate() {
        let rank = if color == 0 { 0 } else { 56 };
        let king = match setup {
            Some((king_file, a, b, left, right)) => {
                // Files 1 to 6: Chess960; above: the standard files.
                let (king_file, a, b) = if *king_file > 6 {
                    (4, 0, 7)
                } else {
                    (
                        *king_file,
                        a % king_file,
                        king_file + 1 + b % (7 - king_file),
                    )
                };
                for (file, has) in [(b, *right), (a, *left)] {
                    if board[usize::from(rank + file)].is_some() {
                        return None;
                    }
                    board[usize::from(rank + file)] = Some(if color == 0 { 'R' } else { 'r' });
                    if has {
                        let letter = (b'a' + file) as char;
                        rights.push(if color == 0 {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        });
                    }
                }
                rank + king_file
            }
            None => p.kings[color],
        };
        if board[usize::from(king)].is_some() {
            return None;
        }
        board[usize::from(king)] = Some(if color == 0 { 'K' } else { 'k' });
    }
    let kings: Vec<u8> = (0..64u8)
        .filter(|&sq| matches!(board[usize::from(sq)], Some('K' | 'k')))
        .collect();
    for (i, &(sq, code, aim)) in p.pieces.iter().enumerate() {
        let sq = match (aim, on_line(kings[i % 2], sq, code.wrapping_add(sq))) {
            (false, _) => sq,
            (true, Some(on_line)) => on_line,
            (true, None) => continue,
        };
        let kind = b"PPPNNBBRRQ"[usize::from(code)] as char;
        let piece = if (i / 2 + usize::from(code)) % 2 == 0 {
            kind
        } else {
            kind.to_ascii_lowercase()
        };
        if board[usize::from(sq)].is_none() && (kind != 'P' || (8..56).contains(&sq)) {
            board[usize::from(sq)] = Some(piece);
        }
    }
    // En passant: a pawn of the side that just moved on its fourth rank, the two squares behind
    // it emptied (kings stay).
    let mut ep = "-".to_string();
    if p.en_passant < 8 {
        let file = p.en_passant;
        let (pawn, passed, start, mover) = if p.black_to_move {
            (24 + file, 16 + file, 8 + file, 'P')
        } else {
            (32 + file, 40 + file, 48 + file, 'p')
        };
        let king = |sq: u8| matches!(board[usize::from(sq)], Some('K' | 'k'));
        if !king(pawn) && !king(passed) && !king(start) {
            board[usize::from(pawn)] = Some(mover);
            board[usize::from(passed)] = None;
            board[usize::from(start)] = None;
            ep = format!("{}{}", (b'a' + file) as char, passed / 8 + 1);
        }
    }
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    if rights.is_empty() {
        rights.push('-');
    }
    let side = if p.black_to_move { 'b' } else { 'w' };
    Some(format!("{} {side} {rights} {ep} 0 1", rows.join("/")))
}

/// The counting path (every build this CPU runs) against the count that makes every move, at
/// depths 1 to `max_depth`, for a placement that makes a legal position (others are rejected).
fn counts_as_making_every_move(p: &Placement, max_depth: u32) -> Result<(), TestCaseError> {
    let fen = fen_of(p);
    prop_assume!(fen.is_some());
    let fen = fen.unwrap();
    let pos = Position::from_fen(&fen);
    prop_assume!(pos.is_ok());
    let pos = pos.unwrap();
    // A third checker cannot arise from a legal game; leave such placements out.
    prop_assume!(pos.checkers().count() <= 2);
    for depth in 1..=max_depth {
        let expected = perft_make_unmake(&pos, depth);
        for instructions in Instructions::available() {
            prop_assert_eq!(
                fast::perft_on(&pos, depth, instructions),
                Some(expected),
                "{} depth {} ({})",
                fen,
                depth,
                instructions.name()
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, max_global_rejects: 100_000, ..ProptestConfig::default() })]

    /// The counting path (every build this CPU runs) against the count that makes every move.
    #[test]
    fn the_counting_path_counts_random_placements_as_making_every_move(p in placements()) {
        counts_as_making_every_move(&p, 3)?;
    }
}

/// Endings: the placements above with pawns and knights only, but for the first piece (a slider
/// or anything else, on either side, or none): where a side has no slider and no pawn about to
/// promote, the two-ply count skips its lines (`two_ply`), so those boards are counted here to
/// depth 4, far enough for pawns to promote below the root.
fn endings() -> impl Strategy<Value = Placement> {
    placements().prop_map(|mut p| {
        for piece in p.pieces.iter_mut().skip(1) {
            piece.1 %= 5;
        }
        p.pieces.truncate(8);
        p
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, max_global_rejects: 100_000, ..ProptestConfig::default() })]

    /// The counting path against the count that makes every move, on endings (see [`endings`]).
    #[test]
    fn the_counting_path_counts_random_endings_as_making_every_move(p in endings()) {
        counts_as_making_every_move(&p, 4)?;
    }
}

/// The placements above do reach what they are for: pins, checks, double checks, en passant and
/// castling (standard and Chess960) each in a fair share of them.
#[test]
fn random_placements_have_pins_checks_en_passant_and_castling() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut legal, mut checks, mut doubles, mut ep, mut castling, mut chess960) =
        (0, 0, 0, 0, 0, 0);
    let mut pins = 0;
    for _ in 0..3000 {
        let p = placements().new_tree(&mut runner).unwrap().current();
        let Some(pos) = fen_of(&p).and_then(|fen| Position::from_fen(&fen).ok()) else {
            continue;
        };
        legal += 1;
        checks += usize::from(pos.in_check());
        doubles += usize::from(pos.checkers().count() == 2);
        ep += usize::from(pos.en_passant().is_some());
        castling += usize::from(pos.castling_rights() != Default::default());
        chess960 += usize::from(pos.needs_chess960());
        // A pin: some move of a piece other than the king is illegal though pseudo-legal is
        // hard to see from outside; count placements where a slider lines up with a king
        // through exactly one piece instead.
        let king = pos.king_square(pos.side_to_move());
        let occupied = pos.occupied();
        let sliders = pos.kind_bb(crate::PieceKind::Rook)
            | pos.kind_bb(crate::PieceKind::Bishop)
            | pos.kind_bb(crate::PieceKind::Queen);
        pins += usize::from(sliders.into_iter().any(|sq| {
            let between = crate::attacks::between(king, sq) & occupied;
            crate::attacks::line(king, sq).0 != 0 && between.count() == 1
        }));
    }
    println!(
        "{legal} legal: {checks} in check ({doubles} double), {pins} with a possible pin, {ep} en \
         passant, {castling} castling ({chess960} Chess960)"
    );
    assert!(legal > 1000, "{legal}");
    for (what, n) in [
        ("check", checks),
        ("double check", doubles),
        ("pin", pins),
        ("en passant", ep),
        ("castling", castling),
        ("Chess960", chess960),
    ] {
        assert!(n * 50 > legal, "{what}: {n} of {legal}");
    }
}
