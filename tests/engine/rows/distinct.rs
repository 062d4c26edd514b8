//! Distinct rows against exact counts: the table's, each region's and each server's estimate
//! within three times the stated relative standard error (a server's is the sum of its
//! regions' estimates, so its error is theirs, weighted).

use std::collections::HashSet;

use rowkey_lab::analyze::{analyze, AnalyzeOptions, MAX_EXACT_ROWS};

use super::common::{doc, per_row, region_of, rel, within, writes};
use crate::cases::Failures;

/// A region's sketch's bound: three standard errors, 3 × 1.04 / √256.
const REGION_ERROR: f64 = 3.0 * 0.065;

fn design(field: &str, records: u64, regions: &str) -> String {
    format!(
        r#"{{"v": 1, "fields": [{{"name": "user", "type": "long", "generator": {field}}}],
          "key": "salt(user, 8, hash=phoenix) + long(user)",
          "workload": {{"records": {records}, "seed": 3}},
          "regions": {regions}}}"#
    )
}

/// The table's, each region's and each server's distinct rows held to the exact counts.
fn check(name: &str, text: &str) {
    let d = doc(text);
    let all = writes(&d);
    let r = analyze(&d, &super::common::sketch()).unwrap();
    let mut failures = Failures::new(format!("{name}: distinct rows"));
    let exact = per_row(&all).len() as u64;
    assert_eq!(r.writes, all.len() as u64);
    assert!((r.distinct_rows_error - 3.0 * 1.04 / 128.0).abs() < 1e-12);
    if let Err(e) = within("table", r.distinct_rows, exact, r.distinct_rows_error) {
        failures.check("table", false, e);
    }
    println!(
        "{name}: {} writes, {exact} distinct rows, estimate {} ({:.3} % off, stated {:.3} %)",
        r.writes,
        r.distinct_rows,
        rel(r.distinct_rows, exact) * 100.0,
        r.distinct_rows_error * 100.0
    );
    // Without a `cells` section every write is its own cell.
    failures.eq("table cells", &r.cells, &r.writes);
    let mut regions: Vec<HashSet<&[u8]>> = vec![HashSet::new(); r.regions.len()];
    let mut servers: Vec<HashSet<&[u8]>> = vec![HashSet::new(); r.servers.len()];
    for w in &all {
        let g = region_of(&r, &w.key);
        regions[g].insert(&w.key);
        servers[r.regions[g].server as usize].insert(&w.key);
    }
    let mut worst: f64 = 0.0;
    for (g, rows) in r.regions.iter().zip(&regions) {
        let exact = rows.len() as u64;
        worst = worst.max(rel(g.distinct_rows, exact));
        if let Err(e) = within("region", g.distinct_rows, exact, REGION_ERROR) {
            failures.check(format!("region {}", g.index), false, e);
        }
        failures.eq(format!("region {} cells", g.index), &g.cells, &g.writes);
        failures.eq(format!("region {} rows", g.index), &g.rows, &g.writes);
    }
    for (s, rows) in r.servers.iter().zip(&servers) {
        // The standard error of a sum of independent region estimates, relative to the sum.
        let sizes: Vec<f64> = r
            .regions
            .iter()
            .zip(&regions)
            .filter(|(g, _)| g.server == s.index)
            .map(|(_, rows)| rows.len() as f64)
            .collect();
        let total: f64 = sizes.iter().sum();
        let spread = sizes.iter().map(|n| n * n).sum::<f64>().sqrt();
        let error = if r.servers.len() == 1 {
            r.distinct_rows_error
        } else {
            REGION_ERROR * spread / total.max(1.0)
        };
        if let Err(e) = within("server", s.distinct_rows, rows.len() as u64, error) {
            failures.check(format!("server {}", s.index), false, e);
        }
    }
    println!(
        "{name}: worst region {:.3} % off (stated {:.2} %)",
        worst * 100.0,
        REGION_ERROR * 100.0
    );
    failures.finish();
}

#[test]
fn a_small_workload_counts_its_rows() {
    // 3,000 writes over at most 500 users: every row written about six times.
    check(
        "small",
        &design(
            r#"{"kind": "uniformInt", "min": 1, "max": 500}"#,
            3000,
            r#"{"presplit": {"kind": "saltBuckets", "buckets": 8}, "regionServers": 2}"#,
        ),
    );
}

#[test]
fn a_skewed_workload_counts_its_rows() {
    // Zipf: a few users take most writes, most users one or two.
    check(
        "skewed",
        &design(
            r#"{"kind": "zipf", "n": 200000, "s": 0.9, "offset": 1}"#,
            300_000,
            r#"{"presplit": {"kind": "saltBuckets", "buckets": 8}, "regionServers": 3}"#,
        ),
    );
}

#[test]
fn many_distinct_rows_leave_linear_counting() {
    // About 200,000 distinct rows: past 2.5 × 16,384 the table's sketch uses the raw
    // HyperLogLog estimate, past 2.5 × 1,024 every region's does.
    check(
        "uniform",
        &design(
            r#"{"kind": "uniformInt", "min": 0, "max": 1000000000}"#,
            200_000,
            r#"{"presplit": {"kind": "saltBuckets", "buckets": 8}, "regionServers": 2}"#,
        ),
    );
}

#[test]
fn a_row_written_again_is_one_row() {
    // One key written 1,000 times, exactly.
    let r = analyze(
        &doc(r#"{"v": 1, "key": "\"counter\"", "workload": {"records": 1000}}"#),
        &super::common::sketch(),
    )
    .unwrap();
    assert_eq!(r.distinct_rows, 1);
    assert_eq!(r.regions[0].distinct_rows, 1);
    assert_eq!(r.servers[0].distinct_rows, 1);
    assert_eq!(r.largest_rows.len(), 1);
    assert_eq!(r.largest_rows[0].key, b"counter".to_vec());
    assert_eq!(r.largest_rows[0].writes, 1000);
    assert_eq!(r.largest_rows[0].bytes, r.bytes);
}

/// A generated workload the cap can hold is counted, not estimated, by default: the salted
/// telecom design's 360,000 writes (the case where the sketch read 355,193 ± 0.81 % and was
/// 1.3 % off) report every row, equal to a hash set of the keys its own encoder writes, and
/// each region's too. Past the cap (or with `exactRows: false`) the sketch's figure carries a
/// bound that holds: three standard errors.
#[test]
fn a_workload_within_the_cap_is_counted_exactly_by_default() {
    let mut d = rowkey_lab::design::presets::get("seed000-telecom").unwrap();
    d.workload.as_mut().unwrap().records = 360_000;
    const _: () = assert!(360_000 <= MAX_EXACT_ROWS);
    let all = writes(&d);
    let truth: HashSet<&[u8]> = all.iter().map(|w| w.key.as_slice()).collect();
    let r = analyze(&d, &AnalyzeOptions::default()).unwrap();
    assert!(r.distinct_rows_exact && r.largest_rows_exact);
    assert_eq!(r.distinct_rows_error, 0.0);
    assert_eq!(r.distinct_rows, truth.len() as u64);
    for g in &r.regions {
        let n = truth.iter().filter(|k| region_of(&r, k) == g.index).count() as u64;
        assert_eq!(g.distinct_rows, n, "region {}", g.index);
    }
    // the sketch alone on the same writes: within its bound, whatever it reads
    let s = analyze(&d, &super::common::sketch()).unwrap();
    assert!(!s.distinct_rows_exact);
    within(
        "sketch",
        s.distinct_rows,
        truth.len() as u64,
        s.distinct_rows_error,
    )
    .unwrap();
}
