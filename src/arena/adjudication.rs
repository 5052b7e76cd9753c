//! Ending hopeless or dead-drawn games early from the engines' own evaluations, as cutechess-cli
//! and fastchess do (`-draw`, `-resign`, `-maxmoves`), and the evaluation each engine gave with
//! each move (for the PGN comments `{+0.31/12 0.052s}`).
//!
//! Scores are read from the last `info ... score cp X` / `score mate N` line before `bestmove`,
//! from the point of view of the engine that moved. A move without a score breaks every run of
//! consecutive moves (an engine that says nothing is not agreeing to anything).

use crate::Color;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// An engine's evaluation of the position it moved in, from its own side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl EngineScore {
    /// Centipawns, a mate counted as a score beyond any evaluation.
    pub fn centipawns(self) -> i64 {
        match self {
            EngineScore::Cp(n) => i64::from(n),
            EngineScore::Mate(n) if n >= 0 => 100_000 - i64::from(n),
            EngineScore::Mate(n) => -100_000 - i64::from(n),
        }
    }
}

/// What the runner reads from one `info` line: its score (`lowerbound`/`upperbound` scores are
/// read as given), depth and search time, each when the line has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InfoLine {
    /// `score cp N` or `score mate N`.
    pub score: Option<EngineScore>,
    /// `depth N`.
    pub depth: Option<u32>,
    /// `time N` (milliseconds).
    pub time: Option<Duration>,
}

impl InfoLine {
    /// The fields of an `info` line, read in one pass; `None` for other lines and for
    /// `info string`, whose text is free and may say anything.
    pub fn parse(line: &str) -> Option<InfoLine> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        let mut info = InfoLine::default();
        while let Some(word) = words.next() {
            match word {
                "string" if info == InfoLine::default() => return None,
                // The principal variation is last and holds only moves.
                "pv" | "string" => break,
                "depth" => info.depth = words.next().and_then(|n| n.parse().ok()),
                "time" => {
                    info.time = words
                        .next()
                        .and_then(|n| n.parse().ok())
                        .map(Duration::from_millis)
                }
                "score" => {
                    info.score = match (words.next(), words.next().and_then(|n| n.parse().ok())) {
                        (Some("cp"), Some(n)) => Some(EngineScore::Cp(n)),
                        (Some("mate"), Some(n)) => Some(EngineScore::Mate(n)),
                        _ => None,
                    }
                }
                _ => {}
            }
        }
        Some(info)
    }
}

/// What an engine said about one of its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MoveInfo {
    /// Its last score before `bestmove`.
    pub score: Option<EngineScore>,
    /// Its last depth before `bestmove`.
    pub depth: Option<u32>,
    /// How long it took, from `go` sent to `bestmove` read, as the runner measured it.
    pub time: Duration,
    /// How long it said it searched (its last `info ... time`).
    pub reported: Option<Duration>,
    /// The move came from the engine's opening book, not from the engine.
    pub book: bool,
}

impl MoveInfo {
    /// Keep what `line` says; an engine's last word on each field counts.
    pub fn absorb(&mut self, line: &InfoLine) {
        self.score = line.score.or(self.score);
        self.depth = line.depth.or(self.depth);
        self.reported = line.time.or(self.reported);
    }

    /// The runner's own overhead on this move (fastchess's latency): the time it measured less
    /// the time the engine says it searched; `None` when the engine did not say.
    pub fn latency(&self) -> Option<Duration> {
        self.reported.map(|r| self.time.saturating_sub(r))
    }
}

impl fmt::Display for MoveInfo {
    /// cutechess-cli's move comment: `+0.31/12 0.052s` (score in pawns from the mover's side,
    /// `+M3`/`-M2` for mates, `/depth` when known, time in seconds), or `book`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.book {
            return f.write_str("book");
        }
        match self.score {
            Some(EngineScore::Cp(cp)) => write!(f, "{:+.2}", f64::from(cp) / 100.0)?,
            Some(EngineScore::Mate(n)) if n >= 0 => write!(f, "+M{n}")?,
            Some(EngineScore::Mate(n)) => write!(f, "-M{}", -n)?,
            None => {}
        }
        if let (Some(_), Some(depth)) = (self.score, self.depth) {
            write!(f, "/{depth}")?;
        }
        if self.score.is_some() {
            f.write_str(" ")?;
        }
        write!(f, "{:.3}s", self.time.as_secs_f64())
    }
}

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
    fn scores_and_depths_are_read_from_info_lines() {
        let line = "info depth 12 seldepth 18 score cp -31 nodes 1000 pv e2e4";
        let info = |line| InfoLine::parse(line).unwrap_or_default();
        assert_eq!(info(line).score, Some(EngineScore::Cp(-31)));
        assert_eq!(info(line).depth, Some(12));
        assert_eq!(
            info("info depth 1 time 52 pv e2e4").time,
            Some(Duration::from_millis(52))
        );
        assert_eq!(
            info("info score mate -3 depth 9").score,
            Some(EngineScore::Mate(-3))
        );
        assert_eq!(info("info string score cp 5").score, None);
        assert_eq!(info("bestmove e2e4").score, None);
        assert_eq!(info("info depth 3").score, None);
    }

    #[test]
    fn move_comments_are_written_as_cutechess_does() {
        let info = |score, depth, ms| MoveInfo {
            score,
            depth,
            time: Duration::from_millis(ms),
            reported: None,
            book: false,
        };
        assert_eq!(
            info(Some(EngineScore::Cp(31)), Some(12), 52).to_string(),
            "+0.31/12 0.052s"
        );
        assert_eq!(
            info(Some(EngineScore::Cp(-150)), None, 1000).to_string(),
            "-1.50 1.000s"
        );
        assert_eq!(
            info(Some(EngineScore::Mate(3)), Some(20), 5).to_string(),
            "+M3/20 0.005s"
        );
        assert_eq!(
            info(Some(EngineScore::Mate(-2)), Some(9), 5).to_string(),
            "-M2/9 0.005s"
        );
        assert_eq!(info(None, Some(4), 7).to_string(), "0.007s");
    }

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

    #[test]
    fn resignation_one_and_two_sided() {
        let cp = |n| Some(EngineScore::Cp(n));
        let one = Adjudication {
            draw: None,
            resign: Some("movecount=2 score=500".parse().unwrap()),
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
