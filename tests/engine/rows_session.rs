//! The two-pass rows session (`rowkey_lab::analyze::RowsSession`), the one type the page's and
//! npm's wasm and the Python binding drive: the same rows through every door (bytes in pieces,
//! a Parquet file by row group, Arrow batches, a file the engine reads itself) give one report,
//! the one `analyze_rows` gives; rows past the memory kept are read again to the same report;
//! the split keys are exact exactly when every row's key was counted. Keys are built here by
//! hand (`carrier_flight`), not by the engine.
#![cfg(feature = "rows")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Cursor;
use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use rowkey_lab::analyze::{analyze_rows, split_sample, AnalyzeOptions, RowsSession};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::ErrorKind;
use rowkey_lab::rows::RowsOptions;
use serde_json::json;

const CARRIERS: [&str; 5] = ["UA", "AA", "B6", "DL", "EV"];

fn design(presplit: serde_json::Value) -> DesignDocument {
    DesignDocument::from_json(
        &json!({
            "v": 1,
            "fields": [
                {"name": "carrier", "type": "string"},
                {"name": "flight", "type": "long"}
            ],
            "key": "carrier + \"_\" + str(flight)",
            "regions": {"presplit": presplit}
        })
        .to_string(),
    )
    .unwrap()
}

fn quantiles(regions: u32, by: &str) -> DesignDocument {
    design(json!({"kind": "sampleQuantiles", "regions": regions, "by": by}))
}

/// Row `i`: its carrier and flight.
fn row(i: usize) -> (&'static str, i64) {
    (CARRIERS[i * 7 % CARRIERS.len()], (i * 37 % 1000) as i64)
}

/// Row `i`'s key, as the design's key writes it (string, `_`, the flight in decimal).
fn key_of(i: usize) -> Vec<u8> {
    let (c, f) = row(i);
    format!("{c}_{f}").into_bytes()
}

fn csv(n: usize) -> Vec<u8> {
    let mut s = String::from("carrier,flight\n");
    for i in 0..n {
        let (c, f) = row(i);
        s.push_str(&format!("{c},{f}\n"));
    }
    s.into_bytes()
}

fn batch(from: usize, to: usize) -> RecordBatch {
    let schema = Arc::new(Schema::new(vec![
        Field::new("carrier", DataType::Utf8, false),
        Field::new("flight", DataType::Int64, false),
    ]));
    let c: ArrayRef = Arc::new(StringArray::from_iter_values((from..to).map(|i| row(i).0)));
    let f: ArrayRef = Arc::new(Int64Array::from_iter_values((from..to).map(|i| row(i).1)));
    RecordBatch::try_new(schema, vec![c, f]).unwrap()
}

fn parquet(n: usize, group: usize) -> Vec<u8> {
    let b = batch(0, n);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(group))
        .build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, b.schema(), Some(props)).unwrap();
    w.write(&b).unwrap();
    w.close().unwrap();
    out
}

fn opts(name: &str, keep: Option<u64>) -> RowsOptions {
    RowsOptions {
        name: Some(name.into()),
        keep_bytes: keep,
        ..RowsOptions::default()
    }
}

fn session(doc: &DesignDocument, rows: RowsOptions) -> RowsSession {
    RowsSession::new(doc.clone(), AnalyzeOptions::default(), rows).unwrap()
}

/// The report (as JSON) and split keys after both passes, `feed` handing the rows over each
/// pass; whether the first pass analyzed them from memory.
fn two_passes(
    mut s: RowsSession,
    mut feed: impl FnMut(&mut RowsSession),
) -> (serde_json::Value, Vec<Vec<u8>>, bool, u64) {
    feed(&mut s);
    let end = s.end_scan().unwrap();
    if !end.analyzed {
        feed(&mut s);
    }
    let stats = s.end().unwrap();
    assert_eq!(stats.rows, end.summary.rows);
    assert_eq!(s.end().unwrap(), stats, "end() again: the same stats");
    let report = serde_json::to_value(s.report().unwrap()).unwrap();
    let keys = s.split_keys().unwrap().keys.clone();
    (report, keys, end.analyzed, stats.rows)
}

#[test]
fn every_door_gives_one_report_with_exact_split_keys() {
    const N: usize = 3000;
    let doc = quantiles(4, "rows");
    let text = csv(N);
    let pq = parquet(N, 700);
    let (one, _) = analyze_rows(
        &doc,
        &AnalyzeOptions::default(),
        &opts("r.csv", None),
        &text,
    )
    .unwrap();
    let one = serde_json::to_value(one).unwrap();

    let mut doors = Vec::new();
    // CSV in 7-byte pieces (lines cut anywhere), kept rows and read twice
    for keep in [None, Some(0)] {
        doors.push(two_passes(session(&doc, opts("r.csv", keep)), |s| {
            for piece in text.chunks(7) {
                s.push(piece).unwrap();
            }
        }));
    }
    // Arrow batches of uneven sizes
    for keep in [None, Some(0)] {
        doors.push(two_passes(session(&doc, opts("data", keep)), |s| {
            for (a, b) in [(0, 1), (1, 1200), (1200, 1200), (1200, N)] {
                s.push_batch(&batch(a, b)).unwrap();
            }
        }));
    }
    // the engine reading a CSV and a Parquet file itself (pieces, row groups)
    for (name, bytes) in [("r.csv", &text), ("r.parquet", &pq)] {
        for keep in [None, Some(0)] {
            doors.push(two_passes(session(&doc, opts(name, keep)), |s| {
                let mut f = Cursor::new(bytes.clone());
                s.read_file(&mut f, bytes.len() as u64).unwrap();
            }));
        }
    }
    let mut keys: Vec<Vec<u8>> = (0..N).map(key_of).collect();
    keys.sort();
    let expected_keys = split_sample(&doc, &keys, 4).unwrap();
    assert_eq!(expected_keys.len(), 3);
    for (i, (report, split, analyzed, rows)) in doors.iter().enumerate() {
        assert_eq!(*rows, N as u64, "door {i}");
        assert_eq!(
            *analyzed,
            i % 2 == 0,
            "door {i}: kept rows are counted from memory"
        );
        assert_eq!(split, &expected_keys, "door {i}");
        assert_eq!(report, &one, "door {i}: another report");
    }
    // the regions the report counts cut the hand-made keys where the split keys say
    let regions = one["regions"].as_array().unwrap();
    let counted: Vec<u64> = regions
        .iter()
        .map(|r| r["writes"].as_u64().unwrap())
        .collect();
    let mut by_hand = vec![0u64; 4];
    for k in &keys {
        by_hand[expected_keys
            .iter()
            .filter(|s| s.as_slice() <= k.as_slice())
            .count()] += 1;
    }
    assert_eq!(counted, by_hand);
}

#[test]
fn split_keys_are_exact_when_every_row_key_was_counted() {
    // past the scan's sample (SAMPLE_KEYS = 1,000,000 rows): exact only from the kept rows,
    // and the kept rows cut by rows alone
    const N: usize = 1_000_050;
    let feed = |s: &mut RowsSession| {
        for a in (0..N).step_by(100_000) {
            s.push_batch(&batch(a, (a + 100_000).min(N))).unwrap();
        }
    };
    let mut keys: Vec<Vec<u8>> = (0..N).map(key_of).collect();
    keys.sort();
    for (by, keep, exact) in [
        ("rows", None, true),
        ("rows", Some(0), false),
        ("bytes", None, false),
    ] {
        let doc = quantiles(8, by);
        let mut s = session(&doc, opts("data", keep));
        feed(&mut s);
        s.end_scan().unwrap();
        let cut = s.split_keys().unwrap();
        assert_eq!(
            (cut.exact, cut.rows),
            (exact, N as u64),
            "by {by}, keep {keep:?}"
        );
        if by == "rows" && exact {
            assert_eq!(cut.keys, split_sample(&doc, &keys, 8).unwrap());
        }
    }
}

#[test]
fn a_session_refuses_calls_out_of_order_and_mixed_schemas() {
    let doc = quantiles(4, "rows");
    let mut s = session(&doc, opts("data", None));
    assert_eq!(s.report().unwrap_err().kind, ErrorKind::IllegalState);
    assert_eq!(s.split_keys().unwrap_err().kind, ErrorKind::IllegalState);
    s.push_batch(&batch(0, 10)).unwrap();
    assert_eq!(s.keep_keys().unwrap_err().kind, ErrorKind::IllegalState);
    // a batch of another schema: the columns would be read at the first one's positions
    let other = RecordBatch::try_new(
        Arc::new(Schema::new(vec![
            Field::new("flight", DataType::Int64, false),
            Field::new("carrier", DataType::Utf8, false),
        ])),
        vec![
            Arc::new(Int64Array::from(vec![1])) as ArrayRef,
            Arc::new(StringArray::from(vec!["UA"])) as ArrayRef,
        ],
    )
    .unwrap();
    let e = s.push_batch(&other).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(e.message.contains("another schema"), "{e}");
    assert_eq!(
        s.push(b"carrier,flight\n").unwrap_err().kind,
        ErrorKind::IllegalState
    );
    let end = s.end_scan().unwrap();
    assert!(end.analyzed);
    // counted from memory: a second pass would count the rows twice
    let e = s.push_batch(&batch(0, 10)).unwrap_err();
    assert!(e.message.contains("analyzed from memory"), "{e}");
    assert_eq!(s.end().unwrap().rows, 10);
}

#[test]
fn a_parquet_footer_that_names_bytes_past_the_file_is_refused() {
    let doc = quantiles(4, "rows");
    let pq = parquet(100, 50);
    // the file cut short: its footer names row groups past the end
    let mut cut = pq[..8].to_vec();
    let tail_at = pq.len() - pq[pq.len() - 8..].len();
    let footer_len = u32::from_le_bytes(pq[tail_at..tail_at + 4].try_into().unwrap()) as usize;
    cut.extend_from_slice(&pq[pq.len() - footer_len - 8..]);
    let mut s = session(&doc, opts("r.parquet", None));
    let e = s
        .read_file(&mut Cursor::new(cut.clone()), cut.len() as u64)
        .unwrap_err();
    assert!(e.message.contains("outside the file"), "{e}");
    // and a file too short to be Parquet at all
    let mut s = session(&doc, opts("r.parquet", None));
    let e = s
        .read_file(&mut Cursor::new(b"PAR1PAR".to_vec()), 7)
        .unwrap_err();
    assert!(e.message.contains("too short"), "{e}");
}

/// A file read in chunks by several sessions at once keeps one budget of rows between them
/// (issue 73: each worker kept up to the whole cap, and memory grew with the workers): each
/// chunk its share and a quarter more, the shares of a file together a quarter more than the
/// cap, never past the cap, at least 1 MiB.
#[test]
fn chunks_read_at_once_share_the_kept_rows_cap() {
    let whole = 256u64 << 20;
    let rows = RowsOptions::default();
    let shares: Vec<u64> = [100u64, 300, 600]
        .iter()
        .map(|&b| rows.chunk_kept_bytes(b, 1000).unwrap())
        .collect();
    assert_eq!(shares, [whole / 8, whole * 3 / 8, whole * 3 / 4]);
    assert!(shares.iter().sum::<u64>() <= whole * 5 / 4);
    assert_eq!(rows.chunk_kept_bytes(1000, 1000).unwrap(), whole);
    assert_eq!(rows.chunk_kept_bytes(1, 1 << 40).unwrap(), 1 << 20);
    // the caller's cap is shared the same way, and one under 1 MiB is kept whole
    assert_eq!(
        opts("r.csv", Some(8 << 20)).chunk_kept_bytes(1, 4).unwrap(),
        5 << 20 >> 1
    );
    assert_eq!(
        opts("r.csv", Some(1000)).chunk_kept_bytes(1, 4).unwrap(),
        1000
    );
    // and a session given its share keeps no more: a chunk past it is refused, read in one pass
    let doc = design(json!({"kind": "none"}));
    let mut s = session(&doc, opts("r.csv", Some(1 << 10)));
    s.push(&csv(5_000)).unwrap();
    assert_eq!(s.chunk().unwrap_err().kind, ErrorKind::Limit);
}
