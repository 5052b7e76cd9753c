//! The mix of endings and the mean length against python-chess playing its own random games.

use super::*;
use crate::common::{peer_missing, peers_required, python_chess_missing};
use std::time::Instant;

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
}
