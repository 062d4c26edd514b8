//! MD5 of several independent one-block messages at once.
//!
//! One MD5 block is 64 dependent steps: a single message is bound by their latency, not by
//! the core's width. Compressing two messages step by step in one function gives the
//! out-of-order core two independent chains to run side by side, so the bucket of an MD5
//! salt costs about half as much per record when an analysis hashes records in pairs.
//! `md-5` has no multi-buffer API; this is the plain RFC 1321 compression, written over
//! `N` lanes, checked bit for bit against `md-5` in the tests below.

/// The sine-derived constants of RFC 1321, step by step.
const K: [u32; 64] = [
    0xd76a_a478,
    0xe8c7_b756,
    0x2420_70db,
    0xc1bd_ceee,
    0xf57c_0faf,
    0x4787_c62a,
    0xa830_4613,
    0xfd46_9501,
    0x6980_98d8,
    0x8b44_f7af,
    0xffff_5bb1,
    0x895c_d7be,
    0x6b90_1122,
    0xfd98_7193,
    0xa679_438e,
    0x49b4_0821,
    0xf61e_2562,
    0xc040_b340,
    0x265e_5a51,
    0xe9b6_c7aa,
    0xd62f_105d,
    0x0244_1453,
    0xd8a1_e681,
    0xe7d3_fbc8,
    0x21e1_cde6,
    0xc337_07d6,
    0xf4d5_0d87,
    0x455a_14ed,
    0xa9e3_e905,
    0xfcef_a3f8,
    0x676f_02d9,
    0x8d2a_4c8a,
    0xfffa_3942,
    0x8771_f681,
    0x6d9d_6122,
    0xfde5_380c,
    0xa4be_ea44,
    0x4bde_cfa9,
    0xf6bb_4b60,
    0xbebf_bc70,
    0x289b_7ec6,
    0xeaa1_27fa,
    0xd4ef_3085,
    0x0488_1d05,
    0xd9d4_d039,
    0xe6db_99e5,
    0x1fa2_7cf8,
    0xc4ac_5665,
    0xf429_2244,
    0x432a_ff97,
    0xab94_23a7,
    0xfc93_a039,
    0x655b_59c3,
    0x8f0c_cc92,
    0xffef_f47d,
    0x8584_5dd1,
    0x6fa8_7e4f,
    0xfe2c_e6e0,
    0xa301_4314,
    0x4e08_11a1,
    0xf753_7e82,
    0xbd3a_f235,
    0x2ad7_d2bb,
    0xeb86_d391,
];

/// Left rotations, by round and step within the group of four.
const S: [[u32; 4]; 4] = [
    [7, 12, 17, 22],
    [5, 9, 14, 20],
    [4, 11, 16, 23],
    [6, 10, 15, 21],
];

const INIT: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];

/// The one padded block of a message of at most 55 bytes, as little-endian words: the
/// message, `0x80`, zeros, the length in bits. `None` for a longer message.
fn block_words(data: &[u8]) -> Option<[u32; 16]> {
    let n = data.len();
    if n > 55 {
        return None;
    }
    let mut block = [0u8; 64];
    block.get_mut(..n)?.copy_from_slice(data);
    *block.get_mut(n)? = 0x80;
    block
        .get_mut(56..)?
        .copy_from_slice(&(n as u64 * 8).to_le_bytes());
    let mut w = [0u32; 16];
    for (x, c) in w.iter_mut().zip(block.chunks_exact(4)) {
        let mut b = [0u8; 4];
        b.copy_from_slice(c);
        *x = u32::from_le_bytes(b);
    }
    Some(w)
}

/// One MD5 step for every lane: `a = b + ((a + F(b, c, d) + k + m[g]) <<< s)` with the
/// round's function `F`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn step<const N: usize, const R: usize>(
    a: &mut [u32; N],
    b: &[u32; N],
    c: &[u32; N],
    d: &[u32; N],
    m: &[[u32; N]; 16],
    g: usize,
    k: u32,
    s: u32,
) {
    for l in 0..N {
        let (x, y, z) = (b[l], c[l], d[l]);
        let f = match R {
            0 => (x & y) | (!x & z),
            1 => (x & z) | (y & !z),
            2 => x ^ y ^ z,
            _ => y ^ (x | !z),
        };
        a[l] = a[l]
            .wrapping_add(f)
            .wrapping_add(k)
            .wrapping_add(m[g][l])
            .rotate_left(s)
            .wrapping_add(x);
    }
}

/// Message word read by each step.
const G: [usize; 64] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, //
    1, 6, 11, 0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, //
    5, 8, 11, 14, 1, 4, 7, 10, 13, 0, 3, 6, 9, 12, 15, 2, //
    0, 7, 14, 5, 12, 3, 10, 1, 8, 15, 6, 13, 4, 11, 2, 9,
];

/// The 64 steps over `N` lanes, each step done for every lane before the next one.
///
/// Each round is a loop of two bodies of eight steps, kept rolled: fully unrolled, the
/// compiler emits one lane's 64 steps after the other's, and the core's reorder window
/// (a few hundred instructions) then holds only one chain at a time. With the lanes side by
/// side in an eight-step body, two MD5s take ~1.2x the time of one.
#[inline(always)]
fn compress<const N: usize>(m: &[[u32; N]; 16]) -> [[u32; 4]; N] {
    let [a0, b0, c0, d0] = INIT;
    let (mut a, mut b, mut c, mut d) = ([a0; N], [b0; N], [c0; N], [d0; N]);
    macro_rules! round {
        ($r:literal) => {
            // `black_box`: an opaque trip count, so the loop is not unrolled (see above).
            for j in 0..std::hint::black_box(2usize) {
                let i = $r * 16 + 8 * j;
                let (g, k) = (|x: usize| G[(i + x) & 63] & 15, |x: usize| K[(i + x) & 63]);
                step::<N, $r>(&mut a, &b, &c, &d, m, g(0), k(0), S[$r][0]);
                step::<N, $r>(&mut d, &a, &b, &c, m, g(1), k(1), S[$r][1]);
                step::<N, $r>(&mut c, &d, &a, &b, m, g(2), k(2), S[$r][2]);
                step::<N, $r>(&mut b, &c, &d, &a, m, g(3), k(3), S[$r][3]);
                step::<N, $r>(&mut a, &b, &c, &d, m, g(4), k(4), S[$r][0]);
                step::<N, $r>(&mut d, &a, &b, &c, m, g(5), k(5), S[$r][1]);
                step::<N, $r>(&mut c, &d, &a, &b, m, g(6), k(6), S[$r][2]);
                step::<N, $r>(&mut b, &c, &d, &a, m, g(7), k(7), S[$r][3]);
            }
        };
    }
    round!(0);
    round!(1);
    round!(2);
    round!(3);
    let mut out = [[0u32; 4]; N];
    for (l, o) in out.iter_mut().enumerate() {
        *o = [
            a0.wrapping_add(a[l]),
            b0.wrapping_add(b[l]),
            c0.wrapping_add(c[l]),
            d0.wrapping_add(d[l]),
        ];
    }
    out
}

fn digest(state: [u32; 4]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (o, w) in out.chunks_exact_mut(4).zip(state) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// The MD5 digests of two messages, compressed together when both fit one block (at most
/// 55 bytes each), else one after the other through [`super::md5`].
pub fn md5_pair(x: &[u8], y: &[u8]) -> [[u8; 16]; 2] {
    match (block_words(x), block_words(y)) {
        (Some(bx), Some(by)) => {
            let [sx, sy] = compress(&transpose(&[bx, by]));
            [digest(sx), digest(sy)]
        }
        _ => [super::md5(x), super::md5(y)],
    }
}

/// The MD5 digests of four messages, compressed together in the lanes of one wasm SIMD
/// vector when all fit one block, else through [`md5_pair`]. Only in the Node wasm (feature
/// `fast`): V8 gains little from [`md5_pair`]'s two interleaved chains (124 ns per message
/// against 79 natively), while four `i32x4` lanes take about 74 ns (docs/bench-node.md).
#[cfg(all(target_arch = "wasm32", not(lean)))]
pub fn md5_quad(x: [&[u8]; 4]) -> [[u8; 16]; 4] {
    match (
        block_words(x[0]),
        block_words(x[1]),
        block_words(x[2]),
        block_words(x[3]),
    ) {
        (Some(a), Some(b), Some(c), Some(d)) => simd::compress4(&[a, b, c, d]).map(digest),
        _ => {
            let [p, q] = md5_pair(x[0], x[1]);
            let [r, s] = md5_pair(x[2], x[3]);
            [p, q, r, s]
        }
    }
}

/// [`compress`] over the four lanes of `v128` values. `#[target_feature]` on a safe
/// function is allowed (and safe to call) on wasm: an engine without SIMD rejects the whole
/// module at load time instead of running it wrongly. Node has had wasm SIMD since v16.4.
#[cfg(all(target_arch = "wasm32", not(lean)))]
mod simd {
    use super::{G, INIT, K, S};
    use core::arch::wasm32::{
        i32x4_add, i32x4_shl, u32x4, u32x4_extract_lane, u32x4_shr, u32x4_splat, v128,
        v128_bitselect, v128_not, v128_or, v128_xor,
    };

    #[inline(always)]
    fn rotl(x: v128, s: u32) -> v128 {
        v128_or(i32x4_shl(x, s), u32x4_shr(x, 32 - s))
    }

    /// Round `r`'s function of RFC 1321 (F, G, H, I) on four lanes.
    #[inline(always)]
    fn f(r: usize, b: v128, c: v128, d: v128) -> v128 {
        match r {
            0 => v128_bitselect(c, d, b),
            1 => v128_bitselect(b, c, d),
            2 => v128_xor(v128_xor(b, c), d),
            _ => v128_xor(c, v128_or(b, v128_not(d))),
        }
    }

    /// The chaining values of four one-block messages (their words as [`super::block_words`]
    /// gives them), one lane each.
    #[target_feature(enable = "simd128")]
    pub(super) fn compress4(w: &[[u32; 16]; 4]) -> [[u32; 4]; 4] {
        let m: [v128; 16] = core::array::from_fn(|g| u32x4(w[0][g], w[1][g], w[2][g], w[3][g]));
        let init = INIT.map(|x| u32x4_splat(x));
        let mut s = init;
        // Step `i` with its constants folded in: written out, as LLVM keeps a 64-trip loop
        // rolled (constants loaded from memory, shifts by a variable), measured slower.
        let mut step = |i: usize| {
            let r = i / 16;
            let [a, b, c, d] = s;
            let t = i32x4_add(
                i32x4_add(a, f(r, b, c, d)),
                i32x4_add(u32x4_splat(K[i]), m[G[i]]),
            );
            s = [d, i32x4_add(b, rotl(t, S[r][i % 4])), b, c];
        };
        macro_rules! steps {
            ($($i:literal)*) => { $( step($i); )* };
        }
        steps!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
        let st: [v128; 4] = core::array::from_fn(|k| i32x4_add(s[k], init[k]));
        let lane = |v: v128| {
            [
                u32x4_extract_lane::<0>(v),
                u32x4_extract_lane::<1>(v),
                u32x4_extract_lane::<2>(v),
                u32x4_extract_lane::<3>(v),
            ]
        };
        let [a, b, c, d] = st.map(lane);
        core::array::from_fn(|l| [a[l], b[l], c[l], d[l]])
    }
}

/// Word `g` of every lane side by side.
fn transpose<const N: usize>(blocks: &[[u32; 16]; N]) -> [[u32; N]; 16] {
    let mut t = [[0u32; N]; 16];
    for (l, b) in blocks.iter().enumerate() {
        for (g, w) in b.iter().enumerate() {
            t[g][l] = *w;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use md5::{Digest, Md5};

    fn exact(d: &[u8]) -> [u8; 16] {
        Md5::digest(d).into()
    }

    #[test]
    fn pairs_match_md5_for_every_one_block_length() {
        let data: Vec<u8> = (0..120u32).map(|i| (i * 151 + 7) as u8).collect();
        for n in 0..=56 {
            for m in [0, 1, 11, 31, 54, 55, 56, 64, 119] {
                let x = &data[..n];
                let y = &data[1..1 + m];
                assert_eq!(md5_pair(x, y), [exact(x), exact(y)], "{n} and {m} bytes");
                assert_eq!(md5_pair(y, x), [exact(y), exact(x)], "{m} and {n} bytes");
            }
        }
    }

    #[test]
    fn pairs_match_md5_on_random_messages() {
        // xorshift64*: lengths 0..=70 (some over one block) and random bytes.
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            s.wrapping_mul(0x2545_F491_4F6C_DD1D)
        };
        for _ in 0..5000 {
            let (n, m) = ((next() % 71) as usize, (next() % 71) as usize);
            let x: Vec<u8> = (0..n).map(|_| next() as u8).collect();
            let y: Vec<u8> = (0..m).map(|_| next() as u8).collect();
            assert_eq!(md5_pair(&x, &y), [exact(&x), exact(&y)]);
        }
    }

    #[test]
    fn known_digests() {
        // RFC 1321 appendix A.5 test suite.
        let [e, a] = md5_pair(b"", b"a");
        assert_eq!(
            crate::hbase::bytes::to_hex(&e),
            "d41d8cd98f00b204e9800998ecf8427e"
        );
        assert_eq!(
            crate::hbase::bytes::to_hex(&a),
            "0cc175b9c0f1b6a831c399e269772661"
        );
        let [abc, md] = md5_pair(b"abc", b"message digest");
        assert_eq!(
            crate::hbase::bytes::to_hex(&abc),
            "900150983cd24fb0d6963f7d28e17f72"
        );
        assert_eq!(
            crate::hbase::bytes::to_hex(&md),
            "f96b697d7cb7938d525a2f31aaf161d0"
        );
    }
}
