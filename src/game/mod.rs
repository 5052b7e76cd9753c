//! A game: a start position and the moves played from it, with every position's key kept so that
//! repetitions are found by FIDE's definition of "the same position".
//!
//! It knows the rules that end a game (checkmate, stalemate, fivefold repetition, the 75-move
//! rule, dead positions by insufficient material) and the draws a player may claim (threefold
//! repetition, the 50-move rule). It does not decide whether a claim is made; callers do.

mod outcome;
mod record;

pub use outcome::{DrawClaim, Ending, Finish, Outcome, Status};
pub use record::GameRecord;

use crate::movegen::MoveList;
use crate::{Bitboard, Move, PieceKind, Position};

/// A start position, the moves played, and the key of every position reached.
///
/// A game of uniformly random legal moves, played to its end (every game ends: the 75-move rule
/// at the latest):
///
/// ```
/// use rand::rngs::SmallRng;
/// use rand::{Rng, SeedableRng};
/// use shannon::game::{Ending, Game};
/// use shannon::Position;
///
/// let mut rng = SmallRng::seed_from_u64(1950);
/// let mut game = Game::new(Position::startpos());
/// let ending = loop {
///     if let Some(ending) = game.ending() {
///         break ending;
///     }
///     let moves = game.legal_moves();
///     game.play(moves[rng.random_range(0..moves.len())]);
/// };
/// // No move is left exactly when the game ended in mate or stalemate.
/// let no_move = matches!(ending, Ending::Checkmate { .. } | Ending::Stalemate);
/// assert_eq!(game.legal_moves().is_empty(), no_move);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    keys: Vec<u64>,
    current: Position,
}

impl Game {
    /// A game with no moves yet.
    pub fn new(start: Position) -> Game {
        Game {
            keys: vec![start.key()],
            current: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// `moves` (each legal where it is played) played from `start`.
    pub fn replay(start: &Position, moves: &[Move]) -> Game {
        let mut game = Game::new(start.clone());
        game.moves.reserve(moves.len());
        game.keys.reserve(moves.len());
        for &mv in moves {
            game.play(mv);
        }
        game
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Play `mv`, which must be legal in the current position.
    pub fn play(&mut self, mv: Move) {
        let _ = self.current.make(mv);
        self.moves.push(mv);
        self.keys.push(self.current.key());
    }

    /// How many times the current position has occurred, this time included. Only positions
    /// since the last capture or pawn move can repeat it, so the scan stops there.
    pub fn repetitions(&self) -> usize {
        let last = self.keys.len() - 1;
        let clock = self.current.halfmove_clock() as usize;
        1 + self.earlier_occurrences(self.current.key(), last, clock)
    }

    /// How many of the positions before index `at` of the key history, no further back than
    /// `reversible` plies (the halfmove clock there) and with the same side to move, have `key`.
    /// Two plies back is never the same position: both sides have moved once since.
    fn earlier_occurrences(&self, key: u64, at: usize, reversible: usize) -> usize {
        (4..=reversible.min(at))
            .step_by(2)
            .filter(|&back| self.keys[at - back] == key)
            .count()
    }

    /// What the rules say about the current position. `legal_moves` is the number of legal moves
    /// in the current position (callers usually have it already). Checkmate and stalemate come
    /// first, so mate on the move that reaches the 75-move limit stands.
    pub fn status_with(&self, legal_moves: usize) -> Status {
        let pos = &self.current;
        if legal_moves == 0 {
            return Status::Over(if pos.in_check() {
                Ending::Checkmate {
                    winner: !pos.side_to_move(),
                }
            } else {
                Ending::Stalemate
            });
        }
        if is_insufficient_material(pos) {
            return Status::Over(Ending::InsufficientMaterial);
        }
        if pos.halfmove_clock() >= 150 {
            return Status::Over(Ending::SeventyFiveMoveRule);
        }
        let repetitions = self.repetitions();
        if repetitions >= 5 {
            Status::Over(Ending::FivefoldRepetition)
        } else if repetitions >= 3 {
            Status::Claimable(DrawClaim::ThreefoldRepetition)
        } else if pos.halfmove_clock() >= 100 {
            Status::Claimable(DrawClaim::FiftyMoveRule)
        } else {
            Status::Ongoing
        }
    }

    /// What the rules say about the current position (see [`Game::status_with`]).
    pub fn status(&self) -> Status {
        self.status_with(self.current.count_legal_moves() as usize)
    }

    /// The rule that ends the game now, if any.
    pub fn ending(&self) -> Option<Ending> {
        match self.status() {
            Status::Over(ending) => Some(ending),
            _ => None,
        }
    }

    /// A draw the side to move could claim now, if any (none once the game has ended).
    pub fn claimable_draw(&self) -> Option<DrawClaim> {
        match self.status() {
            Status::Claimable(claim) => Some(claim),
            _ => None,
        }
    }

    /// A draw the side to move may claim by announcing one of `legal` (the current position's
    /// legal moves) as the move it is about to play: FIDE 9.2.1 (the move produces the third
    /// occurrence of a position) and 9.3.1 (after the move, 50 moves by each side without a
    /// capture or pawn move). Threefold repetition is looked for first; see
    /// [`Game::move_allowing`].
    pub fn claim_by_move(&self, legal: &[Move]) -> Option<(Move, DrawClaim)> {
        [DrawClaim::ThreefoldRepetition, DrawClaim::FiftyMoveRule]
            .into_iter()
            .find_map(|claim| self.move_allowing(claim, legal).map(|mv| (mv, claim)))
    }

    /// The first of `legal` (the current position's legal moves) after which `claim` could be
    /// made by announcing that move. A move that mates or stalemates ends the game instead, so
    /// it allows no 50-move claim (as in python-chess's `can_claim_fifty_moves`).
    pub fn move_allowing(&self, claim: DrawClaim, legal: &[Move]) -> Option<Move> {
        let clock = self.current.halfmove_clock() as usize;
        match claim {
            DrawClaim::ThreefoldRepetition => {
                // A third occurrence needs the two earlier ones at least 4 and 8 reversible
                // plies before the new position.
                if clock + 1 < 8 {
                    return None;
                }
                // The new position would stand at index `keys.len()` of the history.
                let at = self.keys.len();
                legal.iter().copied().find(|&mv| {
                    let next = self.current.play(mv);
                    let clock = next.halfmove_clock() as usize;
                    self.earlier_occurrences(next.key(), at, clock) >= 2
                })
            }
            DrawClaim::FiftyMoveRule => {
                if clock + 1 < 100 {
                    return None;
                }
                legal.iter().copied().find(|&mv| {
                    let next = self.current.play(mv);
                    next.halfmove_clock() >= 100 && next.count_legal_moves() > 0
                })
            }
        }
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self) -> MoveList {
        self.current.legal_moves()
    }
}

/// True when neither side can ever mate: only kings and at most one minor piece, or only kings
/// and bishops that all stand on squares of one colour.
pub fn is_insufficient_material(pos: &Position) -> bool {
    insufficient_material(|kind| pos.kind_bb(kind))
}

/// [`is_insufficient_material`] of the position whose pieces of each kind (both colours) `kind`
/// gives, for boards that are not a [`Position`].
pub fn insufficient_material(kind: impl Fn(PieceKind) -> Bitboard) -> bool {
    let heavy_or_pawns = kind(PieceKind::Pawn) | kind(PieceKind::Rook) | kind(PieceKind::Queen);
    if !heavy_or_pawns.is_empty() {
        return false;
    }
    let knights = kind(PieceKind::Knight);
    let bishops = kind(PieceKind::Bishop);
    if (knights | bishops).count() <= 1 {
        return true;
    }
    knights.is_empty()
        && ((bishops & Bitboard::LIGHT).is_empty() || (bishops & !Bitboard::LIGHT).is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::uci::parse_move;
    use crate::Color;

    fn play(game: &mut Game, moves: &str) {
        for text in moves.split_whitespace() {
            let mv = parse_move(game.position(), text).unwrap();
            game.play(mv);
        }
    }

    #[test]
    fn knight_shuffles_repeat() {
        let mut game = Game::new(Position::startpos());
        assert_eq!(game.repetitions(), 1);
        play(&mut game, "g1f3 g8f6 f3g1 f6g8");
        assert_eq!(game.repetitions(), 2);
        play(&mut game, "g1f3 g8f6 f3g1 f6g8");
        assert_eq!(game.claimable_draw(), Some(DrawClaim::ThreefoldRepetition));
        assert_eq!(game.ending(), None);
        play(&mut game, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
        assert_eq!(game.ending(), Some(Ending::FivefoldRepetition));
    }

    #[test]
    fn threefold_can_be_claimed_by_announcing_the_move() {
        let mut game = Game::new(Position::startpos());
        play(&mut game, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        // The start position has occurred twice; f6g8 would make it three times.
        assert_eq!(game.claimable_draw(), None);
        let legal = game.legal_moves();
        let (mv, claim) = game.claim_by_move(&legal).unwrap();
        assert_eq!(claim, DrawClaim::ThreefoldRepetition);
        assert_eq!(mv, parse_move(game.position(), "f6g8").unwrap());
        play(&mut game, "e7e5");
        let legal = game.legal_moves();
        assert_eq!(game.claim_by_move(&legal), None);
    }

    #[test]
    fn fifty_moves_can_be_claimed_by_announcing_the_move() {
        let game = Game::new(Position::from_fen("4k3/8/8/8/8/8/4P3/4K2R w - - 99 80").unwrap());
        let legal = game.legal_moves();
        let (mv, claim) = game.claim_by_move(&legal).unwrap();
        assert_eq!(claim, DrawClaim::FiftyMoveRule);
        assert_eq!(game.position().play(mv).halfmove_clock(), 100, "{mv:?}");
        let early = Game::new(Position::from_fen("4k3/8/8/8/8/8/4P3/4K2R w - - 98 80").unwrap());
        assert_eq!(early.claim_by_move(&early.legal_moves()), None);
    }

    #[test]
    fn light_squares_mask_marks_exactly_the_light_squares() {
        // The mask `is_insufficient_material` uses (not a copy of it): h1 is light, a1 is not.
        for sq in crate::Square::ALL {
            assert_eq!(Bitboard::LIGHT.contains(sq), sq.is_light(), "{sq}");
        }
    }

    #[test]
    fn dead_positions() {
        let dead = [
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
            "8/8/8/4k3/8/8/8/4KN2 w - - 0 1",
            "8/8/8/4k3/8/8/8/4KB2 w - - 0 1",
            "8/8/2b5/4k3/8/8/8/4KB2 w - - 0 1",
        ];
        for fen in dead {
            assert!(
                is_insufficient_material(&Position::from_fen(fen).unwrap()),
                "{fen}"
            );
        }
        let alive = [
            "8/8/8/4k3/8/8/8/3NKN2 w - - 0 1",
            "8/8/3b4/4k3/8/8/8/4KB2 w - - 0 1",
            "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
            "8/8/8/4kn2/8/8/8/4KB2 w - - 0 1",
        ];
        for fen in alive {
            assert!(
                !is_insufficient_material(&Position::from_fen(fen).unwrap()),
                "{fen}"
            );
        }
    }

    #[test]
    fn mate_on_the_last_move_beats_the_75_move_rule() {
        // Black is mated and the clock says 150: the mate stands.
        let pos = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 150 100").unwrap();
        let game = Game::new(pos);
        assert_eq!(
            game.ending(),
            Some(Ending::Checkmate {
                winner: Color::White
            })
        );
    }

    #[test]
    fn en_passant_counts_for_repetition_only_when_legal() {
        // After 1.e4 the en passant square e3 exists but no black pawn can use it, so the
        // position is the same as one without it.
        let with_ep = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
        let without = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(with_ep.key(), without.key());
        let capturable = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
        let not = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").unwrap();
        assert_ne!(capturable.key(), not.key());
    }
}
