//! Splits honour rows: HBase splits a region only between rows, at a middle row that is
//! neither its first nor its last, so a region whose data is one row cannot split, and the
//! report says so.

use std::collections::HashSet;

use rowkey_lab::analyze::{analyze, AnalyzeOptions, Analyzer, AnalyzerOptions};
use rowkey_lab::hbase::policy::{SplitConfig, SplitPolicy};
use rowkey_lab::region::AutoSplit;

use super::common::doc;

const T0: i64 = 1_630_972_800_000;

/// Auto-split at `max` bytes, one window per second.
fn options(max: i64) -> AnalyzerOptions {
    AnalyzerOptions {
        start_time_ms: T0,
        window_ms: 1000,
        windows: 10,
        auto_split: Some(AutoSplit {
            policy: SplitPolicy::ConstantSize,
            config: SplitConfig {
                max_file_size: max,
                memstore_flush_size: 1 << 16,
                jitter: 0.0,
                ..SplitConfig::default()
            },
        }),
        ..AnalyzerOptions::default()
    }
}

#[test]
fn a_region_of_one_row_does_not_split() {
    let mut a = Analyzer::new(vec![], options(100_000)).unwrap();
    // 1 MB into one row: ten times the split size.
    for i in 0..10_000 {
        a.push(b"hot-counter", T0 + i, 100);
    }
    let r = a.finish();
    assert_eq!(r.regions.len(), 1, "{:?}", r.splits);
    assert!(r.splits.is_empty());
    assert!(r.regions[0].unsplittable);
    assert_eq!(r.regions[0].distinct_rows, 1);
    assert!(
        r.diagnosis
            .iter()
            .any(|d| d.contains("cannot split") && d.contains("HBase splits only between rows")),
        "{:#?}",
        r.diagnosis
    );
}

#[test]
fn a_region_mostly_one_row_does_not_split_either() {
    // Two rows, the second with 90 % of the writes: the middle row is the last row.
    let mut a = Analyzer::new(vec![], options(100_000)).unwrap();
    for i in 0..10_000 {
        let key: &[u8] = if i % 10 == 0 { b"a" } else { b"b" };
        a.push(key, T0 + i, 100);
    }
    let r = a.finish();
    assert_eq!(r.regions.len(), 1, "{:?}", r.splits);
    assert!(r.regions[0].unsplittable);
    assert_eq!(r.regions[0].distinct_rows, 2);
}

#[test]
fn split_points_are_rows_between_other_rows() {
    // 200 rows, three of them hot: every split lies between written rows (the block index's
    // shortened separator, which need not be a written row, as in HBase), no longer than the
    // row above it, and each side of it holds rows.
    let mut a = Analyzer::new(vec![], options(200_000)).unwrap();
    let mut written = HashSet::new();
    for i in 0..20_000u64 {
        let row = match i % 4 {
            0 => 7,
            1 => 77,
            2 => 150,
            _ => (i * 7919) % 200,
        };
        let key = format!("row{row:03}");
        written.insert(key.clone());
        a.push(key.as_bytes(), T0 + i as i64, 100);
    }
    let r = a.finish();
    assert!(r.splits.len() >= 3, "{:?}", r.splits);
    for s in &r.splits {
        let below = written.iter().filter(|w| **w < s.split_key).max();
        let above = written.iter().filter(|w| **w >= s.split_key).min();
        assert!(
            below.is_some() && above.is_some_and(|a| s.split_key.len() <= a.len()),
            "split between no rows: {} ({below:?}, {above:?})",
            s.split_key
        );
    }
    for g in &r.regions {
        assert!(g.writes > 0, "region {} holds no row", g.index);
    }
    // The regions left with one hot row each could not split further.
    let stuck: Vec<&str> = r
        .regions
        .iter()
        .filter(|g| g.unsplittable)
        .map(|g| g.start_key.as_str())
        .collect();
    assert!(!stuck.is_empty(), "{:#?}", r.regions);
}

#[test]
fn a_row_past_the_region_size_is_a_finding() {
    // Three hosts' counters, one row each, with auto-split at 256 KiB: each row ends far
    // past it, and no region can split below one row.
    let d = doc(
        r#"{"v": 1, "fields": [{"name": "host", "type": "string", "generator": {"kind": "list", "values": ["h1", "h2", "h3"], "order": "sequential"}}],
           "key": "host", "workload": {"records": 30000, "valueSize": 100},
           "regions": {"autoSplit": {"policy": {"type": "constantSize"}, "config": {"maxFileSize": 262144}}}}"#,
    );
    let r = analyze(&d, &AnalyzeOptions::default()).unwrap();
    assert_eq!(r.distinct_rows, 3);
    assert!(r.regions.len() <= 3, "{:?}", r.splits);
    let big: Vec<&String> = r
        .diagnosis
        .iter()
        .filter(|d| d.contains("more than the 256 KiB a region may hold"))
        .collect();
    assert_eq!(big.len(), 3, "{:#?}", r.diagnosis);
    assert!(r.largest_rows.iter().all(|row| row.writes == 10_000));
}
