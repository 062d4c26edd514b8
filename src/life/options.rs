//! A run's options, typed: each member goes over the settings the design implies
//! ([`super::settings_for_design`]), and each absent one leaves them. Read from JSON by
//! [`super::read`]; written back out (a fix's change, [`super::LifeFix::options`]) with the
//! absent members left out.

use serde::Serialize;

use super::settings::{
    BalancerSettings, CompactionPolicy, CompactionSettings, HBaseVersion, LifeSettings,
    NormalizerSettings,
};
use crate::hbase::policy::{SplitConfig, SplitPolicy};

/// The settings of a `lifeDesign` run over the design's own; every member optional. A member
/// set to `null` takes HBase's default (for a member that may be unset, such as the TTL:
/// unset), not the design's.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LifeOptions {
    /// The table simulated: a Phoenix global index's name; `None`: the design's own table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    /// [`LifeSettings::months`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub months: Option<u32>,
    /// [`LifeSettings::step_hours`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step_hours: Option<f64>,
    /// [`LifeSettings::servers`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub servers: Option<u32>,
    /// [`LifeSettings::seed`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// [`LifeSettings::version`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<HBaseVersion>,
    /// [`LifeSettings::policy`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<SplitPolicy>,
    /// [`LifeSettings::split`], member by member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<SplitOptions>,
    /// [`LifeSettings::overall_hregion_files`] (`Some(None)`: the version's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overall_hregion_files: Option<Option<bool>>,
    /// [`LifeSettings::region_split_limit`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region_split_limit: Option<u32>,
    /// [`LifeSettings::compression_ratio`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compression_ratio: Option<f64>,
    /// [`LifeSettings::ttl_seconds`] (`Some(None)`: FOREVER).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_seconds: Option<Option<u64>>,
    /// [`LifeSettings::compaction`], member by member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compaction: Option<CompactionOptions>,
    /// The table's `NORMALIZATION_ENABLED` ([`NormalizerSettings::enabled`]), by the name HBase
    /// and the design's `hbase` section give it (`normalizer.enabled` is its older spelling).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalization_enabled: Option<bool>,
    /// [`LifeSettings::normalizer`], member by member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalizer: Option<NormalizerOptions>,
    /// [`LifeSettings::balancer`], member by member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balancer: Option<BalancerOptions>,
    /// [`LifeSettings::heap_bytes`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heap_bytes: Option<u64>,
    /// [`LifeSettings::memstore_share`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memstore_share: Option<f64>,
    /// [`LifeSettings::families`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub families: Option<u32>,
    /// [`LifeSettings::family_bytes`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub family_bytes: Option<u32>,
    /// [`LifeSettings::qualifier_bytes`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualifier_bytes: Option<u32>,
}

/// [`SplitConfig`]'s members over the design's.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SplitOptions {
    /// [`SplitConfig::max_file_size`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_file_size: Option<i64>,
    /// [`SplitConfig::table_max_file_size`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_max_file_size: Option<Option<i64>>,
    /// [`SplitConfig::jitter`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jitter: Option<f64>,
    /// [`SplitConfig::memstore_flush_size`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memstore_flush_size: Option<i64>,
    /// [`SplitConfig::table_memstore_flush_size`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_memstore_flush_size: Option<Option<i64>>,
    /// [`SplitConfig::initial_size`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_size: Option<Option<i64>>,
    /// [`SplitConfig::overall_hregion_files`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overall_hregion_files: Option<bool>,
}

/// [`CompactionSettings`]' members over the design's.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompactionOptions {
    /// [`CompactionSettings::policy`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<CompactionPolicy>,
    /// [`CompactionSettings::min_files`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_files: Option<u32>,
    /// [`CompactionSettings::max_files`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_files: Option<u32>,
    /// [`CompactionSettings::ratio`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratio: Option<f64>,
    /// [`CompactionSettings::major_period_hours`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub major_period_hours: Option<f64>,
    /// [`CompactionSettings::major_jitter`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub major_jitter: Option<f64>,
    /// [`CompactionSettings::periodic_flush_hours`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub periodic_flush_hours: Option<f64>,
    /// [`CompactionSettings::checker_seconds`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checker_seconds: Option<f64>,
}

/// [`NormalizerSettings`]' members over the design's.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NormalizerOptions {
    /// [`NormalizerSettings::enabled`]: the older spelling of
    /// [`LifeOptions::normalization_enabled`], still read (the two are never both given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// [`NormalizerSettings::split_enabled`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split_enabled: Option<bool>,
    /// [`NormalizerSettings::merge_enabled`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merge_enabled: Option<bool>,
    /// [`NormalizerSettings::merge_min_region_count`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merge_min_region_count: Option<u32>,
    /// [`NormalizerSettings::merge_min_region_age_days`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merge_min_region_age_days: Option<f64>,
    /// [`NormalizerSettings::merge_min_region_size_mb`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merge_min_region_size_mb: Option<u64>,
    /// [`NormalizerSettings::target_region_size_mb`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_region_size_mb: Option<Option<u64>>,
    /// [`NormalizerSettings::target_region_count`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_region_count: Option<Option<u64>>,
    /// [`NormalizerSettings::merge_max_regions`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merge_max_regions: Option<u32>,
    /// [`NormalizerSettings::period_seconds`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period_seconds: Option<f64>,
}

/// [`BalancerSettings`]' members over the design's.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BalancerOptions {
    /// [`BalancerSettings::enabled`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// [`BalancerSettings::slop`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slop: Option<f64>,
    /// [`BalancerSettings::min_cost_need_balance`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_cost_need_balance: Option<f64>,
    /// [`BalancerSettings::period_seconds`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period_seconds: Option<f64>,
}

/// `*to = v` when the option is given.
fn set<T>(to: &mut T, v: &Option<T>)
where
    T: Clone,
{
    if let Some(v) = v {
        *to = v.clone();
    }
}

impl LifeOptions {
    /// `s` with every member given here over it (the nested groups member by member).
    pub fn apply(&self, s: &mut LifeSettings) {
        set(&mut s.months, &self.months);
        set(&mut s.step_hours, &self.step_hours);
        set(&mut s.servers, &self.servers);
        set(&mut s.seed, &self.seed);
        set(&mut s.version, &self.version);
        set(&mut s.policy, &self.policy);
        if let Some(o) = &self.split {
            o.apply(&mut s.split);
        }
        set(&mut s.overall_hregion_files, &self.overall_hregion_files);
        set(&mut s.region_split_limit, &self.region_split_limit);
        set(&mut s.compression_ratio, &self.compression_ratio);
        set(&mut s.ttl_seconds, &self.ttl_seconds);
        if let Some(o) = &self.compaction {
            o.apply(&mut s.compaction);
        }
        if let Some(o) = &self.normalizer {
            o.apply(&mut s.normalizer);
        }
        set(&mut s.normalizer.enabled, &self.normalization_enabled);
        if let Some(o) = &self.balancer {
            o.apply(&mut s.balancer);
        }
        set(&mut s.heap_bytes, &self.heap_bytes);
        set(&mut s.memstore_share, &self.memstore_share);
        set(&mut s.families, &self.families);
        set(&mut s.family_bytes, &self.family_bytes);
        set(&mut s.qualifier_bytes, &self.qualifier_bytes);
    }

    /// These options without the choice of table (what is left once [`Self::index`] chose it).
    pub(crate) fn without_index(&self) -> LifeOptions {
        LifeOptions {
            index: None,
            ..self.clone()
        }
    }
}

impl SplitOptions {
    /// Every member as HBase's default: what `split: null` sets.
    pub(crate) fn reset() -> SplitOptions {
        let d = SplitConfig::default();
        SplitOptions {
            max_file_size: Some(d.max_file_size),
            table_max_file_size: Some(d.table_max_file_size),
            jitter: Some(d.jitter),
            memstore_flush_size: Some(d.memstore_flush_size),
            table_memstore_flush_size: Some(d.table_memstore_flush_size),
            initial_size: Some(d.initial_size),
            overall_hregion_files: Some(d.overall_hregion_files),
        }
    }

    fn apply(&self, c: &mut SplitConfig) {
        set(&mut c.max_file_size, &self.max_file_size);
        set(&mut c.table_max_file_size, &self.table_max_file_size);
        set(&mut c.jitter, &self.jitter);
        set(&mut c.memstore_flush_size, &self.memstore_flush_size);
        set(
            &mut c.table_memstore_flush_size,
            &self.table_memstore_flush_size,
        );
        set(&mut c.initial_size, &self.initial_size);
        set(&mut c.overall_hregion_files, &self.overall_hregion_files);
    }
}

impl CompactionOptions {
    /// Every member as HBase's default: what `compaction: null` sets.
    pub(crate) fn reset() -> CompactionOptions {
        let d = CompactionSettings::default();
        CompactionOptions {
            policy: Some(d.policy),
            min_files: Some(d.min_files),
            max_files: Some(d.max_files),
            ratio: Some(d.ratio),
            major_period_hours: Some(d.major_period_hours),
            major_jitter: Some(d.major_jitter),
            periodic_flush_hours: Some(d.periodic_flush_hours),
            checker_seconds: Some(d.checker_seconds),
        }
    }

    fn apply(&self, c: &mut CompactionSettings) {
        set(&mut c.policy, &self.policy);
        set(&mut c.min_files, &self.min_files);
        set(&mut c.max_files, &self.max_files);
        set(&mut c.ratio, &self.ratio);
        set(&mut c.major_period_hours, &self.major_period_hours);
        set(&mut c.major_jitter, &self.major_jitter);
        set(&mut c.periodic_flush_hours, &self.periodic_flush_hours);
        set(&mut c.checker_seconds, &self.checker_seconds);
    }
}

impl NormalizerOptions {
    /// Every member as HBase's default: what `normalizer: null` sets.
    pub(crate) fn reset() -> NormalizerOptions {
        let d = NormalizerSettings::default();
        NormalizerOptions {
            enabled: Some(d.enabled),
            split_enabled: Some(d.split_enabled),
            merge_enabled: Some(d.merge_enabled),
            merge_min_region_count: Some(d.merge_min_region_count),
            merge_min_region_age_days: Some(d.merge_min_region_age_days),
            merge_min_region_size_mb: Some(d.merge_min_region_size_mb),
            target_region_size_mb: Some(d.target_region_size_mb),
            target_region_count: Some(d.target_region_count),
            merge_max_regions: Some(d.merge_max_regions),
            period_seconds: Some(d.period_seconds),
        }
    }

    fn apply(&self, n: &mut NormalizerSettings) {
        set(&mut n.enabled, &self.enabled);
        set(&mut n.split_enabled, &self.split_enabled);
        set(&mut n.merge_enabled, &self.merge_enabled);
        set(&mut n.merge_min_region_count, &self.merge_min_region_count);
        set(
            &mut n.merge_min_region_age_days,
            &self.merge_min_region_age_days,
        );
        set(
            &mut n.merge_min_region_size_mb,
            &self.merge_min_region_size_mb,
        );
        set(&mut n.target_region_size_mb, &self.target_region_size_mb);
        set(&mut n.target_region_count, &self.target_region_count);
        set(&mut n.merge_max_regions, &self.merge_max_regions);
        set(&mut n.period_seconds, &self.period_seconds);
    }
}

impl BalancerOptions {
    /// Every member as HBase's default: what `balancer: null` sets.
    pub(crate) fn reset() -> BalancerOptions {
        let d = BalancerSettings::default();
        BalancerOptions {
            enabled: Some(d.enabled),
            slop: Some(d.slop),
            min_cost_need_balance: Some(d.min_cost_need_balance),
            period_seconds: Some(d.period_seconds),
        }
    }

    fn apply(&self, b: &mut BalancerSettings) {
        set(&mut b.enabled, &self.enabled);
        set(&mut b.slop, &self.slop);
        set(&mut b.min_cost_need_balance, &self.min_cost_need_balance);
        set(&mut b.period_seconds, &self.period_seconds);
    }
}
