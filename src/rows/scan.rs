//! The first pass over a user's rows: how many, and the span of their write times, which the
//! analysis needs before its windows can be cut.

use serde::{Deserialize, Serialize};

use super::RowSink;
use crate::error::Result;
use crate::keyspec::FieldValue;

/// What the first pass found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScanSummary {
    /// Rows handed on.
    pub rows: u64,
    /// The earliest and latest write time (ms), when the rows carry one.
    pub first_ms: Option<i64>,
    /// The latest write time (ms).
    pub last_ms: Option<i64>,
    /// Rows whose time is earlier than the row before it: 0 for rows in time order.
    pub out_of_order: u64,
}

impl ScanSummary {
    /// The summary of two runs of rows together (chunks of one table, first passes apart):
    /// rows added, the earliest and latest times. `out_of_order` adds each run's own (a row
    /// earlier than the last row of the run before it is not seen).
    pub fn merge(&self, other: &ScanSummary) -> ScanSummary {
        let pick = |a: Option<i64>, b: Option<i64>, f: fn(i64, i64) -> i64| match (a, b) {
            (Some(x), Some(y)) => Some(f(x, y)),
            (x, None) => x,
            (None, y) => y,
        };
        ScanSummary {
            rows: self.rows.saturating_add(other.rows),
            first_ms: pick(self.first_ms, other.first_ms, i64::min),
            last_ms: pick(self.last_ms, other.last_ms, i64::max),
            out_of_order: self.out_of_order.saturating_add(other.out_of_order),
        }
    }
}

/// A sink that counts (the first pass), building each row's key when given the key, so a
/// row the analysis would refuse (or skip, for a null) is refused or skipped here too.
#[derive(Debug, Default)]
pub struct RowScan {
    /// What it found so far.
    pub summary: ScanSummary,
    prev: Option<i64>,
    key: Option<crate::keyspec::CompiledKey>,
    buf: Vec<u8>,
    /// The keys kept for a pre-split cut at the rows' quantiles: the rows with the
    /// [`SAMPLE_KEYS`] smallest hashes of their index (every row while there are no more),
    /// as (hash, key) in a max-heap.
    sample: Option<std::collections::BinaryHeap<(u64, Vec<u8>)>>,
    sample_bytes: usize,
    /// The sample is offered no keys for now: the first pass keeps every row's key and offers
    /// them in order later, only if it needs the sample ([`defer_sample`](Self::defer_sample)).
    sample_deferred: bool,
    profiler: Option<Box<super::profile::Profiler>>,
    /// Every row's key since the last [`take_keys`](Self::take_keys) (`encode --records`):
    /// the keys end to end, and where each ends.
    keys: Option<(Vec<u8>, Vec<u32>)>,
    /// Each kept key is followed by its row's digest ([`with_digests`](Self::with_digests)).
    digests: bool,
    /// A sample of the rows' values for the advisor ([`with_row_sample`](Self::with_row_sample)).
    rows_sample: Option<super::RowSampler>,
    /// The keys in write order for a simulation of the table's months
    /// ([`with_write_sample`](Self::with_write_sample)).
    write_sample: Option<crate::workload::WriteSample>,
}

/// Most keys a scan keeps for a pre-split cut at the rows' quantiles: every row's up to this
/// many rows (the split points are then exact), a uniform sample of rows beyond.
pub const SAMPLE_KEYS: usize = 1_000_000;

impl RowScan {
    /// A first pass that builds every row's key with `key`.
    pub fn new(key: Option<crate::keyspec::CompiledKey>) -> RowScan {
        RowScan {
            key,
            ..RowScan::default()
        }
    }

    /// Also profile the rows (needs the key): the design's fields (name, type).
    pub fn with_profile(mut self, fields: &[(String, crate::keyspec::FieldType)]) -> RowScan {
        self.profiler = Some(Box::new(super::profile::Profiler::new(fields)));
        self
    }

    /// Also keep every row's key until [`take_keys`](Self::take_keys) (needs the key).
    pub fn with_keys(mut self) -> RowScan {
        self.keys = Some((Vec::new(), Vec::new()));
        self
    }

    /// Keep every row's key followed by the row's digest ([`crate::keyspec::row_digest`], the
    /// verifier's reading of a table's export): the key, then 16 bytes.
    pub fn with_digests(mut self) -> RowScan {
        self.digests = true;
        self.with_keys()
    }

    /// Whether every row's key is kept ([`with_keys`](Self::with_keys)).
    pub fn keeps_keys(&self) -> bool {
        self.keys.is_some()
    }

    /// The keys of the rows read since the last call ([`with_keys`](Self::with_keys)): the
    /// keys end to end and their offsets (`rows + 1` of them, from 0), as `KeyCodec::encodeAll`
    /// gives them. The caller takes them after each slice, so memory holds one slice's keys.
    pub fn take_keys(&mut self) -> (Vec<u8>, Vec<u32>) {
        let Some((bytes, ends)) = self.keys.as_mut() else {
            return (Vec::new(), vec![0]);
        };
        let mut offsets = Vec::with_capacity(ends.len() + 1);
        offsets.push(0);
        offsets.append(ends);
        (std::mem::take(bytes), offsets)
    }

    /// Whether scans of a file's chunks add up ([`append`](Self::append)) to the scan of the
    /// whole: no profile, kept keys or row sample, and no key sample unless it is deferred (its
    /// keys then come from the rows the first pass keeps, chunks included, in file order).
    pub fn adds_up(&self) -> bool {
        (self.sample.is_none() || self.sample_deferred)
            && self.profiler.is_none()
            && self.keys.is_none()
            && self.rows_sample.is_none()
            && self.write_sample.is_none()
    }

    /// Also keep a content-keyed sample of `k` rows' values (every field of `fields`) for the
    /// advisor ([`super::RowSampler`]).
    pub fn with_row_sample(
        mut self,
        fields: &[(String, crate::keyspec::FieldType)],
        k: u64,
    ) -> Result<RowScan> {
        self.rows_sample = Some(super::RowSampler::new(
            fields.iter().map(|(n, _)| n.clone()).collect(),
            k,
        )?);
        Ok(self)
    }

    /// Also keep an even sample of the keys in write order ([`crate::workload::WriteSample`]): how a
    /// table's writes fall over its keys and over time, for months of its life.
    pub fn with_write_sample(mut self) -> RowScan {
        self.write_sample = Some(crate::workload::WriteSample::new());
        self
    }

    /// The write-order sample ([`with_write_sample`](Self::with_write_sample)), taken once.
    pub fn take_write_sample(&mut self) -> Option<crate::workload::WriteSample> {
        self.write_sample.take()
    }

    /// The row sample kept ([`with_row_sample`](Self::with_row_sample)), taken once.
    pub fn take_row_sample(&mut self) -> Option<super::RowSample> {
        self.rows_sample.take().map(super::RowSampler::finish)
    }

    /// Add the scan of the next chunk of the file: its summary, and its first and last row's
    /// times, so a row earlier than the one before it across the cut is counted too.
    pub fn append(&mut self, next: &ScanSummary, first_ms: Option<i64>, last_ms: Option<i64>) {
        if let (Some(p), Some(f)) = (self.prev, first_ms) {
            if f < p {
                self.summary.out_of_order += 1;
            }
        }
        self.summary = self.summary.merge(next);
        if last_ms.is_some() {
            self.prev = last_ms;
        }
    }

    /// The key of the last row counted (empty without a key).
    pub fn last_key(&self) -> &[u8] {
        &self.buf
    }

    /// The profile ([`with_profile`](Self::with_profile)), given what reading found.
    pub fn profile(&self, stats: &super::RowStats) -> Option<super::profile::RowsProfile> {
        self.profiler.as_ref().map(|p| p.finish(stats))
    }

    /// Also keep the keys a pre-split at the rows' quantiles is cut at (needs the key).
    pub fn with_sample(mut self) -> RowScan {
        self.sample = Some(std::collections::BinaryHeap::new());
        self
    }

    /// The keys kept ([`with_sample`](Self::with_sample)), in no order: every row's when
    /// the file has at most [`SAMPLE_KEYS`] rows (and their keys fit
    /// [`MAX_SAMPLE_BYTES`](crate::limits::MAX_SAMPLE_BYTES)).
    pub fn sample(&self) -> Vec<Vec<u8>> {
        self.sample
            .as_ref()
            .map(|h| h.iter().map(|(_, k)| k.clone()).collect())
            .unwrap_or_default()
    }

    /// Offer the sample no keys until [`offer_sample`](Self::offer_sample) hands them over, in
    /// row order: a first pass that keeps every row's key anyway cuts at all of them when they
    /// fit, and the sample's heap (a million keys, each a copy) would be work thrown away (on
    /// 3.4 M rows, a second of the two passes' seven).
    pub fn defer_sample(&mut self) {
        self.sample_deferred = self.sample.is_some();
    }

    /// Whether the sample waits for [`offer_sample`](Self::offer_sample).
    pub fn sample_deferred(&self) -> bool {
        self.sample_deferred
    }

    /// Offer the sample the keys of rows `0..` in row order, as the scan would have offered
    /// them one by one (the same keys kept), and offer it the later rows' as they come.
    pub fn offer_sample<'a>(&mut self, keys: impl Iterator<Item = &'a [u8]>) {
        self.sample_deferred = false;
        for (i, k) in keys.enumerate() {
            self.keep_key(i as u64, k);
        }
    }

    /// Offer the sample the last row's key (after [`offer_sample`](Self::offer_sample) of the
    /// rows before it).
    pub fn offer_last(&mut self) {
        if let Some(i) = self.summary.rows.checked_sub(1) {
            self.keep(i);
        }
    }

    /// The keys a scan's sample keeps when offered `keys` (rows `0..`, in row order): a
    /// deferred sample's [`sample`](Self::sample), without offering it.
    pub fn sample_from<'a>(keys: impl Iterator<Item = &'a [u8]>) -> Vec<Vec<u8>> {
        let mut s = RowScan::default().with_sample();
        s.offer_sample(keys);
        s.sample()
    }

    fn keep(&mut self, index: u64) {
        if self.sample_deferred || self.sample.is_none() {
            return;
        }
        let key = std::mem::take(&mut self.buf);
        self.keep_key(index, &key);
        self.buf = key;
    }

    fn keep_key(&mut self, index: u64, key: &[u8]) {
        let Some(heap) = self.sample.as_mut() else {
            return;
        };
        let h = xxhash_rust::xxh3::xxh3_64(&index.to_le_bytes());
        let full = heap.len() >= SAMPLE_KEYS
            || self.sample_bytes + key.len() > crate::limits::MAX_SAMPLE_BYTES;
        if full {
            if heap.peek().is_some_and(|(top, _)| h < *top) {
                if let Some((_, old)) = heap.pop() {
                    self.sample_bytes -= old.len();
                }
            } else {
                return;
            }
        }
        self.sample_bytes += key.len();
        heap.push((h, key.to_vec()));
    }
}

impl RowSink for RowScan {
    fn takes_no_rows(&self) -> bool {
        self.keeps_keys()
    }

    fn row(&mut self, values: &[FieldValue], time_ms: Option<i64>) -> Result<()> {
        self.row_keyed(values, time_ms, None)
    }
}

impl RowScan {
    /// Whether the scan's key was compiled from `spec` over `fields` (a key built by one
    /// compiled from them may be handed to [`row_with_key`](Self::row_with_key)).
    pub(crate) fn keyed_by(
        &self,
        spec: &crate::keyspec::KeySpec,
        fields: &[crate::keyspec::Field],
    ) -> bool {
        self.key
            .as_ref()
            .is_some_and(|k| k.is_compiled_from(spec, fields))
    }

    /// [`RowSink::row`] for a row whose key, as the scan's key encodes `values`, is already
    /// built (`key`): copied, not encoded again.
    pub(crate) fn row_with_key(
        &mut self,
        values: &[FieldValue],
        time_ms: Option<i64>,
        key: &[u8],
    ) -> Result<()> {
        self.row_keyed(values, time_ms, Some(key))
    }

    fn row_keyed(
        &mut self,
        values: &[FieldValue],
        time_ms: Option<i64>,
        built: Option<&[u8]>,
    ) -> Result<()> {
        if let Some(k) = self.key.as_mut() {
            self.buf.clear();
            match built {
                Some(key) => self.buf.extend_from_slice(key),
                None => k.encode_values_into(&mut self.buf, values)?,
            }
            self.keep(self.summary.rows);
            if let Some((bytes, ends)) = self.keys.as_mut() {
                bytes.extend_from_slice(&self.buf);
                if self.digests {
                    crate::keyspec::row_digest(values, bytes);
                }
                // a slice's keys stay far below 4 GiB: a slice is at most a row group or 1 MiB
                ends.push(u32::try_from(bytes.len()).map_err(|_| {
                    crate::error::Error::new(
                        crate::error::ErrorKind::Limit,
                        "the keys of one slice of rows passed 4 GiB: take them after each slice",
                    )
                })?);
            }
            if let Some(p) = self.profiler.as_mut() {
                p.row(values, &self.buf);
            }
            if let Some(w) = self.write_sample.as_mut() {
                w.offer(&self.buf, time_ms);
            }
        }
        if let Some(r) = self.rows_sample.as_mut() {
            r.offer(self.summary.rows, values, time_ms);
        }
        let s = &mut self.summary;
        s.rows += 1;
        if let Some(t) = time_ms {
            s.first_ms = Some(s.first_ms.map_or(t, |f| f.min(t)));
            s.last_ms = Some(s.last_ms.map_or(t, |l| l.max(t)));
            if self.prev.is_some_and(|p| t < p) {
                s.out_of_order += 1;
            }
            self.prev = Some(t);
        }
        Ok(())
    }
}
