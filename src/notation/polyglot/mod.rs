//! Polyglot opening books (`.bin`): the position key of the Polyglot book format, reading a
//! book, and Polyglot's weighted choice of a book move.
//!
//! Polyglot books are the common currency of opening books (Cute Chess, fastchess, most GUIs
//! read them), so a match can start from the same lines other tools use. The format is fixed by
//! its standard, which is why the key is computed here from the standard's own table
//! (`polyglot/random.rs`) and not from Shannon's Zobrist keys:
//!
//! - pieces: `Random64[64 * kind + 8 * row + file]`, kinds `bp wp bn wn bb wb br wr bq wq bk wk`;
//! - castling rights at 768..772: white short, white long, black short, black long;
//! - en passant at 772 + file, only when a pawn of the side to move stands beside the pawn that
//!   just made the double step (whether or not the capture is legal: pins do not count, unlike
//!   the FIDE rule Shannon's own key follows);
//! - 780 when White is to move.
//!
//! Chess960: Polyglot knows only standard chess. A castling right is keyed by its colour and
//! side (short or long) whatever file its rook stands on, so a Chess960 position gets a key,
//! and a book made from Chess960 games would have to have been keyed the same way (there is no
//! standard for it).
//!
//! A book is a file of 16-byte big-endian entries (key u64, move u16, weight u16, learn u32)
//! sorted by key. Moves are `to file` in bits 0-2, `to row` 3-5, `from file` 6-8, `from row`
//! 9-11, promotion 12-14 (none, knight, bishop, rook, queen); castling is written king takes
//! rook (`e1h1`), which is how Shannon stores it. An entry whose move is not legal in the
//! position (a key collision, or a broken book) is skipped, never played.

mod random;

use crate::game::{Game, Status};
use crate::notation::uci::parse_move;
use crate::{CastlingSide, Color, Move, PieceKind, Position, Square};
use rand::Rng;
use random::RANDOM64;
use std::fmt;
use std::path::{Path, PathBuf};

/// Offset of the four castling numbers in [`RANDOM64`].
const CASTLING: usize = 768;
/// Offset of the eight en passant numbers (one per file).
const EN_PASSANT: usize = 772;
/// The number XORed in when White is to move.
const TURN: usize = 780;
/// Bytes of one book entry.
const ENTRY_BYTES: usize = 16;

/// The standard's index of a piece kind: the pieces come in pairs (black, white) in this order.
fn kind_index(kind: PieceKind) -> usize {
    match kind {
        PieceKind::Pawn => 0,
        PieceKind::Knight => 1,
        PieceKind::Bishop => 2,
        PieceKind::Rook => 3,
        PieceKind::Queen => 4,
        PieceKind::King => 5,
    }
}

/// The Polyglot key of `pos`, as the Polyglot book format defines it (see the module text; a
/// Chess960 castling right counts as the short or long right of its colour).
pub fn polyglot_key(pos: &Position) -> u64 {
    let mut key = 0;
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            let piece = 2 * kind_index(kind) + usize::from(color == Color::White);
            for sq in pos.pieces(color, kind) {
                key ^= RANDOM64[64 * piece + sq.index()];
            }
        }
    }
    let rights = [
        (Color::White, CastlingSide::King),
        (Color::White, CastlingSide::Queen),
        (Color::Black, CastlingSide::King),
        (Color::Black, CastlingSide::Queen),
    ];
    for (i, (color, side)) in rights.into_iter().enumerate() {
        if pos.castling_rook(color, side).is_some() {
            key ^= RANDOM64[CASTLING + i];
        }
    }
    if let Some(ep) = pos.en_passant() {
        if pawn_beside_double_step(pos, ep) {
            key ^= RANDOM64[EN_PASSANT + ep.file().index() as usize];
        }
    }
    if pos.side_to_move() == Color::White {
        key ^= RANDOM64[TURN];
    }
    key
}

/// True when a pawn of the side to move stands next to the pawn that just moved two squares
/// past `ep`: the standard's condition for keying the en passant file (legality is ignored).
fn pawn_beside_double_step(pos: &Position, ep: Square) -> bool {
    let us = pos.side_to_move();
    let pushed = match ep.offset(0, if us == Color::White { -1 } else { 1 }) {
        Some(sq) => sq,
        None => return false,
    };
    let ours = pos.pieces(us, PieceKind::Pawn);
    [-1, 1]
        .into_iter()
        .filter_map(|df| pushed.offset(df, 0))
        .any(|sq| ours.contains(sq))
}

/// The Polyglot code of `mv`: squares as `8 * row + file`, promotion 1-4 (knight to queen).
/// Castling keeps Shannon's king-takes-rook form, which is Polyglot's.
pub fn encode_move(mv: Move) -> u16 {
    let promotion = match mv.promotion() {
        None => 0,
        Some(PieceKind::Knight) => 1,
        Some(PieceKind::Bishop) => 2,
        Some(PieceKind::Rook) => 3,
        Some(_) => 4,
    };
    (mv.to().index() as u16) | (mv.from().index() as u16) << 6 | promotion << 12
}

/// The legal move of `pos` that the Polyglot code `raw` names, or `None` when it names none
/// (including an unknown promotion code 5-7). Castling is accepted king-takes-rook, as the
/// standard writes it, and also as the king's two-square step some writers use.
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    let square = |bits: u16| Square::from_index((bits & 0x3f) as u8);
    let (to, from) = (square(raw)?, square(raw >> 6)?);
    let promotion = match (raw >> 12) & 0x7 {
        0 => "",
        1 => "n",
        2 => "b",
        3 => "r",
        4 => "q",
        _ => return None,
    };
    parse_move(pos, &format!("{from}{to}{promotion}")).ok()
}

/// One 16-byte record of a book.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookEntry {
    /// The Polyglot key of the position ([`polyglot_key`]).
    pub key: u64,
    /// The move, in Polyglot's code ([`decode_move`]).
    pub raw_move: u16,
    /// How often to choose it, relative to the position's other entries.
    pub weight: u16,
    /// Free for learning data; not used for the choice.
    pub learn: u32,
}

/// Why a book cannot be used.
#[derive(Debug)]
pub enum BookError {
    /// The file cannot be read.
    Read(PathBuf, std::io::Error),
    /// The size is not a whole number of 16-byte entries: not a Polyglot book, or a truncated one.
    Length(usize),
    /// Entry `index` (from 0) has a smaller key than the one before it; lookups binary-search
    /// the keys, so an unsorted book would silently miss positions.
    Unsorted(usize),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Read(path, e) => write!(f, "cannot read book {}: {e}", path.display()),
            BookError::Length(n) => write!(
                f,
                "{n} bytes is not a whole number of 16-byte entries: not a Polyglot book"
            ),
            BookError::Unsorted(i) => write!(
                f,
                "entry {i} has a smaller key than the entry before it: a Polyglot book is sorted \
                 by key"
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// A Polyglot book, held in memory (books for matches are small; a 1 MB book is 65536 entries).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<BookEntry>,
}

impl Book {
    /// Read the book at `path`.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(|e| BookError::Read(path.to_path_buf(), e))?;
        Book::from_bytes(&bytes)
    }

    /// A book from the bytes of a `.bin` file; any input gives a book or an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(BookError::Length(bytes.len()));
        }
        let entries: Vec<BookEntry> = bytes
            .chunks_exact(ENTRY_BYTES)
            .map(|chunk| {
                let mut key = [0u8; 8];
                key.copy_from_slice(&chunk[0..8]);
                let mut learn = [0u8; 4];
                learn.copy_from_slice(&chunk[12..16]);
                BookEntry {
                    key: u64::from_be_bytes(key),
                    raw_move: u16::from_be_bytes([chunk[8], chunk[9]]),
                    weight: u16::from_be_bytes([chunk[10], chunk[11]]),
                    learn: u32::from_be_bytes(learn),
                }
            })
            .collect();
        if let Some(i) = (1..entries.len()).find(|&i| entries[i].key < entries[i - 1].key) {
            return Err(BookError::Unsorted(i));
        }
        Ok(Book { entries })
    }

    /// Every entry, in file order.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// The entries with this key, found by binary search.
    pub fn entries_for(&self, key: u64) -> &[BookEntry] {
        let first = self.entries.partition_point(|e| e.key < key);
        let end = first + self.entries[first..].partition_point(|e| e.key == key);
        &self.entries[first..end]
    }

    /// The book's moves for `pos` with their weights, in file order; entries whose move is not
    /// legal here are left out.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, u16)> {
        self.entries_for(polyglot_key(pos))
            .iter()
            .filter_map(|e| decode_move(pos, e.raw_move).map(|mv| (mv, e.weight)))
            .collect()
    }

    /// Polyglot's weighted choice: each legal entry with probability weight / (sum of the
    /// weights). Entries of weight 0 are never chosen, unless every entry has weight 0: then
    /// the choice is uniform, so a book whose weights were all cleared still gives moves.
    /// `None` when the book has no legal move for `pos`.
    pub fn choose(&self, pos: &Position, rng: &mut impl Rng) -> Option<Move> {
        let moves = self.moves(pos);
        if moves.is_empty() {
            return None;
        }
        let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
        if total == 0 {
            return Some(moves[rng.random_range(0..moves.len())].0);
        }
        let mut pick = rng.random_range(0..total);
        for &(mv, weight) in &moves {
            let weight = u64::from(weight);
            if pick < weight {
                return Some(mv);
            }
            pick -= weight;
        }
        unreachable!("pick < total, the sum of the weights")
    }

    /// An opening line from `start`: book moves by [`Book::choose`] until the book has no move,
    /// `max_plies` moves are played, or the game is over or drawn by a claim (so the engines
    /// always get a game to play).
    pub fn line(&self, start: &Position, max_plies: usize, rng: &mut impl Rng) -> Vec<Move> {
        let mut game = Game::new(start.clone());
        while game.moves().len() < max_plies && game.status() == Status::Ongoing {
            match self.choose(game.position(), rng) {
                Some(mv) => game.play(mv),
                None => break,
            }
        }
        game.moves().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn after(moves: &str) -> Position {
        let mut pos = Position::startpos();
        for text in moves.split_whitespace() {
            pos = pos.play(parse_move(&pos, text).unwrap());
        }
        pos
    }

    /// The example keys published with the Polyglot book format.
    #[test]
    fn published_keys() {
        let cases = [
            ("", 0x463b96181691fc9c),
            ("e2e4", 0x823c9b50fd114196),
            ("e2e4 d7d5", 0x0756b94461c50fb0),
            ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
            ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
            ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
            ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
            ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
            ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
        ];
        for (moves, key) in cases {
            assert_eq!(polyglot_key(&after(moves)), key, "after '{moves}'");
        }
    }

    #[test]
    fn en_passant_counts_a_pinned_neighbour() {
        // Black's d4 pawn is pinned by the rook on a4, so FIDE sees no en passant here; the
        // standard still keys the e-file because a black pawn stands beside e4.
        let pinned = Position::from_fen("8/8/8/8/R2pP2k/8/8/4K3 b - e3 0 1").unwrap();
        let no_ep = Position::from_fen("8/8/8/8/R2pP2k/8/8/4K3 b - - 0 1").unwrap();
        assert!(!pinned.has_legal_en_passant());
        assert_eq!(
            polyglot_key(&pinned),
            polyglot_key(&no_ep) ^ RANDOM64[EN_PASSANT + 4]
        );
        // No pawn beside the double-stepped pawn: the square is not keyed.
        let lone = Position::from_fen("8/8/8/8/4P2k/8/8/4K3 b - e3 0 1").unwrap();
        let lone_no_ep = Position::from_fen("8/8/8/8/4P2k/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(polyglot_key(&lone), polyglot_key(&lone_no_ep));
    }

    #[test]
    fn chess960_rights_are_keyed_by_side() {
        // Rooks on b and g files instead of the corners: the same four rights as standard.
        let fen960 = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
        let none = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w - - 0 1";
        let with = polyglot_key(&Position::from_fen(fen960).unwrap());
        let without = polyglot_key(&Position::from_fen(none).unwrap());
        let all = (CASTLING..CASTLING + 4).fold(0, |k, i| k ^ RANDOM64[i]);
        assert_eq!(with ^ without, all);
    }

    #[test]
    fn moves_round_trip_and_castling_is_king_takes_rook() {
        let pos = Position::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for mv in pos.legal_moves().iter().copied() {
            assert_eq!(decode_move(&pos, encode_move(mv)), Some(mv));
        }
        let short = decode_move(&pos, 4 << 6 | 7).unwrap(); // e1h1
        assert_eq!(short.kind(), crate::MoveKind::Castling);
        let promotion = decode_move(&pos, 49 << 6 | 56 | 1 << 12).unwrap(); // b7xa8=N
        assert_eq!(promotion.promotion(), Some(PieceKind::Knight));
        assert_eq!(decode_move(&pos, 49 << 6 | 56 | 5 << 12), None);
        assert_eq!(decode_move(&pos, 8 << 6 | 16), None); // a2a3: no pawn there
    }

    fn bytes(entries: &[(u64, u16, u16)]) -> Vec<u8> {
        let mut out = Vec::new();
        for &(key, mv, weight) in entries {
            out.extend_from_slice(&key.to_be_bytes());
            out.extend_from_slice(&mv.to_be_bytes());
            out.extend_from_slice(&weight.to_be_bytes());
            out.extend_from_slice(&7u32.to_be_bytes());
        }
        out
    }

    fn encode(pos: &Position, text: &str) -> u16 {
        encode_move(parse_move(pos, text).unwrap())
    }

    #[test]
    fn malformed_books_are_errors() {
        assert!(matches!(
            Book::from_bytes(&[0; 17]),
            Err(BookError::Length(17))
        ));
        let unsorted = bytes(&[(5, 0, 1), (4, 0, 1)]);
        assert!(matches!(
            Book::from_bytes(&unsorted),
            Err(BookError::Unsorted(1))
        ));
        assert!(Book::from_bytes(&[]).unwrap().entries().is_empty());
        // Garbage that is sorted and of the right length reads, and gives no illegal move.
        let garbage: Vec<u8> = (0..16 * 64).map(|i| (i * 37 % 251) as u8).collect();
        if let Ok(book) = Book::from_bytes(&garbage) {
            let start = Position::startpos();
            assert!(book.moves(&start).is_empty());
        }
        let err = Book::open(Path::new("/nonexistent/book.bin")).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/book.bin"), "{err}");
    }

    #[test]
    fn lookup_skips_illegal_entries_and_reads_fields() {
        let start = Position::startpos();
        let key = polyglot_key(&start);
        let e4 = encode(&start, "e2e4");
        let d4 = encode(&start, "d2d4");
        let book = Book::from_bytes(&bytes(&[
            (key - 1, e4, 9),
            (key, e4, 3),
            (key, 4 << 6 | 36, 5), // e1e5: not legal
            (key, d4, 1),
            (key + 1, d4, 9),
        ]))
        .unwrap();
        assert_eq!(book.entries_for(key).len(), 3);
        assert_eq!(book.entries()[1].learn, 7);
        let moves = book.moves(&start);
        assert_eq!(
            moves,
            vec![
                (parse_move(&start, "e2e4").unwrap(), 3),
                (parse_move(&start, "d2d4").unwrap(), 1)
            ]
        );
    }

    #[test]
    fn weighted_choice_follows_the_weights() {
        let start = Position::startpos();
        let key = polyglot_key(&start);
        let (e4, d4, c4) = (
            encode(&start, "e2e4"),
            encode(&start, "d2d4"),
            encode(&start, "c2c4"),
        );
        let book = Book::from_bytes(&bytes(&[(key, e4, 3), (key, d4, 1), (key, c4, 0)])).unwrap();
        let mut rng = SmallRng::seed_from_u64(1);
        let mut counts = [0usize; 3];
        for _ in 0..4000 {
            let mv = encode_move(book.choose(&start, &mut rng).unwrap());
            counts[[e4, d4, c4].iter().position(|&m| m == mv).unwrap()] += 1;
        }
        assert_eq!(counts[2], 0, "weight 0 is never chosen");
        assert!((2800..3200).contains(&counts[0]), "{counts:?}");
        // All weights 0: uniform.
        let zero = Book::from_bytes(&bytes(&[(key, e4, 0), (key, d4, 0)])).unwrap();
        let picks: std::collections::HashSet<_> = (0..100)
            .map(|_| zero.choose(&start, &mut rng).unwrap())
            .collect();
        assert_eq!(picks.len(), 2);
        assert_eq!(Book::default().choose(&start, &mut rng), None);
    }

    #[test]
    fn lines_are_seeded_and_stop_where_the_book_ends() {
        let start = Position::startpos();
        let e4 = parse_move(&start, "e2e4").unwrap();
        let after_e4 = start.play(e4);
        let e5 = parse_move(&after_e4, "e7e5").unwrap();
        let c5 = parse_move(&after_e4, "c7c5").unwrap();
        let mut entries = vec![
            (polyglot_key(&start), encode_move(e4), 1),
            (polyglot_key(&after_e4), encode_move(e5), 1),
            (polyglot_key(&after_e4), encode_move(c5), 1),
        ];
        entries.sort_by_key(|e| e.0);
        let book = Book::from_bytes(&bytes(&entries)).unwrap();
        let line = |seed| book.line(&start, 16, &mut SmallRng::seed_from_u64(seed));
        assert_eq!(line(3), line(3));
        let seen: std::collections::HashSet<_> = (0..20).map(line).collect();
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert!(seen.iter().all(|l| l.len() == 2 && l[0] == e4));
        assert_eq!(book.line(&start, 1, &mut SmallRng::seed_from_u64(0)), [e4]);
    }
}
