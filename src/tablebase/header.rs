//! A table's header: the magic number, the flags, and for each sub-table the pieces in the
//! order its positions are numbered, with how they are grouped ([`Header::parse`]).
//!
//! A WDL table has one sub-table per side to move (one only when both sides have the same
//! pieces), and with pawns one per file of the leading pawn (a-d) for each. A DTZ table has the
//! same flags and piece lists, but holds one side to move only (its compression header says
//! which), so only the first side's list is read. The header is read twice: its
//! first bytes when the folders are opened, so a misnamed, foreign or damaged file is refused at
//! once, and again when the table is read whole. It checks everything the format lets a header
//! be checked for: each list holds exactly the file name's pieces (in one colour orientation or
//! the other), pieces of a kind stand together, the leading group is what the material calls for,
//! and the group order names each group once.

use super::error::TableProblem;
use super::index::{Grouping, Leading, KK_PLACEMENTS, PAWN_FACTOR, THREE_PLACEMENTS};
use super::material::Material;
use crate::{Color, PieceKind};

/// The first bytes of a standard-chess WDL table (0x5d23e871, little-endian).
pub(super) const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];

/// The first bytes of a standard-chess DTZ table (0xa50c66d7, little-endian).
pub(super) const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Which of Syzygy's two kinds of table a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Win/draw/loss (`.rtbw`).
    Wdl,
    /// Distance to zeroing (`.rtbz`).
    Dtz,
}

impl Kind {
    /// The first four bytes of this kind's files.
    pub const fn magic(self) -> [u8; 4] {
        match self {
            Kind::Wdl => WDL_MAGIC,
            Kind::Dtz => DTZ_MAGIC,
        }
    }

    /// What this kind is called in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Wdl => "a WDL table (.rtbw) of standard chess",
            Kind::Dtz => "a DTZ table (.rtbz) of standard chess",
        }
    }

    /// The file name's extension.
    pub const fn extension(self) -> &'static str {
        match self {
            Kind::Wdl => "rtbw",
            Kind::Dtz => "rtbz",
        }
    }
}

/// Syzygy files' first bytes, and what they are.
const MAGICS: [([u8; 4], &str); 9] = [
    (WDL_MAGIC, Kind::Wdl.name()),
    (DTZ_MAGIC, Kind::Dtz.name()),
    ([0x4b, 0x50, 0xac, 0x88], "a DTM table (.rtbm)"),
    ([0x55, 0x8d, 0xa4, 0x49], "a WDL table of atomic chess"),
    ([0x91, 0xa9, 0x5e, 0xeb], "a DTZ table of atomic chess"),
    ([0x7b, 0xf6, 0x93, 0x15], "a WDL table of suicide chess"),
    ([0xe4, 0xcf, 0xe7, 0x23], "a DTZ table of suicide chess"),
    ([0xbc, 0x55, 0xbc, 0x21], "a WDL table of giveaway chess"),
    ([0xd6, 0xf5, 0x1b, 0x50], "a DTZ table of giveaway chess"),
];

/// Flag bit: one sub-table per side to move.
const SPLIT: u8 = 1;
/// Flag bit: one sub-table per file of the leading pawn.
const FILES: u8 = 2;
/// The flag byte's high nibble is the number of pieces.
const PIECES_SHIFT: u8 = 4;

/// The longest header a 7-man table has: magic, flags, four piece entries of 2 + 7 bytes.
pub(super) const MAX_HEADER: usize = 5 + 4 * 9;

/// One sub-table as the header describes it.
#[derive(Debug, Clone)]
pub(super) struct SubHeader {
    /// The pieces in numbering order, as Syzygy codes them: 1..6 pawn to king, +8 for Black.
    pub codes: [u8; 7],
    /// Their groups and multipliers.
    pub grouping: Grouping,
    /// How many positions the sub-table numbers.
    pub positions: u64,
}

/// A parsed header.
#[derive(Debug, Clone)]
pub(super) struct Header {
    /// WDL or DTZ.
    pub kind: Kind,
    /// The material the header calls White's and Black's (the file name's, or its mirror).
    pub stored: Material,
    /// True when both sides have the same pieces (one sub-table serves both sides to move).
    pub symmetric: bool,
    /// How the leading group is numbered.
    pub leading: Leading,
    /// The sub-tables, file by file (one file without pawns), side 0 then side 1 (when split).
    pub subs: Vec<SubHeader>,
    /// Where the header ends (aligned to 2 bytes): the compression headers start there.
    pub end: usize,
}

impl Header {
    /// Sub-tables per file: two, one per side to move, unless the material is symmetric or the
    /// table is a DTZ table.
    pub fn sides(&self) -> usize {
        if self.symmetric || self.kind == Kind::Dtz {
            1
        } else {
            2
        }
    }

    /// The sub-table of `file` (0 without pawns) and side `side`.
    pub fn sub(&self, file: usize, side: usize) -> &SubHeader {
        &self.subs[file * self.sides() + side]
    }

    /// Parse the header of a table named for `named`, from the file's first bytes (at least
    /// [`MAX_HEADER`] of them, or the whole file when it is shorter).
    pub fn parse(bytes: &[u8], named: Material, kind: Kind) -> Result<Header, TableProblem> {
        check_magic(bytes, kind)?;
        let flags = bytes[4];
        let has_pawns = named.has_pawns();
        let symmetric = named.is_symmetric();
        let split = flags & SPLIT != 0;
        let pieces = named.pieces();
        if flags & 0x0f & !(SPLIT | FILES) != 0
            || usize::from(flags >> PIECES_SHIFT) != pieces
            || (flags & FILES != 0) != has_pawns
            || split == symmetric
        {
            return Err(TableProblem::Flags(flags));
        }
        let leading = leading_of(named);
        let others = match leading {
            Leading::Pawns { others } => usize::from(others),
            _ => 0,
        };
        let entry = 1 + usize::from(others > 0) + pieces;
        let files = if has_pawns { 4 } else { 1 };
        let end = 5 + files * entry;
        if bytes.len() < end {
            return Err(TableProblem::Truncated {
                needed: end as u64,
                size: bytes.len() as u64,
            });
        }
        let mut subs = Vec::new();
        let mut stored = None;
        for file in 0..files {
            let data = &bytes[5 + file * entry..5 + (file + 1) * entry];
            let sides = if split && kind == Kind::Wdl { 2 } else { 1 };
            for side in 0..sides {
                let shift = 4 * side;
                let order = (data[0] >> shift) & 0x0f;
                let order2 = (others > 0).then(|| (data[1] >> shift) & 0x0f);
                let mut codes = [0u8; 7];
                for (i, code) in codes.iter_mut().enumerate().take(pieces) {
                    *code = (data[i + 1 + usize::from(others > 0)] >> shift) & 0x0f;
                }
                let holds = material_of(&codes[..pieces])?;
                let stored = *stored.get_or_insert(holds);
                if holds != stored || (holds != named && holds != named.mirrored()) {
                    return Err(TableProblem::Pieces {
                        holds: holds.to_string(),
                    });
                }
                let mut grouping = grouping(&codes[..pieces], holds, leading)?;
                let positions = positions(&mut grouping, leading, order, order2, file)?;
                subs.push(SubHeader {
                    codes,
                    grouping: grouping.0,
                    positions,
                });
            }
        }
        Ok(Header {
            kind,
            stored: stored.expect("a table has a sub-table"),
            symmetric,
            leading,
            subs,
            end: end + (end & 1),
        })
    }
}

/// Refuse a file whose first bytes are not a standard-chess table's of `kind`, saying what it is
/// when it is another Syzygy file.
pub(super) fn check_magic(bytes: &[u8], kind: Kind) -> Result<(), TableProblem> {
    let mut magic = [0u8; 4];
    let n = bytes.len().min(4);
    magic[..n].copy_from_slice(&bytes[..n]);
    if bytes.len() < 5 {
        return Err(TableProblem::Truncated {
            needed: 5,
            size: bytes.len() as u64,
        });
    }
    if magic == kind.magic() {
        return Ok(());
    }
    match MAGICS.iter().find(|(m, _)| *m == magic) {
        Some((_, found)) => Err(TableProblem::OtherKind {
            wanted: kind.name(),
            found,
        }),
        None => Err(TableProblem::Magic {
            found: magic,
            wanted: kind.magic(),
        }),
    }
}

/// How a material's leading group is numbered: by the leading pawns (the side with fewer pawns
/// leads, White when equal), else by the kings when they are the only unique pieces, else by
/// three unique pieces. The same for a material and its mirror.
fn leading_of(material: Material) -> Leading {
    let white = material.count(Color::White, PieceKind::Pawn);
    let black = material.count(Color::Black, PieceKind::Pawn);
    if white + black > 0 {
        let others = if white > 0 && black > 0 {
            white.max(black)
        } else {
            0
        };
        return Leading::Pawns { others };
    }
    let unique = Color::ALL
        .iter()
        .flat_map(|&c| PieceKind::ALL.map(|k| material.count(c, k)))
        .filter(|&n| n == 1)
        .count();
    if unique == 2 {
        Leading::Kings
    } else {
        Leading::ThreeUnique
    }
}

/// The colour and kind of a Syzygy piece code.
pub(super) fn piece_of(code: u8) -> Option<(Color, PieceKind)> {
    let kind = match code & 7 {
        k @ 1..=6 => PieceKind::ALL[usize::from(k) - 1],
        _ => return None,
    };
    let color = if code & 8 != 0 {
        Color::Black
    } else {
        Color::White
    };
    Some((color, kind))
}

/// The material a list of piece codes adds up to.
fn material_of(codes: &[u8]) -> Result<Material, TableProblem> {
    let mut counts = [[0u8; 6]; 2];
    for &code in codes {
        let (color, kind) = piece_of(code).ok_or(TableProblem::PieceCode(code))?;
        counts[color.index()][kind.index()] += 1;
    }
    Ok(Material::from_counts(counts))
}

/// A list's groups, checked: the leading group as `leading` requires, then each kind in one
/// run holding all its pieces. Also returns how many groups follow the leading one (the other
/// side's pawns included).
fn grouping(
    codes: &[u8],
    material: Material,
    leading: Leading,
) -> Result<(Grouping, usize), TableProblem> {
    let bad = || TableProblem::Pieces {
        holds: material.to_string(),
    };
    let count = |code: u8| codes.iter().filter(|&&c| c == code).count();
    let mut norm = [0u8; 7];
    let mut next = match leading {
        Leading::Kings | Leading::ThreeUnique => {
            let n = if leading == Leading::Kings { 2 } else { 3 };
            let head = &codes[..n];
            if head.iter().any(|&c| count(c) != 1) {
                return Err(bad());
            }
            n
        }
        Leading::Pawns { others } => {
            let first = codes[0];
            let lead = count(first);
            if first & 7 != 1 || codes[..lead].iter().any(|&c| c != first) {
                return Err(bad());
            }
            if others > 0 {
                let other = first ^ 8;
                let end = lead + usize::from(others);
                if end > codes.len() {
                    return Err(bad());
                }
                let run = &codes[lead..end];
                if count(other) != usize::from(others) || run.iter().any(|&c| c != other) {
                    return Err(bad());
                }
            }
            lead
        }
    };
    norm[0] = next as u8;
    let mut groups = 0;
    if let Leading::Pawns { others } = leading {
        if others > 0 {
            norm[next] = others;
            next += usize::from(others);
            groups += 1;
        }
    }
    while next < codes.len() {
        let code = codes[next];
        let run = codes[next..].iter().take_while(|&&c| c == code).count();
        if run != count(code) || code & 7 == 1 && !matches!(leading, Leading::Pawns { .. }) {
            return Err(bad());
        }
        norm[next] = run as u8;
        next += run;
        groups += 1;
    }
    let grouping = Grouping {
        pieces: codes.len(),
        norm,
        factor: [0; 7],
    };
    Ok((grouping, groups))
}

/// Fill in the multipliers of each group, in the order the header gives (`order` for the
/// leading group, `order2` for the other side's pawns), and return the sub-table's number of
/// positions.
fn positions(
    grouping: &mut (Grouping, usize),
    leading: Leading,
    order: u8,
    order2: Option<u8>,
    file: usize,
) -> Result<u64, TableProblem> {
    let (grouping, groups) = grouping;
    let slots = 1 + *groups;
    let order = usize::from(order);
    if order >= slots {
        return Err(TableProblem::Order(order as u8));
    }
    let order2 = match order2 {
        Some(o) if usize::from(o) >= slots || usize::from(o) == order => {
            return Err(TableProblem::Order(o))
        }
        Some(o) => Some(usize::from(o)),
        None => None,
    };
    let lead = usize::from(grouping.norm[0]);
    let mut next = lead + order2.map_or(0, |_| usize::from(grouping.norm[lead]));
    let mut free = 64 - next as u64;
    let mut size: u64 = 1;
    let overflow = || TableProblem::Compression("the table's size overflows");
    for slot in 0..slots {
        let (at, count) = if slot == order {
            let count = match leading {
                Leading::Kings => KK_PLACEMENTS,
                Leading::ThreeUnique => THREE_PLACEMENTS,
                Leading::Pawns { .. } => PAWN_FACTOR[lead - 1][file],
            };
            (0, count)
        } else if Some(slot) == order2 {
            let others = u64::from(grouping.norm[lead]);
            (lead, super::index::BINOMIAL[others as usize][48 - lead])
        } else {
            let n = usize::from(grouping.norm[next]);
            let count = super::index::BINOMIAL[n][free as usize];
            let at = next;
            free -= n as u64;
            next += n;
            (at, count)
        };
        grouping.factor[at] = size;
        size = size.checked_mul(count).ok_or_else(overflow)?;
    }
    Ok(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_groups_follow_the_material() {
        let m = |s: &str| s.parse::<Material>().unwrap();
        assert_eq!(leading_of(m("KQvK")), Leading::ThreeUnique);
        assert_eq!(leading_of(m("KQQvK")), Leading::Kings);
        assert_eq!(leading_of(m("KRvKR")), Leading::ThreeUnique);
        assert_eq!(leading_of(m("KPvK")), Leading::Pawns { others: 0 });
        assert_eq!(leading_of(m("KPPvKP")), Leading::Pawns { others: 2 });
        assert_eq!(leading_of(m("KPvKPP")), Leading::Pawns { others: 2 });
    }

    #[test]
    fn magics_are_named() {
        let mut bytes = [0u8; 16];
        assert!(matches!(
            check_magic(&bytes, Kind::Wdl),
            Err(TableProblem::Magic {
                found: [0, 0, 0, 0],
                ..
            })
        ));
        bytes[..4].copy_from_slice(&[0x55, 0x8d, 0xa4, 0x49]);
        assert!(
            matches!(check_magic(&bytes, Kind::Wdl), Err(TableProblem::OtherKind { found, .. }) if found.contains("atomic"))
        );
        bytes[..4].copy_from_slice(&WDL_MAGIC);
        assert!(check_magic(&bytes, Kind::Wdl).is_ok());
        assert!(matches!(
            check_magic(&bytes, Kind::Dtz),
            Err(TableProblem::OtherKind { found, .. }) if found.contains("WDL")
        ));
        bytes[..4].copy_from_slice(&DTZ_MAGIC);
        assert!(check_magic(&bytes, Kind::Dtz).is_ok());
        assert!(matches!(
            check_magic(&bytes[..3], Kind::Wdl),
            Err(TableProblem::Truncated { .. })
        ));
    }

    /// KQvKR's header as the generator writes it (pieces K, k, Q, r in numbering order): the
    /// sub-table holds the 31,332 placements of three unique pieces times 61 for the last.
    #[test]
    fn a_header_gives_the_sub_table_sizes() {
        // magic, flags (four pieces, split), order byte, then pieces: low nibble side 0, high nibble side 1.
        let mut bytes = WDL_MAGIC.to_vec();
        bytes.push(4 << PIECES_SHIFT | SPLIT);
        bytes.extend_from_slice(&[0x00, 0xe6, 0x6e, 0x55, 0xcc]);
        let named: Material = "KQvKR".parse().unwrap();
        let header = Header::parse(&bytes, named, Kind::Wdl).unwrap();
        assert_eq!(header.subs.len(), 2);
        assert_eq!(header.sub(0, 0).positions, 31_332 * 61);
        assert_eq!(header.stored, named);
        assert_eq!(header.end, 10);
        // The same bytes read as KQvKN's: the header holds other pieces.
        let other: Material = "KQvKN".parse().unwrap();
        assert!(matches!(
            Header::parse(&bytes, other, Kind::Wdl),
            Err(TableProblem::Pieces { .. })
        ));
    }
}
