//! One random game, played as fast as the rules allow: on perft's counting path ([`Playout`]: the
//! counting board, compiled for the fastest instructions the CPU runs), the legal moves found in
//! groups in the position's list order (counted, never listed), a uniform index, the one move it
//! names made by copy-make, and the end checks done only where they can fire (the material rule
//! after captures and promotions, the repetition scan once the clock allows a repetition). The
//! `i`-th move is the `i`-th of the position's list, so a seed plays the same games as when the
//! loop ran on [`Position`] itself.
//! Its verdicts are the game layer's ([`Finish`]); a test checks them against
//! [`crate::game::Game`] move by move.

use super::rules::{Insufficient, MoveRule, Repetition, RuleSet};
use crate::game::{insufficient_material, DrawClaim, Ending, Finish};
use crate::perft::fast::playout::Playout;
use crate::types::splitmix::below;
use crate::{Bitboard, Move, PieceKind, Position};
use rand::RngCore;

/// How one random game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameSummary {
    /// Plies played.
    pub plies: u32,
    /// The rule that ended it, or `None` when the ply limit did.
    pub finish: Option<Finish>,
}

/// Plays random games, reusing its buffers from game to game.
pub struct Player {
    keys: Vec<u64>,
    seen: Seen,
    /// True when the current key may have occurred before since the last irreversible move.
    maybe_repeated: bool,
    board: Playout,
    played: Vec<Move>,
}

/// Which keys a game has had since its last capture or pawn move, roughly: a slot per value of a
/// key's low bits, holding the number of the last stretch of reversible plies that had a key
/// there. A key whose slot holds another stretch cannot have occurred in this one, and the
/// repetition scan back through the stretch is skipped; one whose slot holds this stretch may have
/// (or only shares the slot), and the scan decides. So the filter only ever lets a scan through
/// that finds nothing, never skips one that would find a repetition (stretch numbers wrap after
/// 2^32 stretches, which can only make a slot look current: another scan, no missed one).
struct Seen {
    slots: Box<[u32; 1024]>,
    stretch: u32,
}

impl Seen {
    fn new() -> Seen {
        Seen {
            slots: Box::new([0; 1024]),
            stretch: 1,
        }
    }

    /// A capture or pawn move: no earlier position can occur again.
    fn new_stretch(&mut self) {
        self.stretch = self.stretch.wrapping_add(1);
    }

    /// Note `key`; true when it may have occurred before in this stretch.
    fn insert(&mut self, key: u64) -> bool {
        let slot = &mut self.slots[key as usize % 1024];
        let maybe = *slot == self.stretch;
        *slot = self.stretch;
        maybe
    }
}

impl Default for Player {
    fn default() -> Player {
        Player::new()
    }
}

impl Player {
    /// A player with empty buffers.
    pub fn new() -> Player {
        Player {
            keys: Vec::new(),
            seen: Seen::new(),
            maybe_repeated: false,
            board: Playout::new(&Position::startpos()),
            played: Vec::new(),
        }
    }

    /// Play uniformly random legal moves from `start` until `rules` end the game.
    pub fn play(
        &mut self,
        start: &Position,
        rules: &RuleSet,
        rng: &mut impl RngCore,
    ) -> GameSummary {
        self.board.reset(start);
        self.keys.clear();
        self.keys.push(self.board.key());
        self.seen.new_stretch();
        self.maybe_repeated = self.seen.insert(self.board.key());
        self.played.clear();
        let mut plies = 0u32;
        let mut material_changed = true;
        let end = |plies, finish| GameSummary { plies, finish };
        self.board.generate();
        loop {
            let moves = self.board.moves();
            if moves == 0 {
                let ending = if self.board.in_check() {
                    Ending::Checkmate {
                        winner: !self.board.side_to_move(),
                    }
                } else {
                    Ending::Stalemate
                };
                return end(plies, Some(Finish::Rule(ending)));
            }
            if material_changed && is_dead(|kind| self.board.kind(kind), rules.insufficient) {
                return end(plies, Some(Finish::Rule(Ending::InsufficientMaterial)));
            }
            if let Some(finish) = self.clock_or_repetition(rules) {
                return end(plies, Some(finish));
            }
            if rules.max_plies.is_some_and(|max| plies >= max) {
                return end(plies, None);
            }
            let played = self.board.play(below(moves, || rng.next_u64()));
            self.played.push(played.mv);
            material_changed = played.material_changed;
            self.keys.push(self.board.key());
            if self.board.halfmove_clock() == 0 {
                self.seen.new_stretch();
            }
            self.maybe_repeated = self.seen.insert(self.board.key());
            plies += 1;
        }
    }

    /// The moves of the last game played.
    pub fn moves(&self) -> &[Move] {
        &self.played
    }

    /// The move-count and repetition rules, automatic ones first (as in `Game::status_with`).
    fn clock_or_repetition(&self, rules: &RuleSet) -> Option<Finish> {
        let clock = self.board.halfmove_clock() as usize;
        if rules.move_rule == MoveRule::SeventyFive && clock >= 150 {
            return Some(Finish::Rule(Ending::SeventyFiveMoveRule));
        }
        // The same position needs at least 4 reversible plies between occurrences.
        let needed = match rules.repetition {
            Repetition::Fivefold => 5,
            Repetition::Threefold => 3,
            Repetition::Off => usize::MAX,
        };
        if clock >= 4 * (needed - 1)
            && self.maybe_repeated
            && self.occurrences(clock, needed) >= needed
        {
            return Some(match rules.repetition {
                Repetition::Fivefold => Finish::Rule(Ending::FivefoldRepetition),
                _ => Finish::Claim(DrawClaim::ThreefoldRepetition),
            });
        }
        if rules.move_rule == MoveRule::Fifty && clock >= 100 {
            return Some(Finish::Claim(DrawClaim::FiftyMoveRule));
        }
        None
    }

    /// How many times the current position has occurred (counting up to `enough`), looking back
    /// no further than the last capture or pawn move, `clock` plies ago.
    fn occurrences(&self, clock: usize, enough: usize) -> usize {
        let last = self.keys.len() - 1;
        let key = self.keys[last];
        let mut count = 1;
        let mut back = 4;
        while back <= clock.min(last) {
            if self.keys[last - back] == key {
                count += 1;
                if count >= enough {
                    break;
                }
            }
            back += 2;
        }
        count
    }
}

/// True when the position whose pieces of each kind `kind` gives is dead by material under
/// `rule`.
fn is_dead(kind: impl Fn(PieceKind) -> Bitboard, rule: Insufficient) -> bool {
    match rule {
        Insufficient::Off => false,
        Insufficient::Fide => insufficient_material(kind),
        Insufficient::KingsAndOneMinor => {
            let heavy_or_pawns =
                kind(PieceKind::Pawn) | kind(PieceKind::Rook) | kind(PieceKind::Queen);
            let minors = kind(PieceKind::Knight) | kind(PieceKind::Bishop);
            heavy_or_pawns.is_empty() && minors.count() <= 1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The fast loop's verdict equals the game layer's on the same moves: replaying its game
    /// through `Game`, every earlier position goes on and the last one ends as it said.
    #[test]
    fn verdicts_agree_with_the_game_layer() {
        let mut player = Player::new();
        for (rules, claims) in [(RuleSet::CLAIMS, true), (RuleSet::AUTOMATIC, false)] {
            for seed in 0..300u64 {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let summary = player.play(&Position::startpos(), &rules, &mut rng);
                // Replay the same choices through Game.
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let mut game = Game::new(Position::startpos());
                let verdict = loop {
                    let legal = game.legal_moves();
                    let status = game.status_with(legal.len());
                    let finish = match status {
                        crate::game::Status::Over(ending) => Some(Finish::Rule(ending)),
                        crate::game::Status::Claimable(claim) if claims => {
                            Some(Finish::Claim(claim))
                        }
                        _ => None,
                    };
                    if let Some(finish) = finish {
                        break finish;
                    }
                    game.play(legal[below(legal.len(), || rng.next_u64())]);
                };
                assert_eq!(summary.finish, Some(verdict), "seed {seed}");
                assert_eq!(summary.plies as usize, game.moves().len(), "seed {seed}");
            }
        }
    }

    #[test]
    fn kings_and_one_minor_is_narrower_than_fide() {
        let dead = |fen: &str, rule| {
            let pos = Position::from_fen(fen).unwrap();
            is_dead(|kind| pos.kind_bb(kind), rule)
        };
        let same_colour_bishops = "8/8/2b5/4k3/8/8/8/4KB2 w - - 0 1";
        assert!(dead(same_colour_bishops, Insufficient::Fide));
        assert!(!dead(same_colour_bishops, Insufficient::KingsAndOneMinor));
        let knight = "8/8/8/4k3/8/8/8/4KN2 w - - 0 1";
        assert!(dead(knight, Insufficient::KingsAndOneMinor));
        assert!(!dead(knight, Insufficient::Off));
    }

    #[test]
    fn the_ply_limit_ends_a_game_without_a_rule() {
        let rules = RuleSet {
            max_plies: Some(10),
            ..RuleSet::CLAIMS
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let summary = Player::new().play(&Position::startpos(), &rules, &mut rng);
        assert_eq!(
            summary,
            GameSummary {
                plies: 10,
                finish: None
            }
        );
    }
}
