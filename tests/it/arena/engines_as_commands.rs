//! Issue 36: `match --engines NAME,...` takes a name the engines file does not have as a program
//! (a path, then PATH, then /usr/games), as `perft-check --engine` and `audit --engine` do, and
//! says so on stderr; a name that is neither stays an error naming both.

use super::{read_pgn, scratch, stockfish, tag, SHANNON};
use crate::common::MatchLine;
use std::path::Path;

/// `shannon match ...` in `dir` with `path` as PATH: (success, stdout, stderr).
fn match_with_path(line: MatchLine, dir: &Path, path: &str) -> (bool, String, String) {
    let out = line
        .command()
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn engines_not_in_the_file_run_as_programs_by_path_and_on_path() {
    let dir = scratch("engines-as-commands");
    let bin = dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(SHANNON, bin.join("my-random-mover")).unwrap();
    // A path, and a bare name found on PATH (the PATH holds nothing else of use).
    let (ok, out, err) = match_with_path(
        MatchLine::new()
            .engines(&format!("shannon-a,{SHANNON},my-random-mover"))
            .games(2)
            .tc("nodes=1")
            .seed(1)
            .quiet()
            .pgn("games.pgn"),
        &dir,
        &bin.display().to_string(),
    );
    assert!(ok, "{out}\n{err}");
    for name in [SHANNON, "my-random-mover"] {
        assert!(
            err.contains(&format!(
                "shannon: '{name}' is not in the built-in engines file (there is no \
                 engines.toml here): running it as a command ("
            )),
            "no note for {name}: {err}"
        );
    }
    assert!(!err.contains("'shannon-a' is not in"), "{err}");
    // The PGN names the engines as they were given.
    let games = read_pgn(&dir.join("games.pgn"));
    assert_eq!(games.len(), 6, "a three-engine round robin of 2 games each");
    let players: std::collections::BTreeSet<&str> = games
        .iter()
        .flat_map(|g| [tag(g, "White"), tag(g, "Black")])
        .collect();
    assert!(players.contains("my-random-mover"), "{players:?}");
    assert!(players.contains(SHANNON), "{players:?}");
    // Neither in the file nor a program: an error naming both, nothing played.
    let (ok, _, err) = match_with_path(
        MatchLine::new()
            .engines("shannon-a,no-such-engine-anywhere")
            .pgn("x.pgn"),
        &dir,
        &bin.display().to_string(),
    );
    assert!(!ok);
    assert!(
        err.contains("no engine named 'no-such-engine-anywhere'")
            && err.contains("and no program 'no-such-engine-anywhere'"),
        "{err}"
    );
    assert!(!dir.join("x.pgn").exists());
}

/// README's example `match --engines shannon-a,stockfish`: Debian's Stockfish, not in the
/// shipped engines.toml, found in /usr/games though that is not on the PATH given.
#[test]
fn stockfish_is_found_in_usr_games_as_the_readme_example_needs() {
    let Some(stockfish) = stockfish() else { return };
    if !stockfish.starts_with("/usr/games") {
        println!("skipped: stockfish is not in /usr/games");
        return;
    }
    let dir = scratch("engines-usr-games");
    let (ok, out, err) = match_with_path(
        MatchLine::new()
            .engines("shannon-a,stockfish")
            .games(2)
            .tc("nodes=200")
            .quiet()
            .pgn("sf.pgn"),
        &dir,
        "/usr/bin:/bin",
    );
    assert!(ok, "{out}\n{err}");
    assert!(
        err.contains(
            "'stockfish' is not in the built-in engines file (there is no engines.toml here): \
             running it as a command (/usr/games/stockfish)"
        ),
        "{err}"
    );
    assert_eq!(read_pgn(&dir.join("sf.pgn")).len(), 2);
}
