//! The chart of a random-games report: the histogram of game lengths, each bar stacked by how the
//! games ended, as an SVG file; and what every chart of the CLI shares ([`write_svg`], the size,
//! the colours of the endings, [`PlotError`]), which `exact --plot` draws with too.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use shannon::experiment::Report;
use shannon::experiment::{Category, LengthRow, CATEGORIES};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why the chart could not be written.
#[derive(Debug)]
pub enum PlotError {
    /// plotters could not draw it (in its own words: its error type is generic over the
    /// drawing backend).
    Draw(PathBuf, String),
    /// The SVG file could not be written.
    Write(PathBuf, std::io::Error),
}

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlotError::Draw(path, message) => {
                write!(f, "{}: cannot draw the chart: {message}", path.display())
            }
            PlotError::Write(path, e) => write!(f, "{}: {e}", path.display()),
        }
    }
}

impl std::error::Error for PlotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlotError::Draw(..) => None,
            PlotError::Write(_, e) => Some(e),
        }
    }
}

/// A part of the chart's drawing area.
type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// Width and height of the picture, in pixels.
pub(super) const SIZE: (u32, u32) = (1280, 720);
/// Width of the panel on the right that holds the legend and the notes.
const SIDE: u32 = 330;
/// Bars wanted over the plotted range (the bin width is the round number nearest to giving it).
const BINS: u32 = 100;
/// The plotted range ends at this percentile of the lengths; longer games share one last bar.
const RANGE_PERCENTILE: f64 = 99.9;

/// A fixed colour for each ending, in [`Category::ALL`] order, so that charts of different runs
/// compare at a glance (Tableau 10, which stays distinct for the colour-blind common cases).
pub(super) const COLOURS: [RGBColor; CATEGORIES] = [
    RGBColor(0x4E, 0x79, 0xA7), // checkmate, white wins: blue
    RGBColor(0xE1, 0x57, 0x59), // checkmate, black wins: red
    RGBColor(0xB0, 0x7A, 0xA1), // stalemate: purple
    RGBColor(0x59, 0xA1, 0x4F), // insufficient material: green
    RGBColor(0xF2, 0x8E, 0x2B), // 50-move rule: orange
    RGBColor(0xED, 0xC9, 0x48), // 75-move rule: yellow
    RGBColor(0x76, 0xB7, 0xB2), // threefold repetition: teal
    RGBColor(0xFF, 0x9D, 0xA7), // fivefold repetition: pink
    RGBColor(0x9C, 0x75, 0x5F), // ply limit: brown
];

/// Draw the histogram of game lengths of `report`, stacked by ending, as an SVG file at `path`.
pub fn write_length_histogram(path: &Path, report: &Report) -> Result<(), PlotError> {
    let bins = Bins::of(&report.histogram);
    write_svg(path, |svg| draw(svg, report, &bins))
}

/// An SVG picture drawn by `draw` (into a string, then written to `path` at once).
pub(super) fn write_svg(
    path: &Path,
    draw: impl FnOnce(&mut String) -> Result<(), DrawingAreaErrorKind<std::io::Error>>,
) -> Result<(), PlotError> {
    let mut svg = String::new();
    draw(&mut svg).map_err(|e| PlotError::Draw(path.to_path_buf(), e.to_string()))?;
    std::fs::write(path, svg).map_err(|e| PlotError::Write(path.to_path_buf(), e))
}

/// The games of a report counted in bins of equal width from 0 plies, and a last bin of the
/// games longer than the plotted range.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Bins {
    /// Plies per bin.
    width: u32,
    /// `counts[i][category]`: games of `i * width` to `(i + 1) * width - 1` plies.
    counts: Vec<[u64; CATEGORIES]>,
    /// Games of [`Bins::end`] plies or more, per category.
    more: [u64; CATEGORIES],
}

impl Bins {
    /// Bin the rows (in any order) of a histogram.
    fn of(rows: &[LengthRow]) -> Bins {
        let mut rows = rows.to_vec();
        rows.sort_by_key(|row| row.0);
        let games: u64 = rows.iter().map(|row| row.1.iter().sum::<u64>()).sum();
        let max = rows.last().map_or(0, |row| row.0);
        // The nearest-rank percentile, as the report's are.
        let lengths = rows
            .iter()
            .map(|LengthRow(plies, counts)| (*plies, counts.iter().sum()));
        let top = shannon::stats::nearest_rank(RANGE_PERCENTILE, games, lengths).unwrap_or(max);
        let width = bin_width(top + 1);
        let count = (top / width + 1) as usize;
        let mut bins = Bins {
            width,
            counts: vec![[0; CATEGORIES]; count],
            more: [0; CATEGORIES],
        };
        for LengthRow(plies, counts) in &rows {
            let bin = bins.counts.get_mut((plies / width) as usize);
            for (total, n) in bin.unwrap_or(&mut bins.more).iter_mut().zip(counts) {
                *total += n;
            }
        }
        bins
    }

    /// The first length past the plotted range.
    fn end(&self) -> u32 {
        self.width * self.counts.len() as u32
    }

    /// Games longer than the plotted range.
    fn more_games(&self) -> u64 {
        self.more.iter().sum()
    }

    /// The most games in one bar.
    fn tallest(&self) -> u64 {
        self.counts
            .iter()
            .chain([&self.more])
            .map(|bin| bin.iter().sum())
            .max()
            .unwrap_or(0)
    }
}

/// The round bin width (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten, in whole
/// plies) that cuts `span` plies into the number of bins nearest to [`BINS`] (the narrower on a
/// tie).
fn bin_width(span: u32) -> u32 {
    let mut best = 1;
    let mut power = 1u64;
    while power <= u64::from(span) {
        for tenths in [10, 12, 15, 20, 25, 30, 40, 50, 60, 80] {
            if !(tenths * power).is_multiple_of(10) {
                continue;
            }
            let width = (tenths * power / 10) as u32;
            let miss = |w: u32| span.div_ceil(w).abs_diff(BINS);
            if miss(width) < miss(best) {
                best = width;
            }
        }
        power *= 10;
    }
    best
}

/// `n` with thin groups of three digits: 1,234,567.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "1 game", "12,345 games".
fn games(n: u64) -> String {
    match n {
        1 => "1 game".to_string(),
        n => format!("{} games", thousands(n)),
    }
}

/// Draw the chart into `svg`.
fn draw(
    svg: &mut String,
    report: &Report,
    bins: &Bins,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let experiment = &report.experiment;
    let rules = experiment.rules;
    let title = format!(
        "Lengths of {} random games (rules: {})",
        thousands(report.games),
        rules.preset_name().unwrap_or("custom")
    );
    let root = root.titled(&title, ("sans-serif", 28))?;
    let mut subtitle = format!("{rules}; from {}", experiment.start);
    if experiment.shard.count > 1 {
        subtitle += &format!(
            "; shard {} of {}",
            experiment.shard.index, experiment.shard.count
        );
    }
    subtitle += &format!("; seed {}", experiment.seed);
    let centre = Pos::new(HPos::Center, VPos::Top);
    let grey = RGBColor(0x55, 0x55, 0x55);
    root.draw(&Text::new(
        subtitle,
        (SIZE.0 as i32 / 2, 0),
        ("sans-serif", 16).into_font().color(&grey).pos(centre),
    ))?;
    let (_, body) = root.split_vertically(30);
    let (plot, side) = body.split_horizontally(SIZE.0 - SIDE);

    draw_bars(&plot, bins)?;
    draw_legend(&side, report, bins)?;
    root.present()
}

/// The bars of `bins`, one segment per ending stacked in each, with their axes, into `plot`.
fn draw_bars(plot: &Area<'_>, bins: &Bins) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let centre = Pos::new(HPos::Center, VPos::Top);
    let width = bins.width;
    let end = bins.end();
    let more = bins.more_games();
    // A gap of one bin, then the bar of the longer games.
    let x_end = if more > 0 { end + 3 * width } else { end };
    let y_end = (bins.tallest() + bins.tallest() / 20).max(1);
    let bin_text = match width {
        1 => "one bar per length".to_string(),
        w => format!("bars of {w} plies"),
    };
    let x_desc = if more > 0 {
        format!("game length (plies; {bin_text}; the last bar: all games of {end} plies or more)")
    } else {
        format!("game length (plies; {bin_text})")
    };
    let mut chart = ChartBuilder::on(plot)
        .margin_left(10)
        .margin_right(20)
        .margin_top(10)
        .margin_bottom(10)
        .x_label_area_size(55)
        .y_label_area_size(80)
        .build_cartesian_2d(0..x_end, 0..y_end)?;
    let x_label = |x: &u32| {
        if *x <= end {
            x.to_string()
        } else {
            String::new()
        }
    };
    let y_label = |y: &u64| thousands(*y);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .bold_line_style(RGBColor(0xDD, 0xDD, 0xDD))
        .light_line_style(TRANSPARENT)
        .x_labels(12)
        .y_labels(8)
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .x_desc(x_desc)
        .y_desc(match width {
            1 => "games of each length".to_string(),
            w => format!("games per bar of {w} plies"),
        })
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()?;

    if more > 0 {
        // A grey band sets the bar of the longer games apart from the binned range.
        chart.draw_series([Rectangle::new(
            [(end, 0), (x_end, y_end)],
            RGBColor(0xEE, 0xEE, 0xEE).filled(),
        )])?;
    }

    chart.draw_series(bar_segments(bins))?;
    if more > 0 {
        // Name the last bar under the axis, where the other bars have their lengths.
        let (x, y) = chart.backend_coord(&(end + width + width / 2, 0));
        plot.draw(&Text::new(
            format!("{end}+"),
            (
                x - plot.get_base_pixel().0,
                y - plot.get_base_pixel().1 + 14,
            ),
            ("sans-serif", 16).into_font().color(&BLACK).pos(centre),
        ))?;
    }

    Ok(())
}

/// Each bar as one segment per ending, stacked in report order from the axis up; the bar of the
/// longer games after a gap of one bin.
fn bar_segments(bins: &Bins) -> Vec<Rectangle<(u32, u64)>> {
    let (width, end, more) = (bins.width, bins.end(), bins.more_games());
    let mut segments = Vec::new();
    let stack = |x0: u32, x1: u32, counts: &[u64; CATEGORIES], segments: &mut Vec<_>| {
        let mut bottom = 0;
        for (category, &n) in counts.iter().enumerate() {
            if n > 0 {
                segments.push(Rectangle::new(
                    [(x0, bottom), (x1, bottom + n)],
                    COLOURS[category].filled(),
                ));
                bottom += n;
            }
        }
    };
    for (i, counts) in bins.counts.iter().enumerate() {
        let x0 = i as u32 * width;
        stack(x0, x0 + width, counts, &mut segments);
    }
    if more > 0 {
        stack(end + width, end + 2 * width, &bins.more, &mut segments);
    }
    segments
}

/// The legend (the endings, top down in the order the segments stack from the top) and the
/// notes, into `side`.
fn draw_legend(
    side: &Area<'_>,
    report: &Report,
    bins: &Bins,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let grey = RGBColor(0x55, 0x55, 0x55);
    let end = bins.end();
    let more = bins.more_games();
    let counts: Vec<(Category, u64)> = Category::ALL
        .iter()
        .map(|&c| (c, report.endings.get(c.index()).map_or(0, |e| e.count)))
        .filter(|&(_, n)| n > 0)
        .collect();
    let mut y = 20;
    side.draw(&Text::new(
        "ending",
        (10, y),
        ("sans-serif", 18).into_font(),
    ))?;
    y += 32;
    for &(category, n) in counts.iter().rev() {
        side.draw(&Rectangle::new(
            [(10, y), (34, y + 24)],
            COLOURS[category.index()].filled(),
        ))?;
        side.draw(&Text::new(
            category.name(),
            (44, y - 1),
            ("sans-serif", 17).into_font(),
        ))?;
        let share = 100.0 * n as f64 / report.games.max(1) as f64;
        side.draw(&Text::new(
            format!("{} ({share:.2}%)", games(n)),
            (44, y + 17),
            ("sans-serif", 14).into_font().color(&grey),
        ))?;
        y += 48;
    }
    y += 12;
    let mut notes = Vec::new();
    if let Some(length) = &report.length {
        notes.push(format!(
            "length: mean {:.1}, median {}",
            length.mean, length.median
        ));
        notes.push(format!(
            "shortest {}, longest {} plies",
            length.min, length.max
        ));
    }
    if more > 0 {
        notes.push(format!(
            "{} ({:.2}%) of {end} plies or more",
            games(more),
            100.0 * more as f64 / report.games.max(1) as f64
        ));
        notes.push("are in the last bar".to_string());
    }
    if report.games == 0 {
        notes.push("no games".to_string());
    }
    for note in notes {
        side.draw(&Text::new(
            note,
            (10, y),
            ("sans-serif", 15).into_font().color(&grey),
        ))?;
        y += 22;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shannon::experiment::{Experiment, GameSummary, RuleSet, Shard, Start, Tally};
    use shannon::game::{DrawClaim, Ending, Finish};
    use shannon::Color;

    fn experiment(games: u64) -> Experiment {
        Experiment {
            seed: 7,
            games,
            start: Start::Standard,
            rules: RuleSet::CLAIMS,
            shard: Shard::WHOLE,
        }
    }

    #[test]
    fn bin_widths_are_round_and_give_about_a_hundred_bars() {
        assert_eq!(bin_width(1), 1);
        assert_eq!(bin_width(60), 1);
        assert_eq!(bin_width(100), 1);
        assert_eq!(bin_width(250), 3);
        assert_eq!(bin_width(700), 8);
        assert_eq!(bin_width(1000), 10);
        // Below 240 plies no whole width gives 80 to 120 bars (1 gives more, 2 fewer).
        for span in 240..50_000u32 {
            let bars = span.div_ceil(bin_width(span));
            assert!((80..=120).contains(&bars), "{span}: {bars} bars");
        }
    }

    #[test]
    fn bins_keep_every_game() {
        let mut rows = vec![LengthRow(1000, [0, 0, 0, 0, 0, 0, 0, 0, 1])];
        for plies in 0..1000 {
            rows.push(LengthRow(plies, [1, 0, 0, 0, 2, 0, 0, 0, 0]));
        }
        let bins = Bins::of(&rows);
        // 3001 games: the 99.9th percentile is length 997, so 998 plies in bars of 10.
        assert_eq!(bins.width, 10);
        assert_eq!(bins.end(), 1000);
        assert_eq!(bins.counts[0], [10, 0, 0, 0, 20, 0, 0, 0, 0]);
        assert_eq!(bins.more, [0, 0, 0, 0, 0, 0, 0, 0, 1]);
        let binned: u64 = bins.counts.iter().flatten().sum::<u64>() + bins.more_games();
        assert_eq!(binned, 3001);
        assert_eq!(Bins::of(&[]).counts, vec![[0; CATEGORIES]]);
    }

    #[test]
    fn writes_an_svg_with_a_legend_of_the_endings_present() {
        let mut tally = Tally::new();
        let white_mates = Some(Finish::Rule(Ending::Checkmate {
            winner: Color::White,
        }));
        let fifty = Some(Finish::Claim(DrawClaim::FiftyMoveRule));
        let material = Some(Finish::Rule(Ending::InsufficientMaterial));
        for plies in 0..2000u32 {
            let finish = match plies % 5 {
                0 => white_mates,
                1 | 2 => material,
                _ => fifty,
            };
            tally.add(GameSummary { plies, finish });
        }
        tally.add(GameSummary {
            plies: 50_000,
            finish: fifty,
        });
        let report = Report::new(&experiment(2001), &tally, "test".into(), 1.0, 1);
        let scratch = tempfile::tempdir().unwrap();
        let path = scratch.path().join("lengths.svg");
        write_length_histogram(&path, &report).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.contains("<svg"));
        for name in [
            "checkmate, white wins",
            "insufficient material",
            "50-move rule",
        ] {
            assert!(svg.contains(name), "{name} missing from the legend");
        }
        assert!(!svg.contains("checkmate, black wins"));
        assert!(svg.contains("Lengths of 2,001 random games (rules: claims)"));
        // 2001 games: the 99.9th percentile is 1998 plies, so bars of 20 plies up to 2000.
        assert!(svg.contains("1 game (0.05%) of 2000 plies or more"));
    }

    #[test]
    fn a_file_that_cannot_be_written_is_named_in_the_error() {
        let report = Report::new(&experiment(0), &Tally::new(), "test".into(), 1.0, 1);
        let path = Path::new("/nonexistent-directory/lengths.svg");
        let error = write_length_histogram(path, &report).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("/nonexistent-directory/lengths.svg"),
            "{error}"
        );
    }

    /// The chart of a real run, to look at: `cargo test --profile test-release --bins
    /// real_run_chart -- --ignored` writes `lengths.svg` in the temporary directory.
    #[test]
    #[ignore = "plays 20,000 games; writes a chart to look at"]
    fn real_run_chart() {
        use shannon::experiment::{run, RunOptions};
        use std::sync::atomic::AtomicBool;
        let experiment = experiment(20_000);
        let stop = AtomicBool::new(false);
        let result = run(
            &experiment,
            &RunOptions {
                threads: 2,
                checkpoint: None,
                checkpoint_every: std::time::Duration::from_secs(3600),
                progress: &|_, _| {},
                stop: &stop,
            },
        )
        .unwrap();
        let report = Report::new(&experiment, &result.tally, "test".into(), result.seconds, 2);
        let path = std::env::temp_dir().join("lengths.svg");
        write_length_histogram(&path, &report).unwrap();
        println!("{}", path.display());
    }
}
