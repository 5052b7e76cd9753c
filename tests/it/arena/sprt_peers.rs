//! Each command-line form runs its tool's own SPRT and prints its lines as the tool prints them:
//! the same command lines, played by the real cutechess-cli 1.5.1 and fastchess 1.8.2-alpha
//! (recorded in `tests/data/peers/sprt/`, see tests/data/peers/README.md) and by `shannon
//! match`, give the same games and the same SPRT lines (`SPRT: llr ...` for cutechess-cli,
//! `LLR: ...` and `SPRT ([a, b]) completed - H1 was accepted` for fastchess), stopping at the
//! same game.
//!
//! The players replay their games from fixed numbers, so both runners play the same games:
//! two seeded Shannon engines (`option.Seed=`: random movers, 60 games, mostly drawn), and
//! Stockfish at 1000 nodes against one (a win every game, for Stockfish), from the openings of
//! `tests/data/peers/sprt/openings.epd` (none with an en passant square: the tools drop one that
//! no pawn can take, Shannon sends it as the file gives it, and a seeded engine plays another
//! game from another position string). `peer_tools.rs` records them again with the real tools.

use super::peer_tools::stockfish_as_recorded;
use super::{read_pgn, scratch, tag, SHANNON};
use crate::common::data_path;
use std::path::{Path, PathBuf};

/// Who plays, from the players' side of the recorded files' names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Players {
    /// Two seeded Shannon engines, 30 rounds of a pair.
    Random,
    /// Stockfish (first) against a seeded Shannon engine, 20 rounds.
    Stockfish,
    /// The same, the Shannon engine first.
    StockfishSecond,
}

impl Players {
    pub(super) const ALL: [Players; 3] = [
        Players::Random,
        Players::Stockfish,
        Players::StockfishSecond,
    ];

    /// Its name in the recorded files' names.
    pub(super) fn name(self) -> &'static str {
        match self {
            Players::Random => "random",
            Players::Stockfish => "stockfish",
            Players::StockfishSecond => "stockfish-second",
        }
    }

    /// The `-engine` options, Stockfish at `stockfish`.
    fn engines(self, stockfish: &Path) -> String {
        let sf = format!(
            "-engine cmd={} name=sf option.Threads=1 option.Hash=16",
            stockfish.display()
        );
        let random = "-engine cmd=./shannon name=random option.Seed=7";
        match self {
            Players::Random => "-engine cmd=./shannon name=alpha option.Seed=11 \
                                -engine cmd=./shannon name=beta option.Seed=22"
                .to_string(),
            Players::Stockfish => format!("{sf} {random}"),
            Players::StockfishSecond => format!("{random} {sf}"),
        }
    }

    fn rounds(self) -> u32 {
        match self {
            Players::Random => 30,
            Players::Stockfish | Players::StockfishSecond => 20,
        }
    }

    fn needs_stockfish(self) -> bool {
        self != Players::Random
    }
}

/// The tool whose command line a run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tool {
    Cutechess,
    /// fastchess with `-sprt ... model=` (none: its default).
    Fastchess(Option<&'static str>),
}

impl Tool {
    /// Its recorded PGN of a players' games (every game, no SPRT).
    pub(super) fn pgn_name(self, players: Players) -> String {
        match self {
            Tool::Cutechess => format!("{}.cutechess-cli-1.5.1.pgn", players.name()),
            Tool::Fastchess(_) => format!("{}.fastchess-1.8.2-alpha.pgn", players.name()),
        }
    }

    /// Its part of a run's name.
    fn name(self) -> String {
        match self {
            Tool::Cutechess => "cutechess".into(),
            Tool::Fastchess(None) => "fastchess".into(),
            Tool::Fastchess(Some(model)) => format!("fastchess-{model}"),
        }
    }

    /// `-pgnout` in its form, without move comments.
    fn pgnout(self, file: &str) -> String {
        match self {
            Tool::Cutechess => format!("-pgnout {file} min"),
            Tool::Fastchess(_) => format!("-pgnout file={file} min=true"),
        }
    }
}

/// One recorded run: who plays, the tool's command line with which `-sprt`, and what else.
#[derive(Debug, Clone, Copy)]
pub(super) struct Run {
    /// The name of its elo bounds and error rates, in its file's name.
    pub(super) case: &'static str,
    pub(super) players: Players,
    pub(super) tool: Tool,
    /// `elo0=... elo1=... alpha=... beta=...`.
    sprt: &'static str,
    /// More options (`-report penta=false`).
    extra: &'static str,
}

impl Run {
    /// The players' every game in the tool's form, without an SPRT: the run that made the
    /// players' recorded PGN ([`Tool::pgn_name`]).
    pub(super) fn every_game(players: Players, tool: Tool) -> Run {
        Run {
            case: "every-game",
            players,
            tool,
            sprt: "",
            extra: "",
        }
    }

    /// Its recorded standard output: `tests/data/peers/sprt/<case>.<tool>.txt`.
    pub(super) fn output_name(&self) -> String {
        format!("{}.{}.txt", self.case, self.tool.name())
    }

    /// The command line after the tool's name, writing the games to `pgn` (no `-sprt` when
    /// `sprt` is false: every game, as the players' recorded PGN).
    pub(super) fn words(&self, stockfish: &Path, pgn: &str, sprt: bool) -> Vec<String> {
        let interval = match self.tool {
            Tool::Cutechess => 10,
            Tool::Fastchess(_) => 5,
        };
        let mut line = format!(
            "{} -each proto=uci tc=inf nodes=1000 -openings file=openings.epd format=epd \
             order=sequential -concurrency 1 -games 2 -repeat -rounds {} -ratinginterval \
             {interval}",
            self.players.engines(stockfish),
            self.players.rounds()
        );
        if sprt {
            line.push_str(&format!(" -sprt {}", self.sprt));
            if let Tool::Fastchess(Some(model)) = self.tool {
                line.push_str(&format!(" model={model}"));
            }
        }
        line.push_str(&format!(" {} {}", self.extra, self.tool.pgnout(pgn)));
        line.split_whitespace().map(String::from).collect()
    }
}

/// The runs: each case with cutechess-cli and fastchess's three models, and fastchess on single
/// games (`-report penta=false`).
pub(super) fn runs() -> Vec<Run> {
    let cases: [(&str, Players, &str); 7] = [
        (
            "random-0-5",
            Players::Random,
            "elo0=0 elo1=5 alpha=0.05 beta=0.05",
        ),
        (
            "random-h1",
            Players::Random,
            "elo0=-50 elo1=0 alpha=0.1 beta=0.1",
        ),
        (
            "random-h0",
            Players::Random,
            "elo0=0 elo1=50 alpha=0.1 beta=0.1",
        ),
        (
            "random-wide",
            Players::Random,
            "elo0=-200 elo1=0 alpha=0.1 beta=0.1",
        ),
        (
            "random-far",
            Players::Random,
            "elo0=0 elo1=300 alpha=0.1 beta=0.1",
        ),
        (
            "stockfish-h1",
            Players::Stockfish,
            "elo0=0 elo1=40 alpha=0.1 beta=0.1",
        ),
        (
            "stockfish-h0",
            Players::StockfishSecond,
            "elo0=0 elo1=40 alpha=0.1 beta=0.1",
        ),
    ];
    let tools = [
        Tool::Cutechess,
        Tool::Fastchess(None),
        Tool::Fastchess(Some("logistic")),
        Tool::Fastchess(Some("bayesian")),
    ];
    let mut runs = Vec::new();
    for (case, players, sprt) in cases {
        for tool in tools {
            runs.push(Run {
                case,
                players,
                tool,
                sprt,
                extra: "",
            });
        }
    }
    for tool in [Tool::Fastchess(None), Tool::Fastchess(Some("logistic"))] {
        runs.push(Run {
            case: "random-h1-games",
            players: Players::Random,
            tool,
            sprt: "elo0=-50 elo1=0 alpha=0.1 beta=0.1",
            extra: "-report penta=false",
        });
    }
    runs
}

/// The recorded files' folder.
pub(super) fn recorded(name: &str) -> PathBuf {
    data_path(&format!("peers/sprt/{name}"))
}

/// A scratch folder with the openings and `./shannon`, the engine the players run.
pub(super) fn sprt_folder(name: &str) -> crate::common::Scratch {
    let dir = scratch(name);
    std::fs::copy(recorded("openings.epd"), dir.join("openings.epd")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(SHANNON, dir.join("shannon")).unwrap();
    dir
}

/// The lines of the SPRT in an output: cutechess-cli's `SPRT: llr`, fastchess's `LLR:`, its
/// `SPRT (...) completed` and its warning on the Bayesian model.
pub(super) fn sprt_lines(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|line| {
            line.starts_with("SPRT: llr")
                || line.starts_with("LLR: ")
                || (line.starts_with("SPRT (") && line.contains(" completed - "))
                || line.starts_with("Warning; Bayesian SPRT model")
        })
        .map(String::from)
        .collect()
}

/// The games a run finished, by its output's `Finished game` lines.
pub(super) fn finished_games(output: &str) -> usize {
    output
        .lines()
        .filter(|line| line.starts_with("Finished game "))
        .count()
}

/// Each game of a PGN: its opening position (the FEN's first four fields), players, SAN moves
/// and result.
pub(super) type Game = (String, String, String, Vec<String>, String);

pub(super) fn games(pgn: &Path) -> Vec<Game> {
    read_pgn(pgn)
        .iter()
        .map(|game| {
            let fen = game.tag("FEN").unwrap_or_default();
            let fen: Vec<&str> = fen.split_whitespace().take(4).collect();
            (
                fen.join(" "),
                tag(game, "White").to_string(),
                tag(game, "Black").to_string(),
                game.record.moves.iter().map(|m| format!("{m:?}")).collect(),
                game.record.outcome.pgn().to_string(),
            )
        })
        .collect()
}

/// `shannon match` plays every recorded run: the games the tool played (the first of the
/// players' recorded games, as many as the tool finished), and the tool's SPRT lines.
#[test]
fn shannon_plays_each_tools_sprt_as_the_tool_did() {
    let stockfish = Players::ALL
        .iter()
        .any(|p| p.needs_stockfish())
        .then(stockfish_as_recorded)
        .flatten();
    let dir = sprt_folder("sprt-peers");
    let mut compared = 0;
    for run in runs() {
        if run.players.needs_stockfish() && stockfish.is_none() {
            continue;
        }
        let stockfish = stockfish.clone().unwrap_or_default();
        let theirs = std::fs::read_to_string(recorded(&run.output_name())).unwrap();
        let pgn = format!("{}.pgn", run.output_name());
        let mut args = vec!["match".to_string()];
        args.extend(run.words(&stockfish, &pgn, true));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, ours, err) = super::run(&args, &dir);
        assert!(ok, "{}: {ours}{err}", run.output_name());
        let played = games(&dir.join(&pgn));
        let recorded_games = games(&recorded(&run.tool.pgn_name(run.players)));
        assert_eq!(
            played.len(),
            finished_games(&theirs),
            "{}: the tool stopped after {} games, shannon after {}",
            run.output_name(),
            finished_games(&theirs),
            played.len()
        );
        assert_eq!(
            played,
            recorded_games[..played.len()],
            "{}: other games than the tool's",
            run.output_name()
        );
        assert_eq!(
            sprt_lines(&ours),
            sprt_lines(&theirs),
            "{}: SPRT lines",
            run.output_name()
        );
        assert!(!sprt_lines(&theirs).is_empty(), "{}", run.output_name());
        compared += 1;
    }
    assert!(compared >= 22, "{compared} runs compared");
}
