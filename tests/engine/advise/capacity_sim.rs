//! The advisor's capacity figures from the simulation, against bounds derived by hand: 1,000
//! writes a second of 1,000-byte records are KeyValues of 1,022 bytes (20 + family 1 +
//! qualifier 1), 88,300,800,000 bytes a day; a region splits past 10 GiB jittered by ±12.5 %
//! (8.75 to 11.25 GiB) and its daughters hold half of that or more.

use super::super::common::preset;
use super::metrics;
use rowkey_lab::advise::capacity::{capacity, CapacityOptions};

const DAY: f64 = 1000.0 * 1022.0 * 86_400.0;
const GIB: f64 = 1_073_741_824.0;

fn opts(ttl_days: Option<f64>) -> CapacityOptions {
    CapacityOptions {
        record_bytes: Some(1000),
        write_rate: Some(1000.0),
        ttl_days,
        ..CapacityOptions::default()
    }
}

#[test]
fn simulated_a_spread_key_fills_its_regions_in_waves_up_to_the_split_limit() {
    // seed000-telecom: a salted key pre-split into 10 regions, on 5 servers.
    let doc = preset("seed000-telecom");
    let c = capacity(&doc, &metrics(10, 10.0), &opts(None), 5);
    let h = &c.horizons;
    assert_eq!(h.iter().map(|h| h.months).collect::<Vec<_>>(), [1, 6, 12]);
    // Month 1: 30 days written, every byte of it.
    assert!((h[0].written_bytes - 30.0 * DAY).abs() < 1e-6 * 30.0 * DAY);
    // On disk: all but the memstores (under a 128 MiB flush each).
    let mem = h[0].regions as f64 * 128.0 * 1_048_576.0;
    assert!(h[0].kept_bytes <= h[0].written_bytes * (1.0 + 1e-9));
    assert!(h[0].kept_bytes >= h[0].written_bytes - mem);
    // Each of the 10 regions takes a tenth, 2.649e11 bytes, in regions of 4.375 to 11.25 GiB:
    // 22 to 57 each, 220 to 570 in all (the arithmetic's 242 assumes full 10 GiB regions).
    assert!((220..=570).contains(&h[0].regions), "{}", h[0].regions);
    // Month 12: 360 days would fill 2,632 regions of 11.25 GiB or more; but no server splits
    // past its 1,000 regions (hbase.regionserver.regionSplitLimit): at most 5,000.
    assert!((2632..=5000).contains(&h[2].regions), "{}", h[2].regions);
    assert!(h[2].regions_per_server <= 1000.0);
    assert_eq!(h[2].guide, "above");
    // The notes say it was simulated, and what the arithmetic would have said (2,897).
    assert!(
        c.notes[0].starts_with("simulated month by month"),
        "{:?}",
        c.notes
    );
    assert!(c.notes[0].contains("2897 regions"), "{}", c.notes[0]);
}

#[test]
fn simulated_a_time_leading_key_with_a_ttl_leaves_empty_regions_until_the_limit() {
    let doc = preset("seed000-telecom-time-first");
    let c = capacity(&doc, &metrics(6, 1.0), &opts(Some(30.0)), 3);
    assert!(c.time_leading);
    let m = &c.monthly;
    assert_eq!(m.len(), 12);
    // One region is written; each split cuts at the middle of its largest store file, in the
    // steady state the compacted references of its last split (C), so the region left behind
    // holds C/2 where 3C/2 just passes the split size: a third of it, 2.92 GiB at the jitter's
    // low end (8.75 GiB), and at most half of 11.25 GiB: 30 days (2.649e12 bytes) make 219 to
    // 845 regions.
    assert!((219..=845).contains(&m[0].regions), "{}", m[0].regions);
    assert_eq!(
        m[0].empty_regions, 0,
        "nothing is older than the 30-day TTL"
    );
    // Month 2 (day 60): a region is empty by TTL + one jittered major period (10.5 days) +
    // the 2.8 h chore after its newest cell, so every region filled by day 19.4 is: 141 or
    // more (19.4 days in regions of 11.25 GiB, less the one being filled); none filled
    // after day 30 is: 845 at most (30 days in regions of 2.92 GiB, above).
    assert!(
        (141..=845).contains(&m[1].empty_regions),
        "{}",
        m[1].empty_regions
    );
    // Kept: at most the TTL's 30 days and a major period (40.6 days) of writes.
    assert!(m[11].kept_bytes <= 40.6 * DAY);
    // The server holding the written region splits until it holds 1,000 regions, and the
    // balancer spreads them over 3 servers: the table stops near 3,000 and splits no more.
    assert!(m[11].regions <= 3000, "{}", m[11].regions);
    assert_eq!(m[11].regions, m[9].regions);
    let _ = GIB;
}
