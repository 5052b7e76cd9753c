//! From a placement to a table index: the arithmetic Syzygy's generator numbers positions by.
//!
//! A table lists its pieces in a fixed order (the file header says which); the squares of those
//! pieces, in that order, are folded by the board's symmetries and numbered. Tables without pawns
//! use all eight symmetries: the first piece is brought into the triangle a1-d1-d4 ([`triangle`]),
//! and when it lies on the long diagonal the next pieces decide the reflection. The two kings are
//! numbered together when they are the only unique pieces (462 placements, [`KK_INDEX`]); else
//! the first three unique pieces are (31,332). Tables with pawns mirror files only: the leading
//! pawn picks one of four sub-tables by its file (a-d) and is numbered with its fellows through
//! [`PAWN_TWIST`]. Every other group of like pieces is numbered as a combination of squares not
//! taken by the pieces before it (binomial coefficients).
//!
//! Every map is computed here by a `const fn` from its definition; the unit tests pin them to
//! values of the generator's published tables.

/// `BINOMIAL[k][n]`: n choose k, for the groups of like pieces (at most 6 of a kind in a table).
pub(super) const BINOMIAL: [[u64; 64]; 7] = {
    let mut table = [[0u64; 64]; 7];
    let mut k = 0;
    while k < 7 {
        let mut n = 0;
        while n < 64 {
            table[k][n] = choose(n as u64, k as u64);
            n += 1;
        }
        k += 1;
    }
    table
};

/// n choose k by the multiplicative formula (exact at every step).
const fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut result = 1;
    let mut i = 0;
    while i < k {
        result = result * (n - i) / (i + 1);
        i += 1;
    }
    result
}

const fn file(sq: u8) -> u8 {
    sq & 7
}

const fn rank(sq: u8) -> u8 {
    sq >> 3
}

/// Positive above the long diagonal a1-h8 (rank greater than file), 0 on it, negative below.
pub(super) const fn off_diagonal(sq: u8) -> i8 {
    rank(sq) as i8 - file(sq) as i8
}

/// The square reflected in the long diagonal a1-h8.
pub(super) const fn flip_diagonal(sq: u8) -> u8 {
    (sq >> 3) | ((sq & 7) << 3)
}

/// The ten squares of the triangle a1-d1-d4 in the generator's numbering: the six off the
/// diagonal first (b1, c1, d1, c2, d2, d3), then the four on it (a1, b2, c3, d4).
const TRIANGLE_SQUARES: [u8; 10] = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];

/// The triangle square a square is folded onto by the board's eight symmetries, as its number
/// 0..10 in [`TRIANGLE_SQUARES`].
pub(super) const TRIANGLE: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut folded = sq as u8;
        if file(folded) > 3 {
            folded ^= 7;
        }
        if rank(folded) > 3 {
            folded ^= 0x38;
        }
        if off_diagonal(folded) > 0 {
            folded = flip_diagonal(folded);
        }
        let mut i = 0;
        while TRIANGLE_SQUARES[i] != folded {
            i += 1;
        }
        table[sq] = i as u8;
        sq += 1;
    }
    table
};

/// A square below the long diagonal numbered 0..28 by rank, then file (b1 = 0, c1 = 1, ...,
/// h1 = 6, c2 = 7, ...); the squares above take their reflection's number, those on the diagonal
/// 28 + their rank.
pub(super) const LOWER: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut next = 0u8;
    let mut sq = 0;
    while sq < 64 {
        let s = sq as u8;
        if off_diagonal(s) < 0 {
            table[sq] = next;
            table[flip_diagonal(s) as usize] = next;
            next += 1;
        } else if off_diagonal(s) == 0 {
            table[sq] = 28 + rank(s);
        }
        sq += 1;
    }
    table
};

/// A square of the long diagonal by its rank (a1 = 0, ..., h8 = 7); the encoding asks only for
/// squares on it.
pub(super) const fn diagonal(sq: u8) -> u8 {
    rank(sq)
}

/// The squares two kings can stand on, the first folded into the triangle, numbered 0..462:
/// first every pair whose second king is off the diagonal or the first king is (by the first
/// king's triangle number, then the second king's square; a pair that a reflection in the
/// diagonal turns into another is counted once, with the second king below it), then the 21
/// pairs with both kings on the diagonal. Adjacent or equal squares are -1.
pub(super) const KK_INDEX: [[i16; 64]; 10] = {
    let mut table = [[-1i16; 64]; 10];
    let mut next = 0i16;
    let mut pass = 0;
    while pass < 2 {
        let mut t = 0;
        while t < 10 {
            let first = TRIANGLE_SQUARES[t];
            let mut second = 0u8;
            while second < 64 {
                let near = (file(first) as i8 - file(second) as i8).abs() <= 1
                    && (rank(first) as i8 - rank(second) as i8).abs() <= 1;
                let both_on_diagonal = off_diagonal(first) == 0 && off_diagonal(second) == 0;
                let reflected_twin = off_diagonal(first) == 0 && off_diagonal(second) > 0;
                if !near && !reflected_twin && both_on_diagonal == (pass == 1) {
                    table[t][second as usize] = next;
                    next += 1;
                }
                second += 1;
            }
            t += 1;
        }
        pass += 1;
    }
    table
};

/// Placements of the two kings ([`KK_INDEX`]).
pub(super) const KK_PLACEMENTS: u64 = 462;

/// Placements of three unique pieces, the first in the triangle, with the diagonal's
/// reflections counted once: 6·63·62 + 4·28·62 + 4·7·28 + 4·7·6.
pub(super) const THREE_PLACEMENTS: u64 = 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + 4 * 7 * 6;

/// Where a leading pawn on files a-d sits, 0..24: by file, then rank (b2 = 6); files e-h mirror
/// a-d. Ranks 1 and 8 (no pawn) are 0.
pub(super) const FLAP: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let s = sq as u8;
        if rank(s) >= 1 && rank(s) <= 6 {
            let f = if file(s) > 3 { 7 - file(s) } else { file(s) };
            table[sq] = 6 * f + rank(s) - 1;
        }
        sq += 1;
    }
    table
};

/// A pawn square's number 0..48 in the order the generator lists the other leading pawns: from
/// the centre files out, from rank 7 down, the e-h file before its a-d mirror (e7 = 0, d7 = 1,
/// e6 = 2, ..., a2 = 47).
pub(super) const PAWN_TWIST: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let s = sq as u8;
        if rank(s) >= 1 && rank(s) <= 6 {
            let from_centre = if file(s) > 3 {
                file(s) - 4
            } else {
                3 - file(s)
            };
            let queen_side = if file(s) <= 3 { 1 } else { 0 };
            table[sq] = 12 * from_centre + 2 * (6 - rank(s)) + queen_side;
        }
        sq += 1;
    }
    table
};

/// The square of a leading pawn's [`FLAP`] number (files a-d).
const fn flap_square(number: usize) -> usize {
    (1 + number % 6) * 8 + number / 6
}

/// `PAWN_INDEX[k][n]`: where the placements of k + 1 leading pawns start whose first pawn has
/// [`FLAP`] number n, counted within its file's sub-table.
pub(super) const PAWN_INDEX: [[u64; 24]; 6] = {
    let mut table = [[0u64; 24]; 6];
    let mut k = 0;
    while k < 6 {
        let mut sum = 0;
        let mut n = 0;
        while n < 24 {
            if n % 6 == 0 {
                sum = 0;
            }
            table[k][n] = sum;
            sum += BINOMIAL[k][PAWN_TWIST[flap_square(n)] as usize];
            n += 1;
        }
        k += 1;
    }
    table
};

/// `PAWN_FACTOR[k][f]`: the placements of k + 1 leading pawns whose first pawn is on file f
/// (a-d).
pub(super) const PAWN_FACTOR: [[u64; 4]; 6] = {
    let mut table = [[0u64; 4]; 6];
    let mut k = 0;
    while k < 6 {
        let mut n = 0;
        while n < 24 {
            table[k][n / 6] += BINOMIAL[k][PAWN_TWIST[flap_square(n)] as usize];
            n += 1;
        }
        k += 1;
    }
    table
};

/// What one sub-table's numbering needs: how its pieces are grouped and what each group's
/// number is multiplied by.
#[derive(Debug, Clone)]
pub(super) struct Grouping {
    /// How many pieces the table holds.
    pub pieces: usize,
    /// At index i, the size of the group starting at piece i (0 inside a group). The first
    /// group is the leading one: the two kings, three unique pieces, or the leading pawns.
    pub norm: [u8; 7],
    /// At index i, the multiplier of the group starting at piece i.
    pub factor: [u64; 7],
}

/// How the leading group is numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Leading {
    /// The two kings, the only unique pieces.
    Kings,
    /// Three unique pieces.
    ThreeUnique,
    /// The leading pawns, with the other side's pawns (if any) as the second group.
    Pawns {
        /// The other side's pawns.
        others: u8,
    },
}

/// Mirror every square left-right (`^ 7`) or top-bottom (`^ 0x38`).
fn mirror_all(squares: &mut [u8], mask: u8) {
    for sq in squares {
        *sq ^= mask;
    }
}

/// The index of a placement in a table without pawns. `squares` holds the square of each piece
/// in the table's order and is folded in place; `None` when the kings' squares have no number
/// (they touch: no legal position does).
pub(super) fn encode_pieces(squares: &mut [u8], grouping: &Grouping, kings: bool) -> Option<u64> {
    let n = grouping.pieces;
    let squares = &mut squares[..n];
    if squares[0] & 4 != 0 {
        mirror_all(squares, 7);
    }
    if squares[0] & 0x20 != 0 {
        mirror_all(squares, 0x38);
    }
    // The first piece off the diagonal decides the reflection, if it is a leading piece.
    let leading = if kings { 2 } else { 3 };
    if let Some(i) = squares.iter().position(|&sq| off_diagonal(sq) != 0) {
        if i < leading && off_diagonal(squares[i]) > 0 {
            for sq in squares.iter_mut() {
                *sq = flip_diagonal(*sq);
            }
        }
    }
    let index = if kings {
        let i = KK_INDEX[TRIANGLE[squares[0] as usize] as usize][squares[1] as usize];
        u64::try_from(i).ok()?
    } else {
        three_unique(squares[0], squares[1], squares[2])
    };
    let mut index = index * grouping.factor[0];
    index += groups(squares, grouping, leading, 0);
    Some(index)
}

/// The number of three unique pieces, the first in the triangle: cases by how many of them lie
/// on the diagonal (those after an off-diagonal one are below it).
fn three_unique(a: u8, b: u8, c: u8) -> u64 {
    let (b64, c64) = (u64::from(b), u64::from(c));
    let skip_b = u64::from(b > a);
    let skip_c = u64::from(c > a) + u64::from(c > b);
    let tri = u64::from(TRIANGLE[a as usize]);
    if off_diagonal(a) != 0 {
        tri * 63 * 62 + (b64 - skip_b) * 62 + (c64 - skip_c)
    } else if off_diagonal(b) != 0 {
        6 * 63 * 62
            + u64::from(diagonal(a)) * 28 * 62
            + u64::from(LOWER[b as usize]) * 62
            + (c64 - skip_c)
    } else if off_diagonal(c) != 0 {
        6 * 63 * 62
            + 4 * 28 * 62
            + u64::from(diagonal(a)) * 7 * 28
            + (u64::from(diagonal(b)) - skip_b) * 28
            + u64::from(LOWER[c as usize])
    } else {
        6 * 63 * 62
            + 4 * 28 * 62
            + 4 * 7 * 28
            + u64::from(diagonal(a)) * 7 * 6
            + (u64::from(diagonal(b)) - skip_b) * 6
            + (u64::from(diagonal(c)) - skip_c)
    }
}

/// The file (0..4, a-d) of the sub-table for these leading pawns: the leading pawn with the
/// lowest [`FLAP`] number is moved to the front and its file (mirrored into a-d) chosen.
pub(super) fn leading_pawn_file(squares: &mut [u8], leading: usize) -> usize {
    for i in 1..leading {
        if FLAP[squares[0] as usize] > FLAP[squares[i] as usize] {
            squares.swap(0, i);
        }
    }
    let f = file(squares[0]);
    usize::from(if f > 3 { 7 - f } else { f })
}

/// The index of a placement in one file's sub-table of a table with pawns; `squares` as for
/// [`encode_pieces`], the leading pawns first (the front one chosen by [`leading_pawn_file`]).
pub(super) fn encode_pawns(squares: &mut [u8], grouping: &Grouping, others: u8) -> u64 {
    let n = grouping.pieces;
    let squares = &mut squares[..n];
    if squares[0] & 4 != 0 {
        mirror_all(squares, 7);
    }
    let leading = usize::from(grouping.norm[0]);
    squares[1..leading].sort_unstable_by_key(|&sq| std::cmp::Reverse(PAWN_TWIST[sq as usize]));
    let mut index = PAWN_INDEX[leading - 1][FLAP[squares[0] as usize] as usize];
    for (i, &sq) in squares.iter().enumerate().take(leading).skip(1) {
        index += BINOMIAL[leading - i][PAWN_TWIST[sq as usize] as usize];
    }
    index *= grouping.factor[0];
    let mut next = leading;
    if others > 0 {
        // The other side's pawns: combinations of the 48 pawn squares the leading ones leave.
        let end = next + usize::from(others);
        index += group(squares, next, end, 8) * grouping.factor[next];
        next = end;
    }
    index + groups(squares, grouping, next, 0)
}

/// The number of the group `squares[start..end]` as a combination of the squares not taken by
/// the pieces before it, counting from square `lowest`.
fn group(squares: &mut [u8], start: usize, end: usize, lowest: u8) -> u64 {
    squares[start..end].sort_unstable();
    let (before, members) = squares.split_at(start);
    let mut number = 0;
    for (i, &sq) in members[..end - start].iter().enumerate() {
        let taken = before.iter().filter(|&&b| sq > b).count() as u8;
        number += BINOMIAL[i + 1][usize::from(sq - taken - lowest)];
    }
    number
}

/// The groups of like pieces from piece `start` on, each times its multiplier.
fn groups(squares: &mut [u8], grouping: &Grouping, start: usize, lowest: u8) -> u64 {
    let mut index = 0;
    let mut i = start;
    while i < grouping.pieces {
        let end = i + usize::from(grouping.norm[i]);
        index += group(squares, i, end, lowest) * grouping.factor[i];
        i = end;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spot values of the generator's published tables (as Fathom and python-chess print them).
    #[test]
    fn the_maps_match_the_published_tables() {
        assert_eq!(
            &TRIANGLE[..16],
            &[6, 0, 1, 2, 2, 1, 0, 6, 0, 7, 3, 4, 4, 3, 7, 0]
        );
        assert_eq!(TRIANGLE[27], 9);
        assert_eq!(TRIANGLE[63], 6);
        assert_eq!(
            &LOWER[..16],
            &[28, 0, 1, 2, 3, 4, 5, 6, 0, 29, 7, 8, 9, 10, 11, 12]
        );
        assert_eq!(LOWER[62], 27);
        assert_eq!(LOWER[63], 35);
        assert_eq!(
            &FLAP[8..24],
            &[0, 6, 12, 18, 18, 12, 6, 0, 1, 7, 13, 19, 19, 13, 7, 1]
        );
        assert_eq!(FLAP[51], 23);
        assert_eq!(
            &PAWN_TWIST[8..24],
            &[47, 35, 23, 11, 10, 22, 34, 46, 45, 33, 21, 9, 8, 20, 32, 44]
        );
        assert_eq!(&PAWN_TWIST[48..56], &[37, 25, 13, 1, 0, 12, 24, 36]);
        // KK_INDEX: rows for b1, a1 (on the diagonal) and d4, as the generator lists them.
        assert_eq!(&KK_INDEX[0][..8], &[-1, -1, -1, 0, 1, 2, 3, 4]);
        assert_eq!(KK_INDEX[0][63], 57);
        assert_eq!(
            &KK_INDEX[6][16..24],
            &[-1, -1, 441, 351, 352, 353, 354, 355]
        );
        assert_eq!(KK_INDEX[6][63], 446);
        assert_eq!(&KK_INDEX[8][..8], &[452, 391, 392, 393, 394, 395, 396, 397]);
        assert_eq!(
            &KK_INDEX[9][8..16],
            &[-1, 458, 423, 424, 425, 426, 427, 428]
        );
        assert_eq!(KK_INDEX[9][63], 461);
        let numbered = KK_INDEX.iter().flatten().filter(|&&i| i >= 0).count() as u64;
        assert_eq!(numbered, KK_PLACEMENTS);
        assert_eq!(THREE_PLACEMENTS, 31_332);
    }

    #[test]
    fn pawn_counts_add_up() {
        // One leading pawn: 6 squares per file; every file's sub-table counts its own.
        assert_eq!(PAWN_FACTOR[0], [6, 6, 6, 6]);
        assert_eq!(&PAWN_INDEX[0][..7], &[0, 1, 2, 3, 4, 5, 0]);
        // Two and three leading pawns, as python-chess's PFACTOR and PAWNIDX list them.
        assert_eq!(PAWN_FACTOR[1], [252, 180, 108, 36]);
        assert_eq!(PAWN_FACTOR[2], [5201, 2645, 953, 125]);
        assert_eq!(&PAWN_INDEX[1][..8], &[0, 47, 92, 135, 176, 215, 0, 35]);
        assert_eq!(BINOMIAL[3][10], 120);
        assert_eq!(BINOMIAL[0][0], 1);
        assert_eq!(BINOMIAL[6][5], 0);
    }
}
