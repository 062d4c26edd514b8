//! The other forms HBase prints, as series: `list_regions` (REQ and SIZE only) and
//! `status 'detailed'` (region names through Ruby's `String#dump`), and the time a full
//! `/jmx` dump carries.

use rowkey_lab::region::series::{Counted, FileKind, TimeFrom};

use super::common::{fixture_dir, near, series};

const T0: u64 = 1_795_669_200_000;

#[test]
fn list_regions_gives_requests_and_sizes() {
    let s = series(&fixture_dir("list_regions"), None).unwrap_or_else(|e| panic!("{e}"));
    assert!(s.files.iter().all(|f| f.kind == FileKind::ListRegions));
    assert!(s.files.iter().all(|f| f.time_from == Some(TimeFrom::Name)));
    let iv = &s.intervals[0];
    assert_eq!((iv.from_ms, iv.to_ms), (T0, T0 + 60_000));
    let [a, b] = &iv.regions[..] else {
        panic!("{:?}", iv.regions)
    };
    // REQ counts reads and writes together: no split of the two.
    assert_eq!(a.counted, Counted::Difference);
    near(
        a.requests_per_sec,
        Some((9600.0 - 6000.0) / 60.0),
        "A requests",
    );
    near(a.reads_per_sec, None, "no reads in list_regions");
    near(
        b.requests_per_sec,
        Some((1900.0 - 1000.0) / 60.0),
        "B requests",
    );
    // SIZE is whole MB.
    assert_eq!(a.size_bytes, Some(12 << 20));
    near(
        a.growth_bytes_per_sec,
        Some(2.0 * 1_048_576.0 / 60.0),
        "A growth",
    );
    assert_eq!(
        (a.end_key.as_deref(), b.end_key.as_deref()),
        (Some("m"), Some(""))
    );
    // A whole-table listing: no server is missing.
    assert!(s.snapshots.iter().all(|x| x.missing_servers.is_empty()));
}

#[test]
fn status_detailed_names_through_rubys_dump() {
    let s = series(&fixture_dir("status"), None).unwrap_or_else(|e| panic!("{e}"));
    assert!(s.files.iter().all(|f| f.kind == FileKind::StatusDetailed));
    let starts: Vec<Option<&str>> = s.regions.iter().map(|r| r.start_key.as_deref()).collect();
    // `"events,q\"\#{x,…"` is the key q"#{x; `\\x80` the byte 0x80 (toStringBinary \x80).
    assert_eq!(starts, [Some(""), Some("\\x80"), Some("q\"#{x")]);
    let iv = &s.intervals[0];
    // Key order: "" < "q…" (0x71) < "\x80".
    let [c, e, d] = &iv.regions[..] else { panic!() };
    near(c.reads_per_sec, Some(0.0), "C reads");
    near(d.reads_per_sec, Some((400.0 - 100.0) / 30.0), "D reads");
    near(d.writes_per_sec, Some((800.0 - 200.0) / 30.0), "D writes");
    near(e.writes_per_sec, Some((5.0 - 4.0) / 30.0), "E writes");
    assert_eq!(
        d.size_bytes,
        Some((6 + 1) << 20),
        "storefileSizeMB + memstoreSizeMB"
    );
    assert_eq!(
        d.server.as_deref(),
        Some("rs1.example.internal,16020,1700000000123")
    );
    assert_eq!(e.end_key.as_deref(), Some("\\x80"));
    assert_eq!(d.end_key.as_deref(), Some(""));
}

/// A full `/jmx` dump (no `qry`) holds `java.lang:type=Runtime`: `StartTime + Uptime` is the
/// server's clock when it answered.
fn runtime_dump(uptime: u64, reads: u64) -> String {
    let enc = "b9648a65b8e483aa98e34ec614d0456a"; // events,,1700000000000
    format!(
        r#"{{
  "beans" : [ {{
    "name" : "java.lang:type=Runtime",
    "modelerType" : "sun.management.RuntimeImpl",
    "StartTime" : 1795660000000,
    "Uptime" : {uptime},
    "VmName" : "OpenJDK 64-Bit Server VM"
  }}, {{
    "name" : "Hadoop:service=HBase,name=RegionServer,sub=Regions",
    "tag.Hostname" : "rs1.example.internal",
    "Namespace_default_table_events_region_{enc}_metric_readRequestCount" : {reads},
    "Namespace_default_table_events_region_{enc}_metric_writeRequestCount" : 0
  }} ]
}}
"#
    )
}

#[test]
fn a_full_dump_carries_its_time() {
    let names = " events,,1700000000000.b9648a65b8e483aa98e34ec614d0456a. column=info:regioninfo\n";
    let files = vec![
        ("meta.txt".to_string(), names.to_string()),
        ("rs1-a.json".to_string(), runtime_dump(1_000_000, 100)),
        ("rs1-b.json".to_string(), runtime_dump(1_040_000, 500)),
    ];
    let s = series(&files, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.files[1].time_ms, Some(1_795_660_000_000 + 1_000_000));
    assert_eq!(s.files[1].time_from, Some(TimeFrom::Dump));
    near(
        s.intervals[0].regions[0].reads_per_sec,
        Some(400.0 / 40.0),
        "reads over 40 s",
    );
}

#[test]
fn a_merge_counts_the_new_region_since_it_opened() {
    use rowkey_lab::region::series::RegionEvent;
    let s = series(&fixture_dir("merge"), None).unwrap_or_else(|e| panic!("{e}"));
    let iv = &s.intervals[0];
    let [m] = &iv.regions[..] else {
        panic!("{:?}", iv.regions)
    };
    assert_eq!(m.counted, Counted::Merged);
    near(
        m.requests_per_sec,
        Some(1200.0 / 60.0),
        "M requests since the merge",
    );
    assert_eq!(
        (m.start_key.as_deref(), m.end_key.as_deref()),
        (Some(""), Some(""))
    );
    assert_eq!(s.regions[m.region].parents, [0, 1]);
    assert_eq!(
        s.events.iter().map(|e| e.event.clone()).collect::<Vec<_>>(),
        [RegionEvent::Merge {
            snapshot: 1,
            parents: vec![0, 1],
            merged: m.region
        }]
    );
}
