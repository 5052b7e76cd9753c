//! What each fuzz target checks, one function per target, shared by the targets in
//! `fuzz_targets/` and by `tests/it/fuzz_seeds.rs` (which replays `seeds/` under `cargo test`), so
//! the seeds are checked against exactly the invariants the fuzzer enforces.
//!
//! Each function takes the raw fuzz input and panics when an invariant breaks.

// Each fuzz target uses one of these functions; the others are unused there.
#![allow(dead_code)]

use shannon::client::Config;
use shannon::codec::bits::Bits;
use shannon::codec::container::Pack;
use shannon::codec::game::GameCodec;
use shannon::codec::position::PositionCodec;
use shannon::movegen::{Generator, MoveList};
use shannon::notation::pgn::{read_games, write_game};
use shannon::{CastlingMode, Position};

/// FEN / X-FEN / Shredder-FEN parser. Any position that parses must round-trip through both FEN
/// notations and every position codec, and the bitboard and 0x88 generators must agree on it.
pub fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(pos) = Position::from_fen(&text) else {
        return;
    };
    assert_eq!(pos.consistency_error(), None);
    for notation in [CastlingMode::Standard, CastlingMode::Chess960] {
        let again = Position::from_fen(&pos.fen_for(notation)).expect("our FEN parses");
        assert_eq!(again, pos);
    }
    for codec in PositionCodec::ALL {
        let decoded = codec.decode(&codec.encode(&pos)).expect("our code decodes");
        assert_eq!(decoded.shredder_fen(), pos.shredder_fen(), "{codec:?}");
    }
    let mut fast = MoveList::new();
    let mut reference = MoveList::new();
    Generator::Bitboard.legal_moves(&pos, &mut fast);
    Generator::Mailbox0x88.legal_moves(&pos, &mut reference);
    let mut a: Vec<u16> = fast.iter().map(|m| m.to_bits()).collect();
    let mut b: Vec<u16> = reference.iter().map(|m| m.to_bits()).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "generators disagree in {}", pos.shredder_fen());
}

/// The whole UCI state machine fed arbitrary lines. Afterwards `isready` must get `readyok` and
/// the game the engine holds (its `d` FEN) must be a legal position. Lines that would make a run
/// slow or touch the file system (`go perft`, `Debug Log File`) and `quit` are left out.
pub fn uci_engine(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let kept: Vec<&str> = text
        .lines()
        .filter(|line| {
            let lower = line.to_ascii_lowercase();
            !lower.contains("perft") && !lower.contains("log") && !lower.contains("quit")
        })
        .collect();
    let input = format!("{}\nstop\nisready\nd\n", kept.join("\n"));
    let mut output = Vec::new();
    shannon::uci::run(std::io::Cursor::new(input.into_bytes()), &mut output);
    let output = String::from_utf8_lossy(&output);
    assert!(output.contains("readyok"), "no readyok after the input");
    let fen = output
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("Fen: "))
        .expect("d prints the FEN");
    Position::from_fen(fen).expect("the held game is a legal position");
}

/// The PGN reader on arbitrary text. Every game it accepts replays legally (the reader checks each
/// move) and survives a write + read round trip with the same start, moves and result.
pub fn pgn(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for game in read_games(&text).into_iter().flatten() {
        let written = write_game(&game).expect("a read game writes");
        let again = read_games(&written);
        assert_eq!(again.len(), 1, "{written}");
        let again = again
            .into_iter()
            .next()
            .unwrap()
            .expect("a written game reads");
        assert_eq!(again.record, game.record, "{written}");
        assert_eq!(again.comments, game.comments, "{written}");
    }
}

/// Every position and game decoder, and the packed-file reader, on arbitrary input: no panic,
/// and whatever decodes must encode back to the same code (each code names one position or
/// game, and no code names a wrong one). The first byte picks the decoder: even, a position
/// codec; 1 mod 4, a game codec (every move model of `arith` included); 3 mod 4, a packed file
/// whose games are decoded by the codec its header names.
pub fn decoders(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    if selector & 1 == 0 {
        let codec = PositionCodec::ALL[(selector as usize >> 1) % PositionCodec::ALL.len()];
        let mut bits = Bits::new();
        // The first byte of `rest` trims 0-7 bits off the end, so codes of any length occur.
        let Some((&trim, body)) = rest.split_first() else {
            return;
        };
        for &byte in body {
            bits.push_bits(u64::from(byte), 8);
        }
        let keep = bits.len().saturating_sub(usize::from(trim % 8));
        let exact: Bits = bits.iter().take(keep).collect();
        if let Ok(pos) = codec.decode(&exact) {
            assert_eq!(codec.encode(&pos), exact, "{codec:?}");
        }
    } else if selector & 3 == 1 {
        let codec = GameCodec::ALL[(selector as usize >> 2) % GameCodec::ALL.len()];
        game_decodes_exactly(codec, rest);
    } else if let Ok(contents) = Pack::read(rest) {
        // Every game that decodes from the file must be one the codec writes.
        for game in contents.games().into_iter().flatten() {
            let code = contents
                .codec
                .encode_bits(&game)
                .expect("a decoded game encodes");
            assert_eq!(contents.codec.decode(&code.into_bytes()), Ok(game));
        }
    }
}

/// A game that decodes encodes back to exactly its bytes.
fn game_decodes_exactly(codec: GameCodec, bytes: &[u8]) {
    if let Ok(game) = codec.decode(bytes) {
        assert_eq!(
            codec.encode(&game).expect("a decoded game encodes"),
            bytes,
            "{codec:?}"
        );
    }
}

/// engines.toml loading on arbitrary text: a configuration or an error, never a panic; every
/// engine it lists is found by name and its options convert.
pub fn engines_toml(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(config) = Config::parse(&text, "fuzz") {
        for engine in &config.engines {
            let _ = engine.option_values();
            let _ = config
                .engine(&engine.name)
                .expect("a listed engine is found");
        }
    }
}
