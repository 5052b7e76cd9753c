//! The engine's state machine: what each command does to the held game, the options, a held
//! `bestmove` (`go infinite`/`go ponder`) and a running `go perft`.
//!
//! Every command either succeeds or prints `info string error: ...` and changes nothing, with one
//! deliberate exception: a rejected `position` leaves no position to play, so every `go` answers
//! `bestmove 0000` until a good `position` arrives (a GUI must never get a move for a position it
//! did not send).
//!
//! While a `go perft` counts on its worker thread, `isready` is answered at once, `stop` ends the
//! count and `debug` takes effect at once, whatever is queued; every other command, `quit`
//! included, waits in a queue until the count ends, so those still act in the order they were
//! sent, and the end of input is obeyed once the count has printed (as Stockfish does: a script
//! that pipes `go perft 3` and `quit`, or just ends, gets its count). All output is written
//! from the loop's thread.

use super::command::{parse_line, Command, CommandError, GoCommand};
use super::display::{describe, game_state, notable_state};
use super::event::Event;
use super::history::{History, Update};
use super::options::{ApplyError, OptionName, Options};
use super::output::Output;
use super::random::{choose_index, fresh_index, seeded_index};
use crate::movegen::MoveList;
use crate::notation::uci::{format_move, parse_move};
use crate::perft::{divide_in, plan_hash, Divide, PerftOptions, PerftTable};
use crate::{CastlingMode, Move};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;
use vampirc_uci::{
    Duration, Serializable, UciInfoAttribute, UciMessage, UciMove, UciPiece, UciSquare,
};

/// What `help` prints: the commands, for a person at a terminal (a GUI never sends it).
const HELP: [&str; 17] = [
    "Shannon plays a uniformly random legal move. A GUI or a match runner speaks UCI to it;",
    "these are the commands, one a line:",
    "  uci                               identify, list the options, then uciok",
    "  isready                           answer readyok (at once, even while go perft counts)",
    "  setoption name NAME [value V]     set an option (uci lists them)",
    "  ucinewgame                        forget the game",
    "  position startpos [moves M ...]   the game from the start, or",
    "  position fen FEN [moves M ...]    from a FEN (X-FEN or Shredder-FEN)",
    "  go                                answer bestmove: a random legal move",
    "  go perft N                        count the moves to depth N, each root move's count",
    "  stop                              end a count, or release a held bestmove (go infinite)",
    "  d                                 show the board, its FEN and key",
    "  debug on|off                      say what the engine does, as info string lines",
    "  help                              this list",
    "  quit                              leave",
    "xboard as the first command speaks the xboard protocol instead.",
    "The toolkit (matches, perft checks, studies) is in the subcommands: shannon --help.",
];

/// Whether the loop goes on after an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next event.
    Continue,
    /// Leave the loop.
    Quit,
}

/// A `bestmove` waiting for `stop` (or `ponderhit`).
#[derive(Debug, Clone)]
struct Held {
    line: String,
    infinite: bool,
}

/// A `go perft` counting on its worker thread.
struct PerftJob {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    mode: CastlingMode,
}

/// The engine between commands.
pub struct Engine<'w> {
    out: Output<'w>,
    options: Options,
    history: History,
    debug: bool,
    held: Option<Held>,
    perft: Option<PerftJob>,
    /// The `go perft` table and the `Hash` it was made for: made when `Hash` is set (or by the
    /// first `go perft`), kept from count to count (its entries stay exact) until `Hash` changes.
    /// Its memory is taken untouched from the system, so making one costs nothing whatever its
    /// size.
    perft_table: Option<(usize, Option<Arc<PerftTable>>)>,
    deferred: VecDeque<String>,
    /// The input has ended while a count ran: leave once the count and the queue are done.
    input_ended: bool,
    /// Why the last `position` command was refused, while no good one has followed.
    rejected_position: Option<String>,
    events: Sender<Event>,
}

impl<'w> Engine<'w> {
    /// A fresh engine writing to `out`; a `go perft` reports its result on `events`.
    pub fn new(out: Output<'w>, events: Sender<Event>) -> Engine<'w> {
        Engine {
            out,
            options: Options::default(),
            history: History::default(),
            debug: false,
            held: None,
            perft: None,
            perft_table: None,
            deferred: VecDeque::new(),
            input_ended: false,
            rejected_position: None,
            events,
        }
    }

    /// React to one event.
    pub fn handle(&mut self, event: Event) -> Flow {
        let flow = match event {
            Event::Line(line) => {
                self.out.record_input(&line);
                if self.perft.is_some() {
                    self.while_counting(line)
                } else {
                    self.execute(&line)
                }
            }
            // The input has ended: a running count still finishes and prints (a script that
            // pipes `go perft` in reads the answer after writing its last line), then the loop
            // ends; with nothing counting it ends at once.
            Event::Eof if self.perft.is_some() => {
                self.input_ended = true;
                Flow::Continue
            }
            Event::Eof => Flow::Quit,
            Event::PerftDone(result) => self.perft_done(result),
        };
        if self.out.is_closed() {
            Flow::Quit
        } else {
            flow
        }
    }

    /// Leave cleanly: abort a running count and send a held `bestmove` (one per `go`).
    pub fn finish(&mut self) {
        if let Some(job) = self.perft.take() {
            job.stop.store(true, Ordering::Relaxed);
            let _ = job.handle.join();
        }
        self.release_held();
    }

    /// A line that arrives while a count runs. `isready` and `stop` overtake whatever is queued
    /// (`isready` "immediately", as the specification asks); the rest, `quit` included, waits
    /// for the count, in order: `go perft 5` then `quit` prints the count first, as Stockfish's
    /// does (`stop` then `quit` ends the process promptly).
    fn while_counting(&mut self, line: String) -> Flow {
        match parse_line(&line) {
            Ok(Some(Command::IsReady)) => self.send("readyok"),
            Ok(Some(Command::Debug(on))) => self.debug = on,
            Ok(Some(Command::Stop)) => {
                self.stop_count();
                // A `go` queued before this `stop` is stopped too when its turn comes.
                if !self.deferred.is_empty() {
                    self.deferred.push_back(line);
                }
            }
            _ => self.deferred.push_back(line),
        }
        Flow::Continue
    }

    fn stop_count(&mut self) {
        if let Some(job) = &self.perft {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    fn perft_done(&mut self, result: Option<Divide>) -> Flow {
        let Some(job) = self.perft.take() else {
            return Flow::Continue;
        };
        let _ = job.handle.join();
        match result {
            Some(divide) => {
                for (mv, count) in &divide.moves {
                    self.send(&format!("{}: {count}", format_move(*mv, job.mode)));
                }
                self.send("");
                self.send(&format!("Nodes searched: {}", divide.nodes));
                self.send("");
            }
            None => self.info("perft stopped"),
        }
        while let Some(line) = self.deferred.pop_front() {
            if self.perft.is_none() {
                if self.execute(&line) == Flow::Quit {
                    return Flow::Quit;
                }
            } else if parse_line(&line) == Ok(Some(Command::Stop)) {
                // A `stop` that was queued behind the `go perft` just started.
                self.stop_count();
            } else {
                self.deferred.push_front(line);
                break;
            }
        }
        if self.input_ended && self.perft.is_none() {
            return Flow::Quit;
        }
        Flow::Continue
    }

    /// Carry out one line while no count is running.
    pub fn execute(&mut self, line: &str) -> Flow {
        let command = match parse_line(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Flow::Continue,
            Err(
                e @ CommandError::Malformed {
                    command: "position",
                    ..
                },
            ) => {
                self.reject_position(e.to_string());
                return Flow::Continue;
            }
            Err(e) => {
                self.error(&e.to_string());
                return Flow::Continue;
            }
        };
        match command {
            Command::Uci => self.uci(),
            Command::Debug(on) => {
                self.debug = on;
                self.trace(&format!("debug {}", if on { "on" } else { "off" }));
            }
            Command::IsReady => self.send("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register => self.trace("register: nothing to register; ignored"),
            Command::UciNewGame => {
                self.history = History::default();
                self.trace("new game");
            }
            Command::Position(command) => match self.history.apply(&command, self.options.castling)
            {
                Ok((update, warnings)) => {
                    self.rejected_position = None;
                    for warning in warnings {
                        self.info(&format!("warning: {warning}"));
                    }
                    self.trace_update(update);
                }
                Err(e) => self.reject_position(format!("position: {e}")),
            },
            Command::Go(go) => self.go(go),
            Command::Stop => self.release_held(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => return Flow::Quit,
            Command::Display => {
                for line in describe(&self.history, self.options.generator, self.options.castling) {
                    self.send(&line);
                }
            }
            Command::Help => {
                for line in HELP {
                    self.send(line);
                }
            }
        }
        Flow::Continue
    }

    /// A `position` command was refused: say why, and play no move until a good one arrives.
    fn reject_position(&mut self, reason: String) {
        self.error(&reason);
        self.rejected_position = Some(reason);
    }

    fn uci(&mut self) {
        let name = format!("Shannon {}", env!("CARGO_PKG_VERSION"));
        self.send(&UciMessage::id_name(&name).serialize());
        self.send(&UciMessage::id_author("the Shannon authors").serialize());
        for line in Options::declarations() {
            self.send(&line);
        }
        self.send(&UciMessage::UciOk.serialize());
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.apply(name, value, &mut self.out) {
            Ok(OptionName::DebugLogFile) => {}
            Ok(OptionName::Hash) => self.make_perft_table(),
            Ok(option) => self.trace(&format!("option {} set", option.as_str())),
            Err(ApplyError::LogFile { path, error }) => self.error(&format!(
                "option Debug Log File: cannot open '{path}': {error}"
            )),
            Err(ApplyError::Refused(e)) => self.error(&e.to_string()),
        }
    }

    /// A new `go perft` table of `Hash` MiB (the old one given back first), cut down to what the
    /// machine has, with an error saying so.
    fn make_perft_table(&mut self) {
        self.perft_table = None;
        let hash_mb = self.options.hash_mb;
        let granted = plan_hash(hash_mb).unwrap_or_else(|shortfall| {
            self.error(&format!("option Hash: {shortfall}"));
            shortfall.granted_mb
        });
        self.perft_table = Some((hash_mb, PerftTable::new(granted).map(Arc::new)));
        self.trace(&format!("option Hash set: a table of {granted} MiB"));
    }

    fn ponderhit(&mut self) {
        match &mut self.held {
            Some(held) if held.infinite => {}
            Some(_) => self.release_held(),
            None => {}
        }
    }

    fn release_held(&mut self) {
        if let Some(held) = self.held.take() {
            self.send(&held.line);
        }
    }

    fn go(&mut self, go: GoCommand) {
        let started = Instant::now();
        // One bestmove per go: a go that arrives while one is held answers the held one first.
        self.release_held();
        for warning in &go.warnings {
            self.error(&format!("go: {warning}"));
        }
        if self.debug && !go.limits.is_empty() {
            let limits: Vec<String> = go.limits.iter().map(|(n, v)| format!("{n} {v}")).collect();
            self.trace(&format!(
                "go limits (not needed to move at random): {}",
                limits.join(" ")
            ));
        }
        if let Some(reason) = self.rejected_position.clone() {
            self.error(&format!(
                "go: no position to play: the last position command was refused ({reason}); \
                 send a valid position"
            ));
            if go.perft.is_none() {
                self.answer(&go, "bestmove 0000".to_string());
            }
            return;
        }
        if let Some(depth) = go.perft {
            self.start_perft(depth);
            return;
        }
        let game = self.history.game();
        let mut legal = MoveList::new();
        self.options
            .generator
            .legal_moves(game.position(), &mut legal);
        let state = notable_state(game, &legal, self.options.castling);
        let in_check = game.position().in_check();
        if state.is_some() || self.debug {
            let state = state.unwrap_or_else(|| game_state(game, &legal, self.options.castling));
            self.info(&format!("game state: {state}"));
        }
        let bestmove = if legal.is_empty() {
            let score = if in_check {
                UciInfoAttribute::from_mate(0)
            } else {
                UciInfoAttribute::from_centipawns(0)
            };
            self.send(&UciMessage::Info(vec![UciInfoAttribute::Depth(0), score]).serialize());
            "bestmove 0000".to_string()
        } else {
            let candidates = self.candidates(&legal, &go.searchmoves);
            let mv = self.choose(&candidates);
            let attributes = vec![
                UciInfoAttribute::Depth(1),
                UciInfoAttribute::SelDepth(1),
                UciInfoAttribute::MultiPv(1),
                UciInfoAttribute::from_centipawns(0),
                UciInfoAttribute::Nodes(candidates.len() as u64),
                UciInfoAttribute::Time(
                    Duration::milliseconds(started.elapsed().as_millis() as i64),
                ),
                UciInfoAttribute::Pv(vec![self.vampirc_move(mv)]),
            ];
            self.send(&UciMessage::Info(attributes).serialize());
            let ponder = match self.options.ponder {
                true => self
                    .expected_reply(mv)
                    .map(|reply| self.vampirc_move(reply)),
                false => None,
            };
            UciMessage::BestMove {
                best_move: self.vampirc_move(mv),
                ponder,
            }
            .serialize()
        };
        self.answer(&go, bestmove);
    }

    /// Send `bestmove`, or hold it until `stop`/`ponderhit` for `go infinite`/`go ponder`.
    fn answer(&mut self, go: &GoCommand, bestmove: String) {
        if go.infinite || go.ponder {
            self.held = Some(Held {
                line: bestmove,
                infinite: go.infinite,
            });
        } else {
            self.send(&bestmove);
        }
    }

    /// The moves to choose from, in a fixed order (by their 16-bit code) so that the choice does
    /// not depend on the generator: the legal moves, or those among `searchmoves` when any is.
    fn candidates(&mut self, legal: &[Move], searchmoves: &[String]) -> Vec<Move> {
        let pos = self.history.game().position().clone();
        let mut chosen: Vec<Move> = Vec::new();
        for text in searchmoves {
            match parse_move(&pos, text) {
                Ok(mv) if legal.contains(&mv) => chosen.push(mv),
                Ok(_) => self.error(&format!(
                    "go: searchmoves '{text}' is not a legal move here"
                )),
                Err(e) => self.error(&format!("go: searchmoves {e}")),
            }
        }
        if chosen.is_empty() {
            if !searchmoves.is_empty() {
                self.error("go: no legal move among searchmoves; choosing among all legal moves");
            }
            chosen = legal.to_vec();
        }
        chosen.sort_unstable_by_key(|mv| mv.to_bits());
        chosen.dedup();
        chosen
    }

    /// The move to play. `Seed` N > 0: a pure function of N and the game. `Seed` 0: a uniform
    /// draw from fresh OS entropy at every `go`, whatever came before, followed by
    /// `info string seed S`, a seed with which `Seed` mode plays the same move here.
    fn choose(&mut self, candidates: &[Move]) -> Move {
        let game_hash = self.history.game_hash();
        let n = candidates.len();
        let (index, seed) = choose_index(self.options.seed, game_hash, n);
        if self.options.seed == 0 {
            match seed {
                Some(seed) => self.info(&format!("seed {seed}")),
                None => self.info("seed none: no seed found that replays this move"),
            }
        }
        self.trace(&format!(
            "seed {}, game hash {game_hash:016x}: move {} of {n}",
            seed.map_or("none".to_string(), |s| s.to_string()),
            index + 1,
        ));
        candidates[index]
    }

    /// The reply expected after `mv` (`bestmove ... ponder M`, with `Ponder` on): the move this
    /// engine's own choice would make there (with `Seed` N, the one it plays if the game comes
    /// to it; with `Seed` 0, a fresh draw); none when `mv` ends the game.
    fn expected_reply(&self, mv: Move) -> Option<Move> {
        let mut after = self.history.clone();
        after.push(mv);
        let mut legal = MoveList::new();
        self.options
            .generator
            .legal_moves(after.game().position(), &mut legal);
        let mut candidates = legal.to_vec();
        candidates.sort_unstable_by_key(|mv| mv.to_bits());
        (!candidates.is_empty()).then(|| {
            let n = candidates.len();
            candidates[match self.options.seed {
                0 => fresh_index(n),
                seed => seeded_index(seed, after.game_hash(), n),
            }]
        })
    }

    fn start_perft(&mut self, depth: u32) {
        if self.perft_table.as_ref().map(|(mb, _)| *mb) != Some(self.options.hash_mb) {
            self.make_perft_table();
        }
        let table = self.perft_table.as_ref().and_then(|(_, t)| t.clone());
        let pos = self.history.game().position().clone();
        let options = PerftOptions {
            generator: self.options.generator,
            threads: self.options.threads,
            hash_mb: self.options.hash_mb,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let worker_stop = Arc::clone(&stop);
        let events = self.events.clone();
        let spawned = std::thread::Builder::new()
            .name("uci-perft".to_string())
            .spawn(move || {
                let in_use = table.as_ref().map(|t| t.for_count(&pos, depth));
                let result = divide_in(&pos, depth, &options, in_use, Some(&worker_stop));
                let _ = events.send(Event::PerftDone(result));
            });
        match spawned {
            Ok(handle) => {
                self.perft = Some(PerftJob {
                    stop,
                    handle,
                    mode: self.options.castling,
                })
            }
            Err(e) => self.error(&format!("go perft: cannot start a thread: {e}")),
        }
    }

    fn vampirc_move(&self, mv: Move) -> UciMove {
        let text = format_move(mv, self.options.castling);
        let square = |s: &str| {
            let b = s.as_bytes();
            UciSquare::from(b[0] as char, b[1] - b'0')
        };
        UciMove {
            from: square(&text[0..2]),
            to: square(&text[2..4]),
            promotion: text.get(4..5).and_then(|p| p.parse::<UciPiece>().ok()),
        }
    }

    fn trace_update(&mut self, update: Update) {
        let plies = self.history.game().moves().len();
        match update {
            Update::Rebuilt { moves } => self.trace(&format!(
                "position rebuilt: {moves} move(s) played from the start"
            )),
            Update::Extended { added } => self.trace(&format!(
                "position extended by {added} move(s); {plies} held"
            )),
        }
    }

    fn send(&mut self, line: &str) {
        self.out.send(line);
    }

    fn info(&mut self, text: &str) {
        self.send(&UciMessage::info_string(text.to_string()).serialize());
    }

    fn error(&mut self, text: &str) {
        log::info!("error: {text}");
        self.info(&format!("error: {text}"));
    }

    /// Extra `info string` lines after `debug on`.
    fn trace(&mut self, text: &str) {
        if self.debug {
            self.info(&format!("debug: {text}"));
        }
    }
}
