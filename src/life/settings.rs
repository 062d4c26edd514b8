//! What the simulator is told about the cluster and the table: HBase's defaults (research file
//! part A, `hbase-default.xml`), each overridable, each checked with an error at its member.

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::policy::{SplitConfig, SplitPolicy};
pub use crate::hbase::store::CompactionPolicy;
pub use crate::hbase::version::HBaseVersion;

/// 1 MiB.
pub const MIB: f64 = 1024.0 * 1024.0;
/// The most months one simulation covers (ten years).
pub const MAX_MONTHS: u32 = 120;
/// The most region servers the simulator spreads a table over.
pub const MAX_LIFE_SERVERS: u32 = 100;
/// The most lanes (key prefixes or key-space buckets) a key model holds.
pub const MAX_LANES: usize = 65_536;
/// The most regions a table is created with.
pub const MAX_PRESPLIT_REGIONS: usize = 100_000;
/// The simulator stops splitting a table at this many regions (a guard on its work: the
/// normalizer's splits, which no server limit stops, can otherwise cut a table with many empty
/// regions into ever smaller ones).
pub const MAX_LIFE_REGIONS: usize = 50_000;
/// `hbase.regionserver.regionSplitLimit`: no split once a server holds this many regions.
pub const REGION_SPLIT_LIMIT: u32 = 1000;

/// Flush and compaction settings (`hbase.hstore.compaction.*`, `hbase.hregion.majorcompaction*`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompactionSettings {
    /// The store engine's policy.
    pub policy: CompactionPolicy,
    /// `hbase.hstore.compaction.min` (3).
    pub min_files: u32,
    /// `hbase.hstore.compaction.max` (10).
    pub max_files: u32,
    /// `hbase.hstore.compaction.ratio` (1.2).
    pub ratio: f64,
    /// `hbase.hregion.majorcompaction` in hours (168 = 7 days); 0 turns periodic majors off.
    pub major_period_hours: f64,
    /// `hbase.hregion.majorcompaction.jitter` (0.5).
    pub major_jitter: f64,
    /// `hbase.regionserver.optionalcacheflushinterval` in hours (1): the periodic flush.
    pub periodic_flush_hours: f64,
    /// The `CompactionChecker` chore's period in seconds: wakefrequency 10 s × multiplier 1000.
    pub checker_seconds: f64,
}

impl Default for CompactionSettings {
    fn default() -> Self {
        CompactionSettings {
            policy: CompactionPolicy::Exploring,
            min_files: 3,
            max_files: 10,
            ratio: 1.2,
            major_period_hours: 168.0,
            major_jitter: 0.5,
            periodic_flush_hours: 1.0,
            checker_seconds: 10_000.0,
        }
    }
}

/// The region normalizer (`SimpleRegionNormalizer`); off per table by default.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NormalizerSettings {
    /// The table's `NORMALIZATION_ENABLED` (false by default, so HBase never normalizes).
    pub enabled: bool,
    /// `hbase.normalizer.split.enabled` (true).
    pub split_enabled: bool,
    /// `hbase.normalizer.merge.enabled` (true).
    pub merge_enabled: bool,
    /// `hbase.normalizer.merge.min.region.count` (3).
    pub merge_min_region_count: u32,
    /// `hbase.normalizer.merge.min_region_age.days` (3).
    pub merge_min_region_age_days: f64,
    /// `hbase.normalizer.merge.min_region_size.mb`: 1 as `hbase-default.xml` ships it (the Java
    /// constant is 0); regions under it, TTL-emptied ones included, are not merged.
    pub merge_min_region_size_mb: u64,
    /// The table's `NORMALIZER_TARGET_REGION_SIZE_MB`, when set.
    pub target_region_size_mb: Option<u64>,
    /// The table's `NORMALIZER_TARGET_REGION_COUNT`, when set.
    pub target_region_count: Option<u64>,
    /// `merge_request_max_number_of_regions` (100).
    pub merge_max_regions: u32,
    /// `hbase.normalizer.period` in seconds (300): how often the chore looks at the table.
    pub period_seconds: f64,
}

impl Default for NormalizerSettings {
    fn default() -> Self {
        NormalizerSettings {
            enabled: false,
            split_enabled: true,
            merge_enabled: true,
            merge_min_region_count: 3,
            merge_min_region_age_days: 3.0,
            merge_min_region_size_mb: 1,
            target_region_size_mb: None,
            target_region_count: None,
            merge_max_regions: 100,
            period_seconds: 300.0,
        }
    }
}

/// The StochasticLoadBalancer's trigger (a seeded greedy stand-in does the search).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BalancerSettings {
    /// The balancer switch (on by default).
    pub enabled: bool,
    /// `hbase.regions.slop` (0.2).
    pub slop: f64,
    /// `hbase.master.balancer.stochastic.minCostNeedBalance` (0.025).
    pub min_cost_need_balance: f64,
    /// `hbase.balancer.period` in seconds (300).
    pub period_seconds: f64,
}

impl Default for BalancerSettings {
    fn default() -> Self {
        BalancerSettings {
            enabled: true,
            slop: 0.2,
            min_cost_need_balance: 0.025,
            period_seconds: 300.0,
        }
    }
}

/// Everything but the writes: the span, the cluster, the table's policies. A design's
/// ([`super::settings_for_design`]) with a run's [`super::LifeOptions`] over them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LifeSettings {
    /// Months to simulate (30 days each), 1 to 120.
    pub months: u32,
    /// Hours per time step, 5 minutes (1/12) to 24: hours that divide a day or minutes that
    /// divide an hour: the writes are given to regions once a step and reach the memstores evenly through
    /// it; flushes and chores happen at their own times inside it. Steps under an hour are there
    /// to measure what the hour approximates (docs/life.md).
    pub step_hours: f64,
    /// Region servers, 1 to 100.
    pub servers: u32,
    /// The seed of every draw (split jitter, major-compaction jitter).
    pub seed: u64,
    /// The HBase release line.
    pub version: HBaseVersion,
    /// The table's split policy (HBase's default: Stepping).
    pub policy: SplitPolicy,
    /// Max file size, flush size, jitter, initial size (`hbase.hregion.*`).
    pub split: SplitConfig,
    /// `hbase.hregion.split.overallfiles`; absent: the version's default.
    pub overall_hregion_files: Option<bool>,
    /// `hbase.regionserver.regionSplitLimit` (1000).
    pub region_split_limit: u32,
    /// On-disk bytes per KeyValue byte after encoding and compression, in (0, 4] (1: none).
    pub compression_ratio: f64,
    /// The family's TTL in seconds; absent: FOREVER.
    pub ttl_seconds: Option<u64>,
    /// Flushes and compactions.
    pub compaction: CompactionSettings,
    /// The region normalizer.
    pub normalizer: NormalizerSettings,
    /// The balancer.
    pub balancer: BalancerSettings,
    /// A region server's heap in bytes (16 GiB), for the memstore bound.
    pub heap_bytes: u64,
    /// Column families the writes fill alike, 1 to 16: with `overallfiles` false (2.x) a
    /// region splits when one store passes the size, so later than on 3.x.
    pub families: u32,
    /// The column family name's bytes in each cell (1 to 127; 1, as in `d`).
    pub family_bytes: u32,
    /// The column qualifier's bytes in each cell (0 to 65,535; 1).
    pub qualifier_bytes: u32,
    /// `hbase.regionserver.global.memstore.size` (0.4).
    pub memstore_share: f64,
}

impl Default for LifeSettings {
    fn default() -> Self {
        LifeSettings {
            months: 12,
            step_hours: 1.0,
            servers: 1,
            seed: 0,
            version: HBaseVersion::default(),
            policy: SplitPolicy::default(),
            split: SplitConfig::default(),
            overall_hregion_files: None,
            region_split_limit: REGION_SPLIT_LIMIT,
            compression_ratio: 1.0,
            ttl_seconds: None,
            compaction: CompactionSettings::default(),
            normalizer: NormalizerSettings::default(),
            balancer: BalancerSettings::default(),
            heap_bytes: 16 << 30,
            families: 1,
            family_bytes: 1,
            qualifier_bytes: 1,
            memstore_share: 0.4,
        }
    }
}

pub(crate) fn out_of_range(path: &str, what: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Invalid, what.to_string()).at_path(path)
}

/// `x` in `[lo, hi]` (finite), else an error at `path`.
pub(crate) fn check_f64(path: &str, x: f64, lo: f64, hi: f64) -> Result<()> {
    if x.is_finite() && x >= lo && x <= hi {
        Ok(())
    } else {
        Err(out_of_range(
            path,
            format!("{x} is out of range: expected a number from {lo} to {hi}"),
        ))
    }
}

pub(crate) fn check_u64(path: &str, x: u64, lo: u64, hi: u64) -> Result<()> {
    if (lo..=hi).contains(&x) {
        Ok(())
    } else {
        Err(out_of_range(
            path,
            format!("{x} is out of range: expected an integer from {lo} to {hi}"),
        ))
    }
}

impl LifeSettings {
    /// The step in whole minutes: hours that divide a day or minutes that divide an hour.
    pub fn step_minutes(&self) -> Option<u32> {
        let m = self.step_hours * 60.0;
        let whole = m.round();
        if (m - whole).abs() >= 0.01 || !(5.0..=1440.0).contains(&whole) {
            return None;
        }
        let w = whole as u32;
        // Under an hour, a divisor of the hour: the hottest-server figures add steps up to hours.
        let divides = if w < 60 { 60 % w == 0 } else { 1440 % w == 0 };
        divides.then_some(w)
    }

    /// Steps in a day (24 at the hourly default).
    pub fn steps_per_day(&self) -> u32 {
        self.step_minutes().map_or(24, |m| 1440 / m)
    }

    /// Seconds in a step.
    pub fn step_seconds(&self) -> f64 {
        f64::from(self.step_minutes().unwrap_or(60)) * 60.0
    }

    /// Every member in its range; the error names the first member out of it.
    pub fn validate(&self) -> Result<()> {
        check_u64("/months", self.months.into(), 1, MAX_MONTHS.into())?;
        check_f64("/stepHours", self.step_hours, 1.0 / 12.0 - 1e-9, 24.0)?;
        if self.step_minutes().is_none() {
            return Err(out_of_range(
                "/stepHours",
                format!(
                    "{}: a step must be hours that divide a day (1, 2, 3, 4, 6, 8, 12 or 24) or minutes that divide an hour, as hours (0.5, 0.25, 0.0833 for 5 minutes)",
                    self.step_hours
                ),
            ));
        }
        check_u64("/servers", self.servers.into(), 1, MAX_LIFE_SERVERS.into())?;
        let tib = 1u64 << 40;
        let s = &self.split;
        check_u64(
            "/split/maxFileSize",
            clamp_i64(s.max_file_size),
            1 << 20,
            tib,
        )?;
        if let Some(t) = s.table_max_file_size {
            check_u64("/split/tableMaxFileSize", clamp_i64(t), 1 << 20, tib)?;
        }
        check_u64(
            "/split/memstoreFlushSize",
            clamp_i64(s.memstore_flush_size),
            1 << 20,
            64 << 30,
        )?;
        if let Some(t) = s.table_memstore_flush_size {
            check_u64(
                "/split/tableMemstoreFlushSize",
                clamp_i64(t),
                1 << 20,
                64 << 30,
            )?;
        }
        if let Some(t) = s.initial_size {
            check_u64("/split/initialSize", clamp_i64(t), 1 << 20, tib)?;
        }
        check_f64("/split/jitter", s.jitter, 0.0, 1.0)?;
        check_u64(
            "/regionSplitLimit",
            self.region_split_limit.into(),
            1,
            100_000,
        )?;
        check_f64("/compressionRatio", self.compression_ratio, 0.01, 4.0)?;
        if let Some(ttl) = self.ttl_seconds {
            check_u64("/ttlSeconds", ttl, 60, 100 * 365 * 86_400)?;
        }
        self.validate_compaction()?;
        self.validate_master()?;
        check_u64("/heapBytes", self.heap_bytes, 1 << 26, 1 << 42)?;
        check_f64("/memstoreShare", self.memstore_share, 0.01, 0.9)?;
        check_u64("/families", self.families.into(), 1, 16)?;
        check_u64("/familyBytes", self.family_bytes.into(), 1, 127)?;
        check_u64("/qualifierBytes", self.qualifier_bytes.into(), 0, 65_535)?;
        Ok(())
    }

    /// Flush and compaction settings; FIFO only with a TTL.
    fn validate_compaction(&self) -> Result<()> {
        let c = &self.compaction;
        check_u64("/compaction/minFiles", c.min_files.into(), 2, 100)?;
        // Above the minimum or not: HBase reads both as given, and a minimum above the maximum
        // only means no minor compaction is ever selected (the report says so).
        check_u64("/compaction/maxFiles", c.max_files.into(), 2, 100)?;
        check_f64("/compaction/ratio", c.ratio, 0.1, 100.0)?;
        check_f64(
            "/compaction/majorPeriodHours",
            c.major_period_hours,
            0.0,
            24.0 * 3650.0,
        )?;
        check_f64("/compaction/majorJitter", c.major_jitter, 0.0, 1.0)?;
        check_f64(
            "/compaction/periodicFlushHours",
            c.periodic_flush_hours,
            0.0,
            24.0 * 365.0,
        )?;
        check_f64(
            "/compaction/checkerSeconds",
            c.checker_seconds,
            60.0,
            86_400.0 * 30.0,
        )?;
        if c.policy == CompactionPolicy::Fifo && self.ttl_seconds.is_none() {
            // TableDescriptorChecker.checkCompactionPolicy refuses FIFO without a TTL.
            return Err(Error::new(
                ErrorKind::Invalid,
                "FIFO compaction needs a TTL: HBase refuses it on a family whose TTL is FOREVER",
            )
            .at_path("/compaction/policy"));
        }
        Ok(())
    }

    /// The normalizer's and the balancer's settings.
    fn validate_master(&self) -> Result<()> {
        let n = &self.normalizer;
        check_u64(
            "/normalizer/mergeMinRegionCount",
            n.merge_min_region_count.into(),
            0,
            1_000_000,
        )?;
        check_f64(
            "/normalizer/mergeMinRegionAgeDays",
            n.merge_min_region_age_days,
            0.0,
            3650.0,
        )?;
        check_u64(
            "/normalizer/mergeMinRegionSizeMb",
            n.merge_min_region_size_mb,
            0,
            1 << 30,
        )?;
        if let Some(t) = n.target_region_size_mb {
            check_u64("/normalizer/targetRegionSizeMb", t, 1, 1 << 30)?;
        }
        if let Some(t) = n.target_region_count {
            check_u64("/normalizer/targetRegionCount", t, 1, 1_000_000)?;
        }
        check_u64(
            "/normalizer/mergeMaxRegions",
            n.merge_max_regions.into(),
            2,
            10_000,
        )?;
        let b = &self.balancer;
        check_f64("/balancer/slop", b.slop, 0.0, 10.0)?;
        check_f64(
            "/balancer/minCostNeedBalance",
            b.min_cost_need_balance,
            0.0,
            1.0,
        )?;
        check_f64(
            "/normalizer/periodSeconds",
            n.period_seconds,
            1.0,
            86_400.0 * 7.0,
        )?;
        check_f64(
            "/balancer/periodSeconds",
            b.period_seconds,
            1.0,
            86_400.0 * 7.0,
        )?;
        Ok(())
    }

    /// The `overallfiles` value in force.
    pub fn overall_files(&self) -> bool {
        self.overall_hregion_files
            .unwrap_or_else(|| self.version.overall_hregion_files())
    }

    /// The split config with `overallfiles` resolved.
    pub(crate) fn split_config(&self) -> SplitConfig {
        SplitConfig {
            overall_hregion_files: self.overall_files(),
            ..self.split.clone()
        }
    }

    /// The flush size in force: the table's `MEMSTORE_FLUSHSIZE` if > 0, else the conf's.
    pub fn flush_size(&self) -> f64 {
        self.split.flush_size() as f64
    }

    /// How a cell is counted: its family and qualifier bytes and the compression ratio.
    pub fn cell_bytes(&self) -> crate::hbase::store::CellBytes {
        crate::hbase::store::CellBytes {
            family_bytes: self.family_bytes,
            qualifier_bytes: self.qualifier_bytes,
            compression_ratio: self.compression_ratio,
        }
    }

    /// Regions a server can keep written before memstores crowd its heap:
    /// `heap × memstore share / flush size` (the reference guide's bound).
    pub fn memstore_bound(&self) -> f64 {
        self.heap_bytes as f64 * self.memstore_share / self.flush_size().max(1.0)
    }
}

fn clamp_i64(x: i64) -> u64 {
    u64::try_from(x).unwrap_or(0)
}

/// A setting a run used that is not HBase's default.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangedSetting {
    /// HBase's name for it (a configuration key, a table or family attribute).
    pub name: &'static str,
    /// The member of [`LifeSettings`] (a JSON pointer).
    pub member: String,
    /// The value the run used, as JSON text.
    pub value: String,
    /// HBase's default, as JSON text (`null`: unset).
    pub default: String,
}

/// Each [`LifeSettings`] member that is an HBase setting, by JSON pointer, with HBase's name
/// and the unit the member is in where HBase's differs.
const HBASE_NAMES: &[(&str, &str)] = &[
    ("/version", "HBase release line"),
    ("/policy", "hbase.regionserver.region.split.policy"),
    ("/split/maxFileSize", "hbase.hregion.max.filesize (bytes)"),
    ("/split/tableMaxFileSize", "table MAX_FILESIZE (bytes)"),
    ("/split/jitter", "hbase.hregion.max.filesize.jitter"),
    ("/split/memstoreFlushSize", "hbase.hregion.memstore.flush.size (bytes)"),
    ("/split/tableMemstoreFlushSize", "table MEMSTORE_FLUSHSIZE (bytes)"),
    ("/split/initialSize", "hbase.increasing.policy.initial.size (bytes)"),
    ("/overallHregionFiles", "hbase.hregion.split.overallfiles"),
    ("/regionSplitLimit", "hbase.regionserver.regionSplitLimit"),
    ("/compressionRatio", "family COMPRESSION / DATA_BLOCK_ENCODING (on-disk bytes per byte)"),
    ("/ttlSeconds", "family TTL (seconds)"),
    ("/compaction/policy", "hbase.hstore.defaultengine.compactionpolicy.class"),
    ("/compaction/minFiles", "hbase.hstore.compaction.min"),
    ("/compaction/maxFiles", "hbase.hstore.compaction.max"),
    ("/compaction/ratio", "hbase.hstore.compaction.ratio"),
    ("/compaction/majorPeriodHours", "hbase.hregion.majorcompaction (hours)"),
    ("/compaction/majorJitter", "hbase.hregion.majorcompaction.jitter"),
    ("/compaction/periodicFlushHours", "hbase.regionserver.optionalcacheflushinterval (hours)"),
    ("/compaction/checkerSeconds", "hbase.server.thread.wakefrequency × hbase.server.compactchecker.interval.multiplier (seconds)"),
    ("/normalizer/enabled", "table NORMALIZATION_ENABLED"),
    ("/normalizer/splitEnabled", "hbase.normalizer.split.enabled"),
    ("/normalizer/mergeEnabled", "hbase.normalizer.merge.enabled"),
    ("/normalizer/mergeMinRegionCount", "hbase.normalizer.merge.min.region.count"),
    ("/normalizer/mergeMinRegionAgeDays", "hbase.normalizer.merge.min_region_age.days"),
    ("/normalizer/mergeMinRegionSizeMb", "hbase.normalizer.merge.min_region_size.mb"),
    ("/normalizer/targetRegionSizeMb", "table NORMALIZER_TARGET_REGION_SIZE_MB"),
    ("/normalizer/targetRegionCount", "table NORMALIZER_TARGET_REGION_COUNT"),
    ("/normalizer/mergeMaxRegions", "merge_request_max_number_of_regions"),
    ("/normalizer/periodSeconds", "hbase.normalizer.period (seconds)"),
    ("/balancer/enabled", "balance_switch"),
    ("/balancer/slop", "hbase.regions.slop"),
    ("/balancer/minCostNeedBalance", "hbase.master.balancer.stochastic.minCostNeedBalance"),
    ("/balancer/periodSeconds", "hbase.balancer.period (seconds)"),
    ("/heapBytes", "region server heap (HBASE_HEAPSIZE, bytes)"),
    ("/memstoreShare", "hbase.regionserver.global.memstore.size"),
    ("/families", "column families"),
    ("/familyBytes", "column family name bytes"),
    ("/qualifierBytes", "column qualifier bytes"),
];

impl LifeSettings {
    /// The settings that differ from HBase's defaults (`hbase-default.xml`'s, a new table's),
    /// each by HBase's name: what a report must say it ran with.
    pub fn changed_from_defaults(&self) -> Vec<ChangedSetting> {
        // (compared as the report writes them: JSON members by pointer)
        use crate::support::json::to_value;
        let (Some(now), Some(base)) = (to_value(self), to_value(&LifeSettings::default())) else {
            return Vec::new();
        };
        // (a member missing from either is JSON's null)
        let text = |v: Option<&_>| v.map_or_else(|| "null".to_string(), ToString::to_string);
        HBASE_NAMES
            .iter()
            .filter_map(|&(member, name)| {
                let (v, d) = (now.pointer(member), base.pointer(member));
                (text(v) != text(d)).then(|| ChangedSetting {
                    name,
                    member: member.to_string(),
                    value: text(v),
                    default: text(d),
                })
            })
            .collect()
    }
}
