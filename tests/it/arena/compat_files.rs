//! Issue 30, item 1, in cutechess-cli's and fastchess's form: a second run with the same
//! `-pgnout` emptied the first run's PGN. Both tools append to an existing PGN (two 6-game runs
//! leave 12 games: fastchess 1.8.2-alpha and cutechess-cli 1.5.1 checked side by side), and so
//! does Shannon now, its state saying where its own games start, so that a resume and a merge
//! take only those. The same command line after a kill continues the killed run, and a second
//! run while the first still writes the PGN is refused.

use super::reruns::{killed_after, started_until};
use super::{read_pgn, scratch, tag};
use crate::common::MatchLine;
use crate::common::{run, SHANNON};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// A fastchess command line of two Shannons at one node a move, `rounds` game pairs, `-pgnout`
/// and `-epdout` as given (each a list of words).
fn fastchess(rounds: u32, pgnout: &[&str], more: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "match",
        "-engine",
        &format!("cmd={SHANNON}"),
        "name=a",
        "-engine",
        &format!("cmd={SHANNON}"),
        "name=b",
        "-each",
        "proto=uci",
        "tc=inf",
        "nodes=1",
        "-rounds",
        &rounds.to_string(),
        "-games",
        "2",
        "-repeat",
        "-concurrency",
        "2",
        "-srand",
        "5",
        "-pgnout",
    ]
    .map(String::from)
    .to_vec();
    args.extend(pgnout.iter().map(|w| w.to_string()));
    args.extend(more.iter().map(|w| w.to_string()));
    args
}

fn go(args: &[String], dir: &Path) -> (bool, String, String) {
    run(&args.iter().map(String::as_str).collect::<Vec<_>>(), dir)
}

fn rounds(pgn: &Path) -> Vec<u32> {
    read_pgn(pgn)
        .iter()
        .map(|g| tag(g, "Round").parse().unwrap())
        .collect()
}

fn state(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn two_compat_runs_on_one_pgn_leave_both_runs_games() {
    let dir = scratch("compat-append");
    let args = fastchess(3, &["file=c.pgn"], &["-epdout", "file=c.epd"]);
    let (ok, out, err) = go(&args, &dir);
    assert!(ok, "{out}{err}");
    let first = std::fs::read(dir.join("c.pgn")).unwrap();
    let (ok, out, err) = go(&args, &dir);
    assert!(ok, "{out}{err}");
    for said in [
        "shannon: note: c.pgn holds 6 games: this run's games are appended after them",
        "shannon: note: c.epd holds 6 positions: this run's games are appended",
        "c.pgn.state.json held the state of an earlier, finished run: kept as c.pgn.state-1.json",
    ] {
        assert!(err.contains(said), "{said:?} not in: {err}");
    }
    let pgn = std::fs::read(dir.join("c.pgn")).unwrap();
    assert!(pgn.starts_with(&first), "the first run's games changed");
    let mut seen = rounds(&dir.join("c.pgn"));
    assert_eq!(seen.len(), 12, "two 6-game runs leave 12 games");
    seen.sort();
    assert_eq!(seen, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    let epd = std::fs::read_to_string(dir.join("c.epd")).unwrap();
    assert_eq!(epd.lines().count(), 12);
    // Each state knows its own games: the second's start where the first's end.
    let (earlier, later) = (
        state(&dir.join("c.pgn.state-1.json")),
        state(&dir.join("c.pgn.state.json")),
    );
    assert_eq!(later["format"], shannon::arena::STATE_FORMAT);
    assert_eq!(earlier["pgn"]["start"], 0);
    assert_eq!(later["pgn"]["start"], first.len());
    assert_eq!(later["pgn"]["committed"], pgn.len());
    // Either resumes as the finished run it is, touching nothing.
    for saved in ["c.pgn.state-1.json", "c.pgn.state.json"] {
        let (ok, out, err) = MatchLine::new().arg("--resume", saved).quiet().run_in(&dir);
        assert!(ok && out.contains("the match is finished"), "{out}{err}");
        assert_eq!(std::fs::read(dir.join("c.pgn")).unwrap(), pgn);
    }

    // cutechess-cli's form appends the same way.
    let cutechess = fastchess(3, &["d.pgn"], &[]);
    for _ in 0..2 {
        let (ok, out, err) = go(&cutechess, &dir);
        assert!(ok, "{out}{err}");
    }
    assert_eq!(rounds(&dir.join("d.pgn")).len(), 12);

    // fastchess's append=false (fishtest's worker gives it) empties the file, as fastchess does.
    let replace = fastchess(3, &["file=c.pgn", "append=false"], &[]);
    let (ok, out, err) = go(&replace, &dir);
    assert!(ok, "{out}{err}");
    assert!(
        err.contains("c.pgn held 12 games before this run: replaced, as append=false asks"),
        "{err}"
    );
    assert_eq!(rounds(&dir.join("c.pgn")).len(), 6);
}

/// A run appended after an earlier one, interrupted and resumed: the resume cuts back only its
/// own unfinished games, and a merge of its state takes only its own games.
#[test]
fn an_appended_run_resumes_and_merges_only_its_own_games() {
    let dir = scratch("compat-append-resume");
    let (ok, out, err) = go(&fastchess(3, &["file=c.pgn"], &[]), &dir);
    assert!(ok, "{out}{err}");
    let first = std::fs::read(dir.join("c.pgn")).unwrap();
    let second = fastchess(100, &["file=c.pgn"], &[]);
    let second: Vec<&str> = second.iter().map(String::as_str).collect();
    let child = started_until(&second, &dir, "c.pgn", first.len() as u64 + 20_000);
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1), "interrupted");
    let (ok, out, err) = MatchLine::new()
        .arg("--resume", "c.pgn.state.json")
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let pgn = std::fs::read(dir.join("c.pgn")).unwrap();
    assert!(pgn.starts_with(&first), "the first run's games changed");
    let games = read_pgn(&dir.join("c.pgn"));
    assert_eq!(games.len(), 6 + 200);
    assert!(games.iter().all(|g| tag(g, "Result") != "*"));
    let mut own: Vec<u32> = rounds(&dir.join("c.pgn"))[6..].to_vec();
    own.sort();
    assert_eq!(
        own,
        (1..=200).collect::<Vec<u32>>(),
        "the second run's games, once"
    );
    let (ok, out, err) = run(&["merge", "c.pgn.state.json", "--pgn", "merged.pgn"], &dir);
    assert!(ok, "{out}{err}");
    assert_eq!(read_pgn(&dir.join("merged.pgn")).len(), 200);
}

/// The same command line again after a kill -9: the unfinished run of the same settings is
/// continued (a note says so), and ends with the games of an uninterrupted run, each once.
#[test]
fn the_same_compat_command_line_after_a_kill_continues_its_run() {
    let dir = scratch("compat-kill-rerun");
    let args = fastchess(60, &["file=k.pgn"], &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    killed_after(&args, &dir, "k.pgn", 20_000);
    let (ok, out, err) = run(&args, &dir);
    assert!(ok, "{out}{err}");
    assert!(
        err.contains("k.pgn.state.json holds an unfinished run of this command line (")
            && err.contains("continuing it"),
        "{err}"
    );
    let reference = fastchess(60, &["file=ref.pgn"], &[]);
    let (ok, out, err) = go(&reference, &dir);
    assert!(ok, "{out}{err}");
    let moves = |pgn: &str| -> BTreeMap<u32, usize> {
        read_pgn(&dir.join(pgn))
            .iter()
            .map(|g| (tag(g, "Round").parse().unwrap(), g.record.moves.len()))
            .collect()
    };
    let (killed, uninterrupted) = (moves("k.pgn"), moves("ref.pgn"));
    assert_eq!(killed.len(), 120);
    assert_eq!(read_pgn(&dir.join("k.pgn")).len(), 120, "a game twice");
    assert_eq!(killed, uninterrupted);
}

/// A second compat run pointed at the PGN (or with its EPD on the PGN) of a run that is still
/// playing is refused at once, naming the file and the first run's pid, and writes nothing.
#[cfg(unix)]
#[test]
fn a_second_compat_run_on_a_running_runs_pgn_is_refused() {
    let dir = scratch("compat-two-runs");
    let args = fastchess(500, &["file=c.pgn"], &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut first = started_until(&args, &dir, "c.pgn", 5_000);
    let pid = format!("pid {}", first.id());
    let again = fastchess(3, &["file=c.pgn"], &[]);
    let epd_on_it = fastchess(3, &["file=b.pgn"], &["-epdout", "file=c.pgn"]);
    for (args, named) in [(&again, "c.pgn.state.json"), (&epd_on_it, "c.pgn")] {
        let before = std::fs::metadata(dir.join("c.pgn")).unwrap().len();
        let (ok, out, err) = go(args, &dir);
        assert!(!ok, "{out}{err}");
        assert!(
            err.contains(&format!("{named} is in use by another run ({pid} on host")),
            "{err}"
        );
        assert!(std::fs::metadata(dir.join("c.pgn")).unwrap().len() >= before);
    }
    assert!(!dir.join("b.pgn").exists() && !dir.join("b.pgn.state.json").exists());
    assert!(first.try_wait().unwrap().is_none(), "the first run ended");
    first.kill().unwrap();
    first.wait().unwrap();
}

/// A run appended to a PGN numbers its forensics files after the earlier run's, which it never
/// writes over; `append=false` replaces them with the PGN.
#[test]
fn an_appended_run_keeps_the_earlier_runs_forensics() {
    let dir = scratch("compat-append-forensics");
    let args: Vec<String> = [
        "match",
        "-engine",
        &format!("cmd={SHANNON}"),
        "name=good",
        "-engine",
        &format!("cmd={}", crate::common::FAULTY),
        "name=bad",
        "args=--fault crash",
        "-each",
        "proto=uci",
        "tc=inf",
        "nodes=1",
        "-rounds",
        "1",
        "-games",
        "2",
        // Both games lost by a crash: played on (without it, the first stops the run).
        "-recover",
        "-pgnout",
        "file=c.pgn",
    ]
    .map(String::from)
    .to_vec();
    let read = |name: &str| std::fs::read_to_string(dir.join("c.pgn.forensics").join(name));
    let (_, out, err) = go(&args, &dir);
    assert!(read("2.txt").is_ok(), "no forensics: {out}{err}");
    let first = [read("1.txt").unwrap(), read("2.txt").unwrap()];
    let (_, out, err) = go(&args, &dir);
    assert!(err.contains("c.pgn holds 2 games"), "{out}{err}");
    assert_eq!([read("1.txt").unwrap(), read("2.txt").unwrap()], first);
    for file in ["3.txt", "4.txt"] {
        assert!(read(file).unwrap().contains("Engine: bad"), "{file}");
        // The PGN's last comment names it (its line may break before the name).
        let named = format!("c.pgn.forensics/{file}}}");
        assert!(std::fs::read_to_string(dir.join("c.pgn"))
            .unwrap()
            .contains(&named));
    }
    let mut replace = args.clone();
    replace.push("append=false".into());
    let (_, out, err) = go(&replace, &dir);
    assert!(
        err.contains("c.pgn.forensics held 4 forensics files before this run: replaced"),
        "{out}{err}"
    );
    assert!(read("1.txt").is_ok() && read("3.txt").is_err());
}
