//! Generates the attack tables at build time from the slow ray walker in
//! `build/attack_reference.rs` (the crate's `attacks::reference`), so the engine starts with its tables ready (no start-up work) and the
//! fast lookups are, by construction, the reference's answers.
//!
//! Sliding attacks use "fancy" magic bitboards: for each square, a multiplier found here by a
//! seeded search maps every relevant occupancy to a slot of that square's block in one shared table.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

#[path = "build/attack_reference.rs"]
#[allow(dead_code)]
mod reference;

use reference::*;

/// xorshift64*: a tiny deterministic generator, so the build is reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Candidates with few bits set make good magics.
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Every subset of `mask` (Carry-Rippler enumeration).
fn subsets(mask: u64) -> Vec<u64> {
    let mut result = Vec::with_capacity(1 << mask.count_ones());
    let mut subset = 0u64;
    loop {
        result.push(subset);
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            return result;
        }
    }
}

fn find_magic(square: u8, directions: &[(i8, i8)], rng: &mut Rng, table: &mut Vec<u64>) -> Magic {
    let mask = relevant_occupancy(square, directions);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let occupancies = subsets(mask);
    let attacks: Vec<u64> = occupancies
        .iter()
        .map(|&occ| slider_attacks(square, occ, directions))
        .collect();
    let size = 1usize << bits;
    let mut slots = vec![0u64; size];
    let mut used = vec![0u32; size];
    let mut attempt = 0u32;
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let mut ok = true;
        for (&occ, &att) in occupancies.iter().zip(&attacks) {
            let index = (occ.wrapping_mul(magic) >> shift) as usize;
            if used[index] != attempt {
                used[index] = attempt;
                slots[index] = att;
            } else if slots[index] != att {
                ok = false;
                break;
            }
        }
        if ok {
            let offset = table.len();
            table.extend_from_slice(&slots);
            return Magic {
                mask,
                magic,
                shift,
                offset,
            };
        }
    }
}

/// The attacks of a slider on `square` for every subset of its relevant occupancy, appended to
/// `table` in the order of the subsets as numbers, which is the order of their PEXT indices
/// (`pext(subset, mask)` counts up as the subset does).
fn pext_block(square: u8, directions: &[(i8, i8)], table: &mut Vec<u64>) -> (u64, usize) {
    let mask = relevant_occupancy(square, directions);
    let offset = table.len();
    let mut occupancies = subsets(mask);
    occupancies.sort_unstable();
    table.extend(
        occupancies
            .iter()
            .map(|&occ| slider_attacks(square, occ, directions)),
    );
    (mask, offset)
}

fn write_pext(out: &mut String, name: &str, entries: &[(u64, usize)]) {
    writeln!(out, "static {name}: [PextSquare; 64] = [").unwrap();
    for (mask, offset) in entries {
        writeln!(
            out,
            "    PextSquare {{ mask: {mask:#x}, offset: {offset} }},"
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn write_array(out: &mut String, name: &str, ty: &str, values: &[u64]) {
    writeln!(out, "static {name}: [{ty}; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|v| format!("{v:#x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn write_magics(out: &mut String, name: &str, magics: &[Magic]) {
    writeln!(out, "static {name}: [Magic; 64] = [").unwrap();
    for m in magics {
        writeln!(
            out,
            "    Magic {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
            m.mask, m.magic, m.shift, m.offset
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/attack_reference.rs");

    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::new();
    let rook: Vec<Magic> = (0..64)
        .map(|sq| find_magic(sq, &ROOK_DIRECTIONS, &mut rng, &mut table))
        .collect();
    let bishop: Vec<Magic> = (0..64)
        .map(|sq| find_magic(sq, &BISHOP_DIRECTIONS, &mut rng, &mut table))
        .collect();

    let mut out = String::new();
    writeln!(
        out,
        "// Generated by build.rs from build/attack_reference.rs. Do not edit."
    )
    .unwrap();
    write_magics(&mut out, "ROOK_MAGICS", &rook);
    write_magics(&mut out, "BISHOP_MAGICS", &bishop);
    write_array(&mut out, "SLIDING_ATTACKS", "u64", &table);

    let mut pext_table = Vec::new();
    let rook_pext: Vec<(u64, usize)> = (0..64)
        .map(|sq| pext_block(sq, &ROOK_DIRECTIONS, &mut pext_table))
        .collect();
    let bishop_pext: Vec<(u64, usize)> = (0..64)
        .map(|sq| pext_block(sq, &BISHOP_DIRECTIONS, &mut pext_table))
        .collect();
    write_pext(&mut out, "ROOK_PEXT", &rook_pext);
    write_pext(&mut out, "BISHOP_PEXT", &bishop_pext);
    write_array(&mut out, "PEXT_ATTACKS", "u64", &pext_table);

    let knight: Vec<u64> = (0..64)
        .map(|sq| leaper_attacks(sq, &KNIGHT_JUMPS))
        .collect();
    let king: Vec<u64> = (0..64).map(|sq| leaper_attacks(sq, &KING_STEPS)).collect();
    let pawn: Vec<u64> = (0..2)
        .flat_map(|c| (0..64).map(move |sq| pawn_attacks(c, sq)))
        .collect();
    let between_table: Vec<u64> = (0..64)
        .flat_map(|a| (0..64).map(move |b| between(a, b)))
        .collect();
    let line_table: Vec<u64> = (0..64)
        .flat_map(|a| (0..64).map(move |b| line(a, b)))
        .collect();
    write_array(&mut out, "KNIGHT_ATTACKS", "u64", &knight);
    write_array(&mut out, "KING_ATTACKS", "u64", &king);
    write_array(&mut out, "PAWN_ATTACKS", "u64", &pawn);
    write_array(&mut out, "BETWEEN", "u64", &between_table);
    write_array(&mut out, "LINE", "u64", &line_table);

    let path = Path::new(&env::var("OUT_DIR").unwrap()).join("attack_tables.rs");
    fs::write(path, out).unwrap();
}
