//! Writing a position in each board format.

use super::*;

/// The text of `pos` in `format` (no trailing newline).
pub fn write_board(pos: &Position, format: BoardFormat) -> String {
    let board = placement_of(pos);
    match format {
        BoardFormat::Matrix => {
            let values: Vec<i64> = Rank::ALL
                .iter()
                .rev()
                .flat_map(|&r| File::ALL.map(|f| matrix_code(board[Square::new(f, r).index()])))
                .collect();
            join_rows(&values, 8)
        }
        BoardFormat::Shannon => {
            let values: Vec<i64> = board.iter().map(|p| shannon_number(*p)).collect();
            let lambda = if pos.side_to_move() == Color::White {
                "+1"
            } else {
                "-1"
            };
            format!("{}\nlambda {lambda}", join_rows(&values, 8))
        }
        BoardFormat::Mailbox10x12 => {
            let values: Vec<i64> = (0..120)
                .map(|i| {
                    square_of_mailbox(i).map_or(OFF_BOARD, |sq| shannon_number(board[sq.index()]))
                })
                .collect();
            join_rows(&values, 10)
        }
        BoardFormat::X88 => {
            let values: Vec<i64> = (0..128)
                .map(|i| {
                    Square::from_0x88(i).map_or(OFF_BOARD, |sq| shannon_number(board[sq.index()]))
                })
                .collect();
            join_rows(&values, 16)
        }
        BoardFormat::Bitboards => write_bitboards(pos),
        BoardFormat::Pieces => write_pieces(&board),
        BoardFormat::Fen => pos.fen(),
    }
}

/// The twelve bitboards, White's pawn to king then Black's.
fn write_bitboards(pos: &Position) -> String {
    Color::ALL
        .into_iter()
        .flat_map(|c| PieceKind::ALL.map(|k| Piece::new(c, k)))
        .map(|p| format!("{} 0x{:016x}", p.to_char(), pos.pieces(p.color, p.kind).0))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The piece order of the `pieces` format: king, queen, rook, bishop, knight, pawn.
const LIST_ORDER: [PieceKind; 6] = PieceKind::KING_FIRST;

fn write_pieces(board: &Placement) -> String {
    Color::ALL
        .into_iter()
        .map(|color| {
            let items: Vec<String> = LIST_ORDER
                .iter()
                .flat_map(|&kind| {
                    Square::ALL
                        .into_iter()
                        .filter(move |sq| board[sq.index()] == Some(Piece::new(color, kind)))
                        .map(move |sq| format!("{}{sq}", kind.to_char().to_ascii_uppercase()))
                })
                .collect();
            format!("{color}: {}", items.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}
