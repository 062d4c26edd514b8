//! Each finding of the months: whether it holds, from which month, its figure, what it means
//! and the plan that fixes it.

use super::plans::*;
use super::*;

pub(super) fn empty_regions(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let month = first_month(FindingKind::EmptyRegions, s, r)?;
    let start = r.months.iter().find(|m| m.month == month)?;
    let last = r.months.last()?;
    let mut figure = format!(
        "{} of {} regions empty at month {month}",
        start.empty_regions, start.regions
    );
    if last.month != month {
        figure.push_str(&format!(
            " ({} of {} at month {})",
            last.empty_regions, last.regions, last.month
        ));
    }
    let n = &s.normalizer;
    let (meaning, plan, no_plan) = if let Some(ttl) =
        s.ttl_seconds.filter(|_| last.expired_bytes > 0.0)
    {
        let cause = if ordered(w) {
            format!(
                "the {}-day TTL empties the regions a key that moves with time has stopped writing, and HBase never removes a region",
                days(ttl)
            )
        } else {
            format!(
                "the {}-day TTL empties regions no write refills, and HBase never removes a region",
                days(ttl)
            )
        };
        let gate = if !n.enabled {
            "; with the normalizer off (NORMALIZATION_ENABLED is false by default) they never merge"
                .to_string()
        } else if !n.merge_enabled {
            "; the normalizer's merges are off (hbase.normalizer.merge.enabled), so they never merge".to_string()
        } else if n.merge_min_region_size_mb > 0 {
            format!(
                "; the normalizer is on, but hbase.normalizer.merge.min_region_size.mb = {} (as hbase-default.xml ships it) keeps 0 MB regions out of every merge",
                n.merge_min_region_size_mb
            )
        } else {
            "; the normalizer merges them once 3 days old, so those left are young or in runs too short to merge".to_string()
        };
        let plan = merge_plan(s, w);
        let no_plan = plan.is_none().then(|| {
            "The normalizer already merges 0 MB regions: no setting here does more.".to_string()
        });
        (
            format!("{cause}{gate}: each is a region the master tracks, a server opens and the balancer moves."),
            plan,
            no_plan,
        )
    } else if ordered(w) {
        let plan = salt_plan(s, w, s.servers.max(2) as usize);
        let meaning = "the key moves with time, so regions pre-split ahead of or behind the \
                       writes never take one: they hold no byte and cost a region each."
            .to_string();
        match plan {
            Ok(p) => (meaning, Some(p), None),
            Err(e) => (meaning, None, Some(e)),
        }
    } else {
        let regions = usize::try_from(last.regions).unwrap_or(2);
        (
            "their key ranges hold no keys of this design (split points made for another key, or for text the key never writes), so they never take a write and cost a region each.".to_string(),
            presplit_plan(s, w, regions.saturating_sub(last.empty_regions as usize).max(2)),
            None,
        )
    };
    Some(Found {
        kind: FindingKind::EmptyRegions,
        month,
        figure,
        meaning,
        plan,
        no_plan,
    })
}

pub(super) fn hot_server(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let month = first_month(FindingKind::HotServer, s, r)?;
    let start = r.months.iter().find(|m| m.month == month)?;
    let lanes = w.keys.lanes();
    let one = start.hottest_server_write_share >= 0.995;
    let figure = if one {
        format!(
            "one server takes every write from month {month}, of {} servers",
            s.servers
        )
    } else {
        format!(
            "one server takes {} % of each hour's writes from month {month} (even on {} servers: {} %)",
            pct(start.hottest_server_write_share),
            s.servers,
            pct(1.0 / f64::from(s.servers))
        )
    };
    let meaning = if ordered(w) && lanes < s.servers as usize {
        let lead = if lanes == 1 {
            "the key leads with time, so each hour's writes fall at the key space's end: one region, on one server".to_string()
        } else {
            format!(
                "each of the key's {lanes} prefixes is written in time order, so each hour's writes fall in {lanes} regions, on {lanes} servers at most"
            )
        };
        format!(
            "{lead}; the table writes at that server's speed, and the balancer evens region counts, not writes (a region's daughters stay on its server)."
        )
    } else {
        let top = w.keys.weights.iter().copied().fold(0.0, f64::max)
            / w.keys.weights.iter().sum::<f64>().max(f64::MIN_POSITIVE);
        format!(
            "a few key ranges take most writes (the busiest of {lanes} takes {} %), and the balancer evens region counts, not writes: the table writes at that server's speed.",
            pct(top)
        )
    };
    let (plan, no_plan) = match salt_plan(s, w, s.servers as usize) {
        Ok(p) => (Some(p), None),
        Err(e) => (None, Some(e)),
    };
    Some(Found {
        kind: FindingKind::HotServer,
        month,
        figure,
        meaning,
        plan,
        no_plan,
    })
}

pub(super) fn regions_per_server(
    s: &LifeSettings,
    w: &LifeWorkload,
    r: &LifeReport,
) -> Option<Found> {
    let month = first_month(FindingKind::RegionsPerServer, s, r)?;
    let start = r.months.iter().find(|m| m.month == month)?;
    let last = r.months.last()?;
    let figure = format!(
        "a server passes 200 regions in month {month} ({} at most at month {})",
        fullest(last),
        last.month
    );
    let mostly_empty = 2 * last.empty_regions > last.regions;
    let (meaning, plan) = if mostly_empty && s.ttl_seconds.is_some() {
        (
            "most of them are empty (the finding above): each holds a memstore slot, a place in hbase:meta and the master's memory, and slows a server's restart.".to_string(),
            merge_plan(s, w),
        )
    } else {
        let plan = split_size_plan(s, w).or_else(|| {
            let want = (f64::from(last.regions) / REGIONS_PER_SERVER_AIM).ceil() as u32;
            servers_plan(s, w, want)
        });
        (
            format!(
                "the reference guide keeps a server to 20–200 regions: each holds memstores sharing the heap, a place in hbase:meta, and its share of a restart ({} regions in month {month}).",
                start.regions
            ),
            plan,
        )
    };
    let no_plan = plan
        .is_none()
        .then(|| "No setting the simulator models does better.".to_string());
    Some(Found {
        kind: FindingKind::RegionsPerServer,
        month,
        figure,
        meaning,
        plan,
        no_plan,
    })
}

pub(super) fn memstore_bound(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let month = first_month(FindingKind::MemstoreBound, s, r)?;
    let start = r.months.iter().find(|m| m.month == month)?;
    let bound = s.memstore_bound();
    let figure = format!(
        "{} regions written at once on one server in month {month}, past the memstore bound of {}",
        start.max_regions_written_at_once,
        fixed(bound, 0)
    );
    let meaning = "more regions take writes on a server than its memstores hold at the flush size (heap × hbase.regionserver.global.memstore.size / flush size): HBase flushes them early into small files, which costs compactions, or blocks writes.".to_string();
    let most = r
        .months
        .iter()
        .map(|m| m.max_regions_written_at_once)
        .max()
        .unwrap_or(0);
    // Aim at 80 % of the bound: the balancer evens region counts within its 20 % slop.
    let want = (f64::from(s.servers) * f64::from(most) / (0.8 * bound).max(1.0)).ceil() as u32;
    let plan = servers_plan(s, w, want.max(s.servers + 1)).or_else(|| split_size_plan(s, w));
    let no_plan = plan
        .is_none()
        .then(|| "No setting the simulator models does better.".to_string());
    Some(Found {
        kind: FindingKind::MemstoreBound,
        month,
        figure,
        meaning,
        plan,
        no_plan,
    })
}

pub(super) fn large_region(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let month = first_month(FindingKind::LargeRegion, s, r)?;
    let start = r.months.iter().find(|m| m.month == month)?;
    let figure = format!(
        "a region passes 20 GiB in month {month} ({} GiB)",
        fixed(start.largest_region_bytes / GIB, 1)
    );
    let limited = r.crossings.split_limit.is_some_and(|m| m <= month);
    let meaning = if limited {
        "its server reached hbase.regionserver.regionSplitLimit, so its regions stop splitting: a region that large compacts for hours and moves slowly.".to_string()
    } else {
        format!(
            "the table splits later than the reference guide's 20 GiB ({} at {} GiB): a region that large compacts for hours and moves slowly.",
            s.policy.class_name(),
            fixed(s.split.desired_max_file_size() as f64 / GIB, 1)
        )
    };
    let mostly_empty = r
        .months
        .last()
        .is_some_and(|m| 2 * m.empty_regions > m.regions && s.ttl_seconds.is_some());
    let plan = if limited && mostly_empty {
        merge_plan(s, w)
    } else if limited {
        let want = (f64::from(r.months.last()?.regions) / REGIONS_PER_SERVER_AIM).ceil() as u32;
        servers_plan(s, w, want)
    } else {
        split_size_plan(s, w)
    };
    let no_plan = plan
        .is_none()
        .then(|| "No setting the simulator models does better.".to_string());
    Some(Found {
        kind: FindingKind::LargeRegion,
        month,
        figure,
        meaning,
        plan,
        no_plan,
    })
}

pub(super) fn expired_on_disk(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let ttl = s.ttl_seconds?;
    if s.compaction.policy == CompactionPolicy::Fifo {
        return None;
    }
    let month = first_month(FindingKind::ExpiredOnDisk, s, r)?;
    let start = r.months.iter().find(|m| m.month == month)?;
    let figure = format!(
        "{} GiB of expired cells on disk at month {month} ({} % of the disk)",
        fixed(expired_on_disk_bytes(start) / GIB, 1),
        pct(expired_on_disk_bytes(start) / start.on_disk_bytes.max(1.0))
    );
    let meaning = format!(
        "ExploringCompactionPolicy drops cells past the {}-day TTL only when it rewrites their file: a region no longer written keeps them until a major compaction, 3.5 to 10.5 days later, and each such major rewrites the region.",
        days(ttl)
    );
    let mut settings = s.clone();
    settings.compaction.policy = CompactionPolicy::Fifo;
    let plan = Plan {
        with: "with FIFO compaction".into(),
        change: "use FIFOCompactionPolicy (hbase.hstore.defaultengine.compactionpolicy.class) \
                 with the TTL: it deletes a file whose cells have all expired and never \
                 rewrites one (for rows written once, never updated)"
            .into(),
        options: Some(LifeOptions {
            compaction: Some(CompactionOptions {
                policy: Some(CompactionPolicy::Fifo),
                ..CompactionOptions::default()
            }),
            ..LifeOptions::default()
        }),
        settings,
        workload: w.clone(),
    };
    Some(Found {
        kind: FindingKind::ExpiredOnDisk,
        month,
        figure,
        meaning,
        plan: Some(plan),
        no_plan: None,
    })
}

pub(super) fn split_storms(s: &LifeSettings, w: &LifeWorkload, r: &LifeReport) -> Option<Found> {
    let month = first_month(FindingKind::SplitStorms, s, r)?;
    let last = r.months.last()?;
    let days = storm_days(s, r);
    let most = days.iter().map(|d| d.1).max().unwrap_or(0);
    let figure = format!(
        "split storms: on {} days a tenth of the regions or more (at least {} a server) split at once (the most: {most} in a day), from month {month}",
        days.len(),
        MIN_STORM_SPLITS
    );
    let meaning = "regions that grow alike split alike: each wave rewrites the daughters' references at once, so the I/O and the regions' moments offline come together.".to_string();
    let plan = if ordered(w) {
        None
    } else {
        presplit_plan(s, w, usize::try_from(last.regions).unwrap_or(2))
    };
    let no_plan = plan.is_none().then(|| {
        "A pre-split cannot spread a key that moves with time; the splits follow its writes."
            .to_string()
    });
    Some(Found {
        kind: FindingKind::SplitStorms,
        month,
        figure,
        meaning,
        plan,
        no_plan,
    })
}
