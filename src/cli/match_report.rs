//! `shannon match --report FILE.html`: one self-contained page (no script, no font, no network):
//! the result table with the pair statistics, the Elo difference with its 95% error bar, the
//! SPRT's log-likelihood ratio over the games with its bounds, and the terminations. The pictures
//! are SVG drawn by plotters into the page.

use plotters::prelude::*;
use shannon::arena::tournament::MatchSummary;
use std::fmt::Write as _;
use std::path::Path;

/// Write the report of `summary` to `path`.
pub fn write_report(path: &Path, summary: &MatchSummary) -> Result<(), String> {
    std::fs::write(path, page(summary)?)
        .map_err(|e| format!("cannot write the report {}: {e}", path.display()))
}

/// Text for HTML: `&`, `<`, `>` and quotes escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The whole page.
fn page(summary: &MatchSummary) -> Result<String, String> {
    let [a, b] = [escape(&summary.names[0]), escape(&summary.names[1])];
    let s = summary.score;
    let games = s.games();
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{a} vs {b}</title><style>\
         body{{font-family:sans-serif;margin:2em;color:#222}} table{{border-collapse:collapse}}\
         td,th{{border:1px solid #bbb;padding:4px 10px;text-align:right}} th{{background:#eee}}\
         h2{{margin-top:1.5em}}</style></head><body>\n<h1>{a} vs {b}</h1>\n"
    );
    let _ = write!(
        html,
        "<h2>Crosstable</h2>\n<table><tr><th></th><th>{a}</th><th>{b}</th><th>games</th>\
         <th>score</th></tr>\n<tr><th>{a}</th><td>-</td><td>{}</td><td>{games}</td>\
         <td>{:.1}%</td></tr>\n<tr><th>{b}</th><td>{}</td><td>-</td><td>{games}</td>\
         <td>{:.1}%</td></tr></table>\n<p>{a}: {} wins, {} draws, {} losses. Pentanomial \
         [LL, LD, DD+WL, WD, WW]: {:?} ({} complete pairs).</p>\n",
        half_points(s.wins, s.draws),
        100.0 * s.ratio(),
        half_points(s.losses, s.draws),
        100.0 * (1.0 - s.ratio()),
        s.wins,
        s.draws,
        s.losses,
        summary.pentanomial.counts,
        summary.pentanomial.pairs()
    );
    html.push_str("<h2>Elo difference</h2>\n");
    match s.elo() {
        Some((elo, margin)) => {
            let _ = writeln!(
                html,
                "<p>{a} against {b}: {:.1} +/- {margin:.1} (95%), LOS {:.1}%.</p>",
                elo + 0.0,
                100.0 * s.likelihood_of_superiority()
            );
            html.push_str(&elo_bar(elo, margin)?);
        }
        None => html.push_str(
            "<p>No finite Elo difference: no game, or every game had the same result.</p>\n",
        ),
    }
    if let Some((sprt, history)) = &summary.sprt {
        let (lower, upper) = sprt.bounds();
        let _ = writeln!(
            html,
            "<h2>SPRT</h2>\n<p>elo0 {} elo1 {}, alpha {} beta {}: bounds {lower:.3} and \
             {upper:.3}; last LLR {:.3}.</p>",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            history.last().map_or(0.0, |&(_, llr)| llr)
        );
        html.push_str(&llr_curve(history, lower, upper)?);
    }
    html.push_str("<h2>Terminations</h2>\n<table><tr><th>how</th><th>games</th></tr>\n");
    for (name, count) in &summary.terminations {
        let _ = writeln!(html, "<tr><td>{}</td><td>{count}</td></tr>", escape(name));
    }
    let _ = write!(
        html,
        "</table>\n<p>{games} games, {} plies in {:.1} s; {} lost by engine failure.</p>\n\
         </body></html>\n",
        summary.plies, summary.seconds, summary.failures
    );
    Ok(html)
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

/// The Elo difference as a point with its 95% interval, on an axis around 0.
fn elo_bar(elo: f64, margin: f64) -> Result<String, String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (640, 140)).into_drawing_area();
        area.fill(&WHITE).map_err(|e| e.to_string())?;
        let reach = (elo.abs() + margin).max(10.0) * 1.2;
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(30)
            .build_cartesian_2d(-reach..reach, 0.0..1.0)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .disable_y_axis()
            .x_desc("Elo difference (95% interval)")
            .draw()
            .map_err(|e| e.to_string())?;
        let blue = RGBColor(44, 102, 163);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(elo - margin, 0.5), (elo + margin, 0.5)],
                blue.stroke_width(3),
            )))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(std::iter::once(Circle::new((elo, 0.5), 6, blue.filled())))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, 0.1), (0.0, 0.9)],
                BLACK.stroke_width(1),
            )))
            .map_err(|e| e.to_string())?;
        area.present().map_err(|e| e.to_string())?;
    }
    Ok(svg + "\n")
}

/// The LLR after each game, with the two bounds.
fn llr_curve(history: &[(u32, f64)], lower: f64, upper: f64) -> Result<String, String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (640, 320)).into_drawing_area();
        area.fill(&WHITE).map_err(|e| e.to_string())?;
        let games = history.last().map_or(1, |&(g, _)| g).max(1);
        let low = history.iter().map(|&(_, l)| l).fold(lower, f64::min) * 1.1;
        let high = history.iter().map(|&(_, l)| l).fold(upper, f64::max) * 1.1;
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(45)
            .build_cartesian_2d(0u32..games, low..high)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("games")
            .y_desc("log-likelihood ratio")
            .draw()
            .map_err(|e| e.to_string())?;
        for (bound, colour) in [
            (upper, RGBColor(46, 139, 87)),
            (lower, RGBColor(200, 60, 60)),
        ] {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(0, bound), (games, bound)],
                    colour.stroke_width(2),
                )))
                .map_err(|e| e.to_string())?;
        }
        chart
            .draw_series(std::iter::once(PathElement::new(
                history.to_vec(),
                RGBColor(44, 102, 163).stroke_width(2),
            )))
            .map_err(|e| e.to_string())?;
        area.present().map_err(|e| e.to_string())?;
    }
    Ok(svg + "\n")
}
