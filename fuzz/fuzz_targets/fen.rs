//! FEN / X-FEN / Shredder-FEN parser. Any position that parses must round-trip through both FEN
//! notations and every position codec, and the bitboard and 0x88 generators must agree on it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shannon::codec::position::PositionCodec;
use shannon::movegen::{Generator, MoveList};
use shannon::{FenCastling, Position};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(pos) = Position::from_fen(&text) else {
        return;
    };
    assert_eq!(pos.consistency_error(), None);
    for notation in [FenCastling::XFen, FenCastling::Shredder] {
        let again = Position::from_fen(&pos.fen(notation)).expect("our FEN parses");
        assert_eq!(again, pos);
    }
    for codec in PositionCodec::ALL {
        let decoded = codec.decode(&codec.encode(&pos)).expect("our code decodes");
        assert_eq!(
            decoded.fen(FenCastling::Shredder),
            pos.fen(FenCastling::Shredder),
            "{codec:?}"
        );
    }
    let mut fast = MoveList::new();
    let mut reference = MoveList::new();
    Generator::Bitboard.legal_moves(&pos, &mut fast);
    Generator::Mailbox0x88.legal_moves(&pos, &mut reference);
    let mut a: Vec<u16> = fast.iter().map(|m| m.to_bits()).collect();
    let mut b: Vec<u16> = reference.iter().map(|m| m.to_bits()).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(
        a,
        b,
        "generators disagree in {}",
        pos.fen(FenCastling::Shredder)
    );
});
