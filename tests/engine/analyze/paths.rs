//! The analyzer's paths give one answer: `analyze`'s own path (batches, MD5 buckets filled in
//! pairs) against `document_encoder` (one record at a time), on every preset and on MD5 salts
//! of every rendering, errors included; a run fed the records its workload would generate
//! against the generating run; and feed errors that name the record.

use rowkey_lab::analyze::{AnalysisReport, AnalyzeOptions};

use crate::cases::{json_differences, Failures};

/// Records a failure of `case` unless the two reports are equal, naming where they differ.
pub(crate) fn same_report(
    failures: &mut Failures,
    case: &str,
    actual: &AnalysisReport,
    expected: &AnalysisReport,
) {
    if actual == expected {
        failures.check(case, true, "");
        return;
    }
    let json = |r: &AnalysisReport| serde_json::to_value(r).unwrap_or_default();
    let diff = json_differences(&json(expected), &json(actual), 12);
    let detail = if diff.is_empty() {
        "the reports differ (their JSON forms agree)".to_string()
    } else {
        format!("the reports differ at:\n{}", diff.join("\n"))
    };
    failures.fail(case, detail);
}

#[test]
fn design_path_equals_the_record_encoder_path() {
    // `analyze` feeds the generated values straight into the compiled key; the public
    // `document_encoder` goes through `Record`s. Both must give the same report, with random
    // salts, bigDecimal text, doubles, booleans, a sampled pre-split and auto-split.
    use rowkey_lab::analyze::{analyze, analyze_with_encoder, document_encoder, AnalyzeOptions};
    use rowkey_lab::design::DesignDocument;
    let text = r#"{"v": 1, "fields": [
        {"name": "phone", "type": "string", "generator": {"kind": "phone", "prefixes": ["134", "188"], "digits": 8, "distinct": 5000, "s": 1.1}},
        {"name": "amount", "type": "bigDecimal", "generator": {"kind": "uniformInt", "min": 0, "max": 99999}},
        {"name": "score", "type": "double"},
        {"name": "ok", "type": "boolean"},
        {"name": "ts", "type": "timestamp", "generator": {"kind": "clock", "jitterMs": 3000}}],
      "key": "random(8, seed=5, as=dec(1)) + salt(phone, 16, hash=md5, as=hex(1)) + phone + \"_\" + time(ts, \"yyMMddHHmmssSSS\") + amount + score + ok",
      "workload": {"records": 30000, "writeRate": 250, "seed": 7},
      "regions": {"presplit": {"kind": "sampleQuantiles", "regions": 6},
                  "autoSplit": {"policy": {"type": "constantSize"}, "config": {"maxFileSize": 400000, "memstoreFlushSize": 50000}}}}"#;
    let doc = DesignDocument::from_json(text).unwrap();
    let opts = AnalyzeOptions {
        windows: 16,
        presplit_sample: 500,
        ..AnalyzeOptions::default()
    };
    let direct = analyze(&doc, &opts).unwrap();
    let records = analyze_with_encoder(&doc, &opts, document_encoder(&doc).unwrap()).unwrap();
    assert_eq!(direct.writes, 30_000);
    assert!(direct.regions.len() > 6, "{}", direct.regions.len());
    assert_eq!(direct, records);
}

/// Every `step` result (records done, or the error text) and the final report of a run
/// stepped by `chunks` (cycled) until it finishes or a step adds nothing (records that
/// failed are not counted, so such a run never reaches its total), carrying on after
/// errors as a caller may.
fn stepped(
    mut run: rowkey_lab::analyze::AnalysisRun,
    chunks: &[u64],
) -> (
    Vec<Result<u64, String>>,
    rowkey_lab::analyze::AnalysisReport,
) {
    let mut steps = Vec::new();
    let mut last = 0;
    for &c in chunks.iter().cycle().take(10_000) {
        match run.step(c) {
            Ok(p) => {
                steps.push(Ok(p.done));
                if p.finished || (p.done == last && c > 0) {
                    break;
                }
                last = p.done;
            }
            Err(e) => {
                steps.push(Err(e.message));
                last = run.progress().done;
            }
        }
    }
    (steps, run.finish())
}

/// `analyze`'s own path (batches, MD5 buckets filled in pairs) against `document_encoder`
/// (one record at a time, the buckets computed as each key is written): the same results
/// for every step, errors included, and the same report; differences go to `failures`.
fn check_batched(
    failures: &mut Failures,
    doc: &rowkey_lab::design::DesignDocument,
    chunks: &[u64],
) {
    use rowkey_lab::analyze::{document_encoder, AnalysisRun, AnalyzeOptions};
    let opts = AnalyzeOptions {
        windows: 16,
        presplit_sample: 500,
        ..AnalyzeOptions::default()
    };
    let name = format!(
        "{} stepped by {chunks:?}",
        doc.name.clone().unwrap_or_default()
    );
    let batched = stepped(AnalysisRun::new(doc, &opts).unwrap(), chunks);
    let enc = document_encoder(doc).unwrap();
    let one = stepped(AnalysisRun::with_encoder(doc, &opts, enc).unwrap(), chunks);
    failures.eq(format!("{name}: the steps"), &batched.0, &one.0);
    same_report(failures, &format!("{name}: the report"), &batched.1, &one.1);
}

#[test]
fn batched_path_equals_the_record_path_on_every_preset() {
    let mut failures = Failures::new("the batched path against the record path, per preset");
    let mut n = 0;
    for p in rowkey_lab::design::presets::all() {
        let mut doc = rowkey_lab::design::DesignDocument::from_json(p.json).unwrap();
        if let Some(w) = doc.workload.as_mut() {
            // An odd count: the last batch holds an odd number of MD5 buckets.
            w.records = w.records.min(3001);
        }
        doc.name = Some(p.id.to_string());
        check_batched(&mut failures, &doc, &[1000, 37, 64, 1, 4096]);
        n += 1;
    }
    failures.finish();
    assert!(n >= 22);
}

#[test]
fn batched_md5_salts_equal_the_record_path() {
    use rowkey_lab::design::DesignDocument;
    let doc = |name: &str, fields: &str, key: &str, regions: &str| {
        let text = format!(
            r#"{{"v": 1, "name": "{name}", "fields": [{fields}], "key": {key:?},
              "workload": {{"records": 2501, "writeRate": 50, "seed": 3}},
              "regions": {regions}}}"#
        );
        DesignDocument::from_json(&text).unwrap()
    };
    let phone = r#"{"name": "phone", "type": "string", "generator": {"kind": "phone", "prefixes": ["134", "188"], "digits": 8, "distinct": 3000}},
                   {"name": "ts", "type": "timestamp", "generator": {"kind": "clock"}}"#;
    let auto = r#"{"presplit": {"kind": "saltBuckets", "buckets": 64, "style": "decimal", "width": 2},
                   "autoSplit": {"policy": {"type": "constantSize"}, "config": {"maxFileSize": 3000, "memstoreFlushSize": 1000}}}"#;
    let none = r#"{"presplit": {"kind": "none"}}"#;
    let mut failures = Failures::new("the batched path against the record path, MD5 salts");
    // The telecom key with auto-splits.
    let telecom = doc(
        "telecom md5",
        phone,
        r#"salt(phone, 64, hash=md5, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyyMMddHHmmss")"#,
        auto,
    );
    check_batched(&mut failures, &telecom, &[700, 64, 3]);
    // Over the rest of the key; hex, letter, short renders.
    for (key, name) in [
        (
            r#"salt(16, hash=md5, as=hex(1)) + phone + time(ts, "yyMMddHHmmss")"#,
            "hex",
        ),
        (r#"salt(26, hash=md5, as=letter) + "-" + phone"#, "letter"),
        (r#"salt(300, hash=md5, as=short) + phone"#, "short"),
        (
            r#"salt(7, hash=md5, as=hexUpper(3)) + phone + phone"#,
            "hexUpper",
        ),
    ] {
        check_batched(&mut failures, &doc(name, phone, key, none), &[1000, 63]);
    }
    // Sources past one MD5 block (56+ bytes) and of varying lengths across the boundary.
    let long = r#"{"name": "s", "type": "string", "generator": {"kind": "weighted", "values": ["short", "a fifty-five byte string ..............................", "a fifty-six byte string ...............................", "a string that is quite a lot longer than one md5 block of fifty-five bytes"], "weights": [1, 1, 1, 1]}},
                  {"name": "ts", "type": "timestamp", "generator": {"kind": "clock"}}"#;
    check_batched(
        &mut failures,
        &doc(
            "long",
            long,
            r#"salt(s, 10, hash=md5, as=dec(2)) + "_" + s"#,
            none,
        ),
        &[999, 2],
    );
    // Errors mid-batch: `dec(n, 3)` of n in 0..=1100 fails on about 9 % of the records,
    // each step stops at its first failing record and the next step goes on after it.
    let n = r#"{"name": "n", "type": "long", "generator": {"kind": "uniformInt", "min": 0, "max": 1100}},
               {"name": "ts", "type": "timestamp", "generator": {"kind": "clock"}}"#;
    let failing = doc(
        "errors",
        n,
        r#"salt(64, hash=md5, as=dec(2)) + "_" + dec(n, 3)"#,
        none,
    );
    check_batched(&mut failures, &failing, &[500, 64, 1]);
    // A bucket that does not fit its rendering (1000 buckets in two digits) fails too.
    check_batched(
        &mut failures,
        &doc(
            "render",
            phone,
            r#"salt(1000, hash=md5, as=dec(2)) + phone"#,
            none,
        ),
        &[300, 64],
    );
    failures.finish();

    // The telecom design does split.
    let with_splits = rowkey_lab::analyze::analyze(
        &telecom,
        &rowkey_lab::analyze::AnalyzeOptions {
            windows: 16,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(!with_splits.splits.is_empty());
    // The failing design's first error names its record.
    let opts = rowkey_lab::analyze::AnalyzeOptions::default();
    let mut run = rowkey_lab::analyze::AnalysisRun::new(&failing, &opts).unwrap();
    let e = run.step(10_000).unwrap_err();
    assert!(e.message.starts_with("record "), "{}", e.message);
    assert!(
        e.message.contains("has 4 digits, dec width is 3"),
        "{}",
        e.message
    );
    // The records before the failing one were counted, none after it.
    let k: u64 = e.message["record ".len()..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(run.progress().done, k);
    assert_eq!(run.finish().writes, k);
}

/// A generated value as the JSON a caller would write in a record.
fn json_of(v: &rowkey_lab::workload::FieldValue) -> serde_json::Value {
    use rowkey_lab::workload::FieldValue as V;
    match v {
        V::Str(s) => serde_json::json!(s),
        V::Long(x) => serde_json::json!(x),
        V::Double(x) => serde_json::json!(x),
        V::Bool(b) => serde_json::json!(b),
    }
}

/// A run fed the very records its workload would generate (in chunks, as JSON maps) reports
/// exactly what the generated run reports: same keys, same write times, same reservoirs.
#[test]
fn fed_records_equal_the_generated_run() {
    use rowkey_lab::analyze::{analyze, AnalysisRun};
    use rowkey_lab::workload::WorkloadStream;
    let mut failures = Failures::new("fed runs against generated runs, per preset");
    for id in ["seed000-telecom", "seed001-log-md5", "seed002-reverse"] {
        let doc = rowkey_lab::design::presets::get(id).unwrap();
        // Fed rows are counted exactly: the generated run too, to compare like with like.
        let opts = AnalyzeOptions {
            windows: 16,
            exact_rows: true,
            ..AnalyzeOptions::default()
        };
        let generated = analyze(&doc, &opts).unwrap();
        let spec = doc.workload.clone().unwrap_or_default();
        let records: Vec<serde_json::Map<String, serde_json::Value>> =
            WorkloadStream::new(&spec, &doc.fields)
                .unwrap()
                .map(|r| {
                    doc.fields
                        .iter()
                        .zip(&r.values)
                        .map(|(d, v)| (d.name.clone(), json_of(v)))
                        .collect()
                })
                .collect();
        let mut run = AnalysisRun::new(&doc, &opts).unwrap();
        for (i, chunk) in records.chunks(999).enumerate() {
            match run.feed(chunk) {
                Ok(p) => {
                    failures.eq(
                        format!("{id}: chunk {i} of 999 records: records done"),
                        &p.done,
                        &p.total,
                    );
                }
                Err(e) => failures.fail(format!("{id}: chunk {i} of 999 records"), e),
            }
        }
        failures.check(
            format!("{id}: finished"),
            run.progress().finished,
            format!("progress {:?}", run.progress()),
        );
        same_report(
            &mut failures,
            &format!("{id}: the report"),
            &run.finish(),
            &generated,
        );
    }
    failures.finish();
}

/// A bad record names its index in the chunk; the records before it stay counted; a fed run
/// generates nothing, and a generating run takes no records.
#[test]
fn feed_errors_name_the_record_and_runs_do_not_mix() {
    use rowkey_lab::analyze::AnalysisRun;
    let doc = rowkey_lab::design::presets::get("seed000-telecom").unwrap();
    let opts = AnalyzeOptions::default();
    let rec = |phone: serde_json::Value| {
        let mut m = serde_json::Map::new();
        m.insert("phone".into(), phone);
        m.insert("ts".into(), serde_json::json!("2021-09-07T08:30:00Z"));
        m
    };
    let good = rec(serde_json::json!("13412341234"));
    let mut run = AnalysisRun::new(&doc, &opts).unwrap();
    let mut missing = good.clone();
    missing.remove("phone");
    let e = run
        .feed(&[good.clone(), good.clone(), missing])
        .unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("records[2].phone"),
        "{e:?}"
    );
    assert!(e.message.contains("phone"), "{}", e.message);
    assert_eq!(run.progress().done, 2);
    assert!(run.step(10).unwrap_err().message.contains("fed"));
    let mut gen = AnalysisRun::new(&doc, &opts).unwrap();
    gen.step(10).unwrap();
    assert!(gen.feed(&[good]).unwrap_err().message.contains("generated"));
}
