//! Cute Chess's `engines.json` (the `cutechess-engines.json(5)` man page): the engines its GUI
//! keeps, which cutechess-cli's `-engine conf=NAME` starts from and `-engines` lists.
//!
//! Found where cutechess-cli looks (`CuteChessCoreApplication`): `engines.json` in the current
//! directory, else in Cute Chess's configuration folder (Qt's INI settings of organisation and
//! application `cutechess`: `$XDG_CONFIG_HOME/cutechess/`, by default `~/.config/cutechess/`).
//! No file means no engines. A file that is not an array of engine objects is an error naming
//! the file (cutechess-cli warns and goes on without engines, so `conf=` then fails).

use super::error::CompatError;
use serde_json::Value;
use shannon::client::Protocol;
use std::path::{Path, PathBuf};

/// One engine as `engines.json` keeps it: what `-engine conf=NAME` takes from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedEngine {
    /// `"name"`.
    pub name: String,
    /// `"command"`.
    pub cmd: String,
    /// `"workingDirectory"`.
    pub dir: Option<PathBuf>,
    /// `"options"` (name, value), buttons left out.
    pub options: Vec<(String, String)>,
    /// `"stderrFile"`.
    pub stderr: Option<PathBuf>,
    /// `"protocol"`.
    pub protocol: Protocol,
    /// `"restart": "on"`: the engine starts anew for every game.
    pub restart: bool,
    /// `"ponder": true`: the engine ponders.
    pub ponder: bool,
    /// `"initStrings"`: lines written to the engine before its handshake.
    pub init_lines: Vec<String>,
}

/// The engines of one `engines.json`.
#[derive(Debug)]
pub struct EnginesFile {
    path: PathBuf,
    engines: Vec<serde_json::Map<String, Value>>,
}

/// Where cutechess-cli reads `engines.json`: the current directory's, else the one in its
/// configuration folder; `None` when neither exists.
pub fn locate() -> Option<PathBuf> {
    let here = PathBuf::from("engines.json");
    if here.is_file() {
        return Some(here);
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|dir| Path::new(dir).is_absolute())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))?;
    Some(config.join("cutechess").join("engines.json")).filter(|path| path.is_file())
}

impl EnginesFile {
    /// The file cutechess-cli would read, or an empty list when there is none.
    pub fn load() -> Result<EnginesFile, CompatError> {
        match locate() {
            Some(path) => {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| bad(&path, format!("cannot be read: {e}")))?;
                EnginesFile::parse(path, &text)
            }
            None => Ok(EnginesFile {
                path: PathBuf::from("engines.json"),
                engines: Vec::new(),
            }),
        }
    }

    /// The engines of `text`, the contents of `path`.
    pub fn parse(path: PathBuf, text: &str) -> Result<EnginesFile, CompatError> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            bad(
                &path,
                format!(
                    "is not JSON: {e} (line {}, column {})",
                    e.line(),
                    e.column()
                ),
            )
        })?;
        let Value::Array(items) = value else {
            return Err(bad(&path, "is not an array of engines".into()));
        };
        let engines = items
            .into_iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::Object(map) => Ok(map),
                _ => Err(bad(&path, format!("engine #{} is not an object", i + 1))),
            })
            .collect::<Result<_, _>>()?;
        Ok(EnginesFile { path, engines })
    }

    /// The engines' names, in the file's order (what `-engines` prints).
    pub fn names(&self) -> Vec<String> {
        self.engines
            .iter()
            .map(|e| text(e, "name").unwrap_or_default().to_string())
            .collect()
    }

    /// The engine `conf=NAME` names. What Shannon cannot honour is refused by name, as the
    /// matching `-engine` key is.
    pub fn saved(&self, name: &str) -> Result<SavedEngine, CompatError> {
        let label = format!("-engine conf={name}");
        let engine = self
            .engines
            .iter()
            .find(|e| text(e, "name") == Some(name))
            .ok_or_else(|| CompatError::Missing {
                option: label.clone(),
                expected: format!(
                    "an engine of that name in {} (cutechess-cli: \"Unknown engine \
                     configuration\")",
                    self.path.display()
                ),
            })?;
        let field = |key: &str| format!("{label} ({} \"{key}\")", self.path.display());
        let string = |key: &str| -> Result<Option<String>, CompatError> {
            match engine.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.trim().to_string())),
                Some(other) => Err(CompatError::malformed(
                    field(key),
                    other.to_string(),
                    "a string",
                )),
            }
        };
        let flag = |key: &str| matches!(engine.get(key), Some(Value::Bool(true)));
        let cmd = string("command")?.ok_or_else(|| CompatError::Missing {
            option: field("command"),
            expected: "the engine's command".into(),
        })?;
        let protocol = match string("protocol")?.as_deref() {
            None | Some("uci") => Protocol::Uci,
            Some("xboard") => Protocol::Xboard,
            Some(other) => {
                return Err(CompatError::refused(
                    format!(
                        "{label} ({} \"protocol\": \"{other}\")",
                        self.path.display()
                    ),
                    "Shannon's runner speaks uci and xboard",
                ))
            }
        };
        // Cute Chess's `initStrings`: a list of lines.
        let init_lines = match engine.get("initStrings") {
            None => Vec::new(),
            Some(Value::Array(lines)) if lines.iter().all(Value::is_string) => lines
                .iter()
                .filter_map(|line| line.as_str().map(str::to_string))
                .collect(),
            Some(other) => {
                return Err(CompatError::malformed(
                    field("initStrings"),
                    other.to_string(),
                    "a list of strings",
                ))
            }
        };
        let refusals: [(&str, bool, &str); 3] = [
            (
                "whitepov",
                flag("whitepov"),
                "scores are read from the side to move, as UCI defines them",
            ),
            (
                "validateClaims",
                matches!(engine.get("validateClaims"), Some(Value::Bool(false))),
                "every move and result is checked by Shannon's rules; none is trusted",
            ),
            (
                "debug",
                flag("debug"),
                "engine input and output are not echoed",
            ),
        ];
        if let Some((key, _, why)) = refusals.iter().find(|(_, refused, _)| *refused) {
            return Err(CompatError::refused(field(key), *why));
        }
        if let Some(scale) = engine.get("timeoutScaleFactor").and_then(Value::as_f64) {
            if scale != 1.0 {
                return Err(CompatError::refused(
                    field("timeoutScaleFactor"),
                    "Shannon's timeouts are not scaled",
                ));
            }
        }
        let mut options = Vec::new();
        for option in engine
            .get("options")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
        {
            let option_name = option.get("name").and_then(Value::as_str).unwrap_or("");
            if option_name.is_empty()
                || option.get("type").and_then(Value::as_str) == Some("button")
            {
                continue;
            }
            let value = match option.get("value") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Bool(b)) => b.to_string(),
                Some(Value::Number(n)) if n.is_i64() => n.to_string(),
                other => {
                    return Err(CompatError::malformed(
                        format!("{} option {option_name}", field("options")),
                        other.map_or("nothing".to_string(), Value::to_string),
                        "a value of type string, boolean or integer",
                    ))
                }
            };
            options.push((option_name.to_string(), value));
        }
        Ok(SavedEngine {
            name: name.to_string(),
            cmd,
            dir: string("workingDirectory")?.map(PathBuf::from),
            options,
            stderr: string("stderrFile")?.map(PathBuf::from),
            protocol,
            restart: string("restart")?.as_deref() == Some("on"),
            ponder: flag("ponder"),
            init_lines,
        })
    }
}

fn text<'a>(engine: &'a serde_json::Map<String, Value>, key: &str) -> Option<&'a str> {
    engine.get(key).and_then(Value::as_str)
}

fn bad(path: &Path, why: String) -> CompatError {
    CompatError::EnginesFile {
        path: path.to_path_buf(),
        why,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engines.json as Cute Chess's GUI saves it (`EngineConfiguration::toVariant`).
    const SAVED: &str = r#"[
    {
        "command": "stockfish",
        "name": "Stockfish 16",
        "options": [
            { "alias": "", "default": 16, "max": 33554432, "min": 1, "name": "Hash", "type": "spin", "value": 64 },
            { "alias": "", "default": false, "name": "Ponder", "type": "check", "value": false },
            { "alias": "", "name": "Clear Hash", "type": "button" },
            { "alias": "", "choices": ["a", "b"], "default": "a", "name": "Style", "type": "combo", "value": "b" }
        ],
        "protocol": "uci",
        "stderrFile": "",
        "timeoutScaleFactor": 1,
        "workingDirectory": "/opt/engines"
    },
    { "command": "crafty", "name": "Crafty", "protocol": "xboard" }
]"#;

    fn file(text: &str) -> Result<EnginesFile, CompatError> {
        EnginesFile::parse(PathBuf::from("engines.json"), text)
    }

    #[test]
    fn a_saved_engine_is_its_command_directory_and_options() {
        let engines = file(SAVED).unwrap();
        assert_eq!(engines.names(), ["Stockfish 16", "Crafty"]);
        let saved = engines.saved("Stockfish 16").unwrap();
        assert_eq!(saved.cmd, "stockfish");
        assert_eq!(saved.name, "Stockfish 16");
        assert_eq!(saved.dir, Some(PathBuf::from("/opt/engines")));
        assert_eq!(saved.stderr, None);
        assert_eq!(saved.protocol, Protocol::Uci);
        let options: Vec<(&str, &str)> = saved
            .options
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            options,
            [("Hash", "64"), ("Ponder", "false"), ("Style", "b")]
        );
    }

    #[test]
    fn what_cannot_be_honoured_or_read_is_an_error_naming_it() {
        let engines = file(SAVED).unwrap();
        assert_eq!(engines.saved("Crafty").unwrap().protocol, Protocol::Xboard);
        let other =
            file("[{\"command\": \"x\", \"name\": \"X\", \"protocol\": \"cecp\"}]").unwrap();
        let refused = other.saved("X").unwrap_err().to_string();
        assert!(
            refused.contains("conf=X (engines.json \"protocol\": \"cecp\")"),
            "{refused}"
        );
        let missing = engines.saved("Komodo").unwrap_err().to_string();
        assert!(missing.contains("conf=Komodo"), "{missing}");
        for (text, says) in [
            ("[{\"name\": \"x\",", "line 1"),
            ("{\"name\": \"x\"}", "not an array"),
            ("[3]", "engine #1"),
        ] {
            let error = file(text).unwrap_err().to_string();
            assert!(
                error.contains("engines.json") && error.contains(says),
                "{text}: {error}"
            );
        }
        let ponders = file(r#"[{"name": "p", "command": "p", "ponder": true}]"#).unwrap();
        assert!(ponders.saved("p").unwrap().ponder);
        let init = r#"[{"name": "i", "command": "i", "initStrings": ["cores 1", "memory 8"]},
                       {"name": "j", "command": "j", "initStrings": "cores 1"}]"#;
        let init = file(init).unwrap();
        assert_eq!(init.saved("i").unwrap().init_lines, ["cores 1", "memory 8"]);
        let error = init.saved("j").unwrap_err().to_string();
        assert!(error.contains("\"initStrings\""), "{error}");
        let no_command = file(r#"[{"name": "q"}]"#).unwrap();
        let error = no_command.saved("q").unwrap_err().to_string();
        assert!(error.contains("\"command\""), "{error}");
    }
}
