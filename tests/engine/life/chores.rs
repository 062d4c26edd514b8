//! Flushes as HBase makes them and the master's chores at their own periods (issue 68), each
//! expectation derived by hand from the rules: `MemStoreFlusher` flushes a region each time its
//! memstore reaches the flush size, then asks for a compaction when the store holds
//! `hbase.hstore.compaction.min` files, and `ExploringCompactionPolicy` picks the contiguous
//! window of 3 to 10 files, each at most 1.2 × the rest of the window, with the most files, then
//! the fewest bytes; `SimpleRegionNormalizer` runs every `hbase.normalizer.period` (300 s) and
//! plans a split for a region over twice the table's average, the average taken over every
//! region of the table, empty ones included (`getAverageRegionSizeMb`: total MB / regionCount).

use rowkey_lab::hbase::policy::SplitPolicy;
use rowkey_lab::life::*;

const MIB: f64 = (1u64 << 20) as f64;
const FLUSH: f64 = 128.0 * MIB;
const CELL: f64 = 1024.0;

/// One server, one region that never splits by size (ConstantSize at 1 TiB), no jitter.
fn one_region(months: u32) -> LifeSettings {
    let mut s = LifeSettings {
        months,
        servers: 1,
        policy: SplitPolicy::ConstantSize,
        ..LifeSettings::default()
    };
    s.split.max_file_size = 1 << 40;
    s.split.jitter = 0.0;
    s
}

/// Writes of `CELL` bytes a second that fill `flushes` flush sizes an hour.
fn flushes_an_hour(flushes: f64) -> f64 {
    flushes * FLUSH / 3600.0 / CELL
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

#[test]
fn a_region_written_at_sixteen_flush_sizes_an_hour_makes_sixteen_files_an_hour() {
    let s = one_region(1);
    let w = LifeWorkload {
        writes_per_second: flushes_an_hour(16.0),
        cell_bytes: CELL,
        keys: KeyModel::uniform(1),
        presplit: vec![],
    };
    let (r, events) = simulate_events(&s, &w).unwrap();
    // A flush each 3600 / 16 = 225 s, each one file of the flush size.
    let flushes: Vec<_> = events
        .iter()
        .filter(|e| e.kind == LifeEventKind::Flush)
        .collect();
    for (j, e) in flushes.iter().take(16 * 24).enumerate() {
        assert!(
            close(e.seconds, 225.0 * (j + 1) as f64),
            "flush {j} at {} s",
            e.seconds
        );
        assert!(e.files == 1 && close(e.bytes, FLUSH), "{e:?}");
    }
    // 16 an hour, 720 hours: 11,520 flushes in the month (one more or less at the month's
    // edge when the last lands a hair past it).
    assert!(
        r.months[0].flushes.abs_diff(16 * 720) <= 1,
        "{}",
        r.months[0].flushes
    );
    // Exploring over files of one flush size F (oldest first), after each flush:
    //   3 files [F F F]: in ratio (F ≤ 1.2 × 2F) → one file of 3F;
    //   5 files [3F F F]: 3F > 1.2 × 2F → nothing; 6 [3F F F F]: the 4-file window is in ratio
    //   (3F ≤ 1.2 × 3F) and beats [F F F] by its count → 6F;
    //   8 [6F F F] nothing; 9 [6F F F F]: 6F > 1.2 × 3F, so [F F F] → [6F 3F];
    //   10 [6F 3F F]: 6F > 1.2 × 4F → nothing.
    let first_hour: Vec<_> = events
        .iter()
        .filter(|e| e.seconds <= 225.0 * 10.0 + 1e-6)
        .filter(|e| {
            matches!(
                e.kind,
                LifeEventKind::MinorCompaction | LifeEventKind::MajorCompaction
            )
        })
        .map(|e| {
            (
                e.kind,
                (e.seconds / 225.0).round() as u32,
                e.files,
                (e.bytes / FLUSH).round() as u32,
            )
        })
        .collect();
    use LifeEventKind::MinorCompaction as Minor;
    assert_eq!(
        first_hour,
        vec![(Minor, 3, 3, 3), (Minor, 6, 4, 6), (Minor, 9, 3, 3)]
    );
}

/// Four regions (one per lane), only the first written, at a flush size every 420 s (7 min).
fn first_of_four(period: f64) -> Vec<LifeEvent> {
    let mut s = one_region(1);
    s.normalizer.enabled = true;
    s.normalizer.period_seconds = period;
    let w = LifeWorkload {
        writes_per_second: FLUSH / 420.0 / CELL,
        cell_bytes: CELL,
        keys: KeyModel {
            weights: vec![1.0, 0.0, 0.0, 0.0],
            order: LaneOrder::Spread,
            prefix_lanes: false,
        },
        presplit: LifeWorkload::presplit_by_lane(4),
    };
    simulate_events(&s, &w).unwrap().1
}

#[test]
fn the_normalizer_splits_at_its_first_look_past_twice_the_average_of_every_region() {
    // The first flush, at 420 s, makes region 0 128 MB; the table's average over its four
    // regions (three empty) is 32 MB, and 128 > 2 × 32. (Over the written regions only, the
    // average would be 128 and nothing would split.) The normalizer looks at 300 s (nothing on
    // disk yet) and at 600 s: the split is at 600 s.
    let events = first_of_four(300.0);
    let first = events
        .iter()
        .find(|e| e.kind == LifeEventKind::NormalizerSplit)
        .unwrap();
    assert!(close(first.seconds, 600.0), "{first:?}");
    let flush = events
        .iter()
        .find(|e| e.kind == LifeEventKind::Flush)
        .unwrap();
    assert!(close(flush.seconds, 420.0), "{flush:?}");
    // Looking hourly (hbase.normalizer.period = 3,600,000 ms), the split waits for 3600 s.
    let hourly = first_of_four(3600.0);
    let first = hourly
        .iter()
        .find(|e| e.kind == LifeEventKind::NormalizerSplit)
        .unwrap();
    assert!(close(first.seconds, 3600.0), "{first:?}");
}

#[test]
fn a_split_s_daughters_compact_their_references_as_they_open() {
    // `HRegionServer.postOpenDeployTasks` requests a compaction for a region that opens holding
    // references, so the normalizer's split at 600 s is followed at 600 s by both daughters'
    // compactions of every file (a store with references compacts all of them), not at the
    // next hour's start (before, they waited for 3,600 s). The next look, at 900 s, splits
    // the daughters again.
    let events = first_of_four(300.0);
    let split = events
        .iter()
        .find(|e| e.kind == LifeEventKind::Split)
        .unwrap();
    assert!(close(split.seconds, 600.0), "{split:?}");
    let compactions: Vec<_> = events
        .iter()
        .filter(|e| e.kind == LifeEventKind::MajorCompaction && e.seconds < 900.0)
        .collect();
    assert_eq!(compactions.len(), 2, "{compactions:?}");
    for c in &compactions {
        assert!(close(c.seconds, 600.0) && c.region != split.region, "{c:?}");
    }
}

#[test]
fn each_chore_runs_at_its_own_period() {
    // Two servers so the balancer runs; the checker every 10,000 s. In the first day: the
    // checker at 10,000 s × k (8 runs by 86,400 s), the balancer's looks on multiples of 300 s.
    let mut s = one_region(1);
    s.servers = 2;
    let w = LifeWorkload {
        writes_per_second: flushes_an_hour(2.0),
        cell_bytes: CELL,
        keys: KeyModel::uniform(4),
        presplit: LifeWorkload::presplit_by_lane(4),
    };
    let (_, events) = simulate_events(&s, &w).unwrap();
    let checker: Vec<f64> = events
        .iter()
        .filter(|e| e.kind == LifeEventKind::CheckerLook && e.seconds < 86_400.0)
        .map(|e| e.seconds)
        .collect();
    assert_eq!(checker.len(), 8);
    for (k, t) in checker.iter().enumerate() {
        assert!(close(*t, 10_000.0 * (k + 1) as f64), "{t}");
    }
    let balancer: Vec<f64> = events
        .iter()
        .filter(|e| e.kind == LifeEventKind::BalancerLook)
        .map(|e| e.seconds)
        .collect();
    assert!(!balancer.is_empty());
    for t in &balancer {
        assert!(close((t / 300.0).round() * 300.0, *t), "{t}");
    }
}

#[test]
fn chore_periods_are_checked() {
    let w = LifeWorkload {
        writes_per_second: 10.0,
        cell_bytes: CELL,
        keys: KeyModel::uniform(1),
        presplit: vec![],
    };
    let mut s = one_region(1);
    s.normalizer.period_seconds = -5.0;
    let e = simulate(&s, &w).unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("/normalizer/periodSeconds"),
        "{e}"
    );
    let mut s = one_region(1);
    s.balancer.period_seconds = f64::NAN;
    let e = simulate(&s, &w).unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("/balancer/periodSeconds"),
        "{e}"
    );
    let mut s = one_region(1);
    s.compaction.ratio = 0.0;
    let e = simulate(&s, &w).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("/compaction/ratio"), "{e}");
}
