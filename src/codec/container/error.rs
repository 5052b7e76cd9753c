//! What can be wrong with a packed file, or with a part of one, and how each is said.

use super::{FileId, UNCHECKED_VERSION, VERSION};
use crate::codec::game::GameCodecError;
use std::fmt;

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

/// What a damaged stretch of a file cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lost {
    /// Not known: a version 2 block, after which the next is read from where it says it ends.
    Unknown,
    /// The next intact block (or end mark) of the file was found after the damage: these
    /// blocks, from the damaged one on, and their games are lost (both at least 1).
    Known {
        /// How many blocks.
        blocks: usize,
        /// How many games.
        games: usize,
    },
    /// No intact block or end mark of the file follows the damage: the rest of the file is
    /// lost, end mark included, so how many games it held is not known.
    Rest,
}

/// A block's place in a file, or the end mark's, as a block of version 3 states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frame {
    /// A block with this number, from 1.
    Block(usize),
    /// The end mark of a file of this many blocks.
    End {
        /// The blocks of its file.
        blocks: usize,
    },
}

/// Why bytes are not a packed file, or which part of one is damaged.
///
/// A version 3 file whose header and blocks do not belong together ([`ForeignBlock`],
/// [`OutOfPlace`], [`GamesMismatch`], [`AfterEnd`]) is refused whole by [`Pack::read`], before
/// any game is decoded.
///
/// [`ForeignBlock`]: ContainerError::ForeignBlock
/// [`OutOfPlace`]: ContainerError::OutOfPlace
/// [`GamesMismatch`]: ContainerError::GamesMismatch
/// [`AfterEnd`]: ContainerError::AfterEnd
/// [`Pack::read`]: super::Pack::read
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContainerError {
    /// The file does not start with [`MAGIC`](super::MAGIC).
    BadMagic,
    /// A version this build does not read.
    UnsupportedVersion(u8),
    /// A codec number (and model number) that is not a [`GameCodec`](super::GameCodec).
    UnknownCodec(u8, u8),
    /// A keeps byte that is not a [`Keeps`](super::Keeps) (a newer file, or a damaged one whose
    /// header check holds by chance).
    UnknownKeeps(u8),
    /// The header's check fails: its version, codec, model or file id was damaged.
    DamagedHeader,
    /// The file ends inside its header (or, in version 1, inside a game).
    Truncated,
    /// Version 1: a length is not a valid LEB128 number below 2^32.
    BadLength,
    /// Versions 1 and 2: bytes follow the last game (version 1) or the end mark (version 2).
    TrailingBytes(usize),
    /// The file ends after a whole block but before the end mark: it was cut short.
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
    /// A game's kept text has a comment after a ply the game does not have (an intact block
    /// that its writer got wrong): the game is left out.
    CommentPastEnd {
        /// The game's number in the file, from 1.
        number: usize,
        /// The ply the comment follows.
        ply: usize,
        /// The game's plies.
        plies: usize,
    },
    /// One block is damaged (in version 3, possibly a run of blocks); the others are read.
    Block {
        /// The (first) block's number, from 1.
        block: usize,
        /// The number its first game has (counting the games of the blocks before it), from 1.
        first_game: usize,
        /// What is wrong with the first frame that could not be read.
        fault: BlockFault,
        /// What the damage cost.
        lost: Lost,
    },
    /// Versions 3 and 4: bytes between two blocks (or before the end mark) that are no block of the
    /// file, while the blocks on either side follow one another: skipped, no game is lost.
    Unreadable {
        /// How many bytes.
        bytes: usize,
        /// The block (or end mark) they come before.
        before: Frame,
    },
    /// Versions 3 and 4: an intact block (or end mark) written for another file: the header and the
    /// blocks were put together from different files. Nothing is read.
    ForeignBlock {
        /// The number of the block that belongs where it was found.
        place: usize,
        /// What it says it is in its own file.
        found: Frame,
        /// The file id the block carries.
        file: FileId,
        /// The file id of the header.
        header: FileId,
    },
    /// Versions 3 and 4: an intact block (or end mark) of this file in another block's place: blocks
    /// were swapped, repeated or dropped. Nothing is read.
    OutOfPlace {
        /// The number of the block that belongs where it was found.
        place: usize,
        /// What was found there.
        found: Frame,
    },
    /// Versions 3 and 4: a block (or the end mark) in its place says another number of games comes
    /// before it than its file holds there. Nothing is read.
    GamesMismatch {
        /// The block (or end mark).
        frame: Frame,
        /// The games it says come before it.
        claimed: usize,
        /// The games the blocks before it hold.
        counted: usize,
    },
    /// Versions 3 and 4: bytes follow the end mark. Nothing is read.
    AfterEnd {
        /// Where the file's own bytes end (the end mark's last byte is the byte before).
        end: usize,
        /// How many bytes follow.
        bytes: usize,
        /// Whether they start with [`MAGIC`](super::MAGIC): another packed file.
        packed_file: bool,
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

impl fmt::Display for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Frame::Block(number) => write!(f, "block {number}"),
            Frame::End { .. } => f.write_str("the end mark"),
        }
    }
}

/// Said after each refusal of a whole file.
const NOTHING_READ: &str = "nothing is read";

impl fmt::Display for ContainerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContainerError::BadMagic => f.write_str("not a packed games file (no SHGM magic)"),
            ContainerError::UnsupportedVersion(v) => write!(
                f,
                "packed file version {v} is not supported (only {UNCHECKED_VERSION} to \
                 {VERSION}: made by a newer shannon?)"
            ),
            ContainerError::UnknownCodec(id, model) => {
                write!(f, "unknown game codec number {id} (model {model})")
            }
            ContainerError::UnknownKeeps(byte) => write!(
                f,
                "the packed file keeps something this shannon does not know (keeps byte {byte}; \
                 version {VERSION} files keep 0, codes, or 1, codes and text)"
            ),
            ContainerError::CommentPastEnd { number, ply, plies } => write!(
                f,
                "game {number}: a kept comment follows ply {ply}, but the game has {plies} \
                 plies: its text is malformed"
            ),
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
                lost,
            } => damaged(f, *block, *first_game, *fault, *lost),
            ContainerError::Unreadable { bytes, before } => write!(
                f,
                "{bytes} bytes before {before} are no block of this file: skipped (no game is \
                 lost with them)"
            ),
            ContainerError::ForeignBlock {
                place,
                found,
                file,
                header,
            } => {
                match found {
                    Frame::Block(_) => write!(f, "block {place} belongs to another packed file")?,
                    Frame::End { .. } => write!(
                        f,
                        "the end mark found where block {place} belongs is another packed file's"
                    )?,
                }
                write!(
                    f,
                    " (its file id is {file}, the header's {header}): the header and the blocks \
                     come from different files; {NOTHING_READ}"
                )
            }
            ContainerError::OutOfPlace {
                place,
                found: Frame::Block(number),
            } => write!(
                f,
                "the packed file's blocks are out of order: block {number} is found where block \
                 {place} belongs (blocks were swapped, repeated or dropped); {NOTHING_READ}"
            ),
            ContainerError::OutOfPlace {
                place,
                found: Frame::End { blocks },
            } => write!(
                f,
                "the end mark of a file of {blocks} blocks is found where block {place} belongs \
                 (blocks were dropped or repeated); {NOTHING_READ}"
            ),
            ContainerError::GamesMismatch {
                frame,
                claimed,
                counted,
            } => write!(
                f,
                "{frame} says {claimed} games come before it, but the blocks before it hold \
                 {counted}; {NOTHING_READ}"
            ),
            ContainerError::AfterEnd {
                end,
                bytes,
                packed_file: true,
            } => write!(
                f,
                "another packed file follows the end mark (the first file's {end} bytes are \
                 followed by {bytes} more): files were joined, unpack each on its own; \
                 {NOTHING_READ}"
            ),
            ContainerError::AfterEnd {
                end,
                bytes,
                packed_file: false,
            } => write!(
                f,
                "{bytes} bytes follow the end mark (the packed file's own bytes end at byte \
                 {end}): something was added to it; {NOTHING_READ}"
            ),
        }
    }
}

/// A damaged stretch: the first block, its first game, the fault and what was lost.
fn damaged(
    f: &mut fmt::Formatter<'_>,
    block: usize,
    first_game: usize,
    fault: BlockFault,
    lost: Lost,
) -> fmt::Result {
    let last_game = |games: usize| first_game + games - 1;
    match lost {
        Lost::Known { blocks, games } if blocks > 1 => write!(
            f,
            "blocks {block}-{} (from game {first_game}) are damaged and skipped: in block \
             {block}, {fault}; their {games} games ({first_game}-{}) are lost",
            block + blocks - 1,
            last_game(games)
        ),
        _ => {
            write!(
                f,
                "block {block} (from game {first_game}) is damaged and skipped: {fault}"
            )?;
            match lost {
                Lost::Unknown => Ok(()),
                Lost::Known { games: 1, .. } => write!(f, "; its game {first_game} is lost"),
                Lost::Known { games, .. } => write!(
                    f,
                    "; its {games} games ({first_game}-{}) are lost",
                    last_game(games)
                ),
                Lost::Rest => write!(
                    f,
                    "; no intact block or end mark of this file follows it, so the games from \
                     {first_game} on (if there are any) are lost"
                ),
            }
        }
    }
}

impl std::error::Error for ContainerError {}
