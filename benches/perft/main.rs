//! Perft against the fastest perft programs we can build, in one run (absolute times on a shared
//! machine are noise; the ratio measured in the same run is the figure that means something).
//!
//! `cargo bench --bench perft` runs Shannon beside MPerft 5.1 (R. Delorme; run as `mperft5`,
//! with its nullmove counting `-n`, with and without a table) and Gigantua (D. Angerer; run as
//! `gigantua`), each found on PATH and skipped with the reason printed when absent; how they are
//! built is in docs/benchmarks.md. It names the CPU, then prints, with each count
//! checked: no table on one thread (start position depth 7, Kiwipete depth 6, and the standard
//! suites at a node budget per position), a table on one thread (start position depth 8,
//! Kiwipete depth 6), and two threads against one (start position depth 8, without and with the
//! table). Times are CPU seconds, best of N rounds run interleaved (see `race.rs`).
//!
//! Options after `--`: `rounds=N` (default 3), `hash=MB` (the table, default 256), `budget=N`
//! (nodes per suite position, default 100000000), `quick` (smaller depths, for a smoke run),
//! `long` (also the start position to depth 9 beside MPerft with the same table and threads:
//! `long-hash=MB`, default 4096, and `long-threads=N`, default 2; `long=10` adds depth 10, hours),
//! `suite` (only the suites at the node budget, to profile or compare them: `top=N` lists the N
//! positions where Shannon loses the most time beside each peer, default 5, and `only=TEXT` keeps the
//! positions whose name (`file:id`) or FEN contains TEXT), and `cozy` (instead: Shannon against
//! cozy-chess and the random-games loop, see `cozy.rs`).

mod cozy;
mod peers;
mod race;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| {
        args.iter()
            .find_map(|a| a.strip_prefix(name)?.strip_prefix('=')?.parse::<u64>().ok())
    };
    if args.iter().any(|a| a == "cozy") {
        cozy::run_cozy(&args);
        return;
    }
    let long = if args.iter().any(|a| a == "long") {
        9
    } else {
        value("long").unwrap_or(0) as u32
    };
    race::run(&race::Race {
        rounds: value("rounds").unwrap_or(3) as u32,
        hash_mb: value("hash").unwrap_or(256) as usize,
        budget: value("budget").unwrap_or(100_000_000),
        quick: args.iter().any(|a| a == "quick"),
        long,
        long_hash_mb: value("long-hash").unwrap_or(4096) as usize,
        long_threads: value("long-threads").unwrap_or(2) as usize,
        suite_only: args.iter().any(|a| a == "suite"),
        top: value("top").unwrap_or(5) as usize,
        only: args
            .iter()
            .find_map(|a| a.strip_prefix("only="))
            .map(str::to_string),
    });
}
