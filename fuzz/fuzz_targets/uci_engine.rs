//! The whole UCI state machine fed arbitrary lines. Afterwards `isready` must get `readyok` and
//! the game the engine holds (its `d` FEN) must be a legal position. Lines that would make a run
//! slow or touch the file system (`go perft`, `Debug Log File`) and `quit` are left out.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shannon::Position;

fuzz_target!(|data: &[u8]| {
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
});
