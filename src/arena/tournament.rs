//! A match from settings to report: the two engines and the schedule from engines.toml and the
//! request, the games played by [`MatchPlan`], each written to the PGN as it finishes, the
//! running tally (single games and game pairs) with its optional SPRT stop, and the result table; and the same for
//! `perft-check`. The command line only parses its arguments into a [`MatchRequest`], shows
//! progress and catches signals.

use super::adjudication::{Adjudication, DrawRule, ResignRule};
use super::config::{Config, ConfigError, EngineConfig};
use super::match_game::MatchGame;
use super::openings::load_openings_spec;
use super::polyglot::Book;
use super::runner::MatchPlan;
use super::stats::{GameScore, PairTally, Pentanomial, Score, Sprt, SprtVerdict};
use super::time_control::TimeControl;
use super::ArenaError;
use crate::game::Outcome;
use crate::notation::pgn::{write_game, Comments, PgnGame};
use crate::types::splitmix::mix;
use crate::Color;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// What `shannon match` was asked (command-line values override the file's `[match]` table).
#[derive(Debug, Clone, Default)]
pub struct MatchRequest {
    /// engines.toml (the current directory's, else the built-in one).
    pub config: Option<PathBuf>,
    /// `A,B`.
    pub engines: Option<String>,
    /// Number of games.
    pub games: Option<u32>,
    /// Games at once.
    pub concurrency: Option<usize>,
    /// Time control.
    pub tc: Option<String>,
    /// Openings.
    pub openings: Option<String>,
    /// Longest line from a Polyglot book, in plies.
    pub book_depth: Option<u32>,
    /// PGN output path (`-` or empty for none).
    pub pgn: Option<String>,
    /// Schedule seed.
    pub seed: Option<u64>,
    /// `elo0,elo1,alpha,beta`.
    pub sprt: Option<String>,
    /// Draw after this many plies.
    pub max_plies: Option<u32>,
    /// `--maxmoves N`: draw after N moves of each side (2N plies; wins over `max_plies`).
    pub max_moves: Option<u32>,
    /// `--draw movenumber=N movecount=M score=S`.
    pub draw: Option<DrawRule>,
    /// `--resign movecount=M score=S [twosided=true]`.
    pub resign: Option<ResignRule>,
    /// `--pgn-min`: tags and moves only (no move comments, no termination comment).
    pub pgn_min: bool,
    /// `--epd FILE`: each game's final position, one EPD line per game.
    pub epd: Option<PathBuf>,
    /// Print cutechess-cli's `Finished game ...` and `Score of A vs B: W - L - D  [r] N` lines
    /// after every game.
    pub progress_lines: bool,
    /// Raised (the command line does it on Ctrl-C or SIGTERM) to end the match early: running
    /// games end unfinished, the engines are stopped and the table covers the finished games.
    pub interrupt: Option<Arc<AtomicBool>>,
}

/// How far a match has come, reported after every finished game (for a progress bar).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchProgress {
    /// Games finished so far.
    pub finished: u32,
    /// Games in the match.
    pub total: u32,
    /// The score so far in words, from the first engine's side: `name W-L-D (W-L-D)`.
    pub score: String,
}

/// The two engines a match pairs.
fn pick_engines(config: &Config, names: Option<&str>) -> Result<[EngineConfig; 2], ArenaError> {
    let names: Vec<String> = match names {
        Some(list) => list.split(',').map(|n| n.trim().to_string()).collect(),
        None if !config.match_defaults.engines.is_empty() => config.match_defaults.engines.clone(),
        None => config
            .engines
            .iter()
            .take(2)
            .map(|e| e.name.clone())
            .collect(),
    };
    if names.len() != 2 {
        return Err(ConfigError::NotEnoughEngines(names.len()).into());
    }
    let first = config.engine(&names[0])?.clone();
    let second = config.engine(&names[1])?.clone();
    for engine in [&first, &second] {
        engine.resolve_command()?;
    }
    Ok([first, second])
}

/// The engine's own book and depth, loaded, when engines.toml gives it one.
fn engine_book(engine: &EngineConfig) -> Result<Option<(Arc<Book>, u32)>, ArenaError> {
    let Some(path) = &engine.book else {
        return Ok(None);
    };
    let book = Book::open(path).map_err(|e| {
        ArenaError::Openings(format!(
            "engine {}: book {}: {e}",
            engine.name,
            path.display()
        ))
    })?;
    Ok(Some((Arc::new(book), engine.book_depth.unwrap_or(8))))
}

/// The PGN of one finished game: each engine move with its comment as cutechess-cli writes it
/// (`{+0.31/12 0.052s}`: score in pawns from the mover's side, depth, time) and the termination
/// as a final comment; with `minimal`, the Seven Tag Roster and the moves only.
fn game_pgn(played: &MatchGame, time_control: &TimeControl, minimal: bool) -> String {
    let date = today();
    let mut tags = vec![
        ("Event".to_string(), "shannon match".to_string()),
        ("Site".to_string(), "shannon".to_string()),
        ("Date".to_string(), date),
        ("Round".to_string(), played.round.to_string()),
        ("White".to_string(), played.white.clone()),
        ("Black".to_string(), played.black.clone()),
    ];
    if !minimal {
        tags.extend([
            ("TimeControl".to_string(), time_control.to_string()),
            (
                "Termination".to_string(),
                played.pgn_termination().to_string(),
            ),
            (
                "PlyCount".to_string(),
                played.record.moves.len().to_string(),
            ),
        ]);
    }
    let game = PgnGame {
        tags,
        record: played.record.clone(),
    };
    let comments = if minimal {
        Comments::default()
    } else {
        Comments {
            after_ply: played
                .infos
                .iter()
                .map(|(ply, info)| (*ply, info.to_string()))
                .collect(),
            final_comment: Some(played.describe()),
        }
    };
    write_game(&game, &comments).expect("the runner only records legal moves")
}

/// The final position of a game as one EPD line: the four position fields, the move counters
/// as `hmvc`/`fmvn` and the game as `id`.
fn game_epd(played: &MatchGame) -> String {
    let end = played.record.end_position();
    let fen = end.fen();
    let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
    format!(
        "{} hmvc {}; fmvn {}; id \"round {}\";\n",
        fields.join(" "),
        end.halfmove_clock(),
        end.fullmove_number(),
        played.round
    )
}

/// Today's date as PGN writes it (UTC), from the system clock without a date library.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The running tally of a match, from the first engine's point of view.
#[derive(Debug, Default)]
struct Tally {
    score: Score,
    /// The finished games by pair (games 2k and 2k + 1 share an opening, colours swapped).
    pairs: PairTally,
    terminations: BTreeMap<String, u32>,
    failures: u32,
    plies: u64,
    /// The runner's overhead on each engine move that reported its search time, in microseconds.
    latencies: Vec<u64>,
}

impl Tally {
    fn add(&mut self, played: &MatchGame, first_engine: &str) {
        let first = if played.white == first_engine {
            Color::White
        } else {
            Color::Black
        };
        let result = match played.record.outcome {
            Outcome::Draw => GameScore::Draw,
            Outcome::Win(winner) if winner == first => GameScore::Win,
            _ => GameScore::Loss,
        };
        self.score.add(result);
        // `round` is the 1-based game number.
        self.pairs.add(played.round - 1, result);
        *self.terminations.entry(played.category()).or_default() += 1;
        self.plies += played.record.moves.len() as u64;
        self.latencies.extend(
            played
                .infos
                .iter()
                .filter_map(|(_, info)| info.latency())
                .map(|d| d.as_micros() as u64),
        );
        if played.is_failure() {
            self.failures += 1;
        }
    }
}

/// Run a match with the engines file the request names (or the default one): the PGN, and the
/// result table on `out`; `progress` hears of every finished game. Returns true when the match
/// ran to its end (whatever its result); false when it was interrupted or the PGN could not be
/// written.
pub fn run_match(
    request: &MatchRequest,
    out: &mut impl Write,
    progress: &mut dyn FnMut(&MatchProgress),
) -> Result<bool, ArenaError> {
    let config = Config::load(request.config.as_deref())?;
    run_match_with(&config, request, out, progress)
        .map(|summary| summary.pgn_ok && !summary.interrupted)
}

/// What a finished match amounts to, for callers that measure it or draw it.
#[derive(Debug, Clone)]
pub struct MatchSummary {
    /// The two engines, the first one's results below.
    pub names: [String; 2],
    /// Wins, draws and losses of the first engine.
    pub score: Score,
    /// Complete game pairs.
    pub pentanomial: Pentanomial,
    /// Games per termination, by name.
    pub terminations: Vec<(String, u32)>,
    /// The SPRT, if one ran, and its log-likelihood ratio after each finished game
    /// (games finished, LLR).
    pub sprt: Option<(Sprt, Vec<(u32, f64)>)>,
    /// Games played.
    pub games: u32,
    /// Plies played in all games.
    pub plies: u64,
    /// Wall-clock time of the games.
    pub seconds: f64,
    /// Games an engine lost by failing (illegal move, time, crash, hang, start).
    pub failures: u32,
    /// False when writing the PGN failed at some point.
    pub pgn_ok: bool,
    /// True when the match was interrupted before its end.
    pub interrupted: bool,
    /// The runner's overhead per engine move (measured time less the engine's own `info time`):
    /// (median, 99th percentile), nearest rank; `None` when no engine reported its time.
    pub latency: Option<(Duration, Duration)>,
}

/// [`run_match`] with an already loaded configuration.
pub fn run_match_with(
    config: &Config,
    request: &MatchRequest,
    out: &mut impl Write,
    progress: &mut dyn FnMut(&MatchProgress),
) -> Result<MatchSummary, ArenaError> {
    let defaults = &config.match_defaults;
    let engines = pick_engines(config, request.engines.as_deref())?;
    let tc_text = request.tc.clone().unwrap_or_else(|| defaults.tc.clone());
    let time_control: TimeControl =
        tc_text
            .parse()
            .map_err(|e: crate::arena::time_control::TimeControlError| {
                ArenaError::Setting(e.to_string())
            })?;
    let sprt = match &request.sprt {
        Some(text) => Some(Sprt::parse(text).ok_or_else(|| {
            ArenaError::Setting(format!(
                "--sprt '{text}': expected elo0,elo1,alpha,beta with elo0 < elo1, e.g. 0,10,0.05,0.05"
            ))
        })?),
        None => None,
    };
    let games = match request.games.unwrap_or(defaults.games) {
        0 => {
            return Err(ArenaError::Setting(
                "the number of games (--games, or games in [match]) must be at least 1".into(),
            ))
        }
        // Each opening is played twice, colours swapped.
        n => n.checked_add(n % 2).ok_or_else(|| {
            ArenaError::Setting(format!(
                "--games {n}: too many games (at most {})",
                u32::MAX - 1
            ))
        })?,
    };
    let concurrency = match request.concurrency.unwrap_or(defaults.concurrency) {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    let seed = request
        .seed
        .or(defaults.seed)
        .unwrap_or_else(|| rand::random::<u32>().into());
    let openings_spec = request
        .openings
        .clone()
        .unwrap_or_else(|| defaults.openings.clone());
    let book_depth = request.book_depth.unwrap_or(defaults.book_depth);
    let openings = load_openings_spec(&openings_spec, games as usize / 2, mix(seed), book_depth)
        .map_err(|e| ArenaError::Openings(e.to_string()))?;
    let pgn_path = request.pgn.clone().unwrap_or_else(|| defaults.pgn.clone());
    let mut pgn_file = match pgn_path.as_str() {
        "" | "-" => None,
        path => {
            Some(std::fs::File::create(path).map_err(|e| ArenaError::Pgn(path.to_string(), e))?)
        }
    };
    let mut epd_file = match &request.epd {
        None => None,
        Some(path) => Some(std::fs::File::create(path).map_err(|e| {
            ArenaError::Setting(format!("cannot write the EPD file {}: {e}", path.display()))
        })?),
    };
    let plan = MatchPlan {
        engines: engines.clone(),
        games,
        concurrency: concurrency.min(games as usize),
        time_control,
        openings,
        seed,
        max_plies: match request.max_moves {
            Some(moves) => moves.saturating_mul(2),
            None => request.max_plies.unwrap_or(defaults.max_plies),
        },
        adjudication: Adjudication {
            draw: request.draw,
            resign: request.resign,
        },
        books: [engine_book(&engines[0])?, engine_book(&engines[1])?],
        time_margin: Duration::from_millis(defaults.time_margin_ms),
        hang_timeout: Duration::from_millis(defaults.hang_timeout_ms),
        interrupt: request
            .interrupt
            .clone()
            .unwrap_or_else(|| Arc::new(AtomicBool::new(false))),
    };
    let names = [engines[0].name.as_str(), engines[1].name.as_str()];
    writeln!(
        out,
        "Match {} vs {}: {games} games, tc {tc_text}, openings {openings_spec}, concurrency {}, seed {seed}",
        names[0], names[1], plan.concurrency
    )?;
    for engine in &engines {
        if let Some(seed) = engine.configured_seed() {
            writeln!(
                out,
                "{}: plays every game with its configured Seed {seed} (the match seed does not \
                 change it)",
                engine.name
            )?;
        }
    }
    out.flush()?;

    let (sender, receiver) = mpsc::channel();
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut pgn_error = None;
    let mut epd_error: Option<std::io::Error> = None;
    let mut verdict = SprtVerdict::Continue;
    let mut llr_history: Vec<(u32, f64)> = Vec::new();
    let mut unfinished = 0u32;
    std::thread::scope(|scope| {
        let (plan, stop) = (&plan, &stop);
        scope.spawn(move || plan.run(sender, stop));
        for record in receiver {
            // An unfinished game goes to the PGN as `*` (its moves are real) but is no result.
            if !record.is_finished() {
                unfinished += 1;
            } else {
                tally.add(&record, names[0]);
            }
            if let (Some(file), None) = (epd_file.as_mut(), &epd_error) {
                let line = game_epd(&record);
                if let Err(e) = file.write_all(line.as_bytes()).and_then(|()| file.flush()) {
                    epd_error = Some(e);
                }
            }
            if let (Some(file), None) = (pgn_file.as_mut(), &pgn_error) {
                let text = game_pgn(&record, &plan.time_control, request.pgn_min);
                // Synced to the disk game by game: a power cut loses at most the game in hand.
                let written = file
                    .write_all(text.as_bytes())
                    .and_then(|()| file.flush())
                    .and_then(|()| file.sync_data());
                if let Err(e) = written {
                    pgn_error = Some(e);
                }
            }
            let s = tally.score;
            // cutechess-cli's per-game lines, for scripts that follow a match as it runs.
            if request.progress_lines {
                let _ = writeln!(
                    out,
                    "Finished game {} ({} vs {}): {} {{{}}}",
                    record.round,
                    record.white,
                    record.black,
                    record.record.outcome.pgn(),
                    record.describe()
                )
                .and_then(|()| {
                    writeln!(
                        out,
                        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
                        names[0],
                        names[1],
                        s.wins,
                        s.losses,
                        s.draws,
                        s.ratio(),
                        s.games()
                    )
                })
                .and_then(|()| out.flush());
            }
            progress(&MatchProgress {
                finished: s.games() + unfinished,
                total: games,
                score: format!("{} {}-{}-{} (W-L-D)", names[0], s.wins, s.losses, s.draws),
            });
            if let Some(sprt) = &sprt {
                let (_, llr) = sprt.match_llr(&tally.score, tally.pairs.pentanomial());
                llr_history.push((tally.score.games(), llr));
                verdict = sprt.decide(llr);
                if verdict != SprtVerdict::Continue {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let interrupted = plan.interrupt.load(Ordering::Relaxed);
    if interrupted {
        writeln!(
            out,
            "Interrupted after {} finished games; {unfinished} running games were ended \
             unfinished (in the PGN with result *, not counted below) and every engine stopped",
            tally.score.games()
        )?;
    }
    print_table(out, names, &tally, seconds)?;
    if let Some(sprt) = &sprt {
        let (lower, upper) = sprt.bounds();
        let decision = match verdict {
            SprtVerdict::AcceptH0 => "H0 accepted",
            SprtVerdict::AcceptH1 => "H1 accepted",
            SprtVerdict::Continue => "no decision yet",
        };
        let (model, llr) = sprt.match_llr(&tally.score, tally.pairs.pentanomial());
        writeln!(
            out,
            "SPRT ({}, logistic Elo): elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.3} [{lower:.3}, {upper:.3}]: {decision}",
            model.name(), sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        )?;
    }
    match (&pgn_error, pgn_path.as_str()) {
        (Some(e), path) => writeln!(
            out,
            "PGN: writing {path} failed ({e}); the games before the failure are kept"
        )?,
        (None, "" | "-") => {}
        (None, path) => writeln!(out, "PGN: {path}")?,
    }
    match (&epd_error, &request.epd) {
        (Some(e), Some(path)) => writeln!(
            out,
            "EPD: writing {} failed ({e}); the positions before the failure are kept",
            path.display()
        )?,
        (None, Some(path)) => writeln!(out, "EPD: {}", path.display())?,
        _ => {}
    }
    Ok(MatchSummary {
        names: [names[0].to_string(), names[1].to_string()],
        score: tally.score,
        pentanomial: *tally.pairs.pentanomial(),
        terminations: tally
            .terminations
            .iter()
            .map(|(name, &count)| (name.clone(), count))
            .collect(),
        sprt: sprt.map(|sprt| (sprt, llr_history)),
        games: tally.score.games(),
        plies: tally.plies,
        seconds,
        failures: tally.failures,
        pgn_ok: pgn_error.is_none(),
        interrupted,
        latency: percentiles(&mut tally.latencies),
    })
}

/// (median, 99th percentile) of `micros`, nearest rank.
fn percentiles(micros: &mut [u64]) -> Option<(Duration, Duration)> {
    if micros.is_empty() {
        return None;
    }
    micros.sort_unstable();
    let rank = |p: f64| {
        let index = ((p * micros.len() as f64).ceil() as usize).clamp(1, micros.len()) - 1;
        Duration::from_micros(micros[index])
    };
    Some((rank(0.5), rank(0.99)))
}

fn print_table(
    out: &mut impl Write,
    names: [&str; 2],
    tally: &Tally,
    seconds: f64,
) -> io::Result<()> {
    let s = tally.score;
    writeln!(out)?;
    writeln!(
        out,
        "{:<24} {:>6} {:>6} {:>6} {:>6} {:>7}",
        "pair", "games", "wins", "draws", "losses", "score"
    )?;
    writeln!(
        out,
        "{:<24} {:>6} {:>6} {:>6} {:>6} {:>6.1}%",
        format!("{} vs {}", names[0], names[1]),
        s.games(),
        s.wins,
        s.draws,
        s.losses,
        100.0 * s.ratio()
    )?;
    let pairs = tally.pairs.pentanomial();
    let [ll, ld, dd, wd, ww] = pairs.counts;
    writeln!(
        out,
        "Pentanomial [LL, LD, DD+WL, WD, WW]: [{ll}, {ld}, {dd}, {wd}, {ww}] ({} complete pairs, {} \
         finished games whose partner did not finish)",
        pairs.pairs(),
        tally.pairs.unpaired()
    )?;
    // cutechess-cli's closing line, so scripts written for it parse ours.
    let draw_ratio = 100.0 * f64::from(s.draws) / f64::from(s.games().max(1));
    let los = 100.0 * s.likelihood_of_superiority();
    match s.elo() {
        Some((elo, margin)) => writeln!(
            out,
            "Elo difference: {:.1} +/- {margin:.1}, LOS: {los:.1} %, DrawRatio: {draw_ratio:.1} %",
            // No "-0.0" for an even score.
            elo + 0.0
        )?,
        None if s.games() == 0 => writeln!(out, "Elo difference: no game finished")?,
        None => writeln!(
            out,
            "Elo difference: unbounded (every game had the same result), LOS: {los:.1} %, \
             DrawRatio: {draw_ratio:.1} %"
        )?,
    }
    writeln!(out, "Terminations:")?;
    for (name, count) in &tally.terminations {
        writeln!(out, "  {count:>6}  {name}")?;
    }
    writeln!(
        out,
        "{} games, {} plies in {seconds:.1} s ({:.0} games per minute), {} lost by engine failure",
        s.games(),
        tally.plies,
        60.0 * f64::from(s.games()) / seconds.max(1e-9),
        tally.failures
    )
}
