//! The move models of the `arith` codec (issue 24): exact round trips over the corpus and random
//! games from every suite position, old models still decoding, and what they save.

use crate::common;

use crate::common::data_path;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use shannon::codec::container::Pack;
use shannon::codec::game::model::fit::move_bits;
use shannon::codec::game::model::MoveModel;
use shannon::codec::game::GameCodec;
use shannon::game::{GameRecord, Outcome};
use shannon::notation::pgn::read_games;
use shannon::CastlingMode;

fn corpus() -> Vec<GameRecord> {
    let text = std::fs::read_to_string(data_path("pgn/lichess_2013-01_5000.pgn")).unwrap();
    read_games(&text)
        .into_iter()
        .map(|g| g.expect("corpus game reads").record)
        .collect()
}

fn model_codecs() -> impl Iterator<Item = GameCodec> {
    MoveModel::ALL.into_iter().map(GameCodec::Arith)
}

#[test]
fn every_corpus_game_round_trips_under_every_model() {
    let games = corpus();
    assert_eq!(games.len(), 5000);
    for codec in model_codecs() {
        for (number, game) in games.iter().enumerate() {
            let bytes = codec.encode(game).expect("encodes");
            assert_eq!(
                codec.decode(&bytes).as_ref(),
                Ok(game),
                "{codec} game {}",
                number + 1
            );
        }
    }
}

#[test]
fn random_games_from_every_suite_position_round_trip() {
    for (index, start) in common::suite_positions().into_iter().enumerate() {
        let mut rng = SmallRng::seed_from_u64(index as u64);
        for castling in [CastlingMode::Standard, CastlingMode::Chess960] {
            let moves = common::random_moves(&start, &mut rng, 80);
            let game =
                GameRecord::with_outcome(start.clone(), castling, moves, Outcome::Unfinished);
            for codec in model_codecs() {
                let bytes = codec.encode(&game).unwrap();
                assert_eq!(codec.decode(&bytes), Ok(game.clone()), "{codec} {index}");
            }
        }
    }
}

/// The fitted models on games they were not fitted on (2,501-3,000): each step saves bits.
#[test]
fn fitted_models_save_bits_on_held_out_games() {
    let held_out = &corpus()[2500..3000];
    let per_move = |model: MoveModel| {
        let model = model.model().expect("a fitted model");
        let (bits, moves) = move_bits(&model, held_out);
        bits / moves as f64
    };
    let uniform: f64 = {
        let codec = GameCodec::Arith(MoveModel::Uniform);
        let bits: usize = held_out
            .iter()
            .map(|g| codec.encode_bits(g).unwrap().len())
            .sum();
        bits as f64 / held_out.iter().map(|g| g.moves.len()).sum::<usize>() as f64
    };
    let (m1, m2) = (per_move(MoveModel::M1), per_move(MoveModel::M2));
    assert!(
        m2 < m1 && m1 < 3.5 && uniform > 4.5,
        "uniform {uniform} m1 {m1} m2 {m2}"
    );
}

/// Files packed with each fitted model when it was released (`tests/data/packed/`, the first 20
/// corpus games): they must unpack to those games for as long as the model is listed.
#[test]
fn games_packed_with_released_models_still_unpack() {
    let expected = &corpus()[..20];
    for model in [MoveModel::M1, MoveModel::M2] {
        let path = data_path(&format!("packed/first20-{}.shgm", model.name()));
        let bytes = std::fs::read(&path).unwrap();
        let contents = Pack::read(&bytes).unwrap();
        assert_eq!(contents.codec, GameCodec::Arith(model));
        let games: Vec<GameRecord> = contents.games().into_iter().map(Result::unwrap).collect();
        assert_eq!(games, expected, "{model}");
    }
}

/// Packing must never change while a model is listed: the first 500 corpus games packed with
/// each fitted model by the coders as released (`tests/data/packed/first500-*.shgm`, written by
/// `shannon pack` before the coders were made faster) come out byte for byte, and unpack. The
/// files are of version 2; the games' codes in each block are compared (version 3 frames the
/// same blocks otherwise).
#[test]
fn packing_the_first_500_games_gives_the_released_bytes() {
    let games = &corpus()[..500];
    for model in [MoveModel::M1, MoveModel::M2] {
        let codec = GameCodec::Arith(model);
        let path = data_path(&format!("packed/first500-{}.shgm", model.name()));
        let released = std::fs::read(&path).unwrap();
        let pack = Pack {
            codec,
            games: games
                .iter()
                .map(|g| codec.encode_bits(g).unwrap())
                .collect(),
            texts: None,
        };
        let released = Pack::read(&released).unwrap();
        let packed = Pack::read(&pack.to_bytes()).unwrap();
        assert!(
            packed.blocks == released.blocks,
            "{model}: the packed codes changed"
        );
        let unpacked: Vec<GameRecord> = released.games().into_iter().map(Result::unwrap).collect();
        assert_eq!(unpacked, games, "{model}");
    }
}

/// The codes of random games from every suite position (Chess960 castling included: odd
/// castles, promotions, en passant, checks the corpus rarely has) under every model, pinned by
/// their CRC-64 as the coders wrote them when released; each also decodes to its game.
#[test]
fn random_suite_games_code_to_the_released_bits() {
    let crc = crc::Crc::<u64>::new(&crc::CRC_64_ECMA_182);
    let mut digests = Vec::new();
    for model in MoveModel::ALL {
        let codec = GameCodec::Arith(model);
        let mut digest = crc.digest();
        for (index, start) in common::suite_positions().into_iter().enumerate() {
            let mut rng = SmallRng::seed_from_u64(1000 + index as u64);
            for castling in [CastlingMode::Standard, CastlingMode::Chess960] {
                let moves = common::random_moves(&start, &mut rng, 120);
                let game =
                    GameRecord::with_outcome(start.clone(), castling, moves, Outcome::Unfinished);
                let bytes = codec.encode(&game).unwrap();
                assert_eq!(codec.decode(&bytes), Ok(game), "{codec} {index}");
                digest.update(&bytes);
            }
        }
        digests.push(digest.finalize());
    }
    let released = [
        0x5bd9_ab1c_0e18_8b06_u64,
        0x97b6_1034_14bd_69de,
        0xe93f_b109_7268_701a,
    ];
    assert_eq!(digests, released, "uniform, m1, m2");
}
