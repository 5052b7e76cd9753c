//! A run: which games (seed, count, start, rules, shard), played on any number of threads, with
//! progress saved to a checkpoint file and resumed from it.
//!
//! Game `i` of an experiment is played from its own random stream, Xoshiro256++ seeded from
//! `(seed, i)` alone, so a game's moves do not depend on which thread, shard or restart plays it,
//! and the tally of a run is the same however it was split. Shard `I` of `N` plays the games `i`
//! with `i mod N = I`.

use super::checkpoint::{Checkpoint, CheckpointError};
use super::play::Player;
pub use super::spec::{describe, Experiment, Start, BLOCK};
use super::tally::Tally;
use crate::chess960::{scharnagl_back_rank, start_position};
use crate::jobs::run_lock::RunLock;
pub use crate::jobs::shard::Shard;
use crate::types::splitmix::below;
use crate::Position;
use rand::RngCore;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Why an experiment cannot run.
#[derive(Debug)]
pub enum ExperimentError {
    /// The start FEN is not a legal position.
    BadStart(String),
    /// Scharnagl numbers run from 0 to 959.
    BadChess960Number(u32),
    /// Shard index not below the shard count, or a count of 0.
    BadShard(Shard),
    /// No rule ends every game (no move rule, no repetition rule, no ply limit).
    Endless,
    /// The checkpoint cannot be read, written or used.
    Checkpoint(CheckpointError),
}

impl fmt::Display for ExperimentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExperimentError::BadStart(e) => write!(f, "start position: {e}"),
            ExperimentError::BadChess960Number(n) => {
                write!(f, "Chess960 start #{n}: numbers run from 0 to 959")
            }
            ExperimentError::BadShard(s) => write!(
                f,
                "shard {}/{}: the index must be below the count, which must be at least 1",
                s.index, s.count
            ),
            ExperimentError::Endless => f.write_str(
                "with no move rule, no repetition rule and no --max-plies a random game may never end",
            ),
            ExperimentError::Checkpoint(e) => write!(f, "checkpoint: {e}"),
        }
    }
}

impl std::error::Error for ExperimentError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExperimentError::Checkpoint(e) => Some(e),
            _ => None,
        }
    }
}

impl From<CheckpointError> for ExperimentError {
    fn from(e: CheckpointError) -> Self {
        ExperimentError::Checkpoint(e)
    }
}

impl Experiment {
    /// Check that the experiment can run.
    pub fn validate(&self) -> Result<(), ExperimentError> {
        if self.shard.count == 0 || self.shard.index >= self.shard.count {
            return Err(ExperimentError::BadShard(self.shard));
        }
        if !self.rules.always_ends() {
            return Err(ExperimentError::Endless);
        }
        match &self.start {
            Start::Fen(fen) => {
                Position::from_fen(fen).map_err(|e| ExperimentError::BadStart(e.to_string()))?;
            }
            Start::Chess960(n) if *n >= 960 => return Err(ExperimentError::BadChess960Number(*n)),
            _ => {}
        }
        Ok(())
    }

    /// The fixed start position, if games do not draw their own.
    fn fixed_start(&self) -> Option<Position> {
        match &self.start {
            Start::Standard => Some(Position::startpos()),
            Start::Fen(fen) => Position::from_fen(fen).ok(),
            Start::Chess960(n) => scharnagl_back_rank(*n).ok().map(|r| start_position(&r)),
            Start::Chess960Random => None,
        }
    }

    /// Play this shard's games `range` (shard-local numbers) into `tally`, from `fixed` (the
    /// experiment's [`Experiment::fixed_start`], made once per run) or a start each game draws.
    fn play_block(
        &self,
        range: std::ops::Range<u64>,
        fixed: Option<&Position>,
        player: &mut Player,
        tally: &mut Tally,
    ) {
        for k in range {
            let mut rng = self.stream(self.game_number(k));
            let game = match fixed {
                Some(start) => player.play(start, &self.rules, &mut rng),
                None => {
                    let number = below(960, || rng.next_u64()) as u32;
                    let start = start_position(&scharnagl_back_rank(number).expect("below 960"));
                    player.play(&start, &self.rules, &mut rng)
                }
            };
            tally.add(game);
        }
    }
}

/// How to run.
pub struct RunOptions<'a> {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Save progress here, and resume from it if it holds this experiment.
    pub checkpoint: Option<&'a Path>,
    /// How often to save.
    pub checkpoint_every: Duration,
    /// Called now and then with (games done, games in the shard).
    pub progress: &'a (dyn Fn(u64, u64) + Sync),
    /// Raised to stop early (the checkpoint is saved first).
    pub stop: &'a AtomicBool,
}

/// What a run produced.
#[derive(Debug, Clone)]
pub struct RunResult {
    /// The tally of the games played (all of the shard's unless stopped early).
    pub tally: Tally,
    /// Shard-local games done.
    pub done: u64,
    /// Seconds of play, including earlier runs resumed from the checkpoint.
    pub seconds: f64,
    /// Games that were already done in the checkpoint this run resumed from.
    pub resumed: u64,
}

/// Play the experiment's shard.
pub fn run(experiment: &Experiment, options: &RunOptions) -> Result<RunResult, ExperimentError> {
    experiment.validate()?;
    let total = experiment.shard_games();
    // Held until the run ends: a second runner on this checkpoint is refused before it plays.
    let _lock = options.checkpoint.map(lock).transpose()?;
    let saved = match options.checkpoint {
        Some(path) => Checkpoint::load_for(path, experiment)?,
        None => None,
    };
    let (mut tally, mut done, earlier_seconds) = match saved {
        Some(saved) => (Tally::from_rows(&saved.lengths), saved.done, saved.seconds),
        None => (Tally::new(), 0, 0.0),
    };
    let resumed = done;
    let started = Instant::now();
    let first_block = done.div_ceil(BLOCK);
    let next_block = AtomicU64::new(first_block);
    let fixed = experiment.fixed_start();
    let blocks = total.div_ceil(BLOCK);
    let (sender, receiver) = mpsc::channel::<(u64, Tally)>();
    let mut last_save = Instant::now();
    let mut outcome = Ok(());
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1) {
            let sender = sender.clone();
            let (next_block, fixed) = (&next_block, fixed.as_ref());
            scope.spawn(move || {
                let mut player = Player::new();
                while !options.stop.load(Ordering::Relaxed) {
                    let block = next_block.fetch_add(1, Ordering::Relaxed);
                    if block >= blocks {
                        return;
                    }
                    let range = block * BLOCK..((block + 1) * BLOCK).min(total);
                    let mut tally = Tally::new();
                    experiment.play_block(range, fixed, &mut player, &mut tally);
                    if sender.send((block, tally)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        // Blocks finish out of order; the checkpoint keeps the finished prefix only.
        let mut waiting: BTreeMap<u64, Tally> = BTreeMap::new();
        let mut next_in_order = first_block;
        for (block, block_tally) in receiver {
            waiting.insert(block, block_tally);
            while let Some(block_tally) = waiting.remove(&next_in_order) {
                tally.merge(&block_tally);
                next_in_order += 1;
                done = (next_in_order * BLOCK).min(total);
            }
            (options.progress)(done, total);
            if let Some(path) = options.checkpoint {
                if last_save.elapsed() >= options.checkpoint_every && outcome.is_ok() {
                    let seconds = earlier_seconds + started.elapsed().as_secs_f64();
                    outcome = save(path, experiment, done, seconds, &tally);
                    last_save = Instant::now();
                }
            }
        }
    });
    outcome?;
    let seconds = earlier_seconds + started.elapsed().as_secs_f64();
    if let Some(path) = options.checkpoint {
        save(path, experiment, done, seconds, &tally)?;
    }
    Ok(RunResult {
        tally,
        done,
        seconds,
        resumed,
    })
}

/// The checkpoint's run lock (a takeover of another host's lock file is logged).
fn lock(checkpoint: &Path) -> Result<RunLock, ExperimentError> {
    let lock = RunLock::acquire(checkpoint).map_err(CheckpointError::Locked)?;
    if let Some(warning) = lock.takeover_warning() {
        log::warn!("{warning}");
    }
    Ok(lock)
}

fn save(
    path: &Path,
    experiment: &Experiment,
    done: u64,
    seconds: f64,
    tally: &Tally,
) -> Result<(), ExperimentError> {
    Ok(Checkpoint::new(experiment, done, seconds, tally).save(path)?)
}

#[cfg(test)]
mod tests {
    use super::super::rules::RuleSet;
    use super::*;

    fn experiment(games: u64, shard: Shard) -> Experiment {
        Experiment {
            seed: 42,
            games,
            start: Start::Standard,
            rules: RuleSet::CLAIMS,
            shard,
        }
    }

    fn quiet() -> RunOptions<'static> {
        static STOP: AtomicBool = AtomicBool::new(false);
        RunOptions {
            threads: 2,
            checkpoint: None,
            checkpoint_every: Duration::from_secs(3600),
            progress: &|_, _| {},
            stop: &STOP,
        }
    }

    #[test]
    fn shards_partition_the_games_and_sum_to_the_whole() {
        let whole = run(&experiment(5000, Shard::WHOLE), &quiet())
            .unwrap()
            .tally;
        assert_eq!(whole.games(), 5000);
        let mut sum = Tally::new();
        for index in 0..3 {
            let part = experiment(5000, Shard { index, count: 3 });
            assert_eq!(part.shard_games(), [1667, 1667, 1666][index as usize]);
            sum.merge(&run(&part, &quiet()).unwrap().tally);
        }
        assert_eq!(sum, whole);
    }

    #[test]
    fn threads_do_not_change_the_result() {
        let one = RunOptions {
            threads: 1,
            ..quiet()
        };
        let e = experiment(3000, Shard::WHOLE);
        assert_eq!(
            run(&e, &one).unwrap().tally,
            run(&e, &quiet()).unwrap().tally
        );
    }

    #[test]
    fn bad_experiments_are_refused() {
        let bad_shard = experiment(10, Shard { index: 3, count: 3 });
        assert!(matches!(
            run(&bad_shard, &quiet()),
            Err(ExperimentError::BadShard(_))
        ));
        let mut endless = experiment(10, Shard::WHOLE);
        endless.rules.move_rule = super::super::rules::MoveRule::Off;
        endless.rules.repetition = super::super::rules::Repetition::Off;
        assert!(matches!(
            run(&endless, &quiet()),
            Err(ExperimentError::Endless)
        ));
    }
}
