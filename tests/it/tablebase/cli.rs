//! `shannon tablebase probe` and `verify` as a user runs them: FENs from the arguments or stdin,
//! a line per position, errors on stderr with the exit status 1, folders that cannot be read
//! with 2.

use super::tables;
use crate::common::{Scratch, SHANNON};
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn shannon(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(SHANNON)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn probe_prints_a_line_per_position_and_reports_bad_ones() {
    let Some(folder) = tables() else {
        return;
    };
    let tb = folder.to_str().unwrap();
    let out = shannon(
        &[
            "tablebase",
            "probe",
            "--tb",
            tb,
            "8/8/8/8/8/2k5/8/KQ6 w - - 0 1",
            "8/8/8/8/8/2k5/8/KQ6 b - - 0 1",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "8/8/8/8/8/2k5/8/KQ6 w - - 0 1\twin\n8/8/8/8/8/2k5/8/KQ6 b - - 0 1\tloss\n"
    );
    // From stdin, with a blank line, a bad FEN, castling rights and eight pieces (more than
    // any table) among good ones.
    let input = "8/8/2K5/4P3/8/8/8/3r3k b - - 1 1\n\n\
                 not a fen\n\
                 4k3/8/8/8/8/8/8/4K2R w K - 0 1\n\
                 8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2\n\
                 4k3/8/8/8/8/8/1PPPPP2/3QK3 w - - 0 1\n\
                 7k/8/8/4K2B/8/4B3/8/8 w - - 12 7\n";
    let out = shannon(&["tablebase", "probe", "--tb", tb], input);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "8/8/2K5/4P3/8/8/8/3r3k b - - 1 1\tdraw\n\
         8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2\twin\n\
         7k/8/8/4K2B/8/4B3/8/8 w - - 12 7\twin\n"
    );
    let errors = text(&out.stderr);
    assert_eq!(errors.lines().count(), 3, "{errors}");
    assert!(errors.contains("line 3: 'not a fen'"), "{errors}");
    assert!(
        errors.contains("line 4: ") && errors.contains("castling"),
        "{errors}"
    );
    assert!(
        errors.contains("line 6: ") && errors.contains("8 pieces"),
        "{errors}"
    );
}

#[test]
fn verify_lists_every_table() {
    let Some(folder) = tables() else {
        return;
    };
    let out = shannon(
        &["tablebase", "verify", "--tb", folder.to_str().unwrap()],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let count = std::fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "rtbw"))
        .count();
    assert_eq!(
        report.lines().filter(|l| l.starts_with("ok ")).count(),
        count
    );
    assert!(
        report.contains(&format!("{count} tables, 0 damaged; the largest hold ")),
        "{report}"
    );
    // A damaged copy is reported, with the exit status 1.
    let scratch = Scratch::new("tb-cli-verify");
    let mut bytes = std::fs::read(folder.join("KQvKR.rtbw")).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(scratch.join("KQvKR.rtbw"), &bytes).unwrap();
    let out = shannon(
        &["tablebase", "verify", "--tb", scratch.to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("damaged  "),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn folders_that_cannot_be_opened_stop_the_command() {
    let scratch = Scratch::new("tb-cli-folder");
    let missing = scratch.join("missing");
    let out = shannon(
        &[
            "tablebase",
            "probe",
            "--tb",
            missing.to_str().unwrap(),
            "8/8/8/8/8/2k5/8/KQ6 w - - 0 1",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stdout).is_empty());
    let errors = text(&out.stderr);
    assert!(
        errors.starts_with("shannon: cannot read the tablebase folder")
            && errors.contains("missing"),
        "{errors}"
    );
}
