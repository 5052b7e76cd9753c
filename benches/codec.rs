//! The `arith` game codec under each move model, encode and decode speed on one thread, in moves
//! per second, measured side by side in one run: the uniform model is the peer (absolute times on
//! a shared machine are noise; the ratio to the uniform coder in the same run means more).
//!
//! The rates are per second of the thread's CPU time (Linux: `/proc/thread-self/schedstat`), so
//! that time the thread spends waiting for a core on a loaded machine does not count; the
//! wall-clock medians are printed beside them. Where the CPU time cannot be read, both are wall
//! time.
//!
//! `cargo bench --bench codec` codes the held-back corpus games 2,501-5,000 (those
//! `shannon codec-report tests/data/pgn/lichess_2013-01_5000.pgn --skip 2500` measures), each
//! codec `rounds` times in turn, and prints the median, the fastest and the slowest round. Options
//! after `--`: `rounds=N` (default 7), `games=N` (the first N held-back games), `only=NAME` (one
//! codec, e.g. `only=arith-m2`, for a profiler), `encode-only`, and `net=FILE` (repeatable):
//! a network model file written by `shannon codec-fit --model m3 --lanes N --write DIR`, whose
//! distributions alone (every legal move's frequency at every position, no coder) are timed
//! beside the shipped m3's, for the table of model sizes in docs/codecs.md.

use shannon::codec::game::model::book::Book;
use shannon::codec::game::model::fit::move_bits;
use shannon::codec::game::model::net::file::{self, AnyNet};
use shannon::codec::game::model::net::Instructions;
use shannon::codec::game::model::Fitted;
use shannon::codec::game::model::MoveModel;
use shannon::codec::game::GameCodec;
use shannon::game::GameRecord;
use shannon::notation::pgn::read_games;
use std::time::Instant;

/// Wall-clock and CPU time of this thread, started together.
struct Clock {
    wall: Instant,
    cpu: Option<u64>,
}

/// Nanoseconds this thread has run on a CPU, if the system says.
fn cpu_nanos() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

impl Clock {
    fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: cpu_nanos(),
        }
    }

    /// (CPU seconds, wall seconds) since the start; CPU is wall when it cannot be read.
    fn stop(&self) -> Seconds {
        let wall = self.wall.elapsed().as_secs_f64();
        let cpu = self
            .cpu
            .zip(cpu_nanos())
            .map_or(wall, |(start, end)| end.saturating_sub(start) as f64 / 1e9);
        Seconds { cpu, wall }
    }
}

/// A round's time.
#[derive(Clone, Copy)]
struct Seconds {
    cpu: f64,
    wall: f64,
}

/// Moves per second of `games` moves in `seconds`.
fn rate(moves: usize, seconds: f64) -> f64 {
    moves as f64 / seconds.max(1e-9)
}

/// (median, fastest, slowest) of the rates.
fn spread(mut rates: Vec<f64>) -> (f64, f64, f64) {
    rates.sort_by(f64::total_cmp);
    (rates[rates.len() / 2], rates[rates.len() - 1], rates[0])
}

/// One round: every game encoded (returns the codes and the seconds). Not inlined, so a profiler
/// sees it apart from reading the corpus.
#[inline(never)]
fn encode_round(codec: GameCodec, games: &[GameRecord]) -> (Vec<Vec<u8>>, Seconds) {
    let clock = Clock::start();
    let codes: Vec<Vec<u8>> = games
        .iter()
        .map(|g| codec.encode(g).expect("a corpus game encodes"))
        .collect();
    (codes, clock.stop())
}

/// One round: every code decoded and checked against its game (the check is not timed).
#[inline(never)]
fn decode_round(codec: GameCodec, codes: &[Vec<u8>], games: &[GameRecord]) -> Seconds {
    let clock = Clock::start();
    let decoded: Vec<GameRecord> = codes
        .iter()
        .map(|c| codec.decode(c).expect("a code decodes"))
        .collect();
    let seconds = clock.stop();
    assert!(decoded == games, "{codec}: a game decoded differently");
    seconds
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let option = |name: &str| {
        args.iter()
            .find_map(|a| a.strip_prefix(name).and_then(|n| n.parse::<usize>().ok()))
    };
    let rounds = option("rounds=").unwrap_or(7).max(1);
    let only = args.iter().find_map(|a| a.strip_prefix("only="));
    let decode = !args.iter().any(|a| a == "encode-only");
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pgn/lichess_2013-01_5000.pgn"
    );
    let text = std::fs::read_to_string(path).expect("the corpus is in tests/data");
    let mut games: Vec<GameRecord> = read_games(&text)
        .into_iter()
        .skip(2500)
        .map(|g| g.expect("corpus games read").record)
        .collect();
    games.truncate(option("games=").unwrap_or(games.len()));
    let moves: usize = games.iter().map(|g| g.moves.len()).sum();
    let codecs: Vec<GameCodec> = [
        "arith", "arith-m1", "arith-m2", "arith-m3", "arith-m4", "arith-m5", "arith-m6",
    ]
    .iter()
    .map(|name| name.parse().expect("a codec name"))
    .filter(|codec: &GameCodec| only.is_none_or(|name| codec.name() == name))
    .collect();
    println!(
        "{} held-back games, {moves} moves, one thread, {rounds} rounds of each codec in turn \
         (M moves/s of thread CPU time: median [fastest, slowest], ratio to arith; wall: the \
         wall-clock median); the network models on {} instructions ({}=portable to compare)",
        games.len(),
        Instructions::chosen().name(),
        Instructions::VARIABLE
    );
    let mut encode_times = vec![Vec::new(); codecs.len()];
    let mut decode_times = vec![Vec::new(); codecs.len()];
    for _ in 0..rounds {
        for (index, &codec) in codecs.iter().enumerate() {
            let (codes, seconds) = encode_round(codec, &games);
            encode_times[index].push(seconds);
            if decode {
                decode_times[index].push(decode_round(codec, &codes, &games));
            }
        }
    }
    let rates = |times: &[Seconds], wall: bool| -> Vec<f64> {
        times
            .iter()
            .map(|t| rate(moves, if wall { t.wall } else { t.cpu }))
            .collect()
    };
    let uniform = |times: &[Vec<Seconds>]| {
        (codecs.first() == Some(&GameCodec::Arith(MoveModel::Uniform)) && !times[0].is_empty())
            .then(|| spread(rates(&times[0], false)).0)
    };
    let (uniform_encode, uniform_decode) = (uniform(&encode_times), uniform(&decode_times));
    println!(
        "{:<10} {:>40} {:>40}",
        "codec", "encode M moves/s", "decode M moves/s"
    );
    for (index, codec) in codecs.iter().enumerate() {
        let cell = |times: &[Seconds], peer: Option<f64>| {
            if times.is_empty() {
                return "-".to_string();
            }
            let (median, fast, slow) = spread(rates(times, false));
            let wall = spread(rates(times, true)).0;
            let ratio = peer.map_or(String::new(), |p| format!(" {:.2}x", median / p));
            format!(
                "{:.3} [{:.3}, {:.3}]{ratio} wall {:.3}",
                median / 1e6,
                fast / 1e6,
                slow / 1e6,
                wall / 1e6
            )
        };
        println!(
            "{:<10} {:>40} {:>40}",
            codec.name(),
            cell(&encode_times[index], uniform_encode),
            cell(&decode_times[index], uniform_decode)
        );
    }
    if uniform_encode.is_some() && codecs.len() > 1 {
        println!("(the ratio is to the uniform arith coder's CPU-time median in the same run)");
    }
    nets(&args, &games, moves, rounds);
}

/// `net=FILE`: the distributions of the shipped m3 and of each network file, timed alone.
fn nets(args: &[String], games: &[GameRecord], moves: usize, rounds: usize) {
    let files: Vec<&str> = args.iter().filter_map(|a| a.strip_prefix("net=")).collect();
    if files.is_empty() {
        return;
    }
    let book_path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/codec/game/model/m2_book.bin"
    );
    let book = Book::from_bytes(&std::fs::read(book_path).expect("m2's book"));
    let Some(Fitted::Net(shipped)) = MoveModel::M3.fitted() else {
        panic!("m3 is a network");
    };
    let mut models = vec![("m3 (shipped)".to_string(), shipped.clone())];
    for path in files {
        let bytes = std::fs::read(path).expect("a network file");
        let net = file::read(&bytes, book.clone()).expect("a network model");
        models.push((format!("{path} ({} bytes)", bytes.len()), net));
    }
    println!("network distributions alone (M moves/s of thread CPU time, median; bits/move of the moves)");
    let mut times = vec![Vec::new(); models.len()];
    let mut bits = vec![0.0; models.len()];
    for _ in 0..rounds {
        for (index, (_, net)) in models.iter().enumerate() {
            let clock = Clock::start();
            let (sum, _) = match net {
                AnyNet::W8(n) => move_bits(n, games),
                AnyNet::W16(n) => move_bits(n, games),
                AnyNet::W32(n) => move_bits(n, games),
            };
            times[index].push(rate(moves, clock.stop().cpu));
            bits[index] = sum / moves as f64;
        }
    }
    for ((name, _), (times, bits)) in models.iter().zip(times.into_iter().zip(bits)) {
        let (median, fast, slow) = spread(times);
        println!(
            "{name:<40} {:.3} [{:.3}, {:.3}]  {bits:.3} bits/move",
            median / 1e6,
            fast / 1e6,
            slow / 1e6
        );
    }
}
