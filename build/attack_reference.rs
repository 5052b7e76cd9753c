//! The slow, obviously correct attack generator: walk each ray square by square until the board's
//! edge or the first occupied square.
//!
//! This file is compiled twice: by `build.rs` (`#[path]`), to compute the attack tables at build
//! time, and into the crate as `attacks::reference` (through `src/attacks/reference.rs`), the
//! reference the tests check the fast tables against. So it imports nothing (`build.rs` is a
//! crate of its own, with no `crate::` of ours) and lives outside `src/`, where no one adds an
//! import to it by habit; `src/attacks/reference.rs` may import from the crate like any module.
//! Squares are plain indices here (a1 = 0, h8 = 63).

/// Rook directions as (file step, rank step).
pub const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions as (file step, rank step).
pub const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Knight jumps as (file step, rank step).
pub const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// King steps as (file step, rank step).
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The square `(file + df, rank + dr)` if it is on the board.
pub fn step(square: u8, df: i8, dr: i8) -> Option<u8> {
    let file = (square % 8) as i8 + df;
    let rank = (square / 8) as i8 + dr;
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some((rank * 8 + file) as u8)
    } else {
        None
    }
}

/// Squares a slider on `square` attacks along `directions`, stopping at (and including) the
/// first occupied square of each ray.
pub fn slider_attacks(square: u8, occupied: u64, directions: &[(i8, i8)]) -> u64 {
    let mut attacks = 0u64;
    for &(df, dr) in directions {
        let mut current = square;
        while let Some(next) = step(current, df, dr) {
            attacks |= 1 << next;
            if occupied & (1 << next) != 0 {
                break;
            }
            current = next;
        }
    }
    attacks
}

/// Squares a piece on `square` reaches with one of the given jumps.
pub fn leaper_attacks(square: u8, jumps: &[(i8, i8)]) -> u64 {
    jumps
        .iter()
        .filter_map(|&(df, dr)| step(square, df, dr))
        .fold(0, |acc, sq| acc | 1 << sq)
}

/// Squares a pawn of the given colour (0 = White, 1 = Black) on `square` attacks.
pub fn pawn_attacks(color: usize, square: u8) -> u64 {
    let dr = if color == 0 { 1 } else { -1 };
    leaper_attacks(square, &[(-1, dr), (1, dr)])
}

/// The squares whose occupancy matters for a slider on `square`: each ray without its last
/// square (a piece on the edge square cannot block anything behind it).
pub fn relevant_occupancy(square: u8, directions: &[(i8, i8)]) -> u64 {
    let mut mask = 0u64;
    for &(df, dr) in directions {
        let mut current = square;
        while let Some(next) = step(current, df, dr) {
            if step(next, df, dr).is_none() {
                break;
            }
            mask |= 1 << next;
            current = next;
        }
    }
    mask
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
pub fn between(a: u8, b: u8) -> u64 {
    for &(df, dr) in ROOK_DIRECTIONS.iter().chain(BISHOP_DIRECTIONS.iter()) {
        let mut squares = 0u64;
        let mut current = a;
        while let Some(next) = step(current, df, dr) {
            if next == b {
                return squares;
            }
            squares |= 1 << next;
            current = next;
        }
    }
    0
}

/// The whole line (edge to edge) through `a` and `b` when they are aligned; else empty.
pub fn line(a: u8, b: u8) -> u64 {
    if a == b {
        return 0;
    }
    for directions in [ROOK_DIRECTIONS, BISHOP_DIRECTIONS] {
        if slider_attacks(a, 0, &directions) & (1 << b) != 0 {
            return (slider_attacks(a, 0, &directions) & slider_attacks(b, 0, &directions))
                | (1 << a)
                | (1 << b);
        }
    }
    0
}
