//! The side state every position codec appends after its placement: side to move, castling
//! rights by rook file (Chess960-capable), the en passant file, and the two move counters.
//!
//! The layout is in the [parent module](super)'s documentation. Decoding resolves each castling
//! right against the decoded placement and builds the position through
//! [`Position::from_setup`].

use super::{read_gamma, BitReader, Bits, DecodeError};
use crate::notation::boards::Placement;
use crate::position::CastlingRook;
use crate::{CastlingSide, Color, File, Piece, PieceKind, Position, Rank, Setup, Square};

/// Which rook a castling right belongs to, as coded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RookChoice {
    /// The outermost rook of that colour on that wing of the back rank (`KQkq` in X-FEN).
    Outermost,
    /// The rook on this file.
    File(File),
}

/// The side state as read from a code, before it is checked against a placement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideState {
    /// Whose move it is.
    pub side: Color,
    /// White king side, White queen side, Black king side, Black queen side.
    pub castling: [Option<RookChoice>; 4],
    /// The file of the en passant square.
    pub en_passant: Option<File>,
    /// Plies since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// The move number.
    pub fullmove_number: u32,
}

/// The four rights in code order.
const RIGHTS: [(Color, CastlingSide); 4] = [
    (Color::White, CastlingSide::King),
    (Color::White, CastlingSide::Queen),
    (Color::Black, CastlingSide::King),
    (Color::Black, CastlingSide::Queen),
];

/// The file of the outermost `color` rook on `side` of its king on the back rank.
fn outermost_rook(pos: &Position, color: Color, side: CastlingSide) -> Option<File> {
    let rank = color.back_rank();
    let king = pos.king_square(color);
    if king.rank() != rank {
        return None;
    }
    let files = pos
        .pieces(color, PieceKind::Rook)
        .filter(|sq| sq.rank() == rank)
        .map(Square::file);
    match side {
        CastlingSide::King => files.filter(|&f| f > king.file()).max(),
        CastlingSide::Queen => files.filter(|&f| f < king.file()).min(),
    }
}

/// Append the side state of `pos`.
pub fn encode(pos: &Position, bits: &mut Bits) {
    bits.push_bit(pos.side_to_move() == Color::Black);
    for (color, side) in RIGHTS {
        match pos.castling_rights().rook(color, side) {
            None => bits.push_bit(false),
            Some(file) => {
                bits.push_bit(true);
                let outermost = outermost_rook(pos, color, side) == Some(file);
                bits.push_bit(outermost);
                if !outermost {
                    bits.push_bits(u64::from(file.index()), 3);
                }
            }
        }
    }
    match pos.en_passant() {
        None => bits.push_bit(false),
        Some(sq) => {
            bits.push_bit(true);
            bits.push_bits(u64::from(sq.file().index()), 3);
        }
    }
    bits.push_gamma(u64::from(pos.halfmove_clock()) + 1);
    bits.push_gamma(u64::from(pos.fullmove_number()));
}

fn read_file(reader: &mut BitReader) -> Result<File, DecodeError> {
    let index = reader.read_bits(3)? as u8;
    Ok(File::from_index(index).expect("3 bits make a file"))
}

fn read_counter(reader: &mut BitReader, offset: u64, name: &str) -> Result<u32, DecodeError> {
    let at = reader.position();
    let value = read_gamma(reader, 33)? - offset;
    u32::try_from(value).map_err(|_| DecodeError::OutOfRange {
        at,
        what: format!("{name} {value}"),
    })
}

/// Read a side state.
pub fn decode(reader: &mut BitReader) -> Result<SideState, DecodeError> {
    let side = if reader.read_bit()? {
        Color::Black
    } else {
        Color::White
    };
    let mut castling = [None; 4];
    for right in &mut castling {
        if reader.read_bit()? {
            *right = Some(if reader.read_bit()? {
                RookChoice::Outermost
            } else {
                RookChoice::File(read_file(reader)?)
            });
        }
    }
    let en_passant = if reader.read_bit()? {
        Some(read_file(reader)?)
    } else {
        None
    };
    let halfmove_clock = read_counter(reader, 1, "halfmove clock")?;
    let fullmove_number = read_counter(reader, 0, "fullmove number")?;
    Ok(SideState {
        side,
        castling,
        en_passant,
        halfmove_clock,
        fullmove_number,
    })
}

/// The rook file of one coded right, checked against the placement: the rook must stand on the
/// coded wing of a king on the back rank.
fn castling_file(
    board: &Placement,
    color: Color,
    side: CastlingSide,
    choice: RookChoice,
) -> Result<File, DecodeError> {
    let rank = color.back_rank();
    let at = |file: File| board[Square::new(file, rank).index()];
    let king = File::ALL
        .into_iter()
        .find(|&f| at(f) == Some(Piece::new(color, PieceKind::King)));
    let is_rook = |f: File| at(f) == Some(Piece::new(color, PieceKind::Rook));
    let file = king.and_then(|king| {
        let mut wing = File::ALL.into_iter().filter(move |&f| match side {
            CastlingSide::King => f > king,
            CastlingSide::Queen => f < king,
        });
        match (choice, side) {
            (RookChoice::Outermost, CastlingSide::King) => wing.filter(|&f| is_rook(f)).max(),
            (RookChoice::Outermost, CastlingSide::Queen) => wing.find(|&f| is_rook(f)),
            (RookChoice::File(file), _) => wing.find(|&f| f == file && is_rook(f)),
        }
    });
    file.ok_or_else(|| {
        DecodeError::Castling(format!(
            "{color} has a {side:?}-side right but no rook on that wing of a king on rank {}",
            rank.to_char()
        ))
    })
}

/// The position of a decoded placement and side state, checked by [`Position::from_setup`].
pub fn build(placement: &Placement, state: &SideState) -> Result<Position, DecodeError> {
    let mut castling = Vec::new();
    for ((color, wing), choice) in RIGHTS.into_iter().zip(state.castling) {
        if let Some(choice) = choice {
            let file = castling_file(placement, color, wing, choice)?;
            castling.push((color, CastlingRook::File(file)));
        }
    }
    let en_passant = state.en_passant.map(|file| {
        let rank = if state.side == Color::White {
            Rank::Sixth
        } else {
            Rank::Third
        };
        Square::new(file, rank)
    });
    let setup = Setup {
        board: *placement,
        side_to_move: state.side,
        castling,
        en_passant,
        halfmove_clock: state.halfmove_clock,
        fullmove_number: state.fullmove_number,
    };
    let pos = Position::from_setup(&setup).map_err(DecodeError::Illegal)?;
    if pos.fullmove_number() != state.fullmove_number {
        return Err(DecodeError::OutOfRange {
            at: 0,
            what: "fullmove number 0".into(),
        });
    }
    Ok(pos)
}
