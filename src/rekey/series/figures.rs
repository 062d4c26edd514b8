//! The figures of a plan from a snapshot series: rows from bytes, each side's report figures
//! as a rows analysis would give them, and the words that say they are estimates.

use super::{Drawn, Old, Spread};
use crate::design::DesignDocument;
use crate::hbase::bytes::{to_hex, to_string_binary};
use crate::region::series::Interval as SeriesInterval;
use crate::rekey::{
    qualifier_bytes, MetricsFigures, OverallFigures, RegionFigures, RekeyOptions, RekeyPlan,
    ReportFigures, KEY_VALUE_FIXED,
};

/// Rows from bytes: the table's bytes ÷ a cell's estimated bytes, one cell a row.
pub(super) struct Sizing {
    /// Records sampled.
    pub(super) records: u64,
    /// The workload's value bytes.
    pub(super) value: u64,
    /// The old and the new key's mean bytes over the sample.
    pub(super) mean_old: f64,
    pub(super) mean_new: f64,
    /// A cell's estimated bytes.
    pub(super) per_row: f64,
    /// Rows estimated.
    pub(super) rows: u64,
}

impl Sizing {
    pub(super) fn of(
        old: &DesignDocument,
        opts: &RekeyOptions,
        drawn: &Drawn,
        total: u64,
    ) -> Sizing {
        let family = opts.family.len() as u64;
        let value = old.workload.as_ref().map_or(0, |w| w.value_size);
        let mean_old = drawn.old_key_bytes as f64 / drawn.records.max(1) as f64;
        let mean_new = drawn.new_key_bytes as f64 / drawn.records.max(1) as f64;
        let per_row =
            (KEY_VALUE_FIXED + family + qualifier_bytes(old, opts) + value) as f64 + mean_old;
        Sizing {
            records: drawn.records,
            value,
            mean_old,
            mean_new,
            per_row,
            rows: ((total as f64 / per_row).round() as u64).max(1),
        }
    }

    /// Row and value bytes of `rows` rows whose key's mean is `mean`, as an analysis counts them.
    fn row_value(&self, mean: f64, rows: u64) -> u64 {
        (rows as f64 * (mean + self.value as f64)).round() as u64
    }
}

/// The old side's figures as a rows analysis would give them: the observed regions, their
/// bytes, rows in proportion, the requests' metrics.
pub(super) fn old_figures(
    iv: &SeriesInterval,
    olds: &[Old],
    size: &Sizing,
    total: u64,
) -> ReportFigures {
    let old_requests: Vec<f64> = olds.iter().map(|o| o.requests).collect();
    ReportFigures {
        writes: size.rows,
        bytes: size.row_value(size.mean_old, size.rows),
        regions: iv
            .regions
            .iter()
            .zip(olds)
            .map(|(r, o)| RegionFigures {
                start_key: r.start_key.clone().unwrap_or_default(),
                end_key: r.end_key.clone().unwrap_or_default(),
                writes: (size.rows as f64 * o.bytes as f64 / total as f64).round() as u64,
                bytes: o.bytes,
            })
            .collect(),
        metrics: metrics(&old_requests),
        diagnosis: vec![headline(
            "observed over the last interval",
            "regions",
            &old_requests,
        )],
        presplit_keys_hex: Vec::new(),
        // snapshots of a live table show its regions, not its indexes' tables
        indexes: Vec::new(),
    }
}

/// The new side's figures: the regions `split_keys` cut, the rows apportioned by their
/// estimated bytes (`scale`: the table's bytes over the placed ones).
pub(super) fn new_figures(
    split_keys: &[Vec<u8>],
    spread: &Spread,
    size: &Sizing,
    scale: f64,
) -> ReportFigures {
    let shares: Vec<f64> = spread.bytes.iter().map(|b| b * scale).collect();
    let writes = apportion(size.rows, &shares);
    let names: Vec<String> = std::iter::once(String::new())
        .chain(split_keys.iter().map(|k| to_string_binary(k)))
        .chain(std::iter::once(String::new()))
        .collect();
    ReportFigures {
        writes: size.rows,
        bytes: writes
            .iter()
            .map(|&w| size.row_value(size.mean_new, w))
            .sum(),
        regions: writes
            .iter()
            .enumerate()
            .map(|(g, &w)| RegionFigures {
                start_key: names.get(g).cloned().unwrap_or_default(),
                end_key: names.get(g + 1).cloned().unwrap_or_default(),
                writes: w,
                bytes: size.row_value(size.mean_new, w),
            })
            .collect(),
        metrics: metrics(&spread.requests),
        diagnosis: vec![headline(
            "estimated from the old table's requests",
            "new regions",
            &spread.requests,
        )],
        presplit_keys_hex: split_keys.iter().map(|k| to_hex(k)).collect(),
        indexes: Vec::new(),
    }
}

/// What the estimate assumes, in words: `(regions, at_ms)` of the snapshot read, the sizing,
/// `(max_error, share)` and `(unplaced bytes, their regions)`.
pub(super) fn assumptions(
    (regions, at_ms): (usize, u64),
    size: &Sizing,
    (max_error, max_error_share): (u64, f64),
    (unplaced_bytes, unplaced): (u64, &[String]),
) -> Vec<String> {
    let Sizing {
        records,
        value,
        mean_old,
        mean_new,
        per_row,
        ..
    } = size;
    vec![
        format!(
            "the old table's bytes are its {regions} regions' sizes at the last snapshot of the last interval with a rate ({at_ms} ms since the epoch; store files and memstore, as the series read them)",
        ),
        format!(
            "an old region's rows are assumed spread within its range as {records} records of the old design's workload fall in it: the split keys are estimates, the rows themselves (rekey --records) give exact ones",
        ),
        format!(
            "rows estimated as bytes ÷ {per_row:.1} bytes a cell (KeyValue's fixed {KEY_VALUE_FIXED}, the family, the qualifier, the old key's mean {mean_old:.1} bytes, the value's {value}), one cell a row; the new key's mean is {mean_new:.1} bytes"
        ),
        format!(
            "each new region's bytes can be off by up to {max_error} bytes ({:.1} % of the table): two standard errors of the sample{}; how far the workload's generators are from the table's real rows is not bounded",
            100.0 * max_error_share,
            if unplaced_bytes > 0 {
                format!(", plus {unplaced_bytes} bytes of regions no record fell in ({})", unplaced.join(", "))
            } else {
                String::new()
            }
        ),
    ]
}

/// The plan's first warning and first step: its figures are estimated, within
/// `max_error_share` of the table a region.
pub(super) fn said_estimated(plan: &mut RekeyPlan, max_error_share: f64) {
    plan.warnings.insert(
        0,
        format!(
            "Estimated from a snapshot series, not the rows: the split keys and sizes can be off by up to {:.1} % of the table per region; plan from the rows (rekey --records) before the load",
            100.0 * max_error_share
        ),
    );
    plan.checklist.insert(
        0,
        format!(
            "Before the move: export the old table's rows (from a snapshot) and plan again on them (rekey --records): the numbers below are estimated from a snapshot series, each new region's bytes within {:.1} % of the table, the rows from bytes",
            100.0 * max_error_share
        ),
    );
}

/// The figures the plan reads of a side's metrics, from its regions' requests (one interval).
fn metrics(requests: &[f64]) -> MetricsFigures {
    let sum: f64 = requests.iter().sum();
    let n = requests.len().max(1) as f64;
    let max = requests.iter().copied().fold(0.0, f64::max);
    let hotspot = if sum > 0.0 { max / (sum / n) } else { 0.0 };
    let sq: f64 = requests.iter().map(|r| (r / sum) * (r / sum)).sum();
    let parallelism = if sum > 0.0 && sq > 0.0 { 1.0 / sq } else { 0.0 };
    MetricsFigures {
        overall: OverallFigures {
            hotspot_factor: hotspot,
            effective_parallelism: parallelism,
        },
        mean_hotspot_factor: hotspot,
    }
}

/// A side's headline: its busiest region's share of the requests.
fn headline(how: &str, what: &str, requests: &[f64]) -> String {
    let sum: f64 = requests.iter().sum();
    let (i, max) = requests
        .iter()
        .copied()
        .enumerate()
        .fold((0, 0.0), |a, (i, r)| if r > a.1 { (i, r) } else { a });
    if sum <= 0.0 {
        return format!("{how}: no requests read");
    }
    format!(
        "{how}: the busiest of {} {what} (region {}) takes {:.1} % of the requests ({:.1}/s of {:.1}/s)",
        requests.len(),
        i + 1,
        100.0 * max / sum,
        max,
        sum
    )
}

/// `total` split in proportion to `shares` (largest remainders): the parts add up to `total`.
fn apportion(total: u64, shares: &[f64]) -> Vec<u64> {
    let sum: f64 = shares.iter().sum();
    if sum <= 0.0 || shares.is_empty() {
        return vec![0; shares.len()];
    }
    let exact: Vec<f64> = shares.iter().map(|s| total as f64 * s / sum).collect();
    let mut parts: Vec<u64> = exact.iter().map(|e| e.floor() as u64).collect();
    let mut left = total.saturating_sub(parts.iter().sum());
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by(|&a, &b| {
        let fa = exact.get(a).map_or(0.0, |e| e.fract());
        let fb = exact.get(b).map_or(0.0, |e| e.fract());
        fb.total_cmp(&fa)
    });
    for i in order {
        if left == 0 {
            break;
        }
        if let Some(p) = parts.get_mut(i) {
            *p += 1;
            left -= 1;
        }
    }
    parts
}
