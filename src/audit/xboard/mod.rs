//! The audit of an xboard engine (CECP version 2, H. G. Muller's specification): the feature
//! negotiation and its option declarations, `ping`/`pong` when idle, while it thinks and after
//! moves, `setboard` (or `edit`) of the tricky positions the UCI audit uses, followed by `sd 1`
//! and `go`, the result claims of mate and stalemate, `result` at the end of a game, a whole
//! game at `sd 1` against random moves, Chess960 through `variant fischerandom`, garbage,
//! `quit` and a closed input. Each check starts the engine afresh through the runner's own
//! xboard client, so what is audited is what a match sends.

/// Start the engine for a check, or return the failed check.
macro_rules! fresh {
    ($context:expr, $named:expr) => {
        match fresh($context, $named) {
            Ok(engine) => engine,
            Err(result) => return *result,
        }
    };
}

mod play;

use super::protocol::{eof, quit, ANSWER};
use super::{Check, CheckResult, Context, Failure, Named};
use crate::client::xboard::{declared_option, game_line, GameLine};
use crate::client::xboard::{FEATURE_WAIT, FEATURE_WAIT_SPEAKING};
use crate::client::{
    Answer, EngineError, EngineProcess, GoOrder, Negotiation, Said, TimeControl, Turn,
};
use crate::game::Game;
use crate::notation::uci::parse_move;
use crate::{CastlingMode, Move, Position};
use std::time::Duration;

/// The pause between `xboard` and `protover 2` of the second start of an engine that does not
/// answer them written together.
pub const PACE: Duration = Duration::from_millis(300);

/// How many starts `features` makes with `protover 2` written right after `xboard` before it
/// passes an engine: GNU Chess 6.2.7 misses the second line when both arrive in one read, and
/// catches it at some starts on a loaded machine, when it reads between the two writes.
pub const UNPACED_STARTS: usize = 3;

/// How long a `pong` may take once it is due.
const PONG_WAIT: Duration = Duration::from_secs(2);

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "features",
            title: "protover 2: features, done=1 within 2 s",
            run: features,
        },
        Check {
            id: "options",
            title: "feature option=\"...\" declarations well-formed",
            run: options,
        },
        Check {
            id: "ping",
            title: "ping answered with one pong N each, in order",
            run: ping,
        },
        Check {
            id: "ping-thinking",
            title: "ping while thinking and after moves: pong only after the move",
            run: ping_thinking,
        },
        Check {
            id: "sd",
            title: "sd 1 limits the search to one ply",
            run: play::depth_one,
        },
        Check {
            id: "setboard",
            title: "setboard (or edit) of tricky positions, sd 1, go: a legal move",
            run: play::setboard,
        },
        Check {
            id: "no-move",
            title: "mate and stalemate: the result claimed, no move",
            run: play::no_move,
        },
        Check {
            id: "game",
            title: "a game at sd 1 against random moves: legal moves, true claims",
            run: play::game,
        },
        Check {
            id: "result",
            title: "result ends a game: no move after it, pong, a new game plays",
            run: play::result,
        },
        Check {
            id: "chess960",
            title: "variant fischerandom: X-FEN setboard, castling",
            run: play::chess960,
        },
        Check {
            id: "garbage",
            title: "unknown commands and bad arguments survived",
            run: play::garbage,
        },
        Check {
            id: "quit",
            title: "quit ends the process",
            run: quit,
        },
        Check {
            id: "eof",
            title: "closed input ends the process",
            run: eof,
        },
    ]
}

/// The failure of an xboard engine that died at its start or did not answer the `ping` after
/// its features.
pub fn unstarted(error: &EngineError) -> Failure {
    Failure::silent(
        error,
        "features ending in `feature done=1` after `protover 2`, then `pong N` after `ping N`",
        "answer `protover 2` with your features and `feature done=1`, and `ping N` with `pong N`",
    )
}

/// One turn of the engine in `game`, at the audit's level (depth 1: no clock).
fn turn(game: &Game, mode: CastlingMode) -> Turn<'_> {
    let level = TimeControl::depth(1);
    Turn {
        game,
        mode,
        own: level,
        opponent: level,
        clocks: [level.new_clock(); 2],
        order: GoOrder::default(),
    }
}

/// A fresh engine for a check, or the failed check.
fn fresh(context: &Context, named: Named) -> Result<EngineProcess, Box<CheckResult>> {
    context
        .start()
        .map_err(|failure| Box::new(CheckResult::fail(named.id, named.title, failure, &[])))
}

/// The time per move sent after `sd 1`, so that an engine that ignores `sd` (the `sd` check
/// says which) still answers soon: the specification makes `sd` and `st` orthogonal.
pub const DEPTH_ONE_TIME: &str = "st 1";

/// `new` and the rest of a game's start at `level`, then `ping`; at `sd 1` also
/// [`DEPTH_ONE_TIME`].
fn new_game(
    engine: &mut EngineProcess,
    mode: CastlingMode,
    level: TimeControl,
) -> Result<(), Failure> {
    engine.new_game(mode, level, ANSWER).map_err(|e| {
        Failure::silent(
            &e,
            "pong N after `new`, `force`, the time control and `ping N`",
            "answer `ping N` with `pong N` once the commands before it are done",
        )
    })?;
    if level == TimeControl::depth(1) {
        engine.send(DEPTH_ONE_TIME);
    }
    Ok(())
}

/// A legal move read from the engine's answer in `game`, and the draw it claimed with it.
fn read_move(game: &Game, answer: Answer) -> Result<(Move, Option<String>), Failure> {
    let fen = game.position().fen();
    match answer {
        Answer::Move {
            text, draw_claim, ..
        } => match parse_move(game.position(), &text) {
            Ok(mv) => Ok((mv, draw_claim)),
            Err(e) => Err(Failure::new(
                format!("'{text}' is not legal in {fen}: {e}"),
                "a legal move, as `move MOVE`",
                "set the position exactly as `setboard`/`edit` and the moves say",
            )),
        },
        Answer::Claim(claim) => Err(Failure::new(
            format!("claimed {claim:?} instead of moving in {fen}, which has legal moves"),
            "a legal move, as `move MOVE`",
            "claim a result only when the rules end the game",
        )),
    }
}

/// The engine's move in `game` (it is to move), legal, or the failure.
fn engine_move(
    engine: &mut EngineProcess,
    game: &Game,
    mode: CastlingMode,
) -> Result<(Move, Option<String>), Failure> {
    let answer = engine.think(&turn(game, mode), ANSWER).map_err(|e| {
        Failure::silent(
            &e,
            "`move MOVE` after `go`",
            "answer `go` with `move MOVE` within the time control",
        )
    })?;
    read_move(game, answer)
}

/// True when the engine's `done=1` came within the specification's 2 seconds of `protover 2`
/// (or at any time after a `done=0`).
fn in_time(negotiation: &Negotiation) -> bool {
    negotiation
        .done
        .is_some_and(|done| negotiation.extended || done <= FEATURE_WAIT)
}

fn features(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let config = &context.request.engine;
    let mut said = Vec::new();
    let mut tries: Vec<Negotiation> = Vec::new();
    // Up to UNPACED_STARTS starts with `protover 2` right after `xboard` (an engine that misses
    // it only when the two lines arrive in one read may still catch it at one start), then,
    // after the first miss, one start with a pause between them.
    while tries.len() <= UNPACED_STARTS {
        let missed = tries.iter().any(|t| !in_time(t));
        let pace = if missed { PACE } else { Duration::ZERO };
        if !missed && tries.len() == UNPACED_STARTS {
            break;
        }
        let mut engine = match EngineProcess::spawn(config, None) {
            Ok(engine) => engine,
            Err(e) => {
                let failure = Failure::new(e.to_string(), "the engine starts", "check `command`");
                return CheckResult::fail(id, title, failure, &[]);
            }
        };
        engine.record();
        let started = engine.start_xboard(config, pace);
        if !missed {
            said.clear();
        }
        said.extend_from_slice(engine.transcript());
        if let Err(e) = started {
            return CheckResult::fail(id, title, unstarted(&e), &said);
        }
        let negotiation = engine.negotiation().cloned().unwrap_or_default();
        let done = in_time(&negotiation);
        tries.push(negotiation);
        if missed {
            break;
        }
        if !done {
            said.push(Said::Sent(format!(
                "(a new process: {} ms pause after xboard)",
                PACE.as_millis()
            )));
        }
    }
    let unpaced = tries.iter().filter(|t| t.pause.is_zero()).count();
    let first = tries.iter().find(|t| !in_time(t)).unwrap_or(&tries[0]);
    let last = tries.last().expect("one try");
    let summary = |n: &Negotiation| {
        let listed = |accepted| {
            let names = n.names(accepted);
            match names.is_empty() {
                true => "none".to_string(),
                false => names.join(" "),
            }
        };
        format!("accepted: {}; rejected: {}", listed(true), listed(false))
    };
    let failure = if !in_time(first) && in_time(last) {
        Some(Failure::new(
            format!(
                "no feature done=1 within 2 s of `protover 2` written right after `xboard` (at \
                 start {unpaced} of up to {UNPACED_STARTS}); with {} ms between them, done=1 in {} \
                 ms ({})",
                PACE.as_millis(),
                last.done.unwrap_or_default().as_millis(),
                summary(last)
            ),
            "features ending in `feature done=1` within 2 s of `protover 2`, however the two \
             lines arrive (XBoard and cutechess-cli write them one right after the other)",
            "read every line of input: `protover 2` can come in the same read as `xboard`",
        ))
    } else if !in_time(last) {
        let what = match last.done {
            Some(late) => format!(
                "feature done=1 only {} ms after `protover 2` ({} features): the specification \
                 lets a client take it as a protocol 1 engine after 2 s (the runner waits {} s \
                 once features come, as cutechess-cli does)",
                late.as_millis(),
                last.features.len(),
                FEATURE_WAIT_SPEAKING.as_secs()
            ),
            None => format!(
                "no feature done=1 within 2 s of `protover 2` ({} features): taken as a \
                 protocol 1 engine (no ping, setboard, usermove)",
                last.features.len()
            ),
        };
        Some(Failure::new(
            what,
            "`feature ... done=1` within 2 s of `protover 2` (or `done=0` first, then `done=1`)",
            "answer `protover 2` with your features and end them with `feature done=1`",
        ))
    } else {
        last.misplaced.first().map(|line| {
            Failure::new(
                format!("a feature not at the start of its line: '{line}' (not read as a feature)"),
                "each `feature` line starting with `feature`",
                "print no prompt in xboard mode (after the `xboard` command)",
            )
        })
    };
    match failure {
        Some(failure) => CheckResult::fail(id, title, failure, &said),
        None => {
            let extended = if last.extended { " (after done=0)" } else { "" };
            let done = last.done.unwrap_or_default().as_millis();
            let detail = format!("done=1 in {done} ms{extended}; {}", summary(last));
            CheckResult::pass(id, title, detail)
        }
    }
}

fn options(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let Some(negotiation) = &context.negotiation else {
        return CheckResult::skip(id, title, "the engine did not start");
    };
    let declared: Vec<&str> = negotiation
        .features
        .iter()
        .filter(|f| f.name == "option")
        .map(|f| f.value.as_str())
        .collect();
    let bad: Vec<String> = declared
        .iter()
        .filter(|value| declared_option(value).is_none())
        .map(|value| format!("'{value}'"))
        .collect();
    if bad.is_empty() {
        return CheckResult::pass(id, title, format!("{} options", declared.len()));
    }
    let failure = Failure::new(
        format!("options not readable: {}", bad.join(", ")),
        "option=\"NAME -TYPE ...\" with TYPE check, spin or slider (default min max), combo, \
         button, save, string, file or path",
        "fix the feature option=\"...\" declarations",
    );
    CheckResult::fail(id, title, failure, &[])
}

/// Why a check that needs `ping=1` is skipped, when the engine lacks it.
fn without_ping(context: &Context) -> Option<String> {
    match &context.negotiation {
        Some(n) if n.has("ping") => None,
        Some(_) => Some("no feature ping=1".into()),
        None => Some("the engine did not start".into()),
    }
}

/// The pongs read, in order, in the exchange since `from` (lines `pong N`).
fn pongs_in(said: &[Said]) -> Vec<u32> {
    said.iter()
        .filter_map(|s| match s {
            Said::Received(line) => line.trim().strip_prefix("pong ")?.trim().parse().ok(),
            Said::Sent(_) => None,
        })
        .collect()
}

fn ping(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    if let Some(why) = without_ping(context) {
        return CheckResult::skip(id, title, why);
    }
    let mut engine = fresh!(context, named);
    let numbers: Vec<u32> = (101..=105).collect();
    // Written together, in one write.
    for n in &numbers[..numbers.len() - 1] {
        engine.queue(&format!("ping {n}"));
    }
    engine.send(&format!("ping {}", numbers[numbers.len() - 1]));
    let last = format!("pong {}", numbers[numbers.len() - 1]);
    let waited = engine.wait_for(&last, PONG_WAIT, |l| l.trim() == last);
    engine.drain(Duration::from_millis(200));
    let pongs = pongs_in(engine.transcript());
    if let Err(e) = waited {
        let failure = Failure::silent(&e, "pong 101 ... pong 105", "answer `ping N` with `pong N`");
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    if pongs != numbers {
        let failure = Failure::new(
            format!("five pings sent together answered {pongs:?}"),
            "pong 101 ... pong 105, each once, in order",
            "answer each `ping N` with one `pong N`",
        );
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    CheckResult::pass(id, title, "5 pings sent together, 5 pongs in order")
}

/// Where a ping round went wrong: the pongs must come after the move, each once, in order.
fn pong_order(said: &[Said], numbers: &[u32]) -> Option<String> {
    let mut moved = false;
    let mut early = Vec::new();
    let mut pongs = Vec::new();
    for s in said {
        let Said::Received(line) = s else { continue };
        if let Some(n) = line.trim().strip_prefix("pong ") {
            let n: u32 = n.trim().parse().unwrap_or(0);
            if !moved {
                early.push(n);
            }
            pongs.push(n);
        } else if matches!(game_line(line), GameLine::Move(_)) {
            moved = true;
        }
    }
    if !early.is_empty() {
        return Some(format!("pong {early:?} before its move"));
    }
    (pongs != numbers).then(|| format!("pongs {pongs:?} for pings {numbers:?}"))
}

fn ping_thinking(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    if let Some(why) = without_ping(context) {
        return CheckResult::skip(id, title, why);
    }
    let mut engine = fresh!(context, named);
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut game = Game::new(Position::from_fen(kiwipete).expect("a valid FEN"));
    let mode = CastlingMode::Standard;
    if let Err(failure) = new_game(
        &mut engine,
        mode,
        TimeControl::move_time(Duration::from_secs(1)),
    ) {
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    let rounds = 3;
    for round in 0..rounds {
        engine.record();
        let numbers: Vec<u32> = (1..=5).map(|k| 1000 + 10 * round + k).collect();
        let pings = |engine: &mut EngineProcess| {
            for n in &numbers {
                engine.send(&format!("ping {n}"));
            }
        };
        let answer = engine.think_then(&turn(&game, mode), ANSWER, pings);
        let answer = answer.map_err(|e| {
            Failure::silent(
                &e,
                "`move MOVE` after `go`",
                "answer `go` with a move in time",
            )
        });
        let moved = answer.and_then(|answer| read_move(&game, answer));
        let mv = match moved {
            Ok((mv, _)) => mv,
            Err(failure) => return CheckResult::fail(id, title, failure, engine.transcript()),
        };
        let last_number = numbers[numbers.len() - 1];
        let last = format!("pong {last_number}");
        // The pongs may have come already (before the move, or with it).
        let waited = match pongs_in(engine.transcript()).contains(&last_number) {
            true => Ok(String::new()),
            false => engine.wait_for(&last, PONG_WAIT, |l| l.trim() == last),
        };
        engine.drain(Duration::from_millis(100));
        let wrong = match waited {
            Err(e) => Some(format!("{e} after its move")),
            Ok(_) => pong_order(engine.transcript(), &numbers),
        };
        if let Some(wrong) = wrong {
            let when = match round {
                0 => "sent after `go`".to_string(),
                _ => format!("sent after our move {round}"),
            };
            let failure = Failure::new(
                format!("5 pings {when}: {wrong}"),
                "the move, then pong N for each ping N, in order (the specification: a ping \
                 received while thinking is answered after the move)",
                "queue a ping that comes while you think and answer it after your move",
            );
            return CheckResult::fail(id, title, failure, engine.transcript());
        }
        game.play(mv);
        if round + 1 < rounds {
            let reply = game.legal_moves().iter().next().copied();
            match reply {
                Some(reply) if game.ending().is_none() => game.play(reply),
                _ => break,
            }
            if game.ending().is_some() {
                break;
            }
        }
    }
    CheckResult::pass(
        id,
        title,
        "5 pings while thinking (st 1), after go and after 2 of our moves: pongs after each move",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn received(lines: &[&str]) -> Vec<Said> {
        lines
            .iter()
            .map(|l| Said::Received(l.to_string()))
            .collect()
    }

    #[test]
    fn pongs_must_follow_the_move_each_once_in_order() {
        let numbers = [1, 2];
        let right = received(&["3 10 5 100 e2e4", "move e2e4", "pong 1", "pong 2"]);
        assert_eq!(pong_order(&right, &numbers), None);
        // GNU Chess: answered while thinking, and twice.
        let early = received(&["pong 1", "pong 1", "pong 2", "pong 2", "move e2e4"]);
        assert_eq!(
            pong_order(&early, &numbers).as_deref(),
            Some("pong [1, 1, 2, 2] before its move")
        );
        let twice = received(&["move e2e4", "pong 1", "pong 2", "pong 2"]);
        assert!(pong_order(&twice, &numbers).is_some());
        let swapped = received(&["move e2e4", "pong 2", "pong 1"]);
        assert!(pong_order(&swapped, &numbers).is_some());
        assert_eq!(pongs_in(&received(&["pong 7", "pong x", "ping 3"])), [7]);
    }
}
