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

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use shannon::arena::{Carried, CarriedEncounter, Standings};

mod options;
mod parse;
mod saver;

pub use saver::{expand, ConfigFile, ConfigRun, ConfigSaver};
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

impl FastchessConfig {
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

#[cfg(test)]
mod tests;
