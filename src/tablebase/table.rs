//! One `.rtbw` file: the cheap check when the folders are opened ([`check_file`]), reading it
//! whole ([`Table::read`]), and looking up the value of a position in it ([`Table::wdl`]).
//!
//! The whole file is read into memory at its first use and kept: probes then cost no system
//! call, and the checksum covers every byte once. (3- to 5-man tables are at most a few tens of
//! MB each, 378 MB for all 5-man WDL tables; the 6-man WDL tables are 68 GB together, and a
//! program that touches many of them needs that much memory.)
//!
//! The file's layout, after the header: one compression header per sub-table, then every
//! sub-table's block index, then every sub-table's block sizes, then each sub-table's blocks
//! (each start aligned to 64 bytes), padding to a multiple of 64, and the 16-byte checksum.

use super::checksum::table_checksum;
use super::error::TableProblem;
use super::header::{piece_of, Header, MAX_HEADER};
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
}

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
pub(super) fn check_file(path: &Path, named: Material) -> Result<(), TableProblem> {
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
    Header::parse(&first, named).map(|_| ())
}

impl Table {
    /// Read the table file of `named` whole and check it: size, header, checksum, the
    /// compression headers, the layout of the parts, the block sizes and the block index.
    pub fn read(path: &Path, named: Material) -> Result<Table, TableProblem> {
        let bytes = std::fs::read(path).map_err(read_error)?;
        check_size(bytes.len() as u64)?;
        let header = Header::parse(&bytes, named)?;
        let body = bytes.len() - 16;
        let computed = table_checksum(&bytes[..body]);
        let stored: [u8; 16] = bytes[body..].try_into().expect("16 bytes");
        if computed != stored {
            return Err(TableProblem::Checksum { stored, computed });
        }
        let mut at = header.end;
        let mut pairs = Vec::with_capacity(header.subs.len());
        for sub in &header.subs {
            pairs.push(Pairs::parse(&bytes, &mut at, sub.positions)?);
        }
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
        })
    }

    /// The value of `pos`, whose material must be the table's or its mirror: -2 (loss) to 2
    /// (win) for the side to move, as the table stores it (captures are not looked at).
    pub fn wdl(&self, pos: &Position) -> Result<i8, TableProblem> {
        let header = &self.header;
        let white_to_move = pos.side_to_move() == Color::White;
        // `flip`: the position's White plays the table's Black. `side`: the sub-table of the
        // side to move, as the table sees the colours.
        let (flip, side) = if header.symmetric {
            (!white_to_move, 0)
        } else {
            let flip = Material::of(pos) != header.stored;
            (flip, usize::from(white_to_move == flip))
        };
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
                let sub = file * header.sides() + side;
                let s = &header.subs[sub];
                let n = s.grouping.pieces;
                fill(pos, &s.codes[lead..n], flip, mirror, &mut squares[lead..n])?;
                (sub, encode_pawns(&mut squares, &s.grouping, others))
            }
            leading => {
                let s = &header.subs[side];
                let n = s.grouping.pieces;
                fill(pos, &s.codes[..n], flip, 0, &mut squares[..n])?;
                let kings = leading == Leading::Kings;
                let index = encode_pieces(&mut squares, &s.grouping, kings)
                    .ok_or(TableProblem::IndexOutOfRange(u64::MAX))?;
                (side, index)
            }
        };
        let value = self.pairs[sub].value(&self.bytes, index)?;
        Ok(value as i8 - 2)
    }
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
