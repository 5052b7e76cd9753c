//! README.md and docs/*.md hold what they say (issues 33 and 36): every relative link leads to a
//! file, and to a heading of it when it names one; and every command in their code blocks runs as
//! written, in the spirit of `help_examples::every_example_of_every_help_runs`.
//!
//! The commands are the lines of a code block that start with `shannon ` or `cargo run
//! --release`, or that pipe into one (`printf '...' | cargo run --release`), and the `cp` of a
//! file of the repository that such a command then reads (a line ending in `\` goes on on the
//! next). `cargo run --release --` is run as the `shannon` under test (first on PATH, as README's
//! `cargo install --path .` puts it), the line itself with `sh` in a scratch folder per document,
//! in the document's order, each within [`TIME_LIMIT`], with the tests' peers (Debian's
//! Stockfish, found in /usr/games). A command must succeed, except:
//!
//! - **`# needs: ...`**: a line whose trailing comment says what of the reader's own it needs
//!   (their engine in engines.toml, their book, the shards of a cluster job) is only checked to
//!   parse: the command up to its first redirection or pipe, with `--help` added, must exit 0
//!   (clap checks every argument before `--help`). A line in cutechess-cli's or fastchess's form
//!   cannot be checked so (their reader does not stop at `-help` to check the rest), so it may
//!   not carry the mark: it must run on what the repository holds.
//! - **Long runs** run with the smaller counts of [`SHORTER`], each with its reason; every
//!   substitution there must apply to some command, so the table cannot outlive the documents.
//! - `audit` may exit with 1: the audit ran and found the engine's deviations (Stockfish's), as
//!   its help says.
//!
//! The scratch folder holds what a reader's fresh clone holds after README's set-up, and nothing
//! else (issue 45, item 7: stand-ins made here let examples pass that failed for a reader): a
//! copy of every file of the repository (`git ls-files`), and `target/release/shannon`. What a
//! reader must bring is named by a `# needs:` mark.

use crate::common::{peer_missing, peers_required, shell, stockfish_installed, Scratch, SHANNON};
use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest one command may take (a guard against a hang: the commands take seconds, but the
/// tests share two cores).
const TIME_LIMIT: Duration = Duration::from_secs(300);

/// The long runs, shortened: (in the command, replaced by, why). Each applies to some command.
const SHORTER: &[(&str, &str, &str)] = &[
    (
        "random-games --games 1e6",
        "random-games --games 2e4",
        "a million games is some 20 s of both cores; the counts do not change what runs",
    ),
    (
        "random-games --games 1e5 --seed 1950",
        "random-games --games 2e4 --seed 1950",
        "README's 100,000 games are some 10 s of both cores",
    ),
    (
        "bench match --games 400",
        "bench match --games 100",
        "400 games are some 10 s of both cores",
    ),
    (
        "bench xboard --games 200",
        "bench xboard --games 10",
        "three matches of 200 games (with cutechess-cli where it is installed) are some 30 s",
    ),
    (
        "random-games --games 100000000 --seed 35",
        "random-games --games 20000 --seed 35",
        "10^8 games to ply 16 are an hour of one core (docs/random-games-exact.md's check)",
    ),
    (
        "random-games --games 100000000 --seed 2026",
        "random-games --games 20000 --seed 2026",
        "the second 10^8-game check of docs/random-games-exact.md, plies 4 to 9",
    ),
    (
        "random-games --games 1e9",
        "random-games --games 2e4",
        "a billion games is hours (the checkpoint is the point of the example)",
    ),
    (
        "--tc movetime=50 --sprt",
        "--tc movetime=5 --sprt",
        "Stockfish against a random mover decides the SPRT at game 208 whatever the time: \
         208 games at 50 ms a move are minutes",
    ),
    (
        "--sprt -5,5,0.05,0.05 --pgn sprt.pgn",
        "--sprt -5,5,0.05,0.05 --games 400 --pgn sprt.pgn",
        "Shannon against Shannon decides after some 2,000 to 10,000 games (2,000 in 26 s here)",
    ),
    (
        "-rounds 500",
        "-rounds 2",
        "500 rounds of two games, in fastchess's form",
    ),
    (
        "-games 2 -rounds 50 -repeat",
        "-games 2 -rounds 1 -repeat",
        "100 games of Stockfish at 10+0.1",
    ),
    (
        "codec-report tests/data/pgn/lichess_2013-01_5000.pgn",
        "codec-report tests/data/pgn/lichess_2013-01_5000.pgn --skip 4800",
        "every codec over 5,000 games is some 40 s of CPU; the last 200 games run the same code",
    ),
    (
        "audit --engine stockfish ",
        "audit --engine stockfish --perft-seconds 5 ",
        "the quick audit's minute of perft",
    ),
    (
        "codec-fit tests/data/pgn/lichess_2013-01_5000.pgn ",
        "codec-fit tests/data/pgn/lichess_2013-01_5000.pgn --iterations 1 ",
        "200 passes of the optimiser per step are minutes (ten for every step)",
    ),
    (
        "--model m3 --final-only",
        "--model m3 --final-only --epochs 1",
        "the network's 12 passes are two minutes of one core",
    ),
    (
        "--model m4 --final-only",
        "--model m4 --final-only --epochs 1",
        "the network's 12 passes are two minutes of one core",
    ),
    (
        "--model m5 --final-only",
        "--model m5 --final-only --epochs 1",
        "the network's 12 passes are a minute of one core",
    ),
    (
        "--model m6 --final-only",
        "--model m6 --final-only --epochs 1",
        "the network's 12 passes are a minute of one core",
    ),
    (
        "perft-suite tests/data/perft/chess960.perft --max-depth 4 --generator 0x88",
        "perft-suite tests/data/perft/chess960.perft --max-depth 2 --generator 0x88",
        "960 positions to depth 4 through the slow reference generator is about a minute of CPU",
    ),
];

/// README.md and every docs/*.md, by path relative to the crate.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = vec![PathBuf::from("README.md")];
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.strip_prefix(root).unwrap().to_path_buf())
        .collect();
    pages.sort();
    found.extend(pages);
    found
}

fn read(document: &Path) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(document)).unwrap()
}

/// The text outside HTML comments (`<!-- ... -->`).
fn without_comments(text: &str) -> String {
    let mut kept = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        kept.push_str(&rest[..start]);
        rest = rest[start..]
            .find("-->")
            .map_or("", |end| &rest[start + end + 3..]);
    }
    kept.push_str(rest);
    kept
}

/// The lines outside fenced code blocks, with inline code spans removed.
fn prose(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut out = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                out.push_str(part);
            }
        }
        lines.push(out);
    }
    lines
}

/// GitHub's anchor of a heading: lower case, punctuation dropped (letters, digits, `-` and `_`
/// kept), spaces made `-`; a repeated one gets `-1`, `-2`, ...
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut all = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let Some(title) = line.strip_prefix('#') else {
            continue;
        };
        if fenced {
            continue;
        }
        let title = title.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        all.insert(match *n {
            0 => slug.clone(),
            k => format!("{slug}-{k}"),
        });
        *n += 1;
    }
    all
}

/// The targets of the inline links `[text](target)` of `text`, outside code and comments.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in prose(&without_comments(text)) {
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            found.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    found
}

/// What is wrong with each relative link of `document` (its text `text`), resolved from `base`.
fn broken_links(document: &Path, text: &str, base: &Path) -> Vec<String> {
    let mut broken = Vec::new();
    for target in links(text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = match target.split_once('#') {
            Some((file, anchor)) => (file, Some(anchor)),
            None => (target.as_str(), None),
        };
        let path = match file {
            "" => base.join(document),
            file => base.join(document).parent().unwrap().join(file),
        };
        if !path.exists() {
            broken.push(format!("{}: {target}: no such file", document.display()));
            continue;
        }
        if let Some(anchor) = anchor {
            let heads = anchors(&std::fs::read_to_string(&path).unwrap_or_default());
            if !heads.contains(anchor) {
                broken.push(format!(
                    "{}: {target}: no heading with that anchor in {}",
                    document.display(),
                    path.display()
                ));
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let documents = documents();
    assert!(documents.len() >= 8, "{documents:?}");
    let mut broken = Vec::new();
    let mut count = 0;
    for document in &documents {
        let text = read(document);
        count += links(&text).len();
        broken.extend(broken_links(document, &text, root));
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    assert!(
        count >= 40,
        "only {count} links found: the reader misses them"
    );
}

/// Issue 33: the front page stays short, and holds the two set-up commands as .ci/run and the
/// developers' brief give them.
#[test]
fn the_readme_is_short_and_holds_the_two_set_up_commands() {
    let readme = read(Path::new("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines; the rest belongs in docs/"
    );
    for command in [
        "\ncargo run --release -- match --games 20 && cargo run --release\n",
        "\ncargo test --profile test-release\n",
    ] {
        assert!(readme.contains(command), "README.md lacks {command:?}");
    }
}

/// The checker itself finds what it must: a missing file, a missing heading, and not a link in
/// code or in a comment.
#[test]
fn the_link_checker_finds_broken_links() {
    let dir = Scratch::new("doc-links");
    std::fs::create_dir(dir.join("docs")).unwrap();
    std::fs::write(dir.join("docs/a.md"), "# A page\n\n## Its `part`: one\n").unwrap();
    let text = "# Top\n[ok](docs/a.md) [ok](docs/a.md#its-part-one) [ok](#top)\n\
                [gone](docs/b.md) [no heading](docs/a.md#nothing) [no heading](#nowhere)\n\
                `[in code](docs/c.md)`\n<!-- [in a comment](docs/d.md) -->\n\
                ```\n[in a block](docs/e.md)\n```\n";
    std::fs::write(dir.join("README.md"), text).unwrap();
    let broken = broken_links(Path::new("README.md"), text, &dir);
    assert_eq!(broken.len(), 3, "{broken:?}");
    assert!(broken[0].contains("docs/b.md: no such file"), "{broken:?}");
    assert!(broken[1].contains("docs/a.md#nothing"), "{broken:?}");
    assert!(broken[2].contains("#nowhere"), "{broken:?}");
}

/// One command of a document: its line (continuations joined) and whether it is marked
/// `# needs: ...`.
#[derive(Debug)]
struct Example {
    document: PathBuf,
    line: usize,
    text: String,
    needs: bool,
}

/// The commands of the code blocks of `text`.
fn examples(document: &Path, text: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut fenced = false;
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced || !is_command(line) {
            continue;
        }
        let mut text = line.to_string();
        while text.ends_with('\\') {
            text.pop();
            let (_, next) = lines.next().expect("a continued line goes on");
            text.push_str(next.trim_start());
            text = text.replacen("  ", " ", 1);
        }
        let needs = comment(&text).is_some_and(|c| c.contains("needs:"));
        found.push(Example {
            document: document.to_path_buf(),
            line: i + 1,
            text,
            needs,
        });
    }
    found
}

/// A line the test runs: a command of `shannon` (or `cargo run --release`), one piped into it,
/// or the copy of a file of the repository (`cp tests/...`) that such a command reads.
fn is_command(line: &str) -> bool {
    let shannon =
        |text: &str| text.starts_with("shannon ") || text.starts_with("cargo run --release");
    shannon(line)
        || line.starts_with("cp tests/")
        || (line.starts_with("printf ")
            && line
                .split_once(" | ")
                .is_some_and(|(_, rest)| shannon(rest)))
}

/// Where the command's shell comment starts: the first `#` outside quotes after a space.
fn comment_start(text: &str) -> Option<usize> {
    let mut quote = None;
    let mut previous = ' ';
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') if previous.is_whitespace() => return Some(i),
            _ => {}
        }
        previous = c;
    }
    None
}

fn comment(text: &str) -> Option<&str> {
    comment_start(text).map(|i| &text[i..])
}

/// The command as the test runs it: `cargo run --release [--]` is the `shannon` under test.
fn as_run(text: &str) -> String {
    text.replace("cargo run --release -- ", "shannon ")
        .replace("cargo run --release", "shannon")
}

/// The first command of the line, up to its comment, redirections, pipes and `&&`: what clap
/// reads.
fn first_command(text: &str) -> String {
    let text = &text[..comment_start(text).unwrap_or(text.len())];
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '<' | '>' | '|' | ';' | '&') => return text[..i].trim().to_string(),
            _ => {}
        }
    }
    text.trim().to_string()
}

/// cutechess-cli's or fastchess's form: `match` followed by a single-dash option.
fn tool_form(command: &str) -> bool {
    command
        .split_whitespace()
        .skip_while(|w| *w != "match")
        .nth(1)
        .is_some_and(|w| w.starts_with('-') && !w.starts_with("--"))
}

/// Run `script` in `dir` within [`TIME_LIMIT`] (its whole process group killed after it):
/// (exit code, stderr), `None` for the code when it timed out.
fn run_limited(dir: &Path, script: &str) -> (Option<i32>, String) {
    let mut child = shell(dir, script)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = pipe.read_to_end(&mut text);
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let err = drain(Box::new(stderr));
    let _out = drain(Box::new(stdout));
    let started = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status.code().unwrap_or(-1));
        }
        if started.elapsed() > TIME_LIMIT {
            // The process group this test started (its pid is the group's id).
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (code, err.join().unwrap_or_default())
}

/// The files of the repository, by path from its top: `git ls-files`, else (no git, or not a
/// checkout) every file but those of `target/` and `.git/`.
fn clone_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listed = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|out| out.status.success() && !out.stdout.is_empty());
    if let Some(out) = listed {
        return out
            .stdout
            .split(|&b| b == 0)
            .filter(|name| !name.is_empty())
            .map(|name| PathBuf::from(String::from_utf8_lossy(name).into_owned()))
            .filter(|path| root.join(path).is_file())
            .collect();
    }
    let mut found = Vec::new();
    let mut folders = vec![PathBuf::new()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(root.join(&folder)).unwrap().flatten() {
            let path = folder.join(entry.file_name());
            if path == Path::new("target") || path == Path::new(".git") {
                continue;
            }
            match entry.file_type().unwrap().is_dir() {
                true => folders.push(path),
                false => found.push(path),
            }
        }
    }
    found
}

/// The scratch folder as a reader's clone after README's set-up: a copy of every file of the
/// repository (copies, not links: an example may write into them, as codec-fit's does) and the
/// release binary.
fn prepare(dir: &Path, files: &[PathBuf]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in files {
        let to = dir.join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root.join(file), &to).unwrap();
    }
    let symlink = |to: &Path, at: &str| {
        let at = dir.join(at);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(to, at).unwrap();
    };
    symlink(Path::new(SHANNON), "bin/shannon");
    symlink(Path::new(SHANNON), "target/release/shannon");
}

#[cfg(unix)]
#[test]
fn every_example_in_the_docs_runs() {
    let mut all = Vec::new();
    for document in documents() {
        all.extend(examples(&document, &read(&document)));
    }
    let ran_from: BTreeSet<&Path> = all.iter().map(|e| e.document.as_path()).collect();
    assert!(ran_from.contains(Path::new("README.md")), "{ran_from:?}");
    assert!(all.len() >= 50, "only {} examples found", all.len());
    let mut used = vec![false; SHORTER.len()];
    let mut failures = Vec::new();
    let mut by_document: BTreeMap<&Path, Vec<&Example>> = BTreeMap::new();
    for example in &all {
        by_document
            .entry(&example.document)
            .or_default()
            .push(example);
    }
    let files = clone_files();
    assert!(
        files.iter().any(|f| f == Path::new("engines.toml")),
        "the repository's files are listed: {} found",
        files.len()
    );
    for (document, examples) in by_document {
        let name = document.file_stem().unwrap().to_string_lossy();
        let dir = Scratch::new(&format!("doc-examples-{name}"));
        prepare(&dir, &files);
        for example in examples {
            let place = format!("{}:{}", example.document.display(), example.line);
            let mut command = as_run(&example.text);
            if example.needs {
                if tool_form(&command) {
                    failures.push(format!(
                        "{place}: a cutechess-cli/fastchess line cannot be marked `needs:` \
                         (it cannot be parse-checked): give it stand-ins here instead"
                    ));
                    continue;
                }
                let check = format!("{} --help", first_command(&command));
                let (code, err) = run_limited(&dir, &check);
                println!("{place}: parses (`{check}`): {code:?}");
                if code != Some(0) {
                    failures.push(format!("{place}: `{check}` does not parse: {}", err.trim()));
                }
                continue;
            }
            for (i, (long, short, _)) in SHORTER.iter().enumerate() {
                if command.contains(long) {
                    command = command.replace(long, short);
                    used[i] = true;
                }
            }
            if command.contains("tockfish") && !stockfish_installed() {
                peer_missing(
                    &format!("stockfish is not installed: `{command}` not run"),
                    peers_required(),
                );
                continue;
            }
            let started = Instant::now();
            let (code, err) = run_limited(&dir, &command);
            println!(
                "{place}: `{command}`: {code:?} in {:.1?}",
                started.elapsed()
            );
            let audit_found_deviations = command.contains(" audit ") && code == Some(1);
            match code {
                Some(0) => {}
                _ if audit_found_deviations => {}
                None => failures.push(format!(
                    "{place}: `{command}` took more than {TIME_LIMIT:?}"
                )),
                Some(code) => failures.push(format!(
                    "{place}: `{command}` exited with {code}: {}",
                    err.trim()
                )),
            }
        }
    }
    for (i, (long, _, why)) in SHORTER.iter().enumerate() {
        if !used[i] {
            failures.push(format!(
                "the substitution of `{long}` ({why}) applies to no command: remove it"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
