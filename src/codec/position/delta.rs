//! `delta`: the [`nibble`](super::nibble) board XOR the start position's, run-length coded.
//!
//! From a1 on: the Elias gamma code of (the number of unchanged squares + 1), then, unless the
//! run reached h8, the changed square's 4-bit XOR value (never 0). The start placement is one
//! 13-bit run of 64.

use super::nibble::{nibble_of, piece_of_nibble};
use super::{read_gamma, BitReader, Bits, DecodeError, Placement};
use crate::Square;

/// The start position's nibbles, a1 first (checked against [`nibble_of`] in the tests).
const START: [u64; 64] = [
    4, 2, 3, 5, 6, 3, 2, 4, // rank 1
    1, 1, 1, 1, 1, 1, 1, 1, // rank 2
    0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, //
    9, 9, 9, 9, 9, 9, 9, 9, // rank 7
    12, 10, 11, 13, 14, 11, 10, 12, // rank 8
];

/// Append the run-length coded difference.
pub(super) fn encode(board: &Placement, bits: &mut Bits) {
    let mut run = 0u64;
    for (piece, base) in board.iter().zip(START) {
        let delta = nibble_of(*piece) ^ base;
        if delta == 0 {
            run += 1;
        } else {
            bits.push_gamma(run + 1);
            bits.push_bits(delta, 4);
            run = 0;
        }
    }
    if run > 0 {
        bits.push_gamma(run + 1);
    }
}

/// Read the runs and changes until the 64 squares are covered.
pub(super) fn decode(reader: &mut BitReader) -> Result<Placement, DecodeError> {
    let mut nibbles = START;
    let mut index = 0usize;
    while index < 64 {
        let at = reader.position();
        let run = read_gamma(reader, 8)? - 1;
        index += run as usize;
        if index > 64 {
            return Err(DecodeError::OutOfRange {
                at,
                what: format!("a run of {run} unchanged squares past h8"),
            });
        }
        if index == 64 {
            break;
        }
        let at = reader.position();
        let delta = reader.read_bits(4)?;
        if delta == 0 {
            return Err(DecodeError::BadSymbol {
                at,
                square: Square::ALL[index],
                value: 0,
            });
        }
        nibbles[index] ^= delta;
        index += 1;
    }
    let mut board = [None; 64];
    for (i, (cell, nibble)) in board.iter_mut().zip(nibbles).enumerate() {
        *cell = piece_of_nibble(nibble).map_err(|()| DecodeError::BadSymbol {
            at: 0,
            square: Square::ALL[i],
            value: nibble,
        })?;
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn start_table_matches_the_start_position() {
        let start = super::super::placement_of(&Position::startpos()).map(nibble_of);
        assert_eq!(start, START);
        let mut bits = Bits::new();
        encode(
            &super::super::placement_of(&Position::startpos()),
            &mut bits,
        );
        assert_eq!(bits.len(), 13);
    }
}
