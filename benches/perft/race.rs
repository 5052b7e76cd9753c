//! Shannon against MPerft 5.1 and Gigantua, in one run: each count made by every engine in turn
//! (Shannon, then each peer), round after round, the best CPU time of each kept; every count
//! checked. The tables of issue 34: no table on one thread (start position depth 7, Kiwipete
//! depth 6, and the standard suites at a node budget), a 256 MiB table on one thread (start
//! position depth 8, Kiwipete depth 6), two threads against one (start position depth 8, with and
//! without the table), and with `long` the start position to depths 9 and 10 beside MPerft with
//! the same table and threads.

use crate::peers::{cpu_name, load, timed, Peer, Setting, Timed};
use shannon::movegen::Generator;
use shannon::perft::suite::parse_suite;
use shannon::perft::{divide, PerftOptions, KIWIPETE};
use shannon::stats::nearest_rank;
use shannon::{Position, STARTPOS_FEN};

/// What to run.
pub struct Race {
    pub rounds: u32,
    pub hash_mb: usize,
    /// The node budget of each suite position.
    pub budget: u64,
    /// Smaller depths, for a smoke run.
    pub quick: bool,
    /// The deepest start position count of the long run (0: none; 9 or 10).
    pub long: u32,
    /// Table size and threads of the long run.
    pub long_hash_mb: usize,
    pub long_threads: usize,
    /// Only the suites.
    pub suite_only: bool,
    /// How many of the positions where Shannon is slowest to list beside each peer.
    pub top: usize,
    /// Only the suite positions whose name or FEN contains this.
    pub only: Option<String>,
}

/// The start position's counts to depth 10.
const START: [u64; 11] = [
    1,
    20,
    400,
    8_902,
    197_281,
    4_865_609,
    119_060_324,
    3_195_901_860,
    84_998_978_956,
    2_439_530_234_167,
    69_352_859_712_417,
];
/// Kiwipete's to depth 6.
const KIWI: [u64; 7] = [1, 48, 2_039, 97_862, 4_085_603, 193_690_690, 8_031_647_685];

/// One count to compare: a name, a FEN, a depth and its known count.
#[derive(Clone)]
struct Case {
    name: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

impl Case {
    fn start(depth: u32) -> Case {
        Case::new("startpos", STARTPOS_FEN, depth, START[depth as usize])
    }
    fn kiwipete(depth: u32) -> Case {
        Case::new("kiwipete", KIWIPETE, depth, KIWI[depth as usize])
    }
    fn new(name: &str, fen: &str, depth: u32, nodes: u64) -> Case {
        Case {
            name: name.to_string(),
            fen: fen.to_string(),
            depth,
            nodes,
        }
    }
}

/// Shannon's count of `case` with a table of `hash_mb` MiB on `threads` threads, checked.
fn shannon(case: &Case, setting: Setting) -> Timed {
    let pos = Position::from_fen(&case.fen).expect("a bench FEN");
    let options = PerftOptions {
        threads: setting.threads,
        hash_mb: setting.hash_mb,
        ..PerftOptions::default()
    };
    let (counted, time) = timed(|| divide(&pos, case.depth, &options, None).unwrap().nodes);
    assert_eq!(
        counted, case.nodes,
        "{} depth {}: Shannon's count",
        case.name, case.depth
    );
    time
}

/// The peers that answer, each with its start-up CPU time per setting measured when first
/// needed.
struct Peers {
    present: Vec<Peer>,
    rounds: u32,
    start_ups: Vec<(Peer, usize, usize, f64)>,
}

impl Peers {
    fn find(rounds: u32) -> Peers {
        let mut present = Vec::new();
        for peer in [Peer::Mperft, Peer::Gigantua] {
            match peer.check() {
                Ok(()) => present.push(peer),
                Err(reason) => println!("{reason}"),
            }
        }
        Peers {
            present,
            rounds,
            start_ups: Vec::new(),
        }
    }

    /// The peers that count with `setting`.
    fn for_setting(&self, setting: Setting) -> Vec<Peer> {
        self.present
            .iter()
            .copied()
            .filter(|p| p.can(setting))
            .collect()
    }

    fn start_up(&mut self, peer: Peer, setting: Setting) -> f64 {
        let key = (peer, setting.hash_mb, setting.threads);
        if let Some(&(.., cpu)) = self.start_ups.iter().find(|s| (s.0, s.1, s.2) == key) {
            return cpu;
        }
        let cpu = peer.start_up(setting, self.rounds);
        self.start_ups
            .push((peer, setting.hash_mb, setting.threads, cpu));
        cpu
    }

    /// The peer's count of `case`, its start-up taken off its CPU time (never below zero), or
    /// why it failed (a wrong count included).
    fn count(&mut self, peer: Peer, case: &Case, setting: Setting) -> Result<Timed, String> {
        let start_up = self.start_up(peer, setting);
        peer.count(&case.fen, case.depth, case.nodes, setting)
            .map(|t| Timed {
                cpu: (t.cpu - start_up).max(0.0),
                wall: t.wall,
            })
            .map_err(|reason| {
                format!(
                    "{} on {} depth {} ({}): {reason}",
                    peer.name(),
                    case.name,
                    case.depth,
                    case.fen
                )
            })
    }
}

fn seconds(t: f64) -> String {
    if t.is_finite() {
        format!("{t:.3} s")
    } else {
        "-".to_string()
    }
}

fn ratio(theirs: f64, ours: f64) -> String {
    if theirs.is_finite() && ours > 0.0 {
        format!("{:.2}x", theirs / ours)
    } else {
        "-".to_string()
    }
}

/// Each case counted by Shannon and every peer that can, `rounds` times interleaved; prints
/// the best CPU times and Shannon's speed as a multiple of each peer's.
fn table(title: &str, cases: &[Case], setting: Setting, peers: &mut Peers, rounds: u32) {
    let them = peers.for_setting(setting);
    println!("\n{title}");
    let mut header = format!(
        "{:<10} {:>5} {:>18} {:>10}",
        "position", "depth", "nodes", "shannon"
    );
    for peer in &them {
        header += &format!(" {:>12} {:>8}", peer.program(), "ratio");
    }
    println!("{header}");
    let mut best = vec![vec![Timed::NONE; them.len() + 1]; cases.len()];
    for _ in 0..rounds {
        for (case, best) in cases.iter().zip(&mut best) {
            best[0] = best[0].best(shannon(case, setting));
            for (i, &peer) in them.iter().enumerate() {
                match peers.count(peer, case, setting) {
                    Ok(t) => best[i + 1] = best[i + 1].best(t),
                    Err(reason) => println!("  {reason}"),
                }
            }
        }
    }
    for (case, best) in cases.iter().zip(&best) {
        let mut line = format!(
            "{:<10} {:>5} {:>18} {:>10}",
            case.name,
            case.depth,
            case.nodes,
            seconds(best[0].cpu)
        );
        for t in &best[1..] {
            line += &format!(" {:>12} {:>8}", seconds(t.cpu), ratio(t.cpu, best[0].cpu));
        }
        println!("{line}");
    }
}

/// The deepest suite count: positions with one legal move a ply (tricky.perft's `prison`) would
/// otherwise go on for ever at one node.
const MAX_SUITE_DEPTH: u32 = 10;

/// The positions of the standard (not Chess960) suite files, each at the deepest depth whose
/// count is within `budget` nodes (counted once by Shannon to choose it, and checked against
/// the file's count where the file has one).
fn suite_cases(budget: u64, only: Option<&str>) -> Vec<Case> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/");
    let mut cases = Vec::new();
    for name in [
        "standard.epd",
        "cpw.epd",
        "tricky.perft",
        "en_passant.epd",
        "special_cases.epd",
    ] {
        let text = std::fs::read_to_string(format!("{dir}{name}")).expect("a suite file");
        for entry in parse_suite(&text).expect("the suite parses") {
            let pos = Position::from_fen(&entry.fen).expect("a suite FEN");
            if pos.needs_chess960() {
                continue;
            }
            let id = format!("{name}:{}", entry.id);
            if only.is_some_and(|text| !id.contains(text) && !entry.fen.contains(text)) {
                continue;
            }
            let count = |depth: u32| {
                let nodes = shannon::perft::perft(&pos, depth, Generator::Bitboard);
                if let Some(&(_, known)) = entry.counts.iter().find(|c| c.0 == depth) {
                    assert_eq!(nodes, known, "{name} {} depth {depth}", entry.fen);
                }
                nodes
            };
            let (mut depth, mut nodes, mut before) = (1, count(1), 1u64);
            if nodes > budget || nodes == 0 {
                continue;
            }
            // Deeper while the next count, growing as the last did, stays within the budget.
            while depth < MAX_SUITE_DEPTH && nodes.saturating_mul((nodes / before).max(1)) <= budget
            {
                let next = count(depth + 1);
                if next > budget || next == 0 {
                    break;
                }
                (depth, before, nodes) = (depth + 1, nodes, next);
            }
            if depth > 0 {
                cases.push(Case::new(&id, &pos.fen(), depth, nodes));
            }
        }
    }
    cases
}

/// The suite at a node budget: one line of totals, over the positions every peer counts right
/// (a peer's wrong count is printed once, and that position left out of every total).
fn suite(race: &Race, budget: u64, peers: &mut Peers) {
    let rounds = race.rounds;
    let cases = suite_cases(budget, race.only.as_deref());
    let setting = Setting {
        hash_mb: 0,
        threads: 1,
    };
    let them = peers.for_setting(setting);
    println!(
        "\nthe standard suites (standard.epd, cpw.epd, tricky.perft, en_passant.epd, \
         special_cases.epd; no Chess960 castling), each position at the deepest depth within \
         {budget} nodes: {} positions, {} nodes; no table, one thread",
        cases.len(),
        cases.iter().map(|c| c.nodes).sum::<u64>()
    );
    // Each case's best time per engine; `None` once a peer has counted it wrong.
    let mut best = vec![vec![Some(Timed::NONE); them.len() + 1]; cases.len()];
    for round in 0..rounds {
        for (case, best) in cases.iter().zip(&mut best) {
            best[0] = best[0].map(|b| b.best(shannon(case, setting)));
            for (i, &peer) in them.iter().enumerate() {
                if best[i + 1].is_none() {
                    continue;
                }
                match peers.count(peer, case, setting) {
                    Ok(t) => best[i + 1] = best[i + 1].map(|b| b.best(t)),
                    Err(reason) => {
                        println!("  {reason}{}", if round > 0 { " (this round)" } else { "" });
                        best[i + 1] = None;
                    }
                }
            }
        }
    }
    let agreed: Vec<&Vec<Option<Timed>>> = best
        .iter()
        .filter(|b| b.iter().all(Option::is_some))
        .collect();
    let total = |i: usize| {
        agreed
            .iter()
            .map(|b| b[i].map_or(0.0, |t| t.cpu))
            .sum::<f64>()
    };
    let nodes: u64 = cases
        .iter()
        .zip(&best)
        .filter(|(_, b)| b.iter().all(Option::is_some))
        .map(|(c, _)| c.nodes)
        .sum();
    let mut line = format!(
        "{} positions every engine counts right, {nodes} nodes: shannon {}",
        agreed.len(),
        seconds(total(0))
    );
    for (i, peer) in them.iter().enumerate() {
        line += &format!(
            ", {} {} ({})",
            peer.program(),
            seconds(total(i + 1)),
            ratio(total(i + 1), total(0))
        );
    }
    println!("{line}");
    for (i, peer) in them.iter().enumerate() {
        // Where Shannon loses the most time beside this peer (counts of a millisecond or more).
        let mut worst: Vec<(f64, &Case, f64, f64)> = cases
            .iter()
            .zip(&best)
            .filter_map(|(case, b)| Some((case, b[0]?, b[i + 1]?)))
            .filter(|(_, ours, theirs)| ours.cpu >= 0.001 && theirs.cpu >= 0.001)
            .map(|(case, ours, theirs)| (theirs.cpu / ours.cpu, case, ours.cpu, theirs.cpu))
            .collect();
        // Most time lost first: those decide the totals.
        worst.sort_by(|a, b| (b.2 - b.3).total_cmp(&(a.2 - a.3)));
        println!(
            "the {} positions where Shannon loses the most time beside {} (its time minus theirs):",
            race.top,
            peer.name()
        );
        for (r, case, ours, theirs) in worst.iter().take(race.top) {
            println!(
                "  {r:.2}x  {} depth {} ({} nodes): shannon {}, {} {}  {}",
                case.name,
                case.depth,
                case.nodes,
                seconds(*ours),
                peer.program(),
                seconds(*theirs),
                case.fen
            );
        }
        let wrong = best.iter().filter(|b| b[i + 1].is_none()).count();
        if wrong > 0 {
            println!(
                "{} counted {wrong} of the {} positions wrong (Shannon's counts agree with the \
                 suite files)",
                peer.name(),
                cases.len()
            );
        }
    }
}

/// One thread against two, without and with the table: wall-clock and CPU times, one thread
/// and two in turn each round; the speed-up is the median of the rounds' ratios (a single pair
/// of short counts on a shared machine spreads wide), their range beside it.
fn threads(case: &Case, hash_mb: usize, rounds: u32) {
    println!(
        "\ntwo threads against one, {} depth {} (wall-clock time: the speed-up, the median of {rounds} \
         pairs; CPU time: the work)",
        case.name, case.depth
    );
    for hash_mb in [0, hash_mb] {
        let (mut one, mut two) = (Timed::NONE, Timed::NONE);
        let mut ratios = Vec::new();
        for _ in 0..rounds {
            let setting = |threads| Setting { hash_mb, threads };
            let (a, b) = (shannon(case, setting(1)), shannon(case, setting(2)));
            ratios.push(a.wall / b.wall);
            one = one.best(a);
            two = two.best(b);
        }
        ratios.sort_by(f64::total_cmp);
        let median = nearest_rank(50.0, ratios.len() as u64, ratios.iter().map(|r| (*r, 1)));
        println!(
            "{:<14} 1 thread {:>10} wall {:>10} CPU; 2 threads {:>10} wall {:>10} CPU (best of each); \
             speed-up {} (pairs {:.2}x-{:.2}x)",
            if hash_mb == 0 {
                "no table".to_string()
            } else {
                format!("{hash_mb} MiB table")
            },
            seconds(one.wall),
            seconds(one.cpu),
            seconds(two.wall),
            seconds(two.cpu),
            median.map_or("-".to_string(), |m| format!("{m:.2}x")),
            ratios.first().copied().unwrap_or(f64::NAN),
            ratios.last().copied().unwrap_or(f64::NAN),
        );
    }
}

/// The long counts beside MPerft with the same table and threads: wall-clock times (the threads
/// work at once), one round.
fn long(race: &Race, peers: &mut Peers) {
    let setting = Setting {
        hash_mb: race.long_hash_mb,
        threads: race.long_threads,
    };
    println!(
        "\nlong counts, {} MiB table, {} thread(s) each, one round (wall-clock time; CPU time beside it)",
        setting.hash_mb, setting.threads
    );
    let mperft = peers.for_setting(setting).contains(&Peer::Mperft);
    for depth in 9..=race.long {
        let case = Case::start(depth);
        let ours = shannon(&case, setting);
        let theirs = if mperft {
            peers
                .count(Peer::Mperft, &case, setting)
                .map_err(|reason| println!("  {reason}"))
                .ok()
        } else {
            None
        };
        println!(
            "startpos {depth} {:>20}: shannon {} ({} CPU), mperft5 {} ({} CPU): {}",
            case.nodes,
            seconds(ours.wall),
            seconds(ours.cpu),
            theirs.map_or("-".to_string(), |t| seconds(t.wall)),
            theirs.map_or("-".to_string(), |t| seconds(t.cpu)),
            theirs.map_or("-".to_string(), |t| ratio(t.wall, ours.wall)),
        );
    }
}

/// Runs the comparison.
pub fn run(race: &Race) {
    println!("CPU: {}", cpu_name());
    println!(
        "Shannon counts with {}; load average {} at the start",
        shannon::perft::fast::instructions().name(),
        load()
    );
    println!(
        "Times: CPU seconds (user + system) of each count, best of {} rounds run interleaved \
         (Shannon, then each peer); a peer's start-up (the same command at depth 1: its tables \
         made, its hash table allocated and cleared) is taken off its time. Ratio: the peer's \
         time over Shannon's, Shannon's speed as a multiple of the peer's. MPerft runs with -n \
         (nullmove counting).",
        race.rounds
    );
    let mut peers = Peers::find(race.rounds);
    let (d7, d6, d8) = if race.quick { (5, 4, 6) } else { (7, 6, 8) };
    let one = Setting {
        hash_mb: 0,
        threads: 1,
    };
    if !race.suite_only {
        table(
            "no table, one thread",
            &[Case::start(d7), Case::kiwipete(d6)],
            one,
            &mut peers,
            race.rounds,
        );
    }
    suite(
        race,
        if race.quick {
            race.budget / 100
        } else {
            race.budget
        },
        &mut peers,
    );
    if race.suite_only {
        println!("\nload average {} at the end", load());
        return;
    }
    let hashed = Setting {
        hash_mb: race.hash_mb,
        threads: 1,
    };
    table(
        &format!("{} MiB table, one thread", race.hash_mb),
        &[Case::start(d8), Case::kiwipete(d6)],
        hashed,
        &mut peers,
        race.rounds,
    );
    threads(&Case::start(d8), race.hash_mb, race.rounds);
    if race.long >= 9 {
        long(race, &mut peers);
    }
    println!("\nload average {} at the end", load());
}
