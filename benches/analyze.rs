//! End-to-end analyzer benchmark (issue 4): the telecom scenario, 10 M records, 64 regions,
//! 256 windows, key = two-digit bucket + `_` + phone + `_` + yyyyMMddHHmmss, with a
//! `String.hashCode` bucket and with an MD5 bucket. Median of several runs, records/s.
//!
//! `cargo bench --bench analyze`; `-- once <hash> N` times one run (for scripts/bench-node.mjs);
//! `cargo bench --bench analyze -- rss N` runs one N-record
//! analysis and prints the peak RSS (VmHWM) for the flat-memory check; `-- autosplit N` times
//! the String.hashCode design on one region with auto-split (Stepping, 16 MiB regions, 4 MiB
//! flushes), median of 5 runs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use std::hint::black_box;
use std::time::Instant;

use rowkey_lab::analyze::{analyze, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;

fn doc(hash: &str, records: u64) -> DesignDocument {
    doc_with(
        hash,
        records,
        r#"{"presplit": {"kind": "saltBuckets", "buckets": 64, "style": "decimal", "width": 2}}"#,
    )
}

fn doc_with(hash: &str, records: u64, regions: &str) -> DesignDocument {
    let text = format!(
        r#"{{"v": 1, "name": "telecom {hash}",
          "fields": [
            {{"name": "phone", "type": "string", "generator": {{"kind": "phone", "prefixes": ["134", "135", "138", "188"], "digits": 8, "distinct": 1000000}}}},
            {{"name": "ts", "type": "timestamp", "generator": {{"kind": "clock"}}}}],
          "key": "salt(phone, 64, hash={hash}, as=dec(2)) + \"_\" + phone + \"_\" + time(ts, \"yyyyMMddHHmmss\")",
          "workload": {{"records": {records}, "seed": 1, "writeRate": 10000}},
          "regions": {regions}}}"#
    );
    DesignDocument::from_json(&text).unwrap()
}

fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let opts = AnalyzeOptions {
        windows: 256,
        ..AnalyzeOptions::default()
    };
    if let Some(i) = args.iter().position(|a| a == "rss") {
        let n: u64 = args
            .get(i + 1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(1_000_000);
        let t = Instant::now();
        let r = analyze(&doc("javaString", n), &opts).unwrap();
        let s = t.elapsed().as_secs_f64();
        println!(
            "rss: {n} records, {} regions, {:.2} M records/s, peak RSS {} kB",
            r.regions.len(),
            n as f64 / s / 1e6,
            peak_rss_kb()
        );
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "autosplit") {
        let n: u64 = args
            .get(i + 1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(2_000_000);
        let d = doc_with(
            "javaString",
            n,
            r#"{"autoSplit": {"policy": {"type": "stepping"}, "config": {"maxFileSize": "16 MiB", "memstoreFlushSize": "4 MiB"}}}"#,
        );
        let mut times = Vec::new();
        let mut regions = 0;
        for _ in 0..5 {
            let t = Instant::now();
            let r = analyze(black_box(&d), &opts).unwrap();
            times.push(t.elapsed().as_secs_f64());
            regions = r.regions.len();
        }
        times.sort_by(f64::total_cmp);
        let med = times[2];
        println!(
            "autosplit: {n} records, {regions} regions at the end, median {med:.3} s, {:.2} M records/s",
            n as f64 / med / 1e6
        );
        return;
    }
    // `once <hash> N`: one N-record analysis, its seconds on stdout (scripts/bench-node.mjs
    // alternates these runs with the wasm ones, so both see the same machine load).
    if let Some(i) = args.iter().position(|a| a == "once") {
        let hash = args.get(i + 1).map_or("javaString", String::as_str);
        let n: u64 = args
            .get(i + 2)
            .and_then(|s| s.parse().ok())
            .unwrap_or(1_000_000);
        let d = doc(hash, n);
        // A warm-up run first, like the wasm side's (allocator and caches warm).
        black_box(analyze(black_box(&d), &opts).unwrap());
        let t = Instant::now();
        let r = analyze(black_box(&d), &opts).unwrap();
        let s = t.elapsed().as_secs_f64();
        black_box(&r);
        assert_eq!(r.writes, n);
        println!("once: {s:.6}");
        return;
    }
    let n: u64 = std::env::var("ANALYZE_BENCH_RECORDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_000);
    let runs = 5;
    for (label, hash, jvm) in [
        ("String.hashCode bucket", "javaString", 9.0),
        ("MD5 bucket", "md5", 4.3),
    ] {
        let d = doc(hash, n);
        let mut times = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            let r = analyze(black_box(&d), &opts).unwrap();
            black_box(&r);
            assert_eq!(r.writes, n);
            assert_eq!(r.regions.len(), 64);
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        let med = times[runs / 2];
        println!(
            "{label:<24} {n} records: median {med:.3} s, {:.2} M records/s (JVM reference {jvm} M/s)",
            n as f64 / med / 1e6
        );
    }
}
