//! Random games on the counting path: the counting board, compiled with the fastest instructions
//! the CPU runs, with the few things a game needs beside it (whose move, the halfmove clock and
//! the position's Zobrist key). Each ply the legal moves are found as groups in the position's
//! list order ([`listed`](super::listed)), an index is drawn from their number, and only the move
//! it names is made, by copy-make. The key is the one [`Position::key`] gives (the same numbers,
//! castling rights and en passant only when it can be taken), kept move by move, so repetitions
//! are found exactly as on the position (a test replays every move on a [`Position`] and
//! compares).

use super::board::{Board, Rules};
use super::listed::{self, Groups, Play};
use super::tier::{self, Instructions, Tier};
use super::{Black, Side, White};
use super::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::position::zobrist;
use crate::{Color, Move, MoveKind, PieceKind, Position, Square};

/// The counting path compiled for one instruction set, chosen once.
#[derive(Clone, Copy)]
enum Compiled {
    Portable(tier::Portable),
    #[cfg(target_arch = "x86_64")]
    Bmi2(tier::Bmi2<false>),
    #[cfg(target_arch = "x86_64")]
    Pext(tier::Bmi2<true>),
}

impl Compiled {
    fn of(instructions: Instructions) -> Compiled {
        match instructions {
            #[cfg(target_arch = "x86_64")]
            Instructions::Bmi2 => {
                tier::Bmi2::detect().map_or(Compiled::Portable(tier::Portable), Compiled::Bmi2)
            }
            #[cfg(target_arch = "x86_64")]
            Instructions::Bmi2Pext => {
                tier::Bmi2::detect().map_or(Compiled::Portable(tier::Portable), Compiled::Pext)
            }
            _ => Compiled::Portable(tier::Portable),
        }
    }
}

/// The move a game just played, and what it changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// True after a capture or a promotion (the material changed).
    pub material_changed: bool,
}

/// A position of a random game on the counting path.
#[derive(Clone)]
pub struct Playout {
    board: Board,
    rules: Rules,
    side: Color,
    halfmove_clock: u32,
    key: u64,
    /// True when the key holds the en passant square (a capture there is legal).
    en_passant_keyed: bool,
    /// The castling key of each right the game started with (0 for the others).
    castling_keys: [u64; 4],
    /// The legal moves, from the last [`Playout::generate`].
    groups: Box<Groups>,
    compiled: Compiled,
}

impl Playout {
    /// The game from `start`, counted with the fastest instructions this CPU runs
    /// ([`super::instructions`]).
    pub fn new(start: &Position) -> Playout {
        Playout::with(start, super::instructions())
    }

    /// The game from `start`, counted with `instructions` (or the portable build when this CPU
    /// lacks them).
    pub fn with(start: &Position, instructions: Instructions) -> Playout {
        let (board, rules) = Board::from_position(start);
        let mut castling_keys = [0; 4];
        for (right, key) in castling_keys.iter_mut().enumerate() {
            let rook = rules.castles[right].rook;
            if rook != 0 {
                let file = Square::from_index_unchecked(rook.trailing_zeros() as u8).file();
                *key = zobrist::castling(right / 2, file);
            }
        }
        Playout {
            board,
            rules,
            side: start.side_to_move(),
            halfmove_clock: start.halfmove_clock(),
            key: start.key(),
            en_passant_keyed: start.has_legal_en_passant(),
            castling_keys,
            groups: Box::default(),
            compiled: Compiled::of(instructions),
        }
    }

    /// Restart from `start`, keeping the buffers.
    pub fn reset(&mut self, start: &Position) {
        let compiled = self.compiled;
        let groups = std::mem::take(&mut self.groups);
        *self = Playout {
            groups,
            compiled,
            ..Playout::new(start)
        };
    }

    /// Find the legal moves; returns their number.
    pub fn generate(&mut self) -> usize {
        match self.compiled {
            Compiled::Portable(t) => self.generate_with(t),
            #[cfg(target_arch = "x86_64")]
            Compiled::Bmi2(t) => self.generate_with(t),
            #[cfg(target_arch = "x86_64")]
            Compiled::Pext(t) => self.generate_with(t),
        }
        self.groups.len()
    }

    fn generate_with<T: Tier>(&mut self, t: T) {
        match self.side {
            Color::White => t.listed::<White>(&self.board, &self.rules, &mut self.groups),
            Color::Black => t.listed::<Black>(&self.board, &self.rules, &mut self.groups),
        }
    }

    /// The number of legal moves, as last found.
    pub fn moves(&self) -> usize {
        self.groups.len()
    }

    /// Play the `index`-th legal move (below [`Playout::moves`]), the `index`-th of the
    /// position's move list, and find the legal moves after it (one call into the compiled
    /// path per ply).
    pub fn play(&mut self, index: usize) -> Played {
        match self.compiled {
            Compiled::Portable(t) => self.play_with(t, index),
            #[cfg(target_arch = "x86_64")]
            Compiled::Bmi2(t) => self.play_with(t, index),
            #[cfg(target_arch = "x86_64")]
            Compiled::Pext(t) => self.play_with(t, index),
        }
    }

    fn play_with<T: Tier>(&mut self, t: T, index: usize) -> Played {
        match self.side {
            Color::White => t.play_listed::<White>(self, index),
            Color::Black => t.play_listed::<Black>(self, index),
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The position's Zobrist key ([`Position::key`]).
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The squares of both sides' pieces of `kind`.
    pub fn kind(&self, kind: PieceKind) -> crate::Bitboard {
        let i = kind.index();
        crate::Bitboard(self.board.pieces[0][i] | self.board.pieces[1][i])
    }

    /// True when the side to move is in check.
    pub fn in_check(&self) -> bool {
        let b = &self.board;
        let t = tier::Portable;
        match self.side {
            Color::White => {
                let king = b.pieces[0][KING].trailing_zeros();
                listed::attackers::<White, _>(b, t, king, b.occupied[0] | b.occupied[1]) != 0
            }
            Color::Black => {
                let king = b.pieces[1][KING].trailing_zeros();
                listed::attackers::<Black, _>(b, t, king, b.occupied[0] | b.occupied[1]) != 0
            }
        }
    }

    /// The castling key of the rights that `unmoved` leaves.
    #[inline(always)]
    fn castling_key(&self, unmoved: u64) -> u64 {
        let mut key = 0;
        for (c, k) in self.rules.castles.iter().zip(self.castling_keys) {
            if unmoved & c.need == c.need {
                key ^= k;
            }
        }
        key
    }
}

/// The key of the piece of `color` and `kind` on `sq`.
#[inline(always)]
fn piece_key(color: usize, kind: usize, sq: u32) -> u64 {
    zobrist::piece(color * 6 + kind, sq as usize)
}

/// The key of what `b` has on `to` for the side not to move (0 for nothing).
#[inline(always)]
fn victim_key<S: Side>(b: &Board, to: u32) -> u64 {
    let bit = 1u64 << to;
    if b.occupied[S::THEM] & bit == 0 {
        return 0;
    }
    let kind = (PAWN..KING)
        .find(|&kind| b.pieces[S::THEM][kind] & bit != 0)
        .unwrap_or(PAWN);
    piece_key(S::THEM, kind, to)
}

/// Play the `index`-th move of `p`'s groups (side `S` to move), then find the moves after it;
/// inlined into each tier's entry.
#[inline(always)]
pub(super) fn play_listed<S: Side, T: Tier>(p: &mut Playout, t: T, index: usize) -> Played {
    let (group, within) = p.groups.find(index);
    let b = &p.board;
    let us = S::US;
    let mut key = p.key ^ zobrist::side();
    if p.en_passant_keyed {
        key ^= zobrist::en_passant(square_of(b.en_passant).file());
    }
    let capture_on = |to: u32| b.occupied[S::THEM] & 1 << to != 0;
    let (child, mv, reset, material_changed) = match group.play {
        Play::Piece(kind) => {
            let kind = usize::from(kind);
            let (from, to) = (group.origin as u32, t.nth(group.targets, within));
            key ^= piece_key(us, kind, from) ^ piece_key(us, kind, to) ^ victim_key::<S>(b, to);
            let child = match kind {
                KNIGHT => b.after_piece::<S, KNIGHT>(from, to),
                BISHOP => b.after_piece::<S, BISHOP>(from, to),
                ROOK => b.after_piece::<S, ROOK>(from, to),
                QUEEN => b.after_piece::<S, QUEEN>(from, to),
                _ => b.after_piece::<S, KING>(from, to),
            };
            let capture = capture_on(to);
            (child, Move::normal(sq(from), sq(to)), capture, capture)
        }
        Play::Pawn => {
            let to = t.nth(group.targets, within);
            let from = (to as i32 - group.origin) as u32;
            key ^= piece_key(us, PAWN, from) ^ piece_key(us, PAWN, to) ^ victim_key::<S>(b, to);
            let capture = capture_on(to);
            let child = b.after_piece::<S, PAWN>(from, to);
            (child, Move::normal(sq(from), sq(to)), true, capture)
        }
        Play::Double => {
            let to = t.nth(group.targets, within);
            let from = (to as i32 - group.origin) as u32;
            key ^= piece_key(us, PAWN, from) ^ piece_key(us, PAWN, to);
            let child = b.after_push::<S>(from, to, 1 << ((from + to) / 2));
            let mv = Move::new(sq(from), sq(to), MoveKind::DoublePush);
            (child, mv, true, false)
        }
        Play::Promotion => {
            let to = t.nth(group.targets, within / 4);
            let from = (to as i32 - group.origin) as u32;
            let promoted = PieceKind::PROMOTIONS[within % 4];
            key ^= piece_key(us, PAWN, from)
                ^ piece_key(us, promoted.index(), to)
                ^ victim_key::<S>(b, to);
            let child = b.after_promotion::<S>(from, to, promoted.index());
            let mv = Move::new(sq(from), sq(to), MoveKind::Promotion(promoted));
            (child, mv, true, true)
        }
        Play::EnPassant => {
            let (from, to) = (group.origin as u32, b.en_passant.trailing_zeros());
            let captured = <S::Other as Side>::forward(b.en_passant).trailing_zeros();
            key ^= piece_key(us, PAWN, from)
                ^ piece_key(us, PAWN, to)
                ^ piece_key(S::THEM, PAWN, captured);
            let child = b.after_en_passant::<S>(1 << from);
            let mv = Move::new(sq(from), sq(to), MoveKind::EnPassant);
            (child, mv, true, true)
        }
        Play::Castle(right) => {
            let right = usize::from(right);
            let c = &p.rules.castles[right];
            let [king, king_to, rook, rook_to] =
                [c.king, c.king_to, c.rook, c.rook_to].map(|bit| bit.trailing_zeros());
            key ^= piece_key(us, KING, king)
                ^ piece_key(us, KING, king_to)
                ^ piece_key(us, ROOK, rook)
                ^ piece_key(us, ROOK, rook_to);
            let child = b.after_castle::<S>(&p.rules, right);
            (
                child,
                Move::new(sq(king), sq(rook), MoveKind::Castling),
                false,
                false,
            )
        }
    };
    if child.unmoved != b.unmoved {
        key ^= p.castling_key(b.unmoved) ^ p.castling_key(child.unmoved);
    }
    p.en_passant_keyed =
        child.en_passant != 0 && listed::has_legal_en_passant::<S::Other, T>(&child, t);
    if p.en_passant_keyed {
        key ^= zobrist::en_passant(square_of(child.en_passant).file());
    }
    p.board = child;
    p.key = key;
    p.side = !p.side;
    p.halfmove_clock = if reset { 0 } else { p.halfmove_clock + 1 };
    listed::generate::<S::Other, T>(&p.board, &p.rules, t, &mut p.groups);
    Played {
        mv,
        material_changed,
    }
}

#[inline(always)]
fn sq(index: u32) -> Square {
    Square::from_index_unchecked(index as u8)
}

#[inline(always)]
fn square_of(bit: u64) -> Square {
    sq(bit.trailing_zeros())
}
