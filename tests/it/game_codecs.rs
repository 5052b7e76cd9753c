//! The game codecs: round trips over real and random games, exact sizes, and malformed input.

use crate::common;

use crate::common::data_path;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shannon::codec::bits::Bits;
use shannon::codec::game::model::MoveModel;
use shannon::codec::game::{canonical_moves, GameCodec, GameCodecError};
use shannon::game::{GameRecord, Outcome};
use shannon::notation::pgn::read_games;
use shannon::{CastlingMode, Position};

/// The first `count` games of the corpus, as records.
fn corpus(count: usize) -> Vec<GameRecord> {
    let text = std::fs::read_to_string(data_path("pgn/lichess_2013-01_5000.pgn")).unwrap();
    let cut = text
        .match_indices("[Event ")
        .nth(count)
        .map_or(text.len(), |(at, _)| at);
    read_games(&text[..cut])
        .into_iter()
        .map(|g| g.expect("corpus game reads").record)
        .collect()
}

fn chess960_starts() -> Vec<Position> {
    let text = std::fs::read_to_string(data_path("perft/chess960_start.epd")).unwrap();
    text.lines()
        .filter_map(|line| line.split(';').next())
        .filter(|fen| !fen.trim().is_empty())
        .map(|fen| Position::from_fen(fen.trim()).expect("start FEN"))
        .collect()
}

/// A seeded random game of up to `plies` moves from `start`.
fn random_game(start: Position, chess960: bool, seed: u64, plies: usize) -> GameRecord {
    let mut rng = SmallRng::seed_from_u64(seed);
    let moves = common::random_moves(&start, &mut rng, plies);
    let outcome = Outcome::ALL[rng.random_range(0..4)];
    GameRecord::with_outcome(start, CastlingMode::from_chess960(chess960), moves, outcome)
}

/// A random game from the standard start (`chess960` false) or a Chess960 start.
fn seeded_game(seed: u64, chess960: bool, plies: usize) -> GameRecord {
    let start = if chess960 {
        let starts = chess960_starts();
        starts[(seed % starts.len() as u64) as usize].clone()
    } else {
        Position::startpos()
    };
    random_game(start, chess960, seed, plies)
}

fn assert_round_trip(game: &GameRecord) {
    for codec in GameCodec::ALL {
        let bytes = codec.encode(game).expect("encodes");
        assert_eq!(codec.decode(&bytes).as_ref(), Ok(game), "{codec}");
    }
}

/// Per move: (log2 n, ceil(log2 n)).
fn move_bits(game: &GameRecord) -> (f64, usize) {
    let mut pos = game.start.clone();
    let (mut exact, mut whole) = (0.0, 0);
    for &mv in &game.moves {
        let n = canonical_moves(&pos).len();
        exact += (n as f64).log2();
        whole += (n as f64).log2().ceil() as usize;
        pos = pos.play(mv);
    }
    (exact, whole)
}

/// The header's size, worked out from the documented layout.
fn header_bits(game: &GameRecord) -> usize {
    let start = if game.start == Position::startpos() {
        1
    } else {
        12
    };
    let count = game.moves.len() + 1;
    let gamma = 2 * (usize::BITS - count.leading_zeros()) as usize - 1;
    start + 1 + 2 + gamma
}

#[test]
fn corpus_games_round_trip() {
    let games = corpus(500);
    assert_eq!(games.len(), 500);
    games.iter().for_each(assert_round_trip);
}

#[test]
fn index_and_arith_sizes_on_corpus() {
    for game in corpus(100) {
        let (exact, whole) = move_bits(&game);
        let index = GameCodec::Index.encode_bits(&game).unwrap().len();
        assert_eq!(index, header_bits(&game) + whole);
        let arith = GameCodec::Arith(MoveModel::Uniform)
            .encode_bits(&game)
            .unwrap()
            .len()
            - header_bits(&game);
        assert!(arith as f64 <= exact * 1.01 + 3.0, "{arith} vs {exact}");
    }
}

#[test]
fn chess960_start_and_fen_starts_round_trip() {
    for (i, start) in chess960_starts().into_iter().enumerate() {
        assert_round_trip(&random_game(start, true, i as u64, 40));
    }
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ];
    for (i, fen) in fens.iter().enumerate() {
        let start = Position::from_fen(fen).unwrap();
        for seed in 0..10 {
            assert_round_trip(&random_game(
                start.clone(),
                false,
                seed * 10 + i as u64,
                120,
            ));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every codec round-trips seeded random games, standard and Chess960.
    #[test]
    fn random_games_round_trip(seed in any::<u64>(), chess960 in any::<bool>(), plies in 0usize..300) {
        let game = seeded_game(seed, chess960, plies);
        for codec in GameCodec::ALL {
            let bytes = codec.encode(&game).unwrap();
            prop_assert_eq!(codec.decode(&bytes), Ok(game.clone()), "seed {} {}", seed, codec);
        }
    }

    /// `index` is exactly the header plus sum ceil(log2 n); `arith` is within 1% + 3 bits of
    /// sum log2 n.
    #[test]
    fn random_game_sizes(seed in any::<u64>(), chess960 in any::<bool>()) {
        let game = seeded_game(seed, chess960, 400);
        let (exact, whole) = move_bits(&game);
        let header = header_bits(&game);
        prop_assert_eq!(GameCodec::Index.encode_bits(&game).unwrap().len(), header + whole);
        let arith = GameCodec::Arith(MoveModel::Uniform).encode_bits(&game).unwrap().len() - header;
        prop_assert!(arith as f64 <= exact * 1.01 + 3.0, "seed {}: {} vs {}", seed, arith, exact);
    }

    /// Any bytes: an error or a game that re-encodes to exactly those bytes; never a panic.
    #[test]
    fn arbitrary_bytes_never_decode_wrongly(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        for codec in GameCodec::ALL {
            if let Ok(game) = codec.decode(&bytes) {
                prop_assert_eq!(codec.encode(&game).unwrap(), bytes.clone(), "{}", codec);
            }
        }
    }
}

#[test]
fn truncated_input_is_an_error() {
    for seed in 0..20 {
        let game = seeded_game(seed, seed % 2 == 1, 80);
        for codec in GameCodec::ALL {
            let bytes = codec.encode(&game).unwrap();
            for cut in 0..bytes.len() {
                assert!(
                    codec.decode(&bytes[..cut]).is_err(),
                    "{codec} seed {seed} cut {cut}"
                );
            }
        }
    }
}

#[test]
fn extra_bits_are_an_error() {
    for seed in 0..20 {
        let game = seeded_game(seed, seed % 2 == 1, 60);
        for codec in GameCodec::ALL {
            let bits = codec.encode_bits(&game).unwrap();
            let len = bits.len();
            let mut bytes = bits.into_bytes();
            let mut longer = bytes.clone();
            longer.push(0);
            assert!(codec.decode(&longer).is_err(), "{codec} extra byte");
            if len % 8 != 0 {
                *bytes.last_mut().unwrap() |= 1;
                assert!(codec.decode(&bytes).is_err(), "{codec} padding bit");
            }
        }
    }
}

/// A header for the standard start, White wins, `count` moves.
fn startpos_header(count: u64) -> Bits {
    let mut w = Bits::new();
    w.push_bit(true);
    w.push_bit(false);
    w.push_bits(0, 2);
    w.push_gamma(count + 1);
    w
}

#[test]
fn index_out_of_range_is_an_error() {
    let mut w = startpos_header(1);
    w.push_bits(20, 5);
    assert_eq!(
        GameCodec::Index.decode(&w.into_bytes()),
        Err(GameCodecError::IndexOutOfRange {
            ply: 1,
            index: 20,
            legal: 20
        })
    );
    let mut w = startpos_header(1);
    w.push_bits(12, 6);
    w.push_bits(36, 6);
    assert!(matches!(
        GameCodec::Squares.decode(&w.into_bytes()),
        Err(GameCodecError::NoSuchMove { ply: 1, .. })
    ));
}

#[test]
fn moves_after_mate_are_an_error() {
    // Fool's mate, then one more index.
    let mate = ["f2f3", "e7e5", "g2g4", "d8h4"];
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for text in mate {
        let mv = shannon::notation::uci::parse_move(&pos, text).unwrap();
        moves.push(mv);
        pos = pos.play(mv);
    }
    let game = GameRecord::with_outcome(
        Position::startpos(),
        CastlingMode::Standard,
        moves,
        Outcome::Win(shannon::Color::Black),
    );
    let mut w = startpos_header(5);
    let mut pos = Position::startpos();
    for &mv in &game.moves {
        let legal = canonical_moves(&pos);
        let index = legal.iter().position(|&m| m == mv).unwrap();
        w.push_bits(index as u64, (legal.len() as f64).log2().ceil() as u32);
        pos = pos.play(mv);
    }
    w.push_bits(0, 5);
    assert_eq!(
        GameCodec::Index.decode(&w.into_bytes()),
        Err(GameCodecError::NoLegalMoves { ply: 5 })
    );
    assert_round_trip(&game);
}

#[test]
fn impossible_and_non_canonical_starts_are_errors() {
    let fen_start = |fen: &str| {
        let mut w = Bits::new();
        w.push_bits(0b00, 2);
        w.push_bits(fen.len() as u64, 8);
        fen.bytes().for_each(|b| w.push_bits(u64::from(b), 8));
        w.push_bits(0, 4);
        w.push_gamma(1);
        w.into_bytes()
    };
    for codec in GameCodec::ALL {
        let two_kings = fen_start("4k3/8/8/8/8/8/8/3KK3 w - - 0 1");
        assert!(matches!(
            codec.decode(&two_kings),
            Err(GameCodecError::BadFen(_))
        ));
        let garbage = fen_start("hello");
        assert!(matches!(
            codec.decode(&garbage),
            Err(GameCodecError::BadFen(_))
        ));
        let standard = fen_start(shannon::STARTPOS_FEN);
        assert!(matches!(
            codec.decode(&standard),
            Err(GameCodecError::NonCanonicalStart(_))
        ));
        let mut w = Bits::new();
        w.push_bits(0b01, 2);
        w.push_bits(1000, 10);
        w.push_bits(0, 3);
        w.push_gamma(1);
        assert_eq!(
            codec.decode(&w.into_bytes()),
            Err(GameCodecError::BadChess960Number(1000))
        );
    }
}

#[test]
fn codec_names_parse() {
    for codec in GameCodec::ALL {
        assert_eq!(codec.to_string().parse::<GameCodec>(), Ok(codec));
        assert_eq!(
            GameCodec::from_ids(codec.id(), codec.model_id()),
            Some(codec)
        );
    }
    assert!("zip".parse::<GameCodec>().is_err());
}

/// Found by the `decoders` fuzz target: eight bytes that asked the arith decoder for about a
/// million plies of forced moves (positions with one legal move cost no input), which took
/// seconds. Move counts are now capped at what a game can hold, so this is refused at once.
#[test]
fn a_huge_move_count_is_refused() {
    let input = [0x79, 0x2a, 0x00, 0x00, 0x37, 0x3a, 0xd4];
    // The fitted models code the end of the moves with the moves, not as a count (their cap is
    // `a_game_too_long_for_the_code_is_refused`).
    let counted = [
        GameCodec::Squares,
        GameCodec::Index,
        GameCodec::Arith(MoveModel::Uniform),
    ];
    for codec in counted {
        assert!(
            matches!(
                codec.decode(&input),
                Err(shannon::codec::game::GameCodecError::MoveCountTooLarge)
            ),
            "{codec:?}"
        );
    }
}

/// A game longer than the codes hold (32,766 plies) is refused by every codec when encoding.
#[test]
fn a_game_too_long_for_the_code_is_refused() {
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for ply in 0..32_767 {
        let mv = shannon::notation::uci::parse_move(&pos, shuffle[ply % 4]).unwrap();
        moves.push(mv);
        let _ = pos.make(mv);
    }
    let game = GameRecord::with_outcome(
        Position::startpos(),
        CastlingMode::Standard,
        moves,
        Outcome::Draw,
    );
    for codec in GameCodec::ALL {
        assert!(
            matches!(
                codec.encode(&game),
                Err(shannon::codec::game::GameEncodeError::TooManyMoves(32_767))
            ),
            "{codec}"
        );
    }
}
