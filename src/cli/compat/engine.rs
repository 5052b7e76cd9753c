//! `-engine` and `-each`: an engine's keys (`cmd=`, `name=`, `option.Hash=16`, `tc=`, ...) read
//! into an [`EngineConfig`] and the engine's limits, which [`super::resolve`] makes the engine's
//! [`shannon::client::TimeControl`].

use super::engines_json::SavedEngine;
use super::error::CompatError;
use super::words::number;
use super::Dialect;
use shannon::client::Pace;
use shannon::client::{EngineConfig, Protocol};
use std::path::PathBuf;
use std::time::Duration;

/// What the keys of one engine said, before the match's settings are made of them.
#[derive(Debug, Clone, Default)]
pub struct EngineArgs {
    /// `cmd=`.
    pub cmd: Option<String>,
    /// `name=`.
    pub name: Option<String>,
    /// `dir=`.
    pub dir: Option<PathBuf>,
    /// `arg=` (each one word) and `args=` (words).
    pub args: Vec<String>,
    /// `option.NAME=VALUE`, in order.
    pub options: Vec<(String, String)>,
    /// `tc=`: a clock, or `inf`.
    pub tc: Option<Pace>,
    /// `st=`: seconds per move.
    pub st: Option<Duration>,
    /// `nodes=`.
    pub nodes: Option<u64>,
    /// `depth=` / `plies=`.
    pub depth: Option<u32>,
    /// `timemargin=`, in milliseconds.
    pub timemargin: Option<u64>,
    /// `book=`.
    pub book: Option<PathBuf>,
    /// `bookdepth=`.
    pub bookdepth: Option<u32>,
    /// `stderr=`.
    pub stderr: Option<PathBuf>,
    /// `proto=`.
    pub protocol: Protocol,
    /// `restart=on`: the engine starts anew for every game.
    pub restart: bool,
    /// `debug` (cutechess-cli's): `debug on` before each game.
    pub debug: bool,
    /// `ponder` (cutechess-cli's): the engine ponders.
    pub ponder: bool,
    /// `initstr=TEXT` (cutechess-cli's, each `\n` in it a line break; repeated, added):
    /// lines written to the engine before its handshake.
    pub init_lines: Vec<String>,
}

/// Keys only one of the tools has: they tell whose command line this is.
pub fn dialect_of_key(key: &str) -> Option<Dialect> {
    match key {
        "arg" | "stderr" | "book" | "bookdepth" | "initstr" | "conf" | "whitepov" | "trust"
        | "tscale" | "ponder" | "debug" => Some(Dialect::Cutechess),
        "args" | "plies" => Some(Dialect::Fastchess),
        _ => None,
    }
}

/// Keys refused whatever their value, and why.
fn refused_key(key: &str) -> Option<&'static str> {
    Some(match key {
        "whitepov" => "scores are read from the side to move, as UCI defines them",
        "trust" => "every move and result is checked by Shannon's rules; none is trusted",
        "tscale" => "Shannon's timeouts are not scaled",
        _ => return None,
    })
}

impl EngineArgs {
    /// `conf=NAME`: as cutechess-cli does, the saved engine's whole configuration (command,
    /// name, working directory, stderr file, options, protocol) replaces what the keys before
    /// it set; the keys after it (and `-each`) apply on top.
    pub fn start_from(&mut self, saved: SavedEngine) {
        *self = EngineArgs {
            cmd: Some(saved.cmd),
            name: Some(saved.name),
            dir: saved.dir,
            args: Vec::new(),
            options: saved.options,
            stderr: saved.stderr,
            protocol: saved.protocol,
            restart: saved.restart,
            ponder: saved.ponder,
            init_lines: saved.init_lines,
            // The limits and the book are not the configuration's (cutechess-cli keeps them).
            ..std::mem::take(self)
        };
    }

    /// Read one word of `-engine`/`-each` (`option` names it in errors).
    pub fn apply(&mut self, option: &str, word: &str) -> Result<(), CompatError> {
        let (key, value) = word.split_once('=').unwrap_or((word, ""));
        let label = format!("{option} {key}");
        if let Some(why) = refused_key(key) {
            return Err(CompatError::refused(label, why));
        }
        // cutechess-cli's `debug`: the engine's UCI debug mode (`debug on` before each game).
        if word == "debug" {
            self.debug = true;
            return Ok(());
        }
        // cutechess-cli's `ponder`: the engine ponders (when it declares `Ponder`).
        if word == "ponder" {
            self.ponder = true;
            return Ok(());
        }
        if value.is_empty() {
            return Err(CompatError::malformed(option, word, "key=value"));
        }
        let seconds = |text: &str| -> Result<Duration, CompatError> {
            text.parse::<f64>()
                .ok()
                .filter(|s| *s > 0.0 && *s < 1e9)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| CompatError::malformed(&label, text, "a number of seconds"))
        };
        match key {
            "conf" => self.start_from(super::engines_json::EnginesFile::load()?.saved(value)?),
            "cmd" => self.cmd = Some(value.to_string()),
            "name" => self.name = Some(value.to_string()),
            "dir" => self.dir = Some(PathBuf::from(value)),
            "arg" => self.args.push(value.to_string()),
            "args" => self
                .args
                .extend(value.split_whitespace().map(str::to_string)),
            "proto" => match value {
                "uci" => self.protocol = Protocol::Uci,
                "xboard" => self.protocol = Protocol::Xboard,
                _ => return Err(CompatError::malformed(label, value, "uci or xboard")),
            },
            "tc" => self.tc = Some(time_control(&label, value)?),
            "st" => self.st = Some(seconds(value)?),
            "nodes" => self.nodes = Some(positive(&label, value)?),
            "depth" | "plies" => self.depth = Some(positive(&label, value)?),
            "timemargin" => self.timemargin = Some(number(&label, value)?),
            "book" => self.book = Some(PathBuf::from(value)),
            "bookdepth" => self.bookdepth = Some(positive(&label, value)?),
            "stderr" => self.stderr = Some(PathBuf::from(value)),
            // As cutechess-cli: `\n` (backslash, n) breaks the text into lines.
            "initstr" => self
                .init_lines
                .extend(value.replace("\\n", "\n").split('\n').map(str::to_string)),
            // Both tools: `on` starts the engine anew for every game; `auto` (cutechess-cli's
            // default) restarts it when it asks, as an xboard engine's `reuse=0` does.
            "restart" => match value {
                "auto" | "off" => self.restart = false,
                "on" => self.restart = true,
                _ => return Err(CompatError::malformed(label, value, "auto, on or off")),
            },
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    self.options.push((name.to_string(), value.to_string()))
                }
                _ => {
                    return Err(CompatError::Unknown(format!("{option} {key}=")));
                }
            },
        }
        Ok(())
    }

    /// The engine to start: named by `name=`, else by its program's file name.
    pub fn config(&self, index: usize) -> Result<EngineConfig, CompatError> {
        let cmd = self.cmd.as_deref().ok_or_else(|| CompatError::Missing {
            option: format!("-engine #{}", index + 1),
            expected: "cmd=PROGRAM".into(),
        })?;
        // The command as written: it is found in `dir` when relative ([`EngineConfig::dir`]).
        let mut engine = EngineConfig::from_command(cmd);
        if let Some(name) = &self.name {
            engine.name = name.clone();
        }
        engine.dir = self.dir.clone();
        engine.args = self.args.clone();
        engine.options = self
            .options
            .iter()
            .map(|(name, value)| (name.clone(), toml::Value::String(value.clone())))
            .collect();
        engine.book = self.book.clone();
        // cutechess-cli's book depth is unlimited unless bookdepth= says (its 1000 moves).
        engine.book_depth = self.bookdepth.or(self.book.as_ref().map(|_| 1000));
        engine.stderr = self.stderr.clone();
        engine.protocol = self.protocol;
        engine.restart = self.restart;
        engine.debug = self.debug;
        engine.ponder = self.ponder;
        engine.init_lines.clone_from(&self.init_lines);
        Ok(engine)
    }
}

fn positive<T: std::str::FromStr + PartialOrd + Default>(
    label: &str,
    value: &str,
) -> Result<T, CompatError> {
    value
        .parse::<T>()
        .ok()
        .filter(|n| *n > T::default())
        .ok_or_else(|| CompatError::malformed(label, value, "a number above 0"))
}

/// `tc=`: Cute Chess's notation (`40/60+0.6`, `10+0.1`, `1:30+1`, `inf`); fastchess's hourglass is
/// refused by name.
fn time_control(label: &str, value: &str) -> Result<Pace, CompatError> {
    if value.contains("hg") {
        return Err(CompatError::refused(
            format!("{label}={value}"),
            "hourglass time controls are not played",
        ));
    }
    let expected = "a time control (40/60+0.6, 10+0.1, 1:30+1 or inf)";
    // fastchess also reads an increment written with its unit: 2+0.02s.
    let value = match value.split_once('+') {
        Some((base, increment)) if increment.len() > 1 && increment.ends_with('s') => {
            format!("{base}+{}", &increment[..increment.len() - 1])
        }
        _ => value.to_string(),
    };
    match value.parse::<Pace>() {
        Ok(pace @ (Pace::Clock { .. } | Pace::Infinite)) => Ok(pace),
        _ => Err(CompatError::malformed(label, value, expected)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_engine_replaces_the_keys_before_it_but_not_the_limits() {
        let mut args = EngineArgs {
            cmd: Some("before".into()),
            args: vec!["--old".into()],
            nodes: Some(3000),
            ..EngineArgs::default()
        };
        args.start_from(SavedEngine {
            name: "Stockfish 16".into(),
            cmd: "stockfish".into(),
            dir: Some(PathBuf::from("/opt/engines")),
            options: vec![("Hash".into(), "64".into())],
            stderr: None,
            protocol: Protocol::Xboard,
            restart: true,
            ponder: true,
            init_lines: vec!["cores 1".into()],
        });
        assert!(args.restart, "\"restart\": \"on\" is the configuration's");
        assert_eq!(args.init_lines, ["cores 1"]);
        assert!(args.ponder, "\"ponder\": true is the configuration's");
        assert_eq!(args.cmd.as_deref(), Some("stockfish"));
        assert_eq!(args.name.as_deref(), Some("Stockfish 16"));
        assert_eq!(args.dir, Some(PathBuf::from("/opt/engines")));
        assert!(args.args.is_empty());
        assert_eq!(args.options, [("Hash".to_string(), "64".to_string())]);
        assert_eq!(args.protocol, Protocol::Xboard);
        assert_eq!(args.nodes, Some(3000), "limits are not the configuration's");
    }

    #[test]
    fn keys_fill_the_engine() {
        let mut engine = EngineArgs::default();
        for word in [
            "cmd=/bin/sh",
            "name=dev",
            "option.Hash=16",
            "option.Move Generator=0x88",
            "arg=--uci",
            "args=-a -b",
            "tc=40/60+0.6",
            "timemargin=250",
            "proto=uci",
        ] {
            engine.apply("-engine", word).unwrap();
        }
        let config = engine.config(0).unwrap();
        assert_eq!(config.name, "dev");
        assert_eq!(config.args, ["--uci", "-a", "-b"]);
        assert_eq!(
            config.option_values(),
            [
                ("Hash".to_string(), "16".to_string()),
                ("Move Generator".to_string(), "0x88".to_string())
            ]
        );
        assert_eq!(engine.tc, Some("40/60+0.6".parse().unwrap()));
        engine.apply("-each", "tc=2+0.02s").unwrap();
        assert_eq!(engine.tc, Some("2+0.02".parse().unwrap()));
        assert_eq!(engine.timemargin, Some(250));
        engine.apply("-each", "proto=xboard").unwrap();
        assert_eq!(engine.protocol, Protocol::Xboard);
        assert!(engine.apply("-each", "proto=cecp").is_err());
        assert!(engine.apply("-engine", "tc=movetime=5").is_err());
        engine.apply("-engine", "ponder").unwrap();
        assert!(engine.ponder);
        assert!(matches!(
            engine.apply("-engine", "colour=red"),
            Err(CompatError::Unknown(_))
        ));
    }
}
