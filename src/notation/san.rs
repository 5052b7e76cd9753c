//! Standard Algebraic Notation (SAN): `Nf3`, `exd5`, `e8=Q+`, `O-O-O#`.
//!
//! Writing follows the PGN standard exactly: the piece letter, the shortest disambiguation (file,
//! else rank, else both), `x` for captures, `=Q` for promotions, `+` or `#`. Castling is `O-O` or
//! `O-O-O` in standard chess and Chess960 alike, decided by which side of the king the rook stands.
//!
//! Reading is tolerant in the way real PGN readers are: annotations (`+ # ! ?`) are ignored, `0-0`
//! is castling, the `=` of a promotion and the `x` of a capture are optional, and a disambiguation
//! may be missing or superfluous as long as exactly one legal move matches. It does not read
//! long-algebraic or UCI text (`e2e4`): that is [`crate::notation::uci`].

use crate::{CastlingSide, File, Move, MoveKind, PieceKind, Position, Rank, Square};
use std::fmt;

/// Why a SAN token does not name a legal move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SanError {
    /// The token is not written like a move.
    Syntax {
        /// The token.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Well-formed, but no legal move in the position matches it.
    NoSuchMove {
        /// The token.
        text: String,
    },
    /// Several legal moves match it.
    Ambiguous {
        /// The token.
        text: String,
        /// Every matching move, in full SAN.
        candidates: Vec<String>,
    },
}

impl SanError {
    /// The token the error is about.
    pub fn text(&self) -> &str {
        match self {
            SanError::Syntax { text, .. }
            | SanError::NoSuchMove { text }
            | SanError::Ambiguous { text, .. } => text,
        }
    }

    /// Why the token was refused, without the token itself.
    pub fn reason(&self) -> String {
        match self {
            SanError::Syntax { reason, .. } => reason.to_string(),
            SanError::NoSuchMove { .. } => "no legal move matches it in this position".into(),
            SanError::Ambiguous { candidates, .. } => {
                format!("ambiguous, it could be {}", candidates.join(" or "))
            }
        }
    }
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}': {}", self.text(), self.reason())
    }
}

impl std::error::Error for SanError {}

/// The SAN of `mv`, which must be legal in `pos`.
pub fn to_san(pos: &Position, mv: Move) -> String {
    let mut san = move_text(pos, mv);
    san.push_str(check_suffix(pos, mv));
    san
}

/// The long algebraic notation of `mv`, which must be legal in `pos`, as fastchess writes it
/// (`-pgnout notation=lan`, its chess library's `moveToLan`): the piece's letter (none for a
/// pawn), the from square, `x` for a capture, the to square, `=Q` for a promotion, and the
/// check or mate suffix (`Ng1f3`, `e4xd5`, `e7e8=Q+`); castling as in SAN (`O-O`).
pub fn to_lan(pos: &Position, mv: Move) -> String {
    let mut lan = String::with_capacity(10);
    if mv.kind() == MoveKind::Castling {
        lan.push_str(castling_text(castling_side(mv)));
    } else {
        let piece = moving_kind(pos, mv);
        if piece != PieceKind::Pawn {
            lan.push(piece_letter(piece));
        }
        lan.push_str(&mv.from().to_string());
        if is_capture(pos, mv) {
            lan.push('x');
        }
        lan.push_str(&mv.to().to_string());
        if let Some(promoted) = mv.promotion() {
            lan.push('=');
            lan.push(piece_letter(promoted));
        }
    }
    lan.push_str(check_suffix(pos, mv));
    lan
}

/// The SAN without the check or mate suffix.
fn move_text(pos: &Position, mv: Move) -> String {
    if mv.kind() == MoveKind::Castling {
        return castling_text(castling_side(mv)).to_string();
    }
    let piece = moving_kind(pos, mv);
    let mut san = String::with_capacity(8);
    if piece == PieceKind::Pawn {
        if is_capture(pos, mv) {
            san.push(mv.from().file().to_char());
        }
    } else {
        san.push(piece_letter(piece));
        san.push_str(&disambiguation(pos, mv, piece));
    }
    if is_capture(pos, mv) {
        san.push('x');
    }
    san.push_str(&mv.to().to_string());
    if let Some(promoted) = mv.promotion() {
        san.push('=');
        san.push(piece_letter(promoted));
    }
    san
}

fn castling_text(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::King => "O-O",
        CastlingSide::Queen => "O-O-O",
    }
}

/// The wing of a castling move: the rook stands on the h-side or the a-side of the king.
fn castling_side(mv: Move) -> CastlingSide {
    if mv.to().file() > mv.from().file() {
        CastlingSide::King
    } else {
        CastlingSide::Queen
    }
}

fn moving_kind(pos: &Position, mv: Move) -> PieceKind {
    pos.piece_at(mv.from()).map_or(PieceKind::Pawn, |p| p.kind)
}

fn is_capture(pos: &Position, mv: Move) -> bool {
    mv.kind() == MoveKind::EnPassant || pos.piece_at(mv.to()).is_some()
}

fn piece_letter(kind: PieceKind) -> char {
    kind.to_char().to_ascii_uppercase()
}

/// The origin file, rank or square needed to tell `mv` from other moves of the same kind of piece
/// to the same square; empty when there are none.
fn disambiguation(pos: &Position, mv: Move, piece: PieceKind) -> String {
    if pos.pieces(pos.side_to_move(), piece).count() < 2 {
        return String::new();
    }
    let rivals: Vec<Square> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.kind() != MoveKind::Castling && m.to() == mv.to() && m.from() != mv.from())
        .filter(|m| moving_kind(pos, **m) == piece)
        .map(|m| m.from())
        .collect();
    let from = mv.from();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|sq| sq.file() != from.file()) {
        from.file().to_char().to_string()
    } else if rivals.iter().all(|sq| sq.rank() != from.rank()) {
        from.rank().to_char().to_string()
    } else {
        from.to_string()
    }
}

fn check_suffix(pos: &Position, mv: Move) -> &'static str {
    let after = pos.play(mv);
    if !after.in_check() {
        ""
    } else if after.legal_moves().is_empty() {
        "#"
    } else {
        "+"
    }
}

/// The legal move in `pos` that the SAN token `text` names.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, SanError> {
    let core = text.trim_end_matches(['+', '#', '!', '?']);
    if core.is_empty() {
        return Err(syntax(text, "empty move"));
    }
    if let Some(side) = castling_token(core) {
        return find_castling(pos, side, text);
    }
    let pattern = SanPattern::parse(core).map_err(|reason| syntax(text, reason))?;
    let candidates: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|mv| pattern.matches(pos, *mv))
        .collect();
    match candidates[..] {
        [] => Err(SanError::NoSuchMove { text: text.into() }),
        [mv] => Ok(mv),
        _ => Err(SanError::Ambiguous {
            text: text.into(),
            candidates: candidates.iter().map(|mv| full_san(pos, *mv)).collect(),
        }),
    }
}

fn syntax(text: &str, reason: &'static str) -> SanError {
    SanError::Syntax {
        text: text.into(),
        reason,
    }
}

/// A move written with its full origin square, to list the candidates of an ambiguous token.
fn full_san(pos: &Position, mv: Move) -> String {
    let piece = moving_kind(pos, mv);
    let letter = if piece == PieceKind::Pawn {
        String::new()
    } else {
        piece_letter(piece).to_string()
    };
    let promotion = mv
        .promotion()
        .map_or(String::new(), |p| format!("={}", piece_letter(p)));
    format!("{letter}{}{}{promotion}", mv.from(), mv.to())
}

fn castling_token(core: &str) -> Option<CastlingSide> {
    match core {
        "O-O" | "0-0" | "o-o" => Some(CastlingSide::King),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(CastlingSide::Queen),
        _ => None,
    }
}

fn find_castling(pos: &Position, side: CastlingSide, text: &str) -> Result<Move, SanError> {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|mv| mv.kind() == MoveKind::Castling && castling_side(*mv) == side)
        .ok_or_else(|| SanError::NoSuchMove { text: text.into() })
}

/// What a non-castling SAN token says about its move.
#[derive(Debug)]
struct SanPattern {
    piece: PieceKind,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Square,
    promotion: Option<PieceKind>,
}

impl SanPattern {
    /// Read `core` (annotations already stripped): piece letter, origin hints, destination,
    /// promotion.
    fn parse(core: &str) -> Result<SanPattern, &'static str> {
        if !core.is_ascii() {
            return Err("a move is written in ASCII letters and digits");
        }
        let (piece, rest) = match core.chars().next().and_then(san_piece) {
            Some(piece) => (piece, &core[1..]),
            None => (PieceKind::Pawn, core),
        };
        let (rest, promotion) = split_promotion(rest)?;
        if promotion.is_some() && piece != PieceKind::Pawn {
            return Err("only a pawn can promote");
        }
        if rest.len() < 2 {
            return Err("no destination square");
        }
        let (head, dest) = rest.split_at(rest.len() - 2);
        let to = dest
            .parse()
            .map_err(|_| "does not end with a destination square")?;
        let (from_file, from_rank) = parse_origin(head)?;
        Ok(SanPattern {
            piece,
            from_file,
            from_rank,
            to,
            promotion,
        })
    }

    fn matches(&self, pos: &Position, mv: Move) -> bool {
        mv.kind() != MoveKind::Castling
            && mv.to() == self.to
            && mv.promotion() == self.promotion
            && moving_kind(pos, mv) == self.piece
            && self.from_file.is_none_or(|f| f == mv.from().file())
            && self.from_rank.is_none_or(|r| r == mv.from().rank())
    }
}

/// An upper-case piece letter (`P` included, as some writers prefix pawn moves with it).
fn san_piece(c: char) -> Option<PieceKind> {
    if c.is_ascii_uppercase() {
        PieceKind::from_char(c)
    } else {
        None
    }
}

/// Split `e8=Q`, `e8Q` or `e8=q` into the rest and the promotion piece.
fn split_promotion(rest: &str) -> Result<(&str, Option<PieceKind>), &'static str> {
    let Some(last) = rest.chars().last() else {
        return Ok((rest, None));
    };
    if last == '=' {
        return Err("'=' without a promotion piece");
    }
    let head = &rest[..rest.len() - 1];
    let with_equals = head.ends_with('=');
    let kind = match PieceKind::from_char(last) {
        Some(kind) if last.is_ascii_uppercase() || with_equals => kind,
        _ => return Ok((rest, None)),
    };
    if matches!(kind, PieceKind::Pawn | PieceKind::King) {
        return Err("a pawn promotes to a queen, rook, bishop or knight");
    }
    Ok((head.strip_suffix('=').unwrap_or(head), Some(kind)))
}

/// The origin hints before the destination: an optional file then an optional rank, with capture
/// marks (`x`, `:`) and a long-algebraic `-` ignored.
fn parse_origin(head: &str) -> Result<(Option<File>, Option<Rank>), &'static str> {
    let mut chars = head
        .chars()
        .filter(|c| !matches!(c, 'x' | ':' | '-'))
        .peekable();
    let file = chars
        .next_if(|c| c.is_ascii_lowercase())
        .map(File::from_char);
    let rank = chars.next_if(|c| c.is_ascii_digit()).map(Rank::from_char);
    if chars.next().is_some() {
        return Err("unexpected characters before the destination square");
    }
    match (file, rank) {
        (Some(None), _) => Err("the origin file is not a to h"),
        (_, Some(None)) => Err("the origin rank is not 1 to 8"),
        (file, rank) => Ok((file.flatten(), rank.flatten())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn san(fen: &str, uci: &str) -> String {
        let p = pos(fen);
        to_san(&p, crate::notation::uci::parse_move(&p, uci).unwrap())
    }

    fn lan(fen: &str, uci: &str) -> String {
        let p = pos(fen);
        to_lan(&p, crate::notation::uci::parse_move(&p, uci).unwrap())
    }

    /// fastchess's `moveToLan`: piece letter, from, `x`, to, promotion, check.
    #[test]
    fn long_algebraic_as_fastchess_writes_it() {
        let start = crate::STARTPOS_FEN;
        assert_eq!(lan(start, "e2e4"), "e2e4");
        assert_eq!(lan(start, "g1f3"), "Ng1f3");
        let capture = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
        assert_eq!(lan(capture, "e4d5"), "e4xd5");
        let promotion = "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(lan(promotion, "e7e8q"), "e7e8=Q");
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(lan(castle, "e1g1"), "O-O");
        assert_eq!(lan(castle, "e1c1"), "O-O-O");
        let mate = "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1";
        assert_eq!(lan(mate, "a1a8"), "Ra1a8#");
    }

    #[test]
    fn plain_moves_from_the_start() {
        let start = crate::STARTPOS_FEN;
        assert_eq!(san(start, "e2e4"), "e4");
        assert_eq!(san(start, "g1f3"), "Nf3");
        let p = Position::startpos();
        assert_eq!(
            parse_san(&p, "Nf3").unwrap(),
            parse_san(&p, "Ng1f3").unwrap()
        );
    }

    #[test]
    fn disambiguation_by_file_rank_and_square() {
        // Two knights on b1 and f1 that both reach d2: the file tells them apart.
        let two_knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        assert_eq!(san(two_knights, "b1d2"), "Nbd2");
        assert_eq!(san(two_knights, "f1d2"), "Nfd2");
        // Two rooks on the a-file: the rank.
        let two_rooks = "4k3/8/R7/8/8/8/R7/4K3 w - - 0 1";
        assert_eq!(san(two_rooks, "a2a4"), "R2a4");
        assert_eq!(san(two_rooks, "a6a4"), "R6a4");
        // Three queens: a4 shares its file with a1 and its rank with d4.
        let queens = "8/7k/8/8/Q2Q4/8/8/Q3K3 w - - 0 1";
        assert_eq!(san(queens, "a4d1"), "Qa4d1");
        assert_eq!(san(queens, "a1d1"), "Q1d1");
        assert_eq!(san(queens, "d4d1"), "Qdd1");
    }

    #[test]
    fn a_pinned_rival_needs_no_disambiguation() {
        // The knight on e2 also reaches c3, but it is pinned by the rook on e8.
        let fen = "4r1k1/8/8/8/8/8/4N3/1N2K3 w - - 0 1";
        assert_eq!(san(fen, "b1c3"), "Nc3");
    }

    #[test]
    fn captures_en_passant_and_promotions() {
        assert_eq!(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
        assert_eq!(san("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n"), "exd8=N");
        assert_eq!(san("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q"), "e8=Q+");
        assert_eq!(san("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1", "e4c5"), "Nc5");
        assert_eq!(san("4k3/8/8/3p4/2N5/8/8/4K3 w - - 0 1", "c4d6"), "Nd6+");
    }

    #[test]
    fn check_and_mate_suffixes() {
        let fools = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
        assert_eq!(san(fools, "d8h4"), "Qh4#");
        assert_eq!(san("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"), "Ra8+");
    }

    #[test]
    fn castling_both_ways_and_in_chess960() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(san(fen, "e1g1"), "O-O");
        assert_eq!(san(fen, "e1c1"), "O-O-O");
        // Chess960: the king on g1 does not move when castling short.
        let king_stays = "4k3/8/8/8/8/8/8/6KR w H - 0 1";
        assert_eq!(san(king_stays, "g1h1"), "O-O");
        // The rook on d1 does not move when castling long with the king on e1.
        let rook_stays = "4k3/8/8/8/8/8/8/3RK3 w D - 0 1";
        assert_eq!(san(rook_stays, "e1d1"), "O-O-O");
        // King b1, rook a1: the king moves right yet castles long.
        let b_king = "4k3/8/8/8/8/8/8/RK6 w A - 0 1";
        assert_eq!(san(b_king, "b1a1"), "O-O-O");
        for (fen, text) in [
            (king_stays, "0-0"),
            (rook_stays, "O-O-O+"),
            (b_king, "o-o-o"),
        ] {
            assert_eq!(
                parse_san(&pos(fen), text).unwrap().kind(),
                MoveKind::Castling
            );
        }
    }

    #[test]
    fn tolerant_reading() {
        let p = pos("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
        let exd8q = crate::notation::uci::parse_move(&p, "e7d8q").unwrap();
        for text in [
            "exd8=Q",
            "exd8Q",
            "exd8=q",
            "exd8=Q+!?",
            "ed8Q",
            "e7xd8=Q",
            "Pxd8=Q",
        ] {
            assert_eq!(parse_san(&p, text), Ok(exd8q), "{text}");
        }
        let knights = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        assert_eq!(
            to_san(&knights, parse_san(&knights, "Nb1d2").unwrap()),
            "Nbd2"
        );
        assert_eq!(
            to_san(&knights, parse_san(&knights, "Nbxd2").unwrap()),
            "Nbd2"
        );
        assert_eq!(
            to_san(&knights, parse_san(&knights, "Nb1c3").unwrap()),
            "Nc3"
        );
    }

    #[test]
    fn errors_name_the_token_and_the_reason() {
        let p = Position::startpos();
        let err = |text| parse_san(&p, text).unwrap_err();
        assert!(matches!(err("Zf3"), SanError::Syntax { .. }));
        assert!(matches!(err("e9"), SanError::Syntax { .. }));
        assert!(matches!(err(""), SanError::Syntax { .. }));
        assert!(matches!(err("Nf3=Q"), SanError::Syntax { .. }));
        assert!(matches!(err("e8=K"), SanError::Syntax { .. }));
        assert!(matches!(err("Nqf3"), SanError::Syntax { .. }));
        assert!(matches!(err("Ñf3"), SanError::Syntax { .. }));
        assert_eq!(
            err("e5").to_string(),
            "'e5': no legal move matches it in this position"
        );
        assert!(matches!(err("O-O"), SanError::NoSuchMove { .. }));
        let knights = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        assert_eq!(
            parse_san(&knights, "Nd2").unwrap_err().to_string(),
            "'Nd2': ambiguous, it could be Nb1d2 or Nf1d2"
        );
        let promotion = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        assert!(matches!(
            parse_san(&promotion, "e8"),
            Err(SanError::NoSuchMove { .. })
        ));
    }
}
