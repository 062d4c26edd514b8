//! Where writes land on a fixed layout: a key led by time lights one region per window, a
//! salted key lights every region, split points cut over the wrong byte range leave regions
//! empty, and the diagnosis names the cause of one hot region.

use rowkey_lab::analyze::Analyzer;
use rowkey_lab::hbase::bytes::to_bytes_long;
use rowkey_lab::hbase::hash::md5_as_hex;
use rowkey_lab::hbase::split::bytes_split;

use super::common::{mix, opts, phone_clock_doc, T0};
use crate::cases::Failures;

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
    let mut failures = Failures::new("a timestamp-first key, window by window");
    for (i, w) in r.metrics.per_window.iter().enumerate() {
        failures.eq(format!("window {i}: active regions"), &w.active_regions, &1);
        // max / mean with one of n regions loaded is exactly n.
        failures.check(
            format!("window {i}: hotspot factor"),
            (w.hotspot_factor - regions as f64).abs() < 1e-9,
            format!("expected {regions}, actual {}", w.hotspot_factor),
        );
        failures.check(
            format!("window {i}: busiest share"),
            (w.busiest_share - 1.0).abs() < 1e-12,
            format!("expected 1, actual {}", w.busiest_share),
        );
        failures.check(
            format!("window {i}: effective parallelism"),
            (w.effective_parallelism - 1.0).abs() < 1e-12,
            format!("expected 1, actual {}", w.effective_parallelism),
        );
    }
    failures.finish();
    assert!((r.metrics.mean_active_regions - 1.0).abs() < 1e-12);
    // The diagonal: region i is busy exactly in windows 8i..8i+8.
    let mut failures = Failures::new("the region x window matrix of a timestamp-first key");
    for (i, reg) in r.regions.iter().enumerate() {
        failures.eq(format!("region {i}: writes"), &reg.writes, &(step as u64));
        let row = r.matrix.row(i).unwrap();
        for (w, c) in row.iter().enumerate() {
            let expected = if w / 8 == i { 1000 } else { 0 };
            failures.eq(format!("region {i} window {w}"), c, &expected);
        }
    }
    failures.finish();
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
    let mut failures = Failures::new("a salted key, window by window");
    for (i, w) in r.metrics.per_window.iter().enumerate() {
        failures.eq(format!("window {i}: active regions"), &w.active_regions, &8);
        // 1000 writes over 8 buckets: binomial sd ≈ 10.5 on a mean of 125.
        failures.check(
            format!("window {i}: hotspot factor"),
            w.hotspot_factor < 1.4,
            format!("expected below 1.4, actual {}", w.hotspot_factor),
        );
        failures.check(
            format!("window {i}: effective parallelism"),
            w.effective_parallelism > 7.5,
            format!("expected above 7.5, actual {}", w.effective_parallelism),
        );
    }
    failures.finish();
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
    let mut failures = Failures::new("the regions of Bytes.split over hex text");
    for (i, reg) in r.regions.iter().enumerate() {
        let case = format!("region {i} [{}, {})", reg.start_key, reg.end_key);
        let start = rowkey_lab::hbase::bytes::from_hex(&reg.start_key_hex).unwrap();
        let end = rowkey_lab::hbase::bytes::from_hex(&reg.end_key_hex).unwrap();
        let gap = start.as_slice() >= b":".as_slice()
            && !end.is_empty()
            && end.as_slice() <= b"a".as_slice();
        if gap {
            failures.check(
                format!("{case}: empty"),
                reg.writes == 0,
                format!("in the gap between '9' and 'a', yet {} writes", reg.writes),
            );
        }
        if reg.writes == 0 {
            let above_f = start.as_slice() >= b"g".as_slice();
            let in_gap = start.as_slice() >= b"9".as_slice() && end.as_slice() <= b"b".as_slice();
            failures.check(
                format!("{case}: empty only where no hex key falls"),
                above_f || in_gap,
                "unexpected empty region",
            );
        }
    }
    failures.finish();
    assert!(r.diagnosis.iter().any(|d| d.contains("received no writes")));
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
    // the axes a page draws: the workload's clock, and each design's own regions by key
    assert_eq!(
        (c.start_time_ms, c.window_ms),
        (r.start_time_ms, r.window_ms)
    );
    for (d, report) in c.designs.iter().zip([&r, &t]) {
        assert_eq!(d.region_keys.len(), d.matrix.rows);
        let keys = |g: &[String]| g.join("|");
        assert_eq!(
            keys(
                &d.region_keys
                    .iter()
                    .map(|g| g.start_key.clone())
                    .collect::<Vec<_>>()
            ),
            keys(
                &report
                    .regions
                    .iter()
                    .map(|g| g.start_key.clone())
                    .collect::<Vec<_>>()
            )
        );
        assert_eq!(d.region_keys[0].start_key, "");
        assert_eq!(d.region_keys.last().map(|g| g.end_key.as_str()), Some(""));
        // each region's writes, cells and bytes: what weighs its row when a map shows cells
        // or bytes, as the design's own analysis counted them
        let ours: Vec<_> = d
            .region_keys
            .iter()
            .map(|g| (g.writes, g.cells, g.bytes))
            .collect();
        let theirs: Vec<_> = report
            .regions
            .iter()
            .map(|g| (g.writes, g.cells, g.bytes))
            .collect();
        assert_eq!(ours, theirs);
        assert!(d.region_keys.iter().any(|g| g.bytes > g.writes));
    }
    assert_eq!(c.designs[0].region_keys[1].start_key, "01");
    // Each design by its key, and the figures judged against the first (the salted key): the
    // time-first key is worse where one region takes each window, the same in key bytes
    // (2 + 1 + 11 + 1 + 14 = 3 + 14 + 1 + 11 = 29) and regions (both pre-split into ten).
    assert_eq!(
        c.designs[1].key,
        r#""05_" + time(ts, "yyyyMMddHHmmss") + "_" + phone"#
    );
    let fig = |label: &str| {
        c.figures
            .iter()
            .find(|f| f.label == label)
            .unwrap_or_else(|| panic!("no figure {label}"))
    };
    use rowkey_lab::analyze::{Better, Verdict};
    let hot = fig("Hotspot factor (per window)");
    assert_eq!(hot.better, Some(Better::Lower));
    assert_eq!(hot.values[1], Some(t.metrics.mean_hotspot_factor));
    let pct = (t.metrics.mean_hotspot_factor - r.metrics.mean_hotspot_factor)
        / r.metrics.mean_hotspot_factor
        * 100.0;
    assert_eq!(hot.change_percent, vec![None, Some(pct)]);
    assert_eq!(hot.verdicts, vec![None, Some(Verdict::Worse)]);
    assert_eq!(
        fig("Active regions per window").verdicts[1],
        Some(Verdict::Worse)
    );
    assert_eq!(fig("Key bytes (mean)").values, vec![Some(29.0), Some(29.0)]);
    assert_eq!(fig("Key bytes (mean)").verdicts[1], Some(Verdict::Same));
    assert_eq!(fig("Regions").better, None);
    assert_eq!(fig("Regions").verdicts[1], Some(Verdict::Same));
    // the other way round, the salted key is the better one
    let back = compare(
        &[
            doc(r#""05_" + time(ts, "yyyyMMddHHmmss") + "_" + phone"#),
            doc(r#"salt(phone, 10, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyyMMddHHmmss")"#),
        ],
        &opts,
    )
    .unwrap();
    let hot = back
        .figures
        .iter()
        .find(|f| f.label.starts_with("Hotspot"))
        .unwrap();
    assert_eq!(hot.verdicts[1], Some(Verdict::Better));
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

/// The diagnosis of `doc` over `windows` windows.
fn diagnosis_of(
    doc: &rowkey_lab::design::DesignDocument,
    windows: u32,
) -> (Vec<String>, rowkey_lab::analyze::AnalysisReport) {
    let o = rowkey_lab::analyze::AnalyzeOptions {
        windows,
        ..Default::default()
    };
    let r = rowkey_lab::analyze::analyze(doc, &o).unwrap();
    (r.diagnosis.clone(), r)
}

#[test]
fn a_hotspot_that_moves_leads_the_diagnosis() {
    // The reported case: the time-first telecom key, no pre-split, auto-split at 500 kB with a
    // 100 kB flush. The heatmap is a staircase (under 2 regions take the writes of a window),
    // the whole run's totals are even: the headline said "spread evenly".
    let mut doc = rowkey_lab::design::presets::get("seed000-telecom-time-first").unwrap();
    let regions = doc.regions.get_or_insert_with(Default::default);
    regions.presplit = rowkey_lab::region::PreSplit::None;
    regions.auto_split = Some(super::common::auto(
        rowkey_lab::hbase::policy::SplitPolicy::ConstantSize,
        500_000,
        100_000,
    ));
    // And without auto-split: the preset's own pre-split by time, each region hot in turn.
    let presplit = rowkey_lab::design::presets::get("seed000-telecom-time-first").unwrap();
    for (case, doc) in [("auto-split", &doc), ("pre-split by time", &presplit)] {
        let (d, r) = diagnosis_of(doc, 64);
        let m = &r.metrics;
        // the premise: a window sees a hotspot the whole run does not
        assert!(
            m.mean_effective_parallelism * 2.0 < m.overall.effective_parallelism,
            "{case}: {} per window, {} overall",
            m.mean_effective_parallelism,
            m.overall.effective_parallelism
        );
        let head = d.first().cloned().unwrap_or_default();
        assert!(head.contains("hotspot that moves"), "{case}: {d:#?}");
        assert!(
            !d.iter().any(|l| l.contains("spread evenly")),
            "{case}: {d:#?}"
        );
        // the figures it quotes are the window's, not the run's
        let active = format!("{:.1}", m.mean_active_regions);
        assert!(head.contains(&active), "{case}: {head} lacks {active}");
    }
    // A salted key is even in every window: no moving hotspot is claimed.
    let salted = rowkey_lab::design::presets::get("seed000-telecom").unwrap();
    let (d, _) = diagnosis_of(&salted, 64);
    assert!(!d.iter().any(|l| l.contains("moves")), "{d:#?}");
}

/// A time-led key under auto-split leaves each region it splits behind the writes: such a region
/// holds the rows written before its split and takes none after. The diagnosis says so, and
/// does not call it an empty range of a wrong pre-split (`Bytes.split` over hex text).
#[test]
fn regions_a_split_leaves_behind_are_not_called_empty_ranges() {
    use rowkey_lab::analyze::{analyze, AnalyzeOptions};
    let mut v: serde_json::Value = serde_json::from_str(
        &rowkey_lab::design::presets::get("seed003-time-first")
            .unwrap()
            .to_json(),
    )
    .unwrap();
    v["regions"] = serde_json::json!({"regionServers": 4, "autoSplit": {"config":
        {"maxFileSize": 1_048_576, "memstoreFlushSize": 262_144}}});
    let doc = rowkey_lab::design::DesignDocument::from_json(&v.to_string()).unwrap();
    let r = analyze(&doc, &AnalyzeOptions::default()).unwrap();
    let behind: Vec<_> = r
        .regions
        .iter()
        .filter(|g| g.writes == 0 && g.distinct_rows > 0)
        .collect();
    assert!(
        !behind.is_empty(),
        "the run leaves a region behind its writes"
    );
    assert!(
        r.regions
            .iter()
            .all(|g| g.writes > 0 || g.distinct_rows > 0),
        "every region holds rows"
    );
    let d = r.diagnosis.join("\n");
    assert!(!d.contains("received no writes"), "{d}");
    let rows: u64 = behind.iter().map(|g| g.distinct_rows).sum();
    assert!(
        d.contains(&format!(
            "{} of {} regions took no writes after the split",
            behind.len(),
            r.regions.len()
        )) && d.contains(&format!("{rows} rows")),
        "{d}"
    );
}
