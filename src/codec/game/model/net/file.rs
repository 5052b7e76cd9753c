//! The stored form of a network model (`m3.bin`): written by the fitting program, read once
//! when the model is first used, and checked as it is read.
//!
//! Little-endian throughout: the magic `SHNN`, a format byte (1: m3's and m4's layout of feature
//! groups; 2: m5's slots, [`Layout::Fast`]; 3: m6's, [`Layout::FastExchange`]), the lanes per
//! row `W`, the
//! feature groups (u32), the numbers of move features, position features, end contexts and
//! result contexts (u16 each); then every move feature's row, every position feature's row, the
//! bias row and the output row (`W` i16 each); then the end odds (2 u16 each) and the result
//! odds (4 u16 each). The opening book is stored apart (the model's source names it).

use super::ending::{END_CONTEXTS, RESULT_CONTEXTS};
use super::features::POSITION_FEATURES;
use super::{Layout, Net};
use crate::codec::game::model::book::Book;
use std::fmt;

const MAGIC: &[u8; 4] = b"SHNN";

/// The format byte of each layout.
fn format(layout: Layout) -> u8 {
    match layout {
        Layout::Groups => 1,
        Layout::Fast => 2,
        Layout::FastExchange => 3,
    }
}

/// Why bytes are not a network model this build can use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetFileError {
    /// The bytes do not start with the magic `SHNN`.
    NotANetwork,
    /// A format this build does not know.
    Format(u8),
    /// Rows of a width this build does not have (8, 16 or 32 lanes).
    Lanes(u8),
    /// The numbers of features or contexts differ from this build's (a model of another
    /// build's feature layout).
    Shape {
        /// What the file says: move features, position features, end contexts, result contexts.
        found: [u16; 4],
    },
    /// The file ends before its tables do, or goes on after them.
    Length {
        /// The bytes the header's shape calls for.
        expected: usize,
        /// The bytes there are.
        found: usize,
    },
}

impl fmt::Display for NetFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetFileError::NotANetwork => f.write_str("not a network model (no SHNN magic)"),
            NetFileError::Format(v) => write!(f, "network model format {v} is not known"),
            NetFileError::Lanes(w) => {
                write!(f, "rows of {w} lanes are not supported (8, 16 or 32)")
            }
            NetFileError::Shape { found } => write!(
                f,
                "the model has {} move features, {} position features, {} end and {} result \
                 contexts; this build has {} (m3's layout), {} (m5's) or {} (m6's), {POSITION_FEATURES}, \
                 {END_CONTEXTS} and {RESULT_CONTEXTS}",
                found[0],
                found[1],
                found[2],
                found[3],
                Layout::Groups.features(),
                Layout::Fast.features(),
                Layout::FastExchange.features()
            ),
            NetFileError::Length { expected, found } => {
                write!(f, "the model should be {expected} bytes long, not {found}")
            }
        }
    }
}

impl std::error::Error for NetFileError {}

/// A network model of any supported width.
#[derive(Debug, Clone)]
pub enum AnyNet {
    /// 8 lanes: 7 hidden units.
    W8(Net<8>),
    /// 16 lanes: 15 hidden units.
    W16(Net<16>),
    /// 32 lanes: 31 hidden units.
    W32(Net<32>),
}

const HEADER: usize = 4 + 1 + 1 + 4 + 4 * 2;

/// Reads a model; `book` is its opening book.
pub fn read(bytes: &[u8], book: Book) -> Result<AnyNet, NetFileError> {
    if bytes.len() < HEADER || &bytes[..4] != MAGIC {
        return Err(NetFileError::NotANetwork);
    }
    let layout = match bytes[4] {
        1 => Layout::Groups,
        2 => Layout::Fast,
        3 => Layout::FastExchange,
        other => return Err(NetFileError::Format(other)),
    };
    let features = layout.features();
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let groups = u32::from_le_bytes([bytes[6], bytes[7], bytes[8], bytes[9]]);
    let found = [u16_at(10), u16_at(12), u16_at(14), u16_at(16)];
    let shape = [features, POSITION_FEATURES, END_CONTEXTS, RESULT_CONTEXTS];
    if found.iter().zip(shape).any(|(&f, s)| usize::from(f) != s) {
        return Err(NetFileError::Shape { found });
    }
    let lanes = usize::from(bytes[5]);
    if ![8, 16, 32].contains(&lanes) {
        return Err(NetFileError::Lanes(bytes[5]));
    }
    let expected = HEADER
        + (features + POSITION_FEATURES + 2) * lanes * 2
        + END_CONTEXTS * 4
        + RESULT_CONTEXTS * 8;
    if bytes.len() != expected {
        return Err(NetFileError::Length {
            expected,
            found: bytes.len(),
        });
    }
    let body = &bytes[HEADER..];
    Ok(match lanes {
        8 => AnyNet::W8(parse(layout, groups, body, book)),
        16 => AnyNet::W16(parse(layout, groups, body, book)),
        _ => AnyNet::W32(parse(layout, groups, body, book)),
    })
}

/// The model from its checked body.
fn parse<const W: usize>(layout: Layout, groups: u32, body: &[u8], book: Book) -> Net<W> {
    let mut words = body
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]));
    let mut row = || -> [i16; W] { std::array::from_fn(|_| words.next().unwrap_or(0) as i16) };
    let rows = (0..layout.features()).map(|_| row()).collect();
    let position_rows = (0..POSITION_FEATURES).map(|_| row()).collect();
    let bias = row();
    let output = row();
    let mut odds = || u32::from(words.next().unwrap_or(1));
    let end = (0..END_CONTEXTS).map(|_| [odds(), odds()]).collect();
    let result = (0..RESULT_CONTEXTS)
        .map(|_| std::array::from_fn(|_| odds()))
        .collect();
    Net {
        layout,
        groups,
        rows,
        position_rows,
        bias,
        output,
        end,
        result,
        book,
    }
}

/// The stored bytes of a model.
pub fn write<const W: usize>(net: &Net<W>) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend(MAGIC);
    out.push(format(net.layout));
    out.push(W as u8);
    out.extend(net.groups.to_le_bytes());
    for n in [
        net.layout.features(),
        POSITION_FEATURES,
        END_CONTEXTS,
        RESULT_CONTEXTS,
    ] {
        out.extend((n as u16).to_le_bytes());
    }
    let rows = net.rows.iter().chain(&net.position_rows);
    for row in rows.chain([&net.bias, &net.output]) {
        row.iter().for_each(|w| out.extend(w.to_le_bytes()));
    }
    let odds = net.end.iter().flatten().chain(net.result.iter().flatten());
    odds.for_each(|&o| out.extend((o as u16).to_le_bytes()));
    out
}
