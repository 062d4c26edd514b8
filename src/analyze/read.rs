//! Reading the analyzer's options from a JSON tree.

use crate::analyze::AnalyzeOptions;
use crate::support::json::{u32_, Node, Obj, R};

/// [`AnalyzeOptions`]: every field optional.
pub fn analyze_options(n: &Node) -> R<AnalyzeOptions> {
    let o = Obj::new(
        n,
        "struct AnalyzeOptions",
        &[
            "windows",
            "sampleSize",
            "regionSampleSize",
            "gridBuckets",
            "presplitSample",
        ],
        None,
        false,
    )?;
    let d = AnalyzeOptions::default();
    Ok(AnalyzeOptions {
        windows: o.or("windows", u32_, d.windows)?,
        sample_size: o.or("sampleSize", u32_, d.sample_size)?,
        region_sample_size: o.or("regionSampleSize", u32_, d.region_sample_size)?,
        grid_buckets: o.or("gridBuckets", u32_, d.grid_buckets)?,
        presplit_sample: o.or("presplitSample", u32_, d.presplit_sample)?,
    })
}

crate::support::json::deserialize_through! {
    AnalyzeOptions => analyze_options,
}
