//! A game of a match: the game itself (a [`GameRecord`]), who played it, and what ended it when
//! the rules did not (a time forfeit, a crash, the ply limit, an interruption).

use super::dialect::Dialect;
use crate::client::EngineLog;
use crate::client::MoveInfo;
use crate::game::{DrawClaim, Ending, Finish, GameRecord, Outcome};
use crate::Color;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Whose fault a loss on time was, from what the runner measured of the move
/// ([`crate::client::MoveTiming`]) and what the engine said of its own search (its last `info
/// ... time`). Saved and reported by its stable names (`engine`, `harness`, `unknown`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "cause", rename_all = "kebab-case")]
pub enum TimeLossCause {
    /// The engine's own last `info time` was beyond the time it had left.
    Engine {
        /// Its last `info time`, in milliseconds.
        info_time_ms: u64,
        /// The time it had left (its clock, or the fixed time per move), in milliseconds.
        left_ms: u64,
    },
    /// The engine's `bestmove` was read from the pipe within its time (and margin), and only
    /// the runner's own delay (writing `go`, handling `bestmove`) took the move beyond it.
    Harness {
        /// The runner's delay on the move, in milliseconds.
        late_by_ms: u64,
    },
    /// Neither can be shown: the engine gave no `info time`, or one within its time while its
    /// `bestmove` came late (or never).
    Unknown {
        /// Its last `info time`, in milliseconds, when it gave one.
        info_time_ms: Option<u64>,
        /// The time it had left, in milliseconds.
        left_ms: u64,
    },
}

impl TimeLossCause {
    /// The cause of a loss on time on a move measured as `info` (its timing, its `info time`
    /// and the time charged), with `left` on the clock and `margin` allowed beyond it.
    pub fn of(info: &MoveInfo, left: Duration, margin: Duration) -> TimeLossCause {
        let ms = |d: Duration| d.as_millis() as u64;
        let timing = &info.timing;
        if let (Some(pipe), Some(delay)) = (timing.pipe(), timing.runner_delay()) {
            if pipe <= left + margin {
                return TimeLossCause::Harness {
                    late_by_ms: ms(delay),
                };
            }
        }
        match info.reported {
            Some(reported) if reported > left => TimeLossCause::Engine {
                info_time_ms: ms(reported),
                left_ms: ms(left),
            },
            reported => TimeLossCause::Unknown {
                info_time_ms: reported.map(ms),
                left_ms: ms(left),
            },
        }
    }

    /// Its stable name: `engine`, `harness` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            TimeLossCause::Engine { .. } => "engine",
            TimeLossCause::Harness { .. } => "harness",
            TimeLossCause::Unknown { .. } => "unknown",
        }
    }
}

/// Milliseconds with a thousands separator: `1,032`.
fn thousands(ms: u64) -> String {
    let digits = ms.to_string();
    let mut text = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(c);
    }
    text
}

impl fmt::Display for TimeLossCause {
    /// `engine overran (its own info time 1,032 ms of 1,000 left)`, `harness late by 41 ms
    /// (runner delay)`, `unknown (no info time)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeLossCause::Engine {
                info_time_ms,
                left_ms,
            } => write!(
                f,
                "engine overran (its own info time {} ms of {} left)",
                thousands(info_time_ms),
                thousands(left_ms)
            ),
            TimeLossCause::Harness { late_by_ms } => {
                write!(
                    f,
                    "harness late by {} ms (runner delay)",
                    thousands(late_by_ms)
                )
            }
            TimeLossCause::Unknown {
                info_time_ms: None, ..
            } => f.write_str("unknown (no info time)"),
            TimeLossCause::Unknown {
                info_time_ms: Some(info),
                left_ms,
            } => write!(
                f,
                "unknown (its own info time {} ms of {} left, but no bestmove in time)",
                thousands(info),
                thousands(left_ms)
            ),
        }
    }
}

/// What the failing engine said and was told before a forfeit, kept with the game: written to
/// `<pgn>.forensics/<game>.txt` by the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forensics {
    /// The side whose engine failed.
    pub side: Color,
    /// Its log.
    pub log: EngineLog,
    /// The file it was written to, once it was.
    pub file: Option<PathBuf>,
    /// Why it could not be written, when it could not.
    pub unwritten: Option<String>,
}

/// What ended a game of a match when the rules of chess did not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The optional ply limit adjudicated a draw.
    PlyLimit,
    /// The engines' scores adjudicated the game (the rule, in words).
    Adjudication(String),
    /// The Syzygy tables adjudicated the game (its outcome is theirs).
    Tablebase,
    /// `side` overran its clock (or its time per move), for this cause.
    TimeForfeit(Color, TimeLossCause),
    /// `side` sent a move that is not legal (the text it sent).
    IllegalMove(Color, String),
    /// `side`'s process ended during the game.
    Crash(Color),
    /// `side` stopped answering (no `bestmove` or `readyok` in time, no clock to lose on).
    Hang(Color),
    /// `side` could not be started or never completed the `uci` / `isready` handshake.
    StartFailure(Color, String),
    /// The match was interrupted (Ctrl-C, SIGTERM) before the game ended.
    Interrupted,
    /// `side`'s engine resigned (an xboard engine's `resign`, or its claim of its opponent's
    /// win).
    Resignation(Color),
    /// `side`'s engine made a claim our rules refute (an xboard engine's claim of its own win,
    /// of no result, of a draw its move does not give, or its `Illegal move` about a legal
    /// move): the line it wrote. The game is lost, as cutechess-cli scores it.
    FalseClaim(Color, String),
}

impl Termination {
    /// The standard PGN `Termination` tag value.
    pub fn pgn_tag(&self) -> &'static str {
        match self {
            Termination::PlyLimit | Termination::Adjudication(_) | Termination::Tablebase => {
                "adjudication"
            }
            Termination::TimeForfeit(..) => "time forfeit",
            Termination::IllegalMove(..) => "rules infraction",
            Termination::Crash(_) | Termination::Hang(_) | Termination::StartFailure(..) => {
                "abandoned"
            }
            Termination::Interrupted => "unterminated",
            Termination::Resignation(_) => "normal",
            Termination::FalseClaim(..) => "adjudication",
        }
    }

    /// What the result table counts it as.
    pub fn category(&self) -> EndCategory {
        match self {
            Termination::PlyLimit => EndCategory::PlyLimit,
            Termination::Adjudication(_) => EndCategory::Adjudication,
            Termination::Tablebase => EndCategory::Tablebase,
            Termination::TimeForfeit(..) => EndCategory::TimeForfeit,
            Termination::IllegalMove(..) => EndCategory::IllegalMove,
            Termination::Crash(_) => EndCategory::Crash,
            Termination::Hang(_) => EndCategory::Hang,
            Termination::StartFailure(..) => EndCategory::StartFailure,
            Termination::Interrupted => EndCategory::Interrupted,
            Termination::Resignation(_) => EndCategory::Resignation,
            Termination::FalseClaim(..) => EndCategory::FalseClaim,
        }
    }

    /// The side whose engine failed, when one did.
    pub fn side(&self) -> Option<Color> {
        match self {
            Termination::TimeForfeit(side, _)
            | Termination::IllegalMove(side, _)
            | Termination::Crash(side)
            | Termination::Hang(side)
            | Termination::StartFailure(side, _)
            | Termination::Resignation(side)
            | Termination::FalseClaim(side, _) => Some(*side),
            Termination::PlyLimit
            | Termination::Adjudication(_)
            | Termination::Tablebase
            | Termination::Interrupted => None,
        }
    }

    /// True when an engine failed (the game was lost for a reason other than chess).
    pub fn is_failure(&self) -> bool {
        !matches!(
            self,
            Termination::PlyLimit
                | Termination::Adjudication(_)
                | Termination::Tablebase
                | Termination::Interrupted
                | Termination::Resignation(_)
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::PlyLimit => f.write_str("draw adjudicated at the ply limit"),
            Termination::Adjudication(rule) => write!(f, "adjudicated: {rule}"),
            Termination::Tablebase => f.write_str("adjudicated by the Syzygy tables"),
            Termination::TimeForfeit(side, cause) => write!(f, "{side} lost on time: {cause}"),
            Termination::IllegalMove(side, text) => {
                write!(f, "{side} played an illegal move: '{text}'")
            }
            Termination::Crash(side) => write!(f, "{side}'s engine exited during the game"),
            Termination::Hang(side) => write!(f, "{side}'s engine stopped answering"),
            Termination::StartFailure(side, why) => {
                write!(f, "{side}'s engine failed to start: {why}")
            }
            Termination::Interrupted => {
                f.write_str("unfinished: the match was interrupted during this game")
            }
            Termination::Resignation(side) => write!(f, "{side} resigned"),
            Termination::FalseClaim(side, line) => {
                write!(f, "{side} made a false claim: '{line}'")
            }
        }
    }
}

/// How games ended, as the result table counts them: the rule of chess (a mate whoever gave
/// it) or what else ended the game. Saved by its stable name (`fifty-move-rule`), shown by its
/// words (`50-move rule`), which may change without splitting the counts of saved states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndCategory {
    /// Checkmate, either side.
    Checkmate,
    /// Stalemate.
    Stalemate,
    /// Fivefold repetition.
    FivefoldRepetition,
    /// The 75-move rule.
    SeventyFiveMoveRule,
    /// Insufficient material.
    InsufficientMaterial,
    /// Threefold repetition, claimed.
    ThreefoldRepetition,
    /// The 50-move rule, claimed.
    FiftyMoveRule,
    /// An engine resigned.
    Resignation,
    /// The ply limit.
    PlyLimit,
    /// Adjudicated from the engines' scores.
    Adjudication,
    /// Adjudicated by the Syzygy tables.
    Tablebase,
    /// Lost on time.
    TimeForfeit,
    /// An illegal move.
    IllegalMove,
    /// An engine made a claim the rules refute.
    FalseClaim,
    /// An engine exited.
    Crash,
    /// An engine stopped answering.
    Hang,
    /// An engine did not start.
    StartFailure,
    /// The match was interrupted.
    Interrupted,
    /// No rule and no termination recorded.
    Unknown,
}

impl EndCategory {
    /// Every category.
    pub const ALL: [EndCategory; 19] = [
        EndCategory::Checkmate,
        EndCategory::Stalemate,
        EndCategory::FivefoldRepetition,
        EndCategory::SeventyFiveMoveRule,
        EndCategory::InsufficientMaterial,
        EndCategory::ThreefoldRepetition,
        EndCategory::FiftyMoveRule,
        EndCategory::Resignation,
        EndCategory::PlyLimit,
        EndCategory::Adjudication,
        EndCategory::Tablebase,
        EndCategory::TimeForfeit,
        EndCategory::IllegalMove,
        EndCategory::FalseClaim,
        EndCategory::Crash,
        EndCategory::Hang,
        EndCategory::StartFailure,
        EndCategory::Interrupted,
        EndCategory::Unknown,
    ];

    /// The category of a game the rules ended.
    pub fn of(finish: Finish) -> EndCategory {
        match finish {
            Finish::Rule(Ending::Checkmate { .. }) => EndCategory::Checkmate,
            Finish::Rule(Ending::Stalemate) => EndCategory::Stalemate,
            Finish::Rule(Ending::FivefoldRepetition) => EndCategory::FivefoldRepetition,
            Finish::Rule(Ending::SeventyFiveMoveRule) => EndCategory::SeventyFiveMoveRule,
            Finish::Rule(Ending::InsufficientMaterial) => EndCategory::InsufficientMaterial,
            Finish::Claim(DrawClaim::ThreefoldRepetition) => EndCategory::ThreefoldRepetition,
            Finish::Claim(DrawClaim::FiftyMoveRule) => EndCategory::FiftyMoveRule,
        }
    }

    /// The words the result table shows.
    pub fn words(self) -> &'static str {
        match self {
            EndCategory::Checkmate => "checkmate",
            EndCategory::Stalemate => "stalemate",
            EndCategory::FivefoldRepetition => "fivefold repetition",
            EndCategory::SeventyFiveMoveRule => "75-move rule",
            EndCategory::InsufficientMaterial => "insufficient material",
            EndCategory::ThreefoldRepetition => "threefold repetition",
            EndCategory::FiftyMoveRule => "50-move rule",
            EndCategory::PlyLimit => "ply limit",
            EndCategory::Adjudication => "adjudication",
            EndCategory::Tablebase => "tablebase",
            EndCategory::TimeForfeit => "time forfeit",
            EndCategory::IllegalMove => "illegal move",
            EndCategory::Crash => "crash",
            EndCategory::Hang => "hang",
            EndCategory::StartFailure => "start failure",
            EndCategory::Interrupted => "interrupted",
            EndCategory::Unknown => "unknown",
            EndCategory::Resignation => "resignation",
            EndCategory::FalseClaim => "false claim",
        }
    }

    /// The category whose words state files of format 1 used as its key (they were the words
    /// shown then, which [`EndCategory::words`] still gives).
    pub fn from_format_1(key: &str) -> Option<EndCategory> {
        EndCategory::ALL.into_iter().find(|c| c.words() == key)
    }
}

impl fmt::Display for EndCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// A game of the match: finished, or cut short by an interruption.
#[derive(Debug, Clone)]
pub struct MatchGame {
    /// Its number in the schedule, from 1 (the PGN's `Round` tag, as cutechess-cli writes it).
    pub number: u32,
    /// White's engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// The game: start, moves (opening moves included), outcome, and the rule that ended it.
    pub record: GameRecord,
    /// What ended it when the rules did not (`None`: `record.finish` says which rule did).
    pub termination: Option<Termination>,
    /// What the engine said about each move the engines played, by ply (from 1); the opening's
    /// moves and the engines' own book moves are marked as book moves.
    pub infos: Vec<(usize, MoveInfo)>,
    /// The failing engine's last words, when one crashed, hung, lost on time, moved illegally
    /// or could not be started or made ready for the game.
    pub forensics: Option<Forensics>,
}

impl MatchGame {
    /// The standard PGN `Termination` tag value.
    pub fn pgn_termination(&self) -> &'static str {
        self.termination
            .as_ref()
            .map_or("normal", Termination::pgn_tag)
    }

    /// The PGN `Termination` tag as a run in `dialect`'s form writes it (`None`: Shannon's own
    /// form, [`MatchGame::pgn_termination`]), or no tag. cutechess-cli (`PgnGame::setResult`)
    /// writes none for a game the rules or a resignation ended, `illegal move` and `stalled
    /// connection`; fastchess (`PgnBuilder::convertMatchTermination`) writes `normal`, `illegal
    /// move` and `abandoned` for an engine that stopped answering.
    pub fn pgn_termination_in(&self, dialect: Option<Dialect>) -> Option<&'static str> {
        let Some(dialect) = dialect else {
            return Some(self.pgn_termination());
        };
        Some(match (&self.termination, dialect) {
            (None | Some(Termination::Resignation(_)), Dialect::Cutechess) => return None,
            (None | Some(Termination::Resignation(_)), Dialect::Fastchess) => "normal",
            (Some(Termination::IllegalMove(..)), _) => "illegal move",
            (Some(Termination::Hang(_)), Dialect::Cutechess) => "stalled connection",
            (Some(termination), _) => termination.pgn_tag(),
        })
    }

    /// What the result table counts it as.
    pub fn category(&self) -> EndCategory {
        match (&self.termination, self.record.finish) {
            (Some(termination), _) => termination.category(),
            (None, Some(finish)) => EndCategory::of(finish),
            (None, None) => EndCategory::Unknown,
        }
    }

    /// True when an engine failed (the game was lost for a reason other than chess).
    pub fn is_failure(&self) -> bool {
        self.termination
            .as_ref()
            .is_some_and(Termination::is_failure)
    }

    /// The cause of its loss on time, when it was lost on time.
    pub fn time_loss(&self) -> Option<TimeLossCause> {
        match self.termination {
            Some(Termination::TimeForfeit(_, cause)) => Some(cause),
            _ => None,
        }
    }

    /// True when the game has a result (it was not cut short by an interruption).
    pub fn is_finished(&self) -> bool {
        self.record.outcome != Outcome::Unfinished
    }

    /// How the game ended, in words: the rule (`checkmate, white wins`, `draw by threefold
    /// repetition`) or the termination.
    pub fn describe(&self) -> String {
        match (&self.termination, self.record.finish) {
            (Some(termination), _) => match &self.forensics {
                Some(Forensics {
                    file: Some(file), ..
                }) => format!("{termination}; forensics in {}", file.display()),
                Some(Forensics {
                    unwritten: Some(why),
                    ..
                }) => format!("{termination}; forensics not written: {why}"),
                _ => termination.to_string(),
            },
            (None, Some(Finish::Rule(ending))) => ending.to_string(),
            (None, Some(Finish::Claim(claim))) => format!("draw by {claim}"),
            (None, None) => "unknown".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::MoveTiming;
    use std::time::Instant;

    /// A move measured so: `go` sent at 0, written at `written`, `bestmove` read at `read` and
    /// handled at `handled` (milliseconds), the engine's last `info time` `reported`.
    fn measured(written: u64, read: Option<u64>, handled: u64, reported: Option<u64>) -> MoveInfo {
        let zero = Instant::now();
        let at = |ms: u64| zero + Duration::from_millis(ms);
        MoveInfo {
            time: Duration::from_millis(handled),
            reported: reported.map(Duration::from_millis),
            timing: MoveTiming {
                go_sent: Some(zero),
                go_written: Some(at(written)),
                bestmove_read: read.map(at),
                bestmove_handled: Some(at(handled)),
                before_go: None,
            },
            ..MoveInfo::default()
        }
    }

    #[test]
    fn a_time_loss_is_blamed_on_whoever_took_the_time() {
        let (left, margin) = (Duration::from_millis(1000), Duration::from_millis(100));
        let cause = |info: MoveInfo| TimeLossCause::of(&info, left, margin);
        // The bestmove was on the pipe in time; the runner handled it 150 ms late.
        assert_eq!(
            cause(measured(1, Some(1000), 1150, Some(990))),
            TimeLossCause::Harness { late_by_ms: 151 }
        );
        // The engine says it searched beyond its time (answered late, or not at all).
        let engine = TimeLossCause::Engine {
            info_time_ms: 1032,
            left_ms: 1000,
        };
        assert_eq!(cause(measured(1, Some(1300), 1301, Some(1032))), engine);
        assert_eq!(cause(measured(1, None, 1101, Some(1032))), engine);
        // No word from the engine on its time, or one within it while bestmove came late.
        assert_eq!(
            cause(measured(1, None, 1101, None)).to_string(),
            "unknown (no info time)"
        );
        assert_eq!(
            cause(measured(1, Some(1200), 1201, Some(990))),
            TimeLossCause::Unknown {
                info_time_ms: Some(990),
                left_ms: 1000
            }
        );
    }

    #[test]
    fn causes_are_told_as_the_issue_words_them() {
        let engine = TimeLossCause::Engine {
            info_time_ms: 1032,
            left_ms: 1000,
        };
        assert_eq!(
            engine.to_string(),
            "engine overran (its own info time 1,032 ms of 1,000 left)"
        );
        let harness = TimeLossCause::Harness { late_by_ms: 41 };
        assert_eq!(harness.to_string(), "harness late by 41 ms (runner delay)");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
        // Stable names in states and JSON.
        assert_eq!(
            serde_json::to_string(&harness).unwrap(),
            r#"{"cause":"harness","late_by_ms":41}"#
        );
    }
}
