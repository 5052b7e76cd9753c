//! One runner per saved run, and per output file. A match's state file and a random-games
//! checkpoint are rewritten after every game or block, and a match appends to its PGN and EPD
//! files; two runners on one of them (a requeued Slurm job while the first still runs, a second
//! terminal, a script's retry, a second match pointed at the first one's PGN) would both write,
//! interleaving or emptying each other's games. A [`RunLock`] is held for the whole run on a lock
//! file beside each file the run writes (`<file>.lock`, beside the file a symbolic link points
//! to, so two names of one file meet on one lock): a second runner is refused at once, with the
//! holder's pid and host.
//!
//! The lock is the operating system's (`flock` on Unix, `LockFileEx` on Windows), taken on a file
//! that is never renamed (the saved file itself is replaced by a rename at every save, so a lock
//! on it would not last). The kernel drops it when its process ends, however it ends: a runner
//! killed with SIGKILL leaves its lock file behind, but no lock, and the next runner takes it.
//!
//! On NFS, Linux carries `flock` over the NFS lock protocol (NLM for NFSv3, built in for NFSv4),
//! so runners on different hosts see each other's locks, unless the file system is mounted with
//! `nolock` (locks are then local to each host). The lock file names the host that last held
//! it, and a runner that takes over a lock file another host wrote says so on stderr, so that case
//! is at least visible.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The first line of a lock file.
const LOCK_FORMAT: &str = "shannon run lock 1";

/// How long a lock whose holder has ended may stay held (by a child process of the holder that
/// has not yet replaced itself with its program) before a new runner is refused anyway.
const HANDOVER: Duration = Duration::from_secs(3);

/// Who holds (or last held) a lock, as its lock file says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    /// Its process id.
    pub pid: u32,
    /// Its host name.
    pub host: String,
}

impl Holder {
    /// This process.
    fn me() -> Holder {
        Holder {
            pid: std::process::id(),
            host: this_host(),
        }
    }

    /// True when the holder was on this host and its process is gone (Linux, where `/proc`
    /// says; elsewhere a holder is never known to have ended).
    fn has_ended(&self) -> bool {
        self.host == this_host()
            && cfg!(target_os = "linux")
            && Path::new("/proc/self").exists()
            && !Path::new(&format!("/proc/{}", self.pid)).exists()
    }

    /// Read from a lock file's text; `None` when the text is not a lock file's (empty while its
    /// writer is between taking the lock and writing its name, or from another program).
    fn parse(text: &str) -> Option<Holder> {
        let mut lines = text.lines();
        if lines.next()? != LOCK_FORMAT {
            return None;
        }
        let (mut pid, mut host) = (None, None);
        for line in lines {
            if let Some(value) = line.strip_prefix("pid ") {
                pid = value.parse().ok();
            } else if let Some(value) = line.strip_prefix("host ") {
                host = Some(value.to_string());
            }
        }
        Some(Holder {
            pid: pid?,
            host: host?,
        })
    }

    fn text(&self) -> String {
        format!("{LOCK_FORMAT}\npid {}\nhost {}\n", self.pid, self.host)
    }
}

impl fmt::Display for Holder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pid {} on host {}", self.pid, self.host)
    }
}

/// This machine's name, as the lock file records it.
fn this_host() -> String {
    let name = gethostname::gethostname().to_string_lossy().into_owned();
    if name.is_empty() {
        "(unnamed)".to_string()
    } else {
        name
    }
}

/// Why a run cannot take its lock.
#[derive(Debug)]
pub enum RunLockError {
    /// Another runner holds it.
    Held {
        /// The saved file the runners share.
        guarded: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// The holder, when its lock file names it.
        holder: Option<Holder>,
    },
    /// This process holds it already: one run names the same file for two of its outputs.
    Twice {
        /// The file named twice.
        guarded: PathBuf,
    },
    /// The lock file cannot be made, read or locked.
    Io {
        /// The lock file.
        lock: PathBuf,
        /// What failed.
        source: io::Error,
    },
}

impl fmt::Display for RunLockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunLockError::Held {
                guarded,
                lock,
                holder,
            } => {
                write!(f, "{} is in use by another run", guarded.display())?;
                if let Some(holder) = holder {
                    write!(f, " ({holder})")?;
                }
                write!(
                    f,
                    "; two runs writing one file would mix or destroy each other's games: wait \
                     for it to end or stop it (its lock: {})",
                    lock.display()
                )
            }
            RunLockError::Twice { guarded } => write!(
                f,
                "{} is named for two of this run's files (PGN, EPD, state, report, JSON): give \
                 each its own file",
                guarded.display()
            ),
            RunLockError::Io { lock, source } => {
                write!(f, "cannot use the lock file {}: {source}", lock.display())
            }
        }
    }
}

impl std::error::Error for RunLockError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunLockError::Io { source, .. } => Some(source),
            RunLockError::Held { .. } | RunLockError::Twice { .. } => None,
        }
    }
}

/// An exclusive lock on a saved run, held until dropped; dropping it removes the lock file.
#[derive(Debug)]
pub struct RunLock {
    /// Open for as long as the lock is held (the lock belongs to this handle).
    _file: File,
    path: PathBuf,
    previous: Option<Holder>,
}

impl RunLock {
    /// The lock file of `guarded`: its path with `.lock` added, beside the file itself (a
    /// symbolic link is followed, and a relative path made absolute, where they can be), so that
    /// every name of one file has one lock file.
    pub fn path_for(guarded: &Path) -> PathBuf {
        let mut path = canonical(guarded).into_os_string();
        path.push(".lock");
        PathBuf::from(path)
    }

    /// Take the lock of `guarded` (a state file or a checkpoint, which need not exist yet), or
    /// say who holds it. Never waits.
    pub fn acquire(guarded: &Path) -> Result<RunLock, RunLockError> {
        let path = Self::path_for(guarded);
        let io = |source| RunLockError::Io {
            lock: path.clone(),
            source,
        };
        // A holder removes its lock file as it lets go: a file opened just before that is no
        // longer the one at `path`, so locking it would lock nothing. Try again, a few times.
        // And a runner killed while it started an engine leaves the lock with that engine's
        // process for the moment between its fork and its exec (the lock's file is closed on
        // exec): a lock whose named holder has ended is waited for, a little.
        let patience = Instant::now() + HANDOVER;
        for _ in 0..1000 {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(io)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    let mut text = String::new();
                    let _ = file.read_to_string(&mut text);
                    let holder = Holder::parse(&text);
                    if holder.as_ref() == Some(&Holder::me()) {
                        return Err(RunLockError::Twice {
                            guarded: guarded.to_path_buf(),
                        });
                    }
                    if holder.as_ref().is_some_and(Holder::has_ended) && Instant::now() < patience {
                        std::thread::sleep(Duration::from_millis(10));
                        continue;
                    }
                    return Err(RunLockError::Held {
                        guarded: guarded.to_path_buf(),
                        lock: path.clone(),
                        holder,
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
            }
            if !same_file(&file, &path) {
                continue;
            }
            let mut text = String::new();
            file.read_to_string(&mut text).map_err(io)?;
            let previous = Holder::parse(&text);
            file.set_len(0).map_err(io)?;
            file.rewind().map_err(io)?;
            file.write_all(Holder::me().text().as_bytes())
                .and_then(|()| file.sync_data())
                .map_err(io)?;
            return Ok(RunLock {
                _file: file,
                path,
                previous,
            });
        }
        Err(io(io::Error::other(
            "it was replaced again and again while being locked",
        )))
    }

    /// The runner whose lock file this run took over: one that ended without removing it
    /// (killed), or, when it was on another host, possibly one still running on a file system
    /// that does not share locks between hosts.
    pub fn previous(&self) -> Option<&Holder> {
        self.previous.as_ref()
    }

    /// A warning for the user when the lock was taken over from a runner on another host (on
    /// this host the kernel's lock proves that runner ended), or `None`.
    pub fn takeover_warning(&self) -> Option<String> {
        let previous = self.previous.as_ref()?;
        if previous.host == this_host() {
            return None;
        }
        Some(format!(
            "{} was last held by {previous}; if that run is still going, this file system does \
             not share locks between hosts (NFS mounted with nolock?) and the two runs will \
             interleave their games: stop one",
            self.path.display()
        ))
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // Removed while still locked; the lock goes with the file handle right after.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The path of the file `path` names: links followed and made absolute. A file that does not
/// exist yet is its folder's canonical path with its name; a folder that does not exist either
/// leaves the path as it is (taking its lock then fails, naming it).
fn canonical(path: &Path) -> PathBuf {
    if let Ok(path) = path.canonicalize() {
        return path;
    }
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    match (folder.canonicalize(), path.file_name()) {
        (Ok(folder), Some(name)) => folder.join(name),
        _ => path.to_path_buf(),
    }
}

/// True when `file` is the file now at `path`.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Windows does not let a locked, open file be removed, so the file at `path` is the one opened.
#[cfg(not(unix))]
fn same_file(_file: &File, path: &Path) -> bool {
    path.exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    /// A lock file held (by the kernel's lock on `file`) for `holder`, as another runner holds it.
    fn hold(lock_path: &Path, holder: &Holder) -> File {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(lock_path)
            .unwrap();
        file.try_lock().unwrap();
        std::fs::write(lock_path, holder.text()).unwrap();
        file
    }

    /// Another live runner on this host (init, which outlives every test).
    fn other_runner() -> Holder {
        Holder {
            pid: 1,
            host: this_host(),
        }
    }

    #[test]
    fn a_second_lock_is_refused_with_the_holder_and_taken_once_the_first_is_dropped() {
        let dir = scratch();
        let guarded = dir.path().join("run.state");
        let lock_path = RunLock::path_for(&guarded);
        assert_eq!(lock_path, dir.path().join("run.state.lock"));
        let first = hold(&lock_path, &other_runner());
        let refused = RunLock::acquire(&guarded).unwrap_err();
        match &refused {
            RunLockError::Held { holder, lock, .. } => {
                assert_eq!(holder.as_ref(), Some(&other_runner()));
                assert_eq!(lock, &lock_path);
            }
            other => panic!("{other}"),
        }
        let text = refused.to_string();
        assert!(
            text.contains("run.state is in use by another run"),
            "{text}"
        );
        assert!(text.contains("(pid 1 on host "), "{text}");
        drop(first);
        let second = RunLock::acquire(&guarded).unwrap();
        assert_eq!(second.previous(), Some(&other_runner()));
        drop(second);
        assert!(!lock_path.exists(), "the lock file stays");
    }

    /// One run naming a file for two of its outputs: the second lock is this process's own.
    #[test]
    fn a_file_locked_twice_by_one_run_is_named() {
        let dir = scratch();
        let guarded = dir.path().join("games.pgn");
        let _first = RunLock::acquire(&guarded).unwrap();
        let refused = RunLock::acquire(&guarded).unwrap_err();
        assert!(matches!(refused, RunLockError::Twice { .. }), "{refused}");
        assert!(
            refused
                .to_string()
                .contains("games.pgn is named for two of this run's files"),
            "{refused}"
        );
    }

    /// Two names of one file (a symbolic link, a relative and an absolute path) share a lock.
    #[cfg(unix)]
    #[test]
    fn every_name_of_a_file_has_the_same_lock() {
        let dir = scratch();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap();
        let file = real.join("z.pgn");
        let lock = RunLock::path_for(&file);
        assert_eq!(RunLock::path_for(&dir.path().join("link/z.pgn")), lock);
        std::fs::write(&file, "").unwrap();
        std::os::unix::fs::symlink(&file, dir.path().join("y.pgn")).unwrap();
        assert_eq!(RunLock::path_for(&dir.path().join("y.pgn")), lock);
        assert_eq!(
            RunLock::path_for(&dir.path().join("real/../real/./z.pgn")),
            lock
        );
    }

    /// The lock of a killed runner can outlive it for a moment, held by a child process that
    /// has not exec'd yet: a new runner waits for it when the named holder has ended, and is
    /// refused at once when the holder lives.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_lock_held_for_an_ended_holder_is_waited_for() {
        let dir = scratch();
        let guarded = dir.path().join("run.state");
        let lock_path = RunLock::path_for(&guarded);
        let alive = hold(&lock_path, &other_runner());
        let started = Instant::now();
        assert!(matches!(
            RunLock::acquire(&guarded),
            Err(RunLockError::Held { .. })
        ));
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "refused at once"
        );
        drop(alive);
        let dead = Holder {
            pid: 4_000_000,
            host: this_host(),
        };
        let left_over = hold(&lock_path, &dead);
        let releaser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            drop(left_over);
        });
        let lock = RunLock::acquire(&guarded).expect("taken once the child lets go");
        assert_eq!(lock.previous(), Some(&dead));
        releaser.join().unwrap();
    }

    #[test]
    fn a_killed_runners_lock_file_does_not_block_and_is_named() {
        let dir = scratch();
        let guarded = dir.path().join("ck");
        // What a runner killed with SIGKILL leaves: the file, with no lock on it.
        let dead = Holder {
            pid: 4_000_000,
            host: this_host(),
        };
        std::fs::write(RunLock::path_for(&guarded), dead.text()).unwrap();
        let lock = RunLock::acquire(&guarded).unwrap();
        assert_eq!(lock.previous(), Some(&dead));
        assert_eq!(lock.takeover_warning(), None, "same host: the kernel knows");
        let text = std::fs::read_to_string(RunLock::path_for(&guarded)).unwrap();
        assert_eq!(Holder::parse(&text), Some(Holder::me()));
        drop(lock);

        let elsewhere = Holder {
            pid: 7,
            host: "another-node".into(),
        };
        std::fs::write(RunLock::path_for(&guarded), elsewhere.text()).unwrap();
        let lock = RunLock::acquire(&guarded).unwrap();
        let warning = lock.takeover_warning().expect("another host's file");
        assert!(warning.contains("pid 7 on host another-node"), "{warning}");
    }

    #[test]
    fn a_lock_file_of_another_program_is_taken_over_without_a_holder() {
        let dir = scratch();
        let guarded = dir.path().join("x");
        std::fs::write(RunLock::path_for(&guarded), "something else").unwrap();
        assert!(RunLock::acquire(&guarded).unwrap().previous().is_none());
    }

    #[test]
    fn an_unwritable_folder_is_an_error_naming_the_lock_file() {
        let err = RunLock::acquire(Path::new("/nonexistent/folder/run.state")).unwrap_err();
        assert!(matches!(err, RunLockError::Io { .. }));
        assert!(err
            .to_string()
            .contains("/nonexistent/folder/run.state.lock"));
    }
}
