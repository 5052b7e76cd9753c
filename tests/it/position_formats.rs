//! Board formats and position codecs: round trips over every perft suite position, every
//! position of the first 500 games of the Lichess corpus and seeded random games; the classic
//! Huffman tree's 164 bits; the games tree re-derived from the corpus; malformed input to every
//! decoder and reader.

use crate::common::{corpus_positions, data_path, random_walk, suite_positions};
use proptest::prelude::*;
use shannon::codec::bits::Bits;
use shannon::codec::position::huffman::{
    canonical_codes, count_symbols, huffman_lengths, GAMES, GAMES_FREQUENCIES,
};
use shannon::codec::position::{placement_of, side_state, DecodeError, PositionCodec};
use shannon::notation::boards::{read_board, write_board, BoardError, BoardFormat, SideFlags};
use shannon::Position;

/// Encode and decode `pos` with every codec (the hex text too when `hex`); the code lengths.
fn check_codecs_with(pos: &Position, hex: bool) -> Vec<usize> {
    let fen = pos.shredder_fen();
    PositionCodec::ALL
        .iter()
        .map(|&codec| {
            let bits = codec.encode(pos);
            let back = codec
                .decode(&bits)
                .unwrap_or_else(|e| panic!("{codec} {fen}: {e}"));
            assert_eq!(back.shredder_fen(), fen, "{codec}");
            if hex {
                let back = codec.decode_hex(&bits.to_hex()).unwrap();
                assert_eq!(back.shredder_fen(), fen, "{codec} hex");
            }
            bits.len()
        })
        .collect()
}

fn check_codecs(pos: &Position) {
    check_codecs_with(pos, true);
}

fn check_formats(pos: &Position) {
    let flags = SideFlags::of(pos);
    for format in BoardFormat::ALL {
        let text = write_board(pos, format);
        let back = read_board(&text, format, &flags)
            .unwrap_or_else(|e| panic!("{format} {pos:?}: {e}\n{text}"));
        assert_eq!(&back, pos, "{format}\n{text}");
    }
}

#[test]
fn suite_positions_round_trip() {
    for pos in suite_positions() {
        check_codecs(&pos);
        check_formats(&pos);
    }
}

#[test]
fn corpus_positions_round_trip_and_sizes() {
    let positions = corpus_positions(500);
    let mut total = [0usize; PositionCodec::ALL.len()];
    let mut max = [0usize; PositionCodec::ALL.len()];
    for (index, pos) in positions.iter().enumerate() {
        let lengths = check_codecs_with(pos, index % 16 == 0);
        check_formats(pos);
        for (i, n) in lengths.into_iter().enumerate() {
            total[i] += n;
            max[i] = max[i].max(n);
        }
    }
    eprintln!("{} positions of the first 500 games", positions.len());
    eprintln!("| codec | average bits | max bits |");
    for (i, codec) in PositionCodec::ALL.iter().enumerate() {
        let average = total[i] as f64 / positions.len() as f64;
        eprintln!("| {codec} | {average:.1} | {} |", max[i]);
    }
    let index = |c| PositionCodec::ALL.iter().position(|&x| x == c).unwrap();
    assert_eq!(
        total[index(PositionCodec::HuffmanGames)],
        total[index(PositionCodec::Huffman)],
        "the games tree has the classic code lengths, so the two tie"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_positions_round_trip(seed in any::<u64>(), chess960 in 0u32..960) {
        let start = if seed % 4 == 0 {
            shannon::chess960::start_position(&shannon::chess960::scharnagl_back_rank(chess960).unwrap())
        } else {
            Position::startpos()
        };
        for pos in random_walk(&start, seed, 200) {
            check_codecs(&pos);
            check_formats(&pos);
        }
    }
}

#[test]
fn classic_tree_gives_the_start_placement_164_bits() {
    let start = Position::startpos();
    let mut bits = Bits::new();
    PositionCodec::Huffman.encode_placement(&placement_of(&start), &mut bits);
    assert_eq!(bits.len(), 164);
    assert_eq!(PositionCodec::Huffman.encode(&start).len(), 164 + 12);
    assert_eq!(PositionCodec::Nibble.encode(&start).len(), 256 + 12);
    assert_eq!(PositionCodec::Base13.encode(&start).len(), 237 + 12);
    assert_eq!(PositionCodec::Varbase.encode(&start).len(), 233 + 12);
}

#[test]
fn huffman_games_tree_is_rederived_from_the_corpus() {
    let text = std::fs::read_to_string(data_path("pgn/lichess_2013-01_5000.pgn")).unwrap();
    let mut counts = [0u64; 13];
    let mut games = 0;
    for game in shannon::notation::pgn::PgnReader::new(&text) {
        let game = game.expect("corpus games parse");
        games += 1;
        let mut pos = game.record.start.clone();
        count_symbols(&pos, &mut counts);
        for &mv in &game.record.moves {
            let _ = pos.make(mv);
            count_symbols(&pos, &mut counts);
        }
    }
    let table = canonical_codes(&huffman_lengths(&counts));
    assert_eq!(games, 5000);
    assert_eq!(
        (counts, table),
        (GAMES_FREQUENCIES, GAMES),
        "paste these into src/codec/position/huffman.rs"
    );
}

/// A code made of `board`'s placement (any board) and `state_of`'s side state.
fn raw_code(codec: PositionCodec, board_fen: &str, state_of: &Position) -> Bits {
    let board = placement_of_unchecked(board_fen);
    let mut bits = Bits::new();
    codec.encode_placement(&board, &mut bits);
    side_state::encode(state_of, &mut bits);
    bits
}

/// The placement of a FEN placement field that need not be legal.
fn placement_of_unchecked(field: &str) -> shannon::codec::position::Placement {
    let mut board = [None; 64];
    for (row, text) in field.split('/').enumerate() {
        let mut file = 0;
        for c in text.chars() {
            match c.to_digit(10) {
                Some(n) => file += n as usize,
                None => {
                    board[(7 - row) * 8 + file] = shannon::Piece::from_char(c);
                    file += 1;
                }
            }
        }
    }
    board
}

#[test]
fn malformed_codes_are_rejected() {
    let kiwipete =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let start = Position::startpos();
    for codec in PositionCodec::ALL {
        for pos in [&start, &kiwipete] {
            let bits = codec.encode(pos);
            let truncated: Bits = bits.iter().take(bits.len() - 1).collect();
            assert!(codec.decode(&truncated).is_err(), "{codec} truncated");
            assert!(codec.decode(&Bits::new()).is_err(), "{codec} empty");
            for extra in [false, true] {
                let mut longer = bits.clone();
                longer.push_bit(extra);
                assert!(codec.decode(&longer).is_err(), "{codec} extra bit");
            }
            let hex = bits.to_hex();
            assert!(matches!(
                codec.decode_hex(&format!("{hex}0")),
                Err(DecodeError::ExtraBits { .. })
            ));
            // One hex digit short: the code stops inside its last field.
            let short = codec.decode_hex(&hex[..hex.len() - 1]);
            assert!(
                matches!(short, Err(DecodeError::Truncated { .. })),
                "{codec} one digit short: {short:?}"
            );
            assert!(codec.decode_hex("zz").is_err());
        }
        let impossible = [
            (
                "rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQKBNR",
                &start,
                "two white kings",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP",
                &start,
                "a pawn on rank 1",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1",
                &start,
                "castling rook missing",
            ),
            (
                "4k3/8/8/8/8/8/8/4RK2",
                &start,
                "the side not to move in check",
            ),
            ("8/8/8/8/8/8/8/8", &start, "no kings"),
        ];
        for (board, state, what) in impossible {
            if codec == PositionCodec::Pieces && what == "two white kings" {
                continue; // the layout has room for one king per side
            }
            let code = raw_code(codec, board, state);
            assert!(codec.decode(&code).is_err(), "{codec}: {what}");
        }
        // Random garbage of the right length never panics and, when it decodes, re-encodes
        // to itself.
        let length = codec.encode(&kiwipete).len();
        let mut state = 0x1234_5678_9abc_def0u64;
        for _ in 0..200 {
            let mut garbage = Bits::new();
            for _ in 0..length {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                garbage.push_bit(state >> 63 == 1);
            }
            if let Ok(pos) = codec.decode(&garbage) {
                assert_eq!(codec.encode(&pos), garbage);
            }
        }
    }
}

#[test]
fn specific_decode_errors() {
    let start = Position::startpos();
    // pieces: both kings on e1.
    let code = PositionCodec::Pieces.encode(&start);
    let mut overlapping = Bits::new();
    overlapping.push_bits(4, 6);
    overlapping.push_bits(4, 6);
    code.iter().skip(12).for_each(|b| overlapping.push_bit(b));
    assert_eq!(
        PositionCodec::Pieces.decode(&overlapping),
        Err(DecodeError::Overlap(shannon::Square::E1))
    );
    // Nibble 7 on a1 is no piece.
    let mut bits = PositionCodec::Nibble.encode(&start);
    let mut changed = Bits::new();
    for (i, b) in bits.iter().enumerate() {
        changed.push_bit(if i < 4 { i != 0 } else { b });
    }
    assert!(matches!(
        PositionCodec::Nibble.decode(&changed),
        Err(DecodeError::BadSymbol { .. })
    ));
    // All ones: beyond 13^64.
    let mut ones = Bits::new();
    for _ in 0..PositionCodec::Base13.encode(&start).len() {
        ones.push_bit(true);
    }
    assert!(matches!(
        PositionCodec::Base13.decode(&ones),
        Err(DecodeError::OutOfRange { .. })
    ));
    // Padding must be zero.
    bits = PositionCodec::Huffman.encode(&start);
    assert_eq!(bits.len() % 4, 0);
    let hex = PositionCodec::Delta.encode(&start).to_hex();
    let last = u32::from_str_radix(&hex[hex.len() - 1..], 16).unwrap() | 1;
    let padded = format!("{}{:x}", &hex[..hex.len() - 1], last);
    assert!(PositionCodec::Delta.decode_hex(&padded).is_err());
    // Every error explains itself.
    let message = PositionCodec::Nibble
        .decode(&changed)
        .unwrap_err()
        .to_string();
    assert!(message.contains("a1"), "{message}");
}

#[test]
fn malformed_boards_are_rejected() {
    let start = Position::startpos();
    let flags = SideFlags::default();
    for format in BoardFormat::ALL {
        let text = write_board(&start, format);
        assert!(read_board("", format, &flags).is_err(), "{format} empty");
        assert!(
            read_board("garbage here", format, &flags).is_err(),
            "{format} garbage"
        );
        let truncated: String = text.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert!(
            read_board(&truncated, format, &flags).is_err(),
            "{format} truncated"
        );
        let doubled = format!("{text}\n{text}");
        assert!(
            read_board(&doubled, format, &flags).is_err(),
            "{format} doubled"
        );
    }
    let matrix = write_board(&start, BoardFormat::Matrix).replacen("12", "17", 1);
    let e = read_board(&matrix, BoardFormat::Matrix, &flags).unwrap_err();
    assert!(
        matches!(
            e,
            BoardError::BadEntry {
                line: 1,
                entry: 1,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("line 1, entry 1 '17'"), "{e}");
    let shannon = write_board(&start, BoardFormat::Shannon).replace("lambda +1", "lambda 2");
    assert!(read_board(&shannon, BoardFormat::Shannon, &flags).is_err());
    let mailbox = write_board(&start, BoardFormat::Mailbox10x12).replacen(" 7", " 0", 1);
    let e = read_board(&mailbox, BoardFormat::Mailbox10x12, &flags).unwrap_err();
    assert!(e.to_string().contains("off the board"), "{e}");
    let x88 = write_board(&start, BoardFormat::X88).replacen(" 4", " 6", 1);
    assert!(matches!(
        read_board(&x88, BoardFormat::X88, &flags),
        Err(BoardError::Illegal(_))
    ));
    let bitboards = write_board(&start, BoardFormat::Bitboards)
        .replace("P 0x000000000000ff00", "P 0x000000000000ff01");
    assert_eq!(
        read_board(&bitboards, BoardFormat::Bitboards, &flags),
        Err(BoardError::Overlap(shannon::Square::A1))
    );
    let pieces = "white: Ke1 Qz9\nblack: Ke8";
    let e = read_board(pieces, BoardFormat::Pieces, &flags).unwrap_err();
    assert!(e.to_string().contains("'Qz9'"), "{e}");
    let bad_castling = SideFlags {
        castling: "KQkq".into(),
        ..SideFlags::default()
    };
    let lone_kings = "white: Ke1\nblack: Ke8";
    assert!(matches!(
        read_board(lone_kings, BoardFormat::Pieces, &bad_castling),
        Err(BoardError::Illegal(_))
    ));
}

#[test]
fn the_show_encode_and_decode_commands() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let exe = crate::common::SHANNON;
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 17";
    let run = |args: &[&str], input: Option<&str>| {
        let mut child = Command::new(exe)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if let Some(input) = input {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(input.as_bytes())
                .unwrap();
        }
        drop(child.stdin.take());
        let out = child.wait_with_output().unwrap();
        (out.status.success(), String::from_utf8(out.stdout).unwrap())
    };
    let (ok, matrix) = run(&["show", "--format", "matrix", "--fen", fen], None);
    assert!(ok);
    let (ok, back) = run(
        &[
            "show",
            "--from",
            "matrix",
            "--castling",
            "KQkq",
            "--halfmove",
            "3",
            "--fullmove",
            "17",
        ],
        Some(&matrix),
    );
    assert!(ok);
    assert_eq!(back.trim(), fen);
    for codec in PositionCodec::ALL {
        let (ok, encoded) = run(&["encode", "--codec", codec.name(), "--fen", fen], None);
        assert!(ok);
        let hex = encoded.lines().next().unwrap();
        assert!(encoded.contains(" bits"));
        let (ok, decoded) = run(&["decode", "--codec", codec.name(), hex], None);
        assert!(ok, "{codec}");
        assert_eq!(decoded.trim(), fen, "{codec}");
    }
    let (ok, _) = run(&["decode", "--codec", "huffman", "00"], None);
    assert!(!ok);
}

/// Issue 45, item 11: `show --help`'s example read a matrix back without the castling right its
/// FEN had. With the side state given, as the help now says, the round trip keeps the position.
#[test]
fn the_show_help_round_trip_keeps_the_whole_position() {
    let fen = "4k3/8/8/8/8/8/8/4K2R b K - 0 1";
    let shown = crate::common::shannon_ok(&["show", "--format", "matrix", "--fen", fen]);
    let back = crate::common::shannon_with_input(
        &["show", "--from", "matrix", "--side", "b", "--castling", "K"],
        shown.as_bytes(),
    );
    assert!(back.status.success());
    assert_eq!(String::from_utf8_lossy(&back.stdout).trim(), fen);
}
