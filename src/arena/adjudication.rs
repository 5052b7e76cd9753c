//! Ending hopeless or dead-drawn games early from the engines' own evaluations, as cutechess-cli
//! and fastchess do (`-draw`, `-resign`, `-maxmoves`). The evaluations are what the client read
//! from each engine's `info` lines ([`crate::client::MoveInfo`]).
//!
//! Scores are read from the last `info ... score cp X` / `score mate N` line before `bestmove`,
//! from the point of view of the engine that moved. A move without a score breaks every run of
//! consecutive moves (an engine that says nothing is not agreeing to anything).

use crate::client::{BoundScores, EngineScore};
use crate::Color;
use std::fmt;
use std::str::FromStr;

/// `--draw movenumber=N movecount=M score=S`: a draw once both engines have stayed within S
/// centipawns of 0 for M consecutive moves each, from move N on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DrawRule {
    /// The first (full) move number at which the rule may apply.
    pub move_number: u32,
    /// Consecutive moves of each side.
    pub move_count: u32,
    /// The largest absolute score, in centipawns.
    pub score: i32,
    /// A capture or a pawn move starts the count again, as cutechess-cli and fastchess count
    /// (their `-draw`); `--draw` leaves it off.
    #[serde(default, skip_serializing_if = "is_false")]
    pub reset_by_irreversible: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// `--resign movecount=M score=S [twosided=true]`: a loss for a side whose own score has been
/// at or below -S for M consecutive moves of its own (and, two-sided, the opponent's score at or
/// above S over the same moves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ResignRule {
    /// Consecutive moves of the losing side.
    pub move_count: u32,
    /// The score threshold, in centipawns (positive).
    pub score: i32,
    /// Require the winner to agree.
    pub two_sided: bool,
}

/// A bad adjudication setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdjudicationError(pub String);

impl fmt::Display for AdjudicationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AdjudicationError {}

/// `key=value` words into (key, value) pairs, checking every key is among `keys`.
fn settings<'a>(
    text: &'a str,
    what: &str,
    keys: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, AdjudicationError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(|word| {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| AdjudicationError(format!("{what}: '{word}' is not key=value")))?;
            if keys.contains(&key) {
                Ok((key, value))
            } else {
                Err(AdjudicationError(format!(
                    "{what}: unknown setting '{key}' (expected {})",
                    keys.join(", ")
                )))
            }
        })
        .collect()
}

fn number<T: FromStr>(what: &str, key: &str, value: &str) -> Result<T, AdjudicationError> {
    value
        .parse()
        .map_err(|_| AdjudicationError(format!("{what}: {key}={value} is not a valid number")))
}

impl FromStr for DrawRule {
    type Err = AdjudicationError;

    fn from_str(text: &str) -> Result<DrawRule, AdjudicationError> {
        let mut rule = DrawRule {
            move_number: 0,
            move_count: 0,
            score: -1,
            reset_by_irreversible: false,
        };
        for (key, value) in settings(text, "--draw", &["movenumber", "movecount", "score"])? {
            match key {
                "movenumber" => rule.move_number = number("--draw", key, value)?,
                "movecount" => rule.move_count = number("--draw", key, value)?,
                _ => rule.score = number("--draw", key, value)?,
            }
        }
        if rule.move_count == 0 || rule.score < 0 {
            return Err(AdjudicationError(
                "--draw needs movecount=M (at least 1) and score=S (0 or more)".into(),
            ));
        }
        Ok(rule)
    }
}

impl FromStr for ResignRule {
    type Err = AdjudicationError;

    fn from_str(text: &str) -> Result<ResignRule, AdjudicationError> {
        let mut rule = ResignRule {
            move_count: 0,
            score: 0,
            two_sided: false,
        };
        for (key, value) in settings(text, "--resign", &["movecount", "score", "twosided"])? {
            match key {
                "movecount" => rule.move_count = number("--resign", key, value)?,
                "score" => rule.score = number("--resign", key, value)?,
                _ => rule.two_sided = number("--resign", key, value)?,
            }
        }
        if rule.move_count == 0 || rule.score <= 0 {
            return Err(AdjudicationError(
                "--resign needs movecount=M (at least 1) and score=S (above 0)".into(),
            ));
        }
        Ok(rule)
    }
}

/// The adjudication rules of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Adjudication {
    /// Draw by low scores.
    pub draw: Option<DrawRule>,
    /// Resignation by a bad score.
    pub resign: Option<ResignRule>,
    /// How a move's `lowerbound`/`upperbound` score is read (also for its PGN comment).
    pub bound_scores: BoundScores,
}

/// What adjudication decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A draw, with the rule in words.
    Draw(String),
    /// A win for this side, with the rule in words.
    Win(Color, String),
}

/// Follows one game's scores and decides when a rule applies.
#[derive(Debug, Clone)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Consecutive plies with both sides' scores within the draw band.
    draw_plies: u32,
    /// Per side: consecutive own moves at or below -S (with, two-sided, the opponent's replies
    /// at or above S).
    losing_moves: [u32; 2],
    /// The last score of each side.
    last: [Option<i64>; 2],
}

impl Adjudicator {
    /// A fresh game under `rules`.
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            draw_plies: 0,
            losing_moves: [0; 2],
            last: [None; 2],
        }
    }

    /// A capture or a pawn move was just played: a draw rule that counts reversible moves only
    /// starts its count again (the move's own score then counts as the first of the new run).
    pub fn irreversible_move(&mut self) {
        if self
            .rules
            .draw
            .is_some_and(|rule| rule.reset_by_irreversible)
        {
            self.draw_plies = 0;
        }
    }

    /// `side` played its move of (full) move `move_number` with this score; a verdict when a rule
    /// now applies.
    pub fn record(
        &mut self,
        side: Color,
        move_number: u32,
        score: Option<EngineScore>,
    ) -> Option<Verdict> {
        let cp = score.map(EngineScore::centipawns);
        self.last[side.index()] = cp;
        if let Some(rule) = self.rules.draw {
            let quiet = cp.is_some_and(|cp| cp.abs() <= i64::from(rule.score));
            if quiet && move_number >= rule.move_number {
                self.draw_plies += 1;
            } else {
                self.draw_plies = 0;
            }
            if self.draw_plies >= 2 * rule.move_count {
                return Some(Verdict::Draw(format!(
                    "both engines' scores within {} cp of 0 for {} moves each",
                    rule.score, rule.move_count
                )));
            }
        }
        if let Some(rule) = self.rules.resign {
            let threshold = i64::from(rule.score);
            let opponent = self.last[(!side).index()];
            let losing = cp.is_some_and(|cp| cp <= -threshold)
                && (!rule.two_sided || opponent.is_some_and(|o| o >= threshold));
            let count = &mut self.losing_moves[side.index()];
            *count = if losing { *count + 1 } else { 0 };
            if *count >= rule.move_count {
                let agreed = if rule.two_sided {
                    format!(", and {}'s at or above {} cp", !side, rule.score)
                } else {
                    String::new()
                };
                return Some(Verdict::Win(
                    !side,
                    format!(
                        "{side}'s score at or below -{} cp for {} moves{agreed}",
                        rule.score, rule.move_count
                    ),
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_parsed_and_checked() {
        let draw: DrawRule = "movenumber=40 movecount=8 score=10".parse().unwrap();
        assert_eq!((draw.move_number, draw.move_count, draw.score), (40, 8, 10));
        let resign: ResignRule = "movecount=3 score=600 twosided=true".parse().unwrap();
        assert!(resign.two_sided);
        assert!("movecount=3".parse::<ResignRule>().is_err());
        assert!("movecount=3 score=600 colour=1"
            .parse::<ResignRule>()
            .is_err());
        assert!("movenumber=x movecount=2 score=1"
            .parse::<DrawRule>()
            .is_err());
    }

    #[test]
    fn a_draw_needs_both_sides_quiet_for_the_count_from_the_move_number() {
        let rules = Adjudication {
            draw: Some("movenumber=3 movecount=2 score=20".parse().unwrap()),
            resign: None,
            ..Adjudication::default()
        };
        let mut judge = Adjudicator::new(rules);
        let cp = |n| Some(EngineScore::Cp(n));
        // Moves 1-2 are before movenumber 3: they do not count.
        assert_eq!(judge.record(Color::White, 1, cp(0)), None);
        assert_eq!(judge.record(Color::Black, 1, cp(0)), None);
        assert_eq!(judge.record(Color::White, 2, cp(0)), None);
        assert_eq!(judge.record(Color::Black, 2, cp(5)), None);
        assert_eq!(judge.record(Color::White, 3, cp(10)), None);
        // A loud score resets the run.
        assert_eq!(judge.record(Color::Black, 3, cp(-50)), None);
        assert_eq!(judge.record(Color::White, 4, cp(0)), None);
        assert_eq!(judge.record(Color::Black, 4, cp(-20)), None);
        assert_eq!(judge.record(Color::White, 5, cp(3)), None);
        assert!(matches!(
            judge.record(Color::Black, 5, cp(0)),
            Some(Verdict::Draw(_))
        ));
        // No score breaks the run too.
        let mut judge = Adjudicator::new(rules);
        for (i, score) in [cp(0), cp(0), None, cp(0), cp(0), cp(0)]
            .into_iter()
            .enumerate()
        {
            let side = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            // Four quiet plies are needed; the silent third breaks the run, so none is reached.
            assert_eq!(judge.record(side, 3 + i as u32 / 2, score), None, "{i}");
        }
    }

    /// cutechess-cli's and fastchess's -draw: a capture or a pawn move starts the count again;
    /// --draw's rule counts on.
    #[test]
    fn an_irreversible_move_restarts_the_count_when_the_rule_says_so() {
        let cp = |n| Some(EngineScore::Cp(n));
        for reset in [false, true] {
            let mut draw: DrawRule = "movenumber=1 movecount=2 score=20".parse().unwrap();
            draw.reset_by_irreversible = reset;
            let mut judge = Adjudicator::new(Adjudication {
                draw: Some(draw),
                ..Adjudication::default()
            });
            assert_eq!(judge.record(Color::White, 1, cp(0)), None);
            assert_eq!(judge.record(Color::Black, 1, cp(0)), None);
            assert_eq!(judge.record(Color::White, 2, cp(0)), None);
            judge.irreversible_move();
            let verdict = judge.record(Color::Black, 2, cp(0));
            assert_eq!(verdict.is_some(), !reset, "reset {reset}");
        }
    }

    #[test]
    fn resignation_one_and_two_sided() {
        let cp = |n| Some(EngineScore::Cp(n));
        let one = Adjudication {
            draw: None,
            resign: Some("movecount=2 score=500".parse().unwrap()),
            ..Adjudication::default()
        };
        let mut judge = Adjudicator::new(one);
        assert_eq!(judge.record(Color::White, 1, cp(100)), None);
        assert_eq!(judge.record(Color::Black, 1, cp(-600)), None);
        assert_eq!(judge.record(Color::White, 2, cp(0)), None);
        assert_eq!(
            judge
                .record(Color::Black, 2, Some(EngineScore::Mate(-4)))
                .map(|v| matches!(v, Verdict::Win(Color::White, _))),
            Some(true)
        );
        // Two-sided: the winner's own score must agree.
        let two = Adjudication {
            draw: None,
            resign: Some("movecount=2 score=500 twosided=true".parse().unwrap()),
            ..Adjudication::default()
        };
        let mut judge = Adjudicator::new(two);
        assert_eq!(judge.record(Color::White, 1, cp(100)), None);
        assert_eq!(judge.record(Color::Black, 1, cp(-600)), None);
        assert_eq!(judge.record(Color::White, 2, cp(700)), None);
        assert_eq!(
            judge.record(Color::Black, 2, cp(-650)),
            None,
            "the first move had no agreement"
        );
        assert_eq!(judge.record(Color::White, 3, cp(800)), None);
        assert!(matches!(
            judge.record(Color::Black, 3, cp(-900)),
            Some(Verdict::Win(Color::White, _))
        ));
    }
}
