//! The match runner: plays games between two engines with our rules as the arbiter.
//!
//! Every move an engine sends is checked against our legal moves (both castling notations are
//! accepted; each engine is sent moves in the notation of the game's mode). A game ends by the
//! rules (mate, stalemate, repetition, 50/75-move rules, insufficient material; claimable draws
//! are claimed at once) or by the optional ply limit; the runner never sends `go` in a finished
//! position. An engine that sends an illegal move, overruns its clock, crashes, hangs (during a
//! game, or between games at `ucinewgame` and `isready`) or fails its handshake loses the game,
//! its last words kept for the game's forensics, and is restarted for the next one (in a tool's
//! form, as the tool does, one that moved illegally or answered after its clock ran out plays
//! on: [`super::misbehaving`]): failures are results.
//!
//! Games run on `concurrency` worker threads, each with its own engine processes (the two of
//! the game in hand). The [`Schedule`] says who plays whom, with which colours and opening; the
//! per-game engine seeds are a pure function of the match seed and the game's index; an
//! engine whose configuration sets `Seed` keeps that value in every game instead.
//!
//! An interrupt (the match's `interrupt` flag, raised on Ctrl-C or SIGTERM) stops scheduling,
//! ends the running games at once as unfinished (result `*`, [`Termination::Interrupted`]) and
//! lets every worker drop, and so kill, its engines.

use super::adjudication::{Adjudication, Adjudicator, Verdict};
use super::dialect::Dialect;
use super::feed::{Fed, Feed, Listed};
use super::match_game::{Forensics, MatchGame, Termination};
use super::not_ready::NotReady;
use super::openings::Opening;
use super::report::{EngineOptions, OptionWarning};
use super::schedule::{Schedule, ScheduledGame};
use super::stop::{Halt, RunStop};
use super::tablebase::TablebaseJudge;
use crate::client::MoveInfo;
use crate::client::{Echo, EngineConfig, EngineError, EngineProcess, GoOrder, TimeControl};
use crate::game::{Finish, Game, GameRecord, Outcome};
use crate::notation::polyglot::Book;
use crate::types::splitmix::mix;
use crate::{CastlingMode, Color, Move};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Everything a match needs, resolved from engines.toml and the command line.
#[derive(Debug, Clone)]
pub struct MatchPlan {
    /// The engines, in the tournament's order (the schedule refers to them by index).
    pub engines: Vec<EngineConfig>,
    /// Who plays whom, with which colours and opening.
    pub schedule: Schedule,
    /// Games at once.
    pub concurrency: usize,
    /// Each engine's limits (its time control and the overrun its clock allows), in the
    /// tournament's order: the match's, unless the engine was given its own.
    pub limits: Vec<Limits>,
    /// The openings the schedule refers to (used round and round if there are fewer).
    pub openings: Vec<Opening>,
    /// Seed of the engine seeds.
    pub seed: u64,
    /// Draw after this many plies (0: never).
    pub max_plies: u32,
    /// Draw and resign adjudication from the engines' scores.
    pub adjudication: Adjudication,
    /// Adjudication by the Syzygy tables, opened.
    pub tablebase: Option<Arc<TablebaseJudge>>,
    /// Each engine's own opening book (`book` in engines.toml), loaded, with its depth in moves.
    pub books: Vec<Option<(Arc<Book>, u32)>>,
    /// Where UCI's `go` puts a node or depth cap beside the time (the word order of the tool
    /// whose command line the run follows).
    pub go_order: GoOrder,
    /// How long a `go` without a clock may take.
    pub hang_timeout: Duration,
    /// Whose command line the run follows (`None`: Shannon's own), for what the tools do with
    /// an engine that failed ([`super::misbehaving`]).
    pub dialect: Option<Dialect>,
    /// Raised to end the match now: running games end unfinished, no new game starts.
    pub interrupt: Arc<AtomicBool>,
    /// Play on after a crash or a stall (the engine restarted); false stops the run after the
    /// game (no `-recover`).
    pub recover: bool,
    /// Ping the engine to move with `isready` before and after its move, a `readyok` later
    /// than this being a stall (fastchess's `-ping-ms`).
    pub ping: Option<Duration>,
    /// How long a worker waits before each game after its first (`-wait N`).
    pub wait: Duration,
    /// Where every engine's lines are copied as they go (`-debug`, `-log engine=true`).
    pub echo: Option<Arc<dyn Echo>>,
    /// The run's own stop: raised by a worker when a failure stops the run ([`RunStop`]).
    pub(crate) halt: Arc<Halt>,
}

/// How one engine's moves are limited.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Its time control.
    pub time_control: TimeControl,
    /// How far past its clock it may answer.
    pub time_margin: Duration,
}

/// An engine's move on its turn, with what it said.
#[derive(Debug, Clone)]
pub(super) struct EngineMove {
    /// The move, legal.
    pub(super) mv: Move,
    /// What the engine said of it, and its timing.
    pub(super) info: MoveInfo,
    /// The draw an xboard engine claimed with it.
    pub(super) draw_claim: Option<String>,
    /// The reply it expects (`ponder R`), legal after the move, when it may ponder.
    pub(super) reply: Option<Move>,
}

/// What the runner tells as it plays.
#[derive(Debug)]
pub enum RunEvent {
    /// A game starts.
    Started(ScheduledGame),
    /// A game ended (or an interrupt cut it short).
    Finished(Box<MatchGame>),
    /// An engine started for a game was not given one of its configured options.
    Warning(OptionWarning),
    /// An engine started for a game, with the options it declared and the values they hold.
    Options(EngineOptions),
}

/// Whether the match stops at a finished game (the SPRT's decision): asked by the worker that
/// played it, as soon as it ends, in the order games end.
pub type StopRule<'a> = dyn FnMut(&MatchGame) -> bool + Send + 'a;

/// The feed and the stop rule under one lock: once the rule says stop at a game, no worker
/// takes another.
struct Dispatch<'r, 'a, 'f> {
    feed: &'f mut (dyn Feed + 'f),
    rule: Option<&'r mut StopRule<'a>>,
}

impl MatchPlan {
    /// Play the games `todo` (schedule indices, in that order), telling `results` when each
    /// starts and sending it there as soon as it ends. No new game starts once `stop` is
    /// raised, or once `rule` says stop at a game that ended (it raises `stop` then); the games
    /// running then are played to their end.
    pub fn run(
        &self,
        todo: &[u32],
        results: mpsc::Sender<RunEvent>,
        stop: &AtomicBool,
        rule: Option<&mut StopRule<'_>>,
    ) {
        let mut listed = Listed {
            schedule: &self.schedule,
            todo,
            next: 0,
        };
        self.run_feed(&mut listed, results, stop, rule);
    }

    /// Play the games `feed` hands out, as [`MatchPlan::run`] plays a list: a worker that asks
    /// while the feed must wait for a result waits until a game ends (or the run stops).
    pub(super) fn run_feed(
        &self,
        feed: &mut dyn Feed,
        results: mpsc::Sender<RunEvent>,
        stop: &AtomicBool,
        rule: Option<&mut StopRule<'_>>,
    ) {
        let dispatch = Mutex::new(Dispatch { feed, rule });
        let ended = Condvar::new();
        std::thread::scope(|scope| {
            for _ in 0..self.concurrency.max(1) {
                let results = results.clone();
                let (dispatch, ended) = (&dispatch, &ended);
                scope.spawn(move || {
                    // At most the two engines of the game in hand run: a worker keeps them for
                    // its next game when it needs them again.
                    let mut engines: Vec<Option<EngineProcess>> =
                        self.engines.iter().map(|_| None).collect();
                    let mut first = true;
                    loop {
                        if !std::mem::take(&mut first) {
                            self.pause();
                        }
                        let scheduled = {
                            let mut dispatch = dispatch.lock().unwrap_or_else(|e| e.into_inner());
                            loop {
                                if stop.load(Ordering::Relaxed) || self.interrupted() {
                                    break None;
                                }
                                match dispatch.feed.next() {
                                    Fed::Play(game) => break Some(game),
                                    Fed::Done => break None,
                                    Fed::Wait => {
                                        dispatch = ended
                                            .wait_timeout(dispatch, Duration::from_millis(50))
                                            .unwrap_or_else(|e| e.into_inner())
                                            .0;
                                    }
                                }
                            }
                        };
                        let Some(scheduled) = scheduled else {
                            break;
                        };
                        if results.send(RunEvent::Started(scheduled)).is_err() {
                            break;
                        }
                        let mut told = Vec::new();
                        let record = self.play_game(&scheduled, &mut engines, &mut told);
                        for event in told {
                            if results.send(event).is_err() {
                                break;
                            }
                        }
                        {
                            let mut dispatch = dispatch.lock().unwrap_or_else(|e| e.into_inner());
                            dispatch.feed.finished(&record);
                            if let Some(rule) = dispatch.rule.as_mut() {
                                if rule(&record) {
                                    stop.store(true, Ordering::Relaxed);
                                }
                            }
                        }
                        ended.notify_all();
                        if results.send(RunEvent::Finished(Box::new(record))).is_err() {
                            break;
                        }
                    }
                    ended.notify_all();
                });
            }
        });
    }

    /// The time controls of `game`: White's and Black's.
    pub fn time_controls(&self, game: &ScheduledGame) -> [TimeControl; 2] {
        [game.white, game.black].map(|slot| self.limits[slot].time_control)
    }

    /// The wait between a worker's games (`-wait N`), cut short by an interrupt.
    fn pause(&self) {
        let until = Instant::now() + self.wait;
        while !self.interrupted() {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            std::thread::sleep(left.min(Duration::from_millis(20)));
        }
    }

    /// True once the match has been interrupted, or a failure stopped it.
    pub(super) fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed) || self.halt.is_raised()
    }

    /// Make sure engine `slot` runs and is ready for a new game: started (and its handshake
    /// done) if it does not run, then `ucinewgame` and `isready`. An engine that fails is
    /// dropped, its log kept in the error.
    fn prepare(
        &self,
        slot: usize,
        engines: &mut [Option<EngineProcess>],
        castling: CastlingMode,
        game_seed: u64,
        told: &mut Vec<RunEvent>,
    ) -> Result<(), NotReady> {
        let config = &self.engines[slot];
        // An xboard engine that asked not to be reused (`reuse=0`), or one configured to restart
        // (`restart=on`), starts anew for each game.
        if engines[slot]
            .as_ref()
            .is_some_and(|e| !e.reusable() || config.restart)
        {
            engines[slot] = None;
        }
        let fresh = engines[slot].is_none();
        if fresh {
            let interrupt = Some(Arc::clone(&self.interrupt));
            let mut engine = EngineProcess::spawn(config, interrupt).map_err(|error| NotReady {
                error,
                fresh,
                log: None,
            })?;
            if let Some(echo) = &self.echo {
                engine.echo_to(Arc::clone(echo), &config.name);
            }
            if let Err(error) = engine.initialise(config, castling) {
                return Err(NotReady::of(error, fresh, engine));
            }
            told.extend(engine.take_option_problems().into_iter().map(|problem| {
                RunEvent::Warning(OptionWarning {
                    engine: config.name.clone(),
                    problem,
                })
            }));
            engines[slot] = Some(engine);
        }
        let engine = engines[slot].as_mut().expect("started above");
        if engine.has_option("UCI_Chess960") {
            engine.set_option("UCI_Chess960", &castling.is_chess960().to_string());
        }
        // A configured Seed was sent at start-up and stays: the user chose it.
        if engine.has_option("Seed") && config.configured_seed().is_none() {
            let seed = mix(game_seed ^ slot as u64) % 2_000_000_000 + 1;
            engine.set_option("Seed", &seed.to_string());
        }
        // cutechess-cli's engine key `debug` (`-debug all`): UCI's debug mode, asked each game.
        if config.debug && config.protocol.is_uci() {
            engine.send("debug on");
        }
        // cutechess-cli's engine key `ponder`, to an engine that declares the option (which
        // cutechess-cli tells `false` when the key is absent; fastchess tells it nothing).
        if engine.has_option("Ponder")
            && (config.ponder || self.dialect == Some(Dialect::Cutechess))
        {
            engine.set_option("Ponder", &config.ponder.to_string());
        }
        let timeout = Duration::from_millis(config.init_timeout_ms);
        let time_control = self.limits[slot].time_control;
        if fresh {
            told.push(RunEvent::Options(EngineOptions {
                engine: config.name.clone(),
                settings: engine.option_settings(),
            }));
        }
        if let Err(error) = engine.new_game(castling, time_control, timeout) {
            let engine = engines[slot].take().expect("prepared above");
            return Err(NotReady::of(error, fresh, engine));
        }
        Ok(())
    }

    /// Play game `scheduled` with the worker's engines; the options an engine started for it
    /// was not given, and the options of each engine started for it, go to `told`.
    fn play_game(
        &self,
        scheduled: &ScheduledGame,
        engines: &mut [Option<EngineProcess>],
        told: &mut Vec<RunEvent>,
    ) -> MatchGame {
        let index = scheduled.index;
        let opening = &self.openings[scheduled.opening % self.openings.len()];
        for (slot, engine) in engines.iter_mut().enumerate() {
            if slot != scheduled.white && slot != scheduled.black {
                *engine = None;
            }
        }
        let slot_of = |color: Color| match color {
            Color::White => scheduled.white,
            Color::Black => scheduled.black,
        };
        let mut played = MatchGame {
            number: index + 1,
            white: self.engines[slot_of(Color::White)].name.clone(),
            black: self.engines[slot_of(Color::Black)].name.clone(),
            record: GameRecord::new(opening.start.clone(), opening.castling),
            termination: None,
            infos: Vec::new(),
            forensics: None,
        };
        let game_seed = mix(self.seed ^ u64::from(index).wrapping_mul(0x1000_0001));
        for color in [Color::White, Color::Black] {
            let slot = slot_of(color);
            match self.prepare(slot, engines, opening.castling, game_seed, told) {
                Ok(()) => {}
                Err(NotReady {
                    error: EngineError::Interrupted { .. },
                    ..
                }) => {
                    played.termination = Some(Termination::Interrupted);
                    return played;
                }
                Err(not_ready) => {
                    let termination = not_ready.termination(color);
                    if let Some(failure) = not_ready.start_failure() {
                        // It cannot play: the run stops, and this game is left unplayed.
                        let config = &self.engines[slot_of(color)];
                        self.halt.raise(RunStop::StartFailure {
                            game: played.number,
                            engine: config.name.clone(),
                            command: config.command.clone(),
                            failure,
                            forensics: None,
                        });
                    } else {
                        played.record.outcome = Outcome::Win(!color);
                    }
                    played.termination = Some(termination);
                    played.forensics = Some(not_ready.forensics(color));
                    self.stop_unless_recovering(&played);
                    return played;
                }
            }
        }
        let mut game = Game::replay(&opening.start, &opening.moves);
        // The opening's moves are book moves: the PGN marks them `{book}`, as cutechess-cli
        // and fastchess do.
        let book = MoveInfo {
            book: true,
            ..MoveInfo::default()
        };
        played
            .infos
            .extend((1..=opening.moves.len()).map(|ply| (ply, book)));
        let mut book_rng = SmallRng::seed_from_u64(mix(game_seed ^ 0x626f_6f6b));
        let played_out = self.play_out(
            &mut game,
            engines,
            &slot_of,
            opening.castling,
            &mut played.infos,
            &mut played.forensics,
            &mut book_rng,
        );
        match played_out {
            Ok(finish) => {
                played.record.outcome = finish.outcome();
                played.record.finish = Some(finish);
            }
            Err((outcome, termination)) => {
                played.record.outcome =
                    self.forfeit_outcome(game.position(), outcome, &termination);
                played.termination = Some(termination);
            }
        }
        played.record.moves = game.moves().to_vec();
        MatchPlan::stop_pondering(engines, self.hang_timeout);
        // The xboard engines still in the game are told its result.
        let result = played.record.outcome.to_string();
        let reason = played.describe();
        for color in [Color::White, Color::Black] {
            if let Some(engine) = engines[slot_of(color)].as_mut() {
                engine.game_over(&result, &reason);
            }
        }
        self.stop_unless_recovering(&played);
        played
    }

    /// Without `-recover`, a game an engine lost by crashing or stalling stops the run.
    fn stop_unless_recovering(&self, played: &MatchGame) {
        let (side, stalled) = match played.termination {
            Some(Termination::Crash(side)) => (side, false),
            Some(Termination::Hang(side)) => (side, true),
            _ => return,
        };
        if self.recover || !played.is_finished() {
            return;
        }
        let engine = match side {
            Color::White => &played.white,
            Color::Black => &played.black,
        };
        self.halt.raise(RunStop::NoRecover {
            game: played.number,
            engine: engine.clone(),
            stalled,
        });
    }

    /// Alternate `go` requests until the rules end the game (claimable draws are claimed at
    /// once): `Ok` with the rule, or `Err` with the outcome and what else ended it.
    #[allow(clippy::too_many_arguments)]
    fn play_out(
        &self,
        game: &mut Game,
        engines: &mut [Option<EngineProcess>],
        slot_of: &dyn Fn(Color) -> usize,
        mode: CastlingMode,
        infos: &mut Vec<(usize, MoveInfo)>,
        forensics: &mut Option<Forensics>,
        book_rng: &mut SmallRng,
    ) -> Result<Finish, (Outcome, Termination)> {
        // When the game's last `bestmove` was read: the runner's delay before each `go`.
        let mut last_read = None;
        let mut clocks = [Color::White, Color::Black]
            .map(|color| self.limits[slot_of(color)].time_control.new_clock());
        let mut judge = Adjudicator::new(self.adjudication);
        let mut verdict = None;
        // Book moves each side may still take (0 once its book has no move for a position).
        let mut in_book = [Color::White, Color::Black].map(|color| {
            self.books[slot_of(color)]
                .as_ref()
                .map_or(0, |(_, depth)| *depth)
        });
        // Whether a player has moved since the last look (the opening's moves are not theirs).
        let mut moved = false;
        // The reply each side's engine expects to its last move, when it may ponder on it.
        let mut replies: [Option<Move>; 2] = [None, None];
        loop {
            let legal = game.legal_moves();
            if let Some(finish) = game.status_with(legal.len()).finish_claiming() {
                return Ok(finish);
            }
            // The tables come before the scores' rules, as in both tools.
            if let Some(tables) = &self.tablebase {
                let after = moved.then(|| tables.after_move(game)).flatten();
                if let Some(outcome) = after.or_else(|| tables.before_move(game)) {
                    return Err((outcome, Termination::Tablebase));
                }
            }
            moved = true;
            match verdict.take() {
                Some(Verdict::Draw(rule)) => {
                    return Err((Outcome::Draw, Termination::Adjudication(rule)))
                }
                Some(Verdict::Win(winner, rule)) => {
                    return Err((Outcome::Win(winner), Termination::Adjudication(rule)))
                }
                None => {}
            }
            if self.max_plies > 0 && game.moves().len() >= self.max_plies as usize {
                return Err((Outcome::Draw, Termination::PlyLimit));
            }
            if self.interrupted() {
                return Err((Outcome::Unfinished, Termination::Interrupted));
            }
            let side = game.position().side_to_move();
            let slot = slot_of(side);
            if let Some(mv) = self.book_move(game, slot, &mut in_book[side.index()], book_rng) {
                // No pondering on a book move (cutechess-cli's `clearPonderState`).
                replies[(!side).index()] = None;
                game.play(mv);
                let info = MoveInfo {
                    book: true,
                    ..MoveInfo::default()
                };
                infos.push((game.moves().len(), info));
                continue;
            }
            // The waiting engine ponders on the reply it expects while this one thinks.
            let waiting = slot_of(!side);
            self.start_pondering(
                game,
                engines,
                waiting,
                replies[(!side).index()].take(),
                &clocks,
                self.limits[slot].time_control,
                mode,
                forensics,
            )?;
            let move_number = game.position().fullmove_number();
            let EngineMove {
                mv,
                info,
                draw_claim,
                reply,
            } = self.engine_move(
                game,
                engines,
                slot,
                &mut clocks,
                self.limits[slot_of(!side)].time_control,
                mode,
                last_read,
                forensics,
            )?;
            last_read = info.timing.bestmove_read;
            replies[side.index()] = reply;
            game.play(mv);
            infos.push((game.moves().len(), info));
            // An xboard engine's draw claim with its move holds when the move draws.
            if let Some(claim) = draw_claim {
                let legal = game.legal_moves().len();
                let drawn = game
                    .status_with(legal)
                    .finish_claiming()
                    .is_some_and(|finish| finish.outcome() == Outcome::Draw);
                if !drawn {
                    if let Some(engine) = engines[slot].as_ref() {
                        *forensics = Some(Forensics {
                            side,
                            log: engine.log(),
                            file: None,
                            unwritten: None,
                        });
                    }
                    return Err((Outcome::Win(!side), Termination::FalseClaim(side, claim)));
                }
            }
            if game.position().halfmove_clock() == 0 {
                judge.irreversible_move();
            }
            // The rules come first: a mate on this move stands whatever the scores say.
            verdict = judge.record(side, move_number, info.score);
        }
    }

    /// The move of the book in `slot` for the position, while its side is still in book
    /// (`in_book` plies left, counted down; set to 0 once the book has no move for a position).
    fn book_move(
        &self,
        game: &Game,
        slot: usize,
        in_book: &mut u32,
        book_rng: &mut SmallRng,
    ) -> Option<Move> {
        if *in_book == 0 {
            return None;
        }
        let (book, _) = self.books[slot].as_ref().expect("a depth means a book");
        let mv = book.choose(game.position(), book_rng);
        *in_book = if mv.is_some() { *in_book - 1 } else { 0 };
        mv
    }
}
