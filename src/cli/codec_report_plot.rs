//! The chart of `shannon codec-report --plot`: each arith codec's packed bits per move against
//! its speed, encoding and decoding, in the run the table printed, with the corner where a move
//! model meets both goals (3 bits a move or less, a million moves a second or more) shaded. It
//! is drawn and written as the CLI's other charts are ([`super::random_games_plot`]).

use super::random_games_plot::{write_svg, PlotError, COLOURS, SIZE};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use shannon::codec::game::model::MoveModel;
use shannon::codec::game::GameCodec;
use std::path::Path;

/// A game codec's figures per move, as `codec-report` prints them and the chart draws them.
#[derive(Debug, Clone, PartialEq)]
pub struct GameCodecRow {
    /// The codec.
    pub codec: GameCodec,
    /// The packed file's bits per move (framing and checks included).
    pub packed_bits: f64,
    /// Moves encoded per second.
    pub encode_rate: f64,
    /// Moves decoded per second.
    pub decode_rate: f64,
}

/// The goal of bits per move.
const GOAL_BITS: f64 = 3.0;
/// The goal of speed, in millions of moves a second.
const GOAL_SPEED: f64 = 1.0;

/// Draw the chart of the arith codecs among `rows` into `path`; `about` says which games.
pub fn write_trade_chart(path: &Path, rows: &[GameCodecRow], about: &str) -> Result<(), PlotError> {
    let uniform = rows
        .iter()
        .find(|r| r.codec == GameCodec::Arith(MoveModel::Uniform));
    let models: Vec<&GameCodecRow> = rows
        .iter()
        .filter(|r| matches!(r.codec, GameCodec::Arith(m) if m != MoveModel::Uniform))
        .collect();
    write_svg(path, |svg| draw(svg, &models, uniform, about))
}

/// Whole steps of `step` around the values, with room for the goal.
fn span(values: impl Iterator<Item = f64>, goal: f64, step: f64) -> (f64, f64) {
    let (low, high) = values
        .filter(|v| v.is_finite())
        .fold((goal, goal), |(l, h), v| (l.min(v), h.max(v)));
    ((low / step).floor() * step, (high / step).ceil() * step)
}

/// Heights for labels wanted at `wanted` (in any order), moved apart to at least `gap`, each as
/// near its own as the others allow: returns them in `wanted`'s order.
fn spread_labels(wanted: &[f64], gap: f64) -> Vec<f64> {
    let mut order: Vec<usize> = (0..wanted.len()).collect();
    order.sort_by(|&a, &b| wanted[a].total_cmp(&wanted[b]));
    let mut placed = vec![0.0; wanted.len()];
    let mut last = f64::NEG_INFINITY;
    for &i in &order {
        placed[i] = wanted[i].max(last + gap);
        last = placed[i];
    }
    // Centre the pushed labels back on what they label: shift all down by half the overshoot.
    let overshoot = order.last().map_or(0.0, |&i| placed[i] - wanted[i]);
    placed.iter().map(|p| p - overshoot / 2.0).collect()
}

fn draw(
    svg: &mut String,
    models: &[&GameCodecRow],
    uniform: Option<&GameCodecRow>,
    about: &str,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled("Move models: bits a move against speed", ("sans-serif", 28))?;
    let grey = RGBColor(0x55, 0x55, 0x55);
    let mut notes = vec![format!(
        "{about}; the packed file, framing included; one thread, wall clock, one run"
    )];
    if let Some(u) = uniform {
        notes.push(format!(
            "no model (arith, uniform): {:.3} bits a move at {:.2} M / {:.2} M moves/s, \
             the move generation and coding every model pays",
            u.packed_bits,
            u.encode_rate / 1e6,
            u.decode_rate / 1e6
        ));
    }
    for (line, note) in notes.iter().enumerate() {
        root.draw(&Text::new(
            note.clone(),
            (SIZE.0 as i32 / 2, 20 * line as i32),
            ("sans-serif", 16)
                .into_font()
                .color(&grey)
                .pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
    }
    let (_, body) = root.split_vertically(20 * notes.len() as u32 + 10);
    let fastest = models
        .iter()
        .flat_map(|r| [r.encode_rate, r.decode_rate])
        .filter(|s| s.is_finite())
        .fold(0.0, f64::max)
        / 1e6;
    // Room on the right for the labels.
    let right = (fastest * 1.45).max(GOAL_SPEED * 1.25);
    let (few, many) = span(models.iter().map(|r| r.packed_bits), GOAL_BITS, 0.1);
    let (few, many) = (few - 0.05, many + 0.05);
    let mut chart = ChartBuilder::on(&body)
        .margin_left(10)
        .margin_right(40)
        .margin_top(10)
        .margin_bottom(10)
        .x_label_area_size(55)
        .y_label_area_size(80)
        .build_cartesian_2d(0.0..right, few..many)?;
    chart
        .configure_mesh()
        .bold_line_style(RGBColor(0xDD, 0xDD, 0xDD))
        .light_line_style(TRANSPARENT)
        .x_labels(12)
        .y_labels(12)
        .x_label_formatter(&|x| format!("{x:.1}"))
        .y_label_formatter(&|y| format!("{y:.2}"))
        .x_desc("million moves a second")
        .y_desc("bits a move")
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()?;
    let goal = RGBColor(0x59, 0xA1, 0x4F);
    chart
        .draw_series([Rectangle::new(
            [(GOAL_SPEED, few), (right, GOAL_BITS)],
            goal.mix(0.15).filled(),
        )])?
        .label("both goals: 3 bits a move or less, 1 M moves/s or more")
        .legend(move |(x, y)| {
            Rectangle::new([(x, y - 6), (x + 24, y + 6)], goal.mix(0.3).filled())
        });
    chart.draw_series([
        PathElement::new([(0.0, GOAL_BITS), (right, GOAL_BITS)], goal.stroke_width(1)),
        PathElement::new(
            [(GOAL_SPEED, few), (GOAL_SPEED, many)],
            goal.stroke_width(1),
        ),
    ])?;
    let (encode, decode) = (COLOURS[0], COLOURS[1]);
    chart.draw_series(models.iter().map(|r| {
        PathElement::new(
            [
                (r.decode_rate / 1e6, r.packed_bits),
                (r.encode_rate / 1e6, r.packed_bits),
            ],
            grey.stroke_width(1),
        )
    }))?;
    chart
        .draw_series(
            models
                .iter()
                .map(|r| Circle::new((r.encode_rate / 1e6, r.packed_bits), 6, encode.filled())),
        )?
        .label("encoding")
        .legend(move |(x, y)| Circle::new((x + 12, y), 6, encode.filled()));
    chart
        .draw_series(models.iter().map(|r| {
            Circle::new(
                (r.decode_rate / 1e6, r.packed_bits),
                6,
                decode.stroke_width(2),
            )
        }))?
        .label("decoding")
        .legend(move |(x, y)| Circle::new((x + 12, y), 6, decode.stroke_width(2)));
    // The labels in a column right of the points, each joined to its model's faster point.
    let column = fastest * 1.12;
    let wanted: Vec<f64> = models.iter().map(|r| r.packed_bits).collect();
    let heights = spread_labels(&wanted, (many - few) / 28.0);
    for (r, &height) in models.iter().zip(&heights) {
        let point = (r.encode_rate.max(r.decode_rate) / 1e6, r.packed_bits);
        chart.draw_series([PathElement::new(
            [point, (column, height)],
            grey.mix(0.6).stroke_width(1),
        )])?;
        chart.draw_series([Text::new(
            format!(
                "{}: {:.3} bits, {:.2} M / {:.2} M",
                r.codec.name(),
                r.packed_bits,
                r.encode_rate / 1e6,
                r.decode_rate / 1e6
            ),
            (column, height),
            ("sans-serif", 15)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        )])?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(0xBB, 0xBB, 0xBB))
        .label_font(("sans-serif", 16))
        .draw()?;
    root.present()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chart is an SVG naming every arith codec with its bits, and no other codec.
    #[test]
    fn the_chart_names_each_arith_codec() {
        let row = |codec, bits, speed| GameCodecRow {
            codec,
            packed_bits: bits,
            encode_rate: speed,
            decode_rate: speed * 0.9,
        };
        let rows = [
            row(GameCodec::Squares, 12.26, 3.1e6),
            row(GameCodec::Arith(MoveModel::Uniform), 5.058, 2.5e6),
            row(GameCodec::Arith(MoveModel::M6), 2.977, 0.49e6),
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("trade.svg");
        write_trade_chart(&path, &rows, "3 games of test.pgn").unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        assert!(svg.contains("arith-m6: 2.977 bits, 0.49 M / 0.44 M"));
        assert!(svg.contains("no model (arith, uniform): 5.058 bits a move at 2.50 M / 2.25 M"));
        assert!(!svg.contains("squares"));
        assert!(svg.contains("3 games of test.pgn"));
    }

    #[test]
    fn spans_hold_the_goal_and_the_values() {
        assert_eq!(span([2.9, 5.06].into_iter(), 3.0, 0.5), (2.5, 5.5));
        assert_eq!(span([f64::NAN, 3.3].into_iter(), 3.0, 1.0), (3.0, 4.0));
    }

    /// Labels too close are moved apart by the gap, in the order of what they label; labels far
    /// apart stay where they are.
    #[test]
    fn labels_are_spread_apart() {
        let placed = spread_labels(&[2.977, 2.941, 2.964, 3.362], 0.02);
        assert!(placed[1] < placed[2] && placed[2] < placed[0] && placed[0] < placed[3]);
        let mut sorted = placed.clone();
        sorted.sort_by(f64::total_cmp);
        assert!(
            sorted.windows(2).all(|w| w[1] - w[0] >= 0.02 - 1e-12),
            "{placed:?}"
        );
        assert_eq!(spread_labels(&[1.0, 2.0], 0.1), vec![1.0, 2.0]);
    }
}
