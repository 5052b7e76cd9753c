//! The features of a move in its position: what the move-likelihood models weigh.
//!
//! A move's score is the sum of the weights of its active features, one index into the weight
//! table per feature group. Groups ([`Group`]) can be left out, which is how the fitting program
//! measures what each one pays. Squares are seen from the mover's side (rank flipped for Black),
//! so one table serves both colours. Everything here is integer arithmetic on the position and
//! the game so far, so the encoder and the decoder find the same features.

use super::lines;
use crate::attacks::{king_attacks, knight_attacks, pawn_attacks};
use crate::perft::bits::{FILE_A, FILE_H};
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

/// Piece values for comparing mover and attacker: pawn 1, knight and bishop 3, rook 5, queen 9,
/// king high.
const VALUE: [u8; 6] = [1, 3, 3, 5, 9, 50];

/// What a position offers every move's features: computed once per position.
#[derive(Debug, Clone)]
pub struct Context {
    us: Color,
    phase: usize,
    /// The opponent's cheapest attacker of each square, as a class number 1-4 (pawns, knights
    /// and bishops, rooks, queens and king; 0 for none) in three bit planes.
    attacker: [u64; 3],
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

/// Hears a move's features as [`Context::features_apart`] finds them: those that depend only
/// on the piece and the square it leaves (the same for every move of that piece) apart from
/// the others.
pub(super) trait FeatureSink {
    /// A feature of the piece and the square it leaves.
    fn piece(&mut self, feature: usize);
    /// A feature of the move itself.
    fn movement(&mut self, feature: usize);
}

/// Both kinds of feature to one function.
struct Every<F>(F);

impl<F: FnMut(usize)> FeatureSink for Every<F> {
    #[inline(always)]
    fn piece(&mut self, feature: usize) {
        (self.0)(feature)
    }

    #[inline(always)]
    fn movement(&mut self, feature: usize) {
        (self.0)(feature)
    }
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
        let their_attacks = attacks_by_class(pos, them, occupied).map(|bb| bb.0);
        let our_all = attacks_by_class(pos, us, occupied)
            .iter()
            .fold(Bitboard::EMPTY, |a, &b| a | b);
        let king = pos.king_square(them);
        let diagonal = Bitboard(lines::bishop(king.index(), occupied.0));
        let straight = Bitboard(lines::rook(king.index(), occupied.0));
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
        let material = pos.kind_bb(PieceKind::Knight).count() * 3
            + pos.kind_bb(PieceKind::Bishop).count() * 3
            + pos.kind_bb(PieceKind::Rook).count() * 5
            + pos.kind_bb(PieceKind::Queen).count() * 9;
        let phase = match material {
            45.. => 0,
            21..=44 => 1,
            _ => 2,
        };
        let theirs = |kind| pos.pieces(them, kind);
        let above_rook = theirs(PieceKind::Queen) | theirs(PieceKind::King);
        let above_minor = above_rook | theirs(PieceKind::Rook);
        let above_pawn = above_minor | theirs(PieceKind::Knight) | theirs(PieceKind::Bishop);
        let their_bigger = [
            above_pawn,
            above_minor,
            above_minor,
            above_rook,
            theirs(PieceKind::King),
            Bitboard::EMPTY,
        ];
        let their_all = Bitboard(their_attacks.iter().fold(0, |a, &b| a | b));
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
            their_loose: pos.color_bb(them) & !their_all & !theirs(PieceKind::King),
            attacker: cheapest_class_planes(their_attacks),
            their_all,
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
    pub fn features(&self, mv: Move, groups: u16, book: Option<usize>, add: impl FnMut(usize)) {
        self.features_apart(mv, groups, book, &mut Every(add));
    }

    /// The features of [`Context::features`], in the same order, each told to `sink` as a
    /// feature of the piece and its square or of the move.
    #[inline(always)]
    pub(super) fn features_apart(
        &self,
        mv: Move,
        groups: u16,
        book: Option<usize>,
        sink: &mut impl FeatureSink,
    ) {
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
            sink.movement(PST_TO + pst + (dest ^ flip));
        }
        if on(Group::PstFrom) {
            sink.piece(PST_FROM + pst + (from ^ flip));
        }
        let to_bb = Bitboard(1 << to);
        if on(Group::Capture) && captured < 6 {
            sink.movement(CAPTURE + mover * 6 + captured);
            if (self.their_all & to_bb).is_empty() {
                sink.movement(HANGING + captured);
            }
        }
        if on(Group::Safety) && !castles {
            let defended = usize::from(!(self.our_all & to_bb).is_empty());
            sink.movement(SAFETY + (mover * 5 + self.attacker(to)) * 2 + defended);
        }
        if on(Group::Threat) {
            sink.piece(THREAT + mover * 4 + self.threat(from, mover));
        }
        if on(Group::Reply) {
            if self.last_to == Some(mv.to()) && captured < 6 {
                sink.movement(RECAPTURE + mover);
            }
            if !(self.last_attacks & Bitboard(1 << from)).is_empty() {
                sink.piece(FLEE + mover);
            }
        }
        if on(Group::Special) {
            let lands_as = mv.promotion().map_or(mover, PieceKind::index);
            if !castles && !(self.checks[lands_as] & to_bb).is_empty() {
                sink.movement(CHECK + lands_as);
            }
            if castles {
                sink.movement(CASTLE);
            }
            if let Some(piece) = mv.promotion() {
                sink.movement(PROMOTE + piece.index() - 1);
            }
        }
        if on(Group::Local) {
            self.local(mv, mover, castles, sink);
        }
        if on(Group::Attack) && !castles {
            let lands_as = mv.promotion().map_or(mover, PieceKind::index);
            let occupied = (self.occupied & !Bitboard(1 << from)) | to_bb;
            let hits = moved_attacks(lands_as, self.us, mv.to(), occupied);
            // At most two of them: no population count needed.
            let bigger = (hits & self.their_bigger[lands_as]).0;
            if bigger != 0 {
                let two = usize::from(bigger & bigger.wrapping_sub(1) != 0);
                sink.movement(FORKS + lands_as * 3 + two);
            }
            if !(hits & self.their_loose & !to_bb).is_empty() {
                sink.movement(FORKS + lands_as * 3 + 2);
            }
        }
        if let (true, Some(bucket)) = (on(Group::Book), book) {
            sink.movement(BOOK + bucket);
        }
    }

    /// The [`Group::Local`] features.
    #[inline(always)]
    fn local(&self, mv: Move, mover: usize, castles: bool, sink: &mut impl FeatureSink) {
        if let Some(last) = self.last_to {
            let (a, b) = (mv.to().index(), last.index());
            let distance = (a & 7).abs_diff(b & 7).max((a >> 3).abs_diff(b >> 3));
            sink.movement(NEAR + mover * 8 + distance);
        }
        if self.our_last_to == Some(mv.from()) {
            sink.piece(AGAIN + mover);
        }
        if mover == 5 && !castles && self.can_castle {
            sink.movement(KING_WALK);
        }
    }

    /// The opponent's cheapest attacker of `sq` as a class number: 0 none, 1 a pawn, 2 a
    /// knight or bishop, 3 a rook, 4 a queen or king.
    #[inline(always)]
    fn attacker(&self, sq: usize) -> usize {
        let bit = |plane: u64| (plane >> sq) as usize & 1;
        bit(self.attacker[0]) | bit(self.attacker[1]) << 1 | bit(self.attacker[2]) << 2
    }

    /// How the piece on `from` is threatened: 0 not attacked, 1 attacked by a cheaper piece,
    /// 2 attacked and undefended, 3 attacked otherwise.
    #[inline(always)]
    fn threat(&self, from: usize, mover: usize) -> usize {
        let cheapest = self.attacker(from);
        if cheapest == 0 {
            return 0;
        }
        let cheapest_value = [1, 1, 3, 5, 9][cheapest.min(4)];
        if cheapest_value < VALUE[mover.min(5)] {
            1
        } else if (self.our_all & Bitboard(1 << from)).is_empty() {
            2
        } else {
            3
        }
    }
}

/// The planes of [`Context::attacker`] from the squares attacked by each class.
fn cheapest_class_planes(by_class: [u64; 4]) -> [u64; 3] {
    let first = by_class[0];
    let second = by_class[1] & !first;
    let third = by_class[2] & !(first | by_class[1]);
    let fourth = by_class[3] & !(first | by_class[1] | by_class[2]);
    [first | third, second | third, fourth]
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

/// The squares a piece of kind number `kind` (6: none) would attack from `sq` after a move:
/// sliders from [`super::lines`], not from the magic tables.
#[inline(always)]
fn moved_attacks(kind: usize, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    let (index, occupied) = (sq.index(), occupied.0);
    match kind {
        2 => Bitboard(lines::bishop(index, occupied)),
        3 => Bitboard(lines::rook(index, occupied)),
        4 => Bitboard(lines::bishop(index, occupied) | lines::rook(index, occupied)),
        _ => piece_attacks(kind as u8, color, sq, Bitboard(occupied)),
    }
}

/// The squares a piece of kind number `kind` (6: none) attacks from `sq`.
#[inline(always)]
fn piece_attacks(kind: u8, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        0 => pawn_attacks(color, sq),
        1 => knight_attacks(sq),
        2 => Bitboard(lines::bishop(sq.index(), occupied.0)),
        3 => Bitboard(lines::rook(sq.index(), occupied.0)),
        4 => Bitboard(lines::bishop(sq.index(), occupied.0) | lines::rook(sq.index(), occupied.0)),
        5 => king_attacks(sq),
        _ => Bitboard::EMPTY,
    }
}
