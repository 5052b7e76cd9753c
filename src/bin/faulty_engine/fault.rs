//! How `shannon-faulty-engine` misbehaves: the kinds `--fault` takes.

use clap::ValueEnum;

/// How the engine misbehaves. The names are what `--fault` takes; each doc line is shown by
/// `--help`, so a test author can pick a fault without reading this file.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Fault {
    /// Never misbehaves.
    None,
    /// Answers a well-formed move that is not legal.
    IllegalMove,
    /// Exits without answering.
    Crash,
    /// Writes two lines on stderr (the second `faulty: simulated crash at go N`), then exits
    /// with status 3 without answering.
    StderrCrash,
    /// Overruns its clock by its own account: reports `info depth 1 time T` every 20 ms of
    /// its search (T the real time since `go`) until 300 ms past the time it had left (its
    /// clock, or `go movetime`), then answers.
    Overrun,
    /// Kills itself with SIGKILL (as the OOM killer or a user would).
    #[value(name = "sigkill")]
    SigKill,
    /// Never answers (keeps reading).
    Hang,
    /// From its N-th `go` on, thinks until `stop` (as in `go infinite`), then answers well: a
    /// game that runs until a runner is interrupted.
    ThinkUntilStop,
    /// Stops reading its input and never answers.
    StopReading,
    /// Prints garbage lines without end instead of answering.
    Flood,
    /// Never answers `uci` at all.
    NoUciok,
    /// Dies between games: at the N-th `ucinewgame` (`--after N`) writes `faulty: exiting at
    /// ucinewgame N` on stderr and exits with status 5, without answering the `isready` after it.
    ExitOnNewgame,
    /// Plays correctly, but `go perft` leaves out underpromotions, like a buggy generator.
    OmitUnderpromotions,
    /// Plays correctly, but `go perft` leaves out en passant captures.
    OmitEnPassant,
    /// Plays correctly, but `go perft` leaves out castling moves.
    OmitCastling,
    /// Does not know `go perft`: answers it with a search (`info` lines and a `bestmove`), as
    /// engines without perft do.
    NoPerft,
    /// Does not know `go perft` and says nothing at all to it.
    SilentPerft,
    /// Never sends `bestmove` after `go infinite` and `stop`.
    NoBestmoveAfterStop,
    /// Ignores `isready` while a search (`go infinite`, `go ponder`) is running.
    NoReadyokWhileSearching,
    /// With UCI_Chess960 on, writes castling as the king's destination (`e1g1`), not
    /// king-takes-rook (`e1h1`), in `bestmove` and `go perft`.
    #[value(name = "chess960-king-to-square")]
    Chess960KingToSquare,
    /// Announces malformed options: a spin default out of range, a combo default that is not
    /// one of its values, an unknown option type.
    BadOptions,
    /// Waits `--delay-ms` (6 seconds) before answering `uci` (longer than the usual 5 s
    /// start-up timeout).
    SlowUciok,
    /// Answers an `isready` that directly follows another `isready` only after 3 s.
    SlowIsready,
    /// Ignores `quit` (still ends at the end of its input).
    IgnoreQuit,
    /// Keeps running after the end of its input (still ends on `quit`).
    IgnoreEof,
    /// Answers `bestmove a1a1` when the side to move has no legal move.
    NullMoveWhenMated,
    /// Exits (status 139, as after a segfault) on a `position fen` whose FEN does not parse.
    CrashOnBadFen,
    /// Exits (status 139) on a `position fen` with exactly 5 FEN fields.
    FiveFieldFenCrash,
    /// When in check (and not mated), answers an illegal king step (one still in check).
    IllegalInCheck,
    /// Sends `bestmove` twice in answer to `go movetime`.
    TwoBestmoves,
    /// With White to move and `wtime` at most 100 ms, waits 400 ms before answering.
    SlowSmallClock,
    /// Answers `go ponder` at once with a `bestmove`, not waiting for `ponderhit` or `stop`.
    EarlyPonderBestmove,
    /// With UCI_Chess960 on, stops applying `position ... moves` at a castling move.
    #[value(name = "chess960-ignores-castling-input")]
    Chess960IgnoresCastlingInput,
    /// Reads a `go` with a word it does not know (`go perft x`) as `go infinite`: a search
    /// that only `stop` ends (as Stockfish does).
    UnknownGoInfinite,
    /// A slow engine (it answers `uci` after `--delay-ms` and counts `go perft` at 50,000
    /// nodes a second) whose `go perft` also counts, at its last ply, en passant captures that
    /// leave its own king in check.
    SlowEnPassantIntoCheck,
    /// `go perft` prints every move's count right, but a `Nodes searched` total one too many.
    WrongPerftTotal,
    /// `go perft` loses the en passant square when it makes a move: it finds en passant
    /// captures only in the position it was given.
    PerftLosesEnPassantSquare,
    /// Answers `uci`, but never `isready`.
    NoReadyok,
    /// Exits (status 139, as after a buffer overflow) on an input line longer than 1,024
    /// bytes.
    LongLineCrash,
}
