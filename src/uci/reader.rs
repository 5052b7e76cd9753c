//! The input thread: reads the GUI's lines on its own thread so that the engine can answer
//! `isready` and `stop` while a `go perft` counts, and hands each line to the engine loop as an
//! [`Event`].
//!
//! Lines are split on `\n`, a trailing `\r` is dropped (CRLF from Windows GUIs), invalid UTF-8 is
//! decoded lossily, and a line may be as long as memory allows (a 5,000-ply `position` command is
//! about 25 KB). End of input and read errors both end the stream with [`Event::Eof`].

use super::event::Event;
use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;

/// Start reading `input` on a new thread; every line is sent to `events`.
pub fn spawn<R: Read + Send + 'static>(input: R, events: Sender<Event>) -> JoinHandle<()> {
    std::thread::Builder::new()
        .name("uci-input".to_string())
        .spawn(move || read_lines(input, &events))
        .expect("the input thread starts")
}

fn read_lines<R: Read>(input: R, events: &Sender<Event>) {
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut buffer = Vec::with_capacity(256);
    loop {
        buffer.clear();
        match reader.read_until(b'\n', &mut buffer) {
            Ok(0) => break,
            Ok(_) => {
                if events.send(Event::Line(decode_line(&buffer))).is_err() {
                    return; // The engine has quit.
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::info!("cannot read input ({e}); treating it as its end");
                break;
            }
        }
    }
    let _ = events.send(Event::Eof);
}

/// The text of one raw line: without its line ending, invalid UTF-8 replaced.
pub fn decode_line(raw: &[u8]) -> String {
    let mut end = raw.len();
    while end > 0 && matches!(raw[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    String::from_utf8_lossy(&raw[..end]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_endings_and_bad_bytes() {
        assert_eq!(decode_line(b"isready\r\n"), "isready");
        assert_eq!(decode_line(b"isready"), "isready");
        assert_eq!(decode_line(b"go \xff\xfe\n"), "go \u{fffd}\u{fffd}");
    }

    #[test]
    fn every_line_then_eof() {
        let (tx, rx) = std::sync::mpsc::channel();
        read_lines(&b"uci\r\n\nquit"[..], &tx);
        let events: Vec<Event> = rx.try_iter().collect();
        assert_eq!(
            events,
            vec![
                Event::Line("uci".into()),
                Event::Line(String::new()),
                Event::Line("quit".into()),
                Event::Eof
            ]
        );
    }
}
