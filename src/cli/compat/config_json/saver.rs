//! `-config` on the command line (`file=`, `outname=`, `discard=`, `stats=`), and the
//! `config.json` a run saves as it goes ([`ConfigSaver`]).

use super::super::words::Opt;
use super::{ConfigJsonError, FastchessConfig, CONFIG_NAME};
use shannon::arena::{Carried, Standings};
use std::path::{Path, PathBuf};

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
pub fn expand(options: Vec<Opt>) -> Result<ConfigRun, super::super::error::CompatError> {
    use super::super::error::CompatError;
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
        if self.file.interval > 0 && self.played.is_multiple_of(self.file.interval) {
            self.save(game.standings);
        }
        told
    }

    fn game_unfinished(&mut self, game: &shannon::arena::GameFinished<'_>) -> std::io::Result<()> {
        self.inner.game_unfinished(game)
    }

    fn option_warning(&mut self, warning: &shannon::arena::OptionWarning) -> std::io::Result<()> {
        self.inner.option_warning(warning)
    }

    fn engine_options(&mut self, options: &shannon::arena::EngineOptions) -> std::io::Result<()> {
        self.inner.engine_options(options)
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
