//! Split-key arithmetic: HBase `Bytes.split` / `Bytes.iterateOnSplits`, the three
//! `RegionSplitter` algorithms (HexStringSplit, DecimalStringSplit, UniformSplit), the
//! `createTable(desc, start, end, numRegions)` key generator and the client-side split-key
//! check. All arithmetic is done on big integers exactly as upstream does it in
//! `java.math.BigInteger`; the quirks listed in spec §13 are copied on purpose so that the
//! keys shown here are the keys a real cluster would get.
//!
//! Nothing here panics: Java `int` arithmetic that can wrap is done with wrapping ops where
//! Java wraps, and absurd sizes are refused with [`MAX_SPLIT_KEYS`] / [`MAX_OUTPUT_BYTES`] /
//! [`MAX_NUMBER_DIGITS`] (Java would run out of memory instead).

use std::cmp::Ordering;

use crate::bigint::{BigInt, BigUint};

use crate::bytes::{to_bytes_binary, to_string_binary};
use crate::error::{Error, ErrorKind, Result};

/// Largest number of keys one call may produce (Java would try to allocate and die with an
/// `OutOfMemoryError`; a page in a browser should get an error instead).
pub const MAX_SPLIT_KEYS: usize = 1_000_000;

/// Largest total size, in bytes, of the keys one call may produce.
pub const MAX_OUTPUT_BYTES: usize = 256 << 20;

/// Longest number text (in UTF-16 units) the Hex/Decimal splitters will parse. Parsing and
/// printing big numbers is quadratic, so a pasted megabyte must not freeze the page.
pub const MAX_NUMBER_DIGITS: usize = 100_000;

fn cap_error(what: &str, detail: String) -> Error {
    Error::arg(what, detail)
}

/// Unsigned big-endian value of `b`.
fn uint(b: &[u8]) -> BigUint {
    BigUint::from_bytes_be(b)
}

/// `v` as exactly `len` big-endian bytes (left zero-padded; if it were longer, the low `len`
/// bytes, as Java's `tail` would keep).
fn to_fixed_be(v: &BigUint, len: usize) -> Vec<u8> {
    let raw = if v.is_zero() {
        Vec::new()
    } else {
        v.to_bytes_be()
    };
    if raw.len() >= len {
        raw.get(raw.len() - len..)
            .map(<[u8]>::to_vec)
            .unwrap_or_default()
    } else {
        let mut out = vec![0u8; len - raw.len()];
        out.extend_from_slice(&raw);
        out
    }
}

fn pad_tail(b: &[u8], len: usize) -> Vec<u8> {
    let mut v = b.to_vec();
    if v.len() < len {
        v.resize(len, 0);
    }
    v
}

/// A worked-out `iterateOnSplits` round: the ends that will be returned, the start value,
/// the interval and the key length.
struct SplitPlan {
    a: Vec<u8>,
    b: Vec<u8>,
    start: BigUint,
    interval: BigUint,
    len: usize,
    num: usize,
}

impl SplitPlan {
    fn key(&self, i: usize) -> Vec<u8> {
        let v = self.start.add(
            &self
                .interval
                .mul_add_small(u32::try_from(i).unwrap_or(u32::MAX), 0),
        );
        to_fixed_be(&v, self.len)
    }

    fn collect(&self) -> Result<Vec<Vec<u8>>> {
        let fits = self
            .num
            .checked_add(2)
            .and_then(|n| n.checked_mul(self.len.max(self.a.len()).max(self.b.len())))
            .is_some_and(|t| t <= MAX_OUTPUT_BYTES);
        if !fits {
            return Err(cap_error(
                "num",
                format!("the keys would exceed the {MAX_OUTPUT_BYTES}-byte output cap"),
            ));
        }
        let mut out = Vec::with_capacity(self.num + 2);
        out.push(self.a.clone());
        for i in 1..=self.num {
            out.push(self.key(i));
        }
        out.push(self.b.clone());
        Ok(out)
    }
}

/// Java `iterateOnSplits` up to the point where the iterator is built. `Ok(None)` is the
/// `num == Integer.MAX_VALUE` case, where `num + 1` wraps negative and Java's iterator is
/// empty.
fn plan_split(a: &[u8], b: &[u8], inclusive: bool, num: i32) -> Result<Option<SplitPlan>> {
    let mut a_cur = a.to_vec();
    let mut b_cur = b.to_vec();
    loop {
        let len = a_cur.len().max(b_cur.len());
        let a_pad = pad_tail(&a_cur, len);
        let b_pad = pad_tail(&b_cur, len);
        if a_pad.cmp(&b_pad) != Ordering::Less {
            return Err(Error::arg("b", "b <= a: the end key must sort after the start key (both padded with 00 to the same length)"));
        }
        if num <= 0 {
            return Err(Error::arg("num", format!("num cannot be <= 0, got {num}")));
        }
        if num == i32::MAX {
            // Java: `num + 1` wraps to Integer.MIN_VALUE, so the iterator yields nothing.
            return Ok(None);
        }
        let n = usize::try_from(num).map_err(|_| Error::arg("num", "num out of range"))?;
        if n > MAX_SPLIT_KEYS {
            return Err(cap_error(
                "num",
                format!("at most {MAX_SPLIT_KEYS} split keys are supported, got {num}"),
            ));
        }
        let start = uint(&a_pad);
        // b_pad > a_pad here, so the difference is positive.
        let mut diff = uint(&b_pad).checked_sub(&start).unwrap_or_default();
        if inclusive {
            diff = diff.add(&BigUint::from(1));
        }
        let splits = u32::try_from(n + 1).unwrap_or(u32::MAX);
        if diff < BigUint::from(u64::from(splits)) {
            // Not enough room between the keys: extend both by one zero byte and retry.
            a_cur = a_pad;
            a_cur.push(0);
            b_cur = b_pad;
            b_cur.push(0);
            continue;
        }
        let (interval, _) = diff.div_rem_small(splits).unwrap_or_default();
        return Ok(Some(SplitPlan {
            a: a_cur,
            b: b_cur,
            start,
            interval,
            len,
            num: n,
        }));
    }
}

/// HBase `Bytes.iterateOnSplits(a, b, inclusive, num)`, with the iterated sequence collected:
/// `[a, k1, …, k_num, b]`. Keys have the padded length; when the gap was too small both ends
/// come back padded and extended with zero bytes (spec §4, §13.1). `num == i32::MAX` gives an
/// empty list, because Java's `num + 1` wraps.
pub fn iterate_on_splits(a: &[u8], b: &[u8], inclusive: bool, num: i32) -> Result<Vec<Vec<u8>>> {
    match plan_split(a, b, inclusive, num)? {
        Some(p) => p.collect(),
        None => Ok(Vec::new()),
    }
}

/// HBase `Bytes.split(a, b, inclusive, num)`: `num + 2` keys from `a` to `b`.
///
/// Java allocates the `num + 2` result array before checking anything, so `num + 2 < 0`
/// (with Java's `int` wrap-around) is a `NegativeArraySize` error ahead of the other checks.
pub fn bytes_split(a: &[u8], b: &[u8], inclusive: bool, num: i32) -> Result<Vec<Vec<u8>>> {
    let size = num.wrapping_add(2);
    if size < 0 {
        return Err(Error::new(
            ErrorKind::NegativeArraySize,
            format!("num + 2 is negative ({size}): num = {num}"),
        )
        .at_path("num"));
    }
    iterate_on_splits(a, b, inclusive, num)
}

/// `Bytes.split(a, b, num)`: the exclusive form of [`bytes_split`].
pub fn bytes_split_exclusive(a: &[u8], b: &[u8], num: i32) -> Result<Vec<Vec<u8>>> {
    bytes_split(a, b, false, num)
}

/// `Admin.createTable(desc, startKey, endKey, numRegions)` key generation
/// (`RawAsyncHBaseAdmin.getSplitKeys`): `numRegions - 1` keys that include both ends.
pub fn create_table_split_keys(start: &[u8], end: &[u8], num_regions: i32) -> Result<Vec<Vec<u8>>> {
    if num_regions < 3 {
        return Err(Error::arg(
            "num_regions",
            format!("Must create at least three regions, got {num_regions}"),
        ));
    }
    if start.cmp(end) != Ordering::Less {
        return Err(Error::arg(
            "start",
            "Start key must be smaller than end key",
        ));
    }
    if num_regions == 3 {
        return Ok(vec![start.to_vec(), end.to_vec()]);
    }
    bytes_split(start, end, false, num_regions - 3)
}

/// `RawAsyncHBaseAdmin.verifySplitKeys`: sorts the keys (unsigned order) and refuses an empty
/// key or a duplicate. Returns the sorted keys, as the Java array is after the in-place sort.
pub fn verify_split_keys(mut keys: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
    keys.sort();
    let mut last: Option<&Vec<u8>> = None;
    for (i, k) in keys.iter().enumerate() {
        if k.is_empty() {
            return Err(Error::arg(
                "split_keys",
                "Empty split key must not be passed in the split keys.",
            ));
        }
        if last == Some(k) {
            return Err(Error::arg(
                "split_keys",
                format!(
                    "All split keys must be unique, found duplicate: {}",
                    to_string_binary(k)
                ),
            )
            .at_offset(i));
        }
        last = Some(k);
    }
    Ok(keys)
}

mod region_splitter;

pub use region_splitter::{presplit_keys, AlgorithmKind, SplitAlgorithm, MAX_PRESPLIT_REGIONS};

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn h(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .filter_map(|i| s.get(i..i + 2))
            .filter_map(|p| u8::from_str_radix(p, 16).ok())
            .collect()
    }
    fn u(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }
    fn strs(keys: &[Vec<u8>]) -> Vec<String> {
        keys.iter()
            .map(|k| String::from_utf8_lossy(k).into_owned())
            .collect()
    }

    #[test]
    fn bytes_split_upstream_facts() {
        let r = bytes_split(b"AAA", b"EEE", false, 1).unwrap();
        assert_eq!(r.len(), 3);
        assert_eq!(r[1], b"CCC");
        let r = bytes_split(b"AAA", b"DDD", false, 2).unwrap();
        assert_eq!(r.len(), 4);
        assert_eq!(r[2], b"CCC");
        let r = bytes_split(b"http://A", b"http://z", false, 1).unwrap();
        assert_eq!(r[1], b"http://]");
        let e = bytes_split(&[1, 1, 3], &[1, 1, 1], false, 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::IllegalArgument);
        assert_eq!(
            bytes_split(&[1, 1, 1], &[1, 1, 3], false, 1).unwrap().len(),
            3
        );
        let r = bytes_split(&[1, 1, 1], &[1, 1, 3], false, 2).unwrap();
        assert_eq!(
            r,
            vec![h("01010100"), h("010101aa"), h("01010254"), h("01010300")]
        );
        let e = bytes_split(&[1, 1, 1], &[1, 1, 3], false, 0).unwrap_err();
        assert_eq!(e.kind, ErrorKind::IllegalArgument);
    }

    #[test]
    fn bytes_split_anchors() {
        let r = bytes_split(b"", &[0xff; 8], false, 1).unwrap();
        assert_eq!(r, vec![vec![], h("7fffffffffffffff"), vec![0xff; 8]]);
        let r = bytes_split(b"a", b"b", false, 255).unwrap();
        assert_eq!(r.len(), 257);
        assert_eq!(r[0], h("6100"));
        assert_eq!(r[1], h("6101"));
        assert_eq!(r[255], h("61ff"));
        assert_eq!(r[256], h("6200"));
        let r = bytes_split(b"a", b"b", false, 256).unwrap();
        assert_eq!(r[1].len(), 3);
        let r = bytes_split(b"0000000000000000", b"ffffffffffffffff", false, 8).unwrap();
        let firsts: Vec<u8> = r.iter().map(|k| k[0]).collect();
        assert_eq!(firsts, b"06<BHNTZ`f".to_vec());
        assert!(r.iter().all(|k| k.iter().all(|&x| x == k[0])));
        // a and a||00 are equal once padded
        assert_eq!(
            bytes_split(b"a", b"a\0", false, 1).unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
        assert_eq!(
            bytes_split(b"", b"", false, 1).unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
    }

    #[test]
    fn bytes_split_bad_sizes() {
        assert_eq!(
            bytes_split(b"a", b"b", false, -3).unwrap_err().kind,
            ErrorKind::NegativeArraySize
        );
        assert_eq!(
            bytes_split(b"a", b"b", false, -2).unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
        assert_eq!(
            bytes_split(b"a", b"b", false, i32::MAX).unwrap_err().kind,
            ErrorKind::NegativeArraySize
        );
        let e = bytes_split(b"a", b"b", false, i32::MAX - 2).unwrap_err();
        assert_eq!(e.kind, ErrorKind::IllegalArgument);
        assert_eq!(
            iterate_on_splits(b"a", b"b", false, i32::MAX).unwrap(),
            Vec::<Vec<u8>>::new()
        );
        assert_eq!(
            iterate_on_splits(b"a", b"b", false, -5).unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
    }

    #[test]
    fn hex_upstream_facts() {
        let a = SplitAlgorithm::new(AlgorithmKind::HexString);
        assert_eq!(strs(&a.split_n(2).unwrap()), ["80000000"]);
        assert_eq!(strs(&a.split_n(3).unwrap()), ["55555555", "aaaaaaaa"]);
        assert_eq!(
            a.split_range(b"10000000", b"30000000").unwrap(),
            b"20000000"
        );
        assert_eq!(a.last_row(), b"ffffffff");
        assert_eq!(a.first_row(), b"00000000");
        assert_eq!(
            a.split_range(&a.first_row(), b"20000000").unwrap(),
            b"10000000"
        );
        assert_eq!(
            a.split_range(b"dfffffff", &a.last_row()).unwrap(),
            b"efffffff"
        );
        assert_eq!(
            strs(&a.split_range_n(b"00000000", b"30000000", 3, false).unwrap()),
            ["10000000", "20000000"]
        );
        let r = a.split_range_n(b"00000000", b"20000000", 2, true).unwrap();
        assert_eq!(r.len(), 3);
        assert_eq!(r[1], b"10000000");
        let s16 = strs(&a.split_n(16).unwrap());
        assert_eq!(s16.first().map(String::as_str), Some("10000000"));
        assert_eq!(s16.last().map(String::as_str), Some("f0000000"));
        // rolling split point with an open end bumps the last row
        assert_eq!(
            a.rolling_split_point(b"80000000", b"").unwrap(),
            b"c0000000"
        );
        assert_eq!(a.separator(), " ");
    }

    #[test]
    fn decimal_upstream_facts() {
        let a = SplitAlgorithm::new(AlgorithmKind::DecimalString);
        assert_eq!(strs(&a.split_n(2).unwrap()), ["50000000"]);
        assert_eq!(strs(&a.split_n(3).unwrap()), ["33333333", "66666666"]);
        assert_eq!(
            a.split_range(b"10000000", b"30000000").unwrap(),
            b"20000000"
        );
        assert_eq!(a.last_row(), b"99999999");
        assert_eq!(a.first_row(), b"00000000");
        assert_eq!(
            a.split_range(&a.first_row(), b"20000000").unwrap(),
            b"10000000"
        );
        assert_eq!(
            a.split_range(&a.first_row(), b"19999999").unwrap(),
            b"09999999"
        );
        assert_eq!(
            a.split_range(b"79999999", &a.last_row()).unwrap(),
            b"89999999"
        );
        assert_eq!(
            strs(&a.split_range_n(b"00000000", b"30000000", 3, false).unwrap()),
            ["10000000", "20000000"]
        );
    }

    #[test]
    fn uniform_upstream_facts() {
        let a = SplitAlgorithm::new(AlgorithmKind::Uniform);
        assert_eq!(a.split_n(1).unwrap_err().kind, ErrorKind::IllegalArgument);
        assert_eq!(a.split_n(2).unwrap(), vec![h("8000000000000000")]);
        assert_eq!(
            a.split_n(3).unwrap(),
            vec![h("5555555555555555"), h("aaaaaaaaaaaaaaaa")]
        );
        assert_eq!(a.split_range(&[0x10], &[0x30]).unwrap(), vec![0x20]);
        assert_eq!(a.last_row(), vec![0xff; 8]);
        assert!(a.first_row().is_empty());
        assert_eq!(a.split_range(b"", &[0x20]).unwrap(), vec![0x10]);
        assert_eq!(
            a.split_range(&h("dfffffffffffffff"), &a.last_row())
                .unwrap(),
            h("efffffffffffffff")
        );
        assert_eq!(a.split_range(b"aaa", b"aab").unwrap(), b"aaa\x80");
        assert_eq!(
            a.split_range_n(b"aaa", b"aad", 3, false).unwrap(),
            vec![b"aab".to_vec(), b"aac".to_vec()]
        );
        let r = a.split_range_n(b"aaa", b"aae", 2, true).unwrap();
        assert_eq!(r.len(), 3);
        assert_eq!(r[1], b"aac");
        assert_eq!(
            a.split_range(b"", b"").unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
        assert_eq!(a.separator(), ",");
        assert_eq!(
            a.split_n(-5).unwrap_err().kind,
            ErrorKind::NegativeArraySize
        );
    }

    #[test]
    fn user_bounds() {
        let with = |k, f: &str, l: &str| {
            let mut a = SplitAlgorithm::new(k);
            a.set_first_row_str(&u(f)).unwrap();
            a.set_last_row_str(&u(l)).unwrap();
            a
        };
        assert!(SplitAlgorithm::new(AlgorithmKind::HexString)
            .split_n(100)
            .is_ok());
        assert!(with(AlgorithmKind::HexString, "00", "AA")
            .split_n(100)
            .is_ok());
        assert!(with(AlgorithmKind::HexString, "0", "2").split_n(3).is_ok());
        let hx = with(AlgorithmKind::HexString, "0", "A");
        assert_eq!(
            strs(&hx.split_n(11).unwrap()),
            ["1", "2", "3", "4", "5", "6", "7", "8", "9", "a"]
        );
        assert_eq!(hx.split_n(12).unwrap_err().kind, ErrorKind::IllegalState);
        assert_eq!(
            with(AlgorithmKind::HexString, "AA", "00")
                .split_n(2)
                .unwrap_err()
                .kind,
            ErrorKind::IllegalArgument
        );
        assert_eq!(
            with(AlgorithmKind::HexString, "AA", "AA")
                .split_n(2)
                .unwrap_err()
                .kind,
            ErrorKind::IllegalArgument
        );
        assert!(with(AlgorithmKind::DecimalString, "0", "9")
            .split_n(10)
            .is_ok());
        assert_eq!(
            with(AlgorithmKind::DecimalString, "0", "9")
                .split_n(11)
                .unwrap_err()
                .kind,
            ErrorKind::IllegalState
        );
        assert_eq!(
            with(AlgorithmKind::DecimalString, "99", "00")
                .split_n(2)
                .unwrap_err()
                .kind,
            ErrorKind::IllegalArgument
        );
        assert!(with(AlgorithmKind::Uniform, "\\x00", "\\x0A")
            .split_n(12)
            .is_ok());
        assert_eq!(
            with(AlgorithmKind::Uniform, "\\xAA", "\\xAA")
                .split_n(2)
                .unwrap_err()
                .kind,
            ErrorKind::IllegalArgument
        );
        // byte[] setters do not move NumberStringSplit bounds
        let mut d = SplitAlgorithm::new(AlgorithmKind::HexString);
        d.set_last_row_bytes(b"A");
        assert_eq!(d.last_row(), b"ffffffff");
    }

    #[test]
    fn bad_inputs() {
        let a = SplitAlgorithm::new(AlgorithmKind::HexString);
        assert_eq!(a.split_n(0).unwrap_err().kind, ErrorKind::NegativeArraySize);
        assert_eq!(
            a.split_n(i32::MIN).unwrap_err().kind,
            ErrorKind::NegativeArraySize
        );
        let e = a.split_n(i32::MAX).unwrap_err();
        assert_eq!(e.kind, ErrorKind::IllegalArgument);
        assert!(e.message.contains("at most"));
        assert_eq!(
            a.str_to_row(&u("g")).unwrap_err().kind,
            ErrorKind::NumberFormat
        );
        assert_eq!(
            a.str_to_row(&u("")).unwrap_err().kind,
            ErrorKind::NumberFormat
        );
        assert_eq!(
            a.str_to_row(&u("-")).unwrap_err().kind,
            ErrorKind::NumberFormat
        );
        assert_eq!(
            a.str_to_row(&u("1-2")).unwrap_err().kind,
            ErrorKind::NumberFormat
        );
        assert_eq!(a.str_to_row(&u("-1")).unwrap(), b"000000-1");
        assert_eq!(a.str_to_row(&u("\u{0661}\u{FF21}")).unwrap(), b"0000001a");
        assert_eq!(
            a.split_range(b"10", b"").unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
        assert_eq!(
            a.split_range(b"zz", b"10").unwrap_err().kind,
            ErrorKind::NumberFormat
        );
        assert_eq!(
            a.split_range(b"30000000", b"10000000").unwrap(),
            b"20000000"
        );
        let long = vec![u16::from(b'1'); MAX_NUMBER_DIGITS + 1];
        assert_eq!(
            a.str_to_row(&long).unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
    }

    #[test]
    fn create_table_and_verify() {
        let s = b"0000000000000000";
        let e = b"ffffffffffffffff";
        assert_eq!(create_table_split_keys(s, e, 10).unwrap().len(), 9);
        assert_eq!(
            create_table_split_keys(s, e, 3).unwrap(),
            vec![s.to_vec(), e.to_vec()]
        );
        assert_eq!(
            create_table_split_keys(s, e, 2).unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
        assert_eq!(
            create_table_split_keys(b"b", b"a", 5).unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
        // passes the createTable guard but fails inside Bytes.split
        assert_eq!(
            create_table_split_keys(b"a", b"a\0", 5).unwrap_err().kind,
            ErrorKind::IllegalArgument
        );
        assert_eq!(
            verify_split_keys(vec![b"b".to_vec(), b"a".to_vec()]).unwrap(),
            vec![b"a".to_vec(), b"b".to_vec()]
        );
        assert_eq!(
            verify_split_keys(vec![b"a".to_vec(), vec![]])
                .unwrap_err()
                .kind,
            ErrorKind::IllegalArgument
        );
        assert_eq!(
            verify_split_keys(vec![b"a".to_vec(), b"b".to_vec(), b"a".to_vec()])
                .unwrap_err()
                .kind,
            ErrorKind::IllegalArgument
        );
    }

    #[test]
    fn binary_strings() {
        assert_eq!(
            to_string_binary(&[b'0', b'9', b'a', b'z', b'A', b'Z', b'@', 1]),
            "09azAZ@\\x01"
        );
        assert_eq!(to_bytes_binary(&u("\\xab")), b"xab");
        assert_eq!(to_bytes_binary(&u("\\x4g")), b"x4g");
        assert_eq!(to_bytes_binary(&u("abc\\x00\\x01\\")), b"abc\x00\x01\\");
        assert_eq!(to_bytes_binary(&u("abc\\x")), b"abc\\x");
        assert_eq!(to_bytes_binary(&u("\u{20ac}")), vec![0xac]);
    }
}
