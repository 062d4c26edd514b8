//! The same report on any number of workers: for every preset and for a design of each key
//! function, one pass, threads, and runs of blocks combined (as the page's and the npm
//! package's workers do) give one report, byte for byte. A key whose bytes depend on the order
//! the records arrive (`uid(f, W)` without a table numbers names as they first appear) is one
//! block, so it is never cut.

use rowkey_lab::analyze::{analyze, analyze_parallel, AnalysisRun, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::keyspec::functions::FUNCTIONS;
use rowkey_lab::workload::BLOCK_RECORDS;

use super::paths::same_report;
use crate::cases::Failures;

fn opts() -> AnalyzeOptions {
    AnalyzeOptions {
        windows: 8,
        sample_size: 200,
        ..AnalyzeOptions::default()
    }
}

/// Records enough for three blocks, the last one short.
const RECORDS: u64 = 2 * BLOCK_RECORDS + 4_321;

/// `doc` with `RECORDS` records.
fn sized(mut doc: DesignDocument) -> DesignDocument {
    let mut w = doc.workload.clone().unwrap_or_default();
    w.records = RECORDS;
    doc.workload = Some(w);
    doc
}

/// Every run of blocks counted apart and combined, the last run's partial first.
fn spread(doc: &DesignDocument, o: &AnalyzeOptions) -> rowkey_lab::Result<Option<String>> {
    let blocks = AnalysisRun::new(doc, o)?.blocks();
    if blocks < 2 {
        return Ok(None);
    }
    let mut parts = Vec::new();
    for b in 0..blocks {
        let mut run = AnalysisRun::for_blocks(doc, o, b, b + 1)?;
        while !run.step(1 << 16)?.finished {}
        parts.push(run.partial()?);
    }
    parts.reverse();
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let report = AnalysisRun::combine(doc, o, &parts)?.finish();
    Ok(Some(serde_json::to_string(&report).unwrap_or_default()))
}

/// One pass, three threads and single blocks combined agree, or `failures` says where.
fn check(failures: &mut Failures, case: &str, doc: &DesignDocument) {
    let o = opts();
    let one = match analyze(doc, &o) {
        Ok(r) => r,
        Err(e) => {
            failures.fail(case, format!("one pass failed: {e}"));
            return;
        }
    };
    match analyze_parallel(doc, &o, 3) {
        Ok(threads) => same_report(failures, &format!("{case}: 3 threads"), &threads, &one),
        Err(e) => failures.fail(case, format!("3 threads failed: {e}")),
    }
    let text = serde_json::to_string(&one).unwrap_or_default();
    match spread(doc, &o) {
        Ok(Some(s)) => {
            failures.check(
                format!("{case}: blocks combined"),
                s == text,
                "the combined report's JSON differs from one pass's",
            );
        }
        Ok(None) => {}
        Err(e) => failures.fail(case, format!("blocks failed: {e}")),
    }
}

#[test]
fn every_preset_gives_one_report_on_any_number_of_workers() {
    let mut failures = Failures::new("presets: one pass against workers");
    for p in rowkey_lab::design::presets::all() {
        let doc = sized(DesignDocument::from_json(p.json).unwrap());
        // auto-split runs are one pass by design; the rest must be cut in blocks here
        check(&mut failures, p.id, &doc);
    }
    failures.finish();
}

/// A design whose key is `key` over fields of every type the functions take.
fn design(key: &str) -> DesignDocument {
    let text = serde_json::json!({
        "v": 1,
        "name": "key functions",
        "fields": [
            // many distinct names, so a UID numbering that depends on the cut shows
            {"name": "s", "type": "string",
             "generator": {"kind": "uniformString", "length": 5, "alphabet": "abcdefghij"}},
            {"name": "c", "type": "string", "generator": {"kind": "list", "values": ["a", "b"]}},
            {"name": "ts", "type": "timestamp", "generator": {"kind": "clock", "jitterMs": 500}},
            {"name": "n", "type": "long", "generator": {"kind": "zipf", "n": 100000, "s": 0.9}},
            {"name": "i", "type": "int", "generator": {"kind": "uniformInt", "min": 0, "max": 99999}},
            {"name": "h", "type": "short", "generator": {"kind": "uniformInt", "min": 0, "max": 999}},
            {"name": "d", "type": "double",
             "generator": {"kind": "uniformDouble", "min": 1, "max": 500}},
            {"name": "fl", "type": "float",
             "generator": {"kind": "uniformDouble", "min": 1, "max": 500}},
            {"name": "m", "type": "bigDecimal",
             "generator": {"kind": "uniformDouble", "min": 1, "max": 500}},
            {"name": "b", "type": "boolean", "generator": {"kind": "boolean", "p": 0.3}}
        ],
        "key": key,
        "workload": {"records": RECORDS, "seed": 11, "writeRate": 1000},
        "regions": {"presplit": {"kind": "uniform", "regions": 8}}
    });
    DesignDocument::from_json(&text.to_string()).unwrap()
}

#[test]
fn every_key_function_gives_one_report_on_any_number_of_workers() {
    // Each function over a field it takes (the examples in `FUNCTIONS` use `f`).
    let keys: &[(&str, &str)] = &[
        ("field", "field(s) + ts"),
        ("str", "str(n) + s"),
        ("fixed", "fixed(s, 8) + ts"),
        ("dec", "dec(n, 10) + s"),
        ("long", "long(n) + s"),
        ("int", "int(i) + s"),
        ("short", "short(h) + s"),
        ("double", "double(d) + s"),
        ("float", "float(fl) + s"),
        ("bool", "bool(b) + s"),
        ("bigDecimal", "bigDecimal(m) + s"),
        ("salt", "salt(s, 16) + ts"),
        ("random", "random(8) + s + ts"),
        ("hash15", "hash15(s) + ts"),
        ("md5", "md5(s) + ts"),
        ("md5Hex", "md5Hex(s, 8) + ts"),
        ("reverse", "reverse(s) + ts"),
        ("revts", "s + revts(ts)"),
        ("time", "time(ts, \"yyyyMMddHH\") + s"),
        ("bucket", "bucket(ts, div=3600000) + s"),
        ("dict", "dict(c, [\"a\"=1, \"b\"=2]) + s"),
        ("tag", "tag(c, [\"a\"=1, \"b\"=2]) + s"),
        ("when", "when(c, \"a\", long(n)) + s"),
        ("uid", "uid(s, 3) + ts"),
        ("baseTime", "uid(c, 3, [\"a\"=1, \"b\"=2]) + baseTime(ts)"),
        ("tags", "baseTime(ts) + tags(uid(s, 3), tagk=[\"host\"=1])"),
        ("pk", "pk(s, VARCHAR) + pk(n, BIGINT)"),
    ];
    for f in FUNCTIONS {
        assert!(
            keys.iter().any(|(name, _)| *name == f.name),
            "no design for `{}` here: add one",
            f.name
        );
    }
    let mut failures = Failures::new("key functions: one pass against workers");
    for (name, key) in keys {
        check(&mut failures, &format!("{name}: {key}"), &design(key));
    }
    failures.finish();
}

#[test]
fn a_key_that_numbers_names_in_order_is_one_block() {
    let o = opts();
    assert_eq!(
        AnalysisRun::new(&design("uid(s, 3) + ts"), &o)
            .unwrap()
            .blocks(),
        1
    );
    // with a table the UIDs do not depend on the order: blocks as usual
    assert_eq!(
        AnalysisRun::new(&design("uid(c, 3, [\"a\"=1, \"b\"=2]) + ts"), &o)
            .unwrap()
            .blocks(),
        3
    );
}
