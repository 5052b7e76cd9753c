//! The position: piece placement as bitboards (per colour and per kind) and as a 0x88 mailbox kept
//! in sync, plus side to move, castling rights, en passant square, the move counters and an
//! incrementally updated Zobrist key.
//!
//! Both ways of playing moves are here: copy-make ([`Position::play`] returns a new position) and
//! make/unmake ([`Position::make`] returns an [`Undo`] for [`Position::unmake`]). Perft uses
//! make/unmake: copying the 230-byte position (a third of it the 0x88 mailbox) cost more than
//! saving and restoring the few fields a move changes (measured in `benches/perft.rs`; see
//! docs/architecture.md). This module does not generate moves; it trusts the move it is given to be legal.

pub mod chess960;
pub mod epd;
mod fen;
mod setup;
pub(crate) mod zobrist;

pub(crate) use fen::{parse_castling, parse_en_passant};
pub use fen::{FenError, FenWarning};
pub use setup::{CastlingProblem, CastlingRook, EnPassantProblem, PositionError, Setup};

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::{Bitboard, Color, File, Move, MoveKind, Piece, PieceKind, Rank, Square};
use crate::{CastlingRights, CastlingSide};

/// Mailbox entry for an empty square; otherwise `Piece::index() + 1`.
const EMPTY: u8 = 0;

const fn piece_from_code(code: u8) -> Option<Piece> {
    if code == EMPTY {
        None
    } else {
        let index = (code - 1) as usize;
        let color = if index < 6 {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, PieceKind::ALL[index % 6]))
    }
}

/// The wing a castling move (stored king-takes-rook) goes to.
#[inline(always)]
fn castling_side(mv: Move) -> CastlingSide {
    if mv.to().file() > mv.from().file() {
        CastlingSide::King
    } else {
        CastlingSide::Queen
    }
}

/// A chess position, always legal when built through [`Position::from_setup`] (which FEN parsing
/// and the other readers use) and legal moves.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 6],
    mailbox: [u8; 128],
    side: Color,
    castling: CastlingRights,
    en_passant: Option<Square>,
    /// True when the en passant file is mixed into `key` (a legal capture exists).
    en_passant_keyed: bool,
    halfmove_clock: u32,
    fullmove_number: u32,
    key: u64,
    checkers: Bitboard,
}

/// What [`Position::unmake`] needs to take a move back: the parts of the position a move changes
/// that cannot be worked out from the move itself.
#[derive(Debug, Clone, Copy)]
pub struct Undo {
    captured: u8,
    castling: CastlingRights,
    en_passant: Option<Square>,
    en_passant_keyed: bool,
    halfmove_clock: u32,
    key: u64,
    checkers: Bitboard,
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

/// The board as a person reads it, as Stockfish's `d` draws it: rank 8 at the top, White's pieces
/// in capitals, each rank numbered on the right and the files lettered underneath. (`{:?}` gives
/// the FEN; [`Position::fen`] writes it.)
///
/// ```
/// let picture = shannon::Position::startpos().to_string();
/// assert!(picture.contains(" | r | n | b | q | k | b | n | r | 8"));
/// ```
impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rule = " +---+---+---+---+---+---+---+---+";
        writeln!(f)?;
        writeln!(f, "{rule}")?;
        for rank in Rank::ALL.iter().rev() {
            f.write_str(" |")?;
            for file in File::ALL {
                let c = self
                    .piece_at(Square::new(file, *rank))
                    .map_or(' ', |p| p.to_char());
                write!(f, " {c} |")?;
            }
            writeln!(f, " {}", rank.to_char())?;
            writeln!(f, "{rule}")?;
        }
        write!(f, "   a   b   c   d   e   f   g   h")
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(crate::STARTPOS_FEN).expect("the start position is a valid FEN")
    }

    /// An empty board with White to move and nothing else set: the base [`Position::from_setup`] fills.
    fn empty() -> Position {
        Position {
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 6],
            mailbox: [EMPTY; 128],
            side: Color::White,
            castling: CastlingRights::NONE,
            en_passant: None,
            en_passant_keyed: false,
            halfmove_clock: 0,
            fullmove_number: 1,
            key: 0,
            checkers: Bitboard::EMPTY,
        }
    }

    // ----- Queries -------------------------------------------------------------------------

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        piece_from_code(self.mailbox[sq.to_0x88()])
    }

    /// The piece at a 0x88 index (`None` for empty or off-board indices).
    #[inline(always)]
    pub fn piece_at_0x88(&self, index: usize) -> Option<Piece> {
        if index & 0x88 != 0 || index >= 128 {
            None
        } else {
            piece_from_code(self.mailbox[index])
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All pieces of `kind`, both colours.
    #[inline(always)]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The king square of `color`.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceKind::King)
            .first()
            .expect("a valid position has one king per side")
    }

    /// Castling rights still held.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en passant square as FEN records it: set after every double push, whether or not a
    /// capture there is possible.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and incremented after Black's move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The Zobrist key. Two positions have the same key when they are "the same position" in
    /// FIDE's sense: placement, side to move, castling rights, and the en passant file only when
    /// an en passant capture is actually legal.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// True when the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        !self.checkers.is_empty()
    }

    /// Pieces of both colours attacking `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rooks = self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Queen.index()];
        let bishops =
            self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Queen.index()];
        (rook_attacks(sq, occupied) & rooks)
            | (bishop_attacks(sq, occupied) & bishops)
            | (knight_attacks(sq) & self.by_kind[PieceKind::Knight.index()])
            | (king_attacks(sq) & self.by_kind[PieceKind::King.index()])
            | (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, PieceKind::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, PieceKind::Pawn))
    }

    /// True when a piece of `by` attacks `sq`, with `occupied` as the blockers. Checks the
    /// cheap leapers first and stops at the first attacker found.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let theirs = self.by_color[by.index()];
        let queens = self.by_kind[PieceKind::Queen.index()];
        if !(knight_attacks(sq) & theirs & self.by_kind[PieceKind::Knight.index()]).is_empty()
            || !(pawn_attacks(!by, sq) & theirs & self.by_kind[PieceKind::Pawn.index()]).is_empty()
            || !(king_attacks(sq) & theirs & self.by_kind[PieceKind::King.index()]).is_empty()
        {
            return true;
        }
        let bishops = (self.by_kind[PieceKind::Bishop.index()] | queens) & theirs;
        let rooks = (self.by_kind[PieceKind::Rook.index()] | queens) & theirs;
        !(bishop_attacks(sq, occupied) & bishops).is_empty()
            || !(rook_attacks(sq, occupied) & rooks).is_empty()
    }

    /// The square of the castling rook of `color` on `side`, if that right exists.
    #[inline(always)]
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        self.castling
            .rook(color, side)
            .map(|file| Square::new(file, color.back_rank()))
    }

    /// True when the side to move has a legal en passant capture. This decides whether the en
    /// passant file belongs in the key.
    pub fn has_legal_en_passant(&self) -> bool {
        let Some(ep) = self.en_passant else {
            return false;
        };
        let us = self.side;
        let captured = match ep.offset(0, if us == Color::White { -1 } else { 1 }) {
            Some(sq) => sq,
            None => return false,
        };
        let capturers = pawn_attacks(!us, ep) & self.pieces(us, PieceKind::Pawn);
        let king = self.king_square(us);
        capturers.into_iter().any(|from| {
            let occupied =
                (self.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured))
                    | Bitboard::from_square(ep);
            let attackers = self.attackers_to(king, occupied)
                & self.by_color[(!us).index()]
                & !Bitboard::from_square(captured);
            attackers.is_empty()
        })
    }

    // ----- Playing moves ---------------------------------------------------------------------

    /// The position after `mv`, which must be legal here.
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let mut next = self.clone();
        let _ = next.make(mv);
        next
    }

    #[inline(always)]
    fn put(&mut self, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.by_color[piece.color.index()] |= bb;
        self.by_kind[piece.kind.index()] |= bb;
        self.mailbox[sq.to_0x88()] = piece.index() as u8 + 1;
        self.key ^= zobrist::piece(piece.index(), sq.index());
    }

    #[inline(always)]
    fn remove(&mut self, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.by_color[piece.color.index()] ^= bb;
        self.by_kind[piece.kind.index()] ^= bb;
        self.mailbox[sq.to_0x88()] = EMPTY;
        self.key ^= zobrist::piece(piece.index(), sq.index());
    }

    #[inline(always)]
    fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let bb = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_color[piece.color.index()] ^= bb;
        self.by_kind[piece.kind.index()] ^= bb;
        self.mailbox[from.to_0x88()] = EMPTY;
        self.mailbox[to.to_0x88()] = piece.index() as u8 + 1;
        self.key ^=
            zobrist::piece(piece.index(), from.index()) ^ zobrist::piece(piece.index(), to.index());
    }

    fn castling_key(rights: &CastlingRights) -> u64 {
        rights.iter().fold(0, |key, (color, _, file)| {
            key ^ zobrist::castling(color.index(), file)
        })
    }

    /// Play `mv` in place and return what [`Position::unmake`] needs to take it back. The move
    /// must be legal in this position.
    pub fn make(&mut self, mv: Move) -> Undo {
        let us = self.side;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let piece = self.piece_at(from).expect("a legal move starts on a piece");
        let mut undo = Undo {
            captured: EMPTY,
            castling: self.castling,
            en_passant: self.en_passant,
            en_passant_keyed: self.en_passant_keyed,
            halfmove_clock: self.halfmove_clock,
            key: self.key,
            checkers: self.checkers,
        };

        if let (Some(ep), true) = (self.en_passant, self.en_passant_keyed) {
            self.key ^= zobrist::en_passant(ep.file());
        }
        self.en_passant = None;
        self.en_passant_keyed = false;
        self.halfmove_clock += 1;

        match mv.kind() {
            MoveKind::Castling => {
                let side = castling_side(mv);
                let rank = us.back_rank();
                let rook = Piece::new(us, PieceKind::Rook);
                self.remove(piece, from);
                self.remove(rook, to);
                self.put(piece, Square::new(side.king_destination(), rank));
                self.put(rook, Square::new(side.rook_destination(), rank));
                self.castling.clear(us);
            }
            kind => {
                let captured_square = if kind == MoveKind::EnPassant {
                    Square::new(to.file(), from.rank())
                } else {
                    to
                };
                undo.captured = self.mailbox[captured_square.to_0x88()];
                if let Some(captured) = piece_from_code(undo.captured) {
                    self.remove(captured, captured_square);
                    self.halfmove_clock = 0;
                    if captured.kind == PieceKind::Rook && to.rank() == them.back_rank() {
                        self.castling.remove_rook(them, to.file());
                    }
                }
                if let MoveKind::Promotion(promoted) = kind {
                    self.remove(piece, from);
                    self.put(Piece::new(us, promoted), to);
                } else {
                    self.move_piece(piece, from, to);
                }
                match piece.kind {
                    PieceKind::Pawn => {
                        self.halfmove_clock = 0;
                        if kind == MoveKind::DoublePush {
                            self.en_passant =
                                Square::from_index((from.index() + to.index()) as u8 / 2);
                        }
                    }
                    PieceKind::King => self.castling.clear(us),
                    PieceKind::Rook if from.rank() == us.back_rank() => {
                        self.castling.remove_rook(us, from.file());
                    }
                    _ => {}
                }
            }
        }

        if self.castling != undo.castling {
            self.key ^=
                Position::castling_key(&undo.castling) ^ Position::castling_key(&self.castling);
        }
        if us == Color::Black {
            self.fullmove_number += 1;
        }
        self.side = them;
        self.key ^= zobrist::side();
        let king = self.king_square(them);
        self.checkers = self.attackers_to(king, self.occupied()) & self.by_color[us.index()];
        if let Some(ep) = self.en_passant {
            if self.has_legal_en_passant() {
                self.en_passant_keyed = true;
                self.key ^= zobrist::en_passant(ep.file());
            }
        }
        debug_assert_eq!(self.consistency_error(), None, "after {mv:?}");
        undo
    }

    /// Take back `mv`, the last move made with [`Position::make`], which returned `undo`.
    pub fn unmake(&mut self, mv: Move, undo: &Undo) {
        let them = self.side;
        let us = !them;
        let from = mv.from();
        let to = mv.to();
        match mv.kind() {
            MoveKind::Castling => {
                let side = castling_side(mv);
                let rank = us.back_rank();
                let king = Piece::new(us, PieceKind::King);
                let rook = Piece::new(us, PieceKind::Rook);
                self.remove(king, Square::new(side.king_destination(), rank));
                self.remove(rook, Square::new(side.rook_destination(), rank));
                self.put(king, from);
                self.put(rook, to);
            }
            kind => {
                let moved = self
                    .piece_at(to)
                    .expect("the moved piece stands on its destination");
                if let MoveKind::Promotion(_) = kind {
                    self.remove(moved, to);
                    self.put(Piece::new(us, PieceKind::Pawn), from);
                } else {
                    self.move_piece(moved, to, from);
                }
                if let Some(captured) = piece_from_code(undo.captured) {
                    let captured_square = if kind == MoveKind::EnPassant {
                        Square::new(to.file(), from.rank())
                    } else {
                        to
                    };
                    self.put(captured, captured_square);
                }
            }
        }
        if us == Color::Black {
            self.fullmove_number -= 1;
        }
        self.side = us;
        self.castling = undo.castling;
        self.en_passant = undo.en_passant;
        self.en_passant_keyed = undo.en_passant_keyed;
        self.halfmove_clock = undo.halfmove_clock;
        self.key = undo.key;
        self.checkers = undo.checkers;
        debug_assert_eq!(self.consistency_error(), None, "after taking back {mv:?}");
    }

    // ----- Invariants ------------------------------------------------------------------------

    /// The key recomputed from scratch, for checking the incremental one.
    pub fn compute_key(&self) -> u64 {
        let mut key = Position::castling_key(&self.castling);
        for sq in self.occupied() {
            let piece = self.piece_at(sq).expect("occupied square");
            key ^= zobrist::piece(piece.index(), sq.index());
        }
        if self.side == Color::Black {
            key ^= zobrist::side();
        }
        if let Some(ep) = self.en_passant {
            if self.has_legal_en_passant() {
                key ^= zobrist::en_passant(ep.file());
            }
        }
        key
    }

    /// Sets the derived state (checkers, en passant keying, key) from the placement and the
    /// recorded state; [`Position::from_setup`] calls it once the fields are checked.
    fn refresh_derived_state(&mut self) {
        let king = self.king_square(self.side);
        self.checkers =
            self.attackers_to(king, self.occupied()) & self.by_color[(!self.side).index()];
        self.en_passant_keyed = self.has_legal_en_passant();
        self.key = self.compute_key();
    }

    /// Describes the first disagreement between the redundant parts of the position (bitboards,
    /// mailbox, key, checkers), or `None` when they all agree. Debug builds call it after every
    /// move; tests call it in any build.
    pub fn consistency_error(&self) -> Option<String> {
        if !(self.by_color[0] & self.by_color[1]).is_empty() {
            return Some("a square is occupied by both colours".into());
        }
        let kinds = self
            .by_kind
            .iter()
            .fold(Bitboard::EMPTY, |acc, &bb| acc | bb);
        if kinds != self.occupied() {
            return Some("kind bitboards and colour bitboards disagree".into());
        }
        for index in 0..128 {
            let code = self.mailbox[index];
            match Square::from_0x88(index) {
                None if code != EMPTY => {
                    return Some(format!("0x88 off-board index {index} is set"))
                }
                None => {}
                Some(sq) => {
                    let from_bitboards = Color::ALL.into_iter().find_map(|color| {
                        PieceKind::ALL
                            .into_iter()
                            .find(|&kind| self.pieces(color, kind).contains(sq))
                            .map(|kind| Piece::new(color, kind))
                    });
                    if from_bitboards != piece_from_code(code) {
                        return Some(format!(
                            "{sq}: mailbox has {:?}, bitboards have {from_bitboards:?}",
                            piece_from_code(code)
                        ));
                    }
                }
            }
        }
        for color in Color::ALL {
            if self.pieces(color, PieceKind::King).count() != 1 {
                return Some(format!("{color} does not have exactly one king"));
            }
        }
        if self.key != self.compute_key() {
            return Some(format!(
                "incremental key {:#x} differs from recomputed {:#x}",
                self.key,
                self.compute_key()
            ));
        }
        let king = self.king_square(self.side);
        let checkers =
            self.attackers_to(king, self.occupied()) & self.by_color[(!self.side).index()];
        if checkers != self.checkers {
            return Some("cached checkers are stale".into());
        }
        if self.en_passant_keyed != self.has_legal_en_passant() {
            return Some("en passant keying is stale".into());
        }
        None
    }

    /// The en passant rank for the side to move: 6 for White, 3 for Black.
    fn en_passant_rank(side: Color) -> Rank {
        match side {
            Color::White => Rank::Sixth,
            Color::Black => Rank::Third,
        }
    }
}
