//! One reading of a user's rows for several designs (`rowkey_lab::analyze::SharedRows`, what
//! the rekey plan reads the old table's rows with): each design's report, split keys and
//! reading stats are the ones its own `RowsSession` gives over the same rows, byte for byte,
//! through every door (bytes in pieces, the engine reading a CSV or Parquet file, Arrow
//! batches, chunks read apart and added), when the rows are kept or read twice (or kept for one
//! design and not the other), when the designs declare their fields in other orders, and when
//! a null in a field one key reads skips the row for that design alone.
#![cfg(feature = "rows")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Cursor;
use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use rowkey_lab::analyze::{rows_shareable, AnalyzeOptions, RowsSession, SharedRows};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::ErrorKind;
use rowkey_lab::rows::{NullPolicy, RowStats, RowsOptions};
use serde_json::{json, Value};

const CARRIERS: [&str; 5] = ["UA", "AA", "B6", "DL", "EV"];
const N: usize = 3000;

fn doc(v: Value) -> DesignDocument {
    DesignDocument::from_json(&v.to_string()).unwrap()
}

/// The old design: the flight number first (a sequence), then the carrier.
fn old() -> DesignDocument {
    doc(json!({
        "v": 1,
        "fields": [{"name": "carrier", "type": "string"}, {"name": "flight", "type": "long"}],
        "key": "str(flight) + \"_\" + carrier",
        "regions": {"presplit": {"kind": "uniform", "regions": 3}}
    }))
}

/// The new design: salted by carrier, cut into 4 regions at its rows' keys.
fn new() -> DesignDocument {
    doc(json!({
        "v": 1,
        "fields": [{"name": "carrier", "type": "string"}, {"name": "flight", "type": "long"}],
        "key": "salt(carrier, 4) + carrier + \"_\" + str(flight)",
        "regions": {"presplit": {"kind": "sampleQuantiles", "regions": 4}}
    }))
}

/// Row `i`: its carrier, flight (none every 11th row when `holes`) and destination.
fn row(i: usize, holes: bool) -> (&'static str, Option<i64>, String) {
    let flight = (!(holes && i % 11 == 3)).then_some((i * 37 % 1000) as i64);
    (
        CARRIERS[i * 7 % CARRIERS.len()],
        flight,
        format!("D{}", i % 13),
    )
}

fn csv_lines(from: usize, to: usize, holes: bool) -> String {
    let mut s = String::new();
    for i in from..to {
        let (c, f, d) = row(i, holes);
        s.push_str(&format!(
            "{c},{},{d}\n",
            f.map_or(String::new(), |f| f.to_string())
        ));
    }
    s
}

const HEADER: &str = "carrier,flight,dest\n";

fn csv(holes: bool) -> Vec<u8> {
    format!("{HEADER}{}", csv_lines(0, N, holes)).into_bytes()
}

fn batch(from: usize, to: usize) -> RecordBatch {
    let schema = Arc::new(Schema::new(vec![
        Field::new("carrier", DataType::Utf8, false),
        Field::new("flight", DataType::Int64, true),
        Field::new("dest", DataType::Utf8, false),
    ]));
    let rows: Vec<_> = (from..to).map(|i| row(i, false)).collect();
    let c: ArrayRef = Arc::new(StringArray::from_iter_values(rows.iter().map(|r| r.0)));
    let f: ArrayRef = Arc::new(Int64Array::from_iter(rows.iter().map(|r| r.1)));
    let d: ArrayRef = Arc::new(StringArray::from_iter_values(
        rows.iter().map(|r| r.2.clone()),
    ));
    RecordBatch::try_new(schema, vec![c, f, d]).unwrap()
}

fn parquet() -> Vec<u8> {
    let b = batch(0, N);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(700))
        .build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, b.schema(), Some(props)).unwrap();
    w.write(&b).unwrap();
    w.close().unwrap();
    out
}

fn opts(name: &str, keep: Option<u64>, nulls: NullPolicy) -> RowsOptions {
    RowsOptions {
        name: Some(name.into()),
        keep_bytes: keep,
        nulls,
        ..RowsOptions::default()
    }
}

/// What one design's analysis gives: its report (JSON), split keys, exactness and stats.
#[derive(Debug, PartialEq)]
struct Answer {
    report: String,
    split_keys: Vec<Vec<u8>>,
    exact: bool,
    stats: RowStats,
}

/// `doc` analyzed alone over the file `bytes` (the engine reading it), the oracle.
fn alone(doc: &DesignDocument, rows: &RowsOptions, bytes: &[u8]) -> Answer {
    let mut s = RowsSession::new(doc.clone(), AnalyzeOptions::default(), rows.clone()).unwrap();
    let stats = s
        .analyze_file(&mut Cursor::new(bytes.to_vec()), bytes.len() as u64)
        .unwrap();
    let k = s.split_keys().unwrap();
    Answer {
        report: serde_json::to_string(&s.report().unwrap()).unwrap(),
        split_keys: k.keys.clone(),
        exact: k.exact,
        stats,
    }
}

/// Each design's answer from one shared reading, `feed` handing the rows over each pass; and
/// whether the first pass analyzed every design from memory.
fn shared(
    docs: &[DesignDocument],
    rows: &RowsOptions,
    mut feed: impl FnMut(&mut SharedRows),
) -> (Vec<Answer>, bool) {
    let mut s = SharedRows::new(docs.to_vec(), AnalyzeOptions::default(), rows.clone()).unwrap();
    feed(&mut s);
    let end = s.end_scan().unwrap();
    if !end.analyzed {
        feed(&mut s);
    }
    let first = s.end().unwrap();
    assert_eq!(s.end().unwrap(), first, "end() again: the same stats");
    let answers = (0..docs.len())
        .map(|i| {
            let k = s.split_keys(i).unwrap();
            Answer {
                report: serde_json::to_string(&s.report(i).unwrap()).unwrap(),
                split_keys: k.keys.clone(),
                exact: k.exact,
                stats: s.stats(i).unwrap().clone(),
            }
        })
        .collect();
    (answers, end.analyzed)
}

fn file_feed(bytes: &[u8]) -> impl FnMut(&mut SharedRows) + '_ {
    |s| {
        s.read_file(&mut Cursor::new(bytes.to_vec()), bytes.len() as u64)
            .unwrap();
    }
}

#[test]
fn each_design_gets_its_own_report_through_every_door() {
    let docs = [old(), new()];
    let text = csv(false);
    let pq = parquet();
    for keep in [None, Some(0)] {
        let rows = opts("r.csv", keep, NullPolicy::Error);
        let expected: Vec<Answer> = docs.iter().map(|d| alone(d, &rows, &text)).collect();
        assert_ne!(
            expected[0].report, expected[1].report,
            "two designs, two reports"
        );
        // bytes in 7-byte pieces (lines cut anywhere)
        let (got, analyzed) = shared(&docs, &rows, |s| {
            for piece in text.chunks(7) {
                s.push(piece).unwrap();
            }
        });
        assert_eq!(
            analyzed,
            keep.is_none(),
            "kept rows are counted from memory"
        );
        assert_eq!(got, expected, "CSV in pieces, keep {keep:?}");
        // the engine reading the file itself
        assert_eq!(shared(&docs, &rows, file_feed(&text)).0, expected);

        let rows = opts("r.parquet", keep, NullPolicy::Error);
        let expected: Vec<Answer> = docs.iter().map(|d| alone(d, &rows, &pq)).collect();
        assert_eq!(shared(&docs, &rows, file_feed(&pq)).0, expected, "Parquet");

        // Arrow batches of uneven sizes, against the same rows as a Parquet file alone
        let rows = opts("data", keep, NullPolicy::Error);
        let (got, _) = shared(&docs, &rows, |s| {
            for (a, b) in [(0, 1), (1, 1200), (1200, 1200), (1200, N)] {
                s.push_batch(&batch(a, b)).unwrap();
            }
        });
        let reports: Vec<&str> = got.iter().map(|a| a.report.as_str()).collect();
        let from_file: Vec<&str> = expected.iter().map(|a| a.report.as_str()).collect();
        assert_eq!(reports, from_file, "Arrow batches");
    }
}

#[test]
fn rows_kept_for_one_design_and_read_again_for_the_other() {
    // the old keys ("123_UA", and 4 bytes of end a row) fit the memory kept; the new ones (a
    // salt, "UA_123") are longer and do not: the old design is counted from memory, the new
    // one from a second reading
    let docs = [old(), new()];
    let text = csv(false);
    let old_bytes: usize = (0..N)
        .map(|i| row(i, false).1.unwrap().to_string().len() + 3 + 4)
        .sum();
    let rows = opts("r.csv", Some(old_bytes as u64 + 20), NullPolicy::Error);
    let expected: Vec<Answer> = docs.iter().map(|d| alone(d, &rows, &text)).collect();
    let mut passes = 0;
    let (got, analyzed) = shared(&docs, &rows, |s| {
        passes += 1;
        file_feed(&text)(s);
    });
    assert!(!analyzed, "the new design's rows were not kept");
    assert_eq!(passes, 2);
    assert_eq!(got, expected);
}

#[test]
fn fields_in_another_order_and_a_null_only_one_key_reads() {
    // the old key reads the carrier alone; the new one declares its fields in another order,
    // with one more, and reads the flight too: a row without a flight is skipped by the new
    // design alone, counted by the old
    let old = doc(json!({
        "v": 1,
        "fields": [{"name": "carrier", "type": "string"}, {"name": "flight", "type": "long"}],
        "key": "carrier"
    }));
    let new = doc(json!({
        "v": 1,
        "fields": [
            {"name": "dest", "type": "string"},
            {"name": "flight", "type": "long"},
            {"name": "carrier", "type": "string"}
        ],
        "key": "carrier + \"_\" + str(flight) + \"_\" + dest",
        "regions": {"presplit": {"kind": "sampleQuantiles", "regions": 4, "by": "bytes"}}
    }));
    let docs = [old, new];
    let text = csv(true);
    for keep in [None, Some(0)] {
        let rows = opts("r.csv", keep, NullPolicy::Skip);
        let expected: Vec<Answer> = docs.iter().map(|d| alone(d, &rows, &text)).collect();
        let holes = (0..N).filter(|i| i % 11 == 3).count() as u64;
        assert_eq!(
            expected[0].stats.used, N as u64,
            "the old key reads no flight"
        );
        assert_eq!(expected[1].stats.used, N as u64 - holes);
        assert_eq!(expected[1].stats.skipped.get("flight"), Some(&holes));
        let (got, _) = shared(&docs, &rows, file_feed(&text));
        assert_eq!(got, expected, "keep {keep:?}");
    }
    // under `nulls: error` the reading stops at the first row without a flight, as the new
    // design's alone does
    let rows = opts("r.csv", None, NullPolicy::Error);
    let mut s = SharedRows::new(docs.to_vec(), AnalyzeOptions::default(), rows).unwrap();
    let e = s
        .read_file(&mut Cursor::new(text.clone()), text.len() as u64)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(e.message.contains("column `flight`"), "{}", e.message);
}

#[test]
fn chunks_read_apart_add_up_to_each_designs_report() {
    let docs = [old(), new()];
    let text = csv(false);
    let rows = opts("r.csv", None, NullPolicy::Error);
    let expected: Vec<Answer> = docs.iter().map(|d| alone(d, &rows, &text)).collect();
    let mut main = SharedRows::new(docs.to_vec(), AnalyzeOptions::default(), rows.clone()).unwrap();
    assert!(main.chunkable());
    for (a, b) in [(0, 1000), (1000, 2500), (2500, N)] {
        let mut part =
            SharedRows::new(docs.to_vec(), AnalyzeOptions::default(), rows.clone()).unwrap();
        part.push(HEADER.as_bytes()).unwrap();
        part.push(csv_lines(a, b, false).as_bytes()).unwrap();
        main.add_chunk(part.chunk().unwrap()).unwrap();
    }
    assert!(main.end_scan().unwrap().analyzed);
    main.end().unwrap();
    for (i, e) in expected.iter().enumerate() {
        assert_eq!(
            serde_json::to_string(&main.report(i).unwrap()).unwrap(),
            e.report,
            "design {i}"
        );
        assert_eq!(main.split_keys(i).unwrap().keys, e.split_keys);
        assert_eq!(main.stats(i).unwrap(), &e.stats);
    }
    // one design's chunk is not a shared reading's
    let mut single = RowsSession::new(old(), AnalyzeOptions::default(), rows.clone()).unwrap();
    single.push(csv(false).as_slice()).unwrap();
    let mut other = SharedRows::new(docs.to_vec(), AnalyzeOptions::default(), rows).unwrap();
    let e = other.add_chunk(single.chunk().unwrap()).unwrap_err();
    assert!(
        e.message.contains("not a chunk of this shared reading"),
        "{}",
        e.message
    );
}

#[test]
fn designs_that_cannot_share_a_reading_say_why() {
    let mut long_carrier = new();
    long_carrier.fields[0].field_type = rowkey_lab::keyspec::FieldType::Long;
    long_carrier.key = DesignDocument::from_json(
        &json!({"v": 1, "fields": [{"name": "carrier", "type": "long"}], "key": "str(carrier)"})
            .to_string(),
    )
    .unwrap()
    .key;
    let why = rows_shareable(&[old(), long_carrier.clone()]).expect("a field typed two ways");
    assert!(
        why.contains("field `carrier` is string in design 1 and long in design 2"),
        "{why}"
    );
    let e = SharedRows::new(
        vec![old(), long_carrier],
        AnalyzeOptions::default(),
        RowsOptions::default(),
    )
    .err()
    .unwrap();
    assert_eq!(
        (e.kind, e.location.path.as_deref()),
        (ErrorKind::IllegalArgument, Some("designs"))
    );
    assert_eq!(rows_shareable(&[old(), new()]), None);
    assert!(rows_shareable(&[]).is_some());
    // calls out of order
    let mut s = SharedRows::new(
        vec![old(), new()],
        AnalyzeOptions::default(),
        RowsOptions::default(),
    )
    .unwrap();
    assert_eq!(s.end().unwrap_err().kind, ErrorKind::IllegalState);
    assert!(s.report(2).is_err(), "no design 2");
}
