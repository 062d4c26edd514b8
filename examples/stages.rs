//! Stage timing of the telecom analysis: workload only, + encode, + analyzer.
#![allow(clippy::unwrap_used, missing_docs)]
use rowkey_lab::analyze::{analyzer_options, document_encoder, AnalyzeOptions, Analyzer};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::workload::{Record, WorkloadStream};
use std::time::Instant;
fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000_000);
    let hash = std::env::args().nth(2).unwrap_or("javaString".into());
    let text = format!(
        r#"{{"v": 1, "fields": [
            {{"name": "phone", "type": "string", "generator": {{"kind": "phone", "prefixes": ["134", "135", "138", "188"], "digits": 8, "distinct": 1000000}}}},
            {{"name": "ts", "type": "timestamp", "generator": {{"kind": "clock"}}}}],
          "key": "salt(phone, 64, hash={hash}, as=dec(2)) + \"_\" + phone + \"_\" + time(ts, \"yyyyMMddHHmmss\")",
          "workload": {{"records": {n}, "seed": 1, "writeRate": 10000}},
          "regions": {{"presplit": {{"kind": "saltBuckets", "buckets": 64, "style": "decimal", "width": 2}}}}}}"#
    );
    let doc = DesignDocument::from_json(&text).unwrap();
    let w = doc.workload.clone().unwrap();
    let t = Instant::now();
    let mut s = WorkloadStream::new(&w, &doc.fields).unwrap();
    let setup = t.elapsed().as_secs_f64();
    let mut rec = Record::default();
    let mut c = 0u64;
    while s.next_into(&mut rec) {
        c += rec.time_ms as u64;
    }
    let gen = t.elapsed().as_secs_f64();
    let mut s = WorkloadStream::new(&w, &doc.fields).unwrap();
    let mut enc = document_encoder(&doc).unwrap();
    let mut key = Vec::new();
    let t = Instant::now();
    while s.next_into(&mut rec) {
        key.clear();
        enc(&rec, &mut key).unwrap();
        c += key.len() as u64;
    }
    let encd = t.elapsed().as_secs_f64();
    let o = AnalyzeOptions {
        windows: 256,
        ..Default::default()
    };
    let keys = doc.regions.clone().unwrap().split_keys(&[]).unwrap();
    let mut a = Analyzer::new(keys, analyzer_options(&doc, &o).unwrap()).unwrap();
    let mut s = WorkloadStream::new(&w, &doc.fields).unwrap();
    let t = Instant::now();
    while s.next_into(&mut rec) {
        key.clear();
        enc(&rec, &mut key).unwrap();
        a.push(&key, rec.time_ms, key.len() as u64 + 100);
    }
    let full = t.elapsed().as_secs_f64();
    println!("{n} {hash}: setup {setup:.3}s, generate {:.0} ns/rec, +encode {:.0} ns/rec, +analyzer {:.0} ns/rec ({c})",
        (gen - setup) * 1e9 / n as f64, encd * 1e9 / n as f64, full * 1e9 / n as f64);
}
