//! Matches against xboard (CECP v2) engines: the five Debian ships (GNU Chess, Phalanx, Sjeng,
//! Fairy-Max, HoiChess, in /usr/games) through `shannon match`, in the engines.toml form and in
//! cutechess-cli's `-engine cmd=... proto=xboard`, each game completed with no illegal move and
//! no engine failure; and an engine's claims (a scripted xboard engine) judged as cutechess-cli
//! judges them. A missing engine is a skip with the reason, a failure under
//! `SHANNON_REQUIRE_PEERS=1` (`.ci/run` installs them).

use super::{read_pgn, run, scratch, tag};
use crate::common::MatchLine;
use crate::common::{peer_missing, peers_required, SHANNON};
use std::path::{Path, PathBuf};

/// The Debian xboard engines, by the name the runner gives them and their program.
const DEBIAN_ENGINES: [(&str, &str); 5] = [
    ("gnuchess", "/usr/games/gnuchess"),
    ("phalanx", "/usr/games/phalanx"),
    ("sjeng", "/usr/games/sjeng"),
    ("fairymax", "/usr/games/fairymax"),
    ("hoichess", "/usr/games/hoichess"),
];

/// The Debian engines installed here; each missing one is a skip with its reason (a failure
/// when peers are required).
fn installed() -> Vec<(&'static str, &'static str)> {
    DEBIAN_ENGINES
        .into_iter()
        .filter(|(name, program)| {
            let there = Path::new(program).is_file();
            if !there {
                peer_missing(
                    &format!("{program} is not installed (apt-get install {name})"),
                    peers_required(),
                );
            }
            there
        })
        .collect()
}

/// Every game of `pgn` finished by the rules or by an engine's resignation: none lost on time,
/// by an illegal move, a false claim, a crash or a stall. Returns the games.
fn all_completed(pgn: &Path, games: usize, context: &str) {
    let read = read_pgn(pgn);
    assert_eq!(read.len(), games, "{context}");
    for game in &read {
        let termination = game.tag("Termination").unwrap_or("normal");
        assert!(
            termination == "normal",
            "{context}: a game ended by '{termination}' (result {})",
            tag(game, "Result")
        );
        assert_ne!(tag(game, "Result"), "*", "{context}");
    }
}

#[test]
fn the_debian_xboard_engines_play_through_engines_toml() {
    let dir = scratch("xboard-debian-toml");
    for (name, program) in installed() {
        let config = dir.join(format!("{name}.toml"));
        std::fs::write(
            &config,
            format!(
                "[[engine]]\nname = \"shannon\"\ncommand = \"self\"\n\n[[engine]]\nname = \
                 \"{name}\"\ncommand = \"{program}\"\nprotocol = \"xboard\"\n"
            ),
        )
        .unwrap();
        let pgn = dir.join(format!("{name}.pgn"));
        let engines = format!("shannon,{name}");
        let (ok, out, err) = MatchLine::new()
            .config(&config)
            .engines(&engines)
            .games(2)
            .tc("3+0.05")
            .concurrency(1)
            .seed(32)
            .pgn(&pgn)
            .run_in(&dir);
        assert!(ok, "{name}: {out}{err}");
        assert!(
            out.contains("0 lost by engine failure"),
            "{name}: {out}{err}"
        );
        all_completed(&pgn, 2, name);
    }
}

#[test]
fn the_debian_xboard_engines_play_in_cutechess_clis_form() {
    let dir = scratch("xboard-debian-cutechess");
    for (name, program) in installed() {
        let pgn = dir.join(format!("{name}.pgn"));
        let shannon = format!("cmd={SHANNON}");
        let engine = format!("cmd={program}");
        let (ok, out, err) = run(
            &[
                "match",
                "-engine",
                &shannon,
                "name=shannon",
                "-engine",
                &engine,
                "proto=xboard",
                "-each",
                "tc=3+0.05",
                "-games",
                "2",
                "-srand",
                "32",
                "-pgnout",
                pgn.to_str().unwrap(),
            ],
            &dir,
        );
        assert!(ok, "{name}: {out}{err}");
        assert!(
            out.contains("Finished game 2") || out.contains("Finished game 1"),
            "{name}: {out}"
        );
        all_completed(&pgn, 2, name);
    }
}

/// A scripted xboard engine: it answers `protover` and `ping`, and on `go` writes its first
/// argument, then, when the second is `MOVE`, a legal first move of its side (`e2e4` as White,
/// `e7e5` as Black: it is Black when it was told a move before `go`).
const CLAIMER: &str = r#"#!/bin/sh
black=0
while read -r line; do
  case "$line" in
    protover*) echo 'feature ping=1 setboard=1 usermove=1 myname="claimer" done=1' ;;
    ping*) echo "pong ${line#ping }" ;;
    new) black=0 ;;
    usermove*) black=1 ;;
    go)
      echo "$1"
      if [ "$2" = MOVE ]; then
        if [ $black = 1 ]; then echo "move e7e5"; else echo "move e2e4"; fi
      fi ;;
    quit) exit 0 ;;
  esac
done
"#;

/// Play two games of Shannon against the claimer saying `args`: the PGN's games and the
/// runner's output.
fn against_claimer(dir: &Path, label: &str, args: &[&str]) -> (Vec<(String, String)>, String) {
    let script = dir.join("claimer.sh");
    std::fs::write(&script, CLAIMER).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let config = dir.join(format!("{label}.toml"));
    let args: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    std::fs::write(
        &config,
        format!(
            "[[engine]]\nname = \"shannon\"\ncommand = \"self\"\n\n[[engine]]\nname = \
             \"claimer\"\ncommand = \"{}\"\nargs = [{}]\nprotocol = \"xboard\"\n",
            script.display(),
            args.join(", ")
        ),
    )
    .unwrap();
    let pgn = dir.join(format!("{label}.pgn"));
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .engines("shannon,claimer")
        .games(2)
        .tc("5+0.1")
        .concurrency(1)
        .seed(7)
        .pgn(&pgn)
        .run_in(dir);
    assert!(ok, "{label}: {out}{err}");
    let games = read_pgn(&pgn)
        .iter()
        .map(|game| {
            let claimer_white = tag(game, "White") == "claimer";
            let claimer_lost = match tag(game, "Result") {
                "1-0" => !claimer_white,
                "0-1" => claimer_white,
                other => panic!("{label}: result {other}"),
            };
            assert!(claimer_lost, "{label}: the claimer did not lose");
            let side = if claimer_white { "white" } else { "black" };
            (
                side.to_string(),
                game.tag("Termination").unwrap_or("normal").to_string(),
            )
        })
        .collect();
    (games, out)
}

/// Issue 32: an xboard engine's claims are checked against our rules and scored as
/// cutechess-cli scores them: `resign` and a claim of the opponent's win resign; a claim of its
/// own win, a draw its move does not give, or `Illegal move` about a legal move lose by
/// adjudication, the engine's exchange kept as forensics.
#[test]
fn an_xboard_engines_claims_are_judged_as_cutechess_judges_them() {
    let dir = scratch("xboard-claims");
    let (games, out) = against_claimer(&dir, "resign", &["resign"]);
    assert!(games.iter().all(|(_, t)| t == "normal"), "{games:?}");
    assert!(out.contains("2  resignation"), "{out}");

    // "1-0" is White's claim of its own win (false) and Black's resignation.
    let (games, out) = against_claimer(&dir, "white-mates", &["1-0 {White mates}"]);
    for (side, termination) in &games {
        let expected = if side == "white" {
            "adjudication"
        } else {
            "normal"
        };
        assert_eq!(termination, expected, "{games:?}");
    }
    assert!(
        out.contains("1  false claim") && out.contains("1  resignation"),
        "{out}"
    );

    let (games, out) = against_claimer(&dir, "illegal", &["Illegal move: e2e4"]);
    assert!(games.iter().all(|(_, t)| t == "adjudication"), "{games:?}");
    assert!(out.contains("2  false claim"), "{out}");
    let forensics: PathBuf = dir.join("illegal.pgn.forensics");
    let first = std::fs::read_to_string(forensics.join("1.txt")).unwrap();
    assert!(first.contains("> protover 2"), "{first}");
    assert!(first.contains("< Illegal move: e2e4"), "{first}");

    // A draw claimed with a move that does not draw.
    let (games, out) = against_claimer(&dir, "draw", &["1/2-1/2 {Draw by repetition}", "MOVE"]);
    assert!(games.iter().all(|(_, t)| t == "adjudication"), "{games:?}");
    assert!(out.contains("2  false claim"), "{out}");
}

/// The 500 games cutechess-cli 1.5.1 played between Shannon and the five Debian xboard engines
/// (tests/data/peers/xboard/, recorded by hand as docs/xboard.md says), replayed by our rules:
/// every game cutechess-cli ended with a mate is a mate of the same winner here, a repetition
/// a repetition, and a game lost on time was not over by the rules when it was lost.
#[test]
fn our_rules_agree_with_cutechess_on_its_recorded_xboard_games() {
    use shannon::game::{Ending, Game};
    use shannon::Color;
    for (name, _) in DEBIAN_ENGINES {
        let folder = crate::common::data_path("peers/xboard");
        let pgn = folder.join(format!("cutechess-{name}.pgn"));
        let log = std::fs::read_to_string(folder.join(format!("cutechess-{name}.txt"))).unwrap();
        let games = read_pgn(&pgn);
        assert_eq!(games.len(), 100, "{name}");
        let mut checked = 0;
        for line in log.lines().filter(|l| l.starts_with("Finished game ")) {
            let number = line["Finished game ".len()..].split(' ').next().unwrap();
            let reason = line.split('{').nth(1).unwrap().trim_end_matches('}');
            // One game at a time: the PGN holds them in the order they were played (every
            // Round tag is 1); the players named in the line are the game's.
            let index: usize = number.parse().unwrap();
            let game = &games[index - 1];
            let players = format!("({} vs {})", tag(game, "White"), tag(game, "Black"));
            assert!(line.contains(&players), "{name}: {line} is not {players}");
            let replayed = Game::replay(&game.record.start, &game.record.moves);
            let context = format!("{name} game {number}: {reason}");
            match reason {
                "White mates" | "Black mates" => {
                    let winner = match reason {
                        "White mates" => Color::White,
                        _ => Color::Black,
                    };
                    assert_eq!(
                        replayed.ending(),
                        Some(Ending::Checkmate { winner }),
                        "{context}"
                    );
                }
                "Draw by 3-fold repetition" => {
                    assert!(replayed.claimable_draw().is_some(), "{context}")
                }
                _ if reason.ends_with("loses on time") => {
                    assert!(replayed.ending().is_none(), "{context}")
                }
                _ => panic!("{context}: a way to end not seen when recorded"),
            }
            checked += 1;
        }
        assert_eq!(checked, 100, "{name}");
    }
}

/// `movetime=` below a second goes as cutechess-cli 1.5.1 sends it: `st` in whole seconds (`st
/// 0`), and the move's time as `time` and `otim` (centiseconds) before every move, never a
/// decimal `st`, which the specification does not define. Read from what an xboard engine (Shannon
/// behind `tee`) was sent in a whole match.
#[test]
fn a_movetime_below_a_second_goes_as_st_0_with_time_and_otim() {
    let dir = scratch("xboard-movetime");
    let log = dir.join("sent.txt");
    let script = dir.join("logged.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\ntee -a '{}' | '{SHANNON}'\n", log.display()),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let pgn = dir.join("movetime.pgn");
    let (ok, out, err) = run(
        &[
            "match",
            "-engine",
            &format!("cmd={SHANNON}"),
            "proto=uci",
            "name=uci",
            "-engine",
            &format!("cmd={}", script.display()),
            "proto=xboard",
            "name=xboard",
            "-each",
            "st=0.25",
            "-games",
            "2",
            "-srand",
            "3",
            "-pgnout",
            pgn.to_str().unwrap(),
        ],
        &dir,
    );
    assert!(ok, "{out}{err}");
    all_completed(&pgn, 2, "movetime");
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    assert!(lines.contains(&"st 0"), "{sent}");
    assert!(!lines.iter().any(|l| l.starts_with("st 0.")), "{sent}");
    let moves = lines.iter().filter(|l| **l == "time 25").count();
    assert!(moves > 10, "{sent}");
    assert_eq!(
        moves,
        lines.iter().filter(|l| **l == "otim 25").count(),
        "{sent}"
    );
}
