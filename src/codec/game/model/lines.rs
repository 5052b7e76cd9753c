//! Slider attacks computed from small tables (hyperbola quintessence on files and diagonals, a
//! 512-byte table for ranks), for the model's features: the attacks a moved piece would make from
//! its destination (one per legal move) and the attacks of the position's pieces, at squares and
//! occupancies the move generator mostly never looked up, so the magic tables' entries (840 KB of
//! them) are seldom in cache there. The same squares as
//! [`crate::attacks::bishop_attacks`] and [`crate::attacks::rook_attacks`] (a test compares them
//! on random occupancies).

/// Per square: its file, diagonal and anti-diagonal, the square itself left out.
static MASKS: [[u64; 3]; 64] = masks();

/// The squares a rook on file `f` of the first rank attacks along it, by the occupancy of the
/// six inner squares (files b-g).
static FIRST_RANK: [[u8; 64]; 8] = first_rank();

const fn masks() -> [[u64; 3]; 64] {
    let mut out = [[0u64; 3]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other = 0;
        while other < 64 {
            let (f, r) = ((other % 8) as i32, (other / 8) as i32);
            if other != sq {
                if f == file {
                    out[sq][0] |= 1 << other;
                }
                if f - file == r - rank {
                    out[sq][1] |= 1 << other;
                }
                if f - file == rank - r {
                    out[sq][2] |= 1 << other;
                }
            }
            other += 1;
        }
        sq += 1;
    }
    out
}

const fn first_rank() -> [[u8; 64]; 8] {
    let mut out = [[0u8; 64]; 8];
    let mut file = 0;
    while file < 8 {
        let mut inner = 0;
        while inner < 64 {
            let occupied = (inner << 1) as u8;
            let mut attacks = 0u8;
            let mut f = file + 1;
            while f < 8 {
                attacks |= 1 << f;
                if occupied & (1 << f) != 0 {
                    break;
                }
                f += 1;
            }
            let mut f = file as i32 - 1;
            while f >= 0 {
                attacks |= 1 << f;
                if occupied & (1 << f) != 0 {
                    break;
                }
                f -= 1;
            }
            out[file][inner] = attacks;
            inner += 1;
        }
        file += 1;
    }
    out
}

/// The squares a slider on `bit` reaches along `mask` (a line with one square per rank, the
/// slider's own square left out).
#[inline(always)]
fn hyperbola(occupied: u64, mask: u64, bit: u64) -> u64 {
    let forward = occupied & mask;
    let reverse = forward.swap_bytes();
    let forward = forward.wrapping_sub(bit);
    let reverse = reverse.wrapping_sub(bit.swap_bytes());
    (forward ^ reverse.swap_bytes()) & mask
}

/// The squares a bishop on `sq` attacks.
#[inline(always)]
pub(super) fn bishop(sq: usize, occupied: u64) -> u64 {
    let masks = &MASKS[sq & 63];
    let bit = 1 << (sq & 63);
    hyperbola(occupied, masks[1], bit) | hyperbola(occupied, masks[2], bit)
}

/// The squares a rook on `sq` attacks.
#[inline(always)]
pub(super) fn rook(sq: usize, occupied: u64) -> u64 {
    let sq = sq & 63;
    let shift = sq & 56;
    let inner = (occupied >> (shift + 1)) as usize & 63;
    let rank = u64::from(FIRST_RANK[sq & 7][inner]) << shift;
    hyperbola(occupied, MASKS[sq][0], 1 << sq) | rank
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::{bishop_attacks, rook_attacks};
    use crate::types::splitmix::SplitMix;
    use crate::{Bitboard, Square};

    #[test]
    fn lines_match_the_magic_tables() {
        let mut rng = SplitMix::new(7);
        for round in 0..3000 {
            // Sparse, middling and dense boards.
            let occupied = match round % 3 {
                0 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                1 => rng.next_u64(),
                _ => rng.next_u64() | rng.next_u64(),
            };
            for sq in 0..64 {
                let square = Square::from_index_unchecked(sq as u8);
                let board = Bitboard(occupied);
                assert_eq!(
                    bishop(sq, occupied),
                    bishop_attacks(square, board).0,
                    "{sq}"
                );
                assert_eq!(rook(sq, occupied), rook_attacks(square, board).0, "{sq}");
            }
        }
    }
}
