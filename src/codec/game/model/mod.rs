//! Move-likelihood models for the `arith` game codec: a probability for every legal move, so
//! that the moves people play cost fewer bits than the uniform model's log2 n.
//!
//! A fitted model scores each legal move by the sum of the weights of its features
//! ([`features`]: where it goes and comes from by piece and phase, what it captures, how safe
//! its destination is, threats, replies to the last move, check, castling, promotion, and an
//! opening book), then turns scores into integer frequencies with an integer exponential
//! ([`frequencies`]): the encoder and decoder compute exactly the same numbers on any machine.
//! Weights are in 1/32 bit (a weight of 32 doubles a move's odds).
//!
//! Each fitted model is a versioned constant ([`MoveModel`]): its weights and book never change
//! once released, and its number is written in the packed file's header, so files packed with
//! an old model still unpack. A new fit is a new version. `m1` and `m2` are linear ([`Model`]);
//! `m3` is a small integer network over richer features ([`net`]). Every fitted model is a
//! [`MovePredictor`], which is all the coder needs.

pub mod book;
pub(super) mod coder;
pub mod features;
pub mod fit;
mod lines;
mod m1;
mod m2;
mod m3;
mod m4;
mod m5;
mod m6;
pub mod net;
mod predictor;

use super::moves::canonical_legal_moves;
use crate::{Move, Position};
use book::{Book, BOOK_PLIES};
use features::{Context, FeatureSink, FEATURES};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

pub use predictor::{Distribution, MovePredictor};

/// Score units per bit.
pub const SCALE: i32 = 32;

/// 2^16 * 2^(-k/32) for k in 0..32.
const EXP_FRACTION: [u32; 32] = [
    65536, 64132, 62757, 61413, 60097, 58809, 57549, 56316, 55109, 53928, 52773, 51642, 50535,
    49452, 48393, 47356, 46341, 45348, 44376, 43425, 42495, 41584, 40693, 39821, 38968, 38133,
    37316, 36516, 35734, 34968, 34219, 33486,
];

/// A move model: which feature groups it uses, their weights and its book.
#[derive(Debug, Clone, Copy)]
pub struct Model<'a> {
    /// The feature groups ([`features::Group::bit`]).
    pub groups: u16,
    /// One weight per feature ([`FEATURES`]), in 1/32 bit.
    pub weights: &'a [i16],
    /// The opening book, if the model has one.
    pub book: Option<&'a Book>,
    /// The odds of the game going on and ending, by ply bucket (`coder::end_bucket`).
    pub end: &'a [[u32; 2]; coder::END_BUCKETS],
    /// The odds of each result ([`crate::game::Outcome::ALL`]) by how the game stands at its
    /// end (`coder::result_context`).
    pub result: &'a [[u32; 4]; 4],
}

impl MovePredictor for Model<'_> {
    type History = History;

    fn history(&self, start: &Position) -> History {
        History::new(start)
    }

    fn after(&self, history: &History, _pos: &Position, mv: Move) -> History {
        history.after(mv)
    }

    fn distribution(&self, pos: &Position, history: &History, out: &mut Distribution) {
        Model::distribution(self, pos, history, out);
    }

    fn end_odds(&self, _pos: &Position, history: &History) -> [u32; 2] {
        self.end[coder::end_bucket(history.ply)]
    }

    fn result_odds(&self, pos: &Position, _history: &History, has_moves: bool) -> [u32; 4] {
        self.result[coder::result_context(pos, has_moves)]
    }
}

/// A game's history as the model sees it: the last move, and the book sequence while the game
/// is in the book's plies from the standard start.
#[derive(Debug, Clone, Copy)]
pub struct History {
    last: Option<Move>,
    our_last: Option<Move>,
    book: Option<u64>,
    ply: usize,
}

impl History {
    /// The history at the start of a game from `start`.
    pub fn new(start: &Position) -> History {
        let standard = start == super::header::standard_start();
        History {
            last: None,
            our_last: None,
            book: standard.then_some(book::ROOT),
            ply: 0,
        }
    }

    /// The history after `mv`.
    pub fn after(self, mv: Move) -> History {
        let ply = self.ply + 1;
        History {
            last: Some(mv),
            our_last: self.last,
            book: self
                .book
                .filter(|_| ply < BOOK_PLIES)
                .map(|hash| book::extend(hash, mv)),
            ply,
        }
    }

    /// The context of `pos`, the position this history reached.
    pub fn context(&self, pos: &Position) -> Context {
        Context::new(pos, self.last, self.our_last)
    }

    /// The book hash of the moves so far, while within the book's plies from the start.
    pub fn book_hash(&self) -> Option<u64> {
        self.book
    }
}

impl Model<'_> {
    /// Fills `out` with the legal moves of `pos` and their frequencies.
    pub fn distribution(&self, pos: &Position, history: &History, out: &mut Distribution) {
        canonical_legal_moves(pos, &mut out.order, &mut out.moves);
        let context = history.context(pos);
        let book = self.book.zip(history.book).and_then(|(book, hash)| {
            let total = book.count(hash);
            (total > 0).then_some((book, hash, total))
        });
        let bucket = |mv| {
            book.map(|(book, hash, total)| book::bucket(total, book.count(book::extend(hash, mv))))
        };
        out.scores.clear();
        // The shipped models' groups as constants: the compiler drops the tests of the groups.
        match self.groups {
            m1::GROUPS => self.scores(m1::GROUPS, &context, &out.moves, bucket, &mut out.scores),
            m2::GROUPS => self.scores(m2::GROUPS, &context, &out.moves, bucket, &mut out.scores),
            groups => self.scores(groups, &context, &out.moves, bucket, &mut out.scores),
        }
        out.total = frequencies(&out.scores, &mut out.freqs);
    }

    /// The score of each of `moves` (in canonical order, so each piece's moves are together:
    /// the features of the piece and its square are added up once per piece).
    #[inline(always)]
    fn scores(
        &self,
        groups: u16,
        context: &Context,
        moves: &[Move],
        bucket: impl Fn(Move) -> Option<usize>,
        scores: &mut Vec<i32>,
    ) {
        let mut piece = (None, 0);
        for &mv in moves {
            if piece.0 != Some(mv.from()) {
                let mut sum = Sum::piece(self.weights);
                context.features_apart(mv, groups, None, &mut sum);
                piece = (Some(mv.from()), sum.total);
            }
            let mut sum = Sum::movement(self.weights);
            context.features_apart(mv, groups, bucket(mv), &mut sum);
            scores.push(piece.1 + sum.total);
        }
    }
}

/// The sum of the weights of one kind of feature ([`FeatureSink`]).
struct Sum<'w, const PIECE: bool> {
    weights: &'w [i16],
    total: i32,
}

impl<'w> Sum<'w, true> {
    fn piece(weights: &'w [i16]) -> Self {
        Sum { weights, total: 0 }
    }
}

impl<'w> Sum<'w, false> {
    fn movement(weights: &'w [i16]) -> Self {
        Sum { weights, total: 0 }
    }
}

impl<const PIECE: bool> FeatureSink for Sum<'_, PIECE> {
    #[inline(always)]
    fn piece(&mut self, feature: usize) {
        if PIECE {
            self.total += i32::from(self.weights[feature]);
        }
    }

    #[inline(always)]
    fn movement(&mut self, feature: usize) {
        if !PIECE {
            self.total += i32::from(self.weights[feature]);
        }
    }
}

/// Integer frequencies from scores (in 1/[`SCALE`] bit): 2^15 * 2^((s - max) / 32), at least 1,
/// scaled down to fit the coder's total when they sum above it. Returns the total.
pub fn frequencies(scores: &[i32], freqs: &mut Vec<u32>) -> u32 {
    let max = scores.iter().copied().max().unwrap_or(0);
    freqs.clear();
    freqs.extend(scores.iter().map(|&s| exp_below(max - s)));
    let sum = freqs.iter().map(|&f| u64::from(f)).sum();
    predictor::fit_to_total(freqs, sum)
}

/// 2^15 * 2^(-d / 32), at least 1 (d >= 0).
fn exp_below(d: i32) -> u32 {
    let d = d.max(0) as u32;
    let shift = d / 32;
    if shift >= 16 {
        return 1;
    }
    ((EXP_FRACTION[(d % 32) as usize] >> 1) >> shift).max(1)
}

/// How the `arith` codec weighs the legal moves: uniformly, or by a fitted model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveModel {
    /// Every legal move equally likely: log2 n bits, the model-free baseline.
    Uniform,
    /// Fitted model 1: the static features, no opening book.
    M1,
    /// Fitted model 2: model 1's features and the opening book.
    M2,
    /// Fitted model 3: richer features (static exchanges, defences, the kings, ...), a small
    /// integer network and the end and result by how the game stands.
    M3,
    /// Fitted model 4: model 3's network over the feature groups that earn their time, for
    /// speed ([`net::fit::M4`]).
    M4,
    /// Fitted model 5: a network with a fixed number of rows per piece and per move, read from
    /// tables made once per position, for speed ([`net::fit::M5`]).
    M5,
    /// Fitted model 6: model 5's rows with the defences counted without the mover, the sole
    /// defenders and the exchange of captures ([`net::fit::M6`]).
    M6,
}

/// A fitted model: linear (m1, m2) or a network (m3-m6).
#[derive(Debug, Clone, Copy)]
pub enum Fitted {
    /// A linear model.
    Linear(Model<'static>),
    /// A network model.
    Net(&'static net::file::AnyNet),
}

/// Runs `$body` with `$p` bound to the [`MovePredictor`] inside a [`Fitted`].
macro_rules! with_predictor {
    ($fitted:expr, $p:ident => $body:expr) => {
        match $fitted {
            $crate::codec::game::model::Fitted::Linear(ref $p) => $body,
            $crate::codec::game::model::Fitted::Net(net) => match net {
                $crate::codec::game::model::net::file::AnyNet::W8($p) => $body,
                $crate::codec::game::model::net::file::AnyNet::W16($p) => $body,
                $crate::codec::game::model::net::file::AnyNet::W32($p) => $body,
            },
        }
    };
}
pub(crate) use with_predictor;

impl Fitted {
    /// The exact bits the model's coder spends on the moves of `games`, and the moves.
    pub fn move_bits(&self, games: &[crate::game::GameRecord]) -> (f64, usize) {
        with_predictor!(*self, p => fit::move_bits(p, games))
    }
}

impl MoveModel {
    /// Every model, the baseline first.
    pub const ALL: [MoveModel; 7] = [
        MoveModel::Uniform,
        MoveModel::M1,
        MoveModel::M2,
        MoveModel::M3,
        MoveModel::M4,
        MoveModel::M5,
        MoveModel::M6,
    ];

    /// The model's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            MoveModel::Uniform => "uniform",
            MoveModel::M1 => "m1",
            MoveModel::M2 => "m2",
            MoveModel::M3 => "m3",
            MoveModel::M4 => "m4",
            MoveModel::M5 => "m5",
            MoveModel::M6 => "m6",
        }
    }

    /// The model's number in a packed file's header (0: uniform).
    pub fn id(self) -> u8 {
        match self {
            MoveModel::Uniform => 0,
            MoveModel::M1 => 1,
            MoveModel::M2 => 2,
            MoveModel::M3 => 3,
            MoveModel::M4 => 4,
            MoveModel::M5 => 5,
            MoveModel::M6 => 6,
        }
    }

    /// The fitted model, or None for the uniform one.
    pub fn fitted(self) -> Option<Fitted> {
        static M2_BOOK: OnceLock<Book> = OnceLock::new();
        static M3: OnceLock<net::file::AnyNet> = OnceLock::new();
        static M4: OnceLock<net::file::AnyNet> = OnceLock::new();
        static M5: OnceLock<net::file::AnyNet> = OnceLock::new();
        static M6: OnceLock<net::file::AnyNet> = OnceLock::new();
        match self {
            MoveModel::Uniform => None,
            MoveModel::M1 => Some(Fitted::Linear(Model {
                groups: m1::GROUPS,
                weights: &m1::WEIGHTS,
                book: None,
                end: &m1::END,
                result: &m1::RESULT,
            })),
            MoveModel::M2 => Some(Fitted::Linear(Model {
                groups: m2::GROUPS,
                weights: &m2::WEIGHTS,
                book: Some(M2_BOOK.get_or_init(|| Book::from_bytes(m2::BOOK))),
                end: &m2::END,
                result: &m2::RESULT,
            })),
            MoveModel::M3 => Some(Fitted::Net(M3.get_or_init(|| {
                // A test reads the shipped bytes: they always parse.
                net::file::read(m3::NET, Book::from_bytes(m3::BOOK)).expect("the shipped m3 parses")
            }))),
            MoveModel::M4 => Some(Fitted::Net(M4.get_or_init(|| {
                // A test reads the shipped bytes: they always parse.
                net::file::read(m4::NET, Book::from_bytes(m4::BOOK)).expect("the shipped m4 parses")
            }))),
            MoveModel::M5 => Some(Fitted::Net(M5.get_or_init(|| {
                // A test reads the shipped bytes: they always parse.
                net::file::read(m5::NET, Book::from_bytes(m5::BOOK)).expect("the shipped m5 parses")
            }))),
            MoveModel::M6 => Some(Fitted::Net(M6.get_or_init(|| {
                // A test reads the shipped bytes: they always parse.
                net::file::read(m6::NET, Book::from_bytes(m6::BOOK)).expect("the shipped m6 parses")
            }))),
        }
    }
}

impl fmt::Display for MoveModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A model name that is not one of [`MoveModel::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownMoveModel(pub String);

impl fmt::Display for UnknownMoveModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = MoveModel::ALL.iter().map(|m| m.name()).collect();
        write!(
            f,
            "unknown move model '{}' (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownMoveModel {}

impl FromStr for MoveModel {
    type Err = UnknownMoveModel;

    fn from_str(text: &str) -> Result<MoveModel, UnknownMoveModel> {
        MoveModel::ALL
            .into_iter()
            .find(|model| model.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownMoveModel(text.to_string()))
    }
}

const _: () = assert!(m1::WEIGHTS.len() == FEATURES && m2::WEIGHTS.len() == FEATURES);
