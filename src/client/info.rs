//! What an engine says while it searches: the fields of its UCI `info` lines (score, depth,
//! time), gathered into what it said about each of its moves. The match runner writes them as
//! cutechess-cli's PGN comments (`{+0.31/12 0.052s}`) and adjudicates games on the scores.
//!
//! Scores are read from the last `info ... score cp X` / `score mate N` line before `bestmove`,
//! from the point of view of the engine that moved.

use super::process::MoveTiming;
use std::fmt;
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
    /// When the pipes carried its `go` and `bestmove` (for a time forfeit's cause).
    pub timing: MoveTiming,
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
            timing: MoveTiming::default(),
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
}
