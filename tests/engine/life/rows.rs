//! Months of life from a user's rows: the keys in write order (an even sample of bounded
//! size, put in time order by a time column), read by the rows session as any file is. The
//! oracle: rows that are the design's own workload give the very writes, and months, the
//! generated workload gives; rows whose order is known by construction give the lanes it
//! implies.

use rowkey_lab::analyze::{AnalyzeOptions, RowsSession};
use rowkey_lab::design::{presets, DesignDocument};
use rowkey_lab::keyspec::{CompiledKey, FieldValue};
use rowkey_lab::life::*;
use rowkey_lab::rows::{EpochUnit, RowsOptions};
use rowkey_lab::workload::{WorkloadStream, WriteSample, WRITE_SAMPLE_ROWS};
use serde_json::{json, Value};

/// `doc`'s workload's first `n` records as JSON Lines, field by field as generated.
fn workload_jsonl(doc: &DesignDocument, n: u64) -> Vec<u8> {
    let mut spec = doc.workload.clone().unwrap_or_default();
    spec.records = n;
    let mut stream = WorkloadStream::new(&spec, &doc.fields).unwrap();
    let mut values: Vec<FieldValue> = Vec::new();
    let mut out = Vec::new();
    while stream.next_values(&mut values).is_some() {
        let mut row = serde_json::Map::new();
        for (f, v) in doc.fields.iter().zip(&values) {
            let v = match v {
                FieldValue::Str(s) => json!(s),
                FieldValue::Long(x) => json!(x),
                FieldValue::Double(x) => json!(x),
                FieldValue::Bool(b) => json!(b),
                FieldValue::Null => Value::Null,
                other => panic!("a field value this test does not write: {other:?}"),
            };
            row.insert(f.name.clone(), v);
        }
        out.extend_from_slice(Value::Object(row).to_string().as_bytes());
        out.push(b'\n');
    }
    out
}

/// A session over `bytes` (JSON Lines) that kept the keys in write order.
fn scanned(doc: &DesignDocument, bytes: &[u8], time: Option<&str>) -> RowsSession {
    let rows = RowsOptions {
        name: Some("rows.jsonl".into()),
        time: time.map(str::to_string),
        epoch: EpochUnit::Ms,
        ..RowsOptions::default()
    };
    let mut s = RowsSession::new(doc.clone(), AnalyzeOptions::default(), rows).unwrap();
    s.keep_write_sample().unwrap();
    for chunk in bytes.chunks(64 << 10) {
        s.push(chunk).unwrap();
    }
    s.end_scan().unwrap();
    s
}

#[test]
fn rows_that_are_the_design_s_workload_give_its_writes_and_its_months() {
    // The generated workload's path samples its first 50,000 records (or all, when fewer);
    // rows that are those records, in the order they were generated, are the same keys in the
    // same order.
    for id in ["seed003-time-first", "seed002-hash", "seed004-md5"] {
        let doc = presets::get(id).unwrap();
        let n = doc.workload.as_ref().unwrap().records.min(50_000);
        let session = scanned(&doc, &workload_jsonl(&doc, n), None);
        let s = settings_for_design(&doc, &super::opts(json!({"months": 2}))).unwrap();
        let Writes::Rows { sample, split_keys } = Writes::of_session(&session).unwrap() else {
            panic!("a session's writes are rows");
        };
        let (from_rows, note) = workload_from_rows(&doc, &s, sample, split_keys).unwrap();
        let generated = workload_from_design(&doc, &s).unwrap();
        assert!(from_rows.keys == generated.keys, "{id}: the lanes differ");
        assert_eq!(from_rows.cell_bytes, generated.cell_bytes, "{id}");
        assert_eq!(from_rows.writes_per_second, generated.writes_per_second);
        assert!(note.contains(&format!("all {n} rows")), "{id}: {note}");
        assert_eq!(from_rows.presplit, generated.presplit, "{id}");
        let a = simulate_design(&doc, &super::opts(json!({"months": 2}))).unwrap();
        let b = simulate_writes(
            &doc,
            Writes::of_session(&session).unwrap(),
            &super::opts(json!({"months": 2})),
        )
        .unwrap();
        assert!(a.months == b.months, "{id}: the months differ");
        assert!(
            b.notes.iter().any(|n| n.starts_with("the user's rows")),
            "{id}"
        );
    }
}

/// A design keyed by `salt(id, 4) + time`: four lanes, each written in time order.
fn salted_time() -> DesignDocument {
    DesignDocument::from_json(
        &json!({"v": 1,
            "fields": [{"name": "id", "type": "long"}, {"name": "t", "type": "timestamp"}],
            "key": "salt(id, 4, as=byte) + long(t)",
            "workload": {"records": 1000, "writeRate": 1000}})
        .to_string(),
    )
    .unwrap()
}

/// Rows `(id, t)` written at one per second, as an export sorted by key lists them.
fn export_sorted_by_key(n: i64) -> Vec<u8> {
    let doc = salted_time();
    let mut key = CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
    let mut rows: Vec<(Vec<u8>, String)> = (0..n)
        .map(|i| {
            let t = 1_700_000_000_000 + i * 1000;
            let rec = json!({"id": i * 7919, "t": t});
            let k = key.encode_json(rec.as_object().unwrap()).unwrap();
            (k, rec.to_string())
        })
        .collect();
    rows.sort();
    rows.iter()
        .flat_map(|(_, r)| format!("{r}\n").into_bytes())
        .collect()
}

#[test]
fn an_export_sorted_by_key_is_put_in_time_order_by_its_time_column() {
    let doc = salted_time();
    let bytes = export_sorted_by_key(20_000);
    let s = settings_for_design(&doc, &LifeOptions::default()).unwrap();
    let of = |session: &RowsSession| {
        let Writes::Rows { sample, split_keys } = Writes::of_session(session).unwrap() else {
            panic!("rows");
        };
        workload_from_rows(&doc, &s, sample, split_keys).unwrap()
    };
    // By its time column: the four salt buckets, each written in time order.
    let (w, note) = of(&scanned(&doc, &bytes, Some("t")));
    assert_eq!(w.keys.weights.len(), 4, "{note}");
    assert_eq!(w.keys.order, LaneOrder::Ascending);
    assert!(w.keys.prefix_lanes);
    assert!(note.contains("time column"), "{note}");
    // One row a second for 20,000 seconds.
    assert!(note.contains("0.2 days: 1.0 rows/s"), "{note}");
    // In file order (key order), the rows look written one bucket after another, and the note
    // says what that assumes.
    let (w, note) = of(&scanned(&doc, &bytes, None));
    assert_eq!(w.keys.weights.len(), 1, "{note}");
    assert!(note.contains("key order"), "{note}");
}

#[test]
fn a_write_sample_stays_even_and_bounded_at_any_length() {
    let mut w = WriteSample::new();
    let n: u64 = 1_000_003;
    for i in 0..n {
        w.offer(&(i as u32).to_be_bytes(), None);
    }
    let (keys, order) = w.keys_in_write_order().unwrap();
    assert_eq!(order.rows, n);
    assert!(order.kept <= WRITE_SAMPLE_ROWS && order.kept > WRITE_SAMPLE_ROWS / 2);
    assert!(order.key_sorted && !order.by_time);
    // Every stride-th row from the first: the same gap between every two kept rows.
    let rows: Vec<u64> = keys
        .iter()
        .map(|k| u64::from(u32::from_be_bytes((*k).try_into().unwrap())))
        .collect();
    let stride = rows[1] - rows[0];
    assert!(stride.is_power_of_two());
    assert_eq!(rows[0], 0);
    assert!(rows.windows(2).all(|p| p[1] - p[0] == stride));
    assert!(
        *rows.last().unwrap() + stride >= n,
        "the sample reaches the end"
    );
    assert!(WriteSample::new().keys_in_write_order().is_err());
}

#[test]
fn time_orders_the_sample_and_file_order_breaks_ties() {
    let mut w = WriteSample::new();
    for (k, t) in [(b"c", 30), (b"a", 10), (b"d", 30), (b"b", 20)] {
        w.offer(k, Some(t));
    }
    let (keys, order) = w.keys_in_write_order().unwrap();
    assert_eq!(keys, vec![&b"a"[..], b"b", b"c", b"d"]);
    assert!(order.by_time && !order.key_sorted);
    assert_eq!(order.span_ms, Some((10, 30)));
}
