//! The result tables printed at the end of a match or tournament (and by `shannon merge`).
//!
//! Two engines get cutechess-cli's match summary: one row, the pentanomial of the game pairs and
//! the closing `Elo difference: x +/- y, LOS: z %, DrawRatio: w %` line that scripts parse.
//! More engines get a ranking (each engine's score against the field, as an Elo difference with
//! its 95% margin), a crosstable, and every encounter with its pair statistics.

use super::standings::Standings;
use crate::stats::Score;
use std::io::{self, Write};

/// Print the tables for `standings`, played in `seconds`.
pub fn write_tables(out: &mut impl Write, standings: &Standings, seconds: f64) -> io::Result<()> {
    writeln!(out)?;
    if standings.encounters.len() == 1 {
        write_match(out, standings)?;
    } else {
        write_tournament(out, standings)?;
    }
    writeln!(out, "Terminations:")?;
    for (name, count) in &standings.terminations {
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
    )
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
    writeln!(
        out,
        "Crosstable (the row engine's points against the column's, by rank):"
    )?;
    // Wide enough for a name and for `12.5/100`.
    let cell = longest.max(9);
    write!(out, "{:<width$}", "")?;
    for &column in &ranking {
        write!(out, " {:>cell$}", standings.names[column])?;
    }
    writeln!(out)?;
    for &row in &ranking {
        write!(out, "{:<width$}", standings.names[row])?;
        for &column in &ranking {
            let text = match standings.head_to_head(row, column) {
                _ if row == column => "-".to_string(),
                Some(s) => format!("{}/{}", s.points(), s.games()),
                None => String::new(),
            };
            write!(out, " {text:>cell$}")?;
        }
        writeln!(out)?;
    }
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
