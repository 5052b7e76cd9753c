//! Distances to zeroing: the DTZ probe ([`probe_dtz`], python-chess's values) and Fathom's root
//! probe ([`probe_root`], cutechess-cli's adjudication), one algorithm in two flavours.
//!
//! A DTZ table stores one side to move, and for a position where a capture or pawn move is best
//! it stores anything; so a probe first finds the WDL value by the capture search, answers at
//! once when a zeroing move keeps it (distance 1, or 101 for a cursed win), reads the table when
//! it holds the side to move, and else searches one ply of the other moves, whose distances the
//! table holds. En passant captures are considered last, as the tables hold no en passant right.
//! This is the reference prober's algorithm (Ronald de Man's), as Fathom and python-chess carry
//! it, written anew over Shannon's move generator. The two differ in two places, both kept:
//! Fathom's capture search also plays promotions, in its own move order (which decides, when a
//! table is missing, whether a probe fails before it finds a winning capture), and python-chess
//! counts a mate in one found by the one-ply search as 1 ply where Fathom counts 2.
//!
//! Not reproduced: Fathom keeps the fifty-move counter in a byte, so a counter of 255 wraps; a
//! game is over by then.

use super::error::ProbeError;
use super::probe::{is_capture, table_value};
use super::{Tablebase, Wdl};
use crate::attacks::pawn_attacks;
use crate::{Move, MoveKind, PieceKind, Position};
use std::fmt;

/// A distance to zeroing (the next capture or pawn move), in plies, for the side to move: as
/// python-chess's `probe_dtz` and Fathom give it. Positive when the side to move wins, negative
/// when it loses, 0 for a draw; a value beyond 100 (or below -100) is a win (a loss) that the
/// fifty-move rule draws when counted from a capture or pawn move. It can be one ply too long
/// (the tables round where that changes no result).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dtz(i32);

impl Dtz {
    /// The distance from its number of plies (signed as above).
    pub const fn new(plies: i32) -> Dtz {
        Dtz(plies)
    }

    /// The number of plies, signed: positive when the side to move wins.
    pub const fn plies(self) -> i32 {
        self.0
    }

    /// The WDL value just after a capture or pawn move (fifty-move counter 0).
    pub const fn wdl(self) -> Wdl {
        self.wdl_at(0)
    }

    /// The WDL value with the fifty-move counter at `counter` plies, as Fathom's `dtz_to_wdl`
    /// computes it: a win or a loss whose distance and counter add up to more than 100 plies
    /// is a cursed win or a blessed loss.
    pub const fn wdl_at(self, counter: u32) -> Wdl {
        let distance = self.0.unsigned_abs() as u64 + counter as u64;
        if self.0 > 0 {
            if distance <= 100 {
                Wdl::Win
            } else {
                Wdl::CursedWin
            }
        } else if self.0 < 0 {
            if distance <= 100 {
                Wdl::Loss
            } else {
                Wdl::BlessedLoss
            }
        } else {
            Wdl::Draw
        }
    }
}

impl fmt::Display for Dtz {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// What Fathom's root probe (`tb_probe_root`) says of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootProbe {
    /// The side to move is checkmated (or, as Fathom decides it, lost with no losing move).
    Checkmate,
    /// The side to move is stalemated (or drawn with no drawing move).
    Stalemate,
    /// The position's distance to zeroing, and its value with the position's fifty-move
    /// counter counted ([`Dtz::wdl_at`]).
    Value {
        /// The distance.
        dtz: Dtz,
        /// The value with the counter.
        wdl: Wdl,
    },
}

/// Which prober's ways to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flavour {
    /// python-chess 1.11.2's `probe_dtz`.
    PythonChess,
    /// Fathom as cutechess-cli 1.5.1 carries it.
    Fathom,
}

/// "The best is none yet" of Fathom's one-ply search of a won position.
const BEST_NONE: i32 = 0xffff;

/// The distance of a zeroing move into each WDL value (by WDL + 2), as the reference gives it.
const WDL_TO_DTZ: [i32; 5] = [-1, -101, 0, 101, 1];

/// python-chess's `probe_dtz`: see [`Tablebase::probe_dtz`].
pub(super) fn probe_dtz(tb: &Tablebase, pos: &Position) -> Result<Dtz, ProbeError> {
    Prober {
        tb,
        flavour: Flavour::PythonChess,
    }
    .dtz(pos)
    .map(Dtz)
}

/// Fathom's `tb_probe_root`: see [`Tablebase::probe_root`].
pub(super) fn probe_root(tb: &Tablebase, pos: &Position) -> Result<RootProbe, ProbeError> {
    Prober {
        tb,
        flavour: Flavour::Fathom,
    }
    .root(pos)
}

/// The order Fathom generates a move in: king, queens, rooks, bishops, knights, pawns; each
/// piece by its square from a1; a pawn's en passant capture first, then (`captures_first`, its
/// capture generator) its captures before its push, else its moves by target square; the
/// promotions to queen, knight, rook, bishop.
fn fathom_order(pos: &Position, mv: Move, captures_first: bool) -> (u8, u8, u8, u8, u8) {
    let kind = pos.piece_at(mv.from()).map_or(PieceKind::Pawn, |p| p.kind);
    let class = match kind {
        PieceKind::King => 0,
        PieceKind::Queen => 1,
        PieceKind::Rook => 2,
        PieceKind::Bishop => 3,
        PieceKind::Knight => 4,
        PieceKind::Pawn => 5,
    };
    let group = match mv.kind() {
        MoveKind::EnPassant => 0,
        _ if captures_first && !is_capture(pos, mv) => 2,
        _ => 1,
    };
    let promotion = match mv.promotion() {
        None | Some(PieceKind::Queen) => 0,
        Some(PieceKind::Knight) => 1,
        Some(PieceKind::Rook) => 2,
        Some(_) => 3,
    };
    (
        class,
        mv.from().index() as u8,
        group,
        mv.to().index() as u8,
        promotion,
    )
}

/// True when `mv` is a capture or a pawn move: the fifty-move counter starts again.
fn is_zeroing(pos: &Position, mv: Move) -> bool {
    is_capture(pos, mv)
        || pos
            .piece_at(mv.from())
            .is_some_and(|p| p.kind == PieceKind::Pawn)
}

/// Whether the position has an en passant square that a pawn of the side to move attacks: the
/// square Fathom's positions carry (set after a double push only then).
fn has_en_passant(pos: &Position) -> bool {
    let us = pos.side_to_move();
    pos.en_passant()
        .is_some_and(|ep| !(pawn_attacks(!us, ep) & pos.pieces(us, PieceKind::Pawn)).is_empty())
}

/// The probes of one flavour.
struct Prober<'a> {
    tb: &'a Tablebase,
    flavour: Flavour,
}

impl Prober<'_> {
    /// The legal moves `keep` takes, in the flavour's order (Fathom's generator's, with
    /// `captures_first` for its capture generator; python-chess's order decides nothing here).
    fn moves(
        &self,
        pos: &Position,
        captures_first: bool,
        keep: impl Fn(Move) -> bool,
    ) -> Vec<Move> {
        let mut moves: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| keep(m))
            .collect();
        if self.flavour == Flavour::Fathom {
            moves.sort_by_key(|&m| fathom_order(pos, m, captures_first));
        }
        moves
    }

    /// The capture search of a position without an en passant right (`probe_ab`): the value,
    /// exact within `alpha..beta`, and 2 when a capture (for Fathom, or a promotion) decides it
    /// (a cut-off, or a winning move at least as good as the table), else 1.
    fn probe_ab(&self, pos: &Position, mut alpha: i8, beta: i8) -> Result<(i8, u8), ProbeError> {
        let fathom = self.flavour == Flavour::Fathom;
        let moves = self.moves(pos, true, |m| {
            m.kind() != MoveKind::EnPassant
                && (is_capture(pos, m) || fathom && m.promotion().is_some())
        });
        for mv in moves {
            let (v, _) = self.probe_ab(&pos.play(mv), -beta, -alpha)?;
            let v = -v;
            if v > alpha {
                if v >= beta {
                    return Ok((v, 2));
                }
                alpha = v;
            }
        }
        let v = table_value(self.tb, pos)?;
        if alpha >= v {
            Ok((alpha, 1 + u8::from(alpha > 0)))
        } else {
            Ok((v, 1))
        }
    }

    /// The best WDL value of the side to move's en passant captures (-3: none is legal).
    fn best_en_passant(&self, pos: &Position) -> Result<i8, ProbeError> {
        let mut best = -3;
        for mv in self.en_passant_captures(pos) {
            let (value, _) = self.probe_ab(&pos.play(mv), -2, 2)?;
            best = best.max(-value);
        }
        Ok(best)
    }

    /// The WDL value with en passant captures considered (`probe_wdl`).
    fn wdl(&self, pos: &Position) -> Result<i8, ProbeError> {
        let (mut v, _) = self.probe_ab(pos, -2, 2)?;
        if !has_en_passant(pos) {
            return Ok(v);
        }
        let v1 = self.best_en_passant(pos)?;
        if v1 > -3 {
            if v1 >= v {
                v = v1;
            } else if v == 0 && self.only_en_passant(pos) {
                // Forced to play the losing en passant capture.
                v = v1;
            }
        }
        Ok(v)
    }

    fn en_passant_captures(&self, pos: &Position) -> Vec<Move> {
        self.moves(pos, false, |m| m.kind() == MoveKind::EnPassant)
    }

    /// True when every legal move is an en passant capture.
    fn only_en_passant(&self, pos: &Position) -> bool {
        pos.legal_moves()
            .iter()
            .all(|m| m.kind() == MoveKind::EnPassant)
    }

    /// The distance of a position as if it had no en passant right (`probe_dtz_no_ep`).
    fn dtz_no_ep(&self, pos: &Position) -> Result<i32, ProbeError> {
        let (wdl, success) = self.probe_ab(pos, -2, 2)?;
        if wdl == 0 {
            return Ok(0);
        }
        if success == 2 {
            return Ok(WDL_TO_DTZ[(wdl + 2) as usize]);
        }
        if wdl > 0 {
            // A pawn move that keeps the value zeroes at once.
            let pawn_moves = self.moves(pos, false, |m| {
                !is_capture(pos, m)
                    && pos
                        .piece_at(m.from())
                        .is_some_and(|p| p.kind == PieceKind::Pawn)
            });
            for mv in pawn_moves {
                let child = pos.play(mv);
                let v = match self.flavour {
                    Flavour::Fathom if !has_en_passant(&child) => {
                        -self.probe_ab(&child, -2, -wdl + 1)?.0
                    }
                    _ => -self.wdl(&child)?,
                };
                if v == wdl {
                    return Ok(WDL_TO_DTZ[(wdl + 2) as usize]);
                }
            }
        }
        if let Some(stored) = self.tb.dtz_table(pos, wdl)? {
            let dtz = WDL_TO_DTZ[(wdl + 2) as usize];
            let stored = stored as i32;
            return Ok(if wdl > 0 { dtz + stored } else { dtz - stored });
        }
        // The table holds the other side to move: one ply of search.
        let moves = self.moves(pos, false, |_| true);
        if wdl > 0 {
            let mut best = BEST_NONE;
            for mv in moves {
                if is_zeroing(pos, mv) {
                    continue;
                }
                let child = pos.play(mv);
                let v = -self.dtz(&child)?;
                if self.flavour == Flavour::PythonChess && v == 1 && is_mate(&child) {
                    best = 1;
                } else if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            }
            Ok(best)
        } else {
            let mut best = -1;
            for mv in moves {
                let child = pos.play(mv);
                let v = if is_zeroing(pos, mv) {
                    if wdl == -2 {
                        -1
                    } else if self.probe_ab(&child, 1, 2)?.0 == 2 {
                        0
                    } else {
                        -101
                    }
                } else {
                    -self.dtz(&child)? - 1
                };
                best = best.min(v);
            }
            Ok(best)
        }
    }

    /// The distance with en passant captures considered (`probe_dtz`).
    fn dtz(&self, pos: &Position) -> Result<i32, ProbeError> {
        let mut v = self.dtz_no_ep(pos)?;
        if !has_en_passant(pos) {
            return Ok(v);
        }
        let v1 = self.best_en_passant(pos)?;
        if v1 > -3 {
            let d1 = WDL_TO_DTZ[(v1 + 2) as usize];
            let take = if v < -100 {
                d1 >= 0
            } else if v < 0 {
                !(-100..0).contains(&d1)
            } else if v > 100 {
                d1 > 0
            } else if v > 0 {
                d1 == 1
            } else {
                d1 >= 0 || self.only_en_passant(pos)
            };
            if take {
                v = d1;
            }
        }
        Ok(v)
    }

    /// Fathom's `tb_probe_root` as cutechess-cli reads it: the position's distance, then every
    /// legal move's, to tell a won position with no move keeping the win (a failure), a lost
    /// one with no move (checkmate) and a drawn one with no drawing move (stalemate).
    fn root(&self, pos: &Position) -> Result<RootProbe, ProbeError> {
        if !fathom_valid(pos) {
            return Err(ProbeError::InvalidPosition);
        }
        let dtz = self.dtz(pos)?;
        let mut scores = Vec::new();
        for mv in self.moves(pos, false, |_| true) {
            let child = pos.play(mv);
            let v = if dtz > 0 && is_mate(&child) {
                1
            } else if !is_zeroing(pos, mv) {
                let v = -self.dtz(&child)?;
                v + v.signum()
            } else {
                WDL_TO_DTZ[(2 - self.wdl(&child)?) as usize]
            };
            scores.push(v);
        }
        if dtz > 0 && !scores.iter().any(|&v| v > 0) {
            return Err(ProbeError::NoWinningMove);
        }
        if dtz < 0 && !scores.iter().any(|&v| v < 0) {
            return Ok(RootProbe::Checkmate);
        }
        if dtz == 0 && !scores.contains(&0) {
            return Ok(RootProbe::Stalemate);
        }
        let dtz = Dtz(dtz);
        Ok(RootProbe::Value {
            dtz,
            wdl: dtz.wdl_at(pos.halfmove_clock()),
        })
    }
}

/// Checkmate: in check with no legal move.
fn is_mate(pos: &Position) -> bool {
    pos.in_check() && pos.legal_moves().is_empty()
}

/// Fathom's `is_valid` on what a [`Position`] can hold: no pawn on the first or last rank, and
/// the side not to move not in check.
fn fathom_valid(pos: &Position) -> bool {
    const BACK_RANKS: u64 = 0xff00_0000_0000_00ff;
    let pawns = pos.kind_bb(PieceKind::Pawn);
    let them = !pos.side_to_move();
    let king = pos.king_square(them);
    let attacked = pos.is_attacked(king, pos.side_to_move(), pos.occupied());
    pawns.0 & BACK_RANKS == 0 && !attacked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_distance_and_a_counter_give_fathom_s_value() {
        assert_eq!(Dtz::new(1).wdl(), Wdl::Win);
        assert_eq!(Dtz::new(100).wdl(), Wdl::Win);
        assert_eq!(Dtz::new(101).wdl(), Wdl::CursedWin);
        assert_eq!(Dtz::new(-100).wdl(), Wdl::Loss);
        assert_eq!(Dtz::new(-101).wdl(), Wdl::BlessedLoss);
        assert_eq!(Dtz::new(0).wdl_at(99), Wdl::Draw);
        assert_eq!(Dtz::new(30).wdl_at(70), Wdl::Win);
        assert_eq!(Dtz::new(30).wdl_at(71), Wdl::CursedWin);
        assert_eq!(Dtz::new(-30).wdl_at(71), Wdl::BlessedLoss);
        assert_eq!(Dtz::new(-53).to_string(), "-53");
    }

    #[test]
    fn fathom_generates_kings_first_and_pawn_captures_before_pushes() {
        let pos = Position::from_fen("3r4/2P1k3/8/8/8/8/8/4K2Q w - - 0 1").unwrap();
        let order = |captures_first| {
            let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
            moves.sort_by_key(|&m| fathom_order(&pos, m, captures_first));
            moves
        };
        let all = order(false);
        assert_eq!(pos.piece_at(all[0].from()).unwrap().kind, PieceKind::King);
        let promotions = |moves: &[Move]| -> Vec<(usize, Option<PieceKind>)> {
            moves
                .iter()
                .filter(|m| m.promotion().is_some())
                .map(|m| (m.to().index(), m.promotion()))
                .collect()
        };
        let (c8, d8) = (58, 59);
        let kinds = [
            PieceKind::Queen,
            PieceKind::Knight,
            PieceKind::Rook,
            PieceKind::Bishop,
        ];
        let expected: Vec<_> = [c8, d8]
            .iter()
            .flat_map(|&to| kinds.map(|k| (to, Some(k))))
            .collect();
        assert_eq!(promotions(&all), expected);
        let captures_first = promotions(&order(true));
        assert_eq!(captures_first[0], (d8, Some(PieceKind::Queen)));
        assert_eq!(captures_first[4], (c8, Some(PieceKind::Queen)));
    }

    #[test]
    fn fathom_s_en_passant_square_needs_an_attacking_pawn() {
        let lone = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
        assert!(!has_en_passant(&lone));
        let attacked = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
        assert!(has_en_passant(&attacked));
    }
}
