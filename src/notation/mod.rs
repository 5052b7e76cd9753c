//! Notation for people and files: SAN moves ([`san`]), PGN games ([`pgn`]) and the classic
//! board representations ([`boards`]); Polyglot opening books ([`polyglot`]); moves as the xboard protocol writes them ([`xboard`]). EPD lines are [`crate::position::epd`], beside FEN.
//!
//! Both sit on top of the rules core: every move read is checked against the legal moves of its
//! position, and every move written must be legal. Moves stay king-takes-rook inside; SAN's
//! `O-O`/`O-O-O` is decided here, the same way for standard chess and Chess960. UCI text is
//! [`crate::notation::uci`]'s job, not this module's.

pub mod boards;
pub mod pgn;
pub mod polyglot;
pub mod san;
pub mod uci;
pub mod xboard;
