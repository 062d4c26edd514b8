//! Auto-split policies (HBase's `RegionSplitPolicy` ports) inside the analyzer: where each
//! policy splits, how large the parents were, and what splitting does to a sequential key.

use rowkey_lab::analyze::{Analyzer, AnalyzerOptions};
use rowkey_lab::hbase::bytes::to_bytes_long;
use rowkey_lab::hbase::policy::{self, SplitPolicy};
use rowkey_lab::region::Assignment;

use super::common::{auto, opts, random_keys, T0};
use crate::cases::Failures;

#[test]
fn constant_size_auto_split_respects_the_limit() {
    let (max, flush) = (1 << 20, 1 << 16);
    let o = AnalyzerOptions {
        auto_split: Some(auto(SplitPolicy::ConstantSize, max, flush)),
        ..opts(10, 1000)
    };
    let mut a = Analyzer::new(vec![], o).unwrap();
    random_keys(&mut a, 10_000, 1000); // 10 MB
    let r = a.finish();
    // Each region ends between about half the limit and the limit: 10 MB / 1 MB .. / 0.5 MB.
    assert!(
        r.regions.len() >= 10 && r.regions.len() <= 24,
        "{}",
        r.regions.len()
    );
    assert_eq!(r.splits.len(), r.regions.len() - 1);
    let mut failures = Failures::new(format!("constant-size splits at {max} bytes"));
    for (i, s) in r.splits.iter().enumerate() {
        let case = format!("split {i} at {}", s.split_key);
        failures.eq(format!("{case}: size to check"), &s.size_to_check, &max);
        // The flush that takes the store files over the limit splits: the parent is over it
        // by at most one flush (64 KiB and the write that reached it, 1,000 + 22 bytes).
        let most = max + flush + 1022;
        failures.check(
            format!("{case}: parent size"),
            s.parent_bytes as i64 > max && s.parent_bytes as i64 <= most,
            format!("expected in ({max}, {most}], actual {}", s.parent_bytes),
        );
    }
    // A region's store files stay within the limit (past it, it splits); its memstore holds
    // less than a flush: its written bytes are within both.
    for (i, reg) in r.regions.iter().enumerate() {
        failures.check(
            format!("region {i} from {}: size", reg.start_key),
            reg.bytes as i64 <= max + flush,
            format!("expected at most {}, actual {}", max + flush, reg.bytes),
        );
    }
    // Keys are uniform, so the split points keep the regions in order and non-overlapping.
    for (i, pair) in r.regions.windows(2).enumerate() {
        failures.eq(
            format!("regions {i} and {}: adjacent", i + 1),
            &pair[0].end_key_hex,
            &pair[1].start_key_hex,
        );
        failures.check(
            format!("region {}: created by a split", i + 1),
            pair[1].created_at_ms.is_some(),
            "no creation time",
        );
    }
    failures.finish();
    assert_eq!(r.writes, 10_000);
    let total: u64 = r.regions.iter().map(|x| x.writes).sum();
    assert_eq!(total, 10_000);
}

#[test]
fn increasing_to_upper_bound_uses_the_cube_of_regions_on_the_server() {
    let max = 64 << 20;
    let flush = 1 << 16; // initial size = 2 × flush = 128 KiB
    let o = AnalyzerOptions {
        auto_split: Some(auto(SplitPolicy::IncreasingToUpperBound, max, flush)),
        ..opts(10, 1000)
    };
    let mut a = Analyzer::new(vec![], o).unwrap();
    random_keys(&mut a, 20_000, 1000);
    let r = a.finish();
    assert!(r.regions.len() > 1);
    let initial = 2 * flush;
    let mut failures = Failures::new("increasing-to-upper-bound splits");
    for (i, s) in r.splits.iter().enumerate() {
        let case = format!(
            "split {i} at {} ({} regions on the server)",
            s.split_key, s.regions_on_server
        );
        let expected = policy::increasing_size_to_check(max, initial, s.regions_on_server as i32);
        failures.eq(
            format!("{case}: size to check"),
            &s.size_to_check,
            &expected,
        );
        failures.check(
            format!("{case}: parent size"),
            s.parent_bytes as i64 > expected,
            format!("expected above {expected}, actual {}", s.parent_bytes),
        );
    }
    failures.finish();
    // The first split happens at the first region's limit: initial × 1³.
    assert_eq!(r.splits[0].size_to_check, initial);
}

#[test]
fn key_prefix_policy_cuts_split_points() {
    let o = AnalyzerOptions {
        auto_split: Some(auto(
            SplitPolicy::KeyPrefix { prefix_length: 2 },
            1 << 18,
            1 << 14,
        )),
        ..opts(4, 1000)
    };
    let mut a = Analyzer::new(vec![], o).unwrap();
    random_keys(&mut a, 5000, 1000);
    let r = a.finish();
    assert!(r.splits.len() > 1);
    // The mid block's row is a shortened separator (one byte when the sampled rows around
    // it differ in their first byte by more than one), which the policy cuts to 2 bytes.
    let mut failures = Failures::new("key-prefix split points (prefix length 2)");
    for (i, s) in r.splits.iter().enumerate() {
        failures.check(
            format!("split {i} at {}: key length", s.split_key),
            (1..=2).contains(&s.split_key.len()),
            format!("expected 1 or 2 bytes, actual {}", s.split_key.len()),
        );
    }
    failures.finish();
}

#[test]
fn sequential_key_with_auto_split_keeps_one_hot_region() {
    let o = AnalyzerOptions {
        auto_split: Some(auto(SplitPolicy::ConstantSize, 1 << 20, 1 << 16)),
        region_servers: 3,
        assignment: Assignment::Balanced,
        ..opts(20, 1000)
    };
    let mut a = Analyzer::new(vec![], o).unwrap();
    for i in 0..20_000i64 {
        a.push(&to_bytes_long(i), T0 + i, 1000);
    }
    let r = a.finish();
    assert!(r.regions.len() > 10);
    // HBase splits at the middle of the largest store file, here the compacted file of the
    // region's older rows, so the newest daughter keeps the newer files and the upper half of
    // that one: more than half its parent. It splits again after at least 4 more flushes of 65
    // writes (a quarter of 1 MiB in 1,022-byte KeyValues): at most four splits per 1000-write
    // window, so each window's writes land in at most 5 regions, while the table has more
    // than 20 MB / 1 MB = 20 regions (about 20 MB / 0.4 MB = 50).
    assert!(r.regions.len() >= 30, "{}", r.regions.len());
    for pair in r.splits.windows(2) {
        assert!(pair[1].time_ms - pair[0].time_ms >= 260, "{pair:?}");
    }
    // Each window's writes go to one region and the two a split makes of it: an effective
    // parallelism (1 / Σ share²) of at most 3 on average.
    assert!(
        r.metrics.mean_effective_parallelism <= 3.0,
        "{}",
        r.metrics.mean_effective_parallelism
    );
    // A split divides its parent's past counts between the daughters by the parent's key
    // sample (its keys' windows), so some of a window's writes can be credited to a region
    // that did not take them: the hot region keeps more than half of each parent, and with it
    // older windows its sample holds few rows of. The window's five busiest regions take
    // most of its writes, and nearly all of them over the run.
    let mut top_sum = 0u64;
    for w in 0..r.matrix.cols {
        let mut col: Vec<u32> = (0..r.matrix.rows)
            .map(|g| r.matrix.cells[g * r.matrix.cols + w])
            .collect();
        col.sort_unstable_by(|a, b| b.cmp(a));
        let total: u32 = col.iter().sum();
        let top: u32 = col.iter().take(5).sum();
        top_sum += u64::from(top);
        assert!(
            f64::from(top) >= 0.85 * f64::from(total),
            "window {w}: {col:?}"
        );
    }
    assert!(top_sum as f64 >= 0.95 * 20_000.0, "{top_sum}");
    assert_eq!(r.servers.len(), 3);
    let on_servers: usize = r.servers.iter().map(|s| s.regions).sum();
    assert_eq!(on_servers, r.regions.len());
    // Balanced by count: servers differ by at most one region... plus one per split.
    let max = r.servers.iter().map(|s| s.regions).max().unwrap();
    let min = r.servers.iter().map(|s| s.regions).min().unwrap();
    assert!(max - min <= 2);
}

#[test]
fn a_run_too_small_to_split_says_why() {
    // HBase's defaults (10 GiB regions, 128 MiB flush: the first region splits at 256 MiB under
    // the Stepping policy) and 36,000 writes of about 100 bytes: one region all run long.
    let mut doc = rowkey_lab::design::presets::get("seed000-telecom-time-first").unwrap();
    let regions = doc.regions.get_or_insert_with(Default::default);
    regions.presplit = rowkey_lab::region::PreSplit::None;
    regions.auto_split = Some(rowkey_lab::region::AutoSplit::default());
    let r = rowkey_lab::analyze::analyze(&doc, &Default::default()).unwrap();
    assert!(r.splits.is_empty());
    let line = r
        .diagnosis
        .iter()
        .find(|l| l.contains("never split"))
        .unwrap_or_else(|| panic!("{:#?}", r.diagnosis));
    assert!(line.contains("256 MiB"), "{line}");
    assert!(line.contains(&format!("({} writes)", r.writes)), "{line}");
    // the fix offered: regions of an eighth of the bytes written (whole KiB), flushes of a
    // quarter of that; with them the same workload splits
    let fix = r.split_sizes.unwrap_or_else(|| panic!("no sizes offered"));
    assert_eq!(fix.max_file_size, r.bytes / 8 / 1024 * 1024);
    assert_eq!(fix.memstore_flush_size, fix.max_file_size / 4);
    let mut fixed = doc.clone();
    let auto = fixed
        .regions
        .as_mut()
        .and_then(|g| g.auto_split.as_mut())
        .unwrap();
    auto.config.max_file_size = fix.max_file_size as i64;
    auto.config.memstore_flush_size = fix.memstore_flush_size as i64;
    let f = rowkey_lab::analyze::analyze(&fixed, &Default::default()).unwrap();
    assert!(f.splits.len() >= 4, "{} splits", f.splits.len());
    assert_eq!(f.split_sizes, None);
    // a run that does split says nothing of the kind
    regions_small(&mut doc);
    let r = rowkey_lab::analyze::analyze(&doc, &Default::default()).unwrap();
    assert!(!r.splits.is_empty());
    assert_eq!(r.split_sizes, None);
    assert!(
        !r.diagnosis.iter().any(|l| l.contains("never split")),
        "{:#?}",
        r.diagnosis
    );
}

/// Auto-split at 500 kB with a 100 kB flush.
fn regions_small(doc: &mut rowkey_lab::design::DesignDocument) {
    let regions = doc.regions.get_or_insert_with(Default::default);
    regions.auto_split = Some(super::common::auto(
        rowkey_lab::hbase::policy::SplitPolicy::Stepping,
        500_000,
        100_000,
    ));
}
