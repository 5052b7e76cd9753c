//! Issue 31: what stops a run, and what is said about it, in the tools' words. An engine that
//! cannot start stops the run at once (fastchess's `Fatal; <name> engine startup failure`, exit
//! status 1), its game left unplayed for the re-run that continues it; without `-recover` a
//! crash or a stall (`-ping-ms`) stops it after that game; an option the engine does not have
//! or a value it does not take, and an illegal move, are warned about as fastchess and
//! cutechess-cli warn (fishtest's worker stops a task on these lines).

use super::{read_pgn, scratch, tag, FAULTY};
use crate::common::SHANNON;
use std::path::Path;
use std::process::Command;

/// `shannon match` with the words of `line` (split as a shell splits them, `{faulty}` and
/// `{shannon}` put in) in `dir`: (exit code, stdout, stderr).
fn compat(dir: &Path, line: &str) -> (Option<i32>, String, String) {
    let line = line.replace("{faulty}", FAULTY);
    let output = Command::new(SHANNON)
        .arg("match")
        .args(super::compat::shell_words(&line, ""))
        .current_dir(dir)
        .output()
        .expect("shannon runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// An executable script at `dir/name` that runs `program` with `args`.
#[cfg(unix)]
fn script(dir: &Path, name: &str, program: &str, args: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let text = format!("#!/bin/sh\nexec {program} {args} \"$@\"\n");
    // Written beside and renamed: the old script may still be running.
    let temporary = dir.join(format!(".{name}.new"));
    std::fs::write(&temporary, text).unwrap();
    std::fs::set_permissions(&temporary, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::rename(&temporary, &path).unwrap();
}

/// An engine that never answers `uci` (fastchess's e2e `missing_engine.sh` does the same)
/// stops the run at its first game with fastchess's line and exit status 1, however many games
/// were asked and with `-recover`; the game is not played. The same command line run again,
/// the engine mended, continues the run and plays every game.
#[cfg(unix)]
#[test]
fn an_engine_that_cannot_start_stops_the_run_and_a_rerun_plays_its_game() {
    let dir = scratch("stops-startup");
    script(&dir, "engine", FAULTY, "--fault no-uciok");
    let line = "-engine cmd=./engine name=dev -engine cmd={shannon} name=base -each nodes=1 \
                -rounds 2 -games 2 -concurrency 2 -recover -startup-ms 500 -pgnout file=g.pgn";
    let started = std::time::Instant::now();
    let (code, out, err) = compat(&dir, line);
    assert!(started.elapsed().as_secs() < 30, "it stops at once");
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains(
            "Fatal; dev engine startup failure: \"Engine didn't respond to uciok after startup\"\n"
        ),
        "{out}"
    );
    assert!(!out.contains("Finished game"), "{out}");
    assert!(!out.contains("disconnects"), "{out}");
    let pgn = std::fs::read_to_string(dir.join("g.pgn")).unwrap_or_default();
    assert!(!pgn.contains("[Event"), "nothing is played: {pgn}");
    // The engine mended, the same command line continues the run.
    script(&dir, "engine", SHANNON, "");
    let (code, out, err) = compat(&dir, line);
    assert_eq!(code, Some(0), "{out}{err}");
    let games = read_pgn(&dir.join("g.pgn"));
    assert_eq!(games.len(), 4, "{out}{err}");
    for game in &games {
        assert_ne!(tag(game, "Termination"), "abandoned");
    }
}

/// cutechess-cli's form: its own warning on stderr for an engine it cannot start.
#[test]
fn cutechess_form_warns_of_an_engine_that_cannot_start() {
    let dir = scratch("stops-startup-cutechess");
    let line = "-engine cmd={faulty} arg=--fault arg=no-uciok name=dev -engine cmd={shannon} \
                name=base -each proto=uci tc=inf nodes=1 -rounds 1 -games 2 -pgnout g.pgn";
    let (code, out, err) = compat(&dir, line);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        err.contains("Warning: Could not initialize player dev: "),
        "{err}"
    );
    assert!(out.contains("Finished match"), "{out}");
    assert!(!out.contains("Finished game"), "{out}");
}

/// fastchess's e2e engine_recovery, its three runs with Shannon's faulty engine in the place of
/// its `scripted_result` mock (and `-games 2` for its `-games 1 -noswap`): a crash on every
/// `go` with `-recover` is a disconnect in every game, counted; without `-recover` the first
/// stops the tournament (exit status 1, the game counted and in the PGN); a stall found by
/// `-ping-ms` is a stall.
#[test]
fn fastchess_recovery_crash_and_stall() {
    let dir = scratch("stops-recovery");
    let crasher = "-engine cmd={faulty} 'args=--fault crash --after 1' name=crasher";
    let healthy = "-engine cmd={shannon} name=healthy";
    let (code, out, err) = compat(
        &dir,
        &format!("{crasher} {healthy} -each nodes=1 -rounds 2 -repeat -concurrency 1 -recover"),
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("disconnects}"), "{out}");
    assert!(out.contains("Crashed: 4"), "{out}");
    assert!(out.contains("Finished game 4"), "{out}");

    let (code, out, err) = compat(
        &dir,
        &format!(
            "{crasher} {healthy} -each nodes=1 -rounds 2 -repeat -concurrency 1 \
             -pgnout file=norecover.pgn"
        ),
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains(
            "Game 1 stalled / disconnected and no recover option set for engine, stopping \
             tournament.\nFinished game 1 (crasher vs healthy): 0-1 {White disconnects}\n"
        ),
        "{out}"
    );
    assert!(!out.contains("Finished game 2"), "{out}");
    assert_eq!(read_pgn(&dir.join("norecover.pgn")).len(), 1);

    // Answers an `isready` straight after another only after 3 s: the ping after its move,
    // then the one before its next, finds it stalled.
    let staller = "-engine cmd={faulty} 'args=--fault slow-isready' name=staller";
    let (code, out, err) = compat(
        &dir,
        &format!(
            "{staller} {healthy} -each nodes=1 -games 2 -rounds 1 -concurrency 1 -recover \
             -ping-ms 50"
        ),
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("stalls}"), "{out}");
    assert!(
        out.contains("Warning; Engine staller is not responsive"),
        "{out}"
    );
    assert!(out.contains("Finished game 1"), "{out}");
}

/// fastchess's e2e engine_diagnostics, its first run with Shannon's faulty engine (which has
/// `Hash` 1..1024 and no `Threads`): both warnings, in fastchess's words, and no runtime error
/// (the script's `check_no_engine_runtime_errors`); cutechess-cli's words on stderr in its
/// form. An illegal move gets fastchess's warning.
#[test]
fn option_and_illegal_move_warnings_in_each_tools_words() {
    let dir = scratch("stops-warnings");
    let engines = "-engine cmd={faulty} 'args=--fault none' name=random_move_1 \
                   -engine cmd={faulty} 'args=--fault none' name=random_move_2";
    let (code, out, err) = compat(
        &dir,
        &format!(
            "{engines} -each tc=2+0.02 option.Hash=-16 option.Threads=2 -rounds 2 -repeat \
             -concurrency 2"
        ),
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("Warning; random_move_1 doesn't have option Threads\n"),
        "{out}"
    );
    assert!(
        out.contains("Warning; Invalid value for option Hash; -16\n"),
        "{out}"
    );
    for error in ["illegal move", "disconnects", "stalls", "loses on time"] {
        assert!(!out.contains(error), "{error}: {out}");
    }
    // cutechess-cli's `arg=`.
    let engines = "-engine cmd={faulty} arg=--fault arg=none name=random_move_1 \
                   -engine cmd={faulty} arg=--fault arg=none name=random_move_2";
    let (code, out, err) = compat(
        &dir,
        &format!(
            "{engines} -each proto=uci tc=2+0.02 option.Hash=-16 option.Threads=2 -games 2 \
             -pgnout cute.pgn"
        ),
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        err.contains("Warning: random_move_2 doesn't have option Threads\n"),
        "{err}"
    );
    assert!(
        err.contains("Warning: Invalid value for option Hash: -16\n"),
        "{err}"
    );
    let (code, out, err) = compat(
        &dir,
        "-engine cmd={faulty} 'args=--fault illegal-move --after 1' name=bad \
         -engine cmd={shannon} name=good -each nodes=1 -games 2 -rounds 1",
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("Warning; Illegal move ") && out.contains(" played by bad\n"),
        "{out}"
    );
}

/// fastchess's form, an engine whose program is not found: refused before the first game, with
/// fastchess's `Fatal;` line on stdout for the scripts that look for it.
#[test]
fn a_command_not_found_is_a_startup_failure_in_fastchess_words() {
    let dir = scratch("stops-not-found");
    let (code, out, err) = compat(
        &dir,
        "-engine cmd=./no-such-engine name=ghost -engine cmd={shannon} name=b -each nodes=1 \
         -rounds 1 -pgnout file=g.pgn",
    );
    assert_ne!(code, Some(0), "{out}{err}");
    assert!(
        out.starts_with("Fatal; ghost engine startup failure: \"engine 'ghost': command"),
        "{out}"
    );
    assert!(err.contains("not found"), "{err}");
}
