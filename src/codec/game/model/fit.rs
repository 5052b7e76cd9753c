//! Fitting a move model: the weights that minimise the bits of the games' moves (softmax
//! regression, full-batch Adam, deterministic), and measuring a model on other games.
//!
//! `shannon codec-fit` runs it; the fitted weights are then pasted into the source as a new
//! model version (the program writes that source).

use super::book::{self, Book};
use super::coder::{end_bucket, result_context, scaled, END_BUCKETS};
use super::features::{Group, FEATURES};
use super::{Distribution, History, Model, MovePredictor, SCALE};
use crate::codec::game::canonical_moves;
use crate::game::GameRecord;
use crate::game::Outcome;
use std::fmt::Write;

/// Every position of some games, with each legal move's features and the move played.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    /// Per position: the index of its first move in `move_starts` (one more entry at the end).
    position_starts: Vec<u32>,
    /// Per position: the index (among its moves) of the move played.
    played: Vec<u16>,
    /// Per move: the index of its first feature in `features` (one more entry at the end).
    move_starts: Vec<u32>,
    /// The active features of every move.
    features: Vec<u16>,
}

impl Samples {
    /// The samples of `games` under `groups`; with `book`, each game sees the book without its
    /// own moves (as a game that was not in the fitting set would).
    pub fn new(games: &[GameRecord], groups: u16, book: Option<&Book>) -> Samples {
        let mut samples = Samples::default();
        for game in games {
            samples.add_game(game, groups, book);
        }
        samples
            .position_starts
            .push(samples.move_starts.len() as u32);
        samples.move_starts.push(samples.features.len() as u32);
        samples
    }

    fn add_game(&mut self, game: &GameRecord, groups: u16, book: Option<&Book>) {
        let mut pos = game.start.clone();
        let mut history = History::new(&pos);
        for &played in &game.moves {
            let legal = canonical_moves(&pos);
            let context = history.context(&pos);
            let hash = history.book_hash();
            // Leave this game out: its own visit and move are taken off the counts.
            let total = book
                .zip(hash)
                .map_or(0, |(book, hash)| book.count(hash).saturating_sub(1));
            self.position_starts.push(self.move_starts.len() as u32);
            let index = legal.iter().position(|&m| m == played).unwrap_or(0);
            self.played.push(index as u16);
            for &mv in &legal {
                self.move_starts.push(self.features.len() as u32);
                let bucket = book.zip(hash).filter(|_| total > 0).map(|(book, hash)| {
                    let count = book.count(book::extend(hash, mv));
                    let own = u32::from(mv == played && count > 0);
                    book::bucket(total, count - own)
                });
                context.features(mv, groups, bucket, |f| self.features.push(f as u16));
            }
            history = history.after(played);
            let _ = pos.make(played);
        }
    }

    /// The number of positions.
    pub fn positions(&self) -> usize {
        self.played.len()
    }

    /// The mean bits of the played moves under `weights` (in bits), and the gradient of the
    /// mean (in bits per unit weight) added into `gradient`.
    fn cost(&self, weights: &[f64], gradient: &mut [f64]) -> f64 {
        let ln2 = std::f64::consts::LN_2;
        let mut bits = 0.0;
        let mut scores = Vec::new();
        for p in 0..self.positions() {
            let moves = self.position_starts[p] as usize..self.position_starts[p + 1] as usize;
            scores.clear();
            for m in moves.clone() {
                let features =
                    &self.features[self.move_starts[m] as usize..self.move_starts[m + 1] as usize];
                scores.push(features.iter().map(|&f| weights[f as usize]).sum::<f64>() * ln2);
            }
            let max = scores.iter().copied().fold(f64::MIN, f64::max);
            let sum: f64 = scores.iter().map(|s| (s - max).exp()).sum();
            let played = self.played[p] as usize;
            bits += (sum.ln() - (scores[played] - max)) / ln2;
            for (i, m) in moves.enumerate() {
                let share = (scores[i] - max).exp() / sum - f64::from(u8::from(i == played));
                let features =
                    &self.features[self.move_starts[m] as usize..self.move_starts[m + 1] as usize];
                for &f in features {
                    gradient[f as usize] += share;
                }
            }
        }
        let n = self.positions().max(1) as f64;
        gradient.iter_mut().for_each(|g| *g /= n);
        bits / n
    }
}

/// How a fit runs.
#[derive(Debug, Clone, Copy)]
pub struct FitOptions {
    /// Full passes over the samples.
    pub iterations: usize,
    /// Adam's step size, in bits of weight.
    pub step: f64,
    /// The L2 penalty on the weights (per position).
    pub l2: f64,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            iterations: 200,
            step: 0.1,
            l2: 1e-5,
        }
    }
}

/// Fits the weights (in bits) of the samples' features; `progress` hears each pass's mean
/// bits per move. Deterministic: the same samples give the same weights.
pub fn fit(
    samples: &Samples,
    options: FitOptions,
    mut progress: impl FnMut(usize, f64),
) -> Vec<f64> {
    let mut weights = vec![0.0; FEATURES];
    let (mut m, mut v) = (vec![0.0; FEATURES], vec![0.0; FEATURES]);
    let (beta1, beta2) = (0.9f64, 0.999f64);
    for t in 1..=options.iterations {
        let mut gradient = vec![0.0; FEATURES];
        let bits = samples.cost(&weights, &mut gradient);
        progress(t, bits);
        for f in 0..FEATURES {
            let g = gradient[f] + options.l2 * weights[f];
            m[f] = beta1 * m[f] + (1.0 - beta1) * g;
            v[f] = beta2 * v[f] + (1.0 - beta2) * g * g;
            let m_hat = m[f] / (1.0 - beta1.powi(t as i32));
            let v_hat = v[f] / (1.0 - beta2.powi(t as i32));
            weights[f] -= options.step * m_hat / (v_hat.sqrt() + 1e-8);
        }
    }
    weights
}

/// Weights in bits to the model's integer units (1/[`SCALE`] bit).
pub fn quantise(weights: &[f64]) -> Vec<i16> {
    weights
        .iter()
        .map(|w| (w * f64::from(SCALE)).round().clamp(-30000.0, 30000.0) as i16)
        .collect()
}

/// The exact bits the model's coder spends on the moves of `games` (sum of -log2 f / total),
/// and the number of moves.
pub fn move_bits<P: MovePredictor>(model: &P, games: &[GameRecord]) -> (f64, usize) {
    let mut dist = Distribution::default();
    let (mut bits, mut moves) = (0.0, 0);
    for game in games {
        let mut pos = game.start.clone();
        let mut history = model.history(&pos);
        for &mv in &game.moves {
            model.distribution(&pos, &history, &mut dist);
            let index = dist.moves.iter().position(|&m| m == mv).unwrap_or(0);
            bits += (f64::from(dist.total) / f64::from(dist.freqs[index])).log2();
            moves += 1;
            history = model.after(&history, &pos, mv);
            let _ = pos.make(mv);
        }
    }
    (bits, moves)
}

/// The odds of a game's end by ply bucket and of its result by how it stands, counted on
/// `games` (each count plus one, scaled to fit the coder).
pub fn end_and_result_odds(games: &[GameRecord]) -> ([[u32; 2]; END_BUCKETS], [[u32; 4]; 4]) {
    let mut end = [[1u64; 2]; END_BUCKETS];
    let mut result = [[1u64; 4]; 4];
    for game in games {
        let plies = game.moves.len();
        for ply in 0..plies {
            end[end_bucket(ply)][0] += 1;
        }
        let mut pos = game.start.clone();
        game.moves.iter().for_each(|&mv| {
            let _ = pos.make(mv);
        });
        let has_moves = !pos.legal_moves().is_empty();
        if has_moves {
            end[end_bucket(plies)][1] += 1;
        }
        let outcome = Outcome::ALL
            .iter()
            .position(|&o| o == game.outcome)
            .unwrap_or(3);
        result[result_context(&pos, has_moves)][outcome] += 1;
    }
    (end.map(scaled), result.map(scaled))
}

/// The names of the groups in `groups`.
pub fn group_names(groups: u16) -> String {
    let names: Vec<&str> = Group::ALL
        .iter()
        .filter(|g| groups & g.bit() != 0)
        .map(|g| g.name())
        .collect();
    names.join("+")
}

/// The Rust source of a model version: its groups, its weights, its end and result odds and,
/// when it has a book, the name of the book's file beside it.
pub fn model_source(doc: &str, model: &Model, book_file: Option<&str>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "//! {doc}\n//!\n//! Written by `shannon codec-fit`; never edited by hand (a new fit is a new model version).\n");
    let _ = writeln!(
        out,
        "use super::coder::END_BUCKETS;\nuse super::features::FEATURES;\n"
    );
    let _ = writeln!(
        out,
        "/// The feature groups: {}.",
        group_names(model.groups)
    );
    let _ = writeln!(
        out,
        "pub(super) const GROUPS: u16 = {:#06x};\n",
        model.groups
    );
    let _ = writeln!(out, "/// One weight per feature, in 1/32 bit.");
    let _ = writeln!(
        out,
        "#[rustfmt::skip]\npub(super) static WEIGHTS: [i16; FEATURES] = ["
    );
    for line in model.weights.chunks(20) {
        let numbers: Vec<String> = line.iter().map(|w| w.to_string()).collect();
        let _ = writeln!(out, "    {},", numbers.join(", "));
    }
    let _ = writeln!(out, "];\n");
    let _ = writeln!(out, "/// The odds of going on and ending, by ply bucket.");
    let _ = writeln!(
        out,
        "#[rustfmt::skip]\npub(super) static END: [[u32; 2]; END_BUCKETS] = {:?};\n",
        model.end
    );
    let _ = writeln!(
        out,
        "/// The odds of each result by how the game stands at its end."
    );
    let _ = writeln!(
        out,
        "#[rustfmt::skip]\npub(super) static RESULT: [[u32; 4]; 4] = {:?};",
        model.result
    );
    if let Some(file) = book_file {
        let _ = writeln!(out, "\n/// The opening book ([`super::book`]).\npub(super) static BOOK: &[u8] = include_bytes!(\"{file}\");");
    }
    out
}
