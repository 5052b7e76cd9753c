//! `shannon bench tablebase`: WDL probes per second, ours and python-chess's on the same
//! positions in the same run (python-chess through `tests/syzygy_python.py`, built in), and
//! whether the two agree on every one. Rates are per second of CPU time of the probing thread
//! (each side's own, so that other load on a shared machine counts less), with the wall-clock
//! rate beside them.

use super::prelude::per_second;
use shannon::tablebase::sample::random_positions;
use shannon::tablebase::{Tablebase, Wdl};
use shannon::Position;
use std::ffi::OsStr;
use std::io::{self, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The peer's script: it reads FENs on stdin and prints python-chess's values.
const PYTHON_PROBER: &str = include_str!("../../tests/syzygy_python.py");

/// The CPU's model name from /proc/cpuinfo.
fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}

/// The CPU time the calling thread has run, from Linux's /proc/thread-self/schedstat
/// (nanoseconds); `None` elsewhere.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanoseconds as f64 / 1e9)
}

/// Time `positions` random positions (shared out over the tables' materials, both sides to
/// move, some with en passant squares) through our prober, then through python-chess; print
/// both rates, their ratio and the disagreements. False when the probers disagree.
pub fn run_tablebase_bench(
    tables: &Tablebase,
    folders: &OsStr,
    positions: usize,
    seed: u64,
    out: &mut impl Write,
) -> io::Result<bool> {
    let materials: Vec<_> = tables.tables().map(|(_, m)| m).collect();
    let each = positions.div_ceil(materials.len()).max(1);
    let sample: Vec<Position> = materials
        .iter()
        .enumerate()
        .flat_map(|(i, &m)| random_positions(m, each, seed.wrapping_add(i as u64)))
        .collect();
    writeln!(
        out,
        "tablebase benchmark: {} positions ({each} of each of {} tables, seed {seed}) on {}",
        sample.len(),
        materials.len(),
        cpu_name()
    )?;
    let started = Instant::now();
    let ours: Vec<Option<Wdl>> = sample.iter().map(|p| tables.probe_wdl(p).ok()).collect();
    let first = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "first pass (each table read and checked on first use): {first:.3} s"
    )?;
    // Then whole passes until a second has gone by.
    let (mut passes, started, cpu) = (0u64, Instant::now(), thread_cpu_seconds());
    while passes == 0 || started.elapsed().as_secs_f64() < 1.0 {
        for pos in &sample {
            std::hint::black_box(tables.probe_wdl(pos).ok());
        }
        passes += 1;
    }
    let wall = started.elapsed().as_secs_f64();
    let cpu = match (cpu, thread_cpu_seconds()) {
        (Some(before), Some(after)) => after - before,
        _ => wall,
    };
    let probes = passes * sample.len() as u64;
    let rate = per_second(probes, cpu);
    let failed = ours.iter().filter(|v| v.is_none()).count();
    writeln!(
        out,
        "shannon:       {rate:>10.0} probes/s of CPU, {:>10.0} of wall clock ({probes} probes, \
         {cpu:.3} s of CPU; {failed} refused)",
        per_second(probes, wall)
    )?;
    match python_chess(folders, &sample)? {
        Ok(peer) => {
            let count = sample.len() as u64;
            let peer_rate = per_second(count, peer.cpu);
            let differ = ours
                .iter()
                .zip(&peer.values)
                .filter(|(a, b)| a.map(Wdl::to_i8) != **b)
                .count();
            writeln!(
                out,
                "python-chess:  {peer_rate:>10.0} probes/s of CPU, {:>10.0} of wall clock ({count} \
                 probes, {:.3} s of CPU)",
                per_second(count, peer.wall),
                peer.cpu
            )?;
            writeln!(
                out,
                "ratio: {:.1} (shannon / python-chess, CPU time); values that differ: {differ} of \
                 {count}",
                rate / peer_rate.max(1e-9),
            )?;
            Ok(differ == 0)
        }
        Err(why) => {
            writeln!(out, "python-chess: skipped: {why}")?;
            Ok(true)
        }
    }
}

/// python-chess's run: its values (None where it refuses), and the seconds its probes took.
struct PeerRun {
    values: Vec<Option<i8>>,
    wall: f64,
    cpu: f64,
}

/// python-chess's run over `sample`, or why it did not run.
fn python_chess(folders: &OsStr, sample: &[Position]) -> io::Result<Result<PeerRun, String>> {
    let child = Command::new("python3")
        .arg("-c")
        .arg(PYTHON_PROBER)
        .arg(folders)
        .arg("--time")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return Ok(Err(format!("python3 does not run: {e}"))),
    };
    let fens: String = sample.iter().map(|p| p.fen() + "\n").collect();
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(fens.as_bytes()));
    let output = child.wait_with_output()?;
    let _ = writer.join();
    if !output.status.success() {
        return Ok(Err(format!(
            "python3 exited with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut values = Vec::new();
    let (mut wall, mut cpu) = (None, None);
    for line in text.lines() {
        if let Some(s) = line.strip_prefix("seconds ") {
            wall = s.trim().parse::<f64>().ok();
        } else if let Some(s) = line.strip_prefix("cpu-seconds ") {
            cpu = s.trim().parse::<f64>().ok();
        } else {
            values.push(line.trim().parse::<i8>().ok());
        }
    }
    match (wall, cpu) {
        (Some(wall), Some(cpu)) if values.len() == sample.len() => {
            Ok(Ok(PeerRun { values, wall, cpu }))
        }
        _ => Ok(Err(format!(
            "python-chess answered {} of {} positions",
            values.len(),
            sample.len()
        ))),
    }
}
