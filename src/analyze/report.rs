//! What an analysis reports: the final regions and servers, the region × window and grid ×
//! window matrices, the key sample, the splits, and the plain-language diagnosis.

use serde::{Deserialize, Serialize};

use crate::analyze::metrics::{LoadMetrics, MatrixMetrics};
use crate::error::{Error, Result};
use crate::hbase::bytes::{to_hex, to_string_binary};

/// A split the simulation performed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SplitEvent {
    /// Write time of the write that triggered it, ms since the epoch.
    pub time_ms: i64,
    /// The split row, hex.
    pub split_key_hex: String,
    /// The split row, `toStringBinary`.
    pub split_key: String,
    /// The parent's size in bytes when it split.
    pub parent_bytes: u64,
    /// The size the policy compared against.
    pub size_to_check: i64,
    /// Regions of the table on the parent's server when it split.
    pub regions_on_server: u32,
    /// Regions in the table after the split.
    pub regions_after: usize,
}

/// A row-major matrix of write counts (`cells[row * cols + col]`, saturating at `u32::MAX`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Matrix {
    /// Number of rows (regions or grid buckets, in key order).
    pub rows: usize,
    /// Number of columns (time windows).
    pub cols: usize,
    /// The counts, row-major.
    pub cells: Vec<u32>,
}

impl Matrix {
    /// The cell at `row`, `col`, `None` out of range.
    pub fn get(&self, row: usize, col: usize) -> Option<u32> {
        if col >= self.cols {
            return None;
        }
        self.cells
            .get(row.checked_mul(self.cols)?.checked_add(col)?)
            .copied()
    }

    /// One row.
    pub fn row(&self, row: usize) -> Option<&[u32]> {
        let a = row.checked_mul(self.cols)?;
        self.cells.get(a..a.checked_add(self.cols)?)
    }
}

/// One final region.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionReport {
    /// Position in key order; also the region's row in [`AnalysisReport::matrix`] (its writes
    /// per window).
    pub index: usize,
    /// Start key, hex (empty: start of table).
    pub start_key_hex: String,
    /// Start key, `toStringBinary`.
    pub start_key: String,
    /// End key, hex (empty: end of table).
    pub end_key_hex: String,
    /// End key, `toStringBinary`.
    pub end_key: String,
    /// Writes into this key range (named before rows were told apart from writes: the rows
    /// are [`distinct_rows`](Self::distinct_rows)).
    pub rows: u64,
    /// Bytes written into this key range.
    pub bytes: u64,
    /// Writes (the sum of its matrix row).
    pub writes: u64,
    /// Distinct row keys written into this key range: exact when
    /// [`distinct_rows_exact`](Self::distinct_rows_exact), else a HyperLogLog estimate (after
    /// a split, the parent's share plus the daughter's new rows).
    pub distinct_rows: u64,
    /// [`distinct_rows`](Self::distinct_rows) is exact (every row counted).
    #[serde(default)]
    pub distinct_rows_exact: bool,
    /// The relative bound of [`distinct_rows`](Self::distinct_rows) as an estimate: the true
    /// count is within ± this share of it for 99.7 % of estimates (three standard errors,
    /// 3 × 1.04 / √256 = 19.5 %); 0 when exact.
    #[serde(default)]
    pub distinct_rows_error: f64,
    /// Cells kept: versions beyond the family's `VERSIONS` are not (its writes when the
    /// design has no `cells` section: every write its own cell).
    pub cells: u64,
    /// Auto-split wanted to split it, but its middle row is its first or last row: one row
    /// holds half its writes or more, and HBase splits only between rows.
    pub unsplittable: bool,
    /// When a split created it (ms since the epoch); `None` for initial regions.
    pub created_at_ms: Option<i64>,
    /// Its region server.
    pub server: u32,
}

/// One region server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerReport {
    /// Server index.
    pub index: u32,
    /// Its name, when the layout places regions on named servers (`assignment.servers`).
    #[serde(default)]
    pub name: Option<String>,
    /// Regions it holds at the end.
    pub regions: usize,
    /// Writes it received (named before rows were told apart from writes).
    pub rows: u64,
    /// Bytes it received.
    pub bytes: u64,
    /// Distinct row keys of the regions it holds at the end: the sum of theirs (their key
    /// ranges are disjoint), exact when theirs are, else each within the region sketch's
    /// 6.5 %, so the sum's error shrinks as the server holds more regions; the table's own
    /// count with one server.
    pub distinct_rows: u64,
    /// Cells kept by the regions it holds at the end (summed like `distinct_rows`).
    pub cells: u64,
    /// Writes it received per window.
    pub writes_per_window: Vec<u32>,
}

/// A sampled row key and the final region holding it. The key stays bytes: its text forms
/// are written only when the report is serialized (`{keyHex, key, region}`, `key` being
/// `toStringBinary`), so the wasm binding, which hands the bytes over as typed arrays,
/// neither renders nor parses up to 100,000 keys.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "SampleKeyText")]
pub struct SampleKey {
    /// The row key.
    pub key: Vec<u8>,
    /// Index of its final region.
    pub region: usize,
}

impl Serialize for SampleKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("SampleKey", 3)?;
        st.serialize_field("keyHex", &to_hex(&self.key))?;
        st.serialize_field("key", &to_string_binary(&self.key))?;
        st.serialize_field("region", &self.region)?;
        st.end()
    }
}

/// The serialized form of [`SampleKey`]; `keyHex` is the truth, `key` is its rendering.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SampleKeyText {
    key_hex: String,
    region: usize,
}

impl TryFrom<SampleKeyText> for SampleKey {
    type Error = Error;
    fn try_from(t: SampleKeyText) -> Result<Self> {
        Ok(SampleKey {
            key: crate::hbase::bytes::from_hex(&t.key_hex)?,
            region: t.region,
        })
    }
}

/// One of the largest rows. Exact when the report's
/// [`largest_rows_exact`](AnalysisReport::largest_rows_exact); else its counts start when the
/// largest-rows sketch took the row in: lower bounds, exact for a row it held from its first
/// write (every row with more than 1/64 of the bytes is held), at most
/// [`writes_error`](Self::writes_error) and [`bytes_error`](Self::bytes_error) low. The key
/// is written as text only when serialized (`{key, keyHex, region, writes, cells, bytes,
/// writesError, bytesError}`, `key` being `toStringBinary`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "LargestRowText")]
pub struct LargestRow {
    /// The row key.
    pub key: Vec<u8>,
    /// The (final) region holding it.
    pub region: usize,
    /// Writes to the row.
    pub writes: u64,
    /// Cells it keeps (its writes when every write is its own cell).
    pub cells: u64,
    /// Bytes written to it (key and value of every write).
    pub bytes: u64,
    /// The most writes [`writes`](Self::writes) may miss: the true count is in
    /// `writes..=writes + writesError` (0 when exact). The sketch bounds the bytes; this is
    /// that bound over the row's bytes per write (every write of a row has the same bytes:
    /// its key and the workload's value size). Its cells may miss as many.
    pub writes_error: u64,
    /// The most bytes [`bytes`](Self::bytes) may miss (the space-saving bound: what the row's
    /// filter counter held when the sketch took it in); 0 when exact.
    pub bytes_error: u64,
}

impl Serialize for LargestRow {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("LargestRow", 8)?;
        st.serialize_field("key", &to_string_binary(&self.key))?;
        st.serialize_field("keyHex", &to_hex(&self.key))?;
        st.serialize_field("region", &self.region)?;
        st.serialize_field("writes", &self.writes)?;
        st.serialize_field("cells", &self.cells)?;
        st.serialize_field("bytes", &self.bytes)?;
        st.serialize_field("writesError", &self.writes_error)?;
        st.serialize_field("bytesError", &self.bytes_error)?;
        st.end()
    }
}

/// The serialized form of [`LargestRow`]; `keyHex` is the truth, `key` its rendering.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LargestRowText {
    key_hex: String,
    region: usize,
    writes: u64,
    cells: u64,
    bytes: u64,
    #[serde(default)]
    writes_error: u64,
    #[serde(default)]
    bytes_error: u64,
}

impl TryFrom<LargestRowText> for LargestRow {
    type Error = Error;
    fn try_from(t: LargestRowText) -> Result<Self> {
        Ok(LargestRow {
            key: crate::hbase::bytes::from_hex(&t.key_hex)?,
            region: t.region,
            writes: t.writes,
            cells: t.cells,
            bytes: t.bytes,
            writes_error: t.writes_error,
            bytes_error: t.bytes_error,
        })
    }
}

/// Writes per distinct row from which writes are said to share rows: 5 %, six standard
/// errors of the distinct-row estimate (0.8125 %), so a design that writes every row once is
/// never taken for one that repeats its keys.
pub const SHARED_ROWS_RATIO: f64 = 1.05;

/// The one verdict on how the writes spread, the diagnosis's first sentence (see
/// [`spread_of`](super::spread_of) for the rule and its thresholds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Spread {
    /// Nothing was written.
    #[default]
    NoWrites,
    /// The table is one region: one server takes every write and read.
    OneRegion,
    /// One region takes 90 % or more of every window's writes.
    HotEveryWindow,
    /// A window's writes go to fewer regions, or more unevenly, than the whole run's: the
    /// hot spot moves through the key space (a staircase on the heatmap).
    MovingHotspot,
    /// One region takes [`HOTSPOT`](super::HOTSPOT) times the mean load or more, over the run or in a window.
    HotRegion,
    /// Neither even nor hot: a busiest region between [`EVEN`](super::EVEN) and [`HOTSPOT`](super::HOTSPOT) times the
    /// mean, or regions left empty.
    Uneven,
    /// Every region takes about its share, over the run and in each window.
    Even,
}

impl Spread {
    /// The verdict says one region takes the writes (one region, hot in every window, a
    /// moving hotspot, a hot region): the analysis's hotspot verdicts, which the advisor's
    /// index findings use for an index's table as the diagnosis does for the data table's.
    pub fn concentrates_writes(self) -> bool {
        matches!(
            self,
            Spread::OneRegion | Spread::HotEveryWindow | Spread::MovingHotspot | Spread::HotRegion
        )
    }
}

/// Everything the analysis found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisReport {
    /// Writes counted.
    pub writes: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Distinct row keys written: exact when [`distinct_rows_exact`](Self::distinct_rows_exact),
    /// else a HyperLogLog estimate.
    pub distinct_rows: u64,
    /// The relative bound of [`distinct_rows`](Self::distinct_rows) as an estimate: the true
    /// count is within ± this share of it for 99.7 % of estimates (three standard errors,
    /// 3 × 1.04 / √16384 = 2.44 %); 0 when exact (every workload of at most
    /// [`MAX_EXACT_ROWS`](crate::analyze::MAX_EXACT_ROWS) records, and every file of rows
    /// within it, is counted exactly).
    pub distinct_rows_error: f64,
    /// [`distinct_rows`](Self::distinct_rows) is exact (every row counted), for the table
    /// and each region.
    #[serde(default)]
    pub distinct_rows_exact: bool,
    /// Writes share rows: the writes are at least [`SHARED_ROWS_RATIO`] times the distinct
    /// rows, so the row key repeats and rows grow wide or take versions (the verdict the page
    /// shows beside the rows).
    #[serde(default)]
    pub writes_share_rows: bool,
    /// Cells kept (versions beyond the family's `VERSIONS` are not); the writes when the
    /// design has no `cells` section.
    pub cells: u64,
    /// The largest rows by bytes written, largest first (at most 32; ties by key when
    /// exact).
    pub largest_rows: Vec<LargestRow>,
    /// [`largest_rows`](Self::largest_rows) are exact: the truly largest rows with their
    /// exact counts. Else a sketch's, each count a lower bound within its `writesError` /
    /// `bytesError`.
    #[serde(default)]
    pub largest_rows_exact: bool,
    /// Writes whose time fell outside the window axis (counted in the first or last window).
    pub writes_outside_windows: u64,
    /// Start of window 0, ms since the epoch.
    pub start_time_ms: i64,
    /// Window width in ms.
    pub window_ms: i64,
    /// Number of windows.
    pub windows: usize,
    /// Writes per second over the run's time axis (writes ÷ windows × window): the workload's
    /// `writeRate`, or a user's rows' own rate over their span. What a region plan sizes a
    /// year of this table by.
    #[serde(default)]
    pub write_rate: f64,
    /// The final regions in key order.
    pub regions: Vec<RegionReport>,
    /// The region servers.
    pub servers: Vec<ServerReport>,
    /// Writes per final region (rows) and window (columns).
    pub matrix: Matrix,
    /// Writes per key-space grid bucket (rows) and window: comparable across designs.
    pub grid: Matrix,
    /// Number of grid buckets (the first two key bytes cut into equal ranges).
    pub grid_buckets: u32,
    /// A uniform sample of the written keys, sorted, with their final region.
    pub sample: Vec<SampleKey>,
    /// Skew metrics of the region matrix, per window and overall.
    pub metrics: MatrixMetrics,
    /// Skew metrics of the grid matrix.
    pub grid_metrics: MatrixMetrics,
    /// Skew of the rows per server.
    pub server_metrics: LoadMetrics,
    /// The split keys the table was created with, hex, in key order: the layout's pre-split
    /// as this run cut it (a `sampleQuantiles` pre-split over a user's rows: their quantiles,
    /// not a generated workload's). What `create` and the SPLITS_FILE copy for this report.
    #[serde(default)]
    pub presplit_keys_hex: Vec<String>,
    /// The splits, in time order.
    pub splits: Vec<SplitEvent>,
    /// True when auto-split stopped because the matrix would exceed [`MAX_CELLS`](super::MAX_CELLS).
    pub split_limit_reached: bool,
    /// The verdict on how the writes spread ([`super::diagnosis::spread_of`]): the kind of
    /// the diagnosis's first sentence.
    #[serde(default)]
    pub spread: Spread,
    /// Plain-language findings, the verdict first.
    pub diagnosis: Vec<String>,
    /// When auto-split is on and never split this workload: sizes that would make it split
    /// (the diagnosis says why it did not), the fix the page offers; `None` otherwise.
    pub split_sizes: Option<SplitSizes>,
    /// The rules auto-split followed and what it did by them; `None` without auto-split.
    #[serde(default)]
    pub auto_split: Option<AutoSplitRules>,
    /// Each Phoenix secondary index of the design analyzed as the table it is
    /// ([`super::analyze_indexes`]), in the design's order; empty without indexes, and in an
    /// index's own report.
    #[serde(default)]
    pub indexes: Vec<super::IndexAnalysis>,
}

/// How the in-run auto-split decided, and its flushes: HBase's rules as the analysis applies
/// them, so a report says which ones it used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutoSplitRules {
    /// The split policy's class name (`SteppingSplitPolicy`).
    pub policy: String,
    /// The memstore flush size in force, in KeyValue bytes.
    pub flush_size: u64,
    /// The periodic flush (`hbase.regionserver.optionalcacheflushinterval`), ms.
    pub periodic_flush_ms: i64,
    /// What a cell adds to its row and value bytes: 20 + family + qualifier.
    pub key_value_overhead: u64,
    /// On-disk bytes per KeyValue byte.
    pub compression_ratio: f64,
    /// KeyValue bytes written (uncompressed).
    pub key_value_bytes: u64,
    /// Memstore flushes, and compactions (minor, and daughters' references).
    pub flushes: u64,
    /// Compactions.
    pub compactions: u64,
    /// KeyValue bytes still in memstores at the end (never looked at by a split check).
    pub memstore_bytes: u64,
    /// The rules, one sentence each.
    pub rules: Vec<String>,
}

impl AnalysisReport {
    /// The split keys of the regions the run ended with (auto-split's daughters included): the
    /// table the report shows, which its read plans are planned over in every shell (the page,
    /// the CLI, Python), not the pre-split the run began with.
    pub fn final_split_keys(&self) -> Result<Vec<Vec<u8>>> {
        self.regions
            .iter()
            .skip(1)
            .map(|r| crate::hbase::bytes::from_hex(&r.start_key_hex))
            .collect()
    }
}

/// Auto-split sizes scaled to a workload: `maxFileSize` an eighth of the bytes written (in
/// whole KiB, at least 64 KiB), so the table ends in about eight regions or more, and
/// `memstoreFlushSize` a quarter of it (the first splits happen at twice the flush size).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SplitSizes {
    /// `hbase.hregion.max.filesize` for this workload.
    pub max_file_size: u64,
    /// `hbase.hregion.memstore.flush.size` for this workload.
    pub memstore_flush_size: u64,
}

impl SplitSizes {
    /// The sizes for a run that wrote `bytes`.
    pub fn for_bytes(bytes: u64) -> SplitSizes {
        let max_file_size = (bytes / 8 / 1024 * 1024).max(64 * 1024);
        SplitSizes {
            max_file_size,
            memstore_flush_size: max_file_size / 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::analyze::{analyze, AnalyzeOptions};
    use crate::design::DesignDocument;

    /// The verdict on a design whose key is `key` over a field of `distinct` values.
    fn shares(key: &str, distinct: u64) -> bool {
        let doc = format!(
            r#"{{"v": 1, "fields": [{{"name": "a", "type": "long", "generator": {{"kind": "sequence"}}}},
                {{"name": "b", "type": "long", "generator": {{"kind": "uniformInt", "min": 1, "max": {distinct}}}}}],
               "key": "{key}", "workload": {{"records": 20000}}}}"#
        );
        let doc = DesignDocument::from_json(&doc).unwrap_or_else(|e| panic!("{e}"));
        analyze(&doc, &AnalyzeOptions::default())
            .unwrap_or_else(|e| panic!("{e}"))
            .writes_share_rows
    }

    #[test]
    fn writes_share_rows_when_the_key_repeats() {
        // every write its own row (a sequence), then 20,000 writes into 100 rows
        assert!(!shares("long(a)", 100));
        assert!(shares("long(b)", 100));
        // 20,000 writes drawn from 18,000 values: about 12,000 rows, 1.7 writes per row
        assert!(shares("long(b)", 18_000));
    }
}
