//! The checksum every Syzygy file carries in its last 16 bytes, so that a table is checked whole
//! before it is trusted.
//!
//! The generator (Ronald de Man's `tb`, its `tbcheck` verifies files the same way) pads a table
//! to a multiple of 64 bytes and appends a 128-bit hash of everything before it: the body is cut
//! into 16 MiB chunks, each hashed with Google's CityHashCrc256, and the 32-byte results, laid
//! end to end, are hashed with CityHashCrc128. Those are CityHash 1.0's functions (the "Crc"
//! forms use the CRC-32C instruction; it is written here in software). This is our own
//! implementation of that published algorithm; the tests pin it to values of the generator's C
//! code and every test table is checked with it when it loads.

/// The generator's chunk: 16 MiB.
const CHUNK: usize = 1 << 24;

const K0: u64 = 0xc3a5_c85c_97cb_3127;
const K1: u64 = 0xb492_b66f_be98_f273;
const K2: u64 = 0x9ae1_6a3b_2f90_404f;
const K3: u64 = 0xc949_d7c7_509e_6557;

/// The checksum a Syzygy table file carries in its last 16 bytes: that of `body`, every byte
/// before them.
pub fn table_checksum(body: &[u8]) -> [u8; 16] {
    checksum_in_chunks(body, CHUNK)
}

/// [`table_checksum`] with another chunk size, so the tests can reach the many-chunk paths with
/// small inputs.
fn checksum_in_chunks(body: &[u8], chunk: usize) -> [u8; 16] {
    let mut results = Vec::with_capacity(32 * body.len().div_ceil(chunk).max(1));
    for piece in body.chunks(chunk) {
        for word in city_hash_crc256(piece) {
            results.extend_from_slice(&word.to_le_bytes());
        }
    }
    let [low, high] = city_hash_crc128(&results);
    let mut sum = [0u8; 16];
    sum[..8].copy_from_slice(&low.to_le_bytes());
    sum[8..].copy_from_slice(&high.to_le_bytes());
    sum
}

// ----- CRC-32C, one 64-bit word at a time (the SSE 4.2 instruction's arithmetic) ----------------

/// The reflected CRC-32C (Castagnoli) byte table.
const CRC32C_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut bit = 0;
        while bit < 8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0x82f6_3b78
            } else {
                c >> 1
            };
            bit += 1;
        }
        table[n] = c;
        n += 1;
    }
    table
};

/// `crc` advanced over the eight bytes of `value`, low byte first, without the usual inversions.
fn crc32c_u64(crc: u64, value: u64) -> u64 {
    let mut c = crc as u32;
    for byte in value.to_le_bytes() {
        c = (c >> 8) ^ CRC32C_TABLE[((c ^ u32::from(byte)) & 0xff) as usize];
    }
    u64::from(c)
}

// ----- CityHash 1.0 ----------------------------------------------------------------------------

fn fetch64(s: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(s[at..at + 8].try_into().expect("eight bytes"))
}

fn fetch32(s: &[u8], at: usize) -> u64 {
    u64::from(u32::from_le_bytes(
        s[at..at + 4].try_into().expect("four bytes"),
    ))
}

fn shift_mix(v: u64) -> u64 {
    v ^ (v >> 47)
}

/// Murmur-inspired: 128 bits down to 64.
fn hash_len16(u: u64, v: u64) -> u64 {
    const MUL: u64 = 0x9ddf_ea08_eb38_2d69;
    let mut a = (u ^ v).wrapping_mul(MUL);
    a ^= a >> 47;
    let mut b = (v ^ a).wrapping_mul(MUL);
    b ^= b >> 47;
    b.wrapping_mul(MUL)
}

fn hash_len0to16(s: &[u8]) -> u64 {
    let len = s.len();
    if len > 8 {
        let a = fetch64(s, 0);
        let b = fetch64(s, len - 8);
        hash_len16(a, b.wrapping_add(len as u64).rotate_right(len as u32)) ^ b
    } else if len >= 4 {
        let a = fetch32(s, 0);
        hash_len16((len as u64).wrapping_add(a << 3), fetch32(s, len - 4))
    } else if len > 0 {
        let y = u32::from(s[0]) + (u32::from(s[len >> 1]) << 8);
        let z = len as u32 + (u32::from(s[len - 1]) << 2);
        shift_mix(u64::from(y).wrapping_mul(K2) ^ u64::from(z).wrapping_mul(K3)).wrapping_mul(K2)
    } else {
        K2
    }
}

/// Sixteen bytes of hash from 48: four words and two seeds.
fn weak_hash32_with_seeds(s: &[u8], at: usize, mut a: u64, mut b: u64) -> (u64, u64) {
    let (w, x, y, z) = (
        fetch64(s, at),
        fetch64(s, at + 8),
        fetch64(s, at + 16),
        fetch64(s, at + 24),
    );
    a = a.wrapping_add(w);
    b = b.wrapping_add(a).wrapping_add(z).rotate_right(21);
    let c = a;
    a = a.wrapping_add(x).wrapping_add(y);
    b = b.wrapping_add(a.rotate_right(44));
    (a.wrapping_add(z), b.wrapping_add(c))
}

/// CityHash128's helper for short inputs (under 128 bytes).
fn city_murmur(s: &[u8], seed: (u64, u64)) -> (u64, u64) {
    let len = s.len();
    let (mut a, mut b) = seed;
    let (mut c, mut d);
    if len <= 16 {
        a = shift_mix(a.wrapping_mul(K1)).wrapping_mul(K1);
        c = b.wrapping_mul(K1).wrapping_add(hash_len0to16(s));
        d = shift_mix(a.wrapping_add(if len >= 8 { fetch64(s, 0) } else { c }));
    } else {
        c = hash_len16(fetch64(s, len - 8).wrapping_add(K1), a);
        d = hash_len16(
            b.wrapping_add(len as u64),
            c.wrapping_add(fetch64(s, len - 16)),
        );
        a = a.wrapping_add(d);
        let mut at = 0;
        let mut left = len as i64 - 16;
        while left > 0 {
            a ^= shift_mix(fetch64(s, at).wrapping_mul(K1)).wrapping_mul(K1);
            a = a.wrapping_mul(K1);
            b ^= a;
            c ^= shift_mix(fetch64(s, at + 8).wrapping_mul(K1)).wrapping_mul(K1);
            c = c.wrapping_mul(K1);
            d ^= c;
            at += 16;
            left -= 16;
        }
    }
    a = hash_len16(a, c);
    b = hash_len16(d, b);
    (a ^ b, hash_len16(b, a))
}

/// CityHash128 with a seed.
fn city_hash128_with_seed(s: &[u8], seed: (u64, u64)) -> (u64, u64) {
    let mut len = s.len();
    if len < 128 {
        return city_murmur(s, seed);
    }
    let (mut x, mut y) = seed;
    let mut z = (len as u64).wrapping_mul(K1);
    let mut v = (0u64, 0u64);
    v.0 = (y ^ K1)
        .rotate_right(49)
        .wrapping_mul(K1)
        .wrapping_add(fetch64(s, 0));
    v.1 =
        v.0.rotate_right(42)
            .wrapping_mul(K1)
            .wrapping_add(fetch64(s, 8));
    let mut w = (
        y.wrapping_add(z)
            .rotate_right(35)
            .wrapping_mul(K1)
            .wrapping_add(x),
        x.wrapping_add(fetch64(s, 88))
            .rotate_right(53)
            .wrapping_mul(K1),
    );
    let mut at = 0;
    // Two 64-byte rounds per turn, as long as 128 bytes are left.
    loop {
        for _ in 0..2 {
            x = x
                .wrapping_add(y)
                .wrapping_add(v.0)
                .wrapping_add(fetch64(s, at + 8))
                .rotate_right(37)
                .wrapping_mul(K1);
            y = y
                .wrapping_add(v.1)
                .wrapping_add(fetch64(s, at + 48))
                .rotate_right(42)
                .wrapping_mul(K1);
            x ^= w.1;
            y = y.wrapping_add(v.0).wrapping_add(fetch64(s, at + 40));
            z = z.wrapping_add(w.0).rotate_right(33).wrapping_mul(K1);
            v = weak_hash32_with_seeds(s, at, v.1.wrapping_mul(K1), x.wrapping_add(w.0));
            w = weak_hash32_with_seeds(
                s,
                at + 32,
                z.wrapping_add(w.1),
                y.wrapping_add(fetch64(s, at + 16)),
            );
            std::mem::swap(&mut z, &mut x);
            at += 64;
        }
        len -= 128;
        if len < 128 {
            break;
        }
    }
    x = x.wrapping_add(v.0.wrapping_add(z).rotate_right(49).wrapping_mul(K0));
    z = z.wrapping_add(w.0.rotate_right(37).wrapping_mul(K0));
    // Up to four 32-byte pieces of what is left, from the end.
    let mut tail_done = 0;
    while tail_done < len {
        tail_done += 32;
        y = x
            .wrapping_add(y)
            .rotate_right(42)
            .wrapping_mul(K0)
            .wrapping_add(v.1);
        w.0 = w.0.wrapping_add(fetch64(s, at + len - tail_done + 16));
        x = x.wrapping_mul(K0).wrapping_add(w.0);
        z = z
            .wrapping_add(w.1)
            .wrapping_add(fetch64(s, at + len - tail_done));
        w.1 = w.1.wrapping_add(v.0);
        v = weak_hash32_with_seeds(s, at + len - tail_done, v.0.wrapping_add(z), v.1);
    }
    x = hash_len16(x, v.0);
    y = hash_len16(y.wrapping_add(z), w.0);
    (
        hash_len16(x.wrapping_add(v.1), w.1).wrapping_add(y),
        hash_len16(x.wrapping_add(w.1), y.wrapping_add(v.1)),
    )
}

/// CityHash128.
fn city_hash128(s: &[u8]) -> (u64, u64) {
    let len = s.len();
    if len >= 16 {
        city_hash128_with_seed(&s[16..], (fetch64(s, 0) ^ K3, fetch64(s, 8)))
    } else if len >= 8 {
        let seed = (
            fetch64(s, 0) ^ (len as u64).wrapping_mul(K0),
            fetch64(s, len - 8) ^ K1,
        );
        city_hash128_with_seed(&[], seed)
    } else {
        city_hash128_with_seed(s, (K0, K1))
    }
}

/// CityHashCrc256 of at least 240 bytes, with a seed.
fn city_hash_crc256_long(s: &[u8], seed: u32) -> [u64; 4] {
    let mut len = s.len();
    let mut a = fetch64(s, 56).wrapping_add(K0);
    let mut b = fetch64(s, 96).wrapping_add(K0);
    let mut c = hash_len16(b, len as u64);
    let mut result = [c, 0, 0, 0];
    let mut d = fetch64(s, 120).wrapping_mul(K0).wrapping_add(len as u64);
    result[1] = d;
    let mut e = fetch64(s, 184).wrapping_add(u64::from(seed));
    let (mut f, mut g, mut h, mut i, mut j) = (u64::from(seed), 0u64, 0u64, 0u64, 0u64);
    let mut t = c.wrapping_add(d);
    let mut at = 0;
    let mut chunk = |multiplier: u64, z: u32, at: usize| {
        let old_a = a;
        a = b
            .rotate_right(41 ^ z)
            .wrapping_mul(multiplier)
            .wrapping_add(fetch64(s, at));
        b = c
            .rotate_right(27 ^ z)
            .wrapping_mul(multiplier)
            .wrapping_add(fetch64(s, at + 8));
        c = d
            .rotate_right(41 ^ z)
            .wrapping_mul(multiplier)
            .wrapping_add(fetch64(s, at + 16));
        d = e
            .rotate_right(33 ^ z)
            .wrapping_mul(multiplier)
            .wrapping_add(fetch64(s, at + 24));
        e = t
            .rotate_right(25 ^ z)
            .wrapping_mul(multiplier)
            .wrapping_add(fetch64(s, at + 32));
        t = old_a;
        f = crc32c_u64(f, a);
        g = crc32c_u64(g, b);
        h = crc32c_u64(h, c);
        i = crc32c_u64(i, d);
        j = crc32c_u64(j, e);
    };
    // 240 bytes a turn: six chunks of 40.
    let turns = len / 240;
    len -= turns * 240;
    for _ in 0..turns {
        for (multiplier, z) in [(1, 1), (K0, 0), (1, 1), (K0, 0), (1, 1), (K0, 0)] {
            chunk(multiplier, z, at);
            at += 40;
        }
    }
    while len >= 40 {
        chunk(K0, 0, at);
        at += 40;
        len -= 40;
    }
    if len > 0 {
        chunk(K0, 0, at + len - 40);
    }
    j = j.wrapping_add(i << 32);
    a = hash_len16(a, j);
    h = h.wrapping_add(g << 32);
    b = b.wrapping_add(h);
    c = hash_len16(c, f).wrapping_add(i);
    d = hash_len16(d, e.wrapping_add(result[0]));
    j = j.wrapping_add(e);
    i = i.wrapping_add(hash_len16(h, t));
    e = hash_len16(a, d).wrapping_add(j);
    f = hash_len16(b, c).wrapping_add(a);
    g = hash_len16(j, i).wrapping_add(c);
    result[0] = e.wrapping_add(f).wrapping_add(g).wrapping_add(h);
    a = shift_mix(a.wrapping_add(g).wrapping_mul(K0))
        .wrapping_mul(K0)
        .wrapping_add(b);
    result[1] = result[1].wrapping_add(a).wrapping_add(result[0]);
    a = shift_mix(a.wrapping_mul(K0))
        .wrapping_mul(K0)
        .wrapping_add(c);
    result[2] = a.wrapping_add(result[1]);
    a = shift_mix(a.wrapping_add(e).wrapping_mul(K0)).wrapping_mul(K0);
    result[3] = a.wrapping_add(result[2]);
    result
}

/// CityHashCrc256: short inputs are zero-padded to 240 bytes and seeded with their length.
fn city_hash_crc256(s: &[u8]) -> [u64; 4] {
    if s.len() >= 240 {
        city_hash_crc256_long(s, 0)
    } else {
        let mut padded = [0u8; 240];
        padded[..s.len()].copy_from_slice(s);
        city_hash_crc256_long(&padded, !(s.len() as u32))
    }
}

/// CityHashCrc128: CityHash128 up to 900 bytes, the last half of CityHashCrc256 above.
fn city_hash_crc128(s: &[u8]) -> [u64; 2] {
    if s.len() <= 900 {
        let (low, high) = city_hash128(s);
        [low, high]
    } else {
        let long = city_hash_crc256(s);
        [long[2], long[3]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::splitmix::SplitMix;

    /// `len` bytes of the SplitMix64 stream seeded with `seed`, each word little-endian.
    fn bytes(len: usize, seed: u64) -> Vec<u8> {
        let mut stream = SplitMix::new(seed);
        let mut out = Vec::with_capacity(len + 8);
        while out.len() < len {
            out.extend_from_slice(&stream.next_u64().to_le_bytes());
        }
        out.truncate(len);
        out
    }

    /// Values from the generator's own C code (`city-c.c` of Ronald de Man's `tb`, compiled and
    /// run on the same SplitMix64 bytes, seeded with the length): (length, CityHash128,
    /// CityHashCrc256). The lengths reach every branch: under 8, 16, 128 and 240 bytes, 128 and
    /// more (two-round loop and tail), 240 and more (whole turns, leftover chunks, last part).
    const CITY: [(usize, [u64; 2], [u64; 4]); 13] = [
        (
            0,
            [0x3df09dfc64c09a2b, 0x3cb540c392e51e29],
            [
                0x889f555a0f5b2dc0,
                0x7767800902c8a8ce,
                0xbcd2a808f4cb4a44,
                0xe9024dba8f94f2f3,
            ],
        ),
        (
            3,
            [0x39864302b0397b47, 0x1eaedb11143972d3],
            [
                0x1d4fbb9f2eb75e2b,
                0x3a6b601e795dd317,
                0xf754fe6d5eee5299,
                0x9e63cb9d1db61dbd,
            ],
        ),
        (
            7,
            [0xb982aa3aad706c67, 0x0f12257c75102981],
            [
                0x3b5c281b96c0fece,
                0xc317723f923c756e,
                0x94eb14e4c0f6afe0,
                0xb32393af3470e1b7,
            ],
        ),
        (
            15,
            [0xebae93b5743fca82, 0x6ecb439b4c58a8fe],
            [
                0x18d495cbc936e5c3,
                0xeecb53049e68d8f4,
                0x770fd8d0311c5b2f,
                0x68e1d5ecfb613f81,
            ],
        ),
        (
            33,
            [0x6427c748c08d44cc, 0x96840c4fe3869340],
            [
                0x53b5b05487ce6e6e,
                0x7c0a32da04926de4,
                0x8ea5a1e5722d41a4,
                0x8d9b0e01bacf30c5,
            ],
        ),
        (
            129,
            [0x7109443dace77c56, 0xf217c184464f0015],
            [
                0xf508a84df9dfcf1b,
                0x647e4e4b3942d7ba,
                0x3b56570d7ce18fe0,
                0x3e0ad19b45c36ada,
            ],
        ),
        (
            143,
            [0x3df76e6e315e5514, 0xa664dab13e9279df],
            [
                0x5c102ad68c82ec67,
                0xd91bcbae4f4ce106,
                0x1fa3cffa4dc03ec8,
                0x61714e7a542321c4,
            ],
        ),
        (
            145,
            [0xf4bd1607cd1847c7, 0xba7e7b22a99b77d9],
            [
                0x98b276cac7f0b85b,
                0x6384d2c9df8971fd,
                0x2cd2eb89e60fc579,
                0xeeedba1117d1d37e,
            ],
        ),
        (
            241,
            [0xb45b45efc56c911e, 0xa68307c8af224682],
            [
                0xbf23d64f93f16864,
                0xc3eac13ffc002343,
                0x3b5d7e4f455a9ad0,
                0xfd3c40b3b78cd527,
            ],
        ),
        (
            481,
            [0x2399abd3f60a93d8, 0xd8b9f8600a0a629a],
            [
                0x37cfeb8634078cc3,
                0xedebb49fbe860771,
                0xf983bdb0f7a7e87f,
                0x65273f3944cca3b3,
            ],
        ),
        (
            901,
            [0x13d6bc068771c5ed, 0xa98c2d0388a25faa],
            [
                0xf4b280d357204c96,
                0xc8b591ecd90d7811,
                0x93c1ad68b2a2f6e6,
                0x10bdf2dea39bef10,
            ],
        ),
        (
            4096,
            [0x86c55877346d1e46, 0x77c3a739fdf5e87e],
            [
                0x58cc5771cfbe85c5,
                0xb06785792a86fd9a,
                0xa5ab63bdb90af6b0,
                0xb981e16dd868f15f,
            ],
        ),
        (
            100000,
            [0x42e9fe9c683107b3, 0xfb1f480fc89ead6f],
            [
                0x1656636a11a4ed4b,
                0xa3aaa8d51bdb2bae,
                0xef4ea92a3cc990dc,
                0x8783ac7b8ecf2734,
            ],
        ),
    ];

    #[test]
    fn city_hashes_match_the_generator_s_code() {
        for (len, hash128, crc256) in CITY {
            let input = bytes(len, len as u64);
            let (low, high) = city_hash128(&input);
            assert_eq!([low, high], hash128, "CityHash128 of {len} bytes");
            assert_eq!(
                city_hash_crc256(&input),
                crc256,
                "CityHashCrc256 of {len} bytes"
            );
        }
    }

    /// The generator's file checksum of SplitMix64 bytes (seed 7), with small chunks so that
    /// the second-level hash takes both its short (CityHash128) and long (CityHashCrc256) form.
    #[test]
    fn chunked_checksums_match_the_generator_s_code() {
        let sum = |len: usize, chunk: usize| {
            let s = checksum_in_chunks(&bytes(len, 7), chunk);
            [
                u64::from_le_bytes(s[..8].try_into().unwrap()),
                u64::from_le_bytes(s[8..].try_into().unwrap()),
            ]
        };
        assert_eq!(sum(64, 64), [0x5700a7b80f9be2ea, 0x66b9ca64ff0e08ef]);
        assert_eq!(sum(640, 240), [0xe54a0b9af4b416b3, 0xc78f14aba396e269]);
        assert_eq!(sum(640, 64), [0xfdc1eb4b902759e9, 0xb6d5fe780eae0dcd]);
        assert_eq!(sum(6400, 64), [0xbf9d8c273dc279dd, 0xcf10c05315eb35a5]);
        assert_eq!(sum(64000, 64), [0x32593c73cec9fc24, 0x92bd7038a42308b4]);
        assert_eq!(sum(64000, 1000), [0x4ab97c691825bc26, 0xc2c45696ee6b89be]);
    }

    #[test]
    fn crc32c_is_castagnoli_s() {
        // The CRC-32C check value: "123456789" gives 0xe3069283 with the usual inversions. A
        // word of eight zero bytes leaves a zero register as it is.
        let register = b"123456789".iter().fold(0xffff_ffffu32, |c, &byte| {
            (c >> 8) ^ CRC32C_TABLE[((c ^ u32::from(byte)) & 0xff) as usize]
        });
        assert_eq!(!register, 0xe306_9283);
        assert_eq!(crc32c_u64(0, 0), 0);
        assert_eq!(
            crc32c_u64(0xffff_ffff, u64::from_le_bytes(*b"12345678")),
            u64::from(b"12345678".iter().fold(0xffff_ffffu32, |c, &byte| {
                (c >> 8) ^ CRC32C_TABLE[((c ^ u32::from(byte)) & 0xff) as usize]
            }))
        );
    }
}
