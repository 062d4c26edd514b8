//! Scenarios whose expected figures are derived by hand from HBase's rules (research file
//! part A), not read from the program: a salted key's synchronised split waves, Stepping
//! against IncreasingToUpperBound, a time-led key under a TTL with and without the
//! normalizer, a hot prefix under the balancer.

use rowkey_lab::hbase::policy::SplitPolicy;
use rowkey_lab::life::*;

const GIB: f64 = (1u64 << 30) as f64;
const CELL: f64 = 1024.0;

/// Writes per second of `CELL`-byte cells that put `gib_per_hour` GiB an hour in the table.
fn rate(gib_per_hour: f64) -> f64 {
    gib_per_hour * GIB / 3600.0 / CELL
}

fn no_jitter(months: u32, servers: u32) -> LifeSettings {
    let mut s = LifeSettings {
        months,
        servers,
        ..LifeSettings::default()
    };
    s.split.jitter = 0.0;
    s
}

fn splits_by_day(r: &LifeReport) -> Vec<u32> {
    r.months
        .iter()
        .flat_map(|m| m.splits_by_day.iter().copied())
        .collect()
}

/// A salt of 8 buckets over random ids, pre-split one region per bucket on 8 servers,
/// 0.3 GiB an hour per bucket, Stepping without jitter.
fn salted(policy: SplitPolicy, months: u32) -> LifeReport {
    let s = LifeSettings {
        policy,
        ..no_jitter(months, 8)
    };
    let w = LifeWorkload {
        writes_per_second: rate(8.0 * 0.3),
        cell_bytes: CELL,
        keys: KeyModel::uniform(8),
        presplit: LifeWorkload::presplit_by_lane(8),
    };
    simulate(&s, &w).unwrap()
}

/// The split waves of one bucket by hand: a region created with `size` GiB and written
/// `per_hour` GiB an hour splits at the first hour its store files pass the limit (checked
/// after each hourly flush); its two daughters start at half that, each written half as fast.
/// Returns (step, splits of the 8 buckets) per wave.
fn stepping_waves(steps: u32) -> Vec<(u32, u32)> {
    let (initial, desired) = (0.25, 10.0); // GiB: 2 × the 128 MiB flush size, max file size
    let mut waves = Vec::new();
    // Generation 0: one region per bucket, the table's only one on its server (n = 1).
    let (mut born, mut size, mut per_hour, mut limit, mut regions) =
        (-1i64, 0.0, 0.3, initial, 8u32);
    loop {
        // k = hours of writes until the size passes the limit (strictly).
        let mut k = 1i64;
        while size + per_hour * k as f64 <= limit {
            k += 1;
        }
        let step = born + k;
        if step >= i64::from(steps) {
            return waves;
        }
        waves.push((step as u32, regions));
        size = (size + per_hour * k as f64) / 2.0;
        per_hour /= 2.0;
        born = step;
        regions *= 2;
        limit = desired; // n ≥ 2 from now on
    }
}

#[test]
fn a_salted_key_under_stepping_doubles_in_synchronised_waves() {
    let r = salted(SplitPolicy::Stepping, 2);
    let days = splits_by_day(&r);
    let mut want = vec![0u32; 60];
    for (step, n) in stepping_waves(60 * 24) {
        want[(step / 24) as usize] += n;
    }
    // Days 0, 2, 5, 11, 22 and 44: 8, 16, 32, 64, 128, 256 splits.
    assert_eq!(
        want.iter()
            .enumerate()
            .filter(|d| *d.1 > 0)
            .map(|(d, n)| (d, *n))
            .collect::<Vec<_>>(),
        vec![(0, 8), (2, 16), (5, 32), (11, 64), (22, 128), (44, 256)]
    );
    assert_eq!(days, want);
    // Each wave's day is busy: its splits alone pass a tenth of the regions after it (8 of 16,
    // 16 of 32, … 256 of 512). A busy day is one such day, never fewer than 4 events.
    let busy: Vec<bool> = r
        .months
        .iter()
        .flat_map(|m| m.busy_by_day.iter().copied())
        .collect();
    assert_eq!(busy.len(), 60);
    for d in [0, 2, 5, 11, 22, 44] {
        assert!(busy[d], "day {d}: a wave of splits, not marked busy");
    }
    for m in &r.months {
        let marked = m.busy_by_day.iter().filter(|b| **b).count();
        assert_eq!(marked as u32, m.busy_days, "month {}", m.month);
        for (d, b) in m.busy_by_day.iter().enumerate() {
            let events = m.splits_by_day[d] + m.major_compactions_by_day[d];
            assert!(
                !*b || events >= 4,
                "month {} day {d}: busy with {events} events",
                m.month
            );
        }
    }
    // Month ends: 8 × 2^5 regions after day 22's wave, 8 × 2^6 after day 44's.
    assert_eq!(r.months[0].regions, 256);
    assert_eq!(r.months[1].regions, 512);
    // Every region is written every hour: 32 per server in month 1, 64 in month 2, which
    // passes the memstore bound (16 GiB × 0.4 / 128 MiB = 51.2).
    assert_eq!(r.months[0].max_regions_written_at_once, 32);
    assert_eq!(r.months[1].max_regions_written_at_once, 64);
    assert_eq!(r.crossings.memstore_bound, Some(2));
    // Even counts, equal writes: the balancer never needs to run.
    assert!(r
        .months
        .iter()
        .all(|m| m.moves == 0 && m.balancer_runs == 0));
    for m in &r.months {
        assert!(m.servers.iter().all(|s| s.regions == m.regions / 8));
    }
}

#[test]
fn the_first_day_tells_stepping_from_increasing_to_upper_bound() {
    // Both split each bucket's first region at the first flush (0.3 > 0.25 GiB). Then
    // Stepping waits for 10 GiB (day 2), while IncreasingToUpperBound, with n = 2, splits a
    // daughter at 2 GiB: 0.15 + 0.15 k > 2 first at k = 13 hours (step 13, day 0). That split
    // makes n = 3, so the other daughter's limit becomes 6.75 GiB and it waits.
    let stepping = splits_by_day(&salted(SplitPolicy::Stepping, 1));
    let itub = splits_by_day(&salted(SplitPolicy::IncreasingToUpperBound, 1));
    assert_eq!(stepping[0], 8);
    assert_eq!(itub[0], 16);
    assert_eq!(stepping[1], 0);
    assert!(itub[1] > 0, "the 6.75 GiB regions of day 1: {itub:?}");
}

/// One lane written in time order, 1 GiB an hour, a 30-day TTL, one server.
fn time_led(normalizer: NormalizerSettings) -> LifeReport {
    time_led_events(normalizer).0
}

/// [`time_led`] with its events.
fn time_led_events(normalizer: NormalizerSettings) -> (LifeReport, Vec<LifeEvent>) {
    let mut s = LifeSettings {
        ttl_seconds: Some(30 * 86_400),
        normalizer,
        ..no_jitter(4, 1)
    };
    // No minor compactions: each region's store is its compacted references plus its flushes.
    s.compaction.min_files = 100;
    s.compaction.max_files = 100;
    let w = LifeWorkload {
        writes_per_second: rate(1.0),
        cell_bytes: CELL,
        keys: KeyModel::time_led(),
        presplit: vec![],
    };
    simulate_events(&s, &w).unwrap()
}

#[test]
fn a_time_led_key_with_a_ttl_leaves_empty_regions_at_the_rate_its_bytes_give() {
    // Only the last region is written. It holds C GiB compacted (the references of its last
    // split) plus k hourly GiB, and splits at the middle of its largest file, C: the lower
    // daughter freezes with C/2, the upper one compacts to C/2 + k. In the steady state
    // C/2 = k (each frozen region holds one cycle's writes) and the split comes at the first
    // hour past 10 GiB: 10 < C + k = 3C/2 ≤ 11, so regions freeze at C/2 in (3.33, 3.67] GiB,
    // not at the 5 GiB a byte-median split would give.
    let r = time_led(NormalizerSettings::default());
    let per_month = |frozen: f64| 30.0 * 24.0 / frozen; // regions frozen a month at 1 GiB/h
    let (lo, hi) = (per_month(11.0 / 3.0), per_month(10.0 / 3.0));
    let grown = f64::from(r.months[3].regions - r.months[2].regions);
    assert!(
        grown >= lo - 1.0 && grown <= hi + 1.0,
        "{grown} not in [{lo}, {hi}]"
    );
    // Nothing expires in month 1 (the TTL is 30 days).
    assert_eq!(r.months[0].empty_regions, 0);
    // A frozen region empties at the first major compaction after its cells pass the TTL:
    // its oldest cell expiring triggers one (a single major-compacted file is recompacted only
    // then), which writes a new file; the next comes after the major period of 7 days ± 3.5.
    // So a region frozen at day d is empty from day d + 30 + [3.5, 10.5] on: over a month in
    // the steady state as many regions empty as froze, give or take the 7 days of jitter.
    let emptied = f64::from(r.months[3].empty_regions - r.months[2].empty_regions);
    let slack = 7.0 * 24.0 / (10.0 / 3.0);
    assert!(
        emptied >= lo - slack && emptied <= hi + slack,
        "{emptied} not in [{lo} - {slack}, {hi} + {slack}]"
    );
    // By month 4's end every region frozen before day 120 - 30 - 10.5 is empty, none frozen
    // after day 120 - 30 - 3.5: the empty count lies between those two counts.
    let m4 = &r.months[3];
    let frozen_by = |day: f64| day * 24.0 / (11.0 / 3.0);
    let frozen_by_hi = |day: f64| day * 24.0 / (10.0 / 3.0) + 10.0;
    assert!(f64::from(m4.empty_regions) >= frozen_by(120.0 - 30.0 - 10.5) - 10.0);
    assert!(f64::from(m4.empty_regions) <= frozen_by_hi(120.0 - 30.0 - 3.5));
    // Emptied regions stay regions: the count only grows.
    assert!(r.months.windows(2).all(|w| w[1].regions > w[0].regions));
    assert_eq!(m4.merges, 0);
    // One region written at a time, two in the hour of a split, three when the split's upper
    // daughter holds nearly all the bytes (the largest file, where the split cuts, is a small
    // old one low in the range), compacts at its next flush and splits again within the
    // hour: far under the memstore bound.
    assert!(r.months.iter().all(|m| m.max_regions_written_at_once <= 3));
    assert_eq!(r.crossings.memstore_bound, None);
}

#[test]
fn the_normalizer_merges_emptied_regions_only_below_its_minimum_size() {
    // hbase-default.xml's 1 MB minimum keeps 0 MB regions out of every merge: the table
    // empties as it does with the normalizer off. (A small region a split leaves, the lower
    // daughter of a cut at the middle of a small largest file, does merge with a neighbour
    // once 3 days old: a merge a month or so, never of an empty region.)
    let settings = NormalizerSettings {
        enabled: true,
        split_enabled: false,
        ..NormalizerSettings::default()
    };
    let (shipped, events) = time_led_events(settings);
    let off = time_led(NormalizerSettings::default());
    assert!(shipped.months[3].empty_regions > 300);
    for (on, off) in shipped.months.iter().zip(&off.months) {
        assert!(on.merges <= 3, "month {}: {} merges", on.month, on.merges);
        assert!(
            f64::from(on.empty_regions) >= 0.95 * f64::from(off.empty_regions),
            "month {}: {} empty with the normalizer, {} without",
            on.month,
            on.empty_regions,
            off.empty_regions
        );
    }
    // Every region a merge takes holds at least the minimum (1 MB): the merged bytes are at
    // least a megabyte per region merged.
    for e in events.iter().filter(|e| e.kind == LifeEventKind::Merge) {
        assert!(e.bytes >= f64::from(e.files) * (1u64 << 20) as f64, "{e:?}");
    }
    // At 0 (the Java constant), a run of adjacent empty regions merges once they are 3 days
    // old (they are over 30); the merged region is new, so it waits 3 days before merging
    // again. At most the regions emptied in the last 3 days (about 3 × 24 / 3.33 = 22) and
    // the merged ones still young stay empty.
    let merged = time_led(NormalizerSettings {
        enabled: true,
        split_enabled: false,
        merge_min_region_size_mb: 0,
        ..NormalizerSettings::default()
    });
    assert_eq!(
        merged.months[0].empty_regions, 0,
        "nothing is empty in month 1"
    );
    assert!(merged.months[2].merges > 0 && merged.months[3].merges > 0);
    assert!(
        merged.months[3].empty_regions <= 30,
        "{}",
        merged.months[3].empty_regions
    );
    assert!(merged.months[3].regions < shipped.months[3].regions / 2);
}

#[test]
fn a_hot_prefix_under_the_balancer_keeps_counts_within_slop_but_not_writes() {
    // 16 tenants, each written in time order; tenant 0 takes 90 % of 30 GiB a day. Its last
    // region splits every few hours and its daughters stay on its server; the balancer evens
    // region counts (within 20 % of the mean) and nothing else: whichever server holds the hot
    // region takes at least 90 % of the writes (its moves follow the store-file sizes).
    let s = LifeSettings {
        months: 3,
        servers: 4,
        ..LifeSettings::default()
    };
    let mut weights = vec![1.0; 16];
    weights[0] = 135.0;
    let w = LifeWorkload {
        writes_per_second: rate(30.0 / 24.0),
        cell_bytes: CELL,
        keys: KeyModel {
            weights,
            order: LaneOrder::Ascending,
            prefix_lanes: true,
        },
        presplit: LifeWorkload::presplit_by_lane(16),
    };
    let r = simulate(&s, &w).unwrap();
    for m in &r.months {
        let avg = f64::from(m.regions) / 4.0;
        let (floor, ceil) = ((avg * 0.8).floor() as u32, (avg * 1.2).ceil() as u32);
        for sv in &m.servers {
            assert!(
                sv.regions >= floor && sv.regions <= ceil,
                "month {}: {:?}",
                m.month,
                m.servers
            );
        }
        assert!(m.moves > 0);
        // Hour by hour one server takes tenant 0's 90 % (and its own tenants' share).
        let hot = m.hottest_server_write_share;
        assert!(
            hot >= 0.9 - 1e-9,
            "month {}: hottest server's share {hot}",
            m.month
        );
    }
}

#[test]
fn fifo_deletes_expired_files_within_a_chore_not_a_major_period() {
    // FIFO deletes a file once its newest cell passes the TTL, at the next compaction checker
    // run (10,000 s), with no major compaction. A region frozen at day d (its newest cell) is
    // then empty by d + 30 days + 2.8 h. At day 90, every region frozen before day 60 - 0.12
    // is empty, and none frozen after day 60: the empty count is month 2's region count (the
    // region still written at day 60 freezes after it), less the few frozen in its last hours.
    let mut s = LifeSettings {
        ttl_seconds: Some(30 * 86_400),
        ..no_jitter(3, 1)
    };
    s.compaction.policy = CompactionPolicy::Fifo;
    let w = LifeWorkload {
        writes_per_second: rate(1.0),
        cell_bytes: CELL,
        keys: KeyModel::time_led(),
        presplit: vec![],
    };
    let r = simulate(&s, &w).unwrap();
    let (regions_m2, empty_m3) = (r.months[1].regions, r.months[2].empty_regions);
    assert!(
        empty_m3 <= regions_m2 && empty_m3 + 3 >= regions_m2,
        "{empty_m3} of {regions_m2}"
    );
    // Nothing is ever rewritten by a major compaction but the daughters' references.
    let splits: u64 = r.months.iter().map(|m| u64::from(m.splits)).sum();
    let majors: u64 = r.months.iter().map(|m| m.major_compactions).sum();
    assert_eq!(majors, 2 * splits);
    assert_eq!(r.months.iter().map(|m| m.minor_compactions).sum::<u64>(), 0);
}
