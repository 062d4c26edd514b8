//! The scenario of `tests/fixtures/observe/scenario/`: table `events`, region A = ["", m) and
//! B = [m, ""), one poll of two RegionServers a minute from 2026-11-26T05:00:00Z:
//!
//! | poll | rs1 | rs2 |
//! |---|---|---|
//! | 0 | A: reads 1000, writes 5000, 10 MB + 1 MB | B: 200, 800 |
//! | 1 | A: 1600, 8000, 12 + 2 | B split at `t`: B1 30, 120, 9 + 0; B2 60, 240, 11 + 1 |
//! | 2 | (hbase:meta only) | A moved here: 300, 900, 13 + 1; B1 90, 480, 9 + 1; B2 reopened: 20, 60, 12 + 0 |
//! | 3 | (hbase:meta only) | no dump |
//! | 4 | (hbase:meta only) | A 900, 2100; B1 150, 840; B2 140, 300 |
//!
//! `meta.txt` (a scan of hbase:meta) names the four regions, so each has its key range.

use rowkey_lab::region::series::{Counted, RegionEvent, RegionSeries};

use super::common::{fixture_dir, near, series};

const T0: u64 = 1_795_669_200_000; // 2026-11-26T05:00:00Z
const MB: f64 = 1_048_576.0;
const RS1: &str = "rs1.example.internal,16020,1700000000123";
const RS2: &str = "rs2.example.internal,16020,1700000000456";

fn scenario() -> RegionSeries {
    series(&fixture_dir("scenario"), None).unwrap_or_else(|e| panic!("{e}"))
}

/// The region index of the region starting at `start` with region id `id`.
fn region(s: &RegionSeries, start: &str, id: u64) -> usize {
    s.regions
        .iter()
        .position(|r| r.start_key.as_deref() == Some(start) && r.region_id == Some(id))
        .unwrap_or_else(|| panic!("no region {start:?} {id}"))
}

#[test]
fn snapshots_and_regions() {
    let s = scenario();
    assert_eq!(s.table, "events");
    let times: Vec<u64> = s.snapshots.iter().map(|x| x.time_ms).collect();
    assert_eq!(times, (0..5).map(|k| T0 + k * 60_000).collect::<Vec<_>>());
    let counts: Vec<u32> = s.snapshots.iter().map(|x| x.regions).collect();
    assert_eq!(counts, [2, 3, 3, 0, 3]);
    // rs2 has no dump at poll 3: said, for that poll only.
    let missing: Vec<Vec<String>> = s
        .snapshots
        .iter()
        .map(|x| x.missing_servers.clone())
        .collect();
    let rs2 = vec!["rs2.example.internal".to_string()];
    assert_eq!(missing, [vec![], vec![], vec![], rs2, vec![]]);
    // A, B, B1, B2; table `other`'s region on rs2 and hbase:meta are not mixed in.
    assert_eq!(s.regions.len(), 4);
    let b1 = region(&s, "m", 1_795_669_230_000);
    let b = region(&s, "m", 1_700_000_000_000);
    assert_eq!(s.regions[b1].parents, [b]);
    // meta.txt has no load: key ranges only, in no snapshot.
    let meta = s.files.iter().find(|f| f.name == "meta.txt").unwrap();
    assert_eq!(meta.snapshot, None);
    assert_eq!(s.intervals.len(), 4);
}

#[test]
fn a_plain_interval_and_a_split() {
    let s = scenario();
    let (a, b) = (
        region(&s, "", 1_700_000_000_000),
        region(&s, "m", 1_700_000_000_000),
    );
    let (b1, b2) = (
        region(&s, "m", 1_795_669_230_000),
        region(&s, "t", 1_795_669_230_000),
    );
    let iv = &s.intervals[0];
    assert_eq!((iv.from_ms, iv.to_ms), (T0, T0 + 60_000));
    let order: Vec<usize> = iv.regions.iter().map(|r| r.region).collect();
    assert_eq!(order, [a, b1, b2], "key order at the interval's end");
    let [ra, r1, r2] = &iv.regions[..] else {
        panic!()
    };
    // A on rs1: the difference of two readings over 60 s.
    assert_eq!(ra.counted, Counted::Difference);
    near(ra.reads_per_sec, Some((1600.0 - 1000.0) / 60.0), "A reads");
    near(
        ra.writes_per_sec,
        Some((8000.0 - 5000.0) / 60.0),
        "A writes",
    );
    near(
        ra.requests_per_sec,
        Some((9600.0 - 6000.0) / 60.0),
        "A requests",
    );
    assert_eq!(ra.size_bytes, Some(14 << 20));
    near(
        ra.growth_bytes_per_sec,
        Some((14.0 - 11.0) * MB / 60.0),
        "A growth",
    );
    assert_eq!(
        (ra.end_key.as_deref(), ra.server.as_deref()),
        (Some("m"), Some(RS1))
    );
    // B split at `t` within the minute: the daughters count from zero since they opened.
    for (r, reads, writes, end) in [(r1, 30.0, 120.0, "t"), (r2, 60.0, 240.0, "")] {
        assert_eq!(r.counted, Counted::Split);
        near(r.reads_per_sec, Some(reads / 60.0), "daughter reads");
        near(r.writes_per_sec, Some(writes / 60.0), "daughter writes");
        near(
            r.growth_bytes_per_sec,
            None,
            "a daughter's growth is not known",
        );
        assert_eq!(r.end_key.as_deref(), Some(end));
        assert_eq!(r.server.as_deref(), Some(RS2));
    }
    let total = 60.0 + 150.0 / 60.0 + 300.0 / 60.0;
    near(iv.requests_per_sec, Some(total), "table requests");
    near(ra.share, Some(60.0 / total), "A's share");
    assert_eq!(iv.top, [0, 2, 1]);
    let servers: Vec<(&str, u32)> = iv
        .servers
        .iter()
        .map(|x| (x.server.as_str(), x.regions))
        .collect();
    assert_eq!(servers, [(RS1, 1), (RS2, 2)]);
    near(
        Some(iv.servers[1].writes_per_sec),
        Some((120.0 + 240.0) / 60.0),
        "rs2 writes",
    );
    assert!(s.events.iter().any(|e| e.event
        == RegionEvent::Split {
            snapshot: 1,
            parent: b,
            daughters: vec![b1, b2]
        }));
}

#[test]
fn a_move_and_a_reset() {
    let s = scenario();
    let (a, b1, b2) = (
        region(&s, "", 1_700_000_000_000),
        region(&s, "m", 1_795_669_230_000),
        region(&s, "t", 1_795_669_230_000),
    );
    let iv = &s.intervals[1];
    let [ra, r1, r2] = &iv.regions[..] else {
        panic!()
    };
    // A moved to rs2: reopened there, its counters restarted; the new values over the minute
    // are a lower bound. Its size is a gauge: 12 + 2 MB before, 13 + 1 MB now.
    assert_eq!(ra.counted, Counted::Reopened);
    near(
        ra.reads_per_sec,
        Some(300.0 / 60.0),
        "A reads since the move",
    );
    near(
        ra.writes_per_sec,
        Some(900.0 / 60.0),
        "A writes since the move",
    );
    near(ra.growth_bytes_per_sec, Some(0.0), "A growth");
    assert_eq!(ra.server.as_deref(), Some(RS2));
    // B1: a plain difference.
    assert_eq!(r1.counted, Counted::Difference);
    near(r1.reads_per_sec, Some((90.0 - 30.0) / 60.0), "B1 reads");
    near(r1.writes_per_sec, Some((480.0 - 120.0) / 60.0), "B1 writes");
    near(
        r1.growth_bytes_per_sec,
        Some((10.0 - 9.0) * MB / 60.0),
        "B1 growth",
    );
    // B2's counters went down (60 → 20 reads): a reset, never a negative rate.
    assert_eq!(r2.counted, Counted::Reopened);
    near(
        r2.reads_per_sec,
        Some(20.0 / 60.0),
        "B2 reads since the reopen",
    );
    near(
        r2.writes_per_sec,
        Some(60.0 / 60.0),
        "B2 writes since the reopen",
    );
    let total = 1200.0 / 60.0 + 420.0 / 60.0 + 80.0 / 60.0;
    near(iv.requests_per_sec, Some(total), "table requests");
    assert_eq!(iv.servers.len(), 1);
    assert_eq!(
        (iv.servers[0].server.as_str(), iv.servers[0].regions),
        (RS2, 3)
    );
    assert!(s.events.iter().any(|e| e.event
        == RegionEvent::Move {
            snapshot: 2,
            region: a,
            from: RS1.into(),
            to: RS2.into()
        }));
    assert!(s.events.iter().any(|e| e.event
        == RegionEvent::Reopen {
            snapshot: 2,
            region: b2
        }));
    assert!(!s
        .events
        .iter()
        .any(|e| matches!(&e.event, RegionEvent::Reopen { region, .. } if *region == b1)));
}

#[test]
fn a_missing_dump_is_a_gap_not_a_guess() {
    let s = scenario();
    for k in [2, 3] {
        let iv = &s.intervals[k];
        assert_eq!(
            iv.regions.len(),
            3,
            "the three regions stay alive through the gap"
        );
        for r in &iv.regions {
            assert_eq!(r.counted, Counted::Gap);
            assert_eq!(
                (r.reads_per_sec, r.writes_per_sec, r.requests_per_sec),
                (None, None, None)
            );
        }
        // unknown, not 0: no region of the interval was read at both its ends
        assert_eq!(iv.requests_per_sec, None);
    }
    let gaps: Vec<_> = s
        .events
        .iter()
        .filter_map(|e| match &e.event {
            RegionEvent::Gap {
                snapshot,
                missing_server,
                ..
            } => Some((*snapshot, missing_server.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(gaps, vec![(3, Some("rs2.example.internal".to_string())); 3]);
    assert!(!s
        .events
        .iter()
        .any(|e| matches!(&e.event, RegionEvent::Gone { .. })));
}

#[test]
fn the_last_measured_regions_as_a_design_layout() {
    use rowkey_lab::region::{Assignment, PreSplit};
    let s = scenario();
    // Polls 3 and 4 follow rs2's missing dump: no rates; the last interval with rates ends at 2.
    let l = s
        .layout
        .as_ref()
        .expect("every region at poll 2 has a key range");
    assert_eq!(l.snapshot, 2);
    let (a, b1, b2) = (
        region(&s, "", 1_700_000_000_000),
        region(&s, "m", 1_795_669_230_000),
        region(&s, "t", 1_795_669_230_000),
    );
    assert_eq!(l.regions, [a, b1, b2]);
    match &l.presplit {
        PreSplit::Explicit { keys, .. } => assert_eq!(keys, &["m", "t"]),
        other => panic!("{other:?}"),
    }
    assert_eq!(l.assignment, Some(Assignment::Servers(vec![RS2.into(); 3])));
}

#[test]
fn events_in_json_are_camel_case() {
    // What the CLI and types.d.ts read: `missingServer`, not `missing_server`.
    let s = scenario();
    let json = serde_json::to_value(&s.events).unwrap();
    let gap = json
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "gap")
        .unwrap();
    assert_eq!(gap["missingServer"], "rs2.example.internal");
    let split = json
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "split")
        .unwrap();
    assert!(split.get("daughters").is_some() && split.get("parent").is_some());
}
