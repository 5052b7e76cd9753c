//! One run of a match, from its first game to its report: the games come from the runner as
//! they finish; each is counted in the standings, given to the SPRT (which takes the games in
//! schedule order: [`super::sprt_run`]), recorded (state first, then the files:
//! [`super::recorder`]) and told to the observer. Once the SPRT decides no new game starts; the
//! running ones finish and are recorded. At the end the games an interrupt cut short go to the
//! PGN as `*`, the state is saved once more, and the report is made.

use super::dialect::Dialect;
use super::error::ArenaError;
use super::feed::KnockoutFeed;
use super::game_output::{game_epd, game_forensics, game_pgn, PgnStyle};
use super::knockout::{Knockout, KnockoutResult};
use super::match_game::{MatchGame, Termination};
use super::prepare::Prepared;
use super::recorder::{Recorder, Store};
use super::report::{
    GameFinished, GameStarted, KnockoutReport, Latency, MatchObserver, MatchReport, MatchStart,
    SprtReport, StateReport,
};
use super::runner::{MatchPlan, RunEvent, StopRule};
use super::schedule::{ScheduledGame, TournamentKind};
use super::sprt_run::{SprtRun, SprtStatus};
use super::standings::EncounterTally;
use super::state::MatchState;
use super::stop::RunStop;
use crate::stats::{nearest_rank, Sprt};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A run in progress.
pub(super) struct Session<S: Store> {
    plan: MatchPlan,
    start: MatchStart,
    sprt: Option<Sprt>,
    pgn_style: PgnStyle,
    /// The shard's games (schedule indices), in the order they are played.
    todo: Vec<u32>,
    /// The index in `todo` of each scheduled game.
    index_of: HashMap<u32, usize>,
    state_path: Option<PathBuf>,
    state: MatchState,
    recorder: Recorder<S>,
    started: Instant,
    seconds_before: f64,
    /// The runner's overhead on each engine move, in microseconds.
    latencies: Vec<u64>,
    /// Games an interrupt cut short, for the PGN after the finished ones.
    unfinished: Vec<MatchGame>,
    /// The forensics file of the game an engine could not start for, once written.
    start_failure_forensics: Option<PathBuf>,
    /// Every game started, by its number.
    games: HashMap<u32, ScheduledGame>,
    /// A knockout's driver (its games are then numbered as it hands them out).
    knockout: Option<Knockout>,
}

impl<S: Store> Session<S> {
    /// A run of `prepared` from `state`, writing through `recorder`.
    pub(super) fn new(
        mut prepared: Prepared,
        mut state: MatchState,
        recorder: Recorder<S>,
    ) -> Session<S> {
        if let Some(sprt) = &prepared.settings.sprt {
            if state.sprt_run.is_none() {
                let run = SprtRun::of_older_state(
                    sprt,
                    &state.standings.encounters[0],
                    &state.done,
                    state.sprt_decided,
                    &state.llr_history,
                );
                state.sprt_run = Some(run);
            }
            if state.sprt_decided {
                prepared.start.decided_before = state.sprt_run.as_ref().map(|run| run.status(sprt));
            }
        }
        let index_of = prepared
            .todo
            .iter()
            .enumerate()
            .map(|(i, &g)| (g, i))
            .collect();
        Session {
            sprt: prepared.settings.sprt,
            pgn_style: PgnStyle {
                event: prepared.settings.event.clone(),
                site: prepared.settings.site.clone(),
                minimal: prepared.settings.pgn_min,
                dialect: prepared.settings.dialect,
                notation: prepared.settings.pgn_notation,
            },
            plan: prepared.plan,
            start: prepared.start,
            todo: prepared.todo,
            index_of,
            state_path: prepared.state,
            seconds_before: state.seconds,
            state,
            recorder,
            started: Instant::now(),
            latencies: Vec::new(),
            unfinished: Vec::new(),
            start_failure_forensics: None,
            games: HashMap::new(),
            knockout: prepared.knockout,
        }
    }

    /// Play the games the state does not hold yet, then report.
    pub(super) fn play(
        mut self,
        observer: &mut dyn MatchObserver,
    ) -> Result<MatchReport, ArenaError> {
        observer
            .started(&self.start)
            .map_err(ArenaError::Observer)?;
        let left = self.left();
        let (sender, receiver) = mpsc::channel();
        let stop = AtomicBool::new(false);
        self.started = Instant::now();
        let plan = self.plan.clone();
        let mut rule = self.stop_rule();
        let mut knockout = self.knockout.take().map(|knockout| KnockoutFeed {
            knockout,
            schedule: plan.schedule.clone(),
        });
        std::thread::scope(|scope| -> Result<(), ArenaError> {
            let (plan, stop, left) = (&plan, &stop, &left);
            let rule = rule.as_mut().map(|rule| rule as &mut StopRule<'_>);
            let feed = knockout.as_mut();
            scope.spawn(move || match feed {
                Some(feed) => plan.run_feed(feed, sender, stop, rule),
                None => plan.run(left, sender, stop, rule),
            });
            for event in receiver {
                let mut game = match event {
                    RunEvent::Started(scheduled) => {
                        self.started_game(scheduled);
                        self.tell_start(&scheduled, observer)?;
                        continue;
                    }
                    RunEvent::Warning(warning) => {
                        observer
                            .option_warning(&warning)
                            .map_err(ArenaError::Observer)?;
                        continue;
                    }
                    RunEvent::Options(options) => {
                        observer
                            .engine_options(&options)
                            .map_err(ArenaError::Observer)?;
                        continue;
                    }
                    RunEvent::Finished(game) => *game,
                };
                self.write_forensics(&mut game);
                if let (Some(Termination::StartFailure(..)), false) =
                    (&game.termination, game.is_finished())
                {
                    // An engine could not start for it: the run stops, and the game, never
                    // begun, is left to the run that continues this one (its forensics kept).
                    self.start_failure_forensics =
                        game.forensics.as_ref().and_then(|f| f.file.clone());
                    if let Some(stop) = self.stopped() {
                        observer.run_stopped(&stop).map_err(ArenaError::Observer)?;
                    }
                } else if game.is_finished() {
                    self.count(&game, stop);
                    self.tell(&game, observer)?;
                } else {
                    // Its moves are real, so it goes to the PGN as `*` at the end, after the
                    // finished games and outside them: a resume cuts it off and plays it again.
                    if Dialect::tells_unfinished_games(self.plan.dialect)
                        && self.plan.interrupt.load(Ordering::Relaxed)
                    {
                        self.tell_unfinished(&game, observer)?;
                    }
                    self.unfinished.push(game);
                }
            }
            Ok(())
        })?;
        self.knockout = knockout.map(|feed| feed.knockout);
        let report = self.finish();
        observer.finished(&report).map_err(ArenaError::Observer)?;
        Ok(report)
    }

    /// Write the forensics of a game an engine lost by failing to `<pgn>.forensics/<game>.txt`
    /// (before the state that counts the game is saved, so a counted game's file exists), when
    /// games are written to a PGN.
    fn write_forensics(&self, game: &mut MatchGame) {
        let (Some(pgn), Some(text)) = (&self.state.pgn, game_forensics(game)) else {
            return;
        };
        let mut dir = pgn.path.clone().into_os_string();
        dir.push(".forensics");
        let dir = PathBuf::from(dir);
        let file = dir.join(format!("{}.txt", game.number + self.state.forensics_offset));
        let written = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&file, text));
        if let Some(forensics) = game.forensics.as_mut() {
            match written {
                Ok(()) => forensics.file = Some(file),
                Err(e) => forensics.unwritten = Some(format!("{}: {e}", file.display())),
            }
        }
    }

    /// The SPRT's rule for the workers, which stops the match at the game that decides it: a
    /// copy of the test, given each game as it ends, so that no new game starts once it has
    /// decided (the copy in the state, saved with the recorded games, decides at the same game:
    /// the test takes the games in schedule order).
    fn stop_rule(&self) -> Option<impl FnMut(&MatchGame) -> bool + Send + 'static> {
        let sprt = self.sprt?;
        let mut run = self.state.sprt_run.clone()?;
        let schedule = self.plan.schedule.clone();
        let engines = self.state.standings.encounters[0].engines;
        Some(move |game: &MatchGame| {
            if game.is_finished() {
                let scheduled = schedule.game(game.number - 1);
                let result = EncounterTally::result(engines, &scheduled, game);
                run.add(&sprt, scheduled.index, result);
            }
            run.decision().is_some()
        })
    }

    /// Game `scheduled` started: kept by its number; a knockout's game also added to the games
    /// of the run (numbered as the driver hands them out, so in order whatever the timing).
    fn started_game(&mut self, scheduled: ScheduledGame) {
        self.games.insert(scheduled.index + 1, scheduled);
        if self.is_knockout() {
            while self.todo.len() <= scheduled.index as usize {
                let index = self.todo.len() as u32;
                self.index_of.insert(index, self.todo.len());
                self.todo.push(index);
            }
        }
    }

    fn is_knockout(&self) -> bool {
        self.plan.schedule.kind == TournamentKind::Knockout
    }

    /// The PGN's `Round` tag of `game`: its number, or a knockout's round (cutechess-cli's).
    fn round_tag(&self, game: &ScheduledGame) -> u32 {
        match self.is_knockout() {
            true => game.round + 1,
            false => game.index + 1,
        }
    }

    /// The game numbered `number` (started in this run).
    fn scheduled(&self, number: u32) -> ScheduledGame {
        match self.games.get(&number) {
            Some(game) => *game,
            None => self.plan.schedule.game(number - 1),
        }
    }

    /// The games still to play, in order (none once the SPRT decided).
    fn left(&self) -> Vec<u32> {
        if self.state.sprt_decided {
            return Vec::new();
        }
        (0..self.todo.len())
            .filter(|&i| !self.state.done.contains(i))
            .map(|i| self.todo[i])
            .collect()
    }

    /// Count a finished game, give it to the SPRT (no new game starts once it decides), and
    /// record it.
    fn count(&mut self, game: &MatchGame, stop: &AtomicBool) {
        let scheduled = self.scheduled(game.number);
        let engines = self.state.standings.encounters[scheduled.encounter].engines;
        let result = EncounterTally::result(engines, &scheduled, game);
        self.state.standings.add(&scheduled, game);
        if let Some(results) = self.state.knockout_results.as_mut() {
            results.insert(game.number, KnockoutResult::of(game.record.outcome));
        }
        self.state.done.insert(self.index_of[&scheduled.index]);
        self.latencies.extend(
            game.infos
                .iter()
                .filter_map(|(_, info)| info.latency())
                .map(|d| d.as_micros() as u64),
        );
        if let (Some(sprt), Some(run)) = (&self.sprt, self.state.sprt_run.as_mut()) {
            let points = run.add(sprt, scheduled.index, result);
            let decided = run.decision().is_some();
            for (games, llr) in points {
                self.state.push_llr(games, llr);
            }
            if decided && !self.state.sprt_decided {
                self.state.sprt_decided = true;
                stop.store(true, Ordering::Relaxed);
            }
        }
        self.state.seconds = self.seconds_before + self.started.elapsed().as_secs_f64();
        let pgn = match self.state.pgn {
            Some(_) => game_pgn(
                game,
                self.round_tag(&scheduled),
                self.plan.time_controls(&scheduled),
                &self.pgn_style,
            ),
            None => String::new(),
        };
        let epd = match self.state.epd {
            Some(_) => game_epd(game),
            None => String::new(),
        };
        self.recorder.record(&mut self.state, pgn, epd);
    }

    fn tell_start(
        &self,
        scheduled: &ScheduledGame,
        observer: &mut dyn MatchObserver,
    ) -> Result<(), ArenaError> {
        let name = |slot: usize| self.plan.engines[slot].name.as_str();
        let number = scheduled.index + 1;
        // A knockout plays its encounters' games at least, and more as they go on (the count
        // cutechess-cli prints: `Started game 7 of 7`).
        let total = match self.is_knockout() {
            true => self.start.games.max(number),
            false => self.start.games,
        };
        observer
            .game_started(&GameStarted {
                number,
                total,
                white: name(scheduled.white),
                black: name(scheduled.black),
            })
            .map_err(ArenaError::Observer)
    }

    fn tell(&self, game: &MatchGame, observer: &mut dyn MatchObserver) -> Result<(), ArenaError> {
        let stop =
            self.plan.halt.cause().filter(
                |stop| matches!(stop, RunStop::NoRecover { game: g, .. } if *g == game.number),
            );
        if let Some(stop) = &stop {
            observer.run_stopped(stop).map_err(ArenaError::Observer)?;
        }
        observer
            .game_finished(&self.told(game))
            .map_err(ArenaError::Observer)
    }

    /// Tell `game`, which an interrupt ended, as the tool of the run's form tells it.
    fn tell_unfinished(
        &self,
        game: &MatchGame,
        observer: &mut dyn MatchObserver,
    ) -> Result<(), ArenaError> {
        observer
            .game_unfinished(&self.told(game))
            .map_err(ArenaError::Observer)
    }

    /// What an observer hears of `game`'s end.
    fn told<'a>(&'a self, game: &'a MatchGame) -> GameFinished<'a> {
        GameFinished {
            game,
            encounter: self.scheduled(game.number).encounter,
            standings: &self.state.standings,
            finished: self.state.done.len() as u32,
            total: self.todo.len() as u32,
            sprt: self.sprt_status(),
            pgn_crc32: self.recorder.pgn_crc32(),
        }
    }

    /// Why the run stopped, when a failure stopped it (with the forensics of a start failure).
    fn stopped(&self) -> Option<RunStop> {
        let mut stopped = self.plan.halt.cause();
        if let Some(RunStop::StartFailure { forensics, .. }) = stopped.as_mut() {
            forensics.clone_from(&self.start_failure_forensics);
        }
        stopped
    }

    /// Where the SPRT stands, when one runs.
    fn sprt_status(&self) -> Option<SprtStatus> {
        let (sprt, run) = (self.sprt.as_ref()?, self.state.sprt_run.as_ref()?);
        Some(run.status(sprt))
    }

    /// The unfinished games written, the state saved a last time, and the report.
    fn finish(mut self) -> MatchReport {
        if Dialect::writes_unfinished_games(self.plan.dialect) {
            for game in &self.unfinished {
                let scheduled = self.scheduled(game.number);
                let text = game_pgn(
                    game,
                    self.round_tag(&scheduled),
                    self.plan.time_controls(&scheduled),
                    &self.pgn_style,
                );
                self.recorder.unfinished(&self.state, &text);
            }
        }
        self.state.ended = true;
        if let Some(knockout) = &self.knockout {
            self.state.knockout_over = knockout.is_over();
        }
        self.recorder.close(&self.state);
        let interrupted = self.plan.interrupt.load(Ordering::Relaxed);
        let sprt = self
            .sprt
            .zip(self.sprt_status())
            .map(|(sprt, status)| SprtReport {
                sprt,
                model: status.model,
                llr: status.llr,
                verdict: status.verdict,
                games: status.games,
                history: self.state.llr_history.clone(),
            });
        let done = self.state.done.len();
        let stopped = self.stopped();
        let names = &self.plan.engines;
        let names: Vec<String> = names.iter().map(|e| e.name.clone()).collect();
        let knockout = self.knockout.as_ref().map(|knockout| KnockoutReport {
            bracket: knockout.bracket(&names),
            winner: knockout.winner().map(|w| names[w].clone()),
        });
        let complete = match &self.knockout {
            Some(knockout) => knockout.is_over(),
            // A finished knockout of an older state, its report made again.
            None if self.is_knockout() => self.state.knockout_over,
            None => self.state.sprt_decided || done == self.todo.len(),
        };
        MatchReport {
            start: self.start,
            sprt,
            interrupted: interrupted.then_some(self.unfinished.len()),
            stopped,
            pgn_crc32: self.recorder.pgn_crc32(),
            record_error: self.recorder.take_failure(),
            pgn: self.state.pgn.as_ref().map(|a| a.path.clone()),
            epd: self.state.epd.as_ref().map(|a| a.path.clone()),
            state: self.state_path.map(|path| StateReport {
                path,
                done,
                of: self.todo.len(),
                complete,
            }),
            latency: latency(&mut self.latencies),
            seconds: self.state.seconds,
            standings: self.state.standings,
            knockout,
        }
    }
}

/// The median and 99th percentile of the overheads in microseconds, nearest rank.
fn latency(micros: &mut [u64]) -> Option<Latency> {
    micros.sort_unstable();
    let rank = |p: f64| {
        let sample = micros.iter().map(|&m| (m, 1));
        nearest_rank(p, micros.len() as u64, sample).map(Duration::from_micros)
    };
    Some(Latency {
        median: rank(50.0)?,
        p99: rank(99.0)?,
    })
}
