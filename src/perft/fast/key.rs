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

use super::board::Board;
use super::{squares, Side, KING, PAWN};
use crate::types::splitmix::SplitMix;
use crate::Color;

struct Keys {
    pieces: [[[u64; 64]; 6]; 2],
    unmoved: [u64; 64],
    en_passant: [u64; 64],
    side: u64,
}

const KEYS: Keys = {
    let mut stream = SplitMix::new(0x5045_5246_544B_4559); // "PERFTKEY"
    let mut keys = Keys {
        pieces: [[[0; 64]; 6]; 2],
        unmoved: [0; 64],
        en_passant: [0; 64],
        side: 0,
    };
    let mut sq = 0;
    while sq < 64 {
        let mut color = 0;
        while color < 2 {
            let mut kind = 0;
            while kind < 6 {
                keys.pieces[color][kind][sq] = stream.next_u64();
                kind += 1;
            }
            color += 1;
        }
        keys.unmoved[sq] = stream.next_u64();
        keys.en_passant[sq] = stream.next_u64();
        sq += 1;
    }
    keys.side = stream.next_u64();
    keys
};

/// The key of a piece of `color` and `kind` on `sq`.
#[inline(always)]
pub(super) fn piece(color: usize, kind: usize, sq: u32) -> u64 {
    KEYS.pieces[color][kind][sq as usize]
}

/// The key of the squares of `set` as unmoved squares.
#[inline(always)]
pub(super) fn unmoved(set: u64) -> u64 {
    squares(set).fold(0, |key, sq| key ^ KEYS.unmoved[sq as usize])
}

/// The key of the side to move changing.
#[inline(always)]
pub(super) fn side() -> u64 {
    KEYS.side
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
        bit => KEYS.en_passant[bit.trailing_zeros() as usize],
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
