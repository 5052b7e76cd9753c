//! cutechess-cli's `-resultformat`: which columns its rank table has (projects/lib/src/
//! tournament.h, `m_tokenMap`, `m_namedGroups`, `m_namedFormats`; tournament.cpp,
//! `Tournament::results()` and `ResultFormatter`). The option's text becomes a [`ResultFormat`]
//! once, at the edge; the renderer prints its fields.
//!
//! cutechess-cli never refuses a format: a named format stands for its list, a group's name is
//! replaced by its fields wherever it appears in the text, the list is split at commas (spaces
//! removed), and a token it does not know, or one it knows without data (`LOS`, `wElo`,
//! `wError`, `wLOS`, `bElo`, `bError`; `wPoints` and `bPoints` of its own groups are not even
//! tokens), prints nothing, header and rows alike. So the list keeps only the fields that print.

use super::super::endings::{ending_words, Tool};
use super::super::numbers::{qt_general, shortest};
use shannon::arena::{MatchGame, Termination};
use shannon::client::{Pace, TimeControl};
use shannon::game::Outcome;
use shannon::Color;

/// What a game counts for one player in cutechess's outcome fields (`Tournament::addOutcome`):
/// the player's result type, or cutechess's own types for regular wins and losses, other wins,
/// and the kinds of draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Counted {
    /// `Time`: lost on time, or a drawn game ended by a time forfeit (both players).
    TimeForfeit,
    /// `Illegal`: lost by an illegal move.
    IllegalMove,
    /// `Discon`: lost by a disconnection (a crash).
    Disconnection,
    /// `Stall`: lost by a stalled connection.
    StalledConnection,
    /// `WrClaim`: lost by an invalid result claim.
    InvalidResultClaim,
    /// `RegulL`: lost by mate, resignation or adjudication.
    RegularLoss,
    /// `RegulW`: won by mate, resignation or adjudication.
    RegularWin,
    /// `OtherW`: won by the other's time forfeit, illegal move, disconnection, stall or invalid
    /// claim.
    OtherWin,
    /// `DStale`: drawn by stalemate.
    Stalemate,
    /// `DMater`: drawn by insufficient material.
    InsufficientMaterial,
    /// `DRepet`: drawn by repetition.
    Repetition,
    /// `DMoves`: drawn by the fifty-move rule.
    MovesRule,
    /// `DCount`: drawn by counting rules (variants only: never in Shannon's games).
    CountingRules,
    /// `DAdj`: drawn by adjudication (`-draw`, `-maxmoves`, the tablebases).
    Adjudication,
    /// `DAgree`: drawn by agreement (xboard engines' offers: never in Shannon's games).
    Agreement,
    /// `OtherD`: another draw.
    OtherDraw,
}

impl Counted {
    /// How many there are (the size of a player's counts).
    pub const COUNT: usize = 16;

    /// Its place in a player's counts.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One column of cutechess-cli's rank table: a token of its `m_tokenMap` that has data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// `Rank`.
    Rank,
    /// `Name`.
    Name,
    /// `Games`.
    Games,
    /// `W`, `L`, `D`: wins, losses and draws (0, 1, 2).
    Results(usize),
    /// `wW`, `wL`, `wD`: with White.
    WhiteResults(usize),
    /// `bW`, `bL`, `bD`: with Black.
    BlackResults(usize),
    /// `Points`.
    Points,
    /// `Score`: points per game, in percent.
    Score,
    /// `DScore`: draws per game, in percent.
    DrawScore,
    /// `Elo`.
    Elo,
    /// `Error`: the Elo's error margin.
    Error,
    /// `wScore`.
    WhiteScore,
    /// `wDScore`.
    WhiteDrawScore,
    /// `bScore`.
    BlackScore,
    /// `bDScore`.
    BlackDrawScore,
    /// The outcome counts (`Time`, `Illegal`, ..., `OtherD`).
    Count(Counted),
    /// `TC`: the player's time control.
    TimeControl,
}

impl Field {
    /// Its header, as cutechess's header map has it (the column's width and a space).
    pub fn header(self) -> String {
        let (text, width) = match self {
            Field::Rank => return "Rank ".into(),
            Field::Name => return format!("{:<25} ", "Name"),
            Field::Games => ("Games", 7),
            Field::Results(i) => (["Wins", "Losses", "Draws"][i], 7),
            Field::WhiteResults(i) => (["WWins", "WLoss.", "WDraws"][i], 7),
            Field::BlackResults(i) => (["BWins", "BLoss.", "BDraws"][i], 7),
            Field::Points => ("Points", 8),
            Field::Score => ("Score", 7),
            Field::DrawScore => ("Draw", 7),
            Field::Elo => ("Elo", 7),
            Field::Error => ("+/-", 7),
            Field::WhiteScore => ("White", 7),
            Field::WhiteDrawScore => ("WDraw", 7),
            Field::BlackScore => ("Black", 7),
            Field::BlackDrawScore => ("BDraw", 7),
            Field::Count(counted) => (count_header(counted), 7),
            Field::TimeControl => ("TC", 14),
        };
        format!("{text:>width$} ")
    }

    /// True when the field needs each game's colours or ending (not in a saved state's
    /// standings).
    pub fn needs_each_game(self) -> bool {
        matches!(
            self,
            Field::WhiteResults(_)
                | Field::BlackResults(_)
                | Field::WhiteScore
                | Field::WhiteDrawScore
                | Field::BlackScore
                | Field::BlackDrawScore
                | Field::Count(_)
        )
    }
}

/// The header of an outcome count: its token.
fn count_header(counted: Counted) -> &'static str {
    TOKENS
        .iter()
        .find(|(_, field)| *field == Some(Field::Count(counted)))
        .map_or("", |(token, _)| token)
}

/// cutechess's `m_tokenMap` in its (sorted) order, each token's field (`None`: no data).
const TOKENS: &[(&str, Option<Field>)] = &[
    ("D", Some(Field::Results(2))),
    ("DAdj", Some(Field::Count(Counted::Adjudication))),
    ("DAgree", Some(Field::Count(Counted::Agreement))),
    ("DCount", Some(Field::Count(Counted::CountingRules))),
    ("DMater", Some(Field::Count(Counted::InsufficientMaterial))),
    ("DMoves", Some(Field::Count(Counted::MovesRule))),
    ("DRepet", Some(Field::Count(Counted::Repetition))),
    ("DScore", Some(Field::DrawScore)),
    ("DStale", Some(Field::Count(Counted::Stalemate))),
    ("Discon", Some(Field::Count(Counted::Disconnection))),
    ("Elo", Some(Field::Elo)),
    ("Error", Some(Field::Error)),
    ("Games", Some(Field::Games)),
    ("Illegal", Some(Field::Count(Counted::IllegalMove))),
    ("L", Some(Field::Results(1))),
    ("LOS", None),
    ("Name", Some(Field::Name)),
    ("OtherD", Some(Field::Count(Counted::OtherDraw))),
    ("OtherW", Some(Field::Count(Counted::OtherWin))),
    ("Points", Some(Field::Points)),
    ("Rank", Some(Field::Rank)),
    ("RegulL", Some(Field::Count(Counted::RegularLoss))),
    ("RegulW", Some(Field::Count(Counted::RegularWin))),
    ("Score", Some(Field::Score)),
    ("Stall", Some(Field::Count(Counted::StalledConnection))),
    ("TC", Some(Field::TimeControl)),
    ("Time", Some(Field::Count(Counted::TimeForfeit))),
    ("W", Some(Field::Results(0))),
    ("WrClaim", Some(Field::Count(Counted::InvalidResultClaim))),
    ("bD", Some(Field::BlackResults(2))),
    ("bDScore", Some(Field::BlackDrawScore)),
    ("bElo", None),
    ("bError", None),
    ("bL", Some(Field::BlackResults(1))),
    ("bScore", Some(Field::BlackScore)),
    ("bW", Some(Field::BlackResults(0))),
    ("wD", Some(Field::WhiteResults(2))),
    ("wDScore", Some(Field::WhiteDrawScore)),
    ("wElo", None),
    ("wError", None),
    ("wL", Some(Field::WhiteResults(1))),
    ("wLOS", None),
    ("wScore", Some(Field::WhiteScore)),
    ("wW", Some(Field::WhiteResults(0))),
];

/// cutechess's `m_namedGroups`, in its (sorted) order: each name is replaced by its fields.
const GROUPS: &[(&str, &str)] = &[
    (
        "DrawStats",
        "DScore,DStale,DMater,DRepet,DMoves,DAdj,DAgree,OtherD",
    ),
    ("Terminations", "Time,Illegal,Discon,Stall,WrClaim"),
    (
        "WLDStats",
        "W,L,D,Points,Score,wW,wL,wD,wPoints,wScore,bW,bL,bD,bPoints,bScore",
    ),
];

/// The format cutechess-cli prints without `-resultformat` (its `c_defaultFormat`).
const DEFAULT_FORMAT: &str = "Rank,Name,Elo,Error,Games,Score,DScore";

/// cutechess's `m_namedFormats`, in its (sorted) order.
const NAMED: &[(&str, &str)] = &[
    ("concise", "Rank,Name,Elo,Error,Games"),
    ("default", DEFAULT_FORMAT),
    (
        "draws",
        "Rank,Name,Elo,Error,Games,W,L,D,Points,Score,DScore,DStale,DMater,DRepet,DMoves,DAdj,\
         DAgree,OtherD",
    ),
    ("minimal", "Rank,Name"),
    ("ordo", "Rank,Name,Elo,Points,Games,Score"),
    (
        "per-color",
        "Rank,Name,Elo,Error,Games,W,L,D,Points,wW,wL,wD,wPoints,bW,bL,bD,bPoints",
    ),
    ("short", "Rank,Name,Elo,Games"),
    ("small", "Rank,Name,Games,Points"),
    (
        "term",
        "Rank,Name,Elo,Error,Games,Score,Time,Illegal,Discon,Stall,WrClaim",
    ),
    (
        "wide",
        "Rank,Name,Elo,Error,Games,W,L,D,Points,Score,DScore",
    ),
    (
        "wide2",
        "Rank,Name,Elo,Error,Games,W,L,D,Points,Score,DScore,wScore,bScore",
    ),
    (
        "wide3",
        "Rank,Name,TC,Elo,Error,Games,WLDStats,DrawStats,Terminations",
    ),
    (
        "with-points",
        "Rank,Name,Elo,Error,Games,Points,Score,DScore",
    ),
];

/// The columns of the rank table, in order (a field may come more than once).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultFormat {
    fields: Vec<Field>,
}

impl Default for ResultFormat {
    /// cutechess's default, `Rank,Name,Elo,Error,Games,Score,DScore`.
    fn default() -> ResultFormat {
        ResultFormat::parse(DEFAULT_FORMAT)
    }
}

impl ResultFormat {
    /// The format `-resultformat VALUE` sets, read as cutechess-cli reads it: its first 256
    /// characters, trimmed, a named format's list or the list itself, each group's name
    /// replaced by its fields, split at commas with spaces removed; a token without a field
    /// prints nothing, so it is left out. Never an error (cutechess-cli takes any text).
    pub fn parse(value: &str) -> ResultFormat {
        let value: String = value.chars().take(256).collect();
        let value = value.trim();
        let mut list = NAMED
            .iter()
            .find(|(name, _)| *name == value)
            .map_or(value, |(_, list)| list)
            .to_string();
        for (group, fields) in GROUPS {
            list = list.replace(group, fields);
        }
        let fields = list
            .split(',')
            .filter(|token| !token.is_empty())
            .filter_map(|token| {
                let token = token.replace(' ', "");
                TOKENS
                    .iter()
                    .find(|(name, _)| *name == token)
                    .and_then(|(_, field)| *field)
            })
            .collect();
        ResultFormat { fields }
    }

    /// The columns.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// True when a column needs each game's colours or ending, which a resumed run does not
    /// have for the games of its earlier runs.
    pub fn needs_each_game(&self) -> bool {
        self.fields.iter().any(|field| field.needs_each_game())
    }
}

/// cutechess's result types (`Chess::Result::Type`) of the ways Shannon's games end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ResultType {
    Win,
    Draw,
    Adjudication,
    Resignation,
    Timeout,
    IllegalMove,
    Disconnection,
    StalledConnection,
    NoResult,
}

/// What `game` counts in each player's outcome fields, White's then Black's
/// (`Tournament::addOutcome`): a regular win or loss for a mate, a resignation or an
/// adjudication (but an adjudicated invalid result claim: an other win and a lost claim), else
/// an other win and the loser's result type; a draw counts its type for both (a drawn time
/// forfeit is `Time` for both), a draw by the rules by its words.
pub fn counted(game: &MatchGame) -> [Option<Counted>; 2] {
    let words = ending_words(game, Tool::Cutechess);
    let kind = match &game.termination {
        None => match game.record.outcome {
            Outcome::Win(_) => ResultType::Win,
            Outcome::Draw => ResultType::Draw,
            Outcome::Unfinished => ResultType::NoResult,
        },
        Some(termination) => match termination {
            Termination::PlyLimit
            | Termination::Adjudication(_)
            | Termination::Tablebase
            | Termination::FalseClaim(..) => ResultType::Adjudication,
            Termination::TimeForfeit(..) => ResultType::Timeout,
            Termination::IllegalMove(..) => ResultType::IllegalMove,
            Termination::Crash(_) | Termination::StartFailure(..) => ResultType::Disconnection,
            Termination::Hang(_) => ResultType::StalledConnection,
            Termination::Interrupted => ResultType::NoResult,
            Termination::Resignation(_) => ResultType::Resignation,
        },
    };
    let loss = |kind: ResultType| match kind {
        ResultType::Timeout => Some(Counted::TimeForfeit),
        ResultType::IllegalMove => Some(Counted::IllegalMove),
        ResultType::Disconnection => Some(Counted::Disconnection),
        ResultType::StalledConnection => Some(Counted::StalledConnection),
        ResultType::Adjudication => Some(Counted::Adjudication),
        _ => None,
    };
    match game.record.outcome {
        Outcome::Unfinished => [None, None],
        Outcome::Draw => {
            let draw = match kind {
                ResultType::Draw => Some(draw_by_words(&words)),
                other => loss(other),
            };
            [draw, draw]
        }
        Outcome::Win(winner) => {
            let (won, lost) = match kind {
                ResultType::Adjudication if words.contains("result claim") => {
                    (Counted::OtherWin, Some(Counted::InvalidResultClaim))
                }
                ResultType::Win | ResultType::Resignation | ResultType::Adjudication => {
                    (Counted::RegularWin, Some(Counted::RegularLoss))
                }
                other => (Counted::OtherWin, loss(other)),
            };
            match winner {
                Color::White => [Some(won), lost],
                Color::Black => [lost, Some(won)],
            }
        }
    }
}

/// A draw by the rules, by cutechess's words for it.
fn draw_by_words(words: &str) -> Counted {
    [
        ("stalemate", Counted::Stalemate),
        ("material", Counted::InsufficientMaterial),
        ("repetition", Counted::Repetition),
        ("moves rule", Counted::MovesRule),
        ("counting rules", Counted::CountingRules),
    ]
    .iter()
    .find(|(part, _)| words.contains(part))
    .map_or(Counted::OtherDraw, |(_, counted)| *counted)
}

/// cutechess's `TimeControl::toString()`, the `TC` field: `inf`, `0.5/move`, `40/60+0.6`.
pub fn time_control(tc: &TimeControl) -> String {
    match tc.pace {
        Pace::Infinite => "inf".into(),
        Pace::MoveTime(time) => format!("{}/move", shortest(time.as_secs_f64())),
        Pace::Clock {
            moves,
            base,
            increment,
        } => {
            let mut text = String::new();
            if moves > 0 {
                text.push_str(&format!("{moves}/"));
            }
            text.push_str(&qt_general(base.as_secs_f64(), 6));
            if !increment.is_zero() {
                text.push_str(&format!("+{}", qt_general(increment.as_secs_f64(), 6)));
            }
            text
        }
    }
}

/// What `cutechess-cli -resultformat help` prints: the named formats, the field tokens and the
/// groups, in cutechess-cli's words and order.
pub fn help() -> String {
    let mut text = String::from(
        "\nOption -resultformat accepts a comma separated list of fields or one of following \
         format names:\n\n",
    );
    for (name, list) in NAMED {
        text.push_str(&format!("{name} \n   {list}\n"));
    }
    text.push_str("\nField tokens:\n  ");
    for (token, _) in TOKENS {
        text.push_str(&format!(" {token}"));
    }
    text.push_str(" \n\nNamed shortcuts:\n");
    for (name, list) in GROUPS {
        text.push_str(&format!("{name} \n   {list}\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(format: &ResultFormat) -> String {
        format
            .fields()
            .iter()
            .map(|field| field.header().trim().to_string())
            .collect::<Vec<_>>()
            .join(",")
    }

    #[test]
    fn named_formats_groups_and_unknown_tokens() {
        assert_eq!(
            tokens(&ResultFormat::default()),
            "Rank,Name,Elo,+/-,Games,Score,Draw"
        );
        assert_eq!(
            tokens(&ResultFormat::parse("  short \n")),
            "Rank,Name,Elo,Games"
        );
        // Unknown tokens, tokens without data and empty ones print nothing; spaces inside a
        // token are removed; a group's name is replaced wherever it stands.
        assert_eq!(
            tokens(&ResultFormat::parse(
                "Rank, Na me,,Bogus,LOS,wElo,xTerminations,WLDStats"
            )),
            "Rank,Name,Illegal,Discon,Stall,WrClaim,Wins,Losses,Draws,Points,Score,WWins,\
             WLoss.,WDraws,White,BWins,BLoss.,BDraws,Black"
        );
        // Named formats are matched whole, case and all.
        assert_eq!(tokens(&ResultFormat::parse("Short")), "");
        assert!(!ResultFormat::parse("wide2").fields().is_empty());
        assert!(ResultFormat::parse("wide2").needs_each_game());
        assert!(!ResultFormat::parse("wide").needs_each_game());
        assert!(ResultFormat::parse("Name,DAdj").needs_each_game());
    }

    #[test]
    fn headers_have_cutechesss_widths() {
        let headers: String = ResultFormat::parse("Rank,Name,Points,TC,wL,OtherD")
            .fields()
            .iter()
            .map(|field| field.header())
            .collect();
        assert_eq!(
            headers,
            format!("Rank {:<25}   Points {:>14}  WLoss.  OtherD ", "Name", "TC")
        );
    }

    #[test]
    fn every_outcome_count_has_its_token() {
        let counts: Vec<&str> = TOKENS
            .iter()
            .filter(|(_, field)| matches!(field, Some(Field::Count(_))))
            .map(|(token, _)| *token)
            .collect();
        assert_eq!(counts.len(), Counted::COUNT);
        assert!(TOKENS.windows(2).all(|pair| pair[0].0 < pair[1].0));
        assert!(NAMED.windows(2).all(|pair| pair[0].0 < pair[1].0));
    }
}
