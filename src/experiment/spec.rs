//! What an experiment is: which games (seed, count, start, rules, shard), each from its own
//! random stream, and the blocks they are handed out and saved in. Playing them is [`super::run`].

use super::rules::RuleSet;
use crate::jobs::shard::Shard;
use crate::types::splitmix::mix;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where each game starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Start {
    /// The standard start position.
    Standard,
    /// This FEN.
    Fen(String),
    /// A Chess960 start drawn uniformly from the 960 for each game (from the game's own stream).
    Chess960Random,
    /// The Chess960 start with this Scharnagl number (518 is the standard position).
    Chess960(u32),
}

impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Start::Standard => f.write_str("the standard start position"),
            Start::Fen(fen) => write!(f, "{fen}"),
            Start::Chess960Random => f.write_str("a uniformly drawn Chess960 start per game"),
            Start::Chess960(n) => write!(f, "Chess960 start #{n}"),
        }
    }
}

/// What a run plays: everything its result depends on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Experiment {
    /// The seed every game's stream is derived from.
    pub seed: u64,
    /// Games in the whole experiment (all shards).
    pub games: u64,
    /// Where games start.
    pub start: Start,
    /// What ends them.
    pub rules: RuleSet,
    /// The part of the experiment this run plays.
    pub shard: Shard,
}

/// Games handed to a thread at a time: small enough for a checkpoint every few seconds to lose
/// little, large enough that handing them out costs nothing.
pub const BLOCK: u64 = 2048;

impl Experiment {
    /// The games this shard plays.
    pub fn shard_games(&self) -> u64 {
        let Shard { index, count } = self.shard;
        if self.games <= index {
            0
        } else {
            (self.games - index).div_ceil(count)
        }
    }

    /// The experiment's game number of this shard's `k`-th game.
    pub fn game_number(&self, k: u64) -> u64 {
        self.shard.index + k * self.shard.count
    }

    /// The random stream of game `number`.
    pub fn stream(&self, number: u64) -> Xoshiro256PlusPlus {
        Xoshiro256PlusPlus::seed_from_u64(mix(self.seed ^ mix(number)))
    }
}

/// One line naming an experiment: seed, games, start, rules, shard.
pub fn describe(experiment: &Experiment) -> String {
    let rules = experiment
        .rules
        .preset_name()
        .map_or_else(|| experiment.rules.to_string(), String::from);
    format!(
        "seed {}, {} games, {}, rules {rules}, shard {}/{}",
        experiment.seed,
        experiment.games,
        experiment.start,
        experiment.shard.index,
        experiment.shard.count
    )
}
