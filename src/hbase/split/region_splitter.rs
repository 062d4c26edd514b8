//! HBase's `RegionSplitter` algorithms (HexStringSplit, DecimalStringSplit, UniformSplit) with
//! Java's `BigInteger` text parsing of first and last rows, and the user-facing pre-split
//! ([`presplit_keys`]).

use super::*;

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
        return Err(Error::limit(
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
        return Err(nfe(
            what,
            format!(
                "Zero length BigInteger: {}",
                crate::support::json::quote(&text)
            ),
        ));
    }
    let mut vals = Vec::with_capacity(digits.len());
    for &c in digits {
        match java_digit(c, radix) {
            Some(d) => vals.push(d),
            None => {
                return Err(nfe(
                    what,
                    format!(
                        "For input string: {} under radix {radix}",
                        crate::support::json::quote(&text)
                    ),
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

/// The step between `n` keys over `[lo, hi]` (inclusive), with upstream's checks in its order:
/// a granularity past the range (`IllegalState`), then `n <= 0` (the array allocation's
/// `NegativeArraySize`), then the engine's key-count limit. `path` names `n`; `what` it counts.
fn step_over(lo: &BigInt, hi: &BigInt, n: i32, path: &str, what: &str) -> Result<BigInt> {
    let range = hi.sub(lo).add(&BigInt::from(1));
    if range < BigInt::from(i64::from(n)) {
        return Err(Error::new(
            ErrorKind::IllegalState,
            format!("split granularity ({n}) is greater than the range ({range})"),
        )
        .at_path(path));
    }
    if n <= 0 {
        return Err(Error::new(
            ErrorKind::NegativeArraySize,
            format!("the number of {what} must be at least 1, got {n}"),
        )
        .at_path(path));
    }
    check_key_count(path, n)?;
    Ok(range.div_small(n.unsigned_abs()).unwrap_or_default())
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
        let step = step_over(&self.lo, &self.hi, n, "n", "regions")?;
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
        let step = step_over(&s, &e, k, "num_splits", "splits")?;
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
        return Err(Error::limit(
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
