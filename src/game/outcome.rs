//! What the rules say about a game: the rules that end it ([`Ending`]), the draws a player may
//! claim ([`DrawClaim`]), the verdict on a position ([`Status`]), how a finished game ended
//! ([`Finish`]) and who won ([`Outcome`]). Every layer above (PGN, codecs, the UCI engine, the
//! arena, playouts) speaks of results with these types only.

use crate::Color;
use std::fmt;

/// Why a game is over without anyone choosing so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The side to move is mated; the other side wins.
    Checkmate {
        /// The side that delivered mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The same position arose for the fifth time.
    FivefoldRepetition,
    /// 75 moves by each side without a capture or pawn move (and the last move was not mate).
    SeventyFiveMoveRule,
    /// No sequence of legal moves can mate (K v K, K + minor v K, bishops all on one colour).
    InsufficientMaterial,
}

impl Ending {
    /// Who won: the mating side, or nobody.
    pub fn outcome(self) -> Outcome {
        match self {
            Ending::Checkmate { winner } => Outcome::Win(winner),
            _ => Outcome::Draw,
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Checkmate { winner } => write!(f, "checkmate, {winner} wins"),
            Ending::Stalemate => f.write_str("stalemate"),
            Ending::FivefoldRepetition => f.write_str("fivefold repetition"),
            Ending::SeventyFiveMoveRule => f.write_str("75-move rule"),
            Ending::InsufficientMaterial => f.write_str("insufficient material"),
        }
    }
}

/// A draw the side to move may claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawClaim {
    /// The same position arose for the third time.
    ThreefoldRepetition,
    /// 50 moves by each side without a capture or pawn move.
    FiftyMoveRule,
}

impl fmt::Display for DrawClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawClaim::ThreefoldRepetition => "threefold repetition",
            DrawClaim::FiftyMoveRule => "50-move rule",
        })
    }
}

/// The rules' verdict on a position: over, or going on with or without a draw to claim.
///
/// Displayed as `ongoing`, `draw claimable: <rule>` or `over: <rule>` (the words the UCI engine
/// prints).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// The game goes on and no draw can be claimed.
    Ongoing,
    /// The game goes on, but the side to move may claim this draw.
    Claimable(DrawClaim),
    /// A rule has ended the game.
    Over(Ending),
}

impl Status {
    /// How the game ends here when every claimable draw is claimed at once (as match runners
    /// do): the ending or the claim, or `None` while the game goes on.
    pub fn finish_claiming(self) -> Option<Finish> {
        match self {
            Status::Ongoing => None,
            Status::Claimable(claim) => Some(Finish::Claim(claim)),
            Status::Over(ending) => Some(Finish::Rule(ending)),
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => f.write_str("ongoing"),
            Status::Claimable(claim) => write!(f, "draw claimable: {claim}"),
            Status::Over(ending) => write!(f, "over: {ending}"),
        }
    }
}

/// How a finished game ended by the rules of chess: a rule that ends it, or a draw claimed.
/// (Endings outside the rules, such as time forfeits or adjudications, are the arena's.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Finish {
    /// Checkmate, stalemate, fivefold repetition, the 75-move rule or insufficient material.
    Rule(Ending),
    /// Threefold repetition or the 50-move rule, claimed.
    Claim(DrawClaim),
}

impl Finish {
    /// Who won.
    pub fn outcome(self) -> Outcome {
        match self {
            Finish::Rule(ending) => ending.outcome(),
            Finish::Claim(_) => Outcome::Draw,
        }
    }
}

impl fmt::Display for Finish {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finish::Rule(ending) => ending.fmt(f),
            Finish::Claim(claim) => claim.fmt(f),
        }
    }
}

/// Who won a game: a side, nobody, or not known yet (`*`: unfinished or unknown).
///
/// Displayed as PGN writes it: `1-0`, `0-1`, `1/2-1/2`, `*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Outcome {
    /// This side won.
    Win(Color),
    /// Drawn.
    Draw,
    /// Unfinished, or the result is unknown (PGN `*`).
    #[default]
    Unfinished,
}

impl Outcome {
    /// The four outcomes, in the order of the game codecs' 2-bit result codes.
    pub const ALL: [Outcome; 4] = [
        Outcome::Win(Color::White),
        Outcome::Win(Color::Black),
        Outcome::Draw,
        Outcome::Unfinished,
    ];

    /// The PGN result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::Win(Color::White) => "1-0",
            Outcome::Win(Color::Black) => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unfinished => "*",
        }
    }

    /// The outcome PGN writes as `text`, if any.
    pub fn from_pgn(text: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.pgn() == text)
    }

    /// False for `*`.
    pub fn is_finished(self) -> bool {
        self != Outcome::Unfinished
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_read_back_from_their_pgn_text() {
        for outcome in Outcome::ALL {
            assert_eq!(Outcome::from_pgn(outcome.pgn()), Some(outcome));
        }
        assert_eq!(Outcome::from_pgn("1-1"), None);
    }

    #[test]
    fn finishes_give_their_outcome() {
        let mate = Finish::Rule(Ending::Checkmate {
            winner: Color::Black,
        });
        assert_eq!(mate.outcome(), Outcome::Win(Color::Black));
        assert_eq!(
            Finish::Claim(DrawClaim::FiftyMoveRule).outcome(),
            Outcome::Draw
        );
        assert_eq!(
            Status::Claimable(DrawClaim::ThreefoldRepetition).to_string(),
            "draw claimable: threefold repetition"
        );
    }
}
