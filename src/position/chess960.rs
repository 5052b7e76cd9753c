//! Chess960 start positions and their two numberings.
//!
//! - **Scharnagl** (0-959, 518 is the standard position): the number's digits in mixed radix give
//!   the light-squared bishop (mod 4: b, d, f, h), the dark-squared bishop (mod 4: a, c, e, g),
//!   the queen's place among the six free squares (mod 6), and the knights' pair among the five
//!   left (0-9, the "N5N" table); rook, king, rook fill the last three squares.
//! - **Fritz9** (1-960, 359 is the standard position): the same 16 bishop codes, then the knights'
//!   pair among the six non-bishop squares (15 pairs in lexicographic order), then the queen among
//!   the four squares left: id = 1 + bishops + 16 x (knights + 15 x queen).
//!
//! And the question any position may raise: whether its castling rights can only be read as
//! Chess960's ([`Position::needs_chess960`]).

use crate::{CastlingMode, CastlingSide, Color, File, PieceKind, Position};
use std::fmt;

/// White's back rank, file a first.
pub type BackRank = [PieceKind; 8];

/// The N5N table: the two knight squares among five free squares, by knight code 0-9.
const KNIGHT_PAIRS_OF_FIVE: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// Which numbering a number belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numbering {
    /// 0-959, 518 = standard.
    Scharnagl,
    /// 1-960, 359 = standard.
    Fritz9,
}

/// A number outside the numbering's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberOutOfRange {
    /// The number.
    pub number: u32,
    /// Its numbering.
    pub numbering: Numbering,
}

impl fmt::Display for NumberOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.numbering {
            Numbering::Scharnagl => {
                write!(f, "{}: Scharnagl numbers run from 0 to 959", self.number)
            }
            Numbering::Fritz9 => write!(f, "{}: Fritz9 numbers run from 1 to 960", self.number),
        }
    }
}

impl std::error::Error for NumberOutOfRange {}

/// The free files of `rank`, in order.
fn free_files(rank: &[Option<PieceKind>; 8]) -> Vec<usize> {
    (0..8).filter(|&f| rank[f].is_none()).collect()
}

fn place_bishops(code: usize) -> [Option<PieceKind>; 8] {
    let mut rank = [None; 8];
    rank[2 * (code % 4) + 1] = Some(PieceKind::Bishop);
    rank[2 * (code / 4)] = Some(PieceKind::Bishop);
    rank
}

fn fill_rook_king_rook(mut rank: [Option<PieceKind>; 8]) -> BackRank {
    for (file, kind) in
        free_files(&rank)
            .into_iter()
            .zip([PieceKind::Rook, PieceKind::King, PieceKind::Rook])
    {
        rank[file] = Some(kind);
    }
    rank.map(|p| p.expect("every file filled"))
}

/// The back rank of Scharnagl start position `number` (0-959).
pub fn scharnagl_back_rank(number: u32) -> Result<BackRank, NumberOutOfRange> {
    if number >= 960 {
        return Err(NumberOutOfRange {
            number,
            numbering: Numbering::Scharnagl,
        });
    }
    let n = number as usize;
    let mut rank = place_bishops(n % 16);
    let queen = (n / 16) % 6;
    let knights = n / 96;
    rank[free_files(&rank)[queen]] = Some(PieceKind::Queen);
    let free = free_files(&rank);
    let (a, b) = KNIGHT_PAIRS_OF_FIVE[knights];
    rank[free[a]] = Some(PieceKind::Knight);
    rank[free[b]] = Some(PieceKind::Knight);
    Ok(fill_rook_king_rook(rank))
}

/// The pairs of six squares in lexicographic order: (0,1) = 0 ... (4,5) = 14.
fn pairs_of_six() -> impl Iterator<Item = (usize, usize)> {
    (0..6).flat_map(|a| (a + 1..6).map(move |b| (a, b)))
}

/// The back rank of Fritz9 start position `id` (1-960).
pub fn fritz9_back_rank(id: u32) -> Result<BackRank, NumberOutOfRange> {
    if !(1..=960).contains(&id) {
        return Err(NumberOutOfRange {
            number: id,
            numbering: Numbering::Fritz9,
        });
    }
    let n = (id - 1) as usize;
    let mut rank = place_bishops(n % 16);
    let knights = (n / 16) % 15;
    let queen = n / 240;
    let free = free_files(&rank);
    let (a, b) = pairs_of_six().nth(knights).expect("15 pairs");
    rank[free[a]] = Some(PieceKind::Knight);
    rank[free[b]] = Some(PieceKind::Knight);
    rank[free_files(&rank)[queen]] = Some(PieceKind::Queen);
    Ok(fill_rook_king_rook(rank))
}

/// The bishop code (0-15) of a valid back rank: light bishop's index among b/d/f/h plus 4 times
/// the dark bishop's index among a/c/e/g.
fn bishop_code(rank: &BackRank) -> Option<usize> {
    let light = (0..4).find(|i| rank[2 * i + 1] == PieceKind::Bishop)?;
    let dark = (0..4).find(|i| rank[2 * i] == PieceKind::Bishop)?;
    Some(light + 4 * dark)
}

/// True for the 960 legal start arrangements: two bishops on opposite colours, the king between
/// the rooks, one queen, two knights.
pub fn is_start_back_rank(rank: &BackRank) -> bool {
    let count = |kind| rank.iter().filter(|&&p| p == kind).count();
    let files = |kind| (0..8).filter(move |&f| rank[f] == kind);
    let rooks: Vec<usize> = files(PieceKind::Rook).collect();
    let king = files(PieceKind::King).next();
    count(PieceKind::Bishop) == 2
        && count(PieceKind::Knight) == 2
        && count(PieceKind::Queen) == 1
        && bishop_code(rank).is_some()
        && matches!((king, &rooks[..]), (Some(k), [a, b]) if *a < k && k < *b)
}

/// The Scharnagl number of a start arrangement.
pub fn scharnagl_number(rank: &BackRank) -> Option<u32> {
    if !is_start_back_rank(rank) {
        return None;
    }
    let bishops = bishop_code(rank)?;
    let others: Vec<usize> = (0..8).filter(|&f| rank[f] != PieceKind::Bishop).collect();
    let queen = others.iter().position(|&f| rank[f] == PieceKind::Queen)?;
    let rest: Vec<usize> = others
        .into_iter()
        .filter(|&f| rank[f] != PieceKind::Queen)
        .collect();
    let knight_slots: Vec<usize> = (0..5)
        .filter(|&i| rank[rest[i]] == PieceKind::Knight)
        .collect();
    let knights = KNIGHT_PAIRS_OF_FIVE
        .iter()
        .position(|&(a, b)| knight_slots == [a, b])?;
    Some((bishops + 16 * queen + 96 * knights) as u32)
}

/// The Fritz9 number of a start arrangement.
pub fn fritz9_number(rank: &BackRank) -> Option<u32> {
    if !is_start_back_rank(rank) {
        return None;
    }
    let bishops = bishop_code(rank)?;
    let six: Vec<usize> = (0..8).filter(|&f| rank[f] != PieceKind::Bishop).collect();
    let knight_slots: Vec<usize> = (0..6)
        .filter(|&i| rank[six[i]] == PieceKind::Knight)
        .collect();
    let knights = pairs_of_six().position(|(a, b)| knight_slots == [a, b])?;
    let four: Vec<usize> = six
        .into_iter()
        .filter(|&f| rank[f] != PieceKind::Knight)
        .collect();
    let queen = four.iter().position(|&f| rank[f] == PieceKind::Queen)?;
    Some((1 + bishops + 16 * (knights + 15 * queen)) as u32)
}

/// The back rank as letters, `RNBQKBNR`.
pub fn back_rank_text(rank: &BackRank) -> String {
    rank.iter()
        .map(|p| p.to_char().to_ascii_uppercase())
        .collect()
}

/// The start position with this back rank: mirrored for Black, pawns in front, both castling
/// rights per side, White to move.
pub fn start_position(rank: &BackRank) -> Position {
    let white: String = back_rank_text(rank);
    let black = white.to_ascii_lowercase();
    let rooks: Vec<char> = (0..8)
        .filter(|&f| rank[f] == PieceKind::Rook)
        .map(|f| (b'a' + f as u8) as char)
        .collect();
    let castling: String = rooks
        .iter()
        .rev()
        .map(|c| c.to_ascii_uppercase())
        .chain(rooks.iter().rev().copied())
        .collect();
    let fen = format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1");
    Position::from_fen(&fen).expect("a Chess960 start position is legal")
}

/// The back rank of `pos` if it is a Chess960 start position (as [`start_position`] builds it,
/// whatever its move counters).
pub fn start_back_rank_of(pos: &Position) -> Option<BackRank> {
    let fen = pos.shredder_fen();
    let white = fen.split('/').nth(7)?.split(' ').next()?;
    let letters: Vec<PieceKind> = white.chars().filter_map(PieceKind::from_char).collect();
    if white.len() != 8 || letters.len() != 8 || white.chars().any(|c| !c.is_ascii_uppercase()) {
        return None;
    }
    let rank: BackRank = letters.try_into().ok()?;
    if !is_start_back_rank(&rank) {
        return None;
    }
    let expected = start_position(&rank);
    let same = |p: &Position| p.shredder_fen().rsplitn(3, ' ').nth(2).map(String::from);
    (same(&expected) == same(pos)).then_some(rank)
}

impl Position {
    /// True when the position's castling rights only make sense in Chess960 (king off the
    /// e-file or a castling rook off the corner).
    pub fn needs_chess960(&self) -> bool {
        Color::ALL.into_iter().any(|color| {
            CastlingSide::ALL.into_iter().any(|side| {
                match self.castling_rights().rook(color, side) {
                    None => false,
                    Some(file) => {
                        let corner = if side == CastlingSide::King {
                            File::H
                        } else {
                            File::A
                        };
                        file != corner || self.king_square(color).file() != File::E
                    }
                }
            })
        })
    }

    /// `wanted`, or Chess960 when the position needs it (see [`Position::needs_chess960`]).
    pub fn castling_mode(&self, wanted: CastlingMode) -> CastlingMode {
        if self.needs_chess960() {
            CastlingMode::Chess960
        } else {
            wanted
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_position_in_both_numberings() {
        let standard = scharnagl_back_rank(518).unwrap();
        assert_eq!(back_rank_text(&standard), "RNBQKBNR");
        assert_eq!(fritz9_number(&standard), Some(359));
        assert_eq!(back_rank_text(&fritz9_back_rank(359).unwrap()), "RNBQKBNR");
        assert_eq!(start_position(&standard), Position::startpos());
        assert_eq!(back_rank_text(&scharnagl_back_rank(0).unwrap()), "BBQNNRKR");
        assert_eq!(
            back_rank_text(&scharnagl_back_rank(959).unwrap()),
            "RKRNNQBB"
        );
        assert!(scharnagl_back_rank(960).is_err());
        assert!(fritz9_back_rank(0).is_err() && fritz9_back_rank(961).is_err());
    }

    #[test]
    fn both_numberings_are_bijections() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let rank = scharnagl_back_rank(n).unwrap();
            assert!(is_start_back_rank(&rank));
            assert_eq!(scharnagl_number(&rank), Some(n));
            let id = fritz9_number(&rank).unwrap();
            assert!((1..=960).contains(&id));
            assert_eq!(fritz9_back_rank(id).unwrap(), rank);
            assert!(seen.insert(id), "Fritz9 id {id} twice");
        }
    }
}
