//! A sample of a file's rows for the design advisor, which evaluates every candidate key on
//! them: each row's values (every field of the design the file has, not only the key's) and
//! write time, the `k` rows with the smallest hashes of their content. Keyed by content, the
//! sample is the same whatever order or pieces the file is read in; kept in file order, so
//! windows cut in arrival order still follow the file.
//!
//! It travels as bytes (to the workers that evaluate candidates): [`SAMPLE_MAGIC`],
//! [`SAMPLE_VERSION`] (little-endian u16), the file's rows and the rows sampled (little-endian
//! u64 each), a byte 1 when the rows carry times and the file's first and last time
//! (little-endian i64 each, 0 without), then the postcard body. The header alone says what
//! the advisor sizes a design by ([`RowSample::header`]), without reading the rows.

use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::{to_big_decimal, to_bytes_big_decimal};
use crate::keyspec::FieldValue;

/// The first bytes of a row sample.
pub const SAMPLE_MAGIC: [u8; 4] = crate::support::magic::SAMPLE;
/// The format version of a row sample: a sample of another version is refused.
pub const SAMPLE_VERSION: u16 = 1;
/// Most rows a sample keeps (the advisor's `records` allows more for a generated workload).
pub const MAX_SAMPLE_ROWS: u64 = 1_000_000;

const HEADER: usize = 4 + 2 + 8 + 8 + 1 + 8 + 8;

/// One value as a sample stores it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Stored {
    Null,
    Str(String),
    Utf16(Vec<u16>),
    Long(i64),
    Double(f64),
    Bool(bool),
    /// `Bytes.toBytes(BigDecimal)`: scale, then the unscaled value.
    Decimal(Vec<u8>),
}

impl Stored {
    fn of(v: &FieldValue) -> Stored {
        match v {
            FieldValue::Null => Stored::Null,
            FieldValue::Str(s) => Stored::Str(s.clone()),
            FieldValue::Utf16(u) => Stored::Utf16(u.clone()),
            FieldValue::Long(n) => Stored::Long(*n),
            FieldValue::Double(d) => Stored::Double(*d),
            FieldValue::Bool(b) => Stored::Bool(*b),
            FieldValue::Decimal(d) => Stored::Decimal(to_bytes_big_decimal(d)),
        }
    }

    fn value(&self) -> FieldValue {
        match self {
            Stored::Null => FieldValue::Null,
            Stored::Str(s) => FieldValue::Str(s.clone()),
            Stored::Utf16(u) => FieldValue::Utf16(u.clone()),
            Stored::Long(n) => FieldValue::Long(*n),
            Stored::Double(d) => FieldValue::Double(*d),
            Stored::Bool(b) => FieldValue::Bool(*b),
            Stored::Decimal(b) => to_big_decimal(b).map_or(FieldValue::Null, FieldValue::Decimal),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Stored::Str(s) => s.len(),
            Stored::Utf16(u) => 2 * u.len(),
            Stored::Decimal(b) => b.len(),
            _ => 0,
        }
    }
}

/// What is done with each sampled row: its values and write time.
pub type EachRow<'a> = dyn FnMut(&[FieldValue], Option<i64>) -> Result<()> + 'a;

/// A sampled row: its content hash and place in the file, its values and write time.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Sampled {
    hash: u64,
    index: u64,
    values: Vec<Stored>,
    time: Option<i64>,
}

impl PartialEq for Sampled {
    fn eq(&self, other: &Self) -> bool {
        (self.hash, self.index) == (other.hash, other.index)
    }
}
impl Eq for Sampled {}
impl PartialOrd for Sampled {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Sampled {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.hash, self.index).cmp(&(other.hash, other.index))
    }
}

/// The content hash of a row: each value's kind and bytes, and its time.
fn content_hash(values: &[FieldValue], time: Option<i64>) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for v in values {
        match v {
            FieldValue::Null => h.update(&[0]),
            FieldValue::Str(s) => {
                h.update(&[1]);
                h.update(&(s.len() as u64).to_le_bytes());
                h.update(s.as_bytes());
            }
            FieldValue::Utf16(u) => {
                h.update(&[2]);
                h.update(&(u.len() as u64).to_le_bytes());
                for c in u {
                    h.update(&c.to_le_bytes());
                }
            }
            FieldValue::Long(n) => {
                h.update(&[3]);
                h.update(&n.to_le_bytes());
            }
            FieldValue::Double(d) => {
                h.update(&[4]);
                h.update(&d.to_bits().to_le_bytes());
            }
            FieldValue::Bool(b) => h.update(&[5, u8::from(*b)]),
            FieldValue::Decimal(d) => {
                let b = to_bytes_big_decimal(d);
                h.update(&[6]);
                h.update(&(b.len() as u64).to_le_bytes());
                h.update(&b);
            }
        }
    }
    if let Some(t) = time {
        h.update(&[7]);
        h.update(&t.to_le_bytes());
    }
    h.digest()
}

/// The sample being kept as a file is read.
#[derive(Debug)]
pub struct RowSampler {
    k: usize,
    fields: Vec<String>,
    heap: BinaryHeap<Sampled>,
    bytes: usize,
    rows: u64,
    /// The earliest and latest write time of every row offered (the file's, not the sample's).
    first_ms: Option<i64>,
    last_ms: Option<i64>,
}

impl RowSampler {
    /// Keep `k` rows (at most [`MAX_SAMPLE_ROWS`]) of rows whose values are `fields` (by
    /// name, in the order the reader hands them).
    pub fn new(fields: Vec<String>, k: u64) -> Result<RowSampler> {
        if k == 0 || k > MAX_SAMPLE_ROWS {
            return Err(Error::arg(
                "sample",
                format!("a sample of {k} rows: from 1 to {MAX_SAMPLE_ROWS}"),
            ));
        }
        Ok(RowSampler {
            k: k as usize,
            fields,
            heap: BinaryHeap::new(),
            bytes: 0,
            rows: 0,
            first_ms: None,
            last_ms: None,
        })
    }

    /// Row `index` of the file.
    pub fn offer(&mut self, index: u64, values: &[FieldValue], time: Option<i64>) {
        self.rows = self.rows.max(index + 1);
        if let Some(t) = time {
            self.first_ms = Some(self.first_ms.map_or(t, |f| f.min(t)));
            self.last_ms = Some(self.last_ms.map_or(t, |l| l.max(t)));
        }
        let hash = content_hash(values, time);
        let full = self.heap.len() >= self.k || self.bytes > crate::limits::MAX_SAMPLE_BYTES;
        if full {
            match self.heap.peek() {
                Some(top) if (hash, index) < (top.hash, top.index) => {
                    if let Some(old) = self.heap.pop() {
                        self.bytes -= old.values.iter().map(Stored::bytes).sum::<usize>();
                    }
                }
                _ => return,
            }
        }
        let values: Vec<Stored> = values.iter().map(Stored::of).collect();
        self.bytes += values.iter().map(Stored::bytes).sum::<usize>();
        self.heap.push(Sampled {
            hash,
            index,
            values,
            time,
        });
    }

    /// The sample, in file order.
    pub fn finish(self) -> RowSample {
        let mut rows = self.heap.into_vec();
        rows.sort_unstable_by_key(|r| r.index);
        RowSample {
            fields: self.fields,
            file_rows: self.rows,
            first_ms: self.first_ms,
            last_ms: self.last_ms,
            rows,
        }
    }
}

/// A sample of a file's rows ([`RowSampler`]), in file order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RowSample {
    /// The fields of each row's values, by name.
    fields: Vec<String>,
    /// Rows in the file.
    file_rows: u64,
    /// The file's earliest and latest write time, when its rows carry one.
    first_ms: Option<i64>,
    last_ms: Option<i64>,
    rows: Vec<Sampled>,
}

impl RowSample {
    /// Rows sampled.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// No row sampled.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Rows in the file.
    pub fn file_rows(&self) -> u64 {
        self.file_rows
    }

    /// The sample's rows with values for `fields` (by name; a field the sample lacks is
    /// null), in file order: `f(values, time)` for each.
    pub fn each(&self, fields: &[String], f: &mut EachRow<'_>) -> Result<()> {
        let at: Vec<Option<usize>> = fields
            .iter()
            .map(|n| self.fields.iter().position(|m| m == n))
            .collect();
        let mut values = Vec::with_capacity(fields.len());
        for r in &self.rows {
            values.clear();
            values.extend(at.iter().map(|i| {
                i.and_then(|i| r.values.get(i))
                    .map_or(FieldValue::Null, Stored::value)
            }));
            f(&values, r.time)?;
        }
        Ok(())
    }

    /// The file's rows and time span, as its first pass found them: what the advisor sizes a
    /// design's workload by (`analyze::doc_for_rows`), so its capacity figures are the rows'.
    pub fn file_summary(&self) -> super::ScanSummary {
        super::ScanSummary {
            rows: self.file_rows,
            first_ms: self.first_ms,
            last_ms: self.last_ms,
            out_of_order: 0,
        }
    }

    /// The sample as bytes (see the module docs).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(HEADER + 64 * self.rows.len());
        out.extend_from_slice(&SAMPLE_MAGIC);
        out.extend_from_slice(&SAMPLE_VERSION.to_le_bytes());
        out.extend_from_slice(&self.file_rows.to_le_bytes());
        out.extend_from_slice(&(self.rows.len() as u64).to_le_bytes());
        let (first, last) = (self.first_ms, self.last_ms);
        out.push(u8::from(first.is_some()));
        out.extend_from_slice(&first.unwrap_or(0).to_le_bytes());
        out.extend_from_slice(&last.unwrap_or(0).to_le_bytes());
        postcard::to_extend(self, out).map_err(|e| {
            Error::new(
                ErrorKind::IllegalState,
                format!("the row sample could not be written: {e}"),
            )
        })
    }

    /// A sample's header alone: the file's summary ([`file_summary`](Self::file_summary))
    /// and the rows sampled.
    pub fn header(bytes: &[u8]) -> Result<(super::ScanSummary, u64)> {
        let bad = |what: &str| Error::arg("rows", format!("not a row sample: {what}"));
        if bytes.get(0..4) != Some(&SAMPLE_MAGIC[..]) {
            return Err(bad("it does not start as one"));
        }
        let word = |a: usize, b: usize| bytes.get(a..b).unwrap_or_default();
        let version = <[u8; 2]>::try_from(word(4, 6))
            .map(u16::from_le_bytes)
            .map_err(|_| bad("too short"))?;
        if version != SAMPLE_VERSION {
            return Err(Error::arg(
                "rows",
                format!("a row sample of format version {version}; this engine reads version {SAMPLE_VERSION}"),
            ));
        }
        let n = |a: usize| {
            <[u8; 8]>::try_from(word(a, a + 8))
                .map(u64::from_le_bytes)
                .map_err(|_| bad("too short"))
        };
        let timed = match word(22, 23) {
            [t] => *t == 1,
            _ => return Err(bad("too short")),
        };
        let time = |a: usize| n(a).map(|t| timed.then_some(t as i64));
        let file = super::ScanSummary {
            rows: n(6)?,
            first_ms: time(23)?,
            last_ms: time(31)?,
            out_of_order: 0,
        };
        Ok((file, n(14)?))
    }

    /// A sample read back from [`to_bytes`](Self::to_bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<RowSample> {
        let (file, n) = Self::header(bytes)?;
        let s: RowSample = postcard::from_bytes(bytes.get(HEADER..).unwrap_or_default())
            .map_err(|e| Error::arg("rows", format!("not a readable row sample: {e}")))?;
        if s.file_summary() != file || s.rows.len() as u64 != n {
            return Err(Error::arg(
                "rows",
                "a row sample whose header and body differ",
            ));
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(n: u64) -> Vec<(Vec<FieldValue>, Option<i64>)> {
        (0..n)
            .map(|i| {
                (
                    vec![
                        FieldValue::Str(format!("d{}", i % 97)),
                        FieldValue::Long(i as i64),
                    ],
                    Some(1_000 + i as i64),
                )
            })
            .collect()
    }

    fn sample(order: &[usize], all: &[(Vec<FieldValue>, Option<i64>)], k: u64) -> Vec<i64> {
        let mut s = RowSampler::new(vec!["d".into(), "n".into()], k).unwrap();
        for &i in order {
            let (v, t) = &all[i];
            s.offer(i as u64, v, *t);
        }
        let s = RowSample::from_bytes(&s.finish().to_bytes().unwrap()).unwrap();
        let mut out = Vec::new();
        s.each(&["n".into(), "missing".into()], &mut |v, _| {
            assert_eq!(v[1], FieldValue::Null);
            if let FieldValue::Long(n) = v[0] {
                out.push(n);
            }
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn the_sample_is_the_rows_of_smallest_content_hash_in_file_order_whatever_the_reading_order() {
        let all = rows(5_000);
        let forward: Vec<usize> = (0..all.len()).collect();
        let mut shuffled = forward.clone();
        // a fixed shuffle: every 7th row first, then the rest backwards
        shuffled.sort_by_key(|&i| (i % 7 != 0, std::cmp::Reverse(i)));
        let a = sample(&forward, &all, 300);
        assert_eq!(a.len(), 300);
        assert_eq!(a, sample(&shuffled, &all, 300));
        assert!(a.windows(2).all(|w| w[0] < w[1]), "in file order");
        // the rows of smallest hash, computed apart
        let mut want: Vec<(u64, i64)> = all
            .iter()
            .enumerate()
            .map(|(i, (v, t))| (content_hash(v, *t), i as i64))
            .collect();
        want.sort_unstable();
        let mut want: Vec<i64> = want.iter().take(300).map(|x| x.1).collect();
        want.sort_unstable();
        assert_eq!(a, want);
        // fewer rows than k: every row
        assert_eq!(
            sample(&forward[..50], &all, 300),
            (0..50).collect::<Vec<_>>()
        );
    }

    #[test]
    fn bad_sizes_and_bytes_are_refused() {
        assert!(RowSampler::new(vec![], 0).is_err());
        assert!(RowSampler::new(vec![], MAX_SAMPLE_ROWS + 1).is_err());
        let bytes = RowSampler::new(vec!["a".into()], 3)
            .unwrap()
            .finish()
            .to_bytes()
            .unwrap();
        let (file, n) = RowSample::header(&bytes).unwrap();
        assert_eq!((file.rows, n), (0, 0));
        assert!(RowSample::from_bytes(&bytes[..bytes.len().min(10)]).is_err());
        assert!(RowSample::from_bytes(b"RKLP\x01\x00").is_err());
        let mut v2 = bytes.clone();
        v2[4] = 2;
        assert!(RowSample::from_bytes(&v2)
            .unwrap_err()
            .message
            .contains("version 2"));
    }
}
