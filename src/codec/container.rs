//! The packed-games file `shannon pack` writes and `shannon unpack` reads.
//!
//! # Layout (version 2)
//! | field | bytes |
//! |---|---|
//! | magic | `SHGM` (4 bytes) |
//! | version | 1 byte, 2 |
//! | codec | 1 byte, [`GameCodec::id`] |
//! | model | 1 byte, [`GameCodec::model_id`]: 0 for a codec without a move model |
//! | header check | CRC-32C of the seven bytes above, 4 bytes, least significant first |
//! | blocks | until the end of the file, each as below |
//!
//! A block holds up to [`BLOCK_GAMES`] games:
//!
//! | field | bytes |
//! |---|---|
//! | games | the number of games in the block (>= 1), unsigned LEB128 |
//! | length | the payload's length in bytes, unsigned LEB128 |
//! | payload | the games, below |
//! | check | CRC-32C of the block's bytes above (games, length and payload), 4 bytes, least significant first |
//!
//! The payload of a codec whose codes are self-delimiting ([`GameCodec::self_delimiting`]: every
//! codec but `arith` with the uniform model) is the games' codes one after another, bit after
//! bit ([`GameCodec::encode_bits`]), then zero bits to the byte: no lengths, no padding between
//! games. For `arith` with the uniform model, each game is its length in bytes as unsigned
//! LEB128, then its bytes ([`GameCodec::encode`]).
//!
//! After the last block comes the end mark, so that a file cut at a block boundary is not taken
//! for a shorter whole file: a frame of 0 games whose length field is the file's number of games,
//! with no payload, then its check. Nothing may follow it.
//!
//! LEB128: 7 bits per byte, low group first, high bit = more follows; the shortest form only,
//! below 2^32. A damaged block (its check fails, or its framing does not add up) is named by its
//! number and the number of its first game; the blocks after it are still read. CRC-32C catches
//! every error of up to three bits in a block (and any burst of up to 32 bits); the chance that
//! heavier damage goes unseen is 2^-32 per block.
//!
//! # Version 1 (read, never written)
//! `SHGM`, version 1, codec, the number of games (LEB128), then each game as its length and
//! bytes.
//! Nothing may follow the last game. It carries no check: [`Contents::checked`] is false.
//!
//! This module checks the framing and the checks only; each game's bytes are decoded (and
//! checked) by its codec, so one bad game does not hide the others.

use super::bits::{BitReader, Bits};
use super::game::{GameCodec, GameCodecError};
use crate::game::GameRecord;
use std::fmt;

/// The first four bytes of a packed file.
pub const MAGIC: [u8; 4] = *b"SHGM";

/// The layout version this module writes.
pub const VERSION: u8 = 2;

/// The older version it still reads (without checks).
pub const UNCHECKED_VERSION: u8 = 1;

/// The most games [`Pack::to_bytes`] puts in one block.
pub const BLOCK_GAMES: usize = 256;

/// The bytes of a version 2 header.
const HEADER_LEN: usize = 11;

/// The checksum of headers and blocks: CRC-32C (Castagnoli), as iSCSI and ext4 use it.
const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);

/// A packed file to write: the codec and each game's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pack {
    /// The codec every game is encoded with.
    pub codec: GameCodec,
    /// Each game's code ([`GameCodec::encode_bits`]), in file order.
    pub games: Vec<Bits>,
}

/// A packed file as read: its codec, whether it carries checks, and its blocks in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contents {
    /// The codec every game is encoded with.
    pub codec: GameCodec,
    /// False for a version 1 file, which has no checks (its games may be silently damaged).
    pub checked: bool,
    /// The blocks, each read or refused on its own (a version 1 file is one block).
    pub blocks: Vec<Result<Block, ContainerError>>,
}

/// One block's games, not yet decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The number of the block's first game in the file, from 1.
    pub first_game: usize,
    /// The games.
    pub games: Games,
}

/// A block's games as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Games {
    /// Each game's bytes (the uniform `arith` codec, and version 1).
    Framed(Vec<Vec<u8>>),
    /// This many self-delimiting codes one after another, then zero padding.
    Stream {
        /// The number of games.
        count: usize,
        /// The codes.
        payload: Vec<u8>,
    },
}

/// What is wrong inside one block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockFault {
    /// The block's bytes do not match its check: they were damaged.
    ChecksumMismatch,
    /// The file ends inside the block.
    Truncated,
    /// A length is not a valid LEB128 number below 2^32, or the game count is 0.
    BadLength,
    /// The payload does not hold exactly the games the block says.
    BadPayload,
}

/// Why bytes are not a packed file, or which part of one is damaged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContainerError {
    /// The file does not start with [`MAGIC`].
    BadMagic,
    /// A version this build does not read.
    UnsupportedVersion(u8),
    /// A codec number (and model number) that is not a [`GameCodec`].
    UnknownCodec(u8, u8),
    /// The header's check fails: its codec or model byte was damaged.
    DamagedHeader,
    /// The file ends inside its header (or, in version 1, inside a game).
    Truncated,
    /// Version 1: a length is not a valid LEB128 number below 2^32.
    BadLength,
    /// Bytes follow the last game (version 1) or the end mark (version 2).
    TrailingBytes(usize),
    /// Version 2: the file ends after a whole block but before the end mark: it was cut short.
    MissingEnd {
        /// The games read before the end.
        games: usize,
    },
    /// A game of an intact block does not decode.
    Game {
        /// The game's number in the file, from 1.
        number: usize,
        /// Why.
        error: GameCodecError,
        /// The games after it in its block, which cannot be found without it (self-delimiting
        /// codes have no lengths).
        lost: usize,
    },
    /// One block is damaged; the others are read.
    Block {
        /// The block's number, from 1.
        block: usize,
        /// The number its first game has (counting the games of the blocks before it), from 1.
        first_game: usize,
        /// What is wrong.
        fault: BlockFault,
    },
}

impl fmt::Display for BlockFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BlockFault::ChecksumMismatch => "its checksum does not match (the bytes are damaged)",
            BlockFault::Truncated => "the file ends inside it",
            BlockFault::BadLength => "a length field is malformed",
            BlockFault::BadPayload => "its games do not fill it exactly",
        })
    }
}

impl fmt::Display for ContainerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContainerError::BadMagic => f.write_str("not a packed games file (no SHGM magic)"),
            ContainerError::UnsupportedVersion(v) => write!(
                f,
                "packed file version {v} is not supported (only {UNCHECKED_VERSION} and {VERSION})"
            ),
            ContainerError::UnknownCodec(id, model) => {
                write!(f, "unknown game codec number {id} (model {model})")
            }
            ContainerError::DamagedHeader => {
                f.write_str("the packed file's header is damaged (its checksum does not match)")
            }
            ContainerError::Truncated => f.write_str("the packed file is truncated"),
            ContainerError::BadLength => f.write_str("a length field is malformed"),
            ContainerError::TrailingBytes(n) => write!(f, "{n} bytes follow the last game"),
            ContainerError::MissingEnd { games } => write!(
                f,
                "the packed file ends after game {games} without its end mark: it was cut short \
                 (the games after it are lost)"
            ),
            ContainerError::Game {
                number,
                error,
                lost: 0,
            } => write!(f, "game {number}: {error}"),
            ContainerError::Game {
                number,
                error,
                lost,
            } => write!(
                f,
                "game {number}: {error} (the {lost} games after it in its block are lost with it)"
            ),
            ContainerError::Block {
                block,
                first_game,
                fault,
            } => write!(
                f,
                "block {block} (from game {first_game}) is damaged and skipped: {fault}"
            ),
        }
    }
}

impl std::error::Error for ContainerError {}

impl Pack {
    /// The file's bytes (the current version), [`BLOCK_GAMES`] games a block.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_in_blocks(BLOCK_GAMES)
    }

    /// The file's bytes with at most `games_per_block` (>= 1) games a block.
    pub fn to_bytes_in_blocks(&self, games_per_block: usize) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend([VERSION, self.codec.id(), self.codec.model_id()]);
        out.extend(CRC.checksum(&out).to_le_bytes());
        for block in self.games.chunks(games_per_block.max(1)) {
            let start = out.len();
            let payload = match self.codec.self_delimiting() {
                true => block.iter().fold(Bits::new(), |mut all, game| {
                    all.extend(game);
                    all
                }),
                false => block.iter().fold(Bits::new(), |mut all, game| {
                    let mut len = Vec::new();
                    push_leb128(&mut len, game.len().div_ceil(8) as u64);
                    len.iter().for_each(|&b| all.push_bits(u64::from(b), 8));
                    all.extend(game);
                    all.push_bits(0, ((8 - game.len() % 8) % 8) as u32);
                    all
                }),
            }
            .into_bytes();
            push_leb128(&mut out, block.len() as u64);
            push_leb128(&mut out, payload.len() as u64);
            out.extend(payload);
            let check = CRC.checksum(&out[start..]);
            out.extend(check.to_le_bytes());
        }
        let start = out.len();
        out.push(0);
        push_leb128(&mut out, self.games.len() as u64);
        let check = CRC.checksum(&out[start..]);
        out.extend(check.to_le_bytes());
        out
    }

    /// Reads a packed file's header and framing (the games' bytes are not decoded): an error
    /// when the header is unreadable, else each block read or refused on its own.
    pub fn read(bytes: &[u8]) -> Result<Contents, ContainerError> {
        let rest = bytes.strip_prefix(&MAGIC).ok_or(ContainerError::BadMagic)?;
        match rest.first() {
            None => Err(ContainerError::Truncated),
            Some(&UNCHECKED_VERSION) => read_unchecked(&rest[1..]),
            Some(&VERSION) => read_checked(bytes),
            Some(&other) => Err(ContainerError::UnsupportedVersion(other)),
        }
    }
}

impl Contents {
    /// Every game of the file in order, decoded, or what is wrong with it (a damaged block is
    /// one error for all its games).
    pub fn games(&self) -> Vec<Result<GameRecord, ContainerError>> {
        let mut out = Vec::new();
        for block in &self.blocks {
            match block {
                Ok(block) => out.extend(block.decode(self.codec)),
                Err(e) => out.push(Err(e.clone())),
            }
        }
        out
    }
}

impl Games {
    /// The number of games.
    pub fn len(&self) -> usize {
        match self {
            Games::Framed(games) => games.len(),
            Games::Stream { count, .. } => *count,
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Block {
    /// The block's games decoded with `codec`, each numbered in the file when it fails.
    pub fn decode(&self, codec: GameCodec) -> Vec<Result<GameRecord, ContainerError>> {
        let fault = |index: usize, error, lost| ContainerError::Game {
            number: self.first_game + index,
            error,
            lost,
        };
        let (count, payload) = match &self.games {
            Games::Framed(games) => {
                return (games.iter().enumerate())
                    .map(|(i, bytes)| codec.decode(bytes).map_err(|e| fault(i, e, 0)))
                    .collect()
            }
            Games::Stream { count, payload } => (*count, payload),
        };
        let mut input = BitReader::new(payload);
        let mut out = Vec::with_capacity(count);
        for index in 0..count {
            match codec.decode_next(&mut input) {
                Ok(game) => out.push(Ok(game)),
                Err(e) => {
                    out.push(Err(fault(index, e, count - index - 1)));
                    return out;
                }
            }
        }
        if input.remaining() >= 8 || !input.rest_is_zero() {
            let last = count.saturating_sub(1);
            out.truncate(last);
            out.push(Err(fault(last, GameCodecError::TrailingBits, 0)));
        }
        out
    }
}

/// Version 2, from the magic on.
fn read_checked(bytes: &[u8]) -> Result<Contents, ContainerError> {
    let header = bytes.get(..HEADER_LEN).ok_or(ContainerError::Truncated)?;
    if CRC.checksum(&header[..7]).to_le_bytes() != header[7..] {
        return Err(ContainerError::DamagedHeader);
    }
    let codec = GameCodec::from_ids(header[5], header[6])
        .ok_or(ContainerError::UnknownCodec(header[5], header[6]))?;
    let mut rest = &bytes[HEADER_LEN..];
    let mut blocks = Vec::new();
    let mut first_game = 1;
    let mut ended = false;
    while !rest.is_empty() && !ended {
        let number = blocks.len() + 1;
        let error = |fault| ContainerError::Block {
            block: number,
            first_game,
            fault,
        };
        match read_block(&mut rest, codec.self_delimiting()) {
            Ok(Frame::Games(games)) => {
                let count = games.len();
                blocks.push(Ok(Block { first_game, games }));
                first_game += count;
            }
            Ok(Frame::End(total)) => {
                ended = true;
                let intact = blocks.iter().all(Result::is_ok);
                if intact && total != first_game - 1 {
                    blocks.push(Err(error(BlockFault::BadPayload)));
                }
            }
            Err((fault, claimed)) => {
                blocks.push(Err(error(fault)));
                first_game += claimed;
            }
        }
    }
    match (ended, blocks.last()) {
        (true, _) if !rest.is_empty() => {
            blocks.push(Err(ContainerError::TrailingBytes(rest.len())))
        }
        (false, None | Some(Ok(_))) => blocks.push(Err(ContainerError::MissingEnd {
            games: first_game - 1,
        })),
        _ => {}
    }
    Ok(Contents {
        codec,
        checked: true,
        blocks,
    })
}

/// What a block's frame holds.
enum Frame {
    /// A block's games.
    Games(Games),
    /// The end mark, with the file's number of games.
    End(usize),
}

/// One block (or the end mark) from the front of `rest`, which moves past it (to the end when
/// the frame cannot be read, as the next block cannot be found then): its games, or what is
/// wrong and how many games its frame claims (0 when unknown).
fn read_block(rest: &mut &[u8], stream: bool) -> Result<Frame, (BlockFault, usize)> {
    let start = *rest;
    let frame =
        |rest: &mut &[u8]| Ok::<_, ContainerError>((read_leb128(rest)?, read_leb128(rest)?));
    let (count, len) = match frame(rest) {
        Ok((count, len)) => (count as usize, len as usize),
        Err(e) => {
            *rest = &[];
            let fault = match e {
                ContainerError::Truncated => BlockFault::Truncated,
                _ => BlockFault::BadLength,
            };
            return Err((fault, 0));
        }
    };
    // The end mark has no payload: its length field is the number of games.
    let payload_len = if count == 0 { 0 } else { len };
    let framed = start.len() - rest.len();
    if rest.len() < payload_len + 4 {
        *rest = &[];
        return Err((BlockFault::Truncated, count));
    }
    let (mut payload, tail) = rest.split_at(payload_len);
    let (check, tail) = tail.split_at(4);
    *rest = tail;
    if CRC.checksum(&start[..framed + payload_len]).to_le_bytes() != check {
        // A count damaged to 0 looks like the end mark: what follows cannot be trusted.
        if count == 0 {
            *rest = &[];
        }
        return Err((BlockFault::ChecksumMismatch, count));
    }
    if count == 0 {
        return Ok(Frame::End(len));
    }
    if stream {
        return Ok(Frame::Games(Games::Stream {
            count,
            payload: payload.to_vec(),
        }));
    }
    match read_games(&mut payload, count as u64) {
        Ok(games) if payload.is_empty() => Ok(Frame::Games(Games::Framed(games))),
        _ => Err((BlockFault::BadPayload, count)),
    }
}

/// Version 1, after the version byte.
fn read_unchecked(rest: &[u8]) -> Result<Contents, ContainerError> {
    let (&id, mut rest) = rest.split_first().ok_or(ContainerError::Truncated)?;
    let codec = GameCodec::from_ids(id, 0).ok_or(ContainerError::UnknownCodec(id, 0))?;
    let count = read_leb128(&mut rest)?;
    let games = read_games(&mut rest, count)?;
    if !rest.is_empty() {
        return Err(ContainerError::TrailingBytes(rest.len()));
    }
    Ok(Contents {
        codec,
        checked: false,
        blocks: vec![Ok(Block {
            first_game: 1,
            games: Games::Framed(games),
        })],
    })
}

/// `count` games, each its LEB128 length then its bytes.
fn read_games(rest: &mut &[u8], count: u64) -> Result<Vec<Vec<u8>>, ContainerError> {
    let mut games = Vec::with_capacity((count as usize).min(rest.len()));
    for _ in 0..count {
        let len = read_leb128(rest)? as usize;
        if rest.len() < len {
            return Err(ContainerError::Truncated);
        }
        let (game, tail) = rest.split_at(len);
        games.push(game.to_vec());
        *rest = tail;
    }
    Ok(games)
}

fn push_leb128(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let low = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

/// An unsigned LEB128 number below 2^32, in its shortest form.
fn read_leb128(input: &mut &[u8]) -> Result<u64, ContainerError> {
    let mut value = 0u64;
    for shift in (0..35).step_by(7) {
        let (&byte, rest) = input.split_first().ok_or(ContainerError::Truncated)?;
        *input = rest;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            let shortest = byte != 0 || shift == 0;
            return match value < 1 << 32 && shortest {
                true => Ok(value),
                false => Err(ContainerError::BadLength),
            };
        }
    }
    Err(ContainerError::BadLength)
}

#[cfg(test)]
mod tests;
