//! Castling rights, stored by the castling rook's file for each colour and side, so Chess960
//! set-ups need no special case.

use super::{Color, File};

/// Which chess the castling notation is for: standard chess writes castling as the king's
/// destination (`e1g1`, FEN `KQkq`), Chess960 as the king taking its own rook (`e1h1`), as
/// UCI_Chess960 engines expect. Moves are stored king-takes-rook either way; the mode is decided
/// at each boundary (UCI text, engine options, game records), never by a bare `bool`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    /// Standard chess: `e1g1`.
    #[default]
    Standard,
    /// Chess960 (Fischer random): `e1h1`, king takes rook.
    Chess960,
}

impl CastlingMode {
    /// `Chess960` when `chess960` is true (a command-line flag, a UCI option value).
    pub const fn from_chess960(chess960: bool) -> CastlingMode {
        if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// True for Chess960.
    pub const fn is_chess960(self) -> bool {
        matches!(self, CastlingMode::Chess960)
    }
}

/// The wing a castling move goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file: king ends on g, rook on f ("O-O").
    King,
    /// Towards the a-file: king ends on c, rook on d ("O-O-O").
    Queen,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::King, CastlingSide::Queen];

    /// 0 for the king side, 1 for the queen side.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file the king ends on.
    pub const fn king_destination(self) -> File {
        match self {
            CastlingSide::King => File::G,
            CastlingSide::Queen => File::C,
        }
    }

    /// The file the rook ends on.
    pub const fn rook_destination(self) -> File {
        match self {
            CastlingSide::King => File::F,
            CastlingSide::Queen => File::D,
        }
    }
}

/// Which castling moves each side may still make, by the file of the rook involved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights {
    rooks: [[Option<File>; 2]; 2],
}

impl CastlingRights {
    /// No castling rights at all.
    pub const NONE: CastlingRights = CastlingRights {
        rooks: [[None; 2]; 2],
    };

    /// The rook file of `color`'s right on `side`, if it still exists.
    #[inline(always)]
    pub const fn rook(&self, color: Color, side: CastlingSide) -> Option<File> {
        self.rooks[color as usize][side as usize]
    }

    /// Grant or remove a right.
    pub fn set(&mut self, color: Color, side: CastlingSide, rook: Option<File>) {
        self.rooks[color.index()][side.index()] = rook;
    }

    /// Remove both rights of `color` (its king moved or castled).
    #[inline(always)]
    pub fn clear(&mut self, color: Color) {
        self.rooks[color.index()] = [None, None];
    }

    /// Remove the right whose rook stands on `file` (that rook moved or was captured).
    #[inline(always)]
    pub fn remove_rook(&mut self, color: Color, file: File) {
        for right in &mut self.rooks[color.index()] {
            if *right == Some(file) {
                *right = None;
            }
        }
    }

    /// True when no right is left.
    pub fn is_empty(&self) -> bool {
        self.rooks.iter().flatten().all(Option::is_none)
    }

    /// Every right as (colour, side, rook file).
    pub fn iter(&self) -> impl Iterator<Item = (Color, CastlingSide, File)> + '_ {
        Color::ALL.into_iter().flat_map(move |color| {
            CastlingSide::ALL
                .into_iter()
                .filter_map(move |side| self.rook(color, side).map(|file| (color, side, file)))
        })
    }
}
