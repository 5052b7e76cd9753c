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
pub mod model;
mod moves;

use super::arith;
use super::bits::{BitReader, Bits};
use crate::game::GameRecord;
pub use error::{GameCodecError, GameEncodeError};
use model::coder::{self, CodeError};
use model::MoveModel;
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
    /// The moves arithmetic-coded under a move model: the uniform one (about log2 n bits per
    /// move) or a fitted one ([`model`]).
    Arith(MoveModel),
}

impl GameCodec {
    /// Every game codec (with each move model), in the order reports list them.
    pub const ALL: [GameCodec; 9] = [
        GameCodec::Squares,
        GameCodec::Index,
        GameCodec::Arith(MoveModel::Uniform),
        GameCodec::Arith(MoveModel::M1),
        GameCodec::Arith(MoveModel::M2),
        GameCodec::Arith(MoveModel::M3),
        GameCodec::Arith(MoveModel::M4),
        GameCodec::Arith(MoveModel::M5),
        GameCodec::Arith(MoveModel::M6),
    ];

    /// The codec's name on the command line: `arith` is the uniform model, `arith-m2` model m2.
    pub fn name(self) -> &'static str {
        match self {
            GameCodec::Squares => "squares",
            GameCodec::Index => "index",
            GameCodec::Arith(MoveModel::Uniform) => "arith",
            GameCodec::Arith(MoveModel::M1) => "arith-m1",
            GameCodec::Arith(MoveModel::M2) => "arith-m2",
            GameCodec::Arith(MoveModel::M3) => "arith-m3",
            GameCodec::Arith(MoveModel::M4) => "arith-m4",
            GameCodec::Arith(MoveModel::M5) => "arith-m5",
            GameCodec::Arith(MoveModel::M6) => "arith-m6",
        }
    }

    /// The codec's number in a packed file's header.
    pub fn id(self) -> u8 {
        match self {
            GameCodec::Squares => 1,
            GameCodec::Index => 2,
            GameCodec::Arith(_) => 3,
        }
    }

    /// The number of the codec's move model in a packed file's header: 0 for none (or the
    /// uniform one).
    pub fn model_id(self) -> u8 {
        match self {
            GameCodec::Arith(model) => model.id(),
            _ => 0,
        }
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
        if let Some(model) = self.fitted_model() {
            header::write_start_and_flag(&mut out, game)?;
            let mut encoder = arith::Encoder::new(&mut out);
            let coded = model::with_predictor!(model, p => {
                coder::encode(p, game, &mut encoder, header::MAX_PLIES)
            });
            coded.map_err(|e| match e {
                CodeError::IllegalMove(ply) => GameEncodeError::IllegalMove { ply },
                CodeError::TooLong => GameEncodeError::TooManyMoves(game.moves.len()),
            })?;
            encoder.finish_prefix_free();
            return Ok(out);
        }
        header::write(&mut out, game)?;
        match self {
            GameCodec::Squares => moves::write_squares(&mut out, game)?,
            GameCodec::Index => moves::write_indices(&mut out, game)?,
            GameCodec::Arith(_) => moves::write_arith(&mut out, game)?,
        }
        Ok(out)
    }

    /// The fitted move model of the codec, if it has one.
    fn fitted_model(self) -> Option<model::Fitted> {
        match self {
            GameCodec::Arith(model) => model.fitted(),
            _ => None,
        }
    }

    /// True when a code ends where its own bits say, so codes can follow one another with no
    /// lengths ([`GameCodec::decode_next`]): every codec but `arith` with the uniform model,
    /// whose tail is read as followed by zeros.
    pub fn self_delimiting(self) -> bool {
        self != GameCodec::Arith(MoveModel::Uniform)
    }

    /// The game these bytes encode, or why they are not a valid encoding.
    pub fn decode(self, bytes: &[u8]) -> Result<GameRecord, GameCodecError> {
        let mut input = BitReader::new(bytes);
        let game = self.decode_next(&mut input)?;
        if input.remaining() >= 8 || !input.rest_is_zero() {
            return Err(GameCodecError::TrailingBits);
        }
        Ok(game)
    }

    /// The game whose code starts at `input`'s position, leaving `input` after its last bit;
    /// for a codec that is not [`GameCodec::self_delimiting`], the code must be followed by
    /// zero bits only.
    pub fn decode_next(self, input: &mut BitReader) -> Result<GameRecord, GameCodecError> {
        let mut game = self.decode_from(input)?;
        // The bits keep the outcome, not the rule behind it: the rules say which.
        game.finish = GameRecord::finish_for(&game.game(), game.outcome);
        Ok(game)
    }

    /// Decodes one game from `input`, leaving it after the game's last bit (the padding is not
    /// read). The arithmetic decoder accepts any bits, and reads ahead: only the encoder's own
    /// output is valid, so its symbols are encoded again as they are decoded and compared with
    /// the input.
    fn decode_from(self, input: &mut BitReader) -> Result<GameRecord, GameCodecError> {
        let start = input.clone();
        if let Some(model) = self.fitted_model() {
            let mut game = header::read_start_and_flag(input)?;
            let mut again = start.clone().take(input.position() - start.position());
            let mut encoder = arith::Encoder::new(&mut again);
            let mut decoder = arith::Decoder::new(input);
            let decoded = model::with_predictor!(model, p => {
                coder::decode(p, &game.start, &mut decoder, &mut encoder, header::MAX_PLIES)
            });
            let (moves, outcome) = decoded.ok_or(GameCodecError::MoveCountTooLarge)?;
            encoder.finish_prefix_free();
            (game.moves, game.outcome) = (moves, outcome);
            return read_again(start, &again, input).map(|()| game);
        }
        let (mut game, count) = header::read(input)?;
        game.moves = match self {
            GameCodec::Squares => moves::read_squares(input, &game.start, count)?,
            GameCodec::Index => moves::read_indices(input, &game.start, count)?,
            GameCodec::Arith(_) => {
                let mut again = start.clone().take(input.position() - start.position());
                let moves = moves::read_arith(input, &game.start, count, &mut again)?;
                read_again(start, &again, input)?;
                moves
            }
        };
        Ok(game)
    }
}

/// Checks that the input from `start` holds exactly the bits `again` (the encoder's output for
/// what was decoded) and leaves `input` after them; with the uniform `arith` codec's tail, the
/// bits after the code must be zeros up to the byte (they are read as zeros).
fn read_again<'a>(
    mut start: BitReader<'a>,
    again: &Bits,
    input: &mut BitReader<'a>,
) -> Result<(), GameCodecError> {
    if start.remaining() < again.len() {
        return Err(GameCodecError::Truncated);
    }
    let code = start.take(again.len());
    if code != *again {
        return Err(GameCodecError::NotCanonical);
    }
    *input = start;
    Ok(())
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
