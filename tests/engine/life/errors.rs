//! Bad input is a located error, never a panic; the same seed gives the same life.

use rowkey_lab::life::*;

fn ok_workload() -> LifeWorkload {
    LifeWorkload {
        writes_per_second: 1000.0,
        cell_bytes: 200.0,
        keys: KeyModel::uniform(4),
        presplit: vec![],
    }
}

fn path_of(s: &LifeSettings, w: &LifeWorkload) -> String {
    simulate(s, w)
        .unwrap_err()
        .location
        .path
        .unwrap_or_default()
}

#[test]
fn months_rates_and_sizes_out_of_range_name_their_member() {
    let w = ok_workload();
    let mut s = LifeSettings {
        months: 0,
        ..LifeSettings::default()
    };
    assert_eq!(path_of(&s, &w), "/months");
    s.months = MAX_MONTHS + 1;
    assert_eq!(path_of(&s, &w), "/months");
    let s = LifeSettings {
        servers: 0,
        ..LifeSettings::default()
    };
    assert_eq!(path_of(&s, &w), "/servers");
    let mut s = LifeSettings::default();
    s.split.max_file_size = -1;
    assert_eq!(path_of(&s, &w), "/split/maxFileSize");
    let s = LifeSettings {
        compression_ratio: f64::NAN,
        ..LifeSettings::default()
    };
    assert_eq!(path_of(&s, &w), "/compressionRatio");
    let mut s = LifeSettings::default();
    s.compaction.policy = CompactionPolicy::Fifo;
    assert_eq!(path_of(&s, &w), "/compaction/policy", "FIFO without a TTL");
    let s = LifeSettings::default();
    for (w, path) in [
        (
            LifeWorkload {
                writes_per_second: -1.0,
                ..ok_workload()
            },
            "/writesPerSecond",
        ),
        (
            LifeWorkload {
                writes_per_second: f64::INFINITY,
                ..ok_workload()
            },
            "/writesPerSecond",
        ),
        (
            LifeWorkload {
                cell_bytes: 0.0,
                ..ok_workload()
            },
            "/cellBytes",
        ),
        (
            LifeWorkload {
                presplit: vec![2.0, 1.0],
                ..ok_workload()
            },
            "/presplit/1",
        ),
        (
            LifeWorkload {
                presplit: vec![4.0],
                ..ok_workload()
            },
            "/presplit/0",
        ),
        (
            LifeWorkload {
                keys: KeyModel {
                    weights: vec![],
                    ..KeyModel::uniform(1)
                },
                ..ok_workload()
            },
            "/keys/weights",
        ),
        (
            LifeWorkload {
                keys: KeyModel {
                    weights: vec![1.0, -1.0],
                    ..KeyModel::uniform(1)
                },
                ..ok_workload()
            },
            "/keys/weights/1",
        ),
    ] {
        assert_eq!(path_of(&s, &w), path);
    }
}

#[test]
fn no_writes_and_extreme_settings_run_without_panic() {
    let s = LifeSettings {
        months: 2,
        servers: 3,
        ttl_seconds: Some(60),
        ..LifeSettings::default()
    };
    let w = LifeWorkload {
        writes_per_second: 0.0,
        ..ok_workload()
    };
    let r = simulate(&s, &w).unwrap();
    assert_eq!(r.months[1].regions, 1);
    assert_eq!(r.months[1].written_bytes, 0.0);
    let mut s = LifeSettings {
        months: 1,
        servers: 2,
        step_hours: 24.0,
        ..LifeSettings::default()
    };
    s.split.max_file_size = 1 << 20;
    s.split.memstore_flush_size = 1 << 20;
    s.compaction.policy = CompactionPolicy::Fifo;
    s.ttl_seconds = Some(3600);
    let w = LifeWorkload {
        writes_per_second: 1e6,
        keys: KeyModel::time_led(),
        ..ok_workload()
    };
    let r = simulate(&s, &w).unwrap();
    assert!(r.months[0].regions > 1);
}

#[test]
fn the_same_seed_gives_the_same_life_and_another_seed_another_jitter() {
    let s = LifeSettings {
        months: 2,
        servers: 4,
        seed: 7,
        ..LifeSettings::default()
    };
    let w = LifeWorkload {
        writes_per_second: 40.0 * (1u64 << 30) as f64 / 86_400.0 / 200.0,
        ..ok_workload()
    };
    let a = serde_json::to_string(&simulate(&s, &w).unwrap()).unwrap();
    let b = serde_json::to_string(&simulate(&s, &w).unwrap()).unwrap();
    assert_eq!(a, b);
    let other = LifeSettings { seed: 8, ..s };
    let c = serde_json::to_string(&simulate(&other, &w).unwrap()).unwrap();
    assert_ne!(a, c);
    // The report is camelCase JSON with a `months` array.
    let v: serde_json::Value = serde_json::from_str(&a).unwrap();
    assert!(v["months"][0]["emptyRegions"].is_u64());
    assert!(v["months"][0]["sizeHistogram"].is_array());
    assert!(v["crossings"].get("regionsPerServerOver200").is_some());
}
