//! Reading the analyzer's options from a JSON tree.

use crate::analyze::AnalyzeOptions;
use crate::support::json::{bool_, read_object, u32_, Node, R};

/// [`AnalyzeOptions`]: every field optional.
pub fn analyze_options(n: &Node) -> R<AnalyzeOptions> {
    let d = AnalyzeOptions::default();
    Ok(read_object!(
        n,
        "struct AnalyzeOptions",
        None,
        AnalyzeOptions {
            windows: or("windows", u32_, d.windows),
            sample_size: or("sampleSize", u32_, d.sample_size),
            region_sample_size: or("regionSampleSize", u32_, d.region_sample_size),
            grid_buckets: or("gridBuckets", u32_, d.grid_buckets),
            presplit_sample: or("presplitSample", u32_, d.presplit_sample),
            exact_rows: or("exactRows", bool_, d.exact_rows),
        }
    ))
}

crate::support::json::deserialize_through! {
    AnalyzeOptions => analyze_options,
}
