//! The design's prediction drawn on the measured map's own rows, intervals and unit: each
//! region's share of the design's writes (its analysis on the table's regions at the compared
//! interval) times the table's measured rate in each interval. One clock (the snapshots') and
//! one unit (the measure per second) for both maps, so a cell of one is read against the same
//! cell of the other; the design's own windows are the lab's heatmap.

use serde::Serialize;

use super::Measure;
use crate::hbase::bytes::to_bytes_binary_str;
use crate::region::series::{Interval, RegionRate, RegionSeries};

/// The prediction on the measured map.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PredictedMap {
    /// What the cells are per second (the compared interval's measure).
    pub measure: Measure,
    /// Per row of [`super::Observed::rows`] and interval (row-major, `rows × intervals`): the
    /// rate this design gives the region. `None` where the region is not alive then, the
    /// interval has no rate, or the design's regions do not nest in it (a later merge).
    pub regions: Vec<Option<f64>>,
    /// The servers seen (by name), each with a rate per interval: its regions' sum; `None`
    /// where the interval has no rate or a region of it has none.
    pub servers: Vec<PredictedServer>,
}

/// One server's predicted rate per interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PredictedServer {
    /// Its name.
    pub server: String,
    /// Per interval.
    pub rates: Vec<Option<f64>>,
}

/// A region's key range as bytes (an empty end: the table's end).
fn range(r: &RegionRate) -> Option<(Vec<u8>, Vec<u8>)> {
    Some((
        to_bytes_binary_str(r.start_key.as_deref()?),
        to_bytes_binary_str(r.end_key.as_deref()?),
    ))
}

/// `[s, e)` within `[s2, e2)` (an empty end is the table's end).
fn within(s: &[u8], e: &[u8], s2: &[u8], e2: &[u8]) -> bool {
    s >= s2 && (e2.is_empty() || (!e.is_empty() && e <= e2))
}

/// The design's share of the range `[s, e)`: the sum over the compared regions inside it;
/// `None` when one of them straddles its edge (the ranges do not nest).
fn share_of(s: &[u8], e: &[u8], layout: &[(Vec<u8>, Vec<u8>, f64)]) -> Option<f64> {
    let mut sum = 0.0;
    for (ls, le, share) in layout {
        let overlaps = (e.is_empty() || ls.as_slice() < e) && (le.is_empty() || s < le.as_slice());
        if !overlaps {
            continue;
        }
        if !within(ls, le, s, e) {
            return None;
        }
        sum += share;
    }
    Some(sum)
}

/// The prediction (`predicted`: the design's writes per region of interval `k`, in its order)
/// on every interval of `series`, rows in `rows`' order.
pub(super) fn predicted_map(
    series: &RegionSeries,
    rows: &[usize],
    k: usize,
    measure: Measure,
    predicted: &[u64],
) -> Option<PredictedMap> {
    let iv = series.intervals.get(k)?;
    let total: u64 = predicted.iter().fold(0u64, |a, &w| a.saturating_add(w));
    if total == 0 || predicted.len() != iv.regions.len() {
        return None;
    }
    let mut layout = Vec::with_capacity(iv.regions.len());
    for (r, &w) in iv.regions.iter().zip(predicted) {
        let (s, e) = range(r)?;
        layout.push((s, e, w as f64 / total as f64));
    }
    let n = series.intervals.len();
    let at: std::collections::HashMap<usize, usize> =
        rows.iter().enumerate().map(|(row, &i)| (i, row)).collect();
    let mut regions = vec![None; rows.len() * n];
    let mut names: Vec<String> = series
        .intervals
        .iter()
        .flat_map(|iv| iv.regions.iter().filter_map(|r| r.server.clone()))
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut servers: Vec<PredictedServer> = names
        .into_iter()
        .map(|server| PredictedServer {
            server,
            rates: vec![None; n],
        })
        .collect();
    for (c, iv) in series.intervals.iter().enumerate() {
        let cells = interval_rates(iv, measure, &layout);
        let mut per_server: Vec<Option<f64>> = vec![Some(0.0); servers.len()];
        let mut seen = vec![false; servers.len()];
        for (r, cell) in iv.regions.iter().zip(&cells) {
            if let Some(slot) = at
                .get(&r.region)
                .and_then(|&row| regions.get_mut(row * n + c))
            {
                *slot = *cell;
            }
            let Some(j) = r
                .server
                .as_ref()
                .and_then(|name| servers.iter().position(|s| &s.server == name))
            else {
                continue;
            };
            if let (Some(sum), Some(seen)) = (per_server.get_mut(j), seen.get_mut(j)) {
                *seen = true;
                *sum = sum.zip(*cell).map(|(a, b)| a + b);
            }
        }
        for (j, s) in servers.iter_mut().enumerate() {
            if seen.get(j) == Some(&true) {
                if let Some(slot) = s.rates.get_mut(c) {
                    *slot = per_server.get(j).copied().flatten();
                }
            }
        }
    }
    Some(PredictedMap {
        measure,
        regions,
        servers,
    })
}

/// Interval `iv`'s predicted rate per region: the design's shares scaled so that the regions
/// with a measured rate sum to the measured total (regions not read get the same scale).
fn interval_rates(
    iv: &Interval,
    measure: Measure,
    layout: &[(Vec<u8>, Vec<u8>, f64)],
) -> Vec<Option<f64>> {
    let shares: Vec<Option<f64>> = iv
        .regions
        .iter()
        .map(|r| range(r).and_then(|(s, e)| share_of(&s, &e, layout)))
        .collect();
    let mut measured = 0.0;
    let mut predicted = 0.0;
    for (r, share) in iv.regions.iter().zip(&shares) {
        if let (Some(m), Some(p)) = (measure.of(r), share) {
            measured += m;
            predicted += p;
        }
    }
    if predicted <= 0.0 {
        return vec![None; shares.len()];
    }
    let scale = measured / predicted;
    shares.into_iter().map(|s| s.map(|p| p * scale)).collect()
}
