//! The state each protocol keeps in an engine's process between requests: for a UCI engine the
//! `position` command sent so far ([`UciSession`]), for an xboard engine the features it
//! negotiated ([`Negotiation`]) and what it holds of the game in hand ([`XboardSession`]).
//! Data only: the exchanges are `uci`'s and `xboard`'s, over `process`.

use super::time_control::TimeControl;
use crate::game::Game;
use crate::notation::san::to_san;
use crate::notation::uci::format_move;
use crate::{CastlingMode, Move, MoveKind, Position};
use std::time::Duration;

/// The `position` command of the game in hand, castling written as the game's mode says.
#[derive(Debug, Clone)]
struct PositionCommand {
    start: Position,
    mode: CastlingMode,
    plies: usize,
    text: String,
}

/// A UCI engine's session: the last `position` command sent, grown by the moves played since,
/// and the reply it is pondering on, if it is.
#[derive(Debug, Clone, Default)]
pub struct UciSession {
    position: Option<PositionCommand>,
    pondering: Option<Pondering>,
}

/// A `go ponder` under way: the reply it assumed, and the `position` command before it (what
/// the engine is told again when the reply is another).
#[derive(Debug, Clone)]
struct Pondering {
    reply: Move,
    before: Option<PositionCommand>,
}

impl UciSession {
    /// A new game: the next `position` is written afresh.
    pub fn forget(&mut self) {
        self.position = None;
        self.pondering = None;
    }

    /// The `position` command for `game`, whose last move is the reply the engine expects, to
    /// ponder on; until [`UciSession::ponder_hit`] or [`UciSession::ponder_miss`] the engine is
    /// pondering on that reply.
    pub fn ponder_position(&mut self, game: &Game, mode: CastlingMode) -> &str {
        let reply = *game.moves().last().expect("a reply was played");
        self.pondering = Some(Pondering {
            reply,
            before: self.position.clone(),
        });
        self.position(game, mode)
    }

    /// The reply the engine is pondering on, if it is.
    pub fn pondering(&self) -> Option<Move> {
        self.pondering.as_ref().map(|p| p.reply)
    }

    /// The expected reply was played: the `position` sent for pondering is the game's.
    pub fn ponder_hit(&mut self) {
        self.pondering = None;
    }

    /// Another reply was played (or the game ended): the `position` sent for pondering is
    /// forgotten, the next one grows the one before it.
    pub fn ponder_miss(&mut self) {
        if let Some(pondering) = self.pondering.take() {
            self.position = pondering.before;
        }
    }

    /// The `position` command for `game`: the one sent before, with the moves played since
    /// appended, when it is the same game; else written anew.
    pub fn position(&mut self, game: &Game, mode: CastlingMode) -> &str {
        let moves = game.moves();
        let same = self.position.as_ref().is_some_and(|known| {
            known.mode == mode && known.plies <= moves.len() && known.start == *game.start()
        });
        if !same {
            let text = if *game.start() == Position::startpos() {
                "position startpos".to_string()
            } else {
                // X-FEN in standard chess (`KQkq`), Shredder-FEN in Chess960, as cutechess-cli
                // and fastchess write it.
                format!("position fen {}", game.start().fen_for(mode))
            };
            self.position = Some(PositionCommand {
                start: game.start().clone(),
                mode,
                plies: 0,
                text,
            });
        }
        let command = self.position.as_mut().expect("set above");
        for &mv in &moves[command.plies..] {
            if command.plies == 0 {
                command.text.push_str(" moves");
            }
            command.text.push(' ');
            command.text.push_str(&format_move(mv, mode));
            command.plies += 1;
        }
        &command.text
    }
}

/// One feature an engine sent, and the runner's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feature {
    /// Its name (`ping`, `setboard`, `option`, ...).
    pub name: String,
    /// Its value, quotes removed.
    pub value: String,
    /// True when the runner answered `accepted`.
    pub accepted: bool,
}

/// What an xboard engine said in answer to `protover 2`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Negotiation {
    /// The pause the runner made between `xboard` and `protover 2` (none for a match).
    pub pause: Duration,
    /// Every feature, in the order sent.
    pub features: Vec<Feature>,
    /// When `feature done=1` came, counted from `protover 2`; `None` when it did not come in
    /// time (the engine was then taken as it was, as a protocol 1 engine).
    pub done: Option<Duration>,
    /// True when the engine sent `done=0` (asking for more time than 2 seconds).
    pub extended: bool,
    /// Lines holding `feature ` not at their start (a prompt before it: `White (1) : feature
    /// done=0`), which a GUI does not read as features.
    pub misplaced: Vec<String>,
}

impl Negotiation {
    /// True when the engine sent `NAME=1` and the runner accepted it.
    pub fn has(&self, name: &str) -> bool {
        self.value(name) == Some("1")
    }

    /// The value of the last accepted `NAME=...`, if any.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.features
            .iter()
            .rev()
            .find(|f| f.accepted && f.name == name)
            .map(|f| f.value.as_str())
    }

    /// The names sent with this answer (`accepted` or not), each once, in order.
    pub fn names(&self, accepted: bool) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for f in self.features.iter().filter(|f| f.accepted == accepted) {
            if !names.contains(&f.name.as_str()) {
                names.push(&f.name);
            }
        }
        names
    }
}

/// What the engine holds of the game in hand.
#[derive(Debug, Clone)]
pub(super) struct Known {
    /// The game's start.
    pub(super) start: Position,
    /// The plies it was told or played.
    pub(super) plies: usize,
    /// True when it is not in force mode (it plays the side it last moved for).
    pub(super) playing: bool,
}

/// The state of an xboard engine's session: the features it negotiated and what it knows of
/// the game.
#[derive(Debug, Clone, Default)]
pub struct XboardSession {
    pub(super) ping: bool,
    pub(super) setboard: bool,
    pub(super) san: bool,
    pub(super) usermove: bool,
    pub(super) time: bool,
    pub(super) reuse: bool,
    pub(super) nps: bool,
    pub(super) variants: Option<Vec<String>>,
    /// Whether it may ponder: `hard` before each game, else `easy` (cutechess-cli's `ponder`).
    pub(super) ponder: bool,
    /// The last `ping` number sent.
    pub(super) last_ping: u32,
    /// Games begun.
    pub(super) games: u32,
    /// The time control of the game in hand.
    pub(super) level: Option<TimeControl>,
    /// What the engine said at `protover 2`, and what the runner answered.
    pub(super) negotiation: Negotiation,
    /// What the engine knows of the game in hand.
    pub(super) known: Option<Known>,
}

impl XboardSession {
    pub(super) fn new() -> XboardSession {
        // The specification's defaults.
        XboardSession {
            time: true,
            reuse: true,
            ..XboardSession::default()
        }
    }

    /// Take a feature: true when the runner accepts it.
    pub(super) fn feature(&mut self, name: &str, value: &str) -> bool {
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

    pub(super) fn chess960(&self) -> bool {
        self.variants
            .as_ref()
            .is_some_and(|v| v.iter().any(|v| v == "fischerandom"))
    }

    /// The text of `mv`, played in the position `before` gives, for this engine: SAN when it
    /// asked for it, else coordinates (castling `O-O`/`O-O-O` in Chess960, as XBoard writes
    /// it).
    pub(super) fn move_text(
        &self,
        before: impl FnOnce() -> Position,
        mv: Move,
        mode: CastlingMode,
    ) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::notation::uci::parse_move;

    fn played(start: Position, moves: &[&str]) -> Game {
        let mut game = Game::new(start);
        for text in moves {
            let mv = parse_move(game.position(), text).unwrap();
            game.play(mv);
        }
        game
    }

    #[test]
    fn the_command_grows_with_the_game_and_starts_anew_for_another() {
        let mut session = UciSession::default();
        let mode = CastlingMode::Standard;
        let mut game = played(Position::startpos(), &[]);
        assert_eq!(session.position(&game, mode), "position startpos");
        game = played(Position::startpos(), &["e2e4", "e7e5"]);
        assert_eq!(
            session.position(&game, mode),
            "position startpos moves e2e4 e7e5"
        );
        game = played(Position::startpos(), &["e2e4", "e7e5", "g1f3"]);
        assert_eq!(
            session.position(&game, mode),
            "position startpos moves e2e4 e7e5 g1f3"
        );
        // Another game, shorter than the one before: written anew.
        game = played(Position::startpos(), &["d2d4"]);
        assert_eq!(
            session.position(&game, mode),
            "position startpos moves d2d4"
        );
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        game = played(fen.parse().unwrap(), &["e1g1"]);
        assert_eq!(
            session.position(&game, mode),
            "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1"
        );
        // The same game in Chess960's notation: castling is king takes rook.
        session.forget();
        assert_eq!(
            session.position(&game, CastlingMode::Chess960),
            "position fen 4k3/8/8/8/8/8/8/4K2R w H - 0 1 moves e1h1"
        );
    }
}
