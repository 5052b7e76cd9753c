//! `shannon random-games`: Shannon's experiment at scale (the work is [`shannon::experiment`]),
//! and the merge of its shards' reports (for `shannon merge`).

use super::prelude::{CliError, Overwrite};
use indicatif::{ProgressBar, ProgressStyle};
use shannon::experiment::{
    run, Experiment, Insufficient, MoveRule, Repetition, Report, RuleSet, RunOptions, Shard, Start,
    Switch,
};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The rule presets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    /// Checkmate, stalemate, insufficient material (FIDE), the 50-move rule (halfmove clock
    /// 100) and threefold repetition, each taken the moment it applies (what match runners do).
    Claims,
    /// FIDE's rules with nobody claiming: checkmate, stalemate, insufficient material (FIDE),
    /// the 75-move rule (halfmove clock 150) and fivefold repetition.
    Automatic,
}

/// `shannon random-games`'s arguments.
#[derive(clap::Args)]
#[command(after_long_help = RULES_HELP)]
pub struct Args {
    /// How many games (the whole experiment, all shards): 1000000, 1e9, 2.5e6.
    #[arg(long, default_value = "10000", value_parser = parse_count)]
    games: u64,
    /// The seed every game's random stream is derived from (drawn and printed when missing;
    /// required with shards).
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (default: all cores). The result does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Start every game from this position instead of the standard start.
    #[arg(long, conflicts_with = "chess960")]
    fen: Option<String>,
    /// Chess960: each game from a start drawn uniformly from the 960, or, with a number, always
    /// from that start (Scharnagl numbering, 0-959; 518 is the standard position).
    #[arg(long, num_args = 0..=1, default_missing_value = "random", value_name = "N")]
    chess960: Option<String>,
    /// The rule set to start from (the switches below change single rules).
    #[arg(long, value_enum, default_value = "claims")]
    rules: Preset,
    /// Repetition rule: 3 (threefold, taken at once), 5 (fivefold), off.
    #[arg(long)]
    repetition: Option<Repetition>,
    /// Move rule: 50 (halfmove clock 100, taken at once), 75 (clock 150), off.
    #[arg(long)]
    move_rule: Option<MoveRule>,
    /// Dead positions by material: fide (K v K, K+minor v K, bishops all on one colour),
    /// kings-and-one-minor (K v K, K+N v K, K+B v K), off.
    #[arg(long)]
    insufficient: Option<Insufficient>,
    /// End a game after this many plies (counted as "ply limit").
    #[arg(long)]
    max_plies: Option<u32>,
    /// Play only the games i with i mod N = I (`--shard I/N`). Without it, a Slurm array task
    /// takes SLURM_ARRAY_TASK_ID (minus SLURM_ARRAY_TASK_MIN) of SLURM_ARRAY_TASK_COUNT, and a
    /// Kubernetes Indexed Job JOB_COMPLETION_INDEX of `--shards N`.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// The number of shards, for JOB_COMPLETION_INDEX (or to override SLURM_ARRAY_TASK_COUNT).
    #[arg(long, value_name = "N")]
    shards: Option<u64>,
    /// Write the full result as JSON (what `shannon merge` reads).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw the histogram of game lengths, stacked by ending, as SVG.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Save progress to FILE every few seconds, and resume from it when it exists (rerun the
    /// same command after an interruption; the result equals an uninterrupted run's).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Seconds between two saves of the checkpoint (a kill loses at most this much play).
    #[arg(long, value_name = "SECONDS", default_value_t = 3.0, requires = "checkpoint",
          value_parser = positive_seconds)]
    checkpoint_every: f64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Print a Slurm batch script that runs this experiment as a job array of `--shards N`
    /// tasks, and the merge step, instead of running it.
    #[arg(long)]
    print_sbatch: bool,
    #[command(flatten)]
    overwrite: Overwrite,
}

const RULES_HELP: &str = "\
Rules, in the order they are checked after every move (the first that applies ends the game):
  checkmate or stalemate; insufficient material; the 75-move rule; fivefold repetition;
  threefold repetition; the 50-move rule; the ply limit.
  claims (default):  checkmate, stalemate, insufficient material (fide), 50-move rule, threefold
                     repetition, each taken the moment it applies.
  automatic:         checkmate, stalemate, insufficient material (fide), 75-move rule, fivefold
                     repetition (FIDE 9.6: no claims).
  A repetition is FIDE's: same placement, side to move, castling rights and en passant
  possibility; only positions since the last capture or pawn move can repeat.
Each game i is played from its own stream (Xoshiro256++ seeded from seed and i), so the result
depends only on seed, games, start and rules: not on threads, shards or interruptions.";

/// `1000`, `1e9`, `2.5e6`: a whole number of games, at least 1.
fn parse_count(text: &str) -> Result<u64, String> {
    if let Ok(n) = text.parse::<u64>() {
        return if n == 0 {
            Err("an experiment needs at least 1 game".into())
        } else {
            Ok(n)
        };
    }
    let value: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of games"))?;
    if value >= 1.0 && value.fract() == 0.0 && value <= 1e18 {
        Ok(value as u64)
    } else {
        Err(format!("'{text}' is not a whole number of games"))
    }
}

/// The shard from the flags, else from a Slurm array task or a Kubernetes Indexed Job.
fn resolve_shard(args: &Args, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard, CliError> {
    super::shard::resolve_shard(args.shard, args.shards, args.print_sbatch, env)
}

/// The rules the flags ask for.
fn rules_of(args: &Args) -> RuleSet {
    let preset = match args.rules {
        Preset::Claims => RuleSet::CLAIMS,
        Preset::Automatic => RuleSet::AUTOMATIC,
    };
    RuleSet {
        repetition: args.repetition.unwrap_or(preset.repetition),
        move_rule: args.move_rule.unwrap_or(preset.move_rule),
        insufficient: args.insufficient.unwrap_or(preset.insufficient),
        max_plies: args.max_plies.or(preset.max_plies),
    }
}

fn start_of(args: &Args) -> Result<Start, CliError> {
    Ok(match (&args.fen, args.chess960.as_deref()) {
        (Some(fen), _) => Start::Fen(fen.clone()),
        (None, Some("random")) => Start::Chess960Random,
        (None, Some(n)) => Start::Chess960(
            n.parse()
                .map_err(|_| CliError::new(format!("--chess960 {n}: expected 0-959")))?,
        ),
        (None, None) => Start::Standard,
    })
}

/// The command line that plays `experiment` again (threads and files left out: they change
/// nothing in the result).
pub fn command_of(experiment: &Experiment) -> String {
    let mut words = vec![
        "shannon random-games".to_string(),
        format!("--games {}", experiment.games),
        format!("--seed {}", experiment.seed),
    ];
    match &experiment.start {
        Start::Standard => {}
        Start::Fen(fen) => words.push(format!("--fen '{fen}'")),
        Start::Chess960Random => words.push("--chess960".into()),
        Start::Chess960(n) => words.push(format!("--chess960 {n}")),
    }
    let rules = &experiment.rules;
    let base =
        if rules.move_rule == MoveRule::SeventyFive && rules.repetition == Repetition::Fivefold {
            words.push("--rules automatic".into());
            RuleSet::AUTOMATIC
        } else {
            words.push("--rules claims".into());
            RuleSet::CLAIMS
        };
    if rules.repetition != base.repetition {
        words.push(format!("--repetition {}", rules.repetition.text()));
    }
    if rules.move_rule != base.move_rule {
        words.push(format!("--move-rule {}", rules.move_rule.text()));
    }
    if rules.insufficient != base.insufficient {
        words.push(format!("--insufficient {}", rules.insufficient.text()));
    }
    if let Some(n) = rules.max_plies {
        words.push(format!("--max-plies {n}"));
    }
    if experiment.shard.count > 1 {
        words.push(format!(
            "--shard {}/{}",
            experiment.shard.index, experiment.shard.count
        ));
    }
    words.join(" ")
}

/// Run `shannon random-games`.
pub fn run_command(args: Args, out: &mut impl Write) -> Result<bool, CliError> {
    let shard = resolve_shard(&args, &|name| std::env::var(name).ok())?;
    if args.seed.is_none() && (shard.count > 1 || args.print_sbatch) {
        return Err(CliError::new(
            "shards of one experiment must share its seed: give --seed S",
        ));
    }
    let seed = args.seed.unwrap_or_else(rand::random);
    let experiment = Experiment {
        seed,
        games: args.games,
        start: start_of(&args)?,
        rules: rules_of(&args),
        shard,
    };
    experiment.validate().map_err(CliError::new)?;
    if args.print_sbatch {
        let shards = args.shards.unwrap_or(4);
        write!(out, "{}", sbatch_script(&experiment, shards)).map_err(CliError::new)?;
        return Ok(true);
    }
    // A run that resumes its checkpoint (the same command again, after a kill or after the
    // end) writes the same experiment's report: its files are its own to replace, as a resumed
    // match's are. A checkpoint of another experiment is refused when the run reads it.
    let resumes = match args.checkpoint.as_deref() {
        Some(path) => shannon::experiment::Checkpoint::load_for(path, &experiment)
            .is_ok_and(|saved| saved.is_some()),
        None => false,
    };
    let overwrite = Overwrite {
        overwrite: args.overwrite.overwrite || resumes,
    };
    overwrite.check([
        ("the JSON file", args.json.as_deref()),
        ("the plot", args.plot.as_deref()),
    ])?;
    if args.seed.is_none() {
        writeln!(
            out,
            "seed {seed} (drawn; pass --seed {seed} to play the same games again)"
        )
        .map_err(CliError::new)?;
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let stop = super::signals::interrupt_flag(
        "finishing the games in hand (interrupt again to exit now)",
    )?;
    let bar = progress_bar(args.quiet, experiment.shard_games());
    let progress = |done: u64, _total: u64| bar.set_position(done);
    let options = RunOptions {
        threads,
        checkpoint: args.checkpoint.as_deref(),
        checkpoint_every: Duration::from_secs_f64(args.checkpoint_every),
        progress: &progress,
        stop: &stop,
    };
    let result = run(&experiment, &options).map_err(CliError::new)?;
    bar.finish_and_clear();
    if result.done < experiment.shard_games() {
        writeln!(
            out,
            "interrupted after {} of {} games{}",
            result.done,
            experiment.shard_games(),
            match &args.checkpoint {
                Some(path) => format!("; rerun the same command to resume from {}", path.display()),
                None => String::new(),
            }
        )
        .map_err(CliError::new)?;
        return Ok(false);
    }
    if result.resumed > 0 {
        writeln!(
            out,
            "resumed after {} games from the checkpoint",
            result.resumed
        )
        .map_err(CliError::new)?;
    }
    let report = Report::new(
        &experiment,
        &result.tally,
        command_of(&experiment),
        result.seconds,
        threads,
    );
    finish(&report, args.json.as_deref(), args.plot.as_deref(), out)
}

/// A number of seconds above 0 and at most a day.
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err("expected seconds above 0 (at most 86400), such as 3 or 0.5".into()),
    }
}

/// The games bar (hidden with `--quiet`).
fn progress_bar(quiet: bool, games: u64) -> ProgressBar {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(games)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {human_pos}/{human_len} games {per_sec} eta {eta} [{elapsed}]",
        )
        .expect("a valid template"),
    );
    bar
}

/// Print the table and write the JSON and the plot, when asked.
fn finish(
    report: &Report,
    json: Option<&Path>,
    plot: Option<&Path>,
    out: &mut impl Write,
) -> Result<bool, CliError> {
    report.write_text(out).map_err(CliError::new)?;
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(report).expect("a report serialises");
        std::fs::write(path, text + "\n")
            .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))?;
    }
    if let Some(path) = plot {
        super::random_games_plot::write_length_histogram(path, report).map_err(CliError::new)?;
    }
    Ok(true)
}

/// A Slurm batch script: a job array of `shards` tasks, each playing its shard into
/// `shard-<task>.json`, and the merge to run when they are done.
pub fn sbatch_script(experiment: &Experiment, shards: u64) -> String {
    let whole = Experiment {
        shard: Shard::WHOLE,
        ..experiment.clone()
    };
    let command = command_of(&whole);
    format!(
        "#!/bin/bash\n\
         # Shannon's experiment as a Slurm job array of {shards} tasks: {command}\n\
         # Submit: sbatch --wait random-games.sbatch && shannon merge shard-*.json --json all.json\n\
         #SBATCH --job-name=random-games\n\
         #SBATCH --array=0-{last}\n\
         #SBATCH --cpus-per-task=2\n\
         #SBATCH --output=random-games-%A_%a.out\n\
         # Each task plays the games i with i mod {shards} = its task id, on all the cores it was\n\
         # given, resuming from its checkpoint if the task is requeued.\n\
         {command} --shards {shards} --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" --quiet \\\n    \
         --checkpoint \"shard-${{SLURM_ARRAY_TASK_ID}}.checkpoint\" --json \"shard-${{SLURM_ARRAY_TASK_ID}}.json\"\n",
        last = shards - 1,
    )
}

/// `shannon merge` of random-games reports: the whole experiment's report from its shards'.
pub fn merge_reports(
    files: &[PathBuf],
    json: Option<&Path>,
    plot: Option<&Path>,
    out: &mut impl Write,
) -> Result<bool, CliError> {
    let mut reports = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::new(format!("cannot read {}: {e}", path.display())))?;
        let report: Report = serde_json::from_str(&text).map_err(|e| {
            CliError::new(format!(
                "{} is not a random-games report: {e}",
                path.display()
            ))
        })?;
        reports.push(report);
    }
    let merged = Report::merge(&reports, command_of).map_err(CliError::new)?;
    finish(&merged, json, plot, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn args(line: &[&str]) -> Args {
        Cli::parse_from(std::iter::once("x").chain(line.iter().copied())).args
    }

    #[test]
    fn counts_accept_exponents() {
        assert_eq!(parse_count("1e9"), Ok(1_000_000_000));
        assert_eq!(parse_count("2.5e6"), Ok(2_500_000));
        assert!(parse_count("1.5").is_err());
        assert!(parse_count("-3").is_err());
    }

    #[test]
    fn shards_come_from_flags_slurm_or_kubernetes() {
        let none = |_: &str| None;
        assert_eq!(resolve_shard(&args(&[]), &none).unwrap(), Shard::WHOLE);
        let flag = args(&["--shard", "2/5"]);
        assert_eq!(
            resolve_shard(&flag, &none).unwrap(),
            Shard { index: 2, count: 5 }
        );
        let slurm = |name: &str| match name {
            "SLURM_ARRAY_TASK_ID" => Some("4".to_string()),
            "SLURM_ARRAY_TASK_MIN" => Some("1".to_string()),
            "SLURM_ARRAY_TASK_COUNT" => Some("4".to_string()),
            _ => None,
        };
        assert_eq!(
            resolve_shard(&args(&[]), &slurm).unwrap(),
            Shard { index: 3, count: 4 }
        );
        let job = |name: &str| (name == "JOB_COMPLETION_INDEX").then(|| "1".to_string());
        assert!(resolve_shard(&args(&[]), &job).is_err());
        assert_eq!(
            resolve_shard(&args(&["--shards", "3"]), &job).unwrap(),
            Shard { index: 1, count: 3 }
        );
    }

    #[test]
    fn the_printed_command_gives_back_the_experiment() {
        let line = [
            "--games",
            "1e5",
            "--seed",
            "9",
            "--chess960",
            "--rules",
            "automatic",
            "--insufficient",
            "kings-and-one-minor",
            "--max-plies",
            "400",
        ];
        let a = args(&line);
        let experiment = Experiment {
            seed: 9,
            games: a.games,
            start: start_of(&a).unwrap(),
            rules: rules_of(&a),
            shard: Shard::WHOLE,
        };
        let command = command_of(&experiment);
        let words: Vec<&str> = command.split_whitespace().skip(2).collect();
        let again = args(&words);
        assert_eq!(rules_of(&again), experiment.rules);
        assert_eq!(start_of(&again).unwrap(), experiment.start);
        assert_eq!(again.games, 100_000);
    }
}
