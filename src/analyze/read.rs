//! Reading the analyzer's options from a JSON tree.

use crate::analyze::{
    AnalyzeOptions, MAX_GRID_BUCKETS, MAX_REGION_SAMPLE, MAX_SAMPLE, MAX_WINDOWS,
};
use crate::support::json::{bool_, object_reader, u32_};

object_reader! {
    /// [`AnalyzeOptions`]: every field optional.
    pub fn analyze_options(n) -> AnalyzeOptions; "struct AnalyzeOptions";
    /// The analysis options, as [`analyze_options`] reads them: the page's and the CLI's
    /// controls take their defaults and ranges from here.
    table ANALYZE_OPTIONS;
    AnalyzeOptions {
        /// Time windows over the workload's duration (the region × time matrix, per-window
        /// hotspot factors).
        windows: or("windows", u32_, AnalyzeOptions::default().windows) = "64" in 1 ..= MAX_WINDOWS,
        /// Row keys in the report's sorted sample.
        sample_size: or("sampleSize", u32_, AnalyzeOptions::default().sample_size) = "1000" in 0 ..= MAX_SAMPLE,
        /// Keys kept per region to estimate its middle key for auto-split.
        region_sample_size: or("regionSampleSize", u32_, AnalyzeOptions::default().region_sample_size) = "128" in 2 ..= MAX_REGION_SAMPLE,
        /// Buckets of the key-space grid (the first two key bytes cut into equal ranges).
        grid_buckets: or("gridBuckets", u32_, AnalyzeOptions::default().grid_buckets) = "256" in 1 ..= MAX_GRID_BUCKETS,
        /// Records read ahead to cut a `sampleQuantiles` pre-split without a sample of its own.
        presplit_sample: or("presplitSample", u32_, AnalyzeOptions::default().presplit_sample) = "10000",
        /// Count a generated workload of at most a million records exactly (records fed and
        /// a user's rows always are): exact largest rows and distinct rows; false: the sketches.
        exact_rows: or("exactRows", bool_, AnalyzeOptions::default().exact_rows) = "true",
    }
}

crate::support::json::deserialize_through! {
    AnalyzeOptions => analyze_options,
}
