//! `shannon pack`, `unpack` and `codec-report` end to end, through the real binary.

use crate::common;

use crate::common::{data_path, shannon_with_input as shannon, Scratch};
use shannon::chess960::{scharnagl_back_rank, start_position};
use shannon::game::{GameRecord, Outcome};
use shannon::notation::pgn::{export_tags, read_games, write_game, PgnGame};
use shannon::{CastlingMode, Position};

/// The games of PGN output, as records.
fn records(pgn: &[u8]) -> Vec<GameRecord> {
    read_games(std::str::from_utf8(pgn).unwrap())
        .into_iter()
        .map(|g| g.unwrap().record)
        .collect()
}

/// A random game of `plies` moves from `start`, as a record.
fn walk(start: Position, castling: CastlingMode, seed: u64, plies: usize) -> GameRecord {
    let positions = common::random_walk(&start, seed, plies);
    let moves = positions
        .windows(2)
        .map(|pair| {
            *pair[0]
                .legal_moves()
                .iter()
                .find(|&&mv| pair[0].play(mv) == pair[1])
                .unwrap()
        })
        .collect();
    GameRecord::with_outcome(start, castling, moves, Outcome::Unfinished)
}

/// Five corpus games, a Chess960 game, a game from a FEN, and (6th) a game with an illegal move.
fn sample() -> (String, Vec<GameRecord>) {
    let corpus = std::fs::read_to_string(data_path("pgn/lichess_2013-01_5000.pgn")).unwrap();
    let cut = corpus.match_indices("[Event ").nth(5).unwrap().0;
    let mut text = corpus[..cut].to_string();
    let mut expected: Vec<GameRecord> = read_games(&text)
        .into_iter()
        .map(|g| g.unwrap().record)
        .collect();
    text.push_str("\n[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n");
    let chess960 = walk(
        start_position(&scharnagl_back_rank(17).unwrap()),
        CastlingMode::Chess960,
        5,
        60,
    );
    let fen = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    let endgame = walk(fen, CastlingMode::Standard, 6, 30);
    for game in [chess960, endgame] {
        text.push_str(&write_game(&PgnGame::new(game.clone())).unwrap());
        expected.push(game);
    }
    (text, expected)
}

#[test]
fn pack_unpack_round_trip_every_codec() {
    let (text, expected) = sample();
    for codec in CODECS {
        let packed = shannon(&["pack", "--codec", codec], text.as_bytes());
        assert_eq!(packed.status.code(), Some(1), "{codec}: the bad game fails");
        let errors = String::from_utf8_lossy(&packed.stderr);
        assert!(errors.contains("game 6"), "{codec}: {errors}");
        let unpacked = shannon(&["unpack"], &packed.stdout);
        assert!(unpacked.status.success(), "{codec}");
        assert_eq!(records(&unpacked.stdout), expected, "{codec}");
        let checked = shannon(&["unpack", "--codec", codec], &packed.stdout);
        assert!(checked.status.success(), "{codec}");
    }
}

#[test]
fn unpack_rejects_bad_files() {
    let (text, _) = sample();
    let packed = shannon(&["pack", "--codec", "index"], text.as_bytes());
    let wrong_codec = shannon(&["unpack", "--codec", "arith"], &packed.stdout);
    assert_eq!(wrong_codec.status.code(), Some(2));
    // A cut file is a damaged last block (or a missing end mark): named, the rest written.
    let truncated = shannon(&["unpack"], &packed.stdout[..packed.stdout.len() - 1]);
    assert_eq!(truncated.status.code(), Some(1));
    let err = String::from_utf8_lossy(&truncated.stderr);
    assert!(err.contains("block 2 (from game 8)"), "{err}");
    let garbage = shannon(&["unpack"], b"not a packed file");
    assert_eq!(garbage.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&garbage.stderr).contains("magic"));
}

#[test]
fn codec_report_prints_its_table() {
    let (text, expected) = sample();
    let good: String = text.replace("\n[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n", "\n");
    let dir = Scratch::new("codec-report");
    let path = dir.join("report.pgn");
    std::fs::write(&path, good).unwrap();
    let report = shannon(&["codec-report", path.to_str().unwrap()], b"");
    let out = String::from_utf8(report.stdout).unwrap();
    assert!(report.status.success(), "{out}");
    assert!(
        out.starts_with(&format!("{} games (0 unreadable)", expected.len())),
        "{out}"
    );
    for row in [
        "fen-text",
        "squares",
        "index",
        "arith",
        "arith-m1",
        "arith-m2",
        "packed",
        "bits/move",
        "sum log2 n",
    ] {
        assert!(out.contains(row), "{row} missing:\n{out}");
    }
    for line in out
        .lines()
        .filter(|l| l.starts_with("arith") || l.starts_with("fen-text"))
    {
        assert!(
            line.trim_end().ends_with(" 0"),
            "no round-trip errors: {line}"
        );
    }
}

/// `codec-report --plot FILE.svg` draws every move model's bits against its speeds (the uniform
/// coder in a note); a second run keeps the chart unless told to replace it.
#[test]
fn codec_report_plots_bits_against_speed() {
    let (text, _) = sample();
    let good: String = text.replace("\n[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n", "\n");
    let dir = Scratch::new("codec-report-plot");
    let path = dir.join("games.pgn");
    std::fs::write(&path, good).unwrap();
    let plot = dir.join("trade.svg");
    let args = [
        "codec-report",
        path.to_str().unwrap(),
        "--games-only",
        "--plot",
        plot.to_str().unwrap(),
    ];
    let report = shannon(&args, b"");
    assert!(
        report.status.success(),
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg"));
    for model in ["arith-m1: ", "arith-m2: ", "arith-m3: ", "arith-m6: "] {
        assert!(svg.contains(model), "{model} missing");
    }
    assert!(svg.contains("no model (arith, uniform): "));
    std::fs::write(&plot, "mine").unwrap();
    let again = shannon(&args, b"");
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--overwrite"));
    assert_eq!(std::fs::read_to_string(&plot).unwrap(), "mine");
    let replaced = shannon(&[&args[..], &["--overwrite"]].concat(), b"");
    assert!(replaced.status.success());
    assert!(std::fs::read_to_string(&plot).unwrap().starts_with("<svg"));
}

/// Issue 9 item 11: a missing file was reported as "No such file or directory (os error 2)" with
/// no hint of which path was meant.
#[test]
fn codec_report_names_a_file_it_cannot_read() {
    let dir = Scratch::new("codec-report-missing");
    let missing = dir.join("missing.pgn");
    let report = shannon(&["codec-report", missing.to_str().unwrap()], b"");
    let err = String::from_utf8_lossy(&report.stderr);
    assert_eq!(report.status.code(), Some(2), "{err}");
    assert!(report.stdout.is_empty());
    assert!(
        err.contains(&format!("cannot read {}", missing.display())),
        "{err}"
    );
}

/// The game of issue 26 item 1, whose packed bytes decoded to other games after one bit flip.
const RUY_LOPEZ: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n";

/// Issue 26 item 1: about one single-bit flip in five decoded, with exit 0, to a different game.
/// Every flip of every bit of a packed file is now refused with an error naming the header or
/// the damaged block, and no game is written.
#[test]
fn every_bit_flip_of_a_packed_file_is_refused() {
    for codec in CODECS {
        let packed = shannon(&["pack", "--codec", codec], RUY_LOPEZ.as_bytes());
        assert!(packed.status.success(), "{codec}");
        let bytes = packed.stdout;
        for bit in 0..bytes.len() * 8 {
            let mut damaged = bytes.clone();
            damaged[bit / 8] ^= 0x80 >> (bit % 8);
            let unpacked = shannon(&["unpack"], &damaged);
            let err = String::from_utf8_lossy(&unpacked.stderr);
            assert!(!unpacked.status.success(), "{codec} bit {bit}: accepted");
            // The last 15 bytes are the end mark (file id, number 2, 1 game before it, 0 games,
            // its check), which counts as block 2: the game of block 1 is intact and written.
            let (named, game_out) = match bit / 8 >= bytes.len() - 15 {
                true => (vec!["block 2 (from game 2)"], true),
                false => (
                    vec!["block 1 (from game 1)", "header", "magic", "version"],
                    false,
                ),
            };
            assert_eq!(!unpacked.stdout.is_empty(), game_out, "{codec} bit {bit}");
            assert!(
                named.iter().any(|n| err.contains(n)),
                "{codec} bit {bit}: {err}"
            );
        }
    }
}

/// A damaged block is named and skipped; the games of the other blocks are still written.
#[test]
fn a_damaged_block_is_skipped_and_the_rest_unpacked() {
    let text = RUY_LOPEZ.repeat(300);
    let packed = shannon(&["pack"], text.as_bytes());
    let mut damaged = packed.stdout.clone();
    damaged[20] ^= 4;
    let unpacked = shannon(&["unpack"], &damaged);
    let err = String::from_utf8_lossy(&unpacked.stderr);
    assert_eq!(unpacked.status.code(), Some(1), "{err}");
    assert!(err.contains("block 1 (from game 1) is damaged"), "{err}");
    let games = read_games(&String::from_utf8(unpacked.stdout).unwrap());
    assert_eq!(games.len(), 300 - 256);
}

/// Files of version 1 (no checksums) still unpack, with a warning that they are unchecked.
#[test]
fn version_1_files_unpack_with_a_warning() {
    let game = read_games(RUY_LOPEZ).remove(0).unwrap().record;
    let bytes = shannon::codec::game::GameCodec::Index
        .encode(&game)
        .unwrap();
    let mut file = b"SHGM\x01\x02\x01".to_vec();
    file.push(bytes.len() as u8);
    file.extend(bytes);
    let unpacked = shannon(&["unpack"], &file);
    let err = String::from_utf8_lossy(&unpacked.stderr);
    assert!(unpacked.status.success(), "{err}");
    assert!(err.contains("no checksums"), "{err}");
    let games = read_games(&String::from_utf8(unpacked.stdout).unwrap());
    assert_eq!(games[0].as_ref().unwrap().record, game);
}

/// Issue 26 item 6: one Latin-1 byte in a tag made `pack` refuse the whole input as not UTF-8.
/// Such bytes are now read as Latin-1 with one warning; a move that is not ASCII is still an
/// error naming its game and ply.
#[test]
fn latin1_bytes_are_read_with_one_warning() {
    let packed = shannon(
        &["pack"],
        b"[Event \"\xe9\"]\n[Site \"\xe8\"]\n\n1. e4 e5 *\n",
    );
    let err = String::from_utf8_lossy(&packed.stderr);
    assert!(packed.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("warning") && err.contains("Latin-1"), "{err}");
    let unpacked = shannon(&["unpack"], &packed.stdout);
    let games = read_games(&String::from_utf8(unpacked.stdout).unwrap());
    assert_eq!(games[0].as_ref().unwrap().record.moves.len(), 2);

    let text = b"[Event \"\xe9\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 N\xe95 *\n";
    let packed = shannon(&["pack"], text);
    let err = String::from_utf8_lossy(&packed.stderr);
    assert_eq!(packed.status.code(), Some(1), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(lines[0].starts_with("warning: ") && lines[0].contains("Latin-1"));
    assert!(
        lines[1].starts_with("game 2, ply 2, line 7: 'N\u{e9}5'"),
        "{err}"
    );
    let unpacked = shannon(&["unpack"], &packed.stdout);
    assert_eq!(
        read_games(&String::from_utf8(unpacked.stdout).unwrap()).len(),
        1
    );
}

/// Issue 26 item 7: pack's errors said the game twice (`game 1: game 1, ply 3, ...`).
#[test]
fn pack_errors_name_the_game_once() {
    let packed = shannon(&["pack"], b"[Event \"a\"]\n\n1. e4 e5 2. Ke3 *\n");
    let err = String::from_utf8_lossy(&packed.stderr);
    assert_eq!(packed.status.code(), Some(1), "{err}");
    assert_eq!(
        err.trim_end(),
        "game 1, ply 3, line 3: 'Ke3': no legal move matches it in this position"
    );
}

/// `--model` picks the arith codec's move model; the file names it, and unpack needs nothing.
#[test]
fn pack_model_choice() {
    let (text, expected) = sample();
    let models = [
        ("uniform", "arith"),
        ("m1", "arith-m1"),
        ("m2", "arith-m2"),
        ("m3", "arith-m3"),
        ("m4", "arith-m4"),
        ("m5", "arith-m5"),
        ("m6", "arith-m6"),
    ];
    for (model, codec) in models {
        let packed = shannon(
            &["pack", "--codec", "arith", "--model", model],
            text.as_bytes(),
        );
        assert_eq!(packed.status.code(), Some(1), "{model}: the bad game fails");
        let checked = shannon(&["unpack", "--codec", codec], &packed.stdout);
        assert!(checked.status.success(), "{model}");
        assert_eq!(records(&checked.stdout), expected, "{model}");
    }
    let default = shannon(&["pack"], RUY_LOPEZ.as_bytes());
    assert!(shannon(&["unpack", "--codec", "arith-m3"], &default.stdout)
        .status
        .success());
    let refused = shannon(&["pack", "--codec", "index", "--model", "m1"], b"");
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--model is for the arith codec"));
}

/// `codec-fit` measures each step and writes the model sources, the same bytes every run.
#[test]
fn codec_fit_is_deterministic_and_writes_the_models() {
    let corpus = std::fs::read_to_string(data_path("pgn/lichess_2013-01_5000.pgn")).unwrap();
    let cut = corpus.match_indices("[Event ").nth(60).unwrap().0;
    let dir = Scratch::new("codec-fit");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, &corpus[..cut]).unwrap();
    let mut written = Vec::new();
    for run in ["a", "b"] {
        let out = dir.join(run);
        std::fs::create_dir(&out).unwrap();
        let args = [
            "codec-fit",
            pgn.to_str().unwrap(),
            "--fit-games",
            "40",
            "--final-only",
            "--iterations",
            "3",
            "--write",
            out.to_str().unwrap(),
        ];
        let fit = shannon(&args, b"");
        let report = String::from_utf8_lossy(&fit.stdout);
        assert!(fit.status.success(), "{report}");
        assert!(report.contains("measuring on games 41-60"), "{report}");
        assert!(
            report.contains("\nattack ") && report.contains("\nbook "),
            "{report}"
        );
        let files: Vec<Vec<u8>> = ["m1.rs", "m2.rs", "m2_book.bin"]
            .iter()
            .map(|f| std::fs::read(out.join(f)).unwrap())
            .collect();
        assert!(String::from_utf8_lossy(&files[1]).contains("static WEIGHTS"));
        written.push(files);
    }
    assert_eq!(written[0], written[1]);
}

/// The byte ranges of a packed file (version 2, 3 or 4, as `src/codec/container.rs` lays them
/// out): its header, then each block and last the end mark.
fn frames(bytes: &[u8]) -> (Vec<u8>, Vec<Vec<u8>>) {
    let version = bytes[4];
    let header = match version {
        2 => 11,
        3 => 19,
        _ => 20,
    };
    // A version 4 file that keeps text has it after each block's payload.
    let with_text = version == 4 && bytes[7] == 1;
    let leb = |pos: &mut usize| {
        let mut value = 0u64;
        for shift in (0..35).step_by(7) {
            let byte = bytes[*pos];
            *pos += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                break;
            }
        }
        value as usize
    };
    let mut out = Vec::new();
    let mut pos = header;
    loop {
        let start = pos;
        if version >= 3 {
            pos += 8;
            leb(&mut pos);
            leb(&mut pos);
        }
        let games = leb(&mut pos);
        // Version 2's end mark has a length field (the file's games), version 3's none.
        let mut length = if games > 0 || version == 2 {
            leb(&mut pos)
        } else {
            0
        };
        if games > 0 && with_text {
            pos += length;
            length = leb(&mut pos);
        }
        pos += if games == 0 { 4 } else { length + 4 };
        out.push(bytes[start..pos].to_vec());
        if games == 0 {
            assert_eq!(pos, bytes.len(), "the end mark ends the file");
            return (bytes[..header].to_vec(), out);
        }
    }
}

/// A header and frames put together.
fn assemble(header: &[u8], frames: &[&Vec<u8>]) -> Vec<u8> {
    let mut out = header.to_vec();
    frames.iter().for_each(|f| out.extend(f.iter()));
    out
}

/// The first `games` corpus games, from game `from` on, as PGN text.
fn corpus_games(from: usize, games: usize) -> String {
    let corpus = std::fs::read_to_string(data_path("pgn/lichess_2013-01_5000.pgn")).unwrap();
    let start = corpus.match_indices("[Event ").nth(from).unwrap().0;
    let end = corpus.match_indices("[Event ").nth(from + games).unwrap().0;
    corpus[start..end].to_string()
}

const CODECS: [&str; 8] = [
    "squares", "index", "arith", "arith-m1", "arith-m2", "arith-m3", "arith-m4", "arith-m5",
];

/// Issue 30 item 5: the block checksum did not cover the block's place or its file. Swapping two
/// blocks, copying one over another, dropping one, putting another file's header (same codec or
/// another) on the blocks, or two files one after the other decoded to other games, exit 0 (or
/// printed garbage games before failing). Each is now refused by name, exit 2, with nothing on
/// stdout. Files of 600 games: blocks of 256, 256 and 88 games.
#[test]
fn blocks_out_of_place_or_from_another_file_are_refused() {
    let (first, second) = (corpus_games(0, 600), corpus_games(600, 600));
    let packed: Vec<(Vec<u8>, Vec<u8>)> = CODECS
        .iter()
        .map(|codec| {
            let pack = |text: &str| {
                let out = shannon(&["pack", "--codec", codec], text.as_bytes());
                assert!(out.status.success(), "{codec}");
                out.stdout
            };
            (pack(&first), pack(&second))
        })
        .collect();
    for (index, codec) in CODECS.iter().enumerate() {
        let (file, other) = &packed[index];
        let (header, f) = frames(file);
        assert_eq!(f.len(), 4, "{codec}: three blocks and the end mark");
        let other_header = frames(other).0;
        let other_codec_header = frames(&packed[(index + 1) % CODECS.len()].0).0;
        let cases: [(&str, Vec<u8>, &str); 7] = [
            (
                "blocks 1 and 2 swapped",
                assemble(&header, &[&f[1], &f[0], &f[2], &f[3]]),
                "block 2 is found where block 1 belongs",
            ),
            (
                "block 1 copied over block 2",
                assemble(&header, &[&f[0], &f[0], &f[2], &f[3]]),
                "block 1 is found where block 2 belongs",
            ),
            (
                "block 2 dropped",
                assemble(&header, &[&f[0], &f[2], &f[3]]),
                "block 3 is found where block 2 belongs",
            ),
            (
                "the last block dropped",
                assemble(&header, &[&f[0], &f[1], &f[3]]),
                "the end mark of a file of 3 blocks is found where block 3 belongs",
            ),
            (
                "the header of another file of the same codec",
                assemble(&other_header, &[&f[0], &f[1], &f[2], &f[3]]),
                "block 1 belongs to another packed file",
            ),
            (
                "the header of a file of another codec",
                assemble(&other_codec_header, &[&f[0], &f[1], &f[2], &f[3]]),
                "block 1 belongs to another packed file",
            ),
            (
                "two files one after the other",
                [file.as_slice(), other.as_slice()].concat(),
                "another packed file follows the end mark",
            ),
        ];
        for (what, bytes, named) in cases {
            let unpacked = shannon(&["unpack"], &bytes);
            let err = String::from_utf8_lossy(&unpacked.stderr);
            assert_eq!(unpacked.status.code(), Some(2), "{codec}, {what}: {err}");
            assert!(unpacked.stdout.is_empty(), "{codec}, {what}: games written");
            assert!(
                err.contains(named) && err.contains("nothing is read"),
                "{codec}, {what}: {err}"
            );
        }
    }
}

/// A damaged length field no longer loses the blocks after its block: the next block is found
/// by its file id, and the games lost are counted.
#[test]
fn a_damaged_block_frame_loses_only_its_games() {
    let text = corpus_games(0, 600);
    for codec in CODECS {
        let packed = shannon(&["pack", "--codec", codec], text.as_bytes());
        let (header, f) = frames(&packed.stdout);
        // The low bits of the first byte of block 1's length field (after its file id, number,
        // games before and game count: 2 bytes for 256) changed: the block claims another length.
        let mut damaged = assemble(&header, &[&f[0], &f[1], &f[2], &f[3]]);
        let length_end = header.len() + 8 + 1 + 1 + 2;
        damaged[length_end] ^= 0x7f;
        let unpacked = shannon(&["unpack"], &damaged);
        let err = String::from_utf8_lossy(&unpacked.stderr);
        assert_eq!(unpacked.status.code(), Some(1), "{codec}: {err}");
        // Which of the two the damage shows depends on the block's length: a length that still
        // reads ends the block elsewhere and fails its checksum; one that no longer reads is
        // malformed (arith-m4's first block's length no longer reads).
        let reasons = [
            "its checksum does not match (the bytes are damaged)",
            "a length field is malformed",
        ];
        assert!(
            reasons.iter().any(|reason| err.trim_end()
                == format!(
                    "block 1 (from game 1) is damaged and skipped: {reason}; its 256 games \
                     (1-256) are lost"
                )),
            "{codec}: {err}"
        );
        let expected = records(corpus_games(256, 344).as_bytes());
        assert_eq!(records(&unpacked.stdout), expected, "{codec}");
    }
}

/// Version 2 files (`tests/data/packed/`, written by `shannon pack` before version 3) still
/// unpack, with a warning that their blocks' order and origin cannot be checked.
#[test]
fn version_2_files_unpack_with_a_warning() {
    let expected = records(corpus_games(0, 500).as_bytes());
    for model in ["m1", "m2"] {
        let file = std::fs::read(data_path(&format!("packed/first500-{model}.shgm"))).unwrap();
        assert_eq!(file[4], 2, "a version 2 file");
        let unpacked = shannon(&["unpack"], &file);
        let err = String::from_utf8_lossy(&unpacked.stderr);
        assert!(unpacked.status.success(), "{err}");
        assert_eq!(
            err.trim_end(),
            "warning: this packed file is of version 2, whose blocks do not say where they \
             belong: blocks swapped, duplicated, dropped or taken from another file cannot be \
             detected (pack it again to get version 4)"
        );
        assert_eq!(records(&unpacked.stdout), expected, "{model}");
    }
}

/// The version 3 file of the first 20 corpus games (`tests/data/packed/first20-m2-v3.shgm`,
/// written when version 3 was made) unpacks without a warning, as the codes alone; the same games
/// packed `--moves-only` today hold the same codes in the same blocks.
#[test]
fn version_3_files_still_unpack() {
    let text = corpus_games(0, 20);
    let fixture = std::fs::read(data_path("packed/first20-m2-v3.shgm")).unwrap();
    assert_eq!(fixture[4], 3, "a version 3 file");
    let unpacked = shannon(&["unpack"], &fixture);
    let err = String::from_utf8_lossy(&unpacked.stderr);
    assert!(unpacked.status.success() && err.is_empty(), "{err}");
    assert_eq!(records(&unpacked.stdout), records(text.as_bytes()));
    assert!(String::from_utf8_lossy(&unpacked.stdout).contains("[White \"?\"]"));
    let moves_only = shannon(
        &["pack", "--codec", "arith-m2", "--moves-only"],
        text.as_bytes(),
    );
    let (_, v3) = frames(&fixture);
    let (_, v4) = frames(&moves_only.stdout);
    // Each block: file id (its own), number, games before, games, length, payload, check: the
    // same from the number to the payload.
    let body = |frame: &Vec<u8>| frame[8..frame.len() - 4].to_vec();
    assert_eq!(
        v3.iter().map(body).collect::<Vec<_>>(),
        v4.iter().map(body).collect::<Vec<_>>()
    );
}

/// The version 4 file of the first 20 corpus games with their tags
/// (`tests/data/packed/first20-m2-v4.shgm`, written when version 4 was made): `pack` still writes
/// it byte for byte (the file id is the contents', so the same games give the same bytes), and
/// `unpack` gives back every tag with its value.
#[test]
fn version_4_files_are_pinned_and_keep_the_tags() {
    let text = corpus_games(0, 20);
    let fixture = std::fs::read(data_path("packed/first20-m2-v4.shgm")).unwrap();
    let packed = shannon(&["pack", "--codec", "arith-m2"], text.as_bytes());
    assert!(packed.stdout == fixture, "the packed bytes changed");
    let unpacked = shannon(&["unpack"], &fixture);
    let err = String::from_utf8_lossy(&unpacked.stderr);
    assert!(unpacked.status.success() && err.is_empty(), "{err}");
    let before = read_games(&text);
    let after = read_games(&String::from_utf8(unpacked.stdout).unwrap());
    assert_eq!(after.len(), 20);
    for (before, after) in before.into_iter().zip(after) {
        let (before, after) = (before.unwrap(), after.unwrap());
        assert_eq!(after.record, before.record);
        // Every tag with its value, in the export form's order (the roster first, `?` for a
        // roster tag the game did not have).
        assert_eq!(after.tags, export_tags(&before), "every tag and its value");
    }
}

/// Issue 45, item 11: `pack` wrote its binary file to a terminal; it refuses, as gzip does, and
/// says to redirect it. The terminal is the one `script` (util-linux) makes; the test is skipped
/// without it.
#[test]
fn pack_refuses_to_write_to_a_terminal() {
    let dir = Scratch::new("pack-terminal");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, RUY_LOPEZ).unwrap();
    let command = format!("{} pack < {}", crate::common::SHANNON, pgn.display());
    let Ok(out) = std::process::Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
    else {
        crate::common::peer_missing("script (util-linux) is not installed", false);
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("the packed file is binary and standard output is a terminal"),
        "{text}"
    );
    assert!(!text.contains("SHGM"), "{text}");
}
