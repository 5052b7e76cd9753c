//! Bad input: missing and unreadable folders and files, misnamed files, tables cut short or with
//! a byte changed (in the header, the block index, the data, the checksum), a table named for
//! another material, other kinds of table. Each is refused with a message naming the file, at
//! open or at the first probe that needs the table, and no probe gives a value from it.
//!
//! Where a change keeps the file's checksum right (a change made on purpose and sealed again
//! with `table_checksum`), the structural checks behind the checksum must still refuse the
//! table when the format lets them; a changed data byte then goes undetected, which the docs
//! say (the format has no other check of its data).

use super::tables;
use crate::common::Scratch;
use shannon::tablebase::{table_checksum, ProbeError, TableProblem, Tablebase, TablebaseError};
use shannon::Position;
use std::path::{Path, PathBuf};

/// Positions that need KRvKP (and, through captures, KRvK and KPvK).
const KRVKP: [&str; 4] = [
    "8/8/4k3/8/2p5/8/2K5/7R w - - 0 1",
    "8/8/4k3/8/2p5/8/2K5/7R b - - 0 1",
    "7R/8/8/1k6/8/p7/8/4K3 b - - 0 1",
    "8/5k2/8/8/8/1p6/8/R5K1 w - - 0 1",
];

/// A scratch folder holding copies of `names` from the tables' folder.
fn copy_tables(folder: &Path, names: &[&str], scratch: &Scratch) -> PathBuf {
    for name in names {
        std::fs::copy(folder.join(name), scratch.join(name)).unwrap();
    }
    scratch.to_path_buf()
}

fn open(folder: &Path) -> Result<Tablebase, TablebaseError> {
    Tablebase::open(&[folder.to_path_buf()])
}

/// Every probe of the KRvKP positions is refused with an error naming `file`.
fn every_probe_refused(tables: &Tablebase, file: &str) -> Vec<String> {
    KRVKP
        .iter()
        .map(|fen| {
            let pos = Position::from_fen(fen).unwrap();
            match tables.probe_wdl(&pos) {
                Ok(value) => panic!("{fen}: a value ({value}) from a damaged {file}"),
                Err(e) => {
                    let text = e.to_string();
                    assert!(text.contains(file), "{text}");
                    text
                }
            }
        })
        .collect()
}

#[test]
fn folders_that_cannot_be_read_are_named() {
    let scratch = Scratch::new("tb-folders");
    let missing = scratch.join("no-such-folder");
    let err = open(&missing).unwrap_err();
    assert!(matches!(err, TablebaseError::Folder { .. }), "{err}");
    assert!(err.to_string().contains("no-such-folder"), "{err}");
    let file = scratch.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let err = open(&file).unwrap_err();
    assert!(err.to_string().contains("a-file"), "{err}");
    let empty = scratch.join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(empty.join("README.txt"), "not a table").unwrap();
    let err = open(&empty).unwrap_err();
    assert!(matches!(err, TablebaseError::NoTables { .. }), "{err}");
    assert!(err.to_string().contains("empty"), "{err}");
}

#[test]
fn unreadable_and_misnamed_files_are_named() {
    let scratch = Scratch::new("tb-names");
    // A dangling link and a folder where a table should be: neither can be read.
    std::os::unix::fs::symlink(scratch.join("nowhere"), scratch.join("KQvK.rtbw")).unwrap();
    let err = open(&scratch).unwrap_err().to_string();
    assert!(
        err.contains("KQvK.rtbw") && err.contains("cannot read"),
        "{err}"
    );
    std::fs::remove_file(scratch.join("KQvK.rtbw")).unwrap();
    std::fs::create_dir(scratch.join("KRvK.rtbw")).unwrap();
    let err = open(&scratch).unwrap_err().to_string();
    assert!(
        err.contains("KRvK.rtbw") && err.contains("cannot read"),
        "{err}"
    );
    std::fs::remove_dir(scratch.join("KRvK.rtbw")).unwrap();
    for (name, says) in [
        ("notes.rtbw", "not a table name"),
        ("KQvKX.rtbw", "'X' is not a piece letter"),
        ("KRvKQ.rtbw", "named KQvKR.rtbw"),
        ("KvK.rtbw", "no table holds them"),
        ("KQQQQQQvK.rtbw", "at most 7"),
    ] {
        let path = scratch.join(name);
        std::fs::write(&path, [0u8; 80]).unwrap();
        let err = open(&scratch).unwrap_err().to_string();
        assert!(err.contains(name) && err.contains(says), "{name}: {err}");
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn tables_of_other_kinds_and_materials_are_refused_at_open() {
    let Some(folder) = tables() else {
        return;
    };
    let scratch = Scratch::new("tb-kinds");
    let bytes = std::fs::read(folder.join("KQvKR.rtbw")).unwrap();
    // Another table renamed: KQvKR's file as KQvKN's.
    std::fs::write(scratch.join("KQvKN.rtbw"), &bytes).unwrap();
    let err = open(&scratch).unwrap_err().to_string();
    assert!(
        err.contains("KQvKN.rtbw") && err.contains("the pieces of KQvKR"),
        "{err}"
    );
    std::fs::remove_file(scratch.join("KQvKN.rtbw")).unwrap();
    // A DTZ table renamed (its magic number), and tables of atomic and giveaway chess.
    for (magic, variant) in [
        ([0xd7, 0x66, 0x0c, 0xa5], "DTZ"),
        ([0x55, 0x8d, 0xa4, 0x49], "atomic"),
        ([0xbc, 0x55, 0xbc, 0x21], "giveaway"),
    ] {
        let mut other = bytes.clone();
        other[..4].copy_from_slice(&magic);
        std::fs::write(scratch.join("KQvK.rtbw"), &other).unwrap();
        let err = open(&scratch).unwrap_err().to_string();
        assert!(err.contains("KQvK.rtbw") && err.contains(variant), "{err}");
    }
}

#[test]
fn tables_cut_short_are_refused() {
    let Some(folder) = tables() else {
        return;
    };
    let bytes = std::fs::read(folder.join("KRvKP.rtbw")).unwrap();
    let len = bytes.len();
    let scratch = Scratch::new("tb-cut");
    let dir = copy_tables(&folder, &["KRvK.rtbw", "KPvK.rtbw"], &scratch);
    // Cut anywhere: the size is no table's, and the folder is refused.
    for cut in [0, 3, 4, 10, 100, len / 2, len - 17, len - 1] {
        std::fs::write(dir.join("KRvKP.rtbw"), &bytes[..cut]).unwrap();
        let err = open(&dir).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("KRvKP.rtbw"), "cut at {cut}: {text}");
        assert!(text.contains("64n + 16"), "cut at {cut}: {text}");
    }
    // Cut to a size a table could have: the header or the checksum says no.
    for cut in [16, 80, 64 * (len / 128) + 16, len - 64] {
        std::fs::write(dir.join("KRvKP.rtbw"), &bytes[..cut]).unwrap();
        match open(&dir) {
            Err(e) => assert!(e.to_string().contains("KRvKP.rtbw"), "cut at {cut}: {e}"),
            Ok(tables) => {
                every_probe_refused(&tables, "KRvKP.rtbw");
                assert_eq!(tables.verify().len(), 1, "cut at {cut}");
            }
        }
    }
}

/// Change one byte of KRvKP.rtbw at each of `places` (header, compression header, block index,
/// block sizes, data, checksum): every change is refused, by the header's check at open or by
/// the checksum at the first probe.
#[test]
fn a_changed_byte_anywhere_is_refused() {
    let Some(folder) = tables() else {
        return;
    };
    let bytes = std::fs::read(folder.join("KRvKP.rtbw")).unwrap();
    let len = bytes.len();
    let scratch = Scratch::new("tb-flip");
    let dir = copy_tables(&folder, &["KRvK.rtbw", "KPvK.rtbw"], &scratch);
    let mut at_open = 0;
    let mut at_probe = 0;
    let places = [
        4,
        5,
        6,
        9,
        20,
        30,
        60,
        100,
        200,
        400,
        1000,
        5000,
        len / 2,
        len - 100,
        len - 20,
        len - 16,
        len - 1,
    ];
    for place in places {
        let mut changed = bytes.clone();
        changed[place] ^= 0x10;
        std::fs::write(dir.join("KRvKP.rtbw"), &changed).unwrap();
        match open(&dir) {
            Err(e) => {
                assert!(e.to_string().contains("KRvKP.rtbw"), "byte {place}: {e}");
                at_open += 1;
            }
            Ok(tables) => {
                for text in every_probe_refused(&tables, "KRvKP.rtbw") {
                    assert!(text.contains("checksum"), "byte {place}: {text}");
                }
                at_probe += 1;
            }
        }
    }
    println!(
        "{} changed bytes of KRvKP.rtbw ({len} bytes): {at_open} refused at open (header), \
         {at_probe} at the first probe (checksum)",
        places.len()
    );
    assert!(at_open >= 2 && at_probe >= 10, "{at_open} {at_probe}");
}

/// A file changed and sealed again with a right checksum: the structural checks still refuse
/// what the format lets them check (here the compression header, the symbol dictionary, the
/// block sizes and the block index of KRvKP's first sub-table).
#[test]
fn structural_checks_refuse_what_the_checksum_would_not() {
    let Some(folder) = tables() else {
        return;
    };
    let bytes = std::fs::read(folder.join("KRvKP.rtbw")).unwrap();
    let scratch = Scratch::new("tb-sealed");
    let dir = copy_tables(&folder, &["KRvK.rtbw", "KPvK.rtbw"], &scratch);
    let sealed = |change: &dyn Fn(&mut Vec<u8>)| {
        let mut changed = bytes.clone();
        change(&mut changed);
        let body = changed.len() - 16;
        let sum = table_checksum(&changed[..body]);
        changed[body..].copy_from_slice(&sum);
        std::fs::write(dir.join("KRvKP.rtbw"), &changed).unwrap();
        let tables = open(&dir).unwrap();
        let errors = tables.verify();
        assert_eq!(errors.len(), 1);
        every_probe_refused(&tables, "KRvKP.rtbw");
        errors[0].problem.clone()
    };
    // Unchanged and sealed again: the same file, which loads.
    let tables = {
        let mut same = bytes.clone();
        let body = same.len() - 16;
        let sum = table_checksum(&same[..body]);
        assert_eq!(sum[..], bytes[body..], "the checksum of the real file");
        same[body..].copy_from_slice(&sum);
        std::fs::write(dir.join("KRvKP.rtbw"), &same).unwrap();
        open(&dir).unwrap()
    };
    assert!(tables.verify().is_empty());
    // The layout of KRvKP.rtbw: 5 bytes of magic and flags, 4 piece entries of 5 bytes, then the
    // first sub-table's compression header at byte 26.
    let pairs = 26;
    assert_eq!(bytes[pairs], 0, "KRvKP's first sub-table is compressed");
    let problem = sealed(&|b| b[pairs + 9] = 40);
    assert!(matches!(problem, TableProblem::Compression(_)), "{problem}");
    let problem = sealed(&|b| b[pairs + 2] = 3);
    assert!(
        matches!(
            problem,
            TableProblem::IndexEntry(_) | TableProblem::Layout { .. }
        ),
        "{problem}"
    );
    let max_len = usize::from(bytes[pairs + 8]);
    let min_len = usize::from(bytes[pairs + 9]);
    let symbols_at = pairs + 12 + 2 * (max_len - min_len + 1);
    // The first symbol: a leaf with value 7, then a pair referring to itself.
    let problem = sealed(&|b| {
        b[symbols_at] = 7;
        b[symbols_at + 1] |= 0xf0;
        b[symbols_at + 2] = 0xff;
    });
    assert!(matches!(problem, TableProblem::Symbols(_)), "{problem}");
    let problem = sealed(&|b| {
        b[symbols_at] = 0;
        b[symbols_at + 1] = 0x00;
        b[symbols_at + 2] = 0x00;
    });
    assert!(matches!(problem, TableProblem::Symbols(_)), "{problem}");
}

#[test]
fn probes_refuse_castling_too_many_pieces_and_missing_tables() {
    let Some(folder) = tables() else {
        return;
    };
    let scratch = Scratch::new("tb-missing");
    let dir = copy_tables(&folder, &["KQvK.rtbw", "KRvKP.rtbw", "KRvK.rtbw"], &scratch);
    let tables = open(&dir).unwrap();
    assert_eq!(tables.max_pieces(), 4);
    let probe = |fen: &str| tables.probe_wdl(&Position::from_fen(fen).unwrap());
    assert!(matches!(
        probe("4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
        Err(ProbeError::CastlingRights)
    ));
    assert!(matches!(
        probe("4k3/8/8/8/8/8/3PP3/3QK3 w - - 0 1"),
        Err(ProbeError::TooManyPieces { pieces: 5, max: 4 })
    ));
    // KRvKP needs KPvK when the pawn can take the rook.
    let err = probe("8/8/4k3/8/8/1p6/R7/4K3 b - - 0 1").unwrap_err();
    assert!(
        matches!(&err, ProbeError::MissingTable { name } if name == "KPvK"),
        "{err}"
    );
    assert!(err.to_string().contains("KPvK.rtbw"), "{err}");
    assert!(matches!(
        probe("8/8/4k3/8/8/8/2N5/4K3 w - - 0 1"),
        Err(ProbeError::MissingTable { .. })
    ));
    // The two kings need no table; KQvK and its mirror are there.
    assert_eq!(probe("8/8/4k3/8/8/8/8/4K3 w - - 0 1").unwrap().to_i8(), 0);
    assert_eq!(probe("8/8/4k3/8/8/8/8/3qK3 w - - 0 1").unwrap().to_i8(), 0);
    assert_eq!(
        probe("8/8/4k3/8/8/8/8/2q1K3 w - - 0 1").unwrap().to_i8(),
        -2
    );
}

/// A DTZ table (`.rtbz`) damaged, cut short, of another kind or missing: the folders open (the
/// WDL tables answer as before), and every DTZ probe that needs it is refused, naming the file.
#[test]
fn bad_dtz_tables_refuse_the_distance_probes_that_need_them() {
    let Some(folder) = tables() else {
        return;
    };
    let intact = open(&folder).unwrap();
    let names = [
        "KRvK.rtbw",
        "KPvK.rtbw",
        "KRvKP.rtbw",
        "KRvK.rtbz",
        "KPvK.rtbz",
    ];
    let scratch = Scratch::new("tb-dtz");
    let dir = copy_tables(&folder, &names, &scratch);
    let bytes = std::fs::read(folder.join("KRvKP.rtbz")).unwrap();
    let mut changed = bytes.clone();
    changed[bytes.len() / 2] ^= 0x10;
    let wdl_bytes = std::fs::read(folder.join("KRvKP.rtbw")).unwrap();
    let cases: [(&str, Option<&[u8]>); 4] = [
        ("checksum", Some(&changed)),
        ("64n + 16", Some(&bytes[..bytes.len() - 1])),
        (
            "not a DTZ table (.rtbz) of standard chess: a WDL table",
            Some(&wdl_bytes),
        ),
        ("no table KRvKP.rtbz", None),
    ];
    for (says, content) in cases {
        match content {
            Some(content) => std::fs::write(dir.join("KRvKP.rtbz"), content).unwrap(),
            None => {
                let _ = std::fs::remove_file(dir.join("KRvKP.rtbz"));
            }
        }
        let tables = open(&dir).unwrap();
        assert_eq!(
            tables.verify().len(),
            usize::from(content.is_some()),
            "{says}"
        );
        let mut refused = 0;
        for fen in KRVKP {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(
                tables.probe_wdl(&pos).unwrap(),
                intact.probe_wdl(&pos).unwrap()
            );
            if intact.probe_dtz(&pos).unwrap().plies() == 0 {
                continue;
            }
            for result in [
                tables.probe_dtz(&pos).map(|_| ()),
                tables.probe_root(&pos).map(|_| ()),
            ] {
                let text = result.expect_err(fen).to_string();
                assert!(text.contains("KRvKP.rtbz") && text.contains(says), "{text}");
            }
            refused += 1;
        }
        assert!(refused >= 3, "{says}: {refused} refused");
    }
}
