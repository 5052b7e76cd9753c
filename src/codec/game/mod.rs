//! Game codecs: a whole game (start position, Chess960 flag, result and moves) as a bit string.
//!
//! # Layout
//!
//! Every codec writes the same header, then the moves its own way, then zero bits up to the next
//! byte boundary. Bits are written most significant first (see [`crate::codec::bits`]).
//!
//! | field | bits |
//! |---|---|
//! | start | `1`: the standard start position (FEN [`crate::STARTPOS_FEN`], counters included) |
//! |       | `01` + 10 bits: the Chess960 start position with this Scharnagl number (0-959), White to move, all four castling rights, counters `0 1` |
//! |       | `00` + 8 bits length L (1-255) + L bytes: any other start, as Shredder-FEN text with both counters |
//! | Chess960 | 1 bit: 1 for a Chess960 game (decides castling notation when written as PGN) |
//! | result | 2 bits: 0 `1-0`, 1 `0-1`, 2 `1/2-1/2`, 3 `*` |
//! | moves | Elias gamma code of (number of moves + 1): `k` zeros then the `k + 1` bits of the number, at most 15 bits wide (32,766 plies) |
//! | the moves | per codec, below |
//! | padding | 0-7 zero bits to the byte boundary |
//!
//! The move codecs ([`GameCodec`]):
//! - `squares`: 12 bits per move, from square then to square, 6 bits each (a1 = 0, b1 = 1, ...,
//!   h8 = 63); castling is king-takes-rook, so `to` is the rook's square. The escape for
//!   promotions: when from/to name a pawn promotion in the current position, 2 more bits follow
//!   with the piece, 0 knight, 1 bishop, 2 rook, 3 queen. No other move has extra bits.
//! - `index`: the move's index among the legal moves in the canonical order ([`canonical_moves`]),
//!   in ceil(log2 n) bits where n is the number of legal moves (0 bits when n == 1).
//! - `arith`: the same indices, arithmetic-coded ([`crate::codec::arith`]) with a uniform model,
//!   as one coded segment after the header; the total is the sum of log2 n plus at most 2 bits
//!   (plus the rounding loss, about n / 2^31 bits per move).
//!
//! # Decoding
//! Decoders check everything and never panic: a truncated input, bits left over beyond the
//! padding, a move that is not legal (an index >= n, or from/to naming no legal move), moves past
//! the end of the game (no legal moves left), an impossible or malformed start position, and a
//! too-long move count are all [`GameCodecError`]s. Every game has exactly one encoding per
//! codec: a start written in a longer form than the encoder uses (the standard position as a
//! Chess960 number or FEN, a Chess960 start as FEN, a FEN not in Shredder form) is rejected too,
//! so any accepted input re-encodes to the same bytes. The arithmetic decoder reads zeros past the
//! end of its input, so its input is also re-encoded and must come back bit for bit (this catches
//! truncated and non-canonical inputs).
//!
//! This module does not know PGN: a [`GameRecord`] is what both keep, and PGN adds its tags.

mod error;
mod header;
mod moves;

use super::bits::{BitReader, Bits};
use crate::game::GameRecord;
pub use error::{GameCodecError, GameEncodeError};
pub use moves::{canonical_moves, canonical_order_key};
use std::fmt;
use std::str::FromStr;

/// A game codec: how the moves after the common header are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameCodec {
    /// 12 bits per move (from, to), plus 2 bits for a promotion's piece.
    Squares,
    /// The index among the legal moves in canonical order, ceil(log2 n) bits.
    Index,
    /// The indices arithmetic-coded with a uniform model, about log2 n bits per move.
    Arith,
}

impl GameCodec {
    /// Every game codec, in the order reports list them.
    pub const ALL: [GameCodec; 3] = [GameCodec::Squares, GameCodec::Index, GameCodec::Arith];

    /// The codec's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GameCodec::Squares => "squares",
            GameCodec::Index => "index",
            GameCodec::Arith => "arith",
        }
    }

    /// The codec's number in a packed file's header.
    pub fn id(self) -> u8 {
        match self {
            GameCodec::Squares => 1,
            GameCodec::Index => 2,
            GameCodec::Arith => 3,
        }
    }

    /// The number of the codec's move model in a packed file's header: 0 for none.
    pub fn model_id(self) -> u8 {
        0
    }

    /// The codec with this number, if any.
    pub fn from_id(id: u8) -> Option<GameCodec> {
        GameCodec::from_ids(id, 0)
    }

    /// The codec with this codec number and model number, if any.
    pub fn from_ids(id: u8, model: u8) -> Option<GameCodec> {
        GameCodec::ALL
            .into_iter()
            .find(|codec| codec.id() == id && codec.model_id() == model)
    }

    /// The game as bytes: the header, the moves, zero padding.
    pub fn encode(self, game: &GameRecord) -> Result<Vec<u8>, GameEncodeError> {
        Ok(self.encode_bits(game)?.into_bytes())
    }

    /// The game as bits (before padding), for measuring exact sizes.
    pub fn encode_bits(self, game: &GameRecord) -> Result<Bits, GameEncodeError> {
        let mut out = Bits::new();
        header::write(&mut out, game)?;
        match self {
            GameCodec::Squares => moves::write_squares(&mut out, game)?,
            GameCodec::Index => moves::write_indices(&mut out, game)?,
            GameCodec::Arith => moves::write_arith(&mut out, game)?,
        }
        Ok(out)
    }

    /// The game these bytes encode, or why they are not a valid encoding.
    pub fn decode(self, bytes: &[u8]) -> Result<GameRecord, GameCodecError> {
        let mut input = BitReader::new(bytes);
        let (mut game, count) = header::read(&mut input)?;
        game.moves = match self {
            GameCodec::Squares => moves::read_squares(&mut input, &game.start, count)?,
            GameCodec::Index => moves::read_indices(&mut input, &game.start, count)?,
            GameCodec::Arith => moves::read_arith(&mut input, &game.start, count)?,
        };
        match self {
            GameCodec::Arith => check_reencodes(self, &game, bytes)?,
            _ if input.remaining() >= 8 || !input.rest_is_zero() => {
                return Err(GameCodecError::TrailingBits)
            }
            _ => {}
        }
        // The bits keep the outcome, not the rule behind it: the rules say which.
        game.finish = GameRecord::finish_for(&game.game(), game.outcome);
        Ok(game)
    }
}

/// The arithmetic decoder accepts any bits; only the encoder's own output is valid.
fn check_reencodes(
    codec: GameCodec,
    game: &GameRecord,
    bytes: &[u8],
) -> Result<(), GameCodecError> {
    let again = codec
        .encode(game)
        .map_err(|_| GameCodecError::NotCanonical)?;
    match again.len().cmp(&bytes.len()) {
        std::cmp::Ordering::Greater => Err(GameCodecError::Truncated),
        _ if again != bytes => Err(GameCodecError::NotCanonical),
        _ => Ok(()),
    }
}

impl fmt::Display for GameCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A codec name that is not one of [`GameCodec::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownGameCodec(pub String);

impl fmt::Display for UnknownGameCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = GameCodec::ALL.iter().map(|c| c.name()).collect();
        write!(
            f,
            "unknown game codec '{}' (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownGameCodec {}

impl FromStr for GameCodec {
    type Err = UnknownGameCodec;

    fn from_str(text: &str) -> Result<GameCodec, UnknownGameCodec> {
        GameCodec::ALL
            .into_iter()
            .find(|codec| codec.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownGameCodec(text.to_string()))
    }
}
