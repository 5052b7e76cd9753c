//! `shannon random-games` and `shannon merge` as a user runs them: the result does not depend on
//! threads, shards or a `kill -9` in the middle; the mix of endings and the mean game length agree
//! with random games played by python-chess (a chi-square test of homogeneity and a z-test); and
//! the outputs (table, JSON, SVG, Slurm script) and refusals are what `--help` promises.
//!
//! The python-chess comparison is skipped, with the reason printed, when python-chess is not
//! installed; failing instead when the environment sets `SHANNON_REQUIRE_PEERS=1`.

use crate::common::{peer_missing, peers_required, python_chess_missing};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh folder of this test's own (tests run in parallel threads of one process).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "shannon-random-games-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shannon"));
    command.args(args);
    command
}

fn shannon(args: &[&str]) -> Output {
    command(args).output().expect("shannon runs")
}

/// Run `shannon args`, which must succeed; its stdout.
fn shannon_ok(args: &[&str]) -> String {
    let out = shannon(args);
    assert!(
        out.status.success(),
        "shannon {}: {}\n{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Run `shannon args`, which must be refused with exit status 2; its stderr.
fn shannon_refused(args: &[&str]) -> String {
    let out = shannon(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(2),
        "shannon {} should be refused (exit 2); stdout:\n{}\nstderr:\n{stderr}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout)
    );
    stderr
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A report without its `timing` (the machine's, not the experiment's).
fn result_of(path: &Path) -> Value {
    let mut report = read_json(path);
    assert!(
        report.as_object_mut().unwrap().remove("timing").is_some(),
        "{} has no timing",
        path.display()
    );
    report
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The count of the ending `key` in a report.
fn ending_count(report: &Value, key: &str) -> u64 {
    report["endings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["key"] == key)
        .unwrap_or_else(|| panic!("no ending {key}"))["count"]
        .as_u64()
        .unwrap()
}

/// Run the experiment `args` on 1 thread, on 2, and as 3 shards merged; the three reports must be
/// equal but for timing (the merged one's command too). Returns the report.
fn same_whatever_the_split(dir: &Path, name: &str, args: &[&str]) -> Value {
    let json = |file: &str| dir.join(format!("{name}-{file}.json"));
    let run = |extra: &[&str], file: &str| {
        let out = json(file);
        let mut line = args.to_vec();
        line.extend_from_slice(extra);
        line.extend_from_slice(&["--quiet", "--json", text(&out)]);
        shannon_ok(&line);
        result_of(&out)
    };
    let one = run(&["--threads", "1"], "threads-1");
    let two = run(&["--threads", "2"], "threads-2");
    let shards: Vec<Value> = (0..3)
        .map(|i| {
            run(
                &["--threads", "1", "--shard", &format!("{i}/3")],
                &format!("shard-{i}"),
            )
        })
        .collect();
    // Each shard played its own third.
    let games = one["games"].as_u64().unwrap();
    let shard_games: Vec<u64> = shards
        .iter()
        .map(|s| s["games"].as_u64().unwrap())
        .collect();
    assert_eq!(
        shard_games.iter().sum::<u64>(),
        games,
        "{name}: {shard_games:?}"
    );
    assert_ne!(shards[0]["histogram"], shards[1]["histogram"], "{name}");
    // Merged in another order than played.
    let merged = json("merged");
    shannon_ok(&[
        "merge",
        text(&json("shard-2")),
        text(&json("shard-0")),
        text(&json("shard-1")),
        "--json",
        text(&merged),
    ]);
    let merged = result_of(&merged);
    assert_eq!(one, two, "{name}: 1 thread vs 2 threads");
    assert_eq!(one, merged, "{name}: 1 thread vs 3 shards merged");
    assert_eq!(one["command"], merged["command"], "{name}");
    let endings: u64 = one["endings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["count"].as_u64().unwrap())
        .sum();
    assert_eq!(endings, games, "{name}: every game ends once");
    println!("{name}: {games} games, {}", one["command"]);
    one
}

#[test]
fn threads_and_shards_do_not_change_the_result() {
    let dir = scratch("split");
    let standard = same_whatever_the_split(
        &dir,
        "standard",
        &["random-games", "--games", "6000", "--seed", "11"],
    );
    assert_eq!(standard["games"], 6000);
    assert_eq!(
        standard["command"],
        "shannon random-games --games 6000 --seed 11 --rules claims"
    );
    let chess960 = same_whatever_the_split(
        &dir,
        "chess960",
        &[
            "random-games",
            "--games",
            "3000",
            "--seed",
            "12",
            "--chess960",
        ],
    );
    assert!(chess960["command"]
        .as_str()
        .unwrap()
        .contains(" --chess960"));
    // The 960 starts are not the standard one: the tallies differ.
    assert_ne!(chess960["histogram"], standard["histogram"]);
    let automatic = same_whatever_the_split(
        &dir,
        "automatic",
        &[
            "random-games",
            "--games",
            "3000",
            "--seed",
            "13",
            "--rules",
            "automatic",
            "--max-plies",
            "300",
        ],
    );
    assert!(automatic["command"]
        .as_str()
        .unwrap()
        .ends_with("--rules automatic --max-plies 300"));
    // The ply limit ends many games, and no claim ends any.
    assert!(ending_count(&automatic, "ply-limit") > 100);
    assert_eq!(ending_count(&automatic, "threefold"), 0);
    assert_eq!(ending_count(&automatic, "fifty-move"), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// When a run of the checkpointed experiment is killed.
#[cfg(unix)]
#[derive(Debug, Clone, Copy)]
enum Kill {
    /// This many seconds after it starts.
    After(f64),
    /// This many seconds after it first saves its checkpoint.
    AfterSave(f64),
}

/// Spawn `args` and SIGKILL it when `kill` says, unless it ends first: its output when it ended by
/// itself, `None` when it was killed.
#[cfg(unix)]
fn run_or_kill(args: &[&str], kill: Option<Kill>, checkpoint: &Path) -> Option<Output> {
    use std::os::unix::process::ExitStatusExt;
    let before = std::fs::read(checkpoint).ok();
    let mut child = command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("shannon starts");
    let started = Instant::now();
    let mut saved_at = None;
    loop {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        let now = started.elapsed().as_secs_f64();
        if saved_at.is_none() && std::fs::read(checkpoint).ok() != before {
            saved_at = Some(now);
        }
        let due = match kill {
            Some(Kill::After(delay)) => now >= delay,
            Some(Kill::AfterSave(delay)) => saved_at.is_some_and(|at| now >= at + delay),
            None => false,
        };
        if due {
            // `Child::kill` is SIGKILL on Unix: no handler runs, nothing is saved on the way out.
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            if out.status.signal() != Some(9) {
                // It ended by itself just before the signal.
                return Some(out);
            }
            match saved_at {
                Some(at) => println!("killed at {now:.2} s, after a save at {at:.2} s"),
                None => println!("killed at {now:.2} s, before any save"),
            }
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[cfg(unix)]
#[test]
fn a_run_killed_with_sigkill_resumes_from_its_checkpoint_to_the_same_result() {
    let dir = scratch("kill");
    let (a, b, checkpoint) = (dir.join("a.json"), dir.join("b.json"), dir.join("c"));
    let experiment = [
        "random-games",
        "--games",
        "200000",
        "--seed",
        "5",
        "--threads",
        "2",
        "--quiet",
    ];
    let started = Instant::now();
    shannon_ok(&[&experiment[..], &["--json", text(&a)]].concat());
    println!("uninterrupted: {:.2} s", started.elapsed().as_secs_f64());
    let resumable = [
        &experiment[..],
        &["--checkpoint", text(&checkpoint), "--json", text(&b)],
    ]
    .concat();
    // Twice early (before the first save, 3 s in), once just after a save, once more early in
    // the resumed run, then let it finish. The moments are drawn from a seeded generator, so a
    // failure replays.
    let mut rng = SmallRng::seed_from_u64(2024);
    let kills = [
        Kill::After(rng.random_range(0.5..3.0)),
        Kill::After(rng.random_range(0.5..3.0)),
        Kill::AfterSave(rng.random_range(0.0..0.3)),
        Kill::After(rng.random_range(0.3..1.0)),
    ];
    println!("kills: {kills:.2?}");
    let mut killed = 0;
    let mut saved_before_kill = false;
    let mut done = 0;
    let finished = loop {
        let kill = kills.get(killed).copied();
        if let Some(out) = run_or_kill(&resumable, kill, &checkpoint) {
            break out;
        }
        killed += 1;
        assert!(!b.exists(), "a killed run wrote its report");
        if checkpoint.exists() {
            // A kill leaves a whole checkpoint (saves are atomic), of part of the games.
            done = read_json(&checkpoint)["done"].as_u64().unwrap();
            assert!(done > 0 && done < 200_000, "checkpoint done: {done}");
            println!("checkpoint after kill {killed}: {done} games done");
        }
        if let Some(Kill::AfterSave(_)) = kill {
            assert!(
                checkpoint.exists(),
                "no checkpoint after a kill after a save"
            );
            saved_before_kill = true;
        }
    };
    let stdout = String::from_utf8_lossy(&finished.stdout);
    assert!(
        finished.status.success(),
        "{}\n{stdout}\n{}",
        finished.status,
        String::from_utf8_lossy(&finished.stderr)
    );
    assert!(
        killed >= 3 && saved_before_kill,
        "the run ended after {killed} kills, before a kill after a save: is it too short?"
    );
    let resumed = format!("resumed after {done} games from the checkpoint");
    assert!(stdout.contains(&resumed), "expected '{resumed}':\n{stdout}");
    println!("after {killed} kills: {}", stdout.lines().next().unwrap());
    assert_eq!(
        result_of(&a),
        result_of(&b),
        "killed and resumed vs uninterrupted"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_checkpoint_of_another_experiment_is_refused_and_left_alone() {
    let dir = scratch("other-checkpoint");
    let checkpoint = dir.join("c");
    let run = |seed: &str, json: &Path| {
        vec![
            "random-games".to_string(),
            "--games".into(),
            "3000".into(),
            "--seed".into(),
            seed.into(),
            "--quiet".into(),
            "--checkpoint".into(),
            text(&checkpoint).into(),
            "--json".into(),
            text(json).into(),
        ]
    };
    let first: Vec<String> = run("5", &dir.join("five.json"));
    shannon_ok(&first.iter().map(String::as_str).collect::<Vec<_>>());
    let saved = std::fs::read(&checkpoint).expect("a finished run leaves its checkpoint");
    let other_json = dir.join("six.json");
    let other = run("6", &other_json);
    let stderr = shannon_refused(&other.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        stderr.contains("holds another experiment") && stderr.contains("seed 5"),
        "{stderr}"
    );
    println!("refused: {}", stderr.trim());
    assert_eq!(
        std::fs::read(&checkpoint).unwrap(),
        saved,
        "the checkpoint changed"
    );
    assert!(!other_json.exists());
    // The same experiment resumes from it (all done) to the same report.
    let again = shannon_ok(&first.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(again.contains("resumed after 3000 games"), "{again}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// ln Γ(x) for x ≥ 0.5 (Lanczos, g = 7, 9 terms; relative error below 1e-13).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    assert!(x >= 0.5, "ln_gamma({x})");
    let x = x - 1.0;
    let t = x + 7.5;
    let sum: f64 = C[0]
        + C[1..]
            .iter()
            .enumerate()
            .map(|(i, c)| c / (x + i as f64 + 1.0))
            .sum::<f64>();
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The regularized upper incomplete gamma function Q(a, x): by its series below x = a + 1, by
/// its continued fraction (modified Lentz) above.
fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let front = (a * x.ln() - x - ln_gamma(a)).exp();
    if x < a + 1.0 {
        // P(a, x) = front * sum x^n / (a (a+1) ... (a+n)).
        let (mut term, mut sum, mut n) = (1.0 / a, 1.0 / a, a);
        while term > sum * 1e-16 {
            n += 1.0;
            term *= x / n;
            sum += term;
        }
        1.0 - front * sum
    } else {
        const TINY: f64 = 1e-300;
        let mut b = x + 1.0 - a;
        let (mut c, mut d) = (1.0 / TINY, 1.0 / b);
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < TINY {
                d = TINY;
            }
            c = b + an / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            let step = d * c;
            h *= step;
            if (step - 1.0).abs() < 1e-16 {
                break;
            }
        }
        front * h
    }
}

/// P(X > x) for X chi-square distributed with `df` degrees of freedom.
fn chi_square_sf(x: f64, df: usize) -> f64 {
    gamma_q(df as f64 / 2.0, x / 2.0)
}

#[test]
fn chi_square_survival_function_matches_known_values() {
    let close = |got: f64, want: f64, tolerance: f64| {
        assert!((got - want).abs() <= tolerance, "{got} vs {want}");
    };
    // The 5% critical values of 1 and 5 degrees of freedom.
    close(chi_square_sf(3.84, 1), 0.05, 1e-4);
    close(chi_square_sf(11.07, 5), 0.05, 1e-4);
    // Closed forms: erfc(sqrt(x/2)) for 1 degree, e^(-x/2) sum (x/2)^i/i! for even degrees, plus
    // sqrt(2x/pi) e^(-x/2) (1 + x/3 + ...) for odd ones (computed with Python's math module).
    close(chi_square_sf(3.84, 1), 0.050_043_521_248_705_09, 1e-12);
    close(chi_square_sf(11.07, 5), 0.050_009_618_622_405_47, 1e-12);
    close(chi_square_sf(2.0, 3), 0.572_406_704_470_879_8, 1e-12);
    close(chi_square_sf(1.0, 4), 0.909_795_989_568_950_1, 1e-12);
    close(chi_square_sf(20.0, 4), 0.000_499_399_227_387_333_4, 1e-15);
    close(chi_square_sf(2.0, 2), (-1.0f64).exp(), 1e-14);
    close(chi_square_sf(0.0, 3), 1.0, 0.0);
}

/// The chi-square statistic of homogeneity of the rows of a 2 x k table (columns with a total of
/// 0 dropped), and its degrees of freedom.
fn chi_square_homogeneity(rows: [&[u64]; 2]) -> (f64, usize) {
    let k = rows[0].len();
    let row_totals = rows.map(|r| r.iter().sum::<u64>() as f64);
    let total = row_totals[0] + row_totals[1];
    let mut statistic = 0.0;
    let mut columns = 0;
    for j in 0..k {
        let column = (rows[0][j] + rows[1][j]) as f64;
        if column == 0.0 {
            continue;
        }
        columns += 1;
        for (row, row_total) in rows.iter().zip(row_totals) {
            let expected = row_total * column / total;
            statistic += (row[j] as f64 - expected).powi(2) / expected;
        }
    }
    (statistic, columns - 1)
}

/// The endings compared with python-chess, as Shannon's JSON names them.
const ENDINGS: [&str; 6] = [
    "mate-white",
    "mate-black",
    "stalemate",
    "insufficient-material",
    "fifty-move",
    "threefold",
];

/// python-chess's games: (games, seed) for each process, run side by side.
const PYTHON_GAMES: [(u64, u64); 2] = [(1000, 3), (1000, 4)];

#[test]
fn endings_and_lengths_match_python_chess() {
    if let Some(reason) = python_chess_missing() {
        return peer_missing(&reason, peers_required());
    }
    let dir = scratch("python");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/random_games.py");
    let started = Instant::now();
    let children: Vec<_> = PYTHON_GAMES
        .iter()
        .map(|(games, seed)| {
            Command::new("python3")
                .args([script, &games.to_string(), &seed.to_string()])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("python3 starts")
        })
        .collect();
    // Shannon's games while python-chess plays.
    let json = dir.join("shannon.json");
    shannon_ok(&[
        "random-games",
        "--games",
        "20000",
        "--seed",
        "3",
        "--quiet",
        "--json",
        text(&json),
    ]);
    let ours = read_json(&json);
    let mut theirs = [0u64; ENDINGS.len()];
    let (mut games, mut plies, mut plies_squared) = (0u64, 0f64, 0f64);
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "the script failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let part: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            part["insufficient_disagreements"], 0,
            "python-chess's is_insufficient_material() is not FIDE's dead positions by material \
             somewhere: {part}"
        );
        for (count, key) in theirs.iter_mut().zip(ENDINGS) {
            *count += part["counts"][key].as_u64().unwrap();
        }
        games += part["games"].as_u64().unwrap();
        plies += part["plies"].as_f64().unwrap();
        plies_squared += part["plies_squared"].as_f64().unwrap();
    }
    let python_seconds = started.elapsed().as_secs_f64();
    println!(
        "python-chess: {games} games in {python_seconds:.1} s ({} processes side by side)",
        PYTHON_GAMES.len()
    );
    assert_eq!(theirs.iter().sum::<u64>(), games);
    // Under the claims rules only these endings occur.
    let mine: Vec<u64> = ENDINGS.iter().map(|key| ending_count(&ours, key)).collect();
    assert_eq!(mine.iter().sum::<u64>(), ours["games"].as_u64().unwrap());

    // Merge sparse columns (an expected count below 5) into their smallest neighbour in size.
    let mut columns: Vec<(String, [u64; 2])> = ENDINGS
        .iter()
        .zip(mine.iter().zip(&theirs))
        .map(|(key, (&a, &b))| (key.to_string(), [a, b]))
        .collect();
    let totals = [mine.iter().sum::<u64>() as f64, games as f64];
    let least_expected = |c: &[u64; 2]| {
        let column = (c[0] + c[1]) as f64;
        totals
            .iter()
            .map(|t| t * column / (totals[0] + totals[1]))
            .fold(f64::INFINITY, f64::min)
    };
    loop {
        columns.sort_by_key(|(_, c)| c[0] + c[1]);
        if columns.len() <= 2 || least_expected(&columns[0].1) >= 5.0 {
            break;
        }
        let (name, counts) = columns.remove(0);
        columns[0].0 = format!("{name}+{}", columns[0].0);
        columns[0].1[0] += counts[0];
        columns[0].1[1] += counts[1];
    }
    columns.sort_by_key(|(name, _)| ENDINGS.iter().position(|k| name.starts_with(k)));
    println!("{:<24} {:>9} {:>9}", "ending", "shannon", "python");
    for (name, [a, b]) in &columns {
        println!(
            "{name:<24} {a:>9} {b:>9}   ({:.2}% / {:.2}%)",
            100.0 * *a as f64 / totals[0],
            100.0 * *b as f64 / totals[1]
        );
    }
    let shannon_row: Vec<u64> = columns.iter().map(|(_, c)| c[0]).collect();
    let python_row: Vec<u64> = columns.iter().map(|(_, c)| c[1]).collect();
    let (statistic, df) = chi_square_homogeneity([&shannon_row, &python_row]);
    let p = chi_square_sf(statistic, df);
    println!("chi-square {statistic:.3}, {df} degrees of freedom, p = {p:.4}");

    // Mean length: a two-sample z-test.
    let n = games as f64;
    let python_mean = plies / n;
    let python_variance = (plies_squared - n * python_mean * python_mean) / (n - 1.0);
    let our_n = totals[0];
    let our_mean = ours["length"]["mean"].as_f64().unwrap();
    let our_sd = ours["length"]["sd"].as_f64().unwrap();
    let z = (our_mean - python_mean) / (our_sd * our_sd / our_n + python_variance / n).sqrt();
    println!(
        "mean length (plies): shannon {our_mean:.2} (sd {our_sd:.2}), python-chess \
         {python_mean:.2} (sd {:.2}); z = {z:.2}",
        python_variance.sqrt()
    );
    assert!(
        p >= 0.001,
        "the endings differ from python-chess's: chi-square {statistic:.2}, p = {p:.2e}"
    );
    assert!(
        z.abs() <= 4.0,
        "the mean lengths differ from python-chess's: z = {z:.2}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plot_writes_an_svg() {
    let dir = scratch("plot");
    let plot = dir.join("lengths.svg");
    shannon_ok(&[
        "random-games",
        "--games",
        "2000",
        "--seed",
        "1",
        "--quiet",
        "--plot",
        text(&plot),
    ]);
    let svg = std::fs::read_to_string(&plot).expect("the plot is written");
    assert!(svg.contains("<svg"), "{}", &svg[..svg.len().min(300)]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn print_sbatch_prints_a_job_array_and_runs_nothing() {
    let out = shannon_ok(&[
        "random-games",
        "--print-sbatch",
        "--shards",
        "4",
        "--seed",
        "1",
        "--games",
        "1000",
    ]);
    assert!(out.starts_with("#!/bin/bash\n"), "{out}");
    assert!(out.contains("#SBATCH --array=0-3\n"), "{out}");
    assert!(
        out.contains("shannon random-games --games 1000 --seed 1 --rules claims --shards 4"),
        "{out}"
    );
    assert!(out.contains("shannon merge shard-*.json"), "{out}");
    assert!(
        !out.contains("random games, seed"),
        "it ran the games:\n{out}"
    );
}

#[test]
fn game_counts_accept_exponents() {
    let dir = scratch("exponent");
    let json = dir.join("r.json");
    shannon_ok(&[
        "random-games",
        "--games",
        "1e4",
        "--seed",
        "2",
        "--quiet",
        "--json",
        text(&json),
    ]);
    let report = read_json(&json);
    assert_eq!(report["games"], 10_000);
    assert_eq!(report["experiment"]["games"], 10_000);
    let stderr = shannon_refused(&["random-games", "--games", "1.5e0", "--seed", "2"]);
    assert!(stderr.contains("whole number"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sharding_without_a_seed_is_refused() {
    for line in [
        &["random-games", "--games", "100", "--shard", "0/2"][..],
        &["random-games", "--print-sbatch", "--shards", "4"][..],
    ] {
        let stderr = shannon_refused(line);
        assert!(stderr.contains("--seed"), "{stderr}");
    }
}

#[test]
fn merge_refuses_missing_duplicated_or_foreign_shards() {
    let dir = scratch("merge");
    let shard = |seed: u64, index: u64| {
        let path = dir.join(format!("seed{seed}-shard{index}.json"));
        shannon_ok(&[
            "random-games",
            "--games",
            "3000",
            "--seed",
            &seed.to_string(),
            "--shard",
            &format!("{index}/3"),
            "--quiet",
            "--json",
            text(&path),
        ]);
        path
    };
    let (s0, s1, s2) = (shard(7, 0), shard(7, 1), shard(7, 2));
    let foreign = shard(8, 1);
    let out = dir.join("merged.json");
    let refused = |files: &[&PathBuf], expected: &str| {
        let mut line = vec!["merge"];
        line.extend(files.iter().map(|p| text(p)));
        line.extend(["--json", text(&out)]);
        let stderr = shannon_refused(&line);
        assert!(stderr.contains(expected), "expected '{expected}': {stderr}");
        assert!(!out.exists(), "a refused merge wrote its report");
        println!("{}", stderr.trim());
    };
    refused(&[&s0, &s2], "missing shard(s) 1 of 3");
    refused(&[&s0, &s1, &s1, &s2], "shard 1/3 appears twice");
    refused(&[&s0, &foreign, &s2], "different experiments");
    // A report whose shard index is not below its count (edited by hand) is refused, not a crash.
    let edited = dir.join("edited.json");
    let mut report = read_json(&s1);
    report["experiment"]["shard"]["index"] = 5.into();
    std::fs::write(&edited, report.to_string()).unwrap();
    refused(&[&s0, &edited, &s2], "shard 5/3 among shards of 3");
    // All three, once each, merge.
    shannon_ok(&[
        "merge",
        text(&s0),
        text(&s1),
        text(&s2),
        "--json",
        text(&out),
    ]);
    assert_eq!(read_json(&out)["games"], 3000);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_table_has_wilson_intervals_and_a_command_that_reproduces_it() {
    let dir = scratch("table");
    let first = dir.join("first.json");
    let out = shannon_ok(&[
        "random-games",
        "--games",
        "3000",
        "--seed",
        "4",
        "--chess960",
        "518",
        "--max-plies",
        "500",
        "--quiet",
        "--json",
        text(&first),
    ]);
    println!("{out}");
    assert!(out.starts_with("3000 random games, seed 4\n"), "{out}");
    assert!(out.contains("95% interval (Wilson)"), "{out}");
    // Every ending's row carries its interval: "... 12.3456%   11.1111% - 13.5555%".
    let row = out
        .lines()
        .find(|l| l.starts_with("stalemate"))
        .expect("a stalemate row");
    let (share, interval) = row.split_once("%   ").expect("share, then interval");
    let share: f64 = share.split_whitespace().last().unwrap().parse().unwrap();
    let (low, high) = interval.trim_end_matches('%').split_once("% - ").unwrap();
    let (low, high): (f64, f64) = (low.parse().unwrap(), high.parse().unwrap());
    assert!(low < share && share < high, "{row}");
    let reproduce = out
        .lines()
        .find_map(|l| l.strip_prefix("reproduce: shannon "))
        .expect("a reproduce line");
    assert_eq!(
        reproduce,
        "random-games --games 3000 --seed 4 --chess960 518 --rules claims --max-plies 500"
    );
    // Running it plays the same games.
    let again = dir.join("again.json");
    let mut line: Vec<&str> = reproduce.split_whitespace().collect();
    line.extend(["--quiet", "--json", text(&again)]);
    shannon_ok(&line);
    assert_eq!(result_of(&first), result_of(&again));
    let _ = std::fs::remove_dir_all(&dir);
}
