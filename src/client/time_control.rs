//! Time controls in Cute Chess's notation, the clocks the runner keeps with them, and UCI's `go`
//! for each (the xboard client tells an engine the same time control as `level`/`st`/`sd`).
//!
//! `40/60+0.6` is 40 moves in 60 seconds plus 0.6 s per move (the time comes back after each 40
//! moves); `10+0.1` is 10 s for the game plus 0.1 s per move; `inf` is no limit. As in Cute
//! Chess, the time of a period may also be written as minutes:seconds (`40/1:00+0.5`,
//! `2:30+1`). Beyond Cute
//! Chess: `movetime=MS` (a fixed time per move), `nodes=N` and `depth=N` (limits sent with
//! `go`, no clock).

use crate::Color;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How long each side may think. Saved (in a match's state) as its notation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum TimeControl {
    /// A clock: `moves` per period (0: the whole game), `base` per period, `increment` per move.
    Clock {
        /// Moves per period; 0 for sudden death.
        moves: u32,
        /// Time per period.
        base: Duration,
        /// Added after every move.
        increment: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A node limit per move (`go nodes N`).
    Nodes(u64),
    /// A depth limit per move (`go depth N`).
    Depth(u32),
    /// No limit (`go infinite` is not used: the runner sends `go` with no limits).
    Infinite,
}

/// Text that is not a time control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeControlError(pub String);

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a time control; use e.g. 40/60+0.6, 10+0.1, 1:30+1 (minutes:seconds), \
             inf, movetime=100, nodes=1 or depth=1",
            self.0
        )
    }
}

impl std::error::Error for TimeControlError {}

fn seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.parse().ok()?;
    (0.0..1e9)
        .contains(&value)
        .then(|| Duration::from_secs_f64(value))
}

/// The time of a period: seconds (`60`, `0.5`) or Cute Chess's minutes:seconds (`1:00`,
/// `2:30.5`), the seconds below 60 so a slip like `1:75` is caught rather than guessed at.
fn period(text: &str) -> Option<Duration> {
    match text.split_once(':') {
        None => seconds(text),
        Some((minutes, secs)) => {
            let minutes: u32 = minutes.parse().ok()?;
            let secs = seconds(secs).filter(|s| s.as_secs_f64() < 60.0)?;
            Some(Duration::from_secs(u64::from(minutes) * 60) + secs)
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = || TimeControlError(text.to_string());
        let text = text.trim();
        if text == "inf" || text == "infinite" {
            return Ok(TimeControl::Infinite);
        }
        if let Some(ms) = text.strip_prefix("movetime=") {
            return ms
                .parse()
                .map(|ms| TimeControl::MoveTime(Duration::from_millis(ms)))
                .map_err(|_| error());
        }
        if let Some(n) = text.strip_prefix("nodes=") {
            return n.parse().map(TimeControl::Nodes).map_err(|_| error());
        }
        if let Some(n) = text.strip_prefix("depth=") {
            return n.parse().map(TimeControl::Depth).map_err(|_| error());
        }
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => (moves.parse().map_err(|_| error())?, rest),
            None => (0, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, inc)) => (period(base), seconds(inc)),
            None => (period(rest), Some(Duration::ZERO)),
        };
        match (base, increment) {
            (Some(base), Some(increment)) if !base.is_zero() => Ok(TimeControl::Clock {
                moves,
                base,
                increment,
            }),
            _ => Err(error()),
        }
    }
}

impl TryFrom<String> for TimeControl {
    type Error = TimeControlError;

    fn try_from(text: String) -> Result<TimeControl, TimeControlError> {
        text.parse()
    }
}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> String {
        tc.notation()
    }
}

impl TimeControl {
    /// The time control as the command line writes it, the form [`TimeControl::from_str`] reads
    /// back: `40/60+0.6`, `10+0.1`, `movetime=100`, `nodes=1`, `depth=3`, `inf`.
    pub fn notation(&self) -> String {
        match self {
            TimeControl::Clock { .. } => self.to_string(),
            TimeControl::MoveTime(d) => format!("movetime={}", d.as_millis()),
            TimeControl::Nodes(n) => format!("nodes={n}"),
            TimeControl::Depth(n) => format!("depth={n}"),
            TimeControl::Infinite => "inf".to_string(),
        }
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag's form: `40/60+0.6`, `10+0.1`, `-` for none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => {
                if *moves > 0 {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}", base.as_secs_f64())?;
                if !increment.is_zero() {
                    write!(f, "+{}", increment.as_secs_f64())?;
                }
                Ok(())
            }
            TimeControl::MoveTime(d) => write!(f, "{}/move", d.as_secs_f64()),
            TimeControl::Nodes(_) | TimeControl::Depth(_) | TimeControl::Infinite => {
                f.write_str("-")
            }
        }
    }
}

/// One side's clock under a [`TimeControl::Clock`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clock {
    /// Time left.
    pub remaining: Duration,
    /// Moves made by this side.
    pub moves_made: u32,
}

impl TimeControl {
    /// A fresh clock (meaningful for `Clock` time controls): the period's time and the first
    /// move's increment, as cutechess-cli and fastchess start theirs (`10+0.1` starts at 10.1
    /// s, and the first `go` says `wtime 10100`).
    pub fn new_clock(&self) -> Clock {
        let remaining = match self {
            TimeControl::Clock {
                base, increment, ..
            } => *base + *increment,
            _ => Duration::ZERO,
        };
        Clock {
            remaining,
            moves_made: 0,
        }
    }

    /// Moves left to the next time control, for `movestogo` (None in sudden death).
    pub fn moves_to_go(&self, clock: &Clock) -> Option<u32> {
        match self {
            TimeControl::Clock { moves, .. } if *moves > 0 => {
                Some(moves - clock.moves_made % moves)
            }
            _ => None,
        }
    }

    /// Charge `used` to `clock`; false when the clock fell below zero by more than `margin`
    /// (a loss on time). Adds the increment and, at the end of a period, the next period.
    pub fn charge(&self, clock: &mut Clock, used: Duration, margin: Duration) -> bool {
        match self {
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => {
                if used > clock.remaining + margin {
                    clock.remaining = Duration::ZERO;
                    return false;
                }
                clock.remaining = clock.remaining.saturating_sub(used) + *increment;
                clock.moves_made += 1;
                if *moves > 0 && clock.moves_made.is_multiple_of(*moves) {
                    clock.remaining += *base;
                }
                true
            }
            TimeControl::MoveTime(limit) => used <= *limit + margin,
            _ => true,
        }
    }

    /// The longest the runner waits for `bestmove` before the engine loses (on time, or as
    /// hung when there is no clock).
    pub fn deadline(&self, clock: &Clock, margin: Duration, hang: Duration) -> Duration {
        match self {
            TimeControl::Clock { .. } => clock.remaining + margin,
            TimeControl::MoveTime(limit) => *limit + margin,
            _ => hang,
        }
    }
}

impl TimeControl {
    /// True when the engines play on a clock or a fixed time per move (a late answer is a loss
    /// on time rather than a hang).
    pub fn has_clock(&self) -> bool {
        matches!(self, TimeControl::Clock { .. } | TimeControl::MoveTime(_))
    }

    /// The time the side to move has for its move: its clock, or the fixed time per move.
    pub fn time_left(&self, clock: &Clock) -> Duration {
        match self {
            TimeControl::MoveTime(limit) => *limit,
            _ => clock.remaining,
        }
    }

    /// UCI's `go` for `side` to move under this time control, with `clocks` (White's, Black's)
    /// and the opponent playing under `opponent` (the same time control, unless the match gives
    /// the engines different ones): `go wtime .. btime .. winc .. binc .. [movestogo ..]`,
    /// `go movetime`, `go nodes`, `go depth` or a bare `go`. Each side's time and increment are
    /// its own; an opponent without a clock has no time and increment in the line (as fastchess
    /// leaves them out), and `movestogo` counts the mover's own period.
    pub fn uci_go(&self, opponent: &TimeControl, clocks: &[Clock; 2], side: Color) -> String {
        match *self {
            TimeControl::Clock { .. } => {
                let (white, black) = match side {
                    Color::White => (self, opponent),
                    Color::Black => (opponent, self),
                };
                let mut go = "go".to_string();
                for (key, tc, clock) in [("wtime", white, &clocks[0]), ("btime", black, &clocks[1])]
                {
                    if let TimeControl::Clock { .. } = tc {
                        go.push_str(&format!(" {key} {}", clock.remaining.as_millis()));
                    }
                }
                for (key, tc) in [("winc", white), ("binc", black)] {
                    if let TimeControl::Clock { increment, .. } = tc {
                        go.push_str(&format!(" {key} {}", increment.as_millis()));
                    }
                }
                if let Some(n) = self.moves_to_go(&clocks[side.index()]) {
                    go.push_str(&format!(" movestogo {n}"));
                }
                go
            }
            TimeControl::MoveTime(limit) => format!("go movetime {}", limit.as_millis()),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
            TimeControl::Depth(n) => format!("go depth {n}"),
            TimeControl::Infinite => "go".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notation_reads_back_to_the_same_time_control() {
        for text in [
            "40/60+0.6",
            "10+0.1",
            "2:30+1",
            "40/1:00+0.5",
            "inf",
            "movetime=250",
            "nodes=1",
            "depth=7",
            "5",
        ] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.notation().parse::<TimeControl>().unwrap(), tc, "{text}");
        }
        assert_eq!(
            "10+0.1".parse::<TimeControl>().unwrap().notation(),
            "10+0.1"
        );
        assert_eq!(
            "40/1:00+0.5".parse::<TimeControl>().unwrap().notation(),
            "40/60+0.5"
        );
        assert_eq!("infinite".parse::<TimeControl>().unwrap().notation(), "inf");
    }

    #[test]
    fn cute_chess_forms() {
        assert_eq!(
            "40/60+0.6".parse::<TimeControl>().unwrap(),
            TimeControl::Clock {
                moves: 40,
                base: Duration::from_secs(60),
                increment: Duration::from_millis(600)
            }
        );
        assert_eq!(
            "10+0.1".parse::<TimeControl>().unwrap().to_string(),
            "10+0.1"
        );
        assert_eq!("inf".parse::<TimeControl>().unwrap(), TimeControl::Infinite);
        assert_eq!(
            "nodes=1".parse::<TimeControl>().unwrap(),
            TimeControl::Nodes(1)
        );
        assert_eq!(
            "depth=3".parse::<TimeControl>().unwrap(),
            TimeControl::Depth(3)
        );
        assert_eq!(
            "movetime=50".parse::<TimeControl>().unwrap(),
            TimeControl::MoveTime(Duration::from_millis(50))
        );
        for bad in [
            "",
            "x",
            "40/",
            "+1",
            "10+",
            "-5",
            "0",
            "nodes=",
            "movetime=-1",
            "1e99",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    /// Issue 9: Cute Chess's minutes:seconds form was refused.
    #[test]
    fn minutes_and_seconds() {
        assert_eq!(
            "1:00+1".parse::<TimeControl>().unwrap(),
            TimeControl::Clock {
                moves: 0,
                base: Duration::from_secs(60),
                increment: Duration::from_secs(1)
            }
        );
        assert_eq!(
            "40/1:00+0.5".parse::<TimeControl>().unwrap(),
            TimeControl::Clock {
                moves: 40,
                base: Duration::from_secs(60),
                increment: Duration::from_millis(500)
            }
        );
        assert_eq!(
            "2:30.5".parse::<TimeControl>().unwrap(),
            TimeControl::Clock {
                moves: 0,
                base: Duration::from_millis(150_500),
                increment: Duration::ZERO
            }
        );
        assert_eq!(
            "0:05+0.1".parse::<TimeControl>().unwrap().to_string(),
            "5+0.1"
        );
        for bad in [
            "1:75",
            ":30",
            "1:",
            "1:2:3",
            "-1:00",
            "0:00",
            "1:00+1:00",
            "x:10",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clocks_gain_increments_and_periods() {
        let tc: TimeControl = "2/10+1".parse().unwrap();
        let margin = Duration::from_millis(100);
        let mut clock = tc.new_clock();
        assert_eq!(
            clock.remaining,
            Duration::from_secs(11),
            "10 and the first increment"
        );
        assert_eq!(tc.moves_to_go(&clock), Some(2));
        assert!(tc.charge(&mut clock, Duration::from_secs(4), margin));
        assert_eq!(clock.remaining, Duration::from_secs(8));
        assert!(tc.charge(&mut clock, Duration::from_secs(4), margin));
        assert_eq!(
            clock.remaining,
            Duration::from_secs(15),
            "5 + 10 for the next period"
        );
        assert!(
            !tc.charge(&mut clock, Duration::from_secs(16), margin),
            "over the clock"
        );
        let mut clock = tc.new_clock();
        assert!(
            tc.charge(&mut clock, Duration::from_millis(11_050), margin),
            "within the margin"
        );
    }

    /// What cutechess-cli 1.5.1 and fastchess 1.8.2 sent, logged from the engine's input, for
    /// `-engine ... tc=10+0.1 -engine ... tc=40/5+0.05`: each side's own time and increment,
    /// and `movestogo` of the mover's own period only.
    #[test]
    fn each_side_has_its_own_clock_in_go() {
        let white: TimeControl = "10+0.1".parse().unwrap();
        let black: TimeControl = "40/5+0.05".parse().unwrap();
        let clocks = [white.new_clock(), black.new_clock()];
        assert_eq!(
            white.uci_go(&black, &clocks, Color::White),
            "go wtime 10100 btime 5050 winc 100 binc 50"
        );
        assert_eq!(
            black.uci_go(&white, &clocks, Color::Black),
            "go wtime 10100 btime 5050 winc 100 binc 50 movestogo 40"
        );
        // fastchess leaves out the time of an opponent without a clock.
        let depth: TimeControl = "depth=8".parse().unwrap();
        let clocks = [white.new_clock(), depth.new_clock()];
        assert_eq!(
            white.uci_go(&depth, &clocks, Color::White),
            "go wtime 10100 winc 100"
        );
        assert_eq!(depth.uci_go(&white, &clocks, Color::Black), "go depth 8");
        let same = [white.new_clock(), white.new_clock()];
        assert_eq!(
            white.uci_go(&white, &same, Color::Black),
            "go wtime 10100 btime 10100 winc 100 binc 100"
        );
    }
}
