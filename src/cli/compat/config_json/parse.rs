//! Reading fastchess's `config.json`: every field checked by name, so that a damaged,
//! truncated or foreign file is refused naming the file and the field ([`ConfigJsonError`]).

use super::{
    ConfigJsonError, DrawJson, EngineJson, EpdJson, FastchessConfig, LimitJson, LogJson,
    MaxMovesJson, OpeningJson, PgnJson, ResignJson, SprtJson, StatsJson, TbJson, TcJson,
};
use serde_json::Value;
use std::path::Path;

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
