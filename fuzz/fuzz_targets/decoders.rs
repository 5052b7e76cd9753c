//! Every position and game decoder on arbitrary input: no panic, and whatever decodes must encode
//! back to the same code (each code names one position or game, and no code names a wrong one).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shannon::codec::position::{Bits, PositionCodec};
use shannon::codec::GameCodec;

fuzz_target!(|data: &[u8]| {
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
        let mut exact = Bits::new();
        for &bit in &bits.as_slice()[..keep] {
            exact.push(bit);
        }
        if let Ok(pos) = codec.decode(&exact) {
            assert_eq!(codec.encode(&pos), exact, "{codec:?}");
        }
    } else {
        let codec = GameCodec::ALL[(selector as usize >> 1) % GameCodec::ALL.len()];
        if let Ok(game) = codec.decode(rest) {
            assert_eq!(
                codec.encode(&game).expect("a decoded game encodes"),
                rest,
                "{codec:?}"
            );
        }
    }
});
