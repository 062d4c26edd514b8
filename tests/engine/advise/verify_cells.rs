//! Verifying a rekey compares every cell (issue 68, item 1): the flights table moved from a
//! time-first key to route + time, its designs just keys (they declare no payload field),
//! and each mutation below made by this test to the new export: a non-key cell changed, a
//! null changed, a column dropped or added, a column's type changed. The expected verdicts
//! are written from the mutation, not from the engine's output.

use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::Error;
use rowkey_lab::rekey::verify::{Export, Verifier, VerifyOptions, VerifyReport};
use rowkey_lab::rows::RowsOptions;

/// The new design: the route, then the departure minute, then the flight (just a key).
const NEW_KEY: &str = r#"origin + dest + time(dep_ts, "yyyyMMddHHmm") + carrier + dec(flight, 4)"#;

fn new_design() -> DesignDocument {
    let text = serde_json::json!({"v": 1, "key": NEW_KEY}).to_string();
    DesignDocument::from_json_unchecked(&text).unwrap()
}

const COLUMNS: [&str; 8] = [
    "carrier",
    "flight",
    "tailnum",
    "origin",
    "dest",
    "dep_ts",
    "distance",
    "dep_delay",
];

/// 2013-01-01T10:00:00Z in ms.
const T0: i64 = 1_357_034_400_000;

/// The table: a header and 240 rows of text cells (an empty cell a null); every 7th
/// departure delay is null.
fn table() -> (Vec<String>, Vec<Vec<String>>) {
    let routes = [
        ("JFK", "LAX"),
        ("EWR", "SFO"),
        ("LGA", "ORD"),
        ("JFK", "MIA"),
    ];
    let carriers = ["AA", "UA", "DL"];
    let rows = (0..240i64)
        .map(|i| {
            let (o, d) = routes[(i % 4) as usize];
            vec![
                carriers[(i % 3) as usize].to_string(),
                (100 + i).to_string(),
                format!("N{}", 1000 + i),
                o.to_string(),
                d.to_string(),
                (T0 + i * 600_000).to_string(),
                (700 + 10 * (i % 50)).to_string(),
                if i % 7 == 0 {
                    String::new()
                } else {
                    ((i * 13) % 90 - 10).to_string()
                },
            ]
        })
        .collect();
    (COLUMNS.iter().map(|c| c.to_string()).collect(), rows)
}

fn csv((head, rows): &(Vec<String>, Vec<Vec<String>>)) -> Vec<u8> {
    let mut out = head.join(",");
    for r in rows {
        out.push('\n');
        out.push_str(&r.join(","));
    }
    out.push('\n');
    out.into_bytes()
}

/// JSON Lines: each cell as `quote` says (a number unquoted, text quoted), an empty one null.
fn jsonl((head, rows): &(Vec<String>, Vec<Vec<String>>), quote: impl Fn(&str) -> bool) -> Vec<u8> {
    let mut out = String::new();
    for r in rows {
        let mut m = serde_json::Map::new();
        for (c, v) in head.iter().zip(r) {
            let value = if v.is_empty() {
                serde_json::Value::Null
            } else if quote(c) {
                serde_json::Value::String(v.clone())
            } else {
                serde_json::from_str(v).unwrap()
            };
            m.insert(c.clone(), value);
        }
        out.push_str(&serde_json::Value::Object(m).to_string());
        out.push('\n');
    }
    out.into_bytes()
}

fn text_columns(c: &str) -> bool {
    ["carrier", "tailnum", "origin", "dest"].contains(&c)
}

fn verify(
    old: (&[u8], &str),
    new: (&[u8], &str),
    opts: &VerifyOptions,
) -> Result<VerifyReport, Error> {
    verify_through(new_design(), old, new, opts)
}

/// The verdict through `doc` (the new design).
fn verify_through(
    doc: DesignDocument,
    old: (&[u8], &str),
    new: (&[u8], &str),
    opts: &VerifyOptions,
) -> Result<VerifyReport, Error> {
    let rows = |name: &str| RowsOptions {
        name: Some(name.into()),
        ..RowsOptions::default()
    };
    let (ra, rb) = (rows(old.1), rows(new.1));
    let (mut a, mut b) = (
        std::io::Cursor::new(old.0.to_vec()),
        std::io::Cursor::new(new.0.to_vec()),
    );
    Verifier::verify_exports(
        doc,
        &mut Export {
            rows: &ra,
            file: &mut a,
            len: old.0.len() as u64,
        },
        &mut Export {
            rows: &rb,
            file: &mut b,
            len: new.0.len() as u64,
        },
        opts,
    )
}

fn all() -> VerifyOptions {
    VerifyOptions::default()
}

fn counts(r: &VerifyReport) -> (u64, u64, u64, bool) {
    (r.missing, r.extra, r.changed, r.equal)
}

fn compared(r: &VerifyReport) -> Vec<(&str, &str)> {
    r.compared
        .iter()
        .map(|c| (c.column.as_str(), c.as_type.as_str()))
        .collect()
}

/// Row `r`'s new key as text: origin, dest, the minute (UTC), carrier, the flight in 4 digits.
fn new_key(r: &[String]) -> String {
    let ms: i64 = r[5].parse().unwrap();
    let minutes = (ms - T0) / 60_000;
    // every row departs on 2013-01-01 or 02 (240 rows 10 minutes apart from 10:00)
    let (day, h, m) = (
        1 + (10 * 60 + minutes) / 1440,
        ((10 * 60 + minutes) % 1440) / 60,
        minutes % 60,
    );
    format!(
        "{}{}201301{day:02}{h:02}{m:02}{}{:0>4}",
        r[3], r[4], r[0], r[1]
    )
}

#[test]
fn the_same_table_is_equal_and_every_column_is_compared() {
    let t = table();
    let r = verify((&csv(&t), "old.csv"), (&csv(&t), "new.csv"), &all()).unwrap();
    assert_eq!(counts(&r), (0, 0, 0, true), "{r:?}");
    assert_eq!(r.old_rows, 240);
    let names: Vec<&str> = r.compared.iter().map(|c| c.column.as_str()).collect();
    assert_eq!(names, COLUMNS);
    assert!(r.ignored.is_empty() && r.only_old.is_empty() && r.only_new.is_empty());
}

#[test]
fn a_changed_non_key_cell_is_changed_with_designs_that_are_just_keys() {
    // the issue's case: one row dropped, one departure delay changed
    let old = table();
    let mut new = old.clone();
    new.1.remove(30);
    assert_eq!(new.1[40][7], "73"); // old row 41: 41 × 13 mod 90 − 10
    new.1[40][7] = "74".into();
    let r = verify((&csv(&old), "old.csv"), (&csv(&new), "new.csv"), &all()).unwrap();
    assert_eq!(counts(&r), (1, 0, 1, false), "{r:?}");
    let mut got: Vec<(&str, &str)> = r.first.iter().map(|d| (d.kind, d.key.as_str())).collect();
    got.sort();
    let (dropped, changed) = (new_key(&old.1[30]), new_key(&old.1[41]));
    assert_eq!(
        got,
        [("changed", changed.as_str()), ("missing", dropped.as_str())]
    );
}

#[test]
fn a_null_that_gets_a_value_or_a_value_that_becomes_null_is_changed() {
    let old = table();
    let mut new = old.clone();
    assert_eq!(new.1[14][7], "");
    new.1[14][7] = "0".into();
    new.1[15][7] = String::new();
    let r = verify((&csv(&old), "old.csv"), (&csv(&new), "new.csv"), &all()).unwrap();
    assert_eq!(counts(&r), (0, 0, 2, false), "{r:?}");
}

#[test]
fn a_column_dropped_in_the_new_export_is_named_and_unequal_unless_ignored() {
    let old = table();
    let mut new = old.clone();
    new.0.remove(6);
    new.1.iter_mut().for_each(|r| {
        r.remove(6);
    });
    let r = verify((&csv(&old), "old.csv"), (&csv(&new), "new.csv"), &all()).unwrap();
    assert_eq!(r.only_old, ["distance"]);
    assert_eq!(counts(&r), (0, 0, 0, false), "{r:?}");
    assert!(!r.compared.iter().any(|c| c.column == "distance"));
    let opts = VerifyOptions {
        ignore: vec!["distance".into()],
        ..all()
    };
    let r = verify((&csv(&old), "old.csv"), (&csv(&new), "new.csv"), &opts).unwrap();
    assert!(r.equal, "{r:?}");
    assert_eq!(r.only_old, ["distance"]);
    assert_eq!(
        r.ignored
            .iter()
            .map(|i| (i.column.as_str(), i.why.as_str()))
            .collect::<Vec<_>>(),
        [("distance", "--ignore")]
    );
}

#[test]
fn a_column_added_in_the_new_export_is_named_and_unequal() {
    let old = table();
    let mut new = old.clone();
    new.0.push("arr_delay".into());
    new.1.iter_mut().for_each(|r| r.push("3".into()));
    let r = verify((&csv(&old), "old.csv"), (&csv(&new), "new.csv"), &all()).unwrap();
    assert_eq!(r.only_new, ["arr_delay"]);
    assert!(r.only_old.is_empty());
    assert_eq!(counts(&r), (0, 0, 0, false), "{r:?}");
}

#[test]
fn a_type_changed_between_the_exports_is_compared_as_values() {
    // old: JSON numbers; new: the delay as text and the distance as a float, the same values
    let old = table();
    let old_json = jsonl(&old, text_columns);
    let mut text = jsonl(&old, |c| text_columns(c) || c == "dep_delay");
    text = String::from_utf8(text)
        .unwrap()
        .replace("\"distance\":700,", "\"distance\":700.0,")
        .into_bytes();
    let r = verify((&old_json, "old.jsonl"), (&text, "new.jsonl"), &all()).unwrap();
    assert_eq!(counts(&r), (0, 0, 0, true), "{r:?}");
    let c = compared(&r);
    assert!(c.contains(&("dep_delay", "string")), "{c:?}");
    assert!(c.contains(&("distance", "double")), "{c:?}");
    // one delay's text changed: a changed row, not an equal one
    let mut new = old.clone();
    new.1[5][7] = "-1".into();
    let text = jsonl(&new, |c| text_columns(c) || c == "dep_delay");
    let r = verify((&old_json, "old.jsonl"), (&text, "new.jsonl"), &all()).unwrap();
    assert_eq!(counts(&r), (0, 0, 1, false), "{r:?}");
    // CSV text against JSON numbers: read as numbers
    let r = verify((&csv(&old), "old.csv"), (&old_json, "new.jsonl"), &all()).unwrap();
    assert_eq!(counts(&r), (0, 0, 0, true), "{r:?}");
    assert!(compared(&r).contains(&("distance", "long")));
}

/// `t` as an Arrow IPC stream: the text columns as strings, the `micros` columns (epoch ms
/// in `t`) as `Timestamp(µs)`, the others as Int64.
fn arrow_stream((head, rows): &(Vec<String>, Vec<Vec<String>>), micros: &[&str]) -> Vec<u8> {
    use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray, TimestampMicrosecondArray};
    use arrow_schema::{DataType, Field, Schema, TimeUnit};
    use std::sync::Arc;
    let mut fields = Vec::new();
    let mut arrays: Vec<ArrayRef> = Vec::new();
    for (i, c) in head.iter().enumerate() {
        let col = rows.iter().map(|r| r[i].clone());
        let (t, a): (DataType, ArrayRef) = if text_columns(c) {
            (DataType::Utf8, Arc::new(StringArray::from_iter_values(col)))
        } else if micros.contains(&c.as_str()) {
            let us = col.map(|v| v.parse::<i64>().ok().map(|ms| ms * 1000));
            (
                DataType::Timestamp(TimeUnit::Microsecond, None),
                Arc::new(TimestampMicrosecondArray::from_iter(us)),
            )
        } else {
            let n = col.map(|v| v.parse::<i64>().ok());
            (DataType::Int64, Arc::new(Int64Array::from_iter(n)))
        };
        fields.push(Field::new(c, t, true));
        arrays.push(a);
    }
    let schema = Arc::new(Schema::new(fields));
    let batch = RecordBatch::try_new(schema.clone(), arrays).unwrap();
    let mut out = Vec::new();
    let mut w = arrow_ipc::writer::StreamWriter::try_new(&mut out, &schema).unwrap();
    w.write(&batch).unwrap();
    w.finish().unwrap();
    drop(w);
    out
}

#[test]
fn a_time_in_ms_against_one_in_microseconds_is_the_same_instant() {
    // an arrival time beside the departure: epoch ms in JSON, Timestamp(µs) in Arrow (the
    // key's dep_ts too)
    let mut t = table();
    t.0.push("arr_ts".into());
    for r in t.1.iter_mut() {
        let dep: i64 = r[5].parse().unwrap();
        r.push((dep + 3 * 3_600_000).to_string());
    }
    let old = jsonl(&t, text_columns);
    let new = arrow_stream(&t, &["dep_ts", "arr_ts"]);
    let r = verify((&old, "old.jsonl"), (&new, "new.arrows"), &all()).unwrap();
    assert_eq!(counts(&r), (0, 0, 0, true), "{r:?}");
    assert!(compared(&r).contains(&("arr_ts", "timestamp")), "{r:?}");
    // one arrival a minute later
    let mut later = t.clone();
    let a: i64 = later.1[9][8].parse().unwrap();
    later.1[9][8] = (a + 60_000).to_string();
    let r = verify(
        (&old, "old.jsonl"),
        (&arrow_stream(&later, &["dep_ts", "arr_ts"]), "new.arrows"),
        &all(),
    )
    .unwrap();
    assert_eq!(counts(&r), (0, 0, 1, false), "{r:?}");
}

#[test]
fn types_with_no_common_value_are_refused_with_the_column_named() {
    let old = table();
    let a = jsonl(&old, text_columns);
    let b = String::from_utf8(a.clone())
        .unwrap()
        .replace("\"distance\":", "\"distance\":true,\"x\":")
        .into_bytes();
    let e = verify((&a, "old.jsonl"), (&b, "new.jsonl"), &all()).unwrap_err();
    assert!(e.message.contains("column `distance`"), "{e}");
    assert!(e.message.contains("--ignore distance"), "{e}");
}

#[test]
fn columns_restricts_the_comparison_on_purpose_and_says_what_it_left_out() {
    let old = table();
    let mut new = old.clone();
    new.1[3][6] = "1".into(); // a distance changed, not compared
    let opts = VerifyOptions {
        columns: Some(vec!["dep_delay".into()]),
        ..all()
    };
    let r = verify((&csv(&old), "old.csv"), (&csv(&new), "new.csv"), &opts).unwrap();
    assert_eq!(counts(&r), (0, 0, 0, true), "{r:?}");
    let left: Vec<(&str, &str)> = r
        .ignored
        .iter()
        .map(|i| (i.column.as_str(), i.why.as_str()))
        .collect();
    assert_eq!(
        left,
        [
            ("tailnum", "not in --columns"),
            ("distance", "not in --columns")
        ]
    );
    // the key's columns are compared whatever --columns says
    let names: Vec<&str> = r.compared.iter().map(|c| c.column.as_str()).collect();
    assert_eq!(
        names,
        ["carrier", "flight", "origin", "dest", "dep_ts", "dep_delay"]
    );
}

#[test]
fn a_name_no_export_holds_or_a_key_column_ignored_is_refused() {
    let t = csv(&table());
    let opts = VerifyOptions {
        ignore: vec!["dep_dealy".into()],
        ..all()
    };
    let e = verify((&t, "old.csv"), (&t, "new.csv"), &opts).unwrap_err();
    assert!(e.message.contains("no column `dep_dealy`"), "{e}");
    let opts = VerifyOptions {
        ignore: vec!["origin".into()],
        ..all()
    };
    let e = verify((&t, "old.csv"), (&t, "new.csv"), &opts).unwrap_err();
    assert!(e.message.contains("read by the new key"), "{e}");
}

#[test]
fn an_empty_export_is_every_row_of_the_other_side_unmatched() {
    // issue 73: an export with its header and no rows was "no rows to analyze"
    let t = table();
    let empty = (t.0.clone(), Vec::new());
    let r = verify((&csv(&t), "old.csv"), (&csv(&empty), "new.csv"), &all()).unwrap();
    assert_eq!((r.old_rows, r.new_rows), (240, 0));
    assert_eq!(counts(&r), (240, 0, 0, false), "{r:?}");
    let r = verify((&csv(&empty), "old.csv"), (&csv(&t), "new.csv"), &all()).unwrap();
    assert_eq!(counts(&r), (0, 240, 0, false), "{r:?}");
}

#[test]
fn a_declared_cell_can_be_ignored_or_missing_like_any_other_column() {
    // the new design declares the delay beside its key: still a column like the others
    let mut v: serde_json::Value = serde_json::json!({"v": 1, "key": NEW_KEY});
    v["fields"] = serde_json::json!([
        {"name": "origin", "type": "string"}, {"name": "dest", "type": "string"},
        {"name": "dep_ts", "type": "timestamp"}, {"name": "carrier", "type": "string"},
        {"name": "flight", "type": "long"}, {"name": "dep_delay", "type": "long"}
    ]);
    let doc = DesignDocument::from_json(&v.to_string()).unwrap();
    let old = table();
    let mut new = old.clone();
    new.1[2][7] = "55".into();
    let opts = VerifyOptions {
        ignore: vec!["dep_delay".into()],
        ..all()
    };
    let (a, b) = (csv(&old), csv(&new));
    let r = verify_through(doc.clone(), (&a, "old.csv"), (&b, "new.csv"), &opts).unwrap();
    assert_eq!(counts(&r), (0, 0, 0, true), "{r:?}");
    let r = verify_through(doc.clone(), (&a, "old.csv"), (&b, "new.csv"), &all()).unwrap();
    assert_eq!(counts(&r), (0, 0, 1, false), "{r:?}");
    assert!(compared(&r).contains(&("dep_delay", "long")));
    new.0.remove(7);
    new.1.iter_mut().for_each(|r| {
        r.remove(7);
    });
    let r = verify_through(doc, (&a, "old.csv"), (&csv(&new), "new.csv"), &all()).unwrap();
    assert_eq!(
        (r.only_old.clone(), counts(&r)),
        (vec!["dep_delay".to_string()], (0, 0, 0, false))
    );
}
