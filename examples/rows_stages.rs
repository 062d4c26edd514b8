//! Stage timing of a rows analysis over a Parquet or CSV file, natively on one thread: the
//! reading alone (a sink that drops every row), + each row's key (the scan), + the rows kept
//! (the first pass), the key and a profile, and the whole two passes (`count_rows` finished). Where a rows run's time
//! goes, to compare with the wasm CLI's (docs/bench-rows.md). Build with `--profile bench`:
//! `cargo run --profile bench --example rows_stages -- DESIGN FILE TIMECOL`.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
use rowkey_lab::analyze::{count_rows, row_fields, AnalyzeOptions, FirstPass};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::keyspec::{CompiledKey, FieldValue};
use rowkey_lab::rows::{NullPolicy, ParquetFile, RowReader, RowScan, RowSink, RowsOptions};

struct Drop;
impl RowSink for Drop {
    fn row(&mut self, _: &[FieldValue], _: Option<i64>) -> rowkey_lab::error::Result<()> {
        Ok(())
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let doc = DesignDocument::from_json(&std::fs::read_to_string(&a[1]).unwrap()).unwrap();
    let bytes = bytes::Bytes::from(std::fs::read(&a[2]).unwrap());
    let rows = RowsOptions {
        time: Some(a[3].clone()),
        nulls: NullPolicy::Skip,
        name: Some(a[2].clone()),
        ..RowsOptions::default()
    };
    let (fields, used) = row_fields(&doc).unwrap();
    let parquet = a[2].ends_with(".parquet");
    let feed = |sink: &mut dyn RowSink| {
        if parquet {
            let f = ParquetFile::new(bytes.clone(), &rows).unwrap();
            f.read_all(&fields, &used, &rows, sink)
        } else {
            let mut r = RowReader::new(fields.clone(), used.clone(), rows.clone());
            r.push(&bytes, sink)?;
            r.finish(sink)
        }
    };
    let key = || CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    // WHOLE_ONLY=1: only the whole analysis (what the CLI runs), for a profiler's samples.
    if std::env::var_os("WHOLE_ONLY").is_some() {
        for _ in 0..reps {
            let t = std::time::Instant::now();
            let (run, _, _) =
                count_rows(&doc, &AnalyzeOptions::default(), 1 << 30, &mut |s| feed(s)).unwrap();
            let report = run.finish();
            println!("whole {:?} ({} regions)", t.elapsed(), report.regions.len());
        }
        return;
    }
    for _ in 0..reps {
        let t = std::time::Instant::now();
        let s = feed(&mut Drop).unwrap();
        let read = t.elapsed();
        let t = std::time::Instant::now();
        feed(&mut RowScan::new(Some(key()))).unwrap();
        let scan = t.elapsed();
        let t = std::time::Instant::now();
        let mut first = FirstPass::new(&doc, RowScan::new(Some(key())), 1 << 30).unwrap();
        feed(&mut first).unwrap();
        let kept = t.elapsed();
        let t = std::time::Instant::now();
        feed(&mut RowScan::new(Some(key())).with_profile(&fields)).unwrap();
        let profile = t.elapsed();
        let t = std::time::Instant::now();
        let (run, _, _) =
            count_rows(&doc, &AnalyzeOptions::default(), 1 << 30, &mut |s| feed(s)).unwrap();
        let report = run.finish();
        let whole = t.elapsed();
        println!(
            "rows {} used {}: read {:?}, +key {:?}, +kept {:?}, profile {:?}, whole {:?} (writes {:?})",
            s.rows,
            s.used,
            read,
            scan,
            kept,
            profile,
            whole,
            report.regions.iter().map(|r| r.writes).collect::<Vec<_>>()
        );
    }
}
