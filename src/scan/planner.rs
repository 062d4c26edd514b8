//! The planner: a key design compiled one segment at a time, and each read turned into the
//! scans that serve it (prefix reads, ranges cut at salt buckets, time units or modulo
//! buckets), with their regions and notes.

use serde_json::{Map, Value};

use super::time_unit::{next_boundary, pattern_unit, Unit};
use super::{check_count, next_prefix, regions_of_range, ReadPattern, ReadPlan, Scan, Values};
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::{to_hex, to_string_binary};
use crate::keyspec::{
    CompiledKey, FieldValue, KeySpec, Render, SaltSpec, Segment, TimeSpec, TimeUnit,
};
use crate::workload::FieldDecl;

mod phoenix;
mod ranges;

/// One key segment, compiled alone.
struct Seg {
    seg: Segment,
    enc: CompiledKey,
    /// Fields the segment reads.
    fields: Vec<String>,
}

/// A key design ready to plan reads.
pub struct Planner {
    segs: Vec<Seg>,
    /// Records in the workload, for per-entity row estimates.
    pub records: u64,
    /// The workload, for selectivity estimates of fields without a declared cardinality.
    pub workload: Option<crate::workload::WorkloadSpec>,
    pub(super) decls: Vec<FieldDecl>,
    /// The key's Phoenix primary key, when it is one: its reads are planned column by column
    /// (`planner/phoenix.rs`), not segment by segment.
    pk: Option<std::sync::Arc<crate::keyspec::phoenix::PkRun>>,
}

impl std::fmt::Debug for Planner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Planner")
            .field("segments", &self.segs.len())
            .finish()
    }
}

/// The fields a segment reads (with salt / hash sources).
fn seg_fields(s: &Segment, out: &mut Vec<String>) {
    let v = crate::support::json::to_value(s).unwrap_or(Value::Null);
    collect_fields(&v, out);
}

fn collect_fields(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "field" {
                    if let Value::String(s) = x {
                        if !out.contains(s) {
                            out.push(s.clone());
                        }
                    }
                } else {
                    collect_fields(x, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_fields(x, out)),
        _ => {}
    }
}

/// Salt / hash segments without `of` hash every segment after them: make that explicit.
fn resolve_sources(segs: &[Segment]) -> Vec<Segment> {
    let mut out = Vec::with_capacity(segs.len());
    for (i, s) in segs.iter().enumerate() {
        let rest = || {
            segs.get(i + 1..)
                .map(<[Segment]>::to_vec)
                .unwrap_or_default()
        };
        let s = match s {
            Segment::Salt(sp) if sp.of.is_none() => Segment::Salt(SaltSpec {
                of: Some(rest()),
                ..sp.clone()
            }),
            Segment::Md5(h) if h.of.is_none() => {
                let mut h = h.clone();
                h.of = Some(rest());
                Segment::Md5(h)
            }
            Segment::Hash15(h) if h.of.is_none() => {
                let mut h = h.clone();
                h.of = Some(rest());
                Segment::Hash15(h)
            }
            Segment::Md5Hex(h) if h.of.is_none() => {
                let mut h = h.clone();
                h.of = Some(rest());
                Segment::Md5Hex(h)
            }
            other => other.clone(),
        };
        out.push(s);
    }
    out
}

/// A bucket number written as the key writes it (the keyspec's own `as=` rendering), so a
/// scan's bucket prefix is byte-for-byte the prefix the encoder produced.
fn render_bucket(r: &Render, v: u64) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    crate::keyspec::compile::render(r, i64::try_from(v).ok()?, &mut out).ok()?;
    Some(out)
}

impl Planner {
    /// Compile each segment of `spec` against `fields`.
    pub fn new(spec: &KeySpec, fields: &[FieldDecl]) -> Result<Planner> {
        let key_fields = crate::workload::key_fields(fields);
        let whole = CompiledKey::new(spec, &key_fields)?;
        let pk = whole.ops.iter().find_map(|o| match o {
            crate::keyspec::compile::Op::Pk { run, .. } => Some(run.clone()),
            _ => None,
        });
        if pk.is_some() {
            return Ok(Planner {
                segs: Vec::new(),
                records: crate::workload::WorkloadSpec::default().records,
                workload: None,
                decls: fields.to_vec(),
                pk,
            });
        }
        let resolved = resolve_sources(&spec.segments);
        let mut segs = Vec::with_capacity(resolved.len());
        for s in resolved {
            let enc = CompiledKey::new(
                &KeySpec {
                    segments: vec![s.clone()],
                },
                &key_fields,
            )?;
            let mut f = Vec::new();
            seg_fields(&s, &mut f);
            segs.push(Seg {
                seg: s,
                enc,
                fields: f,
            });
        }
        Ok(Planner {
            segs,
            records: crate::workload::WorkloadSpec::default().records,
            workload: None,
            decls: fields.to_vec(),
            pk: None,
        })
    }

    fn values(&self, rec: &Map<String, Value>, path: &str) -> Result<Values> {
        for k in rec.keys() {
            if !self.decls.iter().any(|d| &d.name == k) {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("the read names `{k}`, which is not a declared field"),
                )
                .at_path(format!("/{path}/{k}")));
            }
        }
        self.decls
            .iter()
            .map(|d| match rec.get(&d.name) {
                Some(v) => FieldValue::from_json(&d.name, d.field_type, v)
                    .map_err(|e| e.at_path(format!("/{path}/{}", d.name))),
                None => Ok(FieldValue::Null),
            })
            .collect()
    }

    fn known(&self, seg: &Seg, vals: &Values) -> bool {
        seg.fields.iter().all(|f| {
            self.decls
                .iter()
                .position(|d| &d.name == f)
                .and_then(|i| vals.get(i))
                .is_some_and(|v| !matches!(v, FieldValue::Null))
        })
    }

    fn encode_seg(&self, seg: &Seg, vals: &Values) -> Option<Vec<u8>> {
        if !self.known(seg, vals) {
            return None;
        }
        let mut enc = seg.enc.clone();
        enc.encode_values(vals).ok()
    }

    fn field_index(&self, name: &str) -> Option<usize> {
        self.decls.iter().position(|d| d.name == name)
    }

    fn ts_of(&self, vals: &Values, field: &str) -> Option<i64> {
        match vals.get(self.field_index(field)?)? {
            FieldValue::Long(x) => Some(*x),
            _ => None,
        }
    }

    fn with_ts(&self, vals: &Values, field: &str, ts: i64) -> Values {
        let mut v = vals.clone();
        if let Some(slot) = self.field_index(field).and_then(|i| v.get_mut(i)) {
            *slot = FieldValue::Long(ts);
        }
        v
    }

    /// Encode the key's leading segments fixed by `vals`, with the salt forced to `bucket`
    /// when given. Returns the bytes and the number of segments encoded.
    fn prefix(&self, vals: &Values, bucket: Option<u64>) -> (Vec<u8>, usize) {
        self.prefix_with(vals, bucket, None)
    }

    /// Like [`Planner::prefix`], with segment `over.0` written as the bytes `over.1`.
    fn prefix_with(
        &self,
        vals: &Values,
        bucket: Option<u64>,
        over: Option<(usize, &[u8])>,
    ) -> (Vec<u8>, usize) {
        let mut out = Vec::new();
        let mut n = 0;
        for (i, seg) in self.segs.iter().enumerate() {
            let b = match (&seg.seg, bucket, over) {
                (_, _, Some((j, o))) if j == i => Some(o.to_vec()),
                (Segment::Salt(sp), Some(b), _) => render_bucket(&sp.render, b),
                (Segment::Random(rp), Some(b), _) => render_bucket(&rp.render, b),
                _ => self.encode_seg(seg, vals),
            };
            match b {
                Some(b) => out.extend_from_slice(&b),
                None => break,
            }
            n += 1;
        }
        (out, n)
    }

    /// The bucket count of the leading salt, if the key has one.
    fn salt(&self) -> Option<(usize, &Seg, u32)> {
        self.segs
            .iter()
            .enumerate()
            .find_map(|(i, s)| match &s.seg {
                Segment::Salt(sp) => Some((i, s, sp.buckets)),
                Segment::Random(rp) => Some((i, s, rp.buckets)),
                _ => None,
            })
    }

    /// Shorten a bound whose last encoded segment is a formatted time at a unit boundary.
    fn trim_time(&self, bytes: Vec<u8>, vals: &Values, encoded: usize) -> Vec<u8> {
        let Some(last) = encoded.checked_sub(1).and_then(|i| self.segs.get(i)) else {
            return bytes;
        };
        let Segment::Time(TimeSpec { field, unit, .. }) = &last.seg else {
            return bytes;
        };
        let Some(text) = self.encode_seg(last, vals) else {
            return bytes;
        };
        let zero = match unit {
            TimeUnit::Ms | TimeUnit::S => self.with_ts(vals, field, 0),
        };
        let Some(epoch) = self.encode_seg(last, &zero) else {
            return bytes;
        };
        if epoch.len() != text.len() || bytes.len() < text.len() {
            return bytes;
        }
        let base = bytes.len() - text.len();
        // Cut points: just after a digit followed by a non-digit.
        for p in 1..text.len() {
            let (Some(a), Some(b)) = (text.get(p - 1), text.get(p)) else {
                continue;
            };
            if a.is_ascii_digit() && !b.is_ascii_digit() && text.get(p..) == epoch.get(p..) {
                return bytes.get(..base + p).map(<[u8]>::to_vec).unwrap_or(bytes);
            }
        }
        bytes
    }

    fn bound(&self, vals: &Values, bucket: Option<u64>) -> Vec<u8> {
        let (b, n) = self.prefix(vals, bucket);
        self.trim_time(b, vals, n)
    }

    fn bound_with(&self, vals: &Values, bucket: Option<u64>, over: (usize, &[u8])) -> Vec<u8> {
        let (b, n) = self.prefix_with(vals, bucket, Some(over));
        self.trim_time(b, vals, n)
    }

    /// Plan one read over the table split at `split_keys`.
    pub fn plan(&self, read: &ReadPattern, split_keys: &[Vec<u8>]) -> Result<ReadPlan> {
        let mut notes = Vec::new();
        let mut limit = None;
        let mut ranges: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        let rows_per_row: Option<f64> = match (&self.pk, read) {
            (Some(run), _) => {
                let (rows, l) = self.phoenix_ranges(run, read, &mut ranges, &mut notes)?;
                limit = l;
                rows
            }
            (None, read) => match read {
                ReadPattern::Get { record, .. } | ReadPattern::Prefix { record, .. } => {
                    let vals = self.values(record, "record")?;
                    // With any bucket standing in for the salt (the scans cover every bucket), a
                    // full record writes every segment; a missing field stops it early.
                    let whole = matches!(read, ReadPattern::Get { .. })
                        && self.prefix(&vals, self.salt().map(|_| 0)).1 == self.segs.len();
                    self.prefix_ranges(&vals, whole, &mut ranges, &mut notes)?;
                    if matches!(read, ReadPattern::Get { .. }) && !whole {
                        notes.push(
                            "the record does not give every key field: this get is a prefix scan"
                                .into(),
                        );
                    }
                    let used = self.used_prefix(&vals);
                    self.estimate(&vals, None, &used, &mut notes)
                }
                ReadPattern::Latest { record, n, .. } => {
                    let vals = self.values(record, "record")?;
                    self.prefix_ranges(&vals, false, &mut ranges, &mut notes)?;
                    self.latest(&vals, *n, &mut limit, &mut notes)
                }
                ReadPattern::Range { from, to, .. } => {
                    let f = self.values(from, "from")?;
                    let t = self.values(to, "to")?;
                    let used = self.range_ranges(&f, &t, &mut ranges, &mut notes)?;
                    self.estimate(&f, Some(&t), &used, &mut notes)
                }
            },
        };
        let ranges = nonempty_ranges(ranges, &mut notes)?;
        // Region indices as u64: the one `[u64]::sort_unstable` the module already has (gini).
        let mut touched: Vec<u64> = Vec::new();
        let scans = ranges
            .into_iter()
            .map(|(start, stop)| {
                let regions = regions_of_range(split_keys, &start, &stop);
                touched.extend(regions.iter().map(|&r| r as u64));
                Scan {
                    start_row_hex: to_hex(&start),
                    start_row: to_string_binary(&start),
                    stop_row_hex: to_hex(&stop),
                    stop_row: to_string_binary(&stop),
                    regions,
                }
            })
            .collect();
        touched.sort_unstable();
        touched.dedup();
        Ok(ReadPlan {
            name: read.name(),
            scans,
            regions_touched: touched.len(),
            rows_read_per_row_returned: rows_per_row,
            notes,
            limit,
        })
    }

    /// Rows read per row returned by a read of an entity's newest `n` rows: `n` with a limit
    /// when a reversed timestamp follows the entity (setting `limit`), else the whole entity.
    fn latest(
        &self,
        vals: &Values,
        n: u64,
        limit: &mut Option<u64>,
        notes: &mut Vec<String>,
    ) -> Option<f64> {
        let (_, enc) = self.prefix(vals, self.salt().map(|_| 0));
        let next = self.segs.get(enc).map(|s| &s.seg);
        let used = self.used_prefix(vals);
        let filter = self.estimate(vals, None, &used, notes);
        match next {
            Some(Segment::Revts(_)) => {
                *limit = Some(n);
                notes.push(format!("a reversed timestamp follows the entity: the newest rows come first, a scan with limit {n} reads {n} rows"));
                filter
            }
            _ => {
                // Rows read: every row under the scanned prefix; rows returned: the
                // newest `n` of the entity (fewer when the entity is smaller).
                let entity = self.rows_per_entity(vals, notes);
                notes.push(format!("the entity's rows are in ascending time: the whole entity is read to find the newest (a reversed scan, Scan#setReversed in HBase 0.98+, with limit {n} reads about {n} rows, each slower to read than going forward)"));
                entity.zip(filter).map(|(e, f)| {
                    let read = e * f;
                    (read / e.max(1.0).min(n.max(1) as f64)).max(1.0)
                })
            }
        }
    }

    /// Fields (outside salts) of the segments before `n`: the ones the scan bounds fix.
    fn fields_before(&self, n: usize) -> Vec<String> {
        self.segs
            .iter()
            .take(n)
            .filter(|s| !matches!(s.seg, Segment::Salt(_) | Segment::Random(_)))
            .flat_map(|s| s.fields.iter().cloned())
            .collect()
    }

    /// The fields a prefix read's scan bounds fix.
    fn used_prefix(&self, vals: &Values) -> Vec<String> {
        let (_, n) = self.prefix(vals, self.salt().map(|_| 0));
        self.fields_before(n)
    }
}

/// The ranges a scan can read: a stop row that is a prefix of (or equal to) the start row
/// leaves the rest of the key open, so the scan covers every row under that prefix; a stop
/// row below the start row is an empty range and is left out (with a note). A read with no
/// range left is refused.
fn nonempty_ranges(
    ranges: Vec<(Vec<u8>, Vec<u8>)>,
    notes: &mut Vec<String>,
) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
    let mut dropped = 0;
    let ranges: Vec<(Vec<u8>, Vec<u8>)> = ranges
        .into_iter()
        .filter_map(|(start, mut stop)| {
            if !stop.is_empty() && start.starts_with(&stop) {
                stop = next_prefix(&stop);
            }
            if !stop.is_empty() && stop <= start {
                dropped += 1;
                return None;
            }
            Some((start, stop))
        })
        .collect();
    if ranges.is_empty() {
        return Err(Error::new(
            ErrorKind::Invalid,
            "the read covers no key: `from` is not below `to`",
        ));
    }
    if dropped > 0 {
        notes.push(format!("{dropped} empty piece(s) left out"));
    }
    Ok(ranges)
}
