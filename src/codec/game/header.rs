//! The header every game codec shares: start position, Chess960 flag, outcome, move count.

use super::error::{GameCodecError, GameEncodeError};
use crate::chess960::{scharnagl_back_rank, scharnagl_number, start_back_rank_of, start_position};
use crate::codec::bits::{BitReader, Bits};
use crate::game::{GameRecord, Outcome};
use crate::{CastlingMode, Position};
use std::sync::OnceLock;

/// The widest move-count code accepted (Elias gamma of count + 1): up to 32,766 plies. No game
/// can be longer than about 17,700 plies under the 75-move and fivefold-repetition rules, and a
/// tighter bound keeps decoding cheap: positions with one legal move cost no input bits, so a
/// few bytes could otherwise ask for millions of plies (found by the `decoders` fuzz target).
const MAX_COUNT_WIDTH: u32 = 15;

/// The most plies a game may have: what the move count's code holds.
pub(super) const MAX_PLIES: usize = (1 << MAX_COUNT_WIDTH) - 2;

/// The 2-bit code of an outcome: its index in [`Outcome::ALL`].
fn outcome_code(outcome: Outcome) -> u64 {
    Outcome::ALL.iter().position(|&o| o == outcome).unwrap_or(3) as u64
}

/// Writes the header's first fields, start and Chess960 flag: all a fitted move model's codec
/// writes (it codes the result and the end of the moves with the moves).
pub(super) fn write_start_and_flag(
    out: &mut Bits,
    game: &GameRecord,
) -> Result<(), GameEncodeError> {
    write_start(out, &game.start)?;
    out.push_bit(game.castling.is_chess960());
    Ok(())
}

/// Writes the header of `game`.
pub(super) fn write(out: &mut Bits, game: &GameRecord) -> Result<(), GameEncodeError> {
    write_start_and_flag(out, game)?;
    out.push_bits(outcome_code(game.outcome), 2);
    let count = game.moves.len() as u64 + 1;
    if 64 - count.leading_zeros() > MAX_COUNT_WIDTH {
        return Err(GameEncodeError::TooManyMoves(game.moves.len()));
    }
    out.push_gamma(count);
    Ok(())
}

/// The standard start position, parsed once.
pub(super) fn standard_start() -> &'static Position {
    static START: OnceLock<Position> = OnceLock::new();
    START.get_or_init(Position::startpos)
}

fn write_start(out: &mut Bits, start: &Position) -> Result<(), GameEncodeError> {
    if start == standard_start() {
        out.push_bit(true);
        return Ok(());
    }
    out.push_bit(false);
    if let Some(number) = chess960_start_number(start) {
        out.push_bit(true);
        out.push_bits(u64::from(number), 10);
        return Ok(());
    }
    out.push_bit(false);
    let fen = start.shredder_fen();
    if fen.len() > 255 {
        return Err(GameEncodeError::FenTooLong(fen.len()));
    }
    out.push_bits(fen.len() as u64, 8);
    for byte in fen.bytes() {
        out.push_bits(u64::from(byte), 8);
    }
    Ok(())
}

/// The Scharnagl number of `pos` if it is exactly that Chess960 start position (counters `0 1`).
fn chess960_start_number(pos: &Position) -> Option<u32> {
    let rank = start_back_rank_of(pos)?;
    (start_position(&rank) == *pos)
        .then(|| scharnagl_number(&rank))
        .flatten()
}

/// Reads the fields [`write_start_and_flag`] writes: the game without moves or outcome.
pub(super) fn read_start_and_flag(input: &mut BitReader) -> Result<GameRecord, GameCodecError> {
    let start = read_start(input)?;
    let castling = CastlingMode::from_chess960(input.read_bit()?);
    Ok(GameRecord::new(start, castling))
}

/// Reads a header: the game without its moves, and the number of moves that follow.
pub(super) fn read(input: &mut BitReader) -> Result<(GameRecord, usize), GameCodecError> {
    let mut game = read_start_and_flag(input)?;
    let outcome = Outcome::ALL[input.read_bits(2)? as usize];
    let count = input
        .read_gamma(MAX_COUNT_WIDTH)?
        .ok_or(GameCodecError::MoveCountTooLarge)?;
    game.outcome = outcome;
    Ok((game, count as usize - 1))
}

fn read_start(input: &mut BitReader) -> Result<Position, GameCodecError> {
    if input.read_bit()? {
        return Ok(standard_start().clone());
    }
    if input.read_bit()? {
        let number = input.read_bits(10)? as u32;
        let rank =
            scharnagl_back_rank(number).map_err(|_| GameCodecError::BadChess960Number(number))?;
        return canonical(start_position(&rank), 2);
    }
    let pos = read_fen(input)?;
    canonical(pos, 3)
}

/// Rejects a start the encoder writes in a shorter form (`form`: 2 Chess960 number, 3 FEN), so
/// every game has exactly one encoding.
fn canonical(pos: Position, form: u8) -> Result<Position, GameCodecError> {
    let shorter = pos == *standard_start() || (form == 3 && chess960_start_number(&pos).is_some());
    match shorter {
        true => Err(GameCodecError::NonCanonicalStart(pos.shredder_fen())),
        false => Ok(pos),
    }
}

fn read_fen(input: &mut BitReader) -> Result<Position, GameCodecError> {
    let len = input.read_bits(8)? as usize;
    if len == 0 {
        return Err(GameCodecError::EmptyFen);
    }
    if input.remaining() < len * 8 {
        return Err(GameCodecError::Truncated);
    }
    let bytes: Vec<u8> = (0..len)
        .map(|_| input.read_bits(8).map(|b| b as u8))
        .collect::<Result<_, _>>()?;
    let text = String::from_utf8(bytes).map_err(|_| GameCodecError::FenNotText)?;
    let pos = Position::from_fen(&text).map_err(GameCodecError::BadFen)?;
    if pos.shredder_fen() != text {
        return Err(GameCodecError::NonCanonicalStart(text));
    }
    Ok(pos)
}
