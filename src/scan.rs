//! Read patterns and scan planning: each read a design must serve becomes the scans HBase
//! would run for that key design, with their start and stop rows, the regions they touch and
//! an estimate of rows read per row returned.
//!
//! The planner walks the key's segments in order and encodes each one the read fixes (every
//! field it reads is given), using the design's own compiled encoder one segment at a time.
//! It stops at the first segment the read leaves open: that segment and everything after are
//! covered by the scan range.
//!
//! * **Salt buckets** (`salt`, `random`): when the read gives the salt's sources, the bucket is
//!   computed; a range whose salt hashes a time field (seed 000's
//!   `(phone + yyyyMM) % n`) is cut at that field's unit boundaries and each piece gets its own
//!   bucket. Otherwise there is one scan per bucket, as HBaseWD's
//!   `DistributedScanner` / `getDistributedIntervals` does. Merge order: scans are listed
//!   bucket by bucket (bucket 0 first) and each returns rows in key order; a client merging
//!   them must merge-sort by the key **after** the salt prefix to get the logical order (the
//!   `DistributedScanner` merges by taking the smallest original key across the per-bucket
//!   scanners).
//! * **Hashes** (`md5`, `md5Hex`, `hash15`) of fields the read does not fix make the rest of the
//!   key unordered: the read becomes a scan of everything after the prefix (full table when
//!   the hash leads) with a filter.
//! * **Modulo buckets** (`bucket(ts, mod=n)`) of a field the range varies: key order within
//!   the range is lost at the bucket, so there is one scan per bucket the range reaches, each
//!   bounded by the range after the bucket. A range of `b - a ≥ n` values reaches all `n`
//!   buckets; a shorter one only the buckets of its own `b - a` values (seed 001's
//!   `ts % 100`: a one-minute read is 100 scans, a 30 ms read 30). Merge order as for salts:
//!   bucket by bucket, merge-sorted by the key after the bucket. A salt whose sources vary is
//!   always cut at its time unit (or scanned per bucket), even when both bounds happen to
//!   hash to the same bucket.
//! * **Gets** that give every key field read their row alone: `[row, row + \x00)`, the range
//!   of HBase's `Get` (one per bucket when the salt cannot be computed). A get that leaves a
//!   field out is a prefix scan, `[prefix, next_prefix)`, and its notes say so.
//! * **Open tails**: when the read leaves a segment open before (or at) the one its bounds
//!   differ in, both bounds stop at the same prefix; the scan is then that prefix's
//!   `[prefix, next_prefix)` and the varying field is filtered. A scan with `start == stop`
//!   is never emitted; a read whose `from` is not below its `to` is refused.
//! * **Rows read per row returned**: 1 / the product of the shares of the workload kept by
//!   each given field the scan bounds do not fix (filtered fields). A fixed value's share is
//!   its weight in a weighted generator, else 1 / the declared cardinality, else
//!   1 / the generator's distinct values (zipf `n`, list length, distinct phones, one per
//!   record for sequences and clocks, ...), capped by the record count. A filtered range's
//!   share is its overlap with the clock's time span (or the sequence's values). Each
//!   estimate is named in the plan's notes; `None` when one cannot be made.
//! * **Reversed timestamps** (`revts`): the range flips: time `[from, to)` is key
//!   `[rev(to − 1), rev(from − 1))`.
//! * A bound that ends in a formatted time at a unit boundary is shortened to the unit
//!   (`…_2021-09-07 00:00:00` → `…_2021-09-07`) when the cut-off text is the smallest the
//!   pattern can write, which gives the same rows (seed 000's bounds).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::FieldValue;
use crate::keyspec::KeySpec;
use crate::workload::{FieldDecl, WorkloadSpec};

/// The most scans one read may plan (time pieces or salt buckets).
pub const MAX_SCANS: usize = 10_000;

/// A read the table must serve. Records are partial JSON records: the fields the read fixes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum ReadPattern {
    /// A get by the full key: every field of the key is given.
    Get {
        /// A label.
        #[serde(default)]
        name: Option<String>,
        /// The record.
        record: Map<String, Value>,
    },
    /// Every row whose leading fields equal these (a prefix scan).
    Prefix {
        /// A label.
        #[serde(default)]
        name: Option<String>,
        /// The fixed fields.
        record: Map<String, Value>,
    },
    /// Rows from `from` (inclusive) to `to` (exclusive): two partial records that agree on
    /// the leading fields and differ in one (such as a time).
    Range {
        /// A label.
        #[serde(default)]
        name: Option<String>,
        /// The lower bound (inclusive).
        from: Map<String, Value>,
        /// The upper bound (exclusive).
        to: Map<String, Value>,
    },
    /// The newest `n` rows of one entity (the fields in `record`).
    Latest {
        /// A label.
        #[serde(default)]
        name: Option<String>,
        /// The entity's fields.
        record: Map<String, Value>,
        /// How many rows.
        n: u64,
    },
}

impl ReadPattern {
    /// The label, or the kind.
    pub fn name(&self) -> String {
        let (n, kind) = match self {
            ReadPattern::Get { name, .. } => (name, "get"),
            ReadPattern::Prefix { name, .. } => (name, "prefix"),
            ReadPattern::Range { name, .. } => (name, "range"),
            ReadPattern::Latest { name, .. } => (name, "latest"),
        };
        n.clone().unwrap_or_else(|| kind.to_string())
    }
}

/// One scan: `[startRow, stopRow)`; an empty stop row is the end of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scan {
    /// Start row, hex.
    pub start_row_hex: String,
    /// Start row, `toStringBinary`.
    pub start_row: String,
    /// Stop row (exclusive), hex.
    pub stop_row_hex: String,
    /// Stop row, `toStringBinary`.
    pub stop_row: String,
    /// The regions (indexes in key order) the scan touches.
    pub regions: Vec<usize>,
}

/// The plan of one read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadPlan {
    /// The read's label.
    pub name: String,
    /// The scans, in the merge order described in the module documentation.
    pub scans: Vec<Scan>,
    /// Distinct regions touched by all scans.
    pub regions_touched: usize,
    /// Estimated rows read per row returned (`None` when it cannot be estimated).
    pub rows_read_per_row_returned: Option<f64>,
    /// Why the plan looks as it does, in plain words.
    pub notes: Vec<String>,
    /// The rows after which each scan stops (`Scan#setLimit`, the shell's `LIMIT`), when the
    /// plan counts on one: a `latest n` read whose newest rows come first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

/// Plan every read in `reads` for the key `spec` over `fields`, on the table split at
/// `split_keys` (sorted); `workload` (when given) sizes the estimates of rows read. Errors
/// name the read by its index (`/reads/0`).
pub fn plan_reads(
    spec: &KeySpec,
    fields: &[FieldDecl],
    workload: Option<&WorkloadSpec>,
    reads: &[ReadPattern],
    split_keys: &[Vec<u8>],
) -> Result<Vec<ReadPlan>> {
    let mut planner = Planner::new(spec, fields)?;
    if let Some(w) = workload {
        planner.records = w.records;
        planner.workload = Some(w.clone());
    }
    reads
        .iter()
        .enumerate()
        .map(|(i, r)| {
            planner.plan(r, split_keys).map_err(|e| {
                let p = e.location.path.clone().unwrap_or_default();
                e.at_path(format!(
                    "/reads/{i}{}",
                    // An error of the read as a whole has no path of its own: `/reads/0`.
                    if p.is_empty() || p.starts_with('/') {
                        p
                    } else {
                        format!("/{p}")
                    }
                ))
            })
        })
        .collect()
}

fn check_count(n: usize) -> Result<()> {
    if n > MAX_SCANS {
        return Err(Error::new(
            ErrorKind::Limit,
            format!("the read needs more than {MAX_SCANS} scans"),
        ));
    }
    Ok(())
}

/// The stop row of a prefix scan (`Scan.setRowPrefixFilter`): the prefix with its last
/// byte below `ff` incremented and the trailing `ff` bytes dropped; empty (end of table) for
/// an empty or all-`ff` prefix.
pub fn next_prefix(prefix: &[u8]) -> Vec<u8> {
    let mut p = prefix.to_vec();
    while let Some(last) = p.pop() {
        if last < 0xff {
            p.push(last + 1);
            return p;
        }
    }
    Vec::new()
}

/// The regions (indexes) a scan `[start, stop)` touches over sorted `split_keys`.
pub fn regions_of_range(split_keys: &[Vec<u8>], start: &[u8], stop: &[u8]) -> Vec<usize> {
    let first = split_keys.partition_point(|k| k.as_slice() <= start);
    let last = if stop.is_empty() {
        split_keys.len()
    } else {
        crate::hbase::bytes::lower_bound(split_keys, stop)
    };
    if stop.is_empty() || start < stop {
        (first..=last.max(first)).collect()
    } else {
        Vec::new()
    }
}

mod estimate;
mod planner;
pub(crate) mod read;
mod time_unit;

pub use planner::Planner;

/// A bound being built: values per field (Null = not given).
type Values = Vec<FieldValue>;
