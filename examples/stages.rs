//! Stage timing of the telecom analysis: workload only, + encode, + analyzer, and the whole
//! `analyze()` (which adds the report). Build with `--profile bench` (opt-level 3):
//! `cargo run --profile bench --example stages 2000000 javaString`.
#![allow(clippy::unwrap_used, missing_docs)]
use rowkey_lab::analyze::{analyze, analyzer_options, AnalyzeOptions, Analyzer};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::keyspec::{CompiledKey, FieldValue};
use rowkey_lab::workload::WorkloadStream;
/// CPU time of this thread in ns (`/proc/thread-self/schedstat`), robust to other jobs on
/// a shared machine; falls back to wall time elsewhere.
struct Instant(Option<u64>, std::time::Instant);
impl Instant {
    fn cpu() -> Option<u64> {
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    }
    fn now() -> Instant {
        Instant(Self::cpu(), std::time::Instant::now())
    }
    fn elapsed(&self) -> std::time::Duration {
        match (self.0, Self::cpu()) {
            (Some(a), Some(b)) => std::time::Duration::from_nanos(b - a),
            _ => self.1.elapsed(),
        }
    }
}
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
    let o = AnalyzeOptions {
        windows: 256,
        ..Default::default()
    };
    if std::env::args().nth(3).as_deref() == Some("analyze") {
        // Only the whole analysis: for `perf stat -e cycles:u` on a busy machine.
        let t = Instant::now();
        let r = analyze(&doc, &o).unwrap();
        let s = t.elapsed().as_secs_f64();
        println!(
            "{n} {hash}: analyze() {:.0} ns/rec ({} writes)",
            s * 1e9 / n as f64,
            r.writes
        );
        return;
    }
    let w = doc.workload.clone().unwrap();
    let mut values: Vec<FieldValue> = Vec::new();
    let mut c = 0u64;
    let t = Instant::now();
    let mut s = WorkloadStream::new(&w, &doc.fields).unwrap();
    while let Some((_, time_ms)) = s.next_values(&mut values) {
        c += time_ms as u64;
    }
    let gen = t.elapsed().as_secs_f64();
    let mut s = WorkloadStream::new(&w, &doc.fields).unwrap();
    let mut key = CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
    let mut out = Vec::new();
    let t = Instant::now();
    while s.next_values(&mut values).is_some() {
        out.clear();
        key.encode_values_into(&mut out, &values).unwrap();
        c += out.len() as u64;
    }
    let encd = t.elapsed().as_secs_f64();
    let keys = doc.regions.clone().unwrap().split_keys(&[]).unwrap();
    let mut a = Analyzer::new(keys, analyzer_options(&doc, &o).unwrap()).unwrap();
    let mut s = WorkloadStream::new(&w, &doc.fields).unwrap();
    let t = Instant::now();
    while let Some((_, time_ms)) = s.next_values(&mut values) {
        out.clear();
        key.encode_values_into(&mut out, &values).unwrap();
        a.push(&out, time_ms, out.len() as u64 + 100);
    }
    let full = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let r = analyze(&doc, &o).unwrap();
    let whole = t.elapsed().as_secs_f64();
    c += r.writes;
    let ns = |x: f64| x * 1e9 / n as f64;
    println!(
        "{n} {hash}: generate {:.0} ns/rec, +encode {:.0} ns/rec, +analyzer {:.0} ns/rec, analyze() {:.0} ns/rec = {:.2} M/s ({c})",
        ns(gen),
        ns(encd),
        ns(full),
        ns(whole),
        n as f64 / whole / 1e6
    );
}
