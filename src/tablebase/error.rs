//! What can go wrong: opening the folders ([`TablebaseError`]), one table file ([`TableError`],
//! which names the file, and its [`TableProblem`]), and probing a position ([`ProbeError`]).
//!
//! A table's problem is found once, when the folders are opened or when the table is first read,
//! and every probe that needs the table gets it again: a damaged table answers nothing.

use super::material::MaterialNameError;
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

/// Why [`super::Tablebase::open`] failed.
#[derive(Debug, Clone)]
pub enum TablebaseError {
    /// A folder cannot be listed: missing, not a folder, or not readable.
    Folder {
        /// The folder as given.
        path: PathBuf,
        /// What the system said.
        source: Arc<io::Error>,
    },
    /// A `.rtbw` file in a folder is unreadable, misnamed or not a standard WDL table.
    Table(TableError),
    /// The folders hold no `.rtbw` file.
    NoTables {
        /// The folders searched.
        paths: Vec<PathBuf>,
    },
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseError::Folder { path, source } => {
                write!(
                    f,
                    "cannot read the tablebase folder {}: {source}",
                    path.display()
                )
            }
            TablebaseError::Table(e) => e.fmt(f),
            TablebaseError::NoTables { paths } => {
                let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                write!(f, "no Syzygy WDL table (.rtbw) in {}", names.join(", "))
            }
        }
    }
}

impl std::error::Error for TablebaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TablebaseError::Folder { source, .. } => Some(source.as_ref()),
            TablebaseError::Table(e) => Some(e),
            TablebaseError::NoTables { .. } => None,
        }
    }
}

impl From<TableError> for TablebaseError {
    fn from(e: TableError) -> TablebaseError {
        TablebaseError::Table(e)
    }
}

/// A table file that cannot be used, and why.
#[derive(Debug, Clone)]
pub struct TableError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: TableProblem,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.problem)
    }
}

impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            TableProblem::Read(e) => Some(e.as_ref()),
            TableProblem::Name(e) => Some(e),
            _ => None,
        }
    }
}

/// What is wrong with a table file. The first group is found when the folders are opened (the
/// name, the size, the first bytes); the rest when the table is first read whole; the last four
/// only while probing, as the format places its data.
#[derive(Debug, Clone)]
pub enum TableProblem {
    /// The file cannot be read.
    Read(Arc<io::Error>),
    /// The file name is not a material (`KQvKR.rtbw`).
    Name(MaterialNameError),
    /// The file name is a material, but not as Syzygy names its table.
    NotSyzygyName {
        /// The name Syzygy gives that material's table.
        expected: String,
    },
    /// The size is not 16 more than a multiple of 64 (cut short, or not a table).
    Size(u64),
    /// The first four bytes are another table kind's.
    OtherKind {
        /// The kind the file's extension calls for.
        wanted: &'static str,
        /// The kind the file is.
        found: &'static str,
    },
    /// The first four bytes are no Syzygy table's.
    Magic {
        /// The file's first four bytes.
        found: [u8; 4],
        /// The first four bytes of the kind the extension calls for.
        wanted: [u8; 4],
    },
    /// The header's flags are not those of this material's table.
    Flags(u8),
    /// The header lists a piece code that names no piece.
    PieceCode(u8),
    /// The header's pieces are another material than the file name's (or are not grouped as
    /// the format requires): a damaged header or another table renamed.
    Pieces {
        /// The material the header's list adds up to.
        holds: String,
    },
    /// The header orders the groups of pieces impossibly.
    Order(u8),
    /// The header ends before its own contents do.
    Truncated {
        /// Bytes the header says there are, at least.
        needed: u64,
        /// Bytes there are.
        size: u64,
    },
    /// The parts the header describes do not fill the file as the format lays them out.
    Layout {
        /// Where the described parts end.
        end: u64,
        /// Where the file's checksum starts.
        checksum_at: u64,
    },
    /// The file's embedded checksum does not match its contents.
    Checksum {
        /// The checksum the file carries.
        stored: [u8; 16],
        /// The checksum of its contents.
        computed: [u8; 16],
    },
    /// The numbers of a sub-table's compression header are out of their range.
    Compression(&'static str),
    /// The symbol dictionary does not decode (a symbol refers outside it, to itself, or holds a
    /// value that is no WDL value).
    Symbols(&'static str),
    /// The block sizes do not add up to the sub-table's positions.
    BlockSizes {
        /// Positions the sizes add up to.
        counted: u64,
        /// Positions the sub-table has.
        positions: u64,
    },
    /// An entry of the block index points elsewhere than the block sizes say.
    IndexEntry(u64),
    /// A position's index is past the end of its sub-table.
    IndexOutOfRange(u64),
    /// A lookup walked outside the blocks.
    BlockOutOfRange(i64),
    /// A block's code does not decode within the block.
    BadCode,
    /// A DTZ table's stored number is past the end of the map it is read through.
    MapOutOfRange(u32),
}

/// The hexadecimal digits of a checksum.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl fmt::Display for TableProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableProblem::Read(e) => write!(f, "cannot read it: {e}"),
            TableProblem::Name(e) => write!(f, "not a table name: {e}"),
            TableProblem::NotSyzygyName { expected } => write!(
                f,
                "not Syzygy's name for this material: its table is named {expected}.rtbw"
            ),
            TableProblem::Size(size) => write!(
                f,
                "{size} bytes: a Syzygy table is 64n + 16 bytes (cut short, or not a table)"
            ),
            TableProblem::OtherKind { wanted, found } => write!(f, "not {wanted}: {found}"),
            TableProblem::Magic { found, wanted } => write!(
                f,
                "not a Syzygy table: it starts with {}, not {}",
                hex(found),
                hex(wanted)
            ),
            TableProblem::Flags(flags) => write!(
                f,
                "damaged header: flags {flags:#04x} do not fit this material's table"
            ),
            TableProblem::PieceCode(code) => {
                write!(f, "damaged header: piece code {code} names no piece")
            }
            TableProblem::Pieces { holds } => write!(
                f,
                "its header lists the pieces of {holds}, not the file name's material \
                 (damaged, or another table renamed)"
            ),
            TableProblem::Order(order) => {
                write!(f, "damaged header: group order {order} is out of range")
            }
            TableProblem::Truncated { needed, size } => write!(
                f,
                "cut short: its header needs at least {needed} bytes, the file has {size}"
            ),
            TableProblem::Layout { end, checksum_at } => write!(
                f,
                "damaged: its parts end at byte {end}, but its checksum starts at byte \
                 {checksum_at}"
            ),
            TableProblem::Checksum { stored, computed } => write!(
                f,
                "damaged: its checksum is {}, its contents give {}",
                hex(stored),
                hex(computed)
            ),
            TableProblem::Compression(what) => write!(f, "damaged compression header: {what}"),
            TableProblem::Symbols(what) => write!(f, "damaged symbol dictionary: {what}"),
            TableProblem::BlockSizes { counted, positions } => write!(
                f,
                "damaged block sizes: they add up to {counted} positions, the table has \
                 {positions}"
            ),
            TableProblem::IndexEntry(k) => {
                write!(
                    f,
                    "damaged block index: entry {k} points to the wrong place"
                )
            }
            TableProblem::IndexOutOfRange(index) => {
                write!(f, "index {index} is past the end of its table")
            }
            TableProblem::BlockOutOfRange(block) => {
                write!(f, "a lookup reached block {block}, outside the table")
            }
            TableProblem::BadCode => f.write_str("a block's code runs past the block"),
            TableProblem::MapOutOfRange(value) => {
                write!(f, "a stored value ({value}) is past the end of its DTZ map")
            }
        }
    }
}

/// Why a probe ([`super::Tablebase::probe_wdl`], [`super::Tablebase::probe_dtz`],
/// [`super::Tablebase::probe_root`]) gives no value. Never a guess: each is a refusal.
#[derive(Debug, Clone)]
pub enum ProbeError {
    /// A side may still castle; Syzygy tables hold no position with castling rights.
    CastlingRights,
    /// More pieces than the largest table holds.
    TooManyPieces {
        /// Pieces on the board.
        pieces: usize,
        /// The most pieces of any table present.
        max: usize,
    },
    /// The table of a material the position or its captures reach is not in the folders.
    MissingTable {
        /// The table's name, `KQvKR`.
        name: String,
    },
    /// The DTZ table (`.rtbz`) of a material the position or its moves reach is not in the
    /// folders.
    MissingDtzTable {
        /// The table's name, `KQvKR`.
        name: String,
    },
    /// A table that is needed is damaged or unreadable.
    Table(TableError),
    /// Fathom's root probe calls the position invalid: a pawn on the first or last rank, or
    /// the side not to move in check.
    InvalidPosition,
    /// Fathom's root probe finds the position won but no move that keeps the win as it
    /// computes it, and fails.
    NoWinningMove,
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::CastlingRights => {
                f.write_str("the position has castling rights; Syzygy tables have none")
            }
            ProbeError::TooManyPieces { pieces, max } => {
                write!(f, "{pieces} pieces; the tables hold at most {max}")
            }
            ProbeError::MissingTable { name } => {
                write!(f, "no table {name}.rtbw in the tablebase folders")
            }
            ProbeError::MissingDtzTable { name } => {
                write!(f, "no table {name}.rtbz in the tablebase folders")
            }
            ProbeError::Table(e) => e.fmt(f),
            ProbeError::InvalidPosition => f.write_str(
                "the position is invalid for Fathom's root probe (a pawn on the first or last \
                 rank, or the side not to move in check)",
            ),
            ProbeError::NoWinningMove => f.write_str(
                "Fathom's root probe finds the position won but no move that keeps the win",
            ),
        }
    }
}

impl std::error::Error for ProbeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProbeError::Table(e) => Some(e),
            _ => None,
        }
    }
}

impl From<TableError> for ProbeError {
    fn from(e: TableError) -> ProbeError {
        ProbeError::Table(e)
    }
}
