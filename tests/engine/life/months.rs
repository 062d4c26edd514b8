//! The Months view's engine calls (issue 58, item 5) and `check`'s gate on the months (item
//! 6): the key-range map against a table whose regions are known by hand, the progress hook
//! and its stop, two settings compared, and the gate's verdict on months written by hand.

use rowkey_lab::hbase::policy::SplitPolicy;
use rowkey_lab::life::*;
use serde_json::json;

/// One lane written evenly, pre-split at 1/4 and 1/2, no splits, one server: three regions
/// of widths 1/4, 1/4 and 1/2 that never change.
fn three_regions(months: u32) -> (LifeSettings, LifeWorkload) {
    let s = LifeSettings {
        months,
        policy: SplitPolicy::Disabled,
        ..LifeSettings::default()
    };
    let w = LifeWorkload {
        writes_per_second: 1000.0,
        cell_bytes: 1000.0,
        keys: KeyModel::uniform(1),
        presplit: vec![0.25, 0.5],
    };
    (s, w)
}

#[test]
fn the_map_shows_each_month_s_regions_over_the_key_space() {
    let (s, w) = three_regions(2);
    let v = months_of(&s, &w, &mut |_, _| Ok(())).unwrap();
    let m = &v.map;
    assert_eq!((m.rows, m.cols, m.lanes), (MAP_ROWS, 2, 1));
    let at = |r: u32, c: u32| (r * m.cols + c) as usize;
    for c in 0..2 {
        // Boundaries at 1/4 and 1/2 of 256 rows: rows 64 and 128, nowhere else.
        let rows_with: Vec<u32> = (0..m.rows)
            .filter(|&r| m.boundaries[at(r, c)] > 0)
            .collect();
        assert_eq!(rows_with, vec![64, 128]);
        assert_eq!(m.region_start[at(10, c)], 0.0);
        assert_eq!(m.region_end[at(10, c)], 0.25);
        assert_eq!(m.region_start[at(100, c)], 0.25);
        assert_eq!(m.region_start[at(255, c)], 0.5);
        assert_eq!(m.region_end[at(255, c)], 1.0);
        // Writes spread evenly: the half-width region holds twice the bytes of a quarter one,
        // and each quarter as much as the other.
        let (q1, q2, half) = (m.bytes[at(0, c)], m.bytes[at(127, c)], m.bytes[at(128, c)]);
        assert!(q1 > 0.0);
        assert!((q2 / q1 - 1.0).abs() < 0.01, "{q1} {q2}");
        assert!((half / q1 - 2.0).abs() < 0.02, "{q1} {half}");
    }
    // The last column is the regions at the end.
    let end = &v.report.regions_at_end;
    assert_eq!(end.len(), 3);
    assert_eq!(m.bytes[at(0, 1)], end[0].bytes);
    assert_eq!(m.bytes[at(200, 1)], end[2].bytes);
    // 1000 cells/s of 1000 bytes: 86.4 GB a day, month 2 holds twice month 1's bytes (no TTL).
    let month_kv = 1e6 * 86_400.0 * 30.0;
    let total = |c: u32| m.bytes[at(0, c)] + m.bytes[at(64, c)] + m.bytes[at(128, c)];
    assert!(
        (total(0) / month_kv - 1.0).abs() < 0.01,
        "{}",
        total(0) / month_kv
    );
    assert!((total(1) / total(0) - 2.0).abs() < 0.01);
    assert_eq!(v.settings.months, 2);
}

#[test]
fn a_time_led_key_s_map_fills_upwards_and_its_regions_are_the_report_s() {
    let s = LifeSettings {
        months: 2,
        ..LifeSettings::default()
    };
    let w = LifeWorkload {
        writes_per_second: 1000.0,
        cell_bytes: 1000.0,
        keys: KeyModel::time_led(),
        presplit: vec![],
    };
    let v = months_of(&s, &w, &mut |_, _| Ok(())).unwrap();
    let m = &v.map;
    assert_eq!(m.order, LaneOrder::Ascending);
    let col = |c: u32| -> Vec<u32> {
        (0..m.rows)
            .map(|r| m.boundaries[(r * m.cols + c) as usize])
            .collect()
    };
    // Each boundary is a region start: month by month the boundaries count regions - 1.
    for (c, month) in v.report.months.iter().enumerate() {
        assert_eq!(col(c as u32).iter().sum::<u32>(), month.regions - 1);
    }
    // Month 1 wrote only the lower half of the key space (time runs over two months): no
    // boundary in the upper half then.
    assert!(col(0)[128..].iter().all(|&b| b == 0));
    assert!(col(1)[128..].iter().any(|&b| b > 0));
}

#[test]
fn progress_comes_at_each_month_s_end_and_its_error_stops_the_run() {
    let (s, w) = three_regions(3);
    let mut seen = Vec::new();
    months_of(&s, &w, &mut |d, t| {
        seen.push((d, t));
        Ok(())
    })
    .unwrap();
    assert_eq!(seen, vec![(1, 3), (2, 3), (3, 3)]);
    let mut calls = 0;
    let e = months_of(&s, &w, &mut |_, _| {
        calls += 1;
        Err(rowkey_lab::error::Error::arg("onMonth", "stop"))
    })
    .unwrap_err();
    assert_eq!(calls, 1);
    assert!(e.message.contains("stop"));
}

/// The gate's budgets from JSON, read as every binding reads them.
fn budgets(v: serde_json::Value) -> rowkey_lab::error::Result<LifeBudgets> {
    LifeBudgets::from_json(&v.to_string())
}

/// A time-led key writing about 1 GiB an hour (300 cells/s of 1 KB).
fn time_led_doc() -> rowkey_lab::design::DesignDocument {
    let v = json!({
        "v": 1,
        "fields": [
            {"name": "id", "type": "string", "generator": {"kind": "uuid", "compact": true}},
            {"name": "t", "type": "timestamp", "generator": {"kind": "clock"}}
        ],
        "key": "time(t, \"yyMMddHHmmss\") + \":\" + id",
        "workload": {"records": 20000, "writeRate": 300, "valueSize": 1000}
    });
    rowkey_lab::design::DesignDocument::from_json(&v.to_string()).unwrap()
}

#[test]
fn two_settings_compared_the_normalizer_merges_what_the_ttl_empties() {
    let doc = time_led_doc();
    let off = super::opts(json!({"months": 3, "ttlSeconds": 2_592_000}));
    // The normalizer on to merge only (its split plans off: on, they cut the time-led tail
    // at twice an average the empty regions hold down, a table of small regions).
    let on = super::opts(json!({"months": 3, "ttlSeconds": 2_592_000,
        "normalizer": {"enabled": true, "mergeMinRegionSizeMb": 0, "splitEnabled": false}}));
    let mut seen = Vec::new();
    let c = compare_design(&doc, &off, &on, &mut |d, t| {
        seen.push((d, t));
        Ok(())
    })
    .unwrap();
    assert_eq!(seen, (1..=6).map(|d| (d, 6)).collect::<Vec<_>>());
    let fig = |name: &str| {
        c.figures
            .iter()
            .find(|f| f.figure.starts_with(name))
            .unwrap()
    };
    // Without the normalizer every emptied region stays; with it (the 0 MB minimum) empty
    // regions merge once 3 days old: B ends with fewer regions and fewer empty ones.
    let (a_end, b_end) = (
        c.a.report.months.last().unwrap(),
        c.b.report.months.last().unwrap(),
    );
    assert!(a_end.empty_regions > 10, "{}", a_end.empty_regions);
    assert!(b_end.empty_regions < a_end.empty_regions / 2);
    assert_eq!(fig("empty regions").better.as_deref(), Some("b"));
    assert_eq!(fig("regions at the end").better.as_deref(), Some("b"));
    assert_eq!(fig("empty regions").a, f64::from(a_end.empty_regions));
    assert!(c.verdict[0].starts_with("B is lower"), "{:?}", c.verdict);
    assert!(c
        .verdict
        .iter()
        .any(|l| l.starts_with("empty regions at the end: B ")));
    assert!(c.a.settings.ttl_seconds == Some(2_592_000) && c.b.settings.normalizer.enabled);
    // The same settings twice: nothing differs.
    let same = compare_design(&doc, &off, &off, &mut |_, _| Ok(())).unwrap();
    assert!(same
        .figures
        .iter()
        .all(|f| f.better.is_none() && f.a == f.b));
    assert!(same.verdict.len() == 1 && same.verdict[0].contains("alike"));
    // Bad options name the member of the setting they are in.
    let e = compare_design(
        &doc,
        &off,
        &super::opts(json!({"months": 0})),
        &mut |_, _| Ok(()),
    )
    .unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("otherOptions/months"));
    let e = compare_design(
        &doc,
        &super::opts(json!({"servers": 0})),
        &off,
        &mut |_, _| Ok(()),
    )
    .unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("options/servers"));
}

/// Months written by hand: (empty regions, regions per server).
fn report_of(months: &[(u32, [u32; 2])]) -> LifeReport {
    let mut r = rowkey_lab::life::simulate(
        &LifeSettings {
            months: 1,
            ..LifeSettings::default()
        },
        &three_regions(1).1,
    )
    .unwrap();
    r.months = months
        .iter()
        .enumerate()
        .map(|(i, (empty, servers))| LifeMonth {
            month: i as u32 + 1,
            empty_regions: *empty,
            servers: servers
                .iter()
                .map(|&regions| ServerMonth {
                    regions,
                    ..ServerMonth::default()
                })
                .collect(),
            ..LifeMonth::default()
        })
        .collect();
    r
}

#[test]
fn the_gate_names_the_first_month_over_and_the_worst() {
    let r = report_of(&[(0, [3, 1]), (5, [4, 4]), (12, [7, 2]), (9, [6, 6])]);
    let b = |e: Option<u32>, s: Option<u32>| LifeBudgets {
        max_empty_regions: e,
        max_regions_per_server: s,
    };
    let c = check_months(&r, &b(Some(8), Some(6)));
    assert!(!c.ok);
    assert_eq!(c.months, 4);
    let e = c.empty_regions.unwrap();
    assert_eq!(
        (e.limit, e.worst, e.worst_month, e.first_month_over),
        (8, 12, 3, Some(3))
    );
    let s = c.regions_per_server.unwrap();
    assert_eq!(
        (s.worst, s.worst_month, s.first_month_over),
        (7, 3, Some(3))
    );
    assert_eq!(c.breaches.len(), 2);
    assert!(c.breaches[0].contains("month 3"), "{:?}", c.breaches);
    // At the worst month's figure the budget holds (over means more than).
    let c = check_months(&r, &b(Some(12), Some(7)));
    assert!(c.ok && c.breaches.is_empty());
    // The first month over, not the worst: 5 empty regions pass 4 in month 2.
    let e = check_months(&r, &b(Some(4), None)).empty_regions.unwrap();
    assert_eq!((e.first_month_over, e.worst_month), (Some(2), 3));
    assert!(check_months(&r, &b(Some(4), None))
        .regions_per_server
        .is_none());
    // No budget: nothing checked, ok.
    assert!(check_months(&r, &LifeBudgets::default()).ok);
}

#[test]
fn a_design_is_gated_on_its_simulated_months() {
    let doc = time_led_doc();
    let opts = super::opts(json!({"months": 3, "ttlSeconds": 2_592_000}));
    let report = simulate_design(&doc, &opts).unwrap();
    // Month 1 has no empty region (the TTL is 30 days); later months do.
    assert_eq!(report.months[0].empty_regions, 0);
    let c = check_design(
        &doc,
        &opts,
        &budgets(json!({"maxEmptyRegions": 0})).unwrap(),
    )
    .unwrap();
    assert!(!c.ok);
    assert!(c.empty_regions.unwrap().first_month_over.unwrap() >= 2);
    let c = check_design(
        &doc,
        &opts,
        &budgets(json!({"maxRegionsPerServer": 100_000})).unwrap(),
    )
    .unwrap();
    assert!(c.ok);
    let e = budgets(json!({"maxEmptyRegion": 3})).unwrap_err();
    assert!(e.message.contains("maxEmptyRegion"), "{}", e.message);
    assert_eq!(e.location.path.as_deref(), Some("lifeBudgets"));
    let e = budgets(json!({"maxEmptyRegions": -1})).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("lifeBudgets"));
}
