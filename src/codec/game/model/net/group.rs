//! The network model's feature groups ([`Group`]): their names, sizes and offsets in the
//! model's rows, and the groups of each shipped model. A file of its own, so that the position's
//! context and the features both use it without importing each other.

/// A group of features, in the order the fitting program adds them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// The destination by piece and phase.
    PstTo,
    /// The square left, by piece and phase.
    PstFrom,
    /// Mover and piece taken; taking an undefended piece.
    Capture,
    /// The destination's cheapest attacker and whether it is defended, by mover.
    Safety,
    /// The mover attacked where it stands.
    Threat,
    /// Near the last move, the piece we moved last, the king leaving its castling rights.
    Local,
    /// Attacks made on more valuable or undefended pieces.
    Attack,
    /// How often the fitting games played the move here.
    Book,
    /// The static exchange on the destination, by mover.
    Exchange,
    /// Checks on safe or unsafe squares; discovered checks.
    CheckKind,
    /// How many squares the piece reaches from its destination.
    Mobility,
    /// Attacks on their king's squares; distance to either king.
    King,
    /// Leaving a piece it alone defends; defending a hanging piece; taking its attacker.
    Defence,
    /// Passed pawns pushed, pawn captures, pawn files.
    Pawn,
    /// The mover shields a piece of ours from their slider.
    Shield,
    /// What their best capture of the mover would win.
    Threatened,
    /// Moving uncovers our slider's attack on a piece of theirs.
    Uncover,
    /// Pawns in front of our king on its first rank.
    Shelter,
}

impl Group {
    /// Every group, in order.
    pub const ALL: [Group; 18] = [
        Group::PstTo,
        Group::PstFrom,
        Group::Capture,
        Group::Safety,
        Group::Threat,
        Group::Local,
        Group::Attack,
        Group::Book,
        Group::Exchange,
        Group::CheckKind,
        Group::Mobility,
        Group::King,
        Group::Defence,
        Group::Pawn,
        Group::Shield,
        Group::Threatened,
        Group::Uncover,
        Group::Shelter,
    ];

    /// The group's name in reports.
    pub fn name(self) -> &'static str {
        [
            "pst-to",
            "pst-from",
            "capture",
            "safety",
            "threat",
            "local",
            "attack",
            "book",
            "exchange",
            "check-kind",
            "mobility",
            "king",
            "defence",
            "pawn",
            "shield",
            "threatened",
            "uncover",
            "shelter",
        ][self as usize]
    }

    /// The group's bit in a set of groups.
    pub const fn bit(self) -> u32 {
        1 << self as u32
    }

    /// The number of features of the group.
    pub(super) const fn size(self) -> usize {
        SIZES[self as usize]
    }

    /// The index of the group's first feature.
    pub const fn offset(self) -> usize {
        let mut offset = 0;
        let mut g = 0;
        while g < self as usize {
            offset += SIZES[g];
            g += 1;
        }
        offset
    }
}

/// Every group.
pub const ALL_GROUPS: u32 = (1 << Group::ALL.len()) - 1;

/// Model 4's groups: every group but six that earn the fewest bits (each left out alone costs
/// 0.001-0.008 bits a move held back, 7 hidden units) and whose context or features take time:
/// the exchanges on our attacked pieces ([`Group::Threatened`]), the sliders' lines
/// ([`Group::Shield`], [`Group::Uncover`]), the checks ([`Group::CheckKind`]), the pawns and
/// the king's shelter.
pub const M4_GROUPS: u32 = ALL_GROUPS
    & !(Group::Threatened.bit()
        | Group::Shield.bit()
        | Group::Uncover.bit()
        | Group::Shelter.bit()
        | Group::CheckKind.bit()
        | Group::Pawn.bit());

/// Model 4's lanes per row.
pub const M4_LANES: usize = 16;

/// Model 4's groups in words.
pub const M4_ABOUT: &str =
    "every feature group but threatened, shield, uncover, shelter, check-kind and pawn";

/// Book buckets ([`crate::codec::game::model::book::bucket`]).
const BOOK_BUCKETS: usize = 6 * 7;

const PHASES: usize = 3;
const SIZES: [usize; 18] = [
    PHASES * 6 * 64,
    PHASES * 6 * 64,
    6 * 6 + 6,
    6 * 5 * 2,
    6 * 4,
    6 * 8 + 6 + 1,
    6 * 3,
    BOOK_BUCKETS,
    6 * 9,
    6 * 2 + 2,
    6 * 7,
    6 + 6 * 8 + 6 * 8,
    4 * 3 + 6 + 1 + 2,
    6 * 2 + 4 + 4,
    6 * 4,
    6 * 6,
    6 * 4,
    2 * 4,
];
