//! Analyzer scenarios: the lessons of the seeds, asserted with thresholds from the arithmetic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rowkey_lab::analyze::{AnalyzeOptions, Analyzer, AnalyzerOptions};
use rowkey_lab::hbase::bytes::{to_bytes_long, to_bytes_str};
use rowkey_lab::hbase::hash::md5_as_hex;
use rowkey_lab::hbase::policy::{self, SplitConfig, SplitPolicy};
use rowkey_lab::hbase::split::bytes_split;
use rowkey_lab::region::{Assignment, AutoSplit};

const T0: i64 = 1_630_972_800_000;

fn opts(windows: u32, window_ms: i64) -> AnalyzerOptions {
    AnalyzerOptions {
        start_time_ms: T0,
        window_ms,
        windows,
        ..AnalyzerOptions::default()
    }
}

/// A mixing function standing in for a record's hash.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[test]
fn timestamp_first_key_lights_one_region_per_window() {
    // 8 regions cut at equal time steps; 64 windows, 8 per region; one write per ms.
    let regions = 8i64;
    let span = 64_000i64;
    let step = span / regions;
    let keys: Vec<Vec<u8>> = (1..regions)
        .map(|i| to_bytes_long(T0 + i * step).to_vec())
        .collect();
    let mut a = Analyzer::new(keys, opts(64, span / 64)).unwrap();
    for t in 0..span {
        let ts = T0 + t;
        a.push(&to_bytes_long(ts), ts, 100);
    }
    let r = a.finish();
    assert_eq!(r.regions.len(), 8);
    assert_eq!(r.metrics.loaded_windows, 64);
    for w in &r.metrics.per_window {
        assert_eq!(w.active_regions, 1);
        // max / mean with one of n regions loaded is exactly n.
        assert!((w.hotspot_factor - regions as f64).abs() < 1e-9);
        assert!((w.busiest_share - 1.0).abs() < 1e-12);
        assert!((w.effective_parallelism - 1.0).abs() < 1e-12);
    }
    assert!((r.metrics.mean_active_regions - 1.0).abs() < 1e-12);
    // The diagonal: region i is busy exactly in windows 8i..8i+8.
    for (i, reg) in r.regions.iter().enumerate() {
        assert_eq!(reg.writes, step as u64);
        let row = r.matrix.row(i).unwrap();
        for (w, c) in row.iter().enumerate() {
            let expected = if w / 8 == i { 1000 } else { 0 };
            assert_eq!(*c, expected, "region {i} window {w}");
        }
    }
    assert!(r.diagnosis.iter().any(|d| d.contains("every time window")));
    // The grid for an 8-byte timestamp: all keys share the first two bytes.
    assert_eq!(r.grid_metrics.overall.active_regions, 1);
}

#[test]
fn salted_key_lights_every_region() {
    // One region per salt byte 0..7 (split keys 01..07), key = salt + timestamp.
    let buckets = 8u64;
    let keys: Vec<Vec<u8>> = (1..buckets).map(|b| vec![b as u8]).collect();
    let mut a = Analyzer::new(keys, opts(16, 1000)).unwrap();
    for i in 0..16_000u64 {
        let ts = T0 + i as i64;
        let mut k = vec![(mix(i) % buckets) as u8];
        k.extend_from_slice(&to_bytes_long(ts));
        a.push(&k, ts, 100);
    }
    let r = a.finish();
    assert_eq!(r.regions.len(), 8);
    for w in &r.metrics.per_window {
        assert_eq!(w.active_regions, 8);
        // 1000 writes over 8 buckets: binomial sd ≈ 10.5 on a mean of 125.
        assert!(
            w.hotspot_factor < 1.4,
            "window hotspot {}",
            w.hotspot_factor
        );
        assert!(w.effective_parallelism > 7.5);
    }
    assert!(r.metrics.overall.hotspot_factor < 1.1);
    assert!(r.metrics.overall.gini < 0.05);
    assert_eq!(r.metrics.overall.empty_regions, 0);
}

#[test]
fn bytes_split_over_hex_text_leaves_middle_regions_empty() {
    // Seed 001: Bytes.split("00000000", "ffffffff", n) cuts the byte range, but MD5 hex keys
    // only use '0'-'9' (0x30-0x39) and 'a'-'f' (0x61-0x66) as first byte.
    let splits = bytes_split(b"00000000", b"ffffffff", false, 14).unwrap();
    // bytes_split returns the bounds too; the table's split keys are the inner ones.
    let inner: Vec<Vec<u8>> = splits[1..splits.len() - 1].to_vec();
    let n = inner.len() + 1;
    let mut a = Analyzer::new(inner, opts(4, 1000)).unwrap();
    for i in 0..20_000u64 {
        let key = md5_as_hex(&to_bytes_long(i as i64));
        a.push(key.as_bytes(), T0 + (i as i64) / 5, 100);
    }
    let r = a.finish();
    assert_eq!(r.regions.len(), n);
    let empty = r.metrics.overall.empty_regions;
    assert!(empty > 0);
    // Every region whose whole range lies between ':' (0x3a) and 'a' (0x61) is empty, and
    // every empty region lies strictly between '9' and 'a' or above 'f'.
    for reg in &r.regions {
        let start = rowkey_lab::hbase::bytes::from_hex(&reg.start_key_hex).unwrap();
        let end = rowkey_lab::hbase::bytes::from_hex(&reg.end_key_hex).unwrap();
        let gap = start.as_slice() >= b":".as_slice()
            && !end.is_empty()
            && end.as_slice() <= b"a".as_slice();
        if gap {
            assert_eq!(reg.writes, 0, "region {} should be empty", reg.start_key);
        }
        if reg.writes == 0 {
            let above_f = start.as_slice() >= b"g".as_slice();
            let in_gap = start.as_slice() >= b"9".as_slice() && end.as_slice() <= b"b".as_slice();
            assert!(
                above_f || in_gap,
                "unexpected empty region {}",
                reg.start_key
            );
        }
    }
    assert!(r.diagnosis.iter().any(|d| d.contains("received no writes")));
}

fn auto(policy: SplitPolicy, max: i64, flush: i64) -> AutoSplit {
    AutoSplit {
        policy,
        config: SplitConfig {
            max_file_size: max,
            memstore_flush_size: flush,
            jitter: 0.0,
            ..SplitConfig::default()
        },
    }
}

fn random_keys(a: &mut Analyzer, n: u64, bytes: u64) {
    for i in 0..n {
        let key = format!("{:016x}", mix(i));
        a.push(key.as_bytes(), T0 + i as i64, bytes);
    }
}

#[test]
fn constant_size_auto_split_respects_the_limit() {
    let max = 1 << 20;
    let o = AnalyzerOptions {
        auto_split: Some(auto(SplitPolicy::ConstantSize, max, 1 << 16)),
        ..opts(10, 1000)
    };
    let mut a = Analyzer::new(vec![], o).unwrap();
    random_keys(&mut a, 10_000, 1000); // 10 MB
    let r = a.finish();
    // Each region ends between about half the limit and the limit: 10 MB / 1 MB .. / 0.5 MB.
    assert!(
        r.regions.len() >= 10 && r.regions.len() <= 24,
        "{}",
        r.regions.len()
    );
    assert_eq!(r.splits.len(), r.regions.len() - 1);
    for s in &r.splits {
        assert_eq!(s.size_to_check, max);
        assert!(s.parent_bytes as i64 > max);
        // The first write over the limit splits: the parent is at most one write over it.
        assert!(s.parent_bytes as i64 <= max + 1000);
    }
    for reg in &r.regions {
        assert!(
            reg.bytes as i64 <= max,
            "region {} has {}",
            reg.start_key,
            reg.bytes
        );
    }
    // Keys are uniform, so the split points keep the regions in order and non-overlapping.
    for pair in r.regions.windows(2) {
        assert_eq!(pair[0].end_key_hex, pair[1].start_key_hex);
        assert!(pair[1].created_at_ms.is_some());
    }
    assert_eq!(r.writes, 10_000);
    let total: u64 = r.regions.iter().map(|x| x.writes).sum();
    assert_eq!(total, 10_000);
}

#[test]
fn increasing_to_upper_bound_uses_the_cube_of_regions_on_the_server() {
    let max = 64 << 20;
    let flush = 1 << 16; // initial size = 2 × flush = 128 KiB
    let o = AnalyzerOptions {
        auto_split: Some(auto(SplitPolicy::IncreasingToUpperBound, max, flush)),
        ..opts(10, 1000)
    };
    let mut a = Analyzer::new(vec![], o).unwrap();
    random_keys(&mut a, 20_000, 1000);
    let r = a.finish();
    assert!(r.regions.len() > 1);
    let initial = 2 * flush;
    for s in &r.splits {
        let expected = policy::increasing_size_to_check(max, initial, s.regions_on_server as i32);
        assert_eq!(s.size_to_check, expected);
        assert!(s.parent_bytes as i64 > expected);
    }
    // The first split happens at the first region's limit: initial × 1³.
    assert_eq!(r.splits[0].size_to_check, initial);
}

#[test]
fn key_prefix_policy_cuts_split_points() {
    let o = AnalyzerOptions {
        auto_split: Some(auto(
            SplitPolicy::KeyPrefix { prefix_length: 2 },
            1 << 18,
            1 << 14,
        )),
        ..opts(4, 1000)
    };
    let mut a = Analyzer::new(vec![], o).unwrap();
    random_keys(&mut a, 5000, 1000);
    let r = a.finish();
    assert!(r.splits.len() > 1);
    for s in &r.splits {
        assert_eq!(s.split_key.len(), 2, "{}", s.split_key);
    }
}

#[test]
fn sequential_key_with_auto_split_keeps_one_hot_region() {
    let o = AnalyzerOptions {
        auto_split: Some(auto(SplitPolicy::ConstantSize, 1 << 20, 1 << 16)),
        region_servers: 3,
        assignment: Assignment::Balanced,
        ..opts(20, 1000)
    };
    let mut a = Analyzer::new(vec![], o).unwrap();
    for i in 0..20_000i64 {
        a.push(&to_bytes_long(i), T0 + i, 1000);
    }
    let r = a.finish();
    assert!(r.regions.len() > 10);
    // A median split leaves the newest daughter half full, so it splits again after another
    // 0.5 MB = 500 writes: two splits per 1000-write window, so each window's writes land in
    // at most 3 regions (the pre-split part of the parent goes to the daughters by key),
    // while the table has about 20 MB / 0.5 MB = 40 regions.
    assert!(r.regions.len() >= 30, "{}", r.regions.len());
    assert!(r.metrics.mean_active_regions <= 3.0);
    assert!(r.metrics.per_window.iter().all(|w| w.active_regions <= 4));
    assert_eq!(r.servers.len(), 3);
    let on_servers: usize = r.servers.iter().map(|s| s.regions).sum();
    assert_eq!(on_servers, r.regions.len());
    // Balanced by count: servers differ by at most one region... plus one per split.
    let max = r.servers.iter().map(|s| s.regions).max().unwrap();
    let min = r.servers.iter().map(|s| s.regions).min().unwrap();
    assert!(max - min <= 2);
}

#[test]
fn sample_is_sorted_and_bounded() {
    let o = AnalyzerOptions {
        sample_size: 50,
        ..opts(4, 1000)
    };
    let mut a = Analyzer::new(vec![b"8".to_vec()], o).unwrap();
    random_keys(&mut a, 1000, 10);
    let r = a.finish();
    assert_eq!(r.sample.len(), 50);
    for p in r.sample.windows(2) {
        assert!(p[0].key <= p[1].key);
    }
    for s in &r.sample {
        let expected = usize::from(s.key.as_slice() >= b"8".as_slice());
        assert_eq!(s.region, expected);
    }
    // The serialized form renders the key: hex and toStringBinary, and reads back.
    let text = serde_json::to_value(&r.sample[0]).unwrap();
    assert_eq!(
        text["keyHex"],
        rowkey_lab::hbase::bytes::to_hex(&r.sample[0].key)
    );
    assert_eq!(
        text["key"],
        rowkey_lab::hbase::bytes::to_string_binary(&r.sample[0].key)
    );
    let back: rowkey_lab::analyze::SampleKey = serde_json::from_value(text).unwrap();
    assert_eq!(back, r.sample[0]);
}

#[test]
fn bad_options_are_refused() {
    assert!(Analyzer::new(vec![b"a".to_vec(), b"a".to_vec()], opts(4, 1000)).is_err());
    assert!(Analyzer::new(vec![vec![]], opts(4, 1000)).is_err());
    assert!(Analyzer::new(vec![], opts(0, 1000)).is_err());
    assert!(Analyzer::new(vec![], opts(4, 0)).is_err());
    // 100 000 regions × 1000 windows is above the cell budget.
    let many: Vec<Vec<u8>> = (1..20_000u32).map(|i| i.to_be_bytes().to_vec()).collect();
    let err = Analyzer::new(many, opts(1000, 1000)).unwrap_err();
    assert!(err.message.contains("cells"));
    // Times outside the axis are clamped and counted, never a panic.
    let mut a = Analyzer::new(vec![], opts(4, 1000)).unwrap();
    a.push(b"", i64::MIN, u64::MAX);
    a.push(&to_bytes_str("x"), i64::MAX, u64::MAX);
    let r = a.finish();
    assert_eq!(r.writes_outside_windows, 2);
    assert_eq!(r.matrix.cells, vec![1, 0, 0, 1]);
    // A whole-document analysis names the option at fault, 0 windows included (it used to
    // run with 1 window instead).
    let doc = rowkey_lab::design::DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "a"}"#,
    )
    .unwrap();
    for (o, path) in [
        (
            AnalyzeOptions {
                windows: 0,
                ..AnalyzeOptions::default()
            },
            "windows",
        ),
        (
            AnalyzeOptions {
                windows: 70_000,
                ..AnalyzeOptions::default()
            },
            "windows",
        ),
        (
            AnalyzeOptions {
                grid_buckets: 0,
                ..AnalyzeOptions::default()
            },
            "gridBuckets",
        ),
    ] {
        let e = rowkey_lab::analyze::analyze(&doc, &o).unwrap_err();
        assert_eq!(e.location.path.as_deref(), Some(path), "{e}");
    }
}

mod telecom {
    use rowkey_lab::design::DesignDocument;

    const DOC: &str = r#"{"v": 1, "name": "telecom",
      "fields": [{"name": "phone", "type": "string", "cardinality": 1000},
                 {"name": "ts", "type": "timestamp"}],
      "key": "salt(phone + time(ts, \"yyyyMM\"), 10, as=dec(2)) + \"_\" + phone + \"_\" + time(ts, \"yyyy-MM-dd HH:mm:ss\")",
      "reads": [
        {"type": "range", "name": "one phone, one day",
         "from": {"phone": "13412341234", "ts": "2021-09-07T00:00:00Z"},
         "to": {"phone": "13412341234", "ts": "2021-09-08T00:00:00Z"}},
        {"type": "range", "name": "one phone, three months",
         "from": {"phone": "13412341234", "ts": "2021-09-01T00:00:00Z"},
         "to": {"phone": "13412341234", "ts": "2021-12-01T00:00:00Z"}},
        {"type": "prefix", "name": "one phone, all time", "record": {"phone": "13412341234"}}
      ]}"#;

    /// The salt bucket text of a phone in a month, from the design's own encoder.
    fn bucket(doc: &DesignDocument, ts: &str) -> String {
        let mut k = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
        let rec = serde_json::json!({"phone": "13412341234", "ts": ts});
        let key = k.encode_json(rec.as_object().unwrap()).unwrap();
        String::from_utf8(key[..2].to_vec()).unwrap()
    }

    #[test]
    fn seed_000_scans() {
        let doc = DesignDocument::from_json(DOC).unwrap();
        let splits: Vec<Vec<u8>> = (1..10).map(|i| format!("{i:02}").into_bytes()).collect();
        let plans = doc.plan_reads(&splits).unwrap();
        assert_eq!(plans.len(), 3);
        // One phone, one day: one scan, seed 000's exact bounds (with the real bucket).
        let day = &plans[0];
        let b = bucket(&doc, "2021-09-07T00:00:00Z");
        assert_eq!(day.scans.len(), 1);
        assert_eq!(
            day.scans[0].start_row,
            format!("{b}_13412341234_2021-09-07")
        );
        assert_eq!(day.scans[0].stop_row, format!("{b}_13412341234_2021-09-08"));
        assert_eq!(day.regions_touched, 1);
        assert_eq!(day.rows_read_per_row_returned, Some(1.0));
        // Three months: the salt hashes yyyyMM, so one scan per month, each in its bucket.
        let months = &plans[1];
        assert_eq!(months.scans.len(), 3);
        let expect = [
            ("2021-09-01T00:00:00Z", "2021-09", "2021-10"),
            ("2021-10-01T00:00:00Z", "2021-10", "2021-11"),
            ("2021-11-01T00:00:00Z", "2021-11", "2021-12"),
        ];
        for (scan, (ts, from, to)) in months.scans.iter().zip(expect) {
            let b = bucket(&doc, ts);
            assert_eq!(scan.start_row, format!("{b}_13412341234_{from}"));
            assert_eq!(scan.stop_row, format!("{b}_13412341234_{to}"));
        }
        // All time for one phone: the bucket depends on the month, so every bucket is scanned.
        let all = &plans[2];
        assert_eq!(all.scans.len(), 10);
        assert_eq!(all.regions_touched, 10);
        assert_eq!(all.scans[3].start_row, "03_13412341234_");
        assert_eq!(all.scans[3].stop_row, "03_13412341234`");
    }

    /// A get that does not give every key field says it is a prefix scan, also when the
    /// missing field feeds the salt (here the salt hashes `ts`'s month); a full get does not.
    #[test]
    fn a_partial_get_is_named_a_prefix_scan() {
        const PREFIX_NOTE: &str = "this get is a prefix scan";
        let doc = DesignDocument::from_json(DOC).unwrap();
        let mut partial = doc.clone();
        partial.reads = serde_json::from_value(serde_json::json!([
            {"type": "get", "name": "phone only", "record": {"phone": "13412341234"}},
            {"type": "get", "name": "full", "record": {"phone": "13412341234", "ts": "2021-09-07T08:30:00Z"}}
        ]))
        .unwrap();
        let plans = partial.plan_reads(&[]).unwrap();
        assert!(
            plans[0].notes.iter().any(|n| n.contains(PREFIX_NOTE)),
            "{:?}",
            plans[0].notes
        );
        assert!(
            !plans[1].notes.iter().any(|n| n.contains(PREFIX_NOTE)),
            "{:?}",
            plans[1].notes
        );
        assert_eq!(plans[1].scans.len(), 1);
        // The full get reads its row alone, [row, row + \x00), the row being the key the
        // design's encoder writes for the record; the partial one the prefix range.
        let mut k = rowkey_lab::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
        let rec = serde_json::json!({"phone": "13412341234", "ts": "2021-09-07T08:30:00Z"});
        let row = k.encode_json(rec.as_object().unwrap()).unwrap();
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        assert_eq!(plans[1].scans[0].start_row_hex, hex(&row));
        assert_eq!(plans[1].scans[0].stop_row_hex, format!("{}00", hex(&row)));
        assert_eq!(plans[1].regions_touched, 1);
        assert!(plans[0].scans[0].stop_row.ends_with("13412341234`"));
    }

    /// An error of a read as a whole points at the read: `/reads/0`, not `/reads/0/`.
    #[test]
    fn a_backwards_range_is_an_error_at_the_read() {
        let doc = DesignDocument::from_json(DOC).unwrap();
        let mut reversed = doc.clone();
        reversed.reads = serde_json::from_value(serde_json::json!([
            {"type": "range", "name": "backwards",
             "from": {"phone": "13412341234", "ts": "2021-09-08T00:00:00Z"},
             "to": {"phone": "13412341234", "ts": "2021-09-07T00:00:00Z"}}
        ]))
        .unwrap();
        let err = reversed.plan_reads(&[]).unwrap_err();
        assert!(err.message.contains("not below"), "{err}");
        assert_eq!(err.location.path.as_deref(), Some("/reads/0"));
    }

    #[test]
    fn unknown_field_in_a_read_is_an_error() {
        let bad = DOC.replace(r#""record": {"phone""#, r#""record": {"imei""#);
        let doc = DesignDocument::from_json(&bad).unwrap();
        let err = doc.plan_reads(&[]).unwrap_err();
        assert!(err.message.contains("imei"), "{err}");
        assert_eq!(err.location.path.as_deref(), Some("/reads/2/record/imei"));
    }
}

/// 20,000 records of 10,000 phones (prefix 134) on a clock at 100 writes/s, keyed by `key`,
/// pre-split at `splits` (JSON strings, toStringBinary text).
fn phone_clock_doc(key: &str, splits: &str) -> rowkey_lab::design::DesignDocument {
    let text = format!(
        r#"{{"v": 1, "fields": [
          {{"name": "phone", "type": "string", "generator": {{"kind": "phone", "prefixes": ["134"], "digits": 8, "distinct": 10000}}}},
          {{"name": "ts", "type": "timestamp", "generator": {{"kind": "clock"}}}}],
          "key": {key:?},
          "workload": {{"records": 20000, "writeRate": 100}},
          "regions": {{"presplit": {{"kind": "explicit", "keys": [{splits}]}}}}}}"#
    );
    rowkey_lab::design::DesignDocument::from_json(&text).unwrap()
}

#[test]
fn whole_document_salted_versus_time_first() {
    use rowkey_lab::analyze::{analyze, compare, AnalysisRun, AnalyzeOptions};
    let doc = |key: &str| phone_clock_doc(key, r#""01","02","03","04","05","06","07","08","09""#);
    let salted =
        doc(r#"salt(phone, 10, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyyMMddHHmmss")"#);
    let time_first = doc(r#""05_" + time(ts, "yyyyMMddHHmmss") + "_" + phone"#);
    let opts = AnalyzeOptions::default();
    let r = analyze(&salted, &opts).unwrap();
    assert_eq!(r.writes, 20_000);
    assert_eq!(r.regions.len(), 10);
    assert!(r.metrics.overall.hotspot_factor < 1.3);
    let t = analyze(&time_first, &opts).unwrap();
    assert!((t.metrics.mean_active_regions - 1.0).abs() < 1e-12);
    assert!((t.metrics.overall.hotspot_factor - 10.0).abs() < 1e-9);
    // Chunked run gives the same report.
    let mut run = AnalysisRun::new(&salted, &opts).unwrap();
    let p = run.step(5000).unwrap();
    assert_eq!((p.done, p.finished), (5000, false));
    while !run.step(5000).unwrap().finished {}
    assert_eq!(run.finish(), r);
    let c = compare(&[salted, time_first], &opts).unwrap();
    assert_eq!(c.designs.len(), 2);
    assert!(
        c.designs[0].metrics.overall.hotspot_factor < c.designs[1].metrics.overall.hotspot_factor
    );
    assert_eq!(c.designs[0].grid.cells.len(), c.designs[1].grid.cells.len());
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
                  "autoSplit": {"policy": {"type": "constantSize"}, "config": {"maxFileSize": 400000}}}}"#;
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
/// for every step, errors included, and the same report.
fn assert_batched_equals_per_record(doc: &rowkey_lab::design::DesignDocument, chunks: &[u64]) {
    use rowkey_lab::analyze::{document_encoder, AnalysisRun, AnalyzeOptions};
    let opts = AnalyzeOptions {
        windows: 16,
        presplit_sample: 500,
        ..AnalyzeOptions::default()
    };
    let name = doc.name.clone().unwrap_or_default();
    let batched = stepped(AnalysisRun::new(doc, &opts).unwrap(), chunks);
    let enc = document_encoder(doc).unwrap();
    let one = stepped(AnalysisRun::with_encoder(doc, &opts, enc).unwrap(), chunks);
    assert!(batched.0 == one.0, "{name}: the steps differ");
    assert!(batched.1 == one.1, "{name}: the reports differ");
}

#[test]
fn batched_path_equals_the_record_path_on_every_preset() {
    let mut n = 0;
    for p in rowkey_lab::design::presets::all() {
        let mut doc = rowkey_lab::design::DesignDocument::from_json(p.json).unwrap();
        if let Some(w) = doc.workload.as_mut() {
            // An odd count: the last batch holds an odd number of MD5 buckets.
            w.records = w.records.min(3001);
        }
        doc.name = Some(p.id.to_string());
        assert_batched_equals_per_record(&doc, &[1000, 37, 64, 1, 4096]);
        n += 1;
    }
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
                   "autoSplit": {"policy": {"type": "constantSize"}, "config": {"maxFileSize": 3000}}}"#;
    let none = r#"{"presplit": {"kind": "none"}}"#;
    // The telecom key with auto-splits.
    let telecom = doc(
        "telecom md5",
        phone,
        r#"salt(phone, 64, hash=md5, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyyMMddHHmmss")"#,
        auto,
    );
    assert_batched_equals_per_record(&telecom, &[700, 64, 3]);
    let with_splits = rowkey_lab::analyze::analyze(
        &telecom,
        &rowkey_lab::analyze::AnalyzeOptions {
            windows: 16,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(!with_splits.splits.is_empty());
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
        assert_batched_equals_per_record(&doc(name, phone, key, none), &[1000, 63]);
    }
    // Sources past one MD5 block (56+ bytes) and of varying lengths across the boundary.
    let long = r#"{"name": "s", "type": "string", "generator": {"kind": "weighted", "values": ["short", "a fifty-five byte string ..............................", "a fifty-six byte string ...............................", "a string that is quite a lot longer than one md5 block of fifty-five bytes"], "weights": [1, 1, 1, 1]}},
                  {"name": "ts", "type": "timestamp", "generator": {"kind": "clock"}}"#;
    assert_batched_equals_per_record(
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
    assert_batched_equals_per_record(&failing, &[500, 64, 1]);
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
    // A bucket that does not fit its rendering (1000 buckets in two digits) fails too.
    assert_batched_equals_per_record(
        &doc(
            "render",
            phone,
            r#"salt(1000, hash=md5, as=dec(2)) + phone"#,
            none,
        ),
        &[300, 64],
    );
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
    for id in ["seed000-telecom", "seed001-log-md5", "seed002-reverse"] {
        let doc = rowkey_lab::design::presets::get(id).unwrap();
        let opts = AnalyzeOptions {
            windows: 16,
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
        for chunk in records.chunks(999) {
            let p = run.feed(chunk).unwrap();
            assert_eq!(p.total, p.done);
        }
        assert!(run.progress().finished);
        assert_eq!(run.finish(), generated, "{id}");
    }
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

/// One region hot all run long has two causes the diagnosis must not confuse: a key led by
/// time, or split points outside the keys' range (a table pre-split for another key). The run
/// knows which from the design (lint's `monotonic-leading`); a bare `Analyzer` names both.
#[test]
fn one_hot_region_names_its_cause() {
    use rowkey_lab::analyze::{analyze, AnalyzeOptions};
    let doc = |key: &str| phone_clock_doc(key, r#""\\x01", "\\x02""#);
    let run_opts = AnalyzeOptions::default();
    // Split at \x01 and \x02: every two-digit salt sorts after both.
    let salted = r#"salt(phone, 10, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyyMMddHHmmss")"#;
    let r = analyze(&doc(salted), &run_opts).unwrap();
    assert_eq!(r.regions[2].writes, 20_000);
    let first = &r.diagnosis[0];
    assert!(
        first.starts_with(
            "one region takes all the writes in every time window, region 2 (from `\\x02` to the end of the table), which every key falls in (`00_134"
        ),
        "{first}"
    );
    assert!(
        first.contains("the key does not lead with a timestamp or sequence, so the split points miss the range the keys fall in"),
        "{first}"
    );
    // The time-first key on the same split points.
    let r = analyze(
        &doc(r#"time(ts, "yyyyMMddHHmmss") + "_" + phone"#),
        &run_opts,
    )
    .unwrap();
    assert!(
        r.diagnosis[0].starts_with(
            "one region takes all the writes in every time window: the key leads with something that grows with time"
        ),
        "{:?}",
        r.diagnosis
    );
    // A bare analyzer does not know the design: it names both causes.
    let mut a = Analyzer::new(vec![vec![1], vec![2]], opts(4, 1000)).unwrap();
    for i in 0..1000i64 {
        a.push(format!("{:02}_x", i % 10).as_bytes(), T0 + i * 4, 1);
    }
    let d = a.finish().diagnosis;
    assert!(
        d[0].contains("either the key leads with something that grows with time"),
        "{d:?}"
    );
    assert!(
        d[0].contains("or the split points miss the range the keys fall in"),
        "{d:?}"
    );
}

/// Four regions cut at "b", "c", "d", placed on named servers; `hot` writes 5,000 rows of
/// 1,000 bytes into the region starting with `prefix` under the stepping policy.
fn placed(
    assignment: Assignment,
    servers: u32,
    prefix: &str,
) -> rowkey_lab::analyze::AnalysisReport {
    let o = AnalyzerOptions {
        auto_split: Some(auto(SplitPolicy::Stepping, 1 << 22, 1 << 16)),
        region_servers: servers,
        assignment,
        ..opts(10, 1000)
    };
    let keys = vec![b"b".to_vec(), b"c".to_vec(), b"d".to_vec()];
    let mut a = Analyzer::new(keys, o).unwrap();
    for i in 0..5000u64 {
        let key = format!("{prefix}{:016x}", mix(i));
        a.push(key.as_bytes(), T0 + i as i64, 1000);
    }
    a.finish()
}

fn names(n: &[&str]) -> Assignment {
    Assignment::Servers(n.iter().map(|s| s.to_string()).collect())
}

#[test]
fn named_placement_decides_the_split_size_and_the_server_load() {
    // Stepping: a region that is its table's only one on its server splits at 2 x the flush
    // size (128 KiB), else at the max file size (4 MiB).
    let xy = || names(&["x", "x", "x", "y"]);
    // Region 3 alone on "y": its first split comes at 128 KiB.
    let r = placed(xy(), 2, "d");
    let first = &r.splits[0];
    assert_eq!((first.size_to_check, first.regions_on_server), (131_072, 1));
    assert_eq!(r.servers[0].name.as_deref(), Some("x"));
    assert_eq!(r.servers[1].name.as_deref(), Some("y"));
    assert_eq!((r.servers[0].rows, r.servers[1].rows), (0, 5000));
    // Daughters stay on their parent's server: every region created by a split is on "y".
    assert_eq!(r.servers[0].regions, 3);
    assert_eq!(r.servers[1].regions, 1 + r.splits.len());
    assert_eq!(r.server_metrics.busiest_share, 1.0);
    // The same rows on round-robin placement share "y" (server 1) with region 1: 4 MiB.
    let rr = placed(Assignment::RoundRobin, 2, "d");
    assert_eq!(rr.splits[0].size_to_check, 1 << 22);
    assert_eq!(rr.splits[0].regions_on_server, 2);
    assert_eq!(rr.servers[1].name, None);
    // Region 0 on "x" with two more regions of the table: 4 MiB.
    let r = placed(xy(), 2, "a");
    assert_eq!(
        (r.splits[0].size_to_check, r.splits[0].regions_on_server),
        (1 << 22, 3)
    );
    // A server the table has no region on counts in the server metrics, without a name.
    let r = placed(xy(), 3, "a");
    assert_eq!(r.servers.len(), 3);
    assert_eq!(
        (r.servers[2].name.as_deref(), r.servers[2].regions),
        (None, 0)
    );
    assert_eq!(r.server_metrics.regions, 3);
}

#[test]
fn named_placement_errors_name_the_field() {
    let new = |a: Assignment, servers: u32| {
        let o = AnalyzerOptions {
            region_servers: servers,
            assignment: a,
            ..opts(4, 1000)
        };
        let keys = vec![b"b".to_vec(), b"c".to_vec(), b"d".to_vec()];
        Analyzer::new(keys, o).unwrap_err()
    };
    let e = new(names(&["x", "y", "x"]), 2);
    assert_eq!(
        e.location.path.as_deref(),
        Some("/regions/assignment/servers")
    );
    assert!(
        e.message.contains("3 servers for the table's 4 regions"),
        "{e}"
    );
    let e = new(names(&["x", "y", "z", "x"]), 2);
    assert_eq!(e.location.path.as_deref(), Some("/regions/regionServers"));
    assert!(e.message.contains("on 3 servers"), "{e}");
}

#[test]
fn placement_numbers_servers_in_order_of_first_sight() {
    let p = names(&["b", "a", "b", "c", "a"]).placement().unwrap();
    assert_eq!(p.names, ["b", "a", "c"]);
    assert_eq!(p.servers, [0, 1, 0, 2, 1]);
    assert!(Assignment::RoundRobin.placement().is_none());
    // 100,000 regions on 10,000 servers, named in reverse: region i is on server i mod 10,000.
    let many: Vec<String> = (0..100_000u32)
        .map(|i| format!("rs{:05}", 9_999 - i % 10_000))
        .collect();
    let p = Assignment::Servers(many).placement().unwrap();
    assert_eq!(p.names.len(), 10_000);
    assert_eq!(p.names[0], "rs09999");
    assert!(p
        .servers
        .iter()
        .enumerate()
        .all(|(i, &s)| s as usize == i % 10_000));
}
