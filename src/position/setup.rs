//! A position's raw content before it is checked ([`Setup`]), the check that turns it into a
//! [`Position`] ([`Position::from_setup`]), and what that check refuses ([`PositionError`]).
//!
//! Every way of reading a position (FEN text, the board formats, the binary codecs) fills a
//! `Setup` and hands it here, so the rules of a legal position live in one place and a reader's
//! own errors are only about its syntax.

use super::Position;
use crate::CastlingSide;
use crate::{Bitboard, Color, File, Piece, PieceKind, Rank, Square};
use std::fmt;

/// Which rook a castling right names, as written before the placement is consulted.
///
/// X-FEN's `KQkq` and the position codecs name "the outermost rook on that wing" rather than a
/// file; which file that is depends on the placement, so resolving it is part of the check and
/// the right keeps the form it was given in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingRook {
    /// The outermost rook on this wing of the king on the back rank (`K`/`Q` in X-FEN).
    Outermost(CastlingSide),
    /// The rook on this file of the back rank (Shredder-FEN letters); the wing follows from the
    /// king's file.
    File(File),
}

impl CastlingRook {
    /// The FEN castling letter of this right for `color`: `K`/`Q` for the outermost rook, the
    /// file letter otherwise, upper case for White. Error messages quote it.
    pub fn letter(self, color: Color) -> char {
        let letter = match self {
            CastlingRook::Outermost(CastlingSide::King) => 'k',
            CastlingRook::Outermost(CastlingSide::Queen) => 'q',
            CastlingRook::File(file) => file.to_char(),
        };
        match color {
            Color::White => letter.to_ascii_uppercase(),
            Color::Black => letter,
        }
    }
}

/// The content of a position before it is checked: what a FEN, a board format or a binary code
/// says, whether or not it is legal. [`Position::from_setup`] checks it and builds the position.
///
/// Readers fill a `Setup` instead of writing FEN text and parsing it back, so their own errors
/// stay about their syntax and legality errors come out as one [`PositionError`] type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// What stands on each square, indexed by [`Square::index`] (a1 first).
    pub board: [Option<Piece>; 64],
    /// Whose move it is.
    pub side_to_move: Color,
    /// The castling rights in the order given; the check reports the first one the placement
    /// cannot have, so the order decides which of two rights on one wing is "the second".
    pub castling: Vec<(Color, CastlingRook)>,
    /// The en passant square (behind a pawn that just moved two squares), if any.
    pub en_passant: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// The move number; 0, which some tools write, is read as 1.
    pub fullmove_number: u32,
}

impl Default for Setup {
    /// An empty board, White to move, no rights, no en passant square, counters 0 and 1: the
    /// base a reader fills.
    fn default() -> Setup {
        Setup {
            board: [None; 64],
            side_to_move: Color::White,
            castling: Vec::new(),
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }
}

/// Why a castling right is impossible in a placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CastlingProblem {
    /// The king is not on its back rank.
    KingOffBackRank,
    /// The right names a file with no rook of that colour on the back rank.
    NoRookOnFile,
    /// The right names the outermost rook on a wing that has none.
    NoRookOnWing,
    /// The king already has a right on this wing.
    SecondRight(CastlingSide),
}

/// Why an en passant square is impossible in a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnPassantProblem {
    /// The square is not on the rank a double push by the side not to move passes.
    WrongRank {
        /// The side to move.
        side_to_move: Color,
    },
    /// No pawn of the side not to move stands in front of the square.
    NoPawn {
        /// Where that pawn would stand.
        pawn_square: Square,
    },
    /// The square, or the one the pawn came from, is occupied.
    Blocked {
        /// The square the pawn came from.
        origin: Square,
    },
}

/// Why a [`Setup`] is not a legal position: the rules a FEN, board or code can be well-formed
/// and still break.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king or several.
    KingCount {
        /// Whose kings.
        color: Color,
        /// How many there are.
        count: u32,
    },
    /// A pawn stands on rank 1 or 8.
    PawnOnBackRank(Square),
    /// The side that just moved is in check, which no legal move can leave.
    OpponentInCheck(Color),
    /// More than 16 pieces of one colour.
    TooManyPieces {
        /// Whose pieces.
        color: Color,
        /// How many there are.
        count: u32,
    },
    /// More than 8 pawns of one colour.
    TooManyPawns {
        /// Whose pawns.
        color: Color,
        /// How many there are.
        count: u32,
    },
    /// A castling right the placement cannot have.
    Castling {
        /// Whose right.
        color: Color,
        /// The rook it names.
        rook: CastlingRook,
        /// What is wrong.
        problem: CastlingProblem,
    },
    /// An en passant square no double push can have left.
    EnPassant {
        /// The square.
        square: Square,
        /// What is wrong.
        problem: EnPassantProblem,
    },
}

impl PositionError {
    /// For a castling error, its FEN letter and the reason the placement cannot have the right
    /// (the reason quotes the letter): what [`super::FenWarning`] reports when the lenient FEN
    /// reading drops the right.
    pub fn castling_reason(&self) -> Option<(char, String)> {
        let PositionError::Castling {
            color,
            rook,
            problem,
        } = *self
        else {
            return None;
        };
        let c = rook.letter(color);
        let rank = color.back_rank();
        let reason = match problem {
            CastlingProblem::KingOffBackRank => {
                format!("'{c}' needs the {color} king on rank {}", rank.to_char())
            }
            CastlingProblem::NoRookOnFile => {
                let file = match rook {
                    CastlingRook::File(file) => file,
                    // Not produced for the outermost rook; name the wing's end instead.
                    CastlingRook::Outermost(CastlingSide::King) => File::H,
                    CastlingRook::Outermost(CastlingSide::Queen) => File::A,
                };
                format!(
                    "'{c}' names a {color} rook on {}, but there is none",
                    Square::new(file, rank)
                )
            }
            CastlingProblem::NoRookOnWing => format!(
                "'{c}' needs a {color} rook on the {} side of the king on rank {}",
                if rook == CastlingRook::Outermost(CastlingSide::Queen) {
                    "a"
                } else {
                    "h"
                },
                rank.to_char()
            ),
            CastlingProblem::SecondRight(side) => format!(
                "'{c}' is a second {color} right on the {} side",
                match side {
                    CastlingSide::King => "king",
                    CastlingSide::Queen => "queen",
                }
            ),
        };
        Some((c, reason))
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::KingCount { color, count } => {
                write!(f, "{color} has {count} kings; each side needs exactly one")
            }
            PositionError::PawnOnBackRank(sq) => {
                write!(f, "a pawn stands on {sq}; pawns cannot be on rank 1 or 8")
            }
            PositionError::OpponentInCheck(color) => write!(
                f,
                "{color} is in check but it is not {color}'s move; no legal game reaches that"
            ),
            PositionError::TooManyPieces { color, count } => {
                write!(f, "{color} has {count} pieces; at most 16 are possible")
            }
            PositionError::TooManyPawns { color, count } => {
                write!(f, "{color} has {count} pawns; at most 8 are possible")
            }
            PositionError::Castling { .. } => {
                let (_, reason) = self.castling_reason().unwrap_or_default();
                write!(f, "castling right {reason}")
            }
            PositionError::EnPassant { square, problem } => {
                write!(f, "en passant field '{square}': ")?;
                match problem {
                    EnPassantProblem::WrongRank { side_to_move } => write!(
                        f,
                        "with {side_to_move} to move the en passant square must be on rank {}",
                        Position::en_passant_rank(*side_to_move).to_char()
                    ),
                    EnPassantProblem::NoPawn { pawn_square } => write!(
                        f,
                        "no {} pawn on {pawn_square} that could just have moved two squares",
                        pawn_owner(*square)
                    ),
                    EnPassantProblem::Blocked { origin } => write!(
                        f,
                        "the pawn could not have crossed {square} from {origin}: a square is \
                         occupied"
                    ),
                }
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// The colour of the pawn that would have left an en passant square on rank 3 (White's) or
/// rank 6 (Black's).
fn pawn_owner(square: Square) -> Color {
    if square.rank() == Rank::Third {
        Color::White
    } else {
        Color::Black
    }
}

impl Position {
    /// Check a [`Setup`] and build the position it describes. A castling right the placement
    /// cannot have is an error (see [`Position::from_setup_lenient`] for dropping it instead).
    ///
    /// ```
    /// use shannon::{Color, File, Piece, PieceKind, Position, PositionError, Rank, Setup, Square};
    ///
    /// let e2 = Square::new(File::E, Rank::Second);
    /// let mut setup = Setup::default();
    /// setup.board[Square::E1.index()] = Some(Piece::new(Color::White, PieceKind::King));
    /// setup.board[Square::E8.index()] = Some(Piece::new(Color::Black, PieceKind::King));
    /// setup.board[e2.index()] = Some(Piece::new(Color::White, PieceKind::Pawn));
    /// let pos = Position::from_setup(&setup).unwrap();
    /// assert_eq!(pos.piece_at(e2), Some(Piece::new(Color::White, PieceKind::Pawn)));
    ///
    /// // A second white king: well-formed, but no legal position.
    /// setup.board[Square::A1.index()] = Some(Piece::new(Color::White, PieceKind::King));
    /// assert_eq!(
    ///     Position::from_setup(&setup),
    ///     Err(PositionError::KingCount { color: Color::White, count: 2 })
    /// );
    /// ```
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        Position::check_setup(setup, false).map(|(pos, _)| pos)
    }

    /// Check a [`Setup`] as [`Position::from_setup`] does, except that castling rights the
    /// placement cannot have are dropped and returned (as the errors the strict check would have
    /// given), as Stockfish and python-chess do: GUIs and opening files often carry `KQkq` after
    /// the rooks have gone, and refusing the whole position would leave an engine answering for
    /// some other one.
    pub fn from_setup_lenient(
        setup: &Setup,
    ) -> Result<(Position, Vec<PositionError>), PositionError> {
        Position::check_setup(setup, true)
    }

    fn check_setup(
        setup: &Setup,
        lenient: bool,
    ) -> Result<(Position, Vec<PositionError>), PositionError> {
        let mut pos = Position::empty();
        for sq in Square::ALL {
            if let Some(piece) = setup.board[sq.index()] {
                pos.put(piece, sq);
            }
        }
        pos.side = setup.side_to_move;
        pos.validate_material()?;
        let mut dropped = Vec::new();
        for &(color, rook) in &setup.castling {
            match pos.castling_right(color, rook) {
                Ok((side, file)) => pos.castling.set(color, side, Some(file)),
                Err(problem) => {
                    let error = PositionError::Castling {
                        color,
                        rook,
                        problem,
                    };
                    if !lenient {
                        return Err(error);
                    }
                    dropped.push(error);
                }
            }
        }
        if let Some(square) = setup.en_passant {
            pos.check_en_passant(square)
                .map_err(|problem| PositionError::EnPassant { square, problem })?;
            pos.en_passant = Some(square);
        }
        pos.halfmove_clock = setup.halfmove_clock;
        // Some tools write 0; the first move is move 1.
        pos.fullmove_number = setup.fullmove_number.max(1);
        let them = !pos.side;
        if pos.is_attacked(pos.king_square(them), pos.side, pos.occupied()) {
            return Err(PositionError::OpponentInCheck(them));
        }
        // The key so far covers the pieces only; the refresh recomputes it with the side state.
        pos.refresh_derived_state();
        debug_assert_eq!(pos.consistency_error(), None);
        Ok((pos, dropped))
    }

    fn validate_material(&self) -> Result<(), PositionError> {
        for color in Color::ALL {
            let kings = self.pieces(color, PieceKind::King).count();
            if kings != 1 {
                return Err(PositionError::KingCount {
                    color,
                    count: kings,
                });
            }
            let pawns = self.pieces(color, PieceKind::Pawn).count();
            if pawns > 8 {
                return Err(PositionError::TooManyPawns {
                    color,
                    count: pawns,
                });
            }
            let pieces = self.color_bb(color).count();
            if pieces > 16 {
                return Err(PositionError::TooManyPieces {
                    color,
                    count: pieces,
                });
            }
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        if let Some(sq) = (self.kind_bb(PieceKind::Pawn) & back_ranks).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        Ok(())
    }

    /// The wing and rook file of `color`'s right naming `rook`, checked against the placement
    /// and the rights already granted. Needs exactly one king per side (checked before).
    fn castling_right(
        &self,
        color: Color,
        rook: CastlingRook,
    ) -> Result<(CastlingSide, File), CastlingProblem> {
        let rank = color.back_rank();
        let king = self.king_square(color);
        if king.rank() != rank {
            return Err(CastlingProblem::KingOffBackRank);
        }
        let rooks: Vec<File> = self
            .pieces(color, PieceKind::Rook)
            .filter(|sq| sq.rank() == rank)
            .map(Square::file)
            .collect();
        let rook_file = match rook {
            CastlingRook::File(file) if rooks.contains(&file) => file,
            CastlingRook::File(_) => return Err(CastlingProblem::NoRookOnFile),
            CastlingRook::Outermost(side) => {
                let wing = rooks.iter().copied();
                match side {
                    CastlingSide::King => wing.filter(|&f| f > king.file()).max(),
                    CastlingSide::Queen => wing.filter(|&f| f < king.file()).min(),
                }
                .ok_or(CastlingProblem::NoRookOnWing)?
            }
        };
        // A rook stands on `rook_file`, so it is not the king's file.
        let side = if rook_file > king.file() {
            CastlingSide::King
        } else {
            CastlingSide::Queen
        };
        if self.castling.rook(color, side).is_some() {
            return Err(CastlingProblem::SecondRight(side));
        }
        Ok((side, rook_file))
    }

    /// Check that a pawn of the side not to move can just have crossed `sq` with a double push.
    fn check_en_passant(&self, sq: Square) -> Result<(), EnPassantProblem> {
        let us = self.side;
        let forward: i8 = if us == Color::White { 1 } else { -1 };
        let wrong_rank = EnPassantProblem::WrongRank { side_to_move: us };
        if sq.rank() != Position::en_passant_rank(us) {
            return Err(wrong_rank);
        }
        // Rank 3 or 6 has squares on both sides.
        let (Some(pawn_square), Some(origin)) = (sq.offset(0, -forward), sq.offset(0, forward))
        else {
            return Err(wrong_rank);
        };
        if self.piece_at(pawn_square) != Some(Piece::new(!us, PieceKind::Pawn)) {
            return Err(EnPassantProblem::NoPawn { pawn_square });
        }
        if self.piece_at(sq).is_some() || self.piece_at(origin).is_some() {
            return Err(EnPassantProblem::Blocked { origin });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kings() -> Setup {
        let mut setup = Setup::default();
        setup.board[Square::E1.index()] = Some(Piece::new(Color::White, PieceKind::King));
        setup.board[Square::E8.index()] = Some(Piece::new(Color::Black, PieceKind::King));
        setup
    }

    #[test]
    fn two_white_kings_are_a_king_count_error() {
        let mut setup = kings();
        setup.board[Square::H1.index()] = Some(Piece::new(Color::White, PieceKind::King));
        assert_eq!(
            Position::from_setup(&setup),
            Err(PositionError::KingCount {
                color: Color::White,
                count: 2
            })
        );
    }

    #[test]
    fn castling_rights_resolve_against_the_placement() {
        let mut setup = kings();
        setup.board[Square::H1.index()] = Some(Piece::new(Color::White, PieceKind::Rook));
        setup.castling = vec![(Color::White, CastlingRook::Outermost(CastlingSide::King))];
        let pos = Position::from_setup(&setup).unwrap();
        assert_eq!(
            pos.castling_rights().rook(Color::White, CastlingSide::King),
            Some(File::H)
        );
        // A queen-side right with no rook there: refused, or dropped by the lenient check.
        setup
            .castling
            .push((Color::White, CastlingRook::Outermost(CastlingSide::Queen)));
        let error = Position::from_setup(&setup).unwrap_err();
        assert_eq!(
            error.to_string(),
            "castling right 'Q' needs a white rook on the a side of the king on rank 1"
        );
        let (lenient, dropped) = Position::from_setup_lenient(&setup).unwrap();
        assert_eq!(lenient, pos);
        assert_eq!(dropped, vec![error]);
    }

    #[test]
    fn an_impossible_en_passant_square_is_refused() {
        let d6 = Square::new(File::D, Rank::Sixth);
        let mut setup = kings();
        setup.en_passant = Some(d6);
        assert_eq!(
            Position::from_setup(&setup),
            Err(PositionError::EnPassant {
                square: d6,
                problem: EnPassantProblem::NoPawn {
                    pawn_square: Square::new(File::D, Rank::Fifth)
                }
            })
        );
        setup.en_passant = Some(Square::new(File::D, Rank::Third));
        assert!(matches!(
            Position::from_setup(&setup),
            Err(PositionError::EnPassant {
                problem: EnPassantProblem::WrongRank { .. },
                ..
            })
        ));
    }
}
