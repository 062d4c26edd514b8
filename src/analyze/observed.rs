//! A live table against its design ("now against the design"): a series of snapshots
//! ([`read_series`](crate::region::series::read_series)) read through the design's key, each
//! region's measured share beside the share the design predicts on the same regions, and a
//! diagnosis in words where they disagree.
//!
//! The prediction is the design's analysis on the series' layout (`onTableRegions` with
//! [`RegionSeries::layout`], then [`analyze`](crate::analyze::analyze)): its writes per region,
//! in key order. The comparison is of the last interval with a rate, the one the layout is
//! taken at. Every diagnosis names its figures and says only what the readings show: a hot
//! salt bucket and its input's value count, a busiest region that moves along the key from
//! interval to interval, a server whose share is out of proportion to its regions.

use serde::Serialize;

use crate::design::DesignDocument;
use crate::error::Result;
use crate::hbase::bytes::to_bytes_binary_str;
use crate::keyspec::{decode_boundaries, Boundary};
use crate::region::series::{measured_interval, Interval, RegionSeries};

mod diagnosis;
mod map;

pub use map::{PredictedMap, PredictedServer};
#[cfg(test)]
mod tests;

/// What the measured shares are of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Measure {
    /// Write requests per second (`/jmx`' `writeRequestCount`, `status`' `writeRequestsCount`).
    Writes,
    /// Read and write requests per second (`list_regions`' REQ, which does not split them).
    Requests,
}

impl Measure {
    /// The word the diagnosis uses.
    fn word(self) -> &'static str {
        match self {
            Measure::Writes => "writes",
            Measure::Requests => "requests",
        }
    }

    /// A region's rate of this measure in an interval.
    fn of(self, r: &crate::region::series::RegionRate) -> Option<f64> {
        match self {
            Measure::Writes => r.writes_per_sec,
            Measure::Requests => r.requests_per_sec,
        }
    }

    /// Writes when any region of the interval has a write rate, else requests.
    fn for_interval(iv: &Interval) -> Measure {
        if iv.regions.iter().any(|r| r.writes_per_sec.is_some()) {
            Measure::Writes
        } else {
            Measure::Requests
        }
    }
}

/// One region of the compared interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObservedRegion {
    /// The region (index into [`RegionSeries::regions`]).
    pub region: usize,
    /// Its start key (toStringBinary text), when known.
    pub start_key: Option<String>,
    /// Its end key, when known.
    pub end_key: Option<String>,
    /// Its start key read through the design's key (`salt 07 · host=web03…`), when known.
    pub decoded: Option<String>,
    /// The salt bucket its start key holds, when the key opens with one.
    pub salt: Option<String>,
    /// Its server at the interval's end.
    pub server: Option<String>,
    /// Its share of the interval's measure, when it has a rate.
    pub measured_share: Option<f64>,
    /// Its share of the design's writes on the same regions, when a prediction was given.
    pub predicted_share: Option<f64>,
    /// `measured_share / predicted_share`, when both are known and the prediction is not 0.
    pub ratio: Option<f64>,
}

/// One server in the compared interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObservedServer {
    /// The server.
    pub server: String,
    /// The regions it holds at the interval's end.
    pub regions: u32,
    /// Its share of the interval's regions.
    pub region_share: f64,
    /// Its share of the measure (its regions with a rate).
    pub measured_share: f64,
    /// Its share of the design's writes, when a prediction was given.
    pub predicted_share: Option<f64>,
}

/// The compared interval: measured against predicted, region by region and server by server.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgainstDesign {
    /// The interval (index into [`RegionSeries::intervals`]): the last with a rate.
    pub interval: usize,
    /// Its start, ms since the epoch.
    pub from_ms: u64,
    /// Its end.
    pub to_ms: u64,
    /// What the measured shares are of.
    pub measure: Measure,
    /// The design's writes on these regions (the prediction's total), when given.
    pub predicted_writes: Option<u64>,
    /// Its regions in key order.
    pub regions: Vec<ObservedRegion>,
    /// Its servers, by name.
    pub servers: Vec<ObservedServer>,
}

/// A live table read through a design.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Observed {
    /// Each region of the series (as [`RegionSeries::regions`]) with its start key read
    /// through the design's key; `None` for a region without a key range.
    pub starts: Vec<Option<Boundary>>,
    /// Each region's row label: its start key read through the design's key, else its
    /// [`SeriesRegion::label`](crate::region::series::SeriesRegion::label). The page's
    /// live table and the CLI's HTML report draw these, never a rule of their own.
    pub labels: Vec<String>,
    /// The heatmap's rows: every region the series read (indexes into
    /// [`RegionSeries::regions`]) in key order by start key bytes, a split's daughters after
    /// their parent, regions without a key range last.
    pub rows: Vec<usize>,
    /// The last interval with a rate against the design; `None` when no interval has one.
    pub against: Option<AgainstDesign>,
    /// The design's prediction on the measured map's rows, intervals and unit; `None` without
    /// a prediction (or one on other regions).
    pub predicted_map: Option<PredictedMap>,
    /// Where the measured and predicted shares disagree, or the readings show a pattern, in
    /// words with their figures.
    pub diagnosis: Vec<String>,
    /// Why a part is missing (no rates, a prediction on other regions).
    pub notes: Vec<String>,
}

/// `series` read through `doc`'s key, and set beside `predicted`: the design's writes per
/// region on the series' layout, in key order (its analysis on `onTableRegions(doc, layout)`);
/// without it, the measured shares and the diagnosis the readings alone support.
pub fn against_design(
    series: &RegionSeries,
    doc: &DesignDocument,
    predicted: Option<&[u64]>,
) -> Result<Observed> {
    let starts = decoded_starts(series, doc)?;
    let labels = series
        .regions
        .iter()
        .zip(&starts)
        .map(|(r, b)| b.as_ref().map_or_else(|| r.label(), |b| b.label.clone()))
        .collect();
    let rows = key_order(series);
    let mut notes = Vec::new();
    let Some(k) = measured_interval(&series.intervals) else {
        notes.push("no interval has a rate: nothing to set beside the design".to_string());
        return Ok(Observed {
            starts,
            labels,
            rows,
            against: None,
            predicted_map: None,
            diagnosis: Vec::new(),
            notes,
        });
    };
    let Some(iv) = series.intervals.get(k) else {
        return Ok(Observed {
            starts,
            labels,
            rows,
            against: None,
            predicted_map: None,
            diagnosis: Vec::new(),
            notes,
        });
    };
    let predicted = match predicted {
        Some(p) if p.len() != iv.regions.len() => {
            notes.push(format!(
                "the design's run ended with {} regions, the table has {} at the end of the \
                 compared interval (the design split them further as it ran): no predicted shares",
                p.len(),
                iv.regions.len()
            ));
            None
        }
        p => p,
    };
    let against = compare(k, iv, &starts, predicted);
    let predicted_map =
        predicted.and_then(|p| map::predicted_map(series, &rows, k, against.measure, p));
    let diagnosis = diagnosis::diagnose(series, doc, &starts, &against);
    Ok(Observed {
        starts,
        labels,
        rows,
        against: Some(against),
        predicted_map,
        diagnosis,
        notes,
    })
}

/// The series' regions by start key bytes, then by when they were first read (a parent before
/// the daughter that shares its start key), those without a key range last.
fn key_order(series: &RegionSeries) -> Vec<usize> {
    let mut rows: Vec<(Option<Vec<u8>>, usize, usize)> = series
        .regions
        .iter()
        .enumerate()
        .map(|(i, r)| (r.start_key.as_deref().map(to_bytes_binary_str), r.first, i))
        .collect();
    rows.sort_by(|a, b| match (&a.0, &b.0) {
        (Some(x), Some(y)) => x.cmp(y).then((a.1, a.2).cmp(&(b.1, b.2))),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => (a.1, a.2).cmp(&(b.1, b.2)),
    });
    rows.into_iter().map(|(_, _, i)| i).collect()
}

/// Each region's start key through the design's key, compiled once.
fn decoded_starts(series: &RegionSeries, doc: &DesignDocument) -> Result<Vec<Option<Boundary>>> {
    let keyed: Vec<(usize, Vec<u8>)> = series
        .regions
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((i, to_bytes_binary_str(r.start_key.as_deref()?))))
        .collect();
    let keys: Vec<Vec<u8>> = keyed.iter().map(|(_, k)| k.clone()).collect();
    let decoded = decode_boundaries(&doc.key, &doc.key_fields(), &keys)?;
    let mut out = vec![None; series.regions.len()];
    for ((i, _), b) in keyed.iter().zip(decoded) {
        if let Some(slot) = out.get_mut(*i) {
            *slot = Some(b);
        }
    }
    Ok(out)
}

/// Interval `k`'s shares, measured and predicted, per region and per server.
fn compare(
    k: usize,
    iv: &Interval,
    starts: &[Option<Boundary>],
    predicted: Option<&[u64]>,
) -> AgainstDesign {
    let measure = Measure::for_interval(iv);
    let rates: Vec<Option<f64>> = iv.regions.iter().map(|r| measure.of(r)).collect();
    let total: f64 = rates.iter().flatten().sum();
    let predicted_writes = predicted.map(|p| p.iter().fold(0u64, |a, &w| a.saturating_add(w)));
    let share = |x: f64, of: f64| if of > 0.0 { Some(x / of) } else { None };
    let regions: Vec<ObservedRegion> = iv
        .regions
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let measured_share = rates
                .get(i)
                .copied()
                .flatten()
                .and_then(|x| share(x, total));
            let predicted_share = predicted.zip(predicted_writes).and_then(|(p, all)| {
                Some(if all == 0 {
                    0.0
                } else {
                    *p.get(i)? as f64 / all as f64
                })
            });
            let ratio = measured_share
                .zip(predicted_share)
                .and_then(|(m, p)| share(m, p));
            let start = starts.get(r.region).and_then(Option::as_ref);
            ObservedRegion {
                region: r.region,
                start_key: r.start_key.clone(),
                end_key: r.end_key.clone(),
                decoded: start.map(|b| b.label.clone()),
                salt: start.and_then(|b| b.salt.clone()),
                server: r.server.clone(),
                measured_share,
                predicted_share,
                ratio,
            }
        })
        .collect();
    AgainstDesign {
        interval: k,
        from_ms: iv.from_ms,
        to_ms: iv.to_ms,
        measure,
        predicted_writes,
        servers: servers(&regions),
        regions,
    }
}

/// The servers of `regions`, by name: regions held, measured and predicted shares.
fn servers(regions: &[ObservedRegion]) -> Vec<ObservedServer> {
    let mut names: Vec<&str> = regions.iter().filter_map(|r| r.server.as_deref()).collect();
    names.sort_unstable();
    names.dedup();
    let n = regions.len().max(1) as f64;
    let predicted = regions.iter().all(|r| r.predicted_share.is_some());
    names
        .into_iter()
        .map(|name| {
            let on: Vec<&ObservedRegion> = regions
                .iter()
                .filter(|r| r.server.as_deref() == Some(name))
                .collect();
            ObservedServer {
                server: name.to_string(),
                regions: on.len() as u32,
                region_share: on.len() as f64 / n,
                measured_share: on.iter().filter_map(|r| r.measured_share).sum(),
                predicted_share: predicted
                    .then(|| on.iter().filter_map(|r| r.predicted_share).sum()),
            }
        })
        .collect()
}
