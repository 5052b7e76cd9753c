//! fastchess's output (`--output-format fastchess`): the lines of its `Fastchess` output class
//! (fastchess, app/src/matchmaking/output/output_fastchess.hpp), printed when its round robin
//! prints them (app/src/matchmaking/tournament/roundrobin/roundrobin.cpp), with the figures of
//! its pentanomial Elo (app/src/matchmaking/elo/elo_pentanomial.cpp) and fmt's number
//! formatting, so that scripts written for fastchess (fishtest's worker) read ours unchanged:
//!
//! ```text
//! Started game 1 of 100 (dev vs base)
//! Finished game 1 (dev vs base): 1-0 {White mates}
//! --------------------------------------------------
//! Results of dev vs base (10+0.1, 1t, 16MB, book.epd):
//! Elo: 12.34 +/- 5.67, nElo: 20.10 +/- 9.20
//! LOS: 99.12 %, DrawRatio: 45.00 %, PairsRatio: 1.23
//! Games: 20, Wins: 8, Losses: 6, Draws: 6, Points: 11.0 (55.00 %)
//! Ptnml(0-2): [1, 2, 3, 2, 2], WL/DD Ratio: 0.50
//! LLR: 0.12 (4.1%) (-2.94, 2.94) [0.00, 5.00]
//! --------------------------------------------------
//! Finished match
//! ```
//!
//! As in fastchess the block counts the games of complete pairs only (a game waits for its
//! partner), so `Games` is always twice the pairs of `Ptnml(0-2)`; it is printed after the pair
//! whose number is a multiple of the rating interval completes, and after the last game. The
//! LLR is the test's that stops the match (see [`shannon::stats::Sprt`]): fastchess's own, in its
//! model, in fastchess's form; fishtest's in Shannon's.
//!
//! Without the pentanomial (fastchess's `-report penta=false`, and its `-games 1`, which it
//! plays so) the block counts every finished game, its Elo is fastchess's of single games
//! (`EloWDL`), its `DrawRatio` the draws among the games, without `PairsRatio` and the
//! `Ptnml(0-2)` line (the table of a tournament leaves its column empty), and it is printed
//! after every N-th finished game, counted as they finish:
//!
//! ```text
//! Results of dev vs base (10+0.1, 1t, 16MB, book.epd):
//! Elo: 34.86 +/- 66.06, nElo: 115.81 +/- 215.34
//! LOS: 85.41 %, DrawRatio: 90.00 %
//! Games: 10, Wins: 1, Losses: 0, Draws: 9, Points: 5.5 (55.00 %)
//! ```

mod stats;

use super::endings::{ending_words, Tool};
use super::numbers::{fixed, qt_general, shortest};
use shannon::arena::{
    EngineOptions, GameFinished, GameStarted, MatchObserver, MatchReport, MatchStart,
    OpeningSource, OptionWarning, RunStop, Standings, Termination,
};

use shannon::client::OptionKind;
use shannon::client::{Pace, TimeControl};
use shannon::stats::{Score, Sprt, SprtModel, SprtTest, SprtVerdict};
use shannon::Color;
use stats::{Elo, PairStats};
use std::io::{self, Write};

/// fastchess's `getTime`: `40/60+0.6`, `10+0.1`, `0.1/move`, `8 plies`, `1000 nodes`; the first
/// of them the time control has (a clock with caps beside it is its clock alone, a depth cap
/// before a node cap).
pub fn time_control(tc: &TimeControl) -> String {
    match tc.pace {
        Pace::Clock {
            moves,
            base,
            increment,
        } => {
            let moves = if moves > 0 {
                format!("{moves}/")
            } else {
                String::new()
            };
            let increment = if increment.is_zero() {
                String::new()
            } else {
                format!("+{}", qt_general(increment.as_secs_f64(), 2))
            };
            format!("{moves}{}{increment}", shortest(base.as_secs_f64()))
        }
        Pace::MoveTime(time) => format!("{}/move", shortest(time.as_secs_f64())),
        Pace::Infinite => match (tc.caps.depth, tc.caps.nodes) {
            (Some(plies), _) => format!("{plies} plies"),
            (None, Some(nodes)) => format!("{nodes} nodes"),
            (None, None) => String::new(),
        },
    }
}

/// The engine options fastchess shows in its `Results of` line: each engine's `Threads` and
/// `Hash` as the engine holds them once started (declared, with the value sent or else its
/// default: `NULL` when it declares none), and as the engines file sets them until it has
/// started.
#[derive(Debug, Clone, Default)]
struct EngineLabels {
    /// Engine name, its Threads, its Hash.
    engines: Vec<(String, Option<String>, Option<String>)>,
}

impl EngineLabels {
    /// The labels of the engines a run starts with.
    fn of_start(start: &MatchStart) -> EngineLabels {
        let option = |options: &[(String, String)], name: &str| {
            options
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, value)| value.clone())
        };
        EngineLabels {
            engines: start
                .names
                .iter()
                .zip(&start.engine_options)
                .map(|(engine, options)| {
                    let threads = option(options, "Threads");
                    (engine.clone(), threads, option(options, "Hash"))
                })
                .collect(),
        }
    }

    /// What engine `options.engine` holds now that it has started: fastchess reads the options
    /// by their exact names, a whole-number spin as a number.
    fn learn(&mut self, options: &EngineOptions) {
        let value = |name: &str| {
            let setting = options.settings.iter().find(|s| s.option.name == name)?;
            let value = setting.value.clone().unwrap_or_default();
            Some(match (&setting.option.kind, value.trim().parse::<i64>()) {
                (OptionKind::Spin { .. }, Ok(number)) => number.to_string(),
                _ => value,
            })
        };
        let learned = (options.engine.clone(), value("Threads"), value("Hash"));
        match self
            .engines
            .iter_mut()
            .find(|(n, _, _)| *n == options.engine)
        {
            Some(known) => *known = learned,
            None => self.engines.push(learned),
        }
    }

    fn of(&self, name: &str) -> (String, String) {
        let found = self.engines.iter().find(|(n, _, _)| n == name);
        let threads = found
            .and_then(|(_, t, _)| t.as_ref())
            .map_or("NULL".to_string(), |t| format!("{t}t"));
        let hash = found
            .and_then(|(_, _, h)| h.as_ref())
            .map_or("NULL".to_string(), |h| format!("{h}MB"));
        (threads, hash)
    }
}

/// `a` when both engines show the same, else `a - b` (fastchess's `formatThreads`).
fn both(a: String, b: String) -> String {
    if a == b {
        a
    } else {
        format!("{a} - {b}")
    }
}

/// One player's forfeits, as fastchess's tracker counts them.
#[derive(Debug, Clone, Copy, Default)]
struct Forfeits {
    timeouts: u32,
    crashes: u32,
}

const RULE: &str = "--------------------------------------------------";

/// The renderer.
pub struct Fastchess<'a, W: Write> {
    out: &'a mut W,
    /// Print the block after every this many pairs (games, without the pentanomial; 0: at the
    /// end only).
    rating_interval: u32,
    /// The blocks on game pairs (the pentanomial), else on single games.
    penta: bool,
    sprt: Option<Sprt>,
    labels: EngineLabels,
    names: Vec<String>,
    /// Each engine's time control as fastchess shows it, in the tournament's order.
    time_controls: Vec<String>,
    book: String,
    /// Forfeits per engine (tournament order), this run's games.
    forfeits: Vec<Forfeits>,
    /// The games the last block counted (`None` before the first).
    last_block: Option<u32>,
    /// Games another program played before this run (fastchess's `-config file=`).
    carried: u32,
    /// The PGN's name as the command line gave it, for `File ... has CRC32:` lines.
    crc_file: Option<String>,
    /// The `config.json` the run saves (fastchess's form), for the line on resuming.
    config_file: Option<String>,
    /// The last CRC-32 printed.
    last_crc: Option<u32>,
    /// fastchess's line for a crash that stops the run, printed with its game.
    stop_line: Option<String>,
}

impl<'a, W: Write> Fastchess<'a, W> {
    /// A renderer writing to `out` (the match's SPRT, if any, and the engines' options come
    /// with its start).
    pub fn new(out: &'a mut W, rating_interval: u32) -> Fastchess<'a, W> {
        Fastchess {
            out,
            rating_interval,
            penta: true,
            sprt: None,
            labels: EngineLabels::default(),
            names: Vec::new(),
            time_controls: Vec::new(),
            book: String::new(),
            forfeits: Vec::new(),
            last_block: None,
            carried: 0,
            crc_file: None,
            config_file: None,
            last_crc: None,
            stop_line: None,
        }
    }

    /// With `penta` false, the blocks on single games, as fastchess's `-report penta=false`
    /// prints them (single games are always reported so).
    pub fn penta(mut self, penta: bool) -> Fastchess<'a, W> {
        self.penta = penta;
        self
    }

    /// Print `File <name> has CRC32: 0x...` after every game written to the PGN named so
    /// (fastchess's `-crc32 pgn=true`).
    pub fn with_crc_file(mut self, name: Option<String>) -> Self {
        self.crc_file = name;
        self
    }

    /// Name the `config.json` the run saves: an interrupted or stopped run then ends with
    /// fastchess's `Tournament was interrupted. To resume the tournament, run: ... -config
    /// file=...` (its main.cpp), the command being `shannon match`.
    pub fn with_config_file(mut self, name: Option<String>) -> Self {
        self.config_file = name;
        self
    }

    /// fastchess's `File <name> has CRC32: {:#x}` line (app/src/core/filesystem/file_writer.hpp).
    fn crc_line(&mut self, crc: Option<u32>) -> io::Result<()> {
        if let (Some(file), Some(crc)) = (&self.crc_file, crc) {
            if self.last_crc != Some(crc) {
                writeln!(self.out, "File {file} has CRC32: {crc:#x}")?;
                self.last_crc = Some(crc);
            }
        }
        Ok(())
    }

    /// `printInterval`: the rules around `printElo` and `printSprt` (the LLR is `llr`, where the
    /// test stands).
    fn interval(&mut self, standings: &Standings, llr: f64) -> io::Result<()> {
        self.last_block = Some(standings.games());
        let mut text = format!("{RULE}\n");
        if standings.names.len() == 2 {
            text.push_str(&self.head_to_head(standings));
        } else {
            text.push_str(&rank_table(standings, self.penta));
        }
        if let Some(sprt) = &self.sprt {
            text.push_str(&llr_line(sprt, llr));
            text.push('\n');
        }
        text.push_str(RULE);
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    /// `printEloH2H`.
    fn head_to_head(&self, standings: &Standings) -> String {
        let (first, second) = (&standings.names[0], &standings.names[1]);
        let (threads_a, hash_a) = self.labels.of(first);
        let (threads_b, hash_b) = self.labels.of(second);
        let time_control_of = |name: &String| {
            let index = self.names.iter().position(|n| n == name);
            index
                .and_then(|i| self.time_controls.get(i))
                .cloned()
                .unwrap_or_default()
        };
        let book = if self.book.is_empty() {
            String::new()
        } else {
            format!(", {}", self.book)
        };
        let lines = match self.penta {
            true => block_lines(&PairStats::of_encounter(standings, 0)),
            false => games_block_lines(&standings.encounters[0].score),
        };
        format!(
            "Results of {first} vs {second} ({}, {}, {}{book}):\n{lines}\n",
            both(time_control_of(first), time_control_of(second)),
            both(threads_a, threads_b),
            both(hash_a, hash_b),
        )
    }
}

/// The four lines of figures under `Results of`.
pub fn block_lines(stats: &PairStats) -> String {
    let elo = Elo::pentanomial(stats);
    format!(
        "Elo: {} +/- {}, nElo: {} +/- {}\n\
         LOS: {} %, DrawRatio: {} %, PairsRatio: {}\n\
         Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {} ({} %)\n\
         Ptnml(0-2): {}, WL/DD Ratio: {}",
        fixed(elo.diff, 2),
        fixed(elo.error, 2),
        fixed(elo.nelo, 2),
        fixed(elo.nelo_error, 2),
        fixed(elo.los(), 2),
        fixed(stats.draw_ratio_penta(), 2),
        fixed(stats.pairs_ratio(), 2),
        stats.games(),
        stats.score.wins,
        stats.score.losses,
        stats.score.draws,
        fixed(stats.points(), 1),
        fixed(stats.points_ratio(), 2),
        stats.ptnml(),
        fixed(stats.wl_dd_ratio(), 2),
    )
}

/// The three lines under `Results of` without the pentanomial: the figures of every finished
/// game, `score` from the first engine's side (fastchess's `printEloH2H` with `report_penta`
/// false).
pub fn games_block_lines(score: &Score) -> String {
    let elo = Elo::wdl(score);
    let games = f64::from(score.games());
    format!(
        "Elo: {} +/- {}, nElo: {} +/- {}\n\
         LOS: {} %, DrawRatio: {} %\n\
         Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {} ({} %)",
        fixed(elo.diff, 2),
        fixed(elo.error, 2),
        fixed(elo.nelo, 2),
        fixed(elo.nelo_error, 2),
        fixed(elo.los(), 2),
        fixed(100.0 * f64::from(score.draws) / games, 2),
        score.games(),
        score.wins,
        score.losses,
        score.draws,
        fixed(score.points(), 1),
        fixed(score.points() / games * 100.0, 2),
    )
}

/// `LLR: 0.12 (4.1%) (-2.94, 2.94) [0.00, 5.00]` (fastchess's `printSprt`).
pub fn llr_line(sprt: &Sprt, llr: f64) -> String {
    let (lower, upper) = sprt.bounds();
    let fraction = if llr >= 0.0 {
        llr / upper
    } else {
        -llr / lower
    };
    format!(
        "LLR: {} ({}%) ({}, {}) [{}, {}]",
        fixed(llr, 2),
        fixed(fraction * 100.0, 1),
        fixed(lower, 2),
        fixed(upper, 2),
        fixed(sprt.elo0, 2),
        fixed(sprt.elo1, 2)
    )
}

/// One row of fastchess's table: the engine's Elo, games, score and draws in percent, and its
/// pentanomial (empty without it).
struct Row {
    engine: usize,
    elo: Elo,
    games: u32,
    points: f64,
    draws: f64,
    ptnml: String,
}

/// fastchess's table for more than two engines, by Elo difference (NaN last); `penta` false:
/// on every finished game, without the pentanomial.
pub fn rank_table(standings: &Standings, penta: bool) -> String {
    let mut rows: Vec<Row> = (0..standings.names.len())
        .map(|engine| match penta {
            true => {
                let stats = PairStats::of_engine(standings, engine);
                Row {
                    engine,
                    elo: Elo::pentanomial(&stats),
                    games: stats.games(),
                    points: stats.points_ratio(),
                    draws: stats.draw_ratio_penta(),
                    ptnml: stats.ptnml(),
                }
            }
            false => {
                let score = standings.engine_score(engine);
                let games = f64::from(score.games());
                Row {
                    engine,
                    elo: Elo::wdl(&score),
                    games: score.games(),
                    points: score.points() / games * 100.0,
                    draws: 100.0 * f64::from(score.draws) / games,
                    ptnml: String::new(),
                }
            }
        })
        .collect();
    rows.sort_by(|a, b| match (a.elo.diff.is_nan(), b.elo.diff.is_nan()) {
        (false, true) => std::cmp::Ordering::Less,
        (true, false) => std::cmp::Ordering::Greater,
        _ => b
            .elo
            .diff
            .partial_cmp(&a.elo.diff)
            .unwrap_or(std::cmp::Ordering::Equal),
    });
    let width = standings
        .names
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(0)
        .max(25);
    let mut text = format!(
        "{:<4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>20}\n",
        "Rank", "Name", "Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw", "Ptnml(0-2)"
    );
    for (rank, row) in rows.iter().enumerate() {
        text.push_str(&format!(
            "{:>4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9}% {:>9}% {:>20}\n",
            rank + 1,
            standings.names[row.engine],
            fixed(row.elo.diff, 2),
            fixed(row.elo.error, 2),
            fixed(row.elo.nelo, 2),
            fixed(row.elo.nelo_error, 2),
            row.games,
            fixed(row.points, 1),
            fixed(row.draws, 1),
            row.ptnml
        ));
    }
    text
}

impl<W: Write> MatchObserver for Fastchess<'_, W> {
    fn started(&mut self, start: &MatchStart) -> io::Result<()> {
        // fastchess reports single games (its `-games 1`) without the pentanomial, and so a
        // test of its on single games (its `-report penta=false`, its Bayesian model).
        self.penta &= !start.layout.single_games;
        if let Some(Sprt {
            test:
                SprtTest::Fastchess {
                    counts: SprtModel::Trinomial,
                    ..
                },
            ..
        }) = start.sprt
        {
            self.penta = false;
        }
        self.sprt = start.sprt;
        self.carried = start.carried;
        self.labels = EngineLabels::of_start(start);
        self.names = start.names.clone();
        self.forfeits = vec![Forfeits::default(); start.names.len()];
        self.time_controls = start.time_controls.iter().map(time_control).collect();
        self.book = match &start.openings.source {
            OpeningSource::File(path) => path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default(),
            _ => String::new(),
        };
        if let Some(line) = super::decided_before_line(start) {
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }

    fn game_started(&mut self, game: &GameStarted<'_>) -> io::Result<()> {
        writeln!(self.out, "{}", super::started_line(game))?;
        self.out.flush()
    }

    fn game_finished(&mut self, finished: &GameFinished<'_>) -> io::Result<()> {
        let game = finished.game;
        let name = |side: Color| match side {
            Color::White => &game.white,
            Color::Black => &game.black,
        };
        // The warnings fastchess prints during the game (app/src/matchmaking/match/match.cpp,
        // app/src/engine/uci_engine.cpp), then its line for the PGN written.
        match &game.termination {
            Some(Termination::IllegalMove(side, text)) => writeln!(
                self.out,
                "Warning; Illegal move {} played by {}",
                if text.is_empty() { "<none>" } else { text },
                name(*side)
            )?,
            Some(Termination::Hang(side)) => writeln!(
                self.out,
                "Warning; Engine {} is not responsive",
                name(*side)
            )?,
            _ => {}
        }
        if let Some(line) = self.stop_line.take() {
            writeln!(self.out, "{line}")?;
        }
        self.crc_line(finished.pgn_crc32)?;
        writeln!(
            self.out,
            "Finished game {} ({} vs {}): {} {{{}}}",
            game.number,
            game.white,
            game.black,
            game.record.outcome.pgn(),
            ending_words(game, Tool::Fastchess)
        )?;
        let loser = match &game.termination {
            Some(Termination::TimeForfeit(side, _))
            | Some(Termination::Crash(side))
            | Some(Termination::Hang(side))
            | Some(Termination::StartFailure(side, _)) => Some(*side),
            _ => None,
        };
        if let Some(side) = loser {
            let name = match side {
                Color::White => &game.white,
                Color::Black => &game.black,
            };
            if let Some(i) = self.names.iter().position(|n| n == name) {
                match game.termination {
                    Some(Termination::TimeForfeit(..)) => self.forfeits[i].timeouts += 1,
                    _ => self.forfeits[i].crashes += 1,
                }
            }
        }
        // fastchess's `shouldPrintRatingInterval`: with the pentanomial, by the pair's number
        // once it completes; without, by the games finished, this one included.
        let index = game.number - 1;
        let pairs = &finished.standings.encounters[finished.encounter].pairs;
        let on_interval = self.rating_interval != 0
            && match self.penta {
                true => !pairs.waits(index) && (index / 2 + 1).is_multiple_of(self.rating_interval),
                false => finished.finished.is_multiple_of(self.rating_interval),
            };
        if on_interval || finished.finished == finished.total {
            let llr = finished.sprt.map_or(0.0, |sprt| sprt.llr);
            self.interval(finished.standings, llr)?;
        }
        self.out.flush()
    }

    fn engine_options(&mut self, options: &EngineOptions) -> io::Result<()> {
        self.labels.learn(options);
        Ok(())
    }

    fn option_warning(&mut self, warning: &OptionWarning) -> io::Result<()> {
        writeln!(self.out, "{}", super::warnings::fastchess_option(warning))?;
        self.out.flush()
    }

    fn run_stopped(&mut self, stop: &RunStop) -> io::Result<()> {
        let line = super::warnings::fastchess_stop(stop);
        match stop {
            // Told before the game that stopped it: printed after its own warnings.
            RunStop::NoRecover { .. } => self.stop_line = Some(line),
            RunStop::StartFailure { .. } => writeln!(self.out, "{line}")?,
        }
        self.out.flush()
    }

    fn finished(&mut self, report: &MatchReport) -> io::Result<()> {
        self.crc_line(report.pgn_crc32)?;
        let llr = report.sprt.as_ref().map_or(0.0, |sprt| sprt.llr);
        if let Some(sprt) = &report.sprt {
            if sprt.verdict != SprtVerdict::Continue {
                self.interval(&report.standings, llr)?;
                let accepted = match sprt.verdict {
                    SprtVerdict::AcceptH0 => "H0",
                    _ => "H1",
                };
                writeln!(
                    self.out,
                    "SPRT ([{}, {}]) completed - {accepted} was accepted",
                    fixed(sprt.sprt.elo0, 2),
                    fixed(sprt.sprt.elo1, 2)
                )?;
            }
            if let Some(note) = super::sprt_games_note(sprt, report.games()) {
                writeln!(self.out, "{note}")?;
            }
        }
        // The standings at the end, unless the last block showed them (a resumed run with
        // nothing left to play). fastchess continuing its config.json with nothing left to
        // play prints no block, and an interrupted fastchess none after its last game's.
        let nothing_played = self.carried > 0 && report.games() <= self.carried;
        if self.last_block != Some(report.games())
            && !nothing_played
            && report.interrupted.is_none()
        {
            self.interval(&report.standings, llr)?;
        }
        let tracked: Vec<(usize, Forfeits)> = self
            .forfeits
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, f)| f.timeouts + f.crashes > 0)
            .collect();
        if !tracked.is_empty() {
            writeln!(self.out)?;
            for (i, forfeits) in &tracked {
                writeln!(self.out, "Player: {}", self.names[*i])?;
                writeln!(self.out, "  Timeouts: {}", forfeits.timeouts)?;
                writeln!(self.out, "  Crashed: {}", forfeits.crashes)?;
            }
            writeln!(self.out)?;
        }
        if let Some(why) = &report.record_error {
            writeln!(self.out, "Warning; {why}")?;
        }
        if let (Some(file), true) = (
            &self.config_file,
            report.interrupted.is_some() || report.stopped.is_some(),
        ) {
            writeln!(
                self.out,
                "Tournament was interrupted. To resume the tournament, run: shannon match \
                 -config file={file}"
            )?;
        }
        writeln!(self.out, "Finished match")?;
        let seconds = report.seconds.max(0.0) as u64;
        writeln!(
            self.out,
            "Total Time: {:02}:{:02}:{:02} (hours:minutes:seconds)\n",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60
        )?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests;
