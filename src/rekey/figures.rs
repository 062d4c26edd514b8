//! What a rekey plan reads of an analysis ([`ReportFigures`]): the few figures of a report it
//! uses, taken from the engine's own report or read from the report a shell hands over (its
//! JSON as it is, checked member by member before any plan is built on it). Apart from the
//! plan because it is the plan's input boundary: every shell's report enters here.

use serde::Deserialize;

use crate::analyze::AnalysisReport;
use crate::error::{Error, Result};

/// What the plan reads of an analysis: the figures a report holds (deserialized from a
/// report's JSON as it is, its other members ignored, so a shell passes the report it has).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportFigures {
    /// Writes counted.
    pub writes: u64,
    /// Bytes written (keys and values as the analysis counts them).
    pub bytes: u64,
    /// Its regions in key order.
    pub regions: Vec<RegionFigures>,
    /// Its metrics (`overall` only).
    pub metrics: MetricsFigures,
    /// Its diagnosis (the first line is the headline).
    pub diagnosis: Vec<String>,
    /// The split keys the run was cut at, hex.
    pub presplit_keys_hex: Vec<String>,
    /// Each Phoenix index of the design over the same rows, in its order (none without
    /// indexes, or from a report that has none).
    #[serde(default)]
    pub indexes: Vec<IndexFigures>,
}

/// An index's figures (a report's `indexes` member), as far as the plan reads them.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexFigures {
    /// The index name.
    pub name: String,
    /// Its kind.
    pub kind: crate::design::phoenix::IndexKind,
    /// Regions of its own (0 for a local index).
    pub regions_of_its_own: usize,
    /// Mean over the loaded windows of the busiest region's share of its writes.
    pub busiest_share: f64,
    /// Mean hotspot factor over the loaded windows.
    pub hotspot_factor: f64,
    /// Its table's diagnosis (`None` for a local index: the data table's regions).
    pub report: Option<DiagnosisFigures>,
}

/// An index table's report, as far as the plan reads it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiagnosisFigures {
    /// Its diagnosis (the first line is the headline).
    pub diagnosis: Vec<String>,
}

/// A region's figures.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionFigures {
    /// Start key, toStringBinary.
    pub start_key: String,
    /// End key, toStringBinary.
    pub end_key: String,
    /// Writes into it.
    pub writes: u64,
    /// Bytes into it.
    pub bytes: u64,
}

/// `metrics`, as far as the plan reads it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MetricsFigures {
    /// Over the whole run.
    pub overall: OverallFigures,
    /// The busiest region ÷ the mean in each window, averaged over the windows: a hotspot that
    /// moves (a time-led key) shows here while the run's overall factor stays near 1.
    pub mean_hotspot_factor: f64,
}

/// `metrics.overall`, as far as the plan reads it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OverallFigures {
    /// Busiest region ÷ mean.
    pub hotspot_factor: f64,
    /// Effective parallelism.
    pub effective_parallelism: f64,
}

impl ReportFigures {
    /// A report argument named `name` (its JSON value, as a shell hands the report it has),
    /// read and checked as the engine's own reports are: at most `region::MAX_REGIONS` regions,
    /// and its split keys hex, each 1 to `limits::MAX_ROW_LENGTH` bytes, strictly ascending, so
    /// a report a caller wrote by hand is refused at the member, before any plan is built on
    /// it (issue 73: 200,000 regions took seconds, a key of 40,000 bytes or an empty one went
    /// into the `create` statement, bad hex was an error at `hex`).
    pub fn read(name: &str, v: &serde_json::Value) -> Result<ReportFigures> {
        // the counts first, from the value as it is: nothing is copied for a report refused
        let max = crate::region::MAX_REGIONS as usize;
        let count = |m: &str| {
            v.get(m)
                .and_then(serde_json::Value::as_array)
                .map_or(0, Vec::len)
        };
        if count("regions") > max {
            return Err(crate::limits::limit_error(
                &format!("{name}.regions"),
                format!("a report of {} regions", count("regions")),
                format!("{max} regions"),
                "the most regions an analysis has (region::MAX_REGIONS)",
            ));
        }
        if count("presplitKeysHex") >= max {
            return Err(crate::limits::limit_error(
                &format!("{name}.presplitKeysHex"),
                format!("{} split keys", count("presplitKeysHex")),
                format!("{} split keys", max - 1),
                "the most split keys a table of region::MAX_REGIONS regions has",
            ));
        }
        let r: ReportFigures = serde_json::from_value(v.clone())
            .map_err(|e| Error::arg(name, format!("not an analysis report ({e})")))?;
        let mut last: Option<Vec<u8>> = None;
        for (i, h) in r.presplit_keys_hex.iter().enumerate() {
            let at = format!("{name}.presplitKeysHex[{i}]");
            let key = crate::hbase::bytes::from_hex(h).map_err(|e| Error::arg(&at, e.message))?;
            if key.is_empty() {
                return Err(Error::arg(&at, "an empty split key (HBase refuses one)"));
            }
            crate::limits::check_row_length(&at, key.len())?;
            if last.as_ref().is_some_and(|l| *l >= key) {
                return Err(Error::arg(
                    &at,
                    "the split keys of a report ascend strictly, byte by byte",
                ));
            }
            last = Some(key);
        }
        Ok(r)
    }
}

impl From<&AnalysisReport> for ReportFigures {
    fn from(r: &AnalysisReport) -> Self {
        ReportFigures {
            writes: r.writes,
            bytes: r.bytes,
            regions: r
                .regions
                .iter()
                .map(|g| RegionFigures {
                    start_key: g.start_key.clone(),
                    end_key: g.end_key.clone(),
                    writes: g.writes,
                    bytes: g.bytes,
                })
                .collect(),
            metrics: MetricsFigures {
                overall: OverallFigures {
                    hotspot_factor: r.metrics.overall.hotspot_factor,
                    effective_parallelism: r.metrics.overall.effective_parallelism,
                },
                mean_hotspot_factor: r.metrics.mean_hotspot_factor,
            },
            diagnosis: r.diagnosis.clone(),
            presplit_keys_hex: r.presplit_keys_hex.clone(),
            indexes: r
                .indexes
                .iter()
                .map(|x| IndexFigures {
                    name: x.name.clone(),
                    kind: x.kind,
                    regions_of_its_own: x.regions_of_its_own,
                    busiest_share: x.busiest_share,
                    hotspot_factor: x.hotspot_factor,
                    report: x.report.as_ref().map(|t| DiagnosisFigures {
                        diagnosis: t.diagnosis.clone(),
                    }),
                })
                .collect(),
        }
    }
}
