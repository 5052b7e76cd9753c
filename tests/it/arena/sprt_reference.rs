//! The SPRT's log-likelihood ratios against `tests/data/sprt/pentanomial_reference.py`, a Python
//! transcription of fishtest's `LLR_logistic` written from the published algorithm (Brent's
//! method where the Rust code bisects): pentanomial tables (all WW, all DD, all LL, balanced,
//! realistic, one of fishtest's own) under several SPRT settings, and trinomial ones.
//!
//! Without `python3` the check is skipped with the reason printed; `SHANNON_REQUIRE_PEERS=1`
//! makes that a failure.

use crate::common::{data_path, peer_missing, peers_required};
use shannon::stats::{Pentanomial, Score, Sprt};
use std::io::Write;
use std::process::{Command, Stdio};

/// The script's LLR for each `(elo0, elo1, counts)` case, or why it could not run.
fn reference_llrs(cases: &[(f64, f64, Vec<u32>)]) -> Result<Vec<f64>, String> {
    let mut child = Command::new("python3")
        .arg(data_path("sprt/pentanomial_reference.py"))
        .arg("--stdin")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("python3 does not run: {e}"))?;
    let mut input = String::new();
    for (elo0, elo1, counts) in cases {
        let counts: Vec<String> = counts.iter().map(u32::to_string).collect();
        input.push_str(&format!("{elo0} {elo1} {}\n", counts.join(" ")));
    }
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes())
        .map_err(|e| format!("writing to python3 failed: {e}"))?;
    let output = child.wait_with_output().expect("python3 ends");
    // python3 ran: whatever goes wrong from here is a failure, not a missing peer.
    assert!(
        output.status.success(),
        "pentanomial_reference.py failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let values: Vec<f64> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| l.trim().parse().expect("one LLR a line"))
        .collect();
    assert_eq!(values.len(), cases.len(), "one LLR per case");
    Ok(values)
}

#[test]
fn sprt_llr_matches_a_python_transcription_of_fishtest() {
    let tables: [[u32; 5]; 8] = [
        [0, 0, 0, 0, 200],
        [0, 0, 200, 0, 0],
        [200, 0, 0, 0, 0],
        [0, 0, 0, 0, 1],
        [20, 20, 20, 20, 20],
        [10, 50, 200, 60, 12],
        [12, 60, 200, 50, 10],
        [1187, 7410, 13475, 7378, 1164],
    ];
    let trinomials: [[u32; 3]; 6] = [
        [0, 0, 200],
        [0, 200, 0],
        [200, 0, 0],
        [1, 1, 2],
        [30, 40, 30],
        [200, 200, 600],
    ];
    let settings = [(0.0, 10.0), (0.0, 5.0), (-5.0, 5.0), (-3.0, 1.0)];
    let mut cases = Vec::new();
    for &(elo0, elo1) in &settings {
        cases.extend(tables.iter().map(|t| (elo0, elo1, t.to_vec())));
        cases.extend(trinomials.iter().map(|t| (elo0, elo1, t.to_vec())));
    }
    let expected = match reference_llrs(&cases) {
        Ok(values) => values,
        Err(reason) => return peer_missing(&reason, peers_required()),
    };
    println!(
        "{:>6} {:>6}  {:<34} {:>22} {:>22}",
        "elo0", "elo1", "counts", "Rust", "Python"
    );
    for ((elo0, elo1, counts), python) in cases.iter().zip(expected) {
        let sprt = format!("{elo0},{elo1},0.05,0.05").parse::<Sprt>().unwrap();
        let rust = match counts[..] {
            [losses, draws, wins] => sprt.llr(&Score {
                wins,
                draws,
                losses,
            }),
            _ => sprt.llr_pentanomial(
                &Pentanomial {
                    counts: counts.clone().try_into().unwrap(),
                },
                &Score::default(),
            ),
        };
        println!(
            "{elo0:>6} {elo1:>6}  {:<34} {rust:>22.15e} {python:>22.15e}",
            format!("{counts:?}")
        );
        assert!(
            (rust - python).abs() <= 1e-6 * python.abs() + 1e-9,
            "{elo0},{elo1} {counts:?}: Rust LLR {rust}, Python {python}"
        );
    }
}
