//! The split and skew analyzer: row keys stream in one write at a time and land in counters.
//!
//! [`Analyzer`] keeps, per region, its rows, bytes and writes per time window, a small
//! reservoir of its keys (for the auto-split middle key) and its region server; per server
//! the same totals; a key-space grid × window matrix; and a bounded reservoir of keys for the
//! sorted sample. Memory grows with regions × windows and the sample sizes, never with the
//! number of writes.
//!
//! # Auto-split
//! With [`AnalyzerOptions::auto_split`] set, regions split on HBase's rules, which the
//! months-of-life simulator ([`crate::life`]) follows too, on the same arithmetic
//! ([`crate::hbase::store`]). Each write adds its KeyValue bytes (key + value + 20 + the
//! family's and qualifier's bytes, [`AnalyzerOptions::cell_bytes`]) to its region's memstore,
//! which flushes into a store file (those bytes times the compression ratio) at the flush size
//! or an hour after its oldest edit ([`PERIODIC_FLUSH_MS`]). A split check follows each flush,
//! and each compaction a flush asks for (`ExploringCompactionPolicy`, 3 to 10 files): the
//! store files' bytes against `SplitPolicy::size_to_check(limits, regions of this table on its
//! server)` (the exact [`crate::hbase::policy`] arithmetic, no jitter). The split point is the
//! middle block of the **largest store file**, as its block index keeps it (the shortened
//! separator of `HFileWriterImpl`); a file's index is modelled by a sorted sample of
//! [`AnalyzerOptions::region_sample_size`] of its rows, so the row is cut between sampled
//! neighbours. A middle row that is the file's first or last row gives no split (one row
//! holds half of it). The policy's KeyPrefix / Delimited truncation and the
//! [`AnalyzerOptions::split_restriction`] are applied by the policy module, and the point must
//! pass the master's [`crate::hbase::policy::is_usable_split_row`] check. Daughters hold
//! references to their halves of the parent's files and cannot split before compacting them,
//! which they do at their first flush. Memstores are not flushed at the end of the run: a run
//! too short for any flush never splits, and its report says so. The report's
//! [`AnalysisReport::auto_split`] names the rules used and counts the flushes.
//!
//! # Rows and cells
//! Writes with the same row key are one row, and with a `cells` section
//! ([`AnalyzerOptions::versions`] and [`Analyzer::push_cell`]) writes with the same row key
//! and qualifier are versions of one cell, of which the newest `versions` are kept. Every
//! write's key is hashed once (xxh3, seedless) and feeds, in fixed memory: HyperLogLog
//! distinct counts of rows and cells per region, per server and for the table; a sample of
//! 1,024 distinct cells with their exact writes (the versions kept per cell, when `versions`
//! is above 1); and a filtered space-saving sketch of the 64 rows with the most bytes. Auto-split
//! never splits at a middle row that is the region's first or last row (HBase's
//! `HStoreFile`: "midkey is the same as first or last row"), so a region whose data is one
//! row stays whole and is reported `unsplittable`. With [`AnalyzerOptions::exact_rows`] (on for
//! fed records) every row is also counted exactly while the rows fit [`MAX_EXACT_ROWS`] and
//! [`MAX_EXACT_ROW_BYTES`]: the largest rows and the distinct rows of the table and of each
//! final region then come from those counts, and the report marks which figures are exact and
//! gives the others' error bounds.
//!
//! # Matrix rows after a split
//! Rows of the region × window matrix are the **final** regions in key order. When a region
//! splits, the counts it had so far are divided between its daughters by key, estimated from
//! its reservoir: for each window, the share of that window's sampled keys that fall below the
//! split point (the overall share where a window has no sampled key). Rows and bytes are
//! divided by the overall share. So the heatmap shows where in the final key space the writes
//! went, and each region's `createdAtMs` says from when it really existed.

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::policy::SplitRestriction;
use crate::hbase::store::CellBytes;
use crate::region::{Assignment, AutoSplit, MAX_REGIONS};

/// The most cells a region × window (or grid × window) matrix may have.
pub const MAX_CELLS: u64 = 16 * 1024 * 1024;
/// The most time windows.
pub const MAX_WINDOWS: u32 = 65_536;
/// The most keys in the sorted sample.
pub const MAX_SAMPLE: u32 = 100_000;
/// The most keys in one region's reservoir.
pub const MAX_REGION_SAMPLE: u32 = 4096;
/// The most key-space grid buckets.
pub const MAX_GRID_BUCKETS: u32 = 65_536;
/// The most distinct rows (and, with a `cells` section, distinct cells) counted exactly
/// ([`AnalyzerOptions::exact_rows`]); past it the largest rows and distinct rows are the
/// sketches' estimates, marked as such in the report.
pub const MAX_EXACT_ROWS: usize = 1 << 20;
/// The most bytes of distinct row keys counted exactly (see [`MAX_EXACT_ROWS`]).
pub const MAX_EXACT_ROW_BYTES: usize = 32 << 20;

/// How an [`Analyzer`] counts: the time axis, the sample sizes, the key-space grid, the
/// auto-split settings and the region servers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct AnalyzerOptions {
    /// Start of window 0, in ms since the epoch.
    pub start_time_ms: i64,
    /// Width of one time window in ms (at least 1).
    pub window_ms: i64,
    /// Number of time windows; writes before the start count in window 0, after the end in
    /// the last window (and are counted in `writesOutsideWindows`).
    pub windows: u32,
    /// Size of the sorted key sample.
    pub sample_size: u32,
    /// Keys kept per region to estimate its middle key for auto-split.
    pub region_sample_size: u32,
    /// Buckets of the key-space grid (the first two key bytes read as a big-endian number,
    /// cut into equal ranges: 256 buckets = one per first byte).
    pub grid_buckets: u32,
    /// Automatic splitting; `None` keeps the initial regions.
    pub auto_split: Option<AutoSplit>,
    /// How auto-split counts a write's KeyValue bytes (the design's `hbase` section: family
    /// and qualifier bytes, compression ratio).
    pub cell_bytes: CellBytes,
    /// The table's split restriction (`hbase.regionserver.region.split_restriction.type`).
    pub split_restriction: SplitRestriction,
    /// Number of region servers (at least 1).
    pub region_servers: u32,
    /// How regions are placed on servers.
    pub assignment: Assignment,
    /// Seed of the reservoir sampling.
    pub seed: u64,
    /// The column family's `VERSIONS` when writes name their cell
    /// ([`Analyzer::push_cell`]): a cell keeps that many newest versions. `None`: every write
    /// is its own cell (a design without a `cells` section).
    pub versions: Option<u32>,
    /// Count every row exactly while the rows fit [`MAX_EXACT_ROWS`] and
    /// [`MAX_EXACT_ROW_BYTES`]: the largest rows and distinct rows are then exact, not the
    /// sketches' estimates. On for records a caller feeds ([`AnalysisRun::feed`]).
    pub exact_rows: bool,
}

impl Default for AnalyzerOptions {
    fn default() -> Self {
        AnalyzerOptions {
            start_time_ms: 0,
            window_ms: 1000,
            windows: 64,
            sample_size: 1000,
            region_sample_size: 128,
            grid_buckets: 256,
            auto_split: None,
            cell_bytes: CellBytes::default(),
            split_restriction: SplitRestriction::None,
            region_servers: 1,
            assignment: Assignment::RoundRobin,
            seed: 0,
            versions: None,
            exact_rows: false,
        }
    }
}

fn invalid(path: &str, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Invalid, message).at_path(path)
}

impl AnalyzerOptions {
    /// Checks every limit, naming the option at fault.
    pub fn validate(&self) -> Result<()> {
        if self.window_ms < 1 {
            return Err(invalid(
                "windowMs",
                "the window width must be at least 1 ms",
            ));
        }
        if self.windows == 0 || self.windows > MAX_WINDOWS {
            return Err(invalid(
                "windows",
                format!("the window count must be between 1 and {MAX_WINDOWS}"),
            ));
        }
        if self.sample_size > MAX_SAMPLE {
            return Err(invalid(
                "sampleSize",
                format!("the sample size must be at most {MAX_SAMPLE}"),
            ));
        }
        if self.region_sample_size < 2 || self.region_sample_size > MAX_REGION_SAMPLE {
            return Err(invalid(
                "regionSampleSize",
                format!("the region sample size must be between 2 and {MAX_REGION_SAMPLE}"),
            ));
        }
        if self.grid_buckets == 0 || self.grid_buckets > MAX_GRID_BUCKETS {
            return Err(invalid(
                "gridBuckets",
                format!("the grid must have between 1 and {MAX_GRID_BUCKETS} buckets"),
            ));
        }
        if u64::from(self.grid_buckets) * u64::from(self.windows) > MAX_CELLS {
            return Err(invalid(
                "gridBuckets",
                format!(
                    "{} grid buckets x {} windows is more than {MAX_CELLS} cells",
                    self.grid_buckets, self.windows
                ),
            ));
        }
        if self.versions == Some(0) {
            return Err(invalid("versions", "VERSIONS must be at least 1"));
        }
        if self.region_servers == 0 || self.region_servers > 10_000 {
            return Err(invalid(
                "regionServers",
                "the region server count must be between 1 and 10000",
            ));
        }
        Ok(())
    }

    /// The most regions the matrix can hold with this many windows.
    fn max_regions(&self) -> usize {
        let by_cells = MAX_CELLS / u64::from(self.windows.max(1));
        usize::try_from(by_cells.min(u64::from(MAX_REGIONS))).unwrap_or(usize::MAX)
    }
}

mod analyzer;
mod beside;
pub mod check;
mod compare;
mod diagnosis;
mod index_reads;
mod indexes;
pub(crate) use diagnosis::size_text;
pub mod metrics;
mod observed;
mod qualifier;
pub(crate) mod read;
mod recount;
mod report;
mod run;

pub use analyzer::{
    grid_bucket, Analyzer, DistinctKeys, PartialAnalysis, DEFAULT_ROW_LIMIT, PERIODIC_FLUSH_MS,
};
pub use beside::{
    data_reads_beside, reads_beside, reads_over, table_now, IndexReadsBeside, ReadsBeside,
    RegionNow, ReportTable, ServerNow, TableNow,
};
pub use compare::{
    compare, compare_with_encoders, Better, ComparedDesign, ComparedFigure, ComparedRead,
    ComparedRegion, Comparison, Verdict, SAME_WITHIN,
};
pub use diagnosis::{
    diagnose, spread_of, Spread, WindowFigures, EVEN, HOTSPOT, HOT_WINDOW_SHARE, NOISE_MARGIN,
    WINDOW_PARALLELISM,
};
pub use index_reads::{plan_reads_through_indexes, Access, IndexReadPlan, ReadThrough};
pub use indexes::{
    analyze_indexes, index_tables, index_value_bytes, index_writes, with_indexes, IndexAnalysis,
    IndexTable, IndexWrites,
};
pub use observed::{
    against_design, AgainstDesign, Measure, Observed, ObservedRegion, ObservedServer, PredictedMap,
    PredictedServer,
};
pub use recount::{check_recount, CountedRow, RowRecount, LARGEST_ROWS};
pub use report::{
    AnalysisReport, AutoSplitRules, LargestRow, Matrix, RegionReport, SampleKey, ServerReport,
    SplitEvent, SplitSizes, SHARED_ROWS_RATIO,
};
pub use run::{
    analyze, analyze_parallel, analyze_with_encoder, analyzer_options, block_ranges,
    document_encoder, initial_split_keys, AnalysisRun, AnalyzeOptions, KeyEncoder, Progress,
};
#[cfg(feature = "rows")]
pub use run::{
    analyze_batches, analyze_rows, bucket_weights, count_rows, cut_picked, cut_targets,
    doc_for_rows, encode_batches, encode_batches_skipped, encode_stream,
    encode_stream_with_digests, fit_to_first, fit_to_scan, needs_row_sample, row_fields,
    split_batches, split_batches_by_bytes, split_keys_of, split_sample, write_bytes, FirstPass,
    RowFeed, RowsAnalysis,
};
#[cfg(feature = "rows")]
pub use run::{
    design_for_file, file_sample, rows_shareable, ParquetPlan, ReadPass, ReadWatch, RowSplitKeys,
    RowsSession, ScanEnd, SharedRows, MAX_SHARED_DESIGNS, READ_PIECE,
};
#[cfg(feature = "rows")]
pub use run::{
    design_hash, merge_partials, partial_and_keys_of_stream, partial_design, partial_of_batches,
    partial_of_batches_to_recount, partial_of_stream, recount_batches, report_of_partials,
    report_of_partials_recounted, scan_batches, PARTIAL_MAGIC, PARTIAL_VERSION,
};
#[cfg(feature = "rows")]
pub use run::{encode_index_batches, index_position};
