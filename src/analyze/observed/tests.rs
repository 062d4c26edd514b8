//! `against_design` on series built by hand: every share and every figure in a diagnosis is
//! worked out here from the rates written below.

use super::against_design;
use crate::design::DesignDocument;
use crate::region::series::{Counted, Interval, RegionRate, RegionSeries, SeriesRegion};

/// A design over `host` (a list of `hosts` values) and `ts`, keyed by `key`.
fn design(key: &str, hosts: usize) -> DesignDocument {
    let values: Vec<String> = (0..hosts).map(|i| format!("\"h{i:02}\"")).collect();
    let json = format!(
        r#"{{"v": 1, "fields": [
            {{"name": "host", "type": "string", "generator": {{"kind": "list", "values": [{}]}}}},
            {{"name": "ts", "type": "timestamp", "generator": {{"kind": "clock"}}}}],
          "key": {key:?}, "workload": {{"records": 100}}}}"#,
        values.join(", ")
    );
    DesignDocument::from_json(&json).unwrap()
}

fn region(start: &str) -> SeriesRegion {
    SeriesRegion {
        encoded: format!("enc-{start}"),
        start_key: Some(start.to_string()),
        region_id: Some(1),
        first: 0,
        last: 0,
        parents: Vec::new(),
    }
}

/// Interval `k` (a minute from `k` minutes) over regions `starts` with these write rates and
/// servers.
fn interval(k: u64, starts: &[&str], writes: &[f64], servers: &[&str]) -> Interval {
    let regions = starts
        .iter()
        .enumerate()
        .map(|(i, s)| RegionRate {
            region: i,
            start_key: Some((*s).to_string()),
            end_key: Some(starts.get(i + 1).copied().unwrap_or("").to_string()),
            server: Some(servers[i].to_string()),
            server_missing: false,
            counted: Counted::Difference,
            seconds: Some(60.0),
            reads_per_sec: Some(0.0),
            writes_per_sec: Some(writes[i]),
            requests_per_sec: Some(writes[i]),
            size_bytes: None,
            growth_bytes_per_sec: None,
            share: None,
        })
        .collect();
    Interval {
        from: k as usize,
        from_ms: k * 60_000,
        to_ms: (k + 1) * 60_000,
        regions,
        top: Vec::new(),
        servers: Vec::new(),
        requests_per_sec: Some(writes.iter().sum()),
    }
}

fn series(starts: &[&str], intervals: Vec<Interval>) -> RegionSeries {
    RegionSeries {
        table: "t".into(),
        files: Vec::new(),
        snapshots: Vec::new(),
        regions: starts.iter().map(|s| region(s)).collect(),
        labels: Vec::new(),
        intervals,
        events: Vec::new(),
        notes: Vec::new(),
        layout: None,
    }
}

#[test]
fn shares_ratios_and_a_server_out_of_proportion() {
    let starts = ["", "m", "t"];
    let s = series(
        &starts,
        vec![interval(
            0,
            &starts,
            &[30.0, 10.0, 60.0],
            &["s1", "s1", "s2"],
        )],
    );
    let doc = design("host + \"|\" + long(ts)", 4);
    let o = against_design(&s, &doc, Some(&[100, 100, 200])).unwrap();
    let a = o.against.unwrap();
    // 30, 10, 60 of 100 writes/s; 100, 100, 200 of 400 predicted.
    let measured: Vec<f64> = a
        .regions
        .iter()
        .map(|r| r.measured_share.unwrap())
        .collect();
    assert_eq!(measured, [0.3, 0.1, 0.6]);
    let predicted: Vec<f64> = a
        .regions
        .iter()
        .map(|r| r.predicted_share.unwrap())
        .collect();
    assert_eq!(predicted, [0.25, 0.25, 0.5]);
    let ratios: Vec<f64> = a.regions.iter().map(|r| r.ratio.unwrap()).collect();
    for (got, want) in ratios.iter().zip([1.2, 0.4, 1.2]) {
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }
    assert_eq!(a.predicted_writes, Some(400));
    assert_eq!(a.regions[1].decoded.as_deref(), Some("host=m…"));
    assert_eq!(o.rows, [0, 1, 2]);
    // s2: 60 % of writes on 1 of 3 regions (33 %): 60 ≥ 1.5 × 33.3 and ≥ 33.3 + 10.
    let s2 = &a.servers[1];
    assert_eq!((s2.server.as_str(), s2.regions), ("s2", 1));
    assert_eq!(s2.predicted_share, Some(0.5));
    // The busiest region is 0.6 × 3 = 1.8 times the mean: not hot.
    assert_eq!(
        o.diagnosis,
        [
            "one server takes 60 % of writes while holding 33 % of the regions (1 of 3): s2; \
          the design predicts 50 % on it"
        ]
    );
}

#[test]
fn a_hot_salt_bucket_is_named_with_its_input_values() {
    // 8 buckets over 12 hosts; bucket 03 takes 70 of 170 writes/s: 70 / 170 × 8 = 3.29×.
    let starts = ["", "01", "02", "03", "04", "05", "06", "07"];
    let writes = [10.0, 10.0, 10.0, 70.0, 20.0, 30.0, 10.0, 10.0];
    let servers = ["a"; 8];
    let s = series(&starts, vec![interval(0, &starts, &writes, &servers)]);
    let doc = design(
        "salt(host, 8, as=dec(2)) + \"|\" + host + \"|\" + long(ts)",
        12,
    );
    let o = against_design(&s, &doc, None).unwrap();
    assert_eq!(
        o.against.as_ref().unwrap().regions[3].salt.as_deref(),
        Some("03")
    );
    assert_eq!(
        o.diagnosis,
        [
            "salted, but bucket 03 takes 3.3× the mean (41 % of writes over 8 regions): its input \
          `host` has 12 values, 1.5 per bucket of 8: a bucket takes the whole load of the few \
          values hashed into it"
        ]
    );
}

#[test]
fn a_prediction_the_table_does_not_bear_out() {
    // The design puts 60 % on region `t` (1.8 × the mean of 3 is not hot; 4 regions: 2.4×);
    // the table gives it 10 %.
    let starts = ["", "g", "m", "t"];
    let s = series(
        &starts,
        vec![interval(0, &starts, &[30.0, 30.0, 30.0, 10.0], &["a"; 4])],
    );
    let doc = design("host + \"|\" + long(ts)", 4);
    let o = against_design(&s, &doc, Some(&[10, 20, 10, 60])).unwrap();
    assert_eq!(
        o.diagnosis,
        [
            "the design predicts region `t` (host=t…) takes 60 % of writes (2.4× the mean), but \
          it takes 10 % of writes now: the live workload does not follow the design's \
          generators there"
        ]
    );
}

#[test]
fn the_hot_range_moves_along_a_time_led_key() {
    let starts = ["", "m", "t"];
    let on = ["a"; 3];
    let hot = |k, i: usize| {
        let mut w = [1.0; 3];
        w[i] = 50.0;
        interval(k, &starts, &w, &on)
    };
    let doc = design("long(ts) + host", 4);
    let s = series(&starts, vec![hot(0, 0), hot(1, 1), hot(2, 1), hot(3, 2)]);
    let o = against_design(&s, &doc, None).unwrap();
    assert!(
        o.diagnosis.iter().any(|d| d
            == "the hot range moves: the busiest region went (first) → `m` → `t` in 4 \
                intervals: the key leads with time (`long(ts)`), so each interval's writes land \
                after the last's"),
        "{:?}",
        o.diagnosis
    );
    // Back and forth is not a range that moves.
    let s = series(&starts, vec![hot(0, 0), hot(1, 2), hot(2, 1)]);
    let o = against_design(&s, &doc, None).unwrap();
    assert!(
        !o.diagnosis.iter().any(|d| d.contains("moves")),
        "{:?}",
        o.diagnosis
    );
}

#[test]
fn a_prediction_on_other_regions_is_said_not_used() {
    let starts = ["", "m"];
    let s = series(
        &starts,
        vec![interval(0, &starts, &[1.0, 3.0], &["a", "b"])],
    );
    let o = against_design(&s, &design("host", 2), Some(&[1, 2, 3])).unwrap();
    let a = o.against.unwrap();
    assert!(a.regions.iter().all(|r| r.predicted_share.is_none()));
    assert_eq!(a.regions[1].measured_share, Some(0.75));
    assert!(
        o.notes[0].contains("ended with 3 regions, the table has 2"),
        "{:?}",
        o.notes
    );
}

#[test]
fn no_rates_no_comparison() {
    let s = series(&[""], Vec::new());
    let o = against_design(&s, &design("host", 2), None).unwrap();
    assert!(o.against.is_none());
    assert_eq!(o.starts.len(), 1);
    assert_eq!(o.rows, [0]);
    assert_eq!(
        o.notes,
        ["no interval has a rate: nothing to set beside the design"]
    );
}

#[test]
fn rows_in_key_order_parents_before_daughters() {
    // Regions as a series lists them: first read order. "m" split into "m" (read later) and "t";
    // one region without a key range.
    let mut s = series(&["t", "m", "", "m"], Vec::new());
    s.regions[3].first = 1;
    s.regions[0].first = 1;
    s.regions.push(SeriesRegion {
        start_key: None,
        ..region("x")
    });
    let o = against_design(&s, &design("host", 2), None).unwrap();
    assert_eq!(o.rows, [2, 1, 3, 0, 4]);
    // each row's label: its start read through the key, else the start of its encoded name
    for (i, b) in o.starts.iter().enumerate() {
        match b {
            Some(b) => assert_eq!(o.labels[i], b.label),
            None => assert_eq!(o.labels[i], "enc-x…"),
        }
    }
    assert_eq!(o.labels.len(), 5);
    assert_eq!(s.regions[2].label(), "(first)");
    assert_eq!(s.regions[0].label(), "t");
}
