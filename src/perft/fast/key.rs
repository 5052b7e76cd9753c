//! Zobrist keys of the counting board, for the perft table: a key is a function of exactly what
//! the count below a board depends on, kept up to date move by move by the hashed recursion
//! (piece-square XORs; the side to move, the unmoved home squares and en passant folded in only
//! where they change).
//!
//! - Pieces: one key per colour, kind and square.
//! - Side to move: one key, in when Black is to move.
//! - Castling: one key per square of [`Board::unmoved`], in while the square is unmoved. The
//!   unmoved squares decide every castling right below the board, so equal keys never hide a
//!   difference in rights (two boards with the same rights but different unmoved squares, say
//!   a king that moved while its rooks did not, get different keys: a transposition missed, never
//!   a wrong count).
//! - En passant: one key per square, in only when a pawn of the side to move attacks the en
//!   passant square; otherwise the square changes nothing below the board.
//!
//! The numbers come from a fixed SplitMix stream of their own, so they never coincide with the
//! keys of [`Position`](crate::Position), which encode castling and en passant differently.
//! [`Numbers`] is also the table of the exact walk's cache (two numbers per feature, from a
//! stream of its own: `crate::perft::exact`'s cache).

use super::board::Board;
use super::{squares, Side, KING, PAWN};
use crate::types::splitmix::SplitMix;
use crate::Color;

/// Zobrist numbers of the counting board, `W` independent ones per feature (side by side, so
/// that one lookup reads them all): by colour, kind and square, then the unmoved squares, the en
/// passant squares and Black to move.
pub(crate) struct Numbers<const W: usize> {
    pub(crate) pieces: [[[[u64; W]; 64]; 6]; 2],
    pub(crate) unmoved: [[u64; W]; 64],
    pub(crate) en_passant: [[u64; W]; 64],
    pub(crate) black: [u64; W],
}

impl<const W: usize> Numbers<W> {
    /// The numbers drawn from the SplitMix stream of `seed`, at compile time: all of the first
    /// of each feature, then all of the second, and so on; each set square by square (each
    /// colour and kind, then the unmoved and en passant square), then Black to move.
    pub(crate) const fn draw(seed: u64) -> Numbers<W> {
        let mut stream = SplitMix::new(seed);
        let mut n = Numbers {
            pieces: [[[[0; W]; 64]; 6]; 2],
            unmoved: [[0; W]; 64],
            en_passant: [[0; W]; 64],
            black: [0; W],
        };
        let mut half = 0;
        while half < W {
            let mut sq = 0;
            while sq < 64 {
                let mut color = 0;
                while color < 2 {
                    let mut kind = 0;
                    while kind < 6 {
                        n.pieces[color][kind][sq][half] = stream.next_u64();
                        kind += 1;
                    }
                    color += 1;
                }
                n.unmoved[sq][half] = stream.next_u64();
                n.en_passant[sq][half] = stream.next_u64();
                sq += 1;
            }
            n.black[half] = stream.next_u64();
            half += 1;
        }
        n
    }
}

/// The perft table's numbers ("PERFTKEY").
const KEYS: Numbers<1> = Numbers::draw(0x5045_5246_544B_4559);

/// The key of a piece of `color` and `kind` on `sq`.
#[inline(always)]
pub(super) fn piece(color: usize, kind: usize, sq: u32) -> u64 {
    KEYS.pieces[color][kind][sq as usize][0]
}

/// The key of the squares of `set` as unmoved squares.
#[inline(always)]
pub(super) fn unmoved(set: u64) -> u64 {
    squares(set).fold(0, |key, sq| key ^ KEYS.unmoved[sq as usize][0])
}

/// The key of the side to move changing.
#[inline(always)]
pub(super) fn side() -> u64 {
    KEYS.black[0]
}

/// The key of the piece of side `S`'s opponent on `to` (0 when the square is empty).
#[inline(always)]
pub(super) fn victim<S: Side>(b: &Board, to: u32) -> u64 {
    let bit = 1u64 << to;
    let mut key = 0;
    if b.occupied[S::THEM] & bit != 0 {
        for kind in PAWN..KING {
            if b.pieces[S::THEM][kind] & bit != 0 {
                key = piece(S::THEM, kind, to);
            }
        }
    }
    key
}

/// The en passant part of the key of `b` with `S` to move: the square's key when a pawn of `S`
/// attacks it, else 0.
#[inline(always)]
pub(super) fn en_passant<S: Side>(b: &Board) -> u64 {
    match b.takeable_en_passant::<S>() {
        0 => 0,
        bit => KEYS.en_passant[bit.trailing_zeros() as usize][0],
    }
}

/// The key of `b` with `S` to move, from scratch.
pub(super) fn of<S: Side>(b: &Board) -> u64 {
    let mut key = unmoved(b.unmoved) ^ en_passant::<S>(b);
    if S::COLOR == Color::Black {
        key ^= side();
    }
    for color in 0..2 {
        for kind in PAWN..=KING {
            for sq in squares(b.pieces[color][kind]) {
                key ^= piece(color, kind, sq);
            }
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::{Numbers, KEYS};
    use crate::types::splitmix::SplitMix;

    /// The numbers as the perft table's own table and the exact cache's two-wide one drew them
    /// before they shared [`Numbers::draw`]: the same stream, in the same order.
    #[test]
    fn the_numbers_are_those_drawn_before() {
        for (seed, halves) in [(0x5045_5246_544B_4559, 1), (0x4558_4143_544B_4559, 2)] {
            let mut stream = SplitMix::new(seed);
            let mut drawn = Vec::new();
            for _ in 0..halves {
                for _ in 0..64 * 14 + 1 {
                    drawn.push(stream.next_u64());
                }
            }
            let numbers: Vec<u64> = if halves == 1 {
                flatten(&KEYS)
            } else {
                flatten(&Numbers::<2>::draw(seed))
            };
            assert_eq!(numbers, drawn, "seed {seed:#x}");
        }
    }

    /// The numbers of `n` in the order they are drawn.
    fn flatten<const W: usize>(n: &Numbers<W>) -> Vec<u64> {
        let mut out = Vec::new();
        for half in 0..W {
            for sq in 0..64 {
                for color in 0..2 {
                    for kind in 0..6 {
                        out.push(n.pieces[color][kind][sq][half]);
                    }
                }
                out.push(n.unmoved[sq][half]);
                out.push(n.en_passant[sq][half]);
            }
            out.push(n.black[half]);
        }
        out
    }
}
