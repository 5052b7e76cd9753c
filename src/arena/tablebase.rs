//! Tablebase adjudication: a game ends once the Syzygy tables know its result, as fastchess
//! (`-tb -tbpieces -tbignore50 -tbadjudicate`) and cutechess-cli (`-tb -tbpieces -tbignore50`)
//! end it. The two tools ask at different moments, so a run follows its form's tool:
//!
//! - fastchess (and Shannon's own form) asks before every move, the game's first included, once
//!   the rules have not ended the game: only a position just after a capture or a pawn move
//!   (fifty-move counter 0; a position the opening leaves with counter 0 too), without castling
//!   rights, of at most `-tbpieces` pieces (0: any) and at most the tables' largest. It probes
//!   the WDL tables (`app/src/matchmaking/syzygy.cpp`), and `-tbadjudicate` says which results
//!   end the game.
//! - cutechess-cli asks after every move a player makes (not the opening's moves), once the
//!   rules have not ended the game, at any fifty-move counter: a position without castling
//!   rights, of at most 7 pieces and `-tbpieces` (not the tables' largest: Fathom answers a
//!   position of more pieces when captures into the tables decide every line). It probes the
//!   DTZ tables at the root (Fathom's `tb_probe_root`, `projects/lib/src/board/
//!   syzygytablebase.cpp`), whose value counts the fifty-move counter: a win whose distance to
//!   zeroing and counter add up to more than 100 plies is a cursed win. Shannon runs the same
//!   probe ([`Tablebase::probe_root`]), which fails where Fathom's does (a DTZ or WDL table
//!   missing, a position it cannot decide).
//!
//! Both tools count a cursed win and a blessed loss (decided by the fifty-move rule) as draws,
//! and as wins and losses with `-tbignore50`. A probe that fails (a table missing or damaged)
//! adjudicates nothing; a damaged table is warned of once. Both tools write `... wins by
//! adjudication: SyzygyTB` and `Draw by adjudication: SyzygyTB`.

use super::dialect::Dialect;
use crate::game::{Game, Outcome};
use crate::tablebase::{ProbeError, RootProbe, Tablebase, TablebaseError, Wdl};
use crate::Color;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

/// cutechess-cli probes no position of more pieces than this (`StandardBoard::tablebaseResult`).
const CUTECHESS_MAX_PIECES: usize = 7;

/// Which of the tables' results end a game (fastchess's `-tbadjudicate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TbResults {
    /// Wins and losses only (`WIN_LOSS`).
    WinLoss,
    /// Draws only (`DRAW`).
    Draw,
    /// Every result (`BOTH`, the default).
    #[default]
    Both,
}

impl TbResults {
    fn is_both(&self) -> bool {
        *self == TbResults::Both
    }

    /// Whether a game ending in `outcome` is ended.
    fn takes(self, outcome: Outcome) -> bool {
        match outcome {
            Outcome::Win(_) => self != TbResults::Draw,
            Outcome::Draw => self != TbResults::WinLoss,
            Outcome::Unfinished => false,
        }
    }
}

/// A `--tb-adjudicate` word that is none of `win-loss`, `draw`, `both`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TbResultsError(pub String);

impl fmt::Display for TbResultsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a tablebase result to adjudicate (win-loss, draw or both)",
            self.0
        )
    }
}

impl std::error::Error for TbResultsError {}

impl FromStr for TbResults {
    type Err = TbResultsError;

    fn from_str(text: &str) -> Result<TbResults, TbResultsError> {
        match text {
            "win-loss" => Ok(TbResults::WinLoss),
            "draw" => Ok(TbResults::Draw),
            "both" => Ok(TbResults::Both),
            _ => Err(TbResultsError(text.to_string())),
        }
    }
}

impl fmt::Display for TbResults {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TbResults::WinLoss => "win-loss",
            TbResults::Draw => "draw",
            TbResults::Both => "both",
        })
    }
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// Tablebase adjudication as asked: what a state file keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TablebaseRule {
    /// The folders of Syzygy tables (the first folder's table wins when two hold one).
    pub paths: Vec<PathBuf>,
    /// Positions of more pieces than this are not probed (`None`: as many as the tables hold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_pieces: Option<u32>,
    /// A cursed win and a blessed loss count as a win and a loss (`-tbignore50`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub ignore_50: bool,
    /// Which results end a game.
    #[serde(default, skip_serializing_if = "TbResults::is_both")]
    pub results: TbResults,
}

/// When and how a run asks the tables: its form's tool's way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probing {
    /// Before every move, at fifty-move counter 0 only (fastchess, and Shannon's own form).
    BeforeMove,
    /// After every move a player makes, at any counter (cutechess-cli).
    AfterMove,
}

impl Probing {
    /// The way a run in `dialect` (`None`: Shannon's own form) probes.
    pub fn of(dialect: Option<Dialect>) -> Probing {
        match dialect {
            Some(Dialect::Cutechess) => Probing::AfterMove,
            Some(Dialect::Fastchess) | None => Probing::BeforeMove,
        }
    }
}

/// Why tablebase adjudication cannot be set up.
#[derive(Debug, Clone)]
pub enum TablebaseSettingError {
    /// The folders cannot be opened, or a table in them is unusable (the error names it).
    Open(TablebaseError),
    /// `--tb-pieces` asks for more pieces than any table in the folders holds.
    TooManyPieces {
        /// As asked.
        asked: u32,
        /// The most pieces of any table found.
        largest: usize,
        /// The folders.
        paths: Vec<PathBuf>,
    },
    /// Fewer than 3 pieces asked: no table holds them.
    TooFewPieces(u32),
}

impl fmt::Display for TablebaseSettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseSettingError::Open(e) => write!(f, "tablebase adjudication: {e}"),
            TablebaseSettingError::TooManyPieces {
                asked,
                largest,
                paths,
            } => {
                let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "tablebase adjudication of positions of up to {asked} pieces, but the tables \
                     in {} hold at most {largest}",
                    names.join(", ")
                )
            }
            TablebaseSettingError::TooFewPieces(n) => write!(
                f,
                "tablebase adjudication of positions of up to {n} pieces: the tables start at 3"
            ),
        }
    }
}

impl std::error::Error for TablebaseSettingError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TablebaseSettingError::Open(e) => Some(e),
            _ => None,
        }
    }
}

/// The tables of a run, opened, and the rule it adjudicates by: shared by the run's workers.
#[derive(Debug)]
pub struct TablebaseJudge {
    tables: Tablebase,
    rule: TablebaseRule,
    probing: Probing,
    /// The problems already warned of (one warning each).
    warned: Mutex<HashSet<String>>,
}

impl TablebaseJudge {
    /// Open the tables of `rule` for a run that probes as `probing` says. A `max_pieces` above
    /// what the tables hold is an error when `strict` (Shannon's own form), else taken as both
    /// tools take it: with a warning before moves (fastchess probes what the tables hold), as
    /// it is after moves (cutechess-cli's prober answers some positions of more pieces).
    pub fn open(
        rule: TablebaseRule,
        probing: Probing,
        strict: bool,
    ) -> Result<Arc<TablebaseJudge>, TablebaseSettingError> {
        let tables = Tablebase::open(&rule.paths).map_err(TablebaseSettingError::Open)?;
        if let Some(asked) = rule.max_pieces {
            if asked < 3 && strict {
                return Err(TablebaseSettingError::TooFewPieces(asked));
            }
            if asked as usize > tables.max_pieces() {
                let error = TablebaseSettingError::TooManyPieces {
                    asked,
                    largest: tables.max_pieces(),
                    paths: rule.paths.clone(),
                };
                if strict {
                    return Err(error);
                }
                // cutechess-cli's prober may answer positions of more pieces: no warning.
                if probing == Probing::BeforeMove {
                    log::warn!("{error}: positions of more pieces are not adjudicated");
                }
            }
        }
        Ok(Arc::new(TablebaseJudge {
            tables,
            rule,
            probing,
            warned: Mutex::new(HashSet::new()),
        }))
    }

    /// The tables.
    pub fn tables(&self) -> &Tablebase {
        &self.tables
    }

    /// The result the tables give `game` now, before the side to move plays, when the run
    /// probes before moves (fastchess's `Match::adjudicate`): `None` when it does not, when the
    /// position is not one to probe, when the probe fails, or when the result is not one that
    /// ends games.
    pub fn before_move(&self, game: &Game) -> Option<Outcome> {
        if self.probing != Probing::BeforeMove {
            return None;
        }
        let pos = game.position();
        if pos.halfmove_clock() != 0 || !pos.castling_rights().is_empty() {
            return None;
        }
        let pieces = pos.occupied().count() as usize;
        if pieces > self.tables.max_pieces() || !self.within_limit(pieces) {
            return None;
        }
        let wdl = self.probe(game)?;
        let outcome = self.outcome(wdl, pos.side_to_move());
        self.rule.results.takes(outcome).then_some(outcome)
    }

    /// The result the tables give `game` just after a player's move, when the run probes after
    /// moves (cutechess-cli's `GameAdjudicator::addEval`, with Fathom's root probe): `None` as
    /// for [`TablebaseJudge::before_move`].
    pub fn after_move(&self, game: &Game) -> Option<Outcome> {
        if self.probing != Probing::AfterMove {
            return None;
        }
        let pos = game.position();
        if !pos.castling_rights().is_empty() {
            return None;
        }
        let pieces = pos.occupied().count() as usize;
        if pieces > CUTECHESS_MAX_PIECES || !self.within_limit(pieces) {
            return None;
        }
        let mover = pos.side_to_move();
        match self.tables.probe_root(pos) {
            Ok(RootProbe::Checkmate) => Some(Outcome::Win(!mover)),
            Ok(RootProbe::Stalemate) => Some(Outcome::Draw),
            Ok(RootProbe::Value { wdl, .. }) => Some(self.outcome(wdl, mover)),
            Err(e) => {
                self.failed(e);
                None
            }
        }
    }

    /// `-tbpieces`: fastchess's 0 is no limit; cutechess-cli takes only values above 2.
    fn within_limit(&self, pieces: usize) -> bool {
        match self.rule.max_pieces {
            Some(max) if max > 0 => pieces <= max as usize,
            _ => true,
        }
    }

    /// The probe, or `None` when it fails (a damaged table warned of once).
    fn probe(&self, game: &Game) -> Option<Wdl> {
        self.tables
            .probe_wdl(game.position())
            .map_err(|e| self.failed(e))
            .ok()
    }

    /// A probe failed: nothing is adjudicated, and a damaged table is warned of once.
    fn failed(&self, error: ProbeError) {
        if let ProbeError::Table(e) = error {
            let key = e.path.display().to_string();
            self.warn_once(
                key,
                format!("tablebase adjudication: {e}; its positions are not adjudicated"),
            );
        }
    }

    fn warn_once(&self, key: String, text: String) {
        let mut warned = self.warned.lock().unwrap_or_else(|e| e.into_inner());
        if warned.insert(key) {
            log::warn!("{text}");
        }
    }

    /// The game's result from `wdl`, the value for `mover`: a cursed win and a blessed loss
    /// are draws unless the fifty-move rule is ignored.
    fn outcome(&self, wdl: Wdl, mover: Color) -> Outcome {
        let ignore = self.rule.ignore_50;
        match wdl {
            Wdl::Win => Outcome::Win(mover),
            Wdl::CursedWin if ignore => Outcome::Win(mover),
            Wdl::Loss => Outcome::Win(!mover),
            Wdl::BlessedLoss if ignore => Outcome::Win(!mover),
            Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => Outcome::Draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_words_and_what_they_take() {
        for results in [TbResults::WinLoss, TbResults::Draw, TbResults::Both] {
            assert_eq!(results.to_string().parse::<TbResults>(), Ok(results));
        }
        assert!("WIN_LOSS".parse::<TbResults>().is_err());
        let win = Outcome::Win(Color::Black);
        assert!(TbResults::WinLoss.takes(win) && !TbResults::WinLoss.takes(Outcome::Draw));
        assert!(!TbResults::Draw.takes(win) && TbResults::Draw.takes(Outcome::Draw));
        assert!(TbResults::Both.takes(win) && TbResults::Both.takes(Outcome::Draw));
    }

    #[test]
    fn the_rule_is_saved_without_its_defaults() {
        let rule = TablebaseRule {
            paths: vec!["syzygy".into()],
            max_pieces: None,
            ignore_50: false,
            results: TbResults::Both,
        };
        let text = serde_json::to_string(&rule).unwrap();
        assert_eq!(text, r#"{"paths":["syzygy"]}"#);
        assert_eq!(serde_json::from_str::<TablebaseRule>(&text).unwrap(), rule);
    }

    #[test]
    fn each_form_probes_its_tool_s_way() {
        assert_eq!(Probing::of(None), Probing::BeforeMove);
        assert_eq!(Probing::of(Some(Dialect::Fastchess)), Probing::BeforeMove);
        assert_eq!(Probing::of(Some(Dialect::Cutechess)), Probing::AfterMove);
    }
}
