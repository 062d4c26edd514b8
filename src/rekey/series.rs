//! The rekey plan when the old table's rows are not at hand, only a live snapshot series of it
//! (RegionServer `/jmx` dumps, `list_regions`, `status 'detailed'`, read by
//! [`read_series`](crate::region::series::read_series)): its regions' key ranges, sizes and
//! request rates. The new table's split points and the job are then **estimates**:
//!
//! * the old table's bytes are its regions' sizes at the end of the last interval with a rate
//!   (store files and memstore; `list_regions` and `status 'detailed'` print whole MB);
//! * which rows an old region holds is not known: the old design's workload stands for them. A
//!   sample of its records is encoded under the old key, each record placed in the observed
//!   region its key falls in, and each region's bytes (and requests) spread evenly over the
//!   records it received: a region's rows are assumed distributed within its range as the
//!   design's generators put them. The same records encoded under the new key, weighted so, cut
//!   the new table by bytes with the rows plan's own cut (`region::cut_sorted_weighted`): a new
//!   key that opens with salt buckets keeps each bucket whole, as `rekey --records` cuts it;
//! * rows are estimated as bytes ÷ a cell's bytes (KeyValue's fixed part, the family, the
//!   qualifier, the old key's mean length over the sample and the workload's value size), one
//!   cell a row;
//! * the error said per new region is the sample's (two standard errors of each old region's
//!   share that lands there) plus the bytes of old regions no sample record fell in (they could
//!   land anywhere); how far the generators are from the table's real rows is not bounded here:
//!   the rows themselves (`rekey --records`) give exact split points.

use serde::Serialize;

mod figures;

use figures::{assumptions, new_figures, old_figures, said_estimated, Sizing};

use super::{rekey_plan_from, RekeyOptions, RekeyPlan};
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::to_bytes_binary_str;
use crate::keyspec::{CompiledKey, FieldValue};
use crate::region::series::{measured_interval, Interval as SeriesInterval, RegionSeries};
use crate::region::{cut_sorted_weighted, key_order};

/// Records of the old design's workload sampled by default.
pub const DEFAULT_SERIES_SAMPLE: u64 = 100_000;
/// The most records sampled.
pub const MAX_SERIES_SAMPLE: u64 = 2_000_000;

/// One region of the old table as the series saw it at the snapshot the plan reads.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObservedRegion {
    /// Start key, toStringBinary (`""`: the table's start); `None` when no file gives it.
    pub start_key: Option<String>,
    /// End key, toStringBinary (`""`: the table's end).
    pub end_key: Option<String>,
    /// Store files and memstore, bytes; `None` when not read.
    pub bytes: Option<u64>,
    /// Requests per second over the interval.
    pub requests_per_sec: Option<f64>,
    /// Sample records whose old key falls in it.
    pub sampled: u64,
}

/// How the series-based plan was estimated, and how far off it can be.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesEstimate {
    /// The snapshot read (the end of the last interval with a rate), ms since the epoch.
    pub at_ms: u64,
    /// The old table's regions then, in key order.
    pub old_regions: Vec<ObservedRegion>,
    /// The old table's bytes (the regions with a size).
    pub bytes: u64,
    /// Records of the old design's workload sampled.
    pub sampled: u64,
    /// Rows estimated: bytes ÷ a cell's estimated bytes.
    pub rows: u64,
    /// Bytes of old regions no sample record fell in (or without a key range): spread over the
    /// new regions in proportion, and counted in every new region's error.
    pub unplaced_bytes: u64,
    /// Those regions, by start key.
    pub unplaced: Vec<String>,
    /// Per new region, how far its bytes can be off: two standard errors of the sample, plus
    /// the unplaced bytes.
    pub error_bytes: Vec<u64>,
    /// The largest error as a share of the old table's bytes.
    pub max_error_share: f64,
    /// What the estimate assumes, in words.
    pub assumptions: Vec<String>,
}

/// The plan from a snapshot series: the rows plan's members (the split keys, regions and job
/// estimated), `splitKeysExact` false, and how it was estimated.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesRekeyPlan {
    /// The plan, as `rekey --records` gives it, from the estimated figures.
    #[serde(flatten)]
    pub plan: RekeyPlan,
    /// Always false: the split keys are cut at a weighted sample, not the table's rows.
    pub split_keys_exact: bool,
    /// How it was estimated.
    pub estimate: SeriesEstimate,
}

/// One old region as the estimate uses it.
struct Old {
    start: Option<Vec<u8>>,
    bytes: u64,
    requests: f64,
    sampled: u64,
}

/// The move from `old`'s table, seen through `series` (a snapshot series read by
/// `read_series`), to `new`'s, cut into `regions` regions by bytes: the plan with estimated
/// figures ([`SeriesRekeyPlan`]). `sample`: records of the old design's workload that stand for
/// the rows ([`DEFAULT_SERIES_SAMPLE`] when absent).
pub fn rekey_from_series(
    old: &DesignDocument,
    new: &DesignDocument,
    series: &RegionSeries,
    regions: u32,
    sample: Option<u64>,
    opts: &RekeyOptions,
) -> Result<SeriesRekeyPlan> {
    old.validate()?;
    new.validate()?;
    let sample = counts(regions, sample)?;
    let (iv, mut olds) = observed(series)?;
    let total: u64 = olds.iter().map(|o| o.bytes).sum();
    let drawn = draw(old, new, sample)?;
    let placed = place(&drawn.keys, &mut olds);
    let unplaced: Vec<usize> = (0..olds.len())
        .filter(|&i| olds.get(i).is_some_and(|o| o.sampled == 0 && o.bytes > 0))
        .collect();
    let unplaced_bytes: u64 = unplaced
        .iter()
        .filter_map(|&i| olds.get(i))
        .map(|o| o.bytes)
        .sum();
    if placed.is_empty() || unplaced_bytes == total {
        return Err(Error::new(
            ErrorKind::Invalid,
            "no record of the old design's workload falls in a region the series sized: its generators do not describe this table's keys (give the rows: rekey --records)",
        )
        .at_path("oldDoc/workload"));
    }
    let placed_bytes = (total - unplaced_bytes) as f64;
    let split_keys = cut_placed(&placed, &olds, placed_bytes, regions, &new.bucket_bounds());
    let spread = spread(&placed, &olds, &split_keys, unplaced_bytes);
    let size = Sizing::of(old, opts, &drawn, total);
    let old_fig = old_figures(iv, &olds, &size, total);
    let new_fig = new_figures(&split_keys, &spread, &size, total as f64 / placed_bytes);
    let mut plan = rekey_plan_from(old, new, &old_fig, &new_fig, opts)?;
    let max_error = spread.error_bytes.iter().copied().max().unwrap_or(0);
    let max_error_share = max_error as f64 / total as f64;
    let unplaced_names: Vec<String> = unplaced
        .iter()
        .filter_map(|&i| iv.regions.get(i))
        .map(|r| {
            r.start_key
                .clone()
                .unwrap_or_else(|| "(no key range)".into())
        })
        .collect();
    let assumptions = assumptions(
        (olds.len(), iv.to_ms),
        &size,
        (max_error, max_error_share),
        (unplaced_bytes, &unplaced_names),
    );
    said_estimated(&mut plan, max_error_share);
    Ok(SeriesRekeyPlan {
        plan,
        split_keys_exact: false,
        estimate: SeriesEstimate {
            at_ms: iv.to_ms,
            old_regions: iv
                .regions
                .iter()
                .zip(&olds)
                .map(|(r, o)| ObservedRegion {
                    start_key: r.start_key.clone(),
                    end_key: r.end_key.clone(),
                    bytes: r.size_bytes,
                    requests_per_sec: r.requests_per_sec,
                    sampled: o.sampled,
                })
                .collect(),
            bytes: total,
            sampled: size.records,
            rows: size.rows,
            unplaced_bytes,
            unplaced: unplaced_names,
            error_bytes: spread.error_bytes,
            max_error_share,
            assumptions,
        },
    })
}

/// The region count (1 to HBase's most split keys + 1) and the sample's records checked: the
/// sample, [`DEFAULT_SERIES_SAMPLE`] when absent.
fn counts(regions: u32, sample: Option<u64>) -> Result<u64> {
    let max_regions = crate::hbase::split::MAX_SPLIT_KEYS as u32;
    if !(1..=max_regions).contains(&regions) {
        return Err(Error::arg(
            "regions",
            format!("regions: 1 to {max_regions}, not {regions}"),
        ));
    }
    let sample = sample.unwrap_or(DEFAULT_SERIES_SAMPLE);
    if !(1..=MAX_SERIES_SAMPLE).contains(&sample) {
        return Err(Error::arg(
            "sample",
            format!("sample: 1 to {MAX_SERIES_SAMPLE} records, not {sample}"),
        ));
    }
    Ok(sample)
}

/// The interval the plan reads (the last with a rate) and its regions as the estimate uses
/// them; an error when no interval has a rate or no region a size.
fn observed(series: &RegionSeries) -> Result<(&SeriesInterval, Vec<Old>)> {
    let at = measured_interval(&series.intervals).ok_or_else(|| {
        Error::new(
            ErrorKind::Invalid,
            "the series has no interval with a rate: give two snapshots or more of the old table",
        )
        .at_path("series")
    })?;
    let iv = series
        .intervals
        .get(at)
        .ok_or_else(|| Error::new(ErrorKind::Invalid, "no such interval").at_path("series"))?;
    let olds: Vec<Old> = iv
        .regions
        .iter()
        .map(|r| Old {
            start: r.start_key.as_deref().map(to_bytes_binary_str),
            bytes: r.size_bytes.unwrap_or(0),
            requests: r.requests_per_sec.unwrap_or(0.0),
            sampled: 0,
        })
        .collect();
    if olds.iter().all(|o| o.bytes == 0) {
        return Err(Error::new(
            ErrorKind::Invalid,
            "the series gives no region a size: the old table's bytes are unknown (a /jmx dump read within 45 s of its regions opening reads 0)",
        )
        .at_path("series"));
    }
    Ok((iv, olds))
}

/// Each sampled record's new key beside the old region its old key falls in (counted in that
/// region's `sampled`), in the new key's order; a record before every ranged region is left
/// out.
fn place(keys: &[(Vec<u8>, Vec<u8>)], olds: &mut [Old]) -> Vec<(Vec<u8>, usize)> {
    // the ranged regions in key order, as the series lists them; their starts to place keys
    let starts: Vec<(usize, Vec<u8>)> = olds
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.start.clone().map(|s| (i, s)))
        .collect();
    let mut placed: Vec<(Vec<u8>, usize)> = Vec::with_capacity(keys.len());
    for (old_key, new_key) in keys {
        let i = starts.partition_point(|(_, s)| key_order(s, old_key).is_le());
        if let Some((r, _)) = i.checked_sub(1).and_then(|i| starts.get(i)) {
            if let Some(o) = olds.get_mut(*r) {
                o.sampled += 1;
            }
            placed.push((new_key.clone(), *r));
        }
    }
    placed.sort_unstable_by(|a, b| key_order(&a.0, &b.0));
    placed
}

/// Per new region: its estimated bytes and requests, and how far its bytes can be off.
struct Spread {
    bytes: Vec<f64>,
    requests: Vec<f64>,
    error_bytes: Vec<u64>,
}

/// The old regions' bytes and requests spread over the new regions `split_keys` cut, each
/// placed record carrying its old region's per-record share; each new region's error two
/// standard errors of the sample (per old region, the share of its records that landed there)
/// plus the bytes no record stands for.
fn spread(
    placed: &[(Vec<u8>, usize)],
    olds: &[Old],
    split_keys: &[Vec<u8>],
    unplaced_bytes: u64,
) -> Spread {
    let n_new = split_keys.len() + 1;
    let mut bytes = vec![0.0f64; n_new];
    let mut requests = vec![0.0f64; n_new];
    let mut landed = vec![vec![0u64; olds.len()]; n_new];
    for (key, r) in placed {
        let g = split_keys.partition_point(|s| key_order(s, key).is_le());
        let (b, q) = olds.get(*r).map_or((0.0, 0.0), |o| {
            let n = o.sampled.max(1) as f64;
            (o.bytes as f64 / n, o.requests / n)
        });
        if let (Some(eb), Some(eq), Some(l)) =
            (bytes.get_mut(g), requests.get_mut(g), landed.get_mut(g))
        {
            *eb += b;
            *eq += q;
            if let Some(c) = l.get_mut(*r) {
                *c += 1;
            }
        }
    }
    let error_bytes = landed
        .iter()
        .map(|l| {
            let sampling: f64 = l
                .iter()
                .zip(olds)
                .filter(|(_, o)| o.sampled > 0)
                .map(|(&k, o)| {
                    let n = o.sampled as f64;
                    let p = k as f64 / n;
                    2.0 * o.bytes as f64 * (p * (1.0 - p) / n).sqrt()
                })
                .sum();
            (sampling + unplaced_bytes as f64).round() as u64
        })
        .collect();
    Spread {
        bytes,
        requests,
        error_bytes,
    }
}

/// The new table's split keys: the placed new keys (sorted) cut by the rows plan's own rule
/// ([`cut_sorted_weighted`]: at the key whose running bytes pass each share, a leading salt's
/// buckets kept whole), each key weighing its old region's bytes per record sampled there. The
/// weights are whole units of `placed_bytes / 2^53` (the cut is exact in integers; a unit is
/// far below a byte of any table a series sizes).
fn cut_placed(
    placed: &[(Vec<u8>, usize)],
    olds: &[Old],
    placed_bytes: f64,
    regions: u32,
    bounds: &[Vec<u8>],
) -> Vec<Vec<u8>> {
    let unit = (placed_bytes / 2f64.powi(53)).max(f64::MIN_POSITIVE);
    let sizes: Vec<u64> = placed
        .iter()
        .map(|(_, r)| {
            let per = olds
                .get(*r)
                .map_or(0.0, |o| o.bytes as f64 / o.sampled.max(1) as f64);
            (per / unit).round() as u64
        })
        .collect();
    let keys: Vec<&[u8]> = placed.iter().map(|(k, _)| k.as_slice()).collect();
    cut_sorted_weighted(&keys, &sizes, regions, bounds)
}

/// The sample: each record's old and new keys, and the keys' bytes.
struct Drawn {
    keys: Vec<(Vec<u8>, Vec<u8>)>,
    records: u64,
    old_key_bytes: u64,
    new_key_bytes: u64,
}

/// `sample` records of `old`'s workload, each encoded under both keys: the new key reads each
/// field of the old design's by name, and any other from `new`'s own workload.
fn draw(old: &DesignDocument, new: &DesignDocument, sample: u64) -> Result<Drawn> {
    let mut spec = old.workload.clone().unwrap_or_default();
    spec.records = sample;
    let mut old_stream = crate::workload::WorkloadStream::new(&spec, &old.fields)?;
    let mut new_spec = new.workload.clone().unwrap_or_else(|| spec.clone());
    new_spec.records = sample;
    let from_old: Vec<Option<usize>> = new
        .fields
        .iter()
        .map(|f| {
            old.fields
                .iter()
                .position(|o| o.name == f.name && o.field_type == f.field_type)
        })
        .collect();
    let mut new_stream = if from_old.iter().any(Option::is_none) {
        Some(crate::workload::WorkloadStream::new(
            &new_spec,
            &new.fields,
        )?)
    } else {
        None
    };
    let mut ok = CompiledKey::new(&old.key, &old.key_fields())?;
    let mut nk = CompiledKey::new(&new.key, &new.key_fields())?;
    let (mut ov, mut own): (Vec<FieldValue>, Vec<FieldValue>) = (Vec::new(), Vec::new());
    let mut nv: Vec<FieldValue> = Vec::with_capacity(new.fields.len());
    let mut out = Drawn {
        keys: Vec::with_capacity(usize::try_from(sample).unwrap_or(0)),
        records: 0,
        old_key_bytes: 0,
        new_key_bytes: 0,
    };
    let at = |i: u64, e: Error| {
        Error::new(
            e.kind,
            format!("the old design's workload, record {i}: {}", e.message),
        )
        .at_path("oldDoc/workload")
    };
    while let Some((i, _)) = old_stream.next_values(&mut ov) {
        if let Some(s) = new_stream.as_mut() {
            s.next_values(&mut own);
        }
        nv.clear();
        for (j, src) in from_old.iter().enumerate() {
            let v = match src {
                Some(k) => ov.get(*k),
                None => own.get(j),
            };
            nv.push(v.cloned().unwrap_or(FieldValue::Null));
        }
        let old_key = ok.encode_values(&ov).map_err(|e| at(i, e))?;
        let new_key = nk.encode_values(&nv).map_err(|e| at(i, e))?;
        out.old_key_bytes += old_key.len() as u64;
        out.new_key_bytes += new_key.len() as u64;
        out.records += 1;
        out.keys.push((old_key, new_key));
    }
    Ok(out)
}
