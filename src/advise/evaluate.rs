//! One candidate through the analyzer and the read planner, and many candidates on every
//! core. A candidate's figures depend only on its document and the options, never on the
//! thread that computed them.

use serde::{Deserialize, Serialize};

use super::AdviseOptions;
use crate::analyze::{AnalysisRun, AnalyzeOptions};
use crate::design::DesignDocument;
use crate::error::Result;
#[cfg(feature = "rows")]
use crate::rows::RowSample;

/// What one read costs on a candidate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadCost {
    /// The read's name.
    pub name: String,
    /// `get`, `prefix`, `range` or `latest`.
    pub kind: String,
    /// Scans HBase runs for it; more than [`crate::scan::MAX_SCANS`] when the planner
    /// refuses to list them (then the cost counts that many scans over every region).
    pub scans: usize,
    /// Regions those scans touch.
    pub regions_touched: usize,
    /// Rows read per row returned (the planner's estimate; `None` when it has none).
    pub rows_read_per_row_returned: Option<f64>,
    /// The read scans the whole table (or the whole hashed space) with a filter.
    pub full_scan: bool,
    /// The read's cost in one number: regions touched × rows read per row returned (at
    /// least 1).
    pub cost: f64,
}

/// A candidate's figures on the advisor's workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CandidateMetrics {
    /// Write spread: per time window, the busiest region's writes over the mean writes of
    /// `max(regions, targetRegions)` regions, averaged over the windows with writes. 1 is
    /// even over at least the target; a key that writes one region of a target of 10 scores
    /// 10. (A table of fewer regions than the target cannot score 1.)
    pub hotspot_factor: f64,
    /// The worst window's write spread (same definition).
    pub max_hotspot_factor: f64,
    /// The analyzer's hotspot factor over the whole run (busiest region / mean region).
    pub hotspot_factor_overall: f64,
    /// Regions written per time window (mean).
    pub active_regions_per_window: f64,
    /// Effective parallelism per window (1 / Σ share², mean over windows).
    pub effective_parallelism: f64,
    /// Regions at the end of the run.
    pub regions: usize,
    /// Regions that took no write.
    pub empty_regions: usize,
    /// Mean row key length in bytes.
    pub key_bytes: f64,
    /// Records analyzed.
    pub records: u64,
    /// Each read's cost, in the document's order.
    pub reads: Vec<ReadCost>,
    /// The sum of the reads' costs (0 without reads).
    pub read_cost: f64,
    /// The HBase shell command that creates the table with this pre-split.
    pub create_statement: String,
    /// The busiest region's mean share of a window's writes (the analysis's
    /// `metrics.meanBusiestShare`), which each index's is set beside.
    #[serde(default)]
    pub busiest_share: f64,
    /// Each Phoenix secondary index of the candidate over the same workload, in the design's
    /// order: an index key ends with the data key's columns and an index of a salted table
    /// takes its buckets, so a change of data key changes its indexes. Over a user's rows, the
    /// indexes over the same sample rows. Empty without indexes.
    #[serde(default)]
    pub indexes: Vec<super::index_cost::IndexCost>,
}

/// The evaluation options for a candidate: the analyzer's defaults with the advisor's
/// window count.
pub(super) fn analyze_options(opts: &AdviseOptions) -> AnalyzeOptions {
    AnalyzeOptions {
        windows: opts.windows,
        sample_size: 0,
        // A sampleQuantiles pre-split is cut at the workload's first keys: at most the
        // records evaluated.
        presplit_sample: u32::try_from(opts.records.min(10_000)).unwrap_or(10_000),
        ..AnalyzeOptions::default()
    }
}

/// `design` on `opts.records` records of its own workload (same seed and rate), through the
/// analyzer and the read planner. `target_regions` is the region count writes should spread
/// over ([`super::CandidateSet::target_regions`]).
pub fn evaluate(
    design: &DesignDocument,
    opts: &AdviseOptions,
    target_regions: u32,
) -> Result<CandidateMetrics> {
    let doc = advisor_design(design, opts);
    let aopts = analyze_options(opts);
    let mut run = AnalysisRun::new(&doc, &aopts)?;
    while !run.step(1 << 16)?.finished {}
    metrics(&doc, run, target_regions, Some(&aopts))
}

/// `design` with the advisor's record count (its own workload, seed and rate otherwise), its
/// auto-split sizes scaled to it ([`split_sizes_scaled`]).
pub(super) fn advisor_design(design: &DesignDocument, opts: &AdviseOptions) -> DesignDocument {
    let mut doc = design.clone();
    let mut w = doc.workload.take().unwrap_or_default();
    let own = w.records;
    w.records = opts.records;
    doc.workload = Some(w);
    split_sizes_scaled(&mut doc, opts.records, own);
    doc
}

/// A design that splits as it grows (`regions.autoSplit`), counted on `counted` of the `own`
/// rows its analysis counts: its split and flush sizes scaled by `counted / own`, so that the
/// candidate splits at the same share of its writes as its own analysis does. Unscaled, the
/// advisor's 200,000 records split a new design's 4 MiB regions into 8 where the page's
/// analysis of the same design, its 360,000 records, makes 16, and the hotspot factor the
/// advice promises (1.07) is not the one the page shows after Load (1.88).
pub(super) fn split_sizes_scaled(doc: &mut DesignDocument, counted: u64, own: u64) {
    let Some(c) = doc
        .regions
        .as_mut()
        .and_then(|r| r.auto_split.as_mut())
        .map(|a| &mut a.config)
    else {
        return;
    };
    if counted == own || counted == 0 || own == 0 {
        return;
    }
    let share = counted as f64 / own as f64;
    let scale = |b: i64| ((b as f64 * share).round() as i64).max(1);
    c.max_file_size = scale(c.max_file_size);
    c.memstore_flush_size = scale(c.memstore_flush_size);
    for b in [
        &mut c.table_max_file_size,
        &mut c.table_memstore_flush_size,
        &mut c.initial_size,
    ] {
        *b = b.map(|v| if v > 0 { scale(v) } else { v });
    }
}

/// `design` on a sample of a user's rows ([`RowSample`]: each row's values by field name and
/// its write time) instead of its own workload, as `analyze --records` counts a file: windows
/// span the rows' times when they carry them, else the file's order at the workload's rate; a
/// `sampleQuantiles` pre-split is cut at these rows' keys.
#[cfg(feature = "rows")]
pub fn evaluate_on_rows(
    design: &DesignDocument,
    opts: &AdviseOptions,
    target_regions: u32,
    rows: &RowSample,
) -> Result<CandidateMetrics> {
    if rows.is_empty() {
        return Err(crate::error::Error::arg(
            "rows",
            "no rows to evaluate the candidates on",
        ));
    }
    // (the sample splits as the whole file does in the analysis of it)
    let mut scaled = design.clone();
    split_sizes_scaled(&mut scaled, rows.len() as u64, rows.file_rows());
    let design = &scaled;
    let fields: Vec<String> = design.fields.iter().map(|f| f.name.clone()).collect();
    // The two passes `analyze --records` makes over a file, over the sample: its keys kept for
    // the count (a sample is at most MAX_SAMPLE_ROWS rows), else the rows fed again. The run
    // counts the design's Phoenix indexes over the same rows, as `analyze --records` does.
    let (run, first, _) = crate::analyze::count_rows(
        design,
        &analyze_options(opts),
        crate::limits::MAX_REPLAY_BYTES,
        &mut |sink| {
            rows.each(&fields, &mut |values, time| sink.row(values, time))?;
            Ok(crate::rows::RowStats::default())
        },
    )?;
    let doc = crate::analyze::doc_for_rows(
        &crate::analyze::fit_to_first(design, &first),
        &first.scan.summary,
    );
    metrics(&doc, run, target_regions, None)
}

/// A candidate's figures from its finished run; its Phoenix indexes' over the same workload:
/// with `index_opts`, analyzed here over the generated one; without, as the run over a user's
/// rows counted them (its report's `indexes`).
fn metrics(
    doc: &DesignDocument,
    run: AnalysisRun,
    target_regions: u32,
    index_opts: Option<&AnalyzeOptions>,
) -> Result<CandidateMetrics> {
    let value_size = doc.workload.as_ref().map_or(0, |w| w.value_size);
    let split_keys = run.analyzer().split_keys().to_vec();
    let report = run.finish();
    // Each read on its own: one that would need more scans than the planner plans is a cost
    // (a salt over a time cut at every second of a day), not a failed candidate.
    let mut plans = Vec::with_capacity(doc.reads.len());
    for (i, r) in doc.reads.iter().enumerate() {
        let one = crate::scan::plan_reads(
            &doc.key,
            &doc.fields,
            doc.workload.as_ref(),
            std::slice::from_ref(r),
            &split_keys,
        );
        match one {
            Ok(mut p) => plans.push(p.pop()),
            Err(e) if e.kind == crate::error::ErrorKind::Limit => plans.push(None),
            Err(e) => {
                let p = e.location.path.clone().unwrap_or_default();
                let rest = p.strip_prefix("/reads/0").unwrap_or(&p).to_string();
                return Err(e.at_path(format!("/reads/{i}{rest}")));
            }
        }
    }
    let slots = report.regions.len().max(target_regions as usize).max(1) as f64;
    let loaded: Vec<f64> = report
        .metrics
        .per_window
        .iter()
        .filter(|m| m.total > 0)
        .map(|m| m.max as f64 * slots / m.total as f64)
        .collect();
    let hotspot_factor = if loaded.is_empty() {
        0.0
    } else {
        loaded.iter().sum::<f64>() / loaded.len() as f64
    };
    let max_hotspot_factor = loaded.iter().copied().fold(0.0, f64::max);
    let regions = report.regions.len();
    let reads: Vec<ReadCost> = plans
        .iter()
        .zip(&doc.reads)
        .map(|(p, r)| {
            let Some(p) = p else {
                return ReadCost {
                    name: r.name(),
                    kind: read_kind(r).into(),
                    scans: crate::scan::MAX_SCANS + 1,
                    regions_touched: regions,
                    rows_read_per_row_returned: None,
                    full_scan: false,
                    cost: (crate::scan::MAX_SCANS + 1) as f64 * regions.max(1) as f64,
                };
            };
            let full_scan = p.notes.iter().any(|n| {
                n.contains("full-table scan") || n.contains("scan of the whole hashed space")
            });
            let rr = p.rows_read_per_row_returned.unwrap_or(1.0).max(1.0);
            ReadCost {
                name: p.name.clone(),
                kind: read_kind(r).into(),
                scans: p.scans.len(),
                regions_touched: p.regions_touched,
                rows_read_per_row_returned: p.rows_read_per_row_returned,
                full_scan,
                cost: p.regions_touched.max(1) as f64 * rr,
            }
        })
        .collect();
    // `+ 0.0`: an empty sum of floats is -0.0, which JSON text writes as 0 but a structured
    // clone keeps, so the same answer compared unequal across the boundary.
    let read_cost = reads.iter().map(|r| r.cost).sum::<f64>() + 0.0;
    let indexes = match index_opts {
        Some(o) => super::index_cost::index_costs(doc, o, &report)?,
        None => super::index_cost::counted(&report),
    };
    let key_bytes = if report.writes == 0 {
        0.0
    } else {
        report.bytes as f64 / report.writes as f64 - value_size as f64
    };
    Ok(CandidateMetrics {
        hotspot_factor,
        max_hotspot_factor,
        hotspot_factor_overall: report.metrics.overall.hotspot_factor,
        active_regions_per_window: report.metrics.mean_active_regions,
        effective_parallelism: report.metrics.mean_effective_parallelism,
        regions: report.regions.len(),
        empty_regions: report.metrics.overall.empty_regions,
        key_bytes,
        records: report.writes,
        reads,
        read_cost,
        create_statement: crate::hbase::shell::shell_create("table", "f", &split_keys)?,
        busiest_share: report.metrics.mean_busiest_share,
        indexes,
    })
}

/// A scan count in words (more than the planner lists: "more than N scans").
pub(super) fn scans(n: usize) -> String {
    if n > crate::scan::MAX_SCANS {
        format!("more than {} scans", crate::scan::MAX_SCANS)
    } else if n == 1 {
        "1 scan".into()
    } else {
        format!("{n} scans")
    }
}

fn read_kind(r: &crate::scan::ReadPattern) -> &'static str {
    use crate::scan::ReadPattern as P;
    match r {
        P::Get { .. } => "get",
        P::Prefix { .. } => "prefix",
        P::Range { .. } => "range",
        P::Latest { .. } => "latest",
    }
}

/// Every design evaluated, in order, on `threads` threads (0: every core; always one on
/// wasm32, which has no threads). The results are the same whatever the thread count.
pub fn evaluate_all(
    designs: &[&DesignDocument],
    opts: &AdviseOptions,
    target_regions: u32,
    threads: u32,
) -> Vec<Result<CandidateMetrics>> {
    let one = |d: &&DesignDocument| evaluate(d, opts, target_regions);
    let n = crate::support::threads::count(threads).min(designs.len());
    crate::support::threads::map(designs, n, &one)
}
