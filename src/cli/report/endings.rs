//! The words cutechess-cli and fastchess put in braces after a game's result, for each way our
//! games end: one table, a column per tool, so the two renderers cannot drift apart where the
//! tools agree and differ only where they do.
//!
//! Where a tool has no such ending, the closest of its wordings: fivefold repetition and the
//! 75-move rule read as the threefold and the fifty-move rule (both tools end the game there
//! already), an engine that fails to start (both stop with an error instead) as a disconnection,
//! a game an interrupt cut short as cutechess-cli's `No result` and fastchess's `Game
//! interrupted`. cutechess-cli's texts are its `Chess::Result::description()`, fastchess's its
//! `Match::*_MSG`; fastchess's time loss lacks its ` (Nms overrun)`: the report does not carry
//! the overrun.

use shannon::arena::{MatchGame, Termination};
use shannon::game::{DrawClaim, Ending, Finish, Outcome};
use shannon::Color;

/// Whose words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// cutechess-cli (and Cute Chess).
    Cutechess,
    /// fastchess.
    Fastchess,
}

/// The side names both tools print, capitalised.
pub fn side(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The text in braces after `game`'s result, in `tool`'s words.
pub fn ending_words(game: &MatchGame, tool: Tool) -> String {
    // The table's two columns: cutechess-cli's words, then fastchess's.
    let column = |cutechess: String, fastchess: String| match tool {
        Tool::Cutechess => cutechess,
        Tool::Fastchess => fastchess,
    };
    let both = |words: String| words;
    let outcome = game.record.outcome;
    match (&game.termination, game.record.finish) {
        (Some(termination), _) => match termination {
            Termination::PlyLimit => column(
                "Draw by adjudication: maximal game length".into(),
                "Draw by adjudication".into(),
            ),
            Termination::Adjudication(_) => both(match outcome {
                Outcome::Win(winner) => format!("{} wins by adjudication", side(winner)),
                _ => "Draw by adjudication".into(),
            }),
            Termination::Tablebase => both(match outcome {
                Outcome::Win(winner) => format!("{} wins by adjudication: SyzygyTB", side(winner)),
                _ => "Draw by adjudication: SyzygyTB".into(),
            }),
            Termination::TimeForfeit(loser, _) => match outcome {
                Outcome::Draw => column("Draw by timeout".into(), lost_on_time(*loser)),
                _ => both(lost_on_time(*loser)),
            },
            Termination::IllegalMove(loser, text) => column(
                format!("{} makes an illegal move: {text}", side(*loser)),
                format!("{} makes an illegal move", side(*loser)),
            ),
            Termination::Crash(loser) | Termination::StartFailure(loser, _) => {
                both(format!("{} disconnects", side(*loser)))
            }
            Termination::Hang(loser) => both(format!("{}'s connection stalls", side(*loser))),
            Termination::Interrupted => column("No result".into(), "Game interrupted".into()),
            Termination::Resignation(loser) => both(format!("{} resigns", side(*loser))),
            Termination::FalseClaim(loser, line) => {
                let winner = format!("{} wins by adjudication", side(!*loser));
                // cutechess-cli's words: the engine's line after `Illegal`, or its one
                // description of every other claim it refutes.
                let claim = match line.trim().split_once(char::is_whitespace) {
                    Some((command, rest)) if command.starts_with("Illegal") => {
                        format!("{} claims illegal {}", side(*loser), rest.trim())
                    }
                    _ => "Invalid result claim".into(),
                };
                column(format!("{winner}: {claim}"), winner)
            }
        },
        (None, Some(finish)) => both(rule_words(&finish)),
        // No description: the words for a bare result.
        (None, None) => match outcome {
            Outcome::Win(winner) => both(format!("{} wins", side(winner))),
            Outcome::Draw => both("Drawn game".into()),
            Outcome::Unfinished => column("No result".into(), "Game interrupted".into()),
        },
    }
}

/// `White loses on time`.
fn lost_on_time(loser: Color) -> String {
    format!("{} loses on time", side(loser))
}

/// The words of a game the rules ended, the same in both tools: fivefold repetition and the
/// 75-move rule read as the threefold and the fifty-move rule.
pub fn rule_words(finish: &Finish) -> String {
    match finish {
        Finish::Rule(Ending::Checkmate { winner }) => format!("{} mates", side(*winner)),
        Finish::Rule(Ending::Stalemate) => "Draw by stalemate".into(),
        Finish::Rule(Ending::InsufficientMaterial) => "Draw by insufficient mating material".into(),
        Finish::Rule(Ending::FivefoldRepetition)
        | Finish::Claim(DrawClaim::ThreefoldRepetition) => "Draw by 3-fold repetition".into(),
        Finish::Rule(Ending::SeventyFiveMoveRule) | Finish::Claim(DrawClaim::FiftyMoveRule) => {
            "Draw by fifty moves rule".into()
        }
    }
}
