//! Cells and versions: writes to a row's existing cell are versions of it, and versions
//! beyond the family's `VERSIONS` are not counted as kept. Expected counts are
//! `sum over cells of min(writes, VERSIONS)`, counted exactly here.

use std::collections::HashMap;

use rowkey_lab::analyze::{analyze, AnalysisRun};
use rowkey_lab::workload::FieldValue;

use super::common::{doc, rel, within, writes, Write};

/// Cells kept: `min(writes, versions)` per distinct (row, qualifier).
fn kept(all: &[Write], versions: u64, qualifier: impl Fn(&Write) -> String) -> u64 {
    let mut cells: HashMap<(Vec<u8>, String), u64> = HashMap::new();
    for w in all {
        *cells.entry((w.key.clone(), qualifier(w))).or_insert(0) += 1;
    }
    cells.values().map(|&n| n.min(versions)).sum()
}

fn users(cells: &str) -> String {
    format!(
        r#"{{"v": 1, "fields": [
             {{"name": "user", "type": "long", "generator": {{"kind": "uniformInt", "min": 1, "max": 100}}}},
             {{"name": "event", "type": "string", "generator": {{"kind": "list", "values": ["open", "read", "close"]}}}}],
           "key": "long(user)", "cells": {cells},
           "workload": {{"records": 5000, "seed": 5}}}}"#
    )
}

#[test]
fn a_fixed_qualifier_keeps_versions_per_row() {
    // 100 rows of about 50 writes each, one cell per row.
    for versions in [1u64, 3, 1000] {
        let d = doc(&users(&format!(r#"{{"versions": {versions}}}"#)));
        let all = writes(&d);
        let r = analyze(&d, &super::common::sketch()).unwrap();
        let exact = kept(&all, versions, |_| String::new());
        within("cells", r.cells, exact, r.distinct_rows_error).unwrap();
        within("region cells", r.regions[0].cells, exact, 3.0 * 0.065).unwrap();
        assert_eq!(r.distinct_rows, 100);
        assert_eq!(r.writes, 5000);
        match versions {
            1 => assert_eq!(exact, 100),
            3 => assert_eq!(exact, 300),
            // Every version kept: as many cells as writes.
            _ => assert_eq!(exact, 5000),
        }
        println!(
            "fixed qualifier, VERSIONS {versions}: {} cells kept, exact {exact} ({:.3} % off)",
            r.cells,
            rel(r.cells, exact) * 100.0
        );
    }
}

#[test]
fn a_field_qualifier_makes_a_cell_per_value() {
    let d = doc(&users(
        r#"{"qualifier": {"kind": "field", "field": "event"}, "versions": 2}"#,
    ));
    let all = writes(&d);
    let r = analyze(&d, &super::common::sketch()).unwrap();
    let exact = kept(&all, 2, |w| format!("{:?}", w.values[1]));
    // 100 users × 3 events, each cell written about 17 times: two versions kept of each.
    assert_eq!(exact, 600);
    within("cells", r.cells, exact, r.distinct_rows_error).unwrap();
    assert!(r
        .largest_rows
        .iter()
        .all(|row| row.cells <= 6 && row.cells >= 1));
    // A row's cells, exact while it has fewer than 64: 3 events × 2 versions.
    assert_eq!(r.largest_rows[0].cells, 6);
}

#[test]
fn opentsdb_rows_hold_their_hour_as_time_offset_cells() {
    // Seed 001's rewrite: `[hostname][log-event][timerange]` rows, one per host, event and
    // hour, each event a column at its second inside the hour. 4 writes a second over 4
    // hosts and 2 events: some seconds of a row take two writes, one cell.
    let text = |versions: u64| {
        format!(
            r#"{{"v": 1, "fields": [
             {{"name": "host", "type": "string", "generator": {{"kind": "list", "values": ["h1", "h2", "h3", "h4"]}}}},
             {{"name": "event", "type": "string", "generator": {{"kind": "list", "values": ["err", "warn"]}}}},
             {{"name": "ts", "type": "timestamp", "generator": {{"kind": "clock"}}}}],
           "key": "host + event + time(ts, \"yyyyMMddHH\")",
           "cells": {{"qualifier": {{"kind": "timeOffset", "field": "ts", "rangeMs": 3600000, "resolutionMs": 1000}}, "versions": {versions}}},
           "workload": {{"records": 40000, "seed": 2, "writeRate": 4}}}}"#
        )
    };
    let second = |w: &Write| match w.values[2] {
        FieldValue::Long(t) => ((t % 3_600_000) / 1000).to_string(),
        ref v => panic!("{v:?}"),
    };
    for versions in [1u64, 2] {
        let d = doc(&text(versions));
        let all = writes(&d);
        let r = analyze(&d, &super::common::sketch()).unwrap();
        let exact = kept(&all, versions, second);
        let exact_rows = super::common::per_row(&all).len() as u64;
        within("rows", r.distinct_rows, exact_rows, r.distinct_rows_error).unwrap();
        within("cells", r.cells, exact, r.distinct_rows_error).unwrap();
        assert!(exact < 40_000, "some writes share a cell");
        println!(
            "time offsets, VERSIONS {versions}: {} rows (exact {exact_rows}), {} cells kept \
             (exact {exact}, {:.3} % off) of {} writes",
            r.distinct_rows,
            r.cells,
            rel(r.cells, exact) * 100.0,
            r.writes
        );
        // Each row's cells: about 3,600 / 8 seconds an hour; the row's own sample of 64 cells
        // states 1 / √62 relative error.
        let mut cells: HashMap<Vec<u8>, HashMap<String, u64>> = HashMap::new();
        for w in &all {
            *cells
                .entry(w.key.clone())
                .or_default()
                .entry(second(w))
                .or_insert(0) += 1;
        }
        for row in r.largest_rows.iter().take(5) {
            let exact: u64 = cells[&row.key].values().map(|&n| n.min(versions)).sum();
            within("row cells", row.cells, exact, 3.0 / 62f64.sqrt()).unwrap();
        }
    }
}

#[test]
fn fed_records_name_their_cells_too() {
    // Fed records: 3 rows, the second one written 5 times in the same cell.
    let d = doc(&users(
        r#"{"qualifier": {"kind": "field", "field": "event"}, "versions": 2}"#,
    ));
    let records: Vec<serde_json::Map<String, serde_json::Value>> = [
        (1, "open"),
        (2, "open"),
        (2, "open"),
        (2, "open"),
        (2, "open"),
        (2, "open"),
        (2, "read"),
        (3, "close"),
    ]
    .iter()
    .map(|(u, e)| {
        serde_json::json!({"user": u, "event": e})
            .as_object()
            .unwrap()
            .clone()
    })
    .collect();
    let d = d.fit_to_records(&records, 100).unwrap();
    let mut run = AnalysisRun::new(&d, &super::common::sketch()).unwrap();
    run.feed(&records).unwrap();
    let r = run.finish();
    assert_eq!(r.writes, 8);
    assert_eq!(r.distinct_rows, 3);
    // Row 1: 1 cell; row 2: "open" keeps 2 of its 5 versions, "read" 1; row 3: 1.
    assert_eq!(r.cells, 5);
    // A fed record without the qualifier's field is refused, naming it.
    let mut run = AnalysisRun::new(&d, &super::common::sketch()).unwrap();
    let bad = serde_json::json!({"user": 1}).as_object().unwrap().clone();
    let e = run.feed(&[bad]).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("records[0].event"), "{e}");
}
