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

use crate::hbase::bigint::{BigInt, BigUint};

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::{to_bytes_binary, to_string_binary};

/// Largest number of keys one call may produce (Java would try to allocate and die with an
/// `OutOfMemoryError`; a page in a browser should get an error instead).
pub const MAX_SPLIT_KEYS: usize = 1_000_000;

/// Largest total size, in bytes, of the keys one call may produce.
pub const MAX_OUTPUT_BYTES: usize = 256 << 20;

/// Longest number text (in UTF-16 units) the Hex/Decimal splitters will parse. Parsing and
/// printing big numbers is quadratic, so a pasted megabyte must not freeze the page.
pub const MAX_NUMBER_DIGITS: usize = 100_000;

fn cap_error(what: &str, detail: String) -> Error {
    Error::limit(what, detail)
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
pub fn verify_split_keys(keys: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
    let keys = crate::hbase::bytes::sorted_keys(&keys);
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
mod tests;
