//! Syzygy endgame tablebases: the win/draw/loss (WDL) tables, which side wins a position of few
//! pieces with perfect play and whether the fifty-move rule saves the loser, and the distance
//! to zeroing (DTZ) tables, how many plies to the next capture or pawn move.
//!
//! [`Tablebase::open`] finds the `.rtbw` and `.rtbz` files in the folders given and checks each
//! one's name, size and header; a table is read whole, checksum and structure checked, the first
//! time a probe needs it, and kept. [`Tablebase::probe_wdl`] and [`Tablebase::probe_dtz`] answer
//! for the side to move, searching captures as Syzygy requires (see `probe` and `dtz`), and
//! [`Tablebase::probe_root`] is Fathom's root probe (cutechess-cli's adjudication); each refuses
//! with a [`ProbeError`]: castling rights, more pieces than the tables hold, a table missing or
//! damaged. None guesses.
//!
//! Inside: `material` (names like `KQvKR`), `header` and `pairs` (the file format), `index` (a
//! placement's number in a table), `table` (one file), `checksum` (the files' own checksum),
//! `probe` (the capture search), `dtz` (distances, and Fathom's root probe), `sample` (random
//! positions of a material, for tests and benchmarks). The rules core's own `std` only: no
//! file-format or memory-mapping crate.

mod checksum;
mod dtz;
mod error;
mod header;
mod index;
mod material;
mod pairs;
mod probe;
pub mod sample;
mod table;

pub use checksum::table_checksum;
pub use dtz::{Dtz, RootProbe};
pub use error::{ProbeError, TableError, TableProblem, TablebaseError};
pub use material::{Material, MaterialNameError, MAX_TABLE_PIECES};

use crate::Position;
use header::Kind;
use std::collections::HashMap;
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

/// The tables of one kind found in the folders.
#[derive(Debug, Default)]
struct Tables {
    entries: Vec<Entry>,
    /// Both orientations of each table's material, to its entry.
    by_material: HashMap<Material, usize>,
}

impl Tables {
    fn entry(&self, material: Material) -> Option<&Entry> {
        self.by_material.get(&material).map(|&i| &self.entries[i])
    }

    fn add(&mut self, entry: Entry) {
        let material = entry.material;
        self.by_material.insert(material, self.entries.len());
        self.by_material
            .insert(material.mirrored(), self.entries.len());
        self.entries.push(entry);
    }
}

/// The WDL and DTZ tables of some folders. Cheap to open (each file's first bytes are read);
/// each table is read whole when a probe first needs it and kept. Shared between threads as it
/// is.
#[derive(Debug)]
pub struct Tablebase {
    wdl: Tables,
    dtz: Tables,
    max_pieces: usize,
}

impl Tablebase {
    /// Find the `.rtbw` and `.rtbz` tables in `paths` (each a folder; subfolders are not
    /// searched) and check each WDL table's name, size and header. Other files are left alone.
    /// When two folders hold a table of the same material, the first folder's is used, as
    /// Fathom does.
    ///
    /// Errors: a folder that cannot be listed, a `.rtbw` file that cannot be read, is not named
    /// as Syzygy names a material (`KQvKR.rtbw`), has a size no table has, is another kind of
    /// table (DTZ, or a variant's) or whose header holds other pieces than its name; and no
    /// WDL table at all. A `.rtbz` file is checked the same way, but its problem is not an
    /// error of the folders: it is kept, and given by every DTZ probe that needs the table (the
    /// WDL tables answer without it); a `.rtbz` file not named for a material is left alone.
    pub fn open(paths: &[PathBuf]) -> Result<Tablebase, TablebaseError> {
        let mut wdl = Tables::default();
        let mut dtz = Tables::default();
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
            files.sort();
            let of_kind = |kind: Kind| {
                files
                    .iter()
                    .filter(move |p| p.extension().is_some_and(|e| e == kind.extension()))
            };
            for path in of_kind(Kind::Wdl) {
                let material = named_material(path)?;
                if wdl.by_material.contains_key(&material) {
                    continue;
                }
                table::check_file(path, material, Kind::Wdl).map_err(|problem| TableError {
                    path: path.clone(),
                    problem,
                })?;
                wdl.add(Entry::new(path, material));
            }
            for path in of_kind(Kind::Dtz) {
                let Ok(material) = named_material(path) else {
                    continue;
                };
                if dtz.by_material.contains_key(&material) {
                    continue;
                }
                let entry = Entry::new(path, material);
                if let Err(problem) = table::check_file(path, material, Kind::Dtz) {
                    let error = TableError {
                        path: path.clone(),
                        problem,
                    };
                    let _ = entry.table.set(Err(error));
                }
                dtz.add(entry);
            }
        }
        if wdl.entries.is_empty() {
            return Err(TablebaseError::NoTables {
                paths: paths.to_vec(),
            });
        }
        let max_pieces = wdl
            .entries
            .iter()
            .map(|e| e.material.pieces())
            .max()
            .unwrap_or(0);
        Ok(Tablebase {
            wdl,
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

    /// Whether a DTZ table (`.rtbz`) of `material` (either orientation) is in the folders,
    /// damaged or not.
    pub fn has_dtz(&self, material: Material) -> bool {
        self.dtz.by_material.contains_key(&material)
    }

    /// The WDL tables found: each file and the material it is named for.
    pub fn tables(&self) -> impl Iterator<Item = (&Path, Material)> + '_ {
        self.wdl
            .entries
            .iter()
            .map(|e| (e.path.as_path(), e.material))
    }

    /// The DTZ tables found: each file and the material it is named for.
    pub fn dtz_tables(&self) -> impl Iterator<Item = (&Path, Material)> + '_ {
        self.dtz
            .entries
            .iter()
            .map(|e| (e.path.as_path(), e.material))
    }

    /// Read and check every table, WDL and DTZ, now (checksum, headers, block index), rather
    /// than at first use: the problems found, one per damaged or unreadable table.
    pub fn verify(&self) -> Vec<TableError> {
        self.wdl
            .entries
            .iter()
            .map(|e| (e, Kind::Wdl))
            .chain(self.dtz.entries.iter().map(|e| (e, Kind::Dtz)))
            .filter_map(|(e, kind)| load(e, kind).err())
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
        self.check_probe(pos)?;
        let value = probe::root(self, pos)?;
        Ok(Wdl::from_i8(value).expect("probe values are -2..=2"))
    }

    /// The distance to zeroing of `pos` for the side to move, as python-chess's `probe_dtz`
    /// gives it (the reference prober's `DTZ50''` with rounding): positive when the side to
    /// move wins, negative when it loses, 0 for a draw; beyond 100 plies for a cursed win or a
    /// blessed loss. Refused as [`Tablebase::probe_wdl`] refuses, and when a DTZ table that the
    /// position needs is missing or damaged.
    ///
    /// ```no_run
    /// use shannon::tablebase::{Tablebase, Wdl};
    /// use shannon::Position;
    ///
    /// let tables = Tablebase::open(&["/path/to/syzygy".into()]).unwrap();
    /// let pos = Position::from_fen("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1").unwrap();
    /// let dtz = tables.probe_dtz(&pos).unwrap();
    /// assert_eq!((dtz.plies(), dtz.wdl()), (-53, Wdl::Loss));
    /// ```
    pub fn probe_dtz(&self, pos: &Position) -> Result<Dtz, ProbeError> {
        self.check_probe(pos)?;
        dtz::probe_dtz(self, pos)
    }

    /// Fathom's root probe (`tb_probe_root`, as cutechess-cli 1.5.1 carries it and calls it
    /// after every move): the position's value with its fifty-move counter counted, or
    /// checkmate or stalemate. It answers some positions of more pieces than the tables hold
    /// (where every line is decided by captures into them), so the number of pieces is not
    /// refused here; castling rights are. Its own failures are errors too: a position Fathom
    /// calls invalid, and a won position where no move keeps the win as it computes it.
    pub fn probe_root(&self, pos: &Position) -> Result<RootProbe, ProbeError> {
        if !pos.castling_rights().is_empty() {
            return Err(ProbeError::CastlingRights);
        }
        dtz::probe_root(self, pos)
    }

    /// The refusals common to the probes: castling rights, more pieces than the tables hold.
    fn check_probe(&self, pos: &Position) -> Result<(), ProbeError> {
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
        Ok(())
    }

    /// The WDL table of `material` (either orientation), read and checked at its first use.
    fn table_for(&self, material: Material) -> Result<&Table, ProbeError> {
        let entry = self
            .wdl
            .entry(material)
            .ok_or_else(|| ProbeError::MissingTable {
                name: material.syzygy_name(),
            })?;
        load(entry, Kind::Wdl).map_err(ProbeError::Table)
    }

    /// The number the DTZ table of `pos`'s material stores for it, its value being `wdl` (see
    /// [`Table::dtz`]); `None` when the table holds the other side to move.
    fn dtz_table(&self, pos: &Position, wdl: i8) -> Result<Option<u32>, ProbeError> {
        let material = Material::of(pos);
        let entry = self
            .dtz
            .entry(material)
            .ok_or_else(|| ProbeError::MissingDtzTable {
                name: material.syzygy_name(),
            })?;
        let table = load(entry, Kind::Dtz).map_err(ProbeError::Table)?;
        table.dtz(pos, wdl).map_err(|problem| {
            ProbeError::Table(TableError {
                path: entry.path.clone(),
                problem,
            })
        })
    }

    /// A problem found while probing the WDL table of `material`, with its file.
    fn error_for(&self, material: Material, problem: TableProblem) -> ProbeError {
        let path = self
            .wdl
            .entry(material)
            .map(|e| e.path.clone())
            .unwrap_or_default();
        ProbeError::Table(TableError { path, problem })
    }
}

impl Entry {
    fn new(path: &Path, material: Material) -> Entry {
        Entry {
            path: path.to_path_buf(),
            material,
            table: OnceLock::new(),
        }
    }
}

/// The table of `entry`, of `kind`, read and checked at its first use (or the problem found).
fn load(entry: &Entry, kind: Kind) -> Result<&Table, TableError> {
    entry
        .table
        .get_or_init(|| {
            Table::read(&entry.path, entry.material, kind).map_err(|problem| TableError {
                path: entry.path.clone(),
                problem,
            })
        })
        .as_ref()
        .map_err(Clone::clone)
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
