use super::*;

fn sample() -> Pack {
    Pack {
        codec: GameCodec::Arith,
        games: vec![vec![1, 2, 3], vec![], vec![0xff; 300], vec![7; 5], vec![9]],
    }
}

/// Version 1 as this module wrote it before checks were added.
fn version_1(pack: &Pack) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend([UNCHECKED_VERSION, pack.codec.id()]);
    push_leb128(&mut out, pack.games.len() as u64);
    for game in &pack.games {
        push_leb128(&mut out, game.len() as u64);
        out.extend_from_slice(game);
    }
    out
}

#[test]
fn round_trip_in_blocks() {
    let pack = sample();
    for per_block in [1, 2, 5, BLOCK_GAMES] {
        let bytes = pack.to_bytes_in_blocks(per_block);
        assert_eq!(Pack::parse(&bytes), Ok(pack.clone()), "{per_block}");
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
        codec: GameCodec::Index,
        games: vec![],
    };
    assert_eq!(Pack::parse(&empty.to_bytes()), Ok(empty));
}

#[test]
fn version_1_is_still_read_unchecked() {
    let pack = sample();
    let bytes = version_1(&pack);
    let contents = Pack::read(&bytes).unwrap();
    assert!(!contents.checked);
    assert_eq!(Pack::parse(&bytes), Ok(pack));
    for cut in 4..bytes.len() {
        assert_eq!(Pack::parse(&bytes[..cut]), Err(ContainerError::Truncated));
    }
    let mut extra = bytes.clone();
    extra.push(0);
    assert_eq!(Pack::parse(&extra), Err(ContainerError::TrailingBytes(1)));
    let mut bad_codec = bytes;
    bad_codec[5] = 9;
    assert_eq!(
        Pack::parse(&bad_codec),
        Err(ContainerError::UnknownCodec(9, 0))
    );
}

#[test]
fn header_errors() {
    let bytes = sample().to_bytes();
    assert_eq!(Pack::parse(b"XXXX"), Err(ContainerError::BadMagic));
    for cut in 4..HEADER_LEN {
        assert_eq!(Pack::parse(&bytes[..cut]), Err(ContainerError::Truncated));
    }
    let mut bad_version = bytes.clone();
    bad_version[4] = 3;
    assert_eq!(
        Pack::parse(&bad_version),
        Err(ContainerError::UnsupportedVersion(3))
    );
    let mut bad_codec = bytes;
    bad_codec[5] = 9;
    assert_eq!(Pack::parse(&bad_codec), Err(ContainerError::DamagedHeader));
}

/// Every single-bit flip is refused: in the header as a header error, in a block as that block's
/// error, with every other block still read.
#[test]
fn every_bit_flip_is_refused_and_names_its_block() {
    let pack = sample();
    let bytes = pack.to_bytes_in_blocks(2);
    let clean = Pack::read(&bytes).unwrap();
    let block_of = block_spans(&bytes);
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
            Err(ContainerError::Block { block, .. }) => assert_eq!(*block, hit + 1, "bit {bit}"),
            other => panic!("bit {bit}: block {} read as {other:?}", hit + 1),
        }
        for (index, block) in clean.blocks.iter().enumerate().take(hit) {
            assert_eq!(&contents.blocks[index], block, "bit {bit}");
        }
    }
}

/// For each byte offset of a version 2 file, the index of the block (or end mark) that holds it.
fn block_spans(bytes: &[u8]) -> impl Fn(usize) -> Option<usize> {
    let mut ends = Vec::new();
    let mut rest = &bytes[HEADER_LEN..];
    while !rest.is_empty() {
        assert!(read_block(&mut rest).is_ok());
        ends.push(bytes.len() - rest.len());
    }
    move |offset| ends.iter().position(|&end| offset < end)
}

#[test]
fn damaged_blocks_are_named_and_the_others_read() {
    let pack = sample();
    let bytes = pack.to_bytes_in_blocks(2);
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
    assert_eq!(
        contents.blocks[1],
        Ok(Block {
            first_game: 3,
            games: pack.games[2..4].to_vec()
        })
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
