//! Several designs side by side: the first document's workload through 2–4 key designs and
//! layouts, their metrics on one shared key-space grid, each with its own region matrix and
//! rows.

use serde::{Deserialize, Serialize};

use super::invalid;
use super::report::Matrix;
use super::run::{analyze_with_encoder, document_encoder, AnalyzeOptions, KeyEncoder};
use crate::analyze::metrics::MatrixMetrics;
use crate::design::DesignDocument;
use crate::error::Result;

/// One design's column in a [`Comparison`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ComparedDesign {
    /// The design's name (or `design N`).
    pub name: String,
    /// Its row key in the text form: what tells two designs of one name apart.
    pub key: String,
    /// Final region count.
    pub regions: usize,
    /// Writes analyzed (the same workload for every design).
    pub writes: u64,
    /// Distinct row keys: how many rows those writes make in this design (see
    /// [`AnalysisReport::distinct_rows`](super::AnalysisReport::distinct_rows)).
    pub distinct_rows: u64,
    /// The relative bound of `distinct_rows` (99.7 % of estimates within it; 0 when exact).
    pub distinct_rows_error: f64,
    /// Cells kept.
    pub cells: u64,
    /// Bytes of the largest row (0 without writes): a wide-row design piles them up here.
    pub largest_row_bytes: u64,
    /// Its own region × window write matrix (its regions differ from the other designs').
    pub matrix: Matrix,
    /// Its final regions in key order, one per row of `matrix`: what a key axis and a
    /// tooltip name them by.
    pub region_keys: Vec<ComparedRegion>,
    /// Region-matrix metrics.
    pub metrics: MatrixMetrics,
    /// Grid-matrix metrics (same grid for every design).
    pub grid_metrics: MatrixMetrics,
    /// The grid matrix, cell-comparable across designs.
    pub grid: Matrix,
    /// Findings.
    pub diagnosis: Vec<String>,
    /// Mean bytes of the sampled row keys (stored again in every cell of every row).
    pub key_bytes: f64,
    /// Each read of this design planned over its final regions; empty when it has none or
    /// they cannot be planned (its own analysis says why).
    pub reads: Vec<ComparedRead>,
}

/// One region of a [`ComparedDesign`]: its key range as HBase prints it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ComparedRegion {
    /// Start key, `toStringBinary` (empty: start of table).
    pub start_key: String,
    /// End key, `toStringBinary` (empty: end of table).
    pub end_key: String,
    /// Its region server.
    pub server: u32,
    /// Writes it took over the run: with `cells` and `bytes`, what weighs its row of the
    /// matrix when a map shows cells kept or bytes instead of writes (as the heatmap does).
    pub writes: u64,
    /// Cells it keeps (versions beyond the family's `VERSIONS` are not kept).
    pub cells: u64,
    /// Bytes written into it over the run.
    pub bytes: u64,
}

/// One read's cost in a [`ComparedDesign`]: what a delta table puts side by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ComparedRead {
    /// The read's label.
    pub name: String,
    /// Scans the read needs.
    pub scans: usize,
    /// Regions those scans touch.
    pub regions_touched: usize,
    /// Rows read per row returned, when it can be estimated.
    pub rows_read_per_row_returned: Option<f64>,
    /// A scan of it runs from the table's first row to its last: the read fixes no leading
    /// part of the key.
    pub full_table_scan: bool,
}

/// Two to four designs analyzed over one workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// Grid buckets shared by every design.
    pub grid_buckets: u32,
    /// Windows shared by every design.
    pub windows: usize,
    /// Start of window 0, ms since the epoch (the first design's workload, run through all).
    pub start_time_ms: i64,
    /// Window width in ms.
    pub window_ms: i64,
    /// One entry per design, in the given order.
    pub designs: Vec<ComparedDesign>,
    /// The figures side by side, each design's against the first's: judged better or worse
    /// here, so every shell marks a change the same way.
    pub figures: Vec<ComparedFigure>,
}

/// Which way a figure is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Better {
    /// Less is better (a hotspot factor, scans, bytes).
    Lower,
    /// More is better (active regions, parallelism).
    Higher,
}

/// A design's figure against the first design's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    /// Changed the way the figure is better.
    Better,
    /// Changed the other way.
    Worse,
    /// Within [`SAME_WITHIN`] of the first's: no change worth a word.
    Same,
    /// Changed, and neither way is better (regions, rows: what they mean depends on the design).
    Changed,
}

/// A change smaller than this fraction of the first design's value is called the same: the
/// figures of two runs of one workload move by a percent or so with the sample and the sketches.
pub const SAME_WITHIN: f64 = 0.02;

/// One figure of a [`Comparison`]: every design's value, and each against the first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ComparedFigure {
    /// What it is, in words.
    pub label: String,
    /// Which way is better; `None` for a figure that is neither (regions, rows).
    pub better: Option<Better>,
    /// Each design's value, in the designs' order (`None`: the design has no such figure, as a
    /// read the first design has and another lacks).
    pub values: Vec<Option<f64>>,
    /// Each design's change against the first, in percent of the first's value (`None` for the
    /// first itself, and when either value is missing or the first's is 0).
    pub change_percent: Vec<Option<f64>>,
    /// Each design's verdict against the first (`None` for the first itself and when either
    /// value is missing).
    pub verdicts: Vec<Option<Verdict>>,
}

/// The figures of `designs` side by side, each against the first.
fn figures(designs: &[ComparedDesign]) -> Vec<ComparedFigure> {
    let mut out = Vec::new();
    let mut add =
        |label: String, better: Option<Better>, f: &dyn Fn(&ComparedDesign) -> Option<f64>| {
            let values: Vec<Option<f64>> = designs.iter().map(f).collect();
            let base = values.first().copied().flatten();
            let (change_percent, verdicts) = values
                .iter()
                .enumerate()
                .map(|(i, v)| match (i, base, *v) {
                    (0, ..) | (_, None, _) | (_, _, None) => (None, None),
                    (_, Some(b), Some(v)) => {
                        let pct = (b != 0.0).then(|| (v - b) / b.abs() * 100.0);
                        let same = if b == 0.0 {
                            v == 0.0
                        } else {
                            ((v - b) / b).abs() < SAME_WITHIN
                        };
                        let verdict = match better {
                            _ if same => Verdict::Same,
                            None => Verdict::Changed,
                            Some(Better::Lower) if v < b => Verdict::Better,
                            Some(Better::Higher) if v > b => Verdict::Better,
                            Some(_) => Verdict::Worse,
                        };
                        (pct, Some(verdict))
                    }
                })
                .unzip();
            out.push(ComparedFigure {
                label,
                better,
                values,
                change_percent,
                verdicts,
            });
        };
    add(
        "Hotspot factor (per window)".into(),
        Some(Better::Lower),
        &|d| Some(d.metrics.mean_hotspot_factor),
    );
    add(
        "Active regions per window".into(),
        Some(Better::Higher),
        &|d| Some(d.metrics.mean_active_regions),
    );
    add("Effective parallelism".into(), Some(Better::Higher), &|d| {
        Some(d.metrics.mean_effective_parallelism)
    });
    add("Regions".into(), None, &|d| Some(d.regions as f64));
    add("Key bytes (mean)".into(), Some(Better::Lower), &|d| {
        Some(d.key_bytes)
    });
    add("Rows".into(), None, &|d| Some(d.distinct_rows as f64));
    add("Largest row (bytes)".into(), Some(Better::Lower), &|d| {
        Some(d.largest_row_bytes as f64)
    });
    // Each read by what it costs: its scans, the regions they touch (each a server round
    // trip, and the servers busy with it), the rows read per row returned, and whether it
    // reads the whole table. A read that keeps its scan count but touches 6 regions instead
    // of 1, or reads 333 x the rows, is worse, not the same.
    if let Some(first) = designs.first() {
        type ReadFigure = (&'static str, fn(&ComparedRead) -> Option<f64>);
        const READ_FIGURES: [ReadFigure; 4] = [
            ("Scans", |x| Some(x.scans as f64)),
            ("Regions touched", |x| Some(x.regions_touched as f64)),
            ("Rows read per row returned", |x| {
                x.rows_read_per_row_returned
            }),
            ("Full-table scan (1 = yes)", |x| {
                Some(if x.full_table_scan { 1.0 } else { 0.0 })
            }),
        ];
        for r in &first.reads {
            for (what, value) in READ_FIGURES {
                let name = r.name.clone();
                add(
                    format!("{what}: {}", r.name),
                    Some(Better::Lower),
                    &move |d| d.reads.iter().find(|x| x.name == name).and_then(value),
                );
            }
        }
    }
    out
}

/// Run the first document's workload through 2–4 designs (each with its own encoder and
/// layout) and put the metrics side by side on the same grid.
pub fn compare_with_encoders(
    docs: &[DesignDocument],
    opts: &AnalyzeOptions,
    mut encoder_for: impl FnMut(&DesignDocument) -> Result<KeyEncoder>,
) -> Result<Comparison> {
    if docs.len() < 2 || docs.len() > 4 {
        return Err(invalid(
            "designs",
            format!("compare takes 2 to 4 designs, not {}", docs.len()),
        ));
    }
    let workload = docs.first().and_then(|d| d.workload.clone());
    let mut clock = (0, 0);
    let mut designs = Vec::with_capacity(docs.len());
    for (i, d) in docs.iter().enumerate() {
        let mut d = d.clone();
        if workload.is_some() {
            d.workload = workload.clone();
        }
        let enc = encoder_for(&d).map_err(|e| {
            let p = e.location.path.clone().unwrap_or_default();
            e.at_path(format!("/designs/{i}{p}"))
        })?;
        let r = analyze_with_encoder(&d, opts, enc)?;
        if i == 0 {
            clock = (r.start_time_ms, r.window_ms);
        }
        let key_bytes = if r.sample.is_empty() {
            0.0
        } else {
            r.sample.iter().map(|k| k.key.len() as f64).sum::<f64>() / r.sample.len() as f64
        };
        // over the regions as they end (auto-split included), as the analysis plans them
        let splits: Vec<Vec<u8>> = r
            .regions
            .iter()
            .skip(1)
            .filter_map(|g| crate::hbase::bytes::from_hex(&g.start_key_hex).ok())
            .collect();
        let reads = d
            .plan_reads(&splits)
            .map(|plans| {
                plans
                    .into_iter()
                    .map(|p| ComparedRead {
                        full_table_scan: p
                            .scans
                            .iter()
                            .any(|s| s.start_row_hex.is_empty() && s.stop_row_hex.is_empty()),
                        name: p.name,
                        scans: p.scans.len(),
                        regions_touched: p.regions_touched,
                        rows_read_per_row_returned: p.rows_read_per_row_returned,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let region_keys = r
            .regions
            .iter()
            .map(|g| ComparedRegion {
                start_key: g.start_key.clone(),
                end_key: g.end_key.clone(),
                server: g.server,
                writes: g.writes,
                cells: g.cells,
                bytes: g.bytes,
            })
            .collect();
        designs.push(ComparedDesign {
            name: d
                .name
                .clone()
                .unwrap_or_else(|| format!("design {}", i + 1)),
            key: d.key.to_text(),
            regions: r.regions.len(),
            writes: r.writes,
            distinct_rows: r.distinct_rows,
            distinct_rows_error: r.distinct_rows_error,
            cells: r.cells,
            largest_row_bytes: r.largest_rows.iter().map(|w| w.bytes).max().unwrap_or(0),
            matrix: r.matrix,
            region_keys,
            metrics: r.metrics,
            grid_metrics: r.grid_metrics,
            grid: r.grid,
            diagnosis: r.diagnosis,
            key_bytes,
            reads,
        });
    }
    Ok(Comparison {
        grid_buckets: opts.grid_buckets,
        windows: usize::try_from(opts.windows).unwrap_or(0),
        start_time_ms: clock.0,
        window_ms: clock.1,
        figures: figures(&designs),
        designs,
    })
}

/// Run the first document's workload through 2–4 designs and compare them on one grid.
pub fn compare(docs: &[DesignDocument], opts: &AnalyzeOptions) -> Result<Comparison> {
    compare_with_encoders(docs, opts, document_encoder)
}
