//! The last ply of the fast exact walk: of a board's legal moves, how many mate and how many
//! stalemate, with no move made but a few.
//!
//! A move can end the game only by leaving the opponent without a legal move, so each move is
//! sorted by two masks made once per board:
//! - **It may give check**: it lands where its piece attacks the opponent king (a knight or
//!   pawn square, a bishop or rook line from the king through the board as it stands: a slider
//!   moving along such a line away from the king would have been giving check already), or it
//!   moves a piece that alone stands between one of our sliders and that king (a discovered
//!   check). Promotions, en passant and castling are counted as possible checks.
//! - **It may stalemate**: the opponent, not in check after it, keeps a legal move unless the
//!   move takes away every *witness*: a move of the opponent's in the position as it stands
//!   that only a few squares can spoil. A knight's move, or a slider's step to a square next to
//!   it, is spoiled only by a capture of the piece or by a pin of it (a piece landing on or
//!   leaving the line between it and its king); a pawn's push also by a piece landing in front
//!   of it. Its *kill squares* are those squares (the piece's, the line through it and its king,
//!   the push square): a move whose two squares miss them leaves that witness legal. Up to four
//!   witnesses are kept, those off every line through the king first (their kill squares are
//!   one or two); a move that misses the kill squares of one of them cannot stalemate.
//!
//! Only the moves in either mask are made, and the opponent's replies looked for (any one will
//! do); none is a mate when the opponent is in check, else a stalemate. The tests compare the
//! counts with making every move (the reference walk).

use crate::attacks::{between, king_attacks, knight_attacks, line, pawn_attacks};
use crate::perft::bits::{shift, square, squares, FILE_A, RANK_1};
use crate::perft::bits::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::perft::fast::for_exact::{generate, passed, Board, Rules, Side, Tier, Visit};

/// The most witnesses kept.
const WITNESSES: usize = 4;

/// The moves of a board that end the game: how many legal moves, how many mate, how many
/// stalemate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct LastPly {
    pub(super) moves: u64,
    pub(super) mates: u64,
    pub(super) stalemates: u64,
}

/// Where a move of ours (side `S` to move on `b`) may give check, as the board stands.
pub(super) struct CheckSquares {
    pub(super) knight: u64,
    pub(super) pawn: u64,
    pub(super) bishop: u64,
    pub(super) rook: u64,
    /// Our pieces that alone stand between one of our sliders and their king (seen from the
    /// king through our own pieces: a slider reached has none of theirs between).
    pub(super) discoverers: u64,
    /// Our sliders that see their king through our own pieces (they may pin its pieces).
    pub(super) snipers: u64,
}

impl CheckSquares {
    #[inline(always)]
    pub(super) fn new<S: Side, T: Tier>(b: &Board, t: T) -> CheckSquares {
        let (us, them) = (S::US, S::THEM);
        let ours = b.side_set(us);
        let theirs = b.side_set(them);
        let occupied = ours | theirs;
        let their_king = b.set(them, KING).trailing_zeros();
        let my_orth = b.set(us, ROOK) | b.set(us, QUEEN);
        let my_diag = b.set(us, BISHOP) | b.set(us, QUEEN);
        let mut discoverers = 0;
        let mut snipers = 0;
        if my_orth != 0 {
            for s in squares(t.rook(their_king, theirs) & my_orth) {
                let blockers = between(square(their_king), square(s)).0 & ours;
                if blockers & blockers.wrapping_sub(1) == 0 {
                    discoverers |= blockers;
                }
            }
            snipers |= t.rook(their_king, ours) & my_orth;
        }
        if my_diag != 0 {
            for s in squares(t.bishop(their_king, theirs) & my_diag) {
                let blockers = between(square(their_king), square(s)).0 & ours;
                if blockers & blockers.wrapping_sub(1) == 0 {
                    discoverers |= blockers;
                }
            }
            snipers |= t.bishop(their_king, ours) & my_diag;
        }
        CheckSquares {
            knight: knight_attacks(square(their_king)).0,
            pawn: pawn_attacks(<S::Other as Side>::COLOR, square(their_king)).0,
            bishop: t.bishop(their_king, occupied),
            rook: t.rook(their_king, occupied),
            discoverers,
            snipers,
        }
    }

    /// The squares a piece of kind `KIND` not among the discoverers may give check from.
    #[inline(always)]
    pub(super) fn of<const KIND: usize>(&self) -> u64 {
        match KIND {
            KNIGHT => self.knight,
            BISHOP => self.bishop,
            ROOK => self.rook,
            QUEEN => self.bishop | self.rook,
            PAWN => self.pawn,
            _ => 0,
        }
    }
}

/// The moves of `b` (side `S` to move) that mate and that stalemate.
#[inline(always)]
pub(super) fn last_ply<S: Side, T: Tier>(b: &Board, r: &Rules, t: T) -> LastPly {
    let checks = CheckSquares::new::<S, T>(b, t);
    let mut leaf = Leaf {
        t,
        moves: 0,
        mates: 0,
        stalemates: 0,
        kills: [0; WITNESSES],
        witnesses: 0,
        their_king: b.set(S::THEM, KING).trailing_zeros(),
        checks,
    };
    leaf.find_witnesses::<S>(b, leaf.their_king, leaf.checks.snipers);
    generate::<S, T, _>(b, r, t, &mut leaf);
    LastPly {
        moves: leaf.moves,
        mates: leaf.mates,
        stalemates: leaf.stalemates,
    }
}

/// How the move that made `child` (side `S` moved, the opponent to move) ends the game: a mate
/// (`Some(true)`), a stalemate (`Some(false)`) or not at all.
#[inline(always)]
pub(super) fn ending<S: Side, T: Tier>(child: &Board, r: &Rules, t: T) -> Option<bool> {
    // Most of the moves looked at are checks, and most checks can be escaped by a king step.
    if king_escapes::<S::Other, T>(child, t) {
        return None;
    }
    let mut any = AnyMove(false);
    generate::<S::Other, T, _>(child, r, t, &mut any);
    if any.0 {
        None
    } else {
        Some(in_check::<S::Other, T>(child, t))
    }
}

/// The masks of one board and the counts so far.
struct Leaf<T> {
    t: T,
    moves: u64,
    mates: u64,
    stalemates: u64,
    their_king: u32,
    checks: CheckSquares,
    /// The kill squares of each witness.
    kills: [u64; WITNESSES],
    witnesses: usize,
}

impl<T: Tier> Leaf<T> {
    /// Up to [`WITNESSES`] moves of the opponent (`S::Other`) on `b` as it stands, off the lines
    /// through its king first; then, if fewer than two, on them (not pinned: `snipers` are our
    /// sliders that see its king through its own pieces).
    #[inline(always)]
    fn find_witnesses<S: Side>(&mut self, b: &Board, king: u32, snipers: u64) {
        let theirs = b.side_set(S::THEM);
        let t = self.t;
        let lines = t.rook(king, 0) | t.bishop(king, 0);
        let pieces = Movers::new::<S>(b);
        let movers = pieces.all();
        for f in squares(movers & !lines) {
            if self.witnesses == WITNESSES {
                return;
            }
            if pieces.can_move(f) {
                self.kills[self.witnesses] = pieces.kill::<S>(f);
                self.witnesses += 1;
            }
        }
        if self.witnesses >= 2 {
            return;
        }
        // On a line through the king: not pinned, and spoiled by anything on that line.
        let mut pinned = 0;
        for s in squares(snipers) {
            let blockers = between(square(king), square(s)).0 & theirs;
            if blockers & blockers.wrapping_sub(1) == 0 {
                pinned |= blockers;
            }
        }
        for f in squares(movers & lines & !pinned) {
            if self.witnesses == WITNESSES {
                return;
            }
            if pieces.can_move(f) {
                self.kills[self.witnesses] = pieces.kill::<S>(f) | line(square(king), square(f)).0;
                self.witnesses += 1;
            }
        }
    }

    /// The destinations a move from `from` (one bit) must avoid to spare some witness: empty
    /// when one witness is spared whatever the destination, everything when none is.
    #[inline(always)]
    fn spoiled_from(&self, from: u64) -> u64 {
        let mut spoiled = !0;
        for &kill in &self.kills[..self.witnesses] {
            if kill & from == 0 {
                spoiled &= kill;
            }
        }
        spoiled
    }

    /// The same for moves by `delta` squares (each destination's own origin).
    #[inline(always)]
    fn spoiled_by(&self, delta: i32) -> u64 {
        let mut spoiled = !0;
        for &kill in &self.kills[..self.witnesses] {
            spoiled &= kill | shift(kill, delta);
        }
        spoiled
    }

    /// Counts the ending the move to `child` makes, if any.
    #[inline(always)]
    fn look<S: Side>(&mut self, child: &Board, r: &Rules) {
        match ending::<S, T>(child, r, self.t) {
            Some(true) => self.mates += 1,
            Some(false) => self.stalemates += 1,
            None => {}
        }
    }

    /// The pawn moves by `delta` to `targets` that must be made.
    #[inline(always)]
    fn pawn_suspects(&self, targets: u64, delta: i32) -> u64 {
        targets
            & (self.checks.pawn | shift(self.checks.discoverers, delta) | self.spoiled_by(delta))
    }
}

/// The opponent's pieces that may witness (side `S` to move).
pub(super) struct Movers {
    pub(super) knights: u64,
    pub(super) orth: u64,
    pub(super) diag: u64,
    /// Pawns with the square ahead empty.
    pub(super) pushers: u64,
    pub(super) theirs: u64,
}

impl Movers {
    /// The opponent's pieces on `b` (side `S` to move).
    #[inline(always)]
    pub(super) fn new<S: Side>(b: &Board) -> Movers {
        let them = S::THEM;
        let theirs = b.side_set(them);
        let empty = !(theirs | b.side_set(S::US));
        Movers {
            knights: b.set(them, KNIGHT),
            orth: b.set(them, ROOK) | b.set(them, QUEEN),
            diag: b.set(them, BISHOP) | b.set(them, QUEEN),
            // Pawns with the square ahead empty (their forward is our backward).
            pushers: b.set(them, PAWN) & S::forward(empty),
            theirs,
        }
    }

    /// Every piece that may witness.
    #[inline(always)]
    pub(super) fn all(&self) -> u64 {
        self.knights | self.orth | self.diag | self.pushers
    }

    /// True when the piece on `f` has a witness move: a knight's move, a slider's step to a
    /// square next to it, a pawn's push, to a square not its own side's.
    #[inline(always)]
    pub(super) fn can_move(&self, f: u32) -> bool {
        let bit = 1u64 << f;
        let mut to = 0;
        if self.knights & bit != 0 {
            to |= knight_attacks(square(f)).0;
        }
        if (self.orth | self.diag) & bit != 0 {
            // A slider's steps: the king's squares on its rank and file, or off them (no
            // slider lookup: these are the attacks with every square occupied).
            let steps = king_attacks(square(f)).0;
            let cross = RANK_1 << (f & !7) | FILE_A << (f & 7);
            if self.orth & bit != 0 {
                to |= steps & cross;
            }
            if self.diag & bit != 0 {
                to |= steps & !cross;
            }
        }
        to & !self.theirs != 0 || self.pushers & bit != 0
    }

    /// The piece's square, and for a pawn the square ahead.
    #[inline(always)]
    pub(super) fn kill<S: Side>(&self, f: u32) -> u64 {
        let bit = 1u64 << f;
        let ahead = if self.pushers & bit != 0 {
            <S::Other as Side>::forward(bit)
        } else {
            0
        };
        bit | ahead
    }
}

/// True when the king of side `S` (to move on `b`) has a step to a square no enemy piece
/// attacks (with the king off the board): a legal move.
#[inline(always)]
fn king_escapes<S: Side, T: Tier>(b: &Board, t: T) -> bool {
    let king = b.set(S::US, KING).trailing_zeros();
    let them = S::THEM;
    let occupied = (b.side_set(0) | b.side_set(1)) ^ (1 << king);
    let orth = b.set(them, ROOK) | b.set(them, QUEEN);
    let diag = b.set(them, BISHOP) | b.set(them, QUEEN);
    for to in squares(king_attacks(square(king)).0 & !b.side_set(S::US)) {
        let attackers = (knight_attacks(square(to)).0 & b.set(them, KNIGHT))
            | (pawn_attacks(S::COLOR, square(to)).0 & b.set(them, PAWN))
            | (king_attacks(square(to)).0 & b.set(them, KING))
            | (t.rook(to, occupied) & orth)
            | (t.bishop(to, occupied) & diag);
        if attackers == 0 {
            return true;
        }
    }
    false
}

/// True when side `S` (to move on `b`) is in check.
#[inline(always)]
pub(super) fn in_check<S: Side, T: Tier>(b: &Board, t: T) -> bool {
    let king = b.set(S::US, KING).trailing_zeros();
    let them = S::THEM;
    let occupied = b.side_set(0) | b.side_set(1);
    let attackers = (knight_attacks(square(king)).0 & b.set(them, KNIGHT))
        | (pawn_attacks(S::COLOR, square(king)).0 & b.set(them, PAWN))
        | (king_attacks(square(king)).0 & b.set(them, KING))
        | (t.rook(king, occupied) & (b.set(them, ROOK) | b.set(them, QUEEN)))
        | (t.bishop(king, occupied) & (b.set(them, BISHOP) | b.set(them, QUEEN)));
    attackers != 0
}

impl<T: Tier> Visit for Leaf<T> {
    #[inline(always)]
    fn piece<S: Side, const KIND: usize>(&mut self, b: &Board, r: &Rules, from: u32, targets: u64) {
        self.moves += u64::from(targets.count_ones());
        if targets == 0 {
            return;
        }
        let bit = 1u64 << from;
        let suspects = if self.checks.discoverers & bit != 0 {
            targets
        } else {
            targets & (self.checks.of::<KIND>() | self.spoiled_from(bit))
        };
        for to in squares(suspects) {
            self.look::<S>(&b.after_piece::<S, KIND>(from, to), r);
        }
    }
    #[inline(always)]
    fn push<S: Side, const DOUBLE: bool>(
        &mut self,
        b: &Board,
        r: &Rules,
        targets: u64,
        delta: i32,
    ) {
        self.moves += u64::from(targets.count_ones());
        for to in squares(self.pawn_suspects(targets, delta)) {
            let from = (to as i32 - delta) as u32;
            let ep = passed::<DOUBLE>(to, delta);
            self.look::<S>(&b.after_push::<S>(from, to, ep), r);
        }
    }
    #[inline(always)]
    fn capture<S: Side>(&mut self, b: &Board, r: &Rules, targets: u64, delta: i32) {
        self.moves += u64::from(targets.count_ones());
        for to in squares(self.pawn_suspects(targets, delta)) {
            let from = (to as i32 - delta) as u32;
            self.look::<S>(&b.after_piece::<S, PAWN>(from, to), r);
        }
    }
    #[inline(always)]
    fn promote<S: Side>(&mut self, b: &Board, r: &Rules, targets: u64, delta: i32) {
        self.moves += 4 * u64::from(targets.count_ones());
        for to in squares(targets) {
            let from = (to as i32 - delta) as u32;
            for kind in [QUEEN, ROOK, BISHOP, KNIGHT] {
                self.look::<S>(&b.after_promotion::<S>(from, to, kind), r);
            }
        }
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, b: &Board, r: &Rules, from: u64) {
        self.moves += 1;
        self.look::<S>(&b.after_en_passant::<S>(from), r);
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, b: &Board, r: &Rules, right: usize) {
        self.moves += 1;
        self.look::<S>(&b.after_castle::<S>(r, right), r);
    }
}

/// Whether a board has a legal move.
struct AnyMove(bool);

impl Visit for AnyMove {
    #[inline(always)]
    fn piece<S: Side, const KIND: usize>(&mut self, _: &Board, _: &Rules, _: u32, targets: u64) {
        self.0 |= targets != 0;
    }
    #[inline(always)]
    fn push<S: Side, const DOUBLE: bool>(&mut self, _: &Board, _: &Rules, targets: u64, _: i32) {
        self.0 |= targets != 0;
    }
    #[inline(always)]
    fn capture<S: Side>(&mut self, _: &Board, _: &Rules, targets: u64, _: i32) {
        self.0 |= targets != 0;
    }
    #[inline(always)]
    fn promote<S: Side>(&mut self, _: &Board, _: &Rules, targets: u64, _: i32) {
        self.0 |= targets != 0;
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, _: &Board, _: &Rules, _: u64) {
        self.0 = true;
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, _: &Board, _: &Rules, _: usize) {
        self.0 = true;
    }
}
