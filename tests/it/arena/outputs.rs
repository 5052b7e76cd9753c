//! Output files are checked before the work starts (issue 26): a match's `--report`, the audit's
//! `--json` and merge's outputs were written only at the end, so a wrong path lost the run.

use super::{run, scratch, SHANNON};
use crate::common::MatchLine;
use std::process::Command;

#[test]
fn a_match_report_path_is_checked_before_any_game() {
    let dir = scratch("report-first");
    let (ok, out, err) = MatchLine::new()
        .games(2)
        .tc("nodes=1")
        .pgn("games.pgn")
        .arg("--report", "/nonexistent-dir/report.html")
        .quiet()
        .run_in(&dir);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("cannot write the report /nonexistent-dir/report.html"),
        "{err}"
    );
    assert!(!dir.join("games.pgn").exists(), "a game was played");
}

#[test]
fn an_audit_json_path_is_checked_before_the_engine_starts() {
    let dir = scratch("audit-json-first");
    let (ok, out, err) = run(
        &[
            "audit",
            "--engine",
            "shannon-a",
            "--quick",
            "--quiet",
            "--json",
            "/nonexistent-dir/audit.json",
        ],
        &dir,
    );
    assert!(!ok);
    assert!(out.is_empty(), "no check ran: {out}");
    assert!(
        err.contains("cannot write the JSON report /nonexistent-dir/audit.json"),
        "{err}"
    );
}

#[test]
fn merge_outputs_are_checked_before_reading_the_shards() {
    let dir = scratch("merge-first");
    for flag in ["--json", "--plot", "--pgn", "--report"] {
        let out = Command::new(SHANNON)
            .args(["merge", "a.json", flag, "/nonexistent-dir/x"])
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag}: {err}");
        assert!(
            err.contains("cannot write the") && err.contains("/nonexistent-dir/x"),
            "{flag}: {err}"
        );
    }
}

/// Issue 20: a file that is neither kind was reported as "not a random-games report".
#[test]
fn merge_names_a_file_that_is_neither_a_state_nor_a_report_and_what_it_is() {
    let dir = scratch("merge-neither");
    let cases = [
        ("text.txt", "hello\n", "not JSON"),
        ("empty.json", "", "an empty file"),
        (
            "object.json",
            "{\"games\": 3}",
            "a JSON object with the keys games",
        ),
        (
            "old-state.json",
            "{\"format\": \"shannon match state 0\"}",
            "a match state of format 'shannon match state 0'",
        ),
        (
            "checkpoint.json",
            "{\"experiment\": {}, \"done\": 0, \"seconds\": 0, \"lengths\": []}",
            "a random-games checkpoint",
        ),
    ];
    for (file, content, found) in cases {
        std::fs::write(dir.join(file), content).unwrap();
        let out = Command::new(SHANNON)
            .args(["merge", file])
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{file}: {err}");
        assert!(
            err.contains(&format!(
                "{file} is neither a match state nor a random-games report: {found}"
            )),
            "{file}: {err}"
        );
    }
}
