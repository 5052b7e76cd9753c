//! fastchess's `config.json`: the run it saves (every `-autosaveinterval` games and when it
//! ends) for `-config file=config.json` to continue: the tournament's settings, the engines and
//! the results so far per pair of engines (fastchess 1.8.2-alpha, `BaseTournament::saveJson`:
//! nlohmann's JSON of its `config::Tournament`, then `engines` and `stats`, indented by four).
//!
//! [`FastchessConfig`] is that file typed, field for field and in fastchess's order, so that
//! what Shannon writes is what fastchess writes and reads (the real fastchess continues a run
//! Shannon started, and Shannon one fastchess started). [`FastchessConfig::read`] reads one,
//! every field checked by name ([`ConfigJsonError`] names the file and the field: no panic on a
//! damaged, truncated or foreign file); [`FastchessConfig::options`] turns it back into the
//! command line's options; [`FastchessConfig::of_options`] builds it from them, as fastchess's
//! option parser fills its configuration; [`FastchessConfig::carried`] gives the results for
//! the run to continue from.

use super::words::Opt;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::Value;
use shannon::arena::{Carried, CarriedEncounter, Standings};
use shannon::stats::{Pentanomial, Score};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a `config.json` cannot be read or written.
#[derive(Debug)]
pub enum ConfigJsonError {
    /// The file cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// It is not JSON (damaged or cut short).
    Json {
        /// The file.
        path: PathBuf,
        /// Where and why.
        error: serde_json::Error,
    },
    /// A field fastchess writes is missing.
    Missing {
        /// The file.
        path: PathBuf,
        /// The field, as a path (`engines[1].limit.tc.time`).
        field: String,
    },
    /// A field holds what fastchess would not write there.
    Invalid {
        /// The file.
        path: PathBuf,
        /// The field.
        field: String,
        /// What it should hold.
        expected: String,
    },
    /// The file cannot be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

impl fmt::Display for ConfigJsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigJsonError::Read { path, error } => {
                write!(f, "{}: cannot be read: {error}", path.display())
            }
            ConfigJsonError::Json { path, error } => write!(
                f,
                "{}: not fastchess's config.json (damaged or cut short?): {error}",
                path.display()
            ),
            ConfigJsonError::Missing { path, field } => write!(
                f,
                "{}: field {field} is missing (fastchess 1.8.2 writes it)",
                path.display()
            ),
            ConfigJsonError::Invalid {
                path,
                field,
                expected,
            } => write!(f, "{}: field {field} is not {expected}", path.display()),
            ConfigJsonError::Write { path, error } => {
                write!(f, "{}: cannot be written: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for ConfigJsonError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConfigJsonError::Read { error, .. } | ConfigJsonError::Write { error, .. } => {
                Some(error)
            }
            ConfigJsonError::Json { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// fastchess's `config::Tournament`, its engines and its results, in the order it writes them.
/// The numbers of its enums are kept as it writes them (`output` 0 fastchess, 1 cutechess;
/// `variant` 0 standard, 1 Chess960; `type` 0 round robin, 1 gauntlet; the openings' `format`
/// 0 EPD, 1 PGN, 2 none and `order` 0 random, 1 sequential; the PGN's `notation` 0 SAN, 1 LAN,
/// 2 UCI; the log's `level` 0 all to 5 fatal).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FastchessConfig {
    pub resign: ResignJson,
    pub draw: DrawJson,
    pub maxmoves: MaxMovesJson,
    pub tb_adjudication: TbJson,
    pub opening: OpeningJson,
    pub pgn: PgnJson,
    pub epd: EpdJson,
    pub sprt: SprtJson,
    pub config_name: String,
    pub output: i64,
    pub seed: u64,
    pub variant: i64,
    #[serde(rename = "type")]
    pub kind: i64,
    pub gauntlet_seeds: i64,
    pub ratinginterval: i64,
    pub scoreinterval: i64,
    pub wait: i64,
    pub autosaveinterval: i64,
    pub games: i64,
    pub rounds: i64,
    pub concurrency: i64,
    pub force_concurrency: bool,
    pub recover: bool,
    pub noswap: bool,
    pub reverse: bool,
    pub report_penta: bool,
    pub affinity: bool,
    pub check_mate_pvs: bool,
    pub show_latency: bool,
    pub log: LogJson,
    pub engines: Vec<EngineJson>,
    #[serde(serialize_with = "pairs_as_map")]
    pub stats: Vec<(String, StatsJson)>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResignJson {
    pub move_count: i64,
    pub score: i64,
    pub twosided: bool,
    pub enabled: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DrawJson {
    pub move_number: i64,
    pub move_count: i64,
    pub score: i64,
    pub enabled: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MaxMovesJson {
    pub move_count: i64,
    pub enabled: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TbJson {
    pub syzygy_dirs: String,
    pub max_pieces: i64,
    pub ignore_50_move_rule: bool,
    pub enabled: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpeningJson {
    pub file: String,
    pub format: i64,
    pub order: i64,
    pub plies: i64,
    pub start: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PgnJson {
    pub additional_lines_rgx: Vec<String>,
    pub event_name: String,
    pub site: String,
    pub file: String,
    pub notation: i64,
    pub append_file: bool,
    pub track_nodes: bool,
    pub track_seldepth: bool,
    pub track_nps: bool,
    pub track_hashfull: bool,
    pub track_tbhits: bool,
    pub track_timeleft: bool,
    pub track_latency: bool,
    pub track_pv: bool,
    pub min: bool,
    pub crc: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EpdJson {
    pub file: String,
    pub append_file: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SprtJson {
    pub alpha: f64,
    pub beta: f64,
    pub elo0: f64,
    pub elo1: f64,
    pub model: String,
    pub enabled: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogJson {
    pub file: String,
    pub level: i64,
    pub append_file: bool,
    pub compress: bool,
    pub realtime: bool,
    pub engine_coms: bool,
}

/// One engine (fastchess's `EngineConfiguration`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineJson {
    pub name: String,
    pub dir: String,
    pub cmd: String,
    pub args: String,
    pub restart: bool,
    pub options: Vec<(String, String)>,
    pub limit: LimitJson,
    pub variant: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LimitJson {
    pub tc: TcJson,
    pub nodes: u64,
    pub plies: u64,
}

/// A time control in milliseconds (`moves` the moves per period).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TcJson {
    pub increment: i64,
    pub fixed_time: i64,
    pub time: i64,
    pub moves: i64,
    pub timemargin: i64,
}

/// One pair's results, from the first engine's side (the key's `first vs second`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StatsJson {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    #[serde(rename = "penta_WW")]
    pub penta_ww: u32,
    #[serde(rename = "penta_WD")]
    pub penta_wd: u32,
    #[serde(rename = "penta_WL")]
    pub penta_wl: u32,
    #[serde(rename = "penta_DD")]
    pub penta_dd: u32,
    #[serde(rename = "penta_LD")]
    pub penta_ld: u32,
    #[serde(rename = "penta_LL")]
    pub penta_ll: u32,
}

fn pairs_as_map<S: Serializer>(
    pairs: &[(String, StatsJson)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(pairs.len()))?;
    for (key, stats) in pairs {
        map.serialize_entry(key, stats)?;
    }
    map.end()
}

/// fastchess's `INT_MAX`, which its `-ratinginterval 0` and `-scoreinterval 0` become.
const NEVER: i64 = i32::MAX as i64;

/// The default `config_name`.
pub const CONFIG_NAME: &str = "config.json";

impl Default for FastchessConfig {
    /// fastchess's defaults (its `config::Tournament`), with seed 0 and no engines.
    fn default() -> FastchessConfig {
        FastchessConfig {
            resign: ResignJson {
                move_count: 1,
                score: 0,
                twosided: false,
                enabled: false,
            },
            draw: DrawJson {
                move_number: 0,
                move_count: 1,
                score: 0,
                enabled: false,
            },
            maxmoves: MaxMovesJson {
                move_count: 1,
                enabled: false,
            },
            tb_adjudication: TbJson {
                syzygy_dirs: String::new(),
                max_pieces: 0,
                ignore_50_move_rule: false,
                enabled: false,
            },
            opening: OpeningJson {
                file: String::new(),
                format: 2,
                order: 1,
                plies: -1,
                start: 1,
            },
            pgn: PgnJson {
                additional_lines_rgx: Vec::new(),
                event_name: "Fastchess Tournament".into(),
                site: "?".into(),
                file: String::new(),
                notation: 0,
                append_file: true,
                track_nodes: false,
                track_seldepth: false,
                track_nps: false,
                track_hashfull: false,
                track_tbhits: false,
                track_timeleft: false,
                track_latency: false,
                track_pv: false,
                min: false,
                crc: false,
            },
            epd: EpdJson {
                file: String::new(),
                append_file: true,
            },
            sprt: SprtJson {
                alpha: 0.0,
                beta: 0.0,
                elo0: 0.0,
                elo1: 0.0,
                model: "normalized".into(),
                enabled: false,
            },
            config_name: CONFIG_NAME.into(),
            output: 0,
            seed: 0,
            variant: 0,
            kind: 0,
            gauntlet_seeds: 1,
            ratinginterval: 10,
            scoreinterval: 1,
            wait: 0,
            autosaveinterval: 20,
            games: 2,
            rounds: 2,
            concurrency: 1,
            force_concurrency: false,
            recover: false,
            noswap: false,
            reverse: false,
            report_penta: true,
            affinity: false,
            check_mate_pvs: false,
            show_latency: false,
            log: LogJson {
                file: String::new(),
                level: 3,
                append_file: true,
                compress: false,
                realtime: true,
                engine_coms: false,
            },
            engines: Vec::new(),
            stats: Vec::new(),
        }
    }
}

/// A field of the file being read, with its path for the errors.
struct At<'a> {
    value: &'a Value,
    field: String,
    file: &'a Path,
}

impl<'a> At<'a> {
    fn get(&self, key: &str) -> Result<At<'a>, ConfigJsonError> {
        let field = match self.field.is_empty() {
            true => key.to_string(),
            false => format!("{}.{key}", self.field),
        };
        match self.value.get(key) {
            Some(value) => Ok(At {
                value,
                field,
                file: self.file,
            }),
            None => Err(ConfigJsonError::Missing {
                path: self.file.to_path_buf(),
                field,
            }),
        }
    }

    fn invalid(&self, expected: &str) -> ConfigJsonError {
        ConfigJsonError::Invalid {
            path: self.file.to_path_buf(),
            field: self.field.clone(),
            expected: expected.into(),
        }
    }

    fn int(&self, key: &str) -> Result<i64, ConfigJsonError> {
        let at = self.get(key)?;
        at.value.as_i64().ok_or_else(|| at.invalid("an integer"))
    }

    fn count(&self, key: &str) -> Result<u32, ConfigJsonError> {
        let at = self.get(key)?;
        at.value
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| at.invalid("a count (an integer from 0)"))
    }

    fn unsigned(&self, key: &str) -> Result<u64, ConfigJsonError> {
        let at = self.get(key)?;
        at.value
            .as_u64()
            .ok_or_else(|| at.invalid("an integer from 0"))
    }

    fn float(&self, key: &str) -> Result<f64, ConfigJsonError> {
        let at = self.get(key)?;
        at.value.as_f64().ok_or_else(|| at.invalid("a number"))
    }

    fn flag(&self, key: &str) -> Result<bool, ConfigJsonError> {
        let at = self.get(key)?;
        at.value
            .as_bool()
            .ok_or_else(|| at.invalid("true or false"))
    }

    fn text(&self, key: &str) -> Result<String, ConfigJsonError> {
        let at = self.get(key)?;
        at.value
            .as_str()
            .map(String::from)
            .ok_or_else(|| at.invalid("a string"))
    }

    fn one_of(
        &self,
        key: &str,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<i64, ConfigJsonError> {
        let at = self.get(key)?;
        at.value
            .as_i64()
            .filter(|n| range.contains(n))
            .ok_or_else(|| {
                at.invalid(&format!(
                    "an integer from {} to {}",
                    range.start(),
                    range.end()
                ))
            })
    }

    fn items(&self, key: &str) -> Result<Vec<At<'a>>, ConfigJsonError> {
        let at = self.get(key)?;
        let array = at.value.as_array().ok_or_else(|| at.invalid("an array"))?;
        Ok(array
            .iter()
            .enumerate()
            .map(|(i, value)| At {
                value,
                field: format!("{}[{i}]", at.field),
                file: self.file,
            })
            .collect())
    }
}

impl FastchessConfig {
    /// Read the file at `path`.
    pub fn read(path: &Path) -> Result<FastchessConfig, ConfigJsonError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigJsonError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        FastchessConfig::parse(&text, path)
    }

    /// Read `text`, the file at `path`.
    pub fn parse(text: &str, path: &Path) -> Result<FastchessConfig, ConfigJsonError> {
        let value: Value = serde_json::from_str(text).map_err(|error| ConfigJsonError::Json {
            path: path.to_path_buf(),
            error,
        })?;
        let root = At {
            value: &value,
            field: String::new(),
            file: path,
        };
        if !value.is_object() {
            return Err(root.invalid("an object (fastchess's config.json)"));
        }
        let resign = root.get("resign")?;
        let draw = root.get("draw")?;
        let maxmoves = root.get("maxmoves")?;
        let tb = root.get("tb_adjudication")?;
        let opening = root.get("opening")?;
        let pgn = root.get("pgn")?;
        let epd = root.get("epd")?;
        let sprt = root.get("sprt")?;
        let log = root.get("log")?;
        let config = FastchessConfig {
            resign: ResignJson {
                move_count: resign.int("move_count")?,
                score: resign.int("score")?,
                twosided: resign.flag("twosided")?,
                enabled: resign.flag("enabled")?,
            },
            draw: DrawJson {
                move_number: draw.int("move_number")?,
                move_count: draw.int("move_count")?,
                score: draw.int("score")?,
                enabled: draw.flag("enabled")?,
            },
            maxmoves: MaxMovesJson {
                move_count: maxmoves.int("move_count")?,
                enabled: maxmoves.flag("enabled")?,
            },
            tb_adjudication: TbJson {
                syzygy_dirs: tb.text("syzygy_dirs")?,
                max_pieces: tb.int("max_pieces")?,
                ignore_50_move_rule: tb.flag("ignore_50_move_rule")?,
                enabled: tb.flag("enabled")?,
            },
            opening: OpeningJson {
                file: opening.text("file")?,
                format: opening.one_of("format", 0..=2)?,
                order: opening.one_of("order", 0..=1)?,
                plies: opening.int("plies")?,
                start: opening.int("start")?,
            },
            pgn: PgnJson {
                additional_lines_rgx: pgn
                    .items("additional_lines_rgx")?
                    .iter()
                    .map(|at| {
                        at.value
                            .as_str()
                            .map(String::from)
                            .ok_or_else(|| at.invalid("a string"))
                    })
                    .collect::<Result<_, _>>()?,
                event_name: pgn.text("event_name")?,
                site: pgn.text("site")?,
                file: pgn.text("file")?,
                notation: pgn.one_of("notation", 0..=2)?,
                append_file: pgn.flag("append_file")?,
                track_nodes: pgn.flag("track_nodes")?,
                track_seldepth: pgn.flag("track_seldepth")?,
                track_nps: pgn.flag("track_nps")?,
                track_hashfull: pgn.flag("track_hashfull")?,
                track_tbhits: pgn.flag("track_tbhits")?,
                track_timeleft: pgn.flag("track_timeleft")?,
                track_latency: pgn.flag("track_latency")?,
                track_pv: pgn.flag("track_pv")?,
                min: pgn.flag("min")?,
                crc: pgn.flag("crc")?,
            },
            epd: EpdJson {
                file: epd.text("file")?,
                append_file: epd.flag("append_file")?,
            },
            sprt: SprtJson {
                alpha: sprt.float("alpha")?,
                beta: sprt.float("beta")?,
                elo0: sprt.float("elo0")?,
                elo1: sprt.float("elo1")?,
                model: sprt.text("model")?,
                enabled: sprt.flag("enabled")?,
            },
            config_name: root.text("config_name")?,
            output: root.one_of("output", 0..=2)?,
            seed: root.unsigned("seed")?,
            variant: root.one_of("variant", 0..=1)?,
            kind: root.one_of("type", 0..=1)?,
            gauntlet_seeds: root.int("gauntlet_seeds")?,
            ratinginterval: root.int("ratinginterval")?,
            scoreinterval: root.int("scoreinterval")?,
            wait: root.int("wait")?,
            autosaveinterval: root.int("autosaveinterval")?,
            games: root.one_of("games", 1..=i64::from(u32::MAX))?,
            rounds: root.one_of("rounds", 1..=i64::from(u32::MAX))?,
            concurrency: root.int("concurrency")?,
            force_concurrency: root.flag("force_concurrency")?,
            recover: root.flag("recover")?,
            noswap: root.flag("noswap")?,
            reverse: root.flag("reverse")?,
            report_penta: root.flag("report_penta")?,
            affinity: root.flag("affinity")?,
            check_mate_pvs: root.flag("check_mate_pvs")?,
            show_latency: root.flag("show_latency")?,
            log: LogJson {
                file: log.text("file")?,
                level: log.one_of("level", 0..=5)?,
                append_file: log.flag("append_file")?,
                compress: log.flag("compress")?,
                realtime: log.flag("realtime")?,
                engine_coms: log.flag("engine_coms")?,
            },
            engines: root
                .items("engines")?
                .iter()
                .map(read_engine)
                .collect::<Result<_, _>>()?,
            stats: read_stats(&root.get("stats")?)?,
        };
        Ok(config)
    }

    /// The file's text, as fastchess writes it (four spaces a level, a line end after).
    pub fn to_text(&self) -> String {
        let mut bytes = Vec::new();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
        let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, formatter);
        self.serialize(&mut serializer)
            .expect("a config of strings and numbers serializes");
        let mut text = String::from_utf8(bytes).expect("serde_json writes UTF-8");
        text.push('\n');
        text
    }

    /// Write the file to `path` (fastchess overwrites it in place; here through a temporary
    /// file renamed over it, so a reader never finds half a file).
    pub fn write(&self, path: &Path) -> Result<(), ConfigJsonError> {
        let error = |error| ConfigJsonError::Write {
            path: path.to_path_buf(),
            error,
        };
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(format!(".{}.tmp", std::process::id()));
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, self.to_text()).map_err(error)?;
        std::fs::rename(&temporary, path).map_err(|e| {
            let _ = std::fs::remove_file(&temporary);
            error(e)
        })
    }

    /// The results to continue from: fastchess's, which it drops for more than two engines
    /// (`None` then, with `config.json`'s empty stats too).
    pub fn carried(&self) -> Option<Carried> {
        if self.engines.len() > 2 || self.stats.is_empty() {
            return None;
        }
        let encounters: Vec<CarriedEncounter> = self
            .stats
            .iter()
            .map(|(key, stats)| {
                // fastchess splits the key at its first " vs ".
                let (first, second) = key.split_once(" vs ").unwrap_or((key, ""));
                CarriedEncounter {
                    first: first.into(),
                    second: second.into(),
                    score: Score {
                        wins: stats.wins,
                        draws: stats.draws,
                        losses: stats.losses,
                    },
                    pairs: Pentanomial {
                        counts: [
                            stats.penta_ll,
                            stats.penta_ld,
                            stats.penta_wl + stats.penta_dd,
                            stats.penta_wd,
                            stats.penta_ww,
                        ],
                    },
                }
            })
            .collect();
        let games = encounters
            .iter()
            .map(|e| e.score.wins + e.score.draws + e.score.losses)
            .sum();
        Some(Carried { games, encounters })
    }

    /// The results of `standings` as fastchess saves them: every pair of engines in their
    /// order (`first vs second`, the first's side), with zeros for those that did not meet.
    /// With the pentanomial (`report_penta`) fastchess counts a game when its pair completes,
    /// so a finished game whose partner has not finished is left out, as there (a resumed run
    /// plays that pair again).
    pub fn set_stats(&mut self, standings: &Standings) {
        let pairs_only = self.report_penta;
        let names = &standings.names;
        let mut stats = Vec::new();
        for (i, first) in names.iter().enumerate() {
            for second in &names[i + 1..] {
                stats.push((format!("{first} vs {second}"), StatsJson::default()));
            }
        }
        for tally in &standings.encounters {
            let (a, b) = tally.engines;
            let (first, second, reversed) = match a < b {
                true => (a, b, false),
                false => (b, a, true),
            };
            let key = format!("{} vs {}", names[first], names[second]);
            let Some((_, slot)) = stats.iter_mut().find(|(k, _)| *k == key) else {
                continue;
            };
            let waiting = tally.pairs.unpaired_score();
            let mut score = tally.score;
            if pairs_only {
                score = Score {
                    wins: score.wins - waiting.wins,
                    draws: score.draws - waiting.draws,
                    losses: score.losses - waiting.losses,
                };
            }
            let mut counts = tally.pairs.pentanomial().counts;
            // Draws in complete pairs: 2 DD + LD + WD (as fastchess's output tells DD from WL).
            let [_, ld, middle, wd, _] = counts;
            let paired_draws = match pairs_only {
                true => score.draws,
                false => score.draws - waiting.draws,
            };
            let dd = (paired_draws.saturating_sub(ld + wd) / 2).min(middle);
            if reversed {
                score = score.reversed();
                counts.reverse();
            }
            let [ll, ld, _, wd, ww] = counts;
            *slot = StatsJson {
                wins: score.wins,
                losses: score.losses,
                draws: score.draws,
                penta_ww: ww,
                penta_wd: wd,
                penta_wl: middle - dd,
                penta_dd: dd,
                penta_ld: ld,
                penta_ll: ll,
            };
        }
        self.stats = stats;
    }
}

fn read_engine(at: &At<'_>) -> Result<EngineJson, ConfigJsonError> {
    let limit = at.get("limit")?;
    let tc = limit.get("tc")?;
    Ok(EngineJson {
        name: at.text("name")?,
        dir: at.text("dir")?,
        cmd: at.text("cmd")?,
        args: at.text("args")?,
        restart: at.flag("restart")?,
        options: at
            .items("options")?
            .iter()
            .map(|option| {
                let pair = option
                    .value
                    .as_array()
                    .filter(|a| a.len() == 2)
                    .and_then(|a| Some((a[0].as_str()?.to_string(), a[1].as_str()?.to_string())));
                pair.ok_or_else(|| option.invalid("a pair of strings [name, value]"))
            })
            .collect::<Result<_, _>>()?,
        limit: LimitJson {
            tc: TcJson {
                increment: tc.int("increment")?,
                fixed_time: tc.int("fixed_time")?,
                time: tc.int("time")?,
                moves: tc.int("moves")?,
                timemargin: tc.int("timemargin")?,
            },
            nodes: limit.unsigned("nodes")?,
            plies: limit.unsigned("plies")?,
        },
        variant: at.one_of("variant", 0..=1)?,
    })
}

fn read_stats(at: &At<'_>) -> Result<Vec<(String, StatsJson)>, ConfigJsonError> {
    // fastchess writes `null` for no pairs.
    if at.value.is_null() {
        return Ok(Vec::new());
    }
    let map = at
        .value
        .as_object()
        .ok_or_else(|| at.invalid("an object"))?;
    map.iter()
        .map(|(key, value)| {
            let pair = At {
                value,
                field: format!("{}.\"{key}\"", at.field),
                file: at.file,
            };
            if !key.contains(" vs ") {
                return Err(pair.invalid("keyed `first vs second`"));
            }
            Ok((
                key.clone(),
                StatsJson {
                    wins: pair.count("wins")?,
                    losses: pair.count("losses")?,
                    draws: pair.count("draws")?,
                    penta_ww: pair.count("penta_WW")?,
                    penta_wd: pair.count("penta_WD")?,
                    penta_wl: pair.count("penta_WL")?,
                    penta_dd: pair.count("penta_DD")?,
                    penta_ld: pair.count("penta_LD")?,
                    penta_ll: pair.count("penta_LL")?,
                },
            ))
        })
        .collect()
}

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
    fn words(&self) -> Vec<String> {
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

/// What the `-config` options of a command line made of it: the options to read (a loaded
/// file's in place of those before it), the results to continue from, and the file the run
/// saves.
#[derive(Debug, Default)]
pub struct ConfigRun {
    /// The options.
    pub options: Vec<Opt>,
    /// The loaded file's results, when they are kept.
    pub carried: Option<Carried>,
    /// The file the run saves (fastchess's `config_name`: `-config outname=`, else the loaded
    /// file's, else `config.json`).
    pub name: String,
    /// The loaded file, when one was.
    pub loaded: Option<PathBuf>,
    /// What fastchess says on loading (its `Loading config file: F` on stdout) and warns.
    pub said: Vec<String>,
    /// Its warnings on stderr.
    pub warnings: Vec<String>,
}

/// Read the `-config` options of `options` as fastchess does, in order: `file=F` loads F
/// (everything before it but `-each` is replaced by the file's run; `-each` applies to every
/// engine at the end, as in fastchess), `outname=F` names the file the run saves, `discard=true`
/// goes back to the options before the last load and drops its results, `stats=false` drops
/// them; any other key is refused by name, as fastchess refuses it. Options after `-config`
/// apply on top of the loaded run (`-config file=config.json -rounds 10` plays on to 10
/// rounds).
pub fn expand(options: Vec<Opt>) -> Result<ConfigRun, super::error::CompatError> {
    use super::error::CompatError;
    let mut run = ConfigRun {
        name: CONFIG_NAME.into(),
        ..ConfigRun::default()
    };
    let mut before: Option<(Vec<Opt>, String)> = None;
    let mut stats = None;
    for option in options {
        if option.name != "-config" {
            run.options.push(option);
            continue;
        }
        let mut drop_stats = false;
        for word in &option.values {
            let Some((key, value)) = word.split_once('=') else {
                return Err(CompatError::malformed("-config", word, "KEY=VALUE"));
            };
            match key {
                "file" => {
                    let path = PathBuf::from(value);
                    let config = FastchessConfig::read(&path)
                        .map_err(|e| CompatError::ConfigFile(e.to_string()))?;
                    run.said.push(format!("Loading config file: {value}"));
                    let each: Vec<Opt> = run
                        .options
                        .iter()
                        .filter(|o| o.name == "-each")
                        .cloned()
                        .collect();
                    let old = std::mem::replace(&mut run.options, config.options());
                    before = Some((old, std::mem::take(&mut run.name)));
                    run.options.extend(each);
                    run.name = config.config_name.clone();
                    stats = config.carried();
                    if config.engines.len() > 2 {
                        run.warnings
                            .push("Warning: Stats will be dropped for more than 2 engines.".into());
                    }
                    run.loaded = Some(path);
                }
                "outname" => run.name = value.into(),
                "discard" if value == "true" => {
                    run.said.push("Discarding config file".into());
                    if let Some((options, name)) = before.take() {
                        run.options = options;
                        run.name = name;
                    }
                    run.loaded = None;
                    stats = None;
                }
                "stats" => drop_stats = value == "false",
                _ => return Err(CompatError::Unknown(format!("-config {key}={value}"))),
            }
        }
        if drop_stats {
            stats = None;
        }
    }
    run.carried = stats;
    Ok(run)
}

/// The `config.json` a fastchess-form run saves: where, every how many games, and what (the
/// run's configuration, its results set as they come).
#[derive(Debug, Clone)]
pub struct ConfigFile {
    /// The file.
    pub path: PathBuf,
    /// Saved after every this many games of this run (fastchess's `-autosaveinterval`; 0:
    /// only at the end).
    pub interval: u32,
    /// The run's configuration.
    pub config: FastchessConfig,
    /// The file `-config file=` loaded, which the run goes on saving.
    pub loaded: Option<PathBuf>,
}

/// A run's observer that also saves its `config.json`, as fastchess does: every `interval`
/// finished games and when the run ends (finished, stopped or interrupted).
///
/// Where fastchess overwrites the file whatever it holds, a file this run did not load (an
/// earlier run's, perhaps unfinished) is kept under the first free name (`config-1.json`)
/// before the first save, with a note: no run's results are lost. Two runs at once on one file
/// are refused by its lock ([`ConfigSaver::lock`]).
pub struct ConfigSaver<'a> {
    inner: &'a mut dyn shannon::arena::MatchObserver,
    file: ConfigFile,
    /// The file the run's options were loaded from (`-config file=`), which it goes on saving.
    loaded: Option<PathBuf>,
    played: u32,
    saved: bool,
    /// The first error writing the file.
    pub error: Option<ConfigJsonError>,
    /// What was done to an earlier file, to tell.
    pub notes: Vec<String>,
}

impl<'a> ConfigSaver<'a> {
    /// `inner` told everything, `file` saved.
    pub fn new(inner: &'a mut dyn shannon::arena::MatchObserver, file: ConfigFile) -> Self {
        ConfigSaver {
            inner,
            loaded: file.loaded.clone(),
            file,
            played: 0,
            saved: false,
            error: None,
            notes: Vec::new(),
        }
    }

    /// The lock of `file` for the run, held until it ends. Where another run holds it (two runs
    /// in one folder, both saving `config.json`, which fastchess lets overwrite each other's
    /// results), this run saves to the first free numbered name instead (`config-1.json`),
    /// and the note says so. `None` when no lock can be made (the run goes on unlocked).
    pub fn lock(file: &mut ConfigFile) -> (Option<shannon::jobs::run_lock::RunLock>, Vec<String>) {
        use shannon::jobs::run_lock::{RunLock, RunLockError};
        let asked = file.path.clone();
        for candidate in std::iter::once(asked.clone()).chain(numbered(&asked)) {
            if candidate != asked && candidate.exists() {
                continue;
            }
            match RunLock::acquire(&candidate) {
                Ok(lock) => {
                    let mut notes = Vec::new();
                    if candidate != asked {
                        notes.push(format!(
                            "{} is being saved by another run in this folder: this run saves \
                             its configuration and results in {} (continue it with -config \
                             file={})",
                            asked.display(),
                            candidate.display(),
                            candidate.display()
                        ));
                        file.config.config_name = candidate.display().to_string();
                        file.path = candidate;
                    }
                    return (Some(lock), notes);
                }
                Err(RunLockError::Held { .. }) => continue,
                Err(error) => {
                    return (
                        None,
                        vec![format!("{} is not locked: {error}", asked.display())],
                    )
                }
            }
        }
        (None, Vec::new())
    }

    fn save(&mut self, standings: &Standings) {
        if !self.saved {
            self.saved = true;
            if let Some(note) = self.keep_earlier() {
                self.notes.push(note);
            }
        }
        self.file.config.set_stats(standings);
        if let Err(error) = self.file.config.write(&self.file.path) {
            self.error.get_or_insert(error);
        }
    }

    /// Move a file this run did not load out of the way, to the first free name.
    fn keep_earlier(&mut self) -> Option<String> {
        let path = &self.file.path;
        if !path.exists() || self.loaded.as_deref().is_some_and(|l| same_file(l, path)) {
            return None;
        }
        // The same run's file (this command line run again, continuing its state): its own.
        let settings = |config: &FastchessConfig| FastchessConfig {
            stats: Vec::new(),
            ..config.clone()
        };
        if FastchessConfig::read(path)
            .is_ok_and(|found| settings(&found) == settings(&self.file.config))
        {
            return None;
        }
        let to = numbered(path).find(|p| !p.exists())?;
        match std::fs::rename(path, &to) {
            Ok(()) => Some(format!(
                "{} held an earlier run's configuration and results: kept as {}; this run saves \
                 its own in {}",
                path.display(),
                to.display(),
                path.display()
            )),
            Err(error) => {
                self.error.get_or_insert(ConfigJsonError::Write {
                    path: path.clone(),
                    error,
                });
                None
            }
        }
    }
}

/// `config-1.json`, `config-2.json`, ... beside `path`.
fn numbered(path: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let extension = path.extension().map(|e| e.to_string_lossy().into_owned());
    (1..10_000).map(move |n| {
        let name = match &extension {
            Some(ext) => format!("{stem}-{n}.{ext}"),
            None => format!("{stem}-{n}"),
        };
        path.with_file_name(name)
    })
}

/// True when `a` and `b` name one file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

impl shannon::arena::MatchObserver for ConfigSaver<'_> {
    fn started(&mut self, start: &shannon::arena::MatchStart) -> std::io::Result<()> {
        self.file.config.seed = start.seed;
        self.inner.started(start)
    }

    fn game_started(&mut self, game: &shannon::arena::GameStarted<'_>) -> std::io::Result<()> {
        self.inner.game_started(game)
    }

    fn game_finished(&mut self, game: &shannon::arena::GameFinished<'_>) -> std::io::Result<()> {
        let told = self.inner.game_finished(game);
        self.played += 1;
        if self.file.interval > 0 && self.played % self.file.interval == 0 {
            self.save(game.standings);
        }
        told
    }

    fn option_warning(&mut self, warning: &shannon::arena::OptionWarning) -> std::io::Result<()> {
        self.inner.option_warning(warning)
    }

    fn run_stopped(&mut self, stop: &shannon::arena::RunStop) -> std::io::Result<()> {
        self.inner.run_stopped(stop)
    }

    fn finished(&mut self, report: &shannon::arena::MatchReport) -> std::io::Result<()> {
        let told = self.inner.finished(report);
        self.save(&report.standings);
        told
    }
}

#[cfg(test)]
mod tests;
