//! The share file of a split exact run (`shannon exact --split`): the values of some of the
//! split ply's positions, written by one share and read back, every share together, by the
//! merge ([`crate::perft::exact::exact_with_frontier`]). A saved format, so it lives here with
//! the experiment's checkpoints, not in the command line.
//!
//! Version 2 deals the split's positions in runs of consecutive ones ([`Shard::run_of`]);
//! version 1 dealt every N-th position. A merge reads both, but not mixed: a share of one and a
//! share of the other may overlap and leave positions out.

use crate::jobs::atomic_file::write_atomically;
use crate::jobs::shard::Shard;
use crate::perft::exact::{
    check_plies, frontier, frontier_values, BoardId, Ends, ExactError, Fixed, FrontierValues,
};
use crate::{FenError, Position};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The format name of a share file.
pub const SHARE_FORMAT: &str = "shannon-exact-share";
/// The version this build writes.
pub const SHARE_VERSION: u32 = 2;
/// The share file versions a merge reads.
pub const SHARE_VERSIONS_READ: [u32; 2] = [1, 2];

/// How a share file's version dealt the positions, in words.
fn dealt_by(version: u32) -> &'static str {
    if version == 1 {
        "every N-th position"
    } else {
        "runs of consecutive positions"
    }
}

/// A share file: the values of some of the split ply's positions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareFile {
    /// [`SHARE_FORMAT`].
    pub format: String,
    /// The version (see [`SHARE_VERSION`]).
    pub version: u32,
    /// The root position (Shredder-FEN).
    pub root: String,
    /// Plies 1 to this.
    pub plies: u32,
    /// The split ply.
    pub split: u32,
    /// Which share of the split's positions.
    pub shard: Shard,
    /// Its positions, in the split's order.
    pub positions: Vec<SharePosition>,
}

/// One position of a share and its values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharePosition {
    /// Shredder-FEN of the position at the split ply.
    pub fen: String,
    /// Entry d - 1: the games ending d plies below it.
    pub ends: Vec<ShareEnds>,
}

/// The games ending some plies below a share's position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareEnds {
    /// Games ending in checkmate.
    pub mates: u64,
    /// Games ending in stalemate.
    pub stalemates: u64,
    /// In units of 2^-127, as a decimal integer.
    pub p_mate: String,
    /// Likewise.
    pub p_stalemate: String,
}

/// A share computed by [`ShareFile::compute`], and the number of positions at the split ply
/// that all the shares together hold.
#[derive(Debug, Clone)]
pub struct ComputedShare {
    /// The file's content.
    pub file: ShareFile,
    /// The positions at the split ply, every share's.
    pub of: usize,
}

/// Why share files cannot be written, read or merged.
#[derive(Debug)]
pub enum ShareError {
    /// The file cannot be read.
    Read(PathBuf, io::Error),
    /// It is not a share file (not JSON, or not of this shape).
    NotAShareFile(PathBuf, serde_json::Error),
    /// A file of another format.
    Format(PathBuf, String),
    /// A share file of a version this build does not read.
    Version(PathBuf, u32),
    /// A share of one version among shares of another (their deals may overlap).
    MixedVersions {
        /// The file.
        path: PathBuf,
        /// Its share.
        shard: Shard,
        /// Its version.
        version: u32,
        /// The version of the shares before it.
        others: u32,
    },
    /// A share of another run (root, plies or split).
    OtherRun {
        /// The file.
        path: PathBuf,
        /// Its root (Shredder-FEN).
        root: String,
        /// Its plies.
        plies: u32,
        /// Its split ply.
        split: u32,
        /// The root of the run being merged.
        wanted_root: String,
        /// Its plies.
        wanted_plies: u32,
        /// Its split ply.
        wanted_split: u32,
    },
    /// A share of a run cut into another number of shares.
    MixedCounts {
        /// The file.
        path: PathBuf,
        /// Its share.
        shard: Shard,
        /// The count of the shares before it.
        count: u64,
    },
    /// The same share twice.
    Twice(PathBuf, Shard),
    /// A position that is not a legal FEN.
    BadFen(PathBuf, String, FenError),
    /// A value that is not a fixed-point number.
    BadNumber(PathBuf, String),
    /// Not every share given.
    Missing {
        /// How many were given.
        given: usize,
        /// How many the run has.
        count: u64,
    },
    /// The file cannot be written.
    Write(PathBuf, io::Error),
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::Read(path, e) => write!(f, "{}: {e}", path.display()),
            ShareError::NotAShareFile(path, e) => {
                write!(f, "{}: not a share file: {e}", path.display())
            }
            ShareError::Format(path, format) => write!(
                f,
                "{}: format '{format}', not {SHARE_FORMAT}",
                path.display()
            ),
            ShareError::Version(path, version) => write!(
                f,
                "{}: share file version {version}; this shannon reads versions 1 and \
                 {SHARE_VERSION}",
                path.display()
            ),
            ShareError::MixedVersions {
                path,
                shard,
                version,
                others,
            } => write!(
                f,
                "{}: share {shard} of version {version} (dealt {}) mixed with shares of version \
                 {others} (dealt {}): compute every share with one shannon",
                path.display(),
                dealt_by(*version),
                dealt_by(*others)
            ),
            ShareError::OtherRun {
                path,
                root,
                plies,
                split,
                wanted_root,
                wanted_plies,
                wanted_split,
            } => write!(
                f,
                "{}: a share of another run ({root} --plies {plies} --split {split}), not of \
                 {wanted_root} --plies {wanted_plies} --split {wanted_split}",
                path.display()
            ),
            ShareError::MixedCounts { path, shard, count } => write!(
                f,
                "{}: share {}/{} mixed with shares of {count}",
                path.display(),
                shard.index,
                shard.count
            ),
            ShareError::Twice(path, shard) => write!(
                f,
                "{}: share {}/{} given twice",
                path.display(),
                shard.index,
                shard.count
            ),
            ShareError::BadFen(path, fen, e) => {
                write!(f, "{}: bad FEN {fen}: {e}", path.display())
            }
            ShareError::BadNumber(path, text) => {
                write!(f, "{}: bad fixed-point value '{text}'", path.display())
            }
            ShareError::Missing { given, count } => write!(
                f,
                "{given} of {count} shares given: every share is needed for an exact result"
            ),
            ShareError::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for ShareError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ShareError::Read(_, e) | ShareError::Write(_, e) => Some(e),
            ShareError::NotAShareFile(_, e) => Some(e),
            ShareError::BadFen(_, _, e) => Some(e),
            _ => None,
        }
    }
}

impl ShareFile {
    /// Share `shard` of a run of `plies` plies from `pos` split at ply `split`: the values of
    /// its run of the split ply's positions, on the fast walk with a cache of `hash_mb` MiB and
    /// `threads` threads. Plies or a split that [`check_plies`] refuses are refused before any
    /// work.
    pub fn compute(
        pos: &Position,
        plies: u32,
        split: u32,
        shard: Shard,
        hash_mb: usize,
        threads: usize,
    ) -> Result<ComputedShare, ExactError> {
        check_plies(pos, plies, Some(split))?;
        let all = frontier(pos, split);
        // A run of consecutive positions, not every N-th: the frontier lists the replies to one
        // move together, and those share many descendants that a share computes once.
        let run = shard.run_of(all.len() as u64);
        let mine = &all[run.start as usize..run.end as usize];
        let values = frontier_values(mine, plies - split, hash_mb, threads);
        let file = ShareFile {
            format: SHARE_FORMAT.into(),
            version: SHARE_VERSION,
            root: pos.shredder_fen(),
            plies,
            split,
            shard,
            positions: mine
                .iter()
                .zip(values)
                .map(|(p, ends)| SharePosition {
                    fen: p.shredder_fen(),
                    ends: ends
                        .into_iter()
                        .map(|e| ShareEnds {
                            mates: e.mates,
                            stalemates: e.stalemates,
                            p_mate: e.p_mate.0.to_string(),
                            p_stalemate: e.p_stalemate.0.to_string(),
                        })
                        .collect(),
                })
                .collect(),
        };
        Ok(ComputedShare {
            file,
            of: all.len(),
        })
    }

    /// Write the file to `path` (atomically: a reader sees the old file or the whole new one).
    pub fn write(&self, path: &Path) -> Result<(), ShareError> {
        let text = serde_json::to_string(self).expect("a share file serialises");
        write_atomically(path, text.as_bytes()).map_err(|e| ShareError::Write(path.into(), e))
    }

    /// Read the share file at `path` (of a version this build reads).
    pub fn read(path: &Path) -> Result<ShareFile, ShareError> {
        let text = std::fs::read_to_string(path).map_err(|e| ShareError::Read(path.into(), e))?;
        let file: ShareFile =
            serde_json::from_str(&text).map_err(|e| ShareError::NotAShareFile(path.into(), e))?;
        if file.format != SHARE_FORMAT {
            return Err(ShareError::Format(path.into(), file.format));
        }
        if !SHARE_VERSIONS_READ.contains(&file.version) {
            return Err(ShareError::Version(path.into(), file.version));
        }
        Ok(file)
    }
}

/// The values of the split ply's positions from the share files `paths` of the run of `plies`
/// plies from `pos` split at `split`: every share of one run, each once, all of one version.
pub fn read_shares(
    paths: &[PathBuf],
    pos: &Position,
    plies: u32,
    split: u32,
) -> Result<FrontierValues, ShareError> {
    let mut values = FrontierValues::new();
    let mut seen: Vec<Shard> = Vec::new();
    let mut dealing: Option<u32> = None;
    for path in paths {
        let file = ShareFile::read(path)?;
        match dealing {
            Some(others) if others != file.version => {
                return Err(ShareError::MixedVersions {
                    path: path.clone(),
                    shard: file.shard,
                    version: file.version,
                    others,
                });
            }
            _ => dealing = Some(file.version),
        }
        if file.root != pos.shredder_fen() || file.plies != plies || file.split != split {
            return Err(ShareError::OtherRun {
                path: path.clone(),
                root: file.root,
                plies: file.plies,
                split: file.split,
                wanted_root: pos.shredder_fen(),
                wanted_plies: plies,
                wanted_split: split,
            });
        }
        if let Some(first) = seen.first() {
            if first.count != file.shard.count {
                return Err(ShareError::MixedCounts {
                    path: path.clone(),
                    shard: file.shard,
                    count: first.count,
                });
            }
        }
        if seen.contains(&file.shard) {
            return Err(ShareError::Twice(path.clone(), file.shard));
        }
        seen.push(file.shard);
        for p in file.positions {
            let position = Position::from_fen(&p.fen)
                .map_err(|e| ShareError::BadFen(path.clone(), p.fen.clone(), e))?;
            let mut ends = Vec::new();
            for e in p.ends {
                let number = |s: &str| {
                    s.parse::<u128>()
                        .map(Fixed)
                        .map_err(|_| ShareError::BadNumber(path.clone(), s.to_string()))
                };
                ends.push(Ends {
                    mates: e.mates,
                    stalemates: e.stalemates,
                    p_mate: number(&e.p_mate)?,
                    p_stalemate: number(&e.p_stalemate)?,
                });
            }
            values.insert(BoardId::of(&position), ends);
        }
    }
    if let Some(first) = seen.first() {
        if seen.len() as u64 != first.count {
            return Err(ShareError::Missing {
                given: seen.len(),
                count: first.count,
            });
        }
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::exact::{exact, exact_with_frontier, ExactOptions};

    fn fixture(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/exact-share-v2")
            .join(name)
    }

    /// The share files of an earlier shannon read, merge to the single run, and are written
    /// again byte for byte by this one.
    #[test]
    fn the_version_2_fixture_reads_merges_and_is_written_again_the_same() {
        let pos = Position::startpos();
        let paths = [fixture("share-0.json"), fixture("share-1.json")];
        let values = read_shares(&paths, &pos, 4, 1).unwrap();
        let options = ExactOptions {
            plies: 4,
            hash_mb: 1,
            ..Default::default()
        };
        let merged = exact_with_frontier(&pos, &options, 1, &values).unwrap();
        assert_eq!(merged, exact(&pos, &options).unwrap());
        for (i, path) in paths.iter().enumerate() {
            let shard = Shard {
                index: i as u64,
                count: 2,
            };
            let computed = ShareFile::compute(&pos, 4, 1, shard, 1, 1).unwrap();
            assert_eq!(computed.of, 20);
            let written = serde_json::to_string(&computed.file).unwrap();
            assert_eq!(written, std::fs::read_to_string(path).unwrap());
        }
    }

    #[test]
    fn wrong_files_and_runs_are_refused_by_kind() {
        let pos = Position::startpos();
        let share = fixture("share-0.json");
        let err = read_shares(std::slice::from_ref(&share), &pos, 4, 1).unwrap_err();
        assert!(
            matches!(err, ShareError::Missing { given: 1, count: 2 }),
            "{err}"
        );
        let err = read_shares(&[share.clone(), share.clone()], &pos, 4, 1).unwrap_err();
        assert!(matches!(err, ShareError::Twice(..)), "{err}");
        let err = read_shares(std::slice::from_ref(&share), &pos, 5, 1).unwrap_err();
        assert!(matches!(err, ShareError::OtherRun { .. }), "{err}");
        assert!(err.to_string().contains("another run"), "{err}");
        let err = read_shares(&[fixture("merged.json")], &pos, 4, 1).unwrap_err();
        assert!(matches!(err, ShareError::NotAShareFile(..)), "{err}");
        let err = read_shares(&[fixture("absent.json")], &pos, 4, 1).unwrap_err();
        assert!(matches!(err, ShareError::Read(..)), "{err}");
        assert!(matches!(
            ShareFile::compute(&pos, 4, 4, Shard { index: 0, count: 2 }, 1, 1),
            Err(ExactError::SplitTooDeep { split: 4, plies: 4 })
        ));
    }
}
