//! The HTML renderer of a match report (`shannon match --report FILE.html`, `shannon merge
//! --report`): one self-contained page (no script, no font, no network): the settings the games
//! were played under (time control, schedule, openings, seed, the SPRT, when the page was
//! written), the crosstable, the encounters with their pair statistics, the Elo difference (each engine's
//! against the field in a tournament) with its 95% error bar, the
//! SPRT's log-likelihood ratio over the games with its bounds, and the terminations. The pictures
//! are SVG drawn by plotters into the page.

use super::error::ReportFileError;
use plotters::prelude::*;
use shannon::arena::{MatchReport, MatchStart, SprtReport, Standings};
use shannon::stats::{Score, SprtVerdict};
use std::fmt::Write as _;
use std::path::Path;

/// Write the page of `report` to `path`.
pub fn write_report(path: &Path, report: &MatchReport) -> Result<(), ReportFileError> {
    std::fs::write(path, page(report)?).map_err(|e| ReportFileError::Html(path.to_path_buf(), e))
}

/// Text for HTML: `&`, `<`, `>` and quotes escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The whole page.
fn page(report: &MatchReport) -> Result<String, ReportFileError> {
    let standings = &report.standings;
    let names: Vec<String> = standings.names.iter().map(|n| escape(n)).collect();
    let title = if names.len() == 2 {
        format!("{} vs {}", names[0], names[1])
    } else {
        format!("Tournament of {}", names.join(", "))
    };
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{title}</title><style>\
         body{{font-family:sans-serif;margin:2em;color:#222}} table{{border-collapse:collapse}}\
         td,th{{border:1px solid #bbb;padding:4px 10px;text-align:right}} th{{background:#eee}}\
         h2{{margin-top:1.5em}} dl{{display:grid;grid-template-columns:max-content auto;\
         gap:2px 16px}} dt{{font-weight:bold}} dd{{margin:0}}</style></head><body>\n\
         <h1>{title}</h1>\n"
    );
    settings(&mut html, report);
    crosstable(&mut html, standings, &names);
    encounters(&mut html, standings, &names);
    elo(&mut html, standings, &names)?;
    if let Some(test) = &report.sprt {
        sprt(&mut html, test, report.games())?;
    }
    html.push_str("<h2>Terminations</h2>\n<table><tr><th>how</th><th>games</th></tr>\n");
    for (name, count) in standings.terminations_by_words() {
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{count}</td></tr>",
            escape(name.words())
        );
    }
    let _ = writeln!(
        html,
        "</table>\n<p>{} games, {} plies in {:.1} s; {} lost by engine failure.</p>",
        standings.games(),
        standings.plies,
        report.seconds,
        standings.failures
    );
    forfeits(&mut html, standings);
    html.push_str("</body></html>\n");
    Ok(html)
}

/// What the games were played under: the time control, the schedule, the openings, the seed,
/// the SPRT's settings, the files, and when the page was written.
fn settings(html: &mut String, report: &MatchReport) {
    let start: &MatchStart = &report.start;
    let mut rows: Vec<(&str, String)> = vec![
        ("time control", super::text::time_controls(start)),
        (
            "schedule",
            match start.tournament {
                Some(kind) => format!(
                    "{kind}: {} round(s) of {} games per encounter, {} games",
                    start.rounds, start.games_per_encounter, start.games
                ),
                None => format!("{} games", start.games),
            },
        ),
        ("openings", start.openings.to_string()),
        ("seed", start.seed.to_string()),
        ("concurrency", start.concurrency.to_string()),
    ];
    if let Some(sprt) = &start.sprt {
        let (lower, upper) = sprt.bounds();
        rows.push((
            "SPRT",
            format!(
                "{}'s test, {}: elo0 {}, elo1 {}, alpha {}, beta {}: accept H0 at an LLR of \
                 {lower:.3} or below, H1 at {upper:.3} or above",
                sprt.test.tool(),
                sprt.test.elo_model().units(),
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta
            ),
        ));
    }
    if let Some(span) = &start.shard {
        rows.push((
            "shard",
            format!(
                "{}: games {} to {} of {}",
                span.shard, span.first, span.last, span.of
            ),
        ));
    }
    if let Some(pgn) = &report.pgn {
        rows.push(("games file", pgn.display().to_string()));
    }
    let (date, time) = shannon::arena::utc_now();
    rows.push(("written", format!("{date} {time} UTC")));
    html.push_str("<h2>Settings</h2>\n<dl>\n");
    for (name, value) in rows {
        let _ = writeln!(html, "<dt>{name}</dt><dd>{}</dd>", escape(&value));
    }
    html.push_str("</dl>\n");
}

/// The losses on time by cause and every forfeit with its forensics file (nothing when no
/// engine failed).
fn forfeits(html: &mut String, standings: &Standings) {
    let losses = standings.time_losses_by_cause();
    if !losses.is_empty() {
        let _ = writeln!(
            html,
            "<p>Time losses: {}; engine {}, harness {}, unknown {}.</p>",
            losses.total(),
            losses.engine,
            losses.harness,
            losses.unknown
        );
    }
    if standings.forfeits.is_empty() {
        return;
    }
    html.push_str(
        "<h2>Forfeits</h2>\n<table><tr><th>game</th><th>engine</th><th>why</th>\
         <th>forensics</th></tr>\n",
    );
    for forfeit in &standings.forfeits {
        let file = forfeit
            .forensics
            .as_ref()
            .map_or_else(String::new, |f| escape(&f.display().to_string()));
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td><td style=\"text-align:left\">{}</td>\
             <td style=\"text-align:left\">{file}</td></tr>",
            forfeit.game,
            escape(&forfeit.engine),
            escape(&forfeit.why)
        );
    }
    html.push_str("</table>\n");
}

/// The crosstable: the row engine's points against each column engine, then its total; rows
/// and columns by rank.
fn crosstable(html: &mut String, standings: &Standings, names: &[String]) {
    let ranking = standings.ranking();
    html.push_str("<h2>Crosstable</h2>\n<table><tr><th></th>");
    for &column in &ranking {
        let _ = write!(html, "<th>{}</th>", names[column]);
    }
    html.push_str("<th>games</th><th>score</th></tr>\n");
    for &row in &ranking {
        let _ = write!(html, "<tr><th>{}</th>", names[row]);
        for &column in &ranking {
            let cell = match standings.head_to_head(row, column) {
                _ if row == column => "-".to_string(),
                Some(s) => format!("{}/{}", half_points(s.wins, s.draws), s.games()),
                None => String::new(),
            };
            let _ = write!(html, "<td>{cell}</td>");
        }
        let total = standings.engine_score(row);
        let _ = writeln!(
            html,
            "<td>{}</td><td>{:.1}%</td></tr>",
            total.games(),
            100.0 * total.ratio()
        );
    }
}

/// The encounters' results and pairs.
fn encounters(html: &mut String, standings: &Standings, names: &[String]) {
    html.push_str(
        "</table>\n<h2>Encounters</h2>\n<table><tr><th>encounter</th><th>wins</th>\
                   <th>draws</th><th>losses</th><th>pairs [LL, LD, DD+WL, WD, WW]</th></tr>\n",
    );
    for encounter in &standings.encounters {
        let (a, b) = encounter.engines;
        let s = encounter.score;
        let _ = writeln!(
            html,
            "<tr><th>{} vs {}</th><td>{}</td><td>{}</td><td>{}</td><td>{:?}</td></tr>",
            names[a],
            names[b],
            s.wins,
            s.draws,
            s.losses,
            encounter.pairs.pentanomial().counts
        );
    }
}

/// The Elo differences: two engines, the first against the second; more, each against the
/// field; with a chart of them.
fn elo(html: &mut String, standings: &Standings, names: &[String]) -> Result<(), ReportFileError> {
    let ranking = standings.ranking();
    html.push_str("</table>\n<h2>Elo</h2>\n");
    let rows: Vec<(String, Score)> = if names.len() == 2 {
        vec![(
            format!("{} vs {}", names[0], names[1]),
            standings.encounters[0].score,
        )]
    } else {
        ranking
            .iter()
            .map(|&e| (names[e].clone(), standings.engine_score(e)))
            .collect()
    };
    let mut bars = Vec::new();
    for (label, score) in &rows {
        match score.elo() {
            Some((elo, margin)) => {
                let _ = writeln!(
                    html,
                    "<p>{label}: {:.1} +/- {margin:.1} (95%), LOS {:.1}%.</p>",
                    elo + 0.0,
                    100.0 * score.likelihood_of_superiority()
                );
                bars.push((label.clone(), elo, margin));
            }
            None => {
                let _ = writeln!(
                    html,
                    "<p>{label}: no finite Elo difference (no game, or every game had the same \
                     result).</p>"
                );
            }
        }
    }
    if !bars.is_empty() {
        html.push_str(&elo_bars(&bars)?);
    }
    Ok(())
}

/// The sequential test: its bounds, its decision (or last LLR) with the games it was taken on,
/// and its LLR curve.
fn sprt(html: &mut String, test: &SprtReport, games: u32) -> Result<(), ReportFileError> {
    let (sprt, history) = (&test.sprt, &test.history);
    let (lower, upper) = sprt.bounds();
    let verdict = match test.verdict {
        SprtVerdict::AcceptH0 => format!("H0 accepted at game {}", test.games),
        SprtVerdict::AcceptH1 => format!("H1 accepted at game {}", test.games),
        SprtVerdict::Continue => format!("no decision after the first {} games", test.games),
    };
    let _ = writeln!(
        html,
        "<h2>SPRT</h2>\n<p>{}'s test on the {}, {}: elo0 {} elo1 {}, alpha {} beta {}: H0 is \
             accepted at an LLR of {lower:.3} or below (the lower bound, red in the chart), H1 at \
             {upper:.3} or above (the upper bound, green); LLR {:.3}: {verdict}.</p>",
        sprt.test.tool(),
        test.model.name(),
        sprt.test.elo_model().units(),
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        test.llr
    );
    if let Some(note) = super::sprt_games_note(test, games) {
        let _ = writeln!(html, "<p>{}</p>", escape(&note));
    }
    html.push_str(&llr_curve(history, lower, upper)?);
    Ok(())
}

/// Points as a crosstable writes them: wins and half the draws.
fn half_points(wins: u32, draws: u32) -> String {
    let halves = 2 * wins + draws;
    if halves.is_multiple_of(2) {
        format!("{}", halves / 2)
    } else {
        format!("{}.5", halves / 2)
    }
}

/// Each row's Elo difference as a point with its 95% interval, on one axis around 0, the row's
/// label above its bar.
fn elo_bars(rows: &[(String, f64, f64)]) -> Result<String, ReportFileError> {
    let mut svg = String::new();
    {
        let height = 70 + 50 * rows.len() as u32;
        let area = SVGBackend::with_string(&mut svg, (640, height)).into_drawing_area();
        area.fill(&WHITE).map_err(ReportFileError::draw)?;
        let reach = rows
            .iter()
            .map(|&(_, elo, margin)| elo.abs() + margin)
            .fold(10.0, f64::max)
            * 1.2;
        let n = rows.len() as f64;
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(30)
            .build_cartesian_2d(-reach..reach, 0.0..n)
            .map_err(ReportFileError::draw)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .disable_y_axis()
            .x_desc("Elo difference (95% interval)")
            .draw()
            .map_err(ReportFileError::draw)?;
        let blue = RGBColor(44, 102, 163);
        for (i, (label, elo, margin)) in rows.iter().enumerate() {
            // The first row at the top.
            let y = n - i as f64 - 0.6;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(elo - margin, y), (elo + margin, y)],
                    blue.stroke_width(3),
                )))
                .map_err(ReportFileError::draw)?;
            chart
                .draw_series(std::iter::once(Circle::new((*elo, y), 6, blue.filled())))
                .map_err(ReportFileError::draw)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    label.clone(),
                    (-reach * 0.97, y + 0.38),
                    ("sans-serif", 13).into_font(),
                )))
                .map_err(ReportFileError::draw)?;
        }
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, 0.05), (0.0, n - 0.05)],
                BLACK.stroke_width(1),
            )))
            .map_err(ReportFileError::draw)?;
        area.present().map_err(ReportFileError::draw)?;
    }
    Ok(svg + "\n")
}

/// The LLR after each game, with the two bounds.
fn llr_curve(history: &[(u32, f64)], lower: f64, upper: f64) -> Result<String, ReportFileError> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (640, 320)).into_drawing_area();
        area.fill(&WHITE).map_err(ReportFileError::draw)?;
        let games = history.last().map_or(1, |&(g, _)| g).max(1);
        let low = history.iter().map(|&(_, l)| l).fold(lower, f64::min) * 1.1;
        let high = history.iter().map(|&(_, l)| l).fold(upper, f64::max) * 1.1;
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(45)
            .build_cartesian_2d(0u32..games, low..high)
            .map_err(ReportFileError::draw)?;
        chart
            .configure_mesh()
            .x_desc("games")
            .y_desc("log-likelihood ratio")
            .draw()
            .map_err(ReportFileError::draw)?;
        for (bound, colour, label) in [
            (
                upper,
                RGBColor(46, 139, 87),
                format!("H1 accepted: LLR {upper:.2}"),
            ),
            (
                lower,
                RGBColor(200, 60, 60),
                format!("H0 accepted: LLR {lower:.2}"),
            ),
        ] {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(0, bound), (games, bound)],
                    colour.stroke_width(2),
                )))
                .map_err(ReportFileError::draw)?;
            // The label just inside the band, by the bound's start.
            let inside = if bound > 0.0 { -0.04 } else { 0.08 } * (high - low);
            chart
                .draw_series(std::iter::once(Text::new(
                    label,
                    (games / 50, bound + inside),
                    ("sans-serif", 13).into_font().color(&colour),
                )))
                .map_err(ReportFileError::draw)?;
        }
        chart
            .draw_series(std::iter::once(PathElement::new(
                history.to_vec(),
                RGBColor(44, 102, 163).stroke_width(2),
            )))
            .map_err(ReportFileError::draw)?;
        area.present().map_err(ReportFileError::draw)?;
    }
    Ok(svg + "\n")
}
