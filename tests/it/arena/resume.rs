//! Nothing lost: a match killed with SIGKILL at random moments, again and again, and resumed each
//! time from its state file ends with every scheduled game in the PGN exactly once and the same
//! tables as an uninterrupted run with the same seed; SIGTERM saves the state too.

use super::{read_pgn, run, scratch, tag, SHANNON};
use crate::common::MatchLine;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A three-engine round robin of quick games: 3 encounters x 2 games x `rounds`.
fn tournament(dir: &Path, pgn: &str, rounds: u32) -> Vec<String> {
    let config = dir.join("engines.toml");
    std::fs::write(
        &config,
        "[[engine]]\nname = \"a\"\ncommand = \"self\"\n\n[[engine]]\nname = \"b\"\ncommand = \
         \"self\"\n\n[[engine]]\nname = \"c\"\ncommand = \"self\"\n",
    )
    .unwrap();
    MatchLine::new()
        .config(&config)
        .engines("a,b,c")
        .rounds(rounds)
        .tc("nodes=1")
        .arg("--max-plies", "300")
        .openings("chess960")
        .seed(1950)
        .concurrency(2)
        .pgn(pgn)
        .arg("--epd", format!("{pgn}.epd"))
        .quiet()
        .words()
}

/// The result tables of a run's output: from the ranking to the games line, without timing.
pub(super) fn tables(out: &str) -> String {
    out.lines()
        .skip_while(|l| !l.starts_with("Rank"))
        .take_while(|l| !l.ends_with("lost by engine failure"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A small random number generator (the test's own, so a failure names its seed).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// The live processes working in `dir` (the engines a runner started there).
fn processes_in(dir: &Path) -> Vec<u32> {
    let me = std::process::id();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().parse::<u32>().ok())
        .filter(|&pid| pid != me)
        .filter(|&pid| {
            let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .map(|s| {
                    s[s.rfind(')').map_or(0, |i| i + 1)..]
                        .trim_start()
                        .starts_with('Z')
                })
                .unwrap_or(true);
            !zombie
                && std::fs::read_link(format!("/proc/{pid}/cwd"))
                    .is_ok_and(|cwd| cwd.starts_with(dir))
        })
        .collect()
}

#[test]
fn a_match_killed_again_and_again_resumes_to_the_uninterrupted_result() {
    if !Path::new("/proc/self/cwd").exists() {
        return crate::common::peer_missing("no /proc to find engine processes", false);
    }
    let dir = scratch("resume-kill");
    let rounds = 40;
    let total = 3 * 2 * rounds as usize;
    let reference = tournament(&dir, "reference.pgn", rounds);
    let clock = Instant::now();
    let (ok, reference_out, err) = run(
        &reference.iter().map(String::as_str).collect::<Vec<_>>(),
        &dir,
    );
    assert!(ok, "{reference_out}{err}");
    // The kills come at random moments within the uninterrupted run's time, so a faster runner
    // (or a faster machine) is still killed often enough.
    let whole = (clock.elapsed().as_millis() as u64).max(100);

    let args = tournament(&dir, "games.pgn", rounds);
    let state: PathBuf = dir.join("games.pgn.state.json");
    let seed = u64::from(std::process::id());
    let mut rng = Lcg(seed);
    let (mut kills, mut runs) = (0, 0);
    let started = Instant::now();
    let final_out = loop {
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "no end in 4 minutes (seed {seed})"
        );
        // Until the first state is on disk (the first run writes it before any game) a kill
        // leaves nothing to resume: start again.
        let mut command = Command::new(SHANNON);
        if state.exists() {
            command.args(MatchLine::new().arg("--resume", &state).quiet().strs());
        } else {
            command.args(&args);
        }
        let mut child = command
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        runs += 1;
        // After 20 kills the runs get a longer life, so the match ends.
        let life = if kills < 25 {
            10 + rng.below(whole / 15)
        } else {
            whole + rng.below(2 * whole)
        };
        std::thread::sleep(Duration::from_millis(life));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            child.wait().unwrap();
            kills += 1;
            continue;
        }
        let output = child.wait_with_output().unwrap();
        let out = String::from_utf8_lossy(&output.stdout).into_owned();
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "run {runs} (seed {seed}): {out}{err}"
        );
        break out;
    };
    println!(
        "resume: {kills} kills in {runs} runs, {:.1?} (the uninterrupted run: {whole} ms)",
        started.elapsed()
    );
    assert!(kills >= 20, "only {kills} kills (seed {seed})");
    assert_eq!(tables(&final_out), tables(&reference_out), "seed {seed}");
    assert!(!tables(&final_out).is_empty());

    let games = read_pgn(&dir.join("games.pgn"));
    let mut rounds_seen: BTreeMap<u32, u32> = BTreeMap::new();
    for game in &games {
        *rounds_seen
            .entry(tag(game, "Round").parse().unwrap())
            .or_default() += 1;
        assert!(
            game.record.outcome.is_finished(),
            "an unfinished game is left in the PGN"
        );
    }
    assert_eq!(games.len(), total, "seed {seed}");
    assert_eq!(
        rounds_seen.keys().copied().collect::<Vec<_>>(),
        (1..=total as u32).collect::<Vec<_>>()
    );
    // The same games as the uninterrupted run, game by game (the schedule and seeds are fixed).
    let reference_games = read_pgn(&dir.join("reference.pgn"));
    let moves = |games: &[shannon::notation::pgn::PgnGame]| -> BTreeMap<u32, usize> {
        games
            .iter()
            .map(|g| (tag(g, "Round").parse().unwrap(), g.record.moves.len()))
            .collect()
    };
    assert_eq!(moves(&games), moves(&reference_games), "seed {seed}");
    let epd = std::fs::read_to_string(dir.join("games.pgn.epd")).unwrap();
    assert_eq!(epd.lines().count(), total, "one EPD line per game");

    // SIGKILL does not reach the engines: they see their input close and quit.
    let deadline = Instant::now() + Duration::from_secs(5);
    while !processes_in(&dir).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        processes_in(&dir),
        Vec::<u32>::new(),
        "engines left running"
    );
}

#[test]
fn sigterm_saves_the_state_and_a_resume_replaces_the_unfinished_games() {
    let dir = scratch("resume-term");
    let args = tournament(&dir, "games.pgn", 30);
    let child = Command::new(SHANNON)
        .args(&args)
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(400));
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(1), "{out}");
    assert!(out.contains("Interrupted after"), "{out}");
    assert!(
        out.contains("continue with: shannon match --resume"),
        "{out}"
    );
    let state = dir.join("games.pgn.state.json");
    let (ok, resumed, err) = MatchLine::new()
        .arg("--resume", &state)
        .quiet()
        .run_in(&dir);
    assert!(ok, "{resumed}{err}");
    assert!(resumed.contains("Resuming"), "{resumed}");
    let games = read_pgn(&dir.join("games.pgn"));
    assert_eq!(games.len(), 180);
    assert!(games.iter().all(|g| g.record.outcome.is_finished()));
    // A finished state resumes to its tables without playing.
    let (ok, again, _) = MatchLine::new()
        .arg("--resume", &state)
        .quiet()
        .run_in(&dir);
    assert!(ok && again.contains("180 of 180 games done"), "{again}");
    assert_eq!(tables(&again), tables(&resumed));
    assert_eq!(read_pgn(&dir.join("games.pgn")).len(), 180);
}
