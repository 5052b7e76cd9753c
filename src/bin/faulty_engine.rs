//! `shannon-faulty-engine`: a deliberately faulty UCI engine for testing match runners, perft
//! checkers and protocol auditors (ours and anyone's).
//!
//! `shannon-faulty-engine --fault KIND [--after N]` is, apart from its fault, a minimal but fully
//! correct UCI engine: it plays the first legal move, keeps reading its input while it "searches"
//! (so `isready` is answered during `go infinite`), and counts `go perft` exactly. Each fault
//! breaks one thing only, so a test can expect a checker to flag exactly that. The match faults
//! strike at the N-th `go` (default 3; `go perft` is not counted); `--help` lists the kinds.

use clap::Parser;
use shannon::notation::uci::{castling_king_destination, format_move, parse_move};
use shannon::{CastlingMode, Color, Move, MoveKind, Piece, PieceKind, Position, Square};
use std::io::{BufRead, StdoutLock, Write};

#[path = "faulty_engine/fault.rs"]
mod fault;
use fault::Fault;

/// A deliberately faulty UCI engine for testing match runners, perft checkers and UCI auditors.
#[derive(Parser)]
#[command(name = "shannon-faulty-engine", version)]
struct Args {
    /// What goes wrong.
    #[arg(long, value_enum)]
    fault: Fault,
    /// The `go` (counted from 1) at which a match fault strikes; earlier ones are answered well
    /// (for exit-on-newgame: the `ucinewgame`).
    #[arg(long, default_value_t = 3)]
    after: u32,
    /// How long slow-uciok waits before its answer, in milliseconds (tests shorten it, with a
    /// shorter init_timeout_ms, to keep an audit quick).
    #[arg(long, default_value_t = 6000)]
    delay_ms: u64,
}

/// The options a correct engine announces: one of each UCI type, all well-formed.
const GOOD_OPTIONS: &[&str] = &[
    "option name UCI_Chess960 type check default false",
    "option name Ponder type check default false",
    "option name Hash type spin default 16 min 1 max 1024",
    "option name Style type combo default Normal var Solid var Normal var Risky",
    "option name Clear Hash type button",
];

/// What `bad-options` announces instead: UCI_Chess960 stays good (so Chess960 checks still
/// run), the others are each malformed in one way.
const BAD_OPTIONS: &[&str] = &[
    "option name UCI_Chess960 type check default false",
    "option name Hash type spin default 4096 min 1 max 1024",
    "option name Style type combo default Wild var Solid var Normal",
    "option name Threads type number default 1",
];

/// A `go infinite` or `go ponder` in progress. Its answer is decided when it starts, so a
/// `position` sent meanwhile (for the next search) does not change it.
struct Search {
    /// The lines that end the search (`info ...` and `bestmove ...`).
    answer: String,
    /// Started by `go infinite`: only `stop` ends it, even after a `ponderhit`.
    infinite: bool,
    /// Started by `go ponder` and not yet `ponderhit`.
    pondering: bool,
}

/// The engine between commands. No real search is done, so one thread reading stdin line by
/// line is enough: "searching" is a state (`search`), never a loop that stops the reading.
struct Engine<'a> {
    fault: Fault,
    after: u32,
    /// slow-uciok's wait.
    delay: std::time::Duration,
    out: StdoutLock<'a>,
    pos: Position,
    mode: CastlingMode,
    /// `go` commands seen, `go perft` excepted: the clock of the match faults.
    gos: u32,
    /// `ucinewgame` commands seen.
    newgames: u32,
    search: Option<Search>,
    /// Whether the line before the current one was `isready` (for slow-isready).
    after_isready: bool,
}

/// Whether to go on reading after a command.
enum Flow {
    Continue,
    Quit,
}

impl Engine<'_> {
    /// Act on one input line. The first word is the command; unknown commands and garbage are
    /// ignored without a word, as the specification asks.
    fn command(&mut self, line: &str) -> Flow {
        if self.fault == Fault::LongLineCrash && line.trim_end().len() > 1024 {
            std::process::exit(139);
        }
        let mut words = line.split_whitespace();
        let repeated = std::mem::replace(&mut self.after_isready, line.trim() == "isready");
        let Some(command) = words.next() else {
            return Flow::Continue;
        };
        let args: Vec<&str> = words.collect();
        match command {
            "uci" => self.uci(),
            "isready" => self.isready(repeated),
            "setoption" => self.setoption(&args),
            "position" => self.position(&args),
            "go" => self.go(&args),
            "stop" => self.stop(),
            "ponderhit" => self.ponderhit(),
            "ucinewgame" => self.ucinewgame(),
            "quit" if self.fault != Fault::IgnoreQuit => return Flow::Quit,
            // `debug`, `register` and anything else: nothing to do.
            _ => {}
        }
        let _ = self.out.flush();
        Flow::Continue
    }

    /// `uci`: identification, options, `uciok` (unless a fault delays or withholds it).
    fn uci(&mut self) {
        match self.fault {
            Fault::NoUciok => return,
            Fault::SlowUciok | Fault::SlowEnPassantIntoCheck => std::thread::sleep(self.delay),
            _ => {}
        }
        let options = if self.fault == Fault::BadOptions {
            BAD_OPTIONS
        } else {
            GOOD_OPTIONS
        };
        let _ = writeln!(self.out, "id name Faulty\nid author Shannon tests");
        for option in options {
            let _ = writeln!(self.out, "{option}");
        }
        let _ = writeln!(self.out, "uciok");
    }

    /// `ucinewgame`: nothing to do, unless the fault dies here.
    fn ucinewgame(&mut self) {
        self.newgames += 1;
        if self.fault == Fault::ExitOnNewgame && self.newgames >= self.after {
            eprintln!("faulty: exiting at ucinewgame {}", self.newgames);
            std::process::exit(5);
        }
    }

    /// `isready`: always `readyok` at once, searching or not (unless the fault says otherwise).
    fn isready(&mut self, repeated: bool) {
        let searching = self.search.is_some();
        if self.fault == Fault::NoReadyok
            || (self.fault == Fault::NoReadyokWhileSearching && searching)
        {
            return;
        }
        if self.fault == Fault::SlowIsready && repeated {
            std::thread::sleep(std::time::Duration::from_secs(3));
        }
        let _ = writeln!(self.out, "readyok");
    }

    /// `setoption name N [value V]`: only UCI_Chess960 changes anything (castling notation).
    /// Names may hold spaces and are case-insensitive.
    fn setoption(&mut self, args: &[&str]) {
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return;
        };
        let (name, value) = rest.split_once(" value ").unwrap_or((rest, ""));
        if name.trim().eq_ignore_ascii_case("UCI_Chess960") {
            self.mode = CastlingMode::from_chess960(value.trim().eq_ignore_ascii_case("true"));
        }
    }

    /// `position startpos|fen F [moves ...]`; an invalid one is ignored whole (unless a fault
    /// crashes on it).
    fn position(&mut self, args: &[&str]) {
        if args.first() == Some(&"fen") {
            let fields = args[1..].iter().take_while(|&&w| w != "moves").count();
            let crash = match self.fault {
                Fault::FiveFieldFenCrash => fields == 5,
                Fault::CrashOnBadFen => read_position(&args[..=fields], false).is_none(),
                _ => false,
            };
            if crash {
                std::process::exit(139);
            }
        }
        let stop_at_castling =
            self.fault == Fault::Chess960IgnoresCastlingInput && self.mode.is_chess960();
        if let Some(pos) = read_position(args, stop_at_castling) {
            self.pos = pos;
        }
    }

    /// `go ...`: perft, a search held until `stop`/`ponderhit`, or an answer at once.
    fn go(&mut self, args: &[&str]) {
        if self.search.is_some() {
            // A `go` during a search is the GUI's error; one search, one `bestmove`.
            return;
        }
        if self.fault == Fault::UnknownGoInfinite && has_unknown_word(&self.pos, args) {
            self.search = Some(Search {
                answer: self.answer(&[]),
                infinite: true,
                pondering: false,
            });
            return;
        }
        if args.first() == Some(&"perft") {
            let depth = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(1);
            return self.perft_command(depth);
        }
        self.gos += 1;
        let wtime = args.windows(2).find(|w| w[0] == "wtime");
        let wtime = wtime.and_then(|w| w[1].parse::<u64>().ok());
        if self.fault == Fault::SlowSmallClock
            && self.pos.side_to_move() == Color::White
            && wtime.is_some_and(|t| t <= 100)
        {
            std::thread::sleep(std::time::Duration::from_millis(400));
        }
        let answer = if self.gos >= self.after {
            match self.strike(args) {
                Some(answer) => answer,
                None => return,
            }
        } else {
            self.answer(args)
        };
        let infinite = args.contains(&"infinite")
            || (self.fault == Fault::ThinkUntilStop && self.gos >= self.after);
        let pondering = args.contains(&"ponder");
        if pondering && self.fault == Fault::EarlyPonderBestmove {
            let _ = write!(self.out, "{answer}");
        } else if infinite || pondering {
            self.search = Some(Search {
                answer,
                infinite,
                pondering,
            });
        } else {
            let _ = write!(self.out, "{answer}");
            if self.fault == Fault::TwoBestmoves && args.contains(&"movetime") {
                let _ = write!(self.out, "{answer}");
            }
        }
    }

    /// A match fault striking at a `go`: the answer to give instead, or `None` for no answer.
    /// Faults that are not match faults answer as usual.
    fn strike(&mut self, args: &[&str]) -> Option<String> {
        match self.fault {
            Fault::IllegalMove => Some(format!("bestmove {}\n", illegal_move(&self.pos))),
            Fault::Crash => std::process::exit(3),
            Fault::StderrCrash => {
                eprintln!("faulty: about to fail");
                eprintln!("faulty: simulated crash at go {}", self.gos);
                std::process::exit(3);
            }
            Fault::Overrun => {
                self.overrun(args);
                Some(self.answer(&[]))
            }
            Fault::SigKill => {
                let pid = std::process::id().to_string();
                let _ = std::process::Command::new("kill")
                    .args(["-9", &pid])
                    .status();
                std::process::exit(4);
            }
            Fault::Hang => None,
            Fault::StopReading => loop {
                std::thread::park();
            },
            Fault::Flood => loop {
                let garbage = format!("garbage \u{1} {} $$$ not uci at all", self.gos);
                if writeln!(self.out, "{garbage}").is_err() {
                    std::process::exit(0);
                }
            },
            _ => Some(self.answer(&[])),
        }
    }

    /// Overrun's search: `info ... time` every 20 ms until 300 ms past the time left.
    fn overrun(&mut self, args: &[&str]) {
        let clock = match self.pos.side_to_move() {
            Color::White => "wtime",
            Color::Black => "btime",
        };
        let left = [clock, "movetime"].iter().find_map(|name| {
            let pair = args.windows(2).find(|w| w[0] == *name)?;
            pair[1].parse::<u64>().ok()
        });
        let until = std::time::Duration::from_millis(left.unwrap_or(0) + 300);
        let started = std::time::Instant::now();
        while started.elapsed() < until {
            std::thread::sleep(std::time::Duration::from_millis(20));
            let ms = started.elapsed().as_millis();
            let _ = writeln!(self.out, "info depth 1 time {ms} nodes 1");
            let _ = self.out.flush();
        }
    }

    /// The lines ending a search: the first legal move (among `searchmoves`, if given) with a
    /// one-line `info`, or `bestmove 0000` when there is no legal move.
    fn answer(&self, args: &[&str]) -> String {
        let legal = self.pos.legal_moves();
        if self.fault == Fault::IllegalInCheck && self.pos.in_check() && !legal.is_empty() {
            return format!("bestmove {}\n", illegal_king_step(&self.pos));
        }
        let allowed = search_moves(&self.pos, args);
        let best = legal
            .iter()
            .find(|mv| allowed.as_ref().is_none_or(|list| list.contains(mv)));
        match best {
            Some(&mv) => {
                let text = self.move_text(mv);
                format!("info depth 1 score cp 0 nodes 1 pv {text}\nbestmove {text}\n")
            }
            None if self.fault == Fault::NullMoveWhenMated => "bestmove a1a1\n".into(),
            None if self.pos.in_check() => "info depth 0 score mate 0\nbestmove 0000\n".into(),
            None => "info depth 0 score cp 0\nbestmove 0000\n".into(),
        }
    }

    /// `stop`: ends a running search with its `bestmove`; without one, nothing to say.
    fn stop(&mut self) {
        let Some(search) = self.search.take() else {
            return;
        };
        if search.infinite && self.fault == Fault::NoBestmoveAfterStop {
            return;
        }
        let _ = write!(self.out, "{}", search.answer);
    }

    /// `ponderhit`: the pondered move was played; the search goes on under its normal limits,
    /// which here means it ends at once (unless it was also `infinite`).
    fn ponderhit(&mut self) {
        let Some(search) = self.search.as_mut().filter(|s| s.pondering) else {
            return;
        };
        search.pondering = false;
        if !search.infinite {
            self.stop();
        }
    }

    /// `go perft N`, as Stockfish prints it (`move: count`, blank line, `Nodes searched: N`,
    /// blank line), or what the perft faults do instead.
    fn perft_command(&mut self, depth: u32) {
        match self.fault {
            Fault::SilentPerft => {}
            // What an engine that reads `perft` as an unknown token does: a (tiny) search.
            Fault::NoPerft => {
                let answer = self.answer(&[]);
                let _ = write!(self.out, "{answer}");
            }
            _ => {
                let mut total = 0;
                let mut divide = String::new();
                let moves = self.pos.legal_moves();
                for &mv in moves.iter().filter(|mv| self.kept(**mv, true)) {
                    let count = self.perft(&self.pos.play(mv), depth.saturating_sub(1));
                    total += count;
                    divide += &format!("{}: {count}\n", self.move_text(mv));
                }
                if depth <= 1 {
                    for text in self.last_ply_extras(&self.pos) {
                        total += 1;
                        divide += &format!("{text}: 1\n");
                    }
                }
                if self.fault == Fault::SlowEnPassantIntoCheck {
                    std::thread::sleep(std::time::Duration::from_micros(20 * total));
                }
                if self.fault == Fault::WrongPerftTotal {
                    total += 1;
                }
                let _ = writeln!(self.out, "{divide}\nNodes searched: {total}\n");
            }
        }
    }

    /// Perft that leaves out the moves the fault says to (and counts, at the last ply, the
    /// moves it adds).
    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = pos.legal_moves();
        let kept = moves.iter().filter(|mv| self.kept(**mv, false));
        if depth == 1 {
            return kept.count() as u64 + self.last_ply_extras(pos).len() as u64;
        }
        kept.map(|&mv| self.perft(&pos.play(mv), depth - 1)).sum()
    }

    /// Whether the faulty move generator of `go perft` produces `mv`, at the root of the
    /// count (`root`) or below it.
    fn kept(&self, mv: Move, root: bool) -> bool {
        match (self.fault, mv.kind()) {
            (Fault::OmitUnderpromotions, MoveKind::Promotion(piece)) => piece == PieceKind::Queen,
            (Fault::OmitEnPassant, MoveKind::EnPassant) => false,
            (Fault::OmitCastling, MoveKind::Castling) => false,
            (Fault::PerftLosesEnPassantSquare, MoveKind::EnPassant) => root,
            _ => true,
        }
    }

    /// The illegal moves the faulty generator adds where a count ends (never played): en
    /// passant captures that leave the king in check.
    fn last_ply_extras(&self, pos: &Position) -> Vec<String> {
        if self.fault != Fault::SlowEnPassantIntoCheck {
            return Vec::new();
        }
        let Some(ep) = pos.en_passant() else {
            return Vec::new();
        };
        let us = pos.side_to_move();
        let back = if us == Color::White { -1 } else { 1 };
        let legal = pos.legal_moves();
        [-1, 1]
            .into_iter()
            .filter_map(|df| ep.offset(df, back))
            .filter(|&from| pos.piece_at(from) == Some(Piece::new(us, PieceKind::Pawn)))
            .filter(|&from| !legal.iter().any(|mv| mv.from() == from && mv.to() == ep))
            .map(|from| format!("{from}{ep}"))
            .collect()
    }

    /// The UCI text of `mv` in the current castling mode, or in the wrong Chess960 notation
    /// (king's destination square) when the fault says so.
    fn move_text(&self, mv: Move) -> String {
        if self.fault == Fault::Chess960KingToSquare
            && self.mode.is_chess960()
            && mv.kind() == MoveKind::Castling
        {
            return format!("{}{}", mv.from(), castling_king_destination(mv));
        }
        format_move(mv, self.mode)
    }
}

/// The moves after `searchmoves` in `go` arguments (up to the next keyword), or `None` when
/// the search is not restricted. Illegal or malformed ones are dropped.
fn search_moves(pos: &Position, args: &[&str]) -> Option<Vec<Move>> {
    let start = args.iter().position(|&word| word == "searchmoves")? + 1;
    let moves: Vec<Move> = args[start..]
        .iter()
        .map_while(|text| parse_move(pos, text).ok())
        .collect();
    (!moves.is_empty()).then_some(moves)
}

/// Whether `go` arguments hold a word that is neither a keyword of `go`, nor a number, nor a
/// move of `pos` (for `searchmoves`).
fn has_unknown_word(pos: &Position, args: &[&str]) -> bool {
    const KEYWORDS: [&str; 13] = [
        "searchmoves",
        "ponder",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
        "infinite",
        "perft",
    ];
    args.iter().any(|word| {
        !KEYWORDS.contains(word) && word.parse::<i64>().is_err() && parse_move(pos, word).is_err()
    })
}

/// A well-formed move that is not legal in `pos`.
fn illegal_move(pos: &Position) -> String {
    for from in Square::ALL {
        for to in Square::ALL {
            let text = format!("{from}{to}");
            if from != to && parse_move(pos, &text).is_err() {
                return text;
            }
        }
    }
    "a1a2".to_string()
}

/// A king step to a square next to the king, not its own piece's, that is not legal in `pos`
/// (it stays in check or walks into one), else any well-formed illegal move.
fn illegal_king_step(pos: &Position) -> String {
    let from = pos.king_square(pos.side_to_move());
    let steps = (-1..=1).flat_map(|df| (-1..=1).filter_map(move |dr| from.offset(df, dr)));
    steps
        .filter(|&to| {
            to != from
                && pos
                    .piece_at(to)
                    .is_none_or(|p| p.color != pos.side_to_move())
        })
        .map(|to| format!("{from}{to}"))
        .find(|text| parse_move(pos, text).is_err())
        .unwrap_or_else(|| illegal_move(pos))
}

/// The words after `position`: `startpos` or `fen` with 4 to 6 fields (missing counters are 0
/// and 1), then optional `moves` in either castling notation. `None` when any part is invalid.
/// Castling rights the board cannot have are dropped, as GUIs often send `KQkq` regardless.
/// With `stop_at_castling`, the moves from the first castling on are left out.
fn read_position(args: &[&str], stop_at_castling: bool) -> Option<Position> {
    let (setup, moves) = match args.iter().position(|&word| word == "moves") {
        Some(at) => (&args[..at], &args[at + 1..]),
        None => (args, &[][..]),
    };
    let mut pos = match setup.split_first()? {
        (&"startpos", []) => Position::startpos(),
        (&"fen", fields) if (4..=6).contains(&fields.len()) => {
            Position::from_fen_lenient(&fields.join(" ")).ok()?.0
        }
        _ => return None,
    };
    for text in moves {
        let mv = parse_move(&pos, text).ok()?;
        if stop_at_castling && mv.kind() == MoveKind::Castling {
            break;
        }
        pos = pos.play(mv);
    }
    Some(pos)
}

fn main() {
    let Args {
        fault,
        after,
        delay_ms,
    } = Args::parse();
    let stdout = std::io::stdout();
    let mut engine = Engine {
        fault,
        after,
        delay: std::time::Duration::from_millis(delay_ms),
        out: stdout.lock(),
        pos: Position::startpos(),
        mode: CastlingMode::Standard,
        gos: 0,
        newgames: 0,
        search: None,
        after_isready: false,
    };
    // Lines are read as bytes: a line that is not UTF-8 is garbage to ignore, not a reason to
    // stop. End of input (or a read error) ends the engine, as if `quit` had come (unless
    // ignore-eof keeps it running).
    let mut stdin = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match stdin.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if let Flow::Quit = engine.command(&String::from_utf8_lossy(&line)) {
            let _ = engine.out.flush();
            return;
        }
    }
    let _ = engine.out.flush();
    if fault == Fault::IgnoreEof {
        loop {
            std::thread::park();
        }
    }
}
