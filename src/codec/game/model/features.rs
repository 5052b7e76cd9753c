//! The features of a move in its position: what the move-likelihood models weigh.
//!
//! A move's score is the sum of the weights of its active features, one index into the weight
//! table per feature group. Groups ([`Group`]) can be left out, which is how the fitting program
//! measures what each one pays. Squares are seen from the mover's side (rank flipped for Black),
//! so one table serves both colours. Everything here is integer arithmetic on the position and
//! the game so far, so the encoder and the decoder find the same features.

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::{Bitboard, CastlingSide, Color, Move, MoveKind, PieceKind, Position, Square};

/// A group of features, in the order the fitting program adds them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// The destination square by piece and game phase.
    PstTo,
    /// The square left, by piece and game phase.
    PstFrom,
    /// A capture: mover and piece captured; a capture of an undefended piece.
    Capture,
    /// How the destination is attacked (by the cheapest attacker) and defended, by mover.
    Safety,
    /// The mover is attacked where it stands (by a cheaper piece, or undefended).
    Threat,
    /// Recapturing on the last move's square; moving the piece the last move attacked.
    Reply,
    /// Check, castling, promotion piece.
    Special,
    /// Near the last move (king distance), the piece our last move moved, a king walking away
    /// from its castling rights.
    Local,
    /// What the moved piece attacks from its destination: a more valuable or undefended piece.
    Attack,
    /// The opening book: how often the fitting games played this move here.
    Book,
}

impl Group {
    /// Every group, in order.
    pub const ALL: [Group; 10] = [
        Group::PstTo,
        Group::PstFrom,
        Group::Capture,
        Group::Safety,
        Group::Threat,
        Group::Reply,
        Group::Special,
        Group::Local,
        Group::Attack,
        Group::Book,
    ];

    /// The group's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Group::PstTo => "pst-to",
            Group::PstFrom => "pst-from",
            Group::Capture => "capture",
            Group::Safety => "safety",
            Group::Threat => "threat",
            Group::Reply => "reply",
            Group::Special => "special",
            Group::Local => "local",
            Group::Attack => "attack",
            Group::Book => "book",
        }
    }

    /// The group's bit in a set of groups.
    pub const fn bit(self) -> u16 {
        1 << self as u16
    }
}

const PHASES: usize = 3;
const PST_TO: usize = 0;
const PST_FROM: usize = PST_TO + PHASES * 6 * 64;
const CAPTURE: usize = PST_FROM + PHASES * 6 * 64;
const HANGING: usize = CAPTURE + 6 * 6;
const SAFETY: usize = HANGING + 6;
const THREAT: usize = SAFETY + 6 * 5 * 2;
const RECAPTURE: usize = THREAT + 6 * 4;
const FLEE: usize = RECAPTURE + 6;
const CHECK: usize = FLEE + 6;
const CASTLE: usize = CHECK + 6;
const PROMOTE: usize = CASTLE + 1;
const NEAR: usize = PROMOTE + 4;
const AGAIN: usize = NEAR + 6 * 8;
const KING_WALK: usize = AGAIN + 6;
const FORKS: usize = KING_WALK + 1;
const BOOK: usize = FORKS + 6 * 3;
/// Book buckets: games that reached the position (6) by the move's share of them (7).
const BOOK_BUCKETS: usize = 6 * 7;

/// The number of weights a model has.
pub const FEATURES: usize = BOOK + BOOK_BUCKETS;

/// The most features one move has.
pub const MAX_ACTIVE: usize = 16;

/// Piece values for comparing mover and attacker: pawn 1, knight and bishop 3, rook 5, queen 9,
/// king high.
const VALUE: [u8; 6] = [1, 3, 3, 5, 9, 50];

/// What a position offers every move's features: computed once per position.
#[derive(Debug, Clone)]
pub struct Context {
    us: Color,
    phase: usize,
    /// Squares the opponent attacks with pawns, knights and bishops, rooks, queens and king.
    their_attacks: [Bitboard; 4],
    their_all: Bitboard,
    our_all: Bitboard,
    /// Squares from which each kind of ours would give check.
    checks: [Bitboard; 6],
    /// The last move's destination and the squares its piece attacks now.
    last_to: Option<Square>,
    last_attacks: Bitboard,
    /// The destination of our own last move.
    our_last_to: Option<Square>,
    /// True when we still have a castling right.
    can_castle: bool,
    occupied: Bitboard,
    /// Their pieces worth more than each of our kinds (by kind index), and their undefended ones.
    their_bigger: [Bitboard; 6],
    their_loose: Bitboard,
    /// The kinds on each square (for captures and movers), 6 for none.
    kinds: [u8; 64],
}

impl Context {
    /// The context of `pos`, reached by `last` (None at the start) after our own move
    /// `our_last`.
    pub fn new(pos: &Position, last: Option<Move>, our_last: Option<Move>) -> Context {
        let us = pos.side_to_move();
        let them = !us;
        let occupied = pos.occupied();
        let mut kinds = [6u8; 64];
        for kind in PieceKind::ALL {
            for sq in pos.kind_bb(kind) {
                kinds[sq.index()] = kind as u8;
            }
        }
        let their_attacks = attacks_by_class(pos, them, occupied);
        let our = attacks_by_class(pos, us, occupied);
        let king = pos.king_square(them);
        let diagonal = bishop_attacks(king, occupied);
        let straight = rook_attacks(king, occupied);
        let checks = [
            pawn_attacks(them, king),
            knight_attacks(king),
            diagonal,
            straight,
            diagonal | straight,
            Bitboard::EMPTY,
        ];
        let last_to = last.map(|mv| mv.to());
        let last_attacks = last_to.map_or(Bitboard::EMPTY, |sq| {
            piece_attacks(kinds[sq.index()], them, sq, occupied)
        });
        let material: u32 = [
            (PieceKind::Knight, 3),
            (PieceKind::Bishop, 3),
            (PieceKind::Rook, 5),
            (PieceKind::Queen, 9),
        ]
        .iter()
        .map(|&(kind, value)| pos.kind_bb(kind).count() * value)
        .sum();
        let phase = match material {
            45.. => 0,
            21..=44 => 1,
            _ => 2,
        };
        let theirs = pos.color_bb(them);
        let our_all = our.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        let mut their_bigger = [Bitboard::EMPTY; 6];
        for (mine, bigger) in their_bigger.iter_mut().enumerate() {
            for kind in PieceKind::ALL {
                if VALUE[kind.index()] > VALUE[mine] {
                    *bigger |= pos.pieces(them, kind);
                }
            }
        }
        let their_all_attacks = their_attacks.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        let rights = pos.castling_rights();
        Context {
            us,
            phase,
            our_last_to: our_last.map(|mv| mv.to()),
            can_castle: CastlingSide::ALL
                .iter()
                .any(|&side| rights.rook(us, side).is_some()),
            occupied,
            their_bigger,
            their_loose: theirs & !their_all_attacks & !pos.pieces(them, PieceKind::King),
            their_attacks,
            their_all: their_all_attacks,
            our_all,
            checks,
            last_to,
            last_attacks,
            kinds,
        }
    }

    /// Calls `add` with the index of each active feature of `mv` in the groups of `groups`
    /// (bits of [`Group::bit`]); `book` is the book bucket of the move, if the position is in
    /// the book.
    #[inline]
    pub fn features(&self, mv: Move, groups: u16, book: Option<usize>, mut add: impl FnMut(usize)) {
        let on = |group: Group| groups & group.bit() != 0;
        let (from, to) = (mv.from().index(), mv.to().index());
        let mover = usize::from(self.kinds[from]);
        let castles = matches!(mv.kind(), MoveKind::Castling);
        let captured = match mv.kind() {
            MoveKind::EnPassant => 0,
            MoveKind::Castling => 6,
            _ => usize::from(self.kinds[to]),
        };
        let flip = if self.us == Color::White { 0 } else { 56 };
        let dest = if castles { castled_king(from, to) } else { to };
        let pst = (self.phase * 6 + mover) * 64;
        if on(Group::PstTo) {
            add(PST_TO + pst + (dest ^ flip));
        }
        if on(Group::PstFrom) {
            add(PST_FROM + pst + (from ^ flip));
        }
        let to_bb = Bitboard(1 << to);
        if on(Group::Capture) && captured < 6 {
            add(CAPTURE + mover * 6 + captured);
            if (self.their_all & to_bb).is_empty() {
                add(HANGING + captured);
            }
        }
        if on(Group::Safety) && !castles {
            let attacker = self
                .their_attacks
                .iter()
                .position(|&bb| !(bb & to_bb).is_empty())
                .map_or(0, |class| class + 1);
            let defended = usize::from(!(self.our_all & to_bb).is_empty());
            add(SAFETY + (mover * 5 + attacker) * 2 + defended);
        }
        if on(Group::Threat) {
            add(THREAT + mover * 4 + self.threat(from, mover));
        }
        if on(Group::Reply) {
            if self.last_to == Some(mv.to()) && captured < 6 {
                add(RECAPTURE + mover);
            }
            if !(self.last_attacks & Bitboard(1 << from)).is_empty() {
                add(FLEE + mover);
            }
        }
        if on(Group::Special) {
            let lands_as = mv.promotion().map_or(mover, PieceKind::index);
            if !castles && !(self.checks[lands_as] & to_bb).is_empty() {
                add(CHECK + lands_as);
            }
            if castles {
                add(CASTLE);
            }
            if let Some(piece) = mv.promotion() {
                add(PROMOTE + piece.index() - 1);
            }
        }
        if on(Group::Local) {
            self.local(mv, mover, castles, &mut add);
        }
        if on(Group::Attack) && !castles {
            let lands_as = mv.promotion().map_or(mover, PieceKind::index);
            let occupied = (self.occupied & !Bitboard(1 << from)) | to_bb;
            let hits = piece_attacks(lands_as as u8, self.us, mv.to(), occupied);
            let bigger = (hits & self.their_bigger[lands_as]).count().min(2) as usize;
            if bigger > 0 {
                add(FORKS + lands_as * 3 + bigger - 1);
            }
            if !(hits & self.their_loose & !to_bb).is_empty() {
                add(FORKS + lands_as * 3 + 2);
            }
        }
        if let (true, Some(bucket)) = (on(Group::Book), book) {
            add(BOOK + bucket);
        }
    }

    /// The [`Group::Local`] features.
    fn local(&self, mv: Move, mover: usize, castles: bool, add: &mut impl FnMut(usize)) {
        if let Some(last) = self.last_to {
            let (a, b) = (mv.to(), last);
            let distance = (a.file().index().abs_diff(b.file().index()))
                .max(a.rank().index().abs_diff(b.rank().index()));
            add(NEAR + mover * 8 + usize::from(distance));
        }
        if self.our_last_to == Some(mv.from()) {
            add(AGAIN + mover);
        }
        if mover == 5 && !castles && self.can_castle {
            add(KING_WALK);
        }
    }

    /// How the piece on `from` is threatened: 0 not attacked, 1 attacked by a cheaper piece,
    /// 2 attacked and undefended, 3 attacked otherwise.
    fn threat(&self, from: usize, mover: usize) -> usize {
        let bb = Bitboard(1 << from);
        if (self.their_all & bb).is_empty() {
            return 0;
        }
        let cheapest = self
            .their_attacks
            .iter()
            .position(|&a| !(a & bb).is_empty())
            .unwrap_or(3);
        let cheapest_value = [1, 3, 5, 9][cheapest];
        if cheapest_value < VALUE[mover] {
            1
        } else if (self.our_all & bb).is_empty() {
            2
        } else {
            3
        }
    }
}

/// The square the king lands on when it castles by taking the rook on `rook`.
fn castled_king(king: usize, rook: usize) -> usize {
    let rank = king & 56;
    if rook > king {
        rank + 6
    } else {
        rank + 2
    }
}

/// The squares `color` attacks with pawns, knights and bishops, rooks, queens and king.
fn attacks_by_class(pos: &Position, color: Color, occupied: Bitboard) -> [Bitboard; 4] {
    let mut out = [Bitboard::EMPTY; 4];
    let pawns = pos.pieces(color, PieceKind::Pawn);
    out[0] = match color {
        Color::White => Bitboard((pawns.0 << 7) & !FILE_H | (pawns.0 << 9) & !FILE_A),
        Color::Black => Bitboard((pawns.0 >> 9) & !FILE_H | (pawns.0 >> 7) & !FILE_A),
    };
    for (kind, class) in [
        (PieceKind::Knight, 1),
        (PieceKind::Bishop, 1),
        (PieceKind::Rook, 2),
        (PieceKind::Queen, 3),
        (PieceKind::King, 3),
    ] {
        for sq in pos.pieces(color, kind) {
            out[class] |= piece_attacks(kind as u8, color, sq, occupied);
        }
    }
    out
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The squares a piece of kind number `kind` (6: none) attacks from `sq`.
fn piece_attacks(kind: u8, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        0 => pawn_attacks(color, sq),
        1 => knight_attacks(sq),
        2 => bishop_attacks(sq, occupied),
        3 => rook_attacks(sq, occupied),
        4 => bishop_attacks(sq, occupied) | rook_attacks(sq, occupied),
        5 => king_attacks(sq),
        _ => Bitboard::EMPTY,
    }
}
