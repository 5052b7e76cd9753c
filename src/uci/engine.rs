//! The engine's state machine: what each command does to the held game, the options, a held
//! `bestmove` (`go infinite`/`go ponder`) and a running `go perft`.
//!
//! Every command either succeeds or prints `info string error: ...` and changes nothing. While a
//! `go perft` counts on its worker thread, `isready`, `stop`, `quit` and `debug` are answered at
//! once (unless commands already wait, then they queue behind them) and every other command
//! waits in a queue until the count ends, so commands still act in the order they were sent. All output is written from the loop's thread.

use super::command::{parse_line, Command, GoCommand};
use super::display::describe;
use super::history::{History, Update};
use super::options::{OptionName, Options};
use super::output::Output;
use super::random::{fresh_seed, SplitMix};
use super::Event;
use crate::game::Game;
use crate::movegen::MoveList;
use crate::perft::{divide, Divide, PerftOptions};
use crate::uci_move::{format_move, parse_move, CastlingMode};
use crate::{FenCastling, Move, Position};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;
use vampirc_uci::{
    Duration, Serializable, UciInfoAttribute, UciMessage, UciMove, UciPiece, UciSquare,
};

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

/// The per-game seed drawn for `Seed` 0, and the start position of the game it belongs to.
#[derive(Debug, Clone)]
struct GameSeed {
    seed: u64,
    start: Position,
}

/// The engine between commands.
pub struct Engine<'w> {
    out: Output<'w>,
    options: Options,
    history: History,
    debug: bool,
    held: Option<Held>,
    perft: Option<PerftJob>,
    deferred: VecDeque<String>,
    end_of_input: bool,
    game_seed: Option<GameSeed>,
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
            deferred: VecDeque::new(),
            end_of_input: false,
            game_seed: None,
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
            Event::Eof => {
                self.end_of_input = true;
                self.after_input_ends()
            }
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

    fn after_input_ends(&mut self) -> Flow {
        // Input has ended: finish what was asked (a running count first), then leave.
        if self.perft.is_some() {
            Flow::Continue
        } else {
            Flow::Quit
        }
    }

    fn while_counting(&mut self, line: String) -> Flow {
        let command = parse_line(&line);
        if command == Ok(Some(Command::Quit)) && self.deferred.is_empty() {
            return Flow::Quit;
        }
        if !self.deferred.is_empty() {
            // Commands are waiting: this one belongs after them (a `stop` here is meant for a
            // `go` still in the queue, an `isready` for everything before it, and a `quit`
            // comes after the queued commands have run, as a script of commands expects).
            self.deferred.push_back(line);
            return Flow::Continue;
        }
        match command {
            Ok(Some(Command::IsReady)) => self.send("readyok"),
            Ok(Some(Command::Stop)) => {
                if let Some(job) = &self.perft {
                    job.stop.store(true, Ordering::Relaxed);
                }
            }
            Ok(Some(Command::Debug(on))) => self.debug = on,
            _ => self.deferred.push_back(line),
        }
        Flow::Continue
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
        while self.perft.is_none() {
            let Some(line) = self.deferred.pop_front() else {
                break;
            };
            if self.execute(&line) == Flow::Quit {
                return Flow::Quit;
            }
        }
        if self.end_of_input {
            self.after_input_ends()
        } else {
            Flow::Continue
        }
    }

    /// Carry out one line while no count is running.
    pub fn execute(&mut self, line: &str) -> Flow {
        let command = match parse_line(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Flow::Continue,
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
                self.game_seed = None;
                self.trace("new game");
            }
            Command::Position(command) => match self.history.apply(&command, self.fen_style()) {
                Ok(update) => self.trace_update(update),
                Err(e) => self.error(&format!("position: {e}")),
            },
            Command::Go(go) => self.go(go),
            Command::Stop => self.release_held(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => return Flow::Quit,
            Command::Display => {
                for line in describe(&self.history, self.options.generator, self.fen_style()) {
                    self.send(&line);
                }
            }
        }
        Flow::Continue
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
        let before = self.options.clone();
        match self.options.set(name, value) {
            Ok(OptionName::DebugLogFile) => {
                let path = self.options.debug_log_file.clone();
                if let Err(e) = self.out.set_log_file(&path) {
                    self.options = before;
                    self.error(&format!("option Debug Log File: cannot open '{path}': {e}"));
                }
            }
            Ok(option) => self.trace(&format!("option {} set", option.as_str())),
            Err(e) => self.error(&e.to_string()),
        }
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
        if let Some(depth) = go.perft {
            self.start_perft(depth);
            return;
        }
        let game = self.history.game();
        let mut legal = MoveList::new();
        self.options
            .generator
            .legal_moves(game.position(), &mut legal);
        let state = game_state(game, legal.len());
        let in_check = game.position().in_check();
        if state != "ongoing" || self.debug {
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
            UciMessage::best_move(self.vampirc_move(mv)).serialize()
        };
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

    fn choose(&mut self, candidates: &[Move]) -> Move {
        let seed = self.seed();
        let game_hash = self.history.game_hash();
        let index = SplitMix::for_game(seed, game_hash).below(candidates.len());
        self.trace(&format!(
            "seed {seed}, game hash {game_hash:016x}: move {} of {}",
            index + 1,
            candidates.len()
        ));
        candidates[index]
    }

    /// The seed of this move: the `Seed` option, or for `Seed` 0 the game's own seed, drawn from
    /// the OS at the first `go` of each game (after `ucinewgame` or a new start position).
    fn seed(&mut self) -> u64 {
        if self.options.seed > 0 {
            return self.options.seed;
        }
        let start = self.history.game().start();
        match &self.game_seed {
            Some(drawn) if drawn.start == *start => drawn.seed,
            _ => {
                let seed = fresh_seed();
                self.game_seed = Some(GameSeed {
                    seed,
                    start: start.clone(),
                });
                self.info(&format!("seed {seed}"));
                seed
            }
        }
    }

    fn start_perft(&mut self, depth: u32) {
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
                let result = divide(&pos, depth, &options, Some(&worker_stop));
                let _ = events.send(Event::PerftDone(result));
            });
        match spawned {
            Ok(handle) => {
                self.perft = Some(PerftJob {
                    stop,
                    handle,
                    mode: self.castling_mode(),
                })
            }
            Err(e) => self.error(&format!("go perft: cannot start a thread: {e}")),
        }
    }

    fn vampirc_move(&self, mv: Move) -> UciMove {
        let text = format_move(mv, self.castling_mode());
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

    fn castling_mode(&self) -> CastlingMode {
        if self.options.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    fn fen_style(&self) -> FenCastling {
        if self.options.chess960 {
            FenCastling::Shredder
        } else {
            FenCastling::XFen
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

/// The game's state in words: `ongoing`, `over: <rule>` or `draw claimable: <rule>`.
pub fn game_state(game: &Game, legal_moves: usize) -> String {
    match (game.ending_with(legal_moves), game.claimable_draw()) {
        (Some(ending), _) => format!("over: {ending}"),
        (None, Some(claim)) => format!("draw claimable: {claim}"),
        (None, None) => "ongoing".to_string(),
    }
}
