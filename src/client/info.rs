//! What an engine says while it searches: the fields of its UCI `info` lines (score, depth,
//! time), gathered into what it said about each of its moves. The match runner writes them as
//! cutechess-cli's PGN comments (`{+0.31/12 0.052s}`) and adjudicates games on the scores.
//!
//! Scores are read from the last `info ... score cp X` / `score mate N` line before `bestmove`,
//! from the point of view of the engine that moved; lines of a secondary PV (`multipv 2` and on)
//! are not the engine's evaluation and are passed over, as both cutechess-cli and fastchess do.
//! A `lowerbound`/`upperbound` score is a bound, not an evaluation: [`BoundScores`] says whether
//! it counts.

use std::fmt;
use std::time::{Duration, Instant};

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

/// How a `score cp X lowerbound` / `upperbound` (a search that failed high or low, cut short)
/// is read: the two tools differ, and each is followed in its own command line's form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BoundScores {
    /// A bound counts like any score: the engine's last score is its score (cutechess-cli, which
    /// reads the value before it looks for the bound; Shannon's own form).
    #[default]
    Taken,
    /// The move's last exact score, with its line's depth; a bound only when the engine gave no
    /// exact score for the move (fastchess's `lastInfoLine`).
    Fallback,
}

/// What the runner reads from one `info` line: its score, depth and search time, each when the
/// line has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InfoLine {
    /// `score cp N` or `score mate N`.
    pub score: Option<EngineScore>,
    /// The score is a `lowerbound` or an `upperbound`.
    pub bound: bool,
    /// `multipv N`.
    pub multipv: Option<u32>,
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
                "multipv" => info.multipv = words.next().and_then(|n| n.parse().ok()),
                "lowerbound" | "upperbound" => info.bound = true,
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
    /// Its last score before `bestmove` (a bound included until [`MoveInfo::read_as`] says how
    /// bounds are read).
    pub score: Option<EngineScore>,
    /// Its last depth before `bestmove`.
    pub depth: Option<u32>,
    /// Its last exact score (not a bound) with the depth of that line, when it gave one.
    pub exact: Option<(EngineScore, Option<u32>)>,
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
    /// Keep what `line` says; an engine's last word on each field counts. A line of a
    /// secondary PV (`multipv 2` and on) says nothing about the move.
    pub fn absorb(&mut self, line: &InfoLine) {
        if line.multipv.is_some_and(|n| n > 1) {
            return;
        }
        self.score = line.score.or(self.score);
        self.depth = line.depth.or(self.depth);
        self.reported = line.time.or(self.reported);
        if let (Some(score), false) = (line.score, line.bound) {
            self.exact = Some((score, line.depth));
        }
    }

    /// The move's score and depth as `bounds` reads them: under [`BoundScores::Fallback`] the
    /// last exact score (and its line's depth) when there was one.
    pub fn read_as(self, bounds: BoundScores) -> MoveInfo {
        match (bounds, self.exact) {
            (BoundScores::Fallback, Some((score, depth))) => MoveInfo {
                score: Some(score),
                depth: depth.or(self.depth),
                ..self
            },
            _ => self,
        }
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

/// When the pipes carried one `go` and its `bestmove`, as the runner measured them: the parts
/// of a move's time that are the engine's and those that are the runner's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MoveTiming {
    /// When the runner handed `go` to the writer thread (its clock starts here).
    pub go_sent: Option<Instant>,
    /// When the writer thread had written `go` to the engine's stdin.
    pub go_written: Option<Instant>,
    /// When the reader thread read `bestmove` from the engine's stdout.
    pub bestmove_read: Option<Instant>,
    /// When the runner handled it (its clock stops here).
    pub bestmove_handled: Option<Instant>,
    /// The runner's delay before this `go`: from reading the game's previous `bestmove` (the
    /// other engine's, usually) to writing this `go` (set by the match runner).
    pub before_go: Option<Duration>,
}

impl MoveTiming {
    /// From `go` written to `bestmove` read: the engine's time with the pipes', and nothing of
    /// the runner's.
    pub fn pipe(&self) -> Option<Duration> {
        Some(
            self.bestmove_read?
                .saturating_duration_since(self.go_written?),
        )
    }

    /// The runner's part of the time charged to the engine's clock: from `go` sent to `go`
    /// written, and from `bestmove` read to `bestmove` handled.
    pub fn runner_delay(&self) -> Option<Duration> {
        let write = self.go_written?.saturating_duration_since(self.go_sent?);
        let read = self
            .bestmove_handled?
            .saturating_duration_since(self.bestmove_read?);
        Some(write + read)
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

    /// What an engine printed for one move, gathered as the client gathers it.
    fn gathered(output: &str) -> MoveInfo {
        let mut info = MoveInfo::default();
        for line in output.lines() {
            if let Some(fields) = InfoLine::parse(line) {
                info.absorb(&fields);
            }
        }
        info
    }

    /// Stockfish stopped by its node limit in the middle of an aspiration re-search: its last
    /// line before `bestmove` is a bound (as at `go nodes 3000`).
    const CUT_SHORT: &str = "\
info string NNUE evaluation using nn-1111cefa1111.nnue enabled
info depth 9 seldepth 12 multipv 1 score cp -38 nodes 2113 nps 352166 time 6 pv g8f6 b1c3
info depth 9 seldepth 12 multipv 2 score cp -95 nodes 2113 nps 352166 time 6 pv d7d5 e2e4
info depth 10 seldepth 14 multipv 1 score cp -71 upperbound nodes 2890 time 8 pv g8f6
info depth 10 currmove e7e5 currmovenumber 2
info depth 10 seldepth 14 multipv 1 score cp -55 lowerbound nodes 3000 time 8 pv e7e5
bestmove g8f6 ponder b1c3";

    #[test]
    fn bound_scores_are_taken_by_cutechess_rule_and_passed_over_by_fastchess_rule() {
        let info = gathered(CUT_SHORT);
        // cutechess-cli: the last score, bound or not, with the last depth.
        let taken = info.read_as(BoundScores::Taken);
        assert_eq!(taken.score, Some(EngineScore::Cp(-55)));
        assert_eq!(taken.depth, Some(10));
        assert_eq!(taken.to_string(), "-0.55/10 0.000s");
        // fastchess: the last exact score, of the depth of its line; the multipv 2 line is
        // nobody's evaluation.
        let fallback = info.read_as(BoundScores::Fallback);
        assert_eq!(fallback.score, Some(EngineScore::Cp(-38)));
        assert_eq!(fallback.depth, Some(9));
        assert_eq!(fallback.reported, Some(Duration::from_millis(8)));
        // Only bounds: fastchess takes the last of them.
        let bounds_only = gathered(
            "info depth 1 score cp 20 lowerbound\ninfo depth 2 score cp 35 upperbound\nbestmove a2a3",
        );
        assert_eq!(
            bounds_only.read_as(BoundScores::Fallback).score,
            Some(EngineScore::Cp(35))
        );
        // A secondary PV never stands for the move, under either rule.
        let multipv =
            gathered("info depth 4 multipv 1 score cp 10\ninfo depth 4 multipv 3 score cp -400");
        for rule in [BoundScores::Taken, BoundScores::Fallback] {
            assert_eq!(multipv.read_as(rule).score, Some(EngineScore::Cp(10)));
        }
    }

    #[test]
    fn move_comments_are_written_as_cutechess_does() {
        let info = |score, depth, ms| MoveInfo {
            score,
            depth,
            time: Duration::from_millis(ms),
            ..MoveInfo::default()
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
