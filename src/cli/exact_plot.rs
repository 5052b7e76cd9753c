//! The chart of `shannon exact --plot`: the probability that a uniformly random game has ended in
//! checkmate by ply k (and at ply k), on a log scale, drawn and written as the random-games
//! length chart is (the same size, fonts, colours and writer, from [`super::random_games_plot`]).

use super::random_games_plot::{write_svg, PlotError, COLOURS, SIZE};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use shannon::perft::exact::{Bounded, ExactReport, FRACTION_BITS};
use std::path::Path;

/// A probability as a float, for drawing (its guaranteed digits are in the table).
fn value(p: Bounded) -> f64 {
    p.low.0 as f64 / 2f64.powi(FRACTION_BITS as i32)
}

/// Draw the chart of `report` (computed from the position `start`, a FEN) into `path`.
pub fn write_mate_chart(path: &Path, report: &ExactReport, start: &str) -> Result<(), PlotError> {
    write_svg(path, |svg| draw(svg, report, start))
}

fn draw(
    svg: &mut String,
    report: &ExactReport,
    start: &str,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(
        "P(a random game has ended in checkmate by ply k), exactly",
        ("sans-serif", 28),
    )?;
    let grey = RGBColor(0x55, 0x55, 0x55);
    root.draw(&Text::new(
        format!("each legal move equally likely; from {start}"),
        (SIZE.0 as i32 / 2, 0),
        ("sans-serif", 16)
            .into_font()
            .color(&grey)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    let (_, body) = root.split_vertically(30);
    let by: Vec<(u32, f64)> = report
        .plies
        .iter()
        .map(|p| (p.ply, value(p.cumulative_mate)))
        .filter(|&(_, v)| v > 0.0)
        .collect();
    let at: Vec<(u32, f64)> = report
        .plies
        .iter()
        .map(|p| (p.ply, value(p.p_mate)))
        .filter(|&(_, v)| v > 0.0)
        .collect();
    if by.is_empty() {
        body.draw(&Text::new(
            format!(
                "no game ends in checkmate within {} plies",
                report.plies.len()
            ),
            (40, 40),
            ("sans-serif", 20).into_font(),
        ))?;
        return root.present();
    }
    // Whole decades, so that the log scale's labels fall on powers of ten.
    let least = at.iter().chain(&by).map(|&(_, v)| v).fold(1.0, f64::min);
    let most = by.iter().map(|&(_, v)| v).fold(0.0, f64::max);
    let low = 10f64.powf(least.log10().floor());
    let high = 10f64.powf((most * 1.5).log10().ceil()).min(1.0);
    let last = report.plies.len() as u32;
    let mut chart = ChartBuilder::on(&body)
        .margin_left(10)
        .margin_right(40)
        .margin_top(10)
        .margin_bottom(10)
        .x_label_area_size(55)
        .y_label_area_size(90)
        .build_cartesian_2d(0..last + 1, (low..high).log_scale())?;
    let x_label = |x: &u32| {
        if (1..=last).contains(x) {
            x.to_string()
        } else {
            String::new()
        }
    };
    let y_label = |y: &f64| format!("{y:.0e}");
    chart
        .configure_mesh()
        .bold_line_style(RGBColor(0xDD, 0xDD, 0xDD))
        .light_line_style(TRANSPARENT)
        .x_labels(last as usize + 2)
        .y_labels(12)
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .x_desc("ply k")
        .y_desc("probability (log scale)")
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()?;
    let (blue, red) = (COLOURS[0], COLOURS[1]);
    chart
        .draw_series([PathElement::new(by.clone(), blue.stroke_width(3))])?
        .label("ended in checkmate by ply k")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 24, y)], blue.stroke_width(3)));
    chart.draw_series(by.iter().map(|&p| Circle::new(p, 5, blue.filled())))?;
    chart
        .draw_series([PathElement::new(at.clone(), red.stroke_width(2))])?
        .label("ended in checkmate at ply k")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 24, y)], red.stroke_width(2)));
    chart.draw_series(at.iter().map(|&p| Circle::new(p, 4, red.filled())))?;
    chart.draw_series(by.iter().map(|&(k, v)| {
        Text::new(
            format!("{v:.3e}"),
            (k, v * 1.35),
            ("sans-serif", 14)
                .into_font()
                .color(&grey)
                .pos(Pos::new(HPos::Center, VPos::Bottom)),
        )
    }))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE)
        .border_style(RGBColor(0xAA, 0xAA, 0xAA))
        .label_font(("sans-serif", 16))
        .draw()?;
    root.present()
}
