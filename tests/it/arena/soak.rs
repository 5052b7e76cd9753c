//! The acceptance soak of "the runner loses nothing" (issue 30): a 1,000-game SPRT match killed
//! with SIGKILL at random moments, 20 times or more, each kill followed by the same command line
//! run again (not `--resume`), ends with the games and the verdict of the uninterrupted run.
//!
//! In our own form the same command line is refused while a run's state is there (nothing
//! written: the test checks every byte), and names `--resume`, which the test then runs, and
//! kills in turn. In fastchess's form the same command line continues the killed run.

use super::{read_pgn, scratch, tag, SHANNON};
use crate::common::MatchLine;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Our own form: `--pgn` named, the SPRT.
fn own(pgn: &str) -> Vec<String> {
    MatchLine::new()
        .games(1000)
        .tc("10+0.1")
        .seed(12)
        .sprt("0,15,0.1,0.1")
        .concurrency(2)
        .pgn(pgn)
        .words()
}

/// The same match in fastchess's form.
fn fastchess(pgn: &str) -> Vec<String> {
    [
        "match",
        "-engine",
        &format!("cmd={SHANNON}"),
        "name=a",
        "-engine",
        &format!("cmd={SHANNON}"),
        "name=b",
        "-each",
        "tc=10+0.1",
        "-rounds",
        "500",
        "-games",
        "2",
        "-repeat",
        "-concurrency",
        "2",
        "-srand",
        "12",
        "-sprt",
        "elo0=0",
        "elo1=15",
        "alpha=0.1",
        "beta=0.1",
        // The test in logistic Elo, as our own form's (fastchess's default, normalized
        // Elo, would take far more games to decide between these equal engines).
        "model=logistic",
        "-pgnout",
        &format!("file={pgn}"),
    ]
    .map(String::from)
    .to_vec()
}

fn spawn(args: &[String], dir: &Path) -> std::process::Child {
    Command::new(SHANNON)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The lines that carry the verdict: the last LLR line (fastchess's form prints one at each
/// rating interval too) and the SPRT's lines.
fn verdict(out: &str) -> Vec<String> {
    // "2 more games (running when it decided ...)" depends on the timing: keep the decision,
    // not the count of games beyond it.
    let first_clause = |l: &str| l.split("; ").next().unwrap().to_string();
    let mut lines: Vec<String> = out
        .lines()
        .rfind(|l| l.contains("LLR"))
        .map(first_clause)
        .into_iter()
        .collect();
    lines.extend(
        out.lines()
            .filter(|l| l.starts_with("SPRT") && !l.contains("LLR"))
            .map(first_clause),
    );
    assert!(
        lines.iter().any(|l| l.contains("decided at game")),
        "no verdict in: {out}"
    );
    lines
}

/// Each game's moves by its round.
fn moves(pgn: &Path) -> BTreeMap<u32, Vec<String>> {
    let mut by_round = BTreeMap::new();
    for game in read_pgn(pgn) {
        assert!(game.record.outcome.is_finished(), "a `*` game is left");
        let round: u32 = tag(&game, "Round").parse().unwrap();
        let moves = game.record.moves.iter().map(|m| format!("{m:?}")).collect();
        assert!(
            by_round.insert(round, moves).is_none(),
            "round {round} twice"
        );
    }
    by_round
}

/// The decided game number in a verdict line.
fn decided_at(lines: &[String]) -> u32 {
    let line = lines
        .iter()
        .find(|l| l.contains("decided at game"))
        .unwrap();
    let rest = &line[line.find("decided at game ").unwrap() + "decided at game ".len()..];
    rest.split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// The killed run's games agree with the uninterrupted run's: the games the test was taken on
/// are all there, and every game both hold is the same game.
fn same_games(killed: &BTreeMap<u32, Vec<String>>, whole: &BTreeMap<u32, Vec<String>>, at: u32) {
    for round in 1..=at {
        assert!(killed.contains_key(&round), "game {round} is missing");
    }
    let mut common = 0;
    for (round, moves) in killed {
        if let Some(other) = whole.get(round) {
            assert_eq!(moves, other, "game {round} differs");
            common += 1;
        }
    }
    assert!(common >= at as usize);
}

/// The small generator of the test's kill moments (printed, so a failure can be replayed).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// The files of `dir` and their bytes (lock files aside: a killed run leaves its own).
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "lock"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect()
}

/// Kill the runs of `next()` at random moments until `kills` kills, then let one finish.
fn soak(
    dir: &Path,
    whole_ms: u64,
    rng: &mut Lcg,
    mut next: impl FnMut(u32) -> Vec<String>,
) -> (String, u32) {
    let seed = rng.0;
    let (mut kills, mut runs) = (0, 0);
    let started = Instant::now();
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no end in 5 minutes (seed {seed}, {kills} kills)"
        );
        let args = next(runs);
        runs += 1;
        let mut child = spawn(&args, dir);
        let life = if kills < 20 {
            10 + rng.below(whole_ms / 8)
        } else {
            10 * whole_ms
        };
        let deadline = Instant::now() + Duration::from_millis(life);
        while Instant::now() < deadline && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_millis(5));
        }
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            child.wait().unwrap();
            kills += 1;
            continue;
        }
        let output = child.wait_with_output().unwrap();
        let (out, err) = text(&output);
        assert!(
            output.status.success(),
            "run {runs} (seed {seed}): {out}{err}"
        );
        println!(
            "soak: {kills} kills in {runs} runs, {:.1?} (seed {seed})",
            started.elapsed()
        );
        return (out, kills);
    }
}

/// The uninterrupted run: its output, its games, and how long it took.
fn uninterrupted(
    args: &[String],
    dir: &Path,
    pgn: &str,
) -> (Vec<String>, BTreeMap<u32, Vec<String>>, u64) {
    let clock = Instant::now();
    let output = spawn(args, dir).wait_with_output().unwrap();
    let (out, err) = text(&output);
    assert!(output.status.success(), "{out}{err}");
    let ms = clock.elapsed().as_millis() as u64;
    (verdict(&out), moves(&dir.join(pgn)), ms)
}

#[test]
fn an_sprt_match_killed_20_times_and_rerun_by_its_command_line_ends_as_if_never_killed() {
    let dir = scratch("soak-own");
    let (reference, whole, ms) = uninterrupted(&own("ref.pgn"), &dir, "ref.pgn");
    let at = decided_at(&reference);
    let mut rng = Lcg(u64::from(std::process::id()) ^ ms);
    println!("soak: seed {}", rng.0);
    let (mut refusals, mut kills_total) = (0, 0);
    // Runs that end before 20 kills (the kill moment fell after the end) start a new soak in a
    // new folder; the kills add up.
    let mut round = 0;
    while kills_total < 20 {
        round += 1;
        let folder = dir.join(format!("round-{round}"));
        std::fs::create_dir(&folder).unwrap();
        let (out, kills) = soak(&folder, ms, &mut rng, |_| {
            if !state_in(&folder).exists() {
                return own("g.pgn");
            }
            // The same command line again: refused, nothing written, --resume named.
            let before = snapshot(&folder);
            let output = spawn(&own("g.pgn"), &folder).wait_with_output().unwrap();
            let (o, e) = text(&output);
            assert!(!output.status.success() && o.is_empty(), "{o}{e}");
            assert!(e.contains("nothing was written"), "{e}");
            assert!(
                e.contains("shannon match --resume g.pgn.state.json")
                    || e.contains("whose SPRT decided"),
                "{e}"
            );
            assert_eq!(snapshot(&folder), before, "a refused re-run changed a file");
            refusals += 1;
            MatchLine::new().arg("--resume", "g.pgn.state.json").words()
        });
        kills_total += kills;
        assert_eq!(verdict(&out), reference, "the verdict differs");
        same_games(&moves(&folder.join("g.pgn")), &whole, at);
    }
    // A kill can land before the first state file is written (an engine still starting on a
    // loaded machine): the re-run then starts afresh, with no refusal to check. Every re-run that
    // found a state was checked above; most must have.
    assert!(
        refusals * 2 >= kills_total,
        "{refusals} refusals in {kills_total} kills"
    );
}

fn state_in(folder: &Path) -> std::path::PathBuf {
    folder.join("g.pgn.state.json")
}

#[test]
fn a_fastchess_form_sprt_match_killed_20_times_and_rerun_ends_as_if_never_killed() {
    let dir = scratch("soak-fastchess");
    let (reference, whole, ms) = uninterrupted(&fastchess("ref.pgn"), &dir, "ref.pgn");
    let at = decided_at(&reference);
    let mut rng = Lcg(u64::from(std::process::id()) ^ ms);
    println!("soak: seed {}", rng.0);
    let mut kills_total = 0;
    let mut round = 0;
    while kills_total < 20 {
        round += 1;
        let folder = dir.join(format!("round-{round}"));
        std::fs::create_dir(&folder).unwrap();
        let (out, kills) = soak(&folder, ms, &mut rng, |_| fastchess("g.pgn"));
        kills_total += kills;
        assert_eq!(verdict(&out), reference, "the verdict differs");
        same_games(&moves(&folder.join("g.pgn")), &whole, at);
    }
}

/// The moment a kill rarely hits: after the SPRT decided (the state says so) and before the run
/// ended (the games running then still being played). The state such a kill leaves is made here
/// from a finished run's by taking back its end; a re-run of the same command line must then
/// continue it (play nothing, print the verdict), not start a second run after it, and our own
/// form must name `--resume`, which does the same.
#[test]
fn a_run_killed_after_its_sprt_decided_is_continued_not_run_again() {
    let dir = scratch("soak-after-decision");
    for (args, own_form) in [(fastchess("g.pgn"), false), (own("g.pgn"), true)] {
        let _ = std::fs::remove_file(dir.join("g.pgn"));
        let _ = std::fs::remove_file(dir.join("g.pgn.state.json"));
        let output = spawn(&args, &dir).wait_with_output().unwrap();
        let (out, err) = text(&output);
        assert!(output.status.success(), "{out}{err}");
        let reference = verdict(&out);
        let state = dir.join("g.pgn.state.json");
        let saved = std::fs::read_to_string(&state).unwrap();
        assert!(saved.contains("\"ended\":true"), "{saved}");
        std::fs::write(&state, saved.replace("\"ended\":true", "\"ended\":false")).unwrap();
        let games = moves(&dir.join("g.pgn"));

        let output = spawn(&args, &dir).wait_with_output().unwrap();
        let (out, err) = text(&output);
        let out = if own_form {
            assert!(!output.status.success(), "{out}{err}");
            assert!(
                err.contains("stopped before it ended, whose SPRT decided (H0 accepted at game")
                    && err.contains("shannon match --resume g.pgn.state.json"),
                "{err}"
            );
            let resume = MatchLine::new().arg("--resume", "g.pgn.state.json").words();
            let output = spawn(&resume, &dir).wait_with_output().unwrap();
            let (out, err) = text(&output);
            assert!(output.status.success(), "{out}{err}");
            out
        } else {
            assert!(output.status.success(), "{out}{err}");
            assert!(err.contains("continuing it"), "{err}");
            out
        };
        assert!(out.contains("The SPRT decided before this run"), "{out}");
        assert_eq!(verdict(&out), reference);
        assert_eq!(moves(&dir.join("g.pgn")), games, "a game was added");
        let saved = std::fs::read_to_string(&state).unwrap();
        assert!(
            saved.contains("\"ended\":true"),
            "the continued run ended: {saved}"
        );
    }
}
