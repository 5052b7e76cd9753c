//! The one door from the exact random-game walk (`crate::perft::exact`) into the counting path:
//! the board, its moves and the generator, named outside this module. Nothing here counts; the
//! exact walk calls the board's own moves (`Board::after_piece` and the like).

pub(crate) use super::board::{Board, Rules};
pub(crate) use super::key::Numbers;
#[cfg(target_arch = "x86_64")]
pub(crate) use super::tier::Bmi2;
pub(crate) use super::tier::{Portable, Tier};
pub(crate) use super::{generate, king_danger, open_castles, passed, pawn_targets};
pub(crate) use super::{Black, Side, Visit, White};
