//! The versions before 3, still read: version 2 (checked blocks that do not say where they
//! belong) and version 1 (no checks). The layouts are in the module above.

use super::{
    read_games, read_leb128, Block, BlockFault, ContainerError, Contents, Games, Keeps, Lost, CRC,
    UNBOUND_VERSION, UNCHECKED_VERSION,
};
use crate::codec::game::GameCodec;

/// The bytes of a version 2 header.
pub(super) const V2_HEADER_LEN: usize = 11;

/// Version 2, from the magic on.
pub(super) fn read_v2(bytes: &[u8]) -> Result<Contents, ContainerError> {
    let header = bytes
        .get(..V2_HEADER_LEN)
        .ok_or(ContainerError::Truncated)?;
    if CRC.checksum(&header[..7]).to_le_bytes() != header[7..] {
        return Err(ContainerError::DamagedHeader);
    }
    let codec = GameCodec::from_ids(header[5], header[6])
        .ok_or(ContainerError::UnknownCodec(header[5], header[6]))?;
    let mut rest = &bytes[V2_HEADER_LEN..];
    let mut blocks = Vec::new();
    let mut first_game = 1;
    let mut ended = false;
    while !rest.is_empty() && !ended {
        let number = blocks.len() + 1;
        let error = |fault| ContainerError::Block {
            block: number,
            first_game,
            fault,
            lost: Lost::Unknown,
        };
        match read_block(&mut rest, codec.self_delimiting()) {
            Ok(V2Frame::Games(games)) => {
                let count = games.len();
                blocks.push(Ok(Block {
                    first_game,
                    games,
                    texts: None,
                }));
                first_game += count;
            }
            Ok(V2Frame::End(total)) => {
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
        version: UNBOUND_VERSION,
        keeps: Keeps::Moves,
        blocks,
    })
}

/// What a block's frame holds.
enum V2Frame {
    /// A block's games.
    Games(Games),
    /// The end mark, with the file's number of games.
    End(usize),
}

/// One block (or the end mark) from the front of `rest`, which moves past it (to the end when
/// the frame cannot be read, as the next block cannot be found then): its games, or what is
/// wrong and how many games its frame claims (0 when unknown).
fn read_block(rest: &mut &[u8], stream: bool) -> Result<V2Frame, (BlockFault, usize)> {
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
    let (payload, tail) = rest.split_at(payload_len);
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
        return Ok(V2Frame::End(len));
    }
    match Games::from_payload(payload, count, stream) {
        Some(games) => Ok(V2Frame::Games(games)),
        None => Err((BlockFault::BadPayload, count)),
    }
}

/// Version 1, after the version byte.
pub(super) fn read_v1(rest: &[u8]) -> Result<Contents, ContainerError> {
    let (&id, mut rest) = rest.split_first().ok_or(ContainerError::Truncated)?;
    let codec = GameCodec::from_ids(id, 0).ok_or(ContainerError::UnknownCodec(id, 0))?;
    let count = read_leb128(&mut rest)?;
    let games = read_games(&mut rest, count)?;
    if !rest.is_empty() {
        return Err(ContainerError::TrailingBytes(rest.len()));
    }
    Ok(Contents {
        codec,
        version: UNCHECKED_VERSION,
        keeps: Keeps::Moves,
        blocks: vec![Ok(Block {
            first_game: 1,
            games: Games::Framed(games),
            texts: None,
        })],
    })
}
