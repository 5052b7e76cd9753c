//! fastchess's options and its `config.json`, both ways: the options that make a saved run again
//! ([`FastchessConfig::options`]), and the configuration fastchess's option parser makes of a
//! command line ([`FastchessConfig::of_options`]).

use super::super::words::Opt;
use super::{EngineJson, FastchessConfig, LimitJson, TcJson, NEVER};
use std::path::Path;

/// Milliseconds as fastchess's time controls write seconds: `10`, `0.1`, `2.5`.
fn seconds(ms: i64) -> String {
    let text = format!("{}.{:03}", ms / 1000, (ms % 1000).abs());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Seconds as fastchess reads them into milliseconds (`std::stod(x) * 1000`, cut).
fn millis(text: &str) -> Option<i64> {
    text.parse::<f64>().ok().map(|s| (s * 1000.0) as i64)
}

fn opt(name: &str, values: Vec<String>) -> Opt {
    Opt {
        name: name.into(),
        values,
    }
}

fn flag(value: bool) -> &'static str {
    match value {
        true => "true",
        false => "false",
    }
}

impl EngineJson {
    /// fastchess's `-engine` keys for it.
    pub(super) fn words(&self) -> Vec<String> {
        let mut words = vec![format!("cmd={}", self.cmd), format!("name={}", self.name)];
        if !self.dir.is_empty() {
            words.push(format!("dir={}", self.dir));
        }
        if !self.args.is_empty() {
            words.push(format!("args={}", self.args));
        }
        if self.restart {
            words.push("restart=on".into());
        }
        let tc = &self.limit.tc;
        if tc.fixed_time > 0 {
            words.push(format!("st={}", seconds(tc.fixed_time)));
        } else if tc.time > 0 || tc.increment > 0 {
            let moves = match tc.moves > 0 {
                true => format!("{}/", tc.moves),
                false => String::new(),
            };
            let increment = match tc.increment > 0 {
                true => format!("+{}", seconds(tc.increment)),
                false => String::new(),
            };
            words.push(format!("tc={moves}{}{increment}", seconds(tc.time)));
        } else {
            words.push("tc=inf".into());
        }
        if tc.timemargin > 0 {
            words.push(format!("timemargin={}", tc.timemargin));
        }
        if self.limit.nodes > 0 {
            words.push(format!("nodes={}", self.limit.nodes));
        }
        if self.limit.plies > 0 {
            words.push(format!("plies={}", self.limit.plies));
        }
        for (name, value) in &self.options {
            words.push(format!("option.{name}={value}"));
        }
        words
    }
}

impl FastchessConfig {
    /// The options of fastchess's command line that make this run again (what fastchess takes
    /// from the file when `-config file=` loads it: everything the file holds; the defaults
    /// left out, so that the line is the one that made the run).
    pub fn options(&self) -> Vec<Opt> {
        let mut options = Vec::new();
        for engine in &self.engines {
            options.push(opt("-engine", engine.words()));
        }
        let fastchess = FastchessConfig::default();
        if self.variant == 1 {
            options.push(opt("-variant", vec!["fischerandom".into()]));
        }
        if self.kind == 1 {
            options.push(opt("-tournament", vec!["gauntlet".into()]));
        }
        if self.gauntlet_seeds != 1 {
            options.push(opt("-seeds", vec![self.gauntlet_seeds.to_string()]));
        }
        options.push(opt("-games", vec![self.games.to_string()]));
        options.push(opt("-rounds", vec![self.rounds.to_string()]));
        if self.concurrency != fastchess.concurrency {
            options.push(opt("-concurrency", vec![self.concurrency.to_string()]));
        }
        options.push(opt("-srand", vec![self.seed.to_string()]));
        let o = &self.opening;
        if !o.file.is_empty() {
            let mut words = vec![format!("file={}", o.file)];
            match o.format {
                0 => words.push("format=epd".into()),
                1 => words.push("format=pgn".into()),
                _ => {}
            }
            words.push(format!(
                "order={}",
                if o.order == 0 { "random" } else { "sequential" }
            ));
            if o.plies >= 0 {
                words.push(format!("plies={}", o.plies));
            }
            if o.start != 1 {
                words.push(format!("start={}", o.start));
            }
            options.push(opt("-openings", words));
        }
        let p = &self.pgn;
        if !p.file.is_empty() {
            let mut words = vec![format!("file={}", p.file)];
            if p.min {
                words.push("min=true".into());
            }
            match p.notation {
                1 => words.push("notation=lan".into()),
                2 => words.push("notation=uci".into()),
                _ => {}
            }
            if !p.append_file {
                words.push("append=false".into());
            }
            for (key, on) in [
                ("nodes", p.track_nodes),
                ("seldepth", p.track_seldepth),
                ("nps", p.track_nps),
                ("hashfull", p.track_hashfull),
                ("tbhits", p.track_tbhits),
                ("timeleft", p.track_timeleft),
                ("latency", p.track_latency),
                ("pv", p.track_pv),
            ] {
                if on {
                    words.push(format!("{key}=true"));
                }
            }
            for line in &p.additional_lines_rgx {
                words.push(format!("match_line={line}"));
            }
            options.push(opt("-pgnout", words));
        }
        if p.crc {
            options.push(opt("-crc32", vec!["pgn=true".into()]));
        }
        if p.event_name != fastchess.pgn.event_name {
            options.push(opt("-event", vec![p.event_name.clone()]));
        }
        if p.site != fastchess.pgn.site {
            options.push(opt("-site", vec![p.site.clone()]));
        }
        if !self.epd.file.is_empty() {
            let mut words = vec![format!("file={}", self.epd.file)];
            if !self.epd.append_file {
                words.push("append=false".into());
            }
            options.push(opt("-epdout", words));
        }
        let s = &self.sprt;
        if s.enabled {
            options.push(opt(
                "-sprt",
                vec![
                    format!("elo0={}", s.elo0),
                    format!("elo1={}", s.elo1),
                    format!("alpha={}", s.alpha),
                    format!("beta={}", s.beta),
                    format!("model={}", s.model),
                ],
            ));
        }
        let d = &self.draw;
        if d.enabled {
            options.push(opt(
                "-draw",
                vec![
                    format!("movenumber={}", d.move_number),
                    format!("movecount={}", d.move_count),
                    format!("score={}", d.score),
                ],
            ));
        }
        let r = &self.resign;
        if r.enabled {
            let mut words = vec![
                format!("movecount={}", r.move_count),
                format!("score={}", r.score),
            ];
            if r.twosided {
                words.push("twosided=true".into());
            }
            options.push(opt("-resign", words));
        }
        if self.maxmoves.enabled {
            options.push(opt("-maxmoves", vec![self.maxmoves.move_count.to_string()]));
        }
        let tb = &self.tb_adjudication;
        if tb.enabled {
            options.push(opt("-tb", vec![tb.syzygy_dirs.clone()]));
            if tb.max_pieces > 0 {
                options.push(opt("-tbpieces", vec![tb.max_pieces.to_string()]));
            }
            if tb.ignore_50_move_rule {
                options.push(opt("-tbignore50", Vec::new()));
            }
        }
        if self.output == 1 {
            options.push(opt("-output", vec!["format=cutechess".into()]));
        }
        let interval = |n: i64| if n >= NEVER { 0 } else { n };
        if self.ratinginterval != fastchess.ratinginterval {
            options.push(opt(
                "-ratinginterval",
                vec![interval(self.ratinginterval).to_string()],
            ));
        }
        if self.scoreinterval != fastchess.scoreinterval {
            options.push(opt(
                "-scoreinterval",
                vec![interval(self.scoreinterval).to_string()],
            ));
        }
        if self.wait > 0 {
            options.push(opt("-wait", vec![self.wait.to_string()]));
        }
        if self.autosaveinterval != fastchess.autosaveinterval {
            options.push(opt(
                "-autosaveinterval",
                vec![self.autosaveinterval.to_string()],
            ));
        }
        // fastchess turns the pentanomial off itself for -games other than 2 and cutechess's
        // output; only a -report penta=false of a pair-playing run is the command line's.
        if !self.report_penta && self.games == 2 && self.output != 1 {
            options.push(opt("-report", vec!["penta=false".into()]));
        }
        for (name, on) in [
            ("-force-concurrency", self.force_concurrency),
            ("-recover", self.recover),
            ("-noswap", self.noswap),
            ("-reverse", self.reverse),
            ("-use-affinity", self.affinity),
            ("-check-mate-pvs", self.check_mate_pvs),
            ("-show-latency", self.show_latency),
        ] {
            if on {
                options.push(opt(name, Vec::new()));
            }
        }
        let l = &self.log;
        if !l.file.is_empty() {
            let level = ["trace", "trace", "info", "warn", "err", "fatal"][l.level as usize];
            options.push(opt(
                "-log",
                vec![
                    format!("file={}", l.file),
                    format!("level={level}"),
                    format!("append={}", flag(l.append_file)),
                    format!("compress={}", flag(l.compress)),
                    format!("realtime={}", flag(l.realtime)),
                    format!("engine={}", flag(l.engine_coms)),
                ],
            ));
        }
        options
    }

    /// The configuration fastchess makes of `options` (its option parser, then its
    /// `sanitize`), with `seed` for a run whose line gives none (fastchess draws one).
    pub fn of_options(options: &[Opt], seed: u64) -> FastchessConfig {
        let mut config = FastchessConfig {
            seed,
            ..FastchessConfig::default()
        };
        let mut each: Vec<String> = Vec::new();
        for option in options {
            let values = &option.values;
            let first = values.first().map(String::as_str).unwrap_or_default();
            let number = |text: &str| text.parse::<i64>().unwrap_or_default();
            let pairs = || {
                values
                    .iter()
                    .filter_map(|w| w.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect::<Vec<_>>()
            };
            match option.name.as_str() {
                "-engine" => {
                    let mut engine = EngineJson {
                        name: String::new(),
                        dir: String::new(),
                        cmd: String::new(),
                        args: String::new(),
                        restart: false,
                        options: Vec::new(),
                        limit: LimitJson::default(),
                        variant: 0,
                    };
                    for (key, value) in pairs() {
                        engine_key(&mut engine, &key, &value);
                    }
                    config.engines.push(engine);
                }
                "-each" => each.extend(values.iter().cloned()),
                "-games" => config.games = number(first),
                "-rounds" => config.rounds = number(first),
                "-repeat" => {
                    config.games = match values.as_slice() {
                        [n] if n.parse::<i64>().is_ok() => number(n),
                        _ => 2,
                    }
                }
                "-concurrency" => config.concurrency = number(first),
                "-srand" => config.seed = first.parse().unwrap_or(seed),
                "-wait" => config.wait = number(first),
                "-ratinginterval" => config.ratinginterval = number(first),
                "-scoreinterval" => config.scoreinterval = number(first),
                "-autosaveinterval" => config.autosaveinterval = number(first),
                "-seeds" => config.gauntlet_seeds = number(first),
                "-maxmoves" => {
                    config.maxmoves.move_count = number(first);
                    config.maxmoves.enabled = true;
                }
                "-tb" => {
                    config.tb_adjudication.syzygy_dirs = first.into();
                    config.tb_adjudication.enabled = true;
                }
                "-tbpieces" => config.tb_adjudication.max_pieces = number(first),
                "-tbignore50" => config.tb_adjudication.ignore_50_move_rule = true,
                "-variant" if first == "fischerandom" => config.variant = 1,
                "-tournament" if first == "gauntlet" => config.kind = 1,
                "-tournament" => config.kind = 0,
                "-noswap" => config.noswap = true,
                "-reverse" => config.reverse = true,
                "-recover" => config.recover = true,
                "-force-concurrency" => config.force_concurrency = true,
                "-use-affinity" => config.affinity = true,
                "-check-mate-pvs" => config.check_mate_pvs = true,
                "-show-latency" => config.show_latency = true,
                "-event" => config.pgn.event_name = values.join(" "),
                "-site" => config.pgn.site = values.join(" "),
                "-output" => {
                    for (key, value) in pairs() {
                        if key == "format" {
                            config.output = i64::from(value == "cutechess");
                        }
                    }
                }
                "-report" => {
                    for (key, value) in pairs() {
                        if key == "penta" {
                            config.report_penta = value == "true";
                        }
                    }
                }
                "-crc32" => {
                    for (key, value) in pairs() {
                        if key == "pgn" {
                            config.pgn.crc = value == "true";
                        }
                    }
                }
                "-openings" => {
                    for (key, value) in pairs() {
                        let o = &mut config.opening;
                        match key.as_str() {
                            "file" => {
                                o.file = value.clone();
                                if value.ends_with(".epd") {
                                    o.format = 0;
                                } else if value.ends_with(".pgn") {
                                    o.format = 1;
                                }
                            }
                            "format" => o.format = if value == "pgn" { 1 } else { 0 },
                            "order" => o.order = i64::from(value != "random"),
                            "plies" => o.plies = number(&value),
                            "start" => o.start = number(&value),
                            _ => {}
                        }
                    }
                }
                "-pgnout" => {
                    let p = &mut config.pgn;
                    for (key, value) in pairs() {
                        let on = value == "true";
                        match key.as_str() {
                            "file" => p.file = value,
                            "append" => p.append_file = on,
                            "min" => p.min = on,
                            "notation" => {
                                p.notation = match value.as_str() {
                                    "lan" => 1,
                                    "uci" => 2,
                                    _ => 0,
                                }
                            }
                            "nodes" => p.track_nodes = on,
                            "seldepth" => p.track_seldepth = on,
                            "nps" => p.track_nps = on,
                            "hashfull" => p.track_hashfull = on,
                            "tbhits" => p.track_tbhits = on,
                            "timeleft" => p.track_timeleft = on,
                            "latency" => p.track_latency = on,
                            "pv" => p.track_pv = on,
                            "match_line" => p.additional_lines_rgx.push(value),
                            _ => {}
                        }
                    }
                }
                "-epdout" => {
                    for (key, value) in pairs() {
                        match key.as_str() {
                            "file" => config.epd.file = value,
                            "append" => config.epd.append_file = value == "true",
                            _ => {}
                        }
                    }
                }
                "-sprt" => {
                    config.sprt.enabled = true;
                    for (key, value) in pairs() {
                        let x = value.parse::<f64>().unwrap_or_default();
                        match key.as_str() {
                            "elo0" => config.sprt.elo0 = x,
                            "elo1" => config.sprt.elo1 = x,
                            "alpha" => config.sprt.alpha = x,
                            "beta" => config.sprt.beta = x,
                            "model" => config.sprt.model = value,
                            _ => {}
                        }
                    }
                }
                "-draw" => {
                    config.draw.enabled = true;
                    for (key, value) in pairs() {
                        match key.as_str() {
                            "movenumber" => config.draw.move_number = number(&value),
                            "movecount" => config.draw.move_count = number(&value),
                            "score" => config.draw.score = number(&value),
                            _ => {}
                        }
                    }
                }
                "-resign" => {
                    config.resign.enabled = true;
                    for (key, value) in pairs() {
                        match key.as_str() {
                            "movecount" => config.resign.move_count = number(&value),
                            "score" => config.resign.score = number(&value),
                            "twosided" => config.resign.twosided = value == "true",
                            _ => {}
                        }
                    }
                }
                "-log" => {
                    for (key, value) in pairs() {
                        let l = &mut config.log;
                        match key.as_str() {
                            "file" => l.file = value,
                            "level" => {
                                l.level = match value.as_str() {
                                    "trace" => 1,
                                    "info" => 2,
                                    "err" => 4,
                                    "fatal" => 5,
                                    _ => 3,
                                }
                            }
                            "append" => l.append_file = value == "true",
                            "compress" => l.compress = value == "true",
                            "realtime" => l.realtime = value == "true",
                            "engine" => l.engine_coms = value == "true",
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        // fastchess applies -each after every -engine, whatever their order.
        for engine in &mut config.engines {
            for word in &each {
                if let Some((key, value)) = word.split_once('=') {
                    engine_key(engine, key, value);
                }
            }
        }
        for engine in &mut config.engines {
            engine.variant = config.variant;
            if engine.name.is_empty() {
                engine.name = Path::new(&engine.cmd)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
            }
        }
        // fastchess's sanitize: -games above 2 swapped with -rounds, the pentanomial off with
        // cutechess's output or other than 2 games, intervals of 0 made INT_MAX.
        if config.games > 2 {
            std::mem::swap(&mut config.games, &mut config.rounds);
        }
        if config.report_penta && (config.output == 1 || config.games != 2) {
            config.report_penta = false;
        }
        if config.ratinginterval == 0 {
            config.ratinginterval = NEVER;
        }
        if config.scoreinterval == 0 {
            config.scoreinterval = NEVER;
        }
        config
    }
}

/// One `-engine`/`-each` key, as fastchess's `parseEngineKeyValues` sets it.
fn engine_key(engine: &mut EngineJson, key: &str, value: &str) {
    let tc = &mut engine.limit.tc;
    match key {
        "cmd" => engine.cmd = value.into(),
        "name" => engine.name = value.into(),
        "tc" => {
            *tc = parse_tc(value).unwrap_or_default();
        }
        "st" => tc.fixed_time = millis(value).unwrap_or_default(),
        "timemargin" => tc.timemargin = value.parse().unwrap_or_default(),
        "nodes" => engine.limit.nodes = value.parse().unwrap_or_default(),
        "plies" | "depth" => engine.limit.plies = value.parse().unwrap_or_default(),
        "dir" => engine.dir = value.into(),
        "args" => engine.args = value.into(),
        "restart" => engine.restart = value == "on",
        _ => {
            if let Some(name) = key.strip_prefix("option.") {
                engine.options.push((name.into(), value.into()));
            }
        }
    }
}

/// fastchess's `parseTc`: `40/60+0.6`, `1:30+1`, `10`, `inf`.
fn parse_tc(text: &str) -> Option<TcJson> {
    let mut tc = TcJson::default();
    if text == "inf" || text == "infinite" {
        return Some(tc);
    }
    let mut rest = text;
    if let Some((moves, after)) = text.split_once('/') {
        tc.moves = match moves {
            "inf" | "infinite" => 0,
            _ => moves.parse().ok()?,
        };
        rest = after;
    }
    if let Some((base, increment)) = rest.split_once('+') {
        tc.increment = millis(increment)?;
        rest = base;
    }
    tc.time = match rest.split_once(':') {
        Some((minutes, secs)) => millis(minutes)? * 60 + millis(secs)?,
        None => millis(rest)?,
    };
    Some(tc)
}
