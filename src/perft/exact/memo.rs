//! The memo table of the exact computations: values keyed by the whole board and the plies
//! left, so that a hit is never a different position (no hash collision can change a result).

use crate::{Color, PieceKind, Position};

/// A position as the rules that matter here see it, losslessly: the placement, the side to
/// move, the castling rights, and the en passant square only when the capture is legal (the
/// same sameness as [`Position::key`], FIDE's), with that key kept beside it to find its slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardId {
    words: [u64; 8],
    key: u64,
}

impl BoardId {
    /// The identity of `pos`.
    pub fn of(pos: &Position) -> BoardId {
        let kind = |k: PieceKind| pos.kind_bb(k).0;
        let mut meta = u64::from(pos.side_to_move() == Color::Black);
        for (i, (color, side, file)) in pos.castling_rights().iter().enumerate() {
            let code = 1 + color.index() as u64 * 2 + side.index() as u64;
            meta |= ((code << 4) | u64::from(file.index())) << (1 + 8 * i);
        }
        if pos.has_legal_en_passant() {
            if let Some(ep) = pos.en_passant() {
                meta |= (1 + ep.index() as u64) << 40;
            }
        }
        BoardId {
            words: [
                pos.color_bb(Color::White).0,
                pos.occupied().0,
                kind(PieceKind::Pawn),
                kind(PieceKind::Knight),
                kind(PieceKind::Bishop),
                kind(PieceKind::Rook),
                kind(PieceKind::Queen),
                meta,
            ],
            key: pos.key(),
        }
    }
}

struct Slot<V> {
    id: BoardId,
    plies: u32,
    value: V,
}

/// A direct-mapped table of values by (position, plies left), of a fixed size; a new entry
/// replaces the one in its slot. Size 0: nothing is kept.
pub struct MemoTable<V> {
    slots: Vec<Option<Slot<V>>>,
    mask: u64,
}

impl<V> MemoTable<V> {
    /// A table of at most `megabytes` MiB (a power of two of slots; none for 0).
    pub fn new(megabytes: usize) -> MemoTable<V> {
        let slot = std::mem::size_of::<Option<Slot<V>>>().max(1);
        let wanted = megabytes.saturating_mul(1 << 20) / slot;
        let len = if wanted == 0 {
            0
        } else {
            1usize << (usize::BITS - 1 - wanted.leading_zeros())
        };
        let mut slots = Vec::new();
        slots.resize_with(len, || None);
        MemoTable {
            slots,
            mask: (len as u64).wrapping_sub(1),
        }
    }

    /// True when the table keeps anything.
    pub fn enabled(&self) -> bool {
        !self.slots.is_empty()
    }

    fn index(&self, id: &BoardId, plies: u32) -> usize {
        let mixed = id.key ^ u64::from(plies).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed.rotate_left(17) & self.mask) as usize
    }

    /// The value stored for `id` with `plies` left.
    pub fn get(&self, id: &BoardId, plies: u32) -> Option<&V> {
        if self.slots.is_empty() {
            return None;
        }
        match &self.slots[self.index(id, plies)] {
            Some(slot) if slot.plies == plies && slot.id == *id => Some(&slot.value),
            _ => None,
        }
    }

    /// Keep `value` for `id` with `plies` left.
    pub fn put(&mut self, id: BoardId, plies: u32, value: V) {
        if self.slots.is_empty() {
            return;
        }
        let i = self.index(&id, plies);
        self.slots[i] = Some(Slot { id, plies, value });
    }
}
