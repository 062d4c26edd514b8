//! The salted fixture (`tests/fixtures/observe/salted/`, `salted-design.json`) against its
//! design: eight regions, one per salt bucket of `salt(host, 8, as=dec(2))`, twelve hosts each
//! writing 10 rows/s but web07 at 60 (the fixture script's HOST_WRITES). The buckets are worked
//! out here with Java's String.hashCode, apart from the engine's hash.

use rowkey_lab::analyze::{against_design, analyze, AnalyzeOptions, Measure};
use rowkey_lab::design::DesignDocument;

use super::common::{fixture_dir, series};

/// Java `String.hashCode`, then `Math.abs(h % 8)`.
fn bucket(host: &str) -> usize {
    let h = host
        .chars()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32));
    (h % 8).unsigned_abs() as usize
}

/// Writes per second per bucket: the hosts hashed into it.
fn bucket_writes() -> [f64; 8] {
    let mut w = [0.0; 8];
    for i in 1..=12 {
        let host = format!("web{i:02}");
        w[bucket(&host)] += if host == "web07" { 60.0 } else { 10.0 };
    }
    w
}

#[test]
fn a_salted_table_against_its_design() {
    let s = series(&fixture_dir("salted"), None).unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/observe/salted-design.json"
    ))
    .unwrap();
    let doc = DesignDocument::from_json(&text).unwrap();
    let layout = s.layout.clone().unwrap();
    let on = doc.on_table_regions(layout.presplit, layout.assignment);
    let report = analyze(&on, &AnalyzeOptions::default()).unwrap();
    let predicted: Vec<u64> = report.regions.iter().map(|r| r.writes).collect();
    let o = against_design(&s, &doc, Some(&predicted)).unwrap();
    let a = o.against.unwrap();
    // The last interval with rates is the third, 06:02 → 06:03.
    assert_eq!(
        (a.interval, a.from_ms, a.to_ms),
        (2, 1_795_672_920_000, 1_795_672_980_000)
    );
    assert_eq!(a.measure, Measure::Writes);
    let w = bucket_writes();
    let total: f64 = w.iter().sum();
    assert_eq!(total, 170.0);
    for (b, r) in a.regions.iter().enumerate() {
        let m = r.measured_share.unwrap();
        assert!((m - w[b] / total).abs() < 1e-9, "bucket {b}: {m}");
        // The design's hosts are uniform: a bucket predicts its hosts' twelfths.
        let hosts = (1..=12)
            .filter(|i| bucket(&format!("web{i:02}")) == b)
            .count();
        let p = r.predicted_share.unwrap();
        assert!((p - hosts as f64 / 12.0).abs() < 0.03, "bucket {b}: {p}");
        let label = if b == 0 {
            "(first)".to_string()
        } else {
            format!("salt {b:02}")
        };
        assert_eq!(r.decoded.as_deref(), Some(label.as_str()));
    }
    // Bucket 03 holds web07 (60) and web10 (10): 70 of 170, 3.29 × the mean of 8 regions; rs2
    // holds it and bucket 07 (10): 80 of 170 = 47 % on 2 of 8 regions.
    assert_eq!(bucket("web07"), 3);
    assert_eq!(o.diagnosis.len(), 2, "{:?}", o.diagnosis);
    assert!(
        o.diagnosis[0].starts_with(
            "salted, but bucket 03 takes 3.3× the mean (41 % of writes over 8 regions): its \
             input `host` has 12 values, 1.5 per bucket of 8"
        ),
        "{}",
        o.diagnosis[0]
    );
    assert!(
        o.diagnosis[0].contains("; the design predicts 1"),
        "{}",
        o.diagnosis[0]
    );
    assert!(
        o.diagnosis[1].starts_with(
            "one server takes 47 % of writes while holding 25 % of the regions (2 of 8): \
             rs2.example.internal,16020,1700000000456"
        ),
        "{}",
        o.diagnosis[1]
    );
}
