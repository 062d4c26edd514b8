//! Native reference for the npm build's preset test (tests/js/npm/npm.test.mjs): for every preset,
//! the analysis report's headline numbers, metrics and per-region rows (default
//! `AnalyzeOptions`, as `analyzeDesign(doc)`) and the read plans over the design's pre-split
//! (as `planReads(doc)`), printed as one JSON document on stdout.
//!
//! `cargo run --release --example dump_analysis > presets-native.json`
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use rowkey_lab::analyze::{analyze, AnalysisRun, AnalyzeOptions};
use rowkey_lab::design::presets;
use serde_json::{json, Value};

fn main() {
    let opts = AnalyzeOptions::default();
    let mut out = Vec::new();
    for p in presets::all() {
        let doc = presets::get(p.id).expect("preset parses");
        let r = analyze(&doc, &opts).expect("preset analyzes");
        let keys = AnalysisRun::new(&doc, &opts)
            .expect("preset runs")
            .analyzer()
            .split_keys()
            .to_vec();
        let plans = doc.plan_reads(&keys).expect("reads plan");
        out.push(json!({
            "id": p.id,
            "writes": r.writes,
            "bytes": r.bytes,
            "writesOutsideWindows": r.writes_outside_windows,
            "windows": r.windows,
            "metrics": r.metrics,
            "gridMetrics": r.grid_metrics,
            "serverMetrics": r.server_metrics,
            "regions": r.regions,
            "matrixSum": r.matrix.cells.iter().map(|&c| u64::from(c)).sum::<u64>(),
            "splits": r.splits.len(),
            "diagnosis": r.diagnosis,
            "sample": r.sample,
            "plans": plans,
        }));
    }
    println!(
        "{}",
        serde_json::to_string(&Value::Array(out)).expect("serializes")
    );
}
