//! What a user's data does to the key: per field the key reads, its rows, nulls, distinct values,
//! heaviest values, range and how monotonic it is; per key, its length distribution and the
//! number of distinct prefixes at each byte. Counted exactly up to [`MAX_PROFILE_DISTINCT`]
//! values per field or prefix length; past it the figure says so (`exact: false`, a lower bound),
//! never a silent estimate.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::keyspec::{FieldType, FieldValue};
// the maps take a lookup or two for every row and field: a fast hash
use crate::support::fast_hash::Fast;

/// Most distinct values (or key prefixes of one length) counted exactly per field (or length).
pub const MAX_PROFILE_DISTINCT: usize = 1 << 20;
/// Heaviest values listed per field.
const HEAVIEST: usize = 10;
/// Prefix lengths (bytes) whose distinct prefixes are counted.
const PREFIXES: usize = 16;

/// One value with its count.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ValueCount {
    /// The value as text (its JSON form for numbers and booleans; a time as ISO 8601 in UTC).
    pub value: String,
    /// Rows holding it.
    pub rows: u64,
}

/// One field of the design as the rows fill it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldProfile {
    /// The field.
    pub field: String,
    /// The file's column it reads.
    pub column: Option<String>,
    /// Rows that reached the key (nulls in the key's fields are skipped and counted apart).
    pub rows: u64,
    /// Rows where this field was null (a field the key does not read, or a row skipped).
    pub nulls: u64,
    /// Distinct values: exact when `exact`, else a lower bound (counting stopped at
    /// [`MAX_PROFILE_DISTINCT`]).
    pub distinct: u64,
    /// Whether `distinct` and `heaviest` are exact.
    pub exact: bool,
    /// The heaviest values, most rows first (ties by value).
    pub heaviest: Vec<ValueCount>,
    /// The smallest and largest value (numbers and times by value, text by its bytes), as
    /// the heaviest values are written.
    pub min: Option<String>,
    /// The largest value.
    pub max: Option<String>,
    /// For numbers and times: the share of rows not smaller than the row before (1.0 for a
    /// sequence or a time in order; about 0.5 for values in no order).
    pub monotonic: Option<f64>,
}

/// The row keys the rows make.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyProfile {
    /// Keys built.
    pub keys: u64,
    /// The shortest and longest key, and the mean length (bytes).
    pub min_length: usize,
    /// The longest key.
    pub max_length: usize,
    /// The mean length.
    pub mean_length: f64,
    /// Keys of each length: `[length, keys]`, by length.
    pub lengths: Vec<(usize, u64)>,
    /// Distinct prefixes of 1, 2, … 16 bytes: how fast the key's leading bytes tell rows apart
    /// (a salt of 8 buckets shows 8 at byte 1; a key led by a time shows few for many bytes).
    pub prefixes: Vec<PrefixCount>,
}

/// Distinct key prefixes of one length.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PrefixCount {
    /// Prefix length, bytes.
    pub bytes: usize,
    /// Distinct prefixes (a lower bound when not `exact`).
    pub distinct: u64,
    /// Whether `distinct` is exact.
    pub exact: bool,
}

/// The whole profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RowsProfile {
    /// Per field the design declares, in declaration order.
    pub fields: Vec<FieldProfile>,
    /// The keys.
    pub key: KeyProfile,
}

/// The distinct values of one thing, counted exactly until there are too many.
#[derive(Debug, Default)]
struct Counter {
    counts: HashMap<Vec<u8>, u64, Fast>,
    full: bool,
}

impl Counter {
    fn add(&mut self, v: &[u8]) {
        if let Some(n) = self.counts.get_mut(v) {
            *n += 1;
        } else if self.counts.len() < MAX_PROFILE_DISTINCT {
            self.counts.insert(v.to_vec(), 1);
        } else {
            self.full = true;
        }
    }
}

/// The distinct key prefixes of one length, exactly until there are too many: each (at most
/// [`PREFIXES`] = 16 bytes) packed into a `u128`, zero-padded (one length a set, so the packing
/// is one to one), not a heap allocation a prefix (millions of them to allocate and free).
#[derive(Debug, Default)]
struct Prefixes {
    seen: HashSet<u128, Fast>,
    full: bool,
}

impl Prefixes {
    /// Whether `p` (at most 16 bytes) was seen before (a full set says yes: it counts no more).
    fn seen_before(&mut self, p: &[u8]) -> bool {
        if self.full {
            return true;
        }
        let mut packed = [0u8; 16];
        let n = p.len().min(16);
        packed[..n].copy_from_slice(&p[..n]);
        let v = u128::from_be_bytes(packed);
        if self.seen.contains(&v) {
            return true;
        }
        if self.seen.len() < MAX_PROFILE_DISTINCT {
            self.seen.insert(v);
            false
        } else {
            self.full = true;
            true
        }
    }
}

#[derive(Debug, Default)]
struct FieldState {
    rows: u64,
    nulls: u64,
    counter: Counter,
    min: Option<FieldValue>,
    max: Option<FieldValue>,
    prev: Option<f64>,
    ordered: u64,
    pairs: u64,
}

/// Counts the profile, row by row (a [`super::RowScan`] feeds it).
#[derive(Debug)]
pub struct Profiler {
    fields: Vec<(String, FieldType)>,
    states: Vec<FieldState>,
    lengths: std::collections::BTreeMap<usize, u64>,
    prefixes: Vec<Prefixes>,
    keys: u64,
    text: String,
}

impl Profiler {
    /// A profiler of the design's fields (name, type).
    pub fn new(fields: &[(String, FieldType)]) -> Profiler {
        Profiler {
            fields: fields.to_vec(),
            states: fields.iter().map(|_| FieldState::default()).collect(),
            lengths: std::collections::BTreeMap::new(),
            prefixes: (0..PREFIXES).map(|_| Prefixes::default()).collect(),
            keys: 0,
            text: String::new(),
        }
    }

    /// One row's values and its key.
    pub fn row(&mut self, values: &[FieldValue], key: &[u8]) {
        for (s, v) in self.states.iter_mut().zip(values) {
            if matches!(v, FieldValue::Null) {
                s.nulls += 1;
                continue;
            }
            s.rows += 1;
            self.text.clear();
            value_text(v, &mut self.text);
            s.counter.add(self.text.as_bytes());
            if s.min.as_ref().map_or(true, |m| less(v, m)) {
                s.min = Some(v.clone());
            }
            if s.max.as_ref().map_or(true, |m| less(m, v)) {
                s.max = Some(v.clone());
            }
            if let Some(x) = number(v) {
                if let Some(p) = s.prev {
                    s.pairs += 1;
                    if x >= p {
                        s.ordered += 1;
                    }
                }
                s.prev = Some(x);
            }
        }
        self.keys += 1;
        *self.lengths.entry(key.len()).or_insert(0) += 1;
        // Longest first: a prefix seen before means every shorter one of it was too (they were
        // added with it, or their length was already full), so most rows stop after a lookup or
        // two. (16 lookups a row into maps of up to a million prefixes were most of a profile's
        // time: 6.5 s of 6.7 on 3.3 M rows, natively.)
        for (i, c) in self.prefixes.iter_mut().enumerate().take(key.len()).rev() {
            if c.seen_before(key.get(..=i).unwrap_or(key)) && !c.full {
                break;
            }
        }
    }

    /// The profile, with what reading found (`stats`: each field's column, and the rows
    /// skipped for a null, counted as that column's nulls).
    pub fn finish(&self, stats: &super::RowStats) -> RowsProfile {
        let columns = &stats.columns;
        let fields = self
            .fields
            .iter()
            .zip(&self.states)
            .map(|((name, ty), s)| {
                let time = *ty == FieldType::Timestamp;
                let shown = |text: String| if time { time_text(&text) } else { text };
                let mut heavy: Vec<(&Vec<u8>, &u64)> = s.counter.counts.iter().collect();
                heavy.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
                FieldProfile {
                    field: name.clone(),
                    column: columns.get(name).cloned(),
                    rows: s.rows,
                    nulls: s.nulls
                        + columns
                            .get(name)
                            .and_then(|c| stats.skipped.get(c))
                            .copied()
                            .unwrap_or(0),
                    distinct: s.counter.counts.len() as u64,
                    exact: !s.counter.full,
                    heaviest: heavy
                        .into_iter()
                        .take(HEAVIEST)
                        .map(|(v, n)| ValueCount {
                            value: shown(String::from_utf8_lossy(v).into_owned()),
                            rows: *n,
                        })
                        .collect(),
                    min: s.min.as_ref().map(text_of).map(shown),
                    max: s.max.as_ref().map(text_of).map(shown),
                    monotonic: (s.pairs > 0).then(|| s.ordered as f64 / s.pairs as f64),
                }
            })
            .collect();
        let total: u64 = self.lengths.iter().map(|(l, n)| *l as u64 * n).sum();
        RowsProfile {
            fields,
            key: KeyProfile {
                keys: self.keys,
                min_length: self.lengths.keys().next().copied().unwrap_or(0),
                max_length: self.lengths.keys().next_back().copied().unwrap_or(0),
                mean_length: if self.keys == 0 {
                    0.0
                } else {
                    total as f64 / self.keys as f64
                },
                lengths: self.lengths.iter().map(|(l, n)| (*l, *n)).collect(),
                prefixes: self
                    .prefixes
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| !c.seen.is_empty())
                    .map(|(i, c)| PrefixCount {
                        bytes: i + 1,
                        distinct: c.seen.len() as u64,
                        exact: !c.full,
                    })
                    .collect(),
            },
        }
    }
}

fn value_text(v: &FieldValue, out: &mut String) {
    use std::fmt::Write;
    let _ = match v {
        FieldValue::Null => Ok(()),
        FieldValue::Str(s) => {
            out.push_str(s);
            Ok(())
        }
        FieldValue::Utf16(u) => {
            out.push_str(&String::from_utf16_lossy(u));
            Ok(())
        }
        FieldValue::Long(n) => write!(out, "{n}"),
        FieldValue::Double(d) => write!(out, "{d}"),
        FieldValue::Bool(b) => write!(out, "{b}"),
        FieldValue::Decimal(d) => write!(out, "{}", d.to_java_string()),
    };
}

/// A timestamp's text (milliseconds since the epoch, as counted) as ISO 8601 in UTC, as every
/// shell shows it: `2013-01-01T10:00:00Z`, with milliseconds when there are any. A time outside
/// the years 0000-9999 stays its number.
fn time_text(ms: &str) -> String {
    let Some(c) = ms
        .parse::<i64>()
        .ok()
        .and_then(|n| crate::keyspec::time::civil(n).ok())
    else {
        return ms.to_string();
    };
    let frac = if c.ms == 0 {
        String::new()
    } else {
        format!(".{:03}", c.ms)
    };
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{frac}Z",
        c.y, c.mo, c.d, c.h, c.mi, c.s
    )
}

fn text_of(v: &FieldValue) -> String {
    let mut s = String::new();
    value_text(v, &mut s);
    s
}

fn number(v: &FieldValue) -> Option<f64> {
    match v {
        FieldValue::Long(n) => Some(*n as f64),
        FieldValue::Double(d) => Some(*d),
        _ => None,
    }
}

/// `a < b` within one field's values: numbers by value, text by its UTF-8 bytes.
fn less(a: &FieldValue, b: &FieldValue) -> bool {
    match (a, b) {
        (FieldValue::Long(x), FieldValue::Long(y)) => x < y,
        (FieldValue::Double(x), FieldValue::Double(y)) => x < y,
        (FieldValue::Str(x), FieldValue::Str(y)) => x.as_bytes() < y.as_bytes(),
        (FieldValue::Bool(x), FieldValue::Bool(y)) => x < y,
        _ => text_of(a) < text_of(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distinct prefixes at each length, counted the longest first with the early stop,
    /// equal the sets of every prefix of every key (keys of 0 to 24 bytes over a small alphabet,
    /// so prefixes repeat at every length, in an order that revisits them).
    #[test]
    fn prefix_counts_are_every_prefix_counted() {
        let mut p = Profiler::new(&[]);
        let mut want: Vec<std::collections::BTreeSet<Vec<u8>>> = vec![Default::default(); PREFIXES];
        let mut x: u64 = 7;
        for _ in 0..20_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = (x >> 59) as usize % 25;
            let key: Vec<u8> = (0..len)
                .map(|i| b"ab\x00\xff"[((x >> (2 * i % 58)) & 3) as usize])
                .collect();
            p.row(&[], &key);
            for (i, set) in want.iter_mut().enumerate().take(key.len()) {
                set.insert(key[..=i].to_vec());
            }
        }
        let got = p.finish(&super::super::RowStats::default()).key.prefixes;
        let want: Vec<(usize, u64)> = want
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.is_empty())
            .map(|(i, s)| (i + 1, s.len() as u64))
            .collect();
        assert_eq!(
            got.iter()
                .map(|c| (c.bytes, c.distinct))
                .collect::<Vec<_>>(),
            want
        );
        assert!(got.iter().all(|c| c.exact));
        assert!(want.last().is_some_and(|&(_, n)| n > 1000), "{want:?}");
    }

    /// A time's text: ISO 8601 in UTC, milliseconds when there are any (as JavaScript's
    /// `toISOString` writes them, without `.000`), its number past the year 9999.
    #[test]
    fn times_are_iso_8601() {
        assert_eq!(time_text("1357034400000"), "2013-01-01T10:00:00Z");
        assert_eq!(time_text("1357034400123"), "2013-01-01T10:00:00.123Z");
        assert_eq!(time_text("-1"), "1969-12-31T23:59:59.999Z");
        assert_eq!(time_text("253402300800000"), "253402300800000");
    }
}
