//! Material signatures: how many pieces of each kind each side has, written as Syzygy names its
//! tables (`KQvKR`: White's pieces, `v`, Black's, each side from the king down to the pawns).
//!
//! One table serves a material and its colour-mirror (`KQvKR` also answers `KRvKQ`), under the
//! one name Syzygy gives the pair ([`Material::syzygy_name`]). This module only counts and names;
//! it does not know the file format or the board geometry.

use crate::{Color, PieceKind, Position};
use std::fmt;
use std::str::FromStr;

/// The kinds in the order Syzygy names them: king, queen, rook, bishop, knight, pawn.
pub(super) const NAME_ORDER: [PieceKind; 6] = PieceKind::KING_FIRST;

/// The most pieces, kings included, a Syzygy table holds (the 7-man tables).
pub const MAX_TABLE_PIECES: usize = 7;

/// A material signature: the count of each kind for each colour, indexed by
/// [`Color::index`] then [`PieceKind::index`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    counts: [[u8; 6]; 2],
}

/// Why a name is not a Syzygy material name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaterialNameError {
    /// The name has no `v` between the two sides, or more than one.
    NoSeparator,
    /// A letter that is not one of `KQRBNP`.
    BadLetter(char),
    /// A side without exactly one king.
    KingCount {
        /// Whose side.
        color: Color,
        /// How many kings the name gives it.
        count: usize,
    },
    /// More pieces than any Syzygy table holds.
    TooManyPieces(usize),
    /// A side with more than eight pawns, or more pieces than a side can have.
    Impossible(Color),
    /// The two kings alone: a draw, which no table holds.
    KingsOnly,
}

impl fmt::Display for MaterialNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaterialNameError::NoSeparator => {
                f.write_str("a material name is two sides joined by one 'v', as in KQvKR")
            }
            MaterialNameError::BadLetter(c) => {
                write!(f, "'{c}' is not a piece letter (K, Q, R, B, N or P)")
            }
            MaterialNameError::KingCount { color, count } => {
                write!(f, "{color}'s side has {count} kings; each side has one")
            }
            MaterialNameError::TooManyPieces(n) => write!(
                f,
                "{n} pieces; Syzygy tables hold at most {MAX_TABLE_PIECES}"
            ),
            MaterialNameError::Impossible(color) => {
                write!(f, "{color}'s side is not a possible set of pieces")
            }
            MaterialNameError::KingsOnly => {
                f.write_str("the two kings alone are a draw; no table holds them")
            }
        }
    }
}

impl std::error::Error for MaterialNameError {}

impl Material {
    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                counts[color.index()][kind.index()] = pos.pieces(color, kind).count() as u8;
            }
        }
        Material { counts }
    }

    /// The material from counts: `counts[color][kind]`, by [`Color::index`] and
    /// [`PieceKind::index`].
    pub const fn from_counts(counts: [[u8; 6]; 2]) -> Material {
        Material { counts }
    }

    /// How many pieces of `kind` `color` has.
    pub const fn count(&self, color: Color, kind: PieceKind) -> u8 {
        self.counts[color as usize][kind as usize]
    }

    /// All pieces of both sides, kings included.
    pub fn pieces(&self) -> usize {
        self.counts.iter().flatten().map(|&n| usize::from(n)).sum()
    }

    /// The pieces of one side, king included.
    pub fn side_pieces(&self, color: Color) -> usize {
        self.counts[color.index()]
            .iter()
            .map(|&n| usize::from(n))
            .sum()
    }

    /// True when either side has a pawn.
    pub fn has_pawns(&self) -> bool {
        self.count(Color::White, PieceKind::Pawn) + self.count(Color::Black, PieceKind::Pawn) > 0
    }

    /// The same pieces with the colours swapped (`KQvKR` becomes `KRvKQ`).
    pub fn mirrored(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// True when both sides have the same pieces (`KRvKR`): one table side serves both.
    pub fn is_symmetric(&self) -> bool {
        self.counts[0] == self.counts[1]
    }

    /// The orientation Syzygy names the table of this material and its mirror by: the side with
    /// more pieces first, and with as many, the side whose pieces, listed king first, come first
    /// in the order K, Q, R, B, N, P (`KQvKR`, not `KRvKQ`; `KNvKP`, not `KPvKN`).
    pub fn syzygy_orientation(&self) -> Material {
        let rank = |side: &[u8; 6]| -> Vec<usize> {
            NAME_ORDER
                .iter()
                .enumerate()
                .flat_map(|(rank, kind)| std::iter::repeat_n(rank, usize::from(side[kind.index()])))
                .collect()
        };
        let (white, black) = (&self.counts[0], &self.counts[1]);
        let white_key = (self.side_pieces(Color::White), rank(black));
        let black_key = (self.side_pieces(Color::Black), rank(white));
        if white_key < black_key {
            self.mirrored()
        } else {
            *self
        }
    }

    /// The name of this material's table file, without the extension: `KQvKR` for both
    /// `KQvKR` and `KRvKQ`.
    pub fn syzygy_name(&self) -> String {
        self.syzygy_orientation().to_string()
    }
}

/// White's pieces, `v`, Black's, each from the king down: `KQvKR`.
impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, color) in Color::ALL.into_iter().enumerate() {
            if i == 1 {
                f.write_str("v")?;
            }
            for kind in NAME_ORDER {
                for _ in 0..self.count(color, kind) {
                    write!(f, "{}", kind.to_char().to_ascii_uppercase())?;
                }
            }
        }
        Ok(())
    }
}

/// Reads `KQvKR`: each side one king and its other pieces, in any order; at most
/// [`MAX_TABLE_PIECES`] pieces in all.
impl FromStr for Material {
    type Err = MaterialNameError;

    fn from_str(name: &str) -> Result<Material, MaterialNameError> {
        let sides: Vec<&str> = name.split('v').collect();
        let [white, black] = sides[..] else {
            return Err(MaterialNameError::NoSeparator);
        };
        let mut counts = [[0u8; 6]; 2];
        for (color, side) in Color::ALL.into_iter().zip([white, black]) {
            for c in side.chars() {
                let kind = match c {
                    'K' | 'Q' | 'R' | 'B' | 'N' | 'P' => PieceKind::from_char(c),
                    _ => None,
                }
                .ok_or(MaterialNameError::BadLetter(c))?;
                let count = &mut counts[color.index()][kind.index()];
                *count = count.saturating_add(1);
            }
        }
        let material = Material { counts };
        for color in Color::ALL {
            let kings = material.count(color, PieceKind::King);
            if kings != 1 {
                return Err(MaterialNameError::KingCount {
                    color,
                    count: usize::from(kings),
                });
            }
        }
        if material.pieces() > MAX_TABLE_PIECES {
            return Err(MaterialNameError::TooManyPieces(material.pieces()));
        }
        for color in Color::ALL {
            if material.count(color, PieceKind::Pawn) > 8 || material.side_pieces(color) > 16 {
                return Err(MaterialNameError::Impossible(color));
            }
        }
        Ok(material)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(name: &str) -> Material {
        name.parse().unwrap()
    }

    #[test]
    fn names_read_and_write_back() {
        for name in ["KvK", "KQvK", "KQvKR", "KRPvKP", "KQQRvKN", "KPPPvKPP"] {
            assert_eq!(m(name).to_string(), name);
        }
        assert_eq!(m("KRQvK").to_string(), "KQRvK");
        assert_eq!(m("KQvKR").pieces(), 4);
        assert!(m("KPvK").has_pawns() && !m("KQvK").has_pawns());
    }

    #[test]
    fn bad_names_say_why() {
        assert_eq!(
            "KQK".parse::<Material>(),
            Err(MaterialNameError::NoSeparator)
        );
        assert_eq!(
            "KQvKvK".parse::<Material>(),
            Err(MaterialNameError::NoSeparator)
        );
        assert_eq!(
            "KXvK".parse::<Material>(),
            Err(MaterialNameError::BadLetter('X'))
        );
        assert_eq!(
            "kqvk".parse::<Material>(),
            Err(MaterialNameError::BadLetter('k'))
        );
        assert_eq!(
            "QvK".parse::<Material>(),
            Err(MaterialNameError::KingCount {
                color: Color::White,
                count: 0
            })
        );
        assert_eq!(
            "KQQQQQvKQ".parse::<Material>(),
            Err(MaterialNameError::TooManyPieces(8))
        );
    }

    /// Syzygy's file names, as python-chess's `normalize_tablename` and Fathom's list of
    /// tables spell them.
    #[test]
    fn the_syzygy_orientation_is_the_stronger_side_first() {
        for (given, named) in [
            ("KRvKQ", "KQvKR"),
            ("KQvKR", "KQvKR"),
            ("KvKQ", "KQvK"),
            ("KPvKN", "KNvKP"),
            ("KNvKP", "KNvKP"),
            ("KBvKN", "KBvKN"),
            ("KNvKB", "KBvKN"),
            ("KPvKRR", "KRRvKP"),
            ("KRvKBN", "KBNvKR"),
            ("KPvKP", "KPvKP"),
            ("KRPvKR", "KRPvKR"),
            ("KRvKRP", "KRPvKR"),
        ] {
            assert_eq!(m(given).syzygy_name(), named, "{given}");
        }
        assert!(m("KRvKR").is_symmetric() && !m("KRvKB").is_symmetric());
        assert_eq!(m("KQvKR").mirrored(), m("KRvKQ"));
    }

    #[test]
    fn a_position_s_material() {
        let pos = Position::from_fen("8/8/8/3k4/8/8/1P6/KQ6 b - - 0 1").unwrap();
        assert_eq!(Material::of(&pos).to_string(), "KQPvK");
    }
}
