//! An engine that speaks xboard (CECP version 2, H. G. Muller's specification), driven over the
//! same [`EngineProcess`] as a UCI engine (the UCI exchange is `client/uci`): the runner asks
//! both the same things through `client/protocol.rs`, so its game loop does not change. What the
//! session keeps between requests is in `client/session.rs`.
//!
//! - Start: `xboard`, `protover 2`, then the engine's `feature` lines, each answered
//!   `accepted NAME` or `rejected NAME` (the features the runner knows are accepted, others
//!   rejected, as cutechess-cli does). The runner waits for `done=1` for 2 seconds, or for an
//!   hour once the engine sent `done=0`, as the specification says; an engine that sends no
//!   `done=1` is taken as it is when the 2 seconds are up (a protocol 1 engine). The
//!   configured options go as `option NAME=VALUE` when the engine declared them.
//! - Each game: `new`, `variant fischerandom` for Chess960 (refused when the engine does not
//!   list it in `variants`), `force`, the time control (`level MPS BASE INC`, `st`, `sd`, or
//!   `st 1` with `nps N` for a node limit), `post`, `easy`, then `ping N` and `pong N` when the
//!   engine has `ping=1`.
//! - Each move: the engine is told the position it lacks (`setboard FEN`, or `edit` for an
//!   engine without `setboard`, and the moves since, in force mode), then `time` and `otim`
//!   under a clock (under a fixed time per move, that time for both), then `go`, or, when it is playing and only the opponent's move is new,
//!   that move (it then thinks). Moves go as `usermove X` when negotiated, in SAN when the
//!   engine asked for `san=1`, else in coordinates (castling as `O-O`/`O-O-O` in Chess960).
//! - What the engine answers: `move X` (coordinates or SAN) or a claim, handled as
//!   cutechess-cli handles it ([`Answer`]): `resign`, or a result claim that gives the game to
//!   the opponent, resigns; a claim of its own win, of no result, or `Illegal move` about a
//!   move the runner sent, loses (our rules say what the position is); a draw claim holds only
//!   when the move it plays with it draws by the rules. `offer draw`, `tellusererror` and the
//!   rest are left in the engine's log.
//! - At the end: `force` and `result RESULT {REASON}` to each engine of the game; `quit` when
//!   the engine stops. An engine with `reuse=0` is restarted for each game.

mod lines;
mod negotiation;

use super::info::MoveInfo;
use super::process::{Dialect, EngineError, EngineProcess};
use super::session::{Known, XboardSession};
use super::time_control::{Pace, TimeControl};
use super::turn::{Answer, Claim, Turn};
use crate::game::Game;
use crate::notation::uci::format_move;
use crate::notation::xboard::parse_xboard_move;
use crate::{CastlingMode, Color, Position, Square};
pub use lines::{declared_option, game_line, thinking, Claimed, GameLine};
pub use negotiation::{FEATURE_WAIT, FEATURE_WAIT_SPEAKING};
use std::time::{Duration, Instant};

/// How long an engine without `ping` may take to finish what it says of a game that ended
/// (cutechess-cli's 200 ms).
const STALE_OUTPUT_QUIET: Duration = Duration::from_millis(200);

/// `st` for a search without a limit (cutechess-cli's day).
const NO_LIMIT_SECONDS: u64 = 86_400;

/// xboard's BASE of `level`: minutes, or minutes:seconds (whole seconds, as cutechess-cli
/// writes it; the clock itself goes with every `time`).
fn level_base(base: Duration) -> String {
    let seconds = base.as_secs();
    match seconds % 60 {
        0 => format!("{}", seconds / 60),
        s => format!("{}:{s:02}", seconds / 60),
    }
}

/// Seconds as `level`'s INC takes them: whole when whole, else with decimals.
fn seconds_text(time: Duration) -> String {
    format!("{}", time.as_secs_f64())
}

impl EngineProcess {
    fn session(&mut self) -> &mut XboardSession {
        self.xboard.as_mut().expect("an xboard engine")
    }

    /// `option NAME=VALUE` (a check sent as 1 or 0, a button pressed as `option NAME`).
    pub(super) fn set_xboard_option(&mut self, name: &str, value: &str) {
        use super::option::OptionKind;
        let kind = self
            .declared
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
            .map(|o| o.kind.clone());
        let line = match (kind, value) {
            (Some(OptionKind::Button), _) => format!("option {name}"),
            (Some(OptionKind::Check), "true") => format!("option {name}=1"),
            (Some(OptionKind::Check), "false") => format!("option {name}=0"),
            _ => format!("option {name}={value}"),
        };
        self.send(&line);
    }

    /// `ping N`, then wait for `pong N` (an engine without `ping=1` cannot be asked: it is
    /// taken as ready, as cutechess-cli takes it).
    pub(super) fn ping_xboard(&mut self, timeout: Duration) -> Result<(), EngineError> {
        let session = self.session();
        if !session.ping {
            return Ok(());
        }
        session.last_ping += 1;
        let number = session.last_ping;
        let pong = format!("pong {number}");
        self.send(&format!("ping {number}"));
        self.wait_for(&pong, timeout, |line| line.trim() == pong)
            .map(|_| ())
    }

    /// True when the engine may play another game in this process (not an xboard engine that
    /// asked for `reuse=0` and has played one).
    pub fn reusable(&self) -> bool {
        self.xboard
            .as_ref()
            .is_none_or(|session| session.reuse || session.games == 0)
    }

    /// [`EngineProcess::new_game`] for an xboard engine: `new`, the variant, `force`, the time
    /// control, `post`, `easy` (`hard` when it may ponder), then `ping`. An engine that cannot play the game (Chess960 not
    /// among its variants, a node limit without `nps`) is refused ([`EngineError::Unsupported`]).
    pub(super) fn new_game_xboard(
        &mut self,
        castling: CastlingMode,
        level: TimeControl,
        timeout: Duration,
    ) -> Result<(), EngineError> {
        let session = self.session();
        if castling == CastlingMode::Chess960 && !session.chess960() {
            return Err(EngineError::Unsupported(
                "Chess960: the engine's variants do not include fischerandom".into(),
            ));
        }
        if level.caps.nodes.is_some() && !session.nps {
            return Err(EngineError::Unsupported(
                "a node limit: the engine did not send feature nps=1".into(),
            ));
        }
        session.games += 1;
        session.level = Some(level);
        session.known = None;
        self.send("new");
        if castling == CastlingMode::Chess960 {
            self.send("variant fischerandom");
        }
        self.send("force");
        // The pace, then the caps, as cutechess-cli's `XboardEngine::startGame` sends them.
        match level.pace {
            Pace::Clock {
                moves,
                base,
                increment,
            } => self.send(&format!(
                "level {moves} {} {}",
                level_base(base),
                seconds_text(increment)
            )),
            // Whole seconds, as cutechess-cli sends them (`st 0` below a second): the
            // specification's `st` takes an integer; the time itself goes with every `time`.
            Pace::MoveTime(time) => self.send(&format!("st {}", time.as_secs())),
            Pace::Infinite if level.caps.is_none() => self.send(&format!("st {NO_LIMIT_SECONDS}")),
            Pace::Infinite => {}
        }
        if let Some(n) = level.caps.depth {
            self.send(&format!("sd {n}"));
        }
        if let Some(n) = level.caps.nodes {
            self.send("st 1");
            self.send(&format!("nps {n}"));
        }
        self.send("post");
        // Pondering as cutechess-cli's `ponder` asks: `hard` lets it think on our time.
        let ponder = self.session().ponder;
        self.send(if ponder { "hard" } else { "easy" });
        self.ping_xboard(timeout)
    }

    /// [`EngineProcess::think_then`] for an xboard engine: told what it lacks of the game, then
    /// its `move` or its claim read, as the module says.
    pub(super) fn think_xboard(
        &mut self,
        turn: &Turn<'_>,
        timeout: Duration,
        after_go: impl FnOnce(&mut EngineProcess),
    ) -> Result<Answer, EngineError> {
        let started = Instant::now();
        self.tell(turn);
        after_go(self);
        let position = turn.game.position().clone();
        let mut info = MoveInfo::default();
        let mut draw_claim = None;
        let mut claim = None;
        let answer = self.wait_for("move", timeout, |line| {
            if let Some(fields) = thinking(line) {
                info.absorb(&fields);
                return false;
            }
            let side = position.side_to_move();
            match game_line(line) {
                GameLine::Move(_) => true,
                GameLine::Result(Claimed::Draw) => {
                    // cutechess-cli: a draw claimed while thinking is about the next move.
                    draw_claim = Some(line.to_string());
                    false
                }
                GameLine::Result(claimed) => {
                    let theirs = match side {
                        Color::White => Claimed::BlackWins,
                        Color::Black => Claimed::WhiteWins,
                    };
                    claim = Some(match claimed == theirs {
                        true => Claim::Resign(line.to_string()),
                        false => Claim::False(line.to_string()),
                    });
                    true
                }
                GameLine::Resign => {
                    claim = Some(Claim::Resign(line.to_string()));
                    true
                }
                GameLine::Illegal => {
                    claim = Some(Claim::False(line.to_string()));
                    true
                }
                GameLine::Other => false,
            }
        });
        let answer = match (answer, &draw_claim) {
            // A draw claimed and no move in time: the claim is judged (cutechess-cli).
            (Err(EngineError::Timeout { .. }), Some(line)) => {
                claim = Some(Claim::False(line.clone()));
                Ok(line.clone())
            }
            (answer, _) => answer,
        };
        let xboard = Dialect {
            info: thinking,
            is_answer: |line| matches!(game_line(line), GameLine::Move(_)),
        };
        let mode = turn.mode;
        let (text, _) = self.finish_go(started, info, answer, xboard, |line| {
            match game_line(line) {
                GameLine::Move(text) => match parse_xboard_move(&position, &text).ok() {
                    Some(mv) => format_move(mv, mode),
                    None => text,
                },
                _ => String::new(),
            }
        })?;
        if let Some(claim) = claim {
            return Ok(Answer::Claim(claim));
        }
        if let Some(known) = self.session().known.as_mut() {
            known.plies = turn.game.moves().len() + 1;
            known.playing = true;
        }
        Ok(Answer::Move {
            text,
            draw_claim,
            ponder: None,
        })
    }

    /// Tell an xboard engine what it lacks of `turn`'s game, then start it thinking (`go`, or
    /// the opponent's move to an engine that plays); its answer is left unread.
    pub fn tell(&mut self, turn: &Turn<'_>) {
        let game = turn.game;
        let moves = game.moves();
        let session = self.session();
        let known = session
            .known
            .as_ref()
            .filter(|k| k.start == *game.start() && k.plies <= moves.len())
            .cloned();
        let clocks = match (session.time, turn.times_left(), session.level) {
            (true, Some((own, theirs)), _) => Some((own, theirs)),
            // A fixed time per move is each move's clock, for both sides (cutechess-cli's
            // `time` and `otim` under `st`): how an engine learns a time below a second.
            (
                true,
                None,
                Some(TimeControl {
                    pace: Pace::MoveTime(time),
                    ..
                }),
            ) => Some((time, time)),
            _ => None,
        };
        let time = |engine: &mut EngineProcess| {
            if let Some((own, theirs)) = clocks {
                engine.queue(&format!("time {}", own.as_millis() / 10));
                engine.queue(&format!("otim {}", theirs.as_millis() / 10));
            }
        };
        // The opponent's one move to an engine that plays: it answers it.
        if let Some(Known {
            plies,
            playing: true,
            ..
        }) = known
        {
            if plies + 1 == moves.len() {
                time(self);
                let before = || replay(game, plies);
                let text = self.session().move_text(before, moves[plies], turn.mode);
                self.send(&text);
                return;
            }
        }
        let mut from = match &known {
            Some(known) => {
                if known.playing {
                    self.queue("force");
                }
                known.plies
            }
            None => {
                self.set_up(game.start(), turn.mode);
                0
            }
        };
        let mut position = replay(game, from);
        while from < moves.len() {
            let text = self
                .session()
                .move_text(|| position.clone(), moves[from], turn.mode);
            self.queue(&text);
            position = position.play(moves[from]);
            from += 1;
        }
        self.session().known = Some(Known {
            start: game.start().clone(),
            plies: moves.len(),
            playing: false,
        });
        time(self);
        self.send("go");
    }

    /// Put `start` on the engine's board (it is in force mode at the standard start): nothing
    /// for the standard start of standard chess, `setboard FEN` when it has `setboard`, else
    /// `edit` (pieces only: edit mode carries no castling rights or en passant square beyond
    /// what the pieces imply).
    fn set_up(&mut self, start: &Position, mode: CastlingMode) {
        if *start == Position::startpos() && mode == CastlingMode::Standard {
            return;
        }
        if self.session().setboard {
            self.queue(&format!("setboard {}", start.fen()));
            return;
        }
        if start.side_to_move() == Color::Black {
            // cutechess-cli's way to give Black the move before `edit`: a move from the start.
            let dummy = match self.session().usermove {
                true => "usermove b2b3",
                false => "b2b3",
            };
            self.queue(dummy);
        }
        self.queue("edit");
        self.queue("#");
        for color in [Color::White, Color::Black] {
            if color == Color::Black {
                self.queue("c");
            }
            for square in Square::ALL {
                if let Some(piece) = start.piece_at(square).filter(|p| p.color == color) {
                    let letter = piece.kind.to_char().to_ascii_uppercase();
                    self.queue(&format!("{letter}{square}"));
                }
            }
        }
        self.queue(".");
    }

    /// Tell an xboard engine the game is over: `force`, then `result RESULT {REASON}`.
    pub(super) fn game_over_xboard(&mut self, result: &str, reason: &str) {
        self.session().known = None;
        self.send("force");
        self.send(&format!("result {result} {{{reason}}}"));
        // What the engine still says of this game (its own `0-1 {Black mates}` after its
        // mating move) must not be read in the next one: an engine with `ping` is pinged at the
        // next `new`, which skips it; one without is given 200 ms of quiet to say it, as
        // cutechess-cli gives it, and what it said is read now.
        if !self.session().ping {
            self.drain(STALE_OUTPUT_QUIET);
        }
    }
}

/// The position after the first `plies` moves of `game`.
fn replay(game: &Game, plies: usize) -> Position {
    let mut position = game.start().clone();
    for &mv in &game.moves()[..plies] {
        position = position.play(mv);
    }
    position
}
