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
