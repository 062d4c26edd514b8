//! Reading a run's options and the gate's budgets from JSON, with the readers every document
//! type has (`object_reader!`): each member once, with its doc string and range, which the
//! generated declarations (`LifeOptions`, `LifeBudgets` in `src/types.d.ts`) and the reference
//! (docs/design-document.md) are written from. Nothing past this module sees JSON.

use super::check::LifeBudgets;
use super::options::{
    BalancerOptions, CompactionOptions, LifeOptions, NormalizerOptions, SplitOptions,
};
use super::settings::{LifeSettings, MAX_LIFE_SERVERS, MAX_MONTHS, REGION_SPLIT_LIMIT};
use crate::design::table::{compaction_policy, version, MAX_TTL_SECONDS, POLICIES};
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::policy::{SplitConfig, SplitPolicy};
use crate::hbase::version::VERSIONS;
use crate::region::read::split_policy;
use crate::support::json::{
    bool_, bytes_i64, f64_, object_reader, read_object, u32_, u64_, DeError, Json, Node, R,
};

object_reader! {
    /// [`LifeOptions`].
    pub fn life_options(n) -> LifeOptions; "struct LifeOptions";
    /// A run's options, as [`life_options`] reads them.
    table LIFE_OPTIONS;
    {
        /// The table simulated: a Phoenix global index's name (`phoenix.indexes`), its own
        /// table (its key, its pre-split, an index row's value bytes per data write); absent,
        /// the data table. A local index, or a run over a file of rows, is refused at `/index`.
        index: some("index", index_name),
        /// Months of 30 days; absent: 12.
        months: over("months", u32_, LifeSettings::default().months) in 1 ..= MAX_MONTHS,
        /// Hours per step: hours that divide a day (1, 2, 3, 4, 6, 8, 12, 24) or minutes that
        /// divide an hour, as hours (0.5, 0.25, 0.0833 for 5 minutes); absent: 1.
        step_hours: over("stepHours", f64_, LifeSettings::default().step_hours),
        /// Region servers; absent: the design's `regions.regionServers`.
        servers: over("servers", u32_, LifeSettings::default().servers) in 1 ..= MAX_LIFE_SERVERS,
        /// The seed of every draw (split jitter, major-compaction jitter); absent: 0.
        seed: over("seed", u64_, LifeSettings::default().seed),
        /// The HBase release line, where 2.5/2.6 and 3.x differ; absent: the design's
        /// `hbase.version`.
        version: over("version", version, LifeSettings::default().version) of VERSIONS,
        /// The split policy; absent: the design's `regions.autoSplit.policy`, else Stepping.
        policy: over("policy", split_policy, SplitPolicy::default()),
        /// `hbase.hregion.*` sizes over the design's (`maxFileSize`, `memstoreFlushSize`,
        /// `jitter`, …, as `regions.autoSplit.config` takes them); the months run at HBase's
        /// 10 GiB and 128 MiB unless the table's own sizes or these say otherwise.
        split: over("split", split_over, SplitOptions::reset()),
        /// `hbase.hregion.split.overallfiles`; absent or null: the version's.
        overall_hregion_files: nullable("overallHregionFiles", bool_),
        /// `hbase.regionserver.regionSplitLimit`; absent: the design's `hbase.regionSplitLimit`.
        region_split_limit: over("regionSplitLimit", u32_, REGION_SPLIT_LIMIT) in 1 ..= 100_000,
        /// On-disk bytes per KeyValue byte, 0.01 to 4; absent: the design's
        /// `hbase.compressionRatio`.
        compression_ratio: over("compressionRatio", f64_, LifeSettings::default().compression_ratio),
        /// The family's `TTL` in seconds, the design's `hbase.ttlSeconds`; absent: the
        /// design's; null: FOREVER.
        ttl_seconds: nullable("ttlSeconds", u64_) in 60 ..= MAX_TTL_SECONDS,
        /// Flushes and compactions over the design's `hbase` members.
        compaction: over("compaction", compaction_over, CompactionOptions::reset()),
        /// The table's `NORMALIZATION_ENABLED` (the design's `hbase.normalizationEnabled`):
        /// the normalizer looks at the table; absent: the design's, else off.
        normalization_enabled: over("normalizationEnabled", bool_, false),
        /// The region normalizer over the design's `hbase` members.
        normalizer: over("normalizer", normalizer_over, NormalizerOptions::reset()),
        /// The balancer over the design's `hbase` members.
        balancer: over("balancer", balancer_over, BalancerOptions::reset()),
        /// A region server's heap in bytes, for the memstore bound; absent: 16 GiB.
        heap_bytes: over("heapBytes", u64_, LifeSettings::default().heap_bytes) in 67_108_864 ..= 4_398_046_511_104u64,
        /// `hbase.regionserver.global.memstore.size`, 0.01 to 0.9; absent: 0.4.
        memstore_share: over("memstoreShare", f64_, LifeSettings::default().memstore_share),
        /// Column families the writes fill alike (with `overallfiles` false a region splits
        /// when one store passes the size); absent: 1.
        families: over("families", u32_, LifeSettings::default().families) in 1 ..= 16,
        /// Bytes of the family name in each cell; absent: the design's `hbase.familyBytes`.
        family_bytes: over("familyBytes", u32_, LifeSettings::default().family_bytes) in 1 ..= 127,
        /// Bytes of the qualifier in each cell; absent: the design's `hbase.qualifierBytes`.
        qualifier_bytes: over("qualifierBytes", u32_, LifeSettings::default().qualifier_bytes) in 0 ..= 65_535,
    } => {
        // one setting, one name: `normalizer.enabled` is the older spelling of
        // `normalizationEnabled`, and the two are not both given
        if normalization_enabled.is_some()
            && normalizer.as_ref().is_some_and(|g| g.enabled.is_some())
        {
            return Err(n
                .error("NORMALIZATION_ENABLED given twice: normalizationEnabled (HBase's name) or normalizer.enabled, not both")
                .key("normalizationEnabled"));
        }
        LifeOptions {
            index,
            months,
            step_hours,
            servers,
            seed,
            version,
            policy,
            split,
            overall_hregion_files,
            region_split_limit,
            compression_ratio,
            ttl_seconds,
            compaction,
            normalization_enabled,
            normalizer,
            balancer,
            heap_bytes,
            memstore_share,
            families,
            family_bytes,
            qualifier_bytes,
        }
    }
}

object_reader! {
    /// [`CompactionOptions`].
    pub fn compaction_over(n) -> CompactionOptions; "struct CompactionOptions";
    /// A run's compaction options, as [`compaction_over`] reads them.
    table LIFE_COMPACTION;
    CompactionOptions {
        /// The family's compaction policy (the design's `hbase.compactionPolicy`); `fifo`
        /// needs a TTL.
        policy: over("policy", compaction_policy, Default::default()) of POLICIES,
        /// `hbase.hstore.compaction.min` (the design's `hbase.compactionMinFiles`).
        min_files: over("minFiles", u32_, 3) in 2 ..= 100,
        /// `hbase.hstore.compaction.max` (the design's `hbase.compactionMaxFiles`).
        max_files: over("maxFiles", u32_, 10) in 2 ..= 100,
        /// `hbase.hstore.compaction.ratio`, 0.1 to 100 (the design's `hbase.compactionRatio`).
        ratio: over("ratio", f64_, 1.2),
        /// `hbase.hregion.majorcompaction` in hours, 0 (off) to 87,600 (the design's
        /// `hbase.majorCompactionHours`).
        major_period_hours: over("majorPeriodHours", f64_, 168.0),
        /// `hbase.hregion.majorcompaction.jitter`, 0 to 1 (the design's
        /// `hbase.majorCompactionJitter`).
        major_jitter: over("majorJitter", f64_, 0.5),
        /// `hbase.regionserver.optionalcacheflushinterval` in hours, 0 (off) to 8,760 (the
        /// design's `hbase.periodicFlushHours`).
        periodic_flush_hours: over("periodicFlushHours", f64_, 1.0),
        /// The `CompactionChecker` chore's period in seconds, 60 to 2,592,000 (the design's
        /// `hbase.compactionCheckerSeconds`).
        checker_seconds: over("checkerSeconds", f64_, 10_000.0),
    }
}

object_reader! {
    /// [`NormalizerOptions`].
    pub fn normalizer_over(n) -> NormalizerOptions; "struct NormalizerOptions";
    /// A run's normalizer options, as [`normalizer_over`] reads them.
    table LIFE_NORMALIZER;
    NormalizerOptions {
        /// The table's `NORMALIZATION_ENABLED`: the older spelling of `normalizationEnabled`,
        /// still read because the declarations documented it; one or the other.
        enabled: over("enabled", bool_, false),
        /// `hbase.normalizer.split.enabled` (the design's `hbase.normalizerSplitEnabled`).
        split_enabled: over("splitEnabled", bool_, true),
        /// `hbase.normalizer.merge.enabled` (the design's `hbase.normalizerMergeEnabled`).
        merge_enabled: over("mergeEnabled", bool_, true),
        /// `hbase.normalizer.merge.min.region.count` (the design's
        /// `hbase.normalizerMergeMinRegionCount`).
        merge_min_region_count: over("mergeMinRegionCount", u32_, 3) in 0 ..= 1_000_000,
        /// `hbase.normalizer.merge.min_region_age.days`, 0 to 3,650 (the design's
        /// `hbase.normalizerMergeMinRegionAgeDays`).
        merge_min_region_age_days: over("mergeMinRegionAgeDays", f64_, 3.0),
        /// `hbase.normalizer.merge.min_region_size.mb`: 1 as `hbase-default.xml` ships it (the
        /// design's `hbase.normalizerMergeMinRegionSizeMb`).
        merge_min_region_size_mb: over("mergeMinRegionSizeMb", u64_, 1) in 0 ..= 1_073_741_824,
        /// The table's `NORMALIZER_TARGET_REGION_SIZE_MB` (the design's
        /// `hbase.normalizerTargetRegionSizeMb`); null: unset.
        target_region_size_mb: nullable("targetRegionSizeMb", u64_) in 1 ..= 1_073_741_824,
        /// The table's `NORMALIZER_TARGET_REGION_COUNT` (the design's
        /// `hbase.normalizerTargetRegionCount`); null: unset.
        target_region_count: nullable("targetRegionCount", u64_) in 1 ..= 1_000_000,
        /// `merge_request_max_number_of_regions`: the most regions one merge plan takes.
        merge_max_regions: over("mergeMaxRegions", u32_, 100) in 2 ..= 10_000,
        /// `hbase.normalizer.period` in seconds, 1 to 604,800 (the design's
        /// `hbase.normalizerPeriodSeconds`).
        period_seconds: over("periodSeconds", f64_, 300.0),
    }
}

object_reader! {
    /// [`BalancerOptions`].
    pub fn balancer_over(n) -> BalancerOptions; "struct BalancerOptions";
    /// A run's balancer options, as [`balancer_over`] reads them.
    table LIFE_BALANCER;
    BalancerOptions {
        /// The balancer switch, `balance_switch` (the design's `hbase.balancerEnabled`).
        enabled: over("enabled", bool_, true),
        /// `hbase.regions.slop`, 0 to 10 (the design's `hbase.balancerSlop`).
        slop: over("slop", f64_, 0.2),
        /// `hbase.master.balancer.stochastic.minCostNeedBalance`, 0 to 1.
        min_cost_need_balance: over("minCostNeedBalance", f64_, 0.025),
        /// `hbase.balancer.period` in seconds, 1 to 604,800 (the design's
        /// `hbase.balancerPeriodSeconds`).
        period_seconds: over("periodSeconds", f64_, 300.0),
    }
}

/// [`SplitOptions`]: `regions.autoSplit.config`'s members (the same keys and readers as
/// `crate::region::read::split_config`), each over the design's.
fn split_over(n: &Node) -> R<SplitOptions> {
    let d = SplitConfig::default();
    Ok(read_object!(
        n,
        "struct SplitConfig",
        None,
        SplitOptions {
            max_file_size: over("maxFileSize", bytes_i64, d.max_file_size),
            table_max_file_size: nullable("tableMaxFileSize", bytes_i64),
            jitter: over("jitter", f64_, d.jitter),
            memstore_flush_size: over("memstoreFlushSize", bytes_i64, d.memstore_flush_size),
            table_memstore_flush_size: nullable("tableMemstoreFlushSize", bytes_i64),
            initial_size: nullable("initialSize", bytes_i64),
            overall_hregion_files: over("overallHregionFiles", bool_, d.overall_hregion_files),
        }
    ))
}

/// The `index` option: a string (not `null`: a table is named or the option left out).
fn index_name(n: &Node) -> R<String> {
    match &n.v {
        Json::Str(s) => Ok(s.clone()),
        _ => Err(n.error("index: expected the name of one of the design's Phoenix indexes")),
    }
}

object_reader! {
    /// [`LifeBudgets`].
    pub fn life_budgets(n) -> LifeBudgets; "struct LifeBudgets";
    /// The gate's budgets, as [`life_budgets`] reads them.
    table LIFE_BUDGETS;
    LifeBudgets {
        /// The most empty regions (no store file, no memstore) at any month's end; absent: not
        /// checked.
        max_empty_regions: opt("maxEmptyRegions", u32_),
        /// The most of the table's regions on one server at any month's end; absent: not
        /// checked.
        max_regions_per_server: opt("maxRegionsPerServer", u32_),
    }
}

impl LifeOptions {
    /// Options from JSON text: an object of members, `null` for none. A member the reader
    /// refuses is an error at its path (`/months`, `/compaction/ratio`), naming what it
    /// expected; anything but an object or `null` an error at `options`.
    pub fn from_json(text: &str) -> Result<LifeOptions> {
        let n = crate::support::json::parse(text)?;
        match n.v {
            Json::Null => Ok(LifeOptions::default()),
            Json::Obj(_) => life_options(&n).map_err(option_error),
            _ => Err(Error::arg("options", "life options must be an object")),
        }
    }
}

impl LifeBudgets {
    /// Budgets from JSON text (`{"maxEmptyRegions": 100}`, `null` for none); errors at
    /// `lifeBudgets`.
    pub fn from_json(text: &str) -> Result<LifeBudgets> {
        let n = crate::support::json::parse(text)?;
        match n.v {
            Json::Null => Ok(LifeBudgets::default()),
            Json::Obj(_) => life_budgets(&n).map_err(|e| {
                Error::new(ErrorKind::Invalid, format!("life budgets: {}", e.message()))
                    .at_path("lifeBudgets")
            }),
            _ => Err(Error::arg("lifeBudgets", "must be an object")),
        }
    }
}

/// An error of the settings passed as argument `name` (`options`, `otherOptions`), where two
/// are given: its member's path led by the argument's name (`otherOptions/months`).
pub fn in_argument(name: &'static str) -> impl Fn(Error) -> Error {
    move |e: Error| match e.location.path.clone() {
        Some(p) if p.starts_with('/') => e.at_path(format!("{name}{p}")),
        _ => e,
    }
}

/// A member the reader refused, at its path, in a person's words.
fn option_error(e: DeError) -> Error {
    // the readers' Rust type names in a person's words
    let why = e
        .message()
        .replace(
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        )
        .replace("expected u64", "expected a whole number of at least 0")
        .replace("expected f64", "expected a number");
    Error::new(ErrorKind::Invalid, format!("life option: {why}")).at_path(e.pointer())
}

crate::support::json::deserialize_through! {
    LifeOptions => life_options,
    LifeBudgets => life_budgets,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::DesignDocument;

    fn doc() -> DesignDocument {
        DesignDocument::from_json(
            r#"{"v": 1, "fields": [{"name": "a", "type": "long"}], "key": "long(a)",
                "regions": {"regionServers": 4},
                "hbase": {"ttlSeconds": 86400, "compactionRatio": 2}}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn settings(text: &str) -> Result<LifeSettings> {
        super::super::settings_for_design(&doc(), &LifeOptions::from_json(text)?)
    }

    #[test]
    fn absent_keeps_the_design_s_value_and_null_takes_hbase_s_default() {
        let s = settings("{}").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (s.servers, s.ttl_seconds, s.compaction.ratio),
            (4, Some(86_400), 2.0)
        );
        // null: HBase's default (for the TTL, unset: FOREVER), not the design's
        let s = settings(r#"{"servers": null, "ttlSeconds": null, "compaction": {"ratio": null}}"#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (s.servers, s.ttl_seconds, s.compaction.ratio),
            (1, None, 1.2)
        );
        // a group set to null: every member of it HBase's
        let s = settings(r#"{"compaction": null}"#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.compaction, super::super::CompactionSettings::default());
        // sizes as the design's auto-split takes them
        let s =
            settings(r#"{"split": {"maxFileSize": "4 MiB"}}"#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.split.max_file_size, 4 << 20);
        assert_eq!(settings("null").map(|s| s.servers), Ok(4));
    }

    #[test]
    fn a_refused_member_is_named_in_a_person_s_words() {
        let e = settings(r#"{"months": "x"}"#).unwrap_err();
        assert_eq!(e.location.path.as_deref(), Some("/months"));
        assert_eq!(
            e.message,
            "life option: invalid type: string \"x\", expected a whole number from 0 to 4294967295"
        );
        let e = settings(r#"{"normalizer": {"enabeld": true}}"#).unwrap_err();
        assert_eq!(e.location.path.as_deref(), Some("/normalizer/enabeld"));
        assert!(e.message.contains("unknown field `enabeld`"), "{e}");
        // a table is named, never null
        let e = settings(r#"{"index": null}"#).unwrap_err();
        assert_eq!(e.location.path.as_deref(), Some("/index"));
        assert!(e
            .message
            .contains("expected the name of one of the design's Phoenix indexes"));
        assert!(settings("[1]").is_err_and(|e| e.message.contains("must be an object")));
        let e = LifeBudgets::from_json(r#"{"maxEmptyRegions": "x"}"#).unwrap_err();
        assert_eq!(e.location.path.as_deref(), Some("lifeBudgets"));
    }

    #[test]
    fn normalization_enabled_is_hbase_s_name_and_normalizer_enabled_its_older_spelling() {
        let on = |text: &str| settings(text).map(|s| s.normalizer.enabled);
        assert_eq!(on(r#"{"normalizationEnabled": true}"#), Ok(true));
        assert_eq!(on(r#"{"normalizer": {"enabled": true}}"#), Ok(true));
        assert_eq!(
            on(r#"{"normalizationEnabled": true, "normalizer": {"splitEnabled": false}}"#),
            Ok(true)
        );
        let e = settings(r#"{"normalizationEnabled": true, "normalizer": {"enabled": false}}"#)
            .unwrap_err();
        assert_eq!(e.location.path.as_deref(), Some("/normalizationEnabled"));
    }

    #[test]
    fn options_written_out_read_back_the_same() {
        // a fix's change goes out as JSON and comes back as a run's options
        let o = LifeOptions {
            servers: Some(3),
            ttl_seconds: Some(None),
            normalizer: Some(NormalizerOptions {
                enabled: Some(true),
                ..NormalizerOptions::default()
            }),
            ..LifeOptions::default()
        };
        let text = serde_json::to_string(&o).unwrap_or_default();
        assert_eq!(
            text,
            r#"{"servers":3,"ttlSeconds":null,"normalizer":{"enabled":true}}"#
        );
        assert_eq!(LifeOptions::from_json(&text), Ok(o));
    }
}
