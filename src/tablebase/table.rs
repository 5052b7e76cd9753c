//! One table file (`.rtbw` or `.rtbz`): the cheap check when the folders are opened
//! ([`check_file`]), reading it whole ([`Table::read`]), and looking up the value of a position
//! in it ([`Table::wdl`], [`Table::dtz`]).
//!
//! The whole file is read into memory at its first use and kept: probes then cost no system
//! call, and the checksum covers every byte once. (3- to 5-man tables are at most a few tens of
//! MB each, 378 MB for all 5-man WDL tables; the 6-man WDL tables are 68 GB together, and a
//! program that touches many of them needs that much memory.)
//!
//! The file's layout, after the header: one compression header per sub-table, (in a DTZ table,
//! the maps from stored numbers to distances), then every sub-table's block index, then every
//! sub-table's block sizes, then each sub-table's blocks (each start aligned to 64 bytes),
//! padding to a multiple of 64, and the 16-byte checksum.

use super::checksum::table_checksum;
use super::error::TableProblem;
use super::header::{piece_of, Header, Kind, MAX_HEADER};
use super::index::{encode_pawns, encode_pieces, leading_pawn_file, Leading};
use super::material::Material;
use super::pairs::Pairs;
use crate::{Color, Position};
use std::io::Read;
use std::path::Path;

/// A table read whole and checked.
#[derive(Debug)]
pub(super) struct Table {
    bytes: Vec<u8>,
    header: Header,
    /// Each sub-table's values, in the order of [`Header::subs`].
    pairs: Vec<Pairs>,
    /// A DTZ table's flags and maps, one per sub-table (empty for a WDL table).
    dtz: Vec<DtzMaps>,
}

/// A DTZ sub-table's compression flags and the maps its values are read through.
#[derive(Debug, Clone, Copy)]
struct DtzMaps {
    /// Bit 0: the side to move it holds (of the table's colours); 1: values go through the
    /// maps; 2 and 3: wins and losses are stored in plies, not in moves; 4: maps of 16 bits.
    flags: u8,
    /// Each map's first entry and its number of entries: the maps of (in this order) wins,
    /// losses, cursed wins and blessed losses.
    maps: [(usize, usize); 4],
}

/// Flag bit: the values go through the maps.
const MAPPED: u8 = 2;
/// Flag bit: the maps have entries of 16 bits.
const WIDE_MAP: u8 = 16;
/// Which map each WDL value's distances are read through (by WDL + 2; a draw has none).
const WDL_TO_MAP: [usize; 5] = [1, 3, 0, 2, 0];
/// The flag bit saying a loss's or a win's distances are stored in plies (by WDL + 2).
const IN_PLIES: [u8; 5] = [8, 0, 0, 0, 4];

/// The size a table file must have: 64n + 16.
fn check_size(size: u64) -> Result<(), TableProblem> {
    if size % 64 == 16 {
        Ok(())
    } else {
        Err(TableProblem::Size(size))
    }
}

fn read_error(e: std::io::Error) -> TableProblem {
    TableProblem::Read(std::sync::Arc::new(e))
}

/// The checks made when the folders are opened, from the file's size and first bytes: the size,
/// the magic number, and the header's flags and pieces against the file name's material.
pub(super) fn check_file(path: &Path, named: Material, kind: Kind) -> Result<(), TableProblem> {
    let file = std::fs::File::open(path).map_err(read_error)?;
    let metadata = file.metadata().map_err(read_error)?;
    if metadata.is_dir() {
        return Err(read_error(std::io::ErrorKind::IsADirectory.into()));
    }
    if !metadata.is_file() {
        return Err(read_error(std::io::Error::other("not a regular file")));
    }
    check_size(metadata.len())?;
    let mut first = Vec::with_capacity(MAX_HEADER);
    file.take(MAX_HEADER as u64)
        .read_to_end(&mut first)
        .map_err(read_error)?;
    Header::parse(&first, named, kind).map(|_| ())
}

impl Table {
    /// Read the table file of `named` whole and check it: size, header, checksum, the
    /// compression headers, (a DTZ table's maps), the layout of the parts, the block sizes and
    /// the block index.
    pub fn read(path: &Path, named: Material, kind: Kind) -> Result<Table, TableProblem> {
        let bytes = std::fs::read(path).map_err(read_error)?;
        check_size(bytes.len() as u64)?;
        let header = Header::parse(&bytes, named, kind)?;
        let body = bytes.len() - 16;
        let computed = table_checksum(&bytes[..body]);
        let stored: [u8; 16] = bytes[body..].try_into().expect("16 bytes");
        if computed != stored {
            return Err(TableProblem::Checksum { stored, computed });
        }
        let mut at = header.end;
        let mut pairs = Vec::with_capacity(header.subs.len());
        let mut flags = Vec::with_capacity(header.subs.len());
        for sub in &header.subs {
            let (p, f) = Pairs::parse(&bytes, &mut at, sub.positions, kind)?;
            pairs.push(p);
            flags.push(f);
        }
        let dtz = match kind {
            Kind::Wdl => Vec::new(),
            Kind::Dtz => read_maps(&bytes, &mut at, &flags, header.leading)?,
        };
        let sizes: Vec<[u64; 3]> = pairs
            .iter()
            .map(|p| match p {
                Pairs::Constant(_) => Ok([0; 3]),
                Pairs::Compressed(c) => c.part_sizes(),
            })
            .collect::<Result<_, _>>()?;
        // The block indexes, then the block sizes, then the blocks, each sub-table in turn.
        let mut at = at as u64;
        let mut starts = vec![[0u64; 3]; pairs.len()];
        for part in 0..3 {
            for (start, size) in starts.iter_mut().zip(&sizes) {
                if part == 2 {
                    at = at.next_multiple_of(64);
                }
                start[part] = at;
                at += size[part];
            }
        }
        if at > body as u64 || body as u64 - at >= 64 {
            return Err(TableProblem::Layout {
                end: at,
                checksum_at: body as u64,
            });
        }
        for (p, start) in pairs.iter_mut().zip(&starts) {
            if let Pairs::Compressed(c) = p {
                c.place(start[0] as usize, start[1] as usize, start[2] as usize);
                c.check_index(&bytes)?;
            }
        }
        Ok(Table {
            bytes,
            header,
            pairs,
            dtz,
        })
    }

    /// The value of `pos`, whose material must be the table's or its mirror: -2 (loss) to 2
    /// (win) for the side to move, as the table stores it (captures are not looked at).
    pub fn wdl(&self, pos: &Position) -> Result<i8, TableProblem> {
        let (sub, index, _) = self.locate(pos)?;
        let value = self.pairs[sub].value(&self.bytes, index)?;
        Ok(value as i8 - 2)
    }

    /// The number a DTZ table stores for `pos`, whose value is `wdl` (not 0), as the reference
    /// probers read it: plies to the next capture or pawn move, less one (in moves where the
    /// table stores moves, doubled), or `None` when the table holds the other side to move
    /// (a DTZ table holds one only, unless the material is symmetric).
    pub fn dtz(&self, pos: &Position, wdl: i8) -> Result<Option<u32>, TableProblem> {
        let (sub, index, side) = self.locate(pos)?;
        let maps = self.dtz[sub];
        let pawns = matches!(self.header.leading, Leading::Pawns { .. });
        // The reference probers make the symmetric exception for tables without pawns only.
        if usize::from(maps.flags & 1) != side && (pawns || !self.header.symmetric) {
            return Ok(None);
        }
        let mut value = u32::from(self.pairs[sub].value(&self.bytes, index)?);
        let w = (wdl.clamp(-2, 2) + 2) as usize;
        if maps.flags & MAPPED != 0 {
            let (first, len) = maps.maps[WDL_TO_MAP[w]];
            let at = value as usize;
            if at >= len {
                return Err(TableProblem::MapOutOfRange(value));
            }
            value = if maps.flags & WIDE_MAP != 0 {
                let i = first + 2 * at;
                u32::from(u16::from_le_bytes([self.bytes[i], self.bytes[i + 1]]))
            } else {
                u32::from(self.bytes[first + at])
            };
        }
        if maps.flags & IN_PLIES[w] == 0 || wdl & 1 != 0 {
            value *= 2;
        }
        Ok(Some(value))
    }

    /// The sub-table and index of `pos`, and the side to move as the table's colours see it
    /// (0 for a symmetric material).
    fn locate(&self, pos: &Position) -> Result<(usize, u64, usize), TableProblem> {
        let header = &self.header;
        let white_to_move = pos.side_to_move() == Color::White;
        // `flip`: the position's White plays the table's Black. `side`: the side to move, as
        // the table sees the colours.
        let (flip, side) = if header.symmetric {
            (!white_to_move, 0)
        } else {
            let flip = Material::of(pos) != header.stored;
            (flip, usize::from(white_to_move == flip))
        };
        // A WDL table's sub-table of that side; a DTZ table has one per file.
        let side_sub = if header.sides() == 2 { side } else { 0 };
        let mut squares = [0u8; 7];
        let (sub, index) = match header.leading {
            Leading::Pawns { others } => {
                // Pawn tables are also mirrored top to bottom when the colours swap.
                let mirror = if flip { 0x38 } else { 0 };
                let first = header.sub(0, 0);
                let lead = usize::from(first.grouping.norm[0]);
                fill(
                    pos,
                    &first.codes[..lead],
                    flip,
                    mirror,
                    &mut squares[..lead],
                )?;
                let file = leading_pawn_file(&mut squares, lead);
                let sub = file * header.sides() + side_sub;
                let s = &header.subs[sub];
                let n = s.grouping.pieces;
                fill(pos, &s.codes[lead..n], flip, mirror, &mut squares[lead..n])?;
                (sub, encode_pawns(&mut squares, &s.grouping, others))
            }
            leading => {
                let s = &header.subs[side_sub];
                let n = s.grouping.pieces;
                fill(pos, &s.codes[..n], flip, 0, &mut squares[..n])?;
                let kings = leading == Leading::Kings;
                let index = encode_pieces(&mut squares, &s.grouping, kings)
                    .ok_or(TableProblem::IndexOutOfRange(u64::MAX))?;
                (side_sub, index)
            }
        };
        Ok((sub, index, side))
    }
}

/// A DTZ table's maps, at `*at` after the compression headers (`flags`: each sub-table's flag
/// byte): for each sub-table whose values are mapped, four maps, each a count and its entries
/// (of 8 bits, or of 16 bits aligned to 2 bytes); then padding to 2 bytes. `*at` moves past them.
fn read_maps(
    bytes: &[u8],
    at: &mut usize,
    flags: &[u8],
    leading: Leading,
) -> Result<Vec<DtzMaps>, TableProblem> {
    let truncated = |needed: usize| TableProblem::Truncated {
        needed: needed as u64,
        size: bytes.len() as u64,
    };
    let mut all = Vec::with_capacity(flags.len());
    for &f in flags {
        let mut maps = [(0, 0); 4];
        if f & MAPPED != 0 {
            let wide = f & WIDE_MAP != 0;
            if wide {
                *at += *at & 1;
            }
            for map in &mut maps {
                let (len, first, end) = if wide {
                    let count = bytes.get(*at..*at + 2).ok_or_else(|| truncated(*at + 2))?;
                    let len = usize::from(u16::from_le_bytes([count[0], count[1]]));
                    (len, *at + 2, *at + 2 + 2 * len)
                } else {
                    let len = usize::from(*bytes.get(*at).ok_or_else(|| truncated(*at + 1))?);
                    (len, *at + 1, *at + 1 + len)
                };
                if end > bytes.len() {
                    return Err(truncated(end));
                }
                *map = (first, len);
                *at = end;
            }
        }
        all.push(DtzMaps { flags: f, maps });
        // Tables without pawns align after their one sub-table's maps only when it has maps.
        if !matches!(leading, Leading::Pawns { .. }) && f & MAPPED != 0 {
            *at += *at & 1;
        }
    }
    if matches!(leading, Leading::Pawns { .. }) {
        *at += *at & 1;
    }
    Ok(all)
}

/// Put the squares of the pieces `codes` names (colours swapped when `flip`) into `squares`, in
/// order, each kind's squares from a1 up, each square XOR `mirror`.
fn fill(
    pos: &Position,
    codes: &[u8],
    flip: bool,
    mirror: u8,
    squares: &mut [u8],
) -> Result<(), TableProblem> {
    let mut i = 0;
    while i < codes.len() {
        let code = codes[i];
        let (color, kind) = piece_of(code).ok_or(TableProblem::PieceCode(code))?;
        let color = if flip { !color } else { color };
        let run = codes[i..].iter().take_while(|&&c| c == code).count();
        let on_board = pos.pieces(color, kind);
        if on_board.count() as usize != run {
            // The material was matched before the table was chosen; the header's list was
            // checked against it when the table was read.
            return Err(TableProblem::Pieces {
                holds: Material::of(pos).to_string(),
            });
        }
        for sq in on_board {
            squares[i] = sq.index() as u8 ^ mirror;
            i += 1;
        }
    }
    Ok(())
}
