//! The `hbase` section: the table and cluster a design runs on, as far as months of its life
//! depend on them (the family's TTL, the bytes a cell takes on disk, the release line, the
//! normalizer's and the balancer's settings). `life` reads it; options given to a run go over it.
//!
//! ```json
//! "hbase": {"ttlSeconds": 2592000, "compressionRatio": 0.3, "version": "2.6",
//!           "normalizationEnabled": true}
//! ```

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::store::CompactionPolicy;
use crate::hbase::version::{HBaseVersion, VERSIONS};
use crate::support::json::{bool_, f64_, object_reader, u32_, u64_, unit, Node, R};

/// The longest TTL a design may give: 100 years, in seconds.
pub const MAX_TTL_SECONDS: u64 = 100 * 365 * 86_400;
/// The longest column family name (its length is one byte in a KeyValue; HBase allows 127).
pub const MAX_FAMILY_BYTES: u32 = 127;
/// The longest qualifier a design may count (bytes; HBase's own limit is far larger).
pub const MAX_QUALIFIER_BYTES: u32 = 65_535;

/// The table and cluster settings a table's life depends on.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TableSpec {
    /// The column family's `TTL` in seconds; absent: FOREVER.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_seconds: Option<u64>,
    /// On-disk bytes per KeyValue byte after encoding and compression.
    pub compression_ratio: f64,
    /// The column family name's bytes in each cell.
    pub family_bytes: u32,
    /// The column qualifier's bytes in each cell.
    pub qualifier_bytes: u32,
    /// The HBase release line.
    pub version: HBaseVersion,
    /// The table's `NORMALIZATION_ENABLED`.
    pub normalization_enabled: bool,
    /// `hbase.normalizer.merge.min_region_size.mb`.
    pub normalizer_merge_min_region_size_mb: u64,
    /// `hbase.regions.slop`.
    pub balancer_slop: f64,
    /// `hbase.normalizer.split.enabled`.
    pub normalizer_split_enabled: bool,
    /// `hbase.normalizer.merge.enabled`.
    pub normalizer_merge_enabled: bool,
    /// `hbase.normalizer.merge.min.region.count`.
    pub normalizer_merge_min_region_count: u32,
    /// `hbase.normalizer.merge.min_region_age.days`.
    pub normalizer_merge_min_region_age_days: u32,
    /// The table's `NORMALIZER_TARGET_REGION_SIZE_MB`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalizer_target_region_size_mb: Option<u64>,
    /// The table's `NORMALIZER_TARGET_REGION_COUNT`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalizer_target_region_count: Option<u64>,
    /// `hbase.normalizer.period`, in seconds.
    pub normalizer_period_seconds: f64,
    /// The balancer switch.
    pub balancer_enabled: bool,
    /// `hbase.balancer.period`, in seconds.
    pub balancer_period_seconds: f64,
    /// `hbase.hregion.majorcompaction`, in hours (0: off).
    pub major_compaction_hours: f64,
    /// `hbase.hregion.majorcompaction.jitter`.
    pub major_compaction_jitter: f64,
    /// `hbase.regionserver.optionalcacheflushinterval`, in hours (0: off).
    pub periodic_flush_hours: f64,
    /// `hbase.regionserver.regionSplitLimit`.
    pub region_split_limit: u32,
    /// The family's compaction policy.
    pub compaction_policy: CompactionPolicy,
    /// `hbase.hstore.compaction.ratio`.
    pub compaction_ratio: f64,
    /// `hbase.hstore.compaction.min`.
    pub compaction_min_files: u32,
    /// `hbase.hstore.compaction.max`.
    pub compaction_max_files: u32,
    /// The `CompactionChecker` chore's period, in seconds.
    pub compaction_checker_seconds: f64,
}

impl Default for TableSpec {
    fn default() -> Self {
        TableSpec {
            ttl_seconds: None,
            compression_ratio: 1.0,
            family_bytes: 1,
            qualifier_bytes: 1,
            version: HBaseVersion::V2_6,
            normalization_enabled: false,
            normalizer_merge_min_region_size_mb: 1,
            balancer_slop: 0.2,
            normalizer_split_enabled: true,
            normalizer_merge_enabled: true,
            normalizer_merge_min_region_count: 3,
            normalizer_merge_min_region_age_days: 3,
            normalizer_target_region_size_mb: None,
            normalizer_target_region_count: None,
            normalizer_period_seconds: 300.0,
            balancer_enabled: true,
            balancer_period_seconds: 300.0,
            major_compaction_hours: 168.0,
            major_compaction_jitter: 0.5,
            periodic_flush_hours: 1.0,
            region_split_limit: 1000,
            compaction_policy: CompactionPolicy::Exploring,
            compaction_ratio: 1.2,
            compaction_min_files: 3,
            compaction_max_files: 10,
            compaction_checker_seconds: 10_000.0,
        }
    }
}

impl TableSpec {
    /// How its cells are counted (`hbase::store::CellBytes`).
    pub fn cell_bytes(&self) -> crate::hbase::store::CellBytes {
        crate::hbase::store::CellBytes {
            family_bytes: self.family_bytes,
            qualifier_bytes: self.qualifier_bytes,
            compression_ratio: self.compression_ratio,
        }
    }

    /// Every member in its range; the error at `/hbase/<member>`.
    pub fn validate(&self) -> Result<()> {
        let bad = |member: &str, what: String| {
            Err(Error::new(ErrorKind::Invalid, what).at_path(format!("/hbase/{member}")))
        };
        if let Some(t) = self.ttl_seconds {
            if !(60..=MAX_TTL_SECONDS).contains(&t) {
                return bad(
                    "ttlSeconds",
                    format!("a TTL of {t} s: expected 60 to {MAX_TTL_SECONDS}"),
                );
            }
        }
        let r = self.compression_ratio;
        if !(r.is_finite() && (0.01..=4.0).contains(&r)) {
            return bad("compressionRatio", format!("{r}: expected 0.01 to 4"));
        }
        if !(1..=MAX_FAMILY_BYTES).contains(&self.family_bytes) {
            return bad(
                "familyBytes",
                format!("{}: expected 1 to {MAX_FAMILY_BYTES}", self.family_bytes),
            );
        }
        if self.qualifier_bytes > MAX_QUALIFIER_BYTES {
            return bad(
                "qualifierBytes",
                format!(
                    "{}: expected 0 to {MAX_QUALIFIER_BYTES}",
                    self.qualifier_bytes
                ),
            );
        }
        if self.normalizer_merge_min_region_size_mb > 1 << 30 {
            return bad(
                "normalizerMergeMinRegionSizeMb",
                format!(
                    "{}: expected 0 to {}",
                    self.normalizer_merge_min_region_size_mb,
                    1u64 << 30
                ),
            );
        }
        let number = |member: &str, x: f64, lo: f64, hi: f64| {
            if x.is_finite() && (lo..=hi).contains(&x) {
                Ok(())
            } else {
                bad(member, format!("{x}: expected a number from {lo} to {hi}"))
            }
        };
        let whole = |member: &str, x: u64, lo: u64, hi: u64| {
            if (lo..=hi).contains(&x) {
                Ok(())
            } else {
                bad(
                    member,
                    format!("{x}: expected an integer from {lo} to {hi}"),
                )
            }
        };
        number("balancerSlop", self.balancer_slop, 0.0, 10.0)?;
        whole(
            "normalizerMergeMinRegionCount",
            self.normalizer_merge_min_region_count.into(),
            1,
            1_000_000,
        )?;
        whole(
            "normalizerMergeMinRegionAgeDays",
            self.normalizer_merge_min_region_age_days.into(),
            0,
            3650,
        )?;
        if let Some(t) = self.normalizer_target_region_size_mb {
            whole("normalizerTargetRegionSizeMb", t, 1, 1 << 30)?;
        }
        if let Some(t) = self.normalizer_target_region_count {
            whole("normalizerTargetRegionCount", t, 1, 1_000_000)?;
        }
        number(
            "normalizerPeriodSeconds",
            self.normalizer_period_seconds,
            1.0,
            604_800.0,
        )?;
        number(
            "balancerPeriodSeconds",
            self.balancer_period_seconds,
            1.0,
            604_800.0,
        )?;
        number(
            "majorCompactionHours",
            self.major_compaction_hours,
            0.0,
            87_600.0,
        )?;
        number(
            "majorCompactionJitter",
            self.major_compaction_jitter,
            0.0,
            1.0,
        )?;
        number("periodicFlushHours", self.periodic_flush_hours, 0.0, 8760.0)?;
        whole(
            "regionSplitLimit",
            self.region_split_limit.into(),
            1,
            100_000,
        )?;
        number("compactionRatio", self.compaction_ratio, 0.1, 100.0)?;
        whole(
            "compactionMinFiles",
            self.compaction_min_files.into(),
            2,
            100,
        )?;
        whole(
            "compactionMaxFiles",
            self.compaction_max_files.into(),
            2,
            100,
        )?;
        number(
            "compactionCheckerSeconds",
            self.compaction_checker_seconds,
            60.0,
            2_592_000.0,
        )?;
        if self.compaction_policy == CompactionPolicy::Fifo && self.ttl_seconds.is_none() {
            // TableDescriptorChecker.checkCompactionPolicy refuses FIFO without a TTL.
            return bad(
                "compactionPolicy",
                "fifo needs a TTL: HBase refuses FIFOCompactionPolicy on a family whose TTL is FOREVER (set ttlSeconds)".into(),
            );
        }
        Ok(())
    }
}

/// The compaction policies by name.
pub const POLICIES: [(&str, CompactionPolicy); 2] = [
    ("exploring", CompactionPolicy::Exploring),
    ("fifo", CompactionPolicy::Fifo),
];

/// A compaction policy by its name.
pub(crate) fn compaction_policy(n: &Node) -> R<CompactionPolicy> {
    unit(n, &POLICIES)
}

/// A release line by its name (`"2.5"`, `"2.6"`, `"3"`).
pub(crate) fn version(n: &Node) -> R<HBaseVersion> {
    unit(n, &VERSIONS)
}

object_reader! {
    /// A [`TableSpec`].
    pub(crate) fn table_spec(n) -> TableSpec; "struct TableSpec";
    /// The `hbase` members, as [`table_spec`] reads them.
    table TABLE;
    TableSpec {
        /// The column family's `TTL` in seconds (60 s to 100 years); absent: FOREVER. Cells
        /// older than it are dropped at compactions, whole files of them before one.
        ttl_seconds: opt("ttlSeconds", u64_) in 60 ..= MAX_TTL_SECONDS,
        /// On-disk bytes per KeyValue byte after data block encoding and compression, 0.01
        /// to 4 (1: none; Snappy on text is often 0.3 to 0.5).
        compression_ratio: or("compressionRatio", f64_, 1.0) = "1",
        /// The column family name's bytes in each cell (`d`: 1).
        family_bytes: or("familyBytes", u32_, 1) = "1" in 1 ..= MAX_FAMILY_BYTES,
        /// The column qualifier's bytes in each cell.
        qualifier_bytes: or("qualifierBytes", u32_, 1) = "1" in 0 ..= MAX_QUALIFIER_BYTES,
        /// The HBase release line, where 2.5/2.6 and 3.x differ (`overallfiles`, the
        /// balancer's cost functions).
        version: or("version", version, HBaseVersion::V2_6) = r#""2.6""# of VERSIONS,
        /// The table's `NORMALIZATION_ENABLED` (false by default: the normalizer then never
        /// touches the table).
        normalization_enabled: or("normalizationEnabled", bool_, false) = "false",
        /// `hbase.normalizer.merge.min_region_size.mb`: 1 as `hbase-default.xml` ships it (the
        /// Java constant is 0), so regions emptied by the TTL (0 MB) are never merged.
        normalizer_merge_min_region_size_mb: or("normalizerMergeMinRegionSizeMb", u64_, 1) = "1" in 0 ..= 1_073_741_824,
        /// `hbase.regions.slop`: the balancer runs when a server is this share above or below
        /// the mean region count. From 0 to 10.
        balancer_slop: or("balancerSlop", f64_, 0.2) = "0.2",
        /// `hbase.normalizer.split.enabled`: the normalizer's split plans (regions above twice
        /// the table's average).
        normalizer_split_enabled: or("normalizerSplitEnabled", bool_, true) = "true",
        /// `hbase.normalizer.merge.enabled`: the normalizer's merge plans.
        normalizer_merge_enabled: or("normalizerMergeEnabled", bool_, true) = "true",
        /// `hbase.normalizer.merge.min.region.count`: no merge plans for a table with fewer
        /// regions.
        normalizer_merge_min_region_count: or("normalizerMergeMinRegionCount", u32_, 3) = "3" in 1 ..= 1_000_000,
        /// `hbase.normalizer.merge.min_region_age.days`: a region this many days old or younger
        /// (from its creation: a split or merge makes a new one) is not merged.
        normalizer_merge_min_region_age_days: or("normalizerMergeMinRegionAgeDays", u32_, 3) = "3" in 0 ..= 3650,
        /// The table's `NORMALIZER_TARGET_REGION_SIZE_MB`: the size the normalizer aims at
        /// instead of the table's average; absent: the average.
        normalizer_target_region_size_mb: opt("normalizerTargetRegionSizeMb", u64_) in 1 ..= 1_073_741_824,
        /// The table's `NORMALIZER_TARGET_REGION_COUNT`: the average taken as the table's size
        /// over this count; absent: over its regions.
        normalizer_target_region_count: opt("normalizerTargetRegionCount", u64_) in 1 ..= 1_000_000,
        /// `hbase.normalizer.period` in seconds (300 000 ms): how often the normalizer looks.
        /// From 1 to 604,800 (a week).
        normalizer_period_seconds: or("normalizerPeriodSeconds", f64_, 300.0) = "300",
        /// The balancer switch (`balance_switch`; on by default).
        balancer_enabled: or("balancerEnabled", bool_, true) = "true",
        /// `hbase.balancer.period` in seconds (300 000 ms). From 1 to 604,800.
        balancer_period_seconds: or("balancerPeriodSeconds", f64_, 300.0) = "300",
        /// `hbase.hregion.majorcompaction` in hours (604 800 000 ms: 7 days); 0 turns periodic
        /// major compactions off, as many production clusters do. From 0 to 87,600 (ten years).
        major_compaction_hours: or("majorCompactionHours", f64_, 168.0) = "168",
        /// `hbase.hregion.majorcompaction.jitter`: each store's period is drawn within this
        /// share of it either side. From 0 to 1.
        major_compaction_jitter: or("majorCompactionJitter", f64_, 0.5) = "0.5",
        /// `hbase.regionserver.optionalcacheflushinterval` in hours (3 600 000 ms): a memstore
        /// whose oldest edit is this old is flushed; 0 turns the periodic flush off. From 0 to
        /// 8,760.
        periodic_flush_hours: or("periodicFlushHours", f64_, 1.0) = "1",
        /// `hbase.regionserver.regionSplitLimit`: no split once a server holds this many
        /// regions.
        region_split_limit: or("regionSplitLimit", u32_, 1000) = "1000" in 1 ..= 100_000,
        /// The family's compaction policy: `exploring` (the default store engine's) or `fifo`
        /// (`FIFOCompactionPolicy`: whole expired files deleted, nothing rewritten; needs a TTL).
        compaction_policy: or("compactionPolicy", compaction_policy, CompactionPolicy::Exploring) = r#""exploring""# of POLICIES,
        /// `hbase.hstore.compaction.ratio`: a file joins a minor compaction when it is at most
        /// this times the other files of its window. From 0.1 to 100.
        compaction_ratio: or("compactionRatio", f64_, 1.2) = "1.2",
        /// `hbase.hstore.compaction.min`: the fewest files a minor compaction takes.
        compaction_min_files: or("compactionMinFiles", u32_, 3) = "3" in 2 ..= 100,
        /// `hbase.hstore.compaction.max`: the most files a minor compaction takes.
        compaction_max_files: or("compactionMaxFiles", u32_, 10) = "10" in 2 ..= 100,
        /// The `CompactionChecker` chore's period in seconds
        /// (`hbase.server.thread.wakefrequency` 10 s × `hbase.server.compactchecker.interval.multiplier`
        /// 1000). From 60 to 2,592,000.
        compaction_checker_seconds: or("compactionCheckerSeconds", f64_, 10_000.0) = "10000",
    }
}
