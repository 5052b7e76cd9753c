//! Where the runner's games come from: a list fixed in advance ([`Listed`]), or a knockout's
//! driver that picks the next game from the results so far ([`KnockoutFeed`]).

use super::knockout::{Knockout, KnockoutGame, KnockoutResult, Next};
use super::match_game::MatchGame;
use super::schedule::{Schedule, ScheduledGame};

/// What a feed gives a worker that asks for a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fed {
    /// This game.
    Play(ScheduledGame),
    /// None yet: ask again when a running game has ended.
    Wait,
    /// None left.
    Done,
}

/// Where the runner's games come from: a list fixed in advance, or a driver that picks the
/// next game from the results so far (a knockout). Asked under one lock, so the games are
/// handed out in its order.
pub(super) trait Feed: Send {
    /// The next game.
    fn next(&mut self) -> Fed;
    /// A game it handed out ended (or was cut short).
    fn finished(&mut self, game: &MatchGame);
}

/// Games fixed in advance: schedule indices, in order.
pub(super) struct Listed<'s> {
    /// The schedule the indices are of.
    pub(super) schedule: &'s Schedule,
    /// The games to play, in order.
    pub(super) todo: &'s [u32],
    /// How many of them were handed out.
    pub(super) next: usize,
}

impl Feed for Listed<'_> {
    fn next(&mut self) -> Fed {
        match self.todo.get(self.next) {
            Some(&index) => {
                self.next += 1;
                Fed::Play(self.schedule.game(index))
            }
            None => Fed::Done,
        }
    }

    fn finished(&mut self, _: &MatchGame) {}
}

/// A knockout's games, numbered in the order the driver hands them out.
pub(super) struct KnockoutFeed {
    /// The driver.
    pub(super) knockout: Knockout,
    /// The schedule whose encounters (every pair of engines) the games are counted in.
    pub(super) schedule: Schedule,
}

impl KnockoutFeed {
    /// The game the driver handed out, as the schedule's kind of game (index: its number - 1).
    fn scheduled(&self, game: &KnockoutGame) -> ScheduledGame {
        ScheduledGame {
            index: game.number - 1,
            round: game.round - 1,
            encounter: self
                .schedule
                .encounter_of(game.white, game.black)
                .unwrap_or_default(),
            white: game.white,
            black: game.black,
            opening: game.opening,
        }
    }
}

impl Feed for KnockoutFeed {
    fn next(&mut self) -> Fed {
        match self.knockout.next_game() {
            Next::Play(game) => Fed::Play(self.scheduled(&game)),
            Next::Wait => Fed::Wait,
            Next::Done => Fed::Done,
        }
    }

    fn finished(&mut self, game: &MatchGame) {
        let result = KnockoutResult::of(game.record.outcome);
        // Every game the runner plays was handed out by the driver, once.
        let _ = self.knockout.finish(game.number, result);
    }
}
