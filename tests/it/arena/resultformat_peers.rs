//! cutechess-cli's `-resultformat`, side by side with the real cutechess-cli 1.5.1: each case's
//! command line, played by the tool (recorded in `tests/data/peers/resultformat/`, made by its
//! `record.sh`) and by `shannon match`, prints the same lines byte for byte: every game's lines,
//! the rank table in the format's columns (named formats, a list with unknown tokens, empty
//! ones, tokens without data and groups), and the outcomes. The games end in every way the
//! fields count that the players provoke cheaply: mates, stalemates, draws by material, by the
//! fifty-move rule and by `-maxmoves`; losses on time (and a drawn one, against a bare king),
//! by an illegal move and by a crash (`-recover`). `-resultformat help` prints the formats,
//! fields and groups and exits with status 1.
//!
//! The players are seeded Shannon engines (`option.Seed=`) at `tc=inf nodes=1000` and
//! `shannon-faulty-engine`s, so both runners play the same games.

use super::scratch;
use crate::common::{data_path, Scratch, FAULTY, SHANNON};
use std::path::Path;

/// Two seeded players, each with its time control (`-each` would override it).
const SEEDED: &str = "-engine cmd=./shannon name=alpha option.Seed=11 tc=inf nodes=1000 \
                      -engine cmd=./shannon name=beta option.Seed=22 tc=inf nodes=1000";

const EACH: &str = "-each proto=uci -concurrency 1";

const BOOK: &str = "-openings file=openings.epd format=epd order=sequential";

/// The cases of `record.sh`: name, command line (without `-pgnout`).
fn cases() -> Vec<(String, String)> {
    let rr = format!(
        "{SEEDED} -engine cmd=./shannon name=gamma option.Seed=33 tc=inf nodes=1000 \
         -engine cmd=./shannon name=delta option.Seed=44 tc=inf nodes=1000 \
         {EACH} {BOOK} -games 2 -rounds 2 -repeat -maxmoves 220"
    );
    let faults = format!(
        "{SEEDED} -engine cmd=./faulty name=slow arg=--fault arg=overrun tc=1+0.1 \
         -engine cmd=./faulty name=illegal arg=--fault arg=illegal-move tc=inf nodes=1000 \
         -engine cmd=./faulty name=crash arg=--fault arg=crash tc=inf nodes=1000 \
         {EACH} {BOOK} -games 2 -repeat -recover"
    );
    let kqk = format!(
        "{SEEDED} -engine cmd=./faulty name=slow arg=--fault arg=overrun arg=--after arg=1 \
         tc=1+0.1 {EACH} -openings file=kqk.epd format=epd -games 2 -rounds 2"
    );
    let mut cases: Vec<(String, String)> = [
        "default",
        "short",
        "wide3",
        "per-color",
        "term",
        "draws",
        "ordo",
        "minimal",
    ]
    .iter()
    .map(|format| {
        (
            format!("rr-{format}"),
            format!("{rr} -resultformat {format}"),
        )
    })
    .collect();
    let custom = "Rank,Name,Bogus,WLDStats,LOS,wElo,Games,,TC,RegulW,RegulL,DCount";
    cases.push(("rr-custom".into(), format!("{rr} -resultformat {custom}")));
    cases.push((
        "faults-wide3".into(),
        format!("{faults} -resultformat wide3"),
    ));
    let terminations = "Name,Terminations,RegulW,RegulL,OtherW,TC";
    cases.push((
        "faults-custom".into(),
        format!("{faults} -resultformat {terminations}"),
    ));
    cases.push(("kqk-draws".into(), format!("{kqk} -resultformat draws")));
    let draws = "Rank,Name,Games,W,L,D,Terminations,OtherW,DrawStats";
    cases.push(("kqk-term".into(), format!("{kqk} -resultformat {draws}")));
    cases
}

/// The words of `line` writing its PGN to `pgn`.
fn words(line: &str, pgn: &str) -> Vec<String> {
    format!("{line} -pgnout {pgn} min")
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// What cutechess-cli printed for `name`.
fn recorded(name: &str) -> String {
    std::fs::read_to_string(data_path(&format!(
        "peers/resultformat/{name}.cutechess-cli-1.5.1.txt"
    )))
    .unwrap()
}

/// The lines compared: all but cutechess-cli's `Terminating process of engine crash(N)`, its log
/// line when it ends an engine (N counts its engine processes; Shannon prints none).
fn printed(out: &str) -> String {
    out.split_inclusive('\n')
        .filter(|line| !line.starts_with("Terminating process of engine "))
        .collect()
}

/// A scratch folder with the books, `./shannon` and `./faulty`.
fn folder(name: &str) -> Scratch {
    let dir = scratch(name);
    std::fs::copy(
        data_path("peers/knockout/openings.epd"),
        dir.join("openings.epd"),
    )
    .unwrap();
    std::fs::copy(data_path("peers/resultformat/kqk.epd"), dir.join("kqk.epd")).unwrap();
    std::os::unix::fs::symlink(SHANNON, dir.join("shannon")).unwrap();
    std::os::unix::fs::symlink(FAULTY, dir.join("faulty")).unwrap();
    dir
}

/// `program` given `args` in `dir`: its exit code and standard output.
fn output(program: &Path, args: &[String], dir: &Path) -> (Option<i32>, String) {
    let out = std::process::Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("it runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// `shannon match` prints every case as cutechess-cli did.
#[test]
fn shannon_prints_each_result_format_as_cutechess_cli() {
    let dir = folder("resultformat-peers");
    for (name, line) in cases() {
        let mut args = vec!["match".to_string()];
        args.extend(words(&line, &format!("{name}.pgn")));
        let (code, out) = output(Path::new(SHANNON), &args, dir.path());
        assert_eq!(code, Some(0), "{name}: {out}");
        assert_eq!(printed(&out), printed(&recorded(&name)), "{name}");
    }
}

/// `-resultformat help`: the formats, the field tokens and the groups, then exit status 1, as
/// cutechess-cli (recorded: `help.cutechess-cli-1.5.1.status`).
#[test]
fn result_format_help_is_cutechess_clis() {
    let dir = folder("resultformat-help");
    let args = ["match", "-resultformat", "help"].map(String::from);
    let (code, out) = output(Path::new(SHANNON), &args, dir.path());
    assert_eq!(out, recorded("help"));
    let status = std::fs::read_to_string(data_path(
        "peers/resultformat/help.cutechess-cli-1.5.1.status",
    ))
    .unwrap();
    assert_eq!(format!("exit status {}\n", code.unwrap()), status);
}

/// The real cutechess-cli prints every case again as recorded (skipped, with the reason
/// printed, when it is missing; `SHANNON_REQUIRE_PEERS=1` makes that a failure).
#[test]
fn the_recorded_result_formats_are_what_cutechess_cli_prints() {
    let Some(tool) = super::peer_tools::cutechess_cli() else {
        return;
    };
    let dir = folder("resultformat-peers-tool");
    for (name, line) in cases() {
        let (code, out) = output(&tool, &words(&line, &format!("{name}.pgn")), dir.path());
        assert_eq!(code, Some(0), "{name} played by {}", tool.display());
        assert_eq!(printed(&out), printed(&recorded(&name)), "{name}");
    }
    let (code, out) = output(&tool, &["-resultformat".into(), "help".into()], dir.path());
    assert_eq!((code, out), (Some(1), recorded("help")));
}
