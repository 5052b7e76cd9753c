//! What the comparison needs besides Shannon: the peers found on PATH (MPerft 5.1 as `mperft5`,
//! Gigantua as `gigantua`), how each is run and checked, the CPU time of this process and of the
//! peers it runs, and the machine's name and load.

use std::process::Command;
use std::time::Instant;

/// One count's result and cost: CPU seconds (user + system) and wall-clock seconds.
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    pub cpu: f64,
    pub wall: f64,
}

impl Timed {
    /// The better (smaller) of two measurements, field by field.
    pub fn best(self, other: Timed) -> Timed {
        Timed {
            cpu: self.cpu.min(other.cpu),
            wall: self.wall.min(other.wall),
        }
    }

    pub const NONE: Timed = Timed {
        cpu: f64::INFINITY,
        wall: f64::INFINITY,
    };
}

fn rusage(who: libc::c_int) -> f64 {
    // SAFETY: `getrusage` writes one `rusage` struct through the pointer, which points at a
    // zeroed one of ours; `who` is one of the two constants the callers pass.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(who, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The CPU seconds this process has used, all its threads together.
pub fn own_cpu() -> f64 {
    rusage(libc::RUSAGE_SELF)
}

/// The CPU seconds used by the children this process has waited for.
fn children_cpu() -> f64 {
    rusage(libc::RUSAGE_CHILDREN)
}

/// `f()`'s CPU and wall-clock time in this process.
pub fn timed<R>(f: impl FnOnce() -> R) -> (R, Timed) {
    let (cpu, wall) = (own_cpu(), Instant::now());
    let result = f();
    let timed = Timed {
        cpu: own_cpu() - cpu,
        wall: wall.elapsed().as_secs_f64(),
    };
    (result, timed)
}

/// The CPU as `/proc/cpuinfo` names it, with its family and model in hexadecimal (the family
/// says whether `PEXT` is fast on AMD: 19h, Zen 3, and later), and the logical CPUs.
pub fn cpu_name() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    };
    let cpus = info.lines().filter(|l| l.starts_with("processor")).count();
    let Some(model_name) = field("model name") else {
        return format!(
            "unknown CPU ({} logical CPUs)",
            std::thread::available_parallelism().map_or(0, |n| n.get())
        );
    };
    let number = |name: &str| field(name).and_then(|v| v.parse::<u32>().ok());
    match (number("cpu family"), number("model")) {
        (Some(family), Some(model)) => {
            format!("{model_name} (family {family:X}h, model {model:02X}h), {cpus} logical CPUs")
        }
        _ => format!("{model_name}, {cpus} logical CPUs"),
    }
}

/// The load averages over 1, 5 and 15 minutes.
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

/// A perft program run beside Shannon.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Peer {
    /// MPerft 5.1 (R. Delorme), with nullmove counting at the penultimate ply (`-n`), a table
    /// (`-h MB`) and threads (`-t N`).
    Mperft,
    /// Gigantua (D. Angerer), bulk counting with PEXT lookups; no table, one thread, standard
    /// castling only.
    Gigantua,
}

/// How a peer counts: table size and threads (Gigantua has neither).
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    pub hash_mb: usize,
    pub threads: usize,
}

impl Peer {
    pub fn program(self) -> &'static str {
        match self {
            Peer::Mperft => "mperft5",
            Peer::Gigantua => "gigantua",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Peer::Mperft => "MPerft 5.1",
            Peer::Gigantua => "Gigantua",
        }
    }

    /// Whether the peer can count with this setting.
    pub fn can(self, setting: Setting) -> bool {
        match self {
            Peer::Mperft => true,
            Peer::Gigantua => setting.hash_mb == 0 && setting.threads <= 1,
        }
    }

    /// The peer's command for `fen` to `depth` (`expected` nodes: Gigantua checks them itself).
    fn command(self, fen: &str, depth: u32, expected: u64, setting: Setting) -> Command {
        let mut command = Command::new(self.program());
        match self {
            Peer::Mperft => {
                command.args(["-f", fen, "-d", &depth.to_string(), "-n", "-q"]);
                if setting.hash_mb > 0 {
                    command.args(["-h", &setting.hash_mb.to_string()]);
                }
                if setting.threads > 1 {
                    command.args(["-t", &setting.threads.to_string()]);
                }
            }
            Peer::Gigantua => {
                command.args([fen, &depth.to_string(), &expected.to_string()]);
            }
        }
        command
    }

    /// Counts `fen` to `depth` and checks the count against `expected`: its CPU time (as the
    /// operating system accounts it to the child) and wall-clock time, or why it failed.
    pub fn count(
        self,
        fen: &str,
        depth: u32,
        expected: u64,
        setting: Setting,
    ) -> Result<Timed, String> {
        let mut command = self.command(fen, depth, expected, setting);
        let (cpu, wall) = (children_cpu(), Instant::now());
        let output = command
            .output()
            .map_err(|e| format!("cannot run `{}`: {e}", self.program()))?;
        let timed = Timed {
            cpu: children_cpu() - cpu,
            wall: wall.elapsed().as_secs_f64(),
        };
        match self {
            Peer::Mperft => {
                let text = String::from_utf8_lossy(&output.stdout);
                // "perft  7:              3,195,901,860 positions in   2.190 1459.3 Mpos/s"
                let counted = text
                    .lines()
                    .find(|l| l.starts_with("perft"))
                    .and_then(|l| l.split(':').nth(1))
                    .and_then(|rest| rest.split_whitespace().next())
                    .and_then(|n| n.replace(',', "").parse::<u64>().ok())
                    .ok_or_else(|| format!("no count in mperft5's output: {text}"))?;
                if counted != expected {
                    return Err(format!("counted {counted}, not {expected}"));
                }
            }
            Peer::Gigantua => {
                // It exits with 0 when its count is the expected one, 9 when not.
                if !output.status.success() {
                    return Err(format!("its count is not {expected} ({})", output.status));
                }
            }
        }
        Ok(timed)
    }

    /// `Ok` when the peer is on PATH and counts the start position to depth 1 right; else why
    /// it is skipped.
    pub fn check(self) -> Result<(), String> {
        self.count(
            shannon::STARTPOS_FEN,
            1,
            20,
            Setting {
                hash_mb: 0,
                threads: 1,
            },
        )
        .map(|_| ())
        .map_err(|e| {
            format!(
                "{} skipped: {e} (put it on PATH as `{}`)",
                self.name(),
                self.program()
            )
        })
    }

    /// The CPU time of the peer's start-up with this setting (its tables made, its hash table
    /// allocated and cleared): a count of the start position to depth 1, best of `rounds`.
    pub fn start_up(self, setting: Setting, rounds: u32) -> f64 {
        (0..rounds.max(1))
            .filter_map(|_| self.count(shannon::STARTPOS_FEN, 1, 20, setting).ok())
            .map(|t| t.cpu)
            .fold(f64::INFINITY, f64::min)
    }
}
