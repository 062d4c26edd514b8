//! A table's regions over time: several snapshots of what HBase prints, joined by encoded
//! region name, their cumulative counters turned into rates per interval.
//!
//! HBase keeps per-region counters only as totals since the region opened: a RegionServer's
//! `/jmx` (bean `sub=Regions`: `readRequestCount`, `writeRequestCount`, `storeFileSize`,
//! `memStoreSize`, `MetricsRegionSourceImpl`'s names), `list_regions` (REQ and SIZE) and
//! `status 'detailed'` (`readRequestsCount`, `writeRequestsCount`, `storefileSizeMB`,
//! `memstoreSizeMB`, `RegionLoad.toString`). Two readings of one region give its rate over
//! the interval between them. What happens between snapshots is read, never guessed:
//!
//! * **a move or a reopen** (another server, the same server restarted, or a counter that went
//!   down): HBase opens the region anew and its counters start from zero, so the interval's
//!   count is the new value, a lower bound (what came before the reopen is lost), never a
//!   negative rate;
//! * **a split or a merge**: a new region whose key range overlaps regions that are gone. The
//!   daughters (or the merged region) count from zero since they opened within the interval;
//! * **a gap**: a region not read at one snapshot but read again later (its server's dump is
//!   missing, or the server did not report it): no rate for the intervals around it;
//! * **a missing server**: a server seen in the series with no dump at a snapshot is named.
//!
//! Key ranges come from region names (each checked against its MD5 as [`read_regions`]
//! does); a `/jmx` dump names regions only by their encoded name, so a region whose name no
//! file gives has no key range (said). Each file's time is the one in its name
//! (`1700000000000-…` epoch ms, or `20261126T053600Z`, UTC), else the dump's own (a full
//! `/jmx` dump holds `java.lang:type=Runtime`, whose `StartTime + Uptime` is the server's
//! clock when it answered), else the file's modification time; files within
//! [`POLL_SPREAD_MS`] of each other make one snapshot (one poll of several servers).
//!
//! What the readings cannot tell: a region reopened on the same server whose counters have
//! already passed their old values reads as a plain difference (too low), and `list_regions`
//! and `status 'detailed'` are taken for the whole table (a `list_regions` of one server's
//! regions would make the others' look gone).
//!
//! [`read_regions`]: super::read_regions

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};

mod build;
mod rates;
mod read;
mod snapshots;
#[cfg(test)]
mod tests;

/// Files whose times lie within this many ms of the first of them make one snapshot: the dumps
/// of one poll of several servers, each stamped by its own clock or its own request.
pub const POLL_SPREAD_MS: u64 = 5_000;

/// One file of a series: a RegionServer's `/jmx` dump, `list_regions` or `status 'detailed'`
/// output, or region names alone (a `scan 'hbase:meta'`: key ranges, no load).
#[derive(Debug, Clone, Copy)]
pub struct SnapshotFile<'a> {
    /// The file's name (its time may be in it).
    pub name: &'a str,
    /// Its text.
    pub text: &'a str,
    /// Its modification time in ms since the epoch, the last resort for its time.
    pub modified_ms: Option<u64>,
}

/// Where a file's time came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TimeFrom {
    /// The file's name.
    Name,
    /// The dump itself (`java.lang:type=Runtime`: `StartTime + Uptime`).
    Dump,
    /// The file's modification time.
    Modified,
}

/// What a file held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FileKind {
    /// RegionServer `/jmx` dump(s).
    Jmx,
    /// `list_regions` output.
    ListRegions,
    /// `status 'detailed'` output.
    StatusDetailed,
    /// Region names without load (key ranges only).
    RegionNames,
}

/// One file as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesFile {
    /// Its name.
    pub name: String,
    /// What it held.
    pub kind: FileKind,
    /// Its time (ms since the epoch), when it has load.
    pub time_ms: Option<u64>,
    /// Where the time came from.
    pub time_from: Option<TimeFrom>,
    /// The snapshot it belongs to (`None`: key ranges only).
    pub snapshot: Option<usize>,
    /// The servers it reports (a `/jmx` dump: one).
    pub servers: Vec<String>,
    /// Readings of the table's regions in it.
    pub readings: u32,
}

/// One snapshot: the files of one poll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// Its time: the earliest of its files', ms since the epoch.
    pub time_ms: u64,
    /// Its files (indexes into [`RegionSeries::files`]).
    pub files: Vec<usize>,
    /// Regions of the table read in it.
    pub regions: u32,
    /// Servers seen elsewhere in the series with no dump in this snapshot (empty when a file
    /// of the whole table, `list_regions` or `status 'detailed'`, is in it).
    pub missing_servers: Vec<String>,
}

/// One region of the table, as the series saw it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesRegion {
    /// Its encoded name (the MD5 in its region name).
    pub encoded: String,
    /// Its start key as toStringBinary text, when a file names the region.
    pub start_key: Option<String>,
    /// Its region id (creation time in ms), when a file names the region.
    pub region_id: Option<u64>,
    /// The first snapshot that read it.
    pub first: usize,
    /// The last snapshot that read it.
    pub last: usize,
    /// The regions it came from (split parent, merged regions), indexes into
    /// [`RegionSeries::regions`].
    pub parents: Vec<usize>,
}

impl SeriesRegion {
    /// The region as a row of a heatmap names it without a design: its start key's text
    /// (`(first)` for the table's first region), else the start of its encoded name.
    pub fn label(&self) -> String {
        match self.start_key.as_deref() {
            Some("") => "(first)".to_string(),
            Some(k) => k.to_string(),
            None => format!("{}…", self.encoded.chars().take(8).collect::<String>()),
        }
    }
}

/// How an interval's count of a region was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Counted {
    /// The difference of two readings on one server: exact.
    Difference,
    /// Since the region reopened within the interval (moved, its server restarted, or a counter
    /// went down): the new value, a lower bound.
    Reopened,
    /// Since a split opened the region within the interval: a lower bound of the range's load
    /// (the parent's requests before the split are not counted).
    Split,
    /// Since a merge opened the region within the interval, likewise.
    Merged,
    /// Not read at one end of the interval (a gap, or its first reading): no rates.
    Gap,
}

/// One region in one interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionRate {
    /// The region (index into [`RegionSeries::regions`]).
    pub region: usize,
    /// Its start key (toStringBinary text), when known.
    pub start_key: Option<String>,
    /// Its end key at the interval's end: the next region's start key among the regions
    /// alive then (`""` for the last region), when known.
    pub end_key: Option<String>,
    /// Its server at the interval's end (for a region not read there, its server at its last
    /// reading).
    pub server: Option<String>,
    /// Its server has no dump at the interval's end: the region is kept where it was last read
    /// (a server not polled keeps its regions; its neighbours' ranges do not stretch over them).
    pub server_missing: bool,
    /// How the count was taken.
    pub counted: Counted,
    /// Seconds between its two readings (or since the interval began, for a region opened in
    /// it).
    pub seconds: Option<f64>,
    /// Read requests per second.
    pub reads_per_sec: Option<f64>,
    /// Write requests per second.
    pub writes_per_sec: Option<f64>,
    /// Read and write requests per second (`list_regions`' REQ when the file has no split).
    pub requests_per_sec: Option<f64>,
    /// Store files and memstore at the interval's end, bytes (`list_regions` and `status
    /// 'detailed'` print whole MB); `None` when not read, or when a `/jmx` dump's figures were
    /// not filled yet (HBase's region metrics wrapper fills them every 45 s, so a region opened
    /// since reads `storeCount` 0 and sizes 0: not a size).
    pub size_bytes: Option<u64>,
    /// Size growth per second over the interval (negative after a compaction), bytes.
    pub growth_bytes_per_sec: Option<f64>,
    /// Its share of the interval's requests (reads and writes) over the table.
    pub share: Option<f64>,
}

/// One server's totals in one interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerRate {
    /// The server.
    pub server: String,
    /// Regions of the table on it at the interval's end.
    pub regions: u32,
    /// Sums of its regions' rates (regions with none left out).
    pub reads_per_sec: f64,
    /// Write requests per second.
    pub writes_per_sec: f64,
    /// Requests per second.
    pub requests_per_sec: f64,
    /// Its share of the interval's requests.
    pub share: f64,
    /// It has no dump at the interval's end: its regions are kept from their last readings and
    /// its rates are unknown (the sums above are 0), not idle.
    pub server_missing: bool,
}

/// The time between two snapshots, and what each region and server did in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Interval {
    /// The snapshot it starts at (it ends at the next).
    pub from: usize,
    /// Start time, ms since the epoch.
    pub from_ms: u64,
    /// End time.
    pub to_ms: u64,
    /// The regions alive at its end, in key order (regions without a key range last).
    pub regions: Vec<RegionRate>,
    /// The busiest regions (indexes into `regions`), by requests per second, at most
    /// [`TOP_REGIONS`].
    pub top: Vec<usize>,
    /// Per server, by name.
    pub servers: Vec<ServerRate>,
    /// The table's requests per second (the regions with a rate); `None` when no region has
    /// one (a missing dump: the rate is unknown, not 0).
    pub requests_per_sec: Option<f64>,
}

/// How many of an interval's busiest regions are listed.
pub const TOP_REGIONS: usize = 5;

/// What happened to the table's regions between two snapshots.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum RegionEvent {
    /// A region split: its daughters replace it.
    Split {
        /// The snapshot it was first seen split at.
        snapshot: usize,
        /// The parent region.
        parent: usize,
        /// Its daughters.
        daughters: Vec<usize>,
    },
    /// Regions merged into one.
    Merge {
        /// The snapshot.
        snapshot: usize,
        /// The merged regions.
        parents: Vec<usize>,
        /// The new region.
        merged: usize,
    },
    /// A region moved to another server (its counters restart there).
    Move {
        /// The snapshot.
        snapshot: usize,
        /// The region.
        region: usize,
        /// Its server before.
        from: String,
        /// Its server now.
        to: String,
    },
    /// A region reopened on its server: the server restarted, or a counter went down.
    Reopen {
        /// The snapshot.
        snapshot: usize,
        /// The region.
        region: usize,
    },
    /// A region alive but not read at a snapshot.
    Gap {
        /// The snapshot.
        snapshot: usize,
        /// The region.
        region: usize,
        /// Its server at its last reading, when that server has no dump in the snapshot.
        missing_server: Option<String>,
    },
    /// A region read for the last time, with no successor seen (closed, the table truncated,
    /// or its server's dumps missing from then on).
    Gone {
        /// The first snapshot without it.
        snapshot: usize,
        /// The region.
        region: usize,
    },
}

/// An event with its time and its sentence: what every shell prints (the CLI's list, the HTML
/// report, the page's timeline and tooltips), so they say it alike.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesEvent {
    /// The time of the snapshot it was seen at, ms since the epoch.
    pub at_ms: u64,
    /// The interval it happened in (the one ending at its snapshot), when there is one.
    pub interval: Option<usize>,
    /// The regions it concerns (indexes into [`RegionSeries::regions`]): the ones its row on a
    /// map is marked on.
    pub regions: Vec<usize>,
    /// What happened, regions named by their start keys (toStringBinary text).
    pub text: String,
    /// What happened, as data.
    #[serde(flatten)]
    pub event: RegionEvent,
}

/// A table's regions over a series of snapshots.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionSeries {
    /// The table (`ns:table`, or the table alone in the default namespace).
    pub table: String,
    /// The files, in the order given.
    pub files: Vec<SeriesFile>,
    /// The snapshots, in time order.
    pub snapshots: Vec<Snapshot>,
    /// Every region of the table the series read.
    pub regions: Vec<SeriesRegion>,
    /// Each region's row label without a design ([`SeriesRegion::label`]): what the page's
    /// live table and the CLI's HTML report name rows by (through a design, its
    /// `Observed::labels`).
    #[serde(default)]
    pub labels: Vec<String>,
    /// One per pair of consecutive snapshots.
    pub intervals: Vec<Interval>,
    /// Splits, merges, moves, reopens, gaps, regions gone, in snapshot order.
    pub events: Vec<SeriesEvent>,
    /// What was skipped or is uncertain: other tables, regions without a key range.
    pub notes: Vec<String>,
    /// The table's regions at the end of the last interval with a rate, as a design's
    /// `regions` section, to run the design on them (`onTableRegions`) and set its shares
    /// beside that interval's: absent when a region there has no key range. Not read back
    /// (a series given to [`against_design`](crate::analyze::against_design) needs only its
    /// intervals).
    #[serde(skip_deserializing)]
    pub layout: Option<SeriesLayout>,
}

/// The regions alive at a snapshot as a design's pre-split and placement: what `readRegions`
/// gives for one snapshot, so the design's prediction and the measured rates share regions.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesLayout {
    /// The snapshot (the end of interval `snapshot - 1`).
    pub snapshot: usize,
    /// Its regions in key order (indexes into [`RegionSeries::regions`]): the design's region
    /// `i` is `regions[i]`.
    pub regions: Vec<usize>,
    /// Their start keys but the first, as explicit toStringBinary split keys.
    pub presplit: crate::region::PreSplit,
    /// Their servers, when every region was read there.
    pub assignment: Option<crate::region::Assignment>,
}

/// The interval a design is set beside: the last with a rate (its end is
/// [`RegionSeries::layout`]'s snapshot).
pub fn measured_interval(intervals: &[Interval]) -> Option<usize> {
    intervals
        .iter()
        .rposition(|iv| iv.regions.iter().any(|r| r.requests_per_sec.is_some()))
}

/// The error for file `i` of a series.
pub(crate) fn file_error(i: usize, name: &str, kind: ErrorKind, message: String) -> Error {
    Error::new(kind, format!("{name}: {message}")).at_path(format!("files/{i}"))
}

/// [`read_series`] over files the shells hold as `(name, text, modified ms)`: the npm package's
/// and the Python binding's form, borrowed here once rather than in each.
pub fn read_series_owned(
    files: &[(String, String, Option<u64>)],
    table: Option<&str>,
) -> Result<RegionSeries> {
    let input: Vec<SnapshotFile<'_>> = files
        .iter()
        .map(|(name, text, modified_ms)| SnapshotFile {
            name,
            text,
            modified_ms: *modified_ms,
        })
        .collect();
    read_series(&input, table)
}

/// Read a series of snapshots of one table (`table`, or the only table the files name besides
/// HBase's own) into rates per interval. Files come in the order they were taken in (a
/// folder's, by name); each server's times must rise along it.
pub fn read_series(files: &[SnapshotFile<'_>], table: Option<&str>) -> Result<RegionSeries> {
    if files.len() > crate::limits::MAX_SERIES_FILES {
        return Err(crate::limits::limit_error(
            "files",
            format!("a series of {} files", files.len()),
            format!("{} files", crate::limits::MAX_SERIES_FILES),
            "the most one series reads (limits::MAX_SERIES_FILES)",
        ));
    }
    if files.is_empty() {
        return Err(Error::arg(
            "files",
            "no files: give two or more snapshots (RegionServer /jmx dumps, list_regions or status 'detailed' output)",
        ));
    }
    let bytes = files
        .iter()
        .fold(0usize, |t, f| t.saturating_add(f.text.len()));
    crate::limits::check_series_bytes(bytes, files.len())?;
    let mut budget = crate::limits::MAX_SERIES_READINGS;
    let read = files
        .iter()
        .enumerate()
        .map(|(i, f)| read::file(i, f, &mut budget))
        .collect::<Result<Vec<_>>>()?;
    rates::series(files, read, table)
}
