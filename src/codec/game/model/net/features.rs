//! The features of a move for the network model: most of m2's groups (where the piece goes and
//! comes from by phase, captures, safety, threats, local play, attacks made, the book; m2's
//! replies and check-castling-promotion groups paid nothing here and are left out) and the groups
//! a player also sees: the static exchange on the destination, safe and discovered checks,
//! mobility, the kings, defences left or made, pawns, shields, what their best capture of the
//! mover would win, attacks uncovered and the king's pawn shelter.
//!
//! Each active feature is an index into the model's rows; a feature of the piece and its square
//! (the same for every move of that piece) is told apart from a feature of the move, so the
//! model adds up the former once per piece ([`FeatureSink`]). Squares are seen from the mover's
//! side. Groups can be left out, which is how the fitting program measures each one.

use super::context::{attacks, Context, NONE};
use super::see::VALUE;
use crate::attacks::line;
use crate::perft::bits::{square, FILE_A};
use crate::{Move, MoveKind};

pub use super::group::{Group, ALL_GROUPS, M4_ABOUT, M4_GROUPS, M4_LANES};

/// The number of move features.
pub const FEATURES: usize = Group::Shelter.offset() + Group::Shelter.size();

/// The number of position features ([`super::context::POSITION_GROUPS`]).
pub const POSITION_FEATURES: usize = {
    let mut total = 0;
    let mut g = 0;
    while g < super::context::POSITION_GROUPS.len() {
        total += super::context::POSITION_GROUPS[g];
        g += 1;
    }
    total
};

/// Hears a move's features: those of the piece and the square it leaves apart from the others.
pub trait FeatureSink {
    /// A feature of the piece and its square.
    fn piece(&mut self, feature: usize);
    /// A feature of the move itself.
    fn movement(&mut self, feature: usize);
}

/// The squares in front of a pawn of the side with `flip` on `sq`, on its file and the next.
#[inline(always)]
fn front_files(flip: usize, sq: usize) -> u64 {
    let file = sq & 7;
    let files = (FILE_A << file)
        | if file > 0 { FILE_A << (file - 1) } else { 0 }
        | if file < 7 { FILE_A << (file + 1) } else { 0 };
    let rank = sq >> 3;
    let ahead = if flip == 0 {
        if rank >= 7 {
            0
        } else {
            !0u64 << ((rank + 1) * 8)
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> ((8 - rank) * 8)
    };
    files & ahead
}

/// The king distance between every two squares.
static DISTANCE: [[u8; 64]; 64] = {
    let mut table = [[0u8; 64]; 64];
    let mut a = 0usize;
    while a < 64 {
        let mut b = 0usize;
        while b < 64 {
            let files = (a & 7).abs_diff(b & 7);
            let ranks = (a >> 3).abs_diff(b >> 3);
            table[a][b] = if files > ranks { files } else { ranks } as u8;
            b += 1;
        }
        a += 1;
    }
    table
};

/// The king distance between two squares.
#[inline(always)]
pub(super) fn distance(a: usize, b: usize) -> usize {
    usize::from(DISTANCE[a & 63][b & 63])
}

/// The [`Group::Mobility`] bucket of a number of squares reached (at most 27).
pub(super) static REACH: [u8; 32] = [
    0, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
];

/// The bucket of a static exchange's result in pawns (0: loses 6 or more ... 8: wins 5 or more).
#[inline(always)]
fn exchange_bucket(gain: i32) -> usize {
    match gain {
        ..=-6 => 0,
        -5..=-3 => 1,
        -2 => 2,
        -1 => 3,
        0 => 4,
        1 => 5,
        2 => 6,
        3..=4 => 7,
        _ => 8,
    }
}

impl Context {
    /// Tells `sink` each active feature of `mv` in the groups of `groups` ([`Group::bit`]),
    /// those of the piece first; `book` is the move's book bucket while the position is in the
    /// book.
    #[inline(always)]
    pub fn features(
        &self,
        mv: Move,
        groups: u32,
        book: Option<usize>,
        sink: &mut impl FeatureSink,
    ) {
        self.piece_features(mv.from().index(), groups, sink);
        self.move_features(mv, groups, book, sink);
    }

    /// The features of the piece on `from` and its square ([`FeatureSink::piece`]).
    #[inline(always)]
    pub fn piece_features(&self, from: usize, groups: u32, sink: &mut impl FeatureSink) {
        let on = |group: Group| groups & group.bit() != 0;
        let at = |group: Group, index: usize| group.offset() + index;
        let mover = usize::from(self.kinds[from]);
        let flip = self.flip;
        let pst = (self.phase * 6 + mover) * 64;
        if on(Group::PstFrom) {
            sink.piece(at(Group::PstFrom, pst + (from ^ flip)));
        }
        if on(Group::Threat) {
            sink.piece(at(Group::Threat, mover * 4 + self.threat(from, mover)));
        }
        if on(Group::Local) && self.our_last_to == from {
            sink.piece(at(Group::Local, 48 + mover));
        }
        if on(Group::Defence) && self.hanging != 0 && self.hanging & (1 << from) == 0 {
            sink.piece(at(
                Group::Defence,
                19 + usize::from(self.hanging.count_ones() > 1),
            ));
        }
        if on(Group::Shield) && self.shield[from] > 0 {
            sink.piece(at(
                Group::Shield,
                (usize::from(self.shield[from]) - 1) * 6 + mover,
            ));
        }
        if on(Group::Threatened) && self.threatened[from] > 0 {
            sink.piece(at(
                Group::Threatened,
                mover * 6 + usize::from(self.threatened[from]),
            ));
        }
        if on(Group::Shelter) && mover == 0 {
            let file_gap = (self.our_king & 7).abs_diff(from & 7);
            if (self.our_king ^ flip) >> 3 == 0 && file_gap <= 1 {
                sink.piece(at(
                    Group::Shelter,
                    file_gap * 4 + ((from ^ flip) >> 3).min(4) - 1,
                ));
            }
        }
    }

    /// The features of the move itself ([`FeatureSink::movement`]).
    #[inline(always)]
    pub fn move_features(
        &self,
        mv: Move,
        groups: u32,
        book: Option<usize>,
        sink: &mut impl FeatureSink,
    ) {
        let on = |group: Group| groups & group.bit() != 0;
        let at = |group: Group, index: usize| group.offset() + index;
        let (from, to) = (mv.from().index(), mv.to().index());
        let mover = usize::from(self.kinds[from]);
        let castles = matches!(mv.kind(), MoveKind::Castling);
        let captured = match mv.kind() {
            MoveKind::EnPassant => 0,
            MoveKind::Castling => 6,
            _ => usize::from(self.kinds[to]),
        };
        let flip = self.flip;
        let dest = if castles {
            (from & 56) + if to > from { 6 } else { 2 }
        } else {
            to
        };
        let pst = (self.phase * 6 + mover) * 64;
        let to_bit = 1u64 << to;
        let lands_as = mv.promotion().map_or(mover, |p| p.index());
        // The move's features.
        if on(Group::PstTo) {
            sink.movement(at(Group::PstTo, pst + (dest ^ flip)));
        }
        if on(Group::Capture) && captured < 6 {
            sink.movement(at(Group::Capture, mover * 6 + captured));
            if self.their_all & to_bit == 0 {
                sink.movement(at(Group::Capture, 36 + captured));
            }
        }
        if on(Group::Safety) && !castles {
            let defended = usize::from(self.our_all & to_bit != 0);
            sink.movement(at(
                Group::Safety,
                (mover * 5 + self.attacker_class(to)) * 2 + defended,
            ));
        }
        let gives_check = !castles && self.checks[lands_as] & to_bit != 0;
        if on(Group::Local) {
            if self.last_to != NONE {
                sink.movement(at(Group::Local, mover * 8 + distance(to, self.last_to)));
            }
            if mover == 5 && !castles && self.can_castle {
                sink.movement(at(Group::Local, 54));
            }
        }
        let occupied = (self.occupied & !(1 << from)) | to_bit;
        let hits = if castles {
            0
        } else {
            attacks(lands_as, self.us, to, occupied)
        };
        if on(Group::Attack) && !castles {
            let bigger = hits & self.their_bigger[lands_as];
            if bigger != 0 {
                let two = usize::from(bigger & bigger.wrapping_sub(1) != 0);
                sink.movement(at(Group::Attack, lands_as * 3 + two));
            }
            if hits & self.their_loose & !to_bit != 0 {
                sink.movement(at(Group::Attack, lands_as * 3 + 2));
            }
        }
        if let (true, Some(bucket)) = (on(Group::Book), book) {
            sink.movement(at(Group::Book, bucket));
        }
        if on(Group::Exchange) && !castles && (captured < 6 || self.their_all & to_bit != 0) {
            let taken = if captured < 6 { VALUE[captured] } else { 0 };
            let promotion = mv.promotion().map_or(0, |p| VALUE[p.index()] - 1);
            let bucket = self.exchange_feature(from, to, lands_as, taken + promotion);
            sink.movement(at(Group::Exchange, mover * 9 + bucket));
        }
        if on(Group::CheckKind) {
            if gives_check {
                let safe = self.their_all & to_bit == 0 || self.our_all & to_bit != 0;
                sink.movement(at(Group::CheckKind, lands_as * 2 + usize::from(safe)));
            }
            if self.discovers & (1 << from) != 0
                && line(square(self.their_king as u32), square(from as u32)).0 & to_bit == 0
            {
                sink.movement(at(Group::CheckKind, 12 + usize::from(gives_check)));
            }
        }
        if on(Group::Mobility) && !castles {
            let bucket = usize::from(REACH[(hits & !self.ours).count_ones() as usize & 31]);
            sink.movement(at(Group::Mobility, lands_as * 7 + bucket));
        }
        if on(Group::King) {
            if hits & self.their_zone != 0 {
                sink.movement(at(Group::King, lands_as));
            }
            sink.movement(at(
                Group::King,
                6 + mover * 8 + distance(dest, self.their_king),
            ));
            sink.movement(at(
                Group::King,
                54 + mover * 8 + distance(dest, self.our_king),
            ));
        }
        if on(Group::Defence) {
            self.defence(from, to, captured, mover, hits, sink);
        }
        if on(Group::Pawn) && mover == 0 {
            let rank = (to ^ flip) >> 3;
            let file = to & 7;
            if captured == 6 && front_files(flip, to) & self.their_pawns == 0 {
                let doubled = self.our_pawns & (FILE_A << file) & !(1 << from) != 0;
                sink.movement(at(Group::Pawn, rank.min(5) * 2 + usize::from(doubled)));
            }
            if captured < 6 {
                let inward = usize::from(file.abs_diff(3) <= 1);
                sink.movement(at(
                    Group::Pawn,
                    12 + usize::from(file >= from & 7) + 2 * inward,
                ));
            }
            sink.movement(at(Group::Pawn, 16 + file.min(7 - file)));
        }
        if on(Group::Uncover) && self.uncovers[from] > 0 {
            let slider = square(usize::from(self.uncover_slider[from]) as u32);
            if line(slider, square(from as u32)).0 & to_bit == 0 {
                sink.movement(at(
                    Group::Uncover,
                    (usize::from(self.uncovers[from]) - 1) * 6 + mover,
                ));
            }
        }
    }

    /// The [`exchange_bucket`] of moving the piece on `from` to `to`, where it lands as
    /// `lands_as`, winning `won` pawns' worth there, for a move whose destination they attack or
    /// that takes a piece. The exchange is played out only when its bounds do not settle the
    /// bucket: it wins at most `won` (they may leave the piece), at least `won` less the piece's
    /// value (we may stop once they have taken it), and, when they attack the square, at most
    /// that less value plus their cheapest attacker's value (they take with it, and we can win
    /// no more than that piece back; the square left can only add attackers of theirs). When
    /// nothing of theirs reaches the square, even through the square left, it wins `won`.
    /// Where the bounds leave it open, the tables often settle it ([`Context::exchange_settled`]).
    #[inline(always)]
    pub(super) fn exchange_feature(
        &self,
        from: usize,
        to: usize,
        lands_as: usize,
        won: i32,
    ) -> usize {
        self.exchange_settled(from, to, lands_as, won)
            .unwrap_or_else(|| {
                exchange_bucket(self.board.exchange(self.us, from, to, lands_as, won))
            })
    }

    /// The bucket of [`Context::exchange_feature`] when the bounds or the tables made once per
    /// position settle it, `None` when only the whole exchange can. The tables settle it
    /// exactly where they attack the destination and either we have no other defender of it
    /// and no x-ray of ours can join (no slider attacks the square left, none of ours sees the
    /// destination through a piece that can take there: [`Context::our_xray`]), so they take:
    /// `won` less the piece; or we defend it and they have a single attacker and no x-ray on
    /// either side can join (their king, which may not take a defended piece: `won`; another piece: they take
    /// and we take it back, or they leave it).
    #[inline(always)]
    pub(super) fn exchange_settled(
        &self,
        from: usize,
        to: usize,
        lands_as: usize,
        won: i32,
    ) -> Option<usize> {
        let to_bit = 1u64 << to;
        if self.their_all & to_bit == 0 && self.their_sliding & (1 << from) == 0 {
            return Some(exchange_bucket(won));
        }
        let low = won - VALUE[lands_as];
        let class = self.attacker_class(to);
        let high = if class == 0 {
            won
        } else {
            won.min(low + [0, 1, 3, 5, 9][class])
        };
        let bucket = exchange_bucket(low);
        if bucket == exchange_bucket(high) {
            return Some(bucket);
        }
        // A slider behind the square left joins in: the tables do not see it, nor what it
        // opens behind the pieces that take.
        if self.their_all & to_bit == 0
            || (self.our_sliding | self.their_sliding) & (1 << from) != 0
        {
            return None;
        }
        // They attack the square; the mover attacks it unless it is a pawn going straight on.
        let mover_hits = self.kinds[from] != 0 || (from ^ to) & 7 != 0;
        let defenders = if mover_hits {
            self.our_two
        } else {
            self.our_all
        };
        if defenders & to_bit == 0 {
            return (self.our_xray & to_bit == 0).then_some(bucket);
        }
        if self.their_two & to_bit != 0 || (self.our_xray | self.their_xray) & to_bit != 0 {
            return None;
        }
        Some(if class == 4 && self.their_zone & to_bit != 0 {
            exchange_bucket(won)
        } else {
            exchange_bucket(high)
        })
    }

    /// The [`Group::Defence`] features of the move (the piece's own are told with the others).
    #[inline(always)]
    fn defence(
        &self,
        from: usize,
        to: usize,
        captured: usize,
        mover: usize,
        hits: u64,
        sink: &mut impl FeatureSink,
    ) {
        let at = |index: usize| Group::Defence.offset() + index;
        let sole = usize::from(self.sole[from]);
        if sole > 0 {
            let still = hits & self.sole_targets[from] != 0;
            sink.movement(at((sole - 1) * 3 + usize::from(still)));
        }
        if hits & self.hanging & !(1 << from) & !self.our_all != 0 {
            sink.movement(at(12 + mover));
        }
        if captured < 6 && self.hanging != 0 {
            let their_hits = attacks(captured, !self.us, to, self.occupied);
            if their_hits & self.hanging != 0 {
                sink.movement(at(18));
            }
        }
    }

    /// How the piece on `from` is threatened: 0 not attacked, 1 by a cheaper piece, 2 attacked
    /// and undefended, 3 attacked otherwise.
    #[inline(always)]
    pub(super) fn threat(&self, from: usize, mover: usize) -> usize {
        let cheapest = self.attacker_class(from);
        if cheapest == 0 {
            0
        } else if [1, 1, 3, 5, 9][cheapest] < VALUE[mover] {
            1
        } else if self.our_all & (1 << from) == 0 {
            2
        } else {
            3
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::history::random_suite_positions;
    use super::super::see::VALUE;
    use super::super::History;
    use super::*;
    use crate::Position;

    /// The exchange's shortcut (nothing of theirs reaches the destination, not even through the
    /// square left) gives what the whole exchange gives, on every legal move of the positions of
    /// seeded random games from the perft suite.
    #[test]
    fn the_exchange_shortcut_equals_the_exchange() {
        let mut shortcuts = 0;
        random_suite_positions(47, 120, |pos, history, legal| {
            let context = Context::new(pos, history, legal.len(), false, ALL_GROUPS);
            for &mv in legal.iter() {
                let (from, to) = (mv.from().index(), mv.to().index());
                if context.their_all & (1 << to) != 0 || context.their_sliding & (1 << from) != 0 {
                    continue;
                }
                let mover = mv
                    .promotion()
                    .map_or(pos.piece_at(mv.from()).unwrap().kind.index(), |p| p.index());
                let taken = pos.piece_at(mv.to()).map_or(0, |p| VALUE[p.kind.index()]);
                let side = pos.side_to_move();
                assert_eq!(
                    context.board.exchange(side, from, to, mover, taken),
                    taken,
                    "{} {mv:?}",
                    pos.fen()
                );
                shortcuts += 1;
            }
        });
        assert!(shortcuts > 10_000, "{shortcuts}");
    }

    /// What the exchange feature of `mv` in `pos` is asked: (from, to, the piece as it lands,
    /// what it wins there), or `None` for castling and for a quiet move to a square they do
    /// not attack (no exchange to weigh).
    fn exchange_question(
        pos: &Position,
        context: &Context,
        mv: crate::Move,
    ) -> Option<(usize, usize, usize, i32)> {
        let (from, to) = (mv.from().index(), mv.to().index());
        let taken = match mv.kind() {
            MoveKind::Castling => return None,
            MoveKind::EnPassant => VALUE[0],
            _ => pos.piece_at(mv.to()).map_or(0, |p| VALUE[p.kind.index()]),
        };
        if taken == 0 && context.their_all & (1 << to) == 0 {
            return None;
        }
        let won = taken + mv.promotion().map_or(0, |p| VALUE[p.index()] - 1);
        let lands_as = mv
            .promotion()
            .map_or(usize::from(context.kinds[from]), |p| p.index());
        Some((from, to, lands_as, won))
    }

    /// The exchange feature settled by its bounds or the tables gives the bucket of the whole
    /// exchange, on every legal move of the positions of seeded random games from the perft
    /// suite whose destination they attack or that takes a piece; the share played out is
    /// printed.
    #[test]
    fn the_exchange_bounds_give_the_exchange_bucket() {
        let (mut checked, mut open) = (0, 0);
        random_suite_positions(48, 120, |pos, history, legal| {
            let context = Context::new(pos, history, legal.len(), false, ALL_GROUPS);
            for &mv in legal.iter() {
                let Some((from, to, lands_as, won)) = exchange_question(pos, &context, mv) else {
                    continue;
                };
                let side = pos.side_to_move();
                let whole = context.board.exchange(side, from, to, lands_as, won);
                assert_eq!(
                    context.exchange_feature(from, to, lands_as, won),
                    exchange_bucket(whole),
                    "{} {mv:?}",
                    pos.fen()
                );
                checked += 1;
                open += usize::from(context.exchange_settled(from, to, lands_as, won).is_none());
            }
        });
        assert!(checked > 5_000, "{checked}");
        println!("{open} of {checked} exchanges played out");
    }

    /// The exchange settled by bounds and tables, checked and counted on every legal move of
    /// random suite games (20 seeds, 80 plies) and of the corpus (`--ignored`; prints counts).
    #[test]
    #[ignore]
    fn exchange_shares_on_the_corpus() {
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
        let mut random: Vec<(Position, Vec<crate::Move>)> = Vec::new();
        for file in std::fs::read_dir(format!("{data}perft")).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_none_or(|e| e != "perft" && e != "epd") {
                continue;
            }
            let text = std::fs::read_to_string(path).unwrap();
            for entry in crate::perft::suite::parse_suite(&text).unwrap() {
                for seed in 0..20 {
                    let mut rng = crate::types::splitmix::SplitMix::new(seed);
                    let mut pos = Position::from_fen(&entry.fen).unwrap();
                    let mut game = (pos.clone(), Vec::new());
                    for _ in 0..80 {
                        let legal = pos.legal_moves();
                        let Some(&mv) = legal.get(rng.below(legal.len().max(1))) else {
                            break;
                        };
                        game.1.push(mv);
                        let _ = pos.make(mv);
                    }
                    random.push(game);
                }
            }
        }
        let text = std::fs::read_to_string(format!("{data}pgn/lichess_2013-01_5000.pgn")).unwrap();
        let corpus = crate::notation::pgn::read_games(&text)
            .into_iter()
            .map(|g| {
                let record = g.unwrap().record;
                (record.start, record.moves)
            });
        for (name, games) in [("random suite games", random), ("corpus", corpus.collect())] {
            let [mut moves, mut needed, mut bounds, mut open] = [0u64; 4];
            for (mut pos, played) in games {
                let mut history = History::new(&pos);
                for played in played {
                    let legal = pos.legal_moves();
                    let context = Context::new(&pos, &history, legal.len(), false, M4_GROUPS);
                    for &mv in legal.iter() {
                        moves += 1;
                        let Some((from, to, lands_as, won)) = exchange_question(&pos, &context, mv)
                        else {
                            continue;
                        };
                        needed += 1;
                        let settled = context.exchange_settled(from, to, lands_as, won);
                        let whole =
                            context
                                .board
                                .exchange(pos.side_to_move(), from, to, lands_as, won);
                        assert!(
                            settled.is_none_or(|b| b == exchange_bucket(whole)),
                            "{} {mv:?}",
                            pos.fen()
                        );
                        open += u64::from(settled.is_none());
                        let low = won - VALUE[lands_as];
                        let class = context.attacker_class(to);
                        let high = if class == 0 {
                            won
                        } else {
                            won.min(low + [0, 1, 3, 5, 9][class])
                        };
                        let shortcut = context.their_all & (1 << to) == 0
                            && context.their_sliding & (1 << from) == 0;
                        bounds +=
                            u64::from(shortcut || exchange_bucket(low) == exchange_bucket(high));
                    }
                    history = history.after(&pos, played);
                    let _ = pos.make(played);
                }
            }
            println!(
                "{name}: {moves} legal moves, {needed} need the exchange, {bounds} settled by the \
                 bounds, {} by the tables, {open} played out",
                needed - bounds - open
            );
        }
    }

    /// Every feature index heard, in order.
    struct Heard(Vec<usize>);

    impl FeatureSink for Heard {
        fn piece(&mut self, feature: usize) {
            self.0.push(feature);
        }

        fn movement(&mut self, feature: usize) {
            self.0.push(feature);
        }
    }

    /// A context worked out for m4's groups alone gives every move the features the whole
    /// context gives it in those groups, and the same position features (but the largest
    /// threat, 0 without [`Group::Threatened`]), on the positions of seeded random games from
    /// the perft suite.
    #[test]
    fn a_context_for_fewer_groups_gives_their_features_unchanged() {
        let threat_slot = super::super::context::POSITION_GROUPS.len() - 1;
        let mut moves = 0;
        random_suite_positions(4, 80, |pos, history, legal| {
            let whole = Context::new(pos, history, legal.len(), false, ALL_GROUPS);
            let fewer = Context::new(pos, history, legal.len(), false, M4_GROUPS);
            let (a, b) = (whole.position, fewer.position);
            for slot in 0..a.len() {
                if slot != threat_slot || M4_GROUPS & Group::Threatened.bit() != 0 {
                    assert_eq!(a[slot], b[slot], "{} slot {slot}", pos.fen());
                }
            }
            for &mv in legal.iter() {
                let (mut a, mut b) = (Heard(Vec::new()), Heard(Vec::new()));
                whole.features(mv, M4_GROUPS, None, &mut a);
                fewer.features(mv, M4_GROUPS, None, &mut b);
                assert_eq!(a.0, b.0, "{} {mv:?}", pos.fen());
                moves += 1;
            }
        });
        assert!(moves > 10_000, "{moves}");
    }
}
