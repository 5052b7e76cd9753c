//! A real GUI: XBoard (Debian `xboard`) runs Shannon against Shannon on a virtual X display
//! (Debian `xvfb`), once through polyglot (Debian `polyglot`, its UCI adapter) and once directly
//! as the xboard engine Shannon also is (`xboard -fcp shannon -scp shannon`), plays one game to
//! its end and saves it; xboard must exit cleanly, the game must replay legally under our rules, and its
//! result and the reason xboard gives for it must agree with the final position.
//! Skipped, with the reason printed, when any of the three programs is missing; failing instead
//! when `SHANNON_REQUIRE_PEERS=1` (CI installs them and sets it).

use crate::common::{peer_missing, peers_required, Scratch};
use shannon::game::{is_insufficient_material, Ending, Game};
use shannon::notation::uci::parse_move;
use shannon::Color;
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
    xboard_match("xboard", &["polyglot"], &["-fUCI", "-sUCI"], 100);
}

/// XBoard drives Shannon as an xboard engine, with no adapter: feature negotiation, `new`,
/// `level`, `time`/`otim`, moves both ways and the engines' own claims, which XBoard checks
/// (`-testClaims`, on by default) and which must agree with our rules.
#[test]
fn xboard_plays_shannon_against_shannon_directly() {
    xboard_match("xboard-cecp", &[], &[], 500);
}

/// One game of Shannon against Shannon in XBoard, the engines started with `engine_flags`
/// (`-fUCI -sUCI`: through polyglot), on X display `display_base` + pid % 400; the saved game is
/// checked.
fn xboard_match(name: &str, also_needed: &[&str], engine_flags: &[&str], display_base: u32) {
    let programs: Vec<_> = ["xboard", "Xvfb"]
        .iter()
        .chain(also_needed)
        .map(|p| (p, find(p)))
        .collect();
    if let Some((missing, _)) = programs.iter().find(|(_, path)| path.is_none()) {
        let reason = format!("{missing} is not installed (apt-get install xboard polyglot xvfb)");
        return peer_missing(&reason, peers_required());
    }
    let dir = Scratch::new(name);
    let display = format!(":{}", display_base + std::process::id() % 400);
    let mut xvfb = Command::new(programs[1].1.as_ref().unwrap())
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

    let shannon = crate::common::SHANNON;
    let games = dir.join("xboard.pgn");
    let path = format!("/usr/games:{}", std::env::var("PATH").unwrap_or_default());
    let mut xboard = Command::new(programs[0].1.as_ref().unwrap())
        .args(["-fcp", shannon, "-scp", shannon, "-mg", "1"])
        .args(engine_flags)
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
    let exit = loop {
        if let Ok(Some(status)) = xboard.try_wait() {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(240) {
            let _ = xboard.kill();
            let _ = xboard.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let _ = xvfb.kill();
    let _ = xvfb.wait();
    let exit = exit.expect("xboard did not finish its one-game match in 4 minutes");
    assert!(
        exit.success(),
        "xboard exited with {exit}; its game file: {:?}",
        std::fs::read_to_string(&games)
    );
    check_saved_game(&games);
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
    let replay = game.record.game();
    let reason = termination(&text, game.tag("Termination"));
    if let Err(problem) = check_result(&replay, game.record.outcome.pgn(), &reason) {
        panic!("{problem}\n{text}");
    }
    println!(
        "xboard game: {} plies, {} {{{reason}}}",
        game.record.moves.len(),
        game.record.outcome
    );
}

/// Why xboard says the game ended: the comment it writes before the result (`{Xboard
/// adjudication: Stalemate} 1/2-1/2`), else a `Termination` tag.
fn termination(pgn: &str, tag: Option<&str>) -> String {
    let comment = pgn
        .rfind('{')
        .and_then(|open| {
            let rest = &pgn[open + 1..];
            rest.find('}').map(|close| rest[..close].trim().to_string())
        })
        .filter(|c| !c.is_empty());
    comment.or(tag.map(String::from)).unwrap_or_default()
}

/// The result and xboard's reason against our rules on the final position: a win needs our
/// checkmate by the winner; a draw needs the rule xboard names (stalemate, insufficient
/// material, repetition, 50-move rule) to hold under our rules. A final position our rules call
/// over (mate, stalemate, dead position) must carry that result. Anything else is an error: a
/// reason we do not know is not taken on trust.
fn check_result(replay: &Game, result: &str, reason: &str) -> Result<(), String> {
    let pos = replay.position();
    let ending = replay.ending();
    let says = reason.to_ascii_lowercase();
    let expected_result = match ending {
        Some(Ending::Checkmate {
            winner: Color::White,
        }) => Some("1-0"),
        Some(Ending::Checkmate {
            winner: Color::Black,
        }) => Some("0-1"),
        Some(Ending::Stalemate | Ending::InsufficientMaterial) => Some("1/2-1/2"),
        _ => None,
    };
    if let Some(expected) = expected_result {
        if result != expected {
            return Err(format!(
                "our rules end the game with {} ({expected}), xboard says {result} {{{reason}}}",
                ending.unwrap()
            ));
        }
    }
    let holds = match result {
        "1-0" | "0-1" => {
            let winner = if result == "1-0" {
                Color::White
            } else {
                Color::Black
            };
            ending == Some(Ending::Checkmate { winner })
        }
        "1/2-1/2" if says.contains("stalemate") => ending == Some(Ending::Stalemate),
        "1/2-1/2" if says.contains("insufficient") => is_insufficient_material(pos),
        "1/2-1/2" if says.contains("repetition") || says.contains("3-fold") => {
            replay.repetitions() >= 3
        }
        // XBoard writes both "Draw by fifty-move rule" and "50-move rule" / "50 move rule".
        "1/2-1/2"
            if ["50-move", "50 move", "fifty-move", "fifty move"]
                .iter()
                .any(|w| says.contains(w)) =>
        {
            pos.halfmove_clock() >= 100
        }
        "1/2-1/2" => return Err(format!("a draw for a reason we do not check: {{{reason}}}")),
        other => return Err(format!("the game did not end: result {other} {{{reason}}}")),
    };
    if holds {
        Ok(())
    } else {
        Err(format!(
            "xboard says {result} {{{reason}}}, but our rules disagree on the final position \
             {} (ending {ending:?}, {} repetitions, halfmove clock {})",
            pos.fen(),
            replay.repetitions(),
            pos.halfmove_clock()
        ))
    }
}

/// The checks above on hand-made games, so that they are known to reject wrong results (a
/// random game between random movers is usually a draw, so the real run alone checks little).
#[test]
fn result_checks_reject_what_the_rules_do_not_support() {
    let play = |moves: &str| {
        let mut game = Game::new(shannon::Position::startpos());
        for text in moves.split_whitespace() {
            let mv = parse_move(game.position(), text).unwrap();
            game.play(mv);
        }
        game
    };
    let fools_mate = play("f2f3 e7e5 g2g4 d8h4");
    assert!(check_result(&fools_mate, "0-1", "Xboard adjudication: Checkmate").is_ok());
    assert!(check_result(&fools_mate, "1-0", "Xboard adjudication: Checkmate").is_err());
    assert!(check_result(&fools_mate, "1/2-1/2", "Xboard adjudication: Stalemate").is_err());

    let shuffle = "g1f3 g8f6 f3g1 f6g8 ";
    let repeated = play(&shuffle.repeat(2));
    assert!(check_result(&repeated, "1/2-1/2", "XBoard adjudication: repetition draw").is_ok());
    let once = play(shuffle);
    assert!(check_result(&once, "1/2-1/2", "XBoard adjudication: repetition draw").is_err());
    assert!(check_result(&once, "1/2-1/2", "Xboard adjudication: 50-move rule").is_err());
    assert!(check_result(&once, "1/2-1/2", "Xboard adjudication: Stalemate").is_err());
    assert!(check_result(
        &once,
        "1/2-1/2",
        "Xboard adjudication: Insufficient mating material"
    )
    .is_err());
    assert!(check_result(&once, "1/2-1/2", "Xboard adjudication: long game").is_err());
    assert!(check_result(&once, "*", "").is_err());

    let from = |fen: &str| Game::new(shannon::Position::from_fen(fen).unwrap());
    let stalemate = from("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(check_result(&stalemate, "1/2-1/2", "Xboard adjudication: Stalemate").is_ok());
    assert!(check_result(
        &stalemate,
        "1/2-1/2",
        "XBoard adjudication: repetition draw"
    )
    .is_err());
    assert!(check_result(&stalemate, "1-0", "White mates").is_err());
    let bare_kings = from("8/8/8/4k3/8/8/8/4K3 w - - 0 1");
    let reason = "Xboard adjudication: Insufficient mating material";
    assert!(check_result(&bare_kings, "1/2-1/2", reason).is_ok());
    assert!(check_result(&from("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"), "1/2-1/2", reason).is_err());
    let fifty = from("4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
    assert!(check_result(&fifty, "1/2-1/2", "Xboard adjudication: 50-move rule").is_ok());
    // The wording XBoard used in a real run (a game that reached the 50-move rule).
    assert!(check_result(&fifty, "1/2-1/2", "Draw by fifty-move rule").is_ok());
    assert!(check_result(&once, "1/2-1/2", "Draw by fifty-move rule").is_err());

    let pgn = "[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 {a comment} 2. Ng1\n{Xboard adjudication: 50-move rule} 1/2-1/2\n";
    assert_eq!(termination(pgn, None), "Xboard adjudication: 50-move rule");
    assert_eq!(termination("1. e4 *", Some("normal")), "normal");
}
