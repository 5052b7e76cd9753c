//! The checks of `go` in all its forms: clocks, `movestogo`, `movetime`, `depth`, `nodes`,
//! `infinite` with `stop`, a small clock that must not be overrun, `isready` during a search,
//! and `ponder` with `ponderhit` when the engine offers `Ponder`.

use super::protocol::{after, bestmove, early_bestmove, illegal, second_bestmove, start, ANSWER};
use super::{Check, CheckResult, Context, Failure, Named};
use crate::Position;
use std::time::{Duration, Instant};

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "go-forms",
            title: "go with clocks, movestogo, movetime, depth, nodes: one legal bestmove each",
            run: go_forms,
        },
        Check {
            id: "small-clock",
            title: "go wtime 100 winc 0: answered within the clock",
            run: small_clock,
        },
        Check {
            id: "infinite-stop",
            title: "go infinite: no bestmove until stop, then one",
            run: infinite_stop,
        },
        Check {
            id: "isready-searching",
            title: "isready answered while searching",
            run: isready_searching,
        },
        Check {
            id: "ponder",
            title: "go ponder, then ponderhit or stop",
            run: ponder,
        },
    ]
}

/// What a clock allows beyond itself for the process round trip (the runner's default margin).
const MARGIN: Duration = Duration::from_millis(100);

fn go_forms(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = start!(context, id, title);
    let position = "position startpos moves e2e4 e7e5";
    let pos = after(&["e2e4", "e7e5"]);
    // (go, the longest it may take)
    let forms = [
        (
            "go wtime 10000 btime 10000 winc 100 binc 100",
            Duration::from_millis(10_000) + MARGIN,
        ),
        (
            "go wtime 10000 btime 10000 movestogo 20",
            Duration::from_millis(10_000) + MARGIN,
        ),
        ("go movetime 200", Duration::from_millis(200) + MARGIN),
        ("go depth 2", ANSWER),
        ("go nodes 2000", ANSWER),
    ];
    let mut slowest = String::new();
    for (go, limit) in forms {
        engine.send(position);
        let (mv, took) = match bestmove(&mut engine, go, limit.max(ANSWER)) {
            Ok(answer) => answer,
            Err(e) => {
                let failure = Failure::silent(
                    &e,
                    &format!("a bestmove after `{go}`"),
                    "answer every form of `go` with one `bestmove`",
                );
                return CheckResult::fail(id, title, failure, engine.transcript());
            }
        };
        let failure = if let Some(why) = illegal(&pos, &mv) {
            Some(Failure::new(
                format!("`{go}`: {why}"),
                "a legal move",
                "play moves of the position that was sent",
            ))
        } else if took > limit {
            Some(Failure::new(
                format!("`{go}` took {} ms", took.as_millis()),
                format!("at most {} ms", limit.as_millis()),
                "respect the time the command allows",
            ))
        } else {
            second_bestmove(&mut engine).map(|extra| {
                Failure::new(
                    format!("`{go}`: a second answer '{extra}'"),
                    "exactly one bestmove per go",
                    "send `bestmove` once per `go`",
                )
            })
        };
        if let Some(failure) = failure {
            return CheckResult::fail(id, title, failure, engine.transcript());
        }
        if go.contains("movetime") {
            slowest = format!("movetime 200 answered in {} ms", took.as_millis());
        }
    }
    CheckResult::pass(id, title, format!("5 forms; {slowest}"))
}

fn small_clock(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = start!(context, id, title);
    let mut slowest = Duration::ZERO;
    for _ in 0..3 {
        engine.send("position startpos");
        match bestmove(&mut engine, "go wtime 100 btime 100 winc 0 binc 0", ANSWER) {
            Ok((mv, took)) => {
                slowest = slowest.max(took);
                let failure = if let Some(why) = illegal(&Position::startpos(), &mv) {
                    Some(Failure::new(
                        why,
                        "a legal move",
                        "play moves of the position that was sent",
                    ))
                } else if took > Duration::from_millis(100) + MARGIN {
                    Some(Failure::new(
                        format!(
                            "answered after {} ms with 100 ms on its clock",
                            took.as_millis()
                        ),
                        "an answer within 100 ms (+100 ms for the round trip)",
                        "keep a reserve for the last moves: never plan more than the clock holds",
                    ))
                } else {
                    None
                };
                if let Some(failure) = failure {
                    return CheckResult::fail(id, title, failure, engine.transcript());
                }
            }
            Err(e) => {
                let failure = Failure::silent(
                    &e,
                    "a bestmove within the clock",
                    "answer `go` even with little time",
                );
                return CheckResult::fail(id, title, failure, engine.transcript());
            }
        }
    }
    CheckResult::pass(
        id,
        title,
        format!("slowest of 3: {} ms", slowest.as_millis()),
    )
}

fn infinite_stop(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = start!(context, id, title);
    engine.send("position startpos");
    engine.send("go infinite");
    if let Some(line) = early_bestmove(&mut engine, Duration::from_millis(300)) {
        let failure = Failure::new(
            format!("'{line}' before stop"),
            "no bestmove during `go infinite` until `stop`",
            "in infinite mode search until `stop`, however sure the move",
        );
        return CheckResult::fail(id, title, failure, engine.transcript());
    }
    let started = Instant::now();
    match bestmove(&mut engine, "stop", Duration::from_secs(2)) {
        Ok((mv, _)) => {
            let failure = if let Some(why) = illegal(&Position::startpos(), &mv) {
                Some(Failure::new(
                    why,
                    "a legal move",
                    "answer `stop` with the best move found so far",
                ))
            } else {
                second_bestmove(&mut engine).map(|extra| {
                    Failure::new(
                        format!("a second answer '{extra}'"),
                        "exactly one bestmove",
                        "send `bestmove` once per `go`",
                    )
                })
            };
            match failure {
                Some(failure) => CheckResult::fail(id, title, failure, engine.transcript()),
                None => CheckResult::pass(
                    id,
                    title,
                    format!("bestmove {} ms after stop", started.elapsed().as_millis()),
                ),
            }
        }
        Err(e) => {
            let failure = Failure::silent(
                &e,
                "bestmove within 2 s of stop",
                "answer `stop` with `bestmove` (the best move so far)",
            );
            CheckResult::fail(id, title, failure, engine.transcript())
        }
    }
}

fn isready_searching(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = start!(context, id, title);
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    let answered = engine.ready(Duration::from_secs(1));
    let took = started.elapsed();
    // The search's own end is another check's business: stop it and move on.
    engine.send("stop");
    let _ = engine.drain(Duration::from_millis(200));
    match answered {
        Ok(()) => CheckResult::pass(
            id,
            title,
            format!(
                "readyok in {:.2} ms during go infinite",
                took.as_secs_f64() * 1e3
            ),
        ),
        Err(e) => {
            let failure = Failure::silent(
                &e,
                "readyok within 1 s, also while searching",
                "read input during the search (a thread of its own) and answer `isready` at once",
            );
            CheckResult::fail(id, title, failure, engine.transcript())
        }
    }
}

fn ponder(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    if !context.has_option("Ponder") {
        return CheckResult::skip(id, title, "the engine has no Ponder option");
    }
    let mut engine = start!(context, id, title);
    engine.send("setoption name Ponder value true");
    // Pondering on 1... e5 after 1. e4: the position includes the expected reply.
    let pos = after(&["e2e4", "e7e5"]);
    let mut said = Vec::new();
    for ending in ["ponderhit", "stop"] {
        engine.send("position startpos moves e2e4 e7e5");
        engine.send("go ponder wtime 5000 btime 5000 winc 0 binc 0");
        if let Some(line) = early_bestmove(&mut engine, Duration::from_millis(300)) {
            let failure = Failure::new(
                format!("'{line}' while pondering"),
                "no bestmove during `go ponder` until ponderhit or stop",
                "while pondering, search until `ponderhit` or `stop`",
            );
            return CheckResult::fail(id, title, failure, engine.transcript());
        }
        match bestmove(&mut engine, ending, Duration::from_millis(5000) + MARGIN) {
            Ok((mv, took)) => {
                if let Some(why) = illegal(&pos, &mv) {
                    let failure = Failure::new(
                        why,
                        "a legal move",
                        "answer with a move of the pondered position",
                    );
                    return CheckResult::fail(id, title, failure, engine.transcript());
                }
                said.push(format!("{ending}: {} ms", took.as_millis()));
            }
            Err(e) => {
                let failure = Failure::silent(
                    &e,
                    &format!("bestmove after {ending}"),
                    "answer `ponderhit` within the clock and `stop` at once",
                );
                return CheckResult::fail(id, title, failure, engine.transcript());
            }
        }
    }
    CheckResult::pass(id, title, said.join(", "))
}
