//! Seed 001's log rewrite: the tall design and OpenTSDB's wide one write the same bytes into
//! far fewer rows; the OpenTSDB metric preset writes one row per series and hour.

use rowkey_lab::analyze::{analyze, AnalyzeOptions};
use rowkey_lab::design::presets;

fn report(id: &str) -> rowkey_lab::analyze::AnalysisReport {
    let doc = presets::get(id).unwrap();
    analyze(&doc, &AnalyzeOptions::default()).unwrap_or_else(|e| panic!("{id}: {e}"))
}

#[test]
fn events_as_columns_keep_the_writes_in_fewer_rows() {
    let tall = report("seed001-log-tall");
    let wide = report("seed001-log-wide");
    assert_eq!((tall.writes, tall.bytes), (wide.writes, wide.bytes));
    // Tall: every event its own row and cell (HyperLogLog estimates, 0.8 % error).
    let near = |a: u64, b: u64| a.abs_diff(b) * 100 <= b * 3;
    assert!(
        near(tall.distinct_rows, tall.writes),
        "{}",
        tall.distinct_rows
    );
    assert_eq!(tall.cells, tall.writes);
    // Wide: 36,000 writes at 10 a second span one hour, 12 five-minute ranges, for 20 hosts
    // x 4 events: at most 960 rows.
    assert!(wide.distinct_rows <= 990, "{}", wide.distinct_rows);
    assert!(wide.distinct_rows * 30 < tall.distinct_rows);
    // Two events of one series in the same second share a cell (a new version of it).
    assert!(wide.cells <= wide.writes && wide.cells * 10 > wide.writes * 9);
}

#[test]
fn the_opentsdb_metric_writes_one_row_per_series_and_hour() {
    let r = report("seed001-opentsdb-metric");
    // 2 metrics x 20 hosts x 2 data centres = 80 series; one hour of writes (36,000 at 10 a
    // second) from 2021-09-07T00:00Z touches one or two base hours.
    assert!(
        r.distinct_rows >= 78 && r.distinct_rows <= 165,
        "{}",
        r.distinct_rows
    );
    assert_eq!(r.regions.len(), 20);
    // The salt spreads the series: no region takes more than a fifth of the writes.
    assert!(r.regions.iter().all(|g| g.writes * 5 < r.writes));
}
