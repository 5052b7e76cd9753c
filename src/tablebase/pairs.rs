//! One sub-table's compressed values: the compression header, the block index, and the decoding
//! of one value ([`Pairs::value`]).
//!
//! The values (in a WDL table 0..4: loss, blessed loss, draw, cursed win, win; in a DTZ table a
//! number of 12 bits, read through the table's maps) are compressed in two stages.
//! Pairs of adjacent symbols were replaced by new symbols, over and over (re-pair compression),
//! so each symbol stands for a run of values, and the symbols were then written with a canonical
//! Huffman code into fixed-size blocks. Finding value `i` takes the block index (one entry per
//! `2^idx_bits` values, pointing into the blocks near its middle), a walk along the blocks' value
//! counts to the block holding `i`, Huffman decoding of that block's symbols up to the one whose
//! run holds `i`, and a descent of the symbol's pair tree to the value.
//!
//! Everything here is checked when the table is read, so that a damaged file is refused then:
//! the code lengths and the canonical code's bases, the symbol dictionary (every reference inside
//! it, no cycles, every leaf a WDL value), the block sizes (they add up to the positions) and
//! every index entry (each points where the sizes say). Decoding still checks its bounds and
//! returns an error instead of reading outside the table.

use super::error::TableProblem;
use super::header::Kind;

/// A leaf of the pair tree: its second reference is 0xfff.
const LEAF: u16 = 0x0fff;

/// The most values one symbol can stand for: a block holds at most 65,536.
const MAX_RUN: u32 = 1 << 16;

/// One sub-table's values.
#[derive(Debug, Clone)]
pub(super) enum Pairs {
    /// Every position has the same value.
    Constant(u16),
    /// Compressed values.
    Compressed(Box<Compressed>),
}

/// A compressed sub-table: where its parts are in the file, and what decoding needs.
#[derive(Debug, Clone)]
pub(super) struct Compressed {
    positions: u64,
    block_bits: u32,
    idx_bits: u32,
    real_blocks: u64,
    blocks: u64,
    min_len: u32,
    /// The canonical code's smallest code word of each length, left-aligned in 64 bits.
    base: Vec<u64>,
    /// Where the first symbol number of each code length is (u16 each).
    offsets_at: usize,
    symbols: usize,
    /// Where the symbols' three-byte entries start.
    symbols_at: usize,
    /// For each symbol, how many values it stands for, less one.
    run: Vec<u32>,
    /// WDL (a leaf is one byte, 0..4) or DTZ (a leaf is 12 bits).
    kind: Kind,
    /// The parts that follow the headers, set by [`Compressed::place`].
    index_at: usize,
    sizes_at: usize,
    data_at: usize,
}

/// The byte at `at`, or an error saying the file ends first.
fn byte(bytes: &[u8], at: usize) -> Result<u8, TableProblem> {
    bytes.get(at).copied().ok_or(TableProblem::Truncated {
        needed: at as u64 + 1,
        size: bytes.len() as u64,
    })
}

fn le16(bytes: &[u8], at: usize) -> Result<u16, TableProblem> {
    Ok(u16::from_le_bytes([byte(bytes, at)?, byte(bytes, at + 1)?]))
}

fn le32(bytes: &[u8], at: usize) -> Result<u32, TableProblem> {
    Ok(u32::from(le16(bytes, at)?) | u32::from(le16(bytes, at + 2)?) << 16)
}

/// Big-endian bytes of the block from `at`, zeros past `end`.
fn be_bytes<const N: usize>(bytes: &[u8], at: usize, end: usize) -> [u8; N] {
    let mut out = [0u8; N];
    for (i, b) in out.iter_mut().enumerate() {
        if at + i < end {
            *b = bytes[at + i];
        }
    }
    out
}

impl Pairs {
    /// Read the compression header at `*at` of a sub-table of `positions` values of a table of
    /// `kind`; `*at` moves past it. Also gives the header's flag byte (a DTZ table's says which
    /// side to move it holds and how its values are mapped).
    pub fn parse(
        bytes: &[u8],
        at: &mut usize,
        positions: u64,
        kind: Kind,
    ) -> Result<(Pairs, u8), TableProblem> {
        let flags = byte(bytes, *at)?;
        if flags & 0x80 != 0 {
            // A DTZ table's constant sub-table has the value 0, whatever its second byte says
            // (as the reference probers read it).
            let value = match kind {
                Kind::Wdl => byte(bytes, *at + 1)?,
                Kind::Dtz => 0,
            };
            if value > 4 {
                return Err(TableProblem::Symbols("a constant value is no WDL value"));
            }
            *at += 2;
            return Ok((Pairs::Constant(u16::from(value)), flags));
        }
        let block_bits = u32::from(byte(bytes, *at + 1)?);
        let idx_bits = u32::from(byte(bytes, *at + 2)?);
        let real_blocks = u64::from(le32(bytes, *at + 4)?);
        let blocks = real_blocks + u64::from(byte(bytes, *at + 3)?);
        let max_len = u32::from(byte(bytes, *at + 8)?);
        let min_len = u32::from(byte(bytes, *at + 9)?);
        if !(1..=32).contains(&min_len) || !(min_len..=32).contains(&max_len) {
            return Err(TableProblem::Compression("code lengths out of range"));
        }
        if !(1..=40).contains(&idx_bits) || block_bits > 24 {
            return Err(TableProblem::Compression(
                "index or block size out of range",
            ));
        }
        let lengths = (max_len - min_len + 1) as usize;
        let offsets_at = *at + 10;
        let symbols = usize::from(le16(bytes, offsets_at + 2 * lengths)?);
        // Symbols are numbered in 12 bits (a 5-man table has the full 4,095 of them).
        if symbols == 0 || symbols > usize::from(LEAF) {
            return Err(TableProblem::Symbols("symbol count out of range"));
        }
        let symbols_at = offsets_at + 2 * lengths + 2;
        let end = symbols_at + 3 * symbols + (symbols & 1);
        if end > bytes.len() {
            return Err(TableProblem::Truncated {
                needed: end as u64,
                size: bytes.len() as u64,
            });
        }
        let base = bases(bytes, offsets_at, lengths, min_len)?;
        let run = runs(&bytes[symbols_at..symbols_at + 3 * symbols], kind)?;
        *at = end;
        let pairs = Pairs::Compressed(Box::new(Compressed {
            positions,
            block_bits,
            idx_bits,
            real_blocks,
            blocks,
            min_len,
            base,
            offsets_at,
            symbols,
            symbols_at,
            run,
            kind,
            index_at: 0,
            sizes_at: 0,
            data_at: 0,
        }));
        Ok((pairs, flags))
    }

    /// The value of position `index` (a WDL table's 0..4).
    pub fn value(&self, bytes: &[u8], index: u64) -> Result<u16, TableProblem> {
        match self {
            Pairs::Constant(value) => Ok(*value),
            Pairs::Compressed(c) => c.value(bytes, index),
        }
    }
}

/// The canonical code's bases: for each length from `min_len`, the smallest code word of that
/// length, left-aligned. They must not grow with the length, and the longest is 0 (so decoding
/// always stops at a length).
fn bases(
    bytes: &[u8],
    offsets_at: usize,
    lengths: usize,
    min_len: u32,
) -> Result<Vec<u64>, TableProblem> {
    let mut base = vec![0i64; lengths];
    for i in (0..lengths - 1).rev() {
        let this = i64::from(le16(bytes, offsets_at + 2 * i)?);
        let next = i64::from(le16(bytes, offsets_at + 2 * i + 2)?);
        let twice = base[i + 1] + this - next;
        if twice < 0 {
            return Err(TableProblem::Compression(
                "the code's bases are out of range",
            ));
        }
        base[i] = twice / 2;
    }
    let mut aligned = Vec::with_capacity(lengths);
    for (i, &b) in base.iter().enumerate() {
        let len = min_len + i as u32;
        if (b as u64) >> len != 0 {
            return Err(TableProblem::Compression(
                "the code's bases are out of range",
            ));
        }
        aligned.push((b as u64) << (64 - len));
    }
    if aligned.windows(2).any(|w| w[0] < w[1]) {
        return Err(TableProblem::Compression(
            "the code's bases are not canonical",
        ));
    }
    Ok(aligned)
}

/// The two references of a symbol's entry (the second is [`LEAF`] for a leaf).
fn references(entry: &[u8]) -> (usize, u16) {
    let first = usize::from(entry[1] & 0x0f) << 8 | usize::from(entry[0]);
    let second = u16::from(entry[2]) << 4 | u16::from(entry[1] >> 4);
    (first, second)
}

/// For each symbol of the dictionary `entries` (three bytes each), how many values it stands
/// for, less one; checking every reference, that no symbol contains itself, that every leaf of
/// a WDL table is a WDL value, and that no symbol stands for more values than a block holds.
fn runs(entries: &[u8], kind: Kind) -> Result<Vec<u32>, TableProblem> {
    let count = entries.len() / 3;
    // 0: not yet seen; 1: being expanded (seeing it again is a cycle); 2: done.
    let mut state = vec![0u8; count];
    let mut run = vec![0u32; count];
    for start in 0..count {
        let mut stack = vec![start];
        while let Some(&s) = stack.last() {
            if state[s] == 2 {
                stack.pop();
                continue;
            }
            let entry = &entries[3 * s..3 * s + 3];
            let (first, second) = references(entry);
            if second == LEAF {
                if kind == Kind::Wdl && entry[0] > 4 {
                    return Err(TableProblem::Symbols("a leaf is no WDL value"));
                }
                state[s] = 2;
                stack.pop();
                continue;
            }
            let second = usize::from(second);
            if first >= count || second >= count {
                return Err(TableProblem::Symbols(
                    "a symbol refers outside the dictionary",
                ));
            }
            let pending: Vec<usize> = [first, second]
                .into_iter()
                .filter(|&c| state[c] != 2)
                .collect();
            if pending.is_empty() {
                run[s] = run[first] + run[second] + 1;
                if run[s] >= MAX_RUN {
                    return Err(TableProblem::Symbols("a symbol is longer than a block"));
                }
                state[s] = 2;
                stack.pop();
            } else if state[s] == 1 || pending.iter().any(|&c| state[c] == 1) {
                return Err(TableProblem::Symbols("a symbol contains itself"));
            } else {
                state[s] = 1;
                stack.extend(pending);
            }
        }
    }
    Ok(run)
}

impl Compressed {
    /// Bytes of the block index, block sizes and blocks.
    pub fn part_sizes(&self) -> Result<[u64; 3], TableProblem> {
        let entries = self.positions.div_ceil(1 << self.idx_bits);
        let data = self
            .real_blocks
            .checked_shl(self.block_bits)
            .ok_or(TableProblem::Compression("the blocks' size overflows"))?;
        Ok([6 * entries, 2 * self.blocks, data])
    }

    /// Set where the block index, the block sizes and the blocks are.
    pub fn place(&mut self, index_at: usize, sizes_at: usize, data_at: usize) {
        self.index_at = index_at;
        self.sizes_at = sizes_at;
        self.data_at = data_at;
    }

    fn size(&self, bytes: &[u8], block: u64) -> Result<u64, TableProblem> {
        Ok(u64::from(le16(bytes, self.sizes_at + 2 * block as usize)?))
    }

    /// Check that the block sizes add up to the positions and that every index entry points
    /// where they say: the value at the middle of each stretch of `2^idx_bits` values.
    pub fn check_index(&self, bytes: &[u8]) -> Result<(), TableProblem> {
        let mut counted = 0;
        for block in 0..self.real_blocks {
            counted += self.size(bytes, block)? + 1;
        }
        if counted != self.positions {
            return Err(TableProblem::BlockSizes {
                counted,
                positions: self.positions,
            });
        }
        let entries = self.positions.div_ceil(1 << self.idx_bits);
        let (mut block, mut start) = (0u64, 0u64);
        for k in 0..entries {
            let target = (k << self.idx_bits) + (1 << (self.idx_bits - 1));
            // Walk to the block holding `target` (the extra blocks past the real ones stand for
            // the values past the end, so that the last entry has a block too).
            loop {
                if block >= self.blocks {
                    return Err(TableProblem::IndexEntry(k));
                }
                let next = start + self.size(bytes, block)? + 1;
                if next > target {
                    break;
                }
                start = next;
                block += 1;
            }
            let at = self.index_at + 6 * k as usize;
            let entry_block = u64::from(le32(bytes, at)?);
            let entry_offset = u64::from(le16(bytes, at + 4)?);
            if entry_block != block || start + entry_offset != target {
                return Err(TableProblem::IndexEntry(k));
            }
        }
        Ok(())
    }

    /// The value of position `index`.
    fn value(&self, bytes: &[u8], index: u64) -> Result<u16, TableProblem> {
        if index >= self.positions {
            return Err(TableProblem::IndexOutOfRange(index));
        }
        let entry = index >> self.idx_bits;
        let at = self.index_at + 6 * entry as usize;
        let mut block = i64::from(le32(bytes, at)?);
        let mut offset = (index & ((1 << self.idx_bits) - 1)) as i64
            - (1i64 << (self.idx_bits - 1))
            + i64::from(le16(bytes, at + 4)?);
        let size = |block: i64| -> Result<i64, TableProblem> {
            if block < 0 || block as u64 >= self.blocks {
                return Err(TableProblem::BlockOutOfRange(block));
            }
            Ok(self.size(bytes, block as u64)? as i64)
        };
        while offset < 0 {
            block -= 1;
            offset += size(block)? + 1;
        }
        while offset > size(block)? {
            offset -= size(block)? + 1;
            block += 1;
        }
        if block as u64 >= self.real_blocks {
            return Err(TableProblem::BlockOutOfRange(block));
        }
        let symbol = self.decode(bytes, block as u64, offset as u32)?;
        Ok(self.leaf(bytes, symbol.0, symbol.1))
    }

    /// Decode block `block` up to the symbol whose run holds value `offset` of the block:
    /// (the symbol, the value's place in its run).
    fn decode(
        &self,
        bytes: &[u8],
        block: u64,
        mut offset: u32,
    ) -> Result<(usize, u32), TableProblem> {
        let start = self.data_at + ((block as usize) << self.block_bits);
        let end = start + (1usize << self.block_bits);
        if end > bytes.len() {
            return Err(TableProblem::BlockOutOfRange(block as i64));
        }
        let budget = 8u64 << self.block_bits;
        let mut code = u64::from_be_bytes(be_bytes(bytes, start, end));
        let mut next = start + 8;
        let mut pending = 0u32;
        let mut used = 0u64;
        loop {
            let mut len = self.min_len;
            while code < self.base[(len - self.min_len) as usize] {
                len += 1;
            }
            let first = u64::from(le16(
                bytes,
                self.offsets_at + 2 * (len - self.min_len) as usize,
            )?);
            let symbol = first + ((code - self.base[(len - self.min_len) as usize]) >> (64 - len));
            used += u64::from(len);
            if symbol >= self.symbols as u64 || used > budget {
                return Err(TableProblem::BadCode);
            }
            let symbol = symbol as usize;
            if offset <= self.run[symbol] {
                return Ok((symbol, offset));
            }
            offset -= self.run[symbol] + 1;
            code <<= len;
            pending += len;
            if pending >= 32 {
                pending -= 32;
                code |= u64::from(u32::from_be_bytes(be_bytes(bytes, next, end))) << pending;
                next += 4;
            }
        }
    }

    /// Descend the pair tree of `symbol` to the value at place `offset` of its run.
    fn leaf(&self, bytes: &[u8], mut symbol: usize, mut offset: u32) -> u16 {
        let entry = |s: usize| &bytes[self.symbols_at + 3 * s..self.symbols_at + 3 * s + 3];
        while self.run[symbol] != 0 {
            let (first, second) = references(entry(symbol));
            if offset <= self.run[first] {
                symbol = first;
            } else {
                offset -= self.run[first] + 1;
                symbol = usize::from(second);
            }
        }
        let leaf = entry(symbol);
        match self.kind {
            Kind::Wdl => u16::from(leaf[0]),
            Kind::Dtz => u16::from(leaf[1] & 0x0f) << 8 | u16::from(leaf[0]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(first: usize, second: u16) -> [u8; 3] {
        [
            first as u8,
            ((first >> 8) as u8 & 0x0f) | ((second as u8 & 0x0f) << 4),
            (second >> 4) as u8,
        ]
    }

    #[test]
    fn runs_expand_pairs_and_refuse_cycles() {
        // Leaves 0 (value 2) and 1 (value 4); 2 = (0, 1); 3 = (2, 2).
        let mut dict = Vec::new();
        for e in [[2, 0xf0, 0xff], [4, 0xf0, 0xff], entry(0, 1), entry(2, 2)] {
            dict.extend_from_slice(&e);
        }
        assert_eq!(runs(&dict, Kind::Wdl).unwrap(), vec![0, 0, 1, 3]);
        // 3 = (3, 0): contains itself.
        dict[9..12].copy_from_slice(&entry(3, 0));
        assert!(matches!(
            runs(&dict, Kind::Wdl),
            Err(TableProblem::Symbols(_))
        ));
        // 2 refers to symbol 7 of four.
        dict[9..12].copy_from_slice(&entry(2, 2));
        dict[6..9].copy_from_slice(&entry(7, 1));
        assert!(matches!(
            runs(&dict, Kind::Wdl),
            Err(TableProblem::Symbols(_))
        ));
        // A leaf with value 5.
        dict[6..9].copy_from_slice(&[5, 0xf0, 0xff]);
        assert!(matches!(
            runs(&dict, Kind::Wdl),
            Err(TableProblem::Symbols(_))
        ));
    }

    /// A compression header with `symbols` leaves of value 0 and one code length.
    fn header_with(symbols: u16) -> Vec<u8> {
        let mut bytes = vec![0, 6, 16, 0, 1, 0, 0, 0, 1, 1, 0, 0];
        bytes.extend_from_slice(&symbols.to_le_bytes());
        for _ in 0..symbols {
            bytes.extend_from_slice(&[0, 0xf0, 0xff]);
        }
        bytes.push(0);
        bytes
    }

    /// 4,095 symbols is the most 12 bits number, and a real count (fastchess's KBNvKN.rtbw has
    /// it in both sub-tables).
    #[test]
    fn a_full_dictionary_is_read() {
        let mut at = 0;
        assert!(Pairs::parse(&header_with(4095), &mut at, 1000, Kind::Wdl).is_ok());
        assert_eq!(at, 12 + 2 + 3 * 4095 + 1);
        let mut at = 0;
        assert!(matches!(
            Pairs::parse(&header_with(4096), &mut at, 1000, Kind::Wdl),
            Err(TableProblem::Symbols(_))
        ));
    }

    #[test]
    fn bases_must_be_canonical() {
        // Lengths 1 and 2: the code word 1 (symbol 2), then 00 and 01 (symbols 0 and 1): the
        // first symbols of each length are 2 and 0, and the bases 1 and 00, left-aligned.
        let bytes = [2u8, 0, 0, 0];
        assert_eq!(bases(&bytes, 0, 2, 1).unwrap(), vec![1 << 63, 0]);
        // First symbols that would need a negative base.
        let bytes = [0u8, 0, 4, 0];
        assert!(bases(&bytes, 0, 2, 1).is_err());
        // Three code words of length 1 cannot be.
        let bytes = [6u8, 0, 0, 0];
        assert!(bases(&bytes, 0, 2, 1).is_err());
    }
}
