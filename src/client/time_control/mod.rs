//! Time controls in Cute Chess's notation, the clocks the runner keeps with them, and UCI's `go`
//! for each (the xboard client tells an engine the same time control as `level`/`st`/`sd`).
//!
//! A time control is a pace ([`Pace`]: a clock, a fixed time per move, or none) and per-move
//! caps beside it ([`Caps`]: a node limit, a depth limit), as cutechess-cli's `tc=10+0.1
//! nodes=5000` and fastchess's `tc=10+0.1 depth=8` give them.
//!
//! The pace: `40/60+0.6` is 40 moves in 60 seconds plus 0.6 s per move (the time comes back
//! after each 40 moves); `10+0.1` is 10 s for the game plus 0.1 s per move; `inf` is no limit.
//! As in Cute Chess, the time of a period may also be written as minutes:seconds (`40/1:00+0.5`,
//! `2:30+1`). Beyond Cute Chess: `movetime=MS` (a fixed time per move). The caps: `nodes=N` and
//! `depth=N`, alone (limits sent with `go`, no clock) or after the pace, each after a comma:
//! `10+0.1,nodes=5000`, `movetime=100,depth=8`, `nodes=5000,depth=8`.

use crate::Color;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How long each side may think: a pace and the caps beside it. Saved (in a match's state) as
/// its notation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TimeControl {
    /// The clock, the time per move, or none.
    pub pace: Pace,
    /// The node and depth limits of every move, beside the pace.
    pub caps: Caps,
}

/// The time side of a [`TimeControl`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pace {
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
    /// No time limit (`go`, or cutechess-cli's `go infinite` without caps: [`GoOrder`]).
    Infinite,
}

/// Per-move limits sent with every `go`, beside the pace (`go ... nodes N`, `go ... depth N`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Caps {
    /// A node limit per move.
    pub nodes: Option<u64>,
    /// A depth limit per move, in plies.
    pub depth: Option<u32>,
}

impl Caps {
    /// No cap.
    pub const NONE: Caps = Caps {
        nodes: None,
        depth: None,
    };

    /// True when it caps nothing.
    pub fn is_none(&self) -> bool {
        *self == Caps::NONE
    }
}

/// How UCI's `go` is worded in the tool a run follows: where the caps stand beside a clock or a
/// time per move, and what a move without any limit is told (the engine reads the same limits
/// either way).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum GoOrder {
    /// After the time, `depth` before `nodes`: `go wtime 10100 btime 10100 winc 100 binc 100
    /// depth 8 nodes 5000`; a bare `go` for a move without any limit. Shannon's own form: a
    /// runner never sends `stop`, so `go infinite` would wait for ever on an engine that keeps
    /// to UCI, where a bare `go` lets it answer when it likes.
    #[default]
    CapsLast,
    /// The caps as [`GoOrder::CapsLast`], and `go infinite` for a move without any limit, as
    /// cutechess-cli 1.5.1 writes them (its `UciEngine::startThinking`; an engine that keeps to
    /// UCI then thinks until a `stop` that never comes, as under cutechess-cli).
    CapsLastInfinite,
    /// Before the time, `nodes` before `depth`: `go nodes 5000 depth 8 wtime 10100 ...`, as
    /// fastchess writes it (its `UciEngine::go`; it refuses an engine without any limit).
    CapsFirst,
}

/// Text that is not a time control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeControlError(pub String);

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a time control; use e.g. 40/60+0.6, 10+0.1, 1:30+1 (minutes:seconds), \
             inf, movetime=100, nodes=1 or depth=1, or a clock or movetime= with caps after \
             commas (10+0.1,nodes=5000,depth=8)",
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

impl FromStr for Pace {
    type Err = ();

    /// One pace: `inf`, `movetime=MS` or a clock.
    fn from_str(text: &str) -> Result<Pace, ()> {
        if text == "inf" || text == "infinite" {
            return Ok(Pace::Infinite);
        }
        if let Some(ms) = text.strip_prefix("movetime=") {
            return ms
                .parse()
                .map(|ms| Pace::MoveTime(Duration::from_millis(ms)))
                .map_err(|_| ());
        }
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => (moves.parse().map_err(|_| ())?, rest),
            None => (0, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, inc)) => (period(base), seconds(inc)),
            None => (period(rest), Some(Duration::ZERO)),
        };
        match (base, increment) {
            (Some(base), Some(increment)) if !base.is_zero() => Ok(Pace::Clock {
                moves,
                base,
                increment,
            }),
            _ => Err(()),
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// A pace and caps, each part after a comma, each at most once: `10+0.1,nodes=5000`.
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = || TimeControlError(text.to_string());
        let mut pace = None;
        let mut caps = Caps::NONE;
        for part in text.trim().split(',').map(str::trim) {
            if let Some(n) = part.strip_prefix("nodes=") {
                let n = n.parse().map_err(|_| error())?;
                if caps.nodes.replace(n).is_some() {
                    return Err(error());
                }
            } else if let Some(n) = part.strip_prefix("depth=") {
                let n = n.parse().map_err(|_| error())?;
                if caps.depth.replace(n).is_some() {
                    return Err(error());
                }
            } else if pace.replace(part.parse().map_err(|_| error())?).is_some() {
                return Err(error());
            }
        }
        match (pace, caps.is_none()) {
            (None, true) => Err(error()),
            (pace, _) => Ok(TimeControl {
                pace: pace.unwrap_or(Pace::Infinite),
                caps,
            }),
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
    /// No limit at all.
    pub const INFINITE: TimeControl = TimeControl {
        pace: Pace::Infinite,
        caps: Caps::NONE,
    };

    /// A clock: `moves` per period (0: the whole game), `base` per period, `increment` per move.
    pub fn clock(moves: u32, base: Duration, increment: Duration) -> TimeControl {
        TimeControl::of(Pace::Clock {
            moves,
            base,
            increment,
        })
    }

    /// A fixed time per move.
    pub fn move_time(time: Duration) -> TimeControl {
        TimeControl::of(Pace::MoveTime(time))
    }

    /// A node limit per move and no clock (`go nodes N`).
    pub fn nodes(nodes: u64) -> TimeControl {
        TimeControl {
            pace: Pace::Infinite,
            caps: Caps {
                nodes: Some(nodes),
                depth: None,
            },
        }
    }

    /// A depth limit per move and no clock (`go depth N`).
    pub fn depth(depth: u32) -> TimeControl {
        TimeControl {
            pace: Pace::Infinite,
            caps: Caps {
                nodes: None,
                depth: Some(depth),
            },
        }
    }

    /// `pace` without caps.
    pub fn of(pace: Pace) -> TimeControl {
        TimeControl {
            pace,
            caps: Caps::NONE,
        }
    }

    /// The same pace, with `caps`.
    pub fn with_caps(self, caps: Caps) -> TimeControl {
        TimeControl { caps, ..self }
    }

    /// The time control as the command line writes it, the form [`TimeControl::from_str`] reads
    /// back: `40/60+0.6`, `10+0.1`, `movetime=100`, `nodes=1`, `depth=3`, `inf`, and caps after
    /// a pace, `10+0.1,nodes=5000,depth=8`.
    pub fn notation(&self) -> String {
        let mut parts = Vec::new();
        match self.pace {
            Pace::Clock { .. } => parts.push(self.to_string()),
            Pace::MoveTime(d) => parts.push(format!("movetime={}", d.as_millis())),
            Pace::Infinite if self.caps.is_none() => parts.push("inf".to_string()),
            Pace::Infinite => {}
        }
        if let Some(n) = self.caps.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(n) = self.caps.depth {
            parts.push(format!("depth={n}"));
        }
        parts.join(",")
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag's form, of the pace alone (as both tools write it): `40/60+0.6`,
    /// `10+0.1`, `0.1/move`, `-` for none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pace {
            Pace::Clock {
                moves,
                base,
                increment,
            } => {
                if moves > 0 {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}", base.as_secs_f64())?;
                if !increment.is_zero() {
                    write!(f, "+{}", increment.as_secs_f64())?;
                }
                Ok(())
            }
            Pace::MoveTime(d) => write!(f, "{}/move", d.as_secs_f64()),
            Pace::Infinite => f.write_str("-"),
        }
    }
}

/// One side's clock under a [`Pace::Clock`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clock {
    /// Time left.
    pub remaining: Duration,
    /// Moves made by this side.
    pub moves_made: u32,
}

impl TimeControl {
    /// A fresh clock (meaningful for a clock's pace): the period's time and the first move's
    /// increment, as cutechess-cli and fastchess start theirs (`10+0.1` starts at 10.1 s, and
    /// the first `go` says `wtime 10100`).
    pub fn new_clock(&self) -> Clock {
        let remaining = match self.pace {
            Pace::Clock {
                base, increment, ..
            } => base + increment,
            _ => Duration::ZERO,
        };
        Clock {
            remaining,
            moves_made: 0,
        }
    }

    /// Moves left to the next time control, for `movestogo` (None in sudden death).
    pub fn moves_to_go(&self, clock: &Clock) -> Option<u32> {
        match self.pace {
            Pace::Clock { moves, .. } if moves > 0 => Some(moves - clock.moves_made % moves),
            _ => None,
        }
    }

    /// Charge `used` to `clock`; false when the clock fell below zero by more than `margin`
    /// (a loss on time). Adds the increment and, at the end of a period, the next period.
    pub fn charge(&self, clock: &mut Clock, used: Duration, margin: Duration) -> bool {
        match self.pace {
            Pace::Clock {
                moves,
                base,
                increment,
            } => {
                if used > clock.remaining + margin {
                    clock.remaining = Duration::ZERO;
                    return false;
                }
                clock.remaining = clock.remaining.saturating_sub(used) + increment;
                clock.moves_made += 1;
                if moves > 0 && clock.moves_made.is_multiple_of(moves) {
                    clock.remaining += base;
                }
                true
            }
            Pace::MoveTime(limit) => used <= limit + margin,
            Pace::Infinite => true,
        }
    }

    /// The longest the runner waits for `bestmove` before the engine loses (on time, or as
    /// hung when there is no clock).
    pub fn deadline(&self, clock: &Clock, margin: Duration, hang: Duration) -> Duration {
        match self.pace {
            Pace::Clock { .. } => clock.remaining + margin,
            Pace::MoveTime(limit) => limit + margin,
            Pace::Infinite => hang,
        }
    }
}

impl TimeControl {
    /// True when the engines play on a clock or a fixed time per move (a late answer is a loss
    /// on time rather than a hang), caps beside it or not.
    pub fn has_clock(&self) -> bool {
        !matches!(self.pace, Pace::Infinite)
    }

    /// The time the side to move has for its move: its clock, or the fixed time per move.
    pub fn time_left(&self, clock: &Clock) -> Duration {
        match self.pace {
            Pace::MoveTime(limit) => limit,
            _ => clock.remaining,
        }
    }

    /// UCI's `go` for `side` to move under this time control, with `clocks` (White's, Black's)
    /// and the opponent playing under `opponent` (the same time control, unless the match gives
    /// the engines different ones): `go wtime .. btime .. winc .. binc .. [movestogo ..]`,
    /// `go movetime ..`, or a bare `go` (`go infinite` in cutechess-cli's wording), with the caps
    /// (`depth`, `nodes`) where `order` puts them. Each side's time and increment are its own; an opponent without a clock has no
    /// time and increment in the line (as fastchess leaves them out), and `movestogo` counts
    /// the mover's own period.
    pub fn uci_go(
        &self,
        opponent: &TimeControl,
        clocks: &[Clock; 2],
        side: Color,
        order: GoOrder,
    ) -> String {
        let time = self.uci_time(opponent, clocks, side);
        if order == GoOrder::CapsLastInfinite && self.pace == Pace::Infinite && self.caps.is_none()
        {
            return "go infinite".to_string();
        }
        let caps = match order {
            GoOrder::CapsLast | GoOrder::CapsLastInfinite => [
                ("depth", self.caps.depth.map(u64::from)),
                ("nodes", self.caps.nodes),
            ],
            GoOrder::CapsFirst => [
                ("nodes", self.caps.nodes),
                ("depth", self.caps.depth.map(u64::from)),
            ],
        };
        let caps = caps
            .iter()
            .filter_map(|(key, n)| n.map(|n| format!(" {key} {n}")))
            .collect::<String>();
        match order {
            GoOrder::CapsLast | GoOrder::CapsLastInfinite => format!("go{time}{caps}"),
            GoOrder::CapsFirst => format!("go{caps}{time}"),
        }
    }

    /// The time words of `go` (each after a space): the clocks, or `movetime`, or none.
    fn uci_time(&self, opponent: &TimeControl, clocks: &[Clock; 2], side: Color) -> String {
        match self.pace {
            Pace::Clock { .. } => {
                let (white, black) = match side {
                    Color::White => (self, opponent),
                    Color::Black => (opponent, self),
                };
                let mut go = String::new();
                for (key, tc, clock) in [("wtime", white, &clocks[0]), ("btime", black, &clocks[1])]
                {
                    if let Pace::Clock { .. } = tc.pace {
                        go.push_str(&format!(" {key} {}", clock.remaining.as_millis()));
                    }
                }
                for (key, tc) in [("winc", white), ("binc", black)] {
                    if let Pace::Clock { increment, .. } = tc.pace {
                        go.push_str(&format!(" {key} {}", increment.as_millis()));
                    }
                }
                if let Some(n) = self.moves_to_go(&clocks[side.index()]) {
                    go.push_str(&format!(" movestogo {n}"));
                }
                go
            }
            Pace::MoveTime(limit) => format!(" movetime {}", limit.as_millis()),
            Pace::Infinite => String::new(),
        }
    }
}

#[cfg(test)]
mod tests;
