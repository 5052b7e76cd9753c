//! cutechess-cli's output (`--output-format cutechess`): the lines its `EngineMatch` prints
//! (cutechess, projects/cli/src/enginematch.cpp), the result block of `Tournament::results()`
//! and `Tournament::outcomes()` (projects/lib/src/tournament.cpp), with the figures of its
//! `Elo` class (projects/lib/src/elo.cpp) and Qt's number formatting, so that scripts written
//! for cutechess-cli read ours unchanged:
//!
//! ```text
//! Started game 1 of 100 (dev vs base)
//! Finished game 1 (dev vs base): 1-0 {White mates}
//! Score of dev vs base: 1 - 0 - 0  [1.000] 1
//! ...
//! ...      dev playing White: 30 - 10 - 10  [0.700] 50
//! ...      dev playing Black: 20 - 15 - 15  [0.550] 50
//! ...      White vs Black: 45 - 30 - 25  [0.575] 100
//! Elo difference: 88.7 +/- 46.1, LOS: 100.0 %, DrawRatio: 25.0 %
//! SPRT: llr 0 (0.0%), lbound -inf, ubound inf
//!
//! Player: dev
//!    "Loss: Black mates": 10
//!    ...
//! Finished match
//! ```
//!
//! The Elo figures are cutechess's own (its error margin uses its approximation of the inverse
//! error function), so the same counts print the same numbers. The SPRT line shows the test that
//! stops the match (see [`shannon::stats::Sprt`]): cutechess-cli's own in its form, fishtest's
//! in Shannon's form, in cutechess's format, and a fastchess test (fastchess's `-output
//! format=cutechess`) in fastchess's; without `--sprt` it is cutechess's line for its null test,
//! `llr 0 (0.0%), lbound -inf, ubound inf`.

pub mod result_format;

use super::endings::{ending_words, Tool};
use super::numbers::{fixed, qt_fixed, qt_fixed_width, qt_general};
use crate::cli::prelude::say;
use result_format::{Counted, Field, ResultFormat};
use shannon::arena::{
    GameFinished, GameStarted, MatchGame, MatchObserver, MatchReport, MatchStart, OptionWarning,
    RunStop, Seeds, Standings, TournamentKind,
};
use shannon::client::TimeControl;
use shannon::game::Outcome;
use shannon::stats::{Score, Sprt, SprtTest, SprtVerdict};
use shannon::Color;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// cutechess's `Elo` (projects/lib/src/elo.cpp) of wins, losses and draws: its figures with its
/// NaNs and infinities (a score of 100% is an Elo difference of `inf`).
#[derive(Debug, Clone, Copy)]
pub struct CuteElo {
    score: Score,
    mu: f64,
    stdev: f64,
}

impl CuteElo {
    /// The figures of `score`.
    pub fn new(score: Score) -> CuteElo {
        let n = f64::from(score.games());
        let (w, l, d) = (
            f64::from(score.wins) / n,
            f64::from(score.losses) / n,
            f64::from(score.draws) / n,
        );
        let mu = w + d / 2.0;
        let dev_w = w * (1.0 - mu).powi(2);
        let dev_l = l * (0.0 - mu).powi(2);
        let dev_d = d * (0.5 - mu).powi(2);
        CuteElo {
            score,
            mu,
            stdev: (dev_w + dev_l + dev_d).sqrt() / n.sqrt(),
        }
    }

    fn diff_of(p: f64) -> f64 {
        -400.0 * (1.0 / p - 1.0).log10()
    }

    /// The Elo difference.
    pub fn diff(&self) -> f64 {
        CuteElo::diff_of(self.mu)
    }

    /// Its 95% error margin, with cutechess's approximation of the normal quantile.
    pub fn error_margin(&self) -> f64 {
        let low = self.mu + phi_inv(0.025) * self.stdev;
        let high = self.mu + phi_inv(0.975) * self.stdev;
        (CuteElo::diff_of(high) - CuteElo::diff_of(low)) / 2.0
    }

    /// The likelihood of superiority in percent (NaN without a decisive game, as cutechess
    /// computes it).
    pub fn los(&self) -> f64 {
        if self.score.wins + self.score.losses == 0 {
            return f64::NAN;
        }
        100.0 * self.score.likelihood_of_superiority()
    }

    /// Draws per game.
    pub fn draw_ratio(&self) -> f64 {
        f64::from(self.score.draws) / f64::from(self.score.games())
    }

    /// Points per game.
    pub fn point_ratio(&self) -> f64 {
        self.mu
    }
}

/// cutechess's `Elo::erfInv`: Winitzki's approximation of the inverse error function.
#[allow(clippy::approx_constant)]
fn erf_inv(x: f64) -> f64 {
    // cutechess's truncated pi, kept for the same last digits.
    let pi = 3.1415926535897;
    let a = 8.0 * (pi - 3.0) / (3.0 * pi * (4.0 - pi));
    let y = (1.0 - x * x).ln();
    let z = 2.0 / (pi * a) + y / 2.0;
    let ret = ((z * z - y / a).sqrt() - z).sqrt();
    if x < 0.0 {
        -ret
    } else {
        ret
    }
}

/// cutechess's `Elo::phiInv`: the standard normal quantile through [`erf_inv`].
fn phi_inv(p: f64) -> f64 {
    2f64.sqrt() * erf_inv(2.0 * p - 1.0)
}

/// The closing line of a two-engine match: `Elo difference: x +/- y, LOS: z %, DrawRatio: w %`.
pub fn elo_line(score: Score) -> String {
    let elo = CuteElo::new(score);
    format!(
        "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {} %",
        qt_fixed(elo.diff(), 1),
        qt_fixed(elo.error_margin(), 1),
        qt_fixed(elo.los(), 1),
        qt_fixed(elo.draw_ratio() * 100.0, 1)
    )
}

/// The SPRT line: `SPRT: llr 2.95 (100.3%), lbound -2.94, ubound 2.94 - H1 was accepted`; for no
/// test cutechess's null test, `SPRT: llr 0 (0.0%), lbound -inf, ubound inf`. A fastchess test
/// (fastchess's `-output format=cutechess`) has fastchess's line instead ([`fastchess_sprt_line`]).
pub fn sprt_line(sprt: Option<&Sprt>, llr: f64) -> String {
    if let Some(
        sprt @ Sprt {
            test: SprtTest::Fastchess { .. },
            ..
        },
    ) = sprt
    {
        return fastchess_sprt_line(sprt, llr);
    }
    let (llr, lower, upper, verdict) = match sprt {
        Some(sprt) => {
            let (lower, upper) = sprt.bounds();
            (llr, lower, upper, sprt.decide(llr))
        }
        None => (0.0, f64::NEG_INFINITY, f64::INFINITY, SprtVerdict::Continue),
    };
    let mut line = format!(
        "SPRT: llr {} ({}%), lbound {}, ubound {}",
        qt_general(llr, 3),
        qt_fixed(llr / upper * 100.0, 1),
        qt_general(lower, 3),
        qt_general(upper, 3)
    );
    match verdict {
        SprtVerdict::AcceptH0 => line.push_str(" - H0 was accepted"),
        SprtVerdict::AcceptH1 => line.push_str(" - H1 was accepted"),
        SprtVerdict::Continue => {}
    }
    line
}

/// fastchess's SPRT line in its cutechess output (app/src/matchmaking/output/output_cutechess.hpp,
/// `printSprt`): `SPRT: llr 0.59 (20.0%), lbound -2.94, ubound 2.94`, two decimals (fmt's), the
/// percentage of the bound on the LLR's side, and ` - H1 was accepted` at or above the upper
/// bound, ` - H0 was accepted` strictly below the lower one.
pub fn fastchess_sprt_line(sprt: &Sprt, llr: f64) -> String {
    let (lower, upper) = sprt.bounds();
    let percentage = if llr < 0.0 {
        llr / lower * 100.0
    } else {
        llr / upper * 100.0
    };
    let verdict = if llr >= upper {
        " - H1 was accepted"
    } else if llr < lower {
        " - H0 was accepted"
    } else {
        ""
    };
    format!(
        "SPRT: llr {} ({}%), lbound {}, ubound {}{verdict}",
        fixed(llr, 2),
        fixed(percentage, 1),
        fixed(lower, 2),
        fixed(upper, 2)
    )
}

/// `W - L - D  [ratio] N`, as cutechess prints a score.
fn wld(wins: u32, losses: u32, draws: u32) -> String {
    let games = wins + losses + draws;
    let ratio = (2.0 * f64::from(wins) + f64::from(draws)) / (2.0 * f64::from(games));
    format!(
        "{wins} - {losses} - {draws}  [{}] {games}",
        qt_fixed(ratio, 3)
    )
}

/// One engine's games by colour and how they ended, as this run saw them.
#[derive(Debug, Default, Clone)]
struct Tally {
    /// Wins, losses and draws with White.
    white: [u32; 3],
    /// With Black.
    black: [u32; 3],
    /// cutechess's outcome keys (`Win: White mates`, `Draw by 3-fold repetition`) and counts.
    outcomes: BTreeMap<String, u32>,
    /// The outcome fields' counts (`Time`, ..., `OtherD`), by [`Counted::index`].
    counts: [u32; Counted::COUNT],
}

/// The renderer.
pub struct Cutechess<'a, W: Write> {
    out: &'a mut W,
    /// Print the result block after every this many finished games (0: at the end only).
    rating_interval: u32,
    /// Print the `Score of` line after every this many finished games and after the last
    /// (fastchess's `-scoreinterval`, default 1; 0: after the last only).
    score_interval: u32,
    /// Print the outcomes after every this many finished games (cutechess-cli's
    /// `-outcomeinterval`, default 0: at the end only).
    outcome_interval: u32,
    sprt: Option<Sprt>,
    names: Vec<String>,
    tournament: Option<TournamentKind>,
    /// A gauntlet's seeds (`-seeds N`), ranked first.
    seeds: Option<Seeds>,
    /// The rank table's columns (`-resultformat`).
    format: ResultFormat,
    /// Each engine's time control, in the tournament's order (the `TC` field).
    time_controls: Vec<TimeControl>,
    /// False on a resumed run: the colour lines and outcomes would cover this run's games only.
    whole: bool,
    tallies: BTreeMap<String, Tally>,
    /// Games an interrupt ended (told, not counted in the standings).
    voids: u32,
    /// The last standings heard, for the interval blocks.
    last_llr: f64,
}

impl<'a, W: Write> Cutechess<'a, W> {
    /// A renderer writing to `out` (the match's SPRT, if any, comes with its start).
    pub fn new(out: &'a mut W, rating_interval: u32) -> Cutechess<'a, W> {
        Cutechess {
            out,
            rating_interval,
            score_interval: 1,
            outcome_interval: 0,
            sprt: None,
            names: Vec::new(),
            tournament: None,
            seeds: None,
            format: ResultFormat::default(),
            time_controls: Vec::new(),
            whole: true,
            voids: 0,
            tallies: BTreeMap::new(),
            last_llr: 0.0,
        }
    }

    /// The same, printing the `Score of` line every `score` games (and after the last) and the
    /// outcomes every `outcome` games (0: at the end only).
    pub fn with_intervals(mut self, score: u32, outcome: u32) -> Cutechess<'a, W> {
        self.score_interval = score;
        self.outcome_interval = outcome;
        self
    }

    /// The same, with the rank table's columns of `format` (cutechess-cli's `-resultformat`).
    pub fn with_result_format(mut self, format: ResultFormat) -> Cutechess<'a, W> {
        self.format = format;
        self
    }

    fn count(&mut self, game: &MatchGame) {
        let text = ending_words(game, Tool::Cutechess);
        let (white, black) = (game.white.clone(), game.black.clone());
        let counted = result_format::counted(game);
        let mut add = |name: &str, color: Color, column: usize, key: String| {
            let tally = self.tallies.entry(name.to_string()).or_default();
            match color {
                Color::White => tally.white[column] += 1,
                Color::Black => tally.black[column] += 1,
            }
            *tally.outcomes.entry(key).or_default() += 1;
            if let Some(counted) = counted[color.index()] {
                tally.counts[counted.index()] += 1;
            }
        };
        match game.record.outcome {
            Outcome::Win(winner) => {
                let (w, l) = match winner {
                    Color::White => (&white, &black),
                    Color::Black => (&black, &white),
                };
                add(w, winner, 0, format!("Win: {text}"));
                add(l, !winner, 1, format!("Loss: {text}"));
            }
            Outcome::Draw => {
                add(&white, Color::White, 2, text.clone());
                add(&black, Color::Black, 2, text);
            }
            Outcome::Unfinished => {}
        }
    }

    /// `Tournament::results()`: for two engines the colour lines and the Elo line, for more the
    /// rank table; then the SPRT line.
    fn results(&mut self, standings: &Standings) -> io::Result<()> {
        let mut text = String::new();
        if standings.names.len() == 2 {
            if self.whole {
                text.push_str(&self.colour_lines(&standings.names[0]));
            }
            text.push_str(&elo_line(standings.engine_score(0)));
        } else {
            text.push_str(&self.rank_table(standings));
        }
        text.push('\n');
        text.push_str(&sprt_line(self.sprt.as_ref(), self.last_llr));
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    /// `Tournament::resultsForSides(0)`.
    fn colour_lines(&self, name: &str) -> String {
        let tally = self.tallies.get(name).cloned().unwrap_or_default();
        let [ww, wl, wd] = tally.white;
        let [bw, bl, bd] = tally.black;
        let mut text = String::new();
        if ww + wl + wd > 0 {
            text.push_str(&format!(
                "...      {name} playing White: {}\n",
                wld(ww, wl, wd)
            ));
        }
        if bw + bl + bd > 0 {
            text.push_str(&format!(
                "...      {name} playing Black: {}\n",
                wld(bw, bl, bd)
            ));
        }
        if ww + wl + wd + bw + bl + bd > 0 {
            text.push_str(&format!(
                "...      White vs Black: {}\n",
                wld(ww + bl, wl + bw, wd + bd)
            ));
        }
        text
    }

    /// cutechess's rank table in the columns of its result format (by default
    /// `Rank,Name,Elo,Error,Games,Score,DScore`): players with games by score (ties: the later
    /// player first, as its `QMultiMap` keeps them), then those without; a gauntlet's seeds (its
    /// first engine, or the first `-seeds N`) first, the first ranked 0.
    fn rank_table(&self, standings: &Standings) -> String {
        let gauntlet = self.tournament == Some(TournamentKind::Gauntlet);
        let engines = standings.names.len();
        let key = |engine: usize| -> f64 {
            let s = standings.engine_score(engine);
            if gauntlet && Seeds::is_seed(self.seeds, engine, engines) {
                -1.0
            } else if s.games() > 0 {
                1.0 - s.ratio()
            } else {
                2.0
            }
        };
        let mut order: Vec<usize> = (0..standings.names.len()).collect();
        order.sort_by(|&a, &b| key(a).total_cmp(&key(b)).then(b.cmp(&a)));
        let fields = self.format.fields();
        let mut text: String = fields.iter().map(|field| field.header()).collect();
        text.push('\n');
        let mut rank: i64 = if gauntlet { -1 } else { 0 };
        for engine in order {
            rank += 1;
            for field in fields {
                text.push_str(&self.cell(*field, rank, engine, standings));
            }
            text.push('\n');
        }
        text
    }

    /// One cell of the rank table: `engine`'s `field`, as cutechess prints it (its width and a
    /// space).
    fn cell(&self, field: Field, rank: i64, engine: usize, standings: &Standings) -> String {
        let name = &standings.names[engine];
        let s = standings.engine_score(engine);
        let tally = self.tallies.get(name).cloned().unwrap_or_default();
        let by_colour = |results: [u32; 3]| Score {
            wins: results[0],
            losses: results[1],
            draws: results[2],
        };
        let percent = |x: f64| format!("{}% ", qt_fixed_width(x * 100.0, 6, 1));
        let count = |n: u32| format!("{n:>7} ");
        match field {
            Field::Rank => format!("{rank:>4} "),
            Field::Name => format!("{name:<25} "),
            Field::Games => count(s.games()),
            Field::Results(i) => count([s.wins, s.losses, s.draws][i]),
            Field::WhiteResults(i) => count(tally.white[i]),
            Field::BlackResults(i) => count(tally.black[i]),
            Field::Points => format!(
                "{} ",
                qt_fixed_width(f64::from(s.wins) + f64::from(s.draws) / 2.0, 8, 1)
            ),
            Field::Score => percent(CuteElo::new(s).point_ratio()),
            Field::DrawScore => percent(CuteElo::new(s).draw_ratio()),
            Field::Elo => format!("{} ", qt_fixed_width(CuteElo::new(s).diff(), 7, 0)),
            Field::Error => format!("{} ", qt_fixed_width(CuteElo::new(s).error_margin(), 7, 0)),
            Field::WhiteScore => percent(CuteElo::new(by_colour(tally.white)).point_ratio()),
            Field::WhiteDrawScore => percent(CuteElo::new(by_colour(tally.white)).draw_ratio()),
            Field::BlackScore => percent(CuteElo::new(by_colour(tally.black)).point_ratio()),
            Field::BlackDrawScore => percent(CuteElo::new(by_colour(tally.black)).draw_ratio()),
            Field::Count(counted) => count(tally.counts[counted.index()]),
            Field::TimeControl => {
                let tc = self
                    .time_controls
                    .get(engine)
                    .map(result_format::time_control)
                    .unwrap_or_default();
                format!("{tc:>14} ")
            }
        }
    }

    /// `Tournament::outcomes()`: each player's outcomes, sorted by their words.
    fn outcomes(&mut self) -> io::Result<()> {
        let mut text = String::new();
        for name in &self.names {
            text.push_str(&format!("\nPlayer: {name}"));
            if let Some(tally) = self.tallies.get(name) {
                for (key, count) in &tally.outcomes {
                    text.push_str(&format!("\n   \"{key}\": {count}"));
                }
            }
        }
        writeln!(self.out, "{text}")
    }

    /// What cutechess-cli prints when a game ends (`EngineMatch::onGameFinished`): its line,
    /// the `Score of` line of two engines, and the results and outcomes when their interval
    /// comes (counting the games an interrupt ended).
    fn game_ended(&mut self, finished: &GameFinished<'_>) -> io::Result<()> {
        let game = finished.game;
        let standings = finished.standings;
        if let Some(sprt) = &finished.sprt {
            self.last_llr = sprt.llr;
        }
        writeln!(
            self.out,
            "Finished game {} ({} vs {}): {} {{{}}}",
            game.number,
            game.white,
            game.black,
            game.record.outcome.pgn(),
            ending_words(game, Tool::Cutechess)
        )?;
        let ended = finished.finished + self.voids;
        let score_due = (self.score_interval != 0 && ended.is_multiple_of(self.score_interval))
            || finished.finished == finished.total;
        if standings.names.len() == 2 && score_due {
            let s = standings.engine_score(0);
            writeln!(
                self.out,
                "Score of {} vs {}: {} - {} - {}  [{}] {}",
                standings.names[0],
                standings.names[1],
                s.wins,
                s.losses,
                s.draws,
                qt_fixed(s.ratio(), 3),
                s.games()
            )?;
        }
        // A knockout's bracket is printed at the end only.
        if self.rating_interval != 0
            && ended.is_multiple_of(self.rating_interval)
            && self.tournament != Some(TournamentKind::Knockout)
        {
            self.results(standings)?;
        }
        if self.whole && self.outcome_interval != 0 && ended.is_multiple_of(self.outcome_interval) {
            self.outcomes()?;
        }
        self.out.flush()
    }
}

impl<W: Write> MatchObserver for Cutechess<'_, W> {
    fn started(&mut self, start: &MatchStart) -> io::Result<()> {
        self.sprt = start.sprt;
        self.names = start.names.clone();
        self.tournament = start.tournament;
        self.seeds = start.layout.seeds;
        self.time_controls = start.time_controls.clone();
        self.whole = start.resumed.is_none();
        if !self.whole
            && start.names.len() > 2
            && start.tournament != Some(TournamentKind::Knockout)
            && self.format.needs_each_game()
        {
            return Err(io::Error::other(
                "this -resultformat has fields of each game's colours or ending (wW, wScore, \
                 Time, DAdj, ...), which a resumed run does not know for the games of its \
                 earlier runs; continue it with fields of Rank, Name, Games, W, L, D, Points, \
                 Score, DScore, Elo, Error and TC only (as the default format, wide or ordo)",
            ));
        }
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
        self.count(finished.game);
        self.game_ended(finished)
    }

    /// cutechess-cli ends each running game of an interrupted run with `*` and tells it as it
    /// tells a finished one: its `Finished game` line, the `Score of` line (the game not in
    /// it), and `"No result"` among both players' outcomes; it counts among the finished games
    /// for `-ratinginterval` and `-outcomeinterval`.
    fn game_unfinished(&mut self, unfinished: &GameFinished<'_>) -> io::Result<()> {
        self.voids += 1;
        let game = unfinished.game;
        for name in [&game.white, &game.black] {
            let tally = self.tallies.entry(name.clone()).or_default();
            *tally.outcomes.entry("No result".into()).or_default() += 1;
        }
        self.game_ended(unfinished)
    }

    fn option_warning(&mut self, warning: &OptionWarning) -> io::Result<()> {
        say!("Warning: {}", super::warnings::cutechess_option(warning));
        Ok(())
    }

    fn run_stopped(&mut self, stop: &RunStop) -> io::Result<()> {
        match super::warnings::cutechess_stop(stop) {
            Some(warning) => say!("Warning: {warning}"),
            None => say!("shannon: note: {stop}"),
        }
        Ok(())
    }

    fn finished(&mut self, report: &MatchReport) -> io::Result<()> {
        if let Some(sprt) = &report.sprt {
            self.last_llr = sprt.llr;
        }
        // The games an interrupt ended count for the intervals, as cutechess-cli counts them.
        let games = report.games() + self.voids;
        if let Some(knockout) = &report.knockout {
            // `KnockoutTournament::results()`: the bracket alone.
            writeln!(self.out, "{}", knockout.bracket)?;
        } else if self.rating_interval == 0
            || !games.is_multiple_of(self.rating_interval)
            || games == 0
        {
            self.results(&report.standings)?;
        }
        if let Some(note) = report
            .sprt
            .as_ref()
            .and_then(|sprt| super::sprt_games_note(sprt, report.games()))
        {
            writeln!(self.out, "{note}")?;
        }
        let outcomes_printed =
            self.outcome_interval != 0 && games.is_multiple_of(self.outcome_interval) && games > 0;
        if self.whole && !outcomes_printed {
            self.outcomes()?;
        }
        if let Some(why) = &report.record_error {
            writeln!(self.out, "Warning: {why}")?;
        }
        writeln!(self.out, "Finished match")?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests;
