//! The renderers of a match's report (the library returns it as data, [`shannon::arena::report`]):
//! the console's text and tables ([`text`]), cutechess-cli's and fastchess's lines
//! ([`cutechess`], [`fastchess`]), the HTML page ([`html`]) and JSON ([`json`]), and what a run
//! says about its files ([`files`]); what can go wrong writing them ([`error`]).

pub mod cutechess;
pub mod endings;
pub mod error;
pub mod fastchess;
pub mod files;
pub mod html;
pub mod json;
pub mod numbers;
pub mod text;
pub mod warnings;

/// What `shannon match` prints on its standard output while it plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum OutputFormat {
    /// Our header, progress bar, tables and files.
    #[default]
    Text,
    /// cutechess-cli's lines (`Started game`, `Finished game`, `Score of`, `Elo difference`,
    /// `SPRT: llr`, its rank table, `Finished match`).
    Cutechess,
    /// fastchess's lines (`Started game`, `Finished game`, its `Results of` blocks with `Elo:`,
    /// `LLR:`, `Games:`, `Ptnml(0-2):`, `Finished match`).
    Fastchess,
}

impl OutputFormat {
    /// The rating interval when none is given: cutechess-cli's 0 (the results at the end only),
    /// fastchess's 10 (every 10 game pairs).
    pub fn default_rating_interval(self) -> u32 {
        match self {
            OutputFormat::Fastchess => 10,
            OutputFormat::Text | OutputFormat::Cutechess => 0,
        }
    }
}

/// How a match is rendered while it plays: the output format and its settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rendering {
    /// Our header, progress bar and tables ([`text::Console`]).
    Text {
        /// No progress bar.
        quiet: bool,
        /// cutechess-cli's `Finished game` and `Score of` lines after every game too.
        progress_lines: bool,
    },
    /// cutechess-cli's lines ([`cutechess::Cutechess`]).
    Cutechess {
        /// The result block after every this many finished games (0: at the end only).
        rating_interval: u32,
        /// The `Score of` line after every this many finished games (0: after the last only).
        score_interval: u32,
        /// The outcomes after every this many finished games (0: at the end only).
        outcome_interval: u32,
        /// The rank table's columns (cutechess-cli's `-resultformat`).
        result_format: cutechess::result_format::ResultFormat,
    },
    /// fastchess's lines ([`fastchess::Fastchess`]).
    Fastchess {
        /// The `Results of` block after every this many game pairs (games without the
        /// pentanomial).
        rating_interval: u32,
        /// The blocks on game pairs (the pentanomial), else on single games.
        penta: bool,
        /// The PGN's name for `File ... has CRC32:` lines, when asked for.
        crc_file: Option<String>,
        /// The `config.json` the run saves, named in fastchess's line on how to resume an
        /// interrupted run (fastchess's form).
        config_file: Option<String>,
    },
}

/// The renderer of `rendering`, writing to `out`: the one place a match's observer is built.
pub fn observer<'a, W: std::io::Write>(
    out: &'a mut W,
    rendering: Rendering,
) -> Box<dyn shannon::arena::MatchObserver + 'a> {
    match rendering {
        Rendering::Text {
            quiet,
            progress_lines,
        } => {
            let bar = match quiet {
                true => indicatif::ProgressBar::hidden(),
                false => indicatif::ProgressBar::new(0),
            };
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} games {msg} [{elapsed}]",
                )
                .expect("a valid template"),
            );
            Box::new(text::Console::new(out, bar, progress_lines))
        }
        Rendering::Cutechess {
            rating_interval,
            score_interval,
            outcome_interval,
            result_format,
        } => Box::new(
            cutechess::Cutechess::new(out, rating_interval)
                .with_intervals(score_interval, outcome_interval)
                .with_result_format(result_format),
        ),
        Rendering::Fastchess {
            rating_interval,
            penta,
            crc_file,
            config_file,
        } => Box::new(
            fastchess::Fastchess::new(out, rating_interval)
                .penta(penta)
                .with_crc_file(crc_file)
                .with_config_file(config_file),
        ),
    }
}

/// When the tables of a match with an SPRT count more finished games (`games`) than the test,
/// which takes the games in schedule order: a line that says so and why, the same in every
/// output format.
pub fn sprt_games_note(sprt: &shannon::arena::SprtReport, games: u32) -> Option<String> {
    let more = games.checked_sub(sprt.games).filter(|&more| more > 0)?;
    Some(if sprt.verdict != shannon::stats::SprtVerdict::Continue {
        format!(
            "SPRT decided at game {0}: taken on the schedule's first {0} games, in order; {more} \
             more games (running when it decided, or finished ahead of an earlier one) are \
             recorded and counted in the results, not in the test",
            sprt.games
        )
    } else {
        format!(
            "SPRT: taken on the schedule's first {} games, in order; {more} more finished games \
             wait for an earlier game or for the other game of their pair",
            sprt.games
        )
    })
}

/// `Started game 3 of 20 (alpha vs beta)`: the line both tools print when a game starts.
pub fn started_line(game: &shannon::arena::GameStarted<'_>) -> String {
    format!(
        "Started game {} of {} ({} vs {})",
        game.number, game.total, game.white, game.black
    )
}

/// A resumed run whose SPRT had decided before it: the line that says so (it plays nothing),
/// the same in every output format.
pub fn decided_before_line(start: &shannon::arena::MatchStart) -> Option<String> {
    let decided = start.decided_before.as_ref()?;
    Some(format!(
        "The SPRT decided before this run: {} at game {} (LLR {:.3}); nothing is played",
        decided.verdict, decided.games, decided.llr
    ))
}

/// Hand-built games, standings and reports for the renderers' tests.
#[cfg(test)]
pub mod test_support {
    use shannon::arena::{
        GameFinished, GameStarted, MatchGame, MatchObserver, MatchReport, MatchStart, Openings,
        Schedule, Standings, Termination, TournamentKind,
    };

    use shannon::client::TimeControl;
    use shannon::game::{Finish, GameRecord, Outcome};
    use shannon::{CastlingMode, Position};
    use std::time::Duration;

    /// A game numbered `number` (1-based in the schedule) between `white` and `black`.
    pub fn game(
        number: u32,
        white: &str,
        black: &str,
        outcome: Outcome,
        termination: Option<Termination>,
        finish: Option<Finish>,
    ) -> MatchGame {
        let mut record = GameRecord::new(Position::startpos(), CastlingMode::Standard);
        record.outcome = outcome;
        record.finish = finish;
        MatchGame {
            number,
            white: white.into(),
            black: black.into(),
            record,
            termination,
            infos: Vec::new(),
            forensics: None,
        }
    }

    /// What a run of `names` playing `games` games per encounter announces.
    pub fn start(names: &[&str], games: u32, openings: Openings) -> (MatchStart, Schedule) {
        let kind = if names.len() > 2 {
            Some(TournamentKind::RoundRobin)
        } else {
            None
        };
        let schedule = Schedule::new(
            kind.unwrap_or(TournamentKind::RoundRobin),
            names.len(),
            1,
            games,
        )
        .unwrap();
        let time_control =
            TimeControl::clock(0, Duration::from_secs(10), Duration::from_millis(100));
        let start = MatchStart {
            names: names.iter().map(|n| n.to_string()).collect(),
            tournament: kind,
            rounds: 1,
            games_per_encounter: games,
            layout: schedule.layout,
            games: schedule.len(),
            time_control,
            time_controls: vec![time_control; names.len()],
            openings,
            concurrency: 1,
            seed: 1,
            shard: None,
            resumed: None,
            carried: 0,
            configured_seeds: Vec::new(),
            decided_before: None,
            sprt: None,
            engine_options: Vec::new(),
            notes: Vec::new(),
        };
        (start, schedule)
    }

    /// Tell `observer` a whole run: the start, each of `results` (schedule index 0, 1, ...:
    /// outcome, termination, finish) started and finished in order, and the end.
    pub fn play(
        observer: &mut dyn MatchObserver,
        start: MatchStart,
        schedule: &Schedule,
        results: Vec<(Outcome, Option<Termination>, Option<Finish>)>,
    ) -> MatchReport {
        observer.started(&start).unwrap();
        let mut standings = Standings::new(start.names.clone(), schedule);
        let total = results.len() as u32;
        for (i, (outcome, termination, finish)) in results.into_iter().enumerate() {
            let scheduled = schedule.game(i as u32);
            let (white, black) = (
                start.names[scheduled.white].as_str(),
                start.names[scheduled.black].as_str(),
            );
            observer
                .game_started(&GameStarted {
                    number: i as u32 + 1,
                    total: start.games,
                    white,
                    black,
                })
                .unwrap();
            let played = game(i as u32 + 1, white, black, outcome, termination, finish);
            standings.add(&scheduled, &played);
            observer
                .game_finished(&GameFinished {
                    game: &played,
                    encounter: scheduled.encounter,
                    standings: &standings,
                    finished: i as u32 + 1,
                    total,
                    sprt: None,
                    pgn_crc32: None,
                })
                .unwrap();
        }
        let report = MatchReport {
            start,
            standings,
            seconds: 3725.0,
            sprt: None,
            interrupted: None,
            stopped: None,
            pgn_crc32: None,
            knockout: None,
            record_error: None,
            pgn: None,
            epd: None,
            state: None,
            latency: None,
        };
        observer.finished(&report).unwrap();
        report
    }
}
