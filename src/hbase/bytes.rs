//! HBase `Bytes` (H: `hbase-common/.../util/Bytes.java`): the encoders and decoders row keys
//! are built from, unsigned ordering, `toStringBinary` / `toBytesBinary`, and the small
//! helpers (`add`, `head`, `incrementBytes`, ...). Every function reproduces the Java result
//! byte for byte, quirks included (spec §2, §3, §13), and never panics: where Java would
//! throw, an [`Error`] of the matching [`ErrorKind`] is returned instead.

use std::cmp::Ordering;

use crate::error::{Error, ErrorKind, Result};

mod big_decimal;
mod java_float;
pub(crate) use big_decimal::java_decimal_text;
pub use big_decimal::{to_big_decimal, to_bytes_big_decimal, BigDecimal};
pub use java_float::{java_double_to_string, java_float_to_string};

/// Java `Long.BYTES`.
pub const SIZEOF_LONG: usize = 8;
/// Java `Integer.BYTES`.
pub const SIZEOF_INT: usize = 4;
/// Java `Short.BYTES`.
pub const SIZEOF_SHORT: usize = 2;

// ---------------------------------------------------------------------------------------------
// Encoders
// ---------------------------------------------------------------------------------------------

/// `Bytes.toBytes(String)`: UTF-8 of a Java (UTF-16) string. An unpaired surrogate becomes the
/// single byte `?` (0x3F), as Java's `String.getBytes(UTF_8)` does; the unit after it is
/// encoded normally. Taking UTF-16 keeps lone surrogates byte-exact (§13.5).
pub fn to_bytes_string(s: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut buf = [0u8; 4];
    for r in char::decode_utf16(s.iter().copied()) {
        match r {
            Ok(c) => out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
            Err(_) => out.push(b'?'),
        }
    }
    out
}

/// `Bytes.toBytes(String)` for well-formed text (a Rust `&str` has no lone surrogates, so
/// this is simply its UTF-8).
pub fn to_bytes_str(s: &str) -> Vec<u8> {
    s.as_bytes().to_vec()
}

/// `Bytes.toBytes(long)`: 8 bytes big-endian two's complement.
pub fn to_bytes_long(v: i64) -> [u8; 8] {
    v.to_be_bytes()
}

/// `Bytes.toBytes(int)`: 4 bytes big-endian two's complement.
pub fn to_bytes_int(v: i32) -> [u8; 4] {
    v.to_be_bytes()
}

/// `Bytes.toBytes(short)`: 2 bytes big-endian two's complement.
pub fn to_bytes_short(v: i16) -> [u8; 2] {
    v.to_be_bytes()
}

/// `Bytes.toBytes(double)`: the raw IEEE-754 bit pattern, big-endian. Raw means NaN payloads
/// and the sign of zero are kept (Java uses `doubleToRawLongBits`).
pub fn to_bytes_double(d: f64) -> [u8; 8] {
    d.to_bits().to_be_bytes()
}

/// `Bytes.toBytes(float)`: the raw IEEE-754 single bit pattern, big-endian.
pub fn to_bytes_float(f: f32) -> [u8; 4] {
    f.to_bits().to_be_bytes()
}

/// `Bytes.toBytes(boolean)`: `ff` for true, `00` for false.
pub fn to_bytes_boolean(b: bool) -> [u8; 1] {
    [if b { 0xff } else { 0x00 }]
}

// ---------------------------------------------------------------------------------------------
// Decoders
// ---------------------------------------------------------------------------------------------

/// The first `N` bytes of `b`, or Java's "offset (0) + length (N) exceed the capacity" error.
fn first<const N: usize>(b: &[u8]) -> Result<[u8; N]> {
    b.get(..N)
        .and_then(|s| <[u8; N]>::try_from(s).ok())
        .ok_or_else(|| {
            Error::arg(
                "bytes",
                format!(
                    "offset (0) + length ({N}) exceed the capacity of the array: {}",
                    b.len()
                ),
            )
        })
}

/// `Bytes.toLong(byte[])`: the first 8 bytes big-endian; a longer array is accepted (tail
/// ignored), a shorter one is an `IllegalArgument` error.
pub fn to_long(b: &[u8]) -> Result<i64> {
    first::<8>(b).map(i64::from_be_bytes)
}

/// `Bytes.toInt(byte[])`: the first 4 bytes big-endian (shorter -> `IllegalArgument`).
pub fn to_int(b: &[u8]) -> Result<i32> {
    first::<4>(b).map(i32::from_be_bytes)
}

/// `Bytes.toShort(byte[])`: the first 2 bytes big-endian (shorter -> `IllegalArgument`).
pub fn to_short(b: &[u8]) -> Result<i16> {
    first::<2>(b).map(i16::from_be_bytes)
}

/// `Bytes.toDouble(byte[])`: the first 8 bytes as a raw IEEE-754 bit pattern.
pub fn to_double(b: &[u8]) -> Result<f64> {
    first::<8>(b).map(|a| f64::from_bits(u64::from_be_bytes(a)))
}

/// `Bytes.toFloat(byte[])`: the first 4 bytes as a raw IEEE-754 single bit pattern.
pub fn to_float(b: &[u8]) -> Result<f32> {
    first::<4>(b).map(|a| f32::from_bits(u32::from_be_bytes(a)))
}

/// `Bytes.toString(byte[])`: UTF-8 decode; each malformed sequence becomes one U+FFFD using
/// the "maximal subpart" rule, which is what Java's decoder does.
pub fn to_string(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

// ---------------------------------------------------------------------------------------------
// Ordering and helpers
// ---------------------------------------------------------------------------------------------

/// `Bytes.compareTo(a, b)`: unsigned lexicographic order; a proper prefix sorts first, so the
/// empty array is the smallest row (§1). Only the sign of Java's result is meaningful.
pub fn compare_to(a: &[u8], b: &[u8]) -> Ordering {
    a.cmp(b)
}

/// `keys` in unsigned byte order (`Bytes.BYTES_COMPARATOR`). The references are sorted and the
/// keys cloned in that order: the wasm then links one sort for byte strings (the analyzer sorts
/// `&Vec<u8>` samples) instead of a second one for `Vec<u8>` (about 1 KB gzip).
pub fn sorted_keys(keys: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut refs: Vec<&Vec<u8>> = keys.iter().collect();
    refs.sort_unstable();
    refs.into_iter().cloned().collect()
}

/// How many of the sorted `keys` sort before `key`: where `key` would go. The lower-bound
/// searches over byte strings share this one function, so the wasm links one copy of it.
pub fn lower_bound(keys: &[Vec<u8>], key: &[u8]) -> usize {
    keys.partition_point(|k| k.as_slice() < key)
}

/// `Bytes.add(a, b)`: concatenation.
pub fn add(a: &[u8], b: &[u8]) -> Vec<u8> {
    add_all(&[a, b])
}

/// `Bytes.add(a, b, c)`: concatenation of three arrays.
pub fn add3(a: &[u8], b: &[u8], c: &[u8]) -> Vec<u8> {
    add_all(&[a, b, c])
}

/// `Bytes.add(byte[][])`: concatenation of any number of arrays, in order.
pub fn add_all<T: AsRef<[u8]>>(arrays: &[T]) -> Vec<u8> {
    let total = arrays.iter().map(|a| a.as_ref().len()).sum();
    let mut out = Vec::with_capacity(total);
    for a in arrays {
        out.extend_from_slice(a.as_ref());
    }
    out
}

/// A Java `int` length that must not be negative (`new byte[length]` would throw
/// `NegativeArraySizeException`).
fn array_len(name: &str, length: i32) -> Result<usize> {
    usize::try_from(length).map_err(|_| {
        Error::new(
            ErrorKind::NegativeArraySize,
            format!("{name} must not be negative, got {length}"),
        )
        .at_path(name)
    })
}

/// `Bytes.head(a, length)`: the first `length` bytes; `None` (Java `null`) when `a` is
/// shorter. A negative length is a `NegativeArraySize` error, as in Java.
pub fn head(a: &[u8], length: i32) -> Result<Option<Vec<u8>>> {
    if i64::try_from(a.len()).unwrap_or(i64::MAX) < i64::from(length) {
        return Ok(None);
    }
    let n = array_len("length", length)?;
    Ok(a.get(..n).map(<[u8]>::to_vec))
}

/// `Bytes.tail(a, length)`: the last `length` bytes; `None` (Java `null`) when `a` is shorter.
/// A negative length is a `NegativeArraySize` error.
pub fn tail(a: &[u8], length: i32) -> Result<Option<Vec<u8>>> {
    if i64::try_from(a.len()).unwrap_or(i64::MAX) < i64::from(length) {
        return Ok(None);
    }
    let n = array_len("length", length)?;
    Ok(a.get(a.len().saturating_sub(n)..).map(<[u8]>::to_vec))
}

/// A buffer for `total` bytes, or an error instead of an out-of-memory abort (a huge `length`
/// would kill a wasm page; Java would throw `OutOfMemoryError`): past
/// [`MAX_RESULT_BYTES`](crate::limits::MAX_RESULT_BYTES) a `limit` error, else `Invalid` when
/// the allocation fails.
fn buffer(total: usize) -> Result<Vec<u8>> {
    if total > crate::limits::MAX_RESULT_BYTES {
        return Err(crate::limits::limit_error(
            "length",
            format!("{total} bytes"),
            format!("{} bytes", crate::limits::MAX_RESULT_BYTES),
            "the most one result may hold",
        ));
    }
    let mut out = Vec::new();
    out.try_reserve_exact(total).map_err(|_| {
        Error::new(ErrorKind::Invalid, format!("cannot allocate {total} bytes")).at_path("length")
    })?;
    Ok(out)
}

/// `Bytes.padHead(a, length)`: `length` zero bytes, then `a`.
pub fn pad_head(a: &[u8], length: i32) -> Result<Vec<u8>> {
    let n = array_len("length", length)?;
    let mut out = buffer(a.len().saturating_add(n))?;
    out.resize(n, 0);
    out.extend_from_slice(a);
    Ok(out)
}

/// `Bytes.padTail(a, length)`: `a`, then `length` zero bytes.
pub fn pad_tail(a: &[u8], length: i32) -> Result<Vec<u8>> {
    let n = array_len("length", length)?;
    let mut out = buffer(a.len().saturating_add(n))?;
    out.extend_from_slice(a);
    out.resize(a.len().saturating_add(n), 0);
    Ok(out)
}

/// `Bytes.startsWith(bytes, prefix)`: true iff `bytes` is at least as long as `prefix` and
/// begins with it.
pub fn starts_with(bytes: &[u8], prefix: &[u8]) -> bool {
    bytes.starts_with(prefix)
}

/// `Bytes.toHex(b)`: lowercase hex, two digits per byte.
pub fn to_hex(b: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(b.len() * 2);
    for &x in b {
        s.push(char::from(D[usize::from(x >> 4)]));
        s.push(char::from(D[usize::from(x & 15)]));
    }
    s
}

/// Java's `hexCharToNibble`: 0-9, a-f, A-F.
fn hex_nibble(u: u16) -> Option<u8> {
    let c = char::from_u32(u32::from(u))?;
    c.to_digit(16).and_then(|d| u8::try_from(d).ok())
}

/// `Bytes.fromHex(String)` on a Java (UTF-16) string: the length must be even and every unit a
/// hex digit of either case, else an `IllegalArgument` error.
pub fn from_hex_utf16(hex: &[u16]) -> Result<Vec<u8>> {
    if hex.len() % 2 != 0 {
        return Err(Error::arg(
            "hex",
            format!("length must be a multiple of 2, got {}", hex.len()),
        ));
    }
    let mut out = Vec::with_capacity(hex.len() / 2);
    for (i, pair) in hex.chunks_exact(2).enumerate() {
        let mut byte = 0u8;
        for (j, &u) in pair.iter().enumerate() {
            let n = hex_nibble(u).ok_or_else(|| {
                let shown = char::from_u32(u32::from(u))
                    .map_or_else(|| format!("\\u{u:04x}"), String::from);
                Error::arg(
                    "hex",
                    format!(
                        "invalid hex char {} at index {}",
                        crate::support::json::quote(&shown),
                        2 * i + j
                    ),
                )
            })?;
            byte = (byte << 4) | n;
        }
        out.push(byte);
    }
    Ok(out)
}

/// `Bytes.fromHex(String)` for a Rust string (see [`from_hex_utf16`]).
pub fn from_hex(hex: &str) -> Result<Vec<u8>> {
    let units: Vec<u16> = hex.encode_utf16().collect();
    from_hex_utf16(&units)
}

/// `Bytes.unsignedCopyAndIncrement(b)`: `b` + 1 as an unsigned big-endian number, on a copy.
/// When every byte is `ff` (the empty array included) the result grows by one byte:
/// `01` followed by `len(b)` zeros.
pub fn unsigned_copy_and_increment(b: &[u8]) -> Vec<u8> {
    let mut copy = b.to_vec();
    for x in copy.iter_mut().rev() {
        if *x == 0xff {
            *x = 0;
        } else {
            *x += 1;
            return copy;
        }
    }
    let mut out = Vec::with_capacity(copy.len() + 1);
    out.push(1);
    out.extend_from_slice(&copy);
    out
}

/// `Bytes.incrementBytes(value, amount)`, bugs included (§2, §13.3): `value` is sign-extended
/// to 8 bytes (longer -> `IllegalArgument`; empty -> `IndexOutOfBounds`, Java reads `value[0]`),
/// then `amount` is added byte by byte with a carry that goes through a 32-bit `int`, so the
/// result equals 64-bit addition only while amounts stay within 31 bits. The corruption beyond
/// that is copied on purpose: the golden vectors record it.
pub fn increment_bytes(value: &[u8], amount: i64) -> Result<[u8; 8]> {
    let Some(&first_byte) = value.first() else {
        return Err(Error::new(
            ErrorKind::IndexOutOfBounds,
            "value must not be empty (Java reads value[0])",
        )
        .at_path("value"));
    };
    if value.len() > SIZEOF_LONG {
        return Err(Error::arg(
            "value",
            format!("Increment Bytes - value too big: {}", value.len()),
        ));
    }
    let fill = if first_byte >= 0x80 { 0xff } else { 0x00 };
    let mut val = [fill; 8];
    let start = SIZEOF_LONG - value.len();
    if let Some(dst) = val.get_mut(start..) {
        dst.copy_from_slice(value);
    }
    if amount == 0 {
        return Ok(val);
    }
    let negative = val[0] >= 0x80;
    let (mut amo, sign): (i64, i32) = if amount < 0 {
        (amount.wrapping_neg(), -1)
    } else {
        (amount, 1)
    };
    for slot in val.iter_mut().rev() {
        // Java: `int cur = ((int) amo % 256) * sign;` — the cast binds before `%`.
        let cur = ((amo as i32) % 256) * sign;
        amo >>= 8;
        let total = if negative {
            let v = 256 - i32::from(*slot);
            let mut total = cur - v;
            if total >= 0 {
                amo = amo.wrapping_add(i64::from(sign));
            } else if total < -256 {
                amo = amo.wrapping_sub(i64::from(sign));
                total %= 256;
            }
            total
        } else {
            let mut total = i32::from(*slot) + cur;
            if total > 255 {
                amo = amo.wrapping_add(i64::from(sign));
                total %= 256;
            } else if total < 0 {
                amo = amo.wrapping_sub(i64::from(sign));
            }
            total
        };
        *slot = total as u8;
        if amo == 0 {
            break;
        }
    }
    Ok(val)
}

// ---------------------------------------------------------------------------------------------
// toStringBinary / toBytesBinary
// ---------------------------------------------------------------------------------------------

fn push_binary(out: &mut String, c: u8) {
    const U: &[u8; 16] = b"0123456789ABCDEF";
    if (0x20..=0x7e).contains(&c) && c != b'\\' {
        out.push(char::from(c));
    } else {
        out.push_str("\\x");
        out.push(char::from(U[usize::from(c >> 4)]));
        out.push(char::from(U[usize::from(c & 15)]));
    }
}

/// `Bytes.toStringBinary(b)`: printable ASCII except backslash as itself, every other byte as
/// `\xHH` (uppercase hex).
pub fn to_string_binary(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len());
    for &c in b {
        push_binary(&mut out, c);
    }
    out
}

/// `Bytes.toStringBinary(b, off, len)` with Java's int arithmetic: `off >= len(b)` gives `""`,
/// a range past the end is clipped, `len <= 0` gives `""` (also when `off + len` wraps
/// around). A negative `off` with a non-empty range reads before the array, which Java
/// answers with `ArrayIndexOutOfBoundsException`: here an `IndexOutOfBounds` error.
pub fn to_string_binary_range(b: &[u8], off: i32, len: i32) -> Result<String> {
    let blen = i32::try_from(b.len()).unwrap_or(i32::MAX);
    if off >= blen {
        return Ok(String::new());
    }
    let mut len = len;
    if off.wrapping_add(len) > blen {
        len = blen.wrapping_sub(off);
    }
    let end = off.wrapping_add(len);
    if end <= off {
        return Ok(String::new());
    }
    let slice = usize::try_from(off)
        .ok()
        .and_then(|o| b.get(o..usize::try_from(end).ok()?))
        .ok_or_else(|| {
            Error::new(
                ErrorKind::IndexOutOfBounds,
                format!("off {off} is outside an array of {}", b.len()),
            )
            .at_path("off")
        })?;
    Ok(to_string_binary(slice))
}

/// `Bytes.toBytesBinary(String)` on UTF-16 input, quirks included (§3, §13.4): only
/// `\x` + two *uppercase* hex digits is decoded; a bogus escape drops just the backslash; a
/// backslash with fewer than three units after it is literal; every other unit is truncated
/// to its low 8 bits (`é` -> `e9`, `€` -> `ac`).
pub fn to_bytes_binary(s: &[u16]) -> Vec<u8> {
    fn upper_hex(u: u16) -> Option<u8> {
        match u {
            0x30..=0x39 => Some((u - 0x30) as u8),
            0x41..=0x46 => Some((u - 0x41 + 10) as u8),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while let Some(&ch) = s.get(i) {
        if ch == u16::from(b'\\') && s.len() > i + 3 && s.get(i + 1) == Some(&u16::from(b'x')) {
            let d1 = s.get(i + 2).copied().and_then(upper_hex);
            let d2 = s.get(i + 3).copied().and_then(upper_hex);
            match (d1, d2) {
                (Some(h), Some(l)) => {
                    out.push((h << 4) | l);
                    i += 4;
                }
                // Bogus escape: drop the backslash, carry on with the `x`.
                _ => i += 1,
            }
            continue;
        }
        out.push(ch as u8);
        i += 1;
    }
    out
}

/// [`to_bytes_binary`] for a Rust string.
pub fn to_bytes_binary_str(s: &str) -> Vec<u8> {
    let units: Vec<u16> = s.encode_utf16().collect();
    to_bytes_binary(&units)
}

// ---------------------------------------------------------------------------------------------
// Row-key recipes built from the primitives above
// ---------------------------------------------------------------------------------------------

/// The reverse-timestamp recipe: `toBytes(Long.MAX_VALUE - ts)`, so newer rows sort first.
/// The subtraction wraps like Java's for negative `ts`.
pub fn reverse_timestamp(ts: i64) -> [u8; 8] {
    to_bytes_long(i64::MAX.wrapping_sub(ts))
}

/// Java's `new StringBuilder(s).reverse()`: the code units are reversed, then every surrogate
/// pair that came out as low-high is put back in high-low order (so pairs survive, and two
/// lone surrogates may become a pair).
pub fn reverse_utf16(s: &[u16]) -> Vec<u16> {
    let is_high = |u: u16| (0xD800..0xDC00).contains(&u);
    let is_low = |u: u16| (0xDC00..0xE000).contains(&u);
    let mut v: Vec<u16> = s.iter().rev().copied().collect();
    let mut i = 0;
    while i + 1 < v.len() {
        if let (Some(&a), Some(&b)) = (v.get(i), v.get(i + 1)) {
            if is_low(a) && is_high(b) {
                v.swap(i, i + 1);
                i += 1;
            }
        }
        i += 1;
    }
    v
}

/// The reverse-string recipe: `toBytes(new StringBuilder(s).reverse().toString())`.
pub fn reverse_string(s: &[u16]) -> Vec<u8> {
    to_bytes_string(&reverse_utf16(s))
}

#[cfg(test)]
mod tests;
