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

/// First code points of the BMP runs of Unicode decimal digits (`Nd`) that Java's
/// `Character.digit` accepts (Unicode 13, JDK 17).
const ND_ZEROS: [u16; 37] = [
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10,
];

/// Java `Character.digit(char, radix)`: Unicode decimal digits, ASCII and fullwidth letters.
fn java_digit(c: u16, radix: u32) -> Option<u8> {
    let v: u16 = match c {
        0x41..=0x5a => c - 0x41 + 10,
        0x61..=0x7a => c - 0x61 + 10,
        0xff21..=0xff3a => c - 0xff21 + 10,
        0xff41..=0xff5a => c - 0xff41 + 10,
        _ => ND_ZEROS
            .iter()
            .find(|&&z| c >= z && c - z < 10)
            .map(|&z| c - z)?,
    };
    if u32::from(v) < radix {
        u8::try_from(v).ok()
    } else {
        None
    }
}

fn nfe(what: &str, msg: String) -> Error {
    Error::new(ErrorKind::NumberFormat, msg).at_path(what)
}

/// `new BigInteger(s, radix)`: one optional leading sign, then at least one digit.
fn parse_java_bigint(s: &[u16], radix: u32, what: &str) -> Result<BigInt> {
    let text = String::from_utf16_lossy(s);
    if s.len() > MAX_NUMBER_DIGITS {
        return Err(Error::arg(
            what,
            format!("number text longer than {MAX_NUMBER_DIGITS} characters is not supported"),
        ));
    }
    let (neg, digits) = match s.first() {
        Some(&0x2d) => (true, s.get(1..).unwrap_or_default()),
        Some(&0x2b) => (false, s.get(1..).unwrap_or_default()),
        _ => (false, s),
    };
    if digits.is_empty() {
        return Err(nfe(what, format!("Zero length BigInteger: {text:?}")));
    }
    let mut vals = Vec::with_capacity(digits.len());
    for &c in digits {
        match java_digit(c, radix) {
            Some(d) => vals.push(d),
            None => {
                return Err(nfe(
                    what,
                    format!("For input string: {text:?} under radix {radix}"),
                ));
            }
        }
    }
    Ok(BigInt::from_parts(
        neg,
        BigUint::from_radix_be(&vals, radix),
    ))
}

/// Which `RegionSplitter` algorithm a [`SplitAlgorithm`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AlgorithmKind {
    /// `HexStringSplit`: rows are 8 lowercase hex digits by default.
    HexString,
    /// `DecimalStringSplit`: rows are 8 decimal digits by default.
    DecimalString,
    /// `UniformSplit`: rows are raw bytes, 8 bytes of `ff` at most by default.
    Uniform,
}

impl AlgorithmKind {
    /// The simple class name the HBase shell and CLI accept (`SPLITALGO => '…'`).
    pub fn name(self) -> &'static str {
        match self {
            AlgorithmKind::HexString => "HexStringSplit",
            AlgorithmKind::DecimalString => "DecimalStringSplit",
            AlgorithmKind::Uniform => "UniformSplit",
        }
    }

    /// Parse a simple class name (`HexStringSplit`, `DecimalStringSplit`, `UniformSplit`).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "HexStringSplit" => Some(AlgorithmKind::HexString),
            "DecimalStringSplit" => Some(AlgorithmKind::DecimalString),
            "UniformSplit" => Some(AlgorithmKind::Uniform),
            _ => None,
        }
    }
}

/// State of `NumberStringSplit` (the shared base of Hex and Decimal).
#[derive(Debug, Clone)]
struct NumberState {
    radix: u32,
    lo: BigInt,
    hi: BigInt,
    /// Pad width: the UTF-16 length of the last string given to `setLastRow(String)`.
    width: usize,
    first_text: String,
    last_text: String,
}

#[derive(Debug, Clone)]
enum Repr {
    Number(NumberState),
    Uniform { first: Vec<u8>, last: Vec<u8> },
}

/// One `RegionSplitter.SplitAlgorithm` instance, with its first/last-row settings.
#[derive(Debug, Clone)]
pub struct SplitAlgorithm {
    kind: AlgorithmKind,
    repr: Repr,
}

/// Appends keys while enforcing the count and byte caps.
struct KeySink {
    keys: Vec<Vec<u8>>,
    bytes: usize,
}

impl KeySink {
    fn new() -> Self {
        KeySink {
            keys: Vec::new(),
            bytes: 0,
        }
    }
    fn push(&mut self, k: Vec<u8>) -> Result<()> {
        self.bytes = self.bytes.saturating_add(k.len());
        if self.bytes > MAX_OUTPUT_BYTES {
            return Err(cap_error(
                "n",
                format!("the keys would exceed the {MAX_OUTPUT_BYTES}-byte output cap"),
            ));
        }
        self.keys.push(k);
        Ok(())
    }
}

fn check_key_count(what: &str, n: i32) -> Result<()> {
    if usize::try_from(n).is_ok_and(|n| n > MAX_SPLIT_KEYS + 1) {
        return Err(cap_error(
            what,
            format!(
                "at most {} regions are supported, got {n}",
                MAX_SPLIT_KEYS + 1
            ),
        ));
    }
    Ok(())
}

impl NumberState {
    fn new(radix: u32, max: &str) -> Self {
        let digits: Vec<u16> = max.encode_utf16().collect();
        let hi = parse_java_bigint(&digits, radix, "last_row").unwrap_or_default();
        NumberState {
            radix,
            lo: BigInt::zero(),
            hi,
            width: max.len(),
            first_text: "00000000".to_string(),
            last_text: max.to_string(),
        }
    }

    /// `convertToByte`: radix text, lowercase, left-padded with `0` to the width.
    fn enc(&self, x: &BigInt) -> Vec<u8> {
        let s = x.to_str_radix(self.radix);
        let mut out = Vec::with_capacity(s.len().max(self.width));
        if s.len() < self.width {
            out.resize(self.width - s.len(), b'0');
        }
        out.extend_from_slice(s.as_bytes());
        out
    }

    /// `convertToBigInteger`: 0 for an empty row, else the row's UTF-8 text in the radix.
    fn dec(&self, row: &[u8], what: &str) -> Result<BigInt> {
        if row.is_empty() {
            return Ok(BigInt::zero());
        }
        let text: Vec<u16> = String::from_utf8_lossy(row).encode_utf16().collect();
        parse_java_bigint(&text, self.radix, what)
    }

    fn split_n(&self, n: i32) -> Result<Vec<Vec<u8>>> {
        if self.hi <= self.lo {
            return Err(Error::arg(
                "last_row",
                format!(
                    "last row ({}) is configured less than first row ({})",
                    self.last_text, self.first_text
                ),
            ));
        }
        let range = self.hi.sub(&self.lo).add(&BigInt::from(1));
        if range < BigInt::from(i64::from(n)) {
            return Err(Error::new(
                ErrorKind::IllegalState,
                format!("split granularity ({n}) is greater than the range ({range})"),
            )
            .at_path("n"));
        }
        if n <= 0 {
            return Err(Error::new(
                ErrorKind::NegativeArraySize,
                format!("the number of regions must be at least 1, got {n}"),
            )
            .at_path("n"));
        }
        check_key_count("n", n)?;
        let step = range.div_small(n.unsigned_abs()).unwrap_or_default();
        let mut sink = KeySink::new();
        for i in 1..n {
            sink.push(self.enc(&self.lo.add(&step.mul_small(i.unsigned_abs()))))?;
        }
        Ok(sink.keys)
    }

    fn split_range(&self, start: &[u8], end: &[u8]) -> Result<Vec<u8>> {
        let s = self.dec(start, "start")?;
        let mut e = self.dec(end, "end")?;
        if e.is_zero() {
            return Err(Error::arg("end", "the end row must not be zero or empty"));
        }
        // Upstream bumps the end only when it is exactly the configured last row.
        if e == self.hi {
            e = e.add(&BigInt::from(1));
        }
        let mid = s.add(&e).div_small(2).unwrap_or_default();
        Ok(self.enc(&mid.abs()))
    }

    fn split_range_n(
        &self,
        start: &[u8],
        end: &[u8],
        k: i32,
        inclusive: bool,
    ) -> Result<Vec<Vec<u8>>> {
        let s = self.dec(start, "start")?;
        let e = self.dec(end, "end")?;
        if e <= s {
            return Err(Error::arg(
                "end",
                format!(
                    "last row ({}) is configured less than first row ({})",
                    to_string_binary(end),
                    to_string_binary(start)
                ),
            ));
        }
        let range = e.sub(&s).add(&BigInt::from(1));
        if range < BigInt::from(i64::from(k)) {
            return Err(Error::new(
                ErrorKind::IllegalState,
                format!("split granularity ({k}) is greater than the range ({range})"),
            )
            .at_path("num_splits"));
        }
        if k <= 0 {
            return Err(Error::new(
                ErrorKind::NegativeArraySize,
                format!("the number of splits must be at least 1, got {k}"),
            )
            .at_path("num_splits"));
        }
        check_key_count("num_splits", k)?;
        let step = range.div_small(k.unsigned_abs()).unwrap_or_default();
        let mut sink = KeySink::new();
        if inclusive {
            sink.push(self.enc(&s))?;
        }
        for i in 1..k {
            sink.push(self.enc(&s.add(&step.mul_small(i.unsigned_abs()))))?;
        }
        if inclusive {
            sink.push(self.enc(&e))?;
        }
        Ok(sink.keys)
    }
}

impl SplitAlgorithm {
    /// A splitter with upstream's defaults (Hex `00000000..ffffffff`, Decimal
    /// `00000000..99999999`, Uniform `""..ffffffffffffffff`).
    pub fn new(kind: AlgorithmKind) -> Self {
        let repr = match kind {
            AlgorithmKind::HexString => Repr::Number(NumberState::new(16, "FFFFFFFF")),
            AlgorithmKind::DecimalString => Repr::Number(NumberState::new(10, "99999999")),
            AlgorithmKind::Uniform => Repr::Uniform {
                first: Vec::new(),
                last: vec![0xff; 8],
            },
        };
        SplitAlgorithm { kind, repr }
    }

    /// Which algorithm this is.
    pub fn kind(&self) -> AlgorithmKind {
        self.kind
    }

    /// `setFirstRow(String)`. Hex/Decimal parse it in their radix (width unchanged);
    /// Uniform reads it with `toBytesBinary`.
    pub fn set_first_row_str(&mut self, s: &[u16]) -> Result<()> {
        match &mut self.repr {
            Repr::Number(st) => {
                st.lo = parse_java_bigint(s, st.radix, "first_row")?;
                st.first_text = String::from_utf16_lossy(s);
            }
            Repr::Uniform { first, .. } => *first = to_bytes_binary(s),
        }
        Ok(())
    }

    /// `setLastRow(String)`. Hex/Decimal parse it **and** take its length as the key width
    /// (upstream assumes the last row is the longest); Uniform reads it with `toBytesBinary`.
    pub fn set_last_row_str(&mut self, s: &[u16]) -> Result<()> {
        match &mut self.repr {
            Repr::Number(st) => {
                st.hi = parse_java_bigint(s, st.radix, "last_row")?;
                st.last_text = String::from_utf16_lossy(s);
                st.width = s.len();
            }
            Repr::Uniform { last, .. } => *last = to_bytes_binary(s),
        }
        Ok(())
    }

    /// `setFirstRow(byte[])`. Uniform uses the bytes; Hex/Decimal only keep the text for
    /// messages and do **not** change their bounds (an upstream quirk, spec §13.6).
    pub fn set_first_row_bytes(&mut self, b: &[u8]) {
        match &mut self.repr {
            Repr::Number(st) => st.first_text = String::from_utf8_lossy(b).into_owned(),
            Repr::Uniform { first, .. } => *first = b.to_vec(),
        }
    }

    /// `setLastRow(byte[])`. Uniform uses the bytes; Hex/Decimal only keep the text (no
    /// effect on bounds or width, as upstream).
    pub fn set_last_row_bytes(&mut self, b: &[u8]) {
        match &mut self.repr {
            Repr::Number(st) => st.last_text = String::from_utf8_lossy(b).into_owned(),
            Repr::Uniform { last, .. } => *last = b.to_vec(),
        }
    }

    /// `split(n)`: the `n - 1` keys that pre-split a table into `n` regions.
    pub fn split_n(&self, n: i32) -> Result<Vec<Vec<u8>>> {
        match &self.repr {
            Repr::Number(st) => st.split_n(n),
            Repr::Uniform { first, last } => {
                if last <= first {
                    return Err(Error::arg(
                        "last_row",
                        format!(
                            "last row ({}) is configured less than first row ({})",
                            to_string_binary(last),
                            to_string_binary(first)
                        ),
                    ));
                }
                let keys = bytes_split(first, last, true, n.wrapping_sub(1))?;
                Ok(drop_ends(keys))
            }
        }
    }

    /// `split(start, end)`: one split point for an existing region. Hex/Decimal: midpoint of
    /// the numbers (end bumped by one when it equals the last row, absolute value, no order
    /// check); Uniform: entry 1 of `Bytes.split(start, end, 1)` with no substitution of empty
    /// bounds.
    pub fn split_range(&self, start: &[u8], end: &[u8]) -> Result<Vec<u8>> {
        match &self.repr {
            Repr::Number(st) => st.split_range(start, end),
            Repr::Uniform { .. } => {
                let keys = bytes_split(start, end, false, 1)?;
                keys.into_iter().nth(1).ok_or_else(|| {
                    Error::new(ErrorKind::IllegalState, "Bytes.split returned no midpoint")
                })
            }
        }
    }

    /// `split(start, end, numSplits, inclusive)`: `numSplits - 1` points inside the range,
    /// plus both ends when `inclusive`. Uniform replaces an empty start/end by first/last row.
    pub fn split_range_n(
        &self,
        start: &[u8],
        end: &[u8],
        num_splits: i32,
        inclusive: bool,
    ) -> Result<Vec<Vec<u8>>> {
        match &self.repr {
            Repr::Number(st) => st.split_range_n(start, end, num_splits, inclusive),
            Repr::Uniform { first, last } => {
                let start = if start.is_empty() {
                    first.as_slice()
                } else {
                    start
                };
                let end = if end.is_empty() { last.as_slice() } else { end };
                if end <= start {
                    return Err(Error::arg(
                        "end",
                        format!(
                            "last row ({}) is configured less than first row ({})",
                            to_string_binary(end),
                            to_string_binary(start)
                        ),
                    ));
                }
                let keys = bytes_split(start, end, true, num_splits.wrapping_sub(1))?;
                Ok(if inclusive { keys } else { drop_ends(keys) })
            }
        }
    }

    /// `firstRow()`: the lowest row, encoded as this algorithm encodes rows.
    pub fn first_row(&self) -> Vec<u8> {
        match &self.repr {
            Repr::Number(st) => st.enc(&st.lo),
            Repr::Uniform { first, .. } => first.clone(),
        }
    }

    /// `lastRow()`: the highest row (Hex prints lowercase, so the default is `ffffffff`).
    pub fn last_row(&self) -> Vec<u8> {
        match &self.repr {
            Repr::Number(st) => st.enc(&st.hi),
            Repr::Uniform { last, .. } => last.clone(),
        }
    }

    /// `strToRow(s)`: Hex/Decimal parse and re-encode (padded to the width); Uniform uses
    /// `toBytesBinary`.
    pub fn str_to_row(&self, s: &[u16]) -> Result<Vec<u8>> {
        match &self.repr {
            Repr::Number(st) => Ok(st.enc(&parse_java_bigint(s, st.radix, "s")?)),
            Repr::Uniform { .. } => Ok(to_bytes_binary(s)),
        }
    }

    /// `rowToStr(row)`: `Bytes.toStringBinary` for all three algorithms.
    pub fn row_to_str(&self, row: &[u8]) -> String {
        to_string_binary(row)
    }

    /// `separator()`: `" "` for Hex/Decimal, `","` for Uniform.
    pub fn separator(&self) -> &'static str {
        match self.repr {
            Repr::Number(_) => " ",
            Repr::Uniform { .. } => ",",
        }
    }

    /// The rolling-split step of `RegionSplitter`: an empty region start becomes
    /// `firstRow()`, an empty end `lastRow()`, then `split(start, end)`.
    pub fn rolling_split_point(&self, start: &[u8], end: &[u8]) -> Result<Vec<u8>> {
        let s = if start.is_empty() {
            self.first_row()
        } else {
            start.to_vec()
        };
        let e = if end.is_empty() {
            self.last_row()
        } else {
            end.to_vec()
        };
        self.split_range(&s, &e)
    }
}

/// `Arrays.copyOfRange(keys, 1, len - 1)`.
fn drop_ends(mut keys: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    if keys.len() < 2 {
        return Vec::new();
    }
    keys.pop();
    keys.remove(0);
    keys
}

/// Largest region count a user-facing pre-split accepts: HBase advises at most a few hundred
/// regions per server, and every key is listed in shell output.
pub const MAX_PRESPLIT_REGIONS: i64 = 100_000;

/// The split keys of a table pre-split into `regions` regions by `kind` — the user-facing form
/// of `RegionSplitter`'s `split(n)`. Unlike the raw port (where `split(1)` quietly returns no
/// keys and `split(0)` fails deep inside), it checks the count up front and says why.
pub fn presplit_keys(
    kind: AlgorithmKind,
    regions: i64,
    first_row: Option<&[u16]>,
    last_row: Option<&[u16]>,
) -> Result<Vec<Vec<u8>>> {
    if regions < 2 {
        return Err(Error::arg(
            "regions",
            format!("{} needs at least 2 regions, got {regions}", kind.name()),
        ));
    }
    if regions > MAX_PRESPLIT_REGIONS {
        return Err(Error::arg(
            "regions",
            format!(
                "{} supports at most {MAX_PRESPLIT_REGIONS} regions here, got {regions}",
                kind.name()
            ),
        ));
    }
    let mut algo = SplitAlgorithm::new(kind);
    if let Some(f) = first_row {
        algo.set_first_row_str(f)?;
    }
    if let Some(l) = last_row {
        algo.set_last_row_str(l)?;
    }
    algo.split_n(regions as i32)
}

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
