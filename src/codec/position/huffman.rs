//! `huffman` and `huffman-games`: a prefix code per square, a1 first.
//!
//! Symbols are the 13 square contents of [`super::symbol_of`]: 0 empty, 1-6 White pawn, knight,
//! bishop, rook, queen, king, 7-12 Black's.
//!
//! - [`CLASSIC`], the tree of the classic write-ups: empty `0`, pawn `1c0`, rook `1c100`, knight
//!   `1c101`, bishop `1c110`, queen `1c1110`, king `1c1111`, `c` the colour bit (1 for Black).
//!   The start placement takes 32 + 16 x 3 + 12 x 5 + 4 x 6 = 164 bits.
//! - [`GAMES`], a Huffman tree from the square contents of every position (the start and the
//!   position after each move) of the 5,000 games of `tests/data/pgn/lichess_2013-01_5000.pgn`:
//!   the counts are [`GAMES_FREQUENCIES`], the code lengths come from [`huffman_lengths`] and the
//!   codes from [`canonical_codes`]. The test `huffman_games_tree_is_rederived_from_the_corpus`
//!   counts the file again and rebuilds the table.
//!
//! Which wins: neither. Over the 332,416 positions of the corpus the Huffman construction gives
//! exactly the classic code lengths (empty 1 bit, pawns 3, knights, bishops and rooks 5, queens
//! and kings 6); only which 5- and 6-bit codes go to which piece differs. So the two trees give
//! every position the same number of bits, on this corpus and everywhere else. The classic
//! tree's shape is what the piece frequencies of real games call for.

use super::{piece_of_symbol, symbol_of, BitReader, Bits, DecodeError, Placement};
use crate::{Position, Square};

/// A prefix code: (code, length in bits) per symbol.
pub type CodeTable = [(u32, u8); 13];

/// The classic tree: empty `0`, pawn `1c0`, knight `1c101`, bishop `1c110`, rook `1c100`, queen
/// `1c1110`, king `1c1111`, in symbol order.
pub const CLASSIC: CodeTable = [
    (0b0, 1),
    (0b100, 3),
    (0b10101, 5),
    (0b10110, 5),
    (0b10100, 5),
    (0b101110, 6),
    (0b101111, 6),
    (0b110, 3),
    (0b11101, 5),
    (0b11110, 5),
    (0b11100, 5),
    (0b111110, 6),
    (0b111111, 6),
];

/// How often each symbol stands on a square over every position of the 5,000 games of
/// `tests/data/pgn/lichess_2013-01_5000.pgn` (counted by the test that re-derives [`GAMES`]).
pub const GAMES_FREQUENCIES: [u64; 13] = [
    13_605_192, // empty
    1_963_180,  // White pawn
    378_960,    // White knight
    386_536,    // White bishop
    535_919,    // White rook
    229_901,    // White queen
    332_416,    // White king
    1_976_323,  // Black pawn
    371_581,    // Black knight
    396_960,    // Black bishop
    534_938,    // Black rook
    230_302,    // Black queen
    332_416,    // Black king
];

/// The canonical Huffman code of [`GAMES_FREQUENCIES`].
pub const GAMES: CodeTable = [
    (0b0, 1),
    (0b100, 3),
    (0b11000, 5),
    (0b11001, 5),
    (0b11010, 5),
    (0b111100, 6),
    (0b111101, 6),
    (0b101, 3),
    (0b11011, 5),
    (0b11100, 5),
    (0b11101, 5),
    (0b111110, 6),
    (0b111111, 6),
];

/// Huffman code lengths for `frequencies`: the two lightest trees are merged until one is left,
/// ties broken by the earlier-made tree (symbols first, in order), so the result is reproducible.
pub fn huffman_lengths(frequencies: &[u64; 13]) -> [u8; 13] {
    let mut trees: Vec<(u64, usize, Vec<usize>)> = frequencies
        .iter()
        .enumerate()
        .map(|(s, &f)| (f, s, vec![s]))
        .collect();
    let mut lengths = [0u8; 13];
    let mut next_id = trees.len();
    while trees.len() > 1 {
        trees.sort_by_key(|(weight, id, _)| (*weight, *id));
        let (w1, _, s1) = trees.remove(0);
        let (w2, _, s2) = trees.remove(0);
        let symbols: Vec<usize> = s1.into_iter().chain(s2).collect();
        for &s in &symbols {
            lengths[s] += 1;
        }
        trees.push((w1 + w2, next_id, symbols));
        next_id += 1;
    }
    lengths
}

/// The canonical prefix code of `lengths`: shorter codes first, ties in symbol order, each code
/// the previous plus one, shifted left as the length grows.
pub fn canonical_codes(lengths: &[u8; 13]) -> CodeTable {
    let mut order: Vec<usize> = (0..13).collect();
    order.sort_by_key(|&s| (lengths[s], s));
    let mut table = [(0u32, 0u8); 13];
    let mut code = 0u32;
    let mut previous = lengths[order[0]];
    for s in order {
        code <<= lengths[s] - previous;
        previous = lengths[s];
        table[s] = (code, lengths[s]);
        code += 1;
    }
    table
}

/// Add the square contents of `pos` to `counts`.
pub fn count_symbols(pos: &Position, counts: &mut [u64; 13]) {
    for sq in Square::ALL {
        counts[symbol_of(pos.piece_at(sq))] += 1;
    }
}

/// Append the code of every square.
pub(super) fn encode(board: &Placement, table: &CodeTable, bits: &mut Bits) {
    for piece in board {
        let (code, length) = table[symbol_of(*piece)];
        bits.push_bits(u64::from(code), u32::from(length));
    }
}

/// Read one symbol, bit by bit, until a code matches.
fn read_symbol(
    reader: &mut BitReader,
    table: &CodeTable,
    square: Square,
) -> Result<usize, DecodeError> {
    let at = reader.position();
    let longest = table.iter().map(|&(_, l)| l).max().unwrap_or(0);
    let mut code = 0u32;
    for length in 1..=longest {
        code = code << 1 | u32::from(reader.read_bit()?);
        if let Some(symbol) = table.iter().position(|&c| c == (code, length)) {
            return Ok(symbol);
        }
    }
    Err(DecodeError::BadSymbol {
        at,
        square,
        value: u64::from(code),
    })
}

/// Read the 64 squares.
pub(super) fn decode(reader: &mut BitReader, table: &CodeTable) -> Result<Placement, DecodeError> {
    let mut board = [None; 64];
    for sq in Square::ALL {
        board[sq.index()] = piece_of_symbol(read_symbol(reader, table, sq)?);
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_tree_is_canonical_shaped_and_prefix_free() {
        for (i, a) in CLASSIC.iter().enumerate() {
            for (j, b) in CLASSIC.iter().enumerate() {
                if i != j && a.1 <= b.1 {
                    assert_ne!(b.0 >> (b.1 - a.1), a.0, "{i} is a prefix of {j}");
                }
            }
        }
        let mut bits = Bits::new();
        encode(
            &super::super::placement_of(&Position::startpos()),
            &CLASSIC,
            &mut bits,
        );
        assert_eq!(bits.len(), 164);
    }

    #[test]
    fn huffman_of_powers_of_two() {
        let mut freqs = [1u64; 13];
        freqs[0] = 1000;
        let lengths = huffman_lengths(&freqs);
        assert_eq!(lengths[0], 1);
        let kraft: f64 = lengths.iter().map(|&l| 0.5f64.powi(l.into())).sum();
        assert!((kraft - 1.0).abs() < 1e-12);
        let table = canonical_codes(&lengths);
        assert_eq!(table[0], (0, 1));
    }
}
