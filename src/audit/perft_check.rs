//! `shannon perft-check`: compare an engine's `go perft` (Stockfish's output format) with our
//! own counts, and on a mismatch walk down the tree to the exact position where the two move
//! generators disagree, naming the moves one side has and the other lacks.

use crate::client::{EngineConfig, EngineError, EngineProcess};
use crate::notation::uci::{format_move, parse_move};
use crate::perft::suite::{parse_suite, SuiteError};
use crate::perft::{divide, PerftOptions};
use crate::{CastlingMode, FenError, Position};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One position to check.
#[derive(Debug, Clone)]
pub struct CheckPosition {
    /// A label for the report (`--fen`, or `file:line`).
    pub label: String,
    /// The position.
    pub position: Position,
    /// Chess960 sets `UCI_Chess960` and the castling notation.
    pub castling: CastlingMode,
}

/// Where the generators part ways.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// The moves from the checked position to the position where the walk ended.
    pub path: Vec<String>,
    /// That position's FEN.
    pub fen: String,
    /// The depth still to count there.
    pub depth: u32,
    /// What the engine's answer there gets wrong.
    pub difference: Difference,
    /// The engine's and our total at that position.
    pub totals: (u64, u64),
}

/// What the engine's divide gets wrong at the position where a walk ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// The move lists differ.
    Moves {
        /// Our legal moves the engine did not list.
        missing: Vec<String>,
        /// Moves the engine listed that are not legal here.
        extra: Vec<String>,
    },
    /// At depth 1, the engine counts other than one node for a move.
    Leaf {
        /// The move.
        mv: String,
        /// The engine's count for it.
        count: u64,
    },
    /// The engine's moves and counts are ours, but its `Nodes searched` total is not their sum.
    Sum {
        /// The sum of the engine's own move counts.
        sum: u64,
    },
    /// Given this position, the engine counts as we do; but in the position before, it counted
    /// otherwise for the move that leads here (its count depends on how it reached it).
    AgreesHere {
        /// The engine's count for the path's last move in the position before.
        before: u64,
    },
}

impl Disagreement {
    /// Where the walk ended: the path and the position, and the depth there.
    pub fn place(&self) -> String {
        let path = if self.path.is_empty() {
            "the position itself".to_string()
        } else {
            format!("after [{}]", self.path.join(" "))
        };
        format!("{path} ({}), depth {}", self.fen, self.depth)
    }

    /// What the engine gets wrong there, in one sentence.
    pub fn what(&self) -> String {
        let (theirs, ours) = self.totals;
        match &self.difference {
            Difference::Moves { missing, extra } => {
                let mut parts = Vec::new();
                if !missing.is_empty() {
                    parts.push(format!("the engine lacks {}", missing.join(" ")));
                }
                if !extra.is_empty() {
                    parts.push(format!("lists {}, not legal there", extra.join(" ")));
                }
                format!("{} (engine {theirs} nodes, ours {ours})", parts.join(" and "))
            }
            Difference::Leaf { mv, count } => format!(
                "the engine counts {count} nodes for {mv} at depth 1, where a legal move is one node"
            ),
            Difference::Sum { sum } => format!(
                "the engine's moves and their counts are right, but its `Nodes searched` total \
                 {theirs} is not their sum {sum} (ours: {ours})"
            ),
            Difference::AgreesHere { before } => format!(
                "given this position the engine counts {theirs}, as we do, but in the position \
                 before it counted {before} for {}: its count depends on how it reached the \
                 position (by its own move, or by `position fen`); check what making a move keeps \
                 and sets (en passant square, castling rights, side to move)",
                self.path.last().map_or("", String::as_str)
            ),
        }
    }
}

impl std::fmt::Display for Disagreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let lead = match self.difference {
            Difference::Moves { .. } | Difference::Leaf { .. } => "the first wrong node is ",
            Difference::Sum { .. } | Difference::AgreesHere { .. } => "",
        };
        write!(f, "{lead}{}: {}", self.place(), self.what())
    }
}

/// The outcome of checking one position.
#[derive(Debug)]
pub enum CheckOutcome {
    /// Both counted the same.
    Agree(u64),
    /// The counts differ; the walk down found this.
    Disagree(Disagreement),
}

/// How long an engine may take to answer `go perft 1` before it is taken not to support
/// `go perft`: depth 1 is instant for any engine that has it, so the check can say so at once
/// instead of waiting out the (long) timeout of a real count.
pub const PERFT_PROBE_GRACE: Duration = Duration::from_secs(2);

/// Why a check could not be completed.
#[derive(Debug)]
pub enum PerftCheckError {
    /// The engine failed to start or answer.
    Engine(EngineError),
    /// The engine's perft output is not in Stockfish's format.
    Output(String),
    /// The engine does not support `go perft`; what it did instead.
    NoPerft(String),
}

impl std::fmt::Display for PerftCheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PerftCheckError::Engine(e) => write!(f, "{e}"),
            PerftCheckError::Output(line) => write!(
                f,
                "cannot read the engine's perft output line '{line}' (expected 'e2e4: 20' lines \
                 and 'Nodes searched: N')"
            ),
            PerftCheckError::NoPerft(what) => {
                write!(f, "this engine does not support go perft ({what})")
            }
        }
    }
}

impl std::error::Error for PerftCheckError {}

impl From<EngineError> for PerftCheckError {
    fn from(e: EngineError) -> Self {
        PerftCheckError::Engine(e)
    }
}

/// The engine's divide: its count per move text and its total.
fn engine_divide(
    engine: &mut EngineProcess,
    pos: &Position,
    depth: u32,
    mode: CastlingMode,
    timeout: Duration,
) -> Result<(BTreeMap<String, u64>, u64), PerftCheckError> {
    engine.send(&format!("position fen {}", pos.fen_for(mode)));
    read_divide(engine, depth, timeout)
}

/// Send `go perft {depth}` in the position the engine has, and read its divide (Stockfish's
/// format): its count per move text and its total.
pub fn read_divide(
    engine: &mut EngineProcess,
    depth: u32,
    timeout: Duration,
) -> Result<(BTreeMap<String, u64>, u64), PerftCheckError> {
    engine.send(&format!("go perft {depth}"));
    let mut moves = BTreeMap::new();
    let mut bad_line = None;
    let total_line = engine.wait_for("perft output", timeout, |line| {
        if line.starts_with("Nodes searched") || line.starts_with("bestmove") {
            return true;
        }
        if let Some((mv, count)) = line.split_once(':') {
            match count.trim().parse::<u64>() {
                Ok(count) if !mv.contains(' ') => {
                    moves.insert(mv.trim().to_string(), count);
                }
                _ if bad_line.is_none() && !line.starts_with("info") => {
                    bad_line = Some(line.to_string())
                }
                _ => {}
            }
        }
        false
    })?;
    if total_line.starts_with("bestmove") {
        return Err(PerftCheckError::NoPerft(format!(
            "it answered 'go perft {depth}' with a search: '{total_line}'"
        )));
    }
    let total = total_line
        .rsplit(':')
        .next()
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| PerftCheckError::Output(total_line.clone()))?;
    if let Some(line) = bad_line {
        return Err(PerftCheckError::Output(line));
    }
    Ok((moves, total))
}

/// Ask for `go perft 1` in the start position and give the engine [`PERFT_PROBE_GRACE`] to
/// finish it. An engine without perft either searches (and sends `bestmove`) or ignores the
/// command; both are reported at once rather than after the full timeout of a real count.
pub fn probe_perft(engine: &mut EngineProcess, timeout: Duration) -> Result<(), PerftCheckError> {
    engine.send("position startpos");
    engine.ready(timeout)?;
    engine.send("go perft 1");
    let grace = PERFT_PROBE_GRACE.min(timeout);
    let last = engine.wait_for("perft output", grace, |line| {
        line.starts_with("Nodes searched") || line.starts_with("bestmove")
    });
    match last {
        Ok(line) if line.starts_with("Nodes searched") => Ok(()),
        Ok(line) => Err(PerftCheckError::NoPerft(format!(
            "it answered 'go perft 1' with a search: '{line}'"
        ))),
        Err(EngineError::Timeout { .. }) => {
            engine.send("stop");
            Err(PerftCheckError::NoPerft(format!(
                "no 'Nodes searched' line within {} ms of 'go perft 1'",
                grace.as_millis()
            )))
        }
        Err(e) => Err(e.into()),
    }
}

/// The deepest count [`our_divide`] does on one thread.
const SHALLOW: u32 = 3;

/// Our divide in the engine's notation.
fn our_divide(pos: &Position, depth: u32, mode: CastlingMode) -> (BTreeMap<String, u64>, u64) {
    let result = divide(
        pos,
        depth,
        &PerftOptions {
            // A shallow count is over before a second thread would have started.
            threads: if depth <= SHALLOW { 1 } else { 2 },
            ..PerftOptions::default()
        },
        None,
    )
    .expect("no stop flag");
    let moves = result
        .moves
        .iter()
        .map(|&(mv, n)| (format_move(mv, mode), n))
        .collect();
    (moves, result.nodes)
}

/// Where one step of a walk leads.
enum Step {
    /// Down the move whose counts differ.
    Down(String),
    /// Nowhere: the walk ends on this difference.
    Found(Difference),
    /// Nowhere: the engine agrees here.
    Agrees,
}

/// Compare the engine's divide with ours at one node of a walk.
fn step(
    theirs: &BTreeMap<String, u64>,
    their_total: u64,
    ours: &BTreeMap<String, u64>,
    depth: u32,
) -> Step {
    let missing: Vec<String> = ours
        .keys()
        .filter(|m| !theirs.contains_key(*m))
        .cloned()
        .collect();
    let extra: Vec<String> = theirs
        .keys()
        .filter(|m| !ours.contains_key(*m))
        .cloned()
        .collect();
    if !missing.is_empty() || !extra.is_empty() {
        return Step::Found(Difference::Moves { missing, extra });
    }
    let differing = ours
        .iter()
        .find(|&(mv, n)| theirs.get(mv) != Some(n))
        .map(|(mv, _)| mv.clone());
    let sum: u64 = theirs.values().sum();
    match differing {
        Some(mv) if depth == 1 => Step::Found(Difference::Leaf {
            count: theirs[&mv],
            mv,
        }),
        Some(mv) => Step::Down(mv),
        None if sum != their_total => Step::Found(Difference::Sum { sum }),
        None => Step::Agrees,
    }
}

/// Check one position to `depth`, walking down on a mismatch.
pub fn check_position(
    engine: &mut EngineProcess,
    target: &CheckPosition,
    depth: u32,
    timeout: Duration,
) -> Result<CheckOutcome, PerftCheckError> {
    let mut pos = target.position.clone();
    let mut path = Vec::new();
    let mut depth = depth.max(1);
    // The engine's count, in the position before, for the last move of the path.
    let mut before = 0;
    loop {
        let (theirs, their_total) = engine_divide(engine, &pos, depth, target.castling, timeout)?;
        let (ours, our_total) = our_divide(&pos, depth, target.castling);
        if path.is_empty() && theirs == ours && their_total == our_total {
            return Ok(CheckOutcome::Agree(our_total));
        }
        let difference = match step(&theirs, their_total, &ours, depth) {
            Step::Down(text) => {
                let mv = parse_move(&pos, &text).expect("our own move text parses");
                before = theirs[&text];
                pos = pos.play(mv);
                path.push(text);
                depth -= 1;
                continue;
            }
            Step::Found(difference) => difference,
            Step::Agrees => Difference::AgreesHere { before },
        };
        return Ok(CheckOutcome::Disagree(Disagreement {
            fen: pos.fen_for(target.castling),
            path,
            depth,
            difference,
            totals: (their_total, our_total),
        }));
    }
}

/// Check every position, printing a line each and the details of any disagreement. Returns
/// true when all agree.
pub fn run_perft_check(
    engine_config: &EngineConfig,
    positions: &[CheckPosition],
    depth: u32,
    timeout: Duration,
    out: &mut impl Write,
) -> io::Result<bool> {
    let mut agreed = 0;
    let mut engine: Option<EngineProcess> = None;
    for target in positions {
        let running = match engine.take() {
            Some(e) => Ok(e),
            None => EngineProcess::start(engine_config, target.castling)
                .map_err(PerftCheckError::from)
                .and_then(|mut e| probe_perft(&mut e, timeout).map(|()| e)),
        };
        let checked = running.and_then(|mut running| {
            if running.has_option("UCI_Chess960") {
                running.set_option("UCI_Chess960", &target.castling.is_chess960().to_string());
            }
            check_position(&mut running, target, depth, timeout).map(|outcome| (running, outcome))
        });
        match checked {
            Ok((running, CheckOutcome::Agree(nodes))) => {
                agreed += 1;
                writeln!(out, "ok    {}: depth {depth}: {nodes} nodes", target.label)?;
                engine = Some(running);
            }
            Ok((running, CheckOutcome::Disagree(d))) => {
                writeln!(out, "DIFF  {}: depth {depth}", target.label)?;
                report(&d, out)?;
                engine = Some(running);
            }
            Err(e) => {
                writeln!(
                    out,
                    "ERROR {}: engine '{}': {e}",
                    target.label, engine_config.name
                )?;
                // Every other position would fail the same way: stop here.
                if matches!(e, PerftCheckError::NoPerft(_)) {
                    break;
                }
            }
        }
    }
    writeln!(out, "agreed on {agreed} of {} positions", positions.len())?;
    Ok(agreed == positions.len())
}

fn report(d: &Disagreement, out: &mut impl Write) -> io::Result<()> {
    let path = if d.path.is_empty() {
        "(the position itself)".to_string()
    } else {
        d.path.join(" ")
    };
    writeln!(out, "      path: {path}")?;
    writeln!(out, "      fen:  {}", d.fen)?;
    writeln!(
        out,
        "      depth {}: engine {} nodes, shannon {}",
        d.depth, d.totals.0, d.totals.1
    )?;
    match &d.difference {
        Difference::Moves { missing, extra } => {
            if !missing.is_empty() {
                writeln!(out, "      the engine lacks: {}", missing.join(" "))?;
            }
            if !extra.is_empty() {
                writeln!(
                    out,
                    "      the engine has, but they are not legal: {}",
                    extra.join(" ")
                )?;
            }
        }
        _ => writeln!(out, "      {}", d.what())?,
    }
    Ok(())
}

/// Why a suite's positions cannot be checked.
#[derive(Debug)]
pub enum SuiteFileError {
    /// The file cannot be read.
    Read(PathBuf, io::Error),
    /// A line of it is not a suite entry.
    Suite(PathBuf, SuiteError),
    /// An entry's position is not a legal one.
    Position {
        /// The file.
        path: PathBuf,
        /// The entry.
        id: String,
        /// Why.
        error: FenError,
    },
}

impl std::fmt::Display for SuiteFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SuiteFileError::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            SuiteFileError::Suite(path, e) => write!(f, "{}: {e}", path.display()),
            SuiteFileError::Position { path, id, error } => {
                write!(f, "{} {id}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for SuiteFileError {}

/// The positions of the suite file at `path` (EPD or `.perft`), labelled by the file and entry;
/// each in Chess960 when the entry or `wanted` says so, or its castling rights need it.
pub fn suite_positions(
    path: &Path,
    wanted: CastlingMode,
) -> Result<Vec<CheckPosition>, SuiteFileError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| SuiteFileError::Read(path.to_path_buf(), e))?;
    let entries = parse_suite(&text).map_err(|e| SuiteFileError::Suite(path.to_path_buf(), e))?;
    entries
        .into_iter()
        .map(|entry| {
            let position =
                Position::from_fen(&entry.fen).map_err(|error| SuiteFileError::Position {
                    path: path.to_path_buf(),
                    id: entry.id.clone(),
                    error,
                })?;
            let wanted = match entry.castling {
                CastlingMode::Chess960 => CastlingMode::Chess960,
                CastlingMode::Standard => wanted,
            };
            Ok(CheckPosition {
                label: format!("{} {}", path.display(), entry.id),
                castling: position.castling_mode(wanted),
                position,
            })
        })
        .collect()
}
