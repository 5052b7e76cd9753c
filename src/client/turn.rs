//! One turn of an engine in a game, as the runner asks for it whatever the engine's protocol
//! ([`Turn`]: the game, the clocks and the limits), and what the engine answered ([`Answer`]).
//! Each protocol makes its own lines of a turn: UCI's `position` and `go`, xboard's moves,
//! `time`, `otim` and `go`.

use super::time_control::{Clock, GoOrder, Pace, TimeControl};
use crate::game::Game;
use crate::{CastlingMode, Color};
use std::time::Duration;

/// One turn of an engine in a game.
#[derive(Debug, Clone, Copy)]
pub struct Turn<'a> {
    /// The game, the side to move being the engine's.
    pub game: &'a Game,
    /// How castling is written.
    pub mode: CastlingMode,
    /// The engine's time control.
    pub own: TimeControl,
    /// Its opponent's (UCI's `go` gives the opponent's clock under time odds as well).
    pub opponent: TimeControl,
    /// The clocks, White's then Black's (read under a clock time control only).
    pub clocks: [Clock; 2],
    /// Where UCI's `go` puts the caps beside the time (the word order of the tool a run follows).
    pub order: GoOrder,
}

impl Turn<'_> {
    /// The side to move: the engine's.
    pub fn side(&self) -> Color {
        self.game.position().side_to_move()
    }

    /// The engine's time left and its opponent's, under a clock time control (xboard's `time`
    /// and `otim`).
    pub fn times_left(&self) -> Option<(Duration, Duration)> {
        let side = self.side();
        matches!(self.own.pace, Pace::Clock { .. }).then(|| {
            (
                self.clocks[side.index()].remaining,
                self.clocks[(!side).index()].remaining,
            )
        })
    }

    /// UCI's `go` command for this turn.
    pub fn uci_go(&self) -> String {
        self.own
            .uci_go(&self.opponent, &self.clocks, self.side(), self.order)
    }
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
        /// The reply it expects, as it wrote it (UCI's `bestmove M ponder R`), when it named
        /// one: what it may ponder on.
        ponder: Option<String>,
    },
    /// A claim instead of a move.
    Claim(Claim),
}
