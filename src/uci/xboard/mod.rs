//! The engine as an xboard engine: when the first command `shannon` reads is `xboard`, it speaks
//! the Chess Engine Communication Protocol, version 2 (Tim Mann and H. G. Muller's
//! specification), with the same game record, the same random choice and the same `Seed` rule as
//! under UCI: the same seed and the same game give the same move in either protocol.
//!
//! What it declares at `protover 2` and does:
//! - `ping`, `setboard`, `playother`, `usermove` (moves arrive as `usermove e2e4`; bare moves are
//!   read too), coordinate notation (`san=0`; SAN and `O-O` are still understood when sent),
//!   `variants="normal,fischerandom"` (castling written `O-O`/`O-O-O` in Chess960, as XBoard
//!   expects, `e1g1` in normal chess), `colors=0`, `analyze=0`, `sigint=0` (SIGINT would end it), `sigterm=1`,
//!   `reuse=1`, `nps=1`, `debug=1` (`#` lines, sent only when accepted), and the options `Seed`,
//!   `Move Generator` and `Debug Log File` (`option NAME=VALUE`);
//! - clocks and limits (`level`, `st`, `sd`, `nps`, `time`, `otim`) are accepted and need nothing:
//!   it moves at once;
//! - an illegal or unreadable move is answered `Illegal move (REASON): MOVE` and changes
//!   nothing; an unknown command `Error (unknown command): ...`; a refused `setboard`
//!   `tellusererror Illegal position`, and every move after it is illegal until `new` or a good
//!   `setboard`;
//! - claims, only while it plays (never in force mode): when the game has ended by rule on its
//!   move or the opponent's it says so (`1-0 {White mates}`, `1/2-1/2 {Stalemate}`,
//!   `1/2-1/2 {Insufficient material}`, ...); when a draw by threefold repetition or the 50-move
//!   rule can be claimed on its turn it claims it instead of moving; when its own move makes such
//!   a draw claimable it sends `offer draw` before the move, as the specification asks.

mod command;
#[cfg(test)]
mod tests;

use super::event::Event;
use super::history::History;
use super::options::{ApplyError, OptionName, Options, MAX_SEED};
use super::output::Output;
use super::random::choose_index;
use crate::game::{DrawClaim, Ending, Status};
use crate::movegen::{Generator, MoveList};
use crate::notation::uci::format_move;
use crate::notation::xboard::parse_xboard_move;
use crate::{CastlingMode, Color, Move, MoveKind, Position};
use command::{parse_line, Command};
use std::sync::mpsc::Receiver;

/// Speak xboard on `events` (the `xboard` line already read) until `quit` or the end of input.
pub(crate) fn run(events: &Receiver<Event>, out: Output<'_>) {
    let mut engine = XboardEngine::new(out);
    for event in events.iter() {
        let Event::Line(line) = event else {
            break; // The end of input (no count runs under xboard).
        };
        if !engine.handle(&line) || engine.out.is_closed() {
            break;
        }
    }
}

/// The engine between commands.
pub(crate) struct XboardEngine<'w> {
    out: Output<'w>,
    history: History,
    options: Options,
    /// Playing neither side.
    force: bool,
    /// `post`: thinking output before each move.
    post: bool,
    /// The GUI accepted `debug`: `#` lines may be sent.
    debug: bool,
    /// Why the last `setboard` was refused, while no `new` or good `setboard` has followed.
    bad_position: Option<String>,
}

impl<'w> XboardEngine<'w> {
    /// A fresh engine: the start position, playing Black as after `new`.
    pub(crate) fn new(out: Output<'w>) -> XboardEngine<'w> {
        XboardEngine {
            out,
            history: History::default(),
            options: Options::default(),
            force: false,
            post: false,
            debug: false,
            bad_position: None,
        }
    }

    /// Carry out one line; false after `quit`.
    pub(crate) fn handle(&mut self, line: &str) -> bool {
        self.out.record_input(line);
        let Some(command) = parse_line(line) else {
            return true;
        };
        match command {
            Command::Xboard | Command::Result => {
                // After a result the engine stops playing until `new` or `go`.
                if command == Command::Result {
                    self.force = true;
                }
            }
            Command::Protover => self.features(),
            Command::Accepted(feature) => {
                if feature == "debug" {
                    self.debug = true;
                }
            }
            Command::Rejected(feature) => {
                log::info!("xboard: the GUI rejected feature {feature}");
                if feature == "debug" {
                    self.debug = false;
                }
            }
            Command::New => {
                self.history = History::default();
                self.options.castling = CastlingMode::Standard;
                self.force = false;
                self.bad_position = None;
            }
            Command::Variant(name) => self.variant(&name),
            Command::Force => self.force = true,
            Command::Go | Command::PlayOther => {
                self.force = false;
                if command == Command::Go {
                    self.think();
                }
            }
            Command::Move(text) => self.user_move(&text),
            Command::MoveNow => {}
            Command::Ping(n) => self.send(format!("pong {n}").trim()),
            Command::SetBoard(fen) => self.set_board(&fen),
            Command::Undo => self.take_back(1, "undo"),
            Command::Remove => self.take_back(2, "remove"),
            Command::Post => self.post = true,
            Command::NoPost => self.post = false,
            Command::Option { name, value } => self.option(&name, value.as_deref()),
            Command::Ignored(name) => {
                log::debug!("xboard: {name} needs nothing from a random mover")
            }
            Command::Quit => return false,
            Command::Malformed { command, reason } => {
                self.send(&format!("Error ({reason}): {}", line.trim()));
                log::info!("xboard: malformed {command}");
            }
            Command::Unknown => self.send(&format!("Error (unknown command): {}", line.trim())),
        }
        true
    }

    /// The reply to `protover`: every feature, the options, `done=1` last.
    fn features(&mut self) {
        let name = format!("Shannon {}", env!("CARGO_PKG_VERSION"));
        self.send(&format!(
            "feature ping=1 setboard=1 playother=1 usermove=1 san=0 time=1 draw=1 sigint=0 \
             sigterm=1 reuse=1 analyze=0 colors=0 nps=1 name=0 debug=1 myname=\"{name}\" \
             variants=\"normal,fischerandom\""
        ));
        let defaults = Options::default();
        self.send(&format!(
            "feature option=\"Seed -spin {} 0 {MAX_SEED}\"",
            defaults.seed
        ));
        let generators: Vec<String> = [Generator::Bitboard, Generator::Mailbox0x88]
            .iter()
            .map(|g| {
                let star = if *g == defaults.generator { "*" } else { "" };
                format!("{star}{}", g.name())
            })
            .collect();
        self.send(&format!(
            "feature option=\"Move Generator -combo {}\"",
            generators.join(" /// ")
        ));
        self.send("feature option=\"Debug Log File -file \"");
        self.send("feature done=1");
    }

    fn variant(&mut self, name: &str) {
        match name {
            "normal" => self.options.castling = CastlingMode::Standard,
            "fischerandom" => self.options.castling = CastlingMode::Chess960,
            _ => self.send(&format!("Error (unsupported variant): variant {name}")),
        }
    }

    fn option(&mut self, name: &str, value: Option<&str>) {
        let declared = [
            OptionName::Seed,
            OptionName::MoveGenerator,
            OptionName::DebugLogFile,
        ];
        let known = OptionName::find(name).filter(|o| declared.contains(o));
        if known.is_none() {
            self.send(&format!("Error (unknown option): option {name}"));
            return;
        }
        match self.options.apply(name, value, &mut self.out) {
            Ok(OptionName::DebugLogFile) => {}
            Ok(option) => log::debug!("xboard: option {} set", option.as_str()),
            Err(ApplyError::LogFile { path, error }) => self.send(&format!(
                "Error (cannot open '{path}': {error}): option {name}={}",
                value.unwrap_or("")
            )),
            Err(ApplyError::Refused(e)) => self.send(&format!(
                "Error ({e}): option {name}={}",
                value.unwrap_or("")
            )),
        }
    }

    fn set_board(&mut self, fen: &str) {
        match Position::from_fen_lenient(fen) {
            Ok((position, warnings)) => {
                for warning in warnings {
                    self.debug_line(&format!("setboard: {warning}"));
                }
                self.history = History::new(position);
                self.bad_position = None;
            }
            Err(e) => {
                log::info!("xboard: setboard refused: {e}");
                self.bad_position = Some(e.to_string());
                self.send("tellusererror Illegal position");
            }
        }
    }

    fn take_back(&mut self, plies: usize, command: &str) {
        if self.bad_position.is_some() || !self.history.take_back(plies) {
            self.send(&format!("Error (command not legal now): {command}"));
        }
    }

    /// A move from the GUI: played if legal, then answered when the engine plays the side now
    /// to move.
    fn user_move(&mut self, text: &str) {
        if let Some(reason) = &self.bad_position {
            let reason = format!("no position: {reason}");
            self.send(&format!("Illegal move ({reason}): {text}"));
            return;
        }
        match parse_xboard_move(self.history.game().position(), text) {
            Ok(mv) => {
                self.history.push(mv);
                if !self.force {
                    self.think();
                }
            }
            Err(error) => self.send(&format!("Illegal move ({error}): {text}")),
        }
    }

    /// The engine's turn: claim the game's end, or a draw, or move.
    fn think(&mut self) {
        if self.bad_position.is_some() {
            self.send("Error (command not legal now): go (no position: send setboard or new)");
            self.force = true;
            return;
        }
        let mut legal = MoveList::new();
        let position = self.history.game().position().clone();
        self.options.generator.legal_moves(&position, &mut legal);
        if let Some(claim) = claim_text(self.history.game().status_with(legal.len())) {
            self.send(&claim);
            return;
        }
        let mut candidates = legal.to_vec();
        candidates.sort_unstable_by_key(|mv| mv.to_bits());
        let game_hash = self.history.game_hash();
        let (index, seed) = choose_index(self.options.seed, game_hash, candidates.len());
        let mv = candidates[index];
        let text = write_move(mv, self.options.castling);
        let seed_text = seed.map_or("none".to_string(), |s| s.to_string());
        log::info!(
            "xboard: seed {seed_text}, game hash {game_hash:016x}: move {} of {}",
            index + 1,
            candidates.len()
        );
        if self.options.seed == 0 {
            self.debug_line(&format!("seed {seed_text}"));
        }
        if self.post {
            // ply score time nodes pv: one ply, an even score, no time, the moves looked at.
            self.send(&format!("1 0 0 {} {text}", candidates.len()));
        }
        self.history.push(mv);
        let after = self.history.game().status();
        if let Status::Claimable(claim) = after {
            log::info!("xboard: {claim} claimable after {text}");
            self.send("offer draw");
        }
        self.send(&format!("move {text}"));
        if let (Status::Over(_), Some(claim)) = (after, claim_text(after)) {
            self.send(&claim);
        }
    }

    fn debug_line(&mut self, text: &str) {
        if self.debug {
            self.send(&format!("# {text}"));
        }
    }

    fn send(&mut self, line: &str) {
        self.out.send(line);
    }
}

/// The line claiming the game's end by `status`, or `None` while the game goes on
/// without a claim.
fn claim_text(status: Status) -> Option<String> {
    Some(match status {
        Status::Ongoing => return None,
        Status::Over(Ending::Checkmate {
            winner: Color::White,
        }) => "1-0 {White mates}".to_string(),
        Status::Over(Ending::Checkmate {
            winner: Color::Black,
        }) => "0-1 {Black mates}".to_string(),
        Status::Over(Ending::Stalemate) => "1/2-1/2 {Stalemate}".to_string(),
        Status::Over(Ending::InsufficientMaterial) => "1/2-1/2 {Insufficient material}".to_string(),
        Status::Over(Ending::FivefoldRepetition) => {
            "1/2-1/2 {Draw by fivefold repetition}".to_string()
        }
        Status::Over(Ending::SeventyFiveMoveRule) => "1/2-1/2 {Draw by 75-move rule}".to_string(),
        Status::Claimable(DrawClaim::ThreefoldRepetition) => {
            "1/2-1/2 {Draw by repetition}".to_string()
        }
        Status::Claimable(DrawClaim::FiftyMoveRule) => "1/2-1/2 {Draw by 50-move rule}".to_string(),
    })
}

/// The text of the engine's move `mv`: coordinate notation, with castling `O-O` or
/// `O-O-O` in Chess960 (the specification's form for Fischer Random) and the king's two-square
/// move otherwise.
fn write_move(mv: Move, mode: CastlingMode) -> String {
    if mode == CastlingMode::Chess960 && mv.kind() == MoveKind::Castling {
        return if mv.to().file() > mv.from().file() {
            "O-O".to_string()
        } else {
            "O-O-O".to_string()
        };
    }
    format_move(mv, mode)
}
