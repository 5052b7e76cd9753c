//! Zobrist hashing keys, generated at compile time by a fixed-seed SplitMix64 stream so that keys
//! (and the `Key:` that `d` prints) are the same in every build and every process.

use crate::types::splitmix::SplitMix;

struct Keys {
    pieces: [[u64; 64]; 12],
    castling: [[u64; 8]; 2],
    en_passant: [u64; 8],
    side: u64,
}

const KEYS: Keys = {
    let mut stream = SplitMix::new(0x5348_414E_4E4F_4E31); // "SHANNON1"
    let mut keys = Keys {
        pieces: [[0; 64]; 12],
        castling: [[0; 8]; 2],
        en_passant: [0; 8],
        side: 0,
    };
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            keys.pieces[p][s] = stream.next_u64();
            s += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut f = 0;
        while f < 8 {
            keys.castling[c][f] = stream.next_u64();
            f += 1;
        }
        c += 1;
    }
    let mut f = 0;
    while f < 8 {
        keys.en_passant[f] = stream.next_u64();
        f += 1;
    }
    keys.side = stream.next_u64();
    keys
};

/// Key of a piece (index 0..12, see `Piece::index`) on a square (0..64).
#[inline(always)]
pub(crate) fn piece(piece_index: usize, square: usize) -> u64 {
    KEYS.pieces[piece_index][square]
}

/// Key of a castling right, identified by its colour and rook file.
#[inline(always)]
pub(crate) fn castling(color: usize, rook_file: crate::File) -> u64 {
    KEYS.castling[color][rook_file.index() as usize]
}

/// Key of an en passant file (only mixed in when a legal en passant capture exists).
#[inline(always)]
pub(crate) fn en_passant(file: crate::File) -> u64 {
    KEYS.en_passant[file.index() as usize]
}

/// Key mixed in when Black is to move.
#[inline(always)]
pub(crate) fn side() -> u64 {
    KEYS.side
}
