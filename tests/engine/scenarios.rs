//! Every preset is a full scenario (design + workload + layout + reads). These tests run each
//! one through the analyzer and the read planner and assert the lesson its seed teaches, with
//! thresholds derived from the arithmetic (bucket counts, binomial spread, key ranges), never
//! copied from the program's output.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rowkey_lab::analyze::{analyze, document_encoder, AnalysisReport, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::hbase::bytes::from_hex;
use rowkey_lab::scan::ReadPlan;
use rowkey_lab::workload::{FieldValue, Record, WorkloadStream};

/// 60 windows: the one-hour workloads get one-minute windows, so 10-minute pre-splits of a
/// time-first key align with window edges.
const WINDOWS: u32 = 60;

fn opts() -> AnalyzeOptions {
    AnalyzeOptions {
        windows: WINDOWS,
        ..AnalyzeOptions::default()
    }
}

fn preset(id: &str) -> DesignDocument {
    rowkey_lab::design::presets::get(id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

fn split_keys(r: &AnalysisReport) -> Vec<Vec<u8>> {
    r.regions
        .iter()
        .skip(1)
        .map(|x| from_hex(&x.start_key_hex).unwrap())
        .collect()
}

fn run(id: &str) -> (DesignDocument, AnalysisReport, Vec<ReadPlan>) {
    let doc = preset(id);
    let r = analyze(&doc, &opts()).unwrap_or_else(|e| panic!("{id}: {e}"));
    let plans = doc
        .plan_reads(&split_keys(&r))
        .unwrap_or_else(|e| panic!("{id}: {e}"));
    (doc, r, plans)
}

fn plan<'a>(plans: &'a [ReadPlan], name: &str) -> &'a ReadPlan {
    plans
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no read {name}"))
}

/// Upper bound of max/mean for `n` writes thrown uniformly into `k` regions: the mean plus
/// five binomial standard deviations, over the mean.
fn binomial_bound(n: f64, k: f64) -> f64 {
    let p = 1.0 / k;
    1.0 + 5.0 * (n * p * (1.0 - p)).sqrt() / (n * p)
}

#[test]
fn every_preset_is_a_full_scenario() {
    let mut n = 0;
    for p in rowkey_lab::design::presets::all() {
        let (doc, r, plans) = run(p.id);
        let w = doc
            .workload
            .as_ref()
            .unwrap_or_else(|| panic!("{}: workload", p.id));
        assert!((20_000..=50_000).contains(&w.records), "{}", p.id);
        assert!(doc.regions.is_some(), "{}: regions", p.id);
        assert!(!doc.reads.is_empty(), "{}: reads", p.id);
        assert!(doc.fields.iter().all(|f| f.generator.is_some()), "{}", p.id);
        assert_eq!(r.writes, w.records, "{}", p.id);
        assert_eq!(plans.len(), doc.reads.len());
        n += 1;
    }
    assert!(n >= 22, "{n} presets");
}

/// Timestamp first: one active region per window, and max/mean = region count (a diagonal).
#[test]
fn time_first_keys_draw_a_diagonal() {
    for id in ["seed000-telecom-time-first", "seed003-time-first"] {
        let (doc, r, plans) = run(id);
        let k = r.regions.len();
        assert_eq!(k, 6, "{id}: five 10-minute split keys");
        assert_eq!(r.metrics.loaded_windows, WINDOWS as usize, "{id}");
        for (i, w) in r.metrics.per_window.iter().enumerate() {
            assert_eq!(w.active_regions, 1, "{id} window {i}");
            assert!(
                (w.hotspot_factor - k as f64).abs() < 1e-9,
                "{id} window {i}"
            );
        }
        // One-minute windows, 10-minute regions: region i is written in windows 10i..10i+10.
        for i in 0..k {
            let row = r.matrix.row(i).unwrap();
            for (w, c) in row.iter().enumerate() {
                assert_eq!(*c > 0, w / 10 == i, "{id} region {i} window {w}");
            }
        }
        // Whole-table reads by time are one contiguous scan in one region.
        let recs = doc.workload.as_ref().unwrap().records;
        let minute = plans
            .iter()
            .find(|p| p.name.contains("one minute"))
            .unwrap();
        assert_eq!((minute.scans.len(), minute.regions_touched), (1, 1), "{id}");
        assert!(recs > 0);
        // Equal totals per region must not read as "spread evenly": the words name the hotspot.
        let words = r.diagnosis.join("\n");
        assert!(words.contains("one region"), "{id}: {words}");
        assert!(!words.contains("spread evenly"), "{id}: {words}");
    }
}

/// Salted or hashed keys: every region is active in every window, and the busiest region is
/// within the binomial spread of the mean.
#[test]
fn salted_and_hashed_keys_spread_writes() {
    let cases = [
        ("seed000-telecom", 10),
        ("seed000-vehicle-final", 10),
        ("seed001-hashed-salt", 4),
        ("seed001-random-salt", 4),
        ("seed001-log-bucket", 10),
        ("seed002-hash", 3),
        ("seed002-salt-byte", 8),
        ("seed002-reverse", 10),
        ("seed003-md5-messages", 8),
        ("seed004-hash-prefix", 10),
        ("seed004-md5-prefix", 16),
        ("seed004-md5", 16),
    ];
    for (id, k) in cases {
        let (doc, r, _) = run(id);
        assert_eq!(r.regions.len(), k, "{id}");
        let n = doc.workload.as_ref().unwrap().records as f64;
        let per_window = n / f64::from(WINDOWS);
        for (i, w) in r.metrics.per_window.iter().enumerate() {
            assert_eq!(w.active_regions, k, "{id} window {i}");
            let b = binomial_bound(per_window, k as f64);
            assert!(
                w.hotspot_factor <= b,
                "{id} window {i}: {} > {b}",
                w.hotspot_factor
            );
        }
        let b = binomial_bound(n, k as f64);
        let hf = r.metrics.overall.hotspot_factor;
        assert!(hf <= b, "{id}: overall {hf} > {b}");
        assert_eq!(r.metrics.overall.empty_regions, 0, "{id}");
    }
}

/// Salting turns one range read into one scan per bucket; a computable salt keeps a get to
/// one scan, a random salt cannot.
#[test]
fn salting_turns_one_read_into_n_scans() {
    let (_, _, p) = run("seed000-telecom");
    assert_eq!(plan(&p, "one phone, all time").scans.len(), 10);
    assert_eq!(plan(&p, "one phone, one month").scans.len(), 1);
    assert_eq!(plan(&p, "one phone, three months").scans.len(), 3);
    let (_, _, p) = run("seed002-salt-byte");
    assert_eq!(plan(&p, "an order id range").scans.len(), 8);
    assert_eq!(plan(&p, "an order id range").regions_touched, 8);
    assert_eq!(plan(&p, "one order").scans.len(), 1);
    let (_, _, p) = run("seed002-hash");
    assert_eq!(plan(&p, "orders in one minute").scans.len(), 3);
    let (_, _, p) = run("seed001-hashed-salt");
    assert_eq!(plan(&p, "one row").scans.len(), 1);
    let (_, _, p) = run("seed001-random-salt");
    assert_eq!(plan(&p, "one row").scans.len(), 4);
    assert_eq!(plan(&p, "one row").regions_touched, 4);
}

/// Seed 001's trap: Bytes.split over hex text leaves the regions between '9' and 'a' empty;
/// HexStringSplit over the same kind of key leaves none.
#[test]
fn bytes_split_over_hex_text_leaves_middle_regions_empty() {
    let (_, r, _) = run("seed001-md5hex-bytes-split");
    assert_eq!(r.regions.len(), 13 + 3, "num + 3 regions");
    let mut in_gap = 0;
    for reg in &r.regions {
        let s = from_hex(&reg.start_key_hex).unwrap();
        let e = from_hex(&reg.end_key_hex).unwrap();
        // A hex digit is 0x30-0x39 or 0x61-0x66: no key starts in [':', 'a').
        if s.as_slice() >= b":".as_slice() && !e.is_empty() && e.as_slice() <= b"a".as_slice() {
            assert_eq!(reg.writes, 0, "{}", reg.start_key);
            in_gap += 1;
        }
    }
    // 14 equal slices of 0x30..0x66 (54 first-byte values, ~3.9 each); the 39-value gap holds
    // at least floor(39 / 3.9) - 1 = 9 whole slices.
    assert!(in_gap >= 9, "{in_gap}");
    assert!(r.metrics.overall.empty_regions >= in_gap);
    let (_, hex, _) = run("seed004-md5");
    assert_eq!(hex.metrics.overall.empty_regions, 0);
}

/// Rows read by `plan`'s scans and rows matching `want`, counted over the real workload keys.
fn measured_cost(
    doc: &DesignDocument,
    plan: &ReadPlan,
    want: impl Fn(&Record) -> bool,
) -> (u64, u64) {
    let mut enc = document_encoder(doc).unwrap();
    let mut s = WorkloadStream::new(doc.workload.as_ref().unwrap(), &doc.fields).unwrap();
    let ranges: Vec<(Vec<u8>, Vec<u8>)> = plan
        .scans
        .iter()
        .map(|s| {
            (
                from_hex(&s.start_row_hex).unwrap(),
                from_hex(&s.stop_row_hex).unwrap(),
            )
        })
        .collect();
    let (mut read, mut matched) = (0, 0);
    let mut rec = Record::default();
    let mut key = Vec::new();
    while s.next_into(&mut rec) {
        key.clear();
        enc(&rec, &mut key).unwrap();
        if ranges.iter().any(|(a, b)| {
            key.as_slice() >= a.as_slice() && (b.is_empty() || key.as_slice() < b.as_slice())
        }) {
            read += 1;
        }
        if want(&rec) {
            matched += 1;
        }
    }
    (read, matched)
}

/// Every workload row of the minute from `from` (field 2, `ts`) is read, and only those: the
/// bounds are exact for a time-only read.
fn reads_exactly_one_minute(doc: &DesignDocument, pl: &ReadPlan, from: i64) {
    let (read, matched) = measured_cost(doc, pl, |r| {
        let FieldValue::Long(t) = r.values[2] else {
            panic!()
        };
        (from..from + 60_000).contains(&t)
    });
    assert!(matched > 0);
    assert_eq!(read, matched);
}

fn str_field(rec: &Record, i: usize) -> &str {
    match &rec.values[i] {
        FieldValue::Str(s) => s,
        v => panic!("{v:?}"),
    }
}

/// Seed 000: engine_type first serves "engine type X in one hour" with one exact scan;
/// VIN first scans the whole table and filters.
#[test]
fn engine_type_first_reads_fewer_rows_than_vin_first() {
    let read = "engine type YCK09360-60, one hour";
    let x = "YCK09360-60";
    let cost = |id: &str| {
        let (doc, _, p) = run(id);
        let pl = plan(&p, read).clone();
        let et = doc
            .fields
            .iter()
            .position(|f| f.name == "engine_type")
            .unwrap();
        // The workload is exactly one hour from the read's start, so the time bound holds.
        let (r, m) = measured_cost(&doc, &pl, |rec| str_field(rec, et) == x);
        (pl, r, m, doc.workload.as_ref().unwrap().records)
    };
    let (ep, er, em, _) = cost("seed000-vehicle");
    assert_eq!(ep.scans.len(), 1);
    assert_eq!(ep.rows_read_per_row_returned, Some(1.0));
    assert!(em > 0);
    assert_eq!(er, em, "engine_type first: every row read is returned");
    let (vp, vr, vm, n) = cost("seed000-vehicle-vin-first");
    assert_eq!(vp.scans.len(), 1);
    assert_eq!(vr, n, "vin first: the whole table is read");
    // X has weight 30 of 142: read / returned ≈ 142 / 30 = 4.7; five binomial sds around it.
    let p = 30.0 / 142.0;
    let sd = (n as f64 * p * (1.0 - p)).sqrt();
    let lo = n as f64 / (n as f64 * p + 5.0 * sd);
    assert!(
        vr as f64 / vm as f64 >= lo,
        "{} < {lo}",
        vr as f64 / vm as f64
    );
    assert!((vr as f64 / vm as f64) > (er as f64 / em as f64) * 4.0);
}

/// Seed 002: a reversed timestamp after the entity makes "latest N" read N rows; ascending
/// time makes it read the whole entity.
#[test]
fn reversed_timestamps_read_one_row_per_latest_row() {
    let read = "latest 5 versions of one order";
    let (doc, _, p) = run("seed002-reverse");
    let rp = plan(&p, read);
    assert_eq!(rp.scans.len(), 1);
    assert_eq!(rp.rows_read_per_row_returned, Some(1.0));
    let (adoc, _, ap) = run("seed002-reverse-ascending");
    let ar = plan(&ap, read);
    // 30 000 records over 1000 orders: 30 rows per order, 5 wanted: 6 rows per row returned.
    let per = doc.workload.as_ref().unwrap().records as f64 / 1000.0 / 5.0;
    assert_eq!(ar.rows_read_per_row_returned, Some(per));
    // The ascending design's plan names the way out (a reversed scan with the read's limit);
    // the reversed-timestamp design needs none.
    let reversed = |notes: &[String]| {
        notes
            .iter()
            .any(|n| n.contains("reversed scan") && n.contains("limit 5 reads about 5 rows"))
    };
    assert!(reversed(&ar.notes), "{:?}", ar.notes);
    assert!(!reversed(&rp.notes), "{:?}", rp.notes);
    // Only the newest-first design's scan can stop after the read's 5 rows.
    assert_eq!((rp.limit, ar.limit), (Some(5), None));
    // Measured: in key order, the reversed design's rows of the order come newest first.
    for (d, newest_first) in [(&doc, true), (&adoc, false)] {
        let mut enc = document_encoder(d).unwrap();
        let mut s = WorkloadStream::new(d.workload.as_ref().unwrap(), &d.fields).unwrap();
        let mut rec = Record::default();
        let mut rows = Vec::new();
        while s.next_into(&mut rec) {
            if str_field(&rec, 0) == "100042" {
                let mut k = Vec::new();
                enc(&rec, &mut k).unwrap();
                rows.push((k, rec.time_ms));
            }
        }
        assert!(rows.len() > 5);
        rows.sort();
        let newest = rows.iter().map(|r| r.1).max().unwrap();
        let first = rows.first().unwrap().1;
        assert_eq!(first == newest, newest_first);
    }
}

/// Bad input gets a pointed error.
#[test]
fn bad_scenarios_are_refused_with_pointed_errors() {
    let base: serde_json::Value = serde_json::from_str(
        rowkey_lab::design::presets::all()
            .find(|p| p.id == "seed000-telecom")
            .unwrap()
            .json,
    )
    .unwrap();
    let err = |edit: &dyn Fn(&mut serde_json::Value), o: &AnalyzeOptions| {
        let mut v = base.clone();
        edit(&mut v);
        let e = DesignDocument::from_json(&v.to_string())
            .and_then(|d| analyze(&d, o).and_then(|r| d.plan_reads(&split_keys(&r)).map(|_| r)))
            .unwrap_err();
        format!("{} @ {:?}", e.message, e.location.path)
    };
    let o = opts();
    let explicit = |keys: &[&str]| {
        let keys: Vec<String> = keys.iter().map(|s| s.to_string()).collect();
        move |v: &mut serde_json::Value| {
            v["regions"] = serde_json::json!({"presplit": {"kind": "explicit", "keys": keys}});
        }
    };
    let e = err(&explicit(&["05", "03"]), &o);
    assert!(
        e.contains("sort") || e.contains("order") || e.contains("ascend"),
        "{e}"
    );
    let e = err(&explicit(&["03", "03"]), &o);
    assert!(
        e.contains("duplicate")
            || e.contains("twice")
            || e.contains("sort")
            || e.contains("ascend"),
        "{e}"
    );
    let e = err(&|v| v["regions"]["presplit"]["buckets"] = 0.into(), &o);
    assert!(e.contains("bucket") || e.contains("region"), "{e}");
    let e = err(
        &|v| v["regions"] = serde_json::json!({"presplit": {"kind": "hexString", "regions": 0}}),
        &o,
    );
    assert!(e.contains("region"), "{e}");
    let e = err(&|v| v["workload"]["records"] = 0.into(), &o);
    assert!(
        e.contains("at least 1") && e.contains("/workload/records"),
        "{e}"
    );
    let e = err(
        &|v| v["workload"]["records"] = 10_000_000_000_000u64.into(),
        &o,
    );
    assert!(
        e.contains("records") && e.contains("/workload/records"),
        "{e}"
    );
    let e = err(&|v| v["reads"][0]["from"]["imei"] = "1".into(), &o);
    assert!(e.contains("imei") && e.contains("/reads/0"), "{e}");
    // 1000 regions × 65 536 windows = 65.5 M cells > 16 M.
    let big = AnalyzeOptions {
        windows: 65_536,
        ..opts()
    };
    let e = err(
        &|v| v["regions"] = serde_json::json!({"presplit": {"kind": "hexString", "regions": 1000}}),
        &big,
    );
    assert!(e.contains("cells"), "{e}");
}

fn scan_bounds(p: &ReadPlan) -> Vec<(Vec<u8>, Vec<u8>)> {
    p.scans
        .iter()
        .map(|s| {
            (
                from_hex(&s.start_row_hex).unwrap(),
                from_hex(&s.stop_row_hex).unwrap(),
            )
        })
        .collect()
}

/// Seed 000's final vehicle key `salt(engine_type + vin) - fixed(engine_type) fixed(vin)
/// revts(ts)`: "engine type X in one hour" cannot compute the bucket (no vin), so it is one
/// scan per bucket over `NN-X` (the prefix, `X` is 11 bytes = the fixed width) with the hour
/// filtered, never `start == stop`.
#[test]
fn vehicle_final_engine_hour_is_one_prefix_scan_per_bucket() {
    let (_, _, p) = run("seed000-vehicle-final");
    let pl = plan(&p, "engine type YCK09360-60, one hour");
    assert_eq!(pl.scans.len(), 10);
    for (b, (start, stop)) in scan_bounds(pl).into_iter().enumerate() {
        assert_eq!(start, format!("{b:02}-YCK09360-60").into_bytes());
        // The prefix's stop row: last byte + 1.
        assert_eq!(stop, format!("{b:02}-YCK09360-61").into_bytes());
    }
    assert_eq!(pl.regions_touched, 10);
    // The workload is exactly the read's hour (36 000 records at 10/s): the time filter
    // drops nothing, so one row read per row returned; the notes say ts is filtered.
    assert_eq!(pl.rows_read_per_row_returned, Some(1.0));
    assert!(
        pl.notes.iter().any(|n| n.contains("`ts`")),
        "{:?}",
        pl.notes
    );
}

/// Seed 001's `bucket(ts, mod=100) + long(ts) + ...`: a one-minute range holds 60 000 ms
/// values ≥ 100, so every bucket 0..99 holds rows of it: 100 scans, bucket b's scan bounded
/// by `[b][long(from)] .. [b][long(to)]`. A range shorter than the period only reaches the
/// buckets of its own values.
#[test]
fn modulo_bucket_of_a_time_range_scans_every_bucket() {
    let (doc, _, p) = run("seed001-log-bucket");
    let pl = plan(&p, "every event in one minute");
    assert_eq!(pl.scans.len(), 100);
    let from: i64 = 1_630_973_400_000; // 2021-09-07T00:10:00Z
    for (b, (start, stop)) in scan_bounds(pl).into_iter().enumerate() {
        let mut s = (b as i64).to_be_bytes().to_vec();
        s.extend_from_slice(&from.to_be_bytes());
        let mut e = (b as i64).to_be_bytes().to_vec();
        e.extend_from_slice(&(from + 60_000).to_be_bytes());
        assert_eq!((start, stop), (s, e), "bucket {b}");
    }
    assert_eq!(pl.regions_touched, 10);
    // Coverage and exactness over the workload: every row of the minute is read, and only
    // those (the bounds are exact for a time-only read).
    reads_exactly_one_minute(&doc, pl, from);
    // A 30 ms range reaches 30 buckets.
    let mut short = doc.clone();
    short.reads = vec![serde_json::from_value(serde_json::json!({
        "type": "range", "name": "30 ms",
        "from": {"ts": from}, "to": {"ts": from + 30}
    }))
    .unwrap()];
    let pl = &short.plan_reads(&[]).unwrap()[0];
    assert_eq!(pl.scans.len(), 30);
}

/// A filtered field without a declared cardinality is estimated from the workload: seed
/// 003's md5-first key reads the whole table for "messages of one minute" from a one-hour
/// workload, so 60 rows are read per row returned.
#[test]
fn rows_read_are_estimated_from_the_workload() {
    let (doc, _, p) = run("seed003-md5-messages");
    let pl = plan(&p, "messages of one minute");
    let w = doc.workload.as_ref().unwrap();
    let span_s = w.records as f64 / w.write_rate;
    let est = pl.rows_read_per_row_returned.unwrap();
    assert!((est - span_s / 60.0).abs() < 1e-6, "{est}");
    assert!(pl.notes.iter().any(|n| n.contains("time span")));
    // VIN first: the engine type's weight (30 of 142) sets the ratio.
    let (_, _, p) = run("seed000-vehicle-vin-first");
    let est = plan(&p, "engine type YCK09360-60, one hour")
        .rows_read_per_row_returned
        .unwrap();
    assert!((est - 142.0 / 30.0).abs() < 1e-9, "{est}");
}

/// Every preset's every read: no empty scan, at least one region, one scan per read when
/// the salt's sources are fixed (and not varied), one per bucket when they are open, and the
/// scans cover every workload row the read matches.
#[test]
fn every_read_plan_covers_its_rows() {
    use rowkey_lab::keyspec::{KeySpec, Segment};
    use rowkey_lab::scan::ReadPattern;
    for pr in rowkey_lab::design::presets::all() {
        let (doc, _, plans) = run(pr.id);
        let spec: &KeySpec = &doc.key;
        let salt = spec.segments.iter().find_map(|s| match s {
            Segment::Salt(sp) => Some((sp.buckets, sp.of.clone(), false)),
            Segment::Random(r) => Some((r.buckets, None, true)),
            _ => None,
        });
        for (read, pl) in doc.reads.iter().zip(&plans) {
            let id = format!("{} / {}", pr.id, pl.name);
            assert!(!pl.scans.is_empty(), "{id}");
            assert!(pl.regions_touched >= 1, "{id}");
            for (a, b) in scan_bounds(pl) {
                assert!(b.is_empty() || a < b, "{id}: empty scan");
            }
            // Which fields does the read fix (and to one value)?
            let (fixed, varied): (Vec<String>, Vec<String>) = match read {
                ReadPattern::Range { from, to, .. } => {
                    let f = from
                        .iter()
                        .filter(|(k, v)| to.get(*k) == Some(v))
                        .map(|(k, _)| k.clone());
                    let v = from
                        .iter()
                        .filter(|(k, v)| to.get(*k) != Some(v))
                        .map(|(k, _)| k.clone());
                    (f.collect(), v.collect())
                }
                ReadPattern::Get { record, .. }
                | ReadPattern::Prefix { record, .. }
                | ReadPattern::Latest { record, .. } => (record.keys().cloned().collect(), vec![]),
            };
            if let Some((n, of, random)) = &salt {
                let src: Vec<String> = match of {
                    Some(of) => {
                        let v = serde_json::to_value(of).unwrap();
                        let mut out = Vec::new();
                        fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
                            match v {
                                serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| {
                                    if let (true, Some(s)) = (k == "field", x.as_str()) {
                                        out.push(s.to_string());
                                    } else {
                                        walk(x, out);
                                    }
                                }),
                                serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
                                _ => {}
                            }
                        }
                        walk(&v, &mut out);
                        out
                    }
                    None => doc.fields.iter().map(|f| f.name.clone()).collect(),
                };
                let all_fixed = src.iter().all(|s| fixed.contains(s));
                if *random || !src.iter().all(|s| fixed.contains(s) || varied.contains(s)) {
                    assert_eq!(pl.scans.len(), *n as usize, "{id}: one scan per bucket");
                } else if all_fixed {
                    assert_eq!(pl.scans.len(), 1, "{id}: fixed salt");
                }
            }
            // Coverage: every workload row matching the read lies in some scan.
            let decl = |k: &str| doc.fields.iter().position(|f| f.name == k).unwrap();
            let val = |k: &str, v: &serde_json::Value| {
                use rowkey_lab::keyspec::FieldValue as K;
                match K::from_json(k, doc.fields[decl(k)].field_type, v).unwrap() {
                    K::Str(s) => FieldValue::Str(s),
                    K::Long(x) => FieldValue::Long(x),
                    K::Double(x) => FieldValue::Double(x),
                    K::Bool(x) => FieldValue::Bool(x),
                    other => panic!("{other:?}"),
                }
            };
            let conds: Vec<(usize, FieldValue, Option<FieldValue>)> = match read {
                ReadPattern::Range { from, to, .. } => from
                    .iter()
                    .map(|(k, v)| {
                        let hi = to.get(k).filter(|t| *t != v).map(|t| val(k, t));
                        (decl(k), val(k, v), hi)
                    })
                    .collect(),
                ReadPattern::Get { record, .. }
                | ReadPattern::Prefix { record, .. }
                | ReadPattern::Latest { record, .. } => record
                    .iter()
                    .map(|(k, v)| (decl(k), val(k, v), None))
                    .collect(),
            };
            let ranges = scan_bounds(pl);
            let mut enc = document_encoder(&doc).unwrap();
            let mut s = WorkloadStream::new(doc.workload.as_ref().unwrap(), &doc.fields).unwrap();
            let mut rec = Record::default();
            let mut key = Vec::new();
            let (mut read_n, mut matched) = (0u64, 0u64);
            while s.next_into(&mut rec) {
                key.clear();
                enc(&rec, &mut key).unwrap();
                let inside = ranges.iter().any(|(a, b)| {
                    key.as_slice() >= a.as_slice()
                        && (b.is_empty() || key.as_slice() < b.as_slice())
                });
                let m = conds
                    .iter()
                    .all(|(i, lo, hi)| match (hi, &rec.values[*i], lo) {
                        (Some(FieldValue::Long(h)), FieldValue::Long(x), FieldValue::Long(l)) => {
                            l <= x && x < h
                        }
                        (Some(FieldValue::Str(h)), FieldValue::Str(x), FieldValue::Str(l)) => {
                            l <= x && x < h
                        }
                        (Some(_), _, _) => true,
                        (None, x, lo) => x == lo,
                    });
                read_n += u64::from(inside);
                if m {
                    matched += 1;
                    assert!(inside, "{id}: a matching row lies outside every scan");
                }
            }
            assert!(read_n >= matched, "{id}");
            // A plan that claims one row read per row returned must read exactly the
            // matching rows (a limit makes `latest` read fewer than its prefix holds; a
            // prefix over a formatted time means "the same formatted value", such as the
            // same day of every year, which the exact-value match above does not model).
            let exact_time = conds.iter().any(|(i, _, hi)| {
                hi.is_none()
                    && doc.fields[*i].field_type == rowkey_lab::keyspec::FieldType::Timestamp
            });
            if pl.rows_read_per_row_returned == Some(1.0)
                && !exact_time
                && !matches!(read, ReadPattern::Latest { .. })
            {
                assert_eq!(read_n, matched, "{id}: claims 1 row read per row returned");
            }
        }
    }
}

/// A salt the read cannot compute in front of a `ts % 100` bucket: every salt bucket times
/// every time bucket (4 × 100), and the scans still cover every row of the minute. A range
/// whose `from` is not below its `to` is refused rather than planned as empty scans.
#[test]
fn open_salt_and_modulo_bucket_multiply_and_empty_ranges_are_refused() {
    let mut v: serde_json::Value = serde_json::from_str(
        rowkey_lab::design::presets::all()
            .find(|p| p.id == "seed001-log-bucket")
            .unwrap()
            .json,
    )
    .unwrap();
    v["key"] = "salt(host, 4, as=dec(1)) + bucket(ts, mod=100) + long(ts) + host".into();
    v["regions"] = serde_json::json!({"presplit": {"kind": "saltBuckets", "buckets": 4, "style": "decimal", "width": 1}});
    let doc = DesignDocument::from_json(&v.to_string()).unwrap();
    let plans = doc.plan_reads(&[]).unwrap();
    let pl = plan(&plans, "every event in one minute");
    assert_eq!(pl.scans.len(), 400);
    let from: i64 = 1_630_973_400_000;
    reads_exactly_one_minute(&doc, pl, from);
    v["reads"] =
        serde_json::json!([{"type": "range", "from": {"ts": from + 10}, "to": {"ts": from}}]);
    let e = DesignDocument::from_json(&v.to_string()).unwrap_err();
    assert!(e.message.contains("from"), "{}", e.message);
    assert_eq!(e.location.path.as_deref(), Some("/reads/0"));
}

/// Without a declared cardinality, a filter's share comes from the generator's distinct
/// values: 16^3 random strings, 10^4 phone numbers (each below the record count).
#[test]
fn distinct_values_of_random_strings_and_phones() {
    let doc = DesignDocument::from_json(
        r#"{"v": 1, "fields": [
            {"name": "code", "type": "string", "generator": {"kind": "uniformString", "length": 3, "alphabet": "0123456789abcdef"}},
            {"name": "phone", "type": "string", "generator": {"kind": "phone", "prefixes": ["1"], "digits": 4}},
            {"name": "ts", "type": "timestamp", "generator": {"kind": "clock"}}],
          "key": "time(ts, \"yyyyMMddHHmmss\") + \"_\" + phone + \"_\" + code",
          "workload": {"records": 1000000, "seed": 1},
          "reads": [
            {"type": "prefix", "name": "one phone", "record": {"phone": "10042"}},
            {"type": "prefix", "name": "one code", "record": {"code": "a0f"}}]}"#,
    )
    .unwrap();
    let plans = doc.plan_reads(&[]).unwrap();
    let notes = |i: usize| {
        format!(
            "{:?} {}",
            plans[i].rows_read_per_row_returned,
            plans[i].notes.join(" | ")
        )
    };
    assert!(
        notes(0).contains("1 in 10000 (the workload's phone numbers)"),
        "{}",
        notes(0)
    );
    assert!(
        notes(1).contains("1 in 4096 (the workload's random strings)"),
        "{}",
        notes(1)
    );
}
