//! `calls::rows_file` (the native engine's `analyze --records`): a file read by the engine
//! itself gives the same design, summary, stats and report, byte for byte, whether one thread
//! reads it in one pass or two threads read its chunks (CSV at line ends, JSON Lines, Parquet row
//! groups and runs of one large row group's rows); a bad row is the same located error either way.
#![cfg(feature = "rows")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{ArrayRef, Int32Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use rowkey_lab::analyze::{ReadPass, ReadWatch};
use rowkey_lab::calls::rows_file::{analyze_rows_file, analyze_rows_file_watched};
use rowkey_lab::calls::{error_json, report_parts, to_json};

const DESIGN: &str = r#"{"v": 1,
  "fields": [{"name": "carrier", "type": "string"}, {"name": "flight", "type": "int"}],
  "key": "salt(carrier + str(flight), 8, as=dec(2)) + \"_\" + carrier + str(flight)",
  "regions": {"presplit": {"kind": "explicit", "keys": ["02", "04", "06"]}}}"#;
const CARRIERS: [&str; 5] = ["UA", "AA", "B6", "DL", "EV"];

/// A file of this test's own under the temporary folder.
fn temp(name: &str, bytes: &[u8]) -> PathBuf {
    let p = std::env::temp_dir().join(format!("rowkey-calls-{}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Everything a run answers, as text (an error as its fields).
fn answer(path: &Path, threads: u32) -> String {
    let rows = format!(
        r#"{{"name": "{}"}}"#,
        path.file_name().unwrap().to_string_lossy()
    );
    match analyze_rows_file(
        DESIGN,
        Some(r#"{"windows": 8}"#),
        Some(&rows),
        path.to_str().unwrap(),
        threads,
        Some(1),
    ) {
        Ok(run) => {
            let report = report_parts(run.report.clone().unwrap()).unwrap();
            format!(
                "{}\n{}\n{}\n{}\n{:?}",
                run.design,
                to_json(&run.summary).unwrap(),
                run.stats_json().unwrap(),
                report.json,
                (report.matrix, report.grid, report.keys, report.offsets)
            )
        }
        Err(e) => error_json(&e),
    }
}

fn csv(n: usize) -> String {
    let mut s = String::from("carrier,flight\n");
    for i in 0..n {
        s.push_str(&format!("{},{}\n", CARRIERS[i % 5], (i * 7919) % 5000));
    }
    s
}

#[test]
fn csv_and_json_lines_read_in_chunks_give_one_pass_s_answer() {
    let text = csv(40_000);
    let c = temp("a.csv", text.as_bytes());
    let one = answer(&c, 1);
    assert!(
        one.contains("\"used\":40000"),
        "{}",
        &one[..one.len().min(300)]
    );
    assert_eq!(answer(&c, 2), one);
    let mut jsonl = String::new();
    for line in text.lines().skip(1) {
        let (carrier, flight) = line.split_once(',').unwrap();
        jsonl.push_str(&format!(
            "{{\"carrier\":\"{carrier}\",\"flight\":{flight}}}\n"
        ));
    }
    let j = temp("a.jsonl", jsonl.as_bytes());
    assert_eq!(answer(&j, 2), answer(&j, 1));
    // a bad row far into the file: the same located error whoever reads it
    let bad = temp("bad.csv", format!("{text}UA,notanumber\n").as_bytes());
    let e = answer(&bad, 2);
    assert!(e.contains("40002") || e.contains("notanumber"), "{e}");
    assert_eq!(e, answer(&bad, 1));
    for p in [c, j, bad] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn parquet_row_groups_and_runs_of_a_large_one_give_one_pass_s_answer() {
    let n = 150_000;
    let schema = Arc::new(Schema::new(vec![
        Field::new("carrier", DataType::Utf8, false),
        Field::new("flight", DataType::Int32, false),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(StringArray::from_iter_values(
                (0..n).map(|i| CARRIERS[i % 5]),
            )) as ArrayRef,
            Arc::new(Int32Array::from_iter_values(
                (0..n).map(|i| ((i * 7919) % 5000) as i32),
            )),
        ],
    )
    .unwrap();
    // several small row groups, then one row group larger than a task's rows (cut into runs)
    for (name, group) in [("small.parquet", 10_000), ("large.parquet", n)] {
        let mut bytes = Vec::new();
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(group))
            .build();
        let mut w = ArrowWriter::try_new(&mut bytes, schema.clone(), Some(props)).unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
        let p = temp(name, &bytes);
        let one = answer(&p, 1);
        assert!(
            one.contains("\"used\":150000"),
            "{name}: {}",
            &one[..one.len().min(300)]
        );
        assert_eq!(answer(&p, 2), one, "{name}");
        let _ = std::fs::remove_file(p);
    }
}

/// [`analyze_rows_file_watched`] on `path` over `threads`, its watch cancelled first or not:
/// the error's message (none) and the watch's last progress.
fn watched(
    path: &Path,
    threads: u32,
    cancel: bool,
) -> (Option<String>, (ReadPass, u64, u64, bool)) {
    let watch = ReadWatch::default();
    if cancel {
        watch.cancel();
    }
    let r = analyze_rows_file_watched(
        DESIGN,
        None,
        None,
        path.to_str().unwrap(),
        threads,
        Some(1),
        &watch,
    );
    (r.err().map(|e| e.message), watch.progress())
}

#[test]
fn a_watched_reading_says_how_far_it_has_gone_and_stops_at_its_cancel() {
    // 40,000 CSV lines: one pass reads every byte of the file; two threads its lines' chunks
    // (the header line apart, 15 bytes); a Parquet file in one pass counts its row groups
    let text = csv(40_000);
    let c = temp("watch.csv", text.as_bytes());
    let len = text.len() as u64;
    assert_eq!(
        watched(&c, 1, false),
        (None, (ReadPass::Reading, len, len, false))
    );
    let header = "carrier,flight\n".len() as u64;
    assert_eq!(
        watched(&c, 2, false),
        (None, (ReadPass::Reading, len - header, len - header, false))
    );
    // cancelled before it begins: nothing read, whoever reads, and the cancel's error (not a
    // fall back to one pass)
    for threads in [1, 2] {
        let (e, (_, done, _, _)) = watched(&c, threads, true);
        assert_eq!(e.as_deref(), Some("the reading was cancelled"), "{threads}");
        assert_eq!(done, 0, "{threads}");
    }
    let schema = Arc::new(Schema::new(vec![
        Field::new("carrier", DataType::Utf8, false),
        Field::new("flight", DataType::Int32, false),
    ]));
    let n = 30_000;
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(StringArray::from_iter_values(
                (0..n).map(|i| CARRIERS[i % 5]),
            )) as ArrayRef,
            Arc::new(Int32Array::from_iter_values(
                (0..n).map(|i| (i % 5000) as i32),
            )),
        ],
    )
    .unwrap();
    let mut bytes = Vec::new();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(10_000))
        .build();
    let mut w = ArrowWriter::try_new(&mut bytes, schema, Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let p = temp("watch.parquet", &bytes);
    assert_eq!(
        watched(&p, 1, false),
        (None, (ReadPass::Reading, 3, 3, true))
    );
    for f in [c, p] {
        let _ = std::fs::remove_file(f);
    }
}
