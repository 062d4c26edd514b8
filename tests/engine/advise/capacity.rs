//! Capacity and lifecycle. The advisor's figures come from months of life (`life`); the
//! arithmetic stays as their cross-check, tested here against the rules written out (a month
//! is 30 days, a region splits at 10 GiB = 10,737,418,240 bytes, a time-leading key leaves
//! regions of half that), and the simulated figures against bounds derived by hand from
//! HBase's rules (`simulated_*`).

use super::common::preset;
use rowkey_lab::advise::capacity::{arithmetic as capacity, CapacityOptions, Measured};

#[path = "capacity_sim.rs"]
mod simulated;

fn metrics(regions: usize, active: f64) -> Measured {
    Measured {
        active_regions_per_window: active,
        regions,
        key_bytes: 24.0,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn a_spread_key_without_ttl() {
    // seed000-telecom: a salted key, pre-split into 10 regions, all written at once.
    let doc = preset("seed000-telecom");
    let opts = CapacityOptions {
        record_bytes: Some(1000),
        write_rate: Some(1000.0),
        ..CapacityOptions::default()
    };
    let c = capacity(&doc, &metrics(10, 10.0), &opts, 5);
    assert!(!c.time_leading);
    // 1000 records/s × 1000 bytes × 86,400 s = 86.4e9 bytes a day.
    let day = 86.4e9;
    let h = &c.horizons;
    assert_eq!(h.iter().map(|h| h.months).collect::<Vec<_>>(), [1, 6, 12]);
    // 1 month: 30 days = 2.592e12 bytes / 10,737,418,240 = 241.4 -> 242 regions, 48.4 per
    // server (within 20-200); every region written (10 of 10 in the evaluation).
    assert!(close(h[0].kept_bytes, 30.0 * day));
    assert_eq!(h[0].regions, 242);
    assert!(close(h[0].regions_per_server, 242.0 / 5.0));
    assert_eq!(h[0].guide, "within");
    assert!(close(h[0].active_regions_per_server, 242.0 / 5.0));
    // 6 months: 180 days = 1.5552e13 bytes -> 1448.4 -> 1449 regions, 289.8 per server.
    assert_eq!(h[1].regions, 1449);
    assert_eq!(h[1].guide, "above");
    // 12 months: 360 days = 3.1104e13 bytes -> 2896.8 -> 2897 regions; the pre-split rounds
    // up to a multiple of the 5 servers: 2900.
    assert_eq!(h[2].regions, 2897);
    assert_eq!(c.recommended_presplit, 2900);
    // Memstores: 16 GiB × 0.4 / 128 MiB = 51.2 regions per server; 579.4 written regions per
    // server is more, and a note says so.
    assert!(close(c.memstore_regions_per_server, 51.2));
    assert!(c
        .notes
        .iter()
        .any(|n| n.contains("more than the 51.2 memstores")));
    assert!(c.monthly.is_empty() && c.cycle.is_none());
}

#[test]
fn a_small_table_keeps_its_pre_split() {
    // 10 records/s × 100 bytes = 86.4e6 bytes a day; a year (360 days) is 31.1e9 bytes,
    // 2.9 -> 3 regions, fewer than the 10 pre-split: 10 regions throughout, 2 per server
    // (below the guide), and the pre-split stays 10.
    let doc = preset("seed000-telecom");
    let opts = CapacityOptions {
        record_bytes: Some(100),
        write_rate: Some(10.0),
        ..CapacityOptions::default()
    };
    let c = capacity(&doc, &metrics(10, 10.0), &opts, 5);
    assert!(c
        .horizons
        .iter()
        .all(|h| h.regions == 10 && h.guide == "below"));
    assert_eq!(c.recommended_presplit, 10);
}

#[test]
fn a_time_leading_key_with_a_ttl_leaves_empty_regions() {
    let doc = preset("seed000-telecom-time-first");
    let opts = CapacityOptions {
        record_bytes: Some(1000),
        write_rate: Some(1000.0),
        ttl_days: Some(30.0),
        major_compaction_days: 7.0,
        ..CapacityOptions::default()
    };
    // One region of six written per window.
    let c = capacity(&doc, &metrics(6, 1.0), &opts, 3);
    assert!(c.time_leading);
    assert_eq!(c.monthly.len(), 12);
    let half = 10_737_418_240.0 / 2.0;
    let day = 86.4e9;
    // Month 1: 30 days written, 2.592e12 / 5,368,709,120 = 482.8 -> 483 regions; nothing is
    // older than TTL + major compaction (37 days): no empty region.
    assert_eq!(c.monthly[0].regions, 483);
    assert_eq!(c.monthly[0].empty_regions, 0);
    // Month 2: 60 days, 5.184e12 / half = 965.6 -> 966 regions; 60 - 37 = 23 days expired:
    // 23 × 86.4e9 / half = 370.1 -> 370 empty regions.
    assert_eq!(c.monthly[1].regions, 966);
    assert_eq!(c.monthly[1].empty_regions, 370);
    // Month 12: 360 days, 3.1104e13 / half = 5793.5 -> 5794 regions; 323 days expired:
    // 323 × 86.4e9 / half = 5198.1 -> 5198 empty.
    assert_eq!(c.monthly[11].regions, 5794);
    assert_eq!(c.monthly[11].empty_regions, 5198);
    // Kept: 37 days at most.
    assert!(close(c.monthly[11].kept_bytes, 37.0 * day));
    let _ = half;
    // One region written in all: a third of one per server, fewer than 1.
    assert!(close(c.monthly[11].active_regions_per_server, 1.0 / 3.0));
    assert!(c.notes.iter().any(|n| n.contains("never merge")));
    assert_eq!(c.recommended_presplit, 3);
}

#[test]
fn a_cyclic_key_against_ttl_and_two_major_compactions() {
    // seed000-cyclic: time(day, "MM-dd") repeats after 365 days.
    let doc = preset("seed000-cyclic");
    let ok = CapacityOptions {
        ttl_days: Some(300.0),
        ..CapacityOptions::default()
    };
    let c = capacity(&doc, &metrics(4, 1.0), &ok, 1)
        .cycle
        .expect("a cyclic key");
    assert_eq!(c.pattern, "MM-dd");
    // 300 + 2 × 7 = 314 <= 365.
    assert_eq!(
        (c.cycle_days, c.required_days, c.ok),
        (365.0, Some(314.0), Some(true))
    );
    let short = CapacityOptions {
        ttl_days: Some(360.0),
        major_compaction_days: 1.0,
        ..CapacityOptions::default()
    };
    // 360 + 2 × 1 = 362 <= 365: still fine with seed 000's 24-hour major compaction …
    let c = capacity(&doc, &metrics(4, 1.0), &short, 1)
        .cycle
        .expect("cyclic");
    assert_eq!(c.ok, Some(true));
    // … but not with HBase's 7 days: 360 + 14 = 374 > 365.
    let long = CapacityOptions {
        ttl_days: Some(360.0),
        ..CapacityOptions::default()
    };
    let c = capacity(&doc, &metrics(4, 1.0), &long, 1)
        .cycle
        .expect("cyclic");
    assert_eq!((c.required_days, c.ok), (Some(374.0), Some(false)));
    // Without a TTL there is nothing to check against.
    let none = capacity(&doc, &metrics(4, 1.0), &CapacityOptions::default(), 1);
    assert_eq!(none.cycle.expect("cyclic").ok, None);
}

#[test]
fn capacity_options_name_the_bad_input() {
    let bad = CapacityOptions {
        memstore_share: 1.5,
        ..CapacityOptions::default()
    };
    let e = bad.validate().unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("capacity.memstoreShare"));
}
