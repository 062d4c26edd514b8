//! What a report says of how it was made: the settings it ran with, those that differ from
//! HBase's defaults, and the model's notes.

use super::settings::{LifeSettings, MAX_LIFE_REGIONS};
use super::sim::{self, MONTH_DAYS};

/// `x` to 4 decimals, without trailing zeros (`10`, `0.25`).
fn trim(x: f64) -> String {
    let s = format!("{x:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The settings a run ran with, in a line ([`super::LifeReport::ran_with`]).
pub(super) fn ran_with(s: &LifeSettings) -> String {
    let mib = |b: f64| b / (1u64 << 20) as f64;
    let gib = |b: i64| trim(b as f64 / (1u64 << 30) as f64);
    format!(
            "{} server{}, {}, split size {} GiB (hbase.hregion.max.filesize), flush size {:.0} MiB, TTL {}, normalizer {}, balancer {}, major compactions {}",
            s.servers,
            if s.servers == 1 { "" } else { "s" },
            s.policy.class_name(),
            gib(s.split.desired_max_file_size()),
            mib(s.flush_size()),
            s.ttl_seconds.map_or("FOREVER".to_string(), |t| format!("{t} s ({} days)", trim(t as f64 / 86_400.0))),
            if s.normalizer.enabled { "on" } else { "off" },
            if s.balancer.enabled { "on" } else { "off" },
            if s.compaction.major_period_hours > 0.0 {
                format!("every {} h ± {:.0} %", s.compaction.major_period_hours, s.compaction.major_jitter * 100.0)
            } else {
                "off".to_string()
            },
    )
}

pub(super) fn notes(s: &LifeSettings, capped: Option<u32>, lumped: u64) -> Vec<String> {
    let changed = s.changed_from_defaults();
    let mut n = vec![
        format!("ran with: {}", ran_with(s)),
        if changed.is_empty() {
            "every setting is HBase's default".to_string()
        } else {
            format!(
                "settings that differ from HBase's defaults: {}",
                changed
                    .iter()
                    .map(|c| {
                        let default = if c.default == "null" { "unset" } else { &c.default };
                        format!("{} = {} (default {default})", c.name, c.value)
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        },
        format!(
            "split checks after each flush and compaction under {} (n = the table's regions on the server), one jitter draw per region open",
            s.policy.class_name()
        ),
        "split point: the middle of the largest store file; daughters stay on the parent's server and cannot split before compacting their references".into(),
        "cell size: 20 + row + family + qualifier + value bytes, times the compression ratio on disk".into(),
        "balancer: StochasticLoadBalancer's trigger and cost functions; a seeded greedy search stands in for its random one; locality, read and memstore costs are 0".into(),
        "left out: memstore pressure from other tables and blocked writes, HDFS locality, hbase:meta load, replicas, reads".into(),
    ];
    if let Some(m) = capped {
        n.push(format!(
            "the table reached the simulator's {MAX_LIFE_REGIONS} regions in month {m}; it splits no further"
        ));
    }
    if !s.normalizer.enabled {
        n.push("normalizer off (NORMALIZATION_ENABLED is false by default)".into());
    }
    let n_cfg = &s.normalizer;
    let span_days = f64::from(s.months * MONTH_DAYS);
    if n_cfg.enabled && n_cfg.merge_enabled && n_cfg.merge_min_region_age_days >= span_days {
        n.push(format!(
            "no region grows older than hbase.normalizer.merge.min_region_age.days ({}) within the {} days simulated: the normalizer merges nothing",
            n_cfg.merge_min_region_age_days, span_days
        ));
    }
    if s.compaction.min_files > s.compaction.max_files {
        n.push(format!(
            "hbase.hstore.compaction.min ({}) is above hbase.hstore.compaction.max ({}): no minor compaction is ever selected",
            s.compaction.min_files, s.compaction.max_files
        ));
    }
    if lumped > 0 {
        n.push(format!(
            "{lumped} region-step(s) were written faster than {} flush sizes an hour: their flushes were taken {} to the hour, each larger than the flush size",
            sim::MAX_FLUSHES_PER_HOUR, sim::MAX_FLUSHES_PER_HOUR
        ));
    }
    n
}
