//! The protocol checks that need no search: the handshake and its option lines, `isready`,
//! positions of every form (and a 1,000-ply game), legal moves in tricky positions, no move
//! where there is none, garbage ignored, `quit` and a closed input ending the process.

use super::options::option_problem;
use super::positions::{MATE, STALEMATE, TRICKY};
use super::{Check, CheckResult, Context, Failure, Named};
use crate::client::{EngineError, EngineProcess};
use crate::notation::uci::parse_move;
use crate::Position;
use std::time::{Duration, Instant};

/// How long a `go depth 1` or a short search may take before it counts as no answer.
pub const ANSWER: Duration = Duration::from_secs(10);

/// The checks that need only `uciok`, not `readyok`.
pub const UCIOK_ONLY: [&str; 2] = ["uci", "options"];

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "uci",
            title: "uci: id name, id author, uciok in time",
            run: uci,
        },
        Check {
            id: "options",
            title: "option lines well-formed",
            run: options,
        },
        Check {
            id: "isready",
            title: "isready answered with readyok",
            run: isready,
        },
        Check {
            id: "positions",
            title: "position startpos / fen (4-6 fields) / moves (1 and 1,000 plies)",
            run: positions,
        },
        Check {
            id: "tricky",
            title: "legal bestmove in tricky positions",
            run: tricky,
        },
        Check {
            id: "no-move",
            title: "mate and stalemate: bestmove 0000 or (none)",
            run: no_move,
        },
        Check {
            id: "garbage",
            title: "unknown commands and garbage ignored",
            run: garbage,
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

/// `go`, then the move of the `bestmove` line and how long it took.
pub fn bestmove(
    engine: &mut EngineProcess,
    go: &str,
    timeout: Duration,
) -> Result<(String, Duration), EngineError> {
    engine.go(go, timeout).map(|(mv, info)| (mv, info.time))
}

/// Why `text` is not a legal move in `pos`, or `None` when it is.
pub fn illegal(pos: &Position, text: &str) -> Option<String> {
    match parse_move(pos, text) {
        Ok(_) => None,
        Err(e) => Some(format!("'{text}' is not legal in {}: {e}", pos.fen())),
    }
}

/// After a `bestmove`: `isready` and the lines up to `readyok`; any further `bestmove` among
/// them is a second answer to one `go`.
pub fn second_bestmove(engine: &mut EngineProcess) -> Option<String> {
    let mut extra = None;
    engine.send("isready");
    let _ = engine.wait_for("readyok", ANSWER, |line| {
        if line.starts_with("bestmove") && extra.is_none() {
            extra = Some(line.to_string());
        }
        line == "readyok"
    });
    extra
}

/// Start the engine for a check, or the failed check.
macro_rules! start {
    ($context:expr, $id:expr, $title:expr) => {
        match $context.start() {
            Ok(engine) => engine,
            Err(failure) => return CheckResult::fail($id, $title, failure, &[]),
        }
    };
}
pub(super) use start;

/// The engine's process, started and recording, before any command (for the handshake checks).
fn spawned(context: &Context) -> Result<EngineProcess, Failure> {
    let mut engine = EngineProcess::spawn(&context.request.engine, None).map_err(|e| {
        Failure::new(
            e.to_string(),
            "the engine starts",
            "check `command` in engines.toml",
        )
    })?;
    engine.record();
    Ok(engine)
}

/// The first `bestmove` the engine sends within `wait` unasked (during a search that must not
/// end by itself), if any.
pub fn early_bestmove(engine: &mut EngineProcess, wait: Duration) -> Option<String> {
    engine
        .drain(wait)
        .into_iter()
        .find(|line| line.starts_with("bestmove"))
}

/// The failure of an engine that sent no `uciok` after `uci`.
pub fn no_uciok(error: &EngineError) -> Failure {
    Failure::silent(
        error,
        "uciok after uci",
        "answer `uci` with the id lines, the options and `uciok`",
    )
}

fn uci(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let config = &context.request.engine;
    let mut engine = match spawned(context) {
        Ok(engine) => engine,
        Err(failure) => return CheckResult::fail(id, title, failure, &[]),
    };
    let limit = Duration::from_millis(config.init_timeout_ms);
    let started = Instant::now();
    let answer = engine.handshake(super::PATIENT_START);
    let took = started.elapsed();
    let lines = match answer {
        Ok(lines) => lines,
        Err(e) => return CheckResult::fail(id, title, no_uciok(&e), engine.transcript()),
    };
    let name = lines.iter().find_map(|l| l.strip_prefix("id name "));
    let author = lines.iter().find_map(|l| l.strip_prefix("id author "));
    let failure = if took > limit {
        Some(Failure::new(
            format!("uciok came after {} ms", took.as_millis()),
            format!(
                "uciok within the init timeout ({} ms, init_timeout_ms)",
                limit.as_millis()
            ),
            "answer `uci` at once; load tables and networks lazily or after `isready`",
        ))
    } else if name.is_none() || author.is_none() {
        Some(Failure::new(
            "no `id name` or no `id author` before uciok",
            "`id name <name>` and `id author <author>` before `uciok`",
            "print both id lines in answer to `uci`",
        ))
    } else {
        None
    };
    match failure {
        Some(failure) => CheckResult::fail(id, title, failure, engine.transcript()),
        None => CheckResult::pass(
            id,
            title,
            format!(
                "uciok in {} ms; {}",
                took.as_millis(),
                name.unwrap_or("").trim()
            ),
        ),
    }
}

fn options(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = match spawned(context) {
        Ok(engine) => engine,
        Err(failure) => return CheckResult::fail(id, title, failure, &[]),
    };
    let lines = match engine.handshake(super::PATIENT_START) {
        Ok(lines) => lines,
        Err(e) => return CheckResult::fail(id, title, no_uciok(&e), engine.transcript()),
    };
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    let problems: Vec<String> = options
        .iter()
        .filter_map(|line| option_problem(line).map(|why| format!("'{line}': {why}")))
        .collect();
    if problems.is_empty() {
        return CheckResult::pass(id, title, format!("{} options", options.len()));
    }
    let failure = Failure::new(
        problems.join("; "),
        "option name <id> type check|spin|combo|button|string, a spin's default within min..max, \
         a combo's default among its vars",
        "fix the option lines printed in answer to `uci`",
    );
    CheckResult::fail(id, title, failure, engine.transcript())
}

fn isready(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = start!(context, id, title);
    let mut slowest = Duration::ZERO;
    for _ in 0..5 {
        let started = Instant::now();
        if let Err(e) = engine.ready(Duration::from_secs(2)) {
            let failure = Failure::silent(
                &e,
                "readyok within 2 s of isready",
                "answer `isready` with `readyok` at once",
            );
            return CheckResult::fail(id, title, failure, engine.transcript());
        }
        slowest = slowest.max(started.elapsed());
    }
    CheckResult::pass(
        id,
        title,
        format!("5 times, slowest {:.2} ms", slowest.as_secs_f64() * 1e3),
    )
}

/// `position ...` then `go depth 1`: a legal bestmove for `pos`, and only one.
fn answers_legally(
    engine: &mut EngineProcess,
    command: &str,
    pos: &Position,
) -> Result<String, Failure> {
    engine.send(command);
    let (mv, _) = bestmove(engine, "go depth 1", ANSWER).map_err(|e| {
        Failure::silent(
            &e,
            "a bestmove after `go depth 1`",
            "answer every `go` with exactly one `bestmove`",
        )
    })?;
    if let Some(why) = illegal(pos, &mv) {
        return Err(Failure::new(
            why,
            format!("a legal move in the position `{command}` sets up"),
            "set the position exactly as the command says (every FEN field, every move)",
        ));
    }
    if let Some(extra) = second_bestmove(engine) {
        return Err(Failure::new(
            format!("a second answer to one go: '{extra}'"),
            "exactly one bestmove per go",
            "send `bestmove` once per `go`",
        ));
    }
    Ok(mv)
}

/// The 1,000 plies of knights going out and back (legal, and long).
fn shuffle(plies: usize) -> (String, Position) {
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut pos = Position::startpos();
    let mut command = String::from("position startpos moves");
    for text in cycle.iter().cycle().take(plies) {
        command.push(' ');
        command.push_str(text);
        pos = pos.play(parse_move(&pos, text).expect("a knight's move"));
    }
    (command, pos)
}

fn positions(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = start!(context, id, title);
    engine.send("ucinewgame");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
    let pos = |fen: &str| Position::from_fen(fen).expect("a valid FEN");
    let (long, after_long) = shuffle(1000);
    let cases: Vec<(String, Position)> = vec![
        ("position startpos".into(), Position::startpos()),
        (format!("position fen {kiwipete} 0 1"), pos(kiwipete)),
        (format!("position fen {kiwipete} 0"), pos(kiwipete)),
        (format!("position fen {kiwipete}"), pos(kiwipete)),
        (
            "position startpos moves e2e4".into(),
            pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        ),
        (long, after_long),
    ];
    for (command, position) in &cases {
        if let Err(failure) = answers_legally(&mut engine, command, position) {
            return CheckResult::fail(id, title, failure, engine.transcript());
        }
    }
    CheckResult::pass(
        id,
        title,
        format!("{} positions, the longest 1,000 plies", cases.len()),
    )
}

fn tricky(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = start!(context, id, title);
    for case in TRICKY {
        let pos = Position::from_fen(case.fen).expect("a valid FEN");
        let command = format!("position fen {}", case.fen);
        match answers_legally(&mut engine, &command, &pos) {
            Err(mut failure) => {
                failure.what = format!("{}: {}", case.name, failure.what);
                return CheckResult::fail(id, title, failure, engine.transcript());
            }
            Ok(mv) => {
                if let Some(only) = case.only_move {
                    if mv != only {
                        let failure = Failure::new(
                            format!("{}: answered '{mv}'", case.name),
                            format!("'{only}', the only legal move"),
                            "generate legal moves only",
                        );
                        return CheckResult::fail(id, title, failure, engine.transcript());
                    }
                }
            }
        }
    }
    CheckResult::pass(id, title, format!("{} positions", TRICKY.len()))
}

fn no_move(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = start!(context, id, title);
    let mut said = Vec::new();
    for (what, fen) in [("checkmate", MATE), ("stalemate", STALEMATE)] {
        engine.send(&format!("position fen {fen}"));
        match bestmove(&mut engine, "go depth 1", ANSWER) {
            Ok((mv, _)) if mv == "0000" || mv == "(none)" => said.push(format!("{what}: {mv}")),
            Ok((mv, _)) => {
                let failure = Failure::new(
                    format!("{what}: answered '{mv}'"),
                    "bestmove 0000 (or (none))",
                    "answer `bestmove 0000` when the side to move has no legal move",
                );
                return CheckResult::fail(id, title, failure, engine.transcript());
            }
            Err(e) => {
                let failure = Failure::silent(
                    &e,
                    "bestmove 0000 (or (none))",
                    "answer every `go`, even with no legal move: `bestmove 0000`",
                );
                return CheckResult::fail(id, title, failure, engine.transcript());
            }
        }
    }
    CheckResult::pass(id, title, said.join(", "))
}

/// Lines an engine must survive: unknown commands, commands cut short, bad values, bytes that
/// are no text.
pub const GARBAGE: [&str; 8] = [
    "xyzzy",
    "position",
    "go perft x",
    "setoption name",
    "\u{1}\u{7f}junk",
    "position fen 8/8/8 w",
    "debug maybe",
    "",
];

/// Whether the engine survived `line`: it answers `isready` within 2 s. A `go` it does not
/// understand may start a search (commonly an unbounded one, as a bare `go` does): it gets a
/// `stop`, as a GUI would send, and the search's `bestmove` is read before the next line.
fn survives(engine: &mut EngineProcess, line: &str) -> Result<(), EngineError> {
    if line.split_whitespace().next() != Some("go") {
        return engine.ready(Duration::from_secs(2));
    }
    engine.send("stop");
    engine.send("isready");
    let (mut answered, mut searched) = (false, false);
    engine.wait_for("readyok", Duration::from_secs(2), |line| {
        answered |= line.starts_with("bestmove");
        // `info string` is a message (a complaint about the line, often), not a search.
        searched |= line.starts_with("info") && !line.starts_with("info string");
        line == "readyok"
    })?;
    if answered {
        return Ok(());
    }
    // The `bestmove` of a stopped search may follow the `readyok`: wait for it when the engine
    // showed a search, and look a moment for one when it did not.
    if searched {
        let _ = engine.wait_for("bestmove after stop", Duration::from_secs(2), |line| {
            line.starts_with("bestmove")
        });
    } else {
        let _ = engine.drain(Duration::from_millis(300));
    }
    Ok(())
}

fn garbage(context: &Context, named: Named) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = start!(context, id, title);
    // One line at a time, each followed by isready, so a failure names the line.
    for line in GARBAGE {
        engine.send(line);
        if let Err(e) = survives(&mut engine, line) {
            let failure = Failure::new(
                format!("after the line {line:?}: {e}"),
                "readyok: an engine ignores lines it does not understand (the specification says so)",
                "check every command's arguments before using them and ignore a line that does not parse",
            );
            return CheckResult::fail(id, title, failure, engine.transcript());
        }
    }
    match answers_legally(&mut engine, "position startpos", &Position::startpos()) {
        Ok(_) => CheckResult::pass(
            id,
            title,
            format!("still answering after {} bad lines", GARBAGE.len()),
        ),
        Err(failure) => CheckResult::fail(id, title, failure, engine.transcript()),
    }
}

pub(super) fn quit(context: &Context, named: Named) -> CheckResult {
    ends_process(
        context,
        named,
        |engine| engine.send("quit"),
        Failure::new(
            "still running 5 s after quit",
            "the process ends at once",
            "exit on `quit`",
        ),
    )
}

pub(super) fn eof(context: &Context, named: Named) -> CheckResult {
    ends_process(
        context,
        named,
        EngineProcess::close_input,
        Failure::new(
            "still running 5 s after its input closed",
            "the process ends when its input does (the GUI is gone)",
            "treat end of input as `quit`",
        ),
    )
}

/// How long a process may take to end after `quit` or a closed input: long enough that a
/// loaded machine does not fail an engine that exits at once (GNU Chess, starved on a machine
/// busy with other work, once took over 2 s), short enough that a hang is clear.
const EXIT_WAIT: Duration = Duration::from_secs(5);

/// Do `end` to a fresh engine: it passes when the process is gone within [`EXIT_WAIT`].
fn ends_process(
    context: &Context,
    named: Named,
    end: impl FnOnce(&mut EngineProcess),
    failure: Failure,
) -> CheckResult {
    let Named { id, title } = named;
    let mut engine = start!(context, id, title);
    end(&mut engine);
    let started = Instant::now();
    if engine.exited_within(EXIT_WAIT) {
        let took = format!("ended in {} ms", started.elapsed().as_millis());
        return CheckResult::pass(id, title, took);
    }
    CheckResult::fail(id, title, failure, engine.transcript())
}

/// The start position after `moves` (legal, in UCI notation).
pub fn after(moves: &[&str]) -> Position {
    moves.iter().fold(Position::startpos(), |pos, text| {
        let mv = parse_move(&pos, text).expect("a legal move");
        pos.play(mv)
    })
}
