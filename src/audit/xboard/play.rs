//! The xboard checks that play: positions set up and answered at `sd 1`, mate and stalemate,
//! a whole game, `result`, Chess960, and garbage between commands.

use super::{engine_move, fresh, new_game, turn, without_ping, DEPTH_ONE_TIME, PONG_WAIT};
use crate::audit::chess960::{CASTLINGS, ONLY_CASTLING, STARTS};
use crate::audit::positions::{MATE, STALEMATE, TRICKY};
use crate::audit::protocol::ANSWER;
use crate::audit::{CheckResult, Context, Failure, Named};
use crate::client::xboard::{game_line, thinking, Claimed, GameLine};
use crate::client::{Answer, Claim, EngineProcess, Said, TimeControl};
use crate::game::{Game, Status};
use crate::notation::uci::parse_move;
use crate::notation::xboard::parse_xboard_move;
use crate::{CastlingMode, Color, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

/// How the engine is told a position: `setboard`, or `edit` (no castling rights or en passant
/// square beyond what the pieces imply).
fn set_up_by(context: &Context) -> &'static str {
    match &context.negotiation {
        Some(n) if n.has("setboard") => "setboard",
        _ => "edit (no setboard=1: en passant squares cannot be given)",
    }
}

pub(super) fn depth_one(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = fresh!(context, named);
    let mode = CastlingMode::Standard;
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let game = Game::new(Position::from_fen(kiwipete).expect("a valid FEN"));
    if let Err(failure) = new_game(&mut engine, mode, TimeControl::depth(1)) {
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    engine.record();
    if let Err(failure) = engine_move(&mut engine, &game, mode) {
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    // The depths of its thinking output (`post` is on).
    let depths: Vec<u32> = engine
        .transcript()
        .iter()
        .filter_map(|s| match s {
            Said::Received(line) => thinking(line).and_then(|info| info.depth),
            Said::Sent(_) => None,
        })
        .collect();
    match depths.iter().max() {
        Some(&deepest) if deepest > 1 => {
            let failure = Failure::new(
                format!(
                    "after `sd 1` (and `{DEPTH_ONE_TIME}`), thinking output to depth {deepest}"
                ),
                "a search of one ply after `sd 1`",
                "stop the search at the depth `sd` sets",
            );
            CheckResult::fail(id, title, failure, engine.transcript())
        }
        Some(_) => CheckResult::pass(id, title, "thinking output to depth 1 only"),
        None => CheckResult::pass(
            id,
            title,
            "a legal move; no thinking output to judge the depth by",
        ),
    }
}

pub(super) fn setboard(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = fresh!(context, named);
    let mode = CastlingMode::Standard;
    let mut claims = Vec::new();
    for case in TRICKY {
        let game = Game::new(Position::from_fen(case.fen).expect("a valid FEN"));
        if let Some(ending) = game.ending() {
            // A dead position (king and knight against king): the rules ended the game, so the
            // right claim passes as well as a legal move.
            match dead_position(&mut engine, &game, ending) {
                Ok(said) => {
                    claims.push(format!("{}: {said}", case.name));
                    continue;
                }
                Err(mut failure) => {
                    failure.what = format!("{}: {}", case.name, failure.what);
                    return CheckResult::fail(id, title, failure, engine.transcript());
                }
            }
        }
        let played = new_game(&mut engine, mode, TimeControl::depth(1))
            .and_then(|()| engine_move(&mut engine, &game, mode));
        let failure = match played {
            Err(mut failure) => {
                failure.what = format!("{}: {}", case.name, failure.what);
                failure
            }
            Ok((mv, _)) => match case.only_move {
                Some(only) if parse_move(game.position(), only) != Ok(mv) => Failure::new(
                    format!(
                        "{}: answered '{}'",
                        case.name,
                        crate::notation::uci::format_move(mv, mode)
                    ),
                    format!("'{only}', the only legal move"),
                    "generate legal moves only",
                ),
                _ => continue,
            },
        };
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    let how = set_up_by(context);
    let mut detail = format!("{} positions by {how}", TRICKY.len());
    if !claims.is_empty() {
        detail = format!("{detail}; {}", claims.join(", "));
    }
    CheckResult::pass(id, title, detail)
}

/// `go` in a position set up from `game`, and the first line that is a move or a claim.
fn first_answer(engine: &mut EngineProcess, game: &Game) -> Result<String, Failure> {
    let mode = CastlingMode::Standard;
    new_game(engine, mode, TimeControl::depth(1))?;
    engine.tell(&turn(game, mode));
    engine
        .wait_for("move or result claim", ANSWER, |line| {
            !matches!(game_line(line), GameLine::Other)
        })
        .map_err(|e| {
            Failure::silent(
                &e,
                "a move or a result claim after `go`",
                "answer `go` with `move MOVE`, or the result when the game is over",
            )
        })
}

/// A position the rules ended with moves left: the right result claim, or a legal move.
fn dead_position(
    engine: &mut EngineProcess,
    game: &Game,
    ending: crate::game::Ending,
) -> Result<String, Failure> {
    let line = first_answer(engine, game)?;
    let right = match game_line(&line) {
        GameLine::Result(Claimed::Draw) => ending.outcome().pgn() == "1/2-1/2",
        GameLine::Move(text) => parse_xboard_move(game.position(), &text).is_ok(),
        _ => false,
    };
    match right {
        true => Ok(format!("'{line}'")),
        false => Err(Failure::new(
            format!("answered '{line}' in {} ({ending})", game.position().fen()),
            format!("`1/2-1/2 {{{ending}}}`, or a legal move"),
            "claim the result the rules give, or play a legal move",
        )),
    }
}

pub(super) fn no_move(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = fresh!(context, named);
    let mut said = Vec::new();
    for (what, fen, right) in [
        ("checkmate", MATE, Claimed::WhiteWins),
        ("stalemate", STALEMATE, Claimed::Draw),
    ] {
        let game = Game::new(Position::from_fen(fen).expect("a valid FEN"));
        let wrong = match first_answer(&mut engine, &game) {
            Ok(line) => match game_line(&line) {
                GameLine::Result(claimed) if claimed == right => {
                    said.push(format!("{what}: {line}"));
                    continue;
                }
                GameLine::Resign if right == Claimed::WhiteWins => {
                    said.push(format!("{what}: {line}"));
                    continue;
                }
                _ => format!("{what}: answered '{line}'"),
            },
            Err(failure) => format!("{what}: {}", failure.what),
        };
        let expected = match right {
            Claimed::Draw => "`1/2-1/2 {Stalemate}`",
            _ => "`1-0 {White mates}` (Black is mated)",
        };
        let failure = Failure::new(
            wrong,
            format!("{expected} after `go`, and no move"),
            "when the side to move has no legal move, send the result instead of a move",
        );
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    CheckResult::pass(id, title, said.join(", "))
}

/// The result line for a game that ended by `status`, or `*`.
fn result_of(status: Status) -> (&'static str, String) {
    match status {
        Status::Over(ending) => (ending.outcome().pgn(), ending.to_string()),
        _ => ("*", "the audit stops here".to_string()),
    }
}

/// The most plies of the `game` check.
const GAME_PLIES: usize = 60;

pub(super) fn game(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = fresh!(context, named);
    let mode = CastlingMode::Standard;
    let mut game = Game::new(Position::startpos());
    let mut rng = SmallRng::seed_from_u64(32);
    if let Err(failure) = new_game(&mut engine, mode, TimeControl::depth(1)) {
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    let mut ended = None;
    while game.moves().len() < GAME_PLIES && ended.is_none() {
        if game.position().side_to_move() == Color::Black {
            let moves = game.legal_moves();
            game.play(moves[rng.random_range(0..moves.len())]);
        } else if game.claimable_draw().is_some() {
            break;
        } else {
            let ply = game.moves().len() + 1;
            let answer = engine.think(&turn(&game, mode), ANSWER);
            let failure = match answer {
                Ok(Answer::Claim(Claim::Resign(line))) => {
                    ended = Some(format!("it resigned at ply {ply} ('{line}')"));
                    None
                }
                Ok(Answer::Claim(Claim::False(line))) => Some(Failure::new(
                    format!("at ply {ply}, in {}: '{line}'", game.position().fen()),
                    "a move: the rules do not end the game there",
                    "claim a result only when the rules end the game",
                )),
                Ok(answer) => match super::read_move(&game, answer) {
                    Ok((mv, claim)) => {
                        game.play(mv);
                        let draws = !matches!(game.status(), Status::Ongoing)
                            && game.ending().is_none_or(|e| e.outcome().pgn() == "1/2-1/2");
                        claim.filter(|_| !draws).map(|line| {
                            Failure::new(
                                format!("at ply {ply}: '{line}' with a move that draws by no rule"),
                                "a draw claimed only with a move that draws by the rules",
                                "claim a draw only when the rules give it",
                            )
                        })
                    }
                    Err(mut failure) => {
                        failure.what = format!("at ply {ply}: {}", failure.what);
                        Some(failure)
                    }
                },
                Err(e) => Some(Failure::silent(
                    &e,
                    "`move MOVE` after `go`",
                    "answer in time",
                )),
            };
            if let Some(failure) = failure {
                return CheckResult::fail(id, title, failure, engine.transcript());
            }
        }
        if ended.is_some() {
            break;
        }
        if let Some(ending) = game.ending() {
            ended = Some(format!("{ending} at ply {}", game.moves().len()));
        }
    }
    let (result, reason) = result_of(game.status());
    engine.game_over(result, &reason);
    let how = ended.unwrap_or_else(|| format!("stopped at ply {}", game.moves().len()));
    CheckResult::pass(id, title, format!("every move legal; {how}"))
}

pub(super) fn result(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = fresh!(context, named);
    let mode = CastlingMode::Standard;
    let mut game = Game::new(Position::startpos());
    let start = new_game(&mut engine, mode, TimeControl::depth(1));
    let played = start.and_then(|()| {
        for _ in 0..2 {
            let (mv, _) = engine_move(&mut engine, &game, mode)?;
            game.play(mv);
            let reply = game.legal_moves().iter().next().copied();
            game.play(reply.expect("a move two plies in"));
        }
        Ok(())
    });
    if let Err(failure) = played {
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    // The game adjudicated while the engine is to move: `force`, `result`.
    engine.game_over("1/2-1/2", "Draw by adjudication");
    let after = match without_ping(context) {
        None => engine.ready(PONG_WAIT).map_err(|e| e.to_string()),
        Some(_) => Ok(()),
    };
    let late: Vec<String> = engine
        .drain(Duration::from_millis(300))
        .into_iter()
        .filter(|l| matches!(game_line(l), GameLine::Move(_)))
        .collect();
    let wrong = match (after, late.first()) {
        (Err(e), _) => Some(format!("after result: {e}")),
        (_, Some(line)) => Some(format!("after result: '{line}'")),
        _ => None,
    };
    if let Some(wrong) = wrong {
        let failure = Failure::new(
            wrong,
            "no move after `force` and `result`, and `pong N` after `ping N`",
            "stop playing at `force`/`result` and answer ping",
        );
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    let fresh_game = Game::new(Position::startpos());
    let again = new_game(&mut engine, mode, TimeControl::depth(1))
        .and_then(|()| engine_move(&mut engine, &fresh_game, mode));
    match again {
        Ok(_) => CheckResult::pass(
            id,
            title,
            "no move after result; the next game's first move legal",
        ),
        Err(mut failure) => {
            failure.what = format!("the game after `result`: {}", failure.what);
            CheckResult::fail(id, title, failure, engine.transcript())
        }
    }
}

pub(super) fn chess960(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let listed = context
        .negotiation
        .as_ref()
        .and_then(|n| n.value("variants"))
        .is_some_and(|v| v.split(',').any(|v| v.trim() == "fischerandom"));
    if !listed {
        let why = "fischerandom not among its variants";
        if context.request.chess960 {
            let failure = Failure::new(
                why,
                "feature variants=\"normal,fischerandom,...\" (--chess960 requires it)",
                "support Chess960 and list fischerandom in feature variants",
            );
            return CheckResult::fail(id, title, failure, &[]);
        }
        return CheckResult::skip(id, title, why);
    }
    let mut engine = fresh!(context, named);
    let mode = CastlingMode::Chess960;
    let mut cases: Vec<(&str, &str)> = vec![("Scharnagl #0 in X-FEN", STARTS[0])];
    cases.extend(CASTLINGS.iter().map(|&(what, fen, _)| (what, fen)));
    cases.push(("castling the only legal move", ONLY_CASTLING));
    for (what, fen) in &cases {
        let game = Game::new(Position::from_fen(fen).expect("a valid FEN"));
        let played = new_game(&mut engine, mode, TimeControl::depth(1))
            .and_then(|()| engine_move(&mut engine, &game, mode));
        let failure = match played {
            Ok(_) if *fen != ONLY_CASTLING => continue,
            Ok((mv, _)) if parse_move(game.position(), "g1h1") == Ok(mv) => continue,
            Ok((mv, _)) => Failure::new(
                format!(
                    "{what}: answered {}",
                    crate::notation::uci::format_move(mv, mode)
                ),
                "O-O (king g1, rook h1), the only legal move",
                "generate Chess960 castling when the king stays on its square",
            ),
            Err(mut failure) => {
                failure.what = format!("{what}: {}", failure.what);
                failure
            }
        };
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    CheckResult::pass(
        id,
        title,
        format!("{} positions, castling included", cases.len()),
    )
}

/// Lines an xboard engine must survive: an unknown command, commands without their arguments
/// or with bad ones, bytes that are no text, an empty line.
const GARBAGE: [&str; 8] = [
    "xyzzy",
    "usermove",
    "setboard",
    "setboard 8/8/8 w",
    "level x y z",
    "sd",
    "\u{1}\u{7f}junk",
    "",
];

/// After a bad line: `ping` answered (with `ping`), else the process still running after a
/// moment; the lines it said meanwhile.
fn survives(engine: &mut EngineProcess, pings: bool) -> Result<Vec<String>, String> {
    if pings {
        let before = engine.transcript().len();
        engine.ready(PONG_WAIT).map_err(|e| e.to_string())?;
        let said = engine.transcript()[before..]
            .iter()
            .filter_map(|s| match s {
                Said::Received(line) => Some(line.clone()),
                _ => None,
            })
            .collect();
        return Ok(said);
    }
    let said = engine.drain(Duration::from_millis(300));
    match engine.exited_within(Duration::ZERO) {
        true => Err("the process ended".into()),
        false => Ok(said),
    }
}

pub(super) fn garbage(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = fresh!(context, named);
    let pings = without_ping(context).is_none();
    let mut error_answer = None;
    for line in GARBAGE {
        engine.send(line);
        match survives(&mut engine, pings) {
            Ok(said) => {
                if line == "xyzzy" {
                    error_answer = said.into_iter().find(|l| l.starts_with("Error"));
                }
            }
            Err(e) => {
                let failure = Failure::new(
                    format!("after the line {line:?}: {e}"),
                    "the engine goes on (the specification: answer an unknown command with \
                     `Error (unknown command): COMMAND`)",
                    "check every command's arguments and ignore a line that does not parse",
                );
                return CheckResult::fail(id, title, failure, engine.transcript());
            }
        }
    }
    let game = Game::new(Position::startpos());
    let mode = CastlingMode::Standard;
    let played = new_game(&mut engine, mode, TimeControl::depth(1))
        .and_then(|()| engine_move(&mut engine, &game, mode));
    if let Err(mut failure) = played {
        failure.what = format!("after {} bad lines: {}", GARBAGE.len(), failure.what);
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    let unknown = match error_answer {
        Some(line) => format!("'{line}'"),
        None => "no `Error (unknown command)` line".to_string(),
    };
    CheckResult::pass(
        id,
        title,
        format!(
            "still playing after {} bad lines; to xyzzy: {unknown}",
            GARBAGE.len()
        ),
    )
}
