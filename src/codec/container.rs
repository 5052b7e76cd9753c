//! The packed-games file `shannon pack` writes and `shannon unpack` reads.
//!
//! # Layout (version 4)
//! | field | bytes |
//! |---|---|
//! | magic | `SHGM` (4 bytes) |
//! | version | 1 byte, 4 |
//! | codec | 1 byte, [`GameCodec::id`] |
//! | model | 1 byte, [`GameCodec::model_id`]: 0 for a codec without a move model |
//! | keeps | 1 byte, [`Keeps`]: 0 the games' codes alone, 1 their tags and comments too |
//! | file id | 8 bytes, least significant first: the file's [`FileId`] |
//! | header check | CRC-32C of the 16 bytes above, 4 bytes, least significant first |
//! | blocks | each as below, then the end mark |
//!
//! A block holds up to [`BLOCK_GAMES`] games:
//!
//! | field | bytes |
//! |---|---|
//! | file id | 8 bytes, the header's |
//! | block number | from 1, unsigned LEB128 |
//! | games before | the number of games in the blocks before it, unsigned LEB128 |
//! | games | the number of games in the block (>= 1), unsigned LEB128 |
//! | length | the payload's length in bytes, unsigned LEB128 |
//! | payload | the games, below |
//! | text length | only when the file keeps text: the text's length in bytes, unsigned LEB128 |
//! | text | only when the file keeps text: the games' tags and comments (layout in `text.rs`) |
//! | check | CRC-32C of the block's bytes above (file id to text), 4 bytes, least significant first |
//!
//! The payload of a codec whose codes are self-delimiting ([`GameCodec::self_delimiting`]: every
//! codec but `arith` with the uniform model) is the games' codes one after another, bit after
//! bit ([`GameCodec::encode_bits`]), then zero bits to the byte: no lengths, no padding between
//! games. For `arith` with the uniform model, each game is its length in bytes as unsigned
//! LEB128, then its bytes ([`GameCodec::encode`]).
//!
//! After the last block comes the end mark, so that a file cut at a block boundary is not taken
//! for a shorter whole file: a frame like a block's with the number after the last block's, the
//! file's number of games as its games before, and 0 games; it has no length and no payload, only
//! its check. Nothing may follow it.
//!
//! LEB128: 7 bits per byte, low group first, high bit = more follows; the shortest form only,
//! below 2^32. CRC-32C catches every error of up to three bits in a block (and any burst of up to
//! 32 bits); the chance that heavier damage goes unseen is 2^-32 per block.
//!
//! # What is checked
//! A block whose check holds is intact; it then says which file it was written for and where in
//! it. The two cases are told apart:
//! - Damage (a block whose check fails, or whose framing does not add up, or bytes that are no
//!   block at all): the damaged stretch is named by its block number and first game, and
//!   skipped; the reader looks for the next intact block by the file id and reads on from it, so
//!   a damaged length loses only its block. The games lost are counted from the next intact
//!   block's games before.
//! - Blocks that do not belong where they are (an intact block with another file's id, or with
//!   this file's id but another place: blocks swapped, repeated or dropped, an end mark too
//!   early, a header from another file, bytes after the end mark): the file was put together
//!   wrongly, and which games it should hold is not known. [`Pack::read`] refuses it whole, and
//!   no game is decoded.
//!
//! A splice cannot fake what the header says: the codec and model are bound to the file id by
//! the header's check, the blocks to the file id by theirs; the end mark's number and games
//! before give the block and game counts, so a file cut at a block boundary, or given another
//! file's end mark, is seen.
//!
//! # Version 3 (read, never written)
//! As version 4 without the keeps byte (its header check covers 15 bytes): the games' codes
//! alone, so its games come back with no tags but those made from the game, and no comments.
//!
//! # Version 2 (read, never written)
//! The header without the file id (its check covers the 7 bytes before it), blocks without the
//! file id, block number and games before, and an end mark of 0 games whose length field is the
//! file's number of games. Its blocks do not say where they belong, so blocks swapped, repeated
//! or taken from another file of the same codec cannot be seen: [`Contents::version`] tells.
//!
//! # Version 1 (read, never written)
//! `SHGM`, version 1, codec, the number of games (LEB128), then each game as its length and
//! bytes. Nothing may follow the last game. It carries no check.
//!
//! This module checks the framing and the checks only; each game's bytes are decoded (and
//! checked) by its codec, so one bad game does not hide the others.

mod error;
mod legacy;
mod reader;
mod text;

pub use error::{BlockFault, ContainerError, Frame, Lost};
pub use text::GameText;

use super::bits::{BitReader, Bits};
use super::game::{GameCodec, GameCodecError};
use crate::game::GameRecord;
use crate::notation::pgn::PgnGame;
use std::fmt;

/// The first four bytes of a packed file.
pub const MAGIC: [u8; 4] = *b"SHGM";

/// The layout version this module writes.
pub const VERSION: u8 = 4;

/// The version before the keeps byte: bound blocks, the games' codes alone (still read).
pub const CODES_ONLY_VERSION: u8 = 3;

/// The older version whose blocks are checked but do not say where they belong (read with
/// checks on each block, but none on their order or origin).
pub const UNBOUND_VERSION: u8 = 2;

/// The oldest version it still reads (without checks).
pub const UNCHECKED_VERSION: u8 = 1;

/// The most games [`Pack::to_bytes`] puts in one block.
pub const BLOCK_GAMES: usize = 256;

/// The bytes of a header of the version written: magic, version, codec, model, keeps, file id
/// and check (a version 3 header has no keeps byte: [`header_len`]).
const HEADER_LEN: usize = 20;

/// The bytes of a header of `version` (4 or 3).
fn header_len(version: u8) -> usize {
    match version {
        VERSION => HEADER_LEN,
        _ => HEADER_LEN - 1,
    }
}

/// What a packed file keeps of each game beside its code (which holds the start position, Chess960
/// or not, the moves and the result), saved as its keeps byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keeps {
    /// The codes alone (`shannon pack --moves-only`, and every file before version 4): a game
    /// comes back with the Seven Tag Roster of `?`, and no comments.
    Moves,
    /// The tags (but `Result`, `SetUp` and `FEN`, made from the game) and the main line's
    /// comments too: a round trip of a PGN loses only its variations and NAGs.
    Text,
}

impl Keeps {
    /// The keeps byte.
    pub fn byte(self) -> u8 {
        match self {
            Keeps::Moves => 0,
            Keeps::Text => 1,
        }
    }

    /// The value of a keeps byte, if it is one.
    pub fn from_byte(byte: u8) -> Option<Keeps> {
        match byte {
            0 => Some(Keeps::Moves),
            1 => Some(Keeps::Text),
            _ => None,
        }
    }
}

/// The checksum of headers and blocks: CRC-32C (Castagnoli), as iSCSI and ext4 use it.
const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);

/// The digest of a file's contents that makes its [`FileId`].
const CONTENT_DIGEST: crc::Crc<u64> = crc::Crc::<u64>::new(&crc::CRC_64_XZ);

/// A packed file to write: the codec, each game's code and, when the file keeps them, each
/// game's tags and comments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pack {
    /// The codec every game is encoded with.
    pub codec: GameCodec,
    /// Each game's code ([`GameCodec::encode_bits`]), in file order.
    pub games: Vec<Bits>,
    /// Each game's text, as many as `games`, when the file keeps text ([`Keeps::Text`]); `None`
    /// for the codes alone.
    pub texts: Option<Vec<GameText>>,
}

/// Which file a version 3 block was written for: a CRC-64 (the XZ one) of the codec and model
/// numbers and of every block's games, length and payload. Files of different contents get
/// different ids (but with a chance of 2^-64); the same games packed the same way get the same
/// bytes, id included, so their blocks are interchangeable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileId(pub u64);

/// A packed file as read: its codec, its version (what could be checked), and its blocks in
/// order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contents {
    /// The codec every game is encoded with.
    pub codec: GameCodec,
    /// The file's layout version: [`VERSION`] and [`CODES_ONLY_VERSION`] are checked for damage
    /// and for each block's place and file; [`UNBOUND_VERSION`] for damage only;
    /// [`UNCHECKED_VERSION`] not at all (its games may be silently damaged).
    pub version: u8,
    /// What it keeps beside the games' codes (every file before version 4: the codes alone).
    pub keeps: Keeps,
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
    /// The games' texts, one a game, when the file keeps them.
    pub texts: Option<Vec<GameText>>,
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

impl fmt::Display for FileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl Pack {
    /// The file's bytes (the current version), [`BLOCK_GAMES`] games a block.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_in_blocks(BLOCK_GAMES)
    }

    /// What the file keeps beside the codes.
    pub fn keeps(&self) -> Keeps {
        match self.texts {
            Some(_) => Keeps::Text,
            None => Keeps::Moves,
        }
    }

    /// The file's bytes with at most `games_per_block` (>= 1) games a block.
    ///
    /// # Panics
    /// When `texts` holds another number of games than `games`.
    pub fn to_bytes_in_blocks(&self, games_per_block: usize) -> Vec<u8> {
        let per_block = games_per_block.max(1);
        if let Some(texts) = &self.texts {
            assert_eq!(texts.len(), self.games.len(), "a text for every game");
        }
        let texts = self.texts.as_ref().map(|texts| texts.chunks(per_block));
        let mut texts = texts.into_iter().flatten();
        // Each block: its games, payload and text (empty when the file keeps none), and the
        // framing of its payload and text.
        let blocks: Vec<(usize, Vec<u8>, Vec<u8>)> = (self.games.chunks(per_block))
            .map(|block| {
                let text = texts.next().map(text::encode_texts);
                let mut framed = Vec::new();
                push_leb128(&mut framed, block.len() as u64);
                let payload = self.payload(block);
                push_leb128(&mut framed, payload.len() as u64);
                framed.extend(&payload);
                if let Some(text) = text {
                    push_leb128(&mut framed, text.len() as u64);
                    framed.extend(text);
                }
                (block.len(), framed, payload)
            })
            .collect();
        let keeps = self.keeps().byte();
        let mut digest = CONTENT_DIGEST.digest();
        digest.update(&[self.codec.id(), self.codec.model_id(), keeps]);
        for (_, framed, _) in &blocks {
            digest.update(framed);
        }
        let file = digest.finalize().to_le_bytes();
        let size: usize = blocks.iter().map(|(_, framed, _)| framed.len() + 24).sum();
        let mut out = Vec::with_capacity(HEADER_LEN + size + 32);
        out.extend(MAGIC);
        out.extend([VERSION, self.codec.id(), self.codec.model_id(), keeps]);
        out.extend(file);
        out.extend(CRC.checksum(&out).to_le_bytes());
        let mut before = 0;
        for (index, (count, framed, _)) in blocks.iter().enumerate() {
            let start = out.len();
            out.extend(file);
            push_leb128(&mut out, index as u64 + 1);
            push_leb128(&mut out, before as u64);
            out.extend(framed);
            let check = CRC.checksum(&out[start..]);
            out.extend(check.to_le_bytes());
            before += count;
        }
        let start = out.len();
        out.extend(file);
        push_leb128(&mut out, blocks.len() as u64 + 1);
        push_leb128(&mut out, before as u64);
        out.push(0);
        let check = CRC.checksum(&out[start..]);
        out.extend(check.to_le_bytes());
        out
    }

    /// One block's payload: the codes one after another, or each with its length in bytes.
    fn payload(&self, block: &[Bits]) -> Vec<u8> {
        match self.codec.self_delimiting() {
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
        .into_bytes()
    }

    /// Reads a packed file's header and framing (the games' bytes are not decoded): an error
    /// when the header is unreadable or (version 3) when the blocks do not belong together as
    /// they are, else each block read or refused on its own.
    pub fn read(bytes: &[u8]) -> Result<Contents, ContainerError> {
        let rest = bytes.strip_prefix(&MAGIC).ok_or(ContainerError::BadMagic)?;
        // A version 4 (or 3) header whose version byte was damaged (to 1 or 2, one bit away,
        // to the other one, or to an unknown one) still passes its check with its own version.
        if let Some(&version) = rest.first() {
            if reader::header_holds_as_other_version(bytes, version) {
                return Err(ContainerError::DamagedHeader);
            }
        }
        match rest.first() {
            None => Err(ContainerError::Truncated),
            Some(&UNCHECKED_VERSION) => legacy::read_v1(&rest[1..]),
            Some(&UNBOUND_VERSION) => legacy::read_v2(bytes),
            Some(&CODES_ONLY_VERSION) => reader::read_bound(bytes, CODES_ONLY_VERSION),
            Some(&VERSION) => reader::read_bound(bytes, VERSION),
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

    /// Every game of the file in order as a PGN game: decoded, with its tags and comments when
    /// the file keeps them (else none), or what is wrong with it.
    pub fn pgn_games(&self) -> Vec<Result<PgnGame, ContainerError>> {
        let mut out = Vec::new();
        for block in &self.blocks {
            match block {
                Ok(block) => out.extend(block.decode_pgn(self.codec)),
                Err(e) => out.push(Err(e.clone())),
            }
        }
        out
    }
}

impl Games {
    /// A block's payload as `count` games: self-delimiting codes kept as they are (`stream`), or
    /// each game's length and bytes, which must fill the payload exactly (else `None`).
    fn from_payload(mut payload: &[u8], count: usize, stream: bool) -> Option<Games> {
        if stream {
            return Some(Games::Stream {
                count,
                payload: payload.to_vec(),
            });
        }
        match read_games(&mut payload, count as u64) {
            Ok(games) if payload.is_empty() => Some(Games::Framed(games)),
            _ => None,
        }
    }

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
    /// The block's games decoded with `codec` as PGN games with their texts, each numbered in
    /// the file when it fails (a comment after a ply the game does not have is a fault of its
    /// own, [`ContainerError::CommentPastEnd`]).
    pub fn decode_pgn(&self, codec: GameCodec) -> Vec<Result<PgnGame, ContainerError>> {
        let records = self.decode(codec);
        let mut texts = self.texts.clone().map(Vec::into_iter);
        (records.into_iter().enumerate())
            .map(|(index, record)| {
                let record = record?;
                let mut game = PgnGame::new(record);
                if let Some(text) = texts.as_mut().and_then(Iterator::next) {
                    let plies = game.record.moves.len();
                    if text.last_ply() > plies {
                        return Err(ContainerError::CommentPastEnd {
                            number: self.first_game + index,
                            ply: text.last_ply(),
                            plies,
                        });
                    }
                    (game.tags, game.comments) = text.into_parts();
                }
                Ok(game)
            })
            .collect()
    }

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
