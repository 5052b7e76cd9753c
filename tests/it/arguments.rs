//! Arguments that cannot work are refused as arguments, before any work (issue 26: `perft-check
//! --timeout 0` was accepted and then failed with `no readyok within 0 ms`; `bench uci --rounds
//! 0` ran with a default instead).

use std::process::Command;

use crate::common::SHANNON;

#[test]
fn zero_where_at_least_one_is_needed_is_refused_by_the_argument_parser() {
    let cases: [&[&str]; 5] = [
        &[
            "perft-check",
            "--engine",
            "shannon-a",
            "--depth",
            "1",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "--timeout",
            "0",
        ],
        &["bench", "uci", "--rounds", "0"],
        &["bench", "playout", "--games", "0"],
        &["bench", "soak", "--requests", "0"],
        &["random-games", "--games", "0"],
    ];
    for args in cases {
        let out = Command::new(SHANNON).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?} did some work");
        assert!(err.contains("error: invalid value '0'"), "{args:?}: {err}");
    }
}

/// Issue 45, item 11: an unquoted FEN gave clap's "unexpected argument 'w'" alone; it now says
/// to quote the FEN, and shows it quoted.
#[test]
fn an_unquoted_fen_gets_a_hint_to_quote_it() {
    let args = "perft 3 --fen 8/8/8/8/8/8/8/k6K w - - 0 1 --divide";
    let out = Command::new(SHANNON)
        .args(args.split(' '))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("unexpected argument 'w'"), "{err}");
    assert!(
        err.contains("hint: a FEN is one argument with spaces in it: quote it, as --fen \"8/8/8/8/8/8/8/k6K w - - 0 1\""),
        "{err}"
    );
    // A quoted one runs.
    let out = Command::new(SHANNON)
        .args(["perft", "3", "--fen", "8/8/8/8/8/8/8/k6K w - - 0 1"])
        .output()
        .unwrap();
    assert!(out.status.success());
}
