//! The console's renderer of a match: the header before the first game, cutechess-cli's
//! progress lines after each game when asked, a progress bar, and at the end the result tables
//! (also what `shannon merge` prints).
//!
//! Two engines get cutechess-cli's match summary: one row, the pentanomial of the game pairs and
//! the closing `Elo difference: x +/- y, LOS: z %, DrawRatio: w %` line that scripts parse. More
//! engines get a ranking (each engine's score against the field, as an Elo difference with its
//! 95% margin), a crosstable, and every encounter with its pair statistics.

use crate::cli::prelude::say;
use indicatif::ProgressBar;
use shannon::arena::{
    GameFinished, MatchObserver, MatchReport, MatchStart, OptionWarning, SprtReport, Standings,
};
use shannon::stats::{Score, SprtVerdict};
use std::io::{self, Write};

/// The console: `out` for the text, a progress bar (hidden when quiet), and whether to print
/// cutechess-cli's lines after every game.
pub struct Console<'a, W: Write> {
    out: &'a mut W,
    bar: ProgressBar,
    progress_lines: bool,
}

impl<'a, W: Write> Console<'a, W> {
    /// A console writing to `out`.
    pub fn new(out: &'a mut W, bar: ProgressBar, progress_lines: bool) -> Console<'a, W> {
        Console {
            out,
            bar,
            progress_lines,
        }
    }
}

impl<W: Write> MatchObserver for Console<'_, W> {
    fn started(&mut self, start: &MatchStart) -> io::Result<()> {
        write_header(self.out, start)
    }

    fn game_finished(&mut self, game: &GameFinished<'_>) -> io::Result<()> {
        if self.progress_lines {
            progress_lines(self.out, game)?;
        }
        self.bar.set_length(u64::from(game.total));
        self.bar.set_position(u64::from(game.finished));
        self.bar.set_message(score_words(game.standings));
        Ok(())
    }

    fn option_warning(&mut self, warning: &OptionWarning) -> io::Result<()> {
        self.bar.suspend(|| {
            say!(
                "shannon: warning: {}: {}; not sent",
                warning.engine,
                warning.problem
            )
        });
        Ok(())
    }

    fn finished(&mut self, report: &MatchReport) -> io::Result<()> {
        self.bar.finish_and_clear();
        write_end(self.out, report)
    }
}

/// The match's time control, and the engines' that have their own: `10+0.1` or
/// `10+0.1 (base 5+0.05)`.
pub fn time_controls(start: &MatchStart) -> String {
    let own: Vec<String> = start
        .names
        .iter()
        .zip(&start.time_controls)
        .filter(|(_, tc)| **tc != start.time_control)
        .map(|(name, tc)| format!("{name} {}", tc.notation()))
        .collect();
    match own.is_empty() {
        true => start.time_control.notation(),
        false => format!("{} ({})", start.time_control.notation(), own.join(", ")),
    }
}

/// What a run prints before its first game.
pub fn write_header(out: &mut impl Write, start: &MatchStart) -> io::Result<()> {
    let tc = time_controls(start);
    match start.tournament {
        Some(kind) => writeln!(
            out,
            "Tournament ({kind}) of {}: {} round(s), {} games per encounter, {} games, tc {tc}, \
             openings {}, concurrency {}, seed {}",
            start.names.join(", "),
            start.rounds,
            start.games_per_encounter,
            start.games,
            start.openings,
            start.concurrency,
            start.seed
        )?,
        None => writeln!(
            out,
            "Match {} vs {}: {}, tc {tc}, openings {}, concurrency {}, seed {}",
            start.names[0],
            start.names[1],
            match start.sprt {
                Some(_) => format!("at most {} games (until the SPRT decides)", start.games),
                None => format!("{} games", start.games),
            },
            start.openings,
            start.concurrency,
            start.seed
        )?,
    }
    if let Some(span) = &start.shard {
        writeln!(
            out,
            "Shard {}: games {} to {} of the {}",
            span.shard, span.first, span.last, span.of
        )?;
    }
    if let Some(resumed) = &start.resumed {
        writeln!(
            out,
            "Resuming {}: {} of {} games done{}",
            resumed.state.display(),
            resumed.done,
            resumed.of,
            match resumed.done >= resumed.of {
                true => ": the match is finished, nothing to play (its files are left as they are)",
                false => "",
            }
        )?;
    }
    if let Some(line) = super::decided_before_line(start) {
        writeln!(out, "{line}")?;
    }
    for (name, seed) in &start.configured_seeds {
        writeln!(
            out,
            "{name}: plays every game with its configured Seed {seed} (the match seed does not \
             change it)"
        )?;
    }
    out.flush()
}

/// What a run prints at its end: the interruption, the tables, the SPRT, a failed write and the
/// files.
fn write_end(out: &mut impl Write, report: &MatchReport) -> io::Result<()> {
    if let Some(unfinished) = report.interrupted {
        writeln!(
            out,
            "Interrupted after {} finished games; {unfinished} running games were ended \
             unfinished (in the PGN with result *, not counted below) and every engine stopped",
            report.games(),
        )?;
    }
    if let Some(stop) = &report.stopped {
        writeln!(out, "The match {stop}")?;
    }
    write_tables(out, &report.standings, report.seconds)?;
    if let Some(sprt) = &report.sprt {
        write_sprt(out, sprt, report.games())?;
    }
    if let Some(why) = &report.record_error {
        let resume = match &report.state {
            Some(state) => format!(
                ", and `shannon match --resume {}` plays the games after it again",
                state.path.display()
            ),
            None => String::new(),
        };
        writeln!(out, "{why}; the games before the failure are kept{resume}")?;
    }
    for (what, path) in [("PGN", &report.pgn), ("EPD", &report.epd)] {
        if let Some(path) = path {
            writeln!(out, "{what}: {}", path.display())?;
        }
    }
    if let Some(state) = &report.state {
        if state.complete {
            writeln!(out, "State: {}", state.path.display())?;
        } else {
            writeln!(
                out,
                "State: {} ({} of {} games done; continue with: shannon match --resume {})",
                state.path.display(),
                state.done,
                state.of,
                state.path.display()
            )?;
        }
    }
    Ok(())
}

/// The SPRT's line: its decision with the game it was taken at, or where it stands; and, when
/// the tables count more games than the test (`games` finished in all), why.
fn write_sprt(out: &mut impl Write, sprt: &SprtReport, games: u32) -> io::Result<()> {
    let (lower, upper) = sprt.sprt.bounds();
    let at = if sprt.verdict != SprtVerdict::Continue {
        format!("at game {}", sprt.games)
    } else {
        format!("after the first {} games", sprt.games)
    };
    writeln!(
        out,
        "SPRT ({}, {}, {}): elo0 {} elo1 {} alpha {} beta {}: LLR {:.3} [{lower:.3}, \
         {upper:.3}]: {} {at}",
        sprt.sprt.test.tool(),
        sprt.model.name(),
        sprt.sprt.test.elo_model().units(),
        sprt.sprt.elo0,
        sprt.sprt.elo1,
        sprt.sprt.alpha,
        sprt.sprt.beta,
        sprt.llr,
        sprt.verdict
    )?;
    if let Some(note) = super::sprt_games_note(sprt, games) {
        writeln!(out, "{note}")?;
    }
    Ok(())
}

/// cutechess-cli's per-game lines, for scripts that follow a match as it runs.
fn progress_lines(out: &mut impl Write, finished: &GameFinished<'_>) -> io::Result<()> {
    let game = finished.game;
    let standings = finished.standings;
    let tally = &standings.encounters[finished.encounter];
    let s = tally.score;
    writeln!(
        out,
        "Finished game {} ({} vs {}): {} {{{}}}",
        game.number,
        game.white,
        game.black,
        game.record.outcome.pgn(),
        game.describe()
    )?;
    writeln!(
        out,
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        standings.names[tally.engines.0],
        standings.names[tally.engines.1],
        s.wins,
        s.losses,
        s.draws,
        s.ratio(),
        s.games()
    )?;
    out.flush()
}

/// The score so far in a few words, for a progress bar.
fn score_words(standings: &Standings) -> String {
    if standings.encounters.len() == 1 {
        let s = standings.encounters[0].score;
        let first = &standings.names[standings.encounters[0].engines.0];
        return format!("{first} {}-{}-{} (W-L-D)", s.wins, s.losses, s.draws);
    }
    let leader = standings.ranking()[0];
    let s = standings.engine_score(leader);
    format!(
        "leader {} {}/{}",
        standings.names[leader],
        s.points(),
        s.games()
    )
}

/// The tables for `standings`, played in `seconds`.
pub fn write_tables(out: &mut impl Write, standings: &Standings, seconds: f64) -> io::Result<()> {
    writeln!(out)?;
    if standings.encounters.len() == 1 {
        write_match(out, standings)?;
    } else {
        write_tournament(out, standings)?;
    }
    writeln!(out, "Terminations:")?;
    for (name, count) in standings.terminations_by_words() {
        writeln!(out, "  {count:>6}  {name}")?;
    }
    let games = standings.games();
    writeln!(
        out,
        "{games} games, {} plies in {seconds:.1} s ({:.0} games per minute), {} lost by engine \
         failure",
        standings.plies,
        60.0 * f64::from(games) / seconds.max(1e-9),
        standings.failures
    )?;
    write_forfeits(out, standings)
}

/// The losses on time by cause (`time losses: 3, engine 2, harness 1`) and every forfeit with
/// its forensics file; nothing when no engine failed.
fn write_forfeits(out: &mut impl Write, standings: &Standings) -> io::Result<()> {
    let losses = standings.time_losses_by_cause();
    if !losses.is_empty() {
        write!(
            out,
            "time losses: {}, engine {}, harness {}",
            losses.total(),
            losses.engine,
            losses.harness
        )?;
        if losses.unknown > 0 {
            write!(out, ", unknown {}", losses.unknown)?;
        }
        writeln!(out)?;
    }
    if !standings.forfeits.is_empty() {
        writeln!(out, "Forfeits:")?;
        for forfeit in &standings.forfeits {
            write!(
                out,
                "  game {}  {}: {}",
                forfeit.game, forfeit.engine, forfeit.why
            )?;
            if let Some(file) = &forfeit.forensics {
                write!(out, "; forensics in {}", file.display())?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}

/// The Elo difference `score` gives, with its margin, as `+12.3 +/- 45.6` (or why there is none).
fn elo_text(score: &Score) -> String {
    match score.elo() {
        // `+ 0.0`: no "-0.0" for an even score.
        Some((elo, margin)) => format!("{:.1} +/- {margin:.1}", elo + 0.0),
        None if score.games() == 0 => "no game".into(),
        None => "unbounded".into(),
    }
}

fn write_match(out: &mut impl Write, standings: &Standings) -> io::Result<()> {
    let encounter = &standings.encounters[0];
    let s = encounter.score;
    let (a, b) = encounter.engines;
    writeln!(
        out,
        "{:<24} {:>6} {:>6} {:>6} {:>6} {:>7}",
        "pair", "games", "wins", "draws", "losses", "score"
    )?;
    writeln!(
        out,
        "{:<24} {:>6} {:>6} {:>6} {:>6} {:>6.1}%",
        format!("{} vs {}", standings.names[a], standings.names[b]),
        s.games(),
        s.wins,
        s.draws,
        s.losses,
        100.0 * s.ratio()
    )?;
    let pairs = encounter.pairs.pentanomial();
    let [ll, ld, dd, wd, ww] = pairs.counts;
    writeln!(
        out,
        "Pentanomial [LL, LD, DD+WL, WD, WW]: [{ll}, {ld}, {dd}, {wd}, {ww}] ({} complete pairs, {} \
         finished games whose partner did not finish)",
        pairs.pairs(),
        encounter.pairs.unpaired()
    )?;
    // cutechess-cli's closing line, so scripts written for it parse ours.
    let draw_ratio = 100.0 * f64::from(s.draws) / f64::from(s.games().max(1));
    let los = 100.0 * s.likelihood_of_superiority();
    match s.elo() {
        Some(_) => writeln!(
            out,
            "Elo difference: {}, LOS: {los:.1} %, DrawRatio: {draw_ratio:.1} %",
            elo_text(&s)
        ),
        None if s.games() == 0 => writeln!(out, "Elo difference: no game finished"),
        None => writeln!(
            out,
            "Elo difference: unbounded (every game had the same result), LOS: {los:.1} %, \
             DrawRatio: {draw_ratio:.1} %"
        ),
    }
}

fn write_tournament(out: &mut impl Write, standings: &Standings) -> io::Result<()> {
    let longest = standings.names.iter().map(|n| n.len()).max().unwrap_or(0);
    let width = longest.max(4);
    writeln!(
        out,
        "{:>4} {:<width$} {:>20} {:>6} {:>7} {:>6}",
        "Rank", "Name", "Elo", "Games", "Score", "Draw"
    )?;
    let ranking = standings.ranking();
    for (rank, &engine) in ranking.iter().enumerate() {
        let s = standings.engine_score(engine);
        if s.games() == 0 {
            writeln!(
                out,
                "{:>4} {:<width$} {:>20} {:>6} {:>7} {:>6}",
                rank + 1,
                standings.names[engine],
                "no game",
                0,
                "-",
                "-"
            )?;
            continue;
        }
        writeln!(
            out,
            "{:>4} {:<width$} {:>20} {:>6} {:>6.1}% {:>5.1}%",
            rank + 1,
            standings.names[engine],
            elo_text(&s),
            s.games(),
            100.0 * s.ratio(),
            100.0 * f64::from(s.draws) / f64::from(s.games().max(1))
        )?;
    }
    writeln!(out)?;
    write_crosstable(out, standings, &ranking, width)?;
    writeln!(out)?;
    writeln!(
        out,
        "Encounters (the first engine's wins, draws, losses; game pairs [LL, LD, DD+WL, WD, WW]):"
    )?;
    for encounter in &standings.encounters {
        let (a, b) = encounter.engines;
        let s = encounter.score;
        let [ll, ld, dd, wd, ww] = encounter.pairs.pentanomial().counts;
        writeln!(
            out,
            "  {:<w2$}  {:>5} games  +{} ={} -{}  {:>5.1}%  Elo {}  pairs [{ll}, {ld}, {dd}, {wd}, {ww}]",
            format!("{} vs {}", standings.names[a], standings.names[b]),
            s.games(),
            s.wins,
            s.draws,
            s.losses,
            100.0 * s.ratio(),
            elo_text(&s),
            w2 = 2 * width + 4
        )?;
    }
    Ok(())
}

/// The row engine's points against the column engine's, by rank.
fn write_crosstable(
    out: &mut impl Write,
    standings: &Standings,
    ranking: &[usize],
    width: usize,
) -> io::Result<()> {
    writeln!(
        out,
        "Crosstable (the row engine's points against the column's, by rank):"
    )?;
    // Wide enough for a name and for `12.5/100`.
    let longest = standings.names.iter().map(|n| n.len()).max().unwrap_or(0);
    let cell = longest.max(9);
    write!(out, "{:<width$}", "")?;
    for &column in ranking {
        write!(out, " {:>cell$}", standings.names[column])?;
    }
    writeln!(out)?;
    for &row in ranking {
        write!(out, "{:<width$}", standings.names[row])?;
        for &column in ranking {
            let text = match standings.head_to_head(row, column) {
                _ if row == column => "-".to_string(),
                Some(s) => format!("{}/{}", s.points(), s.games()),
                None => String::new(),
            };
            write!(out, " {text:>cell$}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
