//! What the readings cannot tell is unknown, never 0 or stretched (issue 55, item 8): the
//! regions of a server with no dump are kept where they were last read, marked, and their
//! neighbours' ranges do not stretch over them; a `/jmx` size read before HBase's region metrics
//! wrapper first ran (`storeCount` 0, sizes 0 for a region's first 45 s) is not a size, and the
//! growth after it is not the region's whole size over a minute; every event carries its time
//! and its sentence for every shell.
//!
//! The scenario is `scenario.rs`'s: A = ["", m), B = [m, "") split at `t` into B1 and B2 at poll
//! 1; A, B1 and B2 on rs2 from poll 2; rs2 has no dump at poll 3.

use rowkey_lab::region::series::{Counted, RegionEvent, RegionSeries};

use super::common::{fixture_dir, series};

const RS2: &str = "rs2.example.internal,16020,1700000000456";
const A: &str = "b9648a65b8e483aa98e34ec614d0456a";
const B1: &str = "63f464856d1ddeee41655610eaf98fc8";
const B2: &str = "d82cf90903d0c019511a584e4bac26f2";

/// The scenario's files with `name` changed by `f` (`None`: left out).
fn with(name: &str, f: impl Fn(&str) -> Option<String>) -> Vec<(String, String)> {
    fixture_dir("scenario")
        .into_iter()
        .filter_map(|(n, t)| {
            if n == name {
                f(&t).map(|t| (n, t))
            } else {
                Some((n, t))
            }
        })
        .collect()
}

/// `region`'s metric `metric` set to `value` in a dump's text.
fn set(text: &str, region: &str, metric: &str, value: u64) -> String {
    let key = format!("\"Namespace_default_table_events_region_{region}_metric_{metric}\" : ");
    let at = text
        .find(&key)
        .unwrap_or_else(|| panic!("no {metric} of {region}"))
        + key.len();
    let end = at + text[at..].find([',', '\n']).unwrap();
    format!("{}{value}{}", &text[..at], &text[end..])
}

/// A region of an interval: encoded name, end key, server, server missing, how counted.
type Kept<'a> = (&'a str, Option<&'a str>, Option<&'a str>, bool, Counted);

fn encoded(s: &RegionSeries, i: usize) -> &str {
    &s.regions[i].encoded
}

#[test]
fn a_server_not_polled_keeps_its_regions_marked() {
    // rs2's dump of poll 4 left out too: A, B1 and B2 are last read at poll 2, and rs2 has no
    // dump at polls 3 and 4. They stay, on rs2, marked, with their own ranges.
    let s = series(&with("20261126T050400Z-rs2.json", |_| None), None).unwrap();
    for k in [2, 3] {
        let iv = &s.intervals[k];
        let got: Vec<Kept<'_>> = iv
            .regions
            .iter()
            .map(|r| {
                (
                    encoded(&s, r.region),
                    r.end_key.as_deref(),
                    r.server.as_deref(),
                    r.server_missing,
                    r.counted,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (A, Some("m"), Some(RS2), true, Counted::Gap),
                (B1, Some("t"), Some(RS2), true, Counted::Gap),
                (B2, Some(""), Some(RS2), true, Counted::Gap),
            ],
            "interval {k}"
        );
        assert_eq!(iv.requests_per_sec, None, "interval {k}: unknown, not 0");
    }
    assert!(
        !s.events
            .iter()
            .any(|e| matches!(e.event, RegionEvent::Gone { .. })),
        "a region on a server not polled is not gone"
    );
}

#[test]
fn a_neighbour_read_does_not_stretch_over_a_region_not_read() {
    // At poll 4, A is read on rs1 (moved back there) while rs2, holding B1 and B2, has no dump:
    // A keeps its end `m`, and B1 and B2 keep [m, t) and [t, "") on rs2, marked.
    let a4 = r#"      "Namespace_default_table_events_region_A_metric_storeCount" : 1,
      "Namespace_default_table_events_region_A_metric_memStoreSize" : 0,
      "Namespace_default_table_events_region_A_metric_storeFileSize" : 14680064,
      "Namespace_default_table_events_region_A_metric_readRequestCount" : 10,
      "Namespace_default_table_events_region_A_metric_writeRequestCount" : 20,
"#
    .replace("region_A_", &format!("region_{A}_"));
    let mut files = with("20261126T050400Z-rs2.json", |_| None);
    let rs1 = files
        .iter_mut()
        .find(|(n, _)| n == "20261126T050400Z-rs1.json")
        .unwrap();
    let at = rs1.1.find("      \"Namespace_hbase_table_meta").unwrap();
    rs1.1.insert_str(at, &a4);
    let s = series(&files, None).unwrap();
    let iv = s.intervals.last().unwrap();
    let got: Vec<(&str, Option<&str>, bool)> = iv
        .regions
        .iter()
        .map(|r| {
            (
                encoded(&s, r.region),
                r.end_key.as_deref(),
                r.server_missing,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (A, Some("m"), false),
            (B1, Some("t"), true),
            (B2, Some(""), true)
        ]
    );
}

#[test]
fn a_size_read_before_the_metrics_were_filled_is_not_a_size() {
    // B1 opened at the split within poll 0 → 1; its first dump reads sizes 0 (HBase fills them
    // 45 s after the region opens). Poll 2 reads it at 9 MB + 1 MB.
    let files = with("20261126T050100Z-rs2.json", |t| {
        Some(set(&set(t, B1, "storeFileSize", 0), B1, "memStoreSize", 0))
    });
    let s = series(&files, None).unwrap();
    let b1 = |k: usize| {
        s.intervals[k]
            .regions
            .iter()
            .find(|r| encoded(&s, r.region) == B1)
            .unwrap()
            .clone()
    };
    assert_eq!(b1(0).counted, Counted::Split);
    assert_eq!(
        b1(0).size_bytes,
        None,
        "0 bytes since the split: not filled"
    );
    assert_eq!(b1(1).size_bytes, Some(10 << 20));
    assert_eq!(
        b1(1).growth_bytes_per_sec,
        None,
        "not 10 MB in a minute: the size before is unknown"
    );
}

#[test]
fn store_count_zero_means_the_figures_are_not_filled() {
    // B2 at poll 2 (reopened there): storeCount 0 and its sizes 0 — not yet filled.
    let files = with("20261126T050200Z-rs2.json", |t| {
        let t = set(t, B2, "storeCount", 0);
        Some(set(&set(&t, B2, "storeFileSize", 0), B2, "memStoreSize", 0))
    });
    let s = series(&files, None).unwrap();
    let b2 = s.intervals[1]
        .regions
        .iter()
        .find(|r| encoded(&s, r.region) == B2)
        .unwrap();
    assert_eq!((b2.size_bytes, b2.growth_bytes_per_sec), (None, None));
    // A plain region whose dump says 1 store keeps its size 0 when it is empty: only a
    // region that opened in the interval or held bytes before is doubted.
}

#[test]
fn every_event_carries_its_time_and_sentence() {
    let s = series(&fixture_dir("scenario"), None).unwrap();
    let split = s
        .events
        .iter()
        .find(|e| matches!(e.event, RegionEvent::Split { .. }))
        .unwrap();
    // poll 1 is 05:01:00; the split happened in interval 0.
    assert_eq!(split.at_ms, 1_795_669_260_000);
    assert_eq!(split.interval, Some(0));
    assert_eq!(split.text, "split: m into m, t");
    let mv = s
        .events
        .iter()
        .find(|e| matches!(e.event, RegionEvent::Move { .. }))
        .unwrap();
    assert_eq!(
        mv.text,
        format!("move: (first) from rs1.example.internal,16020,1700000000123 to {RS2} (counters restart)")
    );
    let gap = s
        .events
        .iter()
        .find(|e| matches!(e.event, RegionEvent::Gap { .. }))
        .unwrap();
    assert!(gap
        .text
        .ends_with("not read (no dump of rs2.example.internal: kept where it was)"));
    let json = serde_json::to_value(split).unwrap();
    assert_eq!(json["kind"], "split");
    assert_eq!(json["atMs"], 1_795_669_260_000u64);
    assert!(json["daughters"].is_array());
}

#[test]
fn the_prediction_is_drawn_on_the_measured_clock_and_unit() {
    use rowkey_lab::analyze::against_design;
    use rowkey_lab::design::DesignDocument;
    // A design whose key is one string field: the start keys read through it.
    let doc =
        DesignDocument::from_json(r#"{"v":1,"key":"s","fields":[{"name":"s","type":"string"}]}"#)
            .unwrap();
    let s = series(&fixture_dir("scenario"), None).unwrap();
    // The compared interval is the last with rates (poll 1 → 2, regions A, B1, B2 on rs2); the
    // design's writes on them: 1, 1, 2 of every 4.
    let o = against_design(&s, &doc, Some(&[100, 100, 200])).unwrap();
    let a = o.against.as_ref().unwrap();
    assert_eq!(a.interval, 1);
    let m = o
        .predicted_map
        .as_ref()
        .expect("a prediction on these regions");
    let n = s.intervals.len();
    let row = |enc: &str| o.rows.iter().position(|&i| encoded(&s, i) == enc).unwrap();
    // Interval 1: writes/s measured A 900/60, B1 (480-120)/60, B2 60/60 (reopened): 23 a
    // second; shares 1/4, 1/4, 1/2 of it.
    let total = (900.0 + 360.0 + 60.0) / 60.0;
    for (enc, share) in [(A, 0.25), (B1, 0.25), (B2, 0.5)] {
        let got = m.regions[row(enc) * n + 1].unwrap();
        assert!((got - share * total).abs() < 1e-9, "{enc}: {got}");
    }
    // Interval 0 ends with the same three regions: A 3000/60, B1 120/60, B2 240/60 writes/s.
    let total0 = (3000.0 + 120.0 + 240.0) / 60.0;
    let got = m.regions[row(B2) * n].unwrap();
    assert!((got - 0.5 * total0).abs() < 1e-9, "{got}");
    // B, the split parent, is alive at no interval's end; intervals 2 and 3 have no rate.
    let parent = o
        .rows
        .iter()
        .position(|&i| s.regions[i].start_key.as_deref() == Some("m") && s.regions[i].first == 0)
        .unwrap();
    assert!((0..n).all(|c| m.regions[parent * n + c].is_none()));
    assert!(m.regions[row(A) * n + 2].is_none() && m.regions[row(A) * n + 3].is_none());
    // rs2's predicted writes at interval 1: all three regions, the measured total.
    let rs2 = m.servers.iter().find(|v| v.server == RS2).unwrap();
    assert!((rs2.rates[1].unwrap() - total).abs() < 1e-9);
}
