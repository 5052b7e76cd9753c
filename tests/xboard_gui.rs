//! A real GUI: XBoard (Debian `xboard`) runs Shannon against Shannon through polyglot (Debian
//! `polyglot`, its UCI adapter) on a virtual X display (Debian `xvfb`), plays one game to its end
//! and saves it; the game must replay legally under our rules and its result must agree with them.
//! Skipped, with the reason printed, when any of the three programs is missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games"), PathBuf::from("/usr/bin")])
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

#[test]
fn xboard_plays_shannon_against_shannon_through_polyglot() {
    let programs: Vec<_> = ["xboard", "polyglot", "Xvfb"]
        .iter()
        .map(|p| (p, find(p)))
        .collect();
    if let Some((missing, _)) = programs.iter().find(|(_, path)| path.is_none()) {
        println!("skipped: {missing} is not installed (apt-get install xboard polyglot xvfb)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("shannon-xboard-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let display = format!(":{}", 100 + std::process::id() % 400);
    let mut xvfb = Command::new(programs[2].1.as_ref().unwrap())
        .args([
            display.as_str(),
            "-screen",
            "0",
            "1024x768x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb starts");
    std::thread::sleep(Duration::from_millis(800));

    let shannon = env!("CARGO_BIN_EXE_shannon");
    let games = dir.join("xboard.pgn");
    let path = format!("/usr/games:{}", std::env::var("PATH").unwrap_or_default());
    let mut xboard = Command::new(programs[0].1.as_ref().unwrap())
        .args([
            "-fcp", shannon, "-fUCI", "-scp", shannon, "-sUCI", "-mg", "1",
        ])
        .args(["-sgf", games.to_str().unwrap(), "-tc", "5", "-inc", "1"])
        .args(["-popupExitMessage", "false", "-autoCallFlag", "true"])
        .env("DISPLAY", &display)
        .env("PATH", path)
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("xboard starts");

    // A screenshot while the game runs, for a person to look at (kept beside the game).
    std::thread::sleep(Duration::from_secs(3));
    if let Some(xwd) = find("xwd") {
        let _ = Command::new(xwd)
            .args([
                "-root",
                "-silent",
                "-out",
                dir.join("board.xwd").to_str().unwrap(),
            ])
            .env("DISPLAY", &display)
            .status();
    }

    let started = Instant::now();
    let finished = loop {
        if let Ok(Some(_)) = xboard.try_wait() {
            break true;
        }
        if started.elapsed() > Duration::from_secs(240) {
            let _ = xboard.kill();
            break false;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let _ = xvfb.kill();
    let _ = xvfb.wait();
    assert!(
        finished,
        "xboard did not finish its one-game match in 4 minutes"
    );
    check_saved_game(&games);
    let _ = std::fs::remove_dir_all(&dir);
}

fn check_saved_game(path: &Path) {
    let text = std::fs::read_to_string(path).expect("xboard saved the game");
    let games = shannon::notation::pgn::read_games(&text);
    assert_eq!(games.len(), 1, "{text}");
    let game = games
        .into_iter()
        .next()
        .unwrap()
        .expect("the saved game reads and replays legally");
    assert!(
        game.tag("White").unwrap_or("").starts_with("Shannon"),
        "{text}"
    );
    let mut replay = shannon::game::Game::new(game.start.clone());
    for &mv in &game.moves {
        replay.play(mv);
    }
    let status = replay.status_with(replay.legal_moves().len());
    match game.result.as_str() {
        "1-0" | "0-1" => {
            let winner = if game.result == "1-0" {
                shannon::Color::White
            } else {
                shannon::Color::Black
            };
            assert_eq!(
                status.ending,
                Some(shannon::game::Ending::Checkmate { winner }),
                "{text}"
            );
        }
        "1/2-1/2" => {}
        other => panic!("the game did not end: result {other}\n{text}"),
    }
    println!("xboard game: {} plies, {}", game.moves.len(), game.result);
}
