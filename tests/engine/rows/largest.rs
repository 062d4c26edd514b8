//! The largest rows against exact counts on a skewed workload: the rows the report lists are
//! the truly largest, in order, with their writes and bytes.

use rowkey_lab::analyze::analyze;

use super::common::{doc, per_row, writes};
use crate::cases::Failures;

#[test]
fn the_largest_rows_of_a_skewed_workload_are_the_exact_ones() {
    // 20,000 devices, Zipf-skewed: the busiest takes several % of the writes. Keys of two
    // lengths, so bytes and writes rank differently.
    let d = doc(r#"{"v": 1, "fields": [
             {"name": "device", "type": "long", "generator": {"kind": "zipf", "n": 20000, "s": 1.1, "offset": 1}},
             {"name": "kind", "type": "string", "generator": {"kind": "weighted", "values": ["a", "long-kind-name"], "weights": [3, 1]}}],
           "key": "long(device) + kind",
           "workload": {"records": 200000, "seed": 11, "valueSize": 50}}"#);
    let all = writes(&d);
    let r = analyze(&d, &super::common::sketch()).unwrap();
    assert!(
        !r.largest_rows_exact,
        "a generated workload's largest rows are the sketch's"
    );
    let rows = per_row(&all);
    let mut exact: Vec<(&Vec<u8>, u64, u64)> = rows
        .iter()
        .map(|(k, w)| (k, *w, *w * (k.len() as u64 + 50)))
        .collect();
    exact.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(b.0)));
    assert!(r.largest_rows.len() <= 32 && r.largest_rows.len() >= 16);
    let mut failures = Failures::new("largest rows against exact counts");
    // The ten largest are the exact ten, in order. Their counts start when the sketch took
    // them in: a row arriving while the sketch is full waits until its filter counter passes
    // the smallest row it holds, so its first writes can be missing (at most 1 % here), and it
    // never gets more than it had. Cells = writes: no `cells` section.
    let mut exact_rows = 0;
    for (i, (row, (key, w, b))) in r.largest_rows.iter().zip(&exact).take(10).enumerate() {
        failures.eq(format!("row {i}: key"), &row.key, *key);
        failures.check(
            format!("row {i}: writes within 1 % below the exact {w}"),
            row.writes <= *w && row.writes * 100 >= w * 99,
            row.writes,
        );
        failures.check(
            format!("row {i}: bytes within 1 % below the exact {b}"),
            row.bytes <= *b && row.bytes * 100 >= b * 99,
            row.bytes,
        );
        failures.eq(format!("row {i}: cells"), &row.cells, &row.writes);
        // Marked as the sketch's: the truth within each count's bound.
        failures.check(
            format!("row {i}: the exact {w} writes within +{}", row.writes_error),
            *w <= row.writes + row.writes_error,
            row.writes,
        );
        failures.check(
            format!("row {i}: the exact {b} bytes within +{}", row.bytes_error),
            *b <= row.bytes + row.bytes_error,
            row.bytes,
        );
        exact_rows += usize::from(row.writes == *w && row.bytes == *b);
    }
    println!("largest rows: {exact_rows} of the 10 largest with exact counts");
    // Every listed row: no more than it really got, sorted by bytes.
    for (i, row) in r.largest_rows.iter().enumerate() {
        let w = rows.get(&row.key).copied().unwrap_or(0);
        failures.check(
            format!("row {i}: writes at most the exact {w}"),
            row.writes <= w && row.writes > 0,
            row.writes,
        );
    }
    failures.check(
        "sorted by bytes",
        r.largest_rows.windows(2).all(|p| p[0].bytes >= p[1].bytes),
        "not sorted",
    );
    failures.finish();
    let json = serde_json::to_value(&r.largest_rows[0]).unwrap();
    let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 8, "{json}");
    for k in [
        "key",
        "keyHex",
        "region",
        "writes",
        "cells",
        "bytes",
        "writesError",
        "bytesError",
    ] {
        assert!(json.get(k).is_some(), "{k} in {json}");
    }
    // Each row's region is the one whose key range holds it.
    for row in &r.largest_rows {
        let g = &r.regions[row.region];
        let start = hex_bytes(&g.start_key_hex);
        let end = hex_bytes(&g.end_key_hex);
        assert!(
            start <= row.key && (end.is_empty() || row.key < end),
            "row {:?} in region {}",
            row.key,
            row.region
        );
    }
}

fn hex_bytes(h: &str) -> Vec<u8> {
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
        .collect()
}
