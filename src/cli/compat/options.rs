//! The options of a cutechess-cli/fastchess command line other than the engines' keys, each read
//! into [`Read`]: the match's settings, the files, the statistics, what is printed, and the
//! options accepted with a note or refused by name.

use super::echo::{LogLevel, LogSettings};
use super::engine::{dialect_of_key, EngineArgs};
use super::error::CompatError;
use super::read::Read;
use super::schedule::Policy;
use super::words::{boolean, number, pairs, single, Opt};
use super::{Dialect, OutputFormat, ResultFormat};
use shannon::arena::{DrawRule, OpeningSource, Openings, ResignRule, TbResults, TournamentKind};
use shannon::notation::pgn::MoveNotation;
use shannon::stats::{EloModel, Sprt};
use std::path::PathBuf;

/// Read one option into `read`: the match's settings here, what is printed and the rest in
/// [`read_run_option`].
pub(super) fn read_option(read: &mut Read, option: &Opt) -> Result<(), CompatError> {
    let name = option.name.as_str();
    let values = &option.values;
    match name {
        "-engine" => read_engine(read, values)?,
        "-quick" => read_quick(read, values)?,
        "-each" => read.each.extend(values.iter().cloned()),
        "-tournament" => read.tournament = Some(read_tournament(read, single(name, values)?)?),
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
        "-epdout" => read.epd = Some(read_epdout(read, values)?),
        "-sprt" => read_sprt(read, values)?,
        "-draw" => read.draw = Some(read_draw(values)?),
        "-resign" => read.resign = Some(read_resign(values)?),
        "-maxmoves" => read.maxmoves = Some(number(name, single(name, values)?)?),
        "-tb" | "-tbpieces" | "-tbignore50" | "-tbadjudicate" => read_tablebase(read, option)?,
        "-recover" => read.recover = true,
        // Both tools: the encounter's first engine White in every game.
        "-noswap" => read.noswap = true,
        // Both tools: every game's colours the other way round.
        "-reverse" => read.reverse = true,
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
        // fastchess's: config.json saved every N games of the run (0: at its end only).
        "-autosaveinterval" => {
            read.only(Dialect::Fastchess, name);
            number::<u32>(name, single(name, values)?)?;
        }
        "-event" => read.event = Some(words(name, values)?),
        "-site" => read.site = Some(words(name, values)?),
        _ => read_run_option(read, name, values)?,
    }
    Ok(())
}

/// Tablebase adjudication: `-tb PATHS` (folders separated by `:`, as both tools' probers split
/// them on Unix), `-tbpieces N`, `-tbignore50`, and fastchess's `-tbadjudicate
/// WIN_LOSS|DRAW|BOTH`. Without `-tb` the others change nothing, as in both tools.
fn read_tablebase(read: &mut Read, option: &Opt) -> Result<(), CompatError> {
    let (name, values) = (option.name.as_str(), &option.values);
    let tb = &mut read.tablebase;
    match name {
        "-tb" => {
            let paths = single(name, values)?;
            if paths.is_empty() {
                return Err(missing(name, "the folders of the Syzygy tables"));
            }
            tb.paths = Some(std::env::split_paths(paths).collect());
        }
        "-tbpieces" => tb.pieces = Some(number(name, single(name, values)?)?),
        "-tbignore50" => tb.ignore_50 = true,
        _ => {
            let word = single(name, values)?;
            tb.results = Some(match word {
                "WIN_LOSS" => TbResults::WinLoss,
                "DRAW" => TbResults::Draw,
                "BOTH" => TbResults::Both,
                _ => return Err(CompatError::malformed(name, word, "WIN_LOSS, DRAW or BOTH")),
            });
            read.only(Dialect::Fastchess, name);
        }
    }
    Ok(())
}

/// The options of what a run prints and how it runs.
fn read_run_option(read: &mut Read, name: &str, values: &[String]) -> Result<(), CompatError> {
    match name {
        "-output" => read_output(read, values)?,
        "-ratinginterval" => read.output.rating_interval = Some(interval(name, values)?),
        "-report" => read_report(read, values)?,
        "-scoreinterval" => {
            read.only(Dialect::Fastchess, name);
            read.output.score_interval = Some(interval(name, values)?);
        }
        "-outcomeinterval" => {
            read.only(Dialect::Cutechess, name);
            read.output.outcome_interval = Some(interval(name, values)?);
        }
        // cutechess-cli's: the rank table's columns (`help`: the formats, read in `parse`).
        "-resultformat" => {
            read.only(Dialect::Cutechess, name);
            read.output.result_format = Some(ResultFormat::parse(single(name, values)?));
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
        "-ping-ms" => {
            read.only(Dialect::Fastchess, name);
            read.ping_ms = Some(count(name, single(name, values)?)?.into());
        }
        "-crc32" => {
            read.only(Dialect::Fastchess, name);
            for (key, value) in pairs(name, values)? {
                match key.as_str() {
                    "pgn" => read.pgn_crc32 = boolean("-crc32 pgn", &value)?,
                    _ => return Err(CompatError::Unknown(format!("{name} {key}="))),
                }
            }
        }
        "-debug" => {
            read.only(Dialect::Cutechess, name);
            read.debug = Some(match values {
                [] => false,
                [all] if all == "all" => true,
                [other, ..] => return Err(CompatError::malformed(name, other, "all or nothing")),
            });
        }
        "-log" => read_log(read, values)?,
        // Both tools: a pause between games, in milliseconds.
        "-wait" => read.wait_ms = number(name, single(name, values)?)?,
        // Both tools: a gauntlet's first N players each play the others.
        "-seeds" => read.seeds = Some(number(name, single(name, values)?)?),
        _ => other_option(read, name)?,
    }
    Ok(())
}

/// `-engine KEY=VALUE ...`.
fn read_engine(read: &mut Read, values: &[String]) -> Result<(), CompatError> {
    if values.is_empty() {
        return Err(missing("-engine", "cmd=PROGRAM and other keys"));
    }
    let mut engine = EngineArgs::default();
    for word in values {
        engine.apply("-engine", word)?;
        let key = word.split('=').next().unwrap_or_default();
        if let Some(dialect) = dialect_of_key(key) {
            read.only(dialect, format!("-engine {key}"));
        }
    }
    read.engines.push(engine);
    Ok(())
}

/// fastchess's `-quick cmd=A cmd=B book=FILE`: its settings for a quick test, as fastchess sets
/// them (`parseQuick`): two engines named after their commands (`1` and `2` added when the same)
/// at 10+0.1, the book in random order, 25,000 rounds of game pairs, one game a core but two,
/// `-recover`, draw adjudication from move 30 (8 moves within 8 cp) and cutechess-cli's output.
/// The options after it apply on top.
fn read_quick(read: &mut Read, values: &[String]) -> Result<(), CompatError> {
    let name = "-quick";
    read.only(Dialect::Fastchess, name);
    let mut commands = Vec::new();
    for (key, value) in pairs(name, values)? {
        match key.as_str() {
            "cmd" => commands.push(value),
            "book" => {
                let format =
                    match value {
                        _ if value.ends_with(".pgn") => "pgn",
                        _ if value.ends_with(".epd") => "epd",
                        _ => return Err(CompatError::malformed(
                            "-quick book",
                            value,
                            "an opening file named .pgn or .epd (fastchess: Please include the \
                             .pgn or .epd file extension for the opening book.)",
                        )),
                    };
                read.format = Some(format.to_string());
                read.openings = Some(Openings {
                    source: OpeningSource::File(PathBuf::from(value)),
                    random: true,
                    ..Openings::default()
                });
            }
            _ => return Err(CompatError::Unknown(format!("{name} {key}="))),
        }
    }
    let [first, second] = commands.as_slice() else {
        // fastchess: Option "-quick" requires exactly two cmd entries.
        return Err(missing(name, "exactly two cmd= entries"));
    };
    if read.openings.is_none() {
        return Err(missing(name, "a book=FILE entry"));
    }
    let same = first == second;
    for (i, cmd) in [first, second].into_iter().enumerate() {
        let mut engine = EngineArgs::default();
        engine.apply(name, &format!("cmd={cmd}"))?;
        let suffix = if same {
            (i + 1).to_string()
        } else {
            String::new()
        };
        engine.name = Some(format!("{cmd}{suffix}"));
        engine.apply(name, "tc=10+0.1")?;
        read.engines.push(engine);
    }
    read.games = Some(2);
    read.repeat = None;
    read.rounds = Some(25_000);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    read.concurrency = Some(cores.saturating_sub(2).max(1));
    read.recover = true;
    read.draw = Some(DrawRule {
        move_number: 30,
        move_count: 8,
        score: 8,
        reset_by_irreversible: true,
    });
    read.output.format = Some(OutputFormat::Cutechess);
    Ok(())
}

/// fastchess's `-log file=F [level=trace|info|warn|err|fatal] [append=] [engine=] [realtime=]
/// [compress=]`.
fn read_log(read: &mut Read, values: &[String]) -> Result<(), CompatError> {
    let name = "-log";
    read.only(Dialect::Fastchess, name);
    let mut file = None;
    let mut settings = LogSettings {
        file: PathBuf::new(),
        level: LogLevel::Warn,
        append: true,
        engine: false,
    };
    for (key, value) in pairs(name, values)? {
        let label = format!("{name} {key}");
        match key.as_str() {
            "file" => file = Some(PathBuf::from(value)),
            "level" => {
                settings.level = LogLevel::parse(&value).ok_or_else(|| {
                    CompatError::malformed(&label, &value, "trace, info, warn, err or fatal")
                })?
            }
            "append" => settings.append = boolean(&label, &value)?,
            "engine" => settings.engine = boolean(&label, &value)?,
            // Every line is written as it happens.
            "realtime" => {
                boolean(&label, &value)?;
            }
            "compress" if boolean(&label, &value)? => {
                return Err(CompatError::refused(
                    "-log compress=true",
                    "Shannon writes the log uncompressed (gzip it after the run)",
                ))
            }
            "compress" => {}
            _ => return Err(CompatError::Unknown(format!("{name} {key}="))),
        }
    }
    // fastchess opens no log without a file.
    if let Some(file) = file {
        settings.file = file;
        read.log = Some(settings);
    }
    Ok(())
}

/// `-tournament round-robin|roundrobin|gauntlet|knockout` (the first spelling is
/// cutechess-cli's, the second fastchess's; a knockout is cutechess-cli's only).
fn read_tournament(read: &mut Read, value: &str) -> Result<TournamentKind, CompatError> {
    Ok(match value {
        "round-robin" => {
            read.only(Dialect::Cutechess, "-tournament round-robin");
            TournamentKind::RoundRobin
        }
        "roundrobin" => {
            read.only(Dialect::Fastchess, "-tournament roundrobin");
            TournamentKind::RoundRobin
        }
        "gauntlet" => TournamentKind::Gauntlet,
        "knockout" => {
            read.only(Dialect::Cutechess, "-tournament knockout");
            TournamentKind::Knockout
        }
        "pyramid" => {
            return Err(CompatError::refused(
                "-tournament pyramid",
                "Shannon plays round-robin, gauntlet and (cutechess-cli's) knockout tournaments",
            ))
        }
        _ => {
            return Err(CompatError::malformed(
                "-tournament",
                value,
                "round-robin, gauntlet or knockout",
            ))
        }
    })
}

/// `-epdout FILE` (cutechess-cli) or `-epdout file=F [append=true|false]` (fastchess).
fn read_epdout(read: &mut Read, values: &[String]) -> Result<PathBuf, CompatError> {
    let name = "-epdout";
    if let [file] = values {
        if !file.contains('=') {
            read.only(Dialect::Cutechess, "-epdout FILE");
            return Ok(PathBuf::from(file));
        }
    }
    read.only(Dialect::Fastchess, "-epdout file=");
    let mut file = None;
    for (key, value) in pairs(name, values)? {
        match key.as_str() {
            "file" => file = Some(PathBuf::from(value)),
            "append" => read.epd_append = boolean("-epdout append", &value)?,
            _ => return Err(CompatError::Unknown(format!("{name} {key}="))),
        }
    }
    file.ok_or_else(|| missing(name, "file=NAME"))
}

/// `-output format=cutechess|fastchess` (fastchess's).
fn read_output(read: &mut Read, values: &[String]) -> Result<(), CompatError> {
    let name = "-output";
    read.only(Dialect::Fastchess, name);
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
            _ => return Err(CompatError::Unknown(format!("{name} {key}="))),
        });
    }
    Ok(())
}

/// fastchess's `-report penta=true|false`: the rating blocks on game pairs (the pentanomial,
/// the default) or on single games.
fn read_report(read: &mut Read, values: &[String]) -> Result<(), CompatError> {
    let name = "-report";
    read.only(Dialect::Fastchess, name);
    for (key, value) in pairs(name, values)? {
        match key.as_str() {
            "penta" => read.output.penta = Some(boolean("-report penta", &value)?),
            _ => return Err(CompatError::Unknown(format!("{name} {key}="))),
        }
    }
    Ok(())
}

/// Options accepted with a note (they change nothing Shannon does), and the ones refused.
fn other_option(read: &mut Read, name: &str) -> Result<(), CompatError> {
    let fastchess_notes = [
        ("-testEnv", "no effect"),
        ("-check-mate-pvs", "engine PVs are not checked"),
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
    ];
    if let Some((_, note)) = fastchess_notes.iter().find(|(n, _)| *n == name) {
        read.only(Dialect::Fastchess, name);
        read.note(name, &format!("accepted, {note}"));
        return Ok(());
    }
    let cutechess_notes = [("-bookmode", "books are read the one way Shannon reads them")];
    if let Some((_, note)) = cutechess_notes.iter().find(|(n, _)| *n == name) {
        read.only(Dialect::Cutechess, name);
        read.note(name, &format!("accepted, {note}"));
        return Ok(());
    }
    Err(CompatError::Unknown(name.to_string()))
}

pub(super) fn count(option: &str, word: &str) -> Result<u32, CompatError> {
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

pub(super) fn missing(option: &str, expected: &str) -> CompatError {
    CompatError::Missing {
        option: option.into(),
        expected: expected.into(),
    }
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
            "notation" => {
                read.pgn_notation = match value.as_str() {
                    "san" => MoveNotation::San,
                    "lan" => MoveNotation::Lan,
                    "uci" => MoveNotation::Uci,
                    _ => return Err(CompatError::malformed(label, value, "san, lan or uci")),
                }
            }
            "min" => read.pgn_min = boolean(&label, &value)?,
            "append" => read.pgn_append = boolean(&label, &value)?,
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

/// `-sprt elo0=E0 elo1=E1 alpha=A beta=B [model=normalized|logistic|bayesian]` (`model=` is
/// fastchess's; whose test it is, the tool's, is settled with the dialect).
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
                // fastchess: "Error; SPRT: invalid SPRT model!".
                let model = value.parse::<EloModel>().map_err(|_| {
                    CompatError::malformed(
                        "-sprt model",
                        &value,
                        "normalized, logistic or bayesian",
                    )
                })?;
                read.sprt_model = Some(model);
                continue;
            }
            _ => return Err(CompatError::Unknown(format!("{name} {key}="))),
        };
        found[slot] = Some(number::<f64>(&format!("{name} {key}"), &value)?);
    }
    let [Some(elo0), Some(elo1), Some(alpha), Some(beta)] = found else {
        return Err(missing(name, "elo0=, elo1=, alpha= and beta="));
    };
    read.sprt = Some(Sprt::new(elo0, elo1, alpha, beta).map_err(|error| {
        CompatError::malformed(
            name,
            values.join(" "),
            format!("a test that can run: {error}"),
        )
    })?);
    Ok(())
}

/// `-draw movenumber=N movecount=M score=S` (fastchess's defaults: 0, 1, 0); as both tools
/// count, a capture or a pawn move starts the count again.
fn read_draw(values: &[String]) -> Result<DrawRule, CompatError> {
    let mut rule = DrawRule {
        move_number: 0,
        move_count: 1,
        score: 0,
        reset_by_irreversible: true,
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
