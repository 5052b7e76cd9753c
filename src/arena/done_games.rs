//! Which games of a shard are done, kept small however long the run: the match state saves it,
//! the SPRT's stop reads it in schedule order.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Which of a shard's games (by their index in its list of games to play) are done: all below
/// `prefix`, and those in `beyond`. Games finish out of order when several run at once, so a few
/// wait in `beyond` until the gap before them closes; the set stays small however long the run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DoneGames {
    /// Indices `0..prefix` are done.
    pub(crate) prefix: usize,
    /// Done indices above the prefix.
    pub(crate) beyond: BTreeSet<usize>,
}

impl DoneGames {
    /// Mark the game at `index` done.
    pub(crate) fn insert(&mut self, index: usize) {
        if index < self.prefix {
            return;
        }
        self.beyond.insert(index);
        while self.beyond.remove(&self.prefix) {
            self.prefix += 1;
        }
    }

    /// True when the game at `index` is done.
    pub(crate) fn contains(&self, index: usize) -> bool {
        index < self.prefix || self.beyond.contains(&index)
    }

    /// Games done.
    pub(crate) fn len(&self) -> usize {
        self.prefix + self.beyond.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn done_games_stay_a_prefix_and_a_few_stragglers() {
        let mut done = DoneGames::default();
        for index in [2, 0, 5, 1] {
            done.insert(index);
        }
        assert_eq!(done.prefix, 3);
        assert_eq!(done.beyond, BTreeSet::from([5]));
        assert!(done.contains(1) && done.contains(5) && !done.contains(3));
        done.insert(1);
        assert_eq!(done.len(), 4);
    }
}
