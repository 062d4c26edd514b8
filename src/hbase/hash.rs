//! Hashes that row-key designs lean on: HBase `MD5Hash.getMD5AsHex` (spec §6), Java's
//! `String.hashCode`, `Arrays.hashCode(byte[])` and `Bytes.hashCode(byte[],int,int)` (§7),
//! plus the hash-based row-key recipes of `recipes.jsonl` (hash prefix, MD5 prefix, the two
//! `abs`/`%` salt orders). All arithmetic is Java's 32-bit wrapping `int` arithmetic.

use md5::{Digest, Md5};

// Not in the size-optimised (`lean`) wasm: the analyzer batches MD5 buckets only in native
// builds and the Node wasm (see `CompiledKey::defers_md5`).
#[cfg(not(lean))]
mod lanes;
#[cfg(not(lean))]
pub use lanes::md5_pair;
#[cfg(all(target_arch = "wasm32", not(lean)))]
pub use lanes::md5_quad;

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::{add, to_bytes_short, to_bytes_string, to_hex};

/// `MD5Hash.getMD5AsHex(key)`: the MD5 digest of `key` as 32 lowercase hex characters.
pub fn md5_as_hex(key: &[u8]) -> String {
    to_hex(&md5(key))
}

/// `MD5Hash.getMD5AsHex(key, offset, length)`: MD5 of `key[offset .. offset+length)`.
/// Bad ranges fail the way the JDK's `MessageDigest.update` does: `length` greater than
/// `len(key) - offset` is an `IllegalArgument` error ("Input buffer too short"); a zero
/// `length` hashes nothing whatever the offset; otherwise a negative `offset` or `length`
/// is an `IndexOutOfBounds` error.
pub fn md5_as_hex_range(key: &[u8], offset: i32, length: i32) -> Result<String> {
    let klen = i32::try_from(key.len()).unwrap_or(i32::MAX);
    if klen.wrapping_sub(offset) < length {
        return Err(Error::arg(
            "length",
            format!(
                "input buffer too short: offset {offset} + length {length} exceeds {}",
                key.len()
            ),
        ));
    }
    if length == 0 {
        return Ok(md5_as_hex(&[]));
    }
    let slice = usize::try_from(offset)
        .ok()
        .zip(usize::try_from(length).ok())
        .and_then(|(o, l)| key.get(o..o.checked_add(l)?))
        .ok_or_else(|| {
            Error::new(
                ErrorKind::IndexOutOfBounds,
                format!("offset {offset} and length {length} must not be negative"),
            )
            .at_path(if offset < 0 { "offset" } else { "length" })
        })?;
    Ok(md5_as_hex(slice))
}

/// Java `String.hashCode()`: `h = 31*h + unit` over the UTF-16 code units, 32-bit wrap.
pub fn java_string_hash_code(s: &[u16]) -> i32 {
    java_hash_of(s.iter().map(|&u| i32::from(u)), 0)
}

/// `h = 31 * h + x` over `xs` from `h0`, 32-bit wrapping, four elements per step:
/// `h * 31^4 + x0 * 31^3 + x1 * 31^2 + x2 * 31 + x3` is the same value (wrapping arithmetic is
/// exact modulo 2^32) with one multiply in the dependency chain per four elements instead of
/// four.
pub fn java_hash_of(xs: impl ExactSizeIterator<Item = i32>, h0: i32) -> i32 {
    const P2: i32 = 31 * 31;
    const P3: i32 = 31 * 31 * 31;
    const P4: i32 = 31 * 31 * 31 * 31;
    let mut h = h0;
    let mut xs = xs;
    while xs.len() >= 4 {
        if let (Some(a), Some(b), Some(c), Some(d)) = (xs.next(), xs.next(), xs.next(), xs.next()) {
            h = h
                .wrapping_mul(P4)
                .wrapping_add(a.wrapping_mul(P3))
                .wrapping_add(b.wrapping_mul(P2))
                .wrapping_add(c.wrapping_mul(31))
                .wrapping_add(d);
        }
    }
    xs.fold(h, |h, x| h.wrapping_mul(31).wrapping_add(x))
}

/// `String.hashCode` of ASCII text given as its bytes (each byte is then one UTF-16 unit), or
/// `None` when a byte is not ASCII: the check and the hash in one pass over the slice, four
/// bytes per step of the dependency chain as in [`java_hash_of`].
pub fn java_hash_ascii(bytes: &[u8]) -> Option<i32> {
    const P2: i32 = 31 * 31;
    const P3: i32 = 31 * 31 * 31;
    const P4: i32 = 31 * 31 * 31 * 31;
    let (mut h, mut any) = (0i32, 0u8);
    let mut quads = bytes.chunks_exact(4);
    for q in quads.by_ref() {
        if let [a, b, c, d] = *q {
            any |= a | b | c | d;
            h = h
                .wrapping_mul(P4)
                .wrapping_add(i32::from(a).wrapping_mul(P3))
                .wrapping_add(i32::from(b).wrapping_mul(P2))
                .wrapping_add(i32::from(c).wrapping_mul(31))
                .wrapping_add(i32::from(d));
        }
    }
    for &x in quads.remainder() {
        any |= x;
        h = h.wrapping_mul(31).wrapping_add(i32::from(x));
    }
    (any < 0x80).then_some(h)
}

/// The MD5 digest of `data`. Inputs up to 55 bytes (row key parts) fit one padded block:
/// it is built on the stack and compressed once, without the streaming hasher's buffer.
pub fn md5(data: &[u8]) -> [u8; 16] {
    if data.len() <= 55 {
        md5_one_block(data)
    } else {
        Md5::digest(data).into()
    }
}

/// MD5 of at most 55 bytes: the message, `0x80`, zeros and the bit length in one block.
fn md5_one_block(data: &[u8]) -> [u8; 16] {
    let mut block = [0u8; 64];
    let n = data.len();
    if let Some(dst) = block.get_mut(..n) {
        dst.copy_from_slice(data);
    }
    if let Some(b) = block.get_mut(n) {
        *b = 0x80;
    }
    if let Some(len) = block.get_mut(56..) {
        len.copy_from_slice(&(n as u64 * 8).to_le_bytes());
    }
    let mut state: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
    md5::block_api::compress(&mut state, std::slice::from_ref(&block));
    let mut out = [0u8; 16];
    for (o, w) in out.chunks_exact_mut(4).zip(state) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// Java `String.hashCode()` of a Rust string (hashes its UTF-16 form).
pub fn java_str_hash_code(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(i32::from(u)))
}

/// Java `Arrays.hashCode(byte[])`: `h = 1; h = 31*h + signedByte`, 32-bit wrap (a Java
/// `null` array hashes to 0, which callers handle before getting here).
pub fn arrays_hash_code(b: &[u8]) -> i32 {
    java_hash_of(b.iter().map(|&x| i32::from(x as i8)), 1)
}

/// `Bytes.hashCode(b, offset, length)`: [`arrays_hash_code`] of `b[offset .. offset+length)`.
/// As in Java's loop, an empty range (`length <= 0`, or `offset + length` wrapping around)
/// hashes to 1 without touching the array; a non-empty range that leaves the array is an
/// `IndexOutOfBounds` error.
pub fn bytes_hash_code(b: &[u8], offset: i32, length: i32) -> Result<i32> {
    let end = offset.wrapping_add(length);
    if end <= offset {
        return Ok(1);
    }
    let slice = usize::try_from(offset)
        .ok()
        .zip(usize::try_from(end).ok())
        .and_then(|(o, e)| b.get(o..e))
        .ok_or_else(|| {
            Error::new(
                ErrorKind::IndexOutOfBounds,
                format!(
                    "offset {offset} + length {length} runs outside an array of {}",
                    b.len()
                ),
            )
            .at_path("offset")
        })?;
    Ok(arrays_hash_code(slice))
}

/// The hash-prefix recipe: `add(toBytes((short)(s.hashCode() & 0x7FFF)), toBytes(s))`,
/// a 2-byte non-negative prefix in front of the UTF-8 key.
pub fn hash_short_prefix(s: &[u16]) -> Vec<u8> {
    let prefix = (java_string_hash_code(s) & 0x7FFF) as i16;
    add(&to_bytes_short(prefix), &to_bytes_string(s))
}

/// The MD5-prefix recipe: `toBytes(getMD5AsHex(toBytes(s)).substring(0, prefix_len) + sep + s)`.
/// The concatenation happens on UTF-16 before encoding, as in Java. `prefix_len` outside
/// 0..=32 is an `IndexOutOfBounds` error (Java's `StringIndexOutOfBoundsException`).
pub fn md5_hex_prefix(s: &[u16], prefix_len: i32, sep: &[u16]) -> Result<Vec<u8>> {
    let hex = md5_as_hex(&to_bytes_string(s));
    let prefix =
        usize::try_from(prefix_len)
            .ok()
            .and_then(|n| hex.get(..n))
            .ok_or_else(|| {
                Error::new(
            ErrorKind::IndexOutOfBounds,
            format!("prefix_len must be between 0 and 32 (the MD5 hex length), got {prefix_len}"),
        )
        .at_path("prefix_len")
            })?;
    let mut units: Vec<u16> = prefix.encode_utf16().collect();
    units.extend_from_slice(sep);
    units.extend_from_slice(s);
    Ok(to_bytes_string(&units))
}

fn check_buckets(buckets: i32) -> Result<()> {
    if buckets == 0 {
        return Err(Error::new(
            ErrorKind::Arithmetic,
            "buckets must not be zero (division by zero)",
        )
        .at_path("buckets"));
    }
    Ok(())
}

/// The salt byte of `salt_abs_of_mod`: `(byte) Math.abs(s.hashCode() % buckets)`. The low 8
/// bits are kept, so buckets above 256 wrap, as in Java. `buckets == 0` is an `Arithmetic`
/// error.
pub fn salt_byte_abs_of_mod(s: &[u16], buckets: i32) -> Result<u8> {
    check_buckets(buckets)?;
    Ok(java_string_hash_code(s)
        .wrapping_rem(buckets)
        .wrapping_abs() as u8)
}

/// The salt byte of `salt_mod_of_abs`: `(byte)(Math.abs(s.hashCode()) % buckets)`. Copied
/// with its flaw: `Math.abs(Integer.MIN_VALUE)` stays negative, so such keys get a negative
/// (high) salt byte (§7, e.g. `"polygenelubricants"` with 10 buckets -> `f8`).
pub fn salt_byte_mod_of_abs(s: &[u16], buckets: i32) -> Result<u8> {
    check_buckets(buckets)?;
    Ok(java_string_hash_code(s)
        .wrapping_abs()
        .wrapping_rem(buckets) as u8)
}

/// The `salt_abs_of_mod` recipe: [`salt_byte_abs_of_mod`] followed by `toBytes(s)`.
pub fn salt_abs_of_mod(s: &[u16], buckets: i32) -> Result<Vec<u8>> {
    Ok(add(
        &[salt_byte_abs_of_mod(s, buckets)?],
        &to_bytes_string(s),
    ))
}

/// The `salt_mod_of_abs` recipe: [`salt_byte_mod_of_abs`] followed by `toBytes(s)`.
pub fn salt_mod_of_abs(s: &[u16], buckets: i32) -> Result<Vec<u8>> {
    Ok(add(
        &[salt_byte_mod_of_abs(s, buckets)?],
        &to_bytes_string(s),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn java_hash_ascii_is_string_hash_code() {
        let text: Vec<u8> = (0..64u32).map(|i| b' ' + (i * 7 % 95) as u8).collect();
        for n in 0..text.len() {
            let t = text.get(..n).unwrap_or(&[]);
            let units: Vec<u16> = t.iter().map(|&b| u16::from(b)).collect();
            assert_eq!(
                java_hash_ascii(t),
                Some(java_string_hash_code(&units)),
                "{n} bytes"
            );
            // One byte above ASCII anywhere: not this path's to hash.
            for i in 0..n {
                let mut bad = t.to_vec();
                if let Some(b) = bad.get_mut(i) {
                    *b |= 0x80;
                }
                assert_eq!(java_hash_ascii(&bad), None, "{n} bytes, byte {i}");
            }
        }
        assert_eq!(
            java_hash_ascii(b"13412341234"),
            Some(java_string_hash_code(&u("13412341234")))
        );
    }

    #[test]
    fn md5_one_block_matches_the_hasher() {
        let data: Vec<u8> = (0..200u32).map(|i| (i * 37 + 11) as u8).collect();
        for n in 0..data.len() {
            let d = data.get(..n).unwrap_or(&[]);
            let exact: [u8; 16] = Md5::digest(d).into();
            assert_eq!(md5(d), exact, "{n} bytes");
        }
    }

    #[test]
    fn md5_facts() {
        assert_eq!(md5_as_hex(b""), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(md5_as_hex_range(b"xabcx", 1, 3), Ok(md5_as_hex(b"abc")));
        assert_eq!(md5_as_hex_range(b"abc", 3, 0), Ok(md5_as_hex(b"")));
        assert_eq!(md5_as_hex_range(b"abc", -1, 0), Ok(md5_as_hex(b"")));
        assert_eq!(
            md5_as_hex_range(b"abc", 5, 0).map_err(|e| e.kind),
            Err(ErrorKind::IllegalArgument)
        );
        assert_eq!(
            md5_as_hex_range(b"abc", 1, 3).map_err(|e| e.kind),
            Err(ErrorKind::IllegalArgument)
        );
        assert_eq!(
            md5_as_hex_range(b"abc", -1, 2).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        assert_eq!(
            md5_as_hex_range(b"abc", 0, -1).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        assert!(md5_as_hex_range(b"abc", i32::MIN, i32::MAX).is_err());
    }

    #[test]
    fn java_hash_facts() {
        assert_eq!(java_string_hash_code(&[]), 0);
        assert_eq!(java_string_hash_code(&u("polygenelubricants")), i32::MIN);
        assert_eq!(java_str_hash_code("polygenelubricants"), i32::MIN);
        assert_eq!(java_string_hash_code(&[0xD800]), 0xD800);
        assert_eq!(arrays_hash_code(&[]), 1);
        let b = [1u8, 0x80, 0xff, 7];
        assert_eq!(arrays_hash_code(&b), bytes_hash_code(&b, 0, 4).unwrap_or(0));
        assert_eq!(bytes_hash_code(&b, 1, 2), Ok(arrays_hash_code(&b[1..3])));
        assert_eq!(bytes_hash_code(&[], 0, 0), Ok(1));
        assert_eq!(
            bytes_hash_code(&b, 3, 2).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        assert_eq!(
            bytes_hash_code(&b, -1, 2).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        assert_eq!(bytes_hash_code(&b, 2, i32::MAX), Ok(1));
    }

    #[test]
    fn recipes() {
        // Math.abs(MIN_VALUE) % 10 = -8 -> f8; MIN_VALUE % 10 = -8 -> abs 8.
        let p = u("polygenelubricants");
        assert_eq!(salt_byte_mod_of_abs(&p, 10), Ok(0xf8));
        assert_eq!(salt_byte_abs_of_mod(&p, 10), Ok(0x08));
        assert_eq!(
            salt_abs_of_mod(&p, 0).map_err(|e| e.kind),
            Err(ErrorKind::Arithmetic)
        );
        assert_eq!(
            salt_mod_of_abs(&p, -1),
            Ok(add(&[0], b"polygenelubricants"))
        );
        assert_eq!(hash_short_prefix(&[]), vec![0, 0]);
        assert_eq!(md5_hex_prefix(&[], 8, &u("_")), Ok(b"d41d8cd9_".to_vec()));
        assert_eq!(
            md5_hex_prefix(&[], 33, &[]).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        assert_eq!(
            md5_hex_prefix(&[], -1, &[]).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        // A lone high surrogate at the end of `sep` pairs with a low one starting `s`.
        assert_eq!(
            md5_hex_prefix(&[0xDE00], 0, &[0xD83D]),
            Ok(vec![0xf0, 0x9f, 0x98, 0x80])
        );
    }
}
