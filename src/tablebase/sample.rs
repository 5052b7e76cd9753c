//! Seeded random legal positions of a material, for the tests that compare probers and for the
//! benchmark: the pieces on random squares (pawns on ranks 2-7), redrawn until the position is
//! legal (the side not to move is not in check), with en passant squares placed on purpose.
//!
//! An en passant position needs a pawn of the side not to move that has just moved two squares:
//! it is put on its fourth rank with the two squares it crossed empty, and, when the side to
//! move has a pawn, half the time one of those stands beside it, so that the capture exists.
//! No castling rights (tables hold none); the move counters are 0 and 1.

use super::Material;
use crate::types::splitmix::SplitMix;
use crate::{Color, File, Piece, PieceKind, Position, Rank, Setup, Square};

/// The most draws of a placement before [`random_position`] gives up (legal placements are
/// common: only a few materials come near needing a second draw on average).
const ATTEMPTS: usize = 10_000;

/// A random legal position of `material` with `side` to move; with `en_passant`, the side not to
/// move has just pushed a pawn two squares (when it has one). `None` only if no legal placement
/// turned up in many draws.
pub fn random_position(
    material: Material,
    side: Color,
    en_passant: bool,
    rng: &mut SplitMix,
) -> Option<Position> {
    let mover = !side;
    let en_passant = en_passant && material.count(mover, PieceKind::Pawn) > 0;
    for _ in 0..ATTEMPTS {
        if let Some(pos) = draw(material, side, en_passant, rng) {
            return Some(pos);
        }
    }
    None
}

/// `count` positions of `material` from the stream seeded with `seed`: the side to move
/// alternates, and two positions in eight, one for each side to move, have an en passant square
/// where the material allows.
pub fn random_positions(material: Material, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix::new(seed);
    (0..count)
        .filter_map(|i| {
            let side = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            random_position(material, side, i % 8 >= 6, &mut rng)
        })
        .collect()
}

/// One draw of a placement; `None` when it is not legal.
fn draw(material: Material, side: Color, en_passant: bool, rng: &mut SplitMix) -> Option<Position> {
    let mut setup = Setup {
        side_to_move: side,
        ..Setup::default()
    };
    let mut pieces: Vec<Piece> = Vec::new();
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            for _ in 0..material.count(color, kind) {
                pieces.push(Piece::new(color, kind));
            }
        }
    }
    if en_passant {
        let mover = !side;
        let file = File::from_index(rng.below(8) as u8).expect("a file");
        let (from, crossed, to) = match mover {
            Color::White => (Rank::Second, Rank::Third, Rank::Fourth),
            Color::Black => (Rank::Seventh, Rank::Sixth, Rank::Fifth),
        };
        let pawn = Piece::new(mover, PieceKind::Pawn);
        let at = Square::new(file, to);
        setup.board[at.index()] = Some(pawn);
        take(&mut pieces, pawn);
        // The squares the pawn crossed stay empty: mark them taken until the end.
        let keep_empty = [Square::new(file, from), Square::new(file, crossed)];
        let capturer = Piece::new(side, PieceKind::Pawn);
        if pieces.contains(&capturer) && rng.below(2) == 0 {
            let beside: Vec<Square> = [-1, 1]
                .into_iter()
                .filter_map(|df| at.offset(df, 0))
                .collect();
            let sq = beside[rng.below(beside.len())];
            setup.board[sq.index()] = Some(capturer);
            take(&mut pieces, capturer);
        }
        place(&mut setup, &pieces, &keep_empty, rng)?;
        setup.en_passant = Some(Square::new(file, crossed));
    } else {
        place(&mut setup, &pieces, &[], rng)?;
    }
    Position::from_setup(&setup).ok()
}

/// Remove one `piece` from the list.
fn take(pieces: &mut Vec<Piece>, piece: Piece) {
    if let Some(i) = pieces.iter().position(|&p| p == piece) {
        pieces.swap_remove(i);
    }
}

/// Put `pieces` on random empty squares other than `keep_empty`, pawns off ranks 1 and 8.
fn place(
    setup: &mut Setup,
    pieces: &[Piece],
    keep_empty: &[Square],
    rng: &mut SplitMix,
) -> Option<()> {
    for &piece in pieces {
        let free: Vec<Square> = Square::ALL
            .into_iter()
            .filter(|sq| setup.board[sq.index()].is_none() && !keep_empty.contains(sq))
            .filter(|sq| {
                piece.kind != PieceKind::Pawn || !matches!(sq.rank(), Rank::First | Rank::Eighth)
            })
            .collect();
        if free.is_empty() {
            return None;
        }
        let sq = free[rng.below(free.len())];
        setup.board[sq.index()] = Some(piece);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_have_the_material_both_sides_to_move_and_en_passant() {
        let material: Material = "KPvKP".parse().unwrap();
        let positions = random_positions(material, 400, 1);
        assert_eq!(positions.len(), 400);
        assert!(positions.iter().all(|p| Material::of(p) == material));
        assert!(positions.iter().all(|p| p.castling_rights().is_empty()));
        let black = positions
            .iter()
            .filter(|p| p.side_to_move() == Color::Black)
            .count();
        assert_eq!(black, 200);
        let with_square = positions
            .iter()
            .filter(|p| p.en_passant().is_some())
            .count();
        let capturable = positions
            .iter()
            .filter(|p| p.has_legal_en_passant())
            .count();
        assert_eq!(with_square, 100);
        assert!(
            capturable > 20,
            "{capturable} of 100 en passant squares capturable"
        );
        // The same seed, the same positions.
        assert_eq!(random_positions(material, 400, 1), positions);
    }

    #[test]
    fn materials_without_the_mover_s_pawns_get_no_square() {
        let material: Material = "KQvKR".parse().unwrap();
        let positions = random_positions(material, 40, 2);
        assert_eq!(positions.len(), 40);
        assert!(positions.iter().all(|p| p.en_passant().is_none()));
    }
}
