//! Model 5's features ([`Layout::Fast`]): a fixed number of rows per piece and per move, each
//! read from the position's context ([`Context`], worked out once per position) by table
//! lookups and bit tests, with no static exchange played out and no list of varying length.
//!
//! Each slot is one row index, always present (a slot's "nothing" is a row of its own), so a
//! move's score is always the same number of row additions: [`PIECE_SLOTS`] once per piece
//! (the square it leaves; how it is threatened, whether we moved it last, whether another of
//! ours hangs) and [`MOVE_SLOTS`] per move. The move's slots join what m3's groups held apart:
//! - where it goes, by piece and phase;
//! - the tactic: the mover (a promotion's piece, castling), the piece taken, their cheapest
//!   attacker of the destination, whether we defend it and whether they attack it twice and we
//!   once at most; the exchange's bounds are a function of these, so the network weighs them
//!   without the exchange being played (played out, as m4 does, it earned 0.10 bits a move and
//!   cost a quarter of the time: docs/codecs.md, "Move model m5");
//! - local play: the distance to the last move's destination and to our king, a king walking
//!   off its castling rights;
//! - what it reaches from its destination: how many squares, attacks on more valuable pieces
//!   (one or two), on an undefended piece, a defence of a hanging piece of ours;
//! - their king: the distance to it, an attack on its squares, a check on a safe or unsafe
//!   square;
//! - the opening book's bucket.
//!
//! Model 6 ([`Layout::FastExchange`]) keeps these slots and mends what m5 got wrong or left out,
//! at about m5's cost: a destination counts as defended only by a piece other than the mover
//! (every mover but a pawn going straight on attacks the square it goes to, so m5's "defended"
//! was nearly always on), or by an x-ray of ours; "they attack it twice" is weighed against our
//! other defenders; the piece's state says which of our attacked pieces it alone defends; and a
//! capture or promotion carries its static exchange's bucket (played out only where its bounds
//! and the position's tables leave it open), in the book's slot.

use super::context::{attacks, Context, NONE};
use super::features::{distance, REACH};
use super::group::Group;
use super::see::VALUE;
use crate::{Move, MoveKind};

/// The layout of a network model's rows: which features it has and how a move hears them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// m3's and m4's: feature groups ([`super::features::Group`]), each told by the features.
    Groups,
    /// m5's: a fixed number of slots per piece and per move ([`super::fast`]).
    Fast,
    /// m6's: m5's slots, defences counted without the mover, sole defenders and the exchange
    /// of captures ([`super::fast`]).
    FastExchange,
}

impl Layout {
    /// The number of move features (rows besides the position's, the bias and the output).
    pub const fn features(self) -> usize {
        match self {
            Layout::Groups => super::features::FEATURES,
            Layout::Fast => FAST_FEATURES,
            Layout::FastExchange => EXCHANGE_FEATURES,
        }
    }
}

/// What m5's slots need the position's context ([`Context::new`]) to work out besides its
/// constant part: nothing (no sole defenders, no exchanges on our attacked pieces, no
/// sliders' lines, no discovered checks).
pub const FAST_GROUPS: u32 = 0;

/// What m6's slots need the context to work out: the sole defenders ([`Group::Defence`]) and
/// what the exchange of captures needs ([`Group::Exchange`]: the x-rays, which the defences
/// count too).
pub const EXCHANGE_GROUPS: u32 = Group::Defence.bit() | Group::Exchange.bit();

/// Rows added once per piece.
pub const PIECE_SLOTS: usize = 2;

/// Rows added per move.
pub const MOVE_SLOTS: usize = 6;

/// The sizes of m5's slots, the piece's first: the square left (phase x piece x square), the
/// piece's state (piece x threat x moved last x others hanging), the destination, the tactic,
/// local play, reach, their king, the book.
const SIZES: [usize; SLOTS] = [
    3 * 6 * 64,
    6 * 4 * 2 * 3,
    3 * 6 * 64,
    TACTIC_MOVERS * 6 * 5 * 2 * 2,
    7 * 9 * 8,
    6 * 7 * 3 * 2 * 2,
    6 * 8 * 2 * 3,
    BOOK_ROWS,
];

/// The sizes of m6's slots: m5's, the piece's state by the most valuable piece it alone defends
/// (none, or its value class: 5), the book's by the exchange's bucket (none, or 0-8: 10).
const EXCHANGE_SIZES: [usize; SLOTS] = [
    SIZES[0],
    SIZES[1] * 5,
    SIZES[2],
    SIZES[3],
    SIZES[4],
    SIZES[5],
    SIZES[6],
    BOOK_ROWS * EXCHANGES,
];

/// Slots per piece and per move.
const SLOTS: usize = PIECE_SLOTS + MOVE_SLOTS;

/// The tactic's movers: the six kinds, a promotion to a queen, to a knight, to a rook or
/// bishop, castling.
const TACTIC_MOVERS: usize = 10;

/// The book's buckets and "not in the book".
const BOOK_ROWS: usize = 6 * 7 + 1;

/// m6's exchange buckets (the exchange groups', 0-8) and "no capture".
const EXCHANGES: usize = 10;

/// The first row of each slot.
const fn offsets(sizes: [usize; SLOTS]) -> [usize; SLOTS] {
    let mut out = [0; SLOTS];
    let mut i = 1;
    while i < out.len() {
        out[i] = out[i - 1] + sizes[i - 1];
        i += 1;
    }
    out
}

/// The first row of each of m5's slots.
const OFFSETS: [usize; SLOTS] = offsets(SIZES);

/// The first row of each of m6's slots.
const EXCHANGE_OFFSETS: [usize; SLOTS] = offsets(EXCHANGE_SIZES);

/// The rows of each slot of `layout` (m5's or m6's), the piece's first: a piece and its move
/// hear one row of each.
#[cfg(test)]
pub(super) fn slots(layout: Layout) -> [std::ops::Range<usize>; SLOTS] {
    let (offsets, sizes) = match layout {
        Layout::FastExchange => (EXCHANGE_OFFSETS, EXCHANGE_SIZES),
        _ => (OFFSETS, SIZES),
    };
    std::array::from_fn(|slot| offsets[slot]..offsets[slot] + sizes[slot])
}

/// The number of m5's move features.
pub const FAST_FEATURES: usize = OFFSETS[SLOTS - 1] + SIZES[SLOTS - 1];

/// The number of m6's move features.
pub const EXCHANGE_FEATURES: usize = EXCHANGE_OFFSETS[SLOTS - 1] + EXCHANGE_SIZES[SLOTS - 1];

/// What the moves of one piece share in their rows, worked out once for the piece
/// ([`Context::fast_mover`]).
#[derive(Debug, Clone, Copy)]
pub struct Mover {
    from: usize,
    /// Its kind.
    mover: usize,
    /// The first row of its destination's slot (the phase and the kind).
    squares: usize,
    /// The board without it.
    occupied: u64,
    /// Our hanging pieces but it that we do not defend.
    unguarded: u64,
    /// Its kind in the local slot, a king with castling rights apart (castling aside).
    walker: usize,
    /// Our defences of the squares it goes to, pawns going straight on ([`Context::fast_move`])
    /// and others: (at least once, at least twice).
    defences: [(u64, u64); 2],
}

impl Context {
    /// What the moves of the piece on `from` share ([`Mover`]).
    #[inline(always)]
    pub fn fast_mover(&self, from: usize) -> Mover {
        let mover = usize::from(self.kinds[from]);
        let from_bit = 1u64 << from;
        Mover {
            from,
            mover,
            squares: (self.phase * 6 + mover) * 64,
            occupied: self.occupied & !from_bit,
            unguarded: self.hanging & !from_bit & !self.our_all,
            walker: if mover == 5 && self.can_castle {
                6
            } else {
                mover
            },
            defences: [(self.our_all, self.our_two), (self.our_two, self.our_three)],
        }
    }

    /// The rows of the piece `piece` ([`PIECE_SLOTS`]) in m5's layout, or m6's when
    /// `EXCHANGE`.
    #[inline(always)]
    pub fn fast_piece<const EXCHANGE: bool>(&self, piece: &Mover) -> [u16; PIECE_SLOTS] {
        let offsets = if EXCHANGE { EXCHANGE_OFFSETS } else { OFFSETS };
        let (from, mover) = (piece.from, piece.mover);
        let square = piece.squares + (from ^ self.flip);
        let last = usize::from(self.our_last_to == from);
        let others = if self.hanging & !(1 << from) == 0 {
            0
        } else {
            1 + usize::from((self.hanging & !(1 << from)).count_ones() > 1)
        };
        let state = ((mover * 4 + self.threat(from, mover)) * 2 + last) * 3 + others;
        let state = if EXCHANGE {
            state * 5 + usize::from(self.sole[from])
        } else {
            state
        };
        [(offsets[0] + square) as u16, (offsets[1] + state) as u16]
    }

    /// The rows of `mv`, a move of `piece` ([`MOVE_SLOTS`]), in m5's layout, or m6's when
    /// `EXCHANGE`; `book` is its book bucket while the position is in the book.
    #[inline(always)]
    pub fn fast_move<const EXCHANGE: bool>(
        &self,
        piece: &Mover,
        mv: Move,
        book: Option<usize>,
    ) -> [u16; MOVE_SLOTS] {
        let offsets = if EXCHANGE { EXCHANGE_OFFSETS } else { OFFSETS };
        let (from, to) = (piece.from, mv.to().index());
        let mover = piece.mover;
        let kind = mv.kind();
        let castles = matches!(kind, MoveKind::Castling);
        let (tactic_mover, lands_as) = match kind {
            MoveKind::Promotion(p) => {
                let p = p.index();
                (6 + [2, 1, 2, 2, 0, 2][p], p)
            }
            MoveKind::Castling => (9, mover),
            _ => (mover, mover),
        };
        let captured = match kind {
            MoveKind::EnPassant => 0,
            MoveKind::Castling => 5,
            _ => usize::from(self.kinds[to]).min(5),
        };
        let dest = if castles {
            (from & 56) + if to > from { 6 } else { 2 }
        } else {
            to
        };
        let to_bit = 1u64 << to;
        let square = piece.squares + (dest ^ self.flip);
        let (class, defended, contested) = if castles {
            (0, 0, 0)
        } else if EXCHANGE {
            // Our defenders but the mover, which attacks the square unless it is a pawn going
            // straight on; an x-ray of ours may join.
            let (one, two) = piece.defences[usize::from(mover != 0 || (from ^ to) & 7 != 0)];
            (
                self.attacker_class(to),
                usize::from((one | self.our_xray) & to_bit != 0),
                usize::from(self.their_two & !two & to_bit != 0),
            )
        } else {
            (
                self.attacker_class(to),
                usize::from(self.our_all & to_bit != 0),
                usize::from(self.their_two & !self.our_two & to_bit != 0),
            )
        };
        let tactic = (((tactic_mover * 6 + captured) * 5 + class) * 2 + defended) * 2 + contested;
        let walker = if castles { mover } else { piece.walker };
        let last = if self.last_to == NONE {
            8
        } else {
            distance(to, self.last_to)
        };
        let local = (walker * 9 + last) * 8 + distance(dest, self.our_king);
        let hits = if castles {
            0
        } else {
            let occupied = piece.occupied | to_bit;
            attacks(lands_as, self.us, to, occupied)
        };
        let reached = usize::from(REACH[(hits & !self.ours).count_ones() as usize & 31]);
        let bigger = hits & self.their_bigger[lands_as];
        let bigger = if bigger == 0 {
            0
        } else {
            1 + usize::from(bigger & bigger.wrapping_sub(1) != 0)
        };
        let loose = usize::from(hits & self.their_loose & !to_bit != 0);
        let guards = usize::from(hits & piece.unguarded != 0);
        let reach = (((lands_as * 7 + reached) * 3 + bigger) * 2 + loose) * 2 + guards;
        let check = if !castles && self.checks[lands_as] & to_bit != 0 {
            1 + usize::from(self.their_all & to_bit == 0 || self.our_all & to_bit != 0)
        } else {
            0
        };
        let zone = usize::from(hits & self.their_zone != 0);
        let king = ((lands_as * 8 + distance(dest, self.their_king)) * 2 + zone) * 3 + check;
        let book = book.unwrap_or(BOOK_ROWS - 1);
        let book = if EXCHANGE {
            book * EXCHANGES + self.capture_exchange((from, to), kind, captured, lands_as)
        } else {
            book
        };
        [
            (offsets[2] + square) as u16,
            (offsets[3] + tactic) as u16,
            (offsets[4] + local) as u16,
            (offsets[5] + reach) as u16,
            (offsets[6] + king) as u16,
            (offsets[7] + book) as u16,
        ]
    }

    /// m6: the exchange's bucket of a capture or promotion from `from` to `to` (`captured` as
    /// [`Context::fast_move`] has it: 0 for en passant, 5 for castling or none); for any other
    /// move the last bucket, [`EXCHANGES`] less one.
    #[inline(always)]
    fn capture_exchange(
        &self,
        (from, to): (usize, usize),
        kind: MoveKind,
        captured: usize,
        lands_as: usize,
    ) -> usize {
        let (taken, promotion) = match kind {
            MoveKind::Castling => return EXCHANGES - 1,
            MoveKind::EnPassant => (VALUE[0], 0),
            MoveKind::Promotion(p) => (
                if captured < 5 { VALUE[captured] } else { 0 },
                VALUE[p.index()] - 1,
            ),
            _ if captured < 5 => (VALUE[captured], 0),
            _ => return EXCHANGES - 1,
        };
        self.exchange_feature(from, to, lands_as, taken + promotion)
    }
}

#[cfg(test)]
mod tests {
    use super::super::history::random_suite_positions;
    use super::*;

    /// Every slot's row (m5's and m6's) lies in the slot's own range, on every legal move of the positions of
    /// seeded random games from the perft suite (Chess960 castling, promotions and en passant
    /// among them), and the slots' rows add up to [`FAST_FEATURES`].
    #[test]
    fn every_slot_stays_in_its_range() {
        assert_eq!(FAST_FEATURES, SIZES.iter().sum::<usize>());
        assert_eq!(EXCHANGE_FEATURES, EXCHANGE_SIZES.iter().sum::<usize>());
        let mut moves = 0;
        let mut rng = crate::types::splitmix::SplitMix::new(6);
        random_suite_positions(5, 100, |pos, history, legal| {
            let groups = EXCHANGE_GROUPS | FAST_GROUPS;
            let context = Context::new(pos, history, legal.len(), false, groups);
            for &mv in legal.iter() {
                let book = Some(rng.below(BOOK_ROWS - 1)).filter(|_| moves % 2 == 0);
                let mover = context.fast_mover(mv.from().index());
                for (layout, piece, rows) in [
                    (
                        Layout::Fast,
                        context.fast_piece::<false>(&mover),
                        context.fast_move::<false>(&mover, mv, book),
                    ),
                    (
                        Layout::FastExchange,
                        context.fast_piece::<true>(&mover),
                        context.fast_move::<true>(&mover, mv, book),
                    ),
                ] {
                    let slots = slots(layout).into_iter();
                    for ((slot, &row), range) in piece.iter().chain(&rows).enumerate().zip(slots) {
                        let row = usize::from(row);
                        assert!(range.contains(&row), "{} {mv:?} slot {slot}", pos.fen());
                    }
                }
                moves += 1;
            }
        });
        assert!(moves > 10_000, "{moves}");
    }
}
