//! An engine that speaks xboard (CECP version 2, H. G. Muller's specification), driven by the
//! same [`EngineProcess`] as a UCI engine: the protocol lives in the process, the game loop
//! does not change.
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
use super::time_control::TimeControl;
use crate::game::Game;
use crate::notation::san::to_san;
use crate::notation::uci::format_move;
use crate::notation::xboard::parse_xboard_move;
use crate::{CastlingMode, Color, Move, MoveKind, Position, Square};
pub use lines::{declared_option, game_line, thinking, Claimed, GameLine};
pub use negotiation::{Feature, Negotiation, FEATURE_WAIT, FEATURE_WAIT_SPEAKING};
use std::time::{Duration, Instant};

/// How long an engine without `ping` may take to finish what it says of a game that ended
/// (cutechess-cli's 200 ms).
const STALE_OUTPUT_QUIET: Duration = Duration::from_millis(200);

/// `st` for a search without a limit (cutechess-cli's day).
const NO_LIMIT_SECONDS: u64 = 86_400;

/// One turn of an engine in a game: the game so far, and what either protocol is told.
#[derive(Debug, Clone, Copy)]
pub struct Turn<'a> {
    /// The game, the side to move being the engine's.
    pub game: &'a Game,
    /// How castling is written.
    pub mode: CastlingMode,
    /// The clocks under a clock time control: the engine's and its opponent's time left
    /// (xboard's `time` and `otim`).
    pub clocks: Option<(Duration, Duration)>,
    /// The UCI `position` command.
    pub uci_position: &'a str,
    /// The UCI `go` command.
    pub uci_go: &'a str,
}

/// A claim an xboard engine made instead of moving, its line as it wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// `resign`, or a result claim giving the game to its opponent.
    Resign(String),
    /// A result claim our rules do not bear out (its own win, no result, a draw the position
    /// or its move does not give), or `Illegal move` about a move the runner sent.
    False(String),
}

/// What an engine answered on its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Its move, in UCI coordinates when it names a legal move (else as the engine wrote it),
    /// and the draw it claimed with it (xboard: `1/2-1/2` while thinking), which holds only when
    /// the move draws by the rules.
    Move {
        /// The move.
        text: String,
        /// The draw claim's line, when it made one.
        draw_claim: Option<String>,
    },
    /// A claim instead of a move.
    Claim(Claim),
}

/// What the engine holds of the game in hand.
#[derive(Debug, Clone)]
struct Known {
    /// The game's start.
    start: Position,
    /// The plies it was told or played.
    plies: usize,
    /// True when it is not in force mode (it plays the side it last moved for).
    playing: bool,
}

/// The state of an xboard engine's session: the features it negotiated and what it knows of
/// the game.
#[derive(Debug, Clone, Default)]
pub struct XboardSession {
    ping: bool,
    setboard: bool,
    san: bool,
    usermove: bool,
    time: bool,
    reuse: bool,
    nps: bool,
    variants: Option<Vec<String>>,
    /// The last `ping` number sent.
    last_ping: u32,
    /// Games begun.
    games: u32,
    /// The time control of the game in hand.
    level: Option<TimeControl>,
    /// What the engine said at `protover 2`, and what the runner answered.
    negotiation: Negotiation,
    /// What the engine knows of the game in hand.
    known: Option<Known>,
}

impl XboardSession {
    fn new() -> XboardSession {
        // The specification's defaults.
        XboardSession {
            time: true,
            reuse: true,
            ..XboardSession::default()
        }
    }

    /// Take a feature: true when the runner accepts it.
    fn feature(&mut self, name: &str, value: &str) -> bool {
        let on = value == "1";
        match name {
            "ping" => self.ping = on,
            "setboard" => self.setboard = on,
            "san" => self.san = on,
            "usermove" => self.usermove = on,
            "time" => self.time = on,
            "reuse" => self.reuse = on,
            "nps" => self.nps = on,
            "variants" => {
                self.variants = Some(value.split(',').map(|v| v.trim().to_string()).collect())
            }
            // Understood, and nothing the runner does depends on them: it never interrupts a
            // search (sigint), stops an engine by `quit` then a kill (sigterm), names no
            // opponent, sends no `draw`, `analyze`, `playother`, `pause` or ICS commands.
            "myname" | "sigint" | "sigterm" | "draw" | "analyze" | "playother" | "colors"
            | "ics" | "name" | "pause" | "debug" | "memory" | "smp" | "egt" | "option" | "done" => {
            }
            _ => return false,
        }
        true
    }

    fn chess960(&self) -> bool {
        self.variants
            .as_ref()
            .is_some_and(|v| v.iter().any(|v| v == "fischerandom"))
    }

    /// The text of `mv`, played in the position `before` gives, for this engine: SAN when it
    /// asked for it, else coordinates (castling `O-O`/`O-O-O` in Chess960, as XBoard writes
    /// it).
    fn move_text(&self, before: impl FnOnce() -> Position, mv: Move, mode: CastlingMode) -> String {
        let text = if self.san {
            to_san(&before(), mv)
        } else if mode == CastlingMode::Chess960 && mv.kind() == MoveKind::Castling {
            let short = mv.to().file() > mv.from().file();
            if short { "O-O" } else { "O-O-O" }.to_string()
        } else {
            format_move(mv, mode)
        };
        match self.usermove {
            true => format!("usermove {text}"),
            false => text,
        }
    }
}

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

    /// Make the engine ready for a new game in `castling` mode at `level`: UCI `ucinewgame`
    /// then `isready`; xboard `new`, the variant, `force`, the time control, `post`, `easy`,
    /// then `ping`. An xboard engine that cannot play the game (Chess960 not among its
    /// variants, a node limit without `nps`) is refused ([`EngineError::Unsupported`]).
    pub fn new_game(
        &mut self,
        castling: CastlingMode,
        level: TimeControl,
        timeout: Duration,
    ) -> Result<(), EngineError> {
        if self.xboard.is_none() {
            self.send("ucinewgame");
            return self.ready(timeout);
        }
        let session = self.session();
        if castling == CastlingMode::Chess960 && !session.chess960() {
            return Err(EngineError::Unsupported(
                "Chess960: the engine's variants do not include fischerandom".into(),
            ));
        }
        if matches!(level, TimeControl::Nodes(_)) && !session.nps {
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
        match level {
            TimeControl::Clock {
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
            TimeControl::MoveTime(time) => self.send(&format!("st {}", time.as_secs())),
            TimeControl::Nodes(n) => {
                self.send("st 1");
                self.send(&format!("nps {n}"));
            }
            TimeControl::Depth(n) => self.send(&format!("sd {n}")),
            TimeControl::Infinite => self.send(&format!("st {NO_LIMIT_SECONDS}")),
        }
        self.send("post");
        self.send("easy");
        self.ping_xboard(timeout)
    }

    /// The engine's move for `turn`, or its claim: UCI `position` and `go`, then `bestmove`;
    /// xboard as the module says. What it said and the timing are kept for
    /// [`EngineProcess::last_go`] as for `go`.
    pub fn think(&mut self, turn: &Turn<'_>, timeout: Duration) -> Result<Answer, EngineError> {
        self.think_then(turn, timeout, |_| {})
    }

    /// [`EngineProcess::think`], doing `after_go` to the engine once it was told to think and
    /// before its answer is read (the audit sends `ping`s to a thinking engine).
    pub fn think_then(
        &mut self,
        turn: &Turn<'_>,
        timeout: Duration,
        after_go: impl FnOnce(&mut EngineProcess),
    ) -> Result<Answer, EngineError> {
        if self.xboard.is_none() {
            self.queue(turn.uci_position);
            return self
                .go_then(turn.uci_go, timeout, after_go)
                .map(|(text, _)| Answer::Move {
                    text,
                    draw_claim: None,
                });
        }
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
        Ok(Answer::Move { text, draw_claim })
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
        let clocks = match (session.time, turn.clocks, session.level) {
            (true, Some((own, theirs)), _) => Some((own, theirs)),
            // A fixed time per move is each move's clock, for both sides (cutechess-cli's
            // `time` and `otim` under `st`): how an engine learns a time below a second.
            (true, None, Some(TimeControl::MoveTime(time))) => Some((time, time)),
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

    /// Tell an xboard engine the game is over: `force`, then `result RESULT {REASON}`
    /// (nothing for a UCI engine).
    pub fn game_over(&mut self, result: &str, reason: &str) {
        if self.xboard.is_none() {
            return;
        }
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
