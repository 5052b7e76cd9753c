//! cutechess-cli's `-engine conf=NAME` and `-engines`: engines read from Cute Chess's
//! `engines.json` (the `cutechess-engines.json(5)` format, as its GUI saves it), where
//! cutechess-cli looks for it: the current directory, else `$XDG_CONFIG_HOME/cutechess/` or
//! `~/.config/cutechess/`.

use super::{read_pgn, scratch, tag, SHANNON};
use crate::common::{data_path, shannon_command};
use std::path::Path;

/// Two Shannon engines as Cute Chess's GUI saves them: a working directory, every option the
/// engine announced with its value (a button has none), the GUI's defaults written out.
fn engines_json(dir: &Path) -> String {
    let engine = |name: &str, log: &str| {
        format!(
            r#"{{
        "command": "{SHANNON}",
        "name": "{name}",
        "options": [
            {{ "alias": "", "default": 16, "max": 65536, "min": 0, "name": "Hash", "type": "spin", "value": 8 }},
            {{ "alias": "", "choices": ["bitboard", "0x88"], "default": "bitboard", "name": "Move Generator", "type": "combo", "value": "0x88" }},
            {{ "alias": "", "default": "", "name": "Debug Log File", "type": "text", "value": "{log}" }},
            {{ "alias": "", "name": "Clear Hash", "type": "button" }}
        ],
        "protocol": "uci",
        "stderrFile": "",
        "timeoutScaleFactor": 1,
        "workingDirectory": "{}"
    }}"#,
            dir.display()
        )
    };
    format!(
        "[\n    {},\n    {}\n]\n",
        engine("Random A", "a.log"),
        engine("Random B", "b.log")
    )
}

/// `shannon match ARGS` in `dir`, with `home` as HOME and no XDG_CONFIG_HOME: (exit status 0,
/// stdout, stderr).
fn shannon_in(dir: &Path, home: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = shannon_command(&[&["match"], args].concat())
        .current_dir(dir)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .expect("shannon runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn engines_come_from_engines_json_where_cutechess_cli_looks() {
    let root = scratch("engines-json");
    let (work, home) = (root.path().join("work"), root.path().join("home"));
    let config = home.join(".config/cutechess");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&config).unwrap();
    // In Cute Chess's configuration folder, none in the current directory.
    std::fs::write(config.join("engines.json"), engines_json(&work)).unwrap();
    let (code, out, err) = shannon_in(&work, &home, &["-engines"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "Random A\nRandom B\n");
    let (code, out, err) = shannon_in(
        &work,
        &home,
        &[
            "-engine",
            "conf=Random A",
            "-engine",
            "conf=Random B",
            "-each",
            "tc=inf",
            "nodes=1",
            "-games",
            "2",
            "-pgnout",
            "games.pgn",
            "-maxmoves",
            "3",
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let games = read_pgn(&work.join("games.pgn"));
    assert_eq!(games.len(), 2);
    assert_eq!(
        (tag(&games[0], "White"), tag(&games[0], "Black")),
        ("Random A", "Random B")
    );
    // Each engine ran in its working directory with its options set: its debug log (a
    // relative path) is there, and shows the options it was sent.
    for log in ["a.log", "b.log"] {
        let text = std::fs::read_to_string(work.join(log))
            .unwrap_or_else(|e| panic!("{log} in the working directory: {e}\n{err}"));
        assert!(
            text.contains("setoption name Move Generator value 0x88")
                && text.contains("setoption name Hash value 8")
                && !text.contains("Clear Hash"),
            "{log}:\n{text}"
        );
    }
    // The current directory's engines.json comes first.
    std::fs::write(
        work.join("engines.json"),
        r#"[{"name": "Here", "command": "shannon", "protocol": "uci"}]"#,
    )
    .unwrap();
    let (_, out, _) = shannon_in(&work, &home, &["-engines"]);
    assert_eq!(out, "Here\n");
    // An engine it does not hold, a protocol Shannon does not speak, a file that is not JSON:
    // refused by name, never a panic.
    let (code, _, err) = shannon_in(
        &work,
        &home,
        &[
            "-engine",
            "conf=Nobody",
            "-engine",
            "conf=Here",
            "-each",
            "tc=inf",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("conf=Nobody") && err.contains("engines.json"),
        "{err}"
    );
    std::fs::write(
        work.join("engines.json"),
        "[{\"name\": \"Old\", \"command\": \"crafty\", \"protocol\": \"cecp\"}]",
    )
    .unwrap();
    let (code, _, err) = shannon_in(
        &work,
        &home,
        &["-engine", "conf=Old", "-engine", "conf=Old"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("\"protocol\": \"cecp\""), "{err}");
    std::fs::write(work.join("engines.json"), "[{\"name\": \"Cut\",\n").unwrap();
    for args in [
        &["-engines"][..],
        &["-engine", "conf=Cut", "-engine", "conf=Cut"],
    ] {
        let (code, _, err) = shannon_in(&work, &home, args);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("engines.json: is not JSON") && err.contains("line 2"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// The recorded `-engines` listings (`tests/data/peers/engines-json/`): each case's name (its
/// `NAME.json` and what cutechess-cli 1.5.1 printed for it, `NAME.txt`) and whether that file is
/// in the current directory (else in the configuration folder).
pub(super) const LISTINGS: [(&str, bool); 2] = [("config-folder", false), ("current-dir", true)];

/// Lay out the `engines.json` of a recorded case in `root`'s `work` (the current directory) or
/// `home/.config/cutechess/`, list it with `list(work, home)`, and return (what was listed,
/// what cutechess-cli printed).
pub(super) fn listing(
    root: &Path,
    case: (&str, bool),
    list: impl Fn(&Path, &Path) -> String,
) -> (String, String) {
    let (name, in_current_dir) = case;
    let (work, home) = (root.join(name).join("work"), root.join(name).join("home"));
    let config = home.join(".config/cutechess");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&config).unwrap();
    let json = data_path(&format!("peers/engines-json/{name}.json"));
    let to = if in_current_dir { &work } else { &config };
    std::fs::copy(json, to.join("engines.json")).unwrap();
    let printed =
        std::fs::read_to_string(data_path(&format!("peers/engines-json/{name}.txt"))).unwrap();
    (list(&work, &home), printed)
}

/// `-engines` lists what cutechess-cli 1.5.1 listed (tests/data/peers/engines-json/), from
/// either place.
#[test]
fn engines_lists_what_cutechess_cli_lists() {
    let root = scratch("engines-json-listing");
    for case in LISTINGS {
        let (ours, theirs) = listing(root.path(), case, |work, home| {
            let (code, out, err) = shannon_in(work, home, &["-engines"]);
            assert_eq!(code, Some(0), "{err}");
            out
        });
        assert_eq!(ours, theirs, "{}", case.0);
    }
}

/// cutechess-cli's man page, third example, verbatim ("Play a Round-Robin tournament between
/// Fruit, Crafty, Stockfish and Sloppy"), its engines kept in engines.json (here four Shannons
/// under those names) and `book.bin` a one-move Polyglot book (1. e4): 120 games.
#[test]
fn cutechess_man_round_robin_of_engines_json_engines() {
    let root = scratch("engines-json-man");
    let dir = root.path();
    let engine =
        |name: &str| format!(r#"{{"name": "{name}", "command": "{SHANNON}", "protocol": "uci"}}"#);
    let names = ["Fruit", "Crafty", "Stockfish", "Sloppy"];
    let json = format!("[{}]", names.map(engine).join(",\n"));
    std::fs::write(dir.join("engines.json"), json).unwrap();
    // Polyglot: key of the start position, move e2e4, weight 1, learn 0 (big-endian).
    let mut entry = 0x463b_9618_1691_fc9c_u64.to_be_bytes().to_vec();
    entry.extend(0x031c_u16.to_be_bytes());
    entry.extend(1_u16.to_be_bytes());
    entry.extend(0_u32.to_be_bytes());
    std::fs::write(dir.join("book.bin"), entry).unwrap();
    let line = "-engine conf=Fruit -engine conf=Crafty -engine conf=Stockfish -engine conf=Sloppy \
                -each tc=4 book=book.bin -games 2 -rounds 10 -repeat";
    let words: Vec<&str> = line.split_whitespace().collect();
    let (code, out, err) = shannon_in(dir, dir, &words);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.matches("Finished game").count(), 120, "{out}");
    for name in names {
        assert!(out.contains(&format!("({name} vs ")), "{out}");
    }
    assert!(out.contains("Finished match"), "{out}");
}
