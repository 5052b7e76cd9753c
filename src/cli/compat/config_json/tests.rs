use super::super::words::{options, Opt};
use super::*;

/// fastchess's config.json after `record.sh`'s first run (3 rounds, seed 5).
const FIRST: &str = include_str!("../../../../tests/data/peers/config/more-rounds.first.json");

/// Its command line (with `-rounds 3` and `-pgnout`).
const LINE: &str = "-engine cmd=./shannon name=alpha option.Seed=11 -engine cmd=./shannon \
                    name=beta option.Seed=22 -each proto=uci tc=inf nodes=1000 -concurrency 1 \
                    -openings file=openings.epd format=epd order=sequential -games 2 -repeat \
                    -srand 5 -rounds 3 -pgnout file=more-rounds.pgn min=true";

fn words(line: &str) -> Vec<Opt> {
    let words: Vec<String> = line.split_whitespace().map(String::from).collect();
    options(&words).unwrap()
}

fn path() -> &'static Path {
    Path::new("config.json")
}

#[test]
fn fastchess_s_file_reads_and_writes_back_byte_for_byte() {
    let config = FastchessConfig::parse(FIRST, path()).unwrap();
    assert_eq!(config.engines.len(), 2);
    assert_eq!(config.engines[1].options, [("Seed".into(), "22".into())]);
    assert_eq!(config.seed, 5);
    assert_eq!(config.to_text(), FIRST);
}

#[test]
fn the_command_line_makes_the_file_fastchess_made() {
    let config = FastchessConfig::of_options(&words(LINE), 99);
    assert_eq!(
        config.to_text(),
        FastchessConfig {
            stats: Vec::new(),
            ..FastchessConfig::parse(FIRST, path()).unwrap()
        }
        .to_text()
    );
}

#[test]
fn the_file_s_options_make_the_same_file_again() {
    let config = FastchessConfig::parse(FIRST, path()).unwrap();
    let again = FastchessConfig::of_options(&config.options(), 0);
    assert_eq!(
        again.to_text(),
        FastchessConfig {
            stats: Vec::new(),
            ..config
        }
        .to_text()
    );
}

#[test]
fn the_results_are_carried_per_pair_with_their_pentanomial() {
    let config = FastchessConfig::parse(FIRST, path()).unwrap();
    let carried = config.carried().unwrap();
    assert_eq!(carried.games, 6);
    let pair = &carried.encounters[0];
    assert_eq!(
        (pair.first.as_str(), pair.second.as_str()),
        ("alpha", "beta")
    );
    assert_eq!(
        (pair.score.wins, pair.score.draws, pair.score.losses),
        (1, 4, 1)
    );
    assert_eq!(pair.pairs.counts, [0, 1, 1, 1, 0]);
}

#[test]
fn time_controls_go_both_ways() {
    for (tc, text) in [
        ("40/60+0.6", "tc=40/60+0.6"),
        ("10+0.1", "tc=10+0.1"),
        ("1:30+1", "tc=90+1"),
        ("inf", "tc=inf"),
    ] {
        let mut engine = FastchessConfig::of_options(
            &words(&format!("-engine cmd=a tc={tc} -engine cmd=b tc=1")),
            0,
        )
        .engines
        .remove(0);
        assert_eq!(engine.words()[2], text, "{tc}");
        engine.limit.tc = TcJson {
            fixed_time: 250,
            ..TcJson::default()
        };
        assert_eq!(engine.words()[2], "st=0.25");
    }
}

#[test]
fn damaged_files_name_the_field() {
    let error = |text: &str| {
        FastchessConfig::parse(text, path())
            .unwrap_err()
            .to_string()
    };
    assert!(error("{").contains("not fastchess's config.json"));
    assert!(error(&FIRST.replace("\"games\": 2,", ""))
        .ends_with("field games is missing (fastchess 1.8.2 writes it)"));
    assert!(error(&FIRST.replace("\"order\": 1", "\"order\": 7"))
        .contains("field opening.order is not an integer from 0 to 1"));
    assert!(error(&FIRST.replace("\"11\"", "11"))
        .contains("field engines[0].options[0] is not a pair of strings"));
    assert!(error(&FIRST.replace("\"wins\": 1", "\"wins\": -1"))
        .contains("field stats.\"alpha vs beta\".wins is not a count"));
}

#[test]
fn config_keys_are_read_in_order_as_fastchess_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("saved.json");
    std::fs::write(&file, FIRST).unwrap();
    let file = file.display().to_string();
    let line = |tail: &str| words(&format!("-engine cmd=x -engine cmd=y -each tc=1 {tail}"));
    // file= replaces what came before but -each, keeps its results and its config_name.
    let run = expand(line(&format!("-config file={file} -rounds 5"))).unwrap();
    let names: Vec<&str> = run.options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names.iter().filter(|n| **n == "-engine").count(), 2);
    assert!(run
        .options
        .iter()
        .any(|o| o.values.iter().any(|v| v == "name=alpha")));
    assert_eq!(names.last(), Some(&"-rounds"));
    assert!(names.contains(&"-each"));
    assert_eq!(run.carried.unwrap().games, 6);
    assert_eq!(run.name, "config.json");
    assert_eq!(run.said, [format!("Loading config file: {file}")]);
    // outname= names the file saved; stats=false drops the results.
    let run = expand(line(&format!(
        "-config file={file} outname=x.json stats=false"
    )))
    .unwrap();
    assert_eq!((run.name.as_str(), run.carried), ("x.json", None));
    // discard=true goes back to the line before the file, without its results.
    let run = expand(line(&format!("-config file={file} discard=true"))).unwrap();
    assert!(run
        .options
        .iter()
        .any(|o| o.values.iter().any(|v| v == "cmd=x")));
    assert_eq!(run.carried, None);
    // Keys fastchess does not have are refused by name.
    let error = expand(line(&format!("-config file={file} frob=1"))).unwrap_err();
    assert!(error.to_string().starts_with("-config frob=1:"), "{error}");
}

#[test]
fn stats_are_saved_per_pair_in_the_engines_order_with_dd_apart_from_wl() {
    let config = FastchessConfig::parse(FIRST, path()).unwrap();
    let carried = config.carried().unwrap();
    let mut standings = Standings {
        names: vec!["beta".into(), "alpha".into()],
        ..Standings::default()
    };
    // Beta first: the file's pair seen from the other side.
    let mut tally = shannon::arena::EncounterTally {
        engines: (1, 0),
        score: carried.encounters[0].score,
        ..Default::default()
    };
    tally.pairs.add_pairs(&carried.encounters[0].pairs);
    standings.encounters.push(tally);
    let mut saved = config.clone();
    saved.set_stats(&standings);
    assert_eq!(saved.stats[0].0, "beta vs alpha");
    let s = &saved.stats[0].1;
    assert_eq!((s.wins, s.losses, s.draws), (1, 1, 4));
    assert_eq!(
        (s.penta_ww, s.penta_wd, s.penta_wl, s.penta_dd, s.penta_ld, s.penta_ll),
        (0, 1, 0, 1, 1, 0)
    );
}
