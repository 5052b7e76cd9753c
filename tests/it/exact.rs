//! `shannon perft --stats` against the Chess Programming Wiki's tables, and `shannon exact`
//! against OEIS A079485, an independent brute force (cozy-chess's move generator, every move
//! made, the sum over mating paths of the product of 1/n), and its own split and merge.

use crate::common::{data_path, run_here as shannon, Scratch};
use num_rational::BigRational;
use shannon::perft::exact::{exact, ExactOptions};
use shannon::Position;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const COLUMNS: [&str; 9] = [
    "nodes",
    "captures",
    "en_passant",
    "castles",
    "promotions",
    "checks",
    "discovered_checks",
    "double_checks",
    "checkmates",
];

/// The published rows of `position` up to `depth`, with the disputed values replaced by the
/// value the cited reports give (each listed in the data file with its source).
fn published(position: &str, depth: u32) -> Vec<Vec<u64>> {
    let text = std::fs::read_to_string(data_path("perft/cpw-stats.tsv")).unwrap();
    let mut rows: Vec<Vec<u64>> = Vec::new();
    let mut disputed = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields[0] == "disputed" && fields[1] == position {
            disputed.push((
                fields[2].parse::<u32>().unwrap(),
                fields[3],
                fields[4],
                fields[5],
            ));
        } else if fields[0] == position && fields[1].parse::<u32>().unwrap() <= depth {
            rows.push(fields[2..].iter().map(|f| f.parse().unwrap()).collect());
        }
    }
    for (d, column, published, reported) in disputed {
        if d <= depth {
            let c = COLUMNS.iter().position(|&x| x == column).unwrap();
            assert_eq!(rows[d as usize - 1][c].to_string(), published);
            eprintln!(
                "{position} depth {d} {column}: the wiki has {published}; checking {reported}"
            );
            rows[d as usize - 1][c] = reported.parse().unwrap();
        }
    }
    assert_eq!(rows.len(), depth as usize);
    rows
}

fn stats_json(fen: Option<&str>, depth: u32) -> Vec<Vec<u64>> {
    let depth_text = depth.to_string();
    let mut args = vec![
        "perft",
        depth_text.as_str(),
        "--stats",
        "--json",
        "--hash",
        "64",
    ];
    if let Some(fen) = fen {
        args.extend(["--fen", fen]);
    }
    let (ok, out, err) = shannon(&args);
    assert!(ok, "{err}");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            assert_eq!(row["ply"], i + 1);
            COLUMNS.iter().map(|c| row[c].as_u64().unwrap()).collect()
        })
        .collect()
}

#[test]
fn perft_stats_reproduce_the_wiki_start_position_to_depth_6() {
    assert_eq!(stats_json(None, 6), published("startpos", 6));
}

#[test]
fn perft_stats_reproduce_the_wiki_kiwipete_to_depth_5() {
    assert_eq!(stats_json(Some(KIWIPETE), 5), published("kiwipete", 5));
}

/// Depth 8 (85 billion leaves) takes hours here: run by hand with `-- --ignored`.
#[test]
#[ignore]
fn perft_stats_reproduce_the_wiki_start_position_to_depth_8() {
    assert_eq!(stats_json(None, 8), published("startpos", 8));
}

#[test]
fn perft_stats_text_has_a_row_per_ply() {
    let (ok, out, _) = shannon(&["perft", "3", "--stats"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("ply") && lines[0].contains("checkmates"),
        "{out}"
    );
    assert_eq!(
        lines[3].split_whitespace().collect::<Vec<_>>(),
        ["3", "8902", "34", "0", "0", "0", "12", "0", "0", "0"]
    );
    assert!(
        !shannon(&["perft", "3", "--json"]).0,
        "--json needs --stats"
    );
}

fn a079485() -> Vec<u64> {
    std::fs::read_to_string(data_path("oeis-a079485.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.parse().unwrap())
        .collect()
}

fn exact_json(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["exact", "--json", "--hash", "64"];
    all.extend(args);
    let (ok, out, err) = shannon(&all);
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn mate_counts_are_a079485_and_fractions_are_given() {
    let rows = exact_json(&["--plies", "6"]);
    let oeis = a079485();
    for row in &rows {
        let k = row["ply"].as_u64().unwrap() as usize;
        assert_eq!(row["mates"].as_u64().unwrap(), oeis[k], "ply {k}");
        assert_eq!(row["stalemates"], 0);
        assert!(row["p_mate_fraction"].is_string());
    }
    assert_eq!(rows[3]["p_mate_fraction"], "32183/989520000");
    // The decimal digits agree with the fraction: 32183/989520000 = 0.0000325238499474...
    assert!(rows[3]["p_mate"]
        .as_str()
        .unwrap()
        .starts_with("0.0000325238499474"));
}

/// Ply 7 (A079485: 435767) and 8 take minutes here: run by hand with `-- --ignored`.
#[test]
#[ignore]
fn mate_counts_are_a079485_to_ply_8() {
    let rows = exact_json(&["--plies", "8", "--hash", "2048"]);
    let oeis = a079485();
    for row in &rows {
        let k = row["ply"].as_u64().unwrap() as usize;
        assert_eq!(row["mates"].as_u64().unwrap(), oeis[k], "ply {k}");
    }
}

/// Independent: cozy-chess's generator, every game to ply `k` played out, each ending adding
/// the product of 1/n along its path.
fn brute_force(
    board: &cozy_chess::Board,
    ply: u32,
    k: u32,
    denom: u128,
    sums: &mut [BigRational; 2],
) {
    let mut moves = Vec::new();
    board.generate_moves(|list| {
        moves.extend(list);
        false
    });
    if ply == k {
        if moves.is_empty() {
            let which = usize::from(board.checkers().is_empty());
            sums[which] += BigRational::new(1.into(), denom.into());
        }
        return;
    }
    let n = moves.len() as u128;
    for mv in moves {
        let mut child = board.clone();
        child.play_unchecked(mv);
        brute_force(&child, ply + 1, k, denom * n, sums);
    }
}

fn check_against_brute_force(fen: &str, plies: u32) {
    let pos = Position::from_fen(fen).unwrap();
    let options = ExactOptions {
        plies,
        hash_mb: 16,
        fractions: true,
        ..Default::default()
    };
    let report = exact(&pos, &options).unwrap();
    let board = cozy_chess::Board::from_fen(fen, false).unwrap();
    let mut seen_nonzero = false;
    for k in 1..=plies {
        let mut sums = [
            BigRational::from_integer(0.into()),
            BigRational::from_integer(0.into()),
        ];
        brute_force(&board, 0, k, 1, &mut sums);
        let row = &report.plies[k as usize - 1];
        let (mate, stalemate) = row.fractions.clone().unwrap();
        assert_eq!(mate, sums[0], "{fen} ply {k} mate");
        assert_eq!(stalemate, sums[1], "{fen} ply {k} stalemate");
        // The fixed-point value lies within its stated bound below the fraction.
        for (fixed, exact) in [(row.p_mate, &mate), (row.p_stalemate, &stalemate)] {
            let low = fixed.low.to_ratio();
            let high = shannon::perft::exact::Fixed(fixed.low.0 + fixed.ulps).to_ratio();
            assert!(&low <= exact && (exact < &high || fixed.ulps == 0 && &low == exact));
        }
        seen_nonzero |= row.mates > 0 && row.stalemates > 0;
    }
    assert!(
        seen_nonzero || fen.starts_with("rnbq"),
        "{fen}: a test position with endings"
    );
}

#[test]
fn probabilities_equal_a_brute_force_sum_from_the_start_to_ply_5() {
    check_against_brute_force(shannon::STARTPOS_FEN, 5);
}

/// Ply 6 (119 million games played out by the brute force) takes minutes here.
#[test]
#[ignore]
fn probabilities_equal_a_brute_force_sum_from_the_start_to_ply_6() {
    check_against_brute_force(shannon::STARTPOS_FEN, 6);
}

#[test]
fn probabilities_equal_a_brute_force_sum_with_mates_and_stalemates() {
    // Qf8# and Ra8# mate at once, Qf7 stalemates: both endings at several plies.
    check_against_brute_force("7k/8/6K1/8/8/8/PPP2Q2/R7 w - - 0 1", 4);
}

#[test]
fn plies_beyond_the_rules_bound_are_refused() {
    let (ok, _, err) = shannon(&["exact", "--plies", "17"]);
    assert!(!ok);
    assert!(
        err.contains("fivefold repetition") && err.contains("16"),
        "{err}"
    );
    let late = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 147 80";
    let (ok, _, err) = shannon(&["exact", "--plies", "4", "--fen", late]);
    assert!(!ok);
    assert!(
        err.contains("75-move rule") && err.contains("after ply 3"),
        "{err}"
    );
    let (ok, _, err) = shannon(&[
        "exact",
        "--plies",
        "2",
        "--fen",
        "k7/8/1Q6/8/8/8/8/K7 w - - 0 1",
    ]);
    assert!(!ok && err.contains("insufficient material"), "{err}");
    assert!(!shannon(&["exact", "--plies", "0"]).0);
    assert!(!shannon(&["exact", "--plies", "3", "--fen", "not a fen"]).0);
}

/// A share checks the plies and the split as the single run and the merge do, before any work:
/// no plies (once "--split 1 must be between 1 and 4294967295"), a split at or below the last
/// ply, plies beyond the bound.
#[test]
fn a_share_refuses_plies_and_splits_the_run_refuses() {
    let scratch = Scratch::new("exact-share-refusals");
    let out = scratch.path().join("share.json");
    let share = |plies: &str, split: &str| {
        let (ok, _, err) = shannon(&[
            "exact",
            "--plies",
            plies,
            "--split",
            split,
            "--shard",
            "0/2",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(!ok, "{err}");
        err
    };
    let err = share("0", "1");
    assert!(err.contains("at least one ply"), "{err}");
    let err = share("4", "4");
    assert!(err.contains("split ply 4 must be between 1 and 3"), "{err}");
    let err = share("65", "2");
    assert!(err.contains("at most 16 plies"), "{err}");
    assert!(!out.exists());
}

#[test]
fn chess960_start_positions_are_computed() {
    // Scharnagl 518 is the standard start position.
    let standard = exact_json(&["--plies", "4"]);
    let n518 = exact_json(&["--plies", "4", "--chess960", "518"]);
    assert_eq!(standard, n518);
    let other = exact_json(&["--plies", "4", "--chess960", "0"]);
    assert_ne!(standard, other);
    assert!(!shannon(&["exact", "--plies", "4", "--chess960", "960"]).0);
}

#[test]
fn shares_of_a_split_run_merge_to_the_single_run() {
    let scratch = Scratch::new("exact-split");
    let dir = scratch.path();
    let mut files = Vec::new();
    for i in 0..3 {
        let file = dir.join(format!("share-{i}.json"));
        let shard = format!("{i}/3");
        let (ok, out, err) = shannon(&[
            "exact",
            "--plies",
            "5",
            "--split",
            "2",
            "--shard",
            &shard,
            "--out",
            file.to_str().unwrap(),
        ]);
        assert!(ok, "{err}");
        assert!(out.contains(&format!("share {i}/3")), "{out}");
        files.push(file.to_str().unwrap().to_string());
    }
    // The JSON of the merge of `shares`.
    let merge = |shares: &[String]| {
        let mut args = vec![
            "--plies",
            "5",
            "--split",
            "2",
            "--fraction-plies",
            "0",
            "--merge",
        ];
        args.extend(shares.iter().map(String::as_str));
        exact_json(&args)
    };
    let merged = merge(&files);
    let single = exact_json(&["--plies", "5", "--fraction-plies", "0"]);
    assert_eq!(merged, single);
    // A missing share, or one given twice, is refused.
    let mut two = vec!["exact", "--plies", "5", "--split", "2", "--merge"];
    two.extend(files[..2].iter().map(String::as_str));
    let (ok, _, err) = shannon(&two);
    assert!(!ok && err.contains("2 of 3 shares"), "{err}");
    let mut twice = vec!["exact", "--plies", "5", "--split", "2", "--merge"];
    twice.extend([files[0].as_str(), files[0].as_str(), files[1].as_str()]);
    let (ok, _, err) = shannon(&twice);
    assert!(!ok && err.contains("given twice"), "{err}");
    // A share of another run is refused.
    let (ok, _, err) = shannon(&[
        "exact", "--plies", "6", "--split", "2", "--merge", &files[0],
    ]);
    assert!(!ok && err.contains("another run"), "{err}");

    // Version 1 dealt every third position where version 2 deals runs of consecutive ones: the
    // same positions dealt the old way (the runs, in order, are the split ply's positions in
    // order) still merge to the single run, and a version 1 share among version 2 ones, which
    // could overlap and leave positions out, is refused by name.
    let read = |f: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap()
    };
    let current: Vec<serde_json::Value> = files.iter().map(|f| read(f)).collect();
    assert!(current.iter().all(|f| f["version"] == 2));
    let positions: Vec<serde_json::Value> = current
        .iter()
        .flat_map(|f| f["positions"].as_array().unwrap().clone())
        .collect();
    let mut old_files = Vec::new();
    for (i, share) in current.iter().enumerate() {
        let mut old = share.clone();
        old["version"] = 1.into();
        old["positions"] = positions.iter().skip(i).step_by(3).cloned().collect();
        let file = dir.join(format!("share-v1-{i}.json"));
        std::fs::write(&file, old.to_string()).unwrap();
        old_files.push(file.to_str().unwrap().to_string());
    }
    assert_eq!(merge(&old_files), single);
    let mixed = vec![
        "exact",
        "--plies",
        "5",
        "--split",
        "2",
        "--merge",
        &files[0],
        &old_files[1],
        &files[2],
    ];
    let (ok, _, err) = shannon(&mixed);
    assert!(
        !ok && err.contains("share 1/3 of version 1 (dealt every N-th position) mixed"),
        "{err}"
    );
}

/// Share files written by the shannon of before the format moved into the library (version 2,
/// `tests/data/exact-share-v2/`: `--plies 4 --split 1`, shares 0/2 and 1/2) still merge, to the
/// JSON that shannon printed for their merge, byte for byte.
#[test]
fn share_files_of_an_earlier_shannon_still_merge() {
    let dir = data_path("exact-share-v2");
    let shares: Vec<String> = ["share-0.json", "share-1.json"]
        .iter()
        .map(|f| dir.join(f).to_str().unwrap().to_string())
        .collect();
    let mut args = vec![
        "exact",
        "--json",
        "--hash",
        "16",
        "--plies",
        "4",
        "--split",
        "1",
        "--fraction-plies",
        "0",
        "--merge",
    ];
    args.extend(shares.iter().map(String::as_str));
    let (ok, out, err) = shannon(&args);
    assert!(ok, "{err}");
    let recorded = std::fs::read_to_string(dir.join("merged.json")).unwrap();
    assert_eq!(out, recorded);
}

#[test]
fn the_fast_walk_equals_the_reference_walk_on_one_thread_or_two() {
    let args = |extra: &[&'static str]| {
        let mut all = vec!["--plies", "6", "--fraction-plies", "0"];
        all.extend(extra);
        all
    };
    let fast = exact_json(&args(&["--threads", "2"]));
    assert_eq!(fast, exact_json(&args(&["--threads", "1"])));
    assert_eq!(fast, exact_json(&args(&["--reference"])));
    for (start, plies) in [
        (["--fen", KIWIPETE], "4"),
        (["--fen", "7k/8/6K1/8/8/8/PPP2Q2/R7 w - - 0 1"], "4"),
        (["--chess960", "0"], "5"),
    ] {
        let mut args = vec!["--plies", plies, "--fraction-plies", "0"];
        args.extend(start);
        let fast = exact_json(&args);
        args.push("--reference");
        assert_eq!(fast, exact_json(&args), "{start:?}");
    }
}

#[test]
fn the_plot_draws_the_mate_probabilities_into_an_svg() {
    let scratch = Scratch::new("exact-plot");
    let path = scratch.path().join("mates.svg");
    let file = path.to_str().unwrap();
    let (ok, out, err) = shannon(&["exact", "--plies", "5", "--plot", file]);
    assert!(ok, "{err}");
    assert!(out.contains("8.45568726447e-5"), "{out}");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    for text in [
        "ended in checkmate by ply k",
        "3.252e-5",
        "8.456e-5",
        "ply k",
    ] {
        assert!(svg.contains(text), "{text} not in the chart");
    }
    // A share is not a result: nothing to draw.
    let (ok, _, err) = shannon(&[
        "exact", "--plies", "5", "--split", "2", "--shard", "0/2", "--out", "x.json", "--plot",
        file,
    ]);
    assert!(!ok && err.contains("--plot"), "{err}");
}
