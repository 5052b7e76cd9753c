//! Versions 4 and 3: each block read, checked, and placed by the file id, number and games
//! before it carries (the layout and the rules are in the module above).

use super::text::decode_texts;
use super::{
    header_len, read_leb128, Block, BlockFault, ContainerError, Contents, FileId, Frame, Games,
    Keeps, Lost, CODES_ONLY_VERSION, CRC, MAGIC, VERSION,
};
use crate::codec::game::GameCodec;

/// A block's games as a frame holds them: their number, the payload and (when the file keeps
/// text) the text.
type FramedGames<'a> = (usize, &'a [u8], Option<&'a [u8]>);

/// A frame (a block or the end mark) whose check holds: what it says.
struct Intact<'a> {
    /// The file it was written for.
    file: FileId,
    /// Its number: from 1 for blocks, the number of blocks + 1 for the end mark.
    number: usize,
    /// The games in the blocks before it.
    before: usize,
    /// Its number of games, its payload and its text (when the file keeps text); `None` for
    /// the end mark.
    games: Option<FramedGames<'a>>,
    /// Its length in bytes.
    len: usize,
}

impl Intact<'_> {
    /// What it says it is.
    fn kind(&self) -> Frame {
        match self.games {
            Some(_) => Frame::Block(self.number),
            None => Frame::End {
                blocks: self.number.saturating_sub(1),
            },
        }
    }
}

/// Version 4 or 3, from the magic on: an error when the header is unreadable or when an intact
/// block is not where it belongs (another file's, another place's, or bytes after the end).
pub(super) fn read_bound(bytes: &[u8], version: u8) -> Result<Contents, ContainerError> {
    let header_len = header_len(version);
    let header = bytes.get(..header_len).ok_or(ContainerError::Truncated)?;
    let (checked, check) = header.split_at(header_len - 4);
    if CRC.checksum(checked).to_le_bytes() != check {
        return Err(ContainerError::DamagedHeader);
    }
    let codec = GameCodec::from_ids(header[5], header[6])
        .ok_or(ContainerError::UnknownCodec(header[5], header[6]))?;
    let keeps = match version {
        VERSION => Keeps::from_byte(header[7]).ok_or(ContainerError::UnknownKeeps(header[7]))?,
        _ => Keeps::Moves,
    };
    let mut id = [0; 8];
    id.copy_from_slice(&header[header_len - 12..header_len - 4]);
    let file = FileId(u64::from_le_bytes(id));
    let stream = codec.self_delimiting();
    let with_text = keeps == Keeps::Text;
    let mut blocks = Vec::new();
    // Where the next frame starts, the number of the block that belongs there, and the games
    // of the blocks before it.
    let (mut pos, mut place, mut games) = (header_len, 1, 0);
    loop {
        if pos == bytes.len() {
            blocks.push(Err(ContainerError::MissingEnd { games }));
            break;
        }
        let fault = match read_frame(&bytes[pos..], with_text) {
            Ok(frame) => {
                placed(&frame, file, place, games)?;
                let Some((count, payload, text)) = frame.games else {
                    let end = pos + frame.len;
                    return match end == bytes.len() {
                        true => Ok(Contents {
                            codec,
                            version,
                            keeps,
                            blocks,
                        }),
                        false => Err(ContainerError::AfterEnd {
                            end,
                            bytes: bytes.len() - end,
                            packed_file: bytes[end..].starts_with(&MAGIC),
                        }),
                    };
                };
                let first_game = games + 1;
                let texts = text.map(|text| decode_texts(text, count));
                blocks.push(match (Games::from_payload(payload, count, stream), texts) {
                    (Some(read), None) => Ok(Block {
                        first_game,
                        games: read,
                        texts: None,
                    }),
                    (Some(read), Some(Some(texts))) => Ok(Block {
                        first_game,
                        games: read,
                        texts: Some(texts),
                    }),
                    // Intact and in its place, so its extent and its games are known.
                    (None, _) | (_, Some(None)) => Err(ContainerError::Block {
                        block: place,
                        first_game,
                        fault: BlockFault::BadPayload,
                        lost: Lost::Known {
                            blocks: 1,
                            games: count,
                        },
                    }),
                });
                (pos, place, games) = (pos + frame.len, place + 1, games + count);
                continue;
            }
            Err(fault) => fault,
        };
        let Some((at, next)) = next_intact(bytes, pos + 1, file, with_text) else {
            blocks.push(Err(ContainerError::Block {
                block: place,
                first_game: games + 1,
                fault,
                lost: Lost::Rest,
            }));
            break;
        };
        let lost = (
            next.number.checked_sub(place),
            next.before.checked_sub(games),
        );
        blocks.push(Err(match lost {
            (Some(0), Some(0)) => ContainerError::Unreadable {
                bytes: at - pos,
                before: next.kind(),
            },
            // Every block holds a game at least.
            (Some(skipped), Some(lost)) if skipped > 0 && lost >= skipped => {
                ContainerError::Block {
                    block: place,
                    first_game: games + 1,
                    // The file does not end inside a frame that an intact one follows.
                    fault: match fault {
                        BlockFault::Truncated => BlockFault::BadLength,
                        fault => fault,
                    },
                    lost: Lost::Known {
                        blocks: skipped,
                        games: lost,
                    },
                }
            }
            (Some(_), _) => {
                return Err(ContainerError::GamesMismatch {
                    frame: next.kind(),
                    claimed: next.before,
                    counted: games,
                })
            }
            (None, _) => {
                return Err(ContainerError::OutOfPlace {
                    place,
                    found: next.kind(),
                })
            }
        }));
        (pos, place, games) = (at, next.number, next.before);
    }
    Ok(Contents {
        codec,
        version,
        keeps,
        blocks,
    })
}

/// Whether the bytes start with a header of version 4 or 3, other than `version` (the byte
/// found), whose check holds once its version byte is taken to be that one: a damaged version
/// byte.
pub(super) fn header_holds_as_other_version(bytes: &[u8], version: u8) -> bool {
    [VERSION, CODES_ONLY_VERSION]
        .into_iter()
        .filter(|&other| other != version)
        .any(|other| {
            let len = header_len(other);
            bytes.get(..len).is_some_and(|header| {
                let mut digest = CRC.digest();
                digest.update(&header[..4]);
                digest.update(&[other]);
                digest.update(&header[5..len - 4]);
                digest.finalize().to_le_bytes() == header[len - 4..]
            })
        })
}

/// Whether an intact frame belongs where it was found: in `file`, as block `place`, after
/// `games` games.
fn placed(frame: &Intact, file: FileId, place: usize, games: usize) -> Result<(), ContainerError> {
    if frame.file != file {
        return Err(ContainerError::ForeignBlock {
            place,
            found: frame.kind(),
            file: frame.file,
            header: file,
        });
    }
    if frame.number != place {
        return Err(ContainerError::OutOfPlace {
            place,
            found: frame.kind(),
        });
    }
    if frame.before != games {
        return Err(ContainerError::GamesMismatch {
            frame: frame.kind(),
            claimed: frame.before,
            counted: games,
        });
    }
    Ok(())
}

/// The frame at the start of `bytes` if its check holds, else why not; a block of a file that
/// keeps text (`with_text`) has its text after its payload.
fn read_frame(bytes: &[u8], with_text: bool) -> Result<Intact<'_>, BlockFault> {
    let number = |rest: &mut &[u8]| match read_leb128(rest) {
        Ok(value) => Ok(value as usize),
        Err(ContainerError::Truncated) => Err(BlockFault::Truncated),
        Err(_) => Err(BlockFault::BadLength),
    };
    let (file, mut rest) = bytes
        .split_first_chunk::<8>()
        .ok_or(BlockFault::Truncated)?;
    let (block, before, count) = (number(&mut rest)?, number(&mut rest)?, number(&mut rest)?);
    // The end mark has no length and no payload.
    let payload_len = if count == 0 { 0 } else { number(&mut rest)? };
    let head = bytes.len() - rest.len();
    let payload = rest.get(..payload_len).ok_or(BlockFault::Truncated)?;
    rest = &rest[payload_len..];
    let text = match with_text && count > 0 {
        true => {
            let len = number(&mut rest)?;
            let text = rest.get(..len).ok_or(BlockFault::Truncated)?;
            rest = &rest[len..];
            Some(text)
        }
        false => None,
    };
    let framed_len = bytes.len() - rest.len();
    if rest.len() < 4 {
        return Err(BlockFault::Truncated);
    }
    let (framed, tail) = bytes.split_at(framed_len);
    if CRC.checksum(framed).to_le_bytes() != tail[..4] {
        return Err(BlockFault::ChecksumMismatch);
    }
    debug_assert_eq!(&framed[head..head + payload_len], payload);
    Ok(Intact {
        file: FileId(u64::from_le_bytes(*file)),
        number: block,
        before,
        games: (count > 0).then_some((count, payload, text)),
        len: framed.len() + 4,
    })
}

/// The first intact frame of `file` at or after `from`: where it starts, and what it says.
fn next_intact(
    bytes: &[u8],
    from: usize,
    file: FileId,
    with_text: bool,
) -> Option<(usize, Intact<'_>)> {
    let id = file.0.to_le_bytes();
    let mut at = from;
    loop {
        let offset = bytes.get(at..)?.windows(id.len()).position(|w| w == id)?;
        if let Ok(frame) = read_frame(&bytes[at + offset..], with_text) {
            return Some((at + offset, frame));
        }
        at += offset + 1;
    }
}
