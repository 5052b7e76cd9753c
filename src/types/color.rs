//! The two sides.

use std::fmt;
use std::ops::Not;

/// White or Black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: an index into per-colour arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank this side's pieces start on (1 or 8).
    pub const fn back_rank(self) -> super::Rank {
        match self {
            Color::White => super::Rank::First,
            Color::Black => super::Rank::Eighth,
        }
    }

    /// `w` or `b`, as in FEN.
    pub const fn to_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;

    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}
