//! The protocol around the game: `uci` and its options, unknown commands, `setoption`, `debug`
//! and the debug log, logging to stderr, and how the process ends.

use super::{bestmoves, errors, script, BIN};
use crate::common::Scratch;
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn uci_prints_id_name_and_author_on_two_lines_then_options_then_uciok() {
    // vampirc-uci's Id{name, author} would drop the author.
    let lines = script("uci\n");
    assert!(lines[0].starts_with("id name Shannon "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    for option in [
        "option name UCI_Chess960 type check default false",
        "option name Seed type spin default 0 min 0 max 2147483647",
        "option name Threads type spin",
        "option name Hash type spin",
        "option name Move Overhead type spin",
        "option name Move Generator type combo default bitboard var bitboard var 0x88",
        "option name Debug Log File type string default <empty>",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(option)), "{option}");
    }
    assert_eq!(lines.last().unwrap(), "uciok");
}

#[test]
fn isreadyx_is_not_isready() {
    let lines = script("isreadyx\n");
    assert_eq!(lines, vec!["info string error: unknown command 'isreadyx'"]);
}

#[test]
fn unknown_leading_tokens_are_skipped_as_the_specification_says() {
    let lines = script("joho isready\n");
    assert_eq!(lines, vec!["readyok"]);
}

#[test]
fn setoption_names_ignore_case_and_trailing_spaces_are_trimmed() {
    // vampirc-uci keeps "32   " as the value.
    let lines = script("setoption name Hash value 32   \nsetoption name hash value 8\nsetoption name UCI_CHESS960 value true\nsetoption name move overhead value 30\nsetoption name Threads value 0\nsetoption name Nonsense value 1\nsetoption name valueless value 3\nsetoption name Seed value x\nisready\n");
    let errs = errors(&lines);
    assert_eq!(errs.len(), 4, "{lines:?}");
    assert!(errs[0].contains("Threads"));
    assert!(errs[1].contains("'Nonsense'"));
    // vampirc-uci refuses names starting with "value"; the engine still names the option.
    assert!(errs[2].contains("'valueless'"), "{errs:?}");
    assert!(errs[3].contains("Seed"));
}

#[test]
fn debug_log_file_mirrors_traffic_and_empty_turns_it_off() {
    let dir = Scratch::new("uci-log");
    let path = dir.join("traffic.log");
    let _ = std::fs::remove_file(&path);
    script(&format!(
        "setoption name Debug Log File value {}\nisready\nsetoption name Debug Log File value <empty>\nisready\n",
        path.display()
    ));
    let log = std::fs::read_to_string(&path).unwrap();
    // The line that opened the file came before it was open; the line that closes it is kept.
    assert_eq!(
        log,
        ">> isready\n<< readyok\n>> setoption name Debug Log File value <empty>\n"
    );
    let lines = script("setoption name Debug Log File value /nonexistent-dir/x.log\n");
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
}

#[test]
fn debug_on_traces_and_register_is_ignored() {
    let lines = script("debug on\nregister later\nposition startpos moves e2e4\nposition startpos moves e2e4 e7e5\ngo\ndebug off\ngo\n");
    assert!(
        lines.contains(&"info string debug: position extended by 1 move(s); 2 held".to_string()),
        "{lines:?}"
    );
    assert!(lines.contains(&"info string game state: ongoing".to_string()));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let debug_lines = lines
        .iter()
        .filter(|l| l.starts_with("info string debug"))
        .count();
    let after_off = lines
        .iter()
        .skip_while(|l| !l.contains("debug off"))
        .count();
    assert!(debug_lines >= 4, "{lines:?}");
    assert_eq!(after_off, 0, "{lines:?}");
}

#[test]
fn end_of_input_and_quit_exit_zero() {
    assert!(script("").is_empty());
    assert!(script("quit\nisready\n").is_empty());
}

#[test]
fn a_closed_stdout_ends_the_engine_quietly() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    // The engine may exit before all of this is written; that is the point.
    for _ in 0..100 {
        if writeln!(stdin, "uci\ngo").is_err() {
            break;
        }
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{:?}", output.status);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn rust_log_goes_to_stderr_only() {
    let output = Command::new(BIN)
        .env("RUST_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(b"isready\n")?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout), "readyok\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(">> isready") && stderr.contains("<< readyok"),
        "{stderr}"
    );
}

#[test]
fn a_script_piped_in_gets_every_answer_when_it_has_no_count() {
    let lines = script("position startpos\ngo depth 1\nposition fen 7k/8/8/8/8/8/8/R6K w - - 0 1\ngo depth 1\nisready\nquit\n");
    assert_eq!(bestmoves(&lines).len(), 2, "{lines:?}");
    assert_eq!(lines.last().unwrap(), "readyok");
}

/// Issue 45, item 11: `help` was "unknown command"; it lists the commands, as Stockfish's does,
/// and the engine goes on.
#[test]
fn help_lists_the_commands() {
    let lines = script("help\nisready\n");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    for command in ["  uci ", "  go perft N ", "  position fen FEN", "  quit "] {
        assert!(
            lines.iter().any(|l| l.starts_with(command)),
            "no {command:?} in {lines:?}"
        );
    }
    assert_eq!(lines.last().unwrap(), "readyok");
}

/// Issue 45, item 11: at a terminal (a person, not a GUI) the engine says what it is on stderr;
/// on a pipe, as a GUI runs it, it says nothing before `uci`. The terminal is the one `script`
/// (util-linux) makes; the test is skipped without it.
#[test]
fn a_one_line_banner_on_stderr_at_a_terminal_only() {
    let at_terminal = Command::new("script")
        .args(["-q", "-e", "-c", &format!("{BIN} 2>&1"), "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = at_terminal else {
        crate::common::peer_missing("script (util-linux) is not installed", false);
        return;
    };
    child.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Shannon ") && text.contains("help lists the commands, quit leaves"),
        "{text}"
    );
    let piped = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = piped.wait_with_output().unwrap();
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
}
