//! The changes a finding's fix simulates: the normalizer merging empty regions, a salt, a
//! pre-split, more servers, a larger split size.

use super::*;

pub(super) fn ordered(w: &LifeWorkload) -> bool {
    w.keys.order != LaneOrder::Spread
}

/// The normalizer merging 0 MB regions, when it does not already.
pub(super) fn merge_plan(s: &LifeSettings, w: &LifeWorkload) -> Option<Plan> {
    let n = &s.normalizer;
    if n.enabled && n.merge_enabled && n.merge_min_region_size_mb == 0 && !n.split_enabled {
        return None;
    }
    // Merges only: with split plans on (HBase's default) the normalizer also cuts the written
    // tail of a time-led table into ever smaller regions, below the average the empty ones
    // pull down.
    let mut settings = s.clone();
    settings.normalizer.enabled = true;
    settings.normalizer.merge_enabled = true;
    settings.normalizer.split_enabled = false;
    settings.normalizer.merge_min_region_size_mb = 0;
    Some(Plan {
        with: "with the normalizer merging 0 MB regions".into(),
        change: "turn the table's normalizer on (NORMALIZATION_ENABLED => true) to merge only: \
                 hbase.normalizer.merge.min_region_size.mb = 0 (so the regions the TTL emptied \
                 merge) and hbase.normalizer.split.enabled = false"
            .into(),
        options: Some(LifeOptions {
            normalization_enabled: Some(true),
            normalizer: Some(NormalizerOptions {
                merge_enabled: Some(true),
                split_enabled: Some(false),
                merge_min_region_size_mb: Some(0),
                ..NormalizerOptions::default()
            }),
            ..LifeOptions::default()
        }),
        settings,
        workload: w.clone(),
    })
}

/// A salt of `buckets` in front of the key: each lane's writes shared by the buckets, the
/// lanes in each bucket as they were, one region per bucket at creation.
pub(super) fn salt_plan(
    s: &LifeSettings,
    w: &LifeWorkload,
    buckets: usize,
) -> Result<Plan, String> {
    let lanes = w.keys.lanes();
    let total = buckets.saturating_mul(lanes);
    if buckets < 2 || total > MAX_LANES || buckets >= MAX_PRESPLIT_REGIONS {
        return Err(format!(
            "a salt of {buckets} buckets over {lanes} lanes is past what the simulator models"
        ));
    }
    let weights: Vec<f64> = (0..buckets)
        .flat_map(|_| w.keys.weights.iter().map(|x| x / buckets as f64))
        .collect();
    let presplit = (1..buckets).map(|b| (b * lanes) as f64).collect();
    let hash = if ordered(w) { "salt" } else { "salt or hash" };
    Ok(Plan {
        with: format!("with a {buckets}-bucket {hash} in front, pre-split one region per bucket"),
        change: format!(
            "put a {hash} of {buckets} buckets (one per server) in front of the key, e.g. \
             salt(…, {buckets}), and pre-split the table one region per bucket"
        ),
        options: None,
        settings: s.clone(),
        workload: LifeWorkload {
            keys: KeyModel {
                weights,
                order: w.keys.order,
                prefix_lanes: true,
            },
            presplit,
            ..w.clone()
        },
    })
}

/// The table pre-split into `regions` at equal shares of its writes (the key's quantiles).
pub(super) fn presplit_plan(s: &LifeSettings, w: &LifeWorkload, regions: usize) -> Option<Plan> {
    let regions = regions.clamp(2, MAX_PRESPLIT_REGIONS - 1);
    let total: f64 = w.keys.weights.iter().sum();
    if total <= 0.0 {
        return None;
    }
    let mut cuts = Vec::with_capacity(regions);
    let (mut acc, mut k) = (0.0, 1usize);
    for (i, x) in w.keys.weights.iter().enumerate() {
        let share = x / total;
        while k < regions && share > 0.0 && acc + share >= k as f64 / regions as f64 {
            let at = i as f64 + (k as f64 / regions as f64 - acc) / share;
            let last: f64 = cuts.last().copied().unwrap_or(0.0);
            if at > last && at < w.keys.lanes() as f64 {
                cuts.push(at);
            }
            k += 1;
        }
        acc += share;
    }
    if cuts.is_empty() {
        return None;
    }
    let n = cuts.len() + 1;
    Some(Plan {
        with: format!("pre-split into {n} regions at the key's quantiles"),
        change: format!(
            "pre-split the table into {n} regions at quantiles of its keys (split points where \
             the keys fall: `rowkey-lab split-points`)"
        ),
        options: None,
        settings: s.clone(),
        workload: LifeWorkload {
            presplit: cuts,
            ..w.clone()
        },
    })
}

/// More servers: enough for the table's last regions at 150 a server.
pub(super) fn servers_plan(s: &LifeSettings, w: &LifeWorkload, servers: u32) -> Option<Plan> {
    let servers = servers.min(MAX_LIFE_SERVERS);
    if servers <= s.servers {
        return None;
    }
    let mut settings = s.clone();
    settings.servers = servers;
    Some(Plan {
        with: format!("on {servers} servers"),
        change: format!(
            "run the table on {servers} region servers instead of {}",
            s.servers
        ),
        options: Some(LifeOptions {
            servers: Some(servers),
            ..LifeOptions::default()
        }),
        settings,
        workload: w.clone(),
    })
}

/// Regions up to HBase's shipped 10 GiB under Stepping, when the table's are smaller or its
/// policy does not split by size.
pub(super) fn split_size_plan(s: &LifeSettings, w: &LifeWorkload) -> Option<Plan> {
    let small = s.split.desired_max_file_size() < DEFAULT_MAX_FILE_SIZE;
    let policy = !matches!(
        s.policy,
        SplitPolicy::Stepping | SplitPolicy::IncreasingToUpperBound
    );
    if !small && !policy {
        return None;
    }
    let mut settings = s.clone();
    settings.split.max_file_size = DEFAULT_MAX_FILE_SIZE;
    settings.split.table_max_file_size = None;
    settings.policy = SplitPolicy::Stepping;
    Some(Plan {
        with: "with 10 GiB regions under SteppingSplitPolicy".into(),
        change: "split at HBase's shipped size: hbase.hregion.max.filesize = 10 GiB (no table \
                 MAX_FILESIZE), SteppingSplitPolicy"
            .into(),
        options: Some(LifeOptions {
            policy: Some(SplitPolicy::Stepping),
            split: Some(SplitOptions {
                max_file_size: Some(DEFAULT_MAX_FILE_SIZE),
                ..SplitOptions::default()
            }),
            ..LifeOptions::default()
        }),
        settings,
        workload: w.clone(),
    })
}

pub(super) fn days(ttl: u64) -> String {
    fixed(ttl as f64 / 86_400.0, if ttl % 86_400 == 0 { 0 } else { 1 })
}
