//! What a simulation answers, month by month: the table's shape, what HBase did to it, its
//! bytes, and the first month each of the reference guide's limits is crossed.

use serde::Serialize;

use super::balancer::BalancerCost;

/// Upper bounds of the region-size histogram's bins, in bytes (the last bin is open).
pub const SIZE_BIN_EDGES: [u64; 6] = [0, 128 << 20, 1 << 30, 5 << 30, 10 << 30, 20 << 30];
/// Regions above this many bytes cross the reference guide's recommended maximum (20 GiB).
pub const LARGE_REGION_BYTES: f64 = (20u64 << 30) as f64;
/// More regions than this on one server crosses the guide's 20–200.
pub const REGIONS_PER_SERVER_GUIDE: u32 = 200;

/// One region server at a month's end.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerMonth {
    /// The table's regions on it.
    pub regions: u32,
    /// Their store-file bytes.
    pub bytes: f64,
    /// Its share of the month's writes, 0 to 1.
    pub write_share: f64,
    /// Its regions written during the month.
    pub written_regions: u32,
}

/// One month of the table's life.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LifeMonth {
    /// 1-based month.
    pub month: u32,
    /// Regions at the month's end.
    pub regions: u32,
    /// Regions holding no store file and no memstore (what the UI shows as 0 MB).
    pub empty_regions: u32,
    /// Regions whose every cell has passed the TTL (reads find nothing), files or not.
    pub expired_regions: u32,
    /// Regions per size bin: `[0]` empty, then up to 128 MiB, 1, 5, 10, 20 GiB, and above.
    pub size_histogram: Vec<u32>,
    /// The most store-file bytes one region held during the month: its peak, not an instant's
    /// figure (a time-led key's tail grows to its split size and halves, so the largest region
    /// at one moment depends on where in that cycle the moment falls).
    pub largest_region_bytes: f64,
    /// Per region server.
    pub servers: Vec<ServerMonth>,
    /// The largest share of an hour's writes one server took, averaged over the month's
    /// hours: 1 / servers when writes spread evenly, near 1 when one server takes them all.
    pub hottest_server_write_share: f64,
    /// The most regions one server had written in one hour (one step, for steps of hours):
    /// memstores filling at once, what
    /// the memstore bound limits.
    pub max_regions_written_at_once: u32,
    /// Splits during the month (by size and by the normalizer).
    pub splits: u32,
    /// Of those, the normalizer's.
    pub normalizer_splits: u32,
    /// Merges (the normalizer's).
    pub merges: u32,
    /// Regions moved by the balancer.
    pub moves: u32,
    /// Balancer runs (its trigger said yes).
    pub balancer_runs: u32,
    /// The balancer's cost at the month's end.
    pub balancer_cost: BalancerCost,
    /// Memstore flushes.
    pub flushes: u64,
    /// Minor compactions.
    pub minor_compactions: u64,
    /// Major compactions (periodic, and the rewrites of split and merge references).
    pub major_compactions: u64,
    /// Bytes written by compactions.
    pub compaction_bytes: f64,
    /// The most splits on one day of the month.
    pub max_splits_per_day: u32,
    /// The most major compactions on one day of the month.
    pub max_major_compactions_per_day: u32,
    /// Splits day by day (30 days).
    pub splits_by_day: Vec<u32>,
    /// Major compactions day by day.
    pub major_compactions_by_day: Vec<u32>,
    /// Days when at least a tenth of the regions (and at least 4) split or major-compacted.
    pub busy_days: u32,
    /// Which days of the month were busy (the rule of `busy_days`): the timeline marks them, so
    /// the rule lives here and not in each view.
    pub busy_by_day: Vec<bool>,
    /// KeyValue bytes written since the start (before compression).
    pub written_bytes: f64,
    /// Store-file bytes of cells within the TTL.
    pub live_bytes: f64,
    /// Store-file bytes on disk, expired cells not yet compacted away included.
    pub on_disk_bytes: f64,
    /// Bytes in memstores.
    pub memstore_bytes: f64,
    /// Store-file bytes the TTL removed so far (to the archive, then deleted).
    pub expired_bytes: f64,
}

/// The first month (1-based) each guideline is crossed; `None`: not within the months.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Crossings {
    /// A server holds more than 200 of the table's regions.
    pub regions_per_server_over_200: Option<u32>,
    /// A server's regions written at once (in one step) exceed heap × memstore share / flush
    /// size.
    pub memstore_bound: Option<u32>,
    /// A region holds more than 20 GiB.
    pub region_over_20_gib: Option<u32>,
    /// A server reaches `hbase.regionserver.regionSplitLimit`: its regions stop splitting.
    pub split_limit: Option<u32>,
}

/// A region at the end of the simulation, for a map of the key space.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionEnd {
    /// Start coordinate (lane `i` starts at `i`).
    pub start: f64,
    /// End coordinate.
    pub end: f64,
    /// Store-file bytes.
    pub bytes: f64,
    /// Its server.
    pub server: u32,
}

/// A whole simulation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LifeReport {
    /// The split policy's HBase class.
    pub policy: String,
    /// `hbase.hregion.split.overallfiles` as applied.
    pub overall_hregion_files: bool,
    /// The memstore bound (regions written per server).
    pub memstore_bound: f64,
    /// Month by month.
    pub months: Vec<LifeMonth>,
    /// The first month each guideline is crossed.
    pub crossings: Crossings,
    /// The regions at the end.
    pub regions_at_end: Vec<RegionEnd>,
    /// What the run ran with, in a line: the servers, the split policy, the split and flush
    /// sizes, the TTL, the normalizer, the balancer and the major compactions (also the first
    /// note): what every view shows beside the months.
    pub ran_with: String,
    /// The rules applied and what the simulation leaves out.
    pub notes: Vec<String>,
    /// The settings the run used that differ from HBase's defaults.
    pub changed_settings: Vec<super::settings::ChangedSetting>,
    /// What the months mean and what fixes them ([`super::diagnose`]), each fix checked by
    /// simulation; `None` from [`super::simulate`], which does not diagnose (the fixes'
    /// own runs are simulations), set by the design-level calls every shell makes.
    pub diagnosis: Option<super::LifeDiagnosis>,
    /// The Phoenix index whose own table was simulated (the life option `index`); `None`: the
    /// design's table.
    pub table: Option<String>,
}

/// The histogram bin of a region of `bytes`.
pub(crate) fn size_bin(bytes: f64) -> usize {
    if bytes <= 0.0 {
        return 0;
    }
    SIZE_BIN_EDGES
        .iter()
        .skip(1)
        .position(|&e| bytes <= e as f64)
        .map_or(SIZE_BIN_EDGES.len(), |i| i + 1)
}
