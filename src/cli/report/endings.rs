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

#[cfg(test)]
mod tests {
    use super::super::test_support::game;
    use super::*;
    use shannon::arena::{EndCategory, TimeLossCause};

    /// A way a game ends: its outcome, termination and finish, then cutechess-cli's words and
    /// fastchess's.
    type Row = (
        Outcome,
        Option<Termination>,
        Option<Finish>,
        &'static str,
        &'static str,
    );

    /// Every way our games end, with the words cutechess-cli prints for it, then fastchess's.
    #[test]
    fn every_ending_has_each_tools_words() {
        use Color::{Black, White};
        let cases: Vec<Row> = vec![
            (
                Outcome::Win(White),
                None,
                Some(Finish::Rule(Ending::Checkmate { winner: White })),
                "White mates",
                "White mates",
            ),
            (
                Outcome::Win(Black),
                None,
                Some(Finish::Rule(Ending::Checkmate { winner: Black })),
                "Black mates",
                "Black mates",
            ),
            (
                Outcome::Draw,
                None,
                Some(Finish::Rule(Ending::Stalemate)),
                "Draw by stalemate",
                "Draw by stalemate",
            ),
            (
                Outcome::Draw,
                None,
                Some(Finish::Rule(Ending::InsufficientMaterial)),
                "Draw by insufficient mating material",
                "Draw by insufficient mating material",
            ),
            (
                Outcome::Draw,
                None,
                Some(Finish::Rule(Ending::FivefoldRepetition)),
                "Draw by 3-fold repetition",
                "Draw by 3-fold repetition",
            ),
            (
                Outcome::Draw,
                None,
                Some(Finish::Claim(DrawClaim::ThreefoldRepetition)),
                "Draw by 3-fold repetition",
                "Draw by 3-fold repetition",
            ),
            (
                Outcome::Draw,
                None,
                Some(Finish::Rule(Ending::SeventyFiveMoveRule)),
                "Draw by fifty moves rule",
                "Draw by fifty moves rule",
            ),
            (
                Outcome::Draw,
                None,
                Some(Finish::Claim(DrawClaim::FiftyMoveRule)),
                "Draw by fifty moves rule",
                "Draw by fifty moves rule",
            ),
            (
                Outcome::Draw,
                Some(Termination::PlyLimit),
                None,
                "Draw by adjudication: maximal game length",
                "Draw by adjudication",
            ),
            (
                Outcome::Draw,
                Some(Termination::Adjudication("draw rule".into())),
                None,
                "Draw by adjudication",
                "Draw by adjudication",
            ),
            (
                Outcome::Win(Black),
                Some(Termination::Adjudication("resign rule".into())),
                None,
                "Black wins by adjudication",
                "Black wins by adjudication",
            ),
            (
                Outcome::Win(Black),
                Some(Termination::TimeForfeit(
                    White,
                    TimeLossCause::Unknown {
                        info_time_ms: None,
                        left_ms: 1000,
                    },
                )),
                None,
                "White loses on time",
                "White loses on time",
            ),
            // cutechess-cli draws a time loss the winner could not mate in; fastchess has no
            // such draw: its words for the time loss.
            (
                Outcome::Draw,
                Some(Termination::TimeForfeit(
                    White,
                    TimeLossCause::Unknown {
                        info_time_ms: None,
                        left_ms: 1000,
                    },
                )),
                None,
                "Draw by timeout",
                "White loses on time",
            ),
            (
                Outcome::Win(White),
                Some(Termination::IllegalMove(Black, "e1e3".into())),
                None,
                "Black makes an illegal move: e1e3",
                "Black makes an illegal move",
            ),
            (
                Outcome::Win(Black),
                Some(Termination::Crash(White)),
                None,
                "White disconnects",
                "White disconnects",
            ),
            (
                Outcome::Win(White),
                Some(Termination::StartFailure(Black, "no such file".into())),
                None,
                "Black disconnects",
                "Black disconnects",
            ),
            (
                Outcome::Win(Black),
                Some(Termination::Hang(White)),
                None,
                "White's connection stalls",
                "White's connection stalls",
            ),
            (
                Outcome::Unfinished,
                Some(Termination::Interrupted),
                None,
                "No result",
                "Game interrupted",
            ),
            // An xboard engine's claims, as cutechess-cli words them.
            (
                Outcome::Win(Black),
                Some(Termination::Resignation(White)),
                None,
                "White resigns",
                "White resigns",
            ),
            (
                Outcome::Win(Black),
                Some(Termination::FalseClaim(White, "1-0 {White mates}".into())),
                None,
                "Black wins by adjudication: Invalid result claim",
                "Black wins by adjudication",
            ),
            (
                Outcome::Win(White),
                Some(Termination::FalseClaim(Black, "Illegal move: e2e4".into())),
                None,
                "White wins by adjudication: Black claims illegal move: e2e4",
                "White wins by adjudication",
            ),
            (
                Outcome::Win(Black),
                Some(Termination::Tablebase),
                None,
                "Black wins by adjudication: SyzygyTB",
                "Black wins by adjudication: SyzygyTB",
            ),
            (
                Outcome::Draw,
                Some(Termination::Tablebase),
                None,
                "Draw by adjudication: SyzygyTB",
                "Draw by adjudication: SyzygyTB",
            ),
            (Outcome::Win(White), None, None, "White wins", "White wins"),
            (Outcome::Draw, None, None, "Drawn game", "Drawn game"),
        ];
        let mut categories = std::collections::BTreeSet::new();
        for (outcome, termination, finish, cutechess, fastchess) in cases {
            let played = game(1, "a", "b", outcome, termination, finish);
            categories.insert(played.category());
            let words = [Tool::Cutechess, Tool::Fastchess].map(|tool| ending_words(&played, tool));
            assert_eq!(words, [cutechess, fastchess], "{:?}", played.category());
        }
        // Every category of the result table is covered above.
        assert_eq!(categories.len(), EndCategory::ALL.len());
    }
}
