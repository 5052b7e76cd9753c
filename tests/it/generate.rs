//! `shannon --generate man|complete-bash|complete-zsh|complete-fish` (issue 33): the man page
//! renders with the system's `man -l` (skipped without man-db, required under
//! `SHANNON_REQUIRE_PEERS=1`), and bash, running the generated script, completes `shannon ma<TAB>`
//! to `match` (skipped without bash).

use crate::common::{peer_missing, peers_required, Scratch, SHANNON};
use std::process::Command;

fn generate(what: &str) -> String {
    let out = Command::new(SHANNON)
        .args(["--generate", what])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "--generate {what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn installed(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|out| out.status.success())
}

#[test]
fn the_man_page_renders_with_every_subcommand() {
    let page = generate("man");
    assert!(page.starts_with(".ie") || page.starts_with(".TH"), "{page}");
    if !installed("man") {
        peer_missing(
            "man is not installed (apt-get install man-db)",
            peers_required(),
        );
        return;
    }
    let dir = Scratch::new("man-page");
    let file = dir.join("shannon.1");
    std::fs::write(&file, &page).unwrap();
    let out = Command::new("man")
        .args(["--warnings", "-P", "cat", "-l"])
        .arg(&file)
        .env("MANWIDTH", "100")
        .env("LANG", "C.UTF-8")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let warnings = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "man -l failed: {warnings}");
    assert!(warnings.trim().is_empty(), "troff warnings: {warnings}");
    // man renders with hyphens as they are, or as Unicode hyphens in a UTF-8 locale.
    let text = text.replace('\u{2010}', "-");
    for expected in [
        "NAME",
        "SYNOPSIS",
        "SUBCOMMANDS",
        "--generate <WHAT>",
        "SHANNON MATCH",
        "--engines <ENGINES>",
        "SHANNON RANDOM-GAMES",
        "SHANNON BENCH UCI",
        "shannon perft-check",
        // Issue 45, item 9: synopses with their values, examples set as written (not stretched
        // across the line), the engine's options, the files and the environment.
        "[--fen FEN] [--chess960] [--divide] [--generator GENERATOR]",
        "shannon perft 5 --divide --fen \"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\"",
        "shannon merge games.shard-*.pgn.state.json --pgn merged.pgn",
        "ENGINE OPTIONS",
        "Seed type spin default 0 min 0 max 2147483647",
        "FILES",
        "engines.toml",
        "ENVIRONMENT",
        "RUST_LOG",
        "SHANNON_PERFT_INSTRUCTIONS",
        "SHANNON_CODEC_INSTRUCTIONS",
        "EXIT STATUS",
    ] {
        assert!(
            text.contains(expected),
            "no {expected:?} in the page:\n{text}"
        );
    }
    // No example is filled like prose: no run of spaces inside a command.
    let examples = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("shannon ") && l.split_whitespace().nth(1) != Some("-"))
        // The page's footer: the version, then the page's name in the right margin.
        .filter(|l| !l.ends_with("shannon(1)"));
    for line in examples {
        assert!(!line.contains("  "), "a stretched example: {line:?}");
    }
}

/// Run the generated bash script's completion function on `words` (the cursor in the last one):
/// the candidates it offers.
fn bash_completes(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let line = words.join(" ");
    let program = format!(
        "source {script}\nCOMP_WORDS=({words})\nCOMP_CWORD={cword}\nCOMP_LINE='{line}'\n\
         COMP_POINT={point}\n_shannon shannon '{last}' '{previous}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script = script.display(),
        words = words
            .iter()
            .map(|w| format!("'{w}'"))
            .collect::<Vec<_>>()
            .join(" "),
        cword = words.len() - 1,
        point = line.len(),
        last = words[words.len() - 1],
        previous = words[words.len() - 2],
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "bash: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn bash_completes_subcommands_and_options_with_the_generated_script() {
    let script = generate("complete-bash");
    assert!(script.contains("complete -F _shannon"), "{script}");
    if !installed("bash") {
        peer_missing("bash is not installed", false);
        return;
    }
    let dir = Scratch::new("bash-completion");
    let file = dir.join("shannon.bash");
    std::fs::write(&file, &script).unwrap();
    assert_eq!(bash_completes(&file, &["shannon", "ma"]), ["match"]);
    let mut perfts = bash_completes(&file, &["shannon", "perft-"]);
    perfts.sort();
    assert_eq!(perfts, ["perft-check", "perft-suite"]);
    assert_eq!(bash_completes(&file, &["shannon", "--gen"]), ["--generate"]);
    assert!(
        bash_completes(&file, &["shannon", "match", "--eng"]).contains(&"--engines".to_string())
    );
}

#[test]
fn zsh_and_fish_scripts_name_the_subcommands() {
    let zsh = generate("complete-zsh");
    assert!(zsh.starts_with("#compdef shannon"), "{zsh}");
    let fish = generate("complete-fish");
    for script in [&zsh, &fish] {
        for name in [
            "match",
            "random-games",
            "perft-check",
            "generate",
            "complete-bash",
        ] {
            assert!(script.contains(name), "no {name}");
        }
    }
}

#[test]
fn generate_goes_alone_and_refuses_an_unknown_kind() {
    for args in [
        &["--generate", "man", "perft", "3"][..],
        &["--generate", "complete-powershell"][..],
    ] {
        let out = Command::new(SHANNON).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
