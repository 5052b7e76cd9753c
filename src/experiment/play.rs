//! One random game, played as fast as the rules allow: the legal moves in groups from the bitboard
//! generator ([`MoveGroups`]: counted, never listed), a uniform index, the one move it names made
//! in place, and the end checks done only where they can fire (the material rule after captures
//! and promotions, the repetition scan once the clock allows a repetition).
//! Its verdicts are the game layer's ([`Finish`]); a test checks them against
//! [`crate::game::Game`] move by move.

use super::rules::{Insufficient, MoveRule, Repetition, RuleSet};
use crate::game::{is_insufficient_material, DrawClaim, Ending, Finish};
use crate::movegen::bitboard::MoveGroups;
use crate::types::splitmix::below;
use crate::{Move, PieceKind, Position};
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
#[derive(Default)]
pub struct Player {
    keys: Vec<u64>,
    moves: Box<MoveGroups>,
    played: Vec<Move>,
}

impl Player {
    /// A player with empty buffers.
    pub fn new() -> Player {
        Player::default()
    }

    /// Play uniformly random legal moves from `start` until `rules` end the game.
    pub fn play(
        &mut self,
        start: &Position,
        rules: &RuleSet,
        rng: &mut impl RngCore,
    ) -> GameSummary {
        let mut pos = start.clone();
        self.keys.clear();
        self.keys.push(pos.key());
        self.played.clear();
        let mut plies = 0u32;
        let mut material_changed = true;
        let end = |plies, finish| GameSummary { plies, finish };
        loop {
            self.moves.generate(&pos);
            if self.moves.is_empty() {
                let ending = if pos.in_check() {
                    Ending::Checkmate {
                        winner: !pos.side_to_move(),
                    }
                } else {
                    Ending::Stalemate
                };
                return end(plies, Some(Finish::Rule(ending)));
            }
            if material_changed && is_dead(&pos, rules.insufficient) {
                return end(plies, Some(Finish::Rule(Ending::InsufficientMaterial)));
            }
            if let Some(finish) = self.clock_or_repetition(&pos, rules) {
                return end(plies, Some(finish));
            }
            if rules.max_plies.is_some_and(|max| plies >= max) {
                return end(plies, None);
            }
            let mv = self.moves.get(below(self.moves.len(), || rng.next_u64()));
            self.played.push(mv);
            let pieces = pos.occupied().count();
            pos.make(mv);
            material_changed = mv.promotion().is_some() || pos.occupied().count() != pieces;
            self.keys.push(pos.key());
            plies += 1;
        }
    }

    /// The moves of the last game played.
    pub fn moves(&self) -> &[Move] {
        &self.played
    }

    /// The move-count and repetition rules, automatic ones first (as in `Game::status_with`).
    fn clock_or_repetition(&self, pos: &Position, rules: &RuleSet) -> Option<Finish> {
        let clock = pos.halfmove_clock() as usize;
        if rules.move_rule == MoveRule::SeventyFive && clock >= 150 {
            return Some(Finish::Rule(Ending::SeventyFiveMoveRule));
        }
        // The same position needs at least 4 reversible plies between occurrences.
        let needed = match rules.repetition {
            Repetition::Fivefold => 5,
            Repetition::Threefold => 3,
            Repetition::Off => usize::MAX,
        };
        if clock >= 4 * (needed - 1) && self.occurrences(clock, needed) >= needed {
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

/// True when `pos` is dead by material under `rule`.
fn is_dead(pos: &Position, rule: Insufficient) -> bool {
    match rule {
        Insufficient::Off => false,
        Insufficient::Fide => is_insufficient_material(pos),
        Insufficient::KingsAndOneMinor => {
            let heavy_or_pawns = pos.kind_bb(PieceKind::Pawn)
                | pos.kind_bb(PieceKind::Rook)
                | pos.kind_bb(PieceKind::Queen);
            let minors = pos.kind_bb(PieceKind::Knight) | pos.kind_bb(PieceKind::Bishop);
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
        let same_colour_bishops = Position::from_fen("8/8/2b5/4k3/8/8/8/4KB2 w - - 0 1").unwrap();
        assert!(is_dead(&same_colour_bishops, Insufficient::Fide));
        assert!(!is_dead(
            &same_colour_bishops,
            Insufficient::KingsAndOneMinor
        ));
        let knight = Position::from_fen("8/8/8/4k3/8/8/8/4KN2 w - - 0 1").unwrap();
        assert!(is_dead(&knight, Insufficient::KingsAndOneMinor));
        assert!(!is_dead(&knight, Insufficient::Off));
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
