use rowkey_lab::life::*;
const GIB: f64 = (1u64 << 30) as f64;
#[test]
fn scratch() {
    let grow = LifeSettings {
        months: 12,
        servers: 20,
        ..LifeSettings::default()
    };
    let hashed = LifeWorkload {
        writes_per_second: 40.0 * GIB / 86_400.0 / 1000.0,
        cell_bytes: 1000.0,
        keys: KeyModel::uniform(1024),
        presplit: vec![],
    };
    let t = std::time::Instant::now();
    let r = simulate(&grow, &hashed).unwrap();
    println!(
        "hashed {:?} {}",
        t.elapsed(),
        r.months.last().unwrap().regions
    );
    for months in [4] {
        let mut ttl = LifeSettings {
            months,
            servers: 20,
            ttl_seconds: Some(30 * 86_400),
            ..LifeSettings::default()
        };
        ttl.normalizer.enabled = true;
        ttl.normalizer.merge_min_region_size_mb = 0;
        let w = LifeWorkload {
            writes_per_second: 20.0 * GIB / 86_400.0 / 1000.0,
            cell_bytes: 1000.0,
            keys: KeyModel::time_led(),
            presplit: vec![],
        };
        let t = std::time::Instant::now();
        let r = simulate(&ttl, &w).unwrap();
        let m = r.months.last().unwrap();
        println!(
            "{months}: {:?} regions {} empty {} splits {} nsplits {} merges {} moves {} runs {}",
            t.elapsed(),
            m.regions,
            m.empty_regions,
            m.splits,
            m.normalizer_splits,
            m.merges,
            m.moves,
            m.balancer_runs
        );
    }
}
