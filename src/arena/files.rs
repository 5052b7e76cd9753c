//! The files a run writes and what a run finds in them, as data: which file ([`OutputFile`]),
//! what a file holds ([`Holding`], [`SavedRun`], [`Occupant`]) and what a run did with one
//! that held something ([`FileNote`]). The survey and its decisions are `outputs`'s; the errors
//! that name these are `error`'s.

use crate::stats::SprtVerdict;
use serde::Serialize;
use std::fmt;
use std::path::PathBuf;

/// One of the files a match writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFile {
    /// The games.
    Pgn,
    /// The final positions.
    Epd,
}

impl fmt::Display for OutputFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutputFile::Pgn => "PGN",
            OutputFile::Epd => "EPD",
        })
    }
}

/// What a file holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Holding {
    /// Games of a PGN (counted by their `[Event` tags).
    Games(usize),
    /// Positions of an EPD (its lines).
    Positions(usize),
    /// A match's saved run.
    Run(SavedRun),
    /// Something that is not a match's state (why it does not read as one).
    NotAState(String),
    /// Forensics files of a PGN's games.
    Forensics(usize),
}

impl fmt::Display for Holding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        match self {
            Holding::Games(n) => write!(f, "{n} game{}", plural(*n)),
            Holding::Positions(n) => write!(f, "{n} position{}", plural(*n)),
            Holding::Run(run) => write!(f, "{run}"),
            Holding::NotAState(why) => write!(f, "something that is not a match state ({why})"),
            Holding::Forensics(n) => write!(f, "{n} forensics file{}", plural(*n)),
        }
    }
}

/// A run saved in a state file, as a new run sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SavedRun {
    /// Games done.
    pub done: usize,
    /// Games of its schedule (of its shard).
    pub of: usize,
    /// True when it has nothing left to play (every game done, or its SPRT decided) and its
    /// files hold every game it recorded.
    pub finished: bool,
    /// True when it plays the new run's settings (the seed aside when the new run leaves it to
    /// chance; the concurrency aside), from the same directory and into the same files.
    pub same_settings: bool,
    /// When its SPRT decided: the verdict, and the schedule's first games it was taken on.
    pub decided: Option<(SprtVerdict, u32)>,
}

impl fmt::Display for SavedRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((verdict, games)) = self.decided {
            let run = match (self.finished, self.same_settings) {
                (true, _) => "a run",
                (false, true) => "a run of these settings, stopped before it ended,",
                (false, false) => "a run of other settings, stopped before it ended,",
            };
            return write!(
                f,
                "the state of {run} whose SPRT decided ({verdict} at game {games}; {} of {} \
                 games done)",
                self.done, self.of
            );
        }
        let (state, settings) = match (self.finished, self.same_settings) {
            (true, _) => ("a finished run", ""),
            (false, true) => ("an unfinished run", " of these settings"),
            (false, false) => ("an unfinished run", " of other settings"),
        };
        write!(
            f,
            "the state of {state}{settings} ({} of {} games done)",
            self.done, self.of
        )
    }
}

/// A file a run would write, and what it holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Occupant {
    /// The file (or folder).
    pub path: PathBuf,
    /// What it holds.
    pub holds: Holding,
}

impl fmt::Display for Occupant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} holds {}", self.path.display(), self.holds)
    }
}

/// What a run did with a file that held something when it started, told before its first game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileNote {
    /// The engines file's default PGN (or its state) holds an earlier run: this run writes
    /// `chosen` instead.
    NewName {
        /// What the default names hold.
        taken: Vec<Occupant>,
        /// The PGN this run writes.
        chosen: PathBuf,
    },
    /// The run's games are appended after what the file held.
    Appended(Occupant),
    /// What the file held was replaced, as asked.
    Replaced(Occupant),
    /// A finished earlier run's state was moved to a free name, to make room for this run's.
    StateKept {
        /// Where it was.
        from: PathBuf,
        /// Where it is.
        to: PathBuf,
    },
    /// Text that followed the run's games in its file but was not written by it (another program
    /// appended it behind the state's back) was moved, whole, to a file beside.
    SetAside {
        /// The run's file.
        from: PathBuf,
        /// The file it is in now, and what it holds.
        to: Occupant,
    },
    /// The state beside the PGN held an unfinished run of the same settings: it is continued.
    Continued {
        /// The state file.
        state: PathBuf,
        /// Games it had done.
        done: usize,
        /// Games of its schedule.
        of: usize,
    },
    /// Games carried from another program's file ([`super::Carried`]: fastchess's
    /// `config.json`) were passed over for the state beside the PGN, which holds more of the
    /// same run (the state is saved after every game, `config.json` every few).
    CarriedBehind {
        /// The state file continued.
        state: PathBuf,
        /// Games it holds.
        done: usize,
        /// Games the other file holds.
        carried: u32,
    },
}
