//! What the options of a cutechess-cli/fastchess command line said ([`Read`], in [`super::read`],
//! filled by [`super::options`] and [`super::engine`]) made a [`MatchRequest`]: the dialect, the
//! engines, each engine's time control, the schedule ([`super::schedule`]) and the notes.

use super::echo::{CutechessDebug, FastchessLog};
use super::engine::dialect_of_key;
use super::error::CompatError;
use super::options::{missing, read_option};
use super::read::Read;
use super::schedule::{plan, Plan, Policy, ScheduleArgs};
use super::words::options;
use super::{CompatCommand, CompatMatch, Dialect, OutputChoice, OutputFormat};
use shannon::arena::{
    EngineLimits, Existing, Layout, MatchRequest, OpeningSource, Seeds, TablebaseRule,
    TournamentKind,
};

use shannon::client::EngineConfig;
use shannon::client::{Caps, Pace, TimeControl};
use shannon::stats::{EloModel, Sprt, SprtTest};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// Read a cutechess-cli or fastchess command line (the words after `match`) that is not
/// fastchess's `--compliance` ([`super::parse`] reads that).
pub fn parse_line(args: &[String]) -> Result<CompatCommand, CompatError> {
    let options = options(args)?;
    if options.iter().any(|o| o.name == "-help") {
        return Ok(CompatCommand::Help);
    }
    if options
        .iter()
        .any(|o| o.name == "-resultformat" && o.values == ["help"])
    {
        return Ok(CompatCommand::ResultFormatHelp);
    }
    if options.iter().any(|o| o.name == "-version") {
        return Ok(CompatCommand::Version);
    }
    if options.iter().any(|o| o.name == "-engines") {
        let engines = super::engines_json::EnginesFile::load()?;
        return Ok(CompatCommand::Engines(engines.names()));
    }
    let has_config = options.iter().any(|o| o.name == "-config");
    let run = super::config_json::expand(options)?;
    // Both tools append to an existing PGN or EPD unless told otherwise.
    let mut read = Read {
        pgn_append: true,
        epd_append: true,
        ..Read::default()
    };
    if has_config {
        read.only(Dialect::Fastchess, "-config");
    }
    for option in &run.options {
        read_option(&mut read, option)?;
    }
    let each = std::mem::take(&mut read.each);
    for engine in &mut read.engines {
        for word in &each {
            engine.apply("-each", word)?;
        }
    }
    for word in &each {
        let key = word.split('=').next().unwrap_or_default();
        if let Some(dialect) = dialect_of_key(key) {
            read.only(dialect, format!("-each {key}"));
        }
    }
    let mut compat = finish(read)?;
    if compat.dialect == Dialect::Fastchess {
        saves_config(&mut compat, run);
    }
    Ok(CompatCommand::Match(Box::new(compat)))
}

/// fastchess's `config.json` for a run of its form: the file it saves, and the results of a
/// loaded one to continue from (appended to the PGN, as fastchess appends when it resumes).
fn saves_config(compat: &mut CompatMatch, run: super::config_json::ConfigRun) {
    use super::config_json::{ConfigFile, FastchessConfig};
    let mut config = FastchessConfig::of_options(&run.options, 0);
    config.config_name = run.name.clone();
    let mut said = run.said;
    said.append(&mut compat.preamble);
    compat.preamble = said;
    compat.notes.extend(run.warnings);
    if let Some(carried) = run.carried.filter(|c| c.games > 0) {
        compat.request.existing = shannon::arena::Existing::Append;
        compat.request.carried = Some(carried);
    }
    compat.config_file = Some(ConfigFile {
        path: PathBuf::from(&run.name),
        interval: config.autosaveinterval.clamp(0, i64::from(u32::MAX)) as u32,
        config,
        loaded: run.loaded,
    });
}

/// The request made of what was read.
fn finish(mut read: Read) -> Result<CompatMatch, CompatError> {
    if read.engines.len() < 2 {
        return Err(CompatError::TooFewEngines(read.engines.len()));
    }
    let dialect = dialect(&mut read)?;
    let mut engines = engine_configs(&mut read)?;
    let echo = echo(&read, &mut engines)?;
    let controls = time_controls(&read, dialect)?;
    let engine_limits = engine_limits(&read, &engines, &controls);
    let schedule = schedule(&mut read, dialect, engines.len())?;
    let mut output = read.output_choice(dialect, &schedule);
    let (sprt, preamble) = sprt_test(&read, dialect, &mut output)?;
    let openings = match (read.openings.take(), read.chess960) {
        (Some(openings), _) => openings,
        (None, true) => OpeningSource::Chess960.into(),
        (None, false) => OpeningSource::Startpos.into(),
    };
    let request = MatchRequest {
        tournament: read.tournament,
        rounds: Some(schedule.rounds),
        games: Some(schedule.games),
        layout: Layout {
            single_games: schedule.single,
            games_per_opening: schedule.per_opening,
            noswap: read.noswap,
            reverse: read.reverse,
            // cutechess-cli's seeds play the unseeded players only, fastchess's also the seeds
            // after them.
            seeds: read.seeds.map(|count| Seeds {
                count,
                meet_each_other: dialect == Dialect::Fastchess,
            }),
            // cutechess-cli's pairing order, openings and colours in a tournament.
            cutechess_tournament: dialect == Dialect::Cutechess && engines.len() > 2,
            // fastchess's openings in a tournament.
            fastchess_tournament: dialect == Dialect::Fastchess && engines.len() > 2,
        },
        concurrency: Some(read.concurrency.unwrap_or(1)),
        time_control: Some(controls[0]),
        engine_limits,
        openings: Some(openings),
        pgn: Some(read.pgn.take()),
        seed: read.seed,
        sprt,
        max_plies: Some(read.maxmoves.map_or(0, |m| m.saturating_mul(2))),
        draw: read.draw,
        resign: read.resign,
        tablebase: tablebase(&read, dialect)?,
        dialect: Some(dialect),
        pgn_min: read.pgn_min,
        epd: read.epd.take(),
        engine_configs: engines,
        time_margin_ms: match_time_margin(&read),
        event: read.event.take(),
        site: read.site.take(),
        existing: appending(read.pgn_append),
        existing_epd: appending(read.epd_append),
        recover: Some(read.recover),
        ping_ms: read.ping_ms,
        pgn_crc32: read.pgn_crc32,
        pgn_notation: read.pgn_notation,
        wait_ms: read.wait_ms,
        echo,
        ..MatchRequest::default()
    };
    Ok(CompatMatch {
        request,
        output,
        dialect,
        notes: read.notes,
        preamble,
        config_file: None,
    })
}

/// Tablebase adjudication as `dialect` reads its options: cutechess-cli takes `-tbpieces` only
/// above 2, fastchess any number (0: no limit).
fn tablebase(read: &Read, dialect: Dialect) -> Result<Option<TablebaseRule>, CompatError> {
    let tb = &read.tablebase;
    let Some(paths) = &tb.paths else {
        return Ok(None);
    };
    if let Some(pieces) = tb.pieces {
        if dialect == Dialect::Cutechess && pieces <= 2 {
            return Err(CompatError::malformed(
                "-tbpieces",
                pieces.to_string(),
                "a number above 2",
            ));
        }
    }
    Ok(Some(TablebaseRule {
        paths: paths.clone(),
        max_pieces: tb.pieces.filter(|n| *n > 0),
        ignore_50: tb.ignore_50,
        results: tb.results.unwrap_or_default(),
    }))
}

/// Where the engines' exchange goes: cutechess-cli's `-debug` (with `all`, each engine in its
/// debug mode too), fastchess's `-log` file (opened now).
fn echo(
    read: &Read,
    engines: &mut [shannon::client::EngineConfig],
) -> Result<Option<std::sync::Arc<dyn shannon::client::Echo>>, CompatError> {
    if let Some(all) = read.debug {
        for engine in engines.iter_mut() {
            engine.debug |= all;
        }
        return Ok(Some(std::sync::Arc::new(CutechessDebug::new())));
    }
    let Some(settings) = &read.log else {
        return Ok(None);
    };
    let log = FastchessLog::open(settings.clone()).map_err(|error| CompatError::Output {
        path: settings.file.clone(),
        why: error.to_string(),
    })?;
    Ok(Some(std::sync::Arc::new(log)))
}

/// What a run does with an output file that already holds games: both tools append to it;
/// fastchess's `append=false` empties it.
fn appending(append: bool) -> Existing {
    match append {
        true => Existing::Append,
        false => Existing::Overwrite,
    }
}

/// The schedule, read as `dialect`'s; a note when no option told the tools apart and
/// cutechess-cli's reading would differ.
fn schedule(read: &mut Read, dialect: Dialect, engines: usize) -> Result<Plan, CompatError> {
    if read.tournament == Some(TournamentKind::Knockout) {
        return knockout_schedule(read, dialect);
    }
    let varies = read.openings.is_some() || read.chess960;
    let schedule = plan(&read.schedule_args(), dialect, engines, varies)?;
    if read.dialect.is_none() && read.cutechess_only.is_none() && read.fastchess_only.is_none() {
        let other = plan(&read.schedule_args(), Dialect::Cutechess, engines, varies);
        // The same games: as many, and paired alike unless every game starts from one position.
        let same = other.as_ref().is_ok_and(|other| {
            other.rounds * other.games == schedule.rounds * schedule.games
                && ((other.single, other.per_opening) == (schedule.single, schedule.per_opening)
                    || !varies)
        });
        if same && engines > 2 && varies {
            read.notes.push(
                "read as fastchess's command line; in a tournament cutechess-cli gives the \
                 encounters their openings otherwise (and pairs a round robin in another \
                 order): -dialect cutechess chooses its reading"
                    .to_string(),
            );
        }
        if !same {
            read.notes.push(format!(
                "read as fastchess's command line ({} games per encounter); cutechess-cli reads \
                 -games, -rounds and -repeat otherwise ({}): -dialect cutechess chooses its reading",
                schedule.rounds * schedule.games,
                match &other {
                    Ok(other) => format!("{} games", other.rounds * other.games),
                    Err(e) => e.to_string(),
                }
            ));
        }
    }
    if let Err(why) = schedule.allows(read.policy) {
        return Err(CompatError::refused("-openings policy=", why.to_string()));
    }
    Ok(schedule)
}

/// cutechess-cli's knockout: each encounter `-games` games at least (more while undecided),
/// each opening serving `-repeat` consecutive games of it (a new one for every encounter), or
/// all of them with `policy=encounter`. No `-rounds` (cutechess-cli stops at it), and no
/// fastchess form (fastchess 1.8.2-alpha has no knockout).
fn knockout_schedule(read: &Read, dialect: Dialect) -> Result<Plan, CompatError> {
    if dialect == Dialect::Fastchess {
        return Err(CompatError::refused(
            "-tournament knockout",
            "fastchess has no knockout (fastchess 1.8.2-alpha: \"Unsupported tournament format. \
             Only supports roundrobin and gauntlet.\"); cutechess-cli's knockout is played in \
             cutechess-cli's form (-dialect cutechess)",
        ));
    }
    let args = read.schedule_args();
    if args.rounds.is_some() {
        return Err(CompatError::refused(
            "-rounds",
            "a knockout has as many rounds as its bracket needs (cutechess-cli: \
             \"Tournament \"knockout\" does not support user-defined round multipliers\")",
        ));
    }
    let per_opening =
        match read.policy {
            Policy::Default => args.repeat.unwrap_or(1).max(1),
            Policy::Encounter => u32::MAX,
            Policy::Round => return Err(CompatError::refused(
                "-openings policy=round",
                "in a knockout Shannon takes a new opening for every encounter (policy=default \
                 or policy=encounter)",
            )),
        };
    Ok(Plan {
        rounds: 1,
        games: args.games.unwrap_or(1),
        single: true,
        per_opening,
    })
}

/// The SPRT of the command line, as its tool runs it: cutechess-cli's BayesElo test (whose
/// `-sprt` has no `model=`: cutechess-cli stops at it), or fastchess's in its model (normalized
/// unless `model=` says), on the pentanomial when fastchess reports it (its own output, game
/// pairs, no `-report penta=false`), else on single games. The Bayesian model turns the
/// pentanomial off, as fastchess does, with fastchess's warning: the lines it prints before the
/// games.
fn sprt_test(
    read: &Read,
    dialect: Dialect,
    output: &mut OutputChoice,
) -> Result<(Option<Sprt>, Vec<String>), CompatError> {
    let Some(sprt) = read.sprt else {
        return Ok((None, Vec::new()));
    };
    match dialect {
        Dialect::Cutechess => match read.sprt_model {
            Some(model) => Err(CompatError::refused(
                format!("-sprt model={model}"),
                format!(
                    "cutechess-cli's -sprt takes elo0, elo1, alpha and beta only, its test is \
                     BayesElo (cutechess-cli stops with: Invalid argument for option \"-sprt\": \
                     \"model={model}\")"
                ),
            )),
            None => Ok((Some(sprt.with_test(SprtTest::Cutechess)), Vec::new())),
        },
        Dialect::Fastchess => {
            let model = read.sprt_model.unwrap_or(EloModel::Normalized);
            let penta = output.penta && output.format == OutputFormat::Fastchess;
            let mut preamble = Vec::new();
            if model == EloModel::Bayesian && penta {
                preamble.push(
                    "Warning; Bayesian SPRT model not available with pentanomial statistics. \
                     Disabling pentanomial reports..."
                        .to_string(),
                );
                output.penta = false;
            }
            let test = SprtTest::fastchess(model, penta);
            Ok((Some(sprt.with_test(test)), preamble))
        }
    }
}

/// Whose command line it is: `-dialect`, else the options only one tool has, else fastchess's.
fn dialect(read: &mut Read) -> Result<Dialect, CompatError> {
    match (&read.cutechess_only, &read.fastchess_only, read.dialect) {
        (Some(cutechess), Some(fastchess), None) => Err(CompatError::MixedDialects {
            cutechess: cutechess.clone(),
            fastchess: fastchess.clone(),
        }),
        (_, _, Some(dialect)) => Ok(dialect),
        (Some(_), None, None) => Ok(Dialect::Cutechess),
        _ => Ok(Dialect::Fastchess),
    }
}

/// The engines, uniquely named (a second engine of the same name gets `_2`, as fastchess does).
fn engine_configs(read: &mut Read) -> Result<Vec<EngineConfig>, CompatError> {
    let mut engines: Vec<EngineConfig> = Vec::new();
    for (i, args) in read.engines.iter().enumerate() {
        let mut engine = args.config(i)?;
        if let Some(ms) = read.init_timeout_ms {
            engine.init_timeout_ms = ms;
        }
        let base = engine.name.clone();
        let mut n = 1;
        while engines.iter().any(|e| e.name == engine.name) {
            n += 1;
            engine.name = format!("{base}_{n}");
        }
        if n > 1 {
            read.notes.push(format!(
                "-engine #{}: a second engine named {base} is called {}",
                i + 1,
                engine.name
            ));
        }
        engines.push(engine);
    }
    Ok(engines)
}

/// Each engine's time control, from its `tc=`, `st=`, `nodes=` and `depth=`, in the engines'
/// order (time odds when they differ: each engine plays under its own). A clock or a time per
/// move is the pace, and `nodes=` and `depth=` caps beside it, as both tools send them with the
/// clock (`tc=10+0.1 nodes=5000`). `tc=inf` alone is a move without any limit in cutechess-cli's
/// form (`go infinite`); fastchess refuses it (`Error; no TimeControl specified!`), and so does
/// its form.
fn time_controls(read: &Read, dialect: Dialect) -> Result<Vec<TimeControl>, CompatError> {
    let mut controls = Vec::new();
    for (i, engine) in read.engines.iter().enumerate() {
        let label = format!("-engine #{}", i + 1);
        let clock = engine.tc.filter(|pace| *pace != Pace::Infinite);
        let caps = Caps {
            nodes: engine.nodes,
            depth: engine.depth,
        };
        let pace = match (clock, engine.st) {
            (Some(_), Some(_)) => {
                return Err(CompatError::refused(
                    format!("{label} tc= and st="),
                    "a move is timed by a clock or by a time per move, not both (the tools \
                     send only st=)",
                ))
            }
            (Some(clock), None) => clock,
            (None, Some(st)) => Pace::MoveTime(Duration::from_millis(st.as_millis() as u64)),
            (None, None) if dialect == Dialect::Fastchess && caps.is_none() => {
                return Err(missing(
                    &label,
                    "a time control, in fastchess's form (tc= other than inf, st=, nodes= or \
                     depth=: fastchess stops with \"Error; no TimeControl specified!\")",
                ))
            }
            (None, None) if engine.tc.is_some() || !caps.is_none() => Pace::Infinite,
            (None, None) => {
                return Err(missing(
                    &label,
                    "a time control (tc=, st=, nodes= or depth=)",
                ))
            }
        };
        controls.push(TimeControl { pace, caps });
    }
    Ok(controls)
}

/// The match's time margin: the engines' `timemargin=` when they all give the same one (`None`:
/// the default, or each engine its own).
fn match_time_margin(read: &Read) -> Option<u64> {
    let first = read.engines[0].timemargin;
    read.engines
        .iter()
        .all(|engine| engine.timemargin == first)
        .then_some(first)
        .flatten()
}

/// The limits of the engines that play under others than the first engine's (the match's):
/// their time control, and their time margin when the engines' margins differ (an engine
/// without `timemargin=` has the match's default then), by name.
fn engine_limits(
    read: &Read,
    engines: &[EngineConfig],
    controls: &[TimeControl],
) -> BTreeMap<String, EngineLimits> {
    let margins_differ = match_time_margin(read).is_none();
    let mut limits = BTreeMap::new();
    for ((engine, read), tc) in engines.iter().zip(&read.engines).zip(controls) {
        let own = EngineLimits {
            time_control: (*tc != controls[0]).then_some(*tc),
            time_margin_ms: read.timemargin.filter(|_| margins_differ),
        };
        if !own.is_empty() {
            limits.insert(engine.name.clone(), own);
        }
    }
    limits
}

impl Read {
    fn schedule_args(&self) -> ScheduleArgs {
        ScheduleArgs {
            rounds: self.rounds,
            games: self.games,
            repeat: self.repeat,
            repeat_after_games: self.repeat_after_games,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn read(line: &str) -> Result<CompatMatch, CompatError> {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        match parse_line(&words)? {
            CompatCommand::Match(compat) => Ok(*compat),
            other => panic!("not a match: {other:?}"),
        }
    }

    /// The issue's example, field by field.
    #[test]
    fn the_issue_example_makes_the_request() {
        let compat = read(
            "-engine cmd=./dev name=dev option.Hash=16 -engine cmd=./base name=base \
             -each proto=uci tc=10+0.1 -rounds 500 -games 2 -repeat -concurrency 2 \
             -openings file=book.epd format=epd order=random plies=8 -pgnout file=out.pgn \
             -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -draw movenumber=40 movecount=8 score=10 \
             -resign movecount=3 score=600 twosided=true -maxmoves 200 -recover -srand 42",
        )
        .unwrap();
        let request = &compat.request;
        assert_eq!(
            compat.dialect,
            Dialect::Fastchess,
            "-pgnout file= is fastchess's"
        );
        assert_eq!(compat.output.format, OutputFormat::Fastchess);
        assert_eq!((request.rounds, request.games), (Some(500), Some(2)));
        assert_eq!(request.concurrency, Some(2));
        assert_eq!(request.time_control, Some("10+0.1".parse().unwrap()));
        let openings = request.openings.as_ref().unwrap();
        assert!(openings.random && openings.plies == Some(8));
        assert_eq!(request.pgn, Some(Some(PathBuf::from("out.pgn"))));
        // fastchess's test, in its default model, on the pentanomial it reports.
        let fastchess = SprtTest::fastchess(EloModel::Normalized, true);
        let sprt = "0,5,0.05,0.05"
            .parse::<Sprt>()
            .unwrap()
            .with_test(fastchess);
        assert_eq!(request.sprt, Some(sprt));
        let draw = request.draw.unwrap();
        assert_eq!((draw.move_number, draw.move_count, draw.score), (40, 8, 10));
        assert!(draw.reset_by_irreversible);
        let resign = request.resign.unwrap();
        assert_eq!(
            (resign.move_count, resign.score, resign.two_sided),
            (3, 600, true)
        );
        assert_eq!(request.max_plies, Some(400));
        assert_eq!(request.seed, Some(42));
        let names: Vec<&str> = request
            .engine_configs
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        assert_eq!(names, ["dev", "base"]);
        assert_eq!(
            request.engine_configs[0].option_values(),
            [("Hash".to_string(), "16".to_string())]
        );
        assert!(request.engines.is_none());
        // Nothing to note: the test is fastchess's own.
        assert!(compat.notes.is_empty(), "{:?}", compat.notes);
        assert!(compat.preamble.is_empty());
    }

    /// Each form runs its tool's test: cutechess-cli's BayesElo test (no `model=`, which
    /// cutechess-cli refuses), fastchess's in the model given, on the pentanomial unless
    /// fastchess reports single games; the Bayesian model turns the pentanomial off with
    /// fastchess's warning.
    #[test]
    fn each_form_runs_its_tools_sprt() {
        let engines = "-engine cmd=a -engine cmd=b -each tc=1+0.01 -sprt elo0=0 elo1=5 \
                       alpha=0.05 beta=0.05";
        let test = |line: &str| {
            let compat = read(&format!("{engines} {line}")).unwrap();
            (compat.request.sprt.unwrap().test, compat.output.penta)
        };
        assert_eq!(
            test("-pgnout g.pgn -rounds 3 -games 2"),
            (SprtTest::Cutechess, true)
        );
        assert_eq!(
            test("-rounds 3 -games 2 -repeat -dialect cutechess"),
            (SprtTest::Cutechess, true)
        );
        let fastchess = |model, penta| SprtTest::fastchess(model, penta);
        assert_eq!(
            test("-rounds 3"),
            (fastchess(EloModel::Normalized, true), true)
        );
        for model in EloModel::ALL {
            let (sprt, _) = test(&format!(
                "-rounds 3 -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model={model}"
            ));
            assert_eq!(sprt, fastchess(model, true));
        }
        // Single games, -report penta=false and the cutechess output: single games.
        assert_eq!(
            test("-rounds 3 -games 1").0,
            fastchess(EloModel::Normalized, false)
        );
        assert_eq!(
            test("-rounds 3 -report penta=false").0,
            fastchess(EloModel::Normalized, false)
        );
        assert_eq!(
            test("-rounds 3 -output format=cutechess").0,
            fastchess(EloModel::Normalized, false)
        );
        // The Bayesian model: on single games, the pentanomial report off, fastchess's warning.
        let bayes = read(&format!(
            "{engines} -rounds 3 -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=bayesian"
        ))
        .unwrap();
        assert!(!bayes.output.penta);
        assert_eq!(
            bayes.preamble,
            [
                "Warning; Bayesian SPRT model not available with pentanomial statistics. \
              Disabling pentanomial reports..."
            ]
        );
        // Not when fastchess had turned it off already.
        let quiet = read(&format!(
            "{engines} -rounds 3 -games 1 -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=bayesian"
        ))
        .unwrap();
        assert!(quiet.preamble.is_empty());
        // cutechess-cli has no model=; fastchess refuses a model it does not have.
        let refused = read(&format!(
            "{engines} -games 2 -repeat -dialect cutechess -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic"
        ))
        .unwrap_err()
        .to_string();
        assert!(
            refused.starts_with("-sprt model=logistic: not supported: cutechess-cli's -sprt")
                && refused.contains("Invalid argument for option \"-sprt\": \"model=logistic\""),
            "{refused}"
        );
        let unknown = read(&format!(
            "{engines} -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=bayeselo"
        ))
        .unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "-sprt model: 'bayeselo' is not normalized, logistic or bayesian"
        );
    }

    #[test]
    fn the_dialect_is_told_by_the_options_only_one_tool_has() {
        let engines = "-engine cmd=a -engine cmd=b -each tc=1+0.01";
        let cute = read(&format!("{engines} -pgnout g.pgn -rounds 3 -games 2")).unwrap();
        assert_eq!(cute.dialect, Dialect::Cutechess);
        assert_eq!(cute.output.format, OutputFormat::Cutechess);
        assert_eq!(
            (cute.request.rounds, cute.request.games),
            (Some(3), Some(2))
        );
        let fast = read(&format!("{engines} -output format=cutechess -rounds 3")).unwrap();
        assert_eq!(fast.dialect, Dialect::Fastchess);
        assert_eq!(fast.output.format, OutputFormat::Cutechess);
        assert_eq!(
            (fast.request.rounds, fast.request.games),
            (Some(3), Some(2))
        );
        let chosen = read(&format!("{engines} -rounds 4 -dialect cutechess")).unwrap();
        assert_eq!(
            (chosen.request.rounds, chosen.request.games),
            (Some(2), Some(2))
        );
        assert!(chosen.notes.is_empty(), "{:?}", chosen.notes);
        // A tournament from a book: the tools give the encounters their openings otherwise.
        let three = "-engine cmd=a -engine cmd=b -engine cmd=c -each tc=1+0.01";
        let book = "-openings file=book.epd format=epd -repeat -games 2 -rounds 2";
        let either = read(&format!("{three} {book}")).unwrap();
        assert!(either.request.layout.fastchess_tournament);
        assert!(
            either
                .notes
                .iter()
                .any(|n| n.contains("openings otherwise")),
            "{:?}",
            either.notes
        );
        let cute = read(&format!("{three} {book} -dialect cutechess")).unwrap();
        assert!(cute.request.layout.cutechess_tournament && cute.notes.is_empty());
        assert!(matches!(
            read(&format!("{engines} -bookmode ram -scoreinterval 1")),
            Err(CompatError::MixedDialects { .. })
        ));
        let same = read("-engine cmd=x -engine cmd=x -each tc=inf nodes=10").unwrap();
        let names: Vec<&str> = same
            .request
            .engine_configs
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        assert_eq!(names, ["x", "x_2"]);
        assert_eq!(same.request.time_control, Some(TimeControl::nodes(10)));
    }
}
