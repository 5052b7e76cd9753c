//! The rules under which random games are played to their end. Which rules end a game changes
//! what a population of random games looks like (a study that claims no draws sees longer games
//! and more mates), so each rule is a switch, and two presets name the common sets.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// When repeated positions end a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Repetition {
    /// The third occurrence of a position (FIDE 9.2, taken as claimed at once).
    Threefold,
    /// The fifth occurrence (FIDE 9.6.1, automatic).
    Fivefold,
    /// Repetitions never end a game.
    Off,
}

/// When moves without a capture or pawn move end a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveRule {
    /// 50 moves by each side (halfmove clock 100; FIDE 9.3, taken as claimed at once).
    Fifty,
    /// 75 moves by each side (halfmove clock 150; FIDE 9.6.2, automatic; mate on that move
    /// stands).
    SeventyFive,
    /// The clock never ends a game.
    Off,
}

/// Which positions count as dead by insufficient material.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Insufficient {
    /// FIDE's dead positions by material: K v K, K + one minor piece v K, and kings with
    /// bishops only, all on squares of one colour.
    Fide,
    /// Only K v K, K + N v K and K + B v K (what several published studies count).
    KingsAndOneMinor,
    /// Material never ends a game.
    Off,
}

/// The rules that end a random game besides checkmate and stalemate, which always do.
///
/// When several apply to one position, the first of this order ends the game: checkmate or
/// stalemate, insufficient material, the 75-move rule, fivefold repetition, threefold
/// repetition, the 50-move rule, the ply limit (the order of [`crate::game::Game::status_with`]:
/// automatic rules before claims).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RuleSet {
    /// Repetition rule.
    pub repetition: Repetition,
    /// Move-count rule.
    pub move_rule: MoveRule,
    /// Dead positions by material.
    pub insufficient: Insufficient,
    /// Stop a game after this many plies (a draw by adjudication), if set.
    pub max_plies: Option<u32>,
}

impl RuleSet {
    /// What match runners do: every draw taken the moment it can be claimed. Checkmate,
    /// stalemate, insufficient material (FIDE), the 50-move rule and threefold repetition.
    pub const CLAIMS: RuleSet = RuleSet {
        repetition: Repetition::Threefold,
        move_rule: MoveRule::Fifty,
        insufficient: Insufficient::Fide,
        max_plies: None,
    };

    /// FIDE's rules with nobody claiming: checkmate, stalemate, insufficient material (FIDE),
    /// the 75-move rule and fivefold repetition.
    pub const AUTOMATIC: RuleSet = RuleSet {
        repetition: Repetition::Fivefold,
        move_rule: MoveRule::SeventyFive,
        insufficient: Insufficient::Fide,
        max_plies: None,
    };

    /// True when some rule ends every game: with no move rule, no repetition rule and no ply
    /// limit, two random kings with pawns locked could shuffle for ever.
    pub fn always_ends(&self) -> bool {
        self.max_plies.is_some()
            || self.move_rule != MoveRule::Off
            || self.repetition != Repetition::Off
    }

    /// The preset this is, if any.
    pub fn preset_name(&self) -> Option<&'static str> {
        match *self {
            RuleSet::CLAIMS => Some("claims"),
            RuleSet::AUTOMATIC => Some("automatic"),
            _ => None,
        }
    }
}

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::CLAIMS
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let repetition = match self.repetition {
            Repetition::Threefold => "threefold repetition",
            Repetition::Fivefold => "fivefold repetition",
            Repetition::Off => "no repetition rule",
        };
        let move_rule = match self.move_rule {
            MoveRule::Fifty => "50-move rule",
            MoveRule::SeventyFive => "75-move rule",
            MoveRule::Off => "no move rule",
        };
        let insufficient = match self.insufficient {
            Insufficient::Fide => "insufficient material (FIDE)",
            Insufficient::KingsAndOneMinor => "insufficient material (K v K, K+minor v K)",
            Insufficient::Off => "no material rule",
        };
        write!(
            f,
            "checkmate, stalemate, {insufficient}, {move_rule}, {repetition}"
        )?;
        if let Some(n) = self.max_plies {
            write!(f, ", at most {n} plies")?;
        }
        Ok(())
    }
}

/// A value of a rule switch that is not one of its choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    /// The switch.
    pub switch: &'static str,
    /// The text given.
    pub text: String,
    /// The choices.
    pub choices: String,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} '{}': expected one of {}",
            self.switch, self.text, self.choices
        )
    }
}

impl std::error::Error for RuleError {}

/// A rule switch's values as the command line writes them: one table serves both reading
/// (`FromStr`) and writing (the command that reproduces a run).
pub trait Switch: Copy + PartialEq + 'static {
    /// The flag, for error messages.
    const FLAG: &'static str;
    /// Every value with its text.
    const CHOICES: &'static [(Self, &'static str)];

    /// The text of this value.
    fn text(self) -> &'static str {
        Self::CHOICES
            .iter()
            .find(|(value, _)| *value == self)
            .map_or("", |(_, text)| text)
    }

    /// The value `text` names.
    fn parse_switch(text: &str) -> Result<Self, RuleError> {
        Self::CHOICES
            .iter()
            .find(|(_, t)| *t == text)
            .map(|(value, _)| *value)
            .ok_or_else(|| RuleError {
                switch: Self::FLAG,
                text: text.into(),
                choices: Self::CHOICES
                    .iter()
                    .map(|(_, t)| *t)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

impl Switch for Repetition {
    const FLAG: &'static str = "--repetition";
    const CHOICES: &'static [(Repetition, &'static str)] = &[
        (Repetition::Threefold, "3"),
        (Repetition::Fivefold, "5"),
        (Repetition::Off, "off"),
    ];
}

impl Switch for MoveRule {
    const FLAG: &'static str = "--move-rule";
    const CHOICES: &'static [(MoveRule, &'static str)] = &[
        (MoveRule::Fifty, "50"),
        (MoveRule::SeventyFive, "75"),
        (MoveRule::Off, "off"),
    ];
}

impl Switch for Insufficient {
    const FLAG: &'static str = "--insufficient";
    const CHOICES: &'static [(Insufficient, &'static str)] = &[
        (Insufficient::Fide, "fide"),
        (Insufficient::KingsAndOneMinor, "kings-and-one-minor"),
        (Insufficient::Off, "off"),
    ];
}

impl FromStr for Repetition {
    type Err = RuleError;
    fn from_str(s: &str) -> Result<Repetition, RuleError> {
        Repetition::parse_switch(s)
    }
}

impl FromStr for MoveRule {
    type Err = RuleError;
    fn from_str(s: &str) -> Result<MoveRule, RuleError> {
        MoveRule::parse_switch(s)
    }
}

impl FromStr for Insufficient {
    type Err = RuleError;
    fn from_str(s: &str) -> Result<Insufficient, RuleError> {
        Insufficient::parse_switch(s)
    }
}
