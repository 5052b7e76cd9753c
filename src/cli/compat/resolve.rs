//! The options of a cutechess-cli/fastchess command line read into a [`MatchRequest`]: the
//! global options here, the engines' keys in [`super::engine`], the schedule in [`schedule`].

use super::engine::{dialect_of_key, EngineArgs};
use super::schedule::{plan, Policy, ScheduleArgs};
use super::words::{boolean, number, options, pairs, single, Opt};
use super::{CompatCommand, CompatError, CompatMatch, Dialect, OutputChoice, OutputFormat};
use shannon::arena::{
    DrawRule, MatchRequest, OpeningSource, Openings, ResignRule, TimeControl, TournamentKind,
};
use shannon::client::EngineConfig;
use shannon::stats::Sprt;
use std::path::PathBuf;
use std::time::Duration;

/// Everything the options said, before the dialect is known.
#[derive(Debug, Default)]
struct Read {
    engines: Vec<EngineArgs>,
    each: Vec<String>,
    tournament: Option<TournamentKind>,
    rounds: Option<u32>,
    games: Option<u32>,
    /// `-repeat [N]` (2 without a value).
    repeat: Option<u32>,
    /// fastchess: `-repeat` sets the games, so the later of the two wins.
    repeat_after_games: bool,
    concurrency: Option<usize>,
    openings: Option<Openings>,
    format: Option<String>,
    policy: Policy,
    pgn: Option<PathBuf>,
    pgn_min: bool,
    epd: Option<PathBuf>,
    sprt: Option<Sprt>,
    sprt_model: Option<String>,
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    maxmoves: Option<u32>,
    seed: Option<u64>,
    chess960: bool,
    event: Option<String>,
    site: Option<String>,
    output: OutputChoiceRead,
    dialect: Option<Dialect>,
    cutechess_only: Option<String>,
    fastchess_only: Option<String>,
    init_timeout_ms: Option<u64>,
    notes: Vec<String>,
}

#[derive(Debug, Default)]
struct OutputChoiceRead {
    format: Option<OutputFormat>,
    rating_interval: Option<u32>,
    score_interval: Option<u32>,
    outcome_interval: Option<u32>,
}

impl Read {
    /// Remember that `what` is only `dialect`'s.
    fn only(&mut self, dialect: Dialect, what: impl Into<String>) {
        let slot = match dialect {
            Dialect::Cutechess => &mut self.cutechess_only,
            Dialect::Fastchess => &mut self.fastchess_only,
        };
        slot.get_or_insert_with(|| what.into());
    }

    fn note(&mut self, option: &str, text: &str) {
        self.notes.push(format!("{option}: {text}"));
    }
}

/// Read a cutechess-cli or fastchess command line (the words after `match`).
pub fn parse(args: &[String]) -> Result<CompatCommand, CompatError> {
    let options = options(args)?;
    if options.iter().any(|o| o.name == "-help") {
        return Ok(CompatCommand::Help);
    }
    if options.iter().any(|o| o.name == "-version") {
        return Ok(CompatCommand::Version);
    }
    let mut read = Read::default();
    for option in &options {
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
    finish(read).map(|m| CompatCommand::Match(Box::new(m)))
}

/// Read one option into `read`.
fn read_option(read: &mut Read, option: &Opt) -> Result<(), CompatError> {
    let name = option.name.as_str();
    let values = &option.values;
    match name {
        "-engine" => {
            if values.is_empty() {
                return Err(CompatError::Missing {
                    option: name.into(),
                    expected: "cmd=PROGRAM and other keys".into(),
                });
            }
            let mut engine = EngineArgs::default();
            for word in values {
                engine.apply(name, word)?;
                let key = word.split('=').next().unwrap_or_default();
                if let Some(dialect) = dialect_of_key(key) {
                    read.only(dialect, format!("-engine {key}"));
                }
            }
            read.engines.push(engine);
        }
        "-each" => read.each.extend(values.iter().cloned()),
        "-tournament" => {
            let value = single(name, values)?;
            read.tournament = Some(match value {
                "round-robin" => {
                    read.only(Dialect::Cutechess, "-tournament round-robin");
                    TournamentKind::RoundRobin
                }
                "roundrobin" => {
                    read.only(Dialect::Fastchess, "-tournament roundrobin");
                    TournamentKind::RoundRobin
                }
                "gauntlet" => TournamentKind::Gauntlet,
                "knockout" | "pyramid" => {
                    return Err(CompatError::refused(
                        format!("-tournament {value}"),
                        "Shannon plays round-robin and gauntlet tournaments",
                    ))
                }
                _ => {
                    return Err(CompatError::malformed(
                        name,
                        value,
                        "round-robin or gauntlet",
                    ))
                }
            });
        }
        "-rounds" => read.rounds = Some(count(name, single(name, values)?)?),
        "-games" => {
            read.games = Some(count(name, single(name, values)?)?);
            read.repeat_after_games = false;
        }
        "-repeat" => {
            read.repeat = Some(match values.as_slice() {
                [] => 2,
                [n] => count(name, n)?,
                [_, extra, ..] => return Err(CompatError::malformed(name, extra, "one number")),
            });
            read.repeat_after_games = true;
        }
        "-concurrency" => read.concurrency = Some(count(name, single(name, values)?)? as usize),
        "-openings" => read_openings(read, values)?,
        "-pgnout" => read_pgnout(read, values)?,
        "-epdout" => {
            read.epd = Some(match values.as_slice() {
                [file] if !file.contains('=') => {
                    read.only(Dialect::Cutechess, "-epdout FILE");
                    PathBuf::from(file)
                }
                _ => {
                    read.only(Dialect::Fastchess, "-epdout file=");
                    let mut file = None;
                    for (key, value) in pairs(name, values)? {
                        match key.as_str() {
                            "file" => file = Some(PathBuf::from(value)),
                            "append" if !boolean("-epdout append", &value)? => {}
                            "append" => return Err(append_refused("-epdout")),
                            _ => return Err(CompatError::Unknown(format!("-epdout {key}="))),
                        }
                    }
                    file.ok_or_else(|| missing("-epdout", "file=NAME"))?
                }
            })
        }
        "-sprt" => read_sprt(read, values)?,
        "-draw" => read.draw = Some(read_draw(values)?),
        "-resign" => read.resign = Some(read_resign(values)?),
        "-maxmoves" => read.maxmoves = Some(number(name, single(name, values)?)?),
        "-recover" => {}
        "-srand" | "-randomseed" => read.seed = Some(number(name, single(name, values)?)?),
        "-variant" => match single(name, values)? {
            "standard" => read.chess960 = false,
            "fischerandom" => read.chess960 = true,
            other => {
                return Err(CompatError::refused(
                    format!("-variant {other}"),
                    "Shannon plays standard chess and Chess960 (fischerandom) only",
                ))
            }
        },
        "-event" => read.event = Some(words(name, values)?),
        "-site" => read.site = Some(words(name, values)?),
        "-output" => {
            read.only(Dialect::Fastchess, "-output");
            for (key, value) in pairs(name, values)? {
                read.output.format = Some(match (key.as_str(), value.as_str()) {
                    ("format", "cutechess") => OutputFormat::Cutechess,
                    ("format", "fastchess") => OutputFormat::Fastchess,
                    ("format", _) => {
                        return Err(CompatError::malformed(
                            name,
                            value,
                            "cutechess or fastchess",
                        ))
                    }
                    _ => return Err(CompatError::Unknown(format!("-output {key}="))),
                });
            }
        }
        "-ratinginterval" => read.output.rating_interval = Some(interval(name, values)?),
        "-scoreinterval" => {
            read.only(Dialect::Fastchess, name);
            read.output.score_interval = Some(interval(name, values)?);
        }
        "-outcomeinterval" => {
            read.only(Dialect::Cutechess, name);
            read.output.outcome_interval = Some(interval(name, values)?);
        }
        "-dialect" => {
            read.dialect = Some(match single(name, values)? {
                "cutechess" | "cutechess-cli" => Dialect::Cutechess,
                "fastchess" => Dialect::Fastchess,
                other => {
                    return Err(CompatError::malformed(
                        name,
                        other,
                        "cutechess or fastchess",
                    ))
                }
            })
        }
        "-startup-ms" => {
            read.only(Dialect::Fastchess, name);
            read.init_timeout_ms = Some(number(name, single(name, values)?)?);
        }
        "-wait" => {
            if number::<u64>(name, single(name, values)?)? > 0 {
                return Err(CompatError::refused(
                    name,
                    "Shannon starts the next game at once",
                ));
            }
        }
        "-seeds" => {
            if number::<u32>(name, single(name, values)?)? > 1 {
                return Err(CompatError::refused(
                    name,
                    "a gauntlet has one first engine, which plays all the others",
                ));
            }
        }
        _ => other_option(read, name)?,
    }
    Ok(())
}

/// Options accepted with a note (they change nothing Shannon does), and the ones refused.
fn other_option(read: &mut Read, name: &str) -> Result<(), CompatError> {
    let fastchess_notes = [
        ("-testEnv", "no effect"),
        ("-check-mate-pvs", "engine PVs are not checked"),
        ("-crc32", "no CRC32 of the PGN is printed"),
        ("-report", "the report's statistics are Shannon's"),
        ("-autosaveinterval", "the state is saved after every game"),
        ("-use-affinity", "engines are not bound to cores"),
        (
            "-force-concurrency",
            "the concurrency is never limited to the cores",
        ),
        (
            "-show-latency",
            "the runner's latency is in the text and JSON reports",
        ),
        ("-strict", "warnings do not end the match"),
        (
            "-ucinewgame-ms",
            "an engine has its handshake timeout for ucinewgame",
        ),
        (
            "-ping-ms",
            "an engine has its handshake timeout for isready",
        ),
    ];
    if let Some((_, note)) = fastchess_notes.iter().find(|(n, _)| *n == name) {
        read.only(Dialect::Fastchess, name);
        read.note(name, &format!("accepted, {note}"));
        return Ok(());
    }
    if name == "-bookmode" {
        read.only(Dialect::Cutechess, name);
        read.note(
            name,
            "accepted, books are read the one way Shannon reads them",
        );
        return Ok(());
    }
    let why = match name {
        "-tb" | "-tbpieces" | "-tbignore50" | "-tbadjudicate" => {
            "Shannon has no tablebase adjudication (games end by the rules, -draw, -resign or \
             -maxmoves)"
        }
        "-noswap" | "-reverse" => {
            "Shannon's schedule plays each opening with both colours, the first engine White first"
        }
        "-debug" => "engine input and output are not echoed (fastchess refuses it too)",
        "-log" => "Shannon logs to stderr (RUST_LOG=info or debug); there is no log file",
        "-resultformat" => "the final table has one format",
        "-quick" => "give the two -engine options, -each tc= and -openings",
        "-config" => "a run is continued with shannon match --resume STATE",
        "-engines" => "engines are not read from cutechess-cli's engines.json",
        _ => return Err(CompatError::Unknown(name.to_string())),
    };
    Err(CompatError::refused(name, why))
}

fn count(option: &str, word: &str) -> Result<u32, CompatError> {
    word.parse::<u32>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| CompatError::malformed(option, word, "a number above 0"))
}

fn interval(option: &str, values: &[String]) -> Result<u32, CompatError> {
    number(option, single(option, values)?)
}

fn words(option: &str, values: &[String]) -> Result<String, CompatError> {
    if values.is_empty() {
        return Err(missing(option, "a name"));
    }
    Ok(values.join(" "))
}

fn missing(option: &str, expected: &str) -> CompatError {
    CompatError::Missing {
        option: option.into(),
        expected: expected.into(),
    }
}

fn append_refused(option: &str) -> CompatError {
    CompatError::refused(
        format!("{option} append=true"),
        "Shannon writes a new file (shannon match --resume STATE continues a run in its files)",
    )
}

/// `-openings file=F format=epd|pgn order=sequential|random plies=N start=N policy=P`.
fn read_openings(read: &mut Read, values: &[String]) -> Result<(), CompatError> {
    let name = "-openings";
    let mut openings = Openings::default();
    let mut file = None;
    for (key, value) in pairs(name, values)? {
        let label = format!("{name} {key}");
        match key.as_str() {
            "file" => file = Some(PathBuf::from(&value)),
            "format" => match value.as_str() {
                "epd" | "pgn" => read.format = Some(value.clone()),
                _ => return Err(CompatError::malformed(label, value, "epd or pgn")),
            },
            "order" => {
                openings.random = match value.as_str() {
                    "random" => true,
                    "sequential" => false,
                    _ => return Err(CompatError::malformed(label, value, "sequential or random")),
                }
            }
            "plies" => openings.plies = Some(number(&label, &value)?),
            "start" => openings.start = count(&label, &value)? as usize,
            "policy" => {
                read.policy = match value.as_str() {
                    "default" => Policy::Default,
                    "encounter" => Policy::Encounter,
                    "round" => Policy::Round,
                    _ => {
                        return Err(CompatError::malformed(
                            label,
                            value,
                            "default, encounter or round",
                        ))
                    }
                }
            }
            _ => return Err(CompatError::Unknown(format!("{name} {key}="))),
        }
    }
    let file = file.ok_or_else(|| missing(name, "file=NAME"))?;
    let is_pgn = file
        .to_string_lossy()
        .to_ascii_lowercase()
        .ends_with(".pgn");
    if let Some(format) = &read.format {
        if (format == "pgn") != is_pgn {
            return Err(CompatError::refused(
                format!("{name} format={format}"),
                format!(
                    "{} is read by its extension (.pgn: PGN games, else EPD positions)",
                    file.display()
                ),
            ));
        }
    }
    openings.source = OpeningSource::File(file);
    read.openings = Some(openings);
    Ok(())
}

/// `-pgnout FILE [min] [fi]` (cutechess-cli) or `-pgnout file=F [notation=san] [min=true] ...`
/// (fastchess).
fn read_pgnout(read: &mut Read, values: &[String]) -> Result<(), CompatError> {
    let name = "-pgnout";
    if let Some(first) = values.first().filter(|v| !v.contains('=')) {
        read.only(Dialect::Cutechess, "-pgnout FILE");
        read.pgn = Some(PathBuf::from(first));
        for word in &values[1..] {
            match word.as_str() {
                "min" => read.pgn_min = true,
                "fi" => read.note(
                    "-pgnout fi",
                    "accepted; games an interrupt cuts short are still written, with result *",
                ),
                _ => return Err(CompatError::malformed(name, word, "min or fi")),
            }
        }
        return Ok(());
    }
    read.only(Dialect::Fastchess, "-pgnout file=");
    let mut file = None;
    let mut unrecorded = Vec::new();
    for (key, value) in pairs(name, values)? {
        let label = format!("{name} {key}");
        match key.as_str() {
            "file" => file = Some(PathBuf::from(value)),
            "notation" if value == "san" => {}
            "notation" => {
                return Err(CompatError::refused(
                    format!("{label}={value}"),
                    "the PGN's moves are in SAN (notation=san)",
                ))
            }
            "min" => read.pgn_min = boolean(&label, &value)?,
            "append" if !boolean(&label, &value)? => {}
            "append" => return Err(append_refused(name)),
            "nodes" | "seldepth" | "nps" | "hashfull" | "tbhits" | "pv" | "timeleft"
            | "latency" => {
                if boolean(&label, &value)? {
                    unrecorded.push(key);
                }
            }
            "match_line" => unrecorded.push(format!("match_line={value}")),
            _ => return Err(CompatError::Unknown(format!("{name} {key}="))),
        }
    }
    if !unrecorded.is_empty() {
        let what = unrecorded.join(", ");
        read.note(
            name,
            &format!(
                "accepted; move comments keep cutechess-cli's form (score/depth time), \
                 without {what}"
            ),
        );
    }
    read.pgn = Some(file.ok_or_else(|| missing(name, "file=NAME"))?);
    Ok(())
}

/// `-sprt elo0=E0 elo1=E1 alpha=A beta=B [model=logistic]`.
fn read_sprt(read: &mut Read, values: &[String]) -> Result<(), CompatError> {
    let name = "-sprt";
    let mut found = [None; 4];
    for (key, value) in pairs(name, values)? {
        let slot = match key.as_str() {
            "elo0" => 0,
            "elo1" => 1,
            "alpha" => 2,
            "beta" => 3,
            "model" => {
                read.only(Dialect::Fastchess, "-sprt model=");
                if value != "logistic" {
                    return Err(CompatError::refused(
                        format!("{name} model={value}"),
                        "Shannon's SPRT is fishtest's GSPRT in logistic Elo (model=logistic)",
                    ));
                }
                read.sprt_model = Some(value);
                continue;
            }
            _ => return Err(CompatError::Unknown(format!("{name} {key}="))),
        };
        found[slot] = Some(number::<f64>(&format!("{name} {key}"), &value)?);
    }
    let [Some(elo0), Some(elo1), Some(alpha), Some(beta)] = found else {
        return Err(missing(name, "elo0=, elo1=, alpha= and beta="));
    };
    let text = format!("{elo0},{elo1},{alpha},{beta}");
    read.sprt = Some(text.parse().map_err(|_| {
        CompatError::malformed(
            name,
            values.join(" "),
            "a test with elo0 < elo1 and alpha, beta between 0 and 1",
        )
    })?);
    Ok(())
}

/// `-draw movenumber=N movecount=M score=S` (fastchess's defaults: 0, 1, 0).
fn read_draw(values: &[String]) -> Result<DrawRule, CompatError> {
    let mut rule = DrawRule {
        move_number: 0,
        move_count: 1,
        score: 0,
    };
    for (key, value) in pairs("-draw", values)? {
        let label = format!("-draw {key}");
        match key.as_str() {
            "movenumber" => rule.move_number = number(&label, &value)?,
            "movecount" => rule.move_count = count(&label, &value)?,
            "score" => {
                rule.score = number::<i32>(&label, &value)
                    .ok()
                    .filter(|s| *s >= 0)
                    .ok_or_else(|| CompatError::malformed(label, value, "a score of 0 or more"))?
            }
            _ => return Err(CompatError::Unknown(format!("-draw {key}="))),
        }
    }
    Ok(rule)
}

/// `-resign movecount=M score=S [twosided=true]`.
fn read_resign(values: &[String]) -> Result<ResignRule, CompatError> {
    let mut rule = ResignRule {
        move_count: 1,
        score: 0,
        two_sided: false,
    };
    for (key, value) in pairs("-resign", values)? {
        let label = format!("-resign {key}");
        match key.as_str() {
            "movecount" => rule.move_count = count(&label, &value)?,
            "score" => rule.score = count(&label, &value)? as i32,
            "twosided" => rule.two_sided = boolean(&label, &value)?,
            _ => return Err(CompatError::Unknown(format!("-resign {key}="))),
        }
    }
    if rule.score <= 0 {
        return Err(missing("-resign", "score=S (centipawns, above 0)"));
    }
    Ok(rule)
}

/// The request made of what was read.
fn finish(mut read: Read) -> Result<CompatMatch, CompatError> {
    if read.engines.len() < 2 {
        return Err(CompatError::TooFewEngines(read.engines.len()));
    }
    let dialect = dialect(&mut read)?;
    let engines = engine_configs(&mut read)?;
    let time_control = time_control(&read)?;
    let margins: Vec<Option<u64>> = read.engines.iter().map(|e| e.timemargin).collect();
    if margins.iter().any(|m| *m != margins[0]) {
        return Err(CompatError::refused(
            "-engine timemargin=",
            "the engines' time margins differ; a match has one",
        ));
    }
    let varies = read.openings.is_some() || read.chess960;
    let schedule = plan(&read.schedule_args(), dialect, engines.len(), varies)?;
    if read.dialect.is_none() && read.cutechess_only.is_none() && read.fastchess_only.is_none() {
        let other = plan(
            &read.schedule_args(),
            Dialect::Cutechess,
            engines.len(),
            varies,
        );
        if other.as_ref() != Ok(&schedule) {
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
        return Err(CompatError::refused("-openings policy=", why));
    }
    if read.sprt.is_some() && read.sprt_model.is_none() {
        let theirs = match dialect {
            Dialect::Cutechess => "cutechess-cli's are BayesElo",
            Dialect::Fastchess => "fastchess's default model is normalized Elo",
        };
        read.note(
            "-sprt",
            &format!(
                "elo0 and elo1 are read as logistic Elo ({theirs}); add model=logistic to say so"
            ),
        );
    }
    let openings = match (read.openings.take(), read.chess960) {
        (Some(openings), _) => openings,
        (None, true) => OpeningSource::Chess960.into(),
        (None, false) => OpeningSource::Startpos.into(),
    };
    let output = OutputChoice {
        format: read.output.format.unwrap_or(match dialect {
            Dialect::Cutechess => OutputFormat::Cutechess,
            Dialect::Fastchess => OutputFormat::Fastchess,
        }),
        rating_interval: read.output.rating_interval,
        score_interval: read.output.score_interval,
        outcome_interval: read.output.outcome_interval,
    };
    let request = MatchRequest {
        tournament: read.tournament,
        rounds: Some(schedule.rounds),
        games: Some(schedule.games),
        concurrency: Some(read.concurrency.unwrap_or(1)),
        time_control: Some(time_control),
        openings: Some(openings),
        pgn: Some(read.pgn.take()),
        seed: read.seed,
        sprt: read.sprt,
        max_plies: Some(read.maxmoves.map_or(0, |m| m.saturating_mul(2))),
        draw: read.draw,
        resign: read.resign,
        pgn_min: read.pgn_min,
        epd: read.epd.take(),
        engine_configs: engines,
        time_margin_ms: margins[0],
        event: read.event.take(),
        site: read.site.take(),
        ..MatchRequest::default()
    };
    Ok(CompatMatch {
        request,
        output,
        dialect,
        notes: read.notes,
    })
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

/// The match's one time control, from the engines' `tc=`, `st=`, `nodes=` and `depth=`.
fn time_control(read: &Read) -> Result<TimeControl, CompatError> {
    let mut first: Option<TimeControl> = None;
    for (i, engine) in read.engines.iter().enumerate() {
        let label = format!("-engine #{}", i + 1);
        let clock = engine.tc.filter(|tc| *tc != TimeControl::Infinite);
        let limits = [
            clock.is_some(),
            engine.st.is_some(),
            engine.nodes.is_some(),
            engine.depth.is_some(),
        ];
        if limits.iter().filter(|l| **l).count() > 1 {
            return Err(CompatError::refused(
                format!("{label} tc=/st=/nodes=/depth="),
                "a Shannon match limits each move by one of a clock, a time per move, nodes or \
                 depth, not several",
            ));
        }
        let tc = match (clock, engine.st, engine.nodes, engine.depth, engine.tc) {
            (Some(tc), ..) => tc,
            (_, Some(st), ..) => {
                TimeControl::MoveTime(Duration::from_millis(st.as_millis() as u64))
            }
            (_, _, Some(nodes), ..) => TimeControl::Nodes(nodes),
            (_, _, _, Some(depth), _) => TimeControl::Depth(depth),
            (_, _, _, _, Some(infinite)) => infinite,
            _ => {
                return Err(missing(
                    &label,
                    "a time control (tc=, st=, nodes= or depth=)",
                ))
            }
        };
        match first {
            None => first = Some(tc),
            Some(other) if other != tc => {
                return Err(CompatError::refused(
                    format!("{label} tc={}", tc.notation()),
                    format!(
                        "the engines' limits differ ({} and {}); a Shannon match gives both \
                         sides one",
                        other.notation(),
                        tc.notation()
                    ),
                ))
            }
            Some(_) => {}
        }
    }
    Ok(first.expect("two engines"))
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
