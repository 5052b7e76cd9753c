//! What a position offers the features of every legal move (computed once per position): both
//! sides' attacks, the pieces of ours that hang, that alone defend another, that shield another
//! from a slider or would uncover an attack, the squares that give check, and the position's own
//! features for the network (phase, check, material, threats, the last move).
//!
//! Squares are board indices (a1 = 0); [`NONE`] stands for no square.

use super::super::lines;
use super::group::Group;
use super::history::History;
use super::see::{Board, VALUE};
use crate::attacks::{between, king_attacks, knight_attacks, pawn_attacks};
use crate::perft::bits::{square, squares, FILE_A, FILE_H};
use crate::{CastlingSide, Color, PieceKind, Position};

/// No square.
pub const NONE: usize = 64;

/// The position's own features ([`super::features::POSITION_FEATURES`] of them): game phase by
/// material (8), in check or not (2), our most valuable hanging piece (5), the last move (3),
/// ply (6), material balance (7), legal moves (6), in the book or not (2), the most their best
/// capture wins (6). One feature of each group is active.
pub const POSITION_GROUPS: [usize; 9] = [8, 2, 5, 3, 6, 7, 6, 2, 6];

/// Per-position facts, from the side to move's point of view.
#[derive(Debug, Clone)]
pub struct Context {
    pub(super) us: Color,
    /// 0 for White, 56 for Black: squares seen from the mover's side (`sq ^ flip`).
    pub(super) flip: usize,
    /// 0 opening, 1 middle game, 2 ending (by material).
    pub(super) phase: usize,
    /// The kind number on each square, 6 for none.
    pub(super) kinds: [u8; 64],
    pub(super) board: Board,
    pub(super) occupied: u64,
    pub(super) ours: u64,
    /// Their cheapest attacker of each square as a class 1-4 (pawn; knight or bishop; rook;
    /// queen or king; 0 none) in three bit planes.
    attacker: [u64; 3],
    pub(super) their_all: u64,
    /// The squares they attack twice or more.
    pub(super) their_two: u64,
    /// The squares their bishops, rooks and queens attack.
    pub(super) their_sliding: u64,
    /// The squares our bishops, rooks and queens attack.
    pub(super) our_sliding: u64,
    /// The squares their (our) bishops, rooks and queens would attack through exactly one piece
    /// in their way that could leave the line by taking on the square (a slider of the line's
    /// kind, a king, a pawn on a diagonal): where an x-ray of theirs (ours) can join an exchange.
    /// Worked out for [`Group::Exchange`] only (else empty).
    pub(super) their_xray: u64,
    pub(super) our_xray: u64,
    pub(super) our_all: u64,
    /// The squares we attack twice or more.
    pub(super) our_two: u64,
    /// The squares we attack three times or more.
    pub(super) our_three: u64,
    /// Squares from which each kind of ours gives check.
    pub(super) checks: [u64; 6],
    pub(super) last_to: usize,
    pub(super) our_last_to: usize,
    pub(super) can_castle: bool,
    /// Their pieces worth more than each of our kinds; their undefended pieces.
    pub(super) their_bigger: [u64; 6],
    pub(super) their_loose: u64,
    pub(super) their_king: usize,
    pub(super) our_king: usize,
    /// Their king and the squares around it.
    pub(super) their_zone: u64,
    /// Our pieces whose move (off the line) uncovers check by a slider of ours.
    pub(super) discovers: u64,
    /// Our pieces attacked and undefended, or attacked by a cheaper piece.
    pub(super) hanging: u64,
    /// Per square of ours: 1 + the value class of an attacked piece it alone defends (0: none),
    /// and those pieces.
    pub(super) sole: [u8; 64],
    pub(super) sole_targets: [u64; 64],
    /// Per square of ours: 1 + the value class of a piece of ours it shields from their slider.
    pub(super) shield: [u8; 64],
    /// Per square of ours: what their best capture there wins, as a bucket (0: nothing).
    pub(super) threatened: [u8; 64],
    /// Per square of ours: 1 + the value class of their piece its move would uncover to our
    /// slider, and that slider's square.
    pub(super) uncovers: [u8; 64],
    pub(super) uncover_slider: [u8; 64],
    pub(super) their_pawns: u64,
    pub(super) our_pawns: u64,
    /// The position's features ([`POSITION_GROUPS`], offsets added).
    pub(super) position: [u16; 9],
    /// The feature groups it was worked out for: the per-square arrays of the others are empty.
    groups: u32,
}

#[inline(always)]
fn bit(sq: usize) -> u64 {
    1 << sq
}

/// The value class of a kind: 0 pawn, 1 knight or bishop, 2 rook, 3 queen (and king).
#[inline(always)]
pub(super) fn value_class(kind: usize) -> u8 {
    [0, 1, 1, 2, 3, 3, 0][kind]
}

/// The squares a piece of kind number `kind` (6: none) of `color` attacks from `sq`.
#[inline(always)]
pub(super) fn attacks(kind: usize, color: Color, sq: usize, occupied: u64) -> u64 {
    let square = square(sq as u32);
    match kind {
        0 => pawn_attacks(color, square).0,
        1 => knight_attacks(square).0,
        2 => lines::bishop(sq, occupied),
        3 => lines::rook(sq, occupied),
        4 => lines::bishop(sq, occupied) | lines::rook(sq, occupied),
        5 => king_attacks(square).0,
        _ => 0,
    }
}

/// One side's attacks: every square attacked, those attacked twice or more, and by value class
/// (0 pawn, 1 knight or bishop, 2 rook, 3 queen or king).
struct SideAttacks {
    all: u64,
    two: u64,
    /// The squares attacked three times or more.
    three: u64,
    class: [u64; 4],
    /// The squares the side's bishops, rooks and queens attack.
    sliding: u64,
    /// The squares they attack through exactly one piece in their way that could take on the
    /// square ([`beyond`]).
    xray: u64,
}

/// The attacks of the pieces of `side` (of `color`), kind by kind (the pawns all at once);
/// the x-rays only when `xrays` (else none).
#[inline(always)]
fn side_attacks(board: &Board, side: u64, color: Color, occupied: u64, xrays: bool) -> SideAttacks {
    let pawns = board.by_kind[0] & side;
    let (left, right) = if color == Color::White {
        ((pawns & !FILE_A) << 7, (pawns & !FILE_H) << 9)
    } else {
        ((pawns & !FILE_A) >> 9, (pawns & !FILE_H) >> 7)
    };
    let mut out = SideAttacks {
        all: left | right,
        two: left & right,
        three: 0,
        class: [left | right, 0, 0, 0],
        sliding: 0,
        xray: 0,
    };
    let mut add = |class: usize, hits: u64, sliding: bool| {
        out.three |= out.two & hits;
        out.two |= out.all & hits;
        out.all |= hits;
        out.class[class] |= hits;
        if sliding {
            out.sliding |= hits;
        }
    };
    let mut xray = 0;
    // The pieces that can take along a bishop's lines, along a rook's.
    let [pawns, _, bishops, rooks, queens, kings] = board.by_kind;
    let diagonal = pawns | bishops | queens | kings;
    let straight = rooks | queens | kings;
    for sq in squares(board.by_kind[1] & side) {
        let sq = sq as usize;
        add(1, knight_attacks(square(sq as u32)).0, false);
    }
    for sq in squares(board.by_kind[2] & side) {
        let sq = sq as usize;
        add(
            1,
            beyond(lines::bishop, sq, occupied, diagonal, xrays, &mut xray),
            true,
        );
    }
    for sq in squares(board.by_kind[3] & side) {
        let sq = sq as usize;
        add(
            2,
            beyond(lines::rook, sq, occupied, straight, xrays, &mut xray),
            true,
        );
    }
    for sq in squares(board.by_kind[4] & side) {
        let sq = sq as usize;
        let hits = beyond(lines::bishop, sq, occupied, diagonal, xrays, &mut xray);
        add(
            3,
            hits | beyond(lines::rook, sq, occupied, straight, xrays, &mut xray),
            true,
        );
    }
    for sq in squares(board.by_kind[5] & side) {
        let sq = sq as usize;
        add(3, king_attacks(square(sq as u32)).0, false);
    }
    out.xray = xray;
    out
}

/// The squares a slider on `sq` attacks along `line` (a bishop's or a rook's), and into
/// `xray` (when `xrays`) those it would attack through exactly one piece in its way among
/// `takers` (the pieces that can take along such a line; no other piece leaves it in an
/// exchange).
#[inline(always)]
fn beyond(
    line: fn(usize, u64) -> u64,
    sq: usize,
    occupied: u64,
    takers: u64,
    xrays: bool,
    xray: &mut u64,
) -> u64 {
    let hits = line(sq, occupied);
    if xrays {
        *xray |= line(sq, occupied & !(hits & takers)) & !hits;
    }
    hits
}

/// A capture's gain in pawns as a bucket 0-5 (nothing, 1, 2, 3-4, 5-7, 8 or more).
fn gain_bucket(gain: i32) -> u8 {
    match gain {
        ..=0 => 0,
        1 => 1,
        2 => 2,
        3..=4 => 3,
        5..=7 => 4,
        _ => 5,
    }
}

impl Context {
    /// The context of `pos`, reached by the game `history`, with `legal` legal moves; `in_book`
    /// when the book knows the position. Only what the feature `groups` ([`Group::bit`]) use is
    /// worked out: without [`Group::Defence`] no sole defenders, without [`Group::Threatened`]
    /// no exchanges on our attacked pieces (the position's largest threat is then 0), without
    /// [`Group::Shield`] and [`Group::Uncover`] no sliders' lines, without [`Group::CheckKind`]
    /// no discovered checks, without [`Group::Exchange`] no x-rays.
    pub fn new(
        pos: &Position,
        history: &History,
        legal: usize,
        in_book: bool,
        groups: u32,
    ) -> Context {
        let mut context = Context {
            us: Color::White,
            flip: 0,
            phase: 0,
            kinds: [6; 64],
            board: Board {
                by_kind: [0; 6],
                by_color: [0; 2],
            },
            occupied: 0,
            ours: 0,
            attacker: [0; 3],
            their_all: 0,
            their_two: 0,
            their_sliding: 0,
            our_sliding: 0,
            their_xray: 0,
            our_xray: 0,
            our_all: 0,
            our_two: 0,
            our_three: 0,
            checks: [0; 6],
            last_to: NONE,
            our_last_to: NONE,
            can_castle: false,
            their_bigger: [0; 6],
            their_loose: 0,
            their_king: 0,
            our_king: 0,
            their_zone: 0,
            discovers: 0,
            hanging: 0,
            sole: [0; 64],
            sole_targets: [0; 64],
            shield: [0; 64],
            threatened: [0; 64],
            uncovers: [0; 64],
            uncover_slider: [0; 64],
            their_pawns: 0,
            our_pawns: 0,
            position: [0; 9],
            groups: 0,
        };
        context.renew(pos, history, legal, in_book, groups);
        context
    }

    /// Makes this the context [`Context::new`] gives, in place: one context serves every
    /// position of a game, and the per-square arrays the groups do not use are never touched
    /// (those the last groups used are cleared).
    #[inline(always)] // into each tier's distribution (net/scoring.rs)
    pub fn renew(
        &mut self,
        pos: &Position,
        history: &History,
        legal: usize,
        in_book: bool,
        groups: u32,
    ) {
        let us = pos.side_to_move();
        let them = !us;
        let board = Board {
            by_kind: PieceKind::ALL.map(|k| pos.kind_bb(k).0),
            by_color: [pos.color_bb(Color::White).0, pos.color_bb(Color::Black).0],
        };
        let occupied = board.by_color[0] | board.by_color[1];
        let xrays = groups & Group::Exchange.bit() != 0;
        let (ours, theirs) = (board.by_color[us.index()], board.by_color[them.index()]);
        let kinds = &mut self.kinds;
        *kinds = [6; 64];
        for (kind, &set) in board.by_kind.iter().enumerate() {
            let mut set = set;
            while set != 0 {
                kinds[set.trailing_zeros() as usize] = kind as u8;
                set &= set - 1;
            }
        }
        let (their_pieces, our_pieces) = (
            side_attacks(&board, theirs, them, occupied, xrays),
            side_attacks(&board, ours, us, occupied, xrays),
        );
        let class = their_pieces.class;
        let their_all = their_pieces.all;
        let their_sliding = their_pieces.sliding;
        let our_all = our_pieces.all;
        let our_two = our_pieces.two;
        let attacker = {
            let [first, second, third, fourth] = class;
            let second = second & !first;
            let third = third & !(first | class[1]);
            let fourth = fourth & !(first | class[1] | class[2]);
            [first | third, second | third, fourth]
        };
        let mine = |kind: PieceKind| board.by_kind[kind.index()] & ours;
        let their = |kind: PieceKind| board.by_kind[kind.index()] & theirs;
        let their_king = pos.king_square(them).index();
        let our_king = pos.king_square(us).index();
        let diagonal = lines::bishop(their_king, occupied);
        let straight = lines::rook(their_king, occupied);
        let king_square = square(their_king as u32);
        let checks = [
            pawn_attacks(them, king_square).0,
            knight_attacks(king_square).0,
            diagonal,
            straight,
            diagonal | straight,
            0,
        ];
        let our_diagonal = mine(PieceKind::Bishop) | mine(PieceKind::Queen);
        let our_straight = mine(PieceKind::Rook) | mine(PieceKind::Queen);
        let mut discovers = 0;
        let checks_on = groups & Group::CheckKind.bit() != 0;
        let mut snipers = if !checks_on {
            0
        } else {
            (lines::bishop(their_king, 0) & our_diagonal)
                | (lines::rook(their_king, 0) & our_straight)
        };
        while snipers != 0 {
            let sq = square(snipers.trailing_zeros());
            snipers &= snipers - 1;
            let blockers = between(king_square, sq).0 & occupied;
            if blockers.count_ones() == 1 && blockers & ours != 0 {
                discovers |= blockers;
            }
        }
        let above_rook = their(PieceKind::Queen) | their(PieceKind::King);
        let above_minor = above_rook | their(PieceKind::Rook);
        let above_pawn = above_minor | their(PieceKind::Knight) | their(PieceKind::Bishop);
        let rights = pos.castling_rights();
        let context = self;
        context.us = us;
        context.flip = if us == Color::White { 0 } else { 56 };
        context.board = board;
        context.occupied = occupied;
        context.ours = ours;
        context.attacker = attacker;
        context.their_all = their_all;
        context.their_two = their_pieces.two;
        context.their_sliding = their_sliding;
        context.our_sliding = our_pieces.sliding;
        context.their_xray = their_pieces.xray;
        context.our_xray = our_pieces.xray;
        context.our_all = our_all;
        context.our_two = our_two;
        context.our_three = our_pieces.three;
        context.checks = checks;
        context.last_to = history.last.map_or(NONE, |m| m.to().index());
        context.our_last_to = history.our_last.map_or(NONE, |m| m.to().index());
        context.can_castle = CastlingSide::ALL
            .iter()
            .any(|&side| rights.rook(us, side).is_some());
        context.their_bigger = [
            above_pawn,
            above_minor,
            above_minor,
            above_rook,
            their(PieceKind::King),
            0,
        ];
        context.their_loose = theirs & !their_all & !their(PieceKind::King);
        context.their_king = their_king;
        context.our_king = our_king;
        context.their_zone = king_attacks(king_square).0 | bit(their_king);
        context.discovers = discovers;
        context.hanging = 0;
        if context.groups & Group::Defence.bit() != 0 {
            context.sole = [0; 64];
            context.sole_targets = [0; 64];
        }
        if context.groups & Group::Threatened.bit() != 0 {
            context.threatened = [0; 64];
        }
        if context.groups & (Group::Shield.bit() | Group::Uncover.bit()) != 0 {
            context.shield = [0; 64];
            context.uncovers = [0; 64];
            context.uncover_slider = [0; 64];
        }
        context.groups = groups;
        context.their_pawns = their(PieceKind::Pawn);
        context.our_pawns = mine(PieceKind::Pawn);
        let (hang, threat) = context.weaknesses(our_two, groups);
        if groups & (Group::Shield.bit() | Group::Uncover.bit()) != 0 {
            context.sliders(theirs);
        }
        let material = |side: u64| {
            [0, 1, 2, 3, 4]
                .iter()
                .map(|&k| (board.by_kind[k] & side).count_ones() as i32 * VALUE[k])
                .sum::<i32>()
        };
        let (our_material, their_material) = (material(ours), material(theirs));
        let pieces =
            our_material + their_material - ((board.by_kind[0] & occupied).count_ones() as i32);
        context.phase = match pieces {
            45.. => 0,
            21..=44 => 1,
            _ => 2,
        };
        let last = match history.last {
            None => 2,
            Some(_) if history.last_captured => 0,
            Some(_) if pos.in_check() => 1,
            Some(_) => 2,
        };
        let ply = match history.ply {
            0..=9 => 0,
            10..=19 => 1,
            20..=39 => 2,
            40..=59 => 3,
            60..=99 => 4,
            _ => 5,
        };
        let balance = match our_material - their_material {
            ..=-5 => 0,
            -4..=-2 => 1,
            -1 => 2,
            0 => 3,
            1 => 4,
            2..=4 => 5,
            _ => 6,
        };
        let moves = match legal {
            0..=5 => 0,
            6..=15 => 1,
            16..=25 => 2,
            26..=35 => 3,
            36..=45 => 4,
            _ => 5,
        };
        let values = [
            (pieces.min(62) / 8) as usize,
            usize::from(pos.in_check()),
            hang,
            last,
            ply,
            balance,
            moves,
            usize::from(in_book),
            threat as usize,
        ];
        let mut offset = 0;
        for (slot, (&size, value)) in POSITION_GROUPS.iter().zip(values).enumerate() {
            context.position[slot] = (offset + value) as u16;
            offset += size;
        }
    }

    /// Hanging pieces, sole defenders and what their best capture wins on each of our pieces;
    /// returns (1 + the value class of our most valuable hanging piece, or 0; the largest
    /// capture bucket).
    fn weaknesses(&mut self, our_two: u64, groups: u32) -> (usize, u8) {
        let sole = groups & Group::Defence.bit() != 0;
        let exchanges = groups & Group::Threatened.bit() != 0;
        let (mut hang, mut threat) = (0, 0);
        let our_king = bit(self.our_king);
        let mut attacked = self.ours & self.their_all & !our_king;
        while attacked != 0 {
            let sq = attacked.trailing_zeros() as usize;
            attacked &= attacked - 1;
            let kind = self.kinds[sq] as usize;
            let attackers = if sole || exchanges {
                self.board.attackers_to(sq, self.occupied)
            } else {
                0
            };
            let cheapest = [0, 1, 3, 5, 9][self.attacker_class(sq)];
            let defended = self.our_all & bit(sq) != 0;
            if !defended || cheapest < VALUE[kind] {
                self.hanging |= bit(sq);
                hang = hang.max(1 + value_class(kind) as usize);
            } else if sole && our_two & bit(sq) == 0 {
                let defenders = attackers & self.ours;
                if defenders.count_ones() == 1 {
                    let defender = defenders.trailing_zeros() as usize;
                    self.sole[defender] = self.sole[defender].max(1 + value_class(kind));
                    self.sole_targets[defender] |= bit(sq);
                }
            }
            if !exchanges {
                continue;
            }
            // Their cheapest capture here, then the exchange.
            let theirs = self.occupied & !self.ours;
            let takers = attackers & theirs;
            if let Some(taker) = (0..6).find(|&k| takers & self.board.by_kind[k] != 0) {
                let from = (takers & self.board.by_kind[taker]).trailing_zeros() as usize;
                let gain = self.board.exchange(!self.us, from, sq, taker, VALUE[kind]);
                self.threatened[sq] = gain_bucket(gain);
                threat = threat.max(self.threatened[sq]);
            }
        }
        (hang, threat)
    }

    /// Pieces of ours that shield another of ours from their slider, and pieces of ours whose
    /// move would uncover an attack by our slider on a more valuable or undefended piece.
    fn sliders(&mut self, theirs: u64) {
        let kinds = self.kinds;
        let sliders = |side: u64| {
            side & (self.board.by_kind[2] | self.board.by_kind[3] | self.board.by_kind[4])
        };
        // Each slider's attacks once with every piece of ours it hits lifted: what appears
        // behind a lifted piece lies on that piece's ray, so `between` names the piece.
        let mut set = sliders(theirs);
        while set != 0 {
            let sq = set.trailing_zeros() as usize;
            set &= set - 1;
            let kind = kinds[sq] as usize;
            let direct = attacks(kind, !self.us, sq, self.occupied);
            let blockers = direct & self.ours;
            if blockers == 0 {
                continue;
            }
            let behind =
                attacks(kind, !self.us, sq, self.occupied & !blockers) & !direct & self.ours;
            let slider = square(sq as u32);
            for target in squares(behind) {
                let target = target as usize;
                let target_kind = kinds[target] as usize;
                if target_kind != 5
                    && (VALUE[target_kind] > VALUE[kind] || self.our_all & bit(target) == 0)
                {
                    let square = square(target as u32);
                    let blocker = (between(slider, square).0 & blockers).trailing_zeros() as usize;
                    self.shield[blocker] = self.shield[blocker].max(1 + value_class(target_kind));
                }
            }
        }
        let mut set = sliders(self.ours);
        while set != 0 {
            let sq = set.trailing_zeros() as usize;
            set &= set - 1;
            let kind = kinds[sq] as usize;
            let direct = attacks(kind, self.us, sq, self.occupied);
            let blockers = direct & self.ours;
            if blockers == 0 {
                continue;
            }
            let behind = attacks(kind, self.us, sq, self.occupied & !blockers) & !direct & theirs;
            let slider = square(sq as u32);
            for target in squares(behind) {
                let target = target as usize;
                let target_kind = kinds[target] as usize;
                if target_kind == 5 {
                    continue;
                }
                if VALUE[target_kind] > VALUE[kind] || self.their_all & bit(target) == 0 {
                    let square = square(target as u32);
                    let blocker = (between(slider, square).0 & blockers).trailing_zeros() as usize;
                    let class = 1 + value_class(target_kind);
                    if class > self.uncovers[blocker] {
                        self.uncovers[blocker] = class;
                        self.uncover_slider[blocker] = sq as u8;
                    }
                }
            }
        }
    }

    /// Their cheapest attacker of `sq` as a class number 0-4.
    #[inline(always)]
    pub(super) fn attacker_class(&self, sq: usize) -> usize {
        let b = |plane: u64| (plane >> sq) as usize & 1;
        b(self.attacker[0]) | b(self.attacker[1]) << 1 | b(self.attacker[2]) << 2
    }

    /// The position's features (indices of the position rows).
    pub(super) fn position_features(&self) -> impl Iterator<Item = usize> + '_ {
        self.position.iter().map(|&f| usize::from(f))
    }
}
