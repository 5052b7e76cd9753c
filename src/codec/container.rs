//! The packed-games file `shannon pack` writes and `shannon unpack` reads.
//!
//! # Layout
//! | field | bytes |
//! |---|---|
//! | magic | `SHGM` (4 bytes) |
//! | version | 1 byte, 1 |
//! | codec | 1 byte, [`GameCodec::id`]: 1 squares, 2 index, 3 arith |
//! | number of games | unsigned LEB128 (7 bits per byte, low group first, high bit = more follows) |
//! | each game | its length in bytes as unsigned LEB128, then the codec's bytes ([`crate::codec::game`]) |
//!
//! Nothing may follow the last game. This module checks the framing only; each game's bytes are
//! decoded (and checked) by its codec, so one bad game does not hide the others.

use super::game::GameCodec;
use std::fmt;

/// The first four bytes of a packed file.
pub const MAGIC: [u8; 4] = *b"SHGM";

/// The layout version this module writes and reads.
pub const VERSION: u8 = 1;

/// A packed file: the codec and each game's encoded bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pack {
    /// The codec every game is encoded with.
    pub codec: GameCodec,
    /// Each game's bytes, in file order.
    pub games: Vec<Vec<u8>>,
}

/// Why bytes are not a packed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContainerError {
    /// The file does not start with [`MAGIC`].
    BadMagic,
    /// A version this build does not read.
    UnsupportedVersion(u8),
    /// A codec number that is not a [`GameCodec`].
    UnknownCodec(u8),
    /// The file ends inside its header or a game.
    Truncated,
    /// A length is not a valid LEB128 number below 2^32.
    BadLength,
    /// Bytes follow the last game.
    TrailingBytes(usize),
}

impl fmt::Display for ContainerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContainerError::BadMagic => f.write_str("not a packed games file (no SHGM magic)"),
            ContainerError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "packed file version {v} is not supported (only {VERSION})"
                )
            }
            ContainerError::UnknownCodec(id) => write!(f, "unknown game codec number {id}"),
            ContainerError::Truncated => f.write_str("the packed file is truncated"),
            ContainerError::BadLength => f.write_str("a length field is malformed"),
            ContainerError::TrailingBytes(n) => {
                write!(f, "{n} bytes follow the last game")
            }
        }
    }
}

impl std::error::Error for ContainerError {}

impl Pack {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.push(VERSION);
        out.push(self.codec.id());
        push_leb128(&mut out, self.games.len() as u64);
        for game in &self.games {
            push_leb128(&mut out, game.len() as u64);
            out.extend_from_slice(game);
        }
        out
    }

    /// Reads a packed file's framing (the games' bytes are not decoded).
    pub fn parse(bytes: &[u8]) -> Result<Pack, ContainerError> {
        let rest = bytes.strip_prefix(&MAGIC).ok_or(ContainerError::BadMagic)?;
        let (&version, rest) = rest.split_first().ok_or(ContainerError::Truncated)?;
        if version != VERSION {
            return Err(ContainerError::UnsupportedVersion(version));
        }
        let (&id, mut rest) = rest.split_first().ok_or(ContainerError::Truncated)?;
        let codec = GameCodec::from_id(id).ok_or(ContainerError::UnknownCodec(id))?;
        let count = read_leb128(&mut rest)?;
        let mut games = Vec::with_capacity((count as usize).min(rest.len()));
        for _ in 0..count {
            let len = read_leb128(&mut rest)? as usize;
            if rest.len() < len {
                return Err(ContainerError::Truncated);
            }
            let (game, tail) = rest.split_at(len);
            games.push(game.to_vec());
            rest = tail;
        }
        if !rest.is_empty() {
            return Err(ContainerError::TrailingBytes(rest.len()));
        }
        Ok(Pack { codec, games })
    }
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
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_framing_errors() {
        let pack = Pack {
            codec: GameCodec::Arith,
            games: vec![vec![1, 2, 3], vec![], vec![0xff; 300]],
        };
        let bytes = pack.to_bytes();
        assert_eq!(Pack::parse(&bytes), Ok(pack));
        assert_eq!(Pack::parse(b"XXXX"), Err(ContainerError::BadMagic));
        for cut in 4..bytes.len() {
            assert_eq!(Pack::parse(&bytes[..cut]), Err(ContainerError::Truncated));
        }
        let mut extra = bytes.clone();
        extra.push(0);
        assert_eq!(Pack::parse(&extra), Err(ContainerError::TrailingBytes(1)));
        let mut bad_codec = bytes.clone();
        bad_codec[5] = 9;
        assert_eq!(
            Pack::parse(&bad_codec),
            Err(ContainerError::UnknownCodec(9))
        );
        let mut bad_version = bytes;
        bad_version[4] = 2;
        assert_eq!(
            Pack::parse(&bad_version),
            Err(ContainerError::UnsupportedVersion(2))
        );
    }
}
