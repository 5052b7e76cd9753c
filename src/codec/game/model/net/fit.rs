//! Fitting a network model: every position of the fitting games with each legal move's features,
//! then minibatch Adam on the bits of the moves played (softmax over the legal moves), in `f32`
//! with one thread and a seeded shuffle, so the same games give the same weights, byte for byte,
//! on the same build. The fitted weights are then rounded to the model's integers ([`quantise`]);
//! only those are shipped, and only integers are used to code.

use super::context::Context;
use super::features::{
    FeatureSink, Group, ALL_GROUPS, M4_ABOUT, M4_GROUPS, M4_LANES, POSITION_FEATURES,
};
use super::file::{AnyNet, NetFileError};
use super::{ending, History, Layout, Net, ONE, OUTPUT_SHIFT, SCALE};
use crate::codec::game::canonical_moves;
use crate::codec::game::model::book::{self, Book};
use crate::game::GameRecord;
use crate::types::splitmix::SplitMix;

/// Position features per position (one per group).
const SLOTS: usize = super::context::POSITION_GROUPS.len();

/// Every position of some games: its position features, each legal move's features, the move
/// played.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    /// The number of move features of the layout the samples were taken in.
    feature_count: usize,
    /// Per position: the index of its first move in `move_starts` (one more at the end).
    position_starts: Vec<u32>,
    /// Per position: its position features.
    position_features: Vec<[u16; SLOTS]>,
    /// Per position: the index among its moves of the move played.
    played: Vec<u16>,
    /// Per move: the index of its first feature in `features` (one more at the end).
    move_starts: Vec<u32>,
    features: Vec<u16>,
}

/// Collects every feature index.
struct Collect<'a>(&'a mut Vec<u16>);

impl FeatureSink for Collect<'_> {
    fn piece(&mut self, feature: usize) {
        self.0.push(feature as u16);
    }

    fn movement(&mut self, feature: usize) {
        self.0.push(feature as u16);
    }
}

impl Samples {
    /// The samples of `games` in `layout` under `groups`; with `leave_out` (the fitting games),
    /// each game sees the book without its own moves, as a game that was not in the fitting set
    /// would.
    pub fn new(
        games: &[GameRecord],
        layout: Layout,
        groups: u32,
        book: &Book,
        leave_out: bool,
    ) -> Samples {
        let mut samples = Samples {
            feature_count: layout.features(),
            ..Samples::default()
        };
        for game in games {
            samples.add_game(game, layout, groups, book, u32::from(leave_out));
        }
        samples
            .position_starts
            .push(samples.move_starts.len() as u32);
        samples.move_starts.push(samples.features.len() as u32);
        samples
    }

    fn add_game(&mut self, game: &GameRecord, layout: Layout, groups: u32, book: &Book, own: u32) {
        let mut pos = game.start.clone();
        let mut history = History::new(&pos);
        for &played in &game.moves {
            let legal = canonical_moves(&pos);
            let hash = history.book_hash();
            // Leave this game out: its own visit and move are taken off the counts.
            let total = hash.map_or(0, |hash| book.count(hash).saturating_sub(own));
            let context = Context::new(&pos, &history, legal.len(), total > 0, groups);
            self.position_starts.push(self.move_starts.len() as u32);
            let mut slots = [0u16; SLOTS];
            for (slot, feature) in slots.iter_mut().zip(context.position_features()) {
                *slot = feature as u16;
            }
            self.position_features.push(slots);
            let index = legal.iter().position(|&m| m == played).unwrap_or(0);
            self.played.push(index as u16);
            for &mv in &legal {
                self.move_starts.push(self.features.len() as u32);
                let bucket = hash.filter(|_| total > 0).map(|hash| {
                    let count = book.count(book::extend(hash, mv));
                    let own = own * u32::from(mv == played && count > 0);
                    book::bucket(total, count - own)
                });
                match layout {
                    Layout::Groups => {
                        context.features(mv, groups, bucket, &mut Collect(&mut self.features))
                    }
                    Layout::Fast => {
                        let mover = context.fast_mover(mv.from().index());
                        let piece = context.fast_piece::<false>(&mover);
                        let rows = context.fast_move::<false>(&mover, mv, bucket);
                        self.features.extend(piece.iter().chain(&rows));
                    }
                    Layout::FastExchange => {
                        let mover = context.fast_mover(mv.from().index());
                        let piece = context.fast_piece::<true>(&mover);
                        let rows = context.fast_move::<true>(&mover, mv, bucket);
                        self.features.extend(piece.iter().chain(&rows));
                    }
                }
            }
            history = history.after(&pos, played);
            let _ = pos.make(played);
        }
    }

    /// The number of positions.
    pub fn positions(&self) -> usize {
        self.played.len()
    }

    fn moves(&self, p: usize) -> std::ops::Range<usize> {
        self.position_starts[p] as usize..self.position_starts[p + 1] as usize
    }

    fn move_features(&self, m: usize) -> &[u16] {
        &self.features[self.move_starts[m] as usize..self.move_starts[m + 1] as usize]
    }
}

/// How a fit runs.
#[derive(Debug, Clone, Copy)]
pub struct FitOptions {
    /// Lanes per row: 8, 16 or 32 (lane 0 linear, the others hidden units); 1 fits the linear
    /// part alone (a step of the report, not a model that can be shipped).
    pub lanes: usize,
    /// Passes over the samples.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size in the first pass.
    pub step: f32,
    /// The step size's factor from one pass to the next.
    pub decay: f32,
    /// The L2 penalty on the hidden units' weights.
    pub l2: f32,
    /// The seed of the initial weights and of the order of the positions.
    pub seed: u64,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            lanes: 16,
            epochs: 12,
            batch: 256,
            step: 0.005,
            decay: 0.8,
            l2: 5e-4,
            seed: 1,
        }
    }
}

/// A model in `f32`, in nats: linear weights, hidden rows, bias, output weights.
#[derive(Debug, Clone)]
pub struct FloatNet {
    hidden: usize,
    linear: Vec<f32>,
    rows: Vec<f32>,
    position_rows: Vec<f32>,
    bias: Vec<f32>,
    output: Vec<f32>,
}

impl FloatNet {
    fn new(hidden: usize, features: usize, rng: &mut SplitMix) -> FloatNet {
        let mut normal = |scale: f32| {
            let u = |r: &mut SplitMix| (r.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (u(rng) + u(rng) + u(rng) + u(rng) - 2.0) * 1.732 * scale
        };
        FloatNet {
            hidden,
            linear: vec![0.0; features],
            rows: (0..features * hidden).map(|_| normal(0.05)).collect(),
            position_rows: (0..POSITION_FEATURES * hidden)
                .map(|_| normal(0.05))
                .collect(),
            bias: vec![0.5; hidden],
            output: (0..hidden).map(|_| normal(0.1)).collect(),
        }
    }

    /// The scores (nats) of position `p`'s moves, and their hidden sums into `sums`.
    fn scores(&self, samples: &Samples, p: usize, scores: &mut Vec<f32>, sums: &mut Vec<f32>) {
        let h = self.hidden;
        let mut base = self.bias.clone();
        for &f in &samples.position_features[p] {
            let row = &self.position_rows[usize::from(f) * h..][..h];
            base.iter_mut().zip(row).for_each(|(b, r)| *b += r);
        }
        scores.clear();
        sums.clear();
        for m in samples.moves(p) {
            let start = sums.len();
            sums.extend_from_slice(&base);
            let mut score = 0.0;
            for &f in samples.move_features(m) {
                score += self.linear[usize::from(f)];
                let row = &self.rows[usize::from(f) * h..][..h];
                sums[start..].iter_mut().zip(row).for_each(|(s, r)| *s += r);
            }
            for (s, v) in sums[start..].iter().zip(&self.output) {
                score += v * s.clamp(0.0, 1.0);
            }
            scores.push(score);
        }
    }

    /// The mean bits of the played moves of `samples`.
    pub fn bits(&self, samples: &Samples) -> f64 {
        let (mut scores, mut sums) = (Vec::new(), Vec::new());
        let mut total = 0.0;
        for p in 0..samples.positions() {
            self.scores(samples, p, &mut scores, &mut sums);
            total += nats(&scores, usize::from(samples.played[p]));
        }
        total / samples.positions().max(1) as f64 / std::f64::consts::LN_2
    }

    fn parameters(&mut self) -> [(&mut Vec<f32>, bool); 5] {
        [
            (&mut self.linear, false),
            (&mut self.rows, true),
            (&mut self.position_rows, true),
            (&mut self.bias, false),
            (&mut self.output, true),
        ]
    }
}

/// -ln of the softmax probability of `played`.
fn nats(scores: &[f32], played: usize) -> f64 {
    let max = scores.iter().copied().fold(f32::MIN, f32::max);
    let sum: f64 = scores.iter().map(|&s| f64::from((s - max).exp())).sum();
    sum.ln() - f64::from(scores[played] - max)
}

/// Fits a model on `samples`; `progress` hears each pass's mean bits per move.
pub fn fit(
    samples: &Samples,
    options: FitOptions,
    mut progress: impl FnMut(usize, f64),
) -> FloatNet {
    let hidden = options.lanes - 1;
    let mut rng = SplitMix::new(options.seed);
    let features = samples.feature_count;
    let mut net = FloatNet::new(hidden, features, &mut rng);
    let sizes = [
        features,
        features * hidden,
        POSITION_FEATURES * hidden,
        hidden,
        hidden,
    ];
    let mut grads: Vec<Vec<f32>> = sizes.iter().map(|&n| vec![0.0; n]).collect();
    let mut first: Vec<Vec<f32>> = grads.clone();
    let mut second: Vec<Vec<f32>> = grads.clone();
    let mut order: Vec<u32> = (0..samples.positions() as u32).collect();
    let (beta1, beta2) = (0.9f32, 0.999f32);
    let (mut scores, mut sums, mut delta) = (Vec::new(), Vec::new(), vec![0.0f32; hidden]);
    let mut steps = 0;
    for epoch in 0..options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let step = options.step * options.decay.powi(epoch as i32);
        let mut total = 0.0;
        for batch in order.chunks(options.batch) {
            grads
                .iter_mut()
                .for_each(|g| g.iter_mut().for_each(|x| *x = 0.0));
            for &p in batch {
                let p = p as usize;
                net.scores(samples, p, &mut scores, &mut sums);
                let played = usize::from(samples.played[p]);
                total += nats(&scores, played);
                let max = scores.iter().copied().fold(f32::MIN, f32::max);
                let sum: f32 = scores.iter().map(|&s| (s - max).exp()).sum();
                let mut base = vec![0.0f32; hidden];
                for (k, m) in samples.moves(p).enumerate() {
                    let share = (scores[k] - max).exp() / sum - f32::from(u8::from(k == played));
                    for (j, &s) in sums[k * hidden..][..hidden].iter().enumerate() {
                        grads[4][j] += share * s.clamp(0.0, 1.0);
                        delta[j] = if s > 0.0 && s < 1.0 {
                            share * net.output[j]
                        } else {
                            0.0
                        };
                    }
                    for &f in samples.move_features(m) {
                        let f = usize::from(f);
                        grads[0][f] += share;
                        let row = &mut grads[1][f * hidden..][..hidden];
                        row.iter_mut().zip(&delta).for_each(|(g, d)| *g += d);
                    }
                    base.iter_mut().zip(&delta).for_each(|(b, d)| *b += d);
                }
                for &f in &samples.position_features[p] {
                    let row = &mut grads[2][usize::from(f) * hidden..][..hidden];
                    row.iter_mut().zip(&base).for_each(|(g, b)| *g += b);
                }
                grads[3].iter_mut().zip(&base).for_each(|(g, b)| *g += b);
            }
            steps += 1;
            let scale = 1.0 / batch.len() as f32;
            let (fix1, fix2) = (1.0 - beta1.powi(steps), 1.0 - beta2.powi(steps));
            for (k, (weights, penalised)) in net.parameters().into_iter().enumerate() {
                let l2 = if penalised { options.l2 } else { 0.0 };
                for (i, w) in weights.iter_mut().enumerate() {
                    let g = grads[k][i] * scale + l2 * *w;
                    first[k][i] = beta1 * first[k][i] + (1.0 - beta1) * g;
                    second[k][i] = beta2 * second[k][i] + (1.0 - beta2) * g * g;
                    *w -= step * (first[k][i] / fix1) / ((second[k][i] / fix2).sqrt() + 1e-8);
                }
            }
        }
        progress(
            epoch + 1,
            total / samples.positions().max(1) as f64 / std::f64::consts::LN_2,
        );
    }
    net
}

/// The model's integers from a fitted model: the linear lane in 1/[`SCALE`] bit, hidden rows
/// with 1.0 as [`ONE`], output weights in 1/([`SCALE`] << [`OUTPUT_SHIFT`]) bit; with the end and
/// result odds counted on `games` and the opening `book`.
pub fn quantise<const W: usize>(
    net: &FloatNet,
    layout: Layout,
    groups: u32,
    games: &[GameRecord],
    book: Book,
) -> Net<W> {
    assert_eq!(
        net.hidden + 1,
        W,
        "a model of {} hidden units in rows of {W} lanes",
        net.hidden
    );
    let bits = 1.0 / std::f32::consts::LN_2;
    let round = |x: f32| x.round().clamp(-32000.0, 32000.0) as i16;
    let hidden_row = |weights: &[f32], lead: f32| -> [i16; W] {
        std::array::from_fn(|j| {
            if j == 0 {
                round(lead)
            } else {
                round(weights[j - 1] * f32::from(ONE))
            }
        })
    };
    let h = net.hidden;
    let rows = (0..layout.features())
        .map(|f| hidden_row(&net.rows[f * h..][..h], net.linear[f] * bits * SCALE as f32))
        .collect();
    let position_rows = (0..POSITION_FEATURES)
        .map(|f| hidden_row(&net.position_rows[f * h..][..h], 0.0))
        .collect();
    let output_unit = bits * (SCALE << OUTPUT_SHIFT) as f32;
    let output = std::array::from_fn(|j| {
        if j == 0 {
            0
        } else {
            round(net.output[j - 1] * output_unit)
        }
    });
    let (end, result) = ending::fit(games);
    Net {
        layout,
        groups,
        rows,
        position_rows,
        bias: hidden_row(&net.bias, 0.0),
        output,
        end,
        result,
        book,
    }
}

/// A step of the fitting report: the groups so far and the lanes (1: linear).
#[derive(Debug, Clone, Copy)]
pub struct Step {
    /// What the step adds.
    pub name: &'static str,
    /// Its feature groups.
    pub groups: u32,
    /// Its lanes per row.
    pub lanes: usize,
}

/// The report's steps: m2's groups, then each new group added in turn (linear), then the network
/// with 7, 15 and 31 hidden units over every group.
pub fn steps() -> Vec<Step> {
    let mut out = Vec::new();
    let mut groups = 0;
    for (index, group) in Group::ALL.iter().enumerate() {
        groups |= group.bit();
        if index >= Group::Book as usize {
            let name = if index == Group::Book as usize {
                "m2's groups"
            } else {
                group.name()
            };
            out.push(Step {
                name,
                groups,
                lanes: 1,
            });
        }
    }
    for (name, lanes) in [("7 hidden", 8), ("15 hidden", 16), ("31 hidden", 32)] {
        out.push(Step {
            name,
            groups,
            lanes,
        });
    }
    out
}

/// Fits `step` on `fitting` and measures it (in `f32`, before rounding) on `fitting` and on
/// `measured`: (bits per move fitted, bits per move measured).
pub fn measure(
    step: Step,
    fitting: &[GameRecord],
    measured: &[GameRecord],
    book: &Book,
    options: FitOptions,
) -> (f64, f64) {
    let samples = Samples::new(fitting, Layout::Groups, step.groups, book, true);
    let net = fit(
        &samples,
        FitOptions {
            lanes: step.lanes,
            ..options
        },
        |_, _| {},
    );
    let held = Samples::new(measured, Layout::Groups, step.groups, book, false);
    (net.bits(&samples), net.bits(&held))
}

/// The model of `options.lanes` lanes in `layout` over the feature `groups` fitted on `fitting`
/// ([`fit`], then [`quantise`]); `progress` hears each pass's bits per move.
pub fn fit_model(
    fitting: &[GameRecord],
    book: &Book,
    layout: Layout,
    groups: u32,
    options: FitOptions,
    progress: impl FnMut(usize, f64),
) -> Result<AnyNet, NetFileError> {
    if ![8, 16, 32].contains(&options.lanes) {
        return Err(NetFileError::Lanes(options.lanes.min(255) as u8));
    }
    let samples = Samples::new(fitting, layout, groups, book, true);
    let net = fit(&samples, options, progress);
    let book = book.clone();
    Ok(match options.lanes {
        8 => AnyNet::W8(quantise(&net, layout, groups, fitting, book)),
        16 => AnyNet::W16(quantise(&net, layout, groups, fitting, book)),
        _ => AnyNet::W32(quantise(&net, layout, groups, fitting, book)),
    })
}

/// A released network model: its name, the feature groups and the lanes it was fitted with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    /// The model's name (`m3`): its files are `NAME.bin` and `NAME.rs`.
    pub name: &'static str,
    /// Its rows' layout.
    pub layout: Layout,
    /// Its feature groups ([`Group::bit`]).
    pub groups: u32,
    /// Its lanes per row.
    pub lanes: usize,
    /// Which groups, in words (for its source's doc).
    pub about: &'static str,
}

/// Model 3: 15 hidden units over every group.
pub const M3: Release = Release {
    name: "m3",
    layout: Layout::Groups,
    groups: ALL_GROUPS,
    lanes: 16,
    about: "every feature group",
};

/// Model 4: the groups that earn their time ([`M4_GROUPS`]).
pub const M4: Release = Release {
    name: "m4",
    layout: Layout::Groups,
    groups: M4_GROUPS,
    lanes: M4_LANES,
    about: M4_ABOUT,
};

/// Model 5: a fixed number of rows per piece and per move, read from tables made once per
/// position ([`super::fast`]), for speed.
pub const M5: Release = Release {
    name: "m5",
    layout: Layout::Fast,
    groups: super::fast::FAST_GROUPS,
    lanes: 16,
    about: "a fixed number of rows per piece and per move, read from tables made once per position",
};

/// Model 6: m5's slots with the defences counted without the mover, the sole defenders and the
/// exchange of captures ([`super::fast`]).
pub const M6: Release = Release {
    name: "m6",
    layout: Layout::FastExchange,
    groups: super::fast::EXCHANGE_GROUPS,
    lanes: 16,
    about: "a fixed number of rows per piece and per move, read from tables made once per position, \
            with the defences counted without the mover, the sole defenders and the exchange of captures",
};

impl Release {
    /// The Rust source of the model's version, its network of `bytes` (written with `lanes`
    /// lanes) and its book described; `origin` says what it was fitted on.
    pub fn source(&self, origin: &str, lanes: usize, bytes: &[u8]) -> String {
        let name = self.name;
        format!(
            "//! Move model {}: a network of {} hidden units over {}, {origin}.\n\
             //!\n\
             //! Written by `shannon codec-fit --model {name}`; never edited by hand (a new fit is \
             a new model version).\n\n\
             /// The network ([`super::net::file`]): {} bytes, rows of {lanes} lanes.\n\
             pub(super) static NET: &[u8] = include_bytes!(\"{name}.bin\");\n\n\
             /// The opening book: m2's, which the same fitting games give byte for byte.\n\
             pub(super) static BOOK: &[u8] = include_bytes!(\"m2_book.bin\");\n",
            &name[1..],
            lanes - 1,
            self.about,
            bytes.len()
        )
    }
}
