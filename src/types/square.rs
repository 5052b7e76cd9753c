//! Squares, files and ranks: the board's coordinates.
//!
//! A [`Square`] is an index 0..64 with a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file order),
//! the numbering the bitboards use. The 0x88 mailbox has its own index, [`Square::to_0x88`].

use std::fmt;
use std::str::FromStr;

/// A file (column), `a` to `h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    /// All files, from a to h.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index 0..8; `None` past h.
    pub const fn from_index(index: u8) -> Option<File> {
        if index < 8 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    /// Index 0 (a) to 7 (h).
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The file's letter, lower case.
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parse a file letter (either case).
    pub fn from_char(c: char) -> Option<File> {
        let lower = c.to_ascii_lowercase();
        if ('a'..='h').contains(&lower) {
            File::from_index(lower as u8 - b'a')
        } else {
            None
        }
    }
}

/// A rank (row), `1` to `8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Rank {
    First,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    /// All ranks, from 1 to 8.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index 0..8; `None` past the eighth.
    pub const fn from_index(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// Index 0 (rank 1) to 7 (rank 8).
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The rank's digit.
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parse a rank digit.
    pub fn from_char(c: char) -> Option<Rank> {
        if ('1'..='8').contains(&c) {
            Rank::from_index(c as u8 - b'1')
        } else {
            None
        }
    }
}

/// One of the 64 squares, a1 = 0 ... h8 = 63.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

#[allow(missing_docs)]
impl Square {
    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const C8: Square = Square(58);
    pub const D8: Square = Square(59);
    pub const E8: Square = Square(60);
    pub const F8: Square = Square(61);
    pub const G8: Square = Square(62);
    pub const H8: Square = Square(63);
}

impl Square {
    /// Every square, a1 first, h8 last.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square at `file` and `rank`.
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    /// The square with index 0..64; `None` otherwise.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with index 0..64. Callers guarantee the range (checked in debug builds).
    pub const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    /// Index 0..64, a1 = 0.
    pub const fn index(self) -> usize {
        // The mask is free to the reader and lets the compiler drop bounds checks on
        // 64-entry tables.
        (self.0 & 63) as usize
    }

    /// The file of the square.
    pub const fn file(self) -> File {
        File::ALL[(self.0 & 7) as usize]
    }

    /// The rank of the square.
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 >> 3) as usize]
    }

    /// Index in a 0x88 mailbox: `rank * 16 + file`.
    pub const fn to_0x88(self) -> usize {
        ((self.0 >> 3) as usize) * 16 + (self.0 & 7) as usize
    }

    /// The square of a 0x88 index; `None` when the index is off the board.
    pub const fn from_0x88(index: usize) -> Option<Square> {
        if index & 0x88 != 0 || index >= 128 {
            None
        } else {
            Some(Square(((index >> 4) * 8 + (index & 7)) as u8))
        }
    }

    /// The square moved by `df` files and `dr` ranks, if it stays on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = (self.0 & 7) as i8 + df;
        let r = (self.0 >> 3) as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square((r * 8 + f) as u8))
        } else {
            None
        }
    }

    /// True for the light squares (h1, a2, ...): a bishop's colour.
    pub const fn is_light(self) -> bool {
        ((self.0 >> 3) + (self.0 & 7)) % 2 == 1
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

/// Why text is not a square name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a square (expected a file a-h and a rank 1-8, e.g. e4)",
            self.0
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(fc), Some(rc), None) if fc.is_ascii_lowercase() => {
                match (File::from_char(fc), Rank::from_char(rc)) {
                    (Some(f), Some(r)) => Ok(Square::new(f, r)),
                    _ => Err(ParseSquareError(s.to_string())),
                }
            }
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
            assert_eq!(Square::from_0x88(sq.to_0x88()), Some(sq));
        }
        assert_eq!(
            "e4".parse::<Square>().unwrap(),
            Square::new(File::E, Rank::Fourth)
        );
        assert!("i1".parse::<Square>().is_err());
        assert!("e9".parse::<Square>().is_err());
        assert!("e".parse::<Square>().is_err());
        assert!("e44".parse::<Square>().is_err());
    }

    #[test]
    fn colours_of_squares() {
        assert!(!Square::A1.is_light());
        assert!(Square::H1.is_light());
    }
}
