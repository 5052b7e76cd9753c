//! Syzygy endgame tablebases, win/draw/loss (WDL) tables: which side wins a position of few
//! pieces with perfect play, and whether the fifty-move rule saves the loser.
//!
//! [`Tablebase::open`] finds the `.rtbw` files in the folders given and checks each one's name,
//! size and header; a table is read whole, checksum and structure checked, the first time a probe
//! needs it, and kept. [`Tablebase::probe_wdl`] answers for the side to move, searching captures
//! as Syzygy requires (see `probe`), or refuses with a [`ProbeError`]: castling rights, more
//! pieces than the tables hold, a table missing or damaged. It never guesses.
//!
//! Inside: `material` (names like `KQvKR`), `header` and `pairs` (the file format), `index` (a
//! placement's number in a table), `table` (one file), `checksum` (the files' own checksum),
//! `probe` (the capture search), `sample` (random positions of a material, for tests and
//! benchmarks). DTZ tables (`.rtbz`, distance to zeroing) are not read: adjudication needs WDL
//! only. The rules core's own `std` only: no file-format or memory-mapping crate.

mod checksum;
mod error;
mod header;
mod index;
mod material;
mod pairs;
mod probe;
pub mod sample;
mod table;

pub use checksum::table_checksum;
pub use error::{ProbeError, TableError, TableProblem, TablebaseError};
pub use material::{Material, MaterialNameError, MAX_TABLE_PIECES};

use crate::Position;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use table::Table;

/// A position's value with perfect play, for the side to move, as Syzygy's WDL tables give it
/// (-2..=2): the fifty-move rule counted from a capture or pawn move just played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost, even with the fifty-move rule.
    Loss,
    /// Lost without the fifty-move rule, drawn by it.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won without the fifty-move rule, drawn by it.
    CursedWin,
    /// Won, even with the fifty-move rule.
    Win,
}

impl Wdl {
    /// All five values, worst first.
    pub const ALL: [Wdl; 5] = [
        Wdl::Loss,
        Wdl::BlessedLoss,
        Wdl::Draw,
        Wdl::CursedWin,
        Wdl::Win,
    ];

    /// The value from Syzygy's number: -2 (loss) to 2 (win).
    pub const fn from_i8(value: i8) -> Option<Wdl> {
        match value {
            -2 => Some(Wdl::Loss),
            -1 => Some(Wdl::BlessedLoss),
            0 => Some(Wdl::Draw),
            1 => Some(Wdl::CursedWin),
            2 => Some(Wdl::Win),
            _ => None,
        }
    }

    /// Syzygy's number: -2 (loss) to 2 (win).
    pub const fn to_i8(self) -> i8 {
        self as i8 - 2
    }

    /// The value for the other side.
    pub const fn flipped(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// The word `shannon tablebase probe` prints: `loss`, `blessed-loss`, `draw`, `cursed-win`,
    /// `win`.
    pub const fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed-loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed-win",
            Wdl::Win => "win",
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One table file found in the folders.
#[derive(Debug)]
struct Entry {
    path: PathBuf,
    /// The material the file is named for, in Syzygy's orientation.
    material: Material,
    /// The table, read at its first use, or why it cannot be.
    table: OnceLock<Result<Table, TableError>>,
}

/// The WDL tables of some folders. Cheap to open (each file's first bytes are read); each table
/// is read whole when a probe first needs it and kept. Shared between threads as it is.
#[derive(Debug)]
pub struct Tablebase {
    entries: Vec<Entry>,
    /// Both orientations of each table's material, to its entry.
    by_material: HashMap<Material, usize>,
    /// Both orientations of each material a DTZ table (`.rtbz`) is found for: named, not read.
    dtz: HashSet<Material>,
    max_pieces: usize,
}

impl Tablebase {
    /// Find the `.rtbw` tables in `paths` (each a folder; subfolders are not searched) and check
    /// each one's name, size and header. Other files are left alone. When two folders hold a
    /// table of the same material, the first folder's is used, as Fathom does.
    ///
    /// Errors: a folder that cannot be listed, a `.rtbw` file that cannot be read, is not named
    /// as Syzygy names a material (`KQvKR.rtbw`), has a size no table has, is another kind of
    /// table (DTZ, or a variant's) or whose header holds other pieces than its name; and no
    /// table at all.
    pub fn open(paths: &[PathBuf]) -> Result<Tablebase, TablebaseError> {
        let mut entries: Vec<Entry> = Vec::new();
        let mut by_material = HashMap::new();
        let mut dtz = HashSet::new();
        for folder in paths {
            let folder_error = |e: std::io::Error| TablebaseError::Folder {
                path: folder.clone(),
                source: std::sync::Arc::new(e),
            };
            let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
                .map_err(folder_error)?
                .map(|entry| entry.map(|e| e.path()))
                .collect::<Result<_, _>>()
                .map_err(folder_error)?;
            for path in files
                .iter()
                .filter(|p| p.extension().is_some_and(|e| e == "rtbz"))
            {
                if let Ok(material) = named_material(path) {
                    dtz.extend([material, material.mirrored()]);
                }
            }
            files.retain(|p| p.extension().is_some_and(|e| e == "rtbw"));
            files.sort();
            for path in files {
                let material = named_material(&path)?;
                if by_material.contains_key(&material) {
                    continue;
                }
                table::check_file(&path, material).map_err(|problem| TableError {
                    path: path.clone(),
                    problem,
                })?;
                by_material.insert(material, entries.len());
                by_material.insert(material.mirrored(), entries.len());
                entries.push(Entry {
                    path,
                    material,
                    table: OnceLock::new(),
                });
            }
        }
        if entries.is_empty() {
            return Err(TablebaseError::NoTables {
                paths: paths.to_vec(),
            });
        }
        let max_pieces = entries
            .iter()
            .map(|e| e.material.pieces())
            .max()
            .unwrap_or(0);
        Ok(Tablebase {
            entries,
            by_material,
            dtz,
            max_pieces,
        })
    }

    /// The most pieces (kings included) of any table found: what Fathom reports as
    /// `TB_LARGEST`. Positions with more are refused; positions with as many or fewer may still
    /// need a table that is missing.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// Whether a DTZ table (`.rtbz`) of `material` (either orientation) is in the folders. DTZ
    /// tables are not read: a file named for the material counts.
    pub fn has_dtz(&self, material: Material) -> bool {
        self.dtz.contains(&material)
    }

    /// The tables found: each file and the material it is named for.
    pub fn tables(&self) -> impl Iterator<Item = (&Path, Material)> + '_ {
        self.entries.iter().map(|e| (e.path.as_path(), e.material))
    }

    /// Read and check every table now (checksum, headers, block index), rather than at first
    /// use: the problems found, one per damaged or unreadable table.
    pub fn verify(&self) -> Vec<TableError> {
        self.entries
            .iter()
            .filter_map(|e| self.load(e).err())
            .collect()
    }

    /// The value of `pos` for the side to move. Refused: castling rights, more pieces than
    /// [`Tablebase::max_pieces`], and a table that the position or one of its captures needs
    /// that is missing or damaged. The value assumes the fifty-move counter is zero (a capture
    /// or pawn move was just played); en passant captures are taken into account.
    ///
    /// ```no_run
    /// use shannon::tablebase::{Tablebase, Wdl};
    /// use shannon::Position;
    ///
    /// let tables = Tablebase::open(&["/path/to/syzygy".into()]).unwrap();
    /// let pos = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").unwrap();
    /// assert_eq!(tables.probe_wdl(&pos).unwrap(), Wdl::Win);
    /// ```
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        if !pos.castling_rights().is_empty() {
            return Err(ProbeError::CastlingRights);
        }
        let pieces = pos.occupied().count() as usize;
        if pieces > self.max_pieces {
            return Err(ProbeError::TooManyPieces {
                pieces,
                max: self.max_pieces,
            });
        }
        let value = probe::root(self, pos)?;
        Ok(Wdl::from_i8(value).expect("probe values are -2..=2"))
    }

    /// The table of `material` (either orientation), read and checked at its first use.
    fn table_for(&self, material: Material) -> Result<&Table, ProbeError> {
        let entry = self
            .by_material
            .get(&material)
            .map(|&i| &self.entries[i])
            .ok_or_else(|| ProbeError::MissingTable {
                name: material.syzygy_name(),
            })?;
        self.load(entry).map_err(ProbeError::Table)
    }

    fn load<'a>(&self, entry: &'a Entry) -> Result<&'a Table, TableError> {
        entry
            .table
            .get_or_init(|| {
                Table::read(&entry.path, entry.material).map_err(|problem| TableError {
                    path: entry.path.clone(),
                    problem,
                })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// A problem found while probing the table of `material`, with its file.
    fn error_for(&self, material: Material, problem: TableProblem) -> ProbeError {
        let path = self
            .by_material
            .get(&material)
            .map(|&i| self.entries[i].path.clone())
            .unwrap_or_default();
        ProbeError::Table(TableError { path, problem })
    }
}

/// The material a table file is named for; an error unless the name is Syzygy's for it.
fn named_material(path: &Path) -> Result<Material, TableError> {
    let error = |problem| TableError {
        path: path.to_path_buf(),
        problem,
    };
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let material: Material = stem.parse().map_err(|e| error(TableProblem::Name(e)))?;
    let expected = material.syzygy_name();
    if stem != expected {
        return Err(error(TableProblem::NotSyzygyName { expected }));
    }
    if material.pieces() < 3 {
        return Err(error(TableProblem::Name(MaterialNameError::KingsOnly)));
    }
    Ok(material)
}
