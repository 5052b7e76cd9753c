//! `shannon match` with cutechess-cli's and fastchess's command lines, copied from the two
//! tools' man pages and README and from the workers of fishtest and OpenBench (issue 22, part
//! A). Each is adapted only where it must be: the engines are this shannon (or Stockfish), the
//! games fewer, the time controls of the frameworks' scaling replaced by short ones; each test
//! says what it changed. The games must be played as asked: their number, colours, openings,
//! tags and time control, read back from the PGN.

use super::{read_pgn, run, scratch, stockfish, tag};
use crate::common::MatchLine;
use crate::common::{data_path, SHANNON};
use std::path::Path;

/// Split a command line as a shell would (single and double quotes; no escapes needed here),
/// with `{shannon}` and `{stockfish}` put in.
pub(super) fn shell_words(line: &str, stockfish: &str) -> Vec<String> {
    let line = line
        .replace("{shannon}", SHANNON)
        .replace("{stockfish}", stockfish);
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut started = false;
    for c in line.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                started = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (_, c) => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// Run `shannon match LINE` in `dir`: (success, stdout, stderr).
fn compat(dir: &Path, line: &str) -> (bool, String, String) {
    compat_with(dir, line, "")
}

fn compat_with(dir: &Path, line: &str, stockfish: &str) -> (bool, String, String) {
    let words = shell_words(line, stockfish);
    let mut args = vec!["match"];
    args.extend(words.iter().map(String::as_str));
    run(&args, dir)
}

/// Four positions, one a line for EPD files of openings.
const BOOK_EPD: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1
";

/// Games 2j-1 and 2j (the `Round` tag: the PGN has them in the order they finished) are one
/// opening with colours swapped.
fn assert_pairs(games: &[shannon::notation::pgn::PgnGame]) {
    assert_eq!(games.len() % 2, 0, "whole pairs");
    let mut games: Vec<_> = games.iter().collect();
    games.sort_by_key(|g| tag(g, "Round").parse::<u32>().unwrap());
    for pair in games.chunks(2) {
        assert_eq!(tag(pair[0], "White"), tag(pair[1], "Black"));
        assert_eq!(tag(pair[0], "Black"), tag(pair[1], "White"));
        assert_eq!(
            pair[0].record.start, pair[1].record.start,
            "one opening a pair"
        );
    }
}

/// The `Finished game` lines as OpenBench's worker reads them (`tokens[2]`, `tokens[6]`).
fn openbench_results(out: &str) -> Vec<(u32, String)> {
    out.lines()
        .filter(|line| line.contains("Finished game"))
        .map(|line| {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            (tokens[2].parse().unwrap(), tokens[6].to_string())
        })
        .collect()
}

/// cutechess-cli's man page, third example ("Play a Round-Robin tournament between Fruit,
/// Crafty, Stockfish and Sloppy"): `conf=NAME` (an engine of cutechess-cli's engines.json)
/// replaced by this shannon named so, `-rounds 10` by `-rounds 1`; `book.bin` is a one-move
/// Polyglot book (1. e4), so every game opens 1. e4 from the book.
#[test]
fn cutechess_man_round_robin_with_a_book() {
    let dir = scratch("compat-cutechess-rr");
    // Polyglot: key of the start position, move e2e4, weight 1, learn 0 (big-endian).
    let mut entry = 0x463b_9618_1691_fc9c_u64.to_be_bytes().to_vec();
    entry.extend(0x031c_u16.to_be_bytes());
    entry.extend(1_u16.to_be_bytes());
    entry.extend(0_u32.to_be_bytes());
    std::fs::write(dir.join("book.bin"), entry).unwrap();
    let line = "-engine cmd={shannon} name=Fruit -engine cmd={shannon} name=Crafty \
                -engine cmd={shannon} name=Stockfish -engine cmd={shannon} name=Sloppy \
                -each tc=4 book=book.bin -games 2 -rounds 1 -repeat -pgnout games.pgn";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    let games = read_pgn(&dir.join("games.pgn"));
    assert_eq!(games.len(), 12, "6 encounters x 2 games x 1 round");
    assert_pairs(&games);
    assert!(games.iter().all(|g| tag(g, "TimeControl") == "4"));
    let text = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(text.matches("1. e4 {book}").count(), 12, "{text}");
    assert_eq!(out.matches("Finished game").count(), 12, "{out}");
}

/// cutechess-cli's man page, second example (Atak over xboard against Glaurung), with Shannon
/// in both seats: it was refused by name while the runner spoke UCI only; it plays now, the
/// first engine over xboard (issue 32).
#[test]
fn cutechess_man_xboard_engine_plays() {
    let dir = scratch("compat-xboard");
    let line = "-engine name=Atak cmd={shannon} dir=. proto=xboard \
                -engine cmd={shannon} proto=uci option.Threads=1 -each tc=40/1:30+1";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    assert!(out.contains("Finished game 1 (Atak vs shannon)"), "{out}");
    // The first example sets it for both engines with -each.
    let line = "-engine cmd={shannon} -engine cmd={shannon} -each proto=xboard tc=40/60 -rounds 4";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    assert!(out.contains("Finished game 4"), "{out}");
    // A protocol neither tool speaks is an error naming it.
    let line = "-engine cmd={shannon} -engine cmd={shannon} -each proto=cecp tc=40/60";
    let (ok, _, err) = compat(&dir, line);
    assert!(!ok && err.contains("-each proto"), "{err}");
}

/// fastchess's README example: `-rounds 200` made `-rounds 2`. No option tells the tools apart
/// and they read `-rounds 2 -repeat` differently, so a note says fastchess's reading was taken:
/// 2 rounds of 2 games.
#[test]
fn fastchess_readme_example() {
    let dir = scratch("compat-fastchess-readme");
    let line = "-engine cmd={shannon} name=Engine1 -engine cmd={shannon} \
                name=Engine2 -each tc=10+0.1 -rounds 2 -repeat -concurrency 4 -pgnout file=g.pgn";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    let games = read_pgn(&dir.join("g.pgn"));
    assert_eq!(games.len(), 4);
    assert_pairs(&games);
    let first = games.iter().find(|g| tag(g, "Round") == "1").unwrap();
    assert_eq!(tag(first, "White"), "Engine1");
    assert_eq!(tag(&games[0], "TimeControl"), "10+0.1");
    // `-pgnout file=` is fastchess's: no note needed. Without it the reading is noted.
    let line = "-engine cmd={shannon} name=Engine1 -engine cmd={shannon} \
                name=Engine2 -each tc=10+0.1 -rounds 2 -repeat -concurrency 4";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    assert!(
        err.contains("read as fastchess's command line (4 games"),
        "{err}"
    );
    assert_eq!(out.matches("Finished game").count(), 4, "{out}");
    let line = format!("{line} -dialect cutechess");
    let (ok, out, _) = compat(&dir, &line);
    assert!(ok);
    assert_eq!(
        out.matches("Finished game").count(),
        2,
        "cutechess-cli's reading: {out}"
    );
}

/// fastchess's man page, first example (random openings from book.epd): `-rounds 200` made 2.
#[test]
fn fastchess_man_random_openings_from_an_epd_book() {
    let dir = scratch("compat-fastchess-book");
    std::fs::write(dir.join("book.epd"), BOOK_EPD).unwrap();
    let line = "-engine cmd={shannon} name=Engine1 -engine cmd={shannon} \
                name=Engine2 -openings file=book.epd format=epd order=random \
                -each tc=60+0.6 option.Hash=64 -rounds 2 -repeat -concurrency 4 \
                -pgnout file=out.pgn -srand 7";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    let games = read_pgn(&dir.join("out.pgn"));
    assert_eq!(games.len(), 4);
    assert_pairs(&games);
    let book: Vec<&str> = BOOK_EPD.lines().collect();
    for game in &games {
        let fen = tag(game, "FEN");
        assert!(
            book.iter().any(|l| fen.starts_with(&l[..l.len() - 4])),
            "{fen}"
        );
        assert_eq!(tag(game, "TimeControl"), "60+0.6");
    }
}

/// fastchess's man page, second example (an SPRT with node limits beside a clock): each engine
/// plays under the clock with its own node cap; `-rounds 100000` made 2.
#[test]
fn fastchess_man_nodes_beside_a_clock() {
    let dir = scratch("compat-fastchess-sprt");
    std::fs::write(dir.join("UHO_Lichess_4852_v1.epd"), BOOK_EPD).unwrap();
    std::fs::create_dir(dir.join("games")).unwrap();
    let line = "-engine cmd={shannon} name=Engine1 option.Threads=1 nodes=2000000 \
                -engine cmd={shannon} name=Engine2 option.Threads=2 nodes=1000000 \
                -openings file=UHO_Lichess_4852_v1.epd format=epd order=random \
                -each tc=300+5 -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20 \
                -sprt elo0=0 elo1=2 alpha=0.05 beta=0.05 \
                -rounds 2 -concurrency 3 -pgnout notation=san nodes=true file=./games/sprt.pgn";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains(
            "Results of Engine1 vs Engine2 (300+5, 1t - 2t, 16MB, UHO_Lichess_4852_v1.epd)"
        ),
        "{out}"
    );
    let games = read_pgn(&dir.join("games/sprt.pgn"));
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|g| tag(g, "TimeControl") == "300+5"));
}

/// fishtest's worker (worker/games.py, `run_games`): its fastchess command line with this
/// shannon for both engines, `-rounds` for 4 games, the scaled time control `1.5+0.015`, and
/// `_spsa_` left out (fishtest replaces it by nothing outside SPSA). The PGN's Event and Site are
/// fishtest's; a resumed run finds the engines in the state, with no engines file.
#[test]
fn fishtest_worker_command_line() {
    let dir = scratch("compat-fishtest");
    std::fs::write(dir.join("UHO_Lichess_4852_v1.epd"), BOOK_EPD).unwrap();
    let line = "-testEnv -recover -repeat -games 2 -rounds 2 \
                -ratinginterval 1 -scoreinterval 1 -autosaveinterval 0 -report penta=true \
                -pgnout file=results-abc-1.pgn append=false -crc32 pgn=true \
                -site tests.stockfishchess.org/tests/view/abc \
                -event 'Batch 1: New-1234567890 vs Base-0987654321' -srand 12345 \
                -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20 \
                -variant standard -concurrency 2 \
                -openings file=UHO_Lichess_4852_v1.epd format=epd order=random plies=16 start=1 \
                -check-mate-pvs \
                -engine name=New-1234567890 tc=1.5+0.015 cmd={shannon} dir=. option.Hash=16 \
                -engine name=Base-0987654321 tc=1.5+0.015 cmd={shannon} dir=. option.Hash=16 \
                -each proto=uci option.Threads=1";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    assert!(err.contains("note: -testEnv: accepted"), "{err}");
    let pgn = dir.join("results-abc-1.pgn");
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 4);
    assert_pairs(&games);
    for game in &games {
        assert_eq!(
            tag(game, "Event"),
            "Batch 1: New-1234567890 vs Base-0987654321"
        );
        assert_eq!(tag(game, "Site"), "tests.stockfishchess.org/tests/view/abc");
        assert_eq!(tag(game, "TimeControl"), "1.5+0.015");
    }
    let state = dir.join("results-abc-1.pgn.state.json");
    let (ok, out, err) = MatchLine::new()
        .arg("--resume", &state)
        .quiet()
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert_eq!(read_pgn(&pgn).len(), 4, "nothing left to play");
}

/// OpenBench's worker (Client/worker.py, `build_runner_command`): the engines in `Engines/`
/// (here links to this shannon), the book in `Books/`, a scaled clock with `timemargin=250`,
/// and `-pgnout ... match_line=...` (accepted with a note). Its `Finished game` parser reads
/// our lines; `-rounds` for 4 games.
#[test]
fn openbench_worker_command_line() {
    let dir = scratch("compat-openbench");
    std::fs::create_dir(dir.join("Engines")).unwrap();
    std::fs::create_dir(dir.join("Books")).unwrap();
    for name in ["Shannon-dev", "Shannon-base"] {
        std::os::unix::fs::symlink(SHANNON, dir.join("Engines").join(name)).unwrap();
    }
    std::fs::write(dir.join("Books/UHO_4060_v2.epd"), BOOK_EPD).unwrap();
    let line = "-recover -variant standard -testEnv -concurrency 2 -rounds 2 -games 2 \
                -resign movecount=3 score=400 -draw movenumber=40 movecount=8 score=10 \
                -engine dir=Engines/ cmd=./Shannon-dev proto=uci tc=8.00+0.08 timemargin=250 \
                option.Threads=1 option.Hash=16 name=Shannon-dev \
                -engine dir=Engines/ cmd=./Shannon-base proto=uci tc=8.00+0.08 timemargin=250 \
                option.Threads=1 option.Hash=16 name=Shannon-base \
                -openings file=Books/UHO_4060_v2.epd format=epd order=random start=3 -srand 9 \
                -pgnout file=ob.pgn seldepth=true nodes=true match_line='^info string pgncomment .*'";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    assert!(
        err.contains("without seldepth, nodes, match_line="),
        "{err}"
    );
    let games = read_pgn(&dir.join("ob.pgn"));
    assert_eq!(games.len(), 4);
    assert_pairs(&games);
    assert_eq!(tag(&games[0], "TimeControl"), "8+0.08");
    // Issue 31: `cmd=./Shannon-dev` is found in `dir=Engines/`, where the engine runs; every
    // game used to be a forfeit (`{White disconnects}`), which OpenBench counts as a crash.
    for game in &games {
        assert_ne!(tag(game, "Termination"), "abandoned", "{out}");
        assert!(game.record.moves.len() > 1, "{out}");
    }
    assert!(!out.contains("disconnects"), "{out}");
    let results = openbench_results(&out);
    let mut numbers: Vec<u32> = results.iter().map(|(n, _)| *n).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2, 3, 4]);
    for (_, result) in &results {
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()),
            "{result}"
        );
    }
}

/// OpenBench's fixed-nodes form (`tc=inf nodes=N`, from `scale_time_control`) with Stockfish
/// against this shannon: Stockfish at 5000 nodes a move wins every game.
#[test]
fn openbench_fixed_nodes_against_stockfish() {
    let Some(stockfish) = stockfish() else { return };
    let dir = scratch("compat-openbench-nodes");
    let line = "-recover -variant standard -testEnv -concurrency 2 -rounds 1 -games 2 \
                -engine cmd={stockfish} proto=uci tc=inf nodes=5000 option.Threads=1 \
                option.Hash=16 name=Stockfish-dev \
                -engine cmd={shannon} proto=uci tc=inf nodes=5000 option.Threads=1 \
                option.Hash=16 name=Shannon-base -pgnout file=sf.pgn";
    let (ok, out, err) = compat_with(&dir, line, stockfish.to_str().unwrap());
    assert!(ok, "{out}{err}");
    let games = read_pgn(&dir.join("sf.pgn"));
    assert_eq!(games.len(), 2);
    assert_pairs(&games);
    for game in &games {
        let winner = match tag(game, "Result") {
            "1-0" => tag(game, "White"),
            "0-1" => tag(game, "Black"),
            other => panic!("Stockfish did not win: {other}"),
        };
        assert_eq!(winner, "Stockfish-dev");
    }
}

/// OpenBench's fixed-movetime form (`st=S timemargin=250`): a time per move, the PGN's
/// `TimeControl` in seconds per move.
#[test]
fn openbench_movetime() {
    let dir = scratch("compat-openbench-st");
    let line = "-concurrency 2 -rounds 1 -games 2 -maxmoves 20 \
                -engine cmd={shannon} proto=uci st=0.05 timemargin=250 name=a \
                -engine cmd={shannon} proto=uci st=0.05 timemargin=250 name=b -pgnout file=st.pgn";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    let games = read_pgn(&dir.join("st.pgn"));
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(tag(game, "TimeControl"), "0.05/move");
        assert!(game.record.moves.len() <= 40, "-maxmoves 20 is 40 plies");
    }
}

/// cutechess-cli's own forms: `-pgnout FILE min`, `-epdout FILE`, `-event`, `-site`,
/// `-tournament round-robin`, and `-games` times `-rounds` (2 x 2 = 4 games).
#[test]
fn cutechess_positional_outputs_and_tags() {
    let dir = scratch("compat-cutechess-outputs");
    let line = "-engine cmd={shannon} name=one -engine cmd={shannon} name=two \
                -each proto=uci tc=40/2+0.01 -tournament round-robin -games 2 -rounds 2 -repeat \
                -pgnout games.pgn min -epdout final.epd -event 'Test Event' -site Lab -srand 5";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    let games = read_pgn(&dir.join("games.pgn"));
    assert_eq!(games.len(), 4);
    assert_pairs(&games);
    for game in &games {
        assert_eq!(tag(game, "Event"), "Test Event");
        assert_eq!(tag(game, "Site"), "Lab");
        assert!(
            game.tag("TimeControl").is_none(),
            "min: the Seven Tag Roster only"
        );
    }
    let epd = std::fs::read_to_string(dir.join("final.epd")).unwrap();
    assert_eq!(epd.lines().count(), 4);
}

/// fastchess's gauntlet of three engines, one round of two games per encounter.
#[test]
fn fastchess_gauntlet_of_three() {
    let dir = scratch("compat-gauntlet");
    let line = "-engine cmd={shannon} name=seed -engine cmd={shannon} name=b \
                -engine cmd={shannon} name=c -each tc=2+0.02 -tournament gauntlet \
                -rounds 1 -games 2 -pgnout file=g.pgn";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    let games = read_pgn(&dir.join("g.pgn"));
    assert_eq!(games.len(), 4, "two encounters of two games");
    assert_pairs(&games);
    for game in &games {
        assert!(tag(game, "White") == "seed" || tag(game, "Black") == "seed");
    }
}

/// `-variant fischerandom` without a book: Chess960 start positions, each played twice.
#[test]
fn fischerandom_without_a_book() {
    let dir = scratch("compat-frc");
    let line = "-engine cmd={shannon} name=a -engine cmd={shannon} name=b -each tc=2+0.02 \
                -variant fischerandom -games 2 -rounds 2 -repeat -pgnout file=frc.pgn";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    let games = read_pgn(&dir.join("frc.pgn"));
    assert_eq!(games.len(), 4);
    assert_pairs(&games);
    assert!(games
        .iter()
        .all(|g| g.record.castling == shannon::CastlingMode::Chess960));
}

/// cutechess-cli's PGN openings: `format=pgn plies=2 order=sequential`: every game starts with
/// the first two moves of the file's game.
#[test]
fn cutechess_pgn_openings_cut_to_plies() {
    let dir = scratch("compat-pgn-openings");
    std::fs::write(
        dir.join("openings.pgn"),
        "[Event \"?\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 *\n",
    )
    .unwrap();
    let line = "-engine cmd={shannon} -engine cmd={shannon} name=other -each proto=uci tc=3+0.03 \
                -openings file=openings.pgn format=pgn order=sequential plies=2 \
                -games 2 -repeat -bookmode ram -pgnout games.pgn";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    let text = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    let games = read_pgn(&dir.join("games.pgn"));
    assert_eq!(games.len(), 2);
    assert_pairs(&games);
    // The opening's two plies are book moves, commented `{book}` as cutechess-cli comments them
    // (cutechess-cli 1.5.1 writes `1. d4 {book} d5 {book} 2. ...` for this command line; Shannon's
    // PGN writer follows the export format, black's move number again after a comment); the
    // engines' own moves carry their comments.
    assert_eq!(
        text.matches("1. d4 {book} 1... d5 {book} 2.").count(),
        2,
        "{text}"
    );
    assert_eq!(text.matches("{book}").count(), 4, "{text}");
    assert!(err.contains("-bookmode: accepted"), "{err}");
}

/// fastchess's SPRT in each of its models (no note: it is fastchess's own test): the LLR with its
/// bounds and elo0 and elo1; the Bayesian model turns the pentanomial off with fastchess's
/// warning. cutechess-cli's form has no `model=`.
#[test]
fn sprt_in_each_fastchess_model() {
    let dir = scratch("compat-sprt");
    let line = "-engine cmd={shannon} name=a -engine cmd={shannon} name=b -each tc=inf depth=1 \
                -sprt elo0=-5 elo1=5 alpha=0.05 beta=0.05 model=logistic -rounds 2 -games 2";
    let warning = "Warning; Bayesian SPRT model not available with pentanomial statistics. \
                   Disabling pentanomial reports...";
    for model in ["logistic", "normalized", "bayesian"] {
        let line = line.replace("model=logistic", &format!("model={model}"));
        let (ok, out, err) = compat(&dir, &line);
        assert!(ok, "{model}: {out}{err}");
        assert!(!err.contains("note: -sprt"), "{err}");
        // fastchess's output (the default of a fastchess command line): the LLR with its
        // bounds and the test's elo0 and elo1.
        assert!(out.contains("(-2.94, 2.94) [-5.00, 5.00]"), "{out}");
        assert_eq!(out.contains(warning), model == "bayesian", "{out}");
        assert_eq!(out.contains("Ptnml(0-2)"), model != "bayesian", "{out}");
    }
    let line = line.replace("-games 2", "-games 2 -repeat -dialect cutechess");
    let (ok, _, err) = compat(&dir, &line);
    assert!(
        !ok && err.contains("-sprt model=logistic: not supported: cutechess-cli's -sprt"),
        "{err}"
    );
}

/// The refusals: an unknown option, an unknown engine key, the two forms mixed (either way),
/// a malformed key=value, options of both tools, engines with different limits, openings that
/// change every game.
#[test]
fn refusals_name_the_option() {
    let dir = scratch("compat-refusals");
    std::fs::write(dir.join("book.epd"), BOOK_EPD).unwrap();
    let engines = "-engine cmd={shannon} -engine cmd={shannon} -each tc=1+0.01";
    for (line, expected) in [
        (
            format!("{engines} -frobnicate 3"),
            "-frobnicate: neither cutechess-cli nor fastchess",
        ),
        (format!("{engines} colour=red"), "-each colour=: neither"),
        (
            format!("{engines} --games 2"),
            "--games: a cutechess-cli/fastchess command line",
        ),
        (
            format!("--games 2 {engines}"),
            "--games: a cutechess-cli/fastchess command line",
        ),
        (
            format!("{engines} -draw movenumber 40"),
            "-draw: 'movenumber' is not key=value",
        ),
        (
            format!("{engines} -pgnout games.pgn -output format=cutechess"),
            "-pgnout FILE is cutechess-cli's and -output is fastchess's",
        ),
        (
            format!("{engines} -tb /no/such/syzygy"),
            "tablebase adjudication: cannot read the tablebase folder /no/such/syzygy",
        ),
        (
            format!("{engines} -tb /syzygy -tbadjudicate WINS"),
            "-tbadjudicate",
        ),
        (
            format!("{engines} -games 2 -tb /syzygy -tbpieces 2 -pgnout games.pgn"),
            "-tbpieces",
        ),
        (
            "-engine cmd={shannon} -engine cmd={shannon}".to_string(),
            "-engine #1 needs a time control",
        ),
    ] {
        let (ok, out, err) = compat(&dir, &line);
        assert!(!ok, "{line}: {out}");
        assert!(err.contains(expected), "{line}: {err}");
        assert!(err.starts_with("shannon: "), "{err}");
    }
    assert!(!dir.join("games.pgn").exists());
}

/// fastchess's end-to-end test `app/tests/e2e/random_order.sh` (its random mover replaced by
/// this shannon): the increment written with its unit (`2+0.02s`), `-log` writing fastchess's
/// log (its own lines at `info`, no engine lines without `engine=true`).
#[test]
fn fastchess_e2e_random_order() {
    let dir = scratch("compat-e2e-random");
    std::fs::write(dir.join("short.epd"), BOOK_EPD).unwrap();
    let line = "-engine cmd={shannon} name=random_move_1 -engine cmd={shannon} name=random_move_2 \
                -each tc=2+0.02s -rounds 3 -repeat -concurrency 1 \
                -openings file=short.epd format=epd order=random -pgnout file=random_run1.pgn \
                -log file=log.txt level=info";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    let log = std::fs::read_to_string(dir.join("log.txt")).unwrap();
    assert!(
        log.contains("<                    > fastchess --- Starting tournament...\n"),
        "{log}"
    );
    assert!(log.contains("fastchess --- Finished match\n\n"), "{log}");
    assert!(!log.contains("[Engine]"), "{log}");
    let games = read_pgn(&dir.join("random_run1.pgn"));
    assert_eq!(games.len(), 6, "3 rounds of 2 games");
    assert_pairs(&games);
    assert!(games.iter().all(|g| tag(g, "TimeControl") == "2+0.02"));
}

/// fastchess's end-to-end test `app/tests/e2e/pgn_book_plies.sh`: PGN openings taken in order,
/// cut to 4 plies; round r plays opening r, and its four plies are written as fastchess's PGN
/// builder writes the moves of an opening (`move.book`: the comment `{book}`, nothing else), the
/// engines' moves after them with their own comments; `min=true` writes no comment at all.
#[test]
fn fastchess_e2e_pgn_book_plies() {
    let dir = scratch("compat-e2e-plies");
    let openings = [
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6",
        "1. d4 d5 2. c4 e6 3. Nc3 Nf6",
        "1. c4 e5 2. Nc3 Nf6 3. g3 d5",
    ];
    let text: String = openings
        .iter()
        .map(|moves| format!("[Event \"?\"]\n\n{moves} *\n\n"))
        .collect();
    std::fs::write(dir.join("openings.pgn"), text).unwrap();
    let line = "-engine cmd={shannon} name=random_move_1 -engine cmd={shannon} name=random_move_2 \
                -each tc=2+0.02s -rounds 3 -repeat -concurrency 2 \
                -openings file=openings.pgn format=pgn order=sequential plies=4 \
                -pgnout file=plies_test.pgn -log file=log.txt level=info";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    let pgn = std::fs::read_to_string(dir.join("plies_test.pgn")).unwrap();
    let games: Vec<&str> = pgn.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 6);
    for game in games {
        let round: usize = game
            .split("[Round \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap()
            .parse()
            .unwrap();
        let opening = openings[(round - 1) / 2];
        // fastchess writes `1. e4 {book} e5 {book} 2. ...`; Shannon's PGN writer follows the
        // export format, black's move number again after a comment.
        let plies: Vec<&str> = opening
            .split(' ')
            .filter(|word| !word.ends_with('.'))
            .take(4)
            .collect();
        let booked = format!(
            "1. {} {{book}} 1... {} {{book}} 2. {} {{book}} 2... {} {{book}}",
            plies[0], plies[1], plies[2], plies[3]
        );
        let movetext = game[game.find("\n\n").unwrap()..].split_whitespace();
        let movetext = movetext.collect::<Vec<_>>().join(" ");
        assert!(
            movetext.starts_with(&format!("{booked} 3. ")),
            "round {round}: {game}"
        );
        assert_eq!(game.matches("{book}").count(), 4, "{game}");
        // The engines' own moves are not book moves: the fifth ply has its engine comment.
        let fifth = movetext[booked.len()..].split_whitespace().nth(2).unwrap();
        assert!(fifth.starts_with('{') && fifth != "{book}", "{game}");
    }
    let line = line.replace("file=plies_test.pgn", "file=min.pgn min=true");
    let (ok, out, err) = compat(&dir, &line);
    assert!(ok, "{out}{err}");
    let pgn = std::fs::read_to_string(dir.join("min.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 6);
    assert!(!pgn.contains('{'), "{pgn}");
}

/// fastchess's comparison with cutechess-cli (`app/tests/cutechess/cutechess.sh`, the one command
/// line both tools run), Stockfish's copies replaced by this shannon and its UHO book by a book of
/// the repository's under the script's name: the two engines search to different depths (depth
/// odds), and the games are written as fastchess writes them (one `TimeControl`, `-`: its tags
/// compare the clocks only).
#[test]
fn fastchess_cutechess_comparison_line_plays_depth_6_against_depth_8() {
    let dir = scratch("compat-comparison");
    std::fs::copy(
        data_path("peers/sprt/openings.epd"),
        dir.join("UHO_4060_v2.epd"),
    )
    .unwrap();
    let line = "-recover -repeat -games 2 -rounds 100 -pgnout file=./fastchess-out.pgn \
                -srand 4242 -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20 \
                -variant standard -concurrency 4 -openings file=UHO_4060_v2.epd format=epd order=sequential \
                -engine name=sf_1 tc=inf depth=6 cmd={shannon} dir=. \
                -engine name=sf_2 tc=inf depth=8 cmd={shannon} dir=. \
                -each proto=uci option.Threads=1";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("Results of sf_1 vs sf_2 (6 plies - 8 plies, 1t, "),
        "{out}"
    );
    let pgn = std::fs::read_to_string(dir.join("fastchess-out.pgn")).unwrap();
    assert_eq!(pgn.matches("[TimeControl \"-\"]").count(), 200);
    assert!(!pgn.contains("WhiteTimeControl"));
}

/// fastchess's `Results of` line shows each engine's `Threads` and `Hash` as the engine holds
/// them (its declared default, or the value sent), `NULL` for one it does not declare, and
/// `a - b` when the two differ (as fastchess 1.8.2-alpha prints them side by side).
#[test]
fn fastchess_results_line_shows_the_engines_threads_and_hash() {
    let dir = scratch("compat-fastchess-threads-hash");
    let line = "-engine cmd={shannon} name=a option.Hash=32 -engine cmd={shannon} name=b \
                -each tc=inf nodes=1 -rounds 1";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("Results of a vs b (1 nodes, 1t, 32MB - 16MB):"),
        "{out}"
    );
    // The values sent, engine by engine (the real fastchess prints these two lines too).
    let line = "-engine cmd={shannon} name=a option.Threads=4 -engine cmd={shannon} name=b \
                option.Threads=2 -each tc=inf nodes=1 -rounds 1";
    let (ok, out, err) = compat(&dir, line);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("Results of a vs b (1 nodes, 4t - 2t, 16MB):"),
        "{out}"
    );
}
