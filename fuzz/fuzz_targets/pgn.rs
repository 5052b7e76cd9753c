//! The PGN reader on arbitrary text. Every game it accepts replays legally (the reader checks each
//! move) and survives a write + read round trip with the same moves and result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shannon::notation::pgn::{read_games, write_game, Comments};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for game in read_games(&text).into_iter().flatten() {
        let written = write_game(&game, &Comments::default()).expect("a read game writes");
        let again = read_games(&written);
        assert_eq!(again.len(), 1, "{written}");
        let again = again
            .into_iter()
            .next()
            .unwrap()
            .expect("a written game reads");
        assert_eq!(again.moves, game.moves);
        assert_eq!(again.start, game.start);
    }
});
