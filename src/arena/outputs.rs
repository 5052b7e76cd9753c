//! What a new run finds in the files it would write, and what it does about them: a second run
//! never destroys a first run's games.
//!
//! Each file is surveyed before anything is written (under the run's locks, so no other run
//! writes it meanwhile): the PGN's games, the EPD's positions, the state file's saved run, the
//! forensics folder's files. Then, as the request's [`Existing`] says:
//! - [`Existing::Refuse`] (the `--long` form): a file that holds something is named, with what it
//!   holds, and the run does not start; a state holding an unfinished run of the same settings
//!   is said to be one, since a resume continues it. A PGN the request leaves to the engines
//!   file's default is not refused: the run takes the next free name (`match-2.pgn`).
//! - [`Existing::Overwrite`]: the files are replaced, as asked.
//! - [`Existing::Append`] (cutechess-cli's and fastchess's form): the run's games follow those
//!   the files hold, as those tools append, and its state says where they start. When the state
//!   file beside the PGN holds an unfinished run of the same settings (the same command line,
//!   killed), that run is continued instead; an unfinished run of other settings is refused (its
//!   resume would be lost); a finished one's state is moved to a free name and kept.

use super::files::{Holding, Occupant, OutputFile, SavedRun};
use super::request::{Existing, MatchSettings};
use super::state::MatchState;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

/// One file a run would write, as found.
#[derive(Debug)]
pub(crate) struct Found {
    /// The file.
    pub(crate) path: PathBuf,
    /// What it holds (`None`: it does not exist, or is empty).
    pub(crate) holds: Option<Holding>,
}

impl Found {
    fn occupant(&self) -> Option<Occupant> {
        self.holds.clone().map(|holds| Occupant {
            path: self.path.clone(),
            holds,
        })
    }
}

/// What a new run finds in its files.
#[derive(Debug)]
pub(crate) struct Survey {
    /// The PGN.
    pub(crate) pgn: Option<Found>,
    /// The EPD.
    pub(crate) epd: Option<Found>,
    /// The state file, with the state when it reads as one.
    pub(crate) state: Option<(Found, Option<MatchState>)>,
    /// The PGN's forensics folder, and the highest number of its files.
    pub(crate) forensics: Option<(Found, u32)>,
}

/// Look at the files of a new run of `settings`: its `pgn`, `epd` and `state` files.
/// `seed_drawn`: the run's seed was drawn, so a saved run of another seed can be the same.
pub(crate) fn survey(
    pgn: Option<&Path>,
    epd: Option<&Path>,
    state: Option<&Path>,
    settings: &MatchSettings,
    seed_drawn: bool,
) -> Result<Survey, (OutputFile, PathBuf, io::Error)> {
    let game_file = |file: OutputFile, path: Option<&Path>| {
        path.map(|path| {
            game_file(file, path)
                .map(|holds| Found {
                    path: path.to_path_buf(),
                    holds,
                })
                .map_err(|e| (file, path.to_path_buf(), e))
        })
        .transpose()
    };
    let forensics = pgn.map(|pgn| {
        let folder = forensics_folder(pgn);
        let (files, highest) = forensics_files(&folder);
        let holds = (files > 0).then_some(Holding::Forensics(files));
        (
            Found {
                path: folder,
                holds,
            },
            highest,
        )
    });
    let state = state.map(|path| {
        let (holds, state) = match saved_run(path, settings, seed_drawn) {
            Some((holds, state)) => (Some(holds), state),
            None => (None, None),
        };
        let found = Found {
            path: path.to_path_buf(),
            holds,
        };
        (found, state)
    });
    Ok(Survey {
        pgn: game_file(OutputFile::Pgn, pgn)?,
        epd: game_file(OutputFile::Epd, epd)?,
        state,
        forensics,
    })
}

/// How a new run starts, from what its files hold.
#[derive(Debug)]
pub(crate) enum Decision {
    /// As a new run (each file made, replaced or appended to as asked).
    Start,
    /// By continuing the unfinished run of the same settings its state file holds.
    Continue(Box<MatchState>),
}

impl Survey {
    /// How the run starts when its PGN (with its state and forensics) and its EPD are treated
    /// as `pgn` and `epd` say, or the files it must not touch.
    pub(crate) fn decide(
        &mut self,
        pgn: Existing,
        epd: Existing,
    ) -> Result<Decision, Vec<Occupant>> {
        let mut refused = Vec::new();
        if epd == Existing::Refuse {
            refused.extend(self.epd.as_ref().and_then(Found::occupant));
        }
        let state = self.state.as_ref().and_then(|(found, _)| found.occupant());
        match pgn {
            Existing::Refuse => {
                refused.extend(self.pgn.as_ref().and_then(Found::occupant));
                refused.extend(state);
                refused.extend(self.forensics.as_ref().and_then(|(f, _)| f.occupant()));
            }
            Existing::Overwrite => {}
            Existing::Append => match state.as_ref().map(|o| &o.holds) {
                Some(Holding::Run(run)) if run.finished => {}
                Some(Holding::Run(run)) if run.same_settings && refused.is_empty() => {
                    let saved = self.state.take().and_then(|(_, state)| state);
                    let saved = saved.expect("a run was read from it");
                    return Ok(Decision::Continue(Box::new(saved)));
                }
                Some(_) => refused.extend(state),
                None => {}
            },
        }
        match refused.is_empty() {
            true => Ok(Decision::Start),
            false => Err(refused),
        }
    }
}

/// The forensics folder of the PGN at `pgn`: `<pgn>.forensics`.
pub(crate) fn forensics_folder(pgn: &Path) -> PathBuf {
    let mut dir = pgn.as_os_str().to_owned();
    dir.push(".forensics");
    PathBuf::from(dir)
}

/// What the game file `path` holds: `None` when it does not exist or is empty.
pub(crate) fn game_file(file: OutputFile, path: &Path) -> io::Result<Option<Holding>> {
    let handle = match std::fs::File::open(path) {
        Ok(handle) => handle,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    if handle.metadata()?.len() == 0 {
        return Ok(None);
    }
    let mut reader = BufReader::new(handle);
    let mut line = Vec::new();
    let mut count = 0;
    while reader.read_until(b'\n', &mut line)? > 0 {
        count += match file {
            OutputFile::Pgn => usize::from(line.starts_with(b"[Event ")),
            OutputFile::Epd => usize::from(!line.trim_ascii().is_empty()),
        };
        line.clear();
    }
    Ok(Some(match file {
        OutputFile::Pgn => Holding::Games(count),
        OutputFile::Epd => Holding::Positions(count),
    }))
}

/// The forensics files (`<number>.txt`) in `folder`: how many, and the highest number.
pub(crate) fn forensics_files(folder: &Path) -> (usize, u32) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return (0, 0);
    };
    let numbers: Vec<u32> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name();
            name.to_str()?.strip_suffix(".txt")?.parse().ok()
        })
        .collect();
    (numbers.len(), numbers.into_iter().max().unwrap_or(0))
}

/// The run saved in the state file at `path`, as a new run of `settings` (of `todo` games)
/// sees it: `None` when there is no such file.
pub(crate) fn saved_run(
    path: &Path,
    settings: &MatchSettings,
    seed_drawn: bool,
) -> Option<(Holding, Option<MatchState>)> {
    if !path.exists() {
        return None;
    }
    let state = match MatchState::load(path) {
        Ok(state) => state,
        Err(e) => return Some((Holding::NotAState(e.to_string()), None)),
    };
    let of = match state.settings.schedule() {
        // A knockout numbers no game in advance: over or not, as the state says.
        Ok(schedule) if schedule.kind == super::schedule::TournamentKind::Knockout => {
            let at_least = (state.settings.engines.len().saturating_sub(1))
                .saturating_mul(state.settings.games as usize);
            match state.knockout_over {
                true => 0,
                false => at_least.max(state.done.len() + 1),
            }
        }
        Ok(schedule) => schedule.games_of(state.settings.shard).len(),
        Err(e) => return Some((Holding::NotAState(e.to_string()), None)),
    };
    let done = state.done.len();
    let clean = |a: &Option<super::state::Appendix>| {
        a.as_ref()
            .is_none_or(|a| a.pending.is_empty() && a.unfinished.is_empty())
    };
    // A run killed after its last game or its SPRT's decision, before it ended, is not
    // finished: a re-run continues it (and prints its report).
    let finished =
        (state.sprt_decided || done >= of) && clean(&state.pgn) && clean(&state.epd) && state.ended;
    let comparable = |s: &MatchSettings| MatchSettings {
        concurrency: None,
        // What a failure does may change between runs: a run a crash stopped continues with
        // -recover.
        recover: true,
        ping_ms: None,
        wait_ms: 0,
        seed: if seed_drawn { 0 } else { s.seed },
        // One game an opening is written as none (0) in a state.
        layout: super::schedule::Layout {
            games_per_opening: s.layout.games_per_opening.max(1),
            ..s.layout
        },
        ..s.clone()
    };
    let here = std::env::current_dir().ok();
    let same_settings = comparable(&state.settings) == comparable(settings)
        && here.as_deref() == Some(state.directory());
    let decided = state
        .sprt_run
        .as_ref()
        .and_then(|run| run.decision())
        .filter(|_| state.sprt_decided)
        .map(|status| (status.verdict, status.games));
    let run = SavedRun {
        done,
        of,
        finished,
        same_settings,
        decided,
    };
    Some((Holding::Run(run), Some(state)))
}

/// The first free name of the form `<stem>-<n><.extension>` for `path` (n from 2), for which
/// `taken` is false.
pub(crate) fn numbered(path: &Path, from: u32, taken: impl Fn(&Path) -> bool) -> Option<PathBuf> {
    let stem = path.file_stem()?.to_string_lossy().into_owned();
    let extension = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    (from..from + 10_000)
        .map(|n| path.with_file_name(format!("{stem}-{n}{extension}")))
        .find(|candidate| !taken(candidate))
}

/// Remove the forensics files of an earlier run from `folder` (and the folder, when that
/// leaves it empty): `--overwrite` replaces a run's files.
pub(crate) fn clear_forensics(folder: &Path) -> io::Result<()> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let numbered = name
            .to_str()
            .and_then(|n| n.strip_suffix(".txt"))
            .is_some_and(|n| n.parse::<u32>().is_ok());
        if numbered {
            std::fs::remove_file(entry.path())?;
        }
    }
    // Kept when something else is in it.
    let _ = std::fs::remove_dir(folder);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_files_are_counted_by_their_games_and_lines() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("g.pgn");
        assert_eq!(game_file(OutputFile::Pgn, &pgn).unwrap(), None);
        std::fs::write(&pgn, "").unwrap();
        assert_eq!(game_file(OutputFile::Pgn, &pgn).unwrap(), None);
        std::fs::write(
            &pgn,
            "[Event \"a\"]\n[Round \"1\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 1-0\n",
        )
        .unwrap();
        assert_eq!(
            game_file(OutputFile::Pgn, &pgn).unwrap(),
            Some(Holding::Games(2))
        );
        let epd = dir.path().join("g.epd");
        std::fs::write(&epd, "a b c d;\n\nb c d e;").unwrap();
        assert_eq!(
            game_file(OutputFile::Epd, &epd).unwrap(),
            Some(Holding::Positions(2))
        );
    }

    #[test]
    fn numbered_names_skip_the_taken_ones() {
        let taken = |p: &Path| p.ends_with("match-2.pgn");
        assert_eq!(
            numbered(Path::new("dir/match.pgn"), 2, taken),
            Some(PathBuf::from("dir/match-3.pgn"))
        );
        assert_eq!(
            numbered(Path::new("games.pgn.state.json"), 1, |_| false),
            Some(PathBuf::from("games.pgn.state-1.json"))
        );
    }

    #[test]
    fn forensics_files_are_found_and_cleared_alone() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("g.pgn.forensics");
        assert_eq!(forensics_files(&folder), (0, 0));
        std::fs::create_dir(&folder).unwrap();
        for name in ["3.txt", "12.txt", "notes.txt"] {
            std::fs::write(folder.join(name), "x").unwrap();
        }
        assert_eq!(forensics_files(&folder), (2, 12));
        clear_forensics(&folder).unwrap();
        assert_eq!(forensics_files(&folder), (0, 0));
        assert!(folder.join("notes.txt").exists(), "another file is kept");
    }
}
