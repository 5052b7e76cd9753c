//! The table of cutechess-cli's and fastchess's options in docs/compat.md ("Command line") is
//! checked against the reader: every option and engine key it
//! lists is read (a command line using it parses) or, where the table says refused, refused
//! with a message naming it; and every option and engine key of the two tools' `-help`
//! (`tests/data/peers/`) is in the table.

use super::error::CompatError;
use super::parse;

const COMPAT_DOC: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/compat.md"));
const CUTECHESS_HELP: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/peers/cutechess-cli-1.5.1-options.txt"
));
const FASTCHESS_HELP: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/peers/fastchess-1.8.2-alpha-options.txt"
));

/// One item of the table's first column: an option (`-pgnout`) or an engine key (`cmd`,
/// `option.`), and whether its row says it is refused.
#[derive(Debug)]
struct Item {
    name: String,
    refused: bool,
}

/// The name an option or key goes by: `-pgnout FILE [min]` is `-pgnout`, `tc=40/60+0.6` is `tc`,
/// `option.NAME=VALUE` (or `option.OPTION`, `option.name`) is `option.`.
fn name_of(text: &str) -> String {
    let word = text.split_whitespace().next().unwrap_or_default();
    if word.starts_with("option.") {
        return "option.".into();
    }
    match word.starts_with('-') {
        true => word.to_string(),
        false => word.split('=').next().unwrap_or_default().to_string(),
    }
}

/// The items of docs/compat.md's option table.
fn table() -> Vec<Item> {
    let section = COMPAT_DOC
        .split_once("## Command line")
        .expect("docs/compat.md has the Command line section")
        .1;
    let mut items = Vec::new();
    let rows = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2);
    for row in rows {
        // Cells split at `|` but not at `\|` (an alternative inside a cell).
        let cells: Vec<String> = row
            .replace("\\|", "\u{1}")
            .split('|')
            .map(|c| c.replace('\u{1}', "|").trim().to_string())
            .collect();
        let (first, second) = (&cells[1], &cells[2]);
        let refused = second.starts_with("refused");
        for (i, span) in first.split('`').enumerate() {
            if i % 2 == 1 {
                items.push(Item {
                    name: name_of(span),
                    refused,
                });
            }
        }
    }
    items
}

/// A command line that uses `name` (with the values it needs) on two engines.
fn sample(name: &str) -> Option<String> {
    // Two games: a game pair, which either tool's reading plays.
    let base = "-engine cmd=a -engine cmd=b -each tc=10+0.1 -games 2";
    let engine_key =
        |words: &str| format!("-engine cmd=a {words} -engine cmd=b -each tc=10+0.1 -games 2");
    let each = |words: &str| format!("-engine cmd=a -engine cmd=b -games 2 -each {words}");
    let with = |words: &str| format!("{base} {words}");
    Some(match name {
        "-engine" | "-each" | "cmd" => base.to_string(),
        "name" => engine_key("name=dev"),
        "dir" => engine_key("dir=engines"),
        "arg" => engine_key("arg=--uci"),
        "args" => engine_key("args=-a"),
        "option." => engine_key("option.Hash=16"),
        "proto" => engine_key("proto=uci"),
        "tc" => each("tc=40/60+0.6"),
        "st" => each("st=0.5"),
        "nodes" => each("tc=inf nodes=3000"),
        "depth" => each("depth=8"),
        "plies" => each("plies=8"),
        "timemargin" => each("tc=10+0.1 timemargin=50"),
        "book" => engine_key("book=book.bin"),
        "bookdepth" => engine_key("book=book.bin bookdepth=4"),
        "stderr" => engine_key("stderr=err.txt"),
        "restart" => engine_key("restart=off"),
        // The engine must be found in an engines.json (a missing one is not a refusal).
        "conf" => engine_key("conf=Nobody"),
        "initstr" => engine_key("initstr=hello"),
        "whitepov" | "trust" | "ponder" | "debug" => engine_key(name),
        "tscale" => engine_key("tscale=2"),
        "-tournament" => with("-tournament gauntlet"),
        "-seeds" => with("-tournament gauntlet -seeds 1"),
        "-rounds" => with("-rounds 4"),
        "-games" => with("-games 2"),
        "-repeat" => with("-repeat"),
        "-concurrency" => with("-concurrency 2"),
        "-openings" => {
            with("-openings file=book.epd format=epd order=random plies=8 start=2 policy=default")
        }
        "-variant" => with("-variant fischerandom"),
        "-pgnout" => with("-pgnout file=games.pgn notation=san"),
        "-epdout" => with("-epdout ends.epd"),
        "-sprt" => with("-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05"),
        "-draw" => with("-draw movenumber=40 movecount=8 score=10"),
        "-resign" => with("-resign movecount=3 score=600 twosided=true"),
        "-maxmoves" => with("-maxmoves 200"),
        "-recover" => with("-recover"),
        "-srand" => with("-srand 42"),
        "-randomseed" => with("-randomseed 42"),
        "-event" => with("-event Test"),
        "-site" => with("-site Here"),
        "-output" => with("-output format=cutechess"),
        "-ratinginterval" => with("-ratinginterval 10"),
        "-scoreinterval" => with("-scoreinterval 2"),
        "-outcomeinterval" => with("-outcomeinterval 2"),
        "-startup-ms" => with("-startup-ms 5000"),
        "-wait" => with("-wait 0"),
        "-version" | "-help" | "-engines" => name.to_string(),
        "-dialect" => with("-dialect cutechess"),
        "-testEnv" | "-check-mate-pvs" | "-use-affinity" | "-force-concurrency"
        | "-show-latency" | "-strict" | "-debug" | "-tbignore50" | "-noswap" | "-reverse" => {
            with(name)
        }
        "-crc32" => with("-crc32 pgn=true"),
        "-report" => with("-report penta=false"),
        "-autosaveinterval" => with("-autosaveinterval 20"),
        "-ucinewgame-ms" => with("-ucinewgame-ms 60000"),
        "-ping-ms" => with("-ping-ms 60000"),
        "-bookmode" => with("-bookmode trie"),
        "-log" => with(&format!(
            "-log file={} level=info engine=true",
            sample_log().display()
        )),
        "-tb" => with("-tb /syzygy"),
        "-tbpieces" => with("-tbpieces 6"),
        "-tbadjudicate" => with("-tbadjudicate BOTH"),
        "--compliance" => "--compliance ./engine".to_string(),
        "-resultformat" => with("-resultformat wide"),
        "-quick" => "-quick cmd=a cmd=b book=book.epd".to_string(),
        "-config" => format!(
            "-config file={}/tests/data/peers/config/more-rounds.first.json",
            env!("CARGO_MANIFEST_DIR")
        ),
        _ => return None,
    })
}

/// The log file `-log`'s sample names (reading the option opens it): one per test process,
/// removed at the test's end.
fn sample_log() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("shannon-option-table-{}.log", std::process::id()))
}

#[test]
fn every_option_in_the_table_is_read_or_refused_by_name() {
    let items = table();
    assert!(items.len() > 60, "the table was not found: {items:?}");
    let mut problems = Vec::new();
    for item in &items {
        let Some(line) = sample(&item.name) else {
            problems.push(format!(
                "{}: no sample command line in this test",
                item.name
            ));
            continue;
        };
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        let result = parse(&words);
        match (&result, item.refused) {
            (Err(error), true) if error.to_string().contains(item.name.as_str()) => {}
            (Err(CompatError::Refused { .. } | CompatError::Unknown(_)), false) => problems.push(
                format!("{}: read as honoured, but {line}: {:?}", item.name, result),
            ),
            // conf=NAME of an engine no engines.json holds: read, and not found.
            (Err(error), false) if item.name == "conf" && error.to_string().contains("conf=") => {}
            (Ok(_), false) => {}
            (result, refused) => problems.push(format!(
                "{}: the table says {}, but {line} gives {result:?}",
                item.name,
                if refused { "refused" } else { "read" }
            )),
        }
    }
    let _ = std::fs::remove_file(sample_log());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_option_of_the_tools_help_is_in_the_table() {
    let names: Vec<String> = table().into_iter().map(|item| item.name).collect();
    let mut missing = Vec::new();
    for (tool, help) in [
        ("cutechess-cli", CUTECHESS_HELP),
        ("fastchess", FASTCHESS_HELP),
    ] {
        let listed: Vec<&str> = help
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .collect();
        assert!(listed.len() > 30, "{tool}: {listed:?}");
        for option in listed {
            if !names.contains(&name_of(option)) {
                missing.push(format!("{tool}: {option}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not in docs/compat.md's option table:\n{}",
        missing.join("\n")
    );
}
