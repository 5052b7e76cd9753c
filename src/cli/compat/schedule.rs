//! `-games`, `-rounds` and `-repeat` as each tool reads them, made Shannon's schedule: rounds of
//! game pairs, each pair one opening played with both colours.
//!
//! cutechess-cli plays `-games` games per encounter `-rounds` times over, colours swapped after
//! every game, and a new opening every game unless `-repeat` (each opening twice). fastchess
//! plays `-rounds` rounds of `-games` (1 or 2; `-repeat` is `-games 2`) games from one opening,
//! colours swapped every game (by the game's number). Both are Shannon's schedule when the
//! openings come in pairs; fastchess's `-games 1` is its single games (every game from its own
//! opening, in a match of two engines), and so are cutechess-cli's games when they are not whole
//! pairs of one opening (each opening serving `-repeat` consecutive games).

use super::error::CompatError;
use super::Dialect;

/// cutechess-cli's `-openings policy=`: when a new opening is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Policy {
    /// A new opening for every pair of games (and every encounter).
    #[default]
    Default,
    /// One opening for all the games of an encounter.
    Encounter,
    /// One opening for all the games of a round.
    Round,
}

/// What the options said about the schedule.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScheduleArgs {
    /// `-rounds`.
    pub rounds: Option<u32>,
    /// `-games`.
    pub games: Option<u32>,
    /// `-repeat [N]`.
    pub repeat: Option<u32>,
    /// `-repeat` came after `-games` (fastchess: the later one sets the games).
    pub repeat_after_games: bool,
}

/// Shannon's schedule: `rounds` rounds of `games` games per encounter, in whole pairs or, with
/// `single`, each game from its own opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Rounds.
    pub rounds: u32,
    /// Games per encounter per round (even, unless `single`).
    pub games: u32,
    /// fastchess's `-games 1`, and cutechess-cli's games when they are not whole pairs of one
    /// opening: single games ([`shannon::arena::Layout::single_games`]).
    pub single: bool,
    /// With `single`, the consecutive games each opening serves (cutechess-cli's `-repeat N`;
    /// 1 for fastchess) ([`shannon::arena::Layout::games_per_opening`]).
    pub per_opening: u32,
}

impl Plan {
    /// Whether cutechess-cli's opening policy reads the same as this plan.
    pub fn allows(&self, policy: Policy) -> Result<(), PolicyMismatch> {
        let per_opening = match self.single {
            true => self.per_opening.max(1),
            false => 2,
        };
        match policy {
            Policy::Default => Ok(()),
            Policy::Round if self.games == 2 && !self.single => Ok(()),
            Policy::Encounter if self.games * self.rounds <= per_opening => Ok(()),
            _ => Err(PolicyMismatch { games: self.games }),
        }
    }
}

/// An opening policy Shannon's schedule cannot follow: it takes a new opening for every pair of
/// games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PolicyMismatch {
    /// The plan's games per encounter and round.
    pub games: u32,
}

impl std::fmt::Display for PolicyMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Shannon takes a new opening for every pair of games ({} per encounter and round \
             here); policy=round fits two games a round, policy=encounter two games in all",
            self.games
        )
    }
}

impl std::error::Error for PolicyMismatch {}

fn refused(option: &str, why: &str) -> CompatError {
    CompatError::Refused {
        option: option.to_string(),
        why: why.to_string(),
    }
}

/// The schedule `args` asks for, read as `dialect`'s, for `engines` engines; `varies` when the
/// openings differ from game to game (a file, or Chess960).
pub fn plan(
    args: &ScheduleArgs,
    dialect: Dialect,
    engines: usize,
    varies: bool,
) -> Result<Plan, CompatError> {
    match dialect {
        Dialect::Cutechess => cutechess(args, engines, varies),
        Dialect::Fastchess => fastchess(args, engines),
    }
}

fn cutechess(args: &ScheduleArgs, engines: usize, varies: bool) -> Result<Plan, CompatError> {
    let games = args.games.unwrap_or(1);
    let rounds = args.rounds.unwrap_or(1);
    let repeat = args.repeat.unwrap_or(1).max(1);
    // cutechess-cli swaps the colours after every game of a pair (over all its games) and takes
    // the next opening after every `repeat` games of it, and, in a tournament, whenever the pair
    // changes: Shannon's pairs when each opening serves two games (or all start from one
    // position) and the games are whole pairs, else its single games, each opening serving
    // `repeat` consecutive games.
    let pairs = repeat == 2 || (repeat == 1 && !varies);
    if engines == 2 {
        let total = games * rounds;
        if pairs && total.is_multiple_of(2) {
            return Ok(Plan {
                rounds: total / 2,
                games: 2,
                single: false,
                per_opening: 2,
            });
        }
        return Ok(Plan {
            rounds: total,
            games: 1,
            single: true,
            per_opening: repeat,
        });
    }
    if pairs && games.is_multiple_of(2) {
        return Ok(Plan {
            rounds,
            games,
            single: false,
            per_opening: 2,
        });
    }
    Ok(Plan {
        rounds,
        games,
        single: true,
        per_opening: repeat,
    })
}

/// fastchess's reading: `-games 2` plays pairs; `-games 1` single games (one opening a game,
/// colours alternating), which Shannon plays in a match of two engines.
fn fastchess(args: &ScheduleArgs, engines: usize) -> Result<Plan, CompatError> {
    let mut games = match (args.games, args.repeat) {
        (Some(_), Some(repeat)) if args.repeat_after_games => repeat,
        (None, Some(repeat)) => repeat,
        (Some(games), _) => games,
        (None, None) => 2,
    };
    let mut rounds = args.rounds.unwrap_or(2);
    if games > 2 {
        // fastchess's own repair of `-games 100 -rounds 2`.
        std::mem::swap(&mut games, &mut rounds);
        if games > 2 {
            return Err(refused(
                "-games",
                "fastchess plays at most 2 games a round (one opening, both colours)",
            ));
        }
    }
    if games == 2 {
        return Ok(Plan {
            rounds,
            games: 2,
            single: false,
            per_opening: 2,
        });
    }
    if engines > 2 {
        return Err(refused(
            "-games 1",
            "Shannon plays single games (each from its own opening) in a match of two engines; \
             a tournament's encounters play whole pairs: use -games 2",
        ));
    }
    Ok(Plan {
        rounds,
        games: 1,
        single: true,
        per_opening: 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(rounds: Option<u32>, games: Option<u32>, repeat: Option<u32>) -> ScheduleArgs {
        ScheduleArgs {
            rounds,
            games,
            repeat,
            repeat_after_games: true,
        }
    }

    #[test]
    fn the_two_readings_of_rounds_games_and_repeat() {
        let readme = args(Some(200), None, Some(2));
        let fast = plan(&readme, Dialect::Fastchess, 2, true).unwrap();
        let cute = plan(&readme, Dialect::Cutechess, 2, true).unwrap();
        assert_eq!(
            (fast.rounds * fast.games, cute.rounds * cute.games),
            (400, 200)
        );
        let both = args(Some(500), Some(2), Some(2));
        for dialect in [Dialect::Cutechess, Dialect::Fastchess] {
            let p = plan(&both, dialect, 2, true).unwrap();
            assert_eq!(p.rounds * p.games, 1000, "{dialect}");
        }
        assert!(plan(&args(Some(10), Some(2), None), Dialect::Cutechess, 2, false).is_ok());
        let swapped = plan(&args(Some(2), Some(50), None), Dialect::Fastchess, 2, true).unwrap();
        assert_eq!(
            swapped,
            Plan {
                rounds: 50,
                games: 2,
                single: false,
                per_opening: 2
            }
        );
        // fastchess's -games 1: single games, from a book or not, an odd number too.
        for (rounds, varies) in [(8, true), (8, false), (1, true)] {
            assert_eq!(
                plan(
                    &args(Some(rounds), Some(1), None),
                    Dialect::Fastchess,
                    2,
                    varies
                )
                .unwrap(),
                Plan {
                    rounds,
                    games: 1,
                    single: true,
                    per_opening: 1
                }
            );
        }
        assert!(plan(&args(Some(8), Some(1), None), Dialect::Fastchess, 3, false).is_err());
        assert_eq!(
            plan(
                &args(Some(3), Some(4), Some(2)),
                Dialect::Cutechess,
                3,
                true
            )
            .unwrap(),
            Plan {
                rounds: 3,
                games: 4,
                single: false,
                per_opening: 2
            }
        );
    }

    #[test]
    fn cutechess_single_games_take_an_opening_every_repeat_games() {
        let single = |rounds, per_opening| Plan {
            rounds,
            games: 1,
            single: true,
            per_opening,
        };
        let cute = |a: ScheduleArgs, engines, varies| plan(&a, Dialect::Cutechess, engines, varies);
        // -repeat N: N consecutive games from each opening.
        assert_eq!(
            cute(args(Some(3), Some(2), Some(3)), 2, true),
            Ok(single(6, 3))
        );
        assert_eq!(
            cute(args(Some(7), None, Some(4)), 2, false),
            Ok(single(7, 4))
        );
        // No -repeat with openings: one opening a game.
        assert_eq!(
            cute(args(Some(10), Some(2), None), 2, true),
            Ok(single(20, 1))
        );
        // An odd number of games.
        assert_eq!(
            cute(args(Some(3), Some(1), None), 2, false),
            Ok(single(3, 1))
        );
        assert_eq!(
            cute(args(Some(5), None, Some(2)), 2, true),
            Ok(single(5, 2))
        );
        // Whole pairs stay pairs.
        assert_eq!(
            cute(args(Some(10), Some(2), None), 2, false).map(|p| p.single),
            Ok(false)
        );
        // A tournament's encounters too (each encounter's games from openings of its own).
        let tournament = |rounds, games, per_opening| Plan {
            rounds,
            games,
            single: true,
            per_opening,
        };
        assert_eq!(
            cute(args(Some(2), Some(2), Some(3)), 3, true),
            Ok(tournament(2, 2, 3))
        );
        assert_eq!(
            cute(args(Some(2), Some(2), None), 3, true),
            Ok(tournament(2, 2, 1))
        );
        assert_eq!(
            cute(args(Some(2), Some(3), Some(2)), 4, true),
            Ok(tournament(2, 3, 2))
        );
        assert_eq!(
            cute(args(Some(2), Some(4), Some(2)), 4, true).map(|p| p.single),
            Ok(false)
        );
    }
}
