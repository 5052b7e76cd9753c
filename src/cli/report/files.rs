//! What a match run says about its files, in the words of the command line that started it: the
//! notes on files that held something when it started (on stderr, before the first game), and
//! the refusal when they hold what a new run would replace. The `--long` form and the
//! cutechess-cli/fastchess form name their options differently ([`Form`]).

use crate::cli::prelude::say;
use shannon::arena::{
    continues, EngineOptions, FileNote, GameFinished, GameStarted, Holding, MatchObserver,
    MatchReport, MatchStart, Occupant, OptionWarning, RunStop,
};
use std::io;

/// Which command line a run was started with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `shannon match --pgn ...`.
    Long,
    /// cutechess-cli's or fastchess's (`-pgnout ...`).
    Compat,
}

/// An observer that prints the start's notes on stderr (`shannon: note: ...`), then passes
/// everything on to `inner`.
pub struct Noting<'a> {
    inner: &'a mut dyn MatchObserver,
    form: Form,
}

impl<'a> Noting<'a> {
    /// Notes printed for a run of `form`, then `inner`.
    pub fn new(inner: &'a mut dyn MatchObserver, form: Form) -> Noting<'a> {
        Noting { inner, form }
    }
}

impl MatchObserver for Noting<'_> {
    fn started(&mut self, start: &MatchStart) -> io::Result<()> {
        for note in &start.notes {
            say!("shannon: note: {}", note_text(note, self.form));
        }
        self.inner.started(start)
    }

    fn game_started(&mut self, game: &GameStarted<'_>) -> io::Result<()> {
        self.inner.game_started(game)
    }

    fn game_finished(&mut self, game: &GameFinished<'_>) -> io::Result<()> {
        self.inner.game_finished(game)
    }

    fn game_unfinished(&mut self, game: &GameFinished<'_>) -> io::Result<()> {
        self.inner.game_unfinished(game)
    }

    fn option_warning(&mut self, warning: &OptionWarning) -> io::Result<()> {
        self.inner.option_warning(warning)
    }

    fn engine_options(&mut self, options: &EngineOptions) -> io::Result<()> {
        self.inner.engine_options(options)
    }

    fn run_stopped(&mut self, stop: &RunStop) -> io::Result<()> {
        self.inner.run_stopped(stop)
    }

    fn finished(&mut self, report: &MatchReport) -> io::Result<()> {
        self.inner.finished(report)
    }
}

/// One note, as a sentence.
pub fn note_text(note: &FileNote, form: Form) -> String {
    match note {
        FileNote::NewName { taken, chosen } => {
            let held: Vec<String> = taken.iter().map(ToString::to_string).collect();
            let mut text = format!(
                "the default PGN is taken ({}): this run writes its games to {} (--pgn chooses \
                 the file; --overwrite replaces the default's)",
                held.join("; "),
                chosen.display()
            );
            if let Some(state) = continues(taken) {
                text.push_str(&format!(
                    "; shannon match --resume {} continues the unfinished run",
                    state.display()
                ));
            }
            text
        }
        FileNote::Appended(occupant) => format!(
            "{}: this run's games are appended after them, as cutechess-cli and fastchess do",
            occupant
        ),
        FileNote::Replaced(occupant) => format!(
            "{} before this run: replaced, as {} asks",
            occupant.to_string().replacen(" holds ", " held ", 1),
            match form {
                Form::Long => "--overwrite",
                Form::Compat => "append=false",
            }
        ),
        FileNote::StateKept { from, to } => format!(
            "{} held the state of an earlier, finished run: kept as {}; this run's state takes \
             its name",
            from.display(),
            to.display()
        ),
        FileNote::SetAside { from, to } => format!(
            "{} held text after the games its state records that this run did not write \
             (another program appended it): moved, whole, to {} ({}); the run goes on in {}",
            from.display(),
            to.path.display(),
            to.holds,
            from.display()
        ),
        FileNote::Continued { state, done, of } => format!(
            "{} holds an unfinished run of this command line ({done} of {of} games done): \
             continuing it; the games already played are kept and not played again",
            state.display()
        ),
        FileNote::CarriedBehind {
            state,
            done,
            carried,
        } => format!(
            "the -config file holds {carried} finished games of this run and {} holds {done} \
             (Shannon saves its state after every game, the -config file every \
             -autosaveinterval games): continuing from {}",
            state.display(),
            state.display()
        ),
    }
}

/// The refusal of a run whose files hold `files`, with the ways on.
pub fn refusal(files: &[Occupant], form: Form) -> String {
    let mut text =
        String::from("the files this run would write hold an earlier run's (nothing was written):");
    for file in files {
        text.push_str(&format!("\n  {file}"));
    }
    if let Some(state) = continues(files) {
        text.push_str(&format!(
            "\nto continue that run: shannon match --resume {}",
            state.display()
        ));
    }
    match form {
        Form::Long => text.push_str(
            "\nto start anew: choose other files (--pgn, --state, --epd), or add --overwrite \
             to replace these",
        ),
        Form::Compat => {
            for file in files {
                let path = file.path.display();
                match &file.holds {
                    Holding::Run(_) if continues(files).is_none() => text.push_str(&format!(
                        "\nto continue that run: shannon match --resume {path}\nto append a new \
                         run to the PGN instead: move {path} away (the PGN keeps its games), or \
                         choose another -pgnout file"
                    )),
                    Holding::NotAState(_) => text.push_str(&format!(
                        "\nto append a new run to the PGN: move {path} away, or choose another \
                         -pgnout file"
                    )),
                    _ => {}
                }
            }
            text.push_str("\nto replace the files: -pgnout file=... append=false");
        }
    }
    text
}
