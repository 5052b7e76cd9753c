//! The reference generator: Shannon's 1950 scheme on a 0x88 mailbox.
//!
//! One routine per piece kind walks its directions, using `index & 0x88 != 0` to notice it left
//! the board, and collects pseudo-legal moves. A driver then plays each move and keeps it only if
//! the mover's king is not attacked afterwards. Attacks are found with the 0x88 square-difference
//! table: `target - origin` alone says whether a piece kind could attack along that difference and
//! in which step, so only sliders need a walk to check for blockers.
//!
//! Slow on purpose: each rule is written once, plainly, so it can be read and trusted. It shares
//! nothing with the bitboard generator except `Position::play`.

use super::MoveList;
use crate::{CastlingSide, Color, Move, MoveKind, Piece, PieceKind, Position, Square};

const KNIGHT_STEPS: [i32; 8] = [33, 31, 18, 14, -33, -31, -18, -14];
const KING_STEPS: [i32; 8] = [1, -1, 16, -16, 17, 15, -17, -15];
const BISHOP_STEPS: [i32; 4] = [17, 15, -17, -15];
const ROOK_STEPS: [i32; 4] = [1, -1, 16, -16];

const ATTACKS_WHITE_PAWN: u8 = 1;
const ATTACKS_BLACK_PAWN: u8 = 2;
const ATTACKS_KNIGHT: u8 = 4;
const ATTACKS_BISHOP: u8 = 8;
const ATTACKS_ROOK: u8 = 16;
const ATTACKS_KING: u8 = 32;

/// For each difference `target - origin + 119`: which kinds can attack along it, and the step a
/// slider takes.
struct AttackTable {
    kinds: [u8; 239],
    steps: [i8; 239],
}

const ATTACK_TABLE: AttackTable = {
    let mut table = AttackTable {
        kinds: [0; 239],
        steps: [0; 239],
    };
    let mut i = 0;
    while i < 8 {
        table.kinds[(119 + KNIGHT_STEPS[i]) as usize] |= ATTACKS_KNIGHT;
        table.kinds[(119 + KING_STEPS[i]) as usize] |= ATTACKS_KING;
        i += 1;
    }
    let mut d = 0;
    while d < 4 {
        let mut distance = 1;
        while distance < 8 {
            let b = (119 + BISHOP_STEPS[d] * distance) as usize;
            table.kinds[b] |= ATTACKS_BISHOP;
            table.steps[b] = BISHOP_STEPS[d] as i8;
            let r = (119 + ROOK_STEPS[d] * distance) as usize;
            table.kinds[r] |= ATTACKS_ROOK;
            table.steps[r] = ROOK_STEPS[d] as i8;
            distance += 1;
        }
        d += 1;
    }
    table.kinds[119 + 15] |= ATTACKS_WHITE_PAWN;
    table.kinds[119 + 17] |= ATTACKS_WHITE_PAWN;
    table.kinds[119 - 15] |= ATTACKS_BLACK_PAWN;
    table.kinds[119 - 17] |= ATTACKS_BLACK_PAWN;
    table
};

fn on_board(index: i32) -> bool {
    (0..128).contains(&index) && index & 0x88 == 0
}

fn square(index: i32) -> Square {
    Square::from_0x88(index as usize).expect("an on-board 0x88 index")
}

fn attack_bits(piece: Piece) -> u8 {
    match piece.kind {
        PieceKind::Pawn if piece.color == Color::White => ATTACKS_WHITE_PAWN,
        PieceKind::Pawn => ATTACKS_BLACK_PAWN,
        PieceKind::Knight => ATTACKS_KNIGHT,
        PieceKind::Bishop => ATTACKS_BISHOP,
        PieceKind::Rook => ATTACKS_ROOK,
        PieceKind::Queen => ATTACKS_BISHOP | ATTACKS_ROOK,
        PieceKind::King => ATTACKS_KING,
    }
}

/// True when a piece of `by` attacks the 0x88 square `target`.
pub fn is_attacked(pos: &Position, target: usize, by: Color) -> bool {
    (0..128usize).filter(|i| i & 0x88 == 0).any(|origin| {
        let Some(piece) = pos.piece_at_0x88(origin) else {
            return false;
        };
        if piece.color != by || origin == target {
            return false;
        }
        let difference = target as i32 - origin as i32 + 119;
        let bits = ATTACK_TABLE.kinds[difference as usize] & attack_bits(piece);
        if bits == 0 {
            return false;
        }
        if bits & (ATTACKS_BISHOP | ATTACKS_ROOK) == 0 {
            return true;
        }
        let step = ATTACK_TABLE.steps[difference as usize] as i32;
        let mut index = origin as i32 + step;
        while index != target as i32 {
            if pos.piece_at_0x88(index as usize).is_some() {
                return false;
            }
            index += step;
        }
        true
    })
}

/// The generator's routines share the position, the side to move and the list being filled.
struct Routines<'a> {
    pos: &'a Position,
    us: Color,
    moves: Vec<Move>,
}

impl Routines<'_> {
    fn empty(&self, index: i32) -> bool {
        self.pos.piece_at_0x88(index as usize).is_none()
    }

    fn enemy(&self, index: i32) -> bool {
        self.pos
            .piece_at_0x88(index as usize)
            .is_some_and(|p| p.color != self.us)
    }

    fn add(&mut self, from: i32, to: i32, kind: MoveKind) {
        self.moves.push(Move::new(square(from), square(to), kind));
    }

    fn pawn(&mut self, from: i32) {
        let (forward, start_rank, last_rank) = match self.us {
            Color::White => (16, 1, 7),
            Color::Black => (-16, 6, 0),
        };
        let add_advance = |routines: &mut Self, to: i32| {
            if to >> 4 == last_rank {
                for piece in PieceKind::PROMOTIONS {
                    routines.add(from, to, MoveKind::Promotion(piece));
                }
            } else {
                routines.add(from, to, MoveKind::Normal);
            }
        };
        let one = from + forward;
        if on_board(one) && self.empty(one) {
            add_advance(self, one);
            let two = one + forward;
            if from >> 4 == start_rank && self.empty(two) {
                self.add(from, two, MoveKind::DoublePush);
            }
        }
        for side in [-1, 1] {
            let to = from + forward + side;
            if !on_board(to) {
                continue;
            }
            if self.enemy(to) {
                add_advance(self, to);
            } else if self.pos.en_passant().map(Square::to_0x88) == Some(to as usize) {
                self.add(from, to, MoveKind::EnPassant);
            }
        }
    }

    fn leaper(&mut self, from: i32, steps: &[i32]) {
        for step in steps {
            let to = from + step;
            if on_board(to) && (self.empty(to) || self.enemy(to)) {
                self.add(from, to, MoveKind::Normal);
            }
        }
    }

    fn slider(&mut self, from: i32, steps: &[i32]) {
        for step in steps {
            let mut to = from + step;
            while on_board(to) {
                if self.empty(to) {
                    self.add(from, to, MoveKind::Normal);
                } else {
                    if self.enemy(to) {
                        self.add(from, to, MoveKind::Normal);
                    }
                    break;
                }
                to += step;
            }
        }
    }

    fn knight(&mut self, from: i32) {
        self.leaper(from, &KNIGHT_STEPS);
    }

    fn bishop(&mut self, from: i32) {
        self.slider(from, &BISHOP_STEPS);
    }

    fn rook(&mut self, from: i32) {
        self.slider(from, &ROOK_STEPS);
    }

    /// Shannon's queen: a bishop and a rook on one square.
    fn queen(&mut self, from: i32) {
        self.bishop(from);
        self.rook(from);
    }

    fn king(&mut self, from: i32) {
        self.leaper(from, &KING_STEPS);
        for side in CastlingSide::ALL {
            self.castle(from, side);
        }
    }

    /// Castling, pseudo-legal except for the final square: the king is not in check now (even
    /// when it does not move, and even if the rook would end up blocking the check), the
    /// squares it crosses are not attacked, and every square both pieces need is empty. Whether
    /// the king is attacked on its destination is left to the driver, like any other move.
    fn castle(&mut self, king: i32, side: CastlingSide) {
        let Some(rook) = self.pos.castling_rook(self.us, side) else {
            return;
        };
        let rank_base = king & 0x70;
        let rook = rook.to_0x88() as i32;
        let king_to = rank_base + side.king_destination().index() as i32;
        let rook_to = rank_base + side.rook_destination().index() as i32;
        let span = |a: i32, b: i32| a.min(b)..=a.max(b);
        let needed = span(king, king_to).chain(span(rook, rook_to));
        for index in needed {
            if index != king && index != rook && !self.empty(index) {
                return;
            }
        }
        let them = !self.us;
        if is_attacked(self.pos, king as usize, them) {
            return;
        }
        for index in span(king, king_to) {
            if index != king_to && is_attacked(self.pos, index as usize, them) {
                return;
            }
        }
        self.add(king, rook, MoveKind::Castling);
    }
}

/// Append the legal moves of `pos` to `list`.
pub fn legal_moves(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let mut routines = Routines {
        pos,
        us,
        moves: Vec::with_capacity(64),
    };
    for from in (0..128i32).filter(|i| i & 0x88 == 0) {
        let Some(piece) = pos.piece_at_0x88(from as usize) else {
            continue;
        };
        if piece.color != us {
            continue;
        }
        match piece.kind {
            PieceKind::Pawn => routines.pawn(from),
            PieceKind::Knight => routines.knight(from),
            PieceKind::Bishop => routines.bishop(from),
            PieceKind::Rook => routines.rook(from),
            PieceKind::Queen => routines.queen(from),
            PieceKind::King => routines.king(from),
        }
    }
    for mv in routines.moves {
        let after = pos.play(mv);
        if !is_attacked(&after, after.king_square(us).to_0x88(), !us) {
            list.push(mv);
        }
    }
}
