use super::*;
use crate::codec::game::model::MoveModel;
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

/// Each game's text: its players, its number and a comment after its first ply (or before it).
fn texts() -> Vec<GameText> {
    (games().iter().enumerate())
        .map(|(i, game)| GameText {
            tags: vec![
                ("Event".into(), "Texts".into()),
                ("White".into(), format!("player {}", i % 2)),
                ("Round".into(), format!("{i}")),
            ],
            comments: vec![(game.moves.len().min(1), format!("comment {i}"))],
        })
        .collect()
}

/// The games packed with their texts.
fn pack(codec: GameCodec) -> Pack {
    Pack {
        codec,
        games: games()
            .iter()
            .map(|g| codec.encode_bits(g).unwrap())
            .collect(),
        texts: Some(texts()),
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
            assert_eq!(contents.version, VERSION);
            assert_eq!(contents.keeps, Keeps::Text);
            let kept: Vec<GameText> = (contents.pgn_games())
                .into_iter()
                .map(|g| g.unwrap())
                .map(|g| GameText {
                    tags: g.tags,
                    comments: g.comments.after_ply,
                })
                .collect();
            let expected = texts();
            assert_eq!(kept, expected, "{codec} {per_block}");
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
            texts: Some(vec![]),
        };
        assert_eq!(parse(&empty.to_bytes()), Ok(vec![]));
        // The codes alone: the same games, no text, a smaller file.
        let moves = Pack {
            texts: None,
            ..pack.clone()
        };
        let bytes = moves.to_bytes();
        assert_eq!(parse(&bytes), Ok(games()), "{codec}");
        let contents = Pack::read(&bytes).unwrap();
        assert_eq!(contents.keeps, Keeps::Moves);
        assert!((contents.pgn_games().into_iter()).all(|g| g.unwrap().tags.is_empty()));
        assert!(bytes.len() < pack.to_bytes().len());
    }
}

/// Version 3 files (as `shannon pack` wrote them before text was kept) are still read, as the
/// codes alone.
#[test]
fn version_3_is_still_read_as_codes_alone() {
    let bytes = include_bytes!("../../../tests/data/packed/first20-m2-v3.shgm");
    assert_eq!(bytes[4], CODES_ONLY_VERSION);
    let contents = Pack::read(bytes).unwrap();
    assert_eq!(contents.version, CODES_ONLY_VERSION);
    assert_eq!(contents.keeps, Keeps::Moves);
    let games = contents.pgn_games();
    assert_eq!(games.len(), 20);
    assert!(games
        .iter()
        .all(|g| g.as_ref().is_ok_and(|g| g.tags.is_empty())));
    // Its header with the version byte damaged to 4 is not taken for a version 4 file.
    let mut damaged = bytes.to_vec();
    damaged[4] = VERSION;
    assert_eq!(Pack::read(&damaged), Err(ContainerError::DamagedHeader));
}

/// A block whose check holds but whose text does not read as its layout (a writer's fault) is
/// unreadable as a whole; a comment after a ply its game does not have loses that game.
#[test]
fn malformed_text_in_an_intact_block_is_refused() {
    let codec = CODECS[0];
    let bytes = pack(codec).to_bytes_in_blocks(5);
    let (header, frames) = split_frames(&bytes);
    // The block's text ends just before its check: drop its last byte, shorten its length,
    // and check the block again.
    let block = &frames[0];
    let mut rest = &block[8..];
    for _ in 0..3 {
        read_leb128(&mut rest).unwrap(); // number, games before, games
    }
    let payload = read_leb128(&mut rest).unwrap() as usize;
    rest = &rest[payload..];
    let at = block.len() - rest.len();
    let text_len = read_leb128(&mut rest).unwrap();
    assert_eq!(
        rest.len(),
        text_len as usize + 4,
        "the text, then the check"
    );
    let mut cut = block[..at].to_vec();
    push_leb128(&mut cut, text_len - 1);
    cut.extend(&rest[..text_len as usize - 1]);
    cut.extend(CRC.checksum(&cut).to_le_bytes());
    let mut damaged = header.clone();
    damaged.extend(cut);
    damaged.extend(&frames[1]);
    let contents = Pack::read(&damaged).unwrap();
    assert!(
        matches!(
            contents.blocks[0],
            Err(ContainerError::Block {
                fault: BlockFault::BadPayload,
                ..
            })
        ),
        "{:?}",
        contents.blocks[0]
    );
    // A comment after ply 99 of a game of 3 plies.
    let mut wrong = pack(codec);
    wrong.texts.as_mut().unwrap()[1]
        .comments
        .push((99, "late".into()));
    let contents = Pack::read(&wrong.to_bytes()).unwrap();
    let games = contents.pgn_games();
    assert_eq!(
        games[1],
        Err(ContainerError::CommentPastEnd {
            number: 2,
            ply: 99,
            plies: 3
        })
    );
    assert_eq!(games.iter().filter(|g| g.is_ok()).count(), 4);
}

#[test]
fn version_1_is_still_read_unchecked() {
    let codec = GameCodec::Arith(MoveModel::Uniform);
    let bytes = version_1(codec, &games());
    let contents = Pack::read(&bytes).unwrap();
    assert_eq!(contents.version, UNCHECKED_VERSION);
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
    let mut unknown = bytes.clone();
    unknown[4] = 5;
    unknown[HEADER_LEN - 1] ^= 1;
    assert_eq!(parse(&unknown), Err(ContainerError::UnsupportedVersion(5)));
    // A damaged version byte (0 and 5 are one bit away from 4) is not taken for another file.
    for version in [0, 1, 2, 3, 5, 7, 0x84] {
        let mut bad_version = bytes.clone();
        bad_version[4] = version;
        assert_eq!(parse(&bad_version), Err(ContainerError::DamagedHeader));
    }
    let mut bad_codec = bytes;
    bad_codec[5] = 9;
    assert_eq!(parse(&bad_codec), Err(ContainerError::DamagedHeader));
}

/// Every single-bit flip is refused: in the header as a header error, in a block (or the end
/// mark) as that block's error, with every other block still read.
#[test]
fn every_bit_flip_is_refused_and_names_its_block() {
    for codec in CODECS {
        let bytes = pack(codec).to_bytes_in_blocks(2);
        let clean = Pack::read(&bytes).unwrap();
        let (header, frames) = split_frames(&bytes);
        let mut ends = vec![header.len()];
        for frame in &frames {
            ends.push(ends.last().unwrap() + frame.len());
        }
        let block_of = |offset: usize| ends.iter().position(|&end| offset < end).unwrap() - 1;
        for bit in 0..bytes.len() * 8 {
            let mut damaged = bytes.clone();
            damaged[bit / 8] ^= 0x80 >> (bit % 8);
            let contents = match Pack::read(&damaged) {
                Ok(contents) => contents,
                Err(ContainerError::BadMagic) if bit < 32 => continue,
                Err(ContainerError::DamagedHeader) if bit < HEADER_LEN * 8 => continue,
                Err(e) => panic!("{codec} bit {bit}: {e:?}"),
            };
            let hit = block_of(bit / 8);
            let end_mark = hit == frames.len() - 1;
            let lost = match end_mark {
                true => Lost::Rest,
                false => Lost::Known {
                    blocks: 1,
                    games: clean.blocks[hit].as_ref().unwrap().games.len(),
                },
            };
            let first_game = match end_mark {
                true => games().len() + 1,
                false => clean.blocks[hit].as_ref().unwrap().first_game,
            };
            // The fault depends on the field hit: the check, or a length made to run past the
            // end of the file or malformed.
            let error = |fault| {
                Err(ContainerError::Block {
                    block: hit + 1,
                    first_game,
                    fault,
                    lost,
                })
            };
            let mut expected = clean.blocks.clone();
            match end_mark {
                true => expected.push(error(BlockFault::ChecksumMismatch)),
                false => expected[hit] = error(BlockFault::ChecksumMismatch),
            }
            let found = contents.blocks.iter().map(|b| match b {
                Err(ContainerError::Block { .. }) => error(BlockFault::ChecksumMismatch),
                other => other.clone(),
            });
            assert_eq!(found.collect::<Vec<_>>(), expected, "{codec} bit {bit}");
        }
    }
}

#[test]
fn damaged_blocks_are_named_and_the_others_read() {
    let codec = CODECS[0];
    let bytes = pack(codec).to_bytes_in_blocks(2);
    let (header, frames) = split_frames(&bytes);
    let start = |frame: usize| header.len() + frames[..frame].iter().map(Vec::len).sum::<usize>();
    // Damage the last byte of the first block's payload and the last byte of the third block's
    // check.
    let mut damaged = bytes.clone();
    damaged[start(1) - 5] ^= 0x10;
    damaged[start(3) - 1] ^= 1;
    let contents = Pack::read(&damaged).unwrap();
    assert_eq!(
        contents.blocks[0],
        Err(ContainerError::Block {
            block: 1,
            first_game: 1,
            fault: BlockFault::ChecksumMismatch,
            lost: Lost::Known {
                blocks: 1,
                games: 2
            },
        })
    );
    assert_eq!(
        contents.blocks[0].as_ref().unwrap_err().to_string(),
        "block 1 (from game 1) is damaged and skipped: its checksum does not match (the bytes \
         are damaged); its 2 games (1-2) are lost"
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
        "block 3 (from game 5) is damaged and skipped: its checksum does not match (the bytes \
         are damaged); its game 5 is lost"
    );
    assert_eq!(contents.blocks.len(), 3);
    for cut in HEADER_LEN..bytes.len() {
        let contents = Pack::read(&bytes[..cut]).unwrap();
        let last = contents.blocks.last().unwrap();
        assert!(
            matches!(
                last,
                Err(ContainerError::Block {
                    fault: BlockFault::Truncated,
                    lost: Lost::Rest,
                    ..
                }) | Err(ContainerError::MissingEnd { .. })
            ),
            "cut {cut}: {last:?}"
        );
    }
}

/// Damage that spans blocks, or a length field, loses only the blocks it touches: the next
/// intact block is found by the file id, and the games lost are counted. Bytes inserted between
/// blocks lose nothing.
#[test]
fn the_reader_finds_the_next_intact_block() {
    for codec in CODECS {
        let bytes = pack(codec).to_bytes_in_blocks(1);
        let clean = Pack::read(&bytes).unwrap();
        let (header, frames) = split_frames(&bytes);
        let start =
            |frame: usize| header.len() + frames[..frame].iter().map(Vec::len).sum::<usize>();
        // Blocks 2 and 3 (games 2 and 3): one byte of each.
        let mut damaged = bytes.clone();
        damaged[start(1) + 12] ^= 0x40;
        damaged[start(2) + 12] ^= 0x40;
        let contents = Pack::read(&damaged).unwrap();
        let error = contents.blocks[1].as_ref().unwrap_err();
        assert_eq!(
            error.to_string(),
            "blocks 2-3 (from game 2) are damaged and skipped: in block 2, its checksum does not \
             match (the bytes are damaged); their 2 games (2-3) are lost",
            "{codec}"
        );
        assert_eq!(contents.blocks[0], clean.blocks[0]);
        assert_eq!(contents.blocks[2..], clean.blocks[3..]);
        // Block 1's length field (after the file id, number, games before and count) made
        // far too long, so that the frame runs past the end of the file.
        let mut long = bytes.clone();
        long[start(0) + 11] = 0xff;
        long.insert(start(0) + 12, 0x7f);
        let contents = Pack::read(&long).unwrap();
        assert_eq!(
            contents.blocks[0],
            Err(ContainerError::Block {
                block: 1,
                first_game: 1,
                fault: BlockFault::BadLength,
                lost: Lost::Known {
                    blocks: 1,
                    games: 1
                }
            }),
            "{codec}"
        );
        assert_eq!(contents.blocks[1..], clean.blocks[1..], "{codec}");
        // Three bytes between blocks 2 and 3, and two before the end mark.
        let mut inserted = bytes.clone();
        inserted.splice(start(5)..start(5), [1, 2]);
        inserted.splice(start(2)..start(2), [0, 0, 0]);
        let contents = Pack::read(&inserted).unwrap();
        let messages: Vec<String> = (contents.blocks.iter())
            .filter_map(|b| b.as_ref().err().map(ToString::to_string))
            .collect();
        assert_eq!(
            messages,
            [
                "3 bytes before block 3 are no block of this file: skipped (no game is lost \
                 with them)",
                "2 bytes before the end mark are no block of this file: skipped (no game is \
                 lost with them)"
            ],
            "{codec}"
        );
        let read: Vec<_> = contents.blocks.into_iter().filter(Result::is_ok).collect();
        assert_eq!(read, clean.blocks, "{codec}");
    }
}

/// Bytes after the end mark refuse the file: another packed file (two files joined), or
/// anything else.
#[test]
fn bytes_after_the_end_mark_refuse_the_file() {
    let bytes = pack(CODECS[0]).to_bytes();
    let other = pack(CODECS[1]).to_bytes();
    let joined = [bytes.as_slice(), &other].concat();
    assert_eq!(
        Pack::read(&joined),
        Err(ContainerError::AfterEnd {
            end: bytes.len(),
            bytes: other.len(),
            packed_file: true
        })
    );
    let mut extra = bytes.clone();
    extra.push(0);
    let refused = Pack::read(&extra).unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "1 bytes follow the end mark (the packed file's own bytes end at byte {}): \
             something was added to it; nothing is read",
            bytes.len()
        )
    );
}

/// The file id is the contents': the same games packed the same way give the same bytes;
/// other games, another codec or other blocks give another id.
#[test]
fn the_file_id_follows_the_contents() {
    let id = |bytes: &[u8]| bytes[8..16].to_vec();
    let codec = CODECS[0];
    let bytes = pack(codec).to_bytes();
    assert_eq!(pack(codec).to_bytes(), bytes);
    let mut fewer = pack(codec);
    fewer.games.pop();
    fewer.texts.as_mut().unwrap().pop();
    let others = [
        fewer.to_bytes(),
        pack(codec).to_bytes_in_blocks(2),
        pack(CODECS[1]).to_bytes(),
        pack(GameCodec::Arith(MoveModel::M1)).to_bytes(),
        Pack {
            texts: None,
            ..pack(codec)
        }
        .to_bytes(),
    ];
    for other in others {
        assert_ne!(id(&other), id(&bytes));
    }
}

/// A version 2 file (as `shannon pack` wrote them before version 3) is still read, and says
/// its version.
#[test]
fn version_2_is_still_read() {
    let bytes = include_bytes!("../../../tests/data/packed/first20-m2.shgm");
    let contents = Pack::read(bytes).unwrap();
    assert_eq!(contents.version, UNBOUND_VERSION);
    assert_eq!(contents.codec, GameCodec::Arith(MoveModel::M2));
    let games = contents.games();
    assert_eq!(games.len(), 20);
    assert!(games.iter().all(Result::is_ok));
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
        texts: None,
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

/// A file's header and its frames (blocks, then the end mark), as bytes, for versions 2 to 4.
fn split_frames(bytes: &[u8]) -> (Vec<u8>, Vec<Vec<u8>>) {
    let version = bytes[4];
    let header = match version {
        2 => 11,
        3 => 19,
        _ => 20,
    };
    let with_text = version == 4 && bytes[7] == Keeps::Text.byte();
    let mut rest = &bytes[header..];
    let mut frames = Vec::new();
    while !rest.is_empty() {
        let before = rest;
        if version >= 3 {
            rest = &rest[8..];
            read_leb128(&mut rest).unwrap();
            read_leb128(&mut rest).unwrap();
        }
        let games = read_leb128(&mut rest).unwrap() as usize;
        // Version 2's end mark has a length field (the file's games), version 3's none.
        let mut length = 0;
        if games > 0 || version == 2 {
            length = read_leb128(&mut rest).unwrap() as usize;
        }
        if games > 0 && with_text {
            rest = &rest[length..];
            length = read_leb128(&mut rest).unwrap() as usize;
        }
        rest = &rest[if games == 0 { 4 } else { length + 4 }..];
        frames.push(before[..before.len() - rest.len()].to_vec());
    }
    (bytes[..header].to_vec(), frames)
}

/// Issue 30 item 5: every arrangement of frames under a header, from three small files (two of
/// one codec with different games, one of another codec; blocks of one game), of up to 4
/// frames: only the header's own file is read whole; a proper prefix of its blocks without
/// the end mark is read as a cut file; everything else (blocks swapped, repeated, dropped,
/// taken from another file, an end mark out of place or from another file) is refused whole.
#[test]
fn only_a_files_own_blocks_in_order_are_read() {
    for (x, y) in [(CODECS[0], CODECS[1]), (CODECS[1], CODECS[0])] {
        let file = |codec: GameCodec, picks: [usize; 3]| {
            let games = games();
            let pack = Pack {
                codec,
                games: picks
                    .iter()
                    .map(|&i| codec.encode_bits(&games[i]).unwrap())
                    .collect(),
                texts: Some(picks.iter().map(|&i| texts()[i].clone()).collect()),
            };
            split_frames(&pack.to_bytes_in_blocks(1))
        };
        let files = [file(x, [1, 2, 3]), file(x, [1, 4, 3]), file(y, [1, 2, 3])];
        let pool: Vec<(usize, usize)> = (0..files.len())
            .flat_map(|f| (0..4).map(move |frame| (f, frame)))
            .collect();
        let pool = &pool;
        let mut arrangements: Vec<Vec<(usize, usize)>> = vec![vec![]];
        let mut longest = arrangements.clone();
        for _ in 0..4 {
            longest = (longest.iter())
                .flat_map(|a| pool.iter().map(move |&p| [a.as_slice(), &[p]].concat()))
                .collect();
            arrangements.extend(longest.iter().cloned());
        }
        assert_eq!(arrangements.len(), 1 + 12 + 144 + 1728 + 20736);
        let mut read = 0;
        for (owner, (header, _)) in files.iter().enumerate() {
            for arrangement in &arrangements {
                let mut bytes = header.clone();
                for &(f, frame) in arrangement {
                    bytes.extend(&files[f].1[frame]);
                }
                let own: Vec<(usize, usize)> = (0..4).map(|frame| (owner, frame)).collect();
                let result = Pack::read(&bytes);
                let what = format!("{x} header {owner}, frames {arrangement:?}");
                if *arrangement == own {
                    let contents = result.expect(&what);
                    assert!(contents.blocks.iter().all(Result::is_ok), "{what}");
                    assert_eq!(contents.blocks.len(), 3, "{what}");
                    read += 1;
                } else if arrangement.len() < 4 && own.starts_with(arrangement) {
                    let contents = result.expect(&what);
                    let (last, blocks) = contents.blocks.split_last().expect(&what);
                    assert!(blocks.iter().all(Result::is_ok), "{what}");
                    assert_eq!(blocks.len(), arrangement.len(), "{what}");
                    assert!(
                        matches!(last, Err(ContainerError::MissingEnd { .. })),
                        "{what}: {last:?}"
                    );
                    read += 1;
                } else {
                    assert!(
                        matches!(
                            result,
                            Err(ContainerError::ForeignBlock { .. }
                                | ContainerError::OutOfPlace { .. }
                                | ContainerError::GamesMismatch { .. }
                                | ContainerError::AfterEnd { .. })
                        ),
                        "{what}: {result:?}"
                    );
                }
            }
        }
        assert_eq!(
            read,
            3 * 5,
            "each file whole, and its 4 prefixes (0 to 3 blocks)"
        );
    }
}
