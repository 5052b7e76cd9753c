use super::*;
use crate::codec::game::MoveModel;
use crate::game::Outcome;
use crate::{CastlingMode, Position};

/// Five games from the start, each move picked by a fixed rule.
fn games() -> Vec<GameRecord> {
    [0usize, 3, 10, 40, 7]
        .iter()
        .enumerate()
        .map(|(seed, &plies)| {
            let mut pos = Position::startpos();
            let mut moves = Vec::new();
            for ply in 0..plies {
                let legal = pos.legal_moves();
                let Some(&mv) = legal.get((ply * 7 + seed * 3) % legal.len().max(1)) else {
                    break;
                };
                moves.push(mv);
                pos = pos.play(mv);
            }
            let outcome = Outcome::ALL[seed % 4];
            GameRecord::with_outcome(Position::startpos(), CastlingMode::Standard, moves, outcome)
        })
        .collect()
}

/// A self-delimiting codec and a framed one.
const CODECS: [GameCodec; 2] = [
    GameCodec::Arith(MoveModel::M2),
    GameCodec::Arith(MoveModel::Uniform),
];

fn pack(codec: GameCodec) -> Pack {
    Pack {
        codec,
        games: games()
            .iter()
            .map(|g| codec.encode_bits(g).unwrap())
            .collect(),
    }
}

/// Every game decoded, or the first error.
fn parse(bytes: &[u8]) -> Result<Vec<GameRecord>, ContainerError> {
    Pack::read(bytes)?.games().into_iter().collect()
}

/// Version 1 as this module wrote it before checks were added.
fn version_1(codec: GameCodec, games: &[GameRecord]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend([UNCHECKED_VERSION, codec.id()]);
    push_leb128(&mut out, games.len() as u64);
    for game in games {
        let bytes = codec.encode(game).unwrap();
        push_leb128(&mut out, bytes.len() as u64);
        out.extend(bytes);
    }
    out
}

#[test]
fn round_trip_in_blocks() {
    for codec in CODECS {
        let pack = pack(codec);
        for per_block in [1, 2, 5, BLOCK_GAMES] {
            let bytes = pack.to_bytes_in_blocks(per_block);
            assert_eq!(parse(&bytes), Ok(games()), "{codec} {per_block}");
            let contents = Pack::read(&bytes).unwrap();
            assert!(contents.checked);
            assert_eq!(contents.blocks.len(), pack.games.len().div_ceil(per_block));
            let firsts: Vec<usize> = contents
                .blocks
                .iter()
                .map(|b| b.as_ref().unwrap().first_game)
                .collect();
            let expected: Vec<usize> = (0..firsts.len()).map(|i| i * per_block + 1).collect();
            assert_eq!(firsts, expected);
        }
        let empty = Pack {
            codec,
            games: vec![],
        };
        assert_eq!(parse(&empty.to_bytes()), Ok(vec![]));
    }
}

#[test]
fn version_1_is_still_read_unchecked() {
    let codec = GameCodec::Arith(MoveModel::Uniform);
    let bytes = version_1(codec, &games());
    let contents = Pack::read(&bytes).unwrap();
    assert!(!contents.checked);
    assert_eq!(parse(&bytes), Ok(games()));
    for cut in 4..bytes.len() {
        assert_eq!(
            Pack::read(&bytes[..cut]).err(),
            Some(ContainerError::Truncated)
        );
    }
    let mut extra = bytes.clone();
    extra.push(0);
    assert_eq!(parse(&extra), Err(ContainerError::TrailingBytes(1)));
    let mut bad_codec = bytes;
    bad_codec[5] = 9;
    assert_eq!(parse(&bad_codec), Err(ContainerError::UnknownCodec(9, 0)));
}

#[test]
fn header_errors() {
    let bytes = pack(CODECS[0]).to_bytes();
    assert_eq!(parse(b"XXXX"), Err(ContainerError::BadMagic));
    for cut in 4..HEADER_LEN {
        assert_eq!(parse(&bytes[..cut]), Err(ContainerError::Truncated));
    }
    let mut bad_version = bytes.clone();
    bad_version[4] = 3;
    assert_eq!(
        parse(&bad_version),
        Err(ContainerError::UnsupportedVersion(3))
    );
    let mut bad_codec = bytes;
    bad_codec[5] = 9;
    assert_eq!(parse(&bad_codec), Err(ContainerError::DamagedHeader));
}

/// Every single-bit flip is refused: in the header as a header error, in a block as that block's
/// error, with every block before it still read.
#[test]
fn every_bit_flip_is_refused_and_names_its_block() {
    for codec in CODECS {
        let bytes = pack(codec).to_bytes_in_blocks(2);
        let clean = Pack::read(&bytes).unwrap();
        let block_of = block_spans(&bytes, codec);
        for bit in 0..bytes.len() * 8 {
            let mut damaged = bytes.clone();
            damaged[bit / 8] ^= 0x80 >> (bit % 8);
            let Ok(contents) = Pack::read(&damaged) else {
                assert!(
                    bit < HEADER_LEN * 8,
                    "bit {bit}: a header error after the header"
                );
                continue;
            };
            let hit = block_of(bit / 8).expect("a flip past the header is in a block");
            match &contents.blocks[hit] {
                Err(ContainerError::Block { block, .. }) => {
                    assert_eq!(*block, hit + 1, "bit {bit}")
                }
                other => panic!("{codec} bit {bit}: block {} read as {other:?}", hit + 1),
            }
            for (index, block) in clean.blocks.iter().enumerate().take(hit) {
                assert_eq!(&contents.blocks[index], block, "bit {bit}");
            }
        }
    }
}

/// For each byte offset of a version 2 file, the index of the block (or end mark) that holds it.
fn block_spans(bytes: &[u8], codec: GameCodec) -> impl Fn(usize) -> Option<usize> {
    let mut ends = Vec::new();
    let mut rest = &bytes[HEADER_LEN..];
    while !rest.is_empty() {
        assert!(read_block(&mut rest, codec.self_delimiting()).is_ok());
        ends.push(bytes.len() - rest.len());
    }
    move |offset| ends.iter().position(|&end| offset < end)
}

#[test]
fn damaged_blocks_are_named_and_the_others_read() {
    let codec = CODECS[0];
    let bytes = pack(codec).to_bytes_in_blocks(2);
    // Damage a byte of the first block's payload and the last byte of the third block's check
    // (before the end mark: 0, the count 5, its check).
    let mut damaged = bytes.clone();
    damaged[14] ^= 0x10;
    damaged[bytes.len() - 7] ^= 1;
    let contents = Pack::read(&damaged).unwrap();
    assert_eq!(
        contents.blocks[0],
        Err(ContainerError::Block {
            block: 1,
            first_game: 1,
            fault: BlockFault::ChecksumMismatch
        })
    );
    let second = contents.blocks[1].as_ref().unwrap();
    assert_eq!(second.first_game, 3);
    assert_eq!(
        second.decode(codec),
        games()[2..4].iter().cloned().map(Ok).collect::<Vec<_>>()
    );
    let third = contents.blocks[2].as_ref().unwrap_err();
    assert_eq!(
        third.to_string(),
        "block 3 (from game 5) is damaged and skipped: its checksum does not match (the bytes are damaged)"
    );
    for cut in HEADER_LEN..bytes.len() {
        let contents = Pack::read(&bytes[..cut]).unwrap();
        let last = contents.blocks.last().unwrap();
        assert!(
            matches!(
                last,
                Err(ContainerError::Block {
                    fault: BlockFault::Truncated,
                    ..
                }) | Err(ContainerError::MissingEnd { .. })
            ),
            "cut {cut}: {last:?}"
        );
    }
    let mut extra = bytes.clone();
    extra.push(0);
    let contents = Pack::read(&extra).unwrap();
    assert_eq!(
        contents.blocks.last(),
        Some(&Err(ContainerError::TrailingBytes(1)))
    );
}

/// A game that does not decode in a stream block loses the games after it in the block, and
/// says so.
#[test]
fn a_bad_game_in_a_stream_names_the_games_lost() {
    let block = Block {
        first_game: 7,
        games: Games::Stream {
            count: 3,
            payload: vec![0; 4],
        },
    };
    let decoded = block.decode(GameCodec::Index);
    assert_eq!(decoded.len(), 1);
    let error = decoded[0].as_ref().unwrap_err().to_string();
    assert!(
        error.starts_with("game 7: ")
            && error.ends_with("(the 2 games after it in its block are lost with it)"),
        "{error}"
    );
}
