//! Position codecs: one complete position (placement, side to move, castling rights, en passant
//! square, halfmove clock, fullmove number) as a short string of bits, and back.
//!
//! # Layout
//!
//! Every code is `[placement][side state]`, most significant bit first. The placement part is
//! the codec's own; the side state ([`side_state`]) is shared by all codecs:
//!
//! | field | bits |
//! |---|---|
//! | side to move | 1 (0 White, 1 Black) |
//! | castling, for White king side, White queen side, Black king side, Black queen side | 1 (no right) or `1 1` (the outermost rook on that wing) or `1 0 fff` (the rook on file `fff`, 0 = a): Chess960-capable |
//! | en passant | 0, or `1 fff` (the square's file; its rank follows from the side to move) |
//! | halfmove clock | Elias gamma code of clock + 1 (1 bit for 0) |
//! | fullmove number | Elias gamma code of the number (1 bit for move 1, 11 bits for move 40) |
//!
//! The standard start position's side state is 12 bits. Placement codes, squares a1, b1 ... h8:
//!
//! | codec | placement |
//! |---|---|
//! | `nibble` | 4 bits per square, 256 bits: 0 empty, colour bit (8 = Black) + 1-6 for pawn, knight, bishop, rook, queen, king |
//! | `base13` | the 13 symbols of the squares (0 empty, 1-6 White P N B R Q K, 7-12 Black) as one base-13 number, a1 the least significant digit: 237 bits (13^64 < 2^237) |
//! | `varbase` | the same in mixed radix: squares of ranks 1 and 8 have 11 symbols (no pawns): 233 bits |
//! | `huffman` | a prefix code per square, the classic tree: empty `0`, pawn `1c0`, rook `1c100`, knight `1c101`, bishop `1c110`, queen `1c1110`, king `1c1111` (c = 1 for Black): 164 bits for the start placement |
//! | `huffman-games` | a prefix code per square from the piece frequencies of real games ([`huffman`]) |
//! | `pieces` | king squares (6 + 6), then per side a pawn count (4) and the pawns' rank among the combinations of that many of the 48 squares of ranks 2-7 (`ceil(log2 C(48, k))` bits), then per side a count of other pieces (4) and each as kind (2: N B R Q) + square (6), squares ascending |
//! | `delta` | the `nibble` board XOR the start position's, run-length coded: (Elias gamma of run of zeros + 1, then a 4-bit non-zero nibble) until the 64 squares are covered |
//! | `best` | a 2-bit selector (0 `huffman`, 1 `huffman-games`, 2 `pieces`, 3 `delta`), then the shortest of the four placements, the lower selector on ties (so selector 1 never wins: `huffman-games` ties with `huffman`, see below) |
//!
//! `huffman-games` is the Huffman code of the square contents of the 5,000 games of
//! `tests/data/pgn/lichess_2013-01_5000.pgn`; it comes out with the classic tree's code lengths,
//! so the two tie on every position (see [`huffman`] and the measured table in docs/codecs.md).
//!
//! # The floor
//!
//! There are about 4.8 x 10^44 legal positions (Tromp's count), so no code can give every one of
//! them fewer than log2(4.8 x 10^44) = 149 bits; the codes here spend bits on impossible
//! placements in exchange for simplicity.
//!
//! # Decoding
//!
//! A decoder reads the fields, rejects impossible content (a nibble that is no piece, a number
//! out of range, overlapping pieces, a castling rook that is not there), builds the position
//! through [`Position::from_setup`] (which rejects two kings of a colour, pawns on rank 1, the
//! side not to move in check ...), and finally re-encodes it: only the one canonical code of a position
//! decodes, so no input decodes to a position other than the one it was made from.
//! Hex text may carry up to three zero bits of padding in its last digit, nothing more.

mod bignum;
mod delta;
pub mod huffman;
mod nibble;
mod pieces;
mod radix;
pub mod side_state;

pub use crate::notation::boards::{placement_of, Placement};

use crate::codec::bits::{BitReader, Bits, EndOfInput, NotHex};
use crate::{Color, Piece, PieceKind, Position, PositionError, Square};
use std::fmt;

/// The 13-symbol code of a square: 0 empty, 1-6 White pawn to king, 7-12 Black.
pub fn symbol_of(piece: Option<Piece>) -> usize {
    match piece {
        None => 0,
        Some(p) => 1 + p.kind.index() + 6 * p.color.index(),
    }
}

/// The square content of a 13-symbol code (`None` for 0 and for anything above 12).
pub fn piece_of_symbol(symbol: usize) -> Option<Piece> {
    if symbol == 0 || symbol > 12 {
        return None;
    }
    let color = Color::ALL[(symbol - 1) / 6];
    Some(Piece::new(color, PieceKind::ALL[(symbol - 1) % 6]))
}

/// The position codecs.
///
/// ```
/// use shannon::codec::position::PositionCodec;
/// use shannon::Position;
///
/// let start = Position::startpos();
/// let code = PositionCodec::Huffman.encode(&start);
/// // 164 bits of placement (the classic tree) and 12 of side state.
/// assert_eq!(code.len(), 164 + 12);
/// assert_eq!(PositionCodec::Huffman.decode(&code).unwrap(), start);
/// assert_eq!(PositionCodec::Nibble.encode(&start).len(), 256 + 12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PositionCodec {
    /// 4 bits per square.
    Nibble,
    /// One base-13 number.
    Base13,
    /// Mixed radix: 11 symbols on ranks 1 and 8, 13 elsewhere.
    Varbase,
    /// The classic per-square prefix code.
    Huffman,
    /// A per-square prefix code from the frequencies of real games.
    HuffmanGames,
    /// King squares, pawn combinations, other pieces as kind + square.
    Pieces,
    /// XOR against the start placement, run-length coded.
    Delta,
    /// A 2-bit selector and the shortest of `huffman`, `huffman-games`, `pieces`, `delta`.
    Best,
}

/// The codecs `best` chooses from, by selector.
const BEST_CHOICES: [PositionCodec; 4] = [
    PositionCodec::Huffman,
    PositionCodec::HuffmanGames,
    PositionCodec::Pieces,
    PositionCodec::Delta,
];

impl PositionCodec {
    /// Every codec.
    pub const ALL: [PositionCodec; 8] = [
        PositionCodec::Nibble,
        PositionCodec::Base13,
        PositionCodec::Varbase,
        PositionCodec::Huffman,
        PositionCodec::HuffmanGames,
        PositionCodec::Pieces,
        PositionCodec::Delta,
        PositionCodec::Best,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PositionCodec::Nibble => "nibble",
            PositionCodec::Base13 => "base13",
            PositionCodec::Varbase => "varbase",
            PositionCodec::Huffman => "huffman",
            PositionCodec::HuffmanGames => "huffman-games",
            PositionCodec::Pieces => "pieces",
            PositionCodec::Delta => "delta",
            PositionCodec::Best => "best",
        }
    }

    /// The complete position as bits: placement, then the side state.
    pub fn encode(self, pos: &Position) -> Bits {
        let mut bits = Bits::new();
        self.encode_placement(&placement_of(pos), &mut bits);
        side_state::encode(pos, &mut bits);
        bits
    }

    /// The position of an exact code (no padding allowed).
    pub fn decode(self, bits: &Bits) -> Result<Position, DecodeError> {
        self.decode_padded(bits, 0)
    }

    /// The position of hex text as [`Bits::to_hex`] writes it.
    pub fn decode_hex(self, hex: &str) -> Result<Position, DecodeError> {
        self.decode_padded(&Bits::from_hex(hex)?, 3)
    }

    fn decode_padded(self, bits: &Bits, padding: usize) -> Result<Position, DecodeError> {
        let mut reader = bits.reader();
        let placement = self.decode_placement(&mut reader)?;
        let state = side_state::decode(&mut reader)?;
        let end = reader.position();
        if reader.remaining() > padding {
            return Err(DecodeError::ExtraBits {
                at: end,
                count: reader.remaining(),
            });
        }
        if !reader.rest_is_zero() {
            return Err(DecodeError::NonZeroPadding { at: end });
        }
        let pos = side_state::build(&placement, &state)?;
        let canonical = self.encode(&pos);
        if canonical.len() != end || !canonical.iter().eq(bits.iter().take(end)) {
            return Err(DecodeError::NonCanonical);
        }
        Ok(pos)
    }

    /// Append the placement part of the code for any board, legal or not (tests use it to build
    /// codes of impossible positions).
    pub fn encode_placement(self, board: &Placement, bits: &mut Bits) {
        match self {
            PositionCodec::Nibble => nibble::encode(board, bits),
            PositionCodec::Base13 => radix::encode(board, radix::Radix::Base13, bits),
            PositionCodec::Varbase => radix::encode(board, radix::Radix::Varbase, bits),
            PositionCodec::Huffman => huffman::encode(board, &huffman::CLASSIC, bits),
            PositionCodec::HuffmanGames => huffman::encode(board, &huffman::GAMES, bits),
            PositionCodec::Pieces => pieces::encode(board, bits),
            PositionCodec::Delta => delta::encode(board, bits),
            PositionCodec::Best => encode_best(board, bits),
        }
    }

    /// Read the placement part of a code.
    fn decode_placement(self, reader: &mut BitReader) -> Result<Placement, DecodeError> {
        match self {
            PositionCodec::Nibble => nibble::decode(reader),
            PositionCodec::Base13 => radix::decode(reader, radix::Radix::Base13),
            PositionCodec::Varbase => radix::decode(reader, radix::Radix::Varbase),
            PositionCodec::Huffman => huffman::decode(reader, &huffman::CLASSIC),
            PositionCodec::HuffmanGames => huffman::decode(reader, &huffman::GAMES),
            PositionCodec::Pieces => pieces::decode(reader),
            PositionCodec::Delta => delta::decode(reader),
            PositionCodec::Best => {
                let selector = reader.read_bits(2)? as usize;
                BEST_CHOICES[selector].decode_placement(reader)
            }
        }
    }
}

/// An Elias gamma number of at most `max_width` binary digits; a wider one is out of range.
fn read_gamma(reader: &mut BitReader, max_width: u32) -> Result<u64, DecodeError> {
    let at = reader.position();
    reader
        .read_gamma(max_width)?
        .ok_or_else(|| DecodeError::OutOfRange {
            at,
            what: format!("a number of more than {max_width} binary digits"),
        })
}

/// The selector and placement of the shortest choice (the first on ties).
fn encode_best(board: &Placement, bits: &mut Bits) {
    let (selector, best) = BEST_CHOICES
        .iter()
        .enumerate()
        .map(|(i, codec)| {
            let mut part = Bits::new();
            codec.encode_placement(board, &mut part);
            (i, part)
        })
        .min_by_key(|(i, part)| (part.len(), *i))
        .expect("four choices");
    bits.push_bits(selector as u64, 2);
    bits.extend(&best);
}

impl fmt::Display for PositionCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A codec name that is not one of [`PositionCodec::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCodec(pub String);

impl fmt::Display for UnknownCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = PositionCodec::ALL.iter().map(|c| c.name()).collect();
        write!(
            f,
            "unknown position codec '{}'; expected one of {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownCodec {}

impl std::str::FromStr for PositionCodec {
    type Err = UnknownCodec;

    fn from_str(s: &str) -> Result<PositionCodec, UnknownCodec> {
        PositionCodec::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| UnknownCodec(s.to_string()))
    }
}

/// Why a code does not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// A character of the hex text is not a hex digit.
    BadHex {
        /// Its index in the text.
        index: usize,
        /// The character.
        character: char,
    },
    /// The code ends in the middle of a field.
    Truncated {
        /// The bit where more was needed.
        at: usize,
    },
    /// Bits are left over after the complete position.
    ExtraBits {
        /// Where the position's code ends.
        at: usize,
        /// How many bits follow it.
        count: usize,
    },
    /// The padding of the last hex digit is not zero.
    NonZeroPadding {
        /// Where the position's code ends.
        at: usize,
    },
    /// A symbol stands for no piece.
    BadSymbol {
        /// The bit where the symbol starts.
        at: usize,
        /// The square it is for.
        square: Square,
        /// The symbol's value.
        value: u64,
    },
    /// A number is out of its range.
    OutOfRange {
        /// The bit where the number starts.
        at: usize,
        /// What is out of range.
        what: String,
    },
    /// Two pieces are placed on one square.
    Overlap(Square),
    /// A castling right names no castling rook.
    Castling(String),
    /// The decoded content is not a legal position.
    Illegal(PositionError),
    /// The content is a position, but this is not its code (only canonical codes decode).
    NonCanonical,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::BadHex { index, character } => {
                write!(f, "character {index} '{character}' is not a hex digit")
            }
            DecodeError::Truncated { at } => {
                write!(f, "the code ends at bit {at}, in the middle of a field")
            }
            DecodeError::ExtraBits { at, count } => {
                write!(f, "{count} extra bits after the position, from bit {at}")
            }
            DecodeError::NonZeroPadding { at } => {
                write!(f, "the padding after bit {at} is not zero")
            }
            DecodeError::BadSymbol { at, square, value } => {
                write!(f, "bit {at}: symbol {value} for {square} is no piece")
            }
            DecodeError::OutOfRange { at, what } => write!(f, "bit {at}: {what} is out of range"),
            DecodeError::Overlap(sq) => write!(f, "two pieces are placed on {sq}"),
            DecodeError::Castling(reason) => write!(f, "castling: {reason}"),
            DecodeError::Illegal(e) => write!(f, "not a legal position: {e}"),
            DecodeError::NonCanonical => write!(
                f,
                "the bits describe a position but are not its canonical code"
            ),
        }
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DecodeError::Illegal(e) => Some(e),
            _ => None,
        }
    }
}

impl From<EndOfInput> for DecodeError {
    fn from(e: EndOfInput) -> DecodeError {
        DecodeError::Truncated { at: e.at }
    }
}

impl From<NotHex> for DecodeError {
    fn from(e: NotHex) -> DecodeError {
        DecodeError::BadHex {
            index: e.index,
            character: e.character,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The side state of White to move with no rights, no en passant square, counters 0 and 1.
    fn plain_side_state(bits: &mut Bits) {
        for _ in 0..6 {
            bits.push_bit(false);
        }
        bits.push_gamma(1);
        bits.push_gamma(1);
    }

    fn decode_with_plain_side_state(codec: PositionCodec, board: &Placement) -> DecodeError {
        let mut bits = Bits::new();
        codec.encode_placement(board, &mut bits);
        plain_side_state(&mut bits);
        match codec.decode(&bits) {
            Ok(pos) => panic!("{} decoded {pos:?}", codec.name()),
            Err(error) => error,
        }
    }

    #[test]
    fn an_illegal_placement_is_a_position_error() {
        // Every codec can code this one: White to move with Black in check.
        let mut board = [None; 64];
        board[Square::E1.index()] = Some(Piece::new(Color::White, PieceKind::King));
        board[Square::E8.index()] = Some(Piece::new(Color::Black, PieceKind::King));
        board[Square::E1.index() + 8] = Some(Piece::new(Color::White, PieceKind::Rook));
        for codec in PositionCodec::ALL {
            assert_eq!(
                decode_with_plain_side_state(codec, &board),
                DecodeError::Illegal(PositionError::OpponentInCheck(Color::Black)),
                "{}",
                codec.name()
            );
        }
        // Two white kings (which `pieces` cannot code at all).
        let mut board = placement_of(&Position::startpos());
        board[Square::D1.index()] = Some(Piece::new(Color::White, PieceKind::King));
        let error = decode_with_plain_side_state(PositionCodec::Nibble, &board);
        assert_eq!(
            error,
            DecodeError::Illegal(PositionError::KingCount {
                color: Color::White,
                count: 2
            })
        );
        assert_eq!(
            error.to_string(),
            "not a legal position: white has 2 kings; each side needs exactly one"
        );
    }
}
