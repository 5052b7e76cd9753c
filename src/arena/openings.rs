//! Where match games start: the standard position, random Chess960 start positions, the
//! positions of an EPD or PGN file (a PGN game's moves are played as the opening line), or lines
//! drawn from a Polyglot `.bin` book.

use crate::chess960::{scharnagl_back_rank, start_position};
use crate::notation::polyglot::{Book, BookError};
use crate::position::epd::epd_lines;
use crate::types::splitmix::mix;
use crate::{CastlingMode, Move, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// A start position and the opening moves played from it before the engines take over.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening {
    /// The position the game record starts from.
    pub start: Position,
    /// Moves played before the engines are asked (they are part of the game record).
    pub moves: Vec<Move>,
    /// How castling is written in the game: Chess960 for Chess960 starts.
    pub castling: CastlingMode,
    /// A label for messages: `startpos`, `chess960 #518`, `file.epd:12`.
    pub label: String,
}

/// Why openings cannot be loaded.
#[derive(Debug)]
pub enum OpeningsError {
    /// The file cannot be read.
    Read(String, std::io::Error),
    /// A line of an EPD file is not a legal position.
    Epd {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// Why.
        error: crate::FenError,
    },
    /// A game of a PGN file cannot be read.
    Pgn(String, String),
    /// The file has no position at all.
    Empty(String),
    /// A malformed `file=... order=... plies=... start=...` setting.
    Setting(String),
    /// A Polyglot book that cannot be used (its path and why).
    Book(String, BookError),
    /// A Polyglot book with no legal move for the standard starting position, where every book
    /// line starts.
    NoBookMove(String),
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Read(path, e) => write!(f, "cannot read openings file {path}: {e}"),
            OpeningsError::Epd { path, line, error } => write!(f, "{path}:{line}: {error}"),
            OpeningsError::Pgn(path, error) => write!(f, "{path}: {error}"),
            OpeningsError::Empty(path) => write!(f, "{path} holds no opening position"),
            OpeningsError::Setting(why) => f.write_str(why),
            OpeningsError::Book(path, error) => write!(f, "{path}: {error}"),
            OpeningsError::NoBookMove(path) => write!(
                f,
                "{path}: the book has no legal move for the starting position, where its lines \
                 start"
            ),
        }
    }
}

impl std::error::Error for OpeningsError {}

/// Where a match's openings come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningSource {
    /// The standard starting position.
    Startpos,
    /// A uniformly drawn Chess960 start position per opening.
    Chess960,
    /// An EPD or PGN file of openings, or a Polyglot `.bin` book (told by the extension).
    File(PathBuf),
}

/// The openings a match plays and how they are taken (cutechess-cli's `-openings` settings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Openings {
    /// Where they come from.
    pub source: OpeningSource,
    /// Shuffle the file's openings (seeded by the match seed) instead of taking them in order.
    pub random: bool,
    /// Use at most this many plies of each PGN game (all when `None`).
    pub plies: Option<usize>,
    /// Begin with this opening of the file (1-based).
    pub start: usize,
}

impl Default for Openings {
    fn default() -> Openings {
        Openings::from(OpeningSource::Startpos)
    }
}

impl From<OpeningSource> for Openings {
    fn from(source: OpeningSource) -> Openings {
        Openings {
            source,
            random: false,
            plies: None,
            start: 1,
        }
    }
}

/// `startpos`, `chess960` or a path, bare.
fn source_of(text: &str) -> OpeningSource {
    match text {
        "startpos" => OpeningSource::Startpos,
        "chess960" => OpeningSource::Chess960,
        path => OpeningSource::File(PathBuf::from(path)),
    }
}

impl FromStr for Openings {
    type Err = OpeningsError;

    /// `startpos`, `chess960`, a path, or cutechess-cli's form
    /// `file=PATH [format=epd|pgn] [order=sequential|random] [plies=N] [start=K]`.
    fn from_str(text: &str) -> Result<Openings, OpeningsError> {
        if !text.contains('=') {
            return Ok(Openings::from(source_of(text.trim())));
        }
        let bad = |why: String| OpeningsError::Setting(why);
        let mut spec = Openings::default();
        let mut file = None;
        for word in text.split_whitespace() {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| bad(format!("'{word}' is not key=value")))?;
            let number = || {
                value
                    .parse::<usize>()
                    .map_err(|_| bad(format!("{key}={value} is not a number")))
            };
            match key {
                "file" => file = Some(value.to_string()),
                "format" => {}
                "order" => {
                    spec.random = match value {
                        "random" => true,
                        "sequential" => false,
                        _ => return Err(bad(format!("order={value}: sequential or random"))),
                    }
                }
                "plies" => spec.plies = Some(number()?),
                "start" if number()? >= 1 => spec.start = number()?,
                "start" => return Err(bad("start counts from 1".into())),
                _ => {
                    return Err(bad(format!(
                        "unknown setting '{key}' (file, format, order, plies, start)"
                    )))
                }
            }
        }
        let file = file.ok_or_else(|| bad("file=PATH is missing".into()))?;
        spec.source = OpeningSource::File(PathBuf::from(file));
        Ok(spec)
    }
}

impl fmt::Display for OpeningSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningSource::Startpos => f.write_str("startpos"),
            OpeningSource::Chess960 => f.write_str("chess960"),
            OpeningSource::File(path) => write!(f, "{}", path.display()),
        }
    }
}

impl fmt::Display for Openings {
    /// What [`Openings::from_str`] reads back: the source alone, or cutechess-cli's
    /// `file=PATH order=random plies=N start=K` with the settings that differ from the defaults.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.random && self.plies.is_none() && self.start == 1 {
            return self.source.fmt(f);
        }
        write!(f, "file={}", self.source)?;
        if self.random {
            f.write_str(" order=random")?;
        }
        if let Some(plies) = self.plies {
            write!(f, " plies={plies}")?;
        }
        if self.start != 1 {
            write!(f, " start={}", self.start)?;
        }
        Ok(())
    }
}

/// The openings `spec` gives, in the order the match plays them: the file's order from the
/// `start`-th on, wrapping around, or a seeded shuffle; PGN lines cut to `plies`. `count` is how
/// many the schedule uses (Chess960 starts and book lines are drawn that many times), `seed`
/// the match's, `book_depth` the longest line drawn from a book.
pub fn load_openings(
    spec: &Openings,
    count: usize,
    seed: u64,
    book_depth: u32,
) -> Result<Vec<Opening>, OpeningsError> {
    let mut openings = load_source(&spec.source, count, seed, book_depth)?;
    if let Some(plies) = spec.plies {
        for opening in &mut openings {
            opening.moves.truncate(plies);
        }
    }
    if spec.start > openings.len() {
        return Err(OpeningsError::Setting(format!(
            "start={} but {} holds {} opening(s)",
            spec.start,
            spec.source,
            openings.len()
        )));
    }
    openings.rotate_left(spec.start - 1);
    if spec.random {
        use rand::seq::SliceRandom;
        openings.shuffle(&mut SmallRng::seed_from_u64(seed ^ 0x6f70_656e_696e_6773));
    }
    Ok(openings)
}

/// `count` openings of `source`: the start position, Chess960 starts (uniform Scharnagl numbers
/// drawn from `seed`), a Polyglot book (a path ending in `.bin`: see [`book_openings`];
/// `book_depth` is the longest line), or the positions of an EPD or PGN file.
fn load_source(
    source: &OpeningSource,
    count: usize,
    seed: u64,
    book_depth: u32,
) -> Result<Vec<Opening>, OpeningsError> {
    match source {
        OpeningSource::Startpos => Ok(vec![Opening {
            start: Position::startpos(),
            moves: Vec::new(),
            castling: CastlingMode::Standard,
            label: "startpos".into(),
        }]),
        OpeningSource::Chess960 => {
            let mut rng = SmallRng::seed_from_u64(seed);
            Ok((0..count.max(1))
                .map(|_| {
                    let number = rng.random_range(0..960);
                    let rank = scharnagl_back_rank(number).expect("0..960");
                    Opening {
                        start: start_position(&rank),
                        moves: Vec::new(),
                        castling: CastlingMode::Chess960,
                        label: format!("chess960 #{number}"),
                    }
                })
                .collect())
        }
        OpeningSource::File(path) => {
            let path = path.to_string_lossy();
            if path.to_ascii_lowercase().ends_with(".bin") {
                return book_openings(&path, count, seed, book_depth);
            }
            let text = std::fs::read_to_string(path.as_ref())
                .map_err(|e| OpeningsError::Read(path.to_string(), e))?;
            let openings = if path.to_ascii_lowercase().ends_with(".pgn") {
                pgn_openings(&path, &text)?
            } else {
                epd_openings(&path, &text)?
            };
            if openings.is_empty() {
                return Err(OpeningsError::Empty(path.to_string()));
            }
            Ok(openings)
        }
    }
}

/// `count` lines from the Polyglot book at `path`, each walked from the standard starting
/// position by the book's weighted choice ([`Book::line`]) for at most `depth` plies or until
/// the book has no move. Line `i` draws from its own generator, seeded from `seed` and `i`, so
/// the openings are a function of the match seed and do not depend on each other. Lines may
/// repeat (a narrow book has few); every line is played by both colours like any opening.
pub fn book_openings(
    path: &str,
    count: usize,
    seed: u64,
    depth: u32,
) -> Result<Vec<Opening>, OpeningsError> {
    let book = Book::open(std::path::Path::new(path)).map_err(|e| match e {
        BookError::Read(_, io) => OpeningsError::Read(path.to_string(), io),
        e => OpeningsError::Book(path.to_string(), e),
    })?;
    let start = Position::startpos();
    if book.moves(&start).is_empty() {
        return Err(OpeningsError::NoBookMove(path.to_string()));
    }
    Ok((0..count.max(1))
        .map(|i| {
            let mut rng = SmallRng::seed_from_u64(mix(seed.wrapping_add(i as u64)));
            Opening {
                moves: book.line(&start, depth as usize, &mut rng),
                start: start.clone(),
                castling: CastlingMode::Standard,
                label: format!("{path} line {}", i + 1),
            }
        })
        .collect())
}

/// EPD: one position per line (its operations are not used).
fn epd_openings(path: &str, text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut openings = Vec::new();
    for (line, epd) in epd_lines(text) {
        let start = epd.position().map_err(|error| OpeningsError::Epd {
            path: path.to_string(),
            line,
            error,
        })?;
        openings.push(Opening {
            castling: start.castling_mode(CastlingMode::Standard),
            start,
            moves: Vec::new(),
            label: format!("{path}:{line}"),
        });
    }
    Ok(openings)
}

/// PGN: each game's start position and moves.
fn pgn_openings(path: &str, text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut openings = Vec::new();
    for (i, game) in crate::notation::pgn::read_games(text)
        .into_iter()
        .enumerate()
    {
        let game = game.map_err(|e| OpeningsError::Pgn(path.to_string(), e.to_string()))?;
        let record = game.record;
        openings.push(Opening {
            castling: record.start.castling_mode(record.castling),
            start: record.start,
            moves: record.moves,
            label: format!("{path} game {}", i + 1),
        });
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::DEFAULT_BOOK_DEPTH;

    /// The openings `text` asks for (parsed as the command line parses it).
    fn load_text(
        text: &str,
        count: usize,
        seed: u64,
        depth: u32,
    ) -> Result<Vec<Opening>, OpeningsError> {
        load_openings(&text.parse()?, count, seed, depth)
    }

    #[test]
    fn cutechess_settings_order_cut_and_start_the_openings() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let pgn = dir.join("lines.pgn");
        std::fs::write(
            &pgn,
            "1. e4 e5 2. Nf3 *\n\n1. d4 d5 2. c4 *\n\n1. c4 e5 *\n",
        )
        .unwrap();
        let path = pgn.to_str().unwrap();
        let all = load_text(path, 0, 1, DEFAULT_BOOK_DEPTH).unwrap();
        assert_eq!(
            all.iter().map(|o| o.moves.len()).collect::<Vec<_>>(),
            [3, 3, 2]
        );
        let cut = format!("file={path} plies=2 start=2");
        let cut = load_text(&cut, 0, 1, DEFAULT_BOOK_DEPTH).unwrap();
        assert_eq!(
            cut.iter().map(|o| o.moves.len()).collect::<Vec<_>>(),
            [2, 2, 2]
        );
        assert_eq!(
            cut[0].label, all[1].label,
            "start=2 begins with the second game"
        );
        assert_eq!(cut[2].label, all[0].label, "and wraps around");
        let random = format!("file={path} order=random");
        let a = load_text(&random, 0, 9, DEFAULT_BOOK_DEPTH).unwrap();
        let b = load_text(&random, 0, 9, DEFAULT_BOOK_DEPTH).unwrap();
        assert_eq!(a, b, "seeded");
        let mut labels: Vec<_> = a.iter().map(|o| o.label.clone()).collect();
        labels.sort();
        let mut expected: Vec<_> = all.iter().map(|o| o.label.clone()).collect();
        expected.sort();
        assert_eq!(labels, expected, "a shuffle keeps every opening once");
        for bad in [
            format!("file={path} order=backwards"),
            format!("file={path} start=0"),
            format!("file={path} start=4"),
            format!("file={path} depth=3"),
            "order=random".to_string(),
        ] {
            assert!(load_text(&bad, 0, 1, DEFAULT_BOOK_DEPTH).is_err(), "{bad}");
        }
    }

    #[test]
    fn chess960_openings_are_seeded_start_positions() {
        let a = load_text("chess960", 10, 5, DEFAULT_BOOK_DEPTH).unwrap();
        let b = load_text("chess960", 10, 5, DEFAULT_BOOK_DEPTH).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 10);
        assert!(a
            .iter()
            .all(|o| o.castling == CastlingMode::Chess960 && o.moves.is_empty()));
        assert!(!Position::startpos().needs_chess960());
    }

    #[test]
    fn epd_lines_with_operations() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let path = dir.join("o.epd");
        std::fs::write(
            &path,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";\n\
             bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n",
        )
        .unwrap();
        let openings = load_text(path.to_str().unwrap(), 2, 0, 1).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].castling, CastlingMode::Standard);
        assert_eq!(openings[1].castling, CastlingMode::Chess960);
        std::fs::write(&path, "not a fen\n").unwrap();
        let err = load_text(path.to_str().unwrap(), 1, 0, 1).unwrap_err();
        assert!(err.to_string().contains(":1:"), "{err}");
    }

    #[test]
    fn book_lines_are_seeded_and_bounded() {
        use crate::notation::polyglot::{encode_move, polyglot_key};
        let start = Position::startpos();
        let e4 = crate::notation::uci::parse_move(&start, "e2e4").unwrap();
        let after = start.play(e4);
        let mut entries: Vec<(u64, u16)> = vec![(polyglot_key(&start), encode_move(e4))];
        for reply in ["e7e5", "c7c5"] {
            let mv = crate::notation::uci::parse_move(&after, reply).unwrap();
            entries.push((polyglot_key(&after), encode_move(mv)));
        }
        entries.sort();
        let bytes: Vec<u8> = entries
            .iter()
            .flat_map(|&(key, mv)| {
                let mut e = key.to_be_bytes().to_vec();
                e.extend_from_slice(&mv.to_be_bytes());
                e.extend_from_slice(&[0, 1, 0, 0, 0, 0]);
                e
            })
            .collect();
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let path = dir.join("small.BIN");
        std::fs::write(&path, &bytes).unwrap();
        let path = path.to_str().unwrap();
        let a = load_text(path, 8, 3, DEFAULT_BOOK_DEPTH).unwrap();
        assert_eq!(a, load_text(path, 8, 3, DEFAULT_BOOK_DEPTH).unwrap());
        assert_eq!(a.len(), 8);
        assert!(a.iter().all(|o| o.moves.len() == 2 && o.moves[0] == e4));
        assert!(
            a.iter().any(|o| o.moves != a[0].moves),
            "both replies drawn"
        );
        let short = load_text(path, 2, 3, 1).unwrap();
        assert!(short.iter().all(|o| o.moves == [e4]));
        // A book without the starting position, and a file that is not a book.
        std::fs::write(dir.join("other.bin"), &bytes[16..]).unwrap();
        let err = load_text(dir.join("other.bin").to_str().unwrap(), 1, 0, 8).unwrap_err();
        assert!(matches!(err, OpeningsError::NoBookMove(_)), "{err}");
        std::fs::write(dir.join("bad.bin"), [1u8; 20]).unwrap();
        let err = load_text(dir.join("bad.bin").to_str().unwrap(), 1, 0, 8).unwrap_err();
        assert!(err.to_string().contains("20 bytes"), "{err}");
    }
}
