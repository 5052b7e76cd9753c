//! The move models of the `arith` codec (issue 24): exact round trips over the corpus and random
//! games from every suite position, old models still decoding, and what they save.

use crate::common;

use crate::common::data_path;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use shannon::codec::container::Pack;
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
        let model = model.fitted().expect("a fitted model");
        let (bits, moves) = model.move_bits(held_out);
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
        0x8f1f_6906_7055_5988,
        M4_RANDOM_CODES,
        M5_RANDOM_CODES,
        M6_RANDOM_CODES,
    ];
    assert_eq!(
        digests, released,
        "uniform, m1, m2, m3, m4, m5, m6 (found {digests:x?})"
    );
}

/// m4's codes of random suite games' CRC-64 ([`random_suite_games_code_to_the_released_bits`]).
const M4_RANDOM_CODES: u64 = 0x4731_645e_35da_0156;

/// m5's codes of random suite games' CRC-64 ([`random_suite_games_code_to_the_released_bits`]).
const M5_RANDOM_CODES: u64 = 0xaaf6_f2a8_5aaa_8b66;

/// m6's codes of random suite games' CRC-64 ([`random_suite_games_code_to_the_released_bits`]).
const M6_RANDOM_CODES: u64 = 0xeeaf_d7e3_41c2_1ed2;

/// The probabilities of the network models (m3-m6), pinned: every frequency, total, end and
/// result odds each gives over the positions of the first 200 corpus games and of random games
/// from every suite position, as a CRC-64, under every instruction set this CPU runs (the
/// portable code and, on x86-64 with AVX2, the AVX2 code). Integers only, added in a fixed
/// order: any machine, any compiler flags must give these numbers, or files packed on one
/// machine would not unpack on another.
#[test]
fn network_models_give_the_pinned_probabilities() {
    use shannon::codec::game::model::net::file::AnyNet;
    use shannon::codec::game::model::net::{Instructions, Net};
    use shannon::codec::game::model::{Distribution, Fitted, MovePredictor};
    fn digest<const W: usize>(
        model: &Net<W>,
        instructions: Instructions,
        games: &[GameRecord],
    ) -> (u64, usize) {
        let crc = crc::Crc::<u64>::new(&crc::CRC_64_ECMA_182);
        let mut digest = crc.digest();
        let mut dist = Distribution::default();
        let mut positions = 0;
        for game in games {
            let mut pos = game.start.clone();
            let mut history = model.history(&pos);
            for &mv in &game.moves {
                model.distribution_with(instructions, &pos, &history, &mut dist);
                dist.freqs
                    .iter()
                    .for_each(|f| digest.update(&f.to_le_bytes()));
                digest.update(&dist.total.to_le_bytes());
                for odds in model.end_odds(&pos, &history) {
                    digest.update(&odds.to_le_bytes());
                }
                positions += 1;
                history = model.after(&history, &pos, mv);
                let _ = pos.make(mv);
            }
            let has_moves = pos.count_legal_moves() > 0;
            for odds in model.result_odds(&pos, &history, has_moves) {
                digest.update(&odds.to_le_bytes());
            }
        }
        (digest.finalize(), positions)
    }
    let mut games = corpus()[..200].to_vec();
    for (index, start) in common::suite_positions().into_iter().enumerate() {
        let mut rng = SmallRng::seed_from_u64(2000 + index as u64);
        let moves = common::random_moves(&start, &mut rng, 60);
        let game =
            GameRecord::with_outcome(start, CastlingMode::Chess960, moves, Outcome::Unfinished);
        games.push(game);
    }
    let pinned = [
        (MoveModel::M3, 0x9e38_4286_b91d_90a6_u64),
        (MoveModel::M4, M4_PROBABILITIES),
        (MoveModel::M5, M5_PROBABILITIES),
        (MoveModel::M6, M6_PROBABILITIES),
    ];
    let available = Instructions::available();
    if available.len() < Instructions::ALL.len() {
        println!(
            "this CPU runs only {:?} of {:?}: those alone checked",
            available,
            Instructions::ALL
        );
    }
    for instructions in available {
        for (model, crc) in pinned {
            let Some(Fitted::Net(net)) = model.fitted() else {
                panic!("{model} is a network");
            };
            let found = match net {
                AnyNet::W8(n) => digest(n, instructions, &games),
                AnyNet::W16(n) => digest(n, instructions, &games),
                AnyNet::W32(n) => digest(n, instructions, &games),
            };
            assert_eq!(
                found,
                (crc, 139_729),
                "{model}'s probabilities changed under {} (found {:#x})",
                instructions.name(),
                found.0
            );
        }
    }
}

/// m4's probabilities' CRC-64 ([`network_models_give_the_pinned_probabilities`]).
const M4_PROBABILITIES: u64 = 0x273a_53e4_d888_3ac4;

/// m5's probabilities' CRC-64 ([`network_models_give_the_pinned_probabilities`]).
const M5_PROBABILITIES: u64 = 0x22ed_6220_bbb7_a66f;

/// m6's probabilities' CRC-64 ([`network_models_give_the_pinned_probabilities`]).
const M6_PROBABILITIES: u64 = 0x0c55_8cfb_c2e7_546e;

/// Packing with a network model never changes: the first 500 corpus games, moves only
/// (`tests/data/packed/first500-m3.shgm`, `first500-m4.shgm`, ..., `first500-m6.shgm`), and the
/// first 20 with their tags (`first20-m3-v4.shgm`, ...), written by `shannon pack --codec
/// arith-m3` (`arith-m4`, `arith-m5`, `arith-m6`) when each model was released, come out byte for byte and unpack to
/// their games.
#[test]
fn network_models_pack_the_pinned_bytes() {
    let games = corpus();
    for model in [MoveModel::M3, MoveModel::M4, MoveModel::M5, MoveModel::M6] {
        let codec = GameCodec::Arith(model);
        let pack = Pack {
            codec,
            games: games[..500]
                .iter()
                .map(|g| codec.encode_bits(g).unwrap())
                .collect(),
            texts: None,
        };
        let released = std::fs::read(data_path(&format!("packed/first500-{model}.shgm"))).unwrap();
        assert!(
            pack.to_bytes() == released,
            "{model}: the packed bytes changed"
        );
        let read = Pack::read(&released).unwrap();
        let unpacked: Vec<GameRecord> = read.games().into_iter().map(Result::unwrap).collect();
        assert_eq!(unpacked, games[..500], "{model}");
        let tagged = std::fs::read(data_path(&format!("packed/first20-{model}-v4.shgm"))).unwrap();
        let read = Pack::read(&tagged).unwrap();
        let unpacked: Vec<GameRecord> = read.games().into_iter().map(Result::unwrap).collect();
        assert_eq!(unpacked, games[..20], "{model}");
    }
}

/// Fitting the network is deterministic, in m3's layout, m5's and m6's: the same games and options
/// give the same model bytes, and the bytes read back to a model that writes them again. (A
/// small fit: 60 games, 8 lanes, 2 passes; the shipped models' full refit is
/// `network_models_refit_to_the_shipped_models`.)
#[test]
fn m3_fitting_is_deterministic() {
    use shannon::codec::game::model::book::Book;
    use shannon::codec::game::model::net::{self, file::AnyNet};
    let games = &corpus()[..60];
    let book = Book::from_games(games.iter().map(|g| g.moves.as_slice()));
    let options = net::fit::FitOptions {
        lanes: 8,
        epochs: 2,
        ..net::fit::FitOptions::default()
    };
    for release in [net::fit::M3, net::fit::M5, net::fit::M6] {
        let bytes = || match net::fit::fit_model(
            games,
            &book,
            release.layout,
            release.groups,
            options,
            |_, _| {},
        )
        .unwrap()
        {
            AnyNet::W8(n) => net::file::write(&n),
            _ => panic!("8 lanes asked for"),
        };
        let (first, second) = (bytes(), bytes());
        assert!(first == second, "{}: two fits differ", release.name);
        let AnyNet::W8(read) = net::file::read(&first, book.clone()).unwrap() else {
            panic!("8 lanes written");
        };
        assert_eq!(read.layout, release.layout);
        assert!(net::file::write(&read) == first);
    }
}

/// A damaged model file is refused by name, never a panic: every truncation of the shipped
/// models' (m3's layout, m5's and m6's) first 64 bytes and of their end, and every flip of a header
/// bit (a format byte flipped to the other layout's is refused by its shape).
#[test]
fn damaged_network_files_are_refused() {
    use shannon::codec::game::model::book::Book;
    use shannon::codec::game::model::net::file;
    for name in ["m3", "m5", "m6"] {
        let shipped = std::fs::read(format!(
            "{}/src/codec/game/model/{name}.bin",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let book = Book::from_games(std::iter::empty());
        assert!(file::read(&shipped, book.clone()).is_ok());
        for cut in (0..64).chain(shipped.len() - 64..shipped.len()) {
            assert!(
                file::read(&shipped[..cut], book.clone()).is_err(),
                "{name} {cut}"
            );
        }
        for bit in 0..18 * 8 {
            let mut damaged = shipped.clone();
            damaged[bit / 8] ^= 1 << (bit % 8);
            // The groups field (bytes 6-9) may name other groups and still be a model.
            if !(6..10).contains(&(bit / 8)) {
                let error = file::read(&damaged, book.clone()).unwrap_err();
                assert!(!error.to_string().is_empty(), "{name} {bit}");
            }
        }
    }
}

/// `shannon codec-fit --model NAME --final-only --write DIR` on the corpus writes the shipped
/// `NAME.bin` byte for byte, for m3, m4, m5 and m6 (a few minutes on one core: run with
/// `--ignored`).
#[test]
#[ignore]
fn network_models_refit_to_the_shipped_models() {
    use shannon::codec::game::model::book::Book;
    use shannon::codec::game::model::net::{self, file::AnyNet};
    let games = corpus();
    let fitting = &games[..2500];
    let book = Book::from_games(
        fitting
            .iter()
            .filter(|g| g.start == shannon::Position::startpos())
            .map(|g| g.moves.as_slice()),
    );
    for release in [net::fit::M3, net::fit::M4, net::fit::M5, net::fit::M6] {
        let options = net::fit::FitOptions {
            lanes: release.lanes,
            ..net::fit::FitOptions::default()
        };
        let fitted = net::fit::fit_model(
            fitting,
            &book,
            release.layout,
            release.groups,
            options,
            |_, _| {},
        );
        let bytes = match fitted.unwrap() {
            AnyNet::W8(n) => net::file::write(&n),
            AnyNet::W16(n) => net::file::write(&n),
            AnyNet::W32(n) => net::file::write(&n),
        };
        let shipped = std::fs::read(format!(
            "{}/src/codec/game/model/{}.bin",
            env!("CARGO_MANIFEST_DIR"),
            release.name
        ))
        .unwrap();
        assert!(
            bytes == shipped,
            "the refit differs from the shipped {}.bin",
            release.name
        );
    }
}
